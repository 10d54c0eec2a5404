"""Explain one hand for a dispute: what happened, what was legal, and who was owed what.

:func:`explain` replays and settles a hand and returns an :class:`Explanation`: plain data
(money as ``int`` units of the hand's ``scale``, cards as text) that a support agent reads
through one of the renderers of :mod:`pipeline.reports.explain_render`. It holds the table
and seats; every action with the pot before it, what the player owed, the legal range and
the violations found there; the boards; each hand at showdown with the five cards it
uses; each pot with the players who could win it and how it was split; recorded against
recomputed money per player; and the RULES.md rule (id and text) behind each payout and
each violation. Where the source file is at hand, each action carries its line in it
(PokerStars text and PHH: found by reading the hand again; JSON Lines: the hand's line).

:func:`locate` (from :mod:`pipeline.reports.explain_source`) finds a hand in a lake by
Croupier's id (``SITE:HAND_ID``) or by the site's hand number, and reads it again from its
source file; :func:`find_in_file` finds one in a hand-log file. Both raise
:class:`ExplainError` (one line) when the hand cannot be found.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline.cards import UNKNOWN
from pipeline.evaluate import best_high, best_low8
from pipeline.model import Action, ActionType, Betting, Blind, HandRecord, Status, Variant
from pipeline.reconcile import returns_in_collections
from pipeline.reports.explain_pots import (
    BETTING_TYPES,
    cards_text,
    money_of,
    money_text,
    pots,
    quote,
)
from pipeline.reports.explain_records import (
    CASH_OUT_RULE,
    ActionRow,
    Board,
    Explanation,
    Note,
    PlayerMoney,
    PotRow,
    Problem,
    RuleQuote,
    SeatRow,
    Share,
    ShownHand,
)
from pipeline.reports.explain_source import (
    ExplainError,
    Located,
    find_in_file,
    lines_note,
    locate,
    source_lines,
)
from pipeline.rules import Replay, RuleSet, Step, replay
from pipeline.rules.context import FATAL
from pipeline.rules.stats import hand_positions
from pipeline.settle import Settlement, hand_status, settle
from pipeline.violations import Code, Violation

__all__ = [
    "CASH_OUT_RULE",
    "ActionRow",
    "Board",
    "ExplainError",
    "Explanation",
    "Located",
    "Note",
    "PlayerMoney",
    "PotRow",
    "Problem",
    "RuleQuote",
    "SeatRow",
    "Share",
    "ShownHand",
    "croupier_id",
    "explain",
    "find_in_file",
    "locate",
    "money_text",
]


# ------------------------------------------------------------------------------ words

_VARIANTS = {
    Variant.OMAHA: "Omaha",
    Variant.OMAHA_HILO: "Omaha Hi/Lo",
    Variant.COURCHEVEL: "Courchevel",
    Variant.COURCHEVEL_HILO: "Courchevel Hi/Lo",
}
_BETTING = {
    Betting.FIXED_LIMIT: "Fixed-Limit",
    Betting.POT_LIMIT: "Pot-Limit",
    Betting.NO_LIMIT: "No-Limit",
    Betting.PL_PREFLOP_NL_POSTFLOP: "Pot-Limit pre-flop, No-Limit after",
}
_MIXED_BETTING = frozenset({Betting.PL_PREFLOP_NL_POSTFLOP})
"""Structures that change during the hand: named after the game, in parentheses."""
_CARD_COUNT = {5: "Five-Card ", 6: "Six-Card "}
_POSTS = {
    Blind.SMALL: "posts the small blind",
    Blind.BIG: "posts the big blind",
    Blind.BOTH: "posts the small and big blinds (missed blinds)",
    Blind.DEAD: "posts a dead blind",
    Blind.ANTE: "posts the ante",
    Blind.STRADDLE: "posts a straddle",
}
_STREETS = {1: "exposed card", 3: "flop", 4: "turn", 5: "river"}


def croupier_id(hand: HandRecord) -> str:
    """Return Croupier's id of a hand: ``SITE:HAND_ID`` (unique in a lake)."""
    return f"{hand.site}:{hand.hand_id}"


