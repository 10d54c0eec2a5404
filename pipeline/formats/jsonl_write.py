"""Writing the hand log: each hand as one canonical JSON line (see :mod:`pipeline.formats.jsonl`).

The canonical form: fields in schema order, defaults left out, amounts with exactly the
unit's decimals, cards written together, times in UTC, ``_`` fields last, in name order,
as they were read. Reading a canonical line and writing it again gives the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import IO, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

from pipeline.cards import format_cards
from pipeline.formats.jsonl_wire import (
    ActionW,
    BetW,
    BoardW,
    CallW,
    CashOutW,
    CheckW,
    CollectionW,
    DealW,
    FeeW,
    FoldW,
    GameW,
    HandW,
    MuckW,
    PostW,
    RaiseW,
    ResultW,
    SeatAmountW,
    SeatW,
    ShowW,
    TournamentW,
    UncalledW,
)
from pipeline.model import Action, ActionType, Blind, HandRecord, RecordedResult
from pipeline.money import format_amount, format_unit

__all__ = ["encode_hand", "write_jsonl"]

T = TypeVar("T")
_ENCODER = msgspec.json.Encoder()


def _wire_opt(value: T | None) -> T | UnsetType:
    """Return a value to write, ``UNSET`` (left out) for ``None``."""
    return UNSET if value is None else value


def _fmt(amount: int, scale: int) -> str:
    return format_amount(amount, scale)


def _opt_fmt(amount: int | None, scale: int) -> str | UnsetType:
    return UNSET if amount is None else format_amount(amount, scale)


def _action_wire(a: Action, scale: int) -> ActionW:
    seat = a.seat if a.seat is not None else 0
    t = a.type
    if t is ActionType.CALL:
        return CallW(seat=seat, amount=_fmt(a.amount or 0, scale), all_in=a.all_in)
    if t is ActionType.BET:
        return BetW(seat=seat, amount=_fmt(a.amount or 0, scale), all_in=a.all_in)
    if t is ActionType.RAISE:
        return RaiseW(seat=seat, to=_fmt(a.to or 0, scale), all_in=a.all_in)
    if t is ActionType.FOLD:
        return FoldW(seat=seat)
    if t is ActionType.CHECK:
        return CheckW(seat=seat)
    if t is ActionType.POST:
        blind = (a.blind or Blind.BIG).value
        return PostW(seat=seat, blind=blind, amount=_fmt(a.amount or 0, scale), all_in=a.all_in)  # type: ignore[arg-type]
    if t is ActionType.DEAL:
        return DealW(seat=seat, cards=format_cards(a.cards or ()))
    if t is ActionType.BOARD:
        burn = UNSET if a.burn is None else format_cards(a.burn)
        return BoardW(cards=format_cards(a.cards or ()), run=_wire_opt(a.run), burn=burn)  # type: ignore[arg-type]
    if t is ActionType.SHOW:
        return ShowW(seat=seat, cards=format_cards(a.cards or ()))
    if t is ActionType.MUCK:
        return MuckW(seat=seat, cards=UNSET if a.cards is None else format_cards(a.cards))
    return UncalledW(seat=seat, amount=_fmt(a.amount or 0, scale))


def _result_wire(r: RecordedResult, scale: int, bounty_scale: int) -> ResultW:
    return ResultW(
        rake=_opt_fmt(r.rake, scale),
        total_pot=_opt_fmt(r.total_pot, scale),
        pots=[_fmt(p, scale) for p in r.pots],
        collected=[
            CollectionW(seat=c.seat, amount=_fmt(c.amount, scale), pot=c.pot, run=_wire_opt(c.run))  # type: ignore[arg-type]
            for c in r.collected
        ],
        fees=[FeeW(kind=f.kind, amount=_fmt(f.amount, scale)) for f in r.fees],
        added=_fmt(r.added, scale) if r.added else UNSET,
        cash_outs=[
            CashOutW(
                seat=c.seat,
                amount=_fmt(c.amount, scale),
                fee=_fmt(c.fee, scale) if c.fee else UNSET,
            )
            for c in r.cash_outs
        ],
        final_stacks=[
            SeatAmountW(seat=s.seat, amount=_fmt(s.amount, scale)) for s in r.final_stacks
        ],
        bounties=[
            SeatAmountW(seat=s.seat, amount=_fmt(s.amount, bounty_scale)) for s in r.bounties
        ],
    )


def _format_time(moment: datetime) -> str:
    utc = moment.astimezone(UTC)
    text = f"{utc.year:04d}" + utc.strftime("-%m-%dT%H:%M:%S")  # %Y: no zeros before 999
    if utc.microsecond:
        text += f".{utc.microsecond:06d}"
    return text + "Z"


def _hand_wire(hand: HandRecord) -> HandW:
    g = hand.game
    scale = g.scale
    t = hand.tournament
    bounty_scale = t.scale if t is not None else 2
    return HandW(
        hand_id=hand.hand_id,
        site=hand.site,
        table=_wire_opt(hand.table),
        started_at=UNSET if hand.started_at is None else _format_time(hand.started_at),
        game=GameW(
            variant=g.variant.value,
            hole_cards=g.hole_cards,
            betting=g.betting.value,
            small_blind=_fmt(g.small_blind, scale),
            big_blind=_fmt(g.big_blind, scale),
            small_bet=_opt_fmt(g.small_bet, scale),
            big_bet=_opt_fmt(g.big_bet, scale),
            ante=_fmt(g.ante, scale) if g.ante else UNSET,
            currency=g.currency,
            unit=format_unit(scale),
            max_seats=_wire_opt(g.max_seats),
            mixed=_wire_opt(g.mixed),
        ),
        button=hand.button,
        seats=[
            SeatW(
                seat=s.seat,
                player=s.player,
                stack=_fmt(s.stack, scale),
                sitting_out=s.sitting_out,
                bounty=_opt_fmt(s.bounty, bounty_scale),
            )
            for s in hand.seats
        ],
        actions=[_action_wire(a, scale) for a in hand.actions],
        result=UNSET if hand.result is None else _result_wire(hand.result, scale, bounty_scale),
        tournament=UNSET
        if t is None
        else TournamentW(
            id=t.id,
            level=_wire_opt(t.level),
            buyin=_wire_opt(t.buyin),
            currency=_wire_opt(t.currency),
            unit=format_unit(t.scale),
        ),
        deck=UNSET if hand.deck is None else format_cards(hand.deck),
        hero=_wire_opt(hand.hero),
        cancelled=hand.cancelled,
        partial=hand.partial,
        converted=hand.converted,
    )


_BLANKS_RE = re.compile(rb'("(?:[^"\\]++|\\.)*+")|[ \t\r\n]++', re.DOTALL)
"""A JSON string (kept) or a run of the blanks JSON allows between tokens (dropped)."""


def _compact(raw: bytes) -> bytes:
    """Return JSON text without the blanks between its tokens, every token as written.

    >>> _compact(b'{ "a b" : [1, 2.50, 1e400] }')
    b'{"a b":[1,2.50,1e400]}'
    """
    return _BLANKS_RE.sub(lambda m: m.group(1) or b"", raw)


def encode_hand(hand: HandRecord) -> bytes:
    """Encode a hand as one canonical JSON line (no trailing newline).

    Fields come in schema order, defaults are left out, and ``_`` fields follow in name
    order, each its text as read without the blanks between tokens: never decoded, so
    never changed (a number beyond a float, a repeated name stay as written).
    """
    body = _ENCODER.encode(_hand_wire(hand))
    if not hand.extras:
        return body
    parts = [body[:-1]]
    for key, raw in hand.extras:
        parts.append(b"," + _ENCODER.encode(key) + b":" + _compact(raw))
    parts.append(b"}")
    return b"".join(parts)


def write_jsonl(hands: Iterable[HandRecord], stream: IO[bytes]) -> int:
    """Write hands as canonical JSON Lines to a binary stream; return how many were written."""
    count = 0
    for hand in hands:
        stream.write(encode_hand(hand))
        stream.write(b"\n")
        count += 1
    return count
