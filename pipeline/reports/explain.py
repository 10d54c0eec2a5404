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
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from pipeline.cards import UNKNOWN, format_cards
from pipeline.evaluate import best_high, best_low8
from pipeline.lake.rows import positions
from pipeline.model import Action, ActionType, Betting, Blind, HandRecord, Status, Variant
from pipeline.money import format_amount
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
    locate,
    source_lines,
)
from pipeline.reports.rule_text import rule_title
from pipeline.rules import Replay, RuleSet, Step, replay
from pipeline.settle import Award, Half, Pot, Settlement, hand_status, settle
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
_BETTING_TYPES = frozenset(
    {ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET, ActionType.RAISE}
)


_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def money_text(units: int, scale: int, currency: str) -> str:
    """Format an amount with its currency for a reader.

    >>> money_text(123456, 2, "USD"), money_text(1500, 0, "CHIPS"), money_text(-5, 2, "EUR")
    ('$1,234.56', '1,500 chips', '-€0.05')
    """
    text = format_amount(abs(units), scale)
    whole, dot, frac = text.partition(".")
    text = f"{int(whole):,}{dot}{frac}"
    sign = "-" if units < 0 else ""
    if currency in _SYMBOLS:
        return f"{sign}{_SYMBOLS[currency]}{text}"
    unit = "chips" if currency == "CHIPS" else currency
    return f"{sign}{text} {unit}"


def _money_of(hand: HandRecord) -> Callable[[int], str]:
    scale, currency = hand.game.scale, hand.game.currency
    return lambda units: money_text(units, scale, currency)


def croupier_id(hand: HandRecord) -> str:
    """Return Croupier's id of a hand: ``SITE:HAND_ID`` (unique in a lake)."""
    return f"{hand.site}:{hand.hand_id}"


def _game_name(hand: HandRecord) -> str:
    game = hand.game
    cards = "" if game.variant.is_courchevel else _CARD_COUNT.get(game.hole_cards, "")
    return f"{_BETTING[game.betting]} {cards}{_VARIANTS[game.variant]}"


def _cards(cards: Iterable[int] | None) -> str:
    return format_cards(cards, sep=" ") if cards else ""


def _quote(rule_id: str) -> RuleQuote:
    return RuleQuote(rule_id, rule_title(rule_id))


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
    notes: list[str] = []
    unplaced = sum(1 for line in lines if line is None)
    if unplaced == len(lines):
        notes.append(
            f"The line of each action is not known; the hand starts at line {hand.line} "
            f"of {hand.source}."
        )
    elif unplaced:
        notes.append(
            f"{unplaced} action(s) have no line of their own: the log implies them without "
            "writing them (an uncalled bet returned, say)."
        )
    status = hand_status(judged, settled)
    if status is Status.PARTIAL:
        notes.append(
            "The log is incomplete: it stops before the hand ends, so its pots cannot be "
            "awarded and no payout is checked; stacks are as of the last action recorded."
            + _partial_reason(hand)
        )
    elif status is Status.VOID:
        notes.append(
            "The site cancelled this hand: it is void, every chip put in goes back to its "
            "owner and nothing in it fails (R3.misdeal)."
        )
    elif not settled.complete and status is not Status.INVALID:
        notes.append("The pots could not be awarded: a hand at showdown is not fully known.")
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
        boards=tuple(Board(r + 1, _cards(b)) for r, b in enumerate(judged.boards) if b),
        showdown=_showdown(judged, names),
        pots=_pots(judged, settled, names),
        players=_players(hand, judged, settled),
        total_pot=sum(p.amount for p in settled.pots),
        total_pot_recorded=result.total_pot if result is not None else None,
        rake=settled.rake,
        problems=problems,
        notes=tuple(notes),
    )


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
        rule=_quote(v.rule),
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
    labels = dict(zip(judged.seats, positions(len(judged.seats)), strict=True))
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
                hole_cards=_cards(cards) if cards else (unknown if dealt else ""),
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
    money = _money_of(hand)
    board_cards: dict[int | None, int] = defaultdict(int)
    rows = []
    pot = 0
    for seq, action in enumerate(hand.actions):
        step = steps.get(seq)
        if step is not None:
            pot = step.pot_before
        street = step.street.label if step is not None else "after the stop"
        if street == "showdown" and action.type in _BETTING_TYPES:
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
                description=_describe(action, step, money, hand.game.hole_cards),
                amount=_moved(action, step),
                to_amount=step.to if step is not None and step.to is not None else action.to,
                cards=_cards(action.cards),
                all_in=action.all_in,
                pot_before=pot,
                stack_before=step.stack_before if step is not None else None,
                to_call=step.to_call if step is not None else None,
                min_to=step.min_to if step is not None else None,
                max_to=step.max_to if step is not None else None,
                legal=_legal(step, money) if step is not None else "",
                problems=tuple(at.get(seq, ())),
                line=lines[seq] if seq < len(lines) else None,
            )
        )
    return tuple(rows)


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
        return f"is dealt {_cards(cards)}"
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
        return f"board: {_cards(action.cards)}"
    if kind is ActionType.SHOW:
        return f"shows {_cards(action.cards)}"
    if kind is ActionType.MUCK:
        return f"mucks {_cards(action.cards)}".rstrip()
    return f"gets back {money(action.amount or 0)} (uncalled bet)"