def _game_name(hand: HandRecord) -> str:
    game = hand.game
    cards = "" if game.variant.is_courchevel else _CARD_COUNT.get(game.hole_cards, "")
    if game.betting in _MIXED_BETTING:
        return f"{cards}{_VARIANTS[game.variant]} ({_BETTING[game.betting]})"
    return f"{_BETTING[game.betting]} {cards}{_VARIANTS[game.variant]}"


# ------------------------------------------------------------------------------ explain


def explain(hand: HandRecord, rules: RuleSet, *, source: Path | None = None) -> Explanation:
    """Replay and settle ``hand`` under ``rules`` and explain every step of it.

    ``source`` is the file to read again for the line of each action (default: the
    hand's own ``source``); a file that is not there only leaves the lines unknown.
    """
    judged = replay(hand, rules)
    settled = settle(judged, rules)
    game = hand.game
    scale = game.scale
    names = {s.seat: s.player for s in hand.seats}
    violations = judged.violations + settled.violations
    problems = tuple(_problem(v, names) for v in violations)
    lines, local_time = source_lines(hand, source if source is not None else Path(hand.source))
    status = hand_status(judged, settled)
    notes = _notes(hand, judged, status, problems, lines)
    unsettled = _unsettled(judged, settled, status)
    if unsettled is not None:
        card_error = any(v.code is Code.DUPLICATE_CARD for v in judged.violations)
        rule = quote(Code.DUPLICATE_CARD.rule) if card_error else None
        notes.append(Note(f"The pots could not be awarded: {unsettled}.", rule))
    result = hand.result
    return Explanation(
        croupier_id=croupier_id(hand),
        hand_id=hand.hand_id,
        site=hand.site,
        table=hand.table,
        game=_game_name(hand),
        variant=game.variant.value,
        betting=game.betting.value,
        hole_cards=game.hole_cards,
        currency=game.currency,
        scale=scale,
        small_blind=game.small_blind,
        big_blind=game.big_blind,
        ante=game.ante,
        small_bet=game.small_bet,
        big_bet=game.big_bet,
        button=hand.button,
        started_at=hand.started_at.isoformat() if hand.started_at is not None else None,
        local_time=local_time,
        tournament=_tournament(hand),
        source=hand.source,
        line=hand.line,
        rules=rules.label,
        status=status.value,
        payouts_match=settled.payouts_match,
        flags=_flags(hand),
        seats=_seats(hand, judged),
        actions=_actions(hand, judged, problems, lines),
        boards=tuple(Board(r + 1, cards_text(b)) for r, b in enumerate(judged.boards) if b),
        showdown=_showdown(judged, names),
        pots=pots(judged, settled, names),
        players=_players(hand, judged, settled),
        # as the lake counts it: a hand without pots (void, stopped) still has chips in
        total_pot=sum(p.amount for p in settled.pots) if settled.pots else sum(judged.invested),
        total_pot_recorded=result.total_pot if result is not None else None,
        rake=settled.rake,
        problems=problems,
        notes=tuple(notes),
        unsettled=unsettled,
        returned_in_collections=sum(_returned_in_collections(judged, settled).values()),
    )


