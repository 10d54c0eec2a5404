"""Turn judged hands (hand, replay, settlement) into the lake's rows, column by column.

Rows are gathered for a batch of hands, as tuples or straight into typed columns
(:class:`~pipeline.lake.columns.Columns`), and become Arrow tables at each
:meth:`ChunkRows.flush`, with the schemas of :mod:`pipeline.lake.schema`; a chunk's
tables are its batches' tables put end to end.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
import pyarrow as pa

import pipeline.judged_view  # first, the checks of the compiled views of a judged hand
import pipeline.lake.settlement_view  # noqa: F401
from pipeline.lake.action_rows import ActionRows, add_action_rows, stopped_early
from pipeline.lake.columns import (
    ABSENT,
    Columns,
    card_text,
    kind_of,
    known_card_text,
    table_columns,
    text_array,
    to_arrays,
)
from pipeline.lake.schema import TABLES
from pipeline.model import HILO_VARIANTS, ActionType, Betting, HandRecord, Status, Variant
from pipeline.pots import split_evenly
from pipeline.rules import Replay
from pipeline.rules.stats import FLAG_COLUMNS, FLAG_NAMES, fill_flags, hand_positions
from pipeline.settle import Half, Settlement, error_count, hand_status
from pipeline.violations import Reject, Violation

__all__ = ["UNKNOWN_MONTH", "ChunkRows", "month_of"]

UNKNOWN_MONTH = "unknown"
"""The partition of hands whose log has no start time."""

_SHOW = ActionType.SHOW
_LOW = Half.LOW
_NOBODY: tuple[int, ...] = ()  # no winner of a half (Arrow reads it as an empty list)


def month_of(moment: datetime | None) -> str:
    """Return the partition month of a start time (``unknown`` without one).

    >>> month_of(datetime(999, 6, 1, tzinfo=UTC)), month_of(None)
    ('0999-06', 'unknown')
    """
    if moment is None:
        return UNKNOWN_MONTH
    utc = moment if moment.tzinfo is UTC else moment.astimezone(UTC)  # readers give UTC
    key = utc.year * 12 + utc.month
    month = _MONTHS.get(key)
    if month is None:  # written once per month met (formatting is most of the time here)
        month = _MONTHS[key] = f"{utc.year:04d}-{utc.month:02d}"  # %Y writes no zeros < 1000
    return month


_MONTHS: dict[int, str] = {}
"""Each month's text met so far, by ``year * 12 + month``."""


_NO_POTS = (0, 0, 0, 0, 0)
_SCOOP = (1, 1, 0, 0, 0)  # one pot won, whole and alone
_NO_CASH_OUT = (None, None)
_ABSENT = ABSENT  # a C constant in the compiled form
_HAND_KEYS = ("site", "hand_id", "month", "scale")
"""The columns a hand's rows have in common (each table has those its schema names)."""
_PER_HAND = ("seats", "actions", "pots", "awards", "violations")
"""The tables whose rows are a hand's: their key columns are the hand's, repeated."""
_HAND_INTS = (
    "line",
    "hole_cards",
    "hi_lo",
    "small_blind",
    "big_blind",
    "ante",
    "small_bet",
    "big_bet",
    "button_seat",
    "n_players",
    "total_pot",
    "rake",
    "fees",
    "added",
    "n_violations",
    "n_errors",
    "payouts_match",
    "settled",
    "tournament",
    "cash_out",
    "converted",
    "variant",
    "betting",
    "status",
)
"""The hands' columns kept as integers, in :func:`_add_hand_row`'s order: the flags as 0 or
1 (``payouts_match`` null as :data:`ABSENT`), the last three as their codes in
:data:`_HAND_LABELS`."""
_HAND_TEXT = (
    "source",
    "table_name",
    "started_at",
    "mixed",
    "currency",
    "deck",
    "tournament_id",
    "extras",
    "rules",
    "run_id",
)
_HAND_LISTS = ("boards",)
_SEAT_INTS = (
    "seat",
    "stack_start",
    "stack_end",
    "invested",
    "won",
    "won_recorded",
    "net",
    "cash_out_paid",
    "cash_out_fee",
    "showed",
    "pots_won",
    "scoops",
    "high_only",
    "low_only",
    "quartered",
)
"""The seats' columns kept as integers, in :func:`_add_seat_rows`' order (the flag
``showed`` as 0 or 1; the last five, a seat's pot counts: :func:`_pot_kinds`)."""
_FLAG_INTS = FLAG_NAMES + tuple(f"mark-{k}" for k in range(FLAG_COLUMNS - len(FLAG_NAMES)))
"""The seats' flags (:data:`FLAG_NAMES`), then the marks :func:`fill_flags` keeps as it goes."""
_SEAT_TEXT = ("player", "position", "hole_cards", "high_hand", "low_hand")
_POT_INTS = ("pot_index", "runout", "amount", "rake_share")
_POT_LISTS = ("eligible_seats", "high_winners", "low_winners")
_AWARD_INTS = ("pot_index", "runout", "seat", "amount")
_AWARD_TEXT = ("half", "hand_description", "cards_used")
_AWARD_LISTS = ("rules",)