def _legal(step: Step, money: Callable[[int], str]) -> str:
    """Say what the player could do before a betting action."""
    if step.to_call is None:
        return ""
    sized = ""
    if step.min_to is not None and step.max_to is not None:
        verb = "bet" if step.to_call == 0 and step.street.label != "preflop" else "raise to"
        if step.min_to >= step.max_to:
            sized = f"{verb} {money(step.max_to)}"
        else:
            sized = f"{verb} between {money(step.min_to)} and {money(step.max_to)}"
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
                    hole_cards=_cards(cards),
                    high=high.description,
                    high_cards=_cards(high.cards_used),
                    low=low.description if low is not None else ("no low" if hilo else ""),
                    low_cards=_cards(low.cards_used) if low is not None else "",
                )
            )
    return tuple(shown)


# ------------------------------------------------------------------------------ pots


def _pot_name(index: int) -> str:
    return "main pot" if index == 0 else f"side pot {index}"


def _pots(judged: Replay, settled: Settlement, names: dict[int, str]) -> tuple[PotRow, ...]:
    rows = []
    for pot in settled.pots:
        awards = [a for a in settled.awards if a.pot == pot.index]
        shares = tuple(
            Share(
                runout=a.runout,
                half=a.half.value,
                seat=a.seat,
                player=names.get(a.seat, ""),
                amount=a.amount,
                hand=a.description,
                cards_used=_cards(a.cards_used),
                rules=tuple(_quote(r) for r in a.rules),
            )
            for a in awards
        )
        rows.append(
            PotRow(
                index=pot.index,
                name=_pot_name(pot.index),
                amount=pot.amount,
                rake=pot.rake,
                fees=pot.fees,
                added=pot.added,
                net=pot.net,
                eligible=pot.eligible,
                eligible_players=tuple(names.get(s, "") for s in pot.eligible),
                shares=shares,
                notes=_pot_notes(judged, pot, awards, names),
            )
        )
    return tuple(rows)