def _notes(
    hand: HandRecord,
    judged: Replay,
    status: Status,
    problems: tuple[Problem, ...],
    lines: Sequence[int | None],
) -> list[Note]:
    """Say what the reader of the whole hand must know first, each with its rule."""
    texts: list[tuple[str, str | None]] = []  # each sentence, and the rule it cites
    placed = lines_note(hand, lines)
    if placed is not None:
        texts.append((placed, None))
    if status is Status.PARTIAL:
        texts.append(
            (
                "The log is incomplete: it stops before the hand ends, so its pots cannot be "
                "awarded and no payout is checked; stacks are as of the last action recorded."
                + _partial_reason(hand),
                None,
            )
        )
    elif status is Status.VOID:
        texts.append(
            (
                "The site cancelled this hand: it is void, every chip put in goes back to its "
                "owner, and nothing in it counts as breaking a rule.",
                "R3.misdeal",
            )
        )
    if len({step.seq for step in judged.steps}) < len(hand.actions):
        stop = next((p for p in problems if p.code in _FATAL_CODES), None)
        where = ""
        if stop is not None:
            at = "the hand as a whole" if stop.seq is None else f"action #{stop.seq}"
            where = f" at {at} ({stop.message})"
        texts.append(
            (
                f"The replay stopped{where}: the actions marked 'not replayed' are listed as "
                "the log records them, and the rules did not judge them.",
                stop.rule.id if stop is not None else None,
            )
        )
    notes = [Note(text, None if rule is None else quote(rule)) for text, rule in texts]
    return notes


_FATAL_CODES = frozenset(code.value for code in FATAL)


def _unsettled(judged: Replay, settled: Settlement, status: Status) -> str | None:
    """Say why the rules could not award the pots of a hand that reached a showdown
    (``None``: they could, or the hand is void, partial or stopped, which say so)."""
    if settled.complete or status in (Status.VOID, Status.PARTIAL, Status.INVALID):
        return None
    duplicates = [v for v in judged.violations if v.code is Code.DUPLICATE_CARD]
    if duplicates:
        what = "; ".join(
            v.message + ("" if v.seq is None else f" at action #{v.seq}") for v in duplicates
        )
        code = Code.DUPLICATE_CARD.value
        return f"a card is dealt twice ({what}: a {code} error), so the hands cannot be compared"
    short = [len(board) for board in judged.boards if len(board) != 5]
    if short:
        return (
            f"the board has {short[0]} card(s), not 5, so the hands at showdown cannot be compared"
        )
    return "the hands at showdown cannot be compared"


def _problem(v: Violation, names: dict[int, str]) -> Problem:
    return Problem(
        code=v.code.value,
        severity=v.severity.value,
        seq=v.seq,
        seat=v.seat,
        player=names.get(v.seat) if v.seat is not None else None,
        message=v.message,
        expected=v.expected,
        actual=v.actual,
        rule=quote(v.rule),
    )


def _tournament(hand: HandRecord) -> str | None:
    t = hand.tournament
    if t is None:
        return None
    parts = [f"tournament {t.id}"]
    if t.level:
        parts.append(f"level {t.level}")
    if t.buyin:
        parts.append(f"buy-in {t.buyin}")
    return ", ".join(parts)


def _flags(hand: HandRecord) -> tuple[str, ...]:
    flags = []
    if hand.cancelled:
        flags.append("cancelled by the site")
    if hand.partial:
        flags.append("partial log (the hand is incomplete)")
    if hand.converted:
        flags.append("converted by a third-party tool")
    if hand.result is not None and hand.result.cash_outs:
        flags.append("a player cashed out")
    return tuple(flags)


def _seats(hand: HandRecord, judged: Replay) -> tuple[SeatRow, ...]:
    labels = dict(zip(judged.seats, hand_positions(hand, judged.seats), strict=True))
    unknown = " ".join(["??"] * hand.game.hole_cards)
    rows = []
    for s in hand.seats:
        dealt = s.seat in labels
        cards = judged.hole_cards.get(s.seat)
        rows.append(
            SeatRow(
                seat=s.seat,
                player=s.player,
                position=labels.get(s.seat, ""),
                stack=s.stack,
                dealt_in=dealt,
                hole_cards=cards_text(cards) if cards else (unknown if dealt else ""),
            )
        )
    return tuple(rows)


