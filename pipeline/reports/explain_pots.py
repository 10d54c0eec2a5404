"""The pots of an explanation, and the words and money text it writes them in.

:func:`pots` gives each pot of a settled hand as a :class:`PotRow`: its amount and rake, the
players who could win it, how it was split (per board and half) and the notes that say why,
each with the rule it follows (side pots: who can win one, who folded what they put in,
who is all-in for less; hi/lo halves; odd chips; walks). :func:`money_text` and the other
small helpers are shared with :mod:`pipeline.reports.explain`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pipeline.cards import format_cards
from pipeline.model import ActionType, Blind, HandRecord
from pipeline.money import format_amount
from pipeline.reports.explain_records import (
    Note,
    PotRow,
    RuleQuote,
    Share,
)
from pipeline.reports.rule_text import rule_title
from pipeline.rules import Replay
from pipeline.settle import Award, Half, Pot, Settlement

__all__ = ["BETTING_TYPES", "cards_text", "money_of", "money_text", "pots", "quote"]


BETTING_TYPES = frozenset(
    {ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET, ActionType.RAISE}
)


_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def money_text(units: int, scale: int, currency: str) -> str:
    """Format an amount with its currency for a reader.

    >>> money_text(123456, 2, "USD"), money_text(1500, 0, "CHIPS"), money_text(-5, 2, "EUR")
    ('$1,234.56', '1,500 chips', '-€0.05')
    >>> money_text(1, 0, "CHIPS")
    '1 chip'
    """
    text = format_amount(abs(units), scale)
    whole, dot, frac = text.partition(".")
    text = f"{int(whole):,}{dot}{frac}"
    sign = "-" if units < 0 else ""
    if currency in _SYMBOLS:
        return f"{sign}{_SYMBOLS[currency]}{text}"
    unit = currency
    if currency == "CHIPS":
        unit = "chip" if text == "1" else "chips"
    return f"{sign}{text} {unit}"


def money_of(hand: HandRecord) -> Callable[[int], str]:
    scale, currency = hand.game.scale, hand.game.currency
    return lambda units: money_text(units, scale, currency)


def cards_text(cards: Iterable[int] | None) -> str:
    return format_cards(cards, sep=" ") if cards else ""


def quote(rule_id: str) -> RuleQuote:
    return RuleQuote(rule_id, rule_title(rule_id))


def _pot_name(index: int) -> str:
    return "main pot" if index == 0 else f"side pot {index}"


def pots(judged: Replay, settled: Settlement, names: dict[int, str]) -> tuple[PotRow, ...]:
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
                cards_used=cards_text(a.cards_used),
                rules=tuple(quote(r) for r in a.rules),
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
                notes=_pot_notes(judged, settled.pots, pot, awards, names),
            )
        )
    return tuple(rows)


def _pot_notes(
    judged: Replay,
    pots: tuple[Pot, ...],
    pot: Pot,
    awards: list[Award],
    names: dict[int, str],
) -> tuple[Note, ...]:
    """Say how a pot was divided: rake, runouts, halves, ties and odd chips, and why."""
    money = money_of(judged.hand)
    notes: list[Note] = []
    if pot.rake:  # spread over several pots by R8.rake-allocation; one pot takes it all, as
        rule = "R8.rake-allocation" if len(pots) > 1 else "R9.conservation"  # the site says
        notes.append(Note(f"rake of {money(pot.rake)} taken from this pot", quote(rule)))
    if pot.fees:
        notes.append(Note(f"fees of {money(pot.fees)} taken from this pot", None))
    if pot.added:
        notes.append(Note(f"{money(pot.added)} added by the site", None))
    if pot.index > 0:
        notes += _side_pot_notes(judged, pots, pot, names)
    if not awards:
        return tuple(notes)
    if any("R4.round-end" in a.rules for a in awards):
        winner = names.get(awards[0].seat, "")
        if _is_walk(judged, awards[0].seat):
            text = f"everyone folded to the big blind: {winner} wins the pot (a walk)"
            notes.append(Note(text, quote("R2.walk")))
        else:
            text = f"everyone else folded: {winner} wins the pot without a showdown"
            notes.append(Note(text, quote("R4.round-end")))
        return tuple(notes)
    runs = sorted({a.runout for a in awards})
    if len(runs) > 1:
        parts = [sum(a.amount for a in awards if a.runout == r) for r in runs]
        text = f"divided between {len(runs)} boards: " + " / ".join(money(p) for p in parts)
        odd = sum(parts) % len(parts)  # one each to the first boards
        if odd == 1:
            text += " (the odd chip goes to the first board)"
        elif odd:
            text += f" (the {odd} odd chips go one each to the first {odd} boards)"
        notes.append(Note(text, quote("R8.run-it-twice")))
    hilo = judged.hand.game.variant.is_hilo
    for r in runs:
        on_board = [a for a in awards if a.runout == r]
        board = f" on board {r}" if len(runs) > 1 else ""
        high = [a for a in on_board if a.half is Half.HIGH]
        low = [a for a in on_board if a.half is Half.LOW]
        if hilo and low:
            high_total, low_total = sum(a.amount for a in high), sum(a.amount for a in low)
            text = f"split high/low{board}: high {money(high_total)}, low {money(low_total)}"
            notes.append(Note(text, quote("R8.hi-lo")))
            if high_total != low_total:
                larger = "high" if high_total > low_total else "low"
                total = money(high_total + low_total)
                text = f"the odd chip{board} goes to the {larger} half: {total} cannot be halved"
                notes.append(Note(text, quote("R8.odd-chips")))
            winners = {a.seat for a in on_board}
            if len(winners) == 1:
                who = names.get(on_board[0].seat, "")
                notes.append(Note(f"{who} wins both halves{board} (a scoop)", quote("R8.hi-lo")))
        elif hilo and len(pot.eligible) > 1:
            notes.append(
                Note(
                    f"no hand that can win this pot has a qualifying low{board}: the best high "
                    "takes the whole pot",
                    quote("R8.hi-lo"),
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
        return Note(f"{text}: {money(group[0].amount)} each", quote(rule))
    top = max(amounts)
    odd = [names.get(a.seat, str(a.seat)) for a in group if a.amount == top]
    chips = "the odd chip goes" if len(odd) == 1 else "the odd chips go"
    first = "first" if len(odd) == 1 else f"first {_COUNTS[len(odd)]}"
    text += (
        f": {', '.join(money(a.amount) for a in group)}; {chips} to {_and(odd)}: of the "
        f"tied players, the {first} clockwise from the button"
    )
    return Note(text, quote("R8.odd-chips"))


_COUNTS = ("", "", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _side_pot_notes(
    judged: Replay, pots: tuple[Pot, ...], pot: Pot, names: dict[int, str]
) -> list[Note]:
    """Say who can win a side pot, who paid into it but folded, and who is all-in for less."""
    seats = judged.seats
    dead = judged.dead or (0,) * len(seats)
    live = [c - d for c, d in zip(judged.invested, dead, strict=True)]
    folded = judged.folded
    eligible = set(pot.eligible)
    short = [i for i, seat in enumerate(seats) if not folded[i] and seat not in eligible]
    below = max((live[i] for i in short), default=0)  # the level this pot starts at

    def name(i: int) -> str:
        return names.get(seats[i], str(seats[i]))

    who = _and([names.get(s, str(s)) for s in pot.eligible])
    can = "only {} can win this side pot: {} still in with enough put in to match it"
    pronoun = "the one player" if len(pot.eligible) == 1 else "the players"
    notes = [Note(can.format(who, pronoun), quote("R8.side-pots"))]
    quit_ = [name(i) for i, seat in enumerate(seats) if folded[i] and live[i] > below]
    if quit_:
        text = f"{_and(quit_)} also put chips in it but folded, and so cannot win it"
        notes.append(Note(text, quote("R8.best-hand")))
    for i in short:
        earlier = [_pot_name(p.index) for p in pots if seats[i] in p.eligible]
        if earlier:
            text = (
                f"{name(i)} is all-in for less and can win only the {_and(earlier)}, "
                "the chips they matched"
            )
            notes.append(Note(text, quote("R8.side-pots")))
    return notes


def _is_walk(judged: Replay, winner: int) -> bool:
    """Tell whether everyone folded to the big blind before the flop (R2.walk): the winner
    posted a big blind and never had to act. A big blind posted to enter is acted on in
    turn: its poster who raises and is not called wins uncontested, not by a walk."""
    hand = judged.hand
    posts = {a.seat for a in hand.actions if a.type is ActionType.POST and a.blind is Blind.BIG}
    if winner not in posts or any(len(board) for board in judged.boards):
        return False
    if any(a.type in BETTING_TYPES and a.seat == winner for a in hand.actions):
        return False
    bets = [a for a in hand.actions if a.type in BETTING_TYPES]
    return bool(bets) and all(a.type is ActionType.FOLD for a in bets)


def _and(words: list[str]) -> str:
    """Join words as a sentence does: ``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


# ------------------------------------------------------------------------------ money
