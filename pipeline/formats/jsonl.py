"""The hand log: JSON Lines, one hand per line, as ``schemas/hand.schema.json`` defines it.

Reading streams a file line by line (constant memory whatever its size, each line capped
at :data:`MAX_LINE_BYTES`) and yields a :class:`~pipeline.model.HandRecord` for every line
that is a hand and a :class:`~pipeline.violations.Reject` for every line that is not;
it never raises on bad data and never stops early. Blank lines separate nothing and are
skipped. Writing (:mod:`pipeline.formats.jsonl_write`, whose :func:`encode_hand` and
:func:`write_jsonl` are here too) produces the canonical form; reading and writing the
canonical form again gives the same bytes.

Reject codes: ``malformed-json``, ``truncated-hand`` (an unfinished last line),
``schema-violation``, ``bad-card``, ``bad-amount``, ``bad-timestamp``,
``unsupported-game``, ``line-too-long``, ``bad-encoding``.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

import pipeline.formats.wire_view  # noqa: F401 - first, it checks the compiled view of the wire
from pipeline.cards import RANKS, SUITS, UNKNOWN, parse_cards
from pipeline.formats.json_keys import REPEATS, Duplicated, find_repeated, object_pairs
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
    HandOnlyW,
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
from pipeline.formats.jsonl_write import encode_hand, write_jsonl
from pipeline.formats.limits import MAX_LINE_BYTES, NOT_UTF8_HINT, read_lines, vet
from pipeline.model import (
    COURCHEVEL_VARIANTS,
    Action,
    ActionType,
    Betting,
    Blind,
    CashOut,
    Collection,
    Fee,
    GameSpec,
    HandRecord,
    RecordedResult,
    Seat,
    SeatAmount,
    Tournament,
    Variant,
)
from pipeline.money import AmountError, parse_amount, scale_of_unit
from pipeline.violations import Reject, RejectCode

__all__ = [
    "MAX_LINE_BYTES",
    "decode_line",
    "encode_hand",
    "iter_lines",
    "read_jsonl",
    "read_jsonl_stream",
    "write_jsonl",
]


EXCERPT_CHARS = 160
WRITERS_FORM = not __file__.endswith(".py")
"""Whether a line is first read as the writer writes it (:func:`_writers_record`), without
the decoder: when this module runs compiled. Interpreted (an install without a C
compiler), that reading is slower than the decoder's, and the decoder reads every line."""
_CARDS_RE = re.compile(r"(?:(?:[2-9TJQKA][cdhs]|\?\?)(?: ?(?:[2-9TJQKA][cdhs]|\?\?))*)?")
_RANK_TIMES_4 = bytes(4 * RANKS.index(chr(b)) if chr(b) in RANKS else 0xFF for b in range(256))
_SUIT = bytes(SUITS.index(chr(b)) if chr(b) in SUITS else 0xFF for b in range(256))
"""Byte translations of a card's rank (times 4) and suit to their parts of its int, 0xFF
for any other character: a card's int is ``4 * rank + suit``, so any other makes it > 51."""
_TIME_RE = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?(?:Z|[+-][0-9]{2}:[0-9]{2})"
)

_FIELDS = frozenset(HandW.__struct_fields__)
W = TypeVar("W")
T = TypeVar("T")
_TOP_DECODER = msgspec.json.Decoder(dict[str, msgspec.Raw])
_HAND_DECODER = msgspec.json.Decoder(HandW)
_HAND_ONLY_DECODER = msgspec.json.Decoder(HandOnlyW)
_ENCODER = msgspec.json.Encoder()


class _Written(threading.local):
    """Each thread's buffer for a line encoded again (:func:`_in_writers_form`)."""

    def __init__(self) -> None:
        self.buffer = bytearray()


_WRITTEN = _Written()
_BUFFER_KEPT = 1 << 16
"""Bytes of buffer a thread keeps between lines: a longer line's is let go after it."""
_KEYS_DECODER = json.JSONDecoder(object_pairs_hook=object_pairs)
"""Decodes a line again to find an object that repeats a key, which msgspec does not tell."""


# ---------------------------------------------------------------------------------------
# Wire -> model