def _actions(
    hand: HandRecord,
    judged: Replay,
    problems: tuple[Problem, ...],
    lines: Sequence[int | None],
) -> tuple[ActionRow, ...]:
    names = {s.seat: s.player for s in hand.seats}
    steps = {step.seq: step for step in judged.steps}
    at: dict[int, list[Problem]] = defaultdict(list)
    for problem in problems:
        if problem.seq is not None:
            at[problem.seq].append(problem)
    money = money_of(hand)
    board_cards: dict[int | None, int] = defaultdict(int)
    street_in: dict[tuple[int, int | None], int] = defaultdict(int)  # (street, seat): chips
    rows: list[ActionRow] = []
    pot = 0
    for seq, action in enumerate(hand.actions):
        step = steps.get(seq)
        all_in_to: int | None = None  # the street total that puts the player all-in
        if step is not None:
            pot = step.pot_before
            if step.stack_before is not None:
                all_in_to = street_in[(step.street, step.seat)] + step.stack_before
            if step.amount and action.type is not ActionType.UNCALLED:
                street_in[(step.street, step.seat)] += step.amount
        if action.type is ActionType.UNCALLED and rows and step is not None:
            # the rules return an uncalled bet when its round closes; a line the log writes
            # after the next card (or the hands shown) finds it out of the pot already
            pot = min(pot, _pot_after(rows[-1], pot))
        street = step.street.label if step is not None else "not replayed"
        if street == "showdown" and action.type in BETTING_TYPES:
            street = "river"  # a check after the river closed (the engine flags it)
        if action.type is ActionType.BOARD:
            board_cards[action.run] += len(action.cards or ())
            count = board_cards[None] + (board_cards[action.run] if action.run else 0)
            street = _STREETS.get(count, "board")
            if action.run:
                street = f"{street} (board {action.run})"
        elif action.type in (ActionType.SHOW, ActionType.MUCK):
            street = "showdown"
        rows.append(
            ActionRow(
                seq=seq,
                street=street,
                seat=action.seat,
                player=names.get(action.seat) if action.seat is not None else None,
                type=action.type.value,
                description=_describe(action, step, money, hand.game.hole_cards)
                + _returned_before(action, step, pot),
                amount=_moved(action, step),
                to_amount=step.to if step is not None and step.to is not None else action.to,
                cards=cards_text(action.cards),
                all_in=action.all_in,
                pot_before=pot if step is not None else None,  # not replayed: not known
                stack_before=step.stack_before if step is not None else None,
                to_call=step.to_call if step is not None else None,
                min_to=step.min_to if step is not None else None,
                max_to=step.max_to if step is not None else None,
                legal=_legal(step, money, all_in_to) if step is not None else "",
                problems=tuple(at.get(seq, ())),
                line=lines[seq] if seq < len(lines) else None,
            )
        )
    return tuple(rows)


_DEAD_POSTS = frozenset({Blind.ANTE, Blind.DEAD})


def _put_in_unreplayed(judged: Replay) -> dict[int, int]:
    """Return the chips each seat puts in, as the log records them, at the actions the
    replay did not reach (a void hand's, whose money still goes back to its owners)."""
    hand = judged.hand
    replayed = {step.seq for step in judged.steps}
    street_bets: dict[int | None, int] = defaultdict(int)
    put_in: dict[int, int] = defaultdict(int)
    for seq, action in enumerate(hand.actions):
        kind, seat = action.type, action.seat
        if kind is ActionType.BOARD:
            street_bets.clear()
            continue
        moved = 0
        if kind is ActionType.POST:
            moved = action.amount or 0
            live = min(moved, hand.game.big_blind) if action.blind is Blind.BOTH else moved
            street_bets[seat] += 0 if action.blind in _DEAD_POSTS else live
        elif kind in (ActionType.CALL, ActionType.BET):
            moved = action.amount or 0
            street_bets[seat] += moved
        elif kind is ActionType.RAISE:
            moved = max((action.to or 0) - street_bets[seat], 0)
            street_bets[seat] += moved
        elif kind is ActionType.UNCALLED:
            moved = -(action.amount or 0)
        if seq not in replayed and seat is not None:
            put_in[seat] += moved
    return put_in