def _table(schema: pa.Schema, columns: dict[str, pa.Array]) -> pa.Table:
    """Return the columns, cast to the schema's types where they differ, as a table."""
    arrays = []
    for f in schema:
        values = columns[f.name]
        arrays.append(values if values.type == f.type else values.cast(f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


_HAND_LABELS = {
    "variant": pa.array([v.value for v in Variant], pa.string()),
    "betting": pa.array([b.value for b in Betting], pa.string()),
    "status": pa.array([s.value for s in Status], pa.string()),
}
"""The names of the hands' closed vocabularies, each value at its code (:func:`_add_hand_row`)."""
_VARIANT_CODES = {v: code for code, v in enumerate(Variant)}
_BETTING_CODES = {b: code for code, b in enumerate(Betting)}
_STATUS_CODES = {s: code for code, s in enumerate(Status)}
_HAND_AS_CODES = {
    name: pa.field(name, pa.int8())
    for name in _HAND_INTS
    if name in _HAND_LABELS or TABLES["hands"].field(name).type == pa.bool_()
}
"""The hands' columns gathered as integers, then made dictionaries or flags
(:func:`_hand_columns`)."""


def _gathered(
    rows: Sequence[tuple[object, ...]], fields: list[pa.Field]
) -> list[pa.Array | list[object]]:
    """Return the columns of the rows (:func:`to_arrays`), one per field."""
    types = [f.type for f in fields]
    return to_arrays(rows, [kind_of(t) for t in types], types)


class ChunkRows:
    """Rows of every table for one chunk of hands.

    The rows of violations and rejects (few) are tuples in their schema's column order,
    turned into columns at each :meth:`flush` (:func:`~pipeline.lake.columns.to_arrays`);
    the values of hands, actions, seats, pots and awards are written into columns as they
    come (:class:`Columns`), an action's while its step is at hand (the steps then die
    with their replay, not at the flush). Compiled, writing each integer into a C array is
    quicker than building a tuple per row to read back and free at the flush. Flushing a
    batch at a time keeps the Python objects of one batch alive, not the chunk's: a hand's
    rows take kilobytes as tuples, a few hundred bytes as columns.
    The columns every row of a hand shares (its site, hand_id, month and scale) are not in
    the other columns of a hand's rows: they are kept once per hand, with the count of its
    rows in each table, and repeated into columns by Arrow at the flush (``hands`` has
    them as they are).
    """

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self._built = {
            "hands": Columns(_HAND_INTS, _HAND_TEXT, _HAND_LISTS),
            "seats": Columns(_SEAT_INTS, _SEAT_TEXT),
            "pots": Columns(_POT_INTS, lists=_POT_LISTS),
            "awards": Columns(_AWARD_INTS, _AWARD_TEXT, _AWARD_LISTS),
        }
        self._actions = ActionRows()
        self._rows: dict[str, list[tuple[object, ...]]] = {  # violations, rejects
            name: [] for name in TABLES if name not in self._built and name != "actions"
        }
        self._flags = Columns(_FLAG_INTS)  # the seats' flags (fill_flags)
        self._hand_keys: list[list[object]] = [[] for _ in _HAND_KEYS]  # per hand added
        self._counts: dict[str, list[int]] = {name: [] for name in _PER_HAND}  # rows per hand
        self._keys: list[tuple[str, str]] = []
        self._done: dict[str, list[pa.Table]] = {name: [] for name in TABLES}

    def add_reject(self, reject: Reject) -> None:
        """Add one input that could not become a hand."""
        self._rows["rejects"].append(
            (
                reject.source,
                reject.line,
                reject.code,  # a StrEnum: Arrow stores its value
                reject.message,
                reject.field,
                reject.hand_id,
                reject.excerpt,
                self.run_id,
            )
        )

    def add_hand(self, hand: HandRecord, judged: Replay, settled: Settlement) -> Status:
        """Add one judged hand to every table it has rows in; return its status."""
        site, hand_id, month = hand.site, hand.hand_id, month_of(hand.started_at)
        violations = judged.violations + settled.violations
        status = hand_status(judged, settled)
        self._keys.append((site, hand_id))
        hand_keys = self._hand_keys
        hand_keys[0].append(site)
        hand_keys[1].append(hand_id)
        hand_keys[2].append(month)
        hand_keys[3].append(hand.game.scale)
        _add_hand_row(self._built["hands"], hand, judged, settled, status, violations, self.run_id)
        counts = self._counts
        counts["seats"].append(self._add_seats(hand, judged, settled))
        counts["actions"].append(self._add_actions(hand, judged))
        pots, awards = self._add_pots(settled)
        counts["pots"].append(pots)
        counts["awards"].append(awards)
        counts["violations"].append(len(violations))
        self._rows["violations"].extend(
            [
                (
                    v.seq,
                    v.seat,
                    v.code,
                    v.severity,
                    v.rule,
                    v.message,
                    v.expected,
                    v.actual,
                )
                for v in violations
            ]
        )
        return status

    def _add_seats(self, hand: HandRecord, judged: Replay, settled: Settlement) -> int:
        """Add a row per player dealt in; return how many."""
        return _add_seat_rows(self._built["seats"], self._flags, hand, judged, settled)

    def _add_actions(self, hand: HandRecord, judged: Replay) -> int:
        """Add a row per action of the log
        (:func:`~pipeline.lake.action_rows.add_action_rows`); return how many."""
        return add_action_rows(self._actions, hand, judged)

    def _add_pots(self, settled: Settlement) -> tuple[int, int]:
        """Add the awards, and a row per pot and runout (:func:`_add_pot_rows`); return how
        many rows of each."""
        built = self._built
        return _add_pot_rows(built["pots"], built["awards"], settled)

    def flush(self) -> None:
        """Turn the rows gathered since the last flush into Arrow tables, and drop them."""
        keys = self._key_arrays()
        for name, schema in TABLES.items():
            built = self._built.get(name)
            if built is not None:
                if built.n:
                    if name == "hands":  # its keys are its own columns
                        columns = _hand_columns(built, schema)
                        columns.update(keys)
                        self._done[name].append(_table(schema, columns))
                        self._built[name] = built.empty()
                        continue
                    columns = built.columns({f.name: f for f in schema})
                    if name == "seats":
                        flag_fields = [schema.field(flag) for flag in FLAG_NAMES]
                        flags = table_columns(self._flags.ints[:, : built.n], flag_fields)
                        columns.update(zip(FLAG_NAMES, flags, strict=True))
                        self._flags = self._flags.empty()
                    columns.update(self._keys_of(name, keys))
                    self._done[name].append(_table(schema, columns))
                    self._built[name] = built.empty()  # a new one: Arrow shares its arrays
                continue
            if name == "actions":
                if self._actions.values.n:
                    columns = self._actions.columns(schema)
                    columns.update(self._keys_of(name, keys))
                    self._done[name].append(_table(schema, columns))
                    self._actions = self._actions.empty()
                continue
            rows = self._rows[name]
            if not rows:
                continue
            per_hand = name in _PER_HAND
            own = [f for f in schema if f.name not in keys] if per_hand else list(schema)
            gathered = _gathered(rows, own)
            columns = {
                f.name: c if isinstance(c, pa.Array) else text_array(c, f.type)
                for c, f in zip(gathered, own, strict=True)
            }
            if per_hand:
                columns.update(self._keys_of(name, keys))
            self._done[name].append(_table(schema, columns))
            self._rows[name] = []
        self._hand_keys = [[] for _ in _HAND_KEYS]
        self._counts = {name: [] for name in _PER_HAND}

    def _key_arrays(self) -> dict[str, pa.Array]:
        """Return the batch's hands' key columns, a value per hand (none: no hands)."""
        if not self._hand_keys[0]:
            return {}
        schema = TABLES["hands"]
        return {
            name: text_array(values, schema.field(name).type)
            for name, values in zip(_HAND_KEYS, self._hand_keys, strict=True)
        }

    def _keys_of(self, name: str, keys: dict[str, pa.Array]) -> dict[str, pa.Array]:
        """Return a hand table's key columns: each hand's keys repeated on each of its rows."""
        counts = self._counts[name]
        rows_of = pa.array(np.repeat(np.arange(len(counts), dtype=np.int64), counts))
        names = TABLES[name].names
        return {key: values.take(rows_of) for key, values in keys.items() if key in names}

    def tables(self) -> dict[str, pa.Table]:
        """Return every table's rows as an Arrow table with the lake's schema."""
        self.flush()
        return {
            name: pa.concat_tables(parts) if parts else schema.empty_table()
            for (name, schema), parts in zip(TABLES.items(), self._done.values(), strict=True)
        }

    def keys(self) -> list[tuple[str, str]]:
        """Return the (site, hand_id) of every hand added, in order."""
        return self._keys


def _add_hand_row(
    out: Columns,
    hand: HandRecord,
    judged: Replay,
    settled: Settlement,
    status: Status,
    violations: tuple[Violation, ...],
    run_id: str,
) -> None:
    """Add a hand's row of ``hands`` to ``out`` (its :class:`Columns`), but the keys it shares
    with its other rows (site, hand_id, month, scale: :meth:`ChunkRows.flush` adds them).
    (A function, not a method, so that the compiled form reads the records' fields as C
    structs: ``rows.pxd``.)"""
    game = hand.game
    result = hand.result
    out.reserve(1)
    view = out.view
    row = out.n
    view[0, row] = hand.line
    view[1, row] = game.hole_cards
    view[2, row] = game.variant in HILO_VARIANTS  # hi_lo
    view[3, row] = game.small_blind
    view[4, row] = game.big_blind
    view[5, row] = game.ante
    view[6, row] = _ABSENT if game.small_bet is None else game.small_bet
    view[7, row] = _ABSENT if game.big_bet is None else game.big_bet
    view[8, row] = hand.button  # button_seat
    view[9, row] = len(judged.seats)  # n_players
    # total_pot: a hand not settled (invalid) has no pots, but its chips went in
    view[10, row] = sum([p.amount for p in settled.pots]) if settled.pots else sum(judged.invested)
    if result is None:
        view[11, row] = 0  # rake
        view[12, row] = 0  # fees
        view[13, row] = 0  # added
        view[19, row] = 0  # cash_out
    else:
        view[11, row] = 0 if result.rake is None else result.rake
        view[12, row] = sum([f.amount for f in result.fees])
        view[13, row] = _ABSENT if result.added is None else result.added
        view[19, row] = len(result.cash_outs) > 0
    view[14, row] = len(violations)  # n_violations
    view[15, row] = error_count(status, violations)  # n_errors
    matched = settled.payouts_match
    view[16, row] = _ABSENT if matched is None else matched  # payouts_match
    view[17, row] = settled.settled
    view[18, row] = hand.tournament is not None
    view[20, row] = hand.converted
    view[21, row] = _VARIANT_CODES[game.variant]
    view[22, row] = _BETTING_CODES[game.betting]
    view[23, row] = _STATUS_CODES[status]
    out.n = row + 1
    source, table, started, mixed, currency, deck, tournament, extras, rules, run = out.text
    source.append(hand.source)
    table.append(hand.table)  # table_name
    started.append(hand.started_at)
    mixed.append(game.mixed)
    currency.append(game.currency)
    deck.append(card_text(hand.deck) if hand.deck else None)
    tournament.append(hand.tournament.id if hand.tournament is not None else None)
    extras.append(_extras_json(hand.extras))
    rules.append(judged.rules.label)
    run.append(run_id)
    boards = out.items[0]
    for board in judged.boards:  # none: no board dealt
        if board:
            boards.append(card_text(board))
    out.ends[0].append(len(boards))


def _hand_columns(built: Columns, schema: pa.Schema) -> dict[str, pa.Array]:
    """Return the hands' columns filled (but the keys): the closed vocabularies as
    dictionaries of every value's name, the flags as booleans."""
    columns = built.columns({f.name: f for f in schema} | _HAND_AS_CODES)
    for name in _HAND_AS_CODES:
        labels = _HAND_LABELS.get(name)
        if labels is None:
            columns[name] = columns[name].cast(pa.bool_())
        else:
            columns[name] = pa.DictionaryArray.from_arrays(columns[name], labels)
    return columns


def _add_seat_rows(
    out: Columns,
    flags: Columns,
    hand: HandRecord,
    judged: Replay,
    settled: Settlement,
) -> int:
    """Add a row per player dealt in to ``out`` (the seats' :class:`Columns`) and to
    ``flags`` (their flags: :func:`fill_flags`); return how many. (A function, not a method,
    so that the compiled form knows its dicts and sets as such: ``rows.pxd``.)"""
    seats = judged.seats
    n = len(seats)
    if not n:  # a hand with nobody dealt in has no seat rows
        return 0
    names = hand_positions(hand, seats)
    result = hand.result
    recorded: dict[int, int] | None = None
    cashed: dict[int, tuple[int | None, int | None]] = {}
    if result is not None:
        if result.collected:  # else the log says nothing of collections (PHH's finishing
            recorded = {}  # stacks alone, say): null, as explain shows it
            for c in result.collected:
                recorded[c.seat] = recorded.get(c.seat, 0) + c.amount
        cashed = {c.seat: (c.amount, c.fee) for c in result.cash_outs}
    shown = _shown(judged, hand)
    players = {s.seat: s for s in hand.seats}
    won_of, finals, hole = settled.won, settled.final_stacks, judged.hole_cards
    highs, lows = settled.high_hands, settled.low_hands
    pots = _pot_kinds(settled, hand.game.variant in HILO_VARIANTS)
    flags.reserve(n)
    fill_flags(judged, names, flags.view, flags.n)
    flags.n += n
    stacks, invested = judged.stacks, judged.invested
    out.reserve(n)
    view = out.view
    row = out.n
    player_col, position_col, hole_col, high_col, low_col = out.text
    for i in range(n):
        seat = seats[i]
        player = players[seat]
        start = player.stack
        won = won_of.get(seat, 0)
        final = finals.get(seat)  # a cash-out, a void hand: as settled
        end = stacks[i] + won if final is None else final
        view[0, row] = seat
        view[1, row] = start  # stack_start
        view[2, row] = end  # stack_end
        view[3, row] = invested[i]
        view[4, row] = won
        view[5, row] = _ABSENT if recorded is None else recorded.get(seat, 0)  # won_recorded
        view[6, row] = end - start  # net: won - invested, but for a cash-out or void
        paid, fee = cashed.get(seat, _NO_CASH_OUT) if cashed else _NO_CASH_OUT
        view[7, row] = _ABSENT if paid is None else paid  # cash_out_paid
        view[8, row] = _ABSENT if fee is None else fee  # cash_out_fee
        view[9, row] = seat in shown  # showed
        counts = pots.get(seat, _NO_POTS)
        view[10, row] = counts[0]
        view[11, row] = counts[1]
        view[12, row] = counts[2]
        view[13, row] = counts[3]
        view[14, row] = counts[4]
        player_col.append(player.player)
        position_col.append(names[i])
        hole_col.append(known_card_text(hole.get(seat)))
        high_col.append(highs.get(seat))
        low_col.append(lows.get(seat))
        row += 1
    out.n = row
    return n


def _shown(judged: Replay, hand: HandRecord) -> set[int | None]:
    """Return the seats that showed cards: from the steps (the compiled form reads them as
    C structs), or from the log's actions when the replay stopped before its end."""
    if stopped_early(judged, hand):
        return {a.seat for a in hand.actions if a.type is _SHOW}
    shown = set()
    for step in judged.steps:
        if step.type is _SHOW:
            shown.add(step.seat)
    return shown


def _add_pot_rows(pots: Columns, awards: Columns, settled: Settlement) -> tuple[int, int]:
    """Add a settlement's awards to ``awards``, and a row per pot and runout to ``pots``
    (each pot is split between its boards as settlement splits it, the odd chips to the
    first); return how many rows of each."""
    runs = settled.runouts
    winners: dict[tuple[int, int, bool], list[int]] = {}  # (pot, runout, low): seats
    awarded = settled.awards
    awards.reserve(len(awarded))
    view = awards.view
    row = awards.n
    halves, descriptions, used_cards = awards.text
    rules, rules_ends = awards.items[0], awards.ends[0]
    for a in awarded:
        half = a.half
        seat = a.seat
        key = (a.pot, a.runout, half is _LOW)  # a whole pot is listed as its high
        seats = winners.get(key)
        if seats is None:
            winners[key] = [seat]
        elif seat not in seats:
            seats.append(seat)
        view[0, row] = a.pot  # pot_index
        view[1, row] = a.runout
        view[2, row] = seat
        view[3, row] = a.amount
        halves.append(half)
        descriptions.append(a.description or None)  # hand_description
        used = a.cards_used
        used_cards.append(card_text(used) if used else None)
        rules.extend(a.rules)
        rules_ends.append(len(rules))
        row += 1
    awards.n = row
    n_pots = len(settled.pots) * runs
    pots.reserve(n_pots)
    view = pots.view
    row = pots.n
    eligible, high, low = pots.items
    eligible_ends, high_ends, low_ends = pots.ends
    for pot in settled.pots:
        if runs == 1:
            parts = [(pot.amount, pot.rake)]
        else:  # what each runout pays out, and the rake, fees and added money it carries
            nets, rakes = split_evenly(pot.net, runs), split_evenly(pot.rake, runs)
            fees, added = split_evenly(pot.fees, runs), split_evenly(pot.added, runs)
            parts = [
                (n + r + f - put, r) for n, r, f, put in zip(nets, rakes, fees, added, strict=True)
            ]
        index = pot.index
        for runout, (amount, rake) in enumerate(parts, start=1):
            view[0, row] = index  # pot_index
            view[1, row] = runout
            view[2, row] = amount
            view[3, row] = rake  # rake_share
            eligible.extend(pot.eligible)  # eligible_seats
            eligible_ends.append(len(eligible))
            high.extend(winners.get((index, runout, False), _NOBODY))  # high_winners
            high_ends.append(len(high))
            low.extend(winners.get((index, runout, True), _NOBODY))  # low_winners
            low_ends.append(len(low))
            row += 1
    pots.n = row
    return n_pots, len(awarded)


def _extras_json(extras: tuple[tuple[str, bytes], ...]) -> str | None:
    """Return a hand's extras (each a name and its raw JSON text) as one JSON object.

    >>> _extras_json((("_note", b'{"a": [1, 2.50]}'), ("_phh_city", b'"Las Vegas"')))
    '{"_note":{"a":[1,2.50]},"_phh_city":"Las Vegas"}'
    >>> _extras_json(()) is None
    True
    """
    if not extras:
        return None
    body = ",".join(f"{json.dumps(name)}:{_minified(raw)}" for name, raw in extras)
    return "{" + body + "}"


def _minified(raw: bytes) -> str:
    """Return JSON text without the blanks between its tokens: one value reads the same
    whichever reader kept it (numbers stay as written: ``2.50`` is not ``2.5``).

    >>> _minified(b'{ "a" : [1, 2.50], "b c": "x y" }')
    '{"a":[1,2.50],"b c":"x y"}'
    """
    out: list[str] = []
    quoted = escaped = False
    for char in raw.decode("utf-8", "replace"):
        if quoted:
            out.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
            out.append(char)
        elif char not in " \t\r\n":
            out.append(char)
    return "".join(out)


def _pot_kinds(settled: Settlement, hilo: bool) -> dict[int, tuple[int, int, int, int, int]]:
    """Count per seat the pots (per runout) won, and how: whole, high or low only, quartered.

    Each seat's counts are ``(pots_won, scoops, high_only, low_only, quartered)``; a pot
    won counts in one kind at most (STATS.md: the share of pots won, by kind). A scoop is
    the whole pot alone (a hi/lo pot without a qualifying low too); high only, some of the
    high and none of the low; low only, the whole low and none of the high; quartered, a
    shared low and none of the high. A pot won in another way (the high and a shared low)
    counts in ``pots_won`` only.
    """
    awards = settled.awards
    if len(awards) == 1 and awards[0].half is not _LOW:  # the common case: one pot, one winner
        return {awards[0].seat: _SCOOP}
    halves: dict[tuple[int, int], tuple[set[int], set[int]]] = {}  # (pot, runout): high, low
    for a in awards:
        key = (a.pot, a.runout)
        parts = halves.get(key)
        if parts is None:
            parts = halves[key] = (set(), set())
        parts[a.half is _LOW].add(a.seat)  # a whole pot counts as its high half
    out: dict[int, list[int]] = {}
    for high, low in halves.values():
        alone = len(high) == 1  # one seat has the whole high half
        for seat in high:
            counts = out.get(seat)
            if counts is None:
                counts = out[seat] = [0, 0, 0, 0, 0]
            counts[0] += 1
            if alone and (not low or (len(low) == 1 and seat in low)):
                counts[1] += 1  # a scoop
            elif hilo and seat not in low:
                counts[2] += 1  # high only
        for seat in low:
            if seat in high:
                continue  # counted above
            counts = out.get(seat)
            if counts is None:
                counts = out[seat] = [0, 0, 0, 0, 0]
            counts[0] += 1
            if hilo:
                counts[3 if len(low) == 1 else 4] += 1  # low only, or quartered
    return {seat: (c[0], c[1], c[2], c[3], c[4]) for seat, c in out.items()}