class _FieldError(Exception):
    """A value that decoded but does not mean anything valid; becomes a Reject."""

    def __init__(self, code: RejectCode, field: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
        self.message = message

    def within(self, path: str) -> _FieldError:
        """Return the error of a field named relative to ``path`` (its message starts with it)."""
        return _FieldError(self.code, path + self.field, path + self.message)


def _amount(text: str, scale: int, field: str) -> int:
    """Return the units of ``text`` at ``scale``; a ``bad-amount`` error names ``field``."""
    value = _plain_units(text, scale)
    if value >= 0:
        return value
    try:
        return parse_amount(text, scale)
    except AmountError as error:
        raise _FieldError(RejectCode.BAD_AMOUNT, field, f"{field}: {error}") from None


def _plain_units(text: str, scale: int) -> int:
    """Return the units of an amount written plainly, else -1 (then ask :func:`parse_amount`):
    :func:`_units_in` of the text's ASCII bytes.

    >>> [_plain_units(text, 2) for text in ("12.5", "7", "0.005", ".5", "1.500", "1\u0663")]
    [1250, 700, -1, -1, -1, -1]
    """
    if not text.isascii():
        return -1
    return _units_in(text.encode("ascii"), 0, len(text), scale)


def _units_in(raw: bytes, start: int, stop: int, scale: int) -> int:
    """Return the units of the amount written plainly in ``raw[start:stop]``, else -1.

    Plainly: ASCII digits with at most one point, digits on both sides of it, at most
    ``scale`` decimals, and 18 digits at most once scaled (it fits 64 bits): what the writer
    writes. The same value as :func:`parse_amount`, in a loop the compiled form runs on C
    integers (a hand has some twenty-five amounts); any other text, valid or not, is left
    to it.
    """
    if stop <= start or stop - start > 19:
        return -1
    value = 0
    digits = 0
    decimals = -1  # after the point; -1 until a point is read
    for i in range(start, stop):
        c = raw[i]
        if 48 <= c <= 57:
            digits += 1
            if digits > 18:
                return -1
            value = value * 10 + (c - 48)
            if decimals >= 0:
                decimals += 1
        elif c == 46 and decimals < 0 and start < i < stop - 1:
            decimals = 0
        else:
            return -1
    if decimals < 0:
        decimals = 0
    if decimals > scale or digits + scale - decimals > 18:
        return -1
    for _ in range(scale - decimals):
        value *= 10
    return value


def _opt_amount(text: str | UnsetType, scale: int, field: str) -> int | None:
    return None if text is UNSET else _amount(text, scale, field)


def _cards(text: str, field: str) -> tuple[int, ...]:
    cards = _cards_together(text)
    if cards is not None:
        return cards
    if _CARDS_RE.fullmatch(text) is None:
        raise _FieldError(RejectCode.BAD_CARD, field, f"{field}: not a run of cards: {text!r}")
    return parse_cards(text)  # cards with spaces between them


def _cards_together(text: str) -> tuple[int, ...] | None:
    """Return the cards of text that writes them together (``"AhKd??"``, the canonical
    form), else ``None``: a loop the compiled form runs on C integers, a card's int read
    from its two characters through two tables (:func:`_card_at`). Four cards (hole
    cards, most of a hand's) and a flop make their tuple at once, with no list.

    >>> _cards_together("2cAs??"), _cards_together("2c As"), _cards_together("")
    ((0, 51, -1), None, ())
    """
    n = len(text)
    if n == 8:
        a, b, c, d = _card_at(text, 0), _card_at(text, 2), _card_at(text, 4), _card_at(text, 6)
        if a == _NOT_A_CARD or b == _NOT_A_CARD or c == _NOT_A_CARD or d == _NOT_A_CARD:
            return None
        return (a, b, c, d)
    if n == 6:
        a, b, c = _card_at(text, 0), _card_at(text, 2), _card_at(text, 4)
        if a == _NOT_A_CARD or b == _NOT_A_CARD or c == _NOT_A_CARD:
            return None
        return (a, b, c)
    if n % 2:
        return None
    cards = [0] * (n // 2)
    for i in range(n // 2):
        card = _card_at(text, 2 * i)
        if card == _NOT_A_CARD:
            return None
        cards[i] = card
    return tuple(cards)


_NOT_A_CARD = -2
"""What :func:`_card_at` says of two characters that are not a card (nor ``??``)."""


def _card_at(text: str, i: int) -> int:
    """Return the card written at ``text[i:i + 2]`` (``UNKNOWN`` for ``??``), else
    :data:`_NOT_A_CARD`; ``i + 1`` is within the text."""
    rank = ord(text[i])
    suit = ord(text[i + 1])
    if rank > 255 or suit > 255:
        return _NOT_A_CARD
    return _card_of(rank, suit)


def _card_of(rank: int, suit: int) -> int:
    """Return the card whose rank and suit are written by these two characters' codes, each
    below 256 (``UNKNOWN`` for ``??``), else :data:`_NOT_A_CARD`."""
    card = _RANK_TIMES_4[rank] + _SUIT[suit]
    if card > 51:
        if rank != 63 or suit != 63:  # "??": a card whose face is not shown
            return _NOT_A_CARD
        return UNKNOWN
    return card


def _scale(unit: str, field: str) -> int:
    try:
        return scale_of_unit(unit)
    except AmountError as error:
        raise _FieldError(RejectCode.BAD_AMOUNT, field, f"{field}: {error}") from None


_GAMES: dict[tuple[object, ...], GameSpec] = {}
"""Games already read, by their wire fields: a file's hands mostly share one or a few."""
_GAMES_KEPT = 1 << 10


def _game(w: GameW) -> GameSpec:
    key = msgspec.structs.astuple(w)
    game = _GAMES.get(key)
    if game is None:
        game = _read_game(w)
        if len(_GAMES) >= _GAMES_KEPT:
            _GAMES.clear()
        _GAMES[key] = game
    return game


def _read_game(w: GameW) -> GameSpec:
    try:
        variant = Variant(w.variant)
    except ValueError:
        raise _FieldError(
            RejectCode.UNSUPPORTED_GAME, "$.game.variant", f"unsupported game variant {w.variant!r}"
        ) from None
    try:
        betting = Betting(w.betting)
    except ValueError:
        raise _FieldError(
            RejectCode.UNSUPPORTED_GAME,
            "$.game.betting",
            f"unsupported betting structure {w.betting!r}",
        ) from None
    if w.hole_cards not in (4, 5, 6) or (variant in COURCHEVEL_VARIANTS and w.hole_cards != 5):
        raise _FieldError(
            RejectCode.UNSUPPORTED_GAME,
            "$.game.hole_cards",
            f"unsupported number of hole cards for {variant}: {w.hole_cards}",
        )
    if betting is Betting.FIXED_LIMIT and (w.small_bet is UNSET or w.big_bet is UNSET):
        raise _FieldError(
            RejectCode.SCHEMA_VIOLATION,
            "$.game.small_bet",
            "fixed-limit games need small_bet and big_bet",
        )
    scale = _scale(w.unit, "$.game.unit")
    return GameSpec(
        variant=variant,
        hole_cards=w.hole_cards,
        betting=betting,
        small_blind=_amount(w.small_blind, scale, "$.game.small_blind"),
        big_blind=_amount(w.big_blind, scale, "$.game.big_blind"),
        currency=w.currency,
        scale=scale,
        small_bet=_opt_amount(w.small_bet, scale, "$.game.small_bet"),
        big_bet=_opt_amount(w.big_bet, scale, "$.game.big_bet"),
        ante=_amount(w.ante, scale, "$.game.ante") if w.ante is not UNSET else 0,
        max_seats=None if w.max_seats is UNSET else w.max_seats,
        mixed=None if w.mixed is UNSET else w.mixed,
    )


def _actions(wires: Iterable[ActionW], scale: int) -> tuple[Action, ...]:
    """Convert the action list; a field that fails is named under ``$.actions[i]``.

    One loop with the wire classes tested in turn, the most frequent first: a call of a
    converter per action took half of the conversion's time. Amounts and cards carry their
    field's name relative to the action (``.amount``) until the index is put in front.
    """
    out: list[Action] = []
    append = out.append
    try:
        for w in wires:  # each branch reads its class's fields through a typed name
            if type(w) is DealW:
                deal = w
                append(Action(_DEAL, seat=deal.seat, cards=_cards(deal.cards, ".cards")))
            elif type(w) is CallW:
                call = w
                amount = _amount(call.amount, scale, ".amount")
                append(Action(_CALL, seat=call.seat, amount=amount, all_in=call.all_in))
            elif type(w) is FoldW:
                fold = w
                append(Action(_FOLD, seat=fold.seat))
            elif type(w) is CheckW:
                check = w
                append(Action(_CHECK, seat=check.seat))
            elif type(w) is RaiseW:
                raised = w
                to = _amount(raised.to, scale, ".to")
                append(Action(_RAISE, seat=raised.seat, to=to, all_in=raised.all_in))
            elif type(w) is BetW:
                bet = w
                amount = _amount(bet.amount, scale, ".amount")
                append(Action(_BET, seat=bet.seat, amount=amount, all_in=bet.all_in))
            elif type(w) is PostW:
                post = w
                amount = _amount(post.amount, scale, ".amount")
                blind = _BLINDS[post.blind]
                append(
                    Action(_POST, seat=post.seat, amount=amount, blind=blind, all_in=post.all_in)
                )
            elif type(w) is BoardW:
                board = w
                cards = _cards(board.cards, ".cards")
                burn = None if board.burn is UNSET else _cards(board.burn, ".burn")
                run = None if board.run is UNSET else board.run
                append(Action(_BOARD, cards=cards, run=run, burn=burn))
            elif type(w) is ShowW:
                show = w
                append(Action(_SHOW, seat=show.seat, cards=_cards(show.cards, ".cards")))
            elif type(w) is UncalledW:
                uncalled = w
                amount = _amount(uncalled.amount, scale, ".amount")
                append(Action(_UNCALLED, seat=uncalled.seat, amount=amount))
            elif type(w) is MuckW:
                muck = w
                mucked = None if muck.cards is UNSET else _cards(muck.cards, ".cards")
                append(Action(_MUCK, seat=muck.seat, cards=mucked))
            else:  # not reached: the decoder knows only the classes above
                raise TypeError(f"not an action of the hand log: {w!r}")
    except _FieldError as error:
        raise error.within(f"$.actions[{len(out)}]") from None
    return tuple(out)


_POST, _DEAL, _FOLD, _CHECK, _CALL, _BET, _RAISE = (
    ActionType.POST,
    ActionType.DEAL,
    ActionType.FOLD,
    ActionType.CHECK,
    ActionType.CALL,
    ActionType.BET,
    ActionType.RAISE,
)
_BOARD, _SHOW, _MUCK, _UNCALLED = (
    ActionType.BOARD,
    ActionType.SHOW,
    ActionType.MUCK,
    ActionType.UNCALLED,
)
_BLINDS = {blind.value: blind for blind in Blind}


def _each(
    wires: Iterable[W], convert: Callable[[W, int], T], scale: int, path: str
) -> tuple[T, ...]:
    """Convert every item of a list with its amounts at ``scale``; a field that fails is
    named under ``path[i]``. (The converters are module functions, which the compiled form
    gives typed arguments: a closure cannot have them.)"""
    out: list[T] = []
    try:
        for w in wires:
            out.append(convert(w, scale))  # compiled: a C call, no method looked up
    except _FieldError as error:
        raise error.within(f"{path}[{len(out)}]") from None
    return tuple(out)


def _collection(c: CollectionW, scale: int) -> Collection:
    return Collection(
        c.seat, _amount(c.amount, scale, ".amount"), c.pot, None if c.run is UNSET else c.run
    )


def _cash_out(c: CashOutW, scale: int) -> CashOut:
    fee = 0 if c.fee is UNSET else _amount(c.fee, scale, ".fee")
    return CashOut(c.seat, _amount(c.amount, scale, ".amount"), fee)


def _pot_amount(text: str, scale: int) -> int:
    return _amount(text, scale, "")


def _fee(f: FeeW, scale: int) -> Fee:
    return Fee(f.kind, _amount(f.amount, scale, ".amount"))


def _seat_amount(f: SeatAmountW, scale: int) -> SeatAmount:
    return SeatAmount(f.seat, _amount(f.amount, scale, ".amount"))


def _result(w: ResultW, scale: int, bounty_scale: int) -> RecordedResult:
    try:
        rake = _opt_amount(w.rake, scale, ".rake")
        total_pot = _opt_amount(w.total_pot, scale, ".total_pot")
        added = 0 if w.added is UNSET else _amount(w.added, scale, ".added")
    except _FieldError as error:
        raise error.within("$.result") from None
    cash_outs = _each(w.cash_outs, _cash_out, scale, "$.result.cash_outs")
    cashed: set[int] = set()
    for i, c in enumerate(cash_outs):  # one cash-out a seat (R9.cash-out)
        if c.seat in cashed:
            field = f"$.result.cash_outs[{i}].seat"
            message = f"{field}: seat {c.seat} cashes out twice (one cash-out a seat)"
            raise _FieldError(RejectCode.SCHEMA_VIOLATION, field, message)
        cashed.add(c.seat)
    return RecordedResult(
        rake=rake,
        total_pot=total_pot,
        pots=_each(w.pots, _pot_amount, scale, "$.result.pots"),
        collected=_each(w.collected, _collection, scale, "$.result.collected"),
        fees=_each(w.fees, _fee, scale, "$.result.fees"),
        added=added,
        cash_outs=cash_outs,
        final_stacks=_each(w.final_stacks, _seat_amount, scale, "$.result.final_stacks"),
        bounties=_each(w.bounties, _seat_amount, bounty_scale, "$.result.bounties"),
    )


def _started_at(text: str) -> datetime:
    if _in_utc_form(text):  # the writer's: read as it is, already in UTC
        try:
            return datetime.fromisoformat(text)
        except ValueError as error:  # a day or an hour that does not exist
            raise _FieldError(
                RejectCode.BAD_TIMESTAMP, "$.started_at", f"$.started_at: {error}: {text!r}"
            ) from None
    if _TIME_RE.fullmatch(text) is None:
        raise _FieldError(
            RejectCode.BAD_TIMESTAMP,
            "$.started_at",
            f"$.started_at: not an RFC 3339 time with an offset: {text!r}",
        )
    try:
        return datetime.fromisoformat(text).astimezone(UTC)
    except ValueError as error:
        raise _FieldError(
            RejectCode.BAD_TIMESTAMP, "$.started_at", f"$.started_at: {error}: {text!r}"
        ) from None
    except OverflowError:  # a valid local time whose UTC falls outside the years 1-9999
        message = f"$.started_at: in UTC the time falls outside the years 1-9999: {text!r}"
        raise _FieldError(RejectCode.BAD_TIMESTAMP, "$.started_at", message) from None


_UTC_FORM = "0000-00-00T00:00:00Z"
"""The writer's form of a time (:data:`_TIME_RE` in UTC, no fraction): ``0`` for a digit."""


def _in_utc_form(text: str) -> bool:
    """Whether ``text`` has the writer's form of a time (:data:`_UTC_FORM`): a loop the
    compiled form runs on C characters, in place of the regular expression's match."""
    if len(text) != 20:
        return False
    for i in range(20):
        c = ord(text[i])
        want = ord(_UTC_FORM[i])
        if want == 48:  # a digit
            if c < 48 or c > 57:
                return False
        elif c != want:
            return False
    return True


def _seats(wires: list[SeatW], scale: int, bounty_scale: int) -> tuple[Seat, ...]:
    """Convert the seats (a stack at ``scale``, a bounty at ``bounty_scale``); a field that
    fails is named under ``$.seats[i]``."""
    out: list[Seat] = []
    try:
        for s in wires:
            bounty = None if s.bounty is UNSET else _amount(s.bounty, bounty_scale, ".bounty")
            stack = _amount(s.stack, scale, ".stack")
            out.append(Seat(s.seat, s.player, stack, s.sitting_out, bounty))
    except _FieldError as error:
        raise error.within(f"$.seats[{len(out)}]") from None
    return tuple(out)


def _tournament(t: TournamentW) -> Tournament:
    return Tournament(
        id=t.id,
        level=None if t.level is UNSET else t.level,
        buyin=None if t.buyin is UNSET else t.buyin,
        currency=None if t.currency is UNSET else t.currency,
        scale=_scale(t.unit, "$.tournament.unit") if t.unit is not UNSET else 2,
    )


def _record(w: HandW, extras: tuple[tuple[str, bytes], ...], source: str, line: int) -> HandRecord:
    game = _game(w.game)
    scale = game.scale
    tournament = None if w.tournament is UNSET else _tournament(w.tournament)
    bounty_scale = tournament.scale if tournament is not None else 2
    return HandRecord(
        hand_id=w.hand_id,
        site=w.site,
        table=None if w.table is UNSET else w.table,
        started_at=None if w.started_at is UNSET else _started_at(w.started_at),
        game=game,
        button=w.button,
        seats=_seats(w.seats, scale, bounty_scale),
        actions=_actions(w.actions, scale),
        result=None if w.result is UNSET else _result(w.result, scale, bounty_scale),
        tournament=tournament,
        deck=None if w.deck is UNSET else _cards(w.deck, "$.deck"),
        hero=None if w.hero is UNSET else w.hero,
        cancelled=w.cancelled,
        partial=w.partial,
        converted=w.converted,
        source=source,
        line=line,
        extras=extras,
    )


# ---------------------------------------------------------------------------------------
# Reading


def _excerpt(raw: bytes) -> str:
    return raw[: EXCERPT_CHARS * 4].decode("utf-8", "replace")[:EXCERPT_CHARS]


def _field_of(message: str) -> str | None:
    _, sep, path = message.rpartition(" - at `")
    return path.rstrip("`") if sep else None


def decode_line(
    raw: bytes, source: str, line: int, *, complete: bool = True
) -> HandRecord | Reject:
    """Turn one line of the hand log into a hand, or a reject saying exactly what is wrong.

    ``complete`` is false for a last line with no newline: if it does not parse, it is
    reported as ``truncated-hand`` rather than ``malformed-json``. A hand beyond the
    readers' limits (:mod:`pipeline.formats.limits`) is a reject too.
    """
    item = vet(_decode_line(raw, source, line, complete))
    if isinstance(item, Reject) and not item.excerpt:
        return replace(item, excerpt=_excerpt(raw))
    return item


def _decode_line(raw: bytes, source: str, line: int, complete: bool) -> HandRecord | Reject:
    if WRITERS_FORM:
        record = _writers_record(raw, source, line)
        if record is not None:
            return record
    hand_id: str | None = None
    try:
        only = _one_decode(raw)
        if only is not None:
            hand_id = only.hand_id
            if not _in_writers_form(only, raw):  # a key may be repeated
                repeated = _repeated_key(raw, source, line, hand_id)
                if repeated is not None:
                    return repeated
            return _record(only, (), source, line)
        top = _TOP_DECODER.decode(raw)
        hand_id = _hand_id(top)
        unknown = [key for key in top if key not in _FIELDS and not key.startswith("_")]
        if unknown:
            return Reject(
                source,
                line,
                RejectCode.SCHEMA_VIOLATION,
                f"unknown field {unknown[0]!r} (extra fields must start with '_')",
                _excerpt(raw),
                f"$.{unknown[0]}",
                hand_id,
            )
        wire = _HAND_DECODER.decode(raw)
        extras = tuple(sorted((k, bytes(v)) for k, v in top.items() if k.startswith("_")))
        for key, value in extras:  # kept unread, so not checked by the decoder: UTF-8 here
            if not value.isascii():
                try:
                    value.decode("utf-8")
                except UnicodeDecodeError:
                    return _not_utf8(raw, source, line, hand_id, f"$.{key}")
        repeated = _repeated_key(raw, source, line, hand_id)
        if repeated is not None:
            return repeated
        return _record(wire, extras, source, line)
    except msgspec.ValidationError as error:
        message = str(error)
        field = _field_of(message) or "$"
        return Reject(
            source, line, RejectCode.SCHEMA_VIOLATION, message, _excerpt(raw), field, hand_id
        )
    except msgspec.DecodeError as error:
        return _undecodable(raw, source, line, complete, str(error), hand_id)
    except RecursionError:
        message = "nested too deeply to read"
        return Reject(
            source, line, RejectCode.MALFORMED_JSON, message, _excerpt(raw), None, hand_id
        )
    except _FieldError as error:
        return Reject(source, line, error.code, error.message, _excerpt(raw), error.field, hand_id)


def _in_writers_form(only: HandOnlyW, raw: bytes) -> bool:
    """Whether ``raw`` is what the writer makes of the hand it was read as: then no key is
    repeated (the hand has each field once). Encoded into the thread's buffer, which keeps
    its memory from line to line: an encoding to new bytes grows them several times a
    line (measured on generated hands: 2.9 against 2.4 us a line)."""
    written = _WRITTEN
    buffer = written.buffer
    _ENCODER.encode_into(only, buffer)
    same = buffer == raw
    if len(buffer) > _BUFFER_KEPT:
        written.buffer = bytearray()
    return same


def _repeated_key(raw: bytes, source: str, line: int, hand_id: str | None) -> Reject | None:
    """Return the ``schema-violation`` reject of a line in which an object repeats a key
    (:mod:`pipeline.formats.json_keys`: the decoder keeps the last value and drops the
    others without a word), else ``None``. Inside an extra field (``_note``), read as
    nothing but JSON text, a repeated key is kept as written; an extra field that appears
    twice is a repeated key of the hand."""
    before = REPEATS[0]
    try:
        value = _KEYS_DECODER.decode(raw.decode("utf-8"))
    except ValueError as error:  # not reached: msgspec read the line as JSON already
        return Reject(source, line, RejectCode.MALFORMED_JSON, str(error), _excerpt(raw))
    if REPEATS[0] == before or not isinstance(value, dict):
        return None
    if not isinstance(value, Duplicated):  # the extras' insides are not the hand's
        value = {key: v for key, v in value.items() if not key.startswith("_")}
    found = find_repeated(value)
    if found is None:
        return None
    if found.field == "$.hand_id":
        hand_id = None  # which of the ids is the hand's cannot be told
    message, field = found.message, found.field
    return Reject(source, line, RejectCode.SCHEMA_VIOLATION, message, _excerpt(raw), field, hand_id)


def _one_decode(raw: bytes) -> HandOnlyW | None:
    """Read a line with no extra field in one decode: the usual line. ``None`` when the
    decode fails, an extra field (``_`` first) among the causes, as the decoder knows no
    such field: the full reading says what is wrong, or reads the extras. (Looking for
    ``"_`` in the line first cost more than the failed decodes it saved.)"""
    try:
        return _HAND_ONLY_DECODER.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return None


# ---------------------------------------------------------------------------------------
# Reading the writer's form


class _NotWritersForm(Exception):
    """A line that is not in the writer's form as :class:`_Reader` reads it: the decoder
    reads it instead (:func:`_decode_line`)."""


_QUOTE = 34
_BLIND_TEXT = tuple((f'{blind.value}"'.encode(), blind) for blind in Blind)
"""Each blind's name as the writer ends it, and the blind."""


class _Reader:
    """A cursor over a line, reading it as the writer writes a hand: its fields in the order
    of their wire structs (:mod:`pipeline.formats.jsonl_wire`) with no space between, text
    without an escape, amounts and cards written plainly (:func:`_units_in`,
    :func:`_card_of`). Anything else raises :class:`_NotWritersForm`, and the decoder reads
    the line: what this reads, it reads as the decoder and :func:`_record` would (the
    tests compare them), without the wire objects in between nor the second encoding
    that checks the line for a repeated key (in this form, each field is read once, in
    its place). A field left at its default may be written (``"pot":0``), as the decoder
    reads it. The game and the tournament (the game mostly the same from hand to hand)
    are cut out whole and read by the decoder, in the writer's form too."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.pos = 0
        self.end = len(raw)

    def fail(self) -> _NotWritersForm:
        """Return the error that says where the line leaves the writer's form."""
        return _NotWritersForm(self.pos)

    def literal(self, text: bytes) -> None:
        """Read ``text`` at the cursor, or raise."""
        if not self.has(text):
            raise self.fail()

    def has(self, text: bytes) -> bool:
        """Read ``text`` if it is at the cursor; say whether it was."""
        raw = self.raw
        want = text  # compiled, both are read as C characters
        pos = self.pos
        n = len(text)
        if pos + n > self.end:
            return False
        for j in range(n):
            if raw[pos + j] != want[j]:
                return False
        self.pos = pos + n
        return True

    def flag(self, key: bytes) -> bool:
        """Read a flag written after ``key``, ``False`` if the key is not there."""
        if not self.has(key):
            return False
        if self.has(b"true"):
            return True
        self.literal(b"false")
        return False

    def field(self, key: bytes) -> bool:
        """Read ``key`` (``"name":``) if it is the object's next field: after a comma, but
        for its first field."""
        if self.raw[self.pos - 1] == 123:  # just after the object's "{"
            return self.has(key)
        start = self.pos
        if self.has(b",") and self.has(key):
            return True
        self.pos = start
        return False

    def more(self) -> bool:
        """After a list's item, read the comma before the next one and say so, or read the
        list's end."""
        raw = self.raw
        pos = self.pos
        if pos < self.end and raw[pos] == 44:  # a comma
            self.pos = pos + 1
            return True
        self.literal(b"]")
        return False

    def text(self, nonempty: bool) -> str:
        """Read a string with no escape in it (nor a control character, which JSON
        forbids); ``nonempty``: not the empty string. Invalid UTF-8 raises
        ``UnicodeDecodeError``."""
        raw = self.raw
        end = self.end
        start = self.pos + 1
        if start > end or raw[start - 1] != _QUOTE:
            raise self.fail()
        i = start
        while True:
            if i >= end:
                raise self.fail()
            c = raw[i]
            if c == _QUOTE:
                break
            if c == 92 or c < 32:  # a backslash, or a control character
                raise self.fail()
            i += 1
        if nonempty and i == start:
            raise self.fail()
        self.pos = i + 1
        return raw[start:i].decode("utf-8")

    def seat(self) -> int:
        """Read a seat number (1 to 1,000,000: ``jsonl_wire.SeatNo``), written plainly."""
        raw = self.raw
        end = self.end
        pos = self.pos
        if pos >= end:
            raise self.fail()
        c = raw[pos]
        if c < 49 or c > 57:  # a first digit 1-9: no sign, no leading zero
            raise self.fail()
        value = c - 48
        pos += 1
        while pos < end:
            c = raw[pos]
            if c < 48 or c > 57:
                break
            value = value * 10 + (c - 48)
            if value > 1_000_000:
                raise self.fail()
            pos += 1
        self.pos = pos  # a fraction or an exponent next is not what the caller reads next
        return value

    def amount(self, scale: int) -> int:
        """Read an amount written plainly (:func:`_units_in`) as units at ``scale``."""
        raw = self.raw
        end = self.end
        start = self.pos + 1
        if start > end or raw[start - 1] != _QUOTE:
            raise self.fail()
        i = start
        while i < end and raw[i] != _QUOTE:
            i += 1
        if i >= end:
            raise self.fail()
        units = _units_in(self.raw, start, i, scale)
        if units < 0:
            raise self.fail()
        self.pos = i + 1
        return units

    def cards(self) -> tuple[int, ...]:
        """Read cards written together (``"AhKd??"``), as :func:`_cards_together` does."""
        raw = self.raw
        end = self.end
        start = self.pos + 1
        if start > end or raw[start - 1] != _QUOTE:
            raise self.fail()
        i = start
        while i < end and raw[i] != _QUOTE:
            i += 1
        if i >= end or (i - start) % 2:
            raise self.fail()
        self.pos = i + 1
        n = (i - start) // 2
        if n == 4:
            a = _card_of(raw[start], raw[start + 1])
            b = _card_of(raw[start + 2], raw[start + 3])
            c = _card_of(raw[start + 4], raw[start + 5])
            d = _card_of(raw[start + 6], raw[start + 7])
            if a == _NOT_A_CARD or b == _NOT_A_CARD or c == _NOT_A_CARD or d == _NOT_A_CARD:
                raise self.fail()
            return (a, b, c, d)
        cards = [0] * n
        for k in range(n):
            card = _card_of(raw[start + 2 * k], raw[start + 2 * k + 1])
            if card == _NOT_A_CARD:
                raise self.fail()
            cards[k] = card
        return tuple(cards)

    def value(self) -> bytes:
        """Read an object or a list whole (strings and nesting followed, nothing checked:
        the decoder reads what this returns), and return its text."""
        raw = self.raw
        end = self.end
        start = self.pos
        depth = 0
        within = False  # a string
        i = start
        while i < end:
            c = raw[i]
            if within:
                if c == 92:
                    i += 1  # the escaped character
                elif c == _QUOTE:
                    within = False
            elif c == _QUOTE:
                within = True
            elif c == 123 or c == 91:  # { [
                depth += 1
            elif c == 125 or c == 93:  # } ]
                depth -= 1
                if depth <= 0:
                    break
            elif depth == 0:
                raise self.fail()  # not an object nor a list
            i += 1
        if i >= end or depth != 0:
            raise self.fail()
        self.pos = i + 1
        return raw[start : i + 1]

    def seats(self, scale: int) -> tuple[Seat, ...]:
        """Read the seats' list, after its ``[``, as :func:`_seats` converts it (a bounty
        is left to the decoder: its scale is the tournament's, read later)."""
        out: list[Seat] = []
        while True:
            self.literal(b'{"seat":')
            seat = self.seat()
            self.literal(b',"player":')
            player = self.text(True)
            self.literal(b',"stack":')
            stack = self.amount(scale)
            sitting_out = self.flag(b',"sitting_out":')
            self.literal(b"}")
            out.append(Seat(seat, player, stack, sitting_out, None))
            if not self.more():
                return tuple(out)

    def actions(self, scale: int) -> tuple[Action, ...]:
        """Read the action list, after its ``[``, as :func:`_actions` converts it."""
        out: list[Action] = []
        more = not self.has(b"]")
        while more:
            self.literal(b'{"type":"')
            if self.has(b'deal","seat":'):
                seat = self.seat()
                self.literal(b',"cards":')
                out.append(Action(_DEAL, seat=seat, cards=self.cards()))
            elif self.has(b'call","seat":'):
                seat = self.seat()
                self.literal(b',"amount":')
                amount = self.amount(scale)
                all_in = self.flag(b',"all_in":')
                out.append(Action(_CALL, seat=seat, amount=amount, all_in=all_in))
            elif self.has(b'fold","seat":'):
                out.append(Action(_FOLD, seat=self.seat()))
            elif self.has(b'check","seat":'):
                out.append(Action(_CHECK, seat=self.seat()))
            elif self.has(b'raise","seat":'):
                seat = self.seat()
                self.literal(b',"to":')
                to = self.amount(scale)
                all_in = self.flag(b',"all_in":')
                out.append(Action(_RAISE, seat=seat, to=to, all_in=all_in))
            elif self.has(b'bet","seat":'):
                seat = self.seat()
                self.literal(b',"amount":')
                amount = self.amount(scale)
                all_in = self.flag(b',"all_in":')
                out.append(Action(_BET, seat=seat, amount=amount, all_in=all_in))
            elif self.has(b'post","seat":'):
                seat = self.seat()
                self.literal(b',"blind":"')
                blind = self.blind()
                self.literal(b',"amount":')
                amount = self.amount(scale)
                all_in = self.flag(b',"all_in":')
                out.append(Action(_POST, seat=seat, amount=amount, blind=blind, all_in=all_in))
            elif self.has(b'board","cards":'):
                cards = self.cards()
                run = self.run() if self.has(b',"run":') else None
                burn = self.cards() if self.has(b',"burn":') else None
                out.append(Action(_BOARD, cards=cards, run=run, burn=burn))
            elif self.has(b'show","seat":'):
                seat = self.seat()
                self.literal(b',"cards":')
                out.append(Action(_SHOW, seat=seat, cards=self.cards()))
            elif self.has(b'uncalled","seat":'):
                seat = self.seat()
                self.literal(b',"amount":')
                out.append(Action(_UNCALLED, seat=seat, amount=self.amount(scale)))
            elif self.has(b'muck","seat":'):
                seat = self.seat()
                mucked = self.cards() if self.has(b',"cards":') else None
                out.append(Action(_MUCK, seat=seat, cards=mucked))
            else:
                raise self.fail()
            self.literal(b"}")
            more = self.more()
        return tuple(out)

    def result(self, scale: int) -> RecordedResult:
        """Read the result's object as :func:`_result` converts it (cash-outs and bounties
        are left to the decoder: the one checks its seats, the other's scale is the
        tournament's, read later)."""
        self.literal(b"{")
        rake = total_pot = None
        added = 0
        pots: tuple[int, ...] = ()
        collected: tuple[Collection, ...] = ()
        fees: tuple[Fee, ...] = ()
        final_stacks: tuple[SeatAmount, ...] = ()
        if self.field(b'"rake":'):
            rake = self.amount(scale)
        if self.field(b'"total_pot":'):
            total_pot = self.amount(scale)
        if self.field(b'"pots":['):
            pots = self.pot_amounts(scale)
        if self.field(b'"collected":['):
            collected = self.collected(scale)
        if self.field(b'"fees":['):
            fees = self.fees(scale)
        if self.field(b'"added":'):
            added = self.amount(scale)
        if self.field(b'"final_stacks":['):
            final_stacks = self.seat_amounts(scale)
        self.literal(b"}")
        return RecordedResult(
            rake=rake,
            total_pot=total_pot,
            pots=pots,
            collected=collected,
            fees=fees,
            added=added,
            cash_outs=(),
            final_stacks=final_stacks,
            bounties=(),
        )

    def pot_amounts(self, scale: int) -> tuple[int, ...]:
        """Read a list of amounts, after its ``[``."""
        out: list[int] = []
        more = not self.has(b"]")
        while more:
            out.append(self.amount(scale))
            more = self.more()
        return tuple(out)

    def collected(self, scale: int) -> tuple[Collection, ...]:
        """Read the list of collections, after its ``[``, as :func:`_collection` does."""
        out: list[Collection] = []
        more = not self.has(b"]")
        while more:
            self.literal(b'{"seat":')
            seat = self.seat()
            self.literal(b',"amount":')
            amount = self.amount(scale)
            pot = self.pot() if self.has(b',"pot":') else 0
            run = self.run() if self.has(b',"run":') else None
            self.literal(b"}")
            out.append(Collection(seat, amount, pot, run))
            more = self.more()
        return tuple(out)

    def fees(self, scale: int) -> tuple[Fee, ...]:
        """Read the list of fees, after its ``[``, as :func:`_fee` does."""
        out: list[Fee] = []
        more = not self.has(b"]")
        while more:
            self.literal(b'{"kind":')
            kind = self.text(True)
            self.literal(b',"amount":')
            out.append(Fee(kind, self.amount(scale)))
            self.literal(b"}")
            more = self.more()
        return tuple(out)

    def seat_amounts(self, scale: int) -> tuple[SeatAmount, ...]:
        """Read a list of seats' amounts, after its ``[``, as :func:`_seat_amount` does."""
        out: list[SeatAmount] = []
        more = not self.has(b"]")
        while more:
            self.literal(b'{"seat":')
            seat = self.seat()
            self.literal(b',"amount":')
            out.append(SeatAmount(seat, self.amount(scale)))
            self.literal(b"}")
            more = self.more()
        return tuple(out)

    def pot(self) -> int:
        """Read a pot's number (0 to 1,000: ``CollectionW.pot``), written plainly."""
        raw = self.raw
        end = self.end
        pos = self.pos
        if pos >= end or not 48 <= raw[pos] <= 57:
            raise self.fail()
        value = raw[pos] - 48
        pos += 1
        if value:  # no leading zero
            while pos < end and 48 <= raw[pos] <= 57:
                value = value * 10 + (raw[pos] - 48)
                if value > 1000:
                    raise self.fail()
                pos += 1
        self.pos = pos
        return value

    def blind(self) -> Blind:
        """Read a blind's name and its closing quote."""
        for text, blind in _BLIND_TEXT:
            if self.has(text):
                return blind
        raise self.fail()

    def run(self) -> int:
        """Read a runout's number (1, 2 or 3: ``jsonl_wire.Run``)."""
        pos = self.pos
        if pos >= self.end or not 49 <= self.raw[pos] <= 51:
            raise self.fail()
        self.pos = pos + 1
        return self.raw[pos] - 48


_GAME_DECODER = msgspec.json.Decoder(GameW)
_TOURNAMENT_DECODER = msgspec.json.Decoder(TournamentW)
_GAMES_BY_TEXT: dict[bytes, GameSpec] = {}
"""Games already read, by their text in the writer's form."""


def _decoded(decoder: msgspec.json.Decoder[W], text: bytes) -> W:
    """Decode a part of a line cut out by :meth:`_Reader.value`, which the writer would
    write as it is (so no key of it is repeated), else raise :class:`_NotWritersForm`."""
    try:
        wire = decoder.decode(text)
    except (msgspec.DecodeError, RecursionError):
        raise _NotWritersForm(text) from None
    if _ENCODER.encode(wire) != text:
        raise _NotWritersForm(text)
    return wire


def _game_written(text: bytes) -> GameSpec:
    game = _GAMES_BY_TEXT.get(text)
    if game is None:
        game = _read_game(_decoded(_GAME_DECODER, text))
        if len(_GAMES_BY_TEXT) >= _GAMES_KEPT:
            _GAMES_BY_TEXT.clear()
        _GAMES_BY_TEXT[text] = game
    return game


def _writers_record(raw: bytes, source: str, line: int) -> HandRecord | None:
    """Return the hand of a line in the writer's form (:class:`_Reader`), the hand
    :func:`_record` makes of the line decoded; ``None`` for a line in any other form,
    whether a hand or not (the decoder then reads it, and says what is wrong)."""
    r = _Reader(raw)
    try:
        r.literal(b'{"hand_id":')
        hand_id = r.text(True)
        r.literal(b',"site":')
        site = r.text(True)
        table = r.text(False) if r.has(b',"table":') else None
        started_at = _started_at(r.text(False)) if r.has(b',"started_at":') else None
        r.literal(b',"game":')
        game = _game_written(r.value())
        scale = game.scale
        r.literal(b',"button":')
        button = r.seat()
        r.literal(b',"seats":[')
        seats = r.seats(scale)
        r.literal(b',"actions":[')
        actions = r.actions(scale)
        result = r.result(scale) if r.has(b',"result":') else None
        tournament = None
        if r.has(b',"tournament":'):
            tournament = _tournament(_decoded(_TOURNAMENT_DECODER, r.value()))
        deck = r.cards() if r.has(b',"deck":') else None
        hero = r.seat() if r.has(b',"hero":') else None
        cancelled = r.flag(b',"cancelled":')
        partial = r.flag(b',"partial":')
        converted = r.flag(b',"converted":')
        r.literal(b"}")
        if r.pos != r.end:
            return None
    except (_NotWritersForm, _FieldError, UnicodeDecodeError, msgspec.ValidationError):
        return None
    return HandRecord(
        hand_id=hand_id,
        site=site,
        table=table,
        started_at=started_at,
        game=game,
        button=button,
        seats=seats,
        actions=actions,
        result=result,
        tournament=tournament,
        deck=deck,
        hero=hero,
        cancelled=cancelled,
        partial=partial,
        converted=converted,
        source=source,
        line=line,
        extras=(),
    )


def _not_utf8(
    raw: bytes, source: str, line: int, hand_id: str | None, field: str | None = None
) -> Reject:
    """Return the ``bad-encoding`` reject of a line that is not UTF-8: where it breaks."""
    try:
        raw.decode("utf-8")
        reason, start = "invalid bytes", 0  # not reached: the caller found some
    except UnicodeDecodeError as bad:
        reason, start = bad.reason, bad.start
    where = "" if field is None else f"{field}: "
    message = f"{where}not UTF-8: {reason} at byte {start}; {NOT_UTF8_HINT}"
    return Reject(source, line, RejectCode.BAD_ENCODING, message, _excerpt(raw), field, hand_id)


def _undecodable(
    raw: bytes, source: str, line: int, complete: bool, message: str, hand_id: str | None
) -> Reject:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return _not_utf8(raw, source, line, hand_id)
    if complete:
        if not raw.lstrip().startswith(b"{"):  # not even the start of a hand: say so
            message += "; a hand log line is one JSON object (is this file a hand log?)"
        return Reject(
            source, line, RejectCode.MALFORMED_JSON, message, _excerpt(raw), None, hand_id
        )
    return Reject(
        source,
        line,
        RejectCode.TRUNCATED_HAND,
        f"unfinished last line: {message}",
        _excerpt(raw),
        None,
        hand_id,
    )


def _hand_id(top: dict[str, msgspec.Raw]) -> str | None:
    raw = top.get("hand_id")
    if raw is None:
        return None
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return None
    return value if isinstance(value, str) and value else None


def iter_lines(
    stream: IO[bytes], source: str, *, max_line_bytes: int | None = None
) -> Iterator[tuple[int, bytes, bool] | Reject]:
    """Yield ``(line number, stripped line, complete)`` for every non-blank line.

    A line longer than ``max_line_bytes`` (default :data:`MAX_LINE_BYTES`) is yielded as
    a ``line-too-long`` reject and skipped in small reads, so memory stays within the cap
    whatever the line's length; ``complete`` is false for a last line with no newline. A
    UTF-8 byte-order mark at the start is ignored; a UTF-16 one makes the whole stream one
    ``bad-encoding`` reject (its bytes are read to the end, and nothing else).
    """
    limit = MAX_LINE_BYTES if max_line_bytes is None else max_line_bytes
    for item in read_lines(stream, source, limit):
        if isinstance(item, Reject):
            yield item
            continue
        number, raw = item
        body = raw.strip()
        if body:
            yield number, body, raw.endswith(b"\n")


def read_jsonl_stream(
    stream: IO[bytes], source: str, *, max_line_bytes: int | None = None
) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every non-blank line of a binary stream.

    Memory stays bounded by ``max_line_bytes``: a longer line is rejected as
    ``line-too-long`` and skipped without being kept. A UTF-8 byte-order mark at the start
    is ignored.
    """
    for item in iter_lines(stream, source, max_line_bytes=max_line_bytes):
        if isinstance(item, Reject):
            yield item
        else:
            number, body, complete = item
            yield decode_line(body, source, number, complete=complete)


def read_jsonl(
    path: str | Path, *, source: str | None = None, max_line_bytes: int | None = None
) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every non-blank line of a hand-log file.

    ``source`` names the file in records and rejects (default: the path as given).
    Opening the file may raise ``OSError``: that is the environment, not bad data.
    """
    name = str(path) if source is None else source
    with open(path, "rb") as stream:
        yield from read_jsonl_stream(stream, name, max_line_bytes=max_line_bytes)
