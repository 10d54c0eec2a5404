"""Turn judged hands (hand, replay, settlement) into the lake's rows, column by column.

Columns are gathered in plain lists for a whole chunk of hands and become Arrow tables
once, with the schemas of :mod:`pipeline.lake.schema`.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from operator import attrgetter

import pyarrow as pa

from pipeline.cards import format_cards
from pipeline.lake.schema import TABLES
from pipeline.model import ActionType, HandRecord
from pipeline.rules import Replay
from pipeline.rules.stats import FLAG_NAMES, seat_stats
from pipeline.settle import Half, Settlement, hand_status
from pipeline.violations import Reject, Severity

__all__ = ["UNKNOWN_MONTH", "ChunkRows", "month_of", "positions"]

UNKNOWN_MONTH = "unknown"
"""The partition of hands whose log has no start time."""

_BACK = ("CO", "HJ", "MP")
_TYPE_TEXT = {kind: kind.value for kind in ActionType}  # a dict is quicker than .value
_FLAGS_OF = attrgetter(*FLAG_NAMES)


def positions(n: int) -> list[str]:
    """Return position names by index (0 = first seat left of the button).

    >>> positions(2), positions(6)
    (['BB', 'BTN'], ['SB', 'BB', 'UTG', 'HJ', 'CO', 'BTN'])
    >>> positions(10)[2:9]
    ['UTG', 'UTG+1', 'UTG+2', 'UTG+3', 'MP', 'HJ', 'CO']
    """
    if n <= 2:
        return ["BB", "BTN"][-n:] if n else []
    middle = n - 3
    back = list(_BACK[: max(middle - 1, 0)])[::-1]
    front = ["UTG"] + [f"UTG+{k}" for k in range(1, middle - len(back))] if middle else []
    return ["SB", "BB", *front[: middle - len(back)], *back, "BTN"]


def month_of(moment: datetime | None) -> str:
    """Return the partition month of a start time (``unknown`` without one)."""
    return moment.astimezone(UTC).strftime("%Y-%m") if moment is not None else UNKNOWN_MONTH


class ChunkRows:
    """Rows of every table for one chunk of hands, as lists per column."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.columns: dict[str, dict[str, list[object]]] = {
            name: {f.name: [] for f in schema} for name, schema in TABLES.items()
        }

    def _add(self, table: str, **values: object) -> None:
        columns = self.columns[table]
        for name, column in columns.items():
            column.append(values.get(name))

    def add_reject(self, reject: Reject) -> None:
        """Add one input that could not become a hand."""
        self._add(
            "rejects",
            source=reject.source,
            line=reject.line,
            code=reject.code.value,
            message=reject.message,
            field=reject.field,
            hand_id=reject.hand_id,
            excerpt=reject.excerpt,
            run_id=self.run_id,
        )

    def add_hand(self, hand: HandRecord, judged: Replay, settled: Settlement) -> None:
        """Add one judged hand to every table it has rows in."""
        game = hand.game
        key = {"site": hand.site, "hand_id": hand.hand_id, "month": month_of(hand.started_at)}
        scale = game.scale
        violations = judged.violations + settled.violations
        errors = sum(1 for v in violations if v.severity is Severity.ERROR)
        status = hand_status(judged, settled)
        result = hand.result
        self._add(
            "hands",
            **key,
            source=hand.source,
            line=hand.line,
            table_name=hand.table,
            started_at=hand.started_at,
            variant=game.variant.value,
            hole_cards=game.hole_cards,
            betting=game.betting.value,
            hi_lo=game.variant.is_hilo,
            currency=game.currency,
            scale=scale,
            small_blind=game.small_blind,
            big_blind=game.big_blind,
            ante=game.ante,
            button_seat=hand.button,
            n_players=len(judged.seats),
            boards=[format_cards(b) for b in judged.boards],
            deck=format_cards(hand.deck) if hand.deck else None,
            total_pot=sum(p.amount for p in settled.pots),
            rake=result.rake if result is not None and result.rake is not None else 0,
            fees=sum(f.amount for f in result.fees) if result is not None else 0,
            added=result.added if result is not None else 0,
            status=status.value,
            n_violations=len(violations),
            n_errors=errors,
            payouts_match=settled.payouts_match,
            tournament=hand.tournament is not None,
            tournament_id=hand.tournament.id if hand.tournament is not None else None,
            cash_out=bool(result is not None and result.cash_outs),
            converted=hand.converted,
            rules=judged.rules.label,
            run_id=self.run_id,
        )
        self._add_seats(hand, judged, settled, key)
        self._add_actions(hand, judged, key)
        self._add_pots(settled, key, scale)
        for v in violations:
            self._add(
                "violations",
                **key,
                seq=v.seq,
                seat=v.seat,
                code=v.code.value,
                severity=v.severity.value,
                rule=v.rule,
                message=v.message,
                expected=v.expected,
                actual=v.actual,
            )

    def _add_seats(
        self, hand: HandRecord, judged: Replay, settled: Settlement, key: dict[str, str]
    ) -> None:
        names = positions(len(judged.seats))
        recorded: dict[int, int] = defaultdict(int)
        result = hand.result
        if result is not None:
            for c in result.collected:
                recorded[c.seat] += c.amount
        shown = {a.seat for a in hand.actions if a.type is ActionType.SHOW}
        players = {s.seat: s for s in hand.seats}
        seats = judged.seats
        n = len(seats)
        won = [settled.won.get(seat, 0) for seat in seats]
        finals = settled.final_stacks
        cols = self.columns["seats"]
        for name in ("site", "hand_id", "month"):
            cols[name].extend([key[name]] * n)
        cols["scale"].extend([hand.game.scale] * n)
        cols["seat"].extend(seats)
        cols["player"].extend([players[seat].player for seat in seats])
        cols["position"].extend(names)
        cols["stack_start"].extend([players[seat].stack for seat in seats])
        cols["stack_end"].extend(
            [finals.get(seat, judged.stacks[i] + won[i]) for i, seat in enumerate(seats)]
        )
        hole = judged.hole_cards
        cols["hole_cards"].extend(
            [format_cards(k) if (k := hole.get(seat)) else None for seat in seats]
        )
        cols["invested"].extend(judged.invested)
        cols["won"].extend(won)
        cols["won_recorded"].extend(
            [recorded.get(seat, 0) if result is not None else None for seat in seats]
        )
        cols["net"].extend([w - v for w, v in zip(won, judged.invested, strict=True)])
        cols["showed"].extend([seat in shown for seat in seats])
        cols["high_hand"].extend([settled.high_hands.get(seat) for seat in seats])
        cols["low_hand"].extend([settled.low_hands.get(seat) for seat in seats])
        flags = [_FLAGS_OF(f) for f in seat_stats(judged, names)]  # a tuple of flags per seat
        if flags:  # a hand with nobody dealt in has no seat rows
            for name, column in zip(FLAG_NAMES, zip(*flags, strict=True), strict=True):
                cols[name].extend(column)
        pots = _pot_kinds(settled, hand.game.variant.is_hilo)
        for name in ("pots_won", "scoops", "high_only", "low_only", "quartered"):
            cols[name].extend([pots.get(seat, {}).get(name, 0) for seat in seats])

    def _add_actions(self, hand: HandRecord, judged: Replay, key: dict[str, str]) -> None:
        """Add the actions table's rows, column by column (the largest table by far)."""
        players = {s.seat: s.player for s in hand.seats}
        actions = hand.actions
        steps = judged.steps
        c = self.columns["actions"]
        n = len(steps)
        c["site"].extend([key["site"]] * n)
        c["hand_id"].extend([key["hand_id"]] * n)
        c["month"].extend([key["month"]] * n)
        c["scale"].extend([hand.game.scale] * n)
        c["seq"].extend([step.seq for step in steps])
        c["street"].extend([step.street.label for step in steps])
        c["seat"].extend([step.seat for step in steps])
        c["player"].extend(
            [players.get(step.seat) if step.seat is not None else None for step in steps]
        )
        c["type"].extend([_TYPE_TEXT[step.type] for step in steps])
        c["amount"].extend([step.amount for step in steps])
        c["to_amount"].extend([step.to for step in steps])
        c["pot_before"].extend([step.pot_before for step in steps])
        c["to_call"].extend([step.to_call for step in steps])
        c["min_to"].extend([step.min_to for step in steps])
        c["max_to"].extend([step.max_to for step in steps])
        c["stack_before"].extend([step.stack_before for step in steps])
        c["all_in"].extend([step.all_in for step in steps])
        cards = [actions[step.seq].cards for step in steps]
        c["cards"].extend([format_cards(k) if k is not None else None for k in cards])
        c["violation"].extend(
            [",".join(code.value for code in step.codes) if step.codes else None for step in steps]
        )

    def _add_pots(self, settled: Settlement, key: dict[str, str], scale: int) -> None:
        winners: dict[tuple[int, Half], list[int]] = defaultdict(list)
        for a in settled.awards:
            half = Half.LOW if a.half is Half.LOW else Half.HIGH
            if a.seat not in winners[(a.pot, half)]:
                winners[(a.pot, half)].append(a.seat)
            self._add(
                "awards",
                **key,
                pot_index=a.pot,
                runout=a.runout,
                half=a.half.value,
                seat=a.seat,
                scale=scale,
                amount=a.amount,
                hand_description=a.description or None,
                cards_used=format_cards(a.cards_used) if a.cards_used else None,
                rules=list(a.rules),
            )
        for pot in settled.pots:
            self._add(
                "pots",
                **key,
                pot_index=pot.index,
                scale=scale,
                amount=pot.amount,
                rake_share=pot.rake,
                eligible_seats=list(pot.eligible),
                high_winners=winners.get((pot.index, Half.HIGH), []),
                low_winners=winners.get((pot.index, Half.LOW), []),
            )

    def tables(self) -> dict[str, pa.Table]:
        """Return every table's rows as an Arrow table with the lake's schema."""
        return {
            name: pa.Table.from_pydict(self.columns[name], schema=TABLES[name]) for name in TABLES
        }

    def keys(self) -> list[tuple[str, str]]:
        """Return the (site, hand_id) of every hand added, in order."""
        hands = self.columns["hands"]
        return list(zip(hands["site"], hands["hand_id"], strict=True))  # type: ignore[arg-type]


def _pot_kinds(settled: Settlement, hilo: bool) -> dict[int, dict[str, int]]:
    """Count per seat the pots (per runout) won, and how: whole, high or low only, quartered."""
    halves: dict[tuple[int, int], dict[Half, set[int]]] = defaultdict(lambda: defaultdict(set))
    for a in settled.awards:
        halves[(a.pot, a.runout)][a.half].add(a.seat)
    out: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for parts in halves.values():
        high = parts[Half.HIGH] | parts[Half.WHOLE]
        low = parts[Half.LOW]
        for seat in high | low:
            counts = out[seat]
            counts["pots_won"] += 1
            sole_high = high == {seat}
            if sole_high and (low == {seat} or not low):
                counts["scoops"] += 1
            if hilo and seat in high and seat not in low:
                counts["high_only"] += 1
            if hilo and seat in low and seat not in high:
                counts["low_only"] += 1
            if hilo and seat in low and len(low) > 1:
                counts["quartered"] += 1
    return out