def _pot_notes(
    judged: Replay, pot: Pot, awards: list[Award], names: dict[int, str]
) -> tuple[Note, ...]:
    """Say how a pot was divided: rake, runouts, halves, ties and odd chips, and why."""
    money = _money_of(judged.hand)
    notes: list[Note] = []
    if pot.rake:
        notes.append(
            Note(f"rake of {money(pot.rake)} taken from this pot", _quote("R8.rake-allocation"))
        )
    if pot.fees:
        notes.append(Note(f"fees of {money(pot.fees)} taken from this pot", None))
    if pot.added:
        notes.append(Note(f"{money(pot.added)} added by the site", None))
    if pot.index > 0:
        players = _and([names.get(s, str(s)) for s in pot.eligible])
        notes.append(
            Note(f"only {players} put in enough to win this side pot", _quote("R8.side-pots"))
        )
    if not awards:
        return tuple(notes)
    if any("R4.round-end" in a.rules for a in awards):
        winner = names.get(awards[0].seat, "")
        text = f"everyone else folded: {winner} wins the pot without a showdown"
        notes.append(Note(text, _quote("R4.round-end")))
        return tuple(notes)
    runs = sorted({a.runout for a in awards})
    if len(runs) > 1:
        parts = [sum(a.amount for a in awards if a.runout == r) for r in runs]
        text = f"divided between {len(runs)} boards: " + " / ".join(money(p) for p in parts)
        if len(set(parts)) > 1:
            text += " (the odd chip goes to the first board)"
        notes.append(Note(text, _quote("R8.run-it-twice")))
    hilo = judged.hand.game.variant.is_hilo
    for r in runs:
        on_board = [a for a in awards if a.runout == r]
        board = f" on board {r}" if len(runs) > 1 else ""
        high = [a for a in on_board if a.half is Half.HIGH]
        low = [a for a in on_board if a.half is Half.LOW]
        if hilo and low:
            high_total, low_total = sum(a.amount for a in high), sum(a.amount for a in low)
            text = f"split high/low{board}: high {money(high_total)}, low {money(low_total)}"
            if high_total != low_total:
                larger = "high" if high_total > low_total else "low"
                text += f" (the odd chip goes to the {larger} half)"
            notes.append(Note(text, _quote("R8.hi-lo")))
            winners = {a.seat for a in on_board}
            if len(winners) == 1:
                who = names.get(on_board[0].seat, "")
                notes.append(Note(f"{who} wins both halves{board} (a scoop)", _quote("R8.hi-lo")))
        elif hilo and len(pot.eligible) > 1:
            notes.append(
                Note(
                    f"no qualifying low{board}: the best high takes the whole pot",
                    _quote("R8.hi-lo"),
                )
            )
        whole = [a for a in on_board if a.half is Half.WHOLE]
        for half, group in ((Half.HIGH, high), (Half.LOW, low), (Half.WHOLE, whole)):
            if len(group) > 1:
                notes.append(_tie(half, group, board, names, money, hilo))
    return tuple(notes)


def _tie(
    half: Half,
    group: list[Award],
    board: str,
    names: dict[int, str],
    money: Callable[[int], str],
    hilo: bool,
) -> Note:
    """Say how a tied pot or half was shared, and where the odd chips went."""
    what = "the pot" if half is Half.WHOLE else f"the {half.value} half"
    players = _and([names.get(a.seat, str(a.seat)) for a in group])
    text = f"{what}{board} is tied between {players}"
    amounts = {a.amount for a in group}
    if len(amounts) == 1:
        rule = "R8.hi-lo" if hilo else "R8.high-split"
        return Note(f"{text}: {money(group[0].amount)} each", _quote(rule))
    top = max(amounts)
    odd = [names.get(a.seat, str(a.seat)) for a in group if a.amount == top]
    chips = "the odd chip goes" if len(odd) == 1 else "the odd chips go"
    text += (
        f": {', '.join(money(a.amount) for a in group)}; {chips} to {_and(odd)}: of the "
        "tied players, the first clockwise from the button"
    )
    return Note(text, _quote("R8.odd-chips"))


def _and(words: list[str]) -> str:
    """Join words as a sentence does: ``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


# ------------------------------------------------------------------------------ money


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
    rows = []
    for i, seat in sorted(enumerate(judged.seats), key=lambda item: item[1]):
        player = hand.seat(seat)
        won = settled.won.get(seat, 0)
        final = settled.final_stacks.get(seat, judged.stacks[i] + won)
        won_recorded = collected.get(seat, 0) if collected is not None else None
        final_recorded = finals.get(seat) if finals is not None else None
        matches: bool | None = None
        if compare and (won_recorded is not None or final_recorded is not None):
            matches = (won_recorded is None or won_recorded == won) and (
                final_recorded is None or final_recorded == final
            )
        rows.append(
            PlayerMoney(
                seat=seat,
                player=player.player if player is not None else "",
                invested=judged.invested[i],
                won=won,
                won_recorded=won_recorded,
                final_stack=final,
                final_recorded=final_recorded,
                cash_out=cash.get(seat),
                matches=matches,
                cash_out_fee=fees.get(seat),
            )
        )
    return tuple(rows)