def _pot_after(row: ActionRow, pot: int) -> int:
    """Return the chips in the middle after an action row (its pot before, moved);
    ``pot`` where the row was not replayed."""
    if row.pot_before is None:  # not replayed: the pot is not known
        return pot
    if row.type in ("post", "call", "bet", "raise"):
        return row.pot_before + (row.amount or 0)
    if row.type == "uncalled":
        return row.pot_before - (row.amount or 0)
    return row.pot_before


def _returned_before(action: Action, step: Step | None, pot: int) -> str:
    """Say so when an uncalled bet the log returns late had left the pot already."""
    if action.type is not ActionType.UNCALLED or step is None or pot >= step.pot_before:
        return ""
    return ": it left the pot when its betting round closed"


def _partial_reason(hand: HandRecord) -> str:
    """Return " Why: …" from the reader's ``_partial_reason`` extra, or nothing."""
    raw = dict(hand.extras).get("_partial_reason")
    if raw is None:
        return ""
    try:
        reason = json.loads(raw)
    except ValueError:
        return ""
    return f" Why: {reason}." if isinstance(reason, str) and reason else ""


def _moved(action: Action, step: Step | None) -> int | None:
    if action.type in (ActionType.POST, ActionType.UNCALLED):
        return action.amount
    if step is not None and step.amount is not None:
        return step.amount
    return action.amount


def _describe(
    action: Action, step: Step | None, money: Callable[[int], str], hole_cards: int
) -> str:
    """Say what an action did, in words a player would use."""
    kind = action.type
    all_in = " and is all-in" if action.all_in else ""
    if kind is ActionType.POST:
        what = _POSTS.get(action.blind or Blind.BIG, "posts")
        return f"{what} {money(action.amount or 0)}{all_in}"
    if kind is ActionType.DEAL:
        cards = action.cards or ()
        if not cards or all(c == UNKNOWN for c in cards):
            return f"is dealt {len(cards) or hole_cards} cards (not shown in the log)"
        return f"is dealt {cards_text(cards)}"
    if kind is ActionType.FOLD:
        return "folds"
    if kind is ActionType.CHECK:
        return "checks"
    if kind is ActionType.CALL:
        return f"calls {money(action.amount or 0)}{all_in}"
    if kind is ActionType.BET:
        return f"bets {money(action.amount or 0)}{all_in}"
    if kind is ActionType.RAISE:
        added = step.amount if step is not None and step.amount is not None else None
        adds = f" (puts in {money(added)})" if added is not None else ""
        return f"raises to {money(action.to or 0)}{adds}{all_in}"
    if kind is ActionType.BOARD:
        return f"board: {cards_text(action.cards)}"
    if kind is ActionType.SHOW:
        return f"shows {cards_text(action.cards)}"
    if kind is ActionType.MUCK:
        return f"mucks {cards_text(action.cards)}".rstrip()
    return f"gets back {money(action.amount or 0)} (uncalled bet)"


def _legal(step: Step, money: Callable[[int], str], all_in_to: int | None = None) -> str:
    """Say what the player could do before a betting action (``all_in_to``: the street
    total of all they have, so a largest bet or raise that is all of it says so)."""
    if step.to_call is None:
        return ""
    sized = ""
    if step.min_to is not None and step.max_to is not None:
        verb = "bet" if step.to_call == 0 and step.street.label != "preflop" else "raise to"
        all_in = " all-in" if step.max_to == all_in_to else ""
        if step.min_to >= step.max_to:
            sized = f"{verb} {money(step.max_to)}{all_in}"
        else:
            sized = f"{verb} between {money(step.min_to)} and {money(step.max_to)}{all_in}"
    if step.to_call == 0:
        return f"check or {sized}" if sized else "check"
    calls = money(step.to_call)
    if step.to_call == step.stack_before:  # all they have: perhaps less than they owed
        calls += " all-in"
    return f"fold, call {calls} or {sized}" if sized else f"fold or call {calls}"


# ------------------------------------------------------------------------------ showdown


def _showdown(judged: Replay, names: dict[int, str]) -> tuple[ShownHand, ...]:
    """Evaluate every hand still in at the end, on every complete board."""
    if sum(1 for out in judged.folded if not out) < 2:
        return ()
    if any(v.code is Code.DUPLICATE_CARD for v in judged.violations):
        return ()
    k = judged.hand.game.hole_cards
    hilo = judged.hand.game.variant.is_hilo
    shown = []
    for r, board in enumerate(judged.boards):
        if len(board) != 5:
            continue
        for i, seat in enumerate(judged.seats):
            cards = judged.hole_cards.get(seat)
            if judged.folded[i] or cards is None or len(cards) != k or UNKNOWN in cards:
                continue
            high = best_high(cards, board)
            low = best_low8(cards, board) if hilo else None
            shown.append(
                ShownHand(
                    runout=r + 1,
                    seat=seat,
                    player=names.get(seat, ""),
                    hole_cards=cards_text(cards),
                    high=high.description,
                    high_cards=cards_text(high.cards_used),
                    low=low.description if low is not None else ("no low" if hilo else ""),
                    low_cards=cards_text(low.cards_used) if low is not None else "",
                )
            )
    return tuple(shown)


# ------------------------------------------------------------------------------ pots


def _returned_in_collections(judged: Replay, settled: Settlement) -> dict[int, int]:
    """Return, per seat, the uncalled bets the log pays in its collections with no line of
    their own (settlement compares the log that way: see ``returns_in_collections``)."""
    returned: dict[int, int] = {}
    if settled.payouts_match is not None and returns_in_collections(
        judged, sum(p.amount for p in settled.pots)
    ):
        for seat, amount in judged.uncalled:
            returned[seat] = returned.get(seat, 0) + amount
    return returned


def _players(hand: HandRecord, judged: Replay, settled: Settlement) -> tuple[PlayerMoney, ...]:
    result = hand.result
    collected: dict[int, int] | None = None
    finals: dict[int, int] | None = None
    cash: dict[int, int] = {}
    fees: dict[int, int] = {}
    if result is not None:
        if result.collected:
            collected = defaultdict(int)
            for c in result.collected:
                collected[c.seat] += c.amount
        if result.final_stacks:
            finals = {s.seat: s.amount for s in result.final_stacks}
        cash = {c.seat: c.amount for c in result.cash_outs}
        fees = {c.seat: c.fee for c in result.cash_outs}
    compare = settled.payouts_match is not None
    unjudged = _put_in_unreplayed(judged) if judged.status is Status.VOID else {}
    returned = _returned_in_collections(judged, settled) if collected is not None else {}
    rows = []
    for i, seat in sorted(enumerate(judged.seats), key=lambda item: item[1]):
        player = hand.seat(seat)
        won = settled.won.get(seat, 0)
        final = settled.final_stacks.get(seat, judged.stacks[i] + won)
        won_recorded = collected.get(seat, 0) if collected is not None else None
        final_recorded = finals.get(seat) if finals is not None else None
        matches: bool | None = None
        in_collection = returned.get(seat, 0)
        if compare and (won_recorded is not None or final_recorded is not None):
            matches = (won_recorded is None or won_recorded == won + in_collection) and (
                final_recorded is None or final_recorded == final
            )
        rows.append(
            PlayerMoney(
                seat=seat,
                player=player.player if player is not None else "",
                invested=judged.invested[i] + unjudged.get(seat, 0),
                won=won,
                won_recorded=won_recorded,
                final_stack=final,
                final_recorded=final_recorded,
                cash_out=cash.get(seat),
                matches=matches,
                cash_out_fee=fees.get(seat),
                returned_in_collection=in_collection,
            )
        )
    return tuple(rows)
