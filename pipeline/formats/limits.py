"""The limits every reader holds a hand to, so that hostile values end as rejects.

A reader turns text into a :class:`~pipeline.model.HandRecord`; what it accepts must then
go through replay, settlement and the lake (int64 money, int16 seats) without overflowing.
:func:`vet` is the last step of every reader: it checks a hand against the limits below
and makes sure a reject's text can be stored (no lone surrogates from undecodable bytes).

Limits (each far beyond any real hand):

- every amount is a whole number of units from 0 to :data:`MAX_AMOUNT`, and all the
  amounts of a hand together stay within :data:`MAX_HAND_MONEY` (so every pot, stack and
  pot-limit bound the engine derives fits in int64): else ``bad-amount``;
- seat numbers run from 1 to :data:`MAX_SEAT` (pot numbers from 0), a hand lists at
  most :data:`MAX_SEATS` seats and at most :data:`MAX_ACTIONS` actions: else
  ``schema-violation``.

>>> vet(Reject("f", 1, RejectCode.BAD_ENCODING, "bad", "caf\\udce9")).excerpt
'caf\\ufffd'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from typing import IO, Protocol

import msgspec

import pipeline.records  # noqa: F401 - first, it checks the compiled view of the records
from pipeline.model import CashOut, Collection, HandRecord, SeatAmount
from pipeline.violations import Reject, RejectCode

__all__ = [
    "MAX_ACTIONS",
    "MAX_AMOUNT",
    "MAX_DIGITS",
    "MAX_HAND_MONEY",
    "MAX_LINE_BYTES",
    "MAX_SEAT",
    "MAX_SEATS",
    "NOT_UTF8_HINT",
    "UTF16_BOMS",
    "ReadProblem",
    "Readable",
    "clean_text",
    "is_utf16",
    "read_head",
    "read_lines",
    "utf16_order",
    "utf16_reject",
    "vet",
]

NOT_UTF8_HINT = (
    "hand logs are read as UTF-8: convert the file, e.g. iconv -f latin1 -t utf-8 "
    "(or -f cp1252 for a Windows file)"
)
"""What a ``bad-encoding`` reject for bytes that are not UTF-8 tells the user to do."""

UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
"""The byte-order marks that start UTF-16 (and UTF-32 little-endian) text."""


def is_utf16(head: bytes) -> bool:
    """Tell whether a file's first bytes are UTF-16 text (see :func:`utf16_order`).

    >>> is_utf16("\\ufeffPokerStars".encode("utf-16")), is_utf16(b"\\xff\\xfePokerStars Hand")
    (True, False)
    >>> is_utf16("PokerStars Hand #1".encode("utf-16-le")), is_utf16(b"PokerStars Hand #1")
    (True, False)
    """
    return utf16_order(head) is not None


def utf16_order(head: bytes) -> str | None:
    """Return ``"little"`` or ``"big"`` when a file's first bytes are UTF-16 text, else ``None``.

    With a byte-order mark: the mark, then text in which NUL bytes are common (every other
    byte of ASCII), not 8-bit text after two stray bytes that happen to look like a mark.
    Without one: NUL in most odd bytes and few even ones (little-endian ASCII), or the
    reverse, in the first 64 bytes (or the first line, however short). Text in UTF-8,
    the encoding hand logs are read in, holds no NUL at all.
    """
    if head.startswith(UTF16_BOMS):
        body = head[2:66]
        if body and body.count(0) * 4 < len(body):
            return None
        return "little" if head.startswith(b"\xff\xfe") else "big"
    body = head[:64]  # a first line may be short: "{" and its newline are 3 bytes
    if len(body) < 3:
        return None
    even, odd = body[0::2], body[1::2]
    for nul, other, order in ((odd, even, "little"), (even, odd, "big")):
        if nul.count(0) * 4 >= len(nul) * 3 and other.count(0) * 8 <= len(other):
            return order
    return None


MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest line a reader takes; a longer one is rejected as ``line-too-long``."""
READ_BUFFER = 1 << 20
"""The buffer of a file read line by line: Python's default (8 KiB) holds four lines of a
typical hand log, and refilling it took a third of the time spent cutting a file into lines."""

MAX_DIGITS = 100
"""The longest run of digits a text reader converts (Python refuses beyond 4300)."""

MAX_AMOUNT = 10**15
"""The largest amount read, in units (10 trillion dollars in cents)."""

MAX_HAND_MONEY = 10**17
"""The largest total of all the amounts of one hand, in units (int64 ends near 9.2e18)."""

MAX_SEAT = 1000
"""The largest seat number (and pot number)."""

MAX_SEATS = 100
"""The most seats one hand may list (a table seats at most 10; the engine flags more)."""

MAX_ACTIONS = 10_000
"""The most actions one hand may hold (real hands hold a few dozen)."""

_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Replace lone surrogates (undecodable bytes kept by ``surrogateescape``) with U+FFFD.

    >>> clean_text("ok"), clean_text("\\udcff!")
    ('ok', '\\ufffd!')
    """
    return _SURROGATE_RE.sub("\ufffd", text) if _SURROGATE_RE.search(text) else text


_SKIP_BYTES = 1 << 20
"""How much of an over-long line is read at a time while it is skipped."""
_UTF8_BOM = b"\xef\xbb\xbf"
_SNIFF_BYTES = 64
"""The bytes of blank first lines looked at for UTF-16 (see :func:`utf16_order`)."""
_BLANK_OR_NUL = b" \t\r\n\x00"
_EXCERPT_CHARS = 160


def read_lines(stream: IO[bytes], source: str, limit: int) -> Iterator[tuple[int, bytes] | Reject]:
    """Yield ``(line number, line)`` for every line of a binary stream, newline kept.

    The line readers' common part, with memory bounded by ``limit`` whatever the stream
    holds: a line longer than ``limit`` bytes is a ``line-too-long`` reject (its size and
    first characters), skipped in small reads. A UTF-8 byte-order mark at the start is
    dropped; UTF-16 text, with a mark or without (then perhaps after blank lines, whose
    bytes it is judged with), makes the whole stream one ``bad-encoding`` reject (its
    bytes are read to the end, and nothing else).

    >>> import io
    >>> lines = list(read_lines(io.BytesIO(b"\\xef\\xbb\\xbfabc\\nbcdef\\n\\nc"), "f", 3))
    >>> lines[0], lines[1].message, lines[2:]
    ((1, b'abc\\n'), 'line of 6 bytes is longer than the limit of 3', [(3, b'\\n'), (4, b'c')])
    """
    held: list[bytes] = []  # the first line, and more while they are blank
    head = b""
    while len(head) < _SNIFF_BYTES:  # UTF-16 may start with a line too short to tell
        raw = stream.readline(limit + 1)
        if not raw:
            break
        held.append(raw)
        head += raw[: _EXCERPT_CHARS * 4]  # enough to tell, and for the reject's excerpt
        if is_utf16(head):
            yield utf16_reject(source, head)
            while stream.readline(_SKIP_BYTES):
                pass
            return
        if raw.strip(_BLANK_OR_NUL) or not raw.endswith(b"\n"):
            break
    number = 0
    held.reverse()  # popped as read: an over-long line held is freed before it is skipped
    popped = (held.pop() for _ in range(len(held)))
    for raw in itertools.chain(popped, iter(partial(stream.readline, limit + 1), b"")):
        number += 1
        if number == 1 and raw.startswith(_UTF8_BOM):  # the mark does not count toward the limit
            raw = raw[len(_UTF8_BOM) :]
            if len(raw) == limit + 1 - len(_UTF8_BOM) and not raw.endswith(b"\n"):
                raw += stream.readline(len(_UTF8_BOM))
        if len(raw) > limit and not raw.endswith(b"\n"):
            head, size = raw[: _EXCERPT_CHARS * 4], len(raw)
            del raw  # the rest is read a little at a time and dropped
            while piece := stream.readline(_SKIP_BYTES):
                size += len(piece)
                if piece.endswith(b"\n"):
                    break
            yield Reject(
                clean_text(source),
                number,
                RejectCode.LINE_TOO_LONG,
                f"line of {size} bytes is longer than the limit of {limit}",
                head.decode("utf-8", "replace")[:_EXCERPT_CHARS],
            )
            continue
        yield number, raw


def read_head(stream: Readable, size: int) -> bytes:
    """Read a stream's first block of up to ``size`` bytes, and at least the 4 a byte-order
    mark may take unless the stream ends first (a raw stream may return less per read)."""
    head = stream.read(size)
    while 0 < len(head) < 4:
        more = stream.read(size)
        if not more:
            break
        head += more
    return head


class ReadProblem(Exception):
    """Input a reader cannot turn into a hand (a reject's code, message and field); the
    readers of TOML and JSON hands (PHH, OHH) raise it and turn it into their reject."""

    def __init__(self, code: RejectCode, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


class Readable(Protocol):
    """What the stream readers need of a binary stream."""

    def read(self, size: int, /) -> bytes: ...


def utf16_reject(source: str, head: bytes) -> Reject:
    """Return the one reject for a whole file in UTF-16: hand logs are read as UTF-8.

    >>> utf16_reject("h.jsonl", b"\\xff\\xfe{").code
    <RejectCode.BAD_ENCODING: 'bad-encoding'>
    """
    order = utf16_order(head) or "little"
    codec = "utf-16-le" if order == "little" else "utf-16-be"
    if head.startswith(UTF16_BOMS):
        mark = f"{order}-endian byte-order mark {head[:2].hex(' ').upper()}"
        convert, start = "UTF-16", 2
    else:  # iconv reads UTF-16 without a mark as big-endian: name the order
        mark = f"{order}-endian, without a byte-order mark: every other byte is NUL"
        convert, start = ("UTF-16LE" if order == "little" else "UTF-16BE"), 0
    message = (
        f"the file is UTF-16 ({mark}); "
        f"hand logs are read as UTF-8: convert it, e.g. iconv -f {convert} -t UTF-8"
    )
    end = start + min(198, (len(head) - start) // 2 * 2)  # whole code units only
    text = head[start:end].decode(codec, "replace")
    return Reject(clean_text(source), 1, RejectCode.BAD_ENCODING, message, text[:80])


def vet(item: HandRecord | Reject) -> HandRecord | Reject:
    """Return a hand within the limits as it is, a hand beyond them as a reject.

    A reject comes back with its text made storable (see :func:`clean_text`). Reject
    codes: ``bad-amount`` (an amount negative or too large, or a hand's amounts adding up
    beyond :data:`MAX_HAND_MONEY`), ``schema-violation`` (a seat number, or too many
    seats or actions).
    """
    if isinstance(item, Reject):
        return _clean_reject(item)
    problem = _problem(item)
    if problem is None:
        if not item.source.isascii() and _SURROGATE_RE.search(item.source):
            return msgspec.structs.replace(item, source=clean_text(item.source))
        return item
    code, field, message = problem
    return Reject(
        clean_text(item.source),
        item.line,
        code,
        message,
        "",
        field,
        clean_text(item.hand_id),
    )


def _clean_reject(reject: Reject) -> Reject:
    texts = (reject.source, reject.message, reject.excerpt, reject.field, reject.hand_id)
    if not any(text and _SURROGATE_RE.search(text) for text in texts):
        return reject
    return replace(
        reject,
        source=clean_text(reject.source),
        message=clean_text(reject.message),
        excerpt=clean_text(reject.excerpt),
        field=None if reject.field is None else clean_text(reject.field),
        hand_id=None if reject.hand_id is None else clean_text(reject.hand_id),
    )


def _problem(hand: HandRecord) -> tuple[RejectCode, str, str] | None:
    """Return the first limit the hand breaks: (code, field, message), or ``None``."""
    if len(hand.seats) > MAX_SEATS:
        message = f"{len(hand.seats)} seats listed; a hand may list at most {MAX_SEATS}"
        return RejectCode.SCHEMA_VIOLATION, "$.seats", message
    if len(hand.actions) > MAX_ACTIONS:
        message = f"{len(hand.actions)} actions; a hand may hold at most {MAX_ACTIONS}"
        return RejectCode.SCHEMA_VIOLATION, "$.actions", message
    if _within(hand):
        return None
    for field, seat in _seat_numbers(hand):
        if not 1 <= seat <= MAX_SEAT:
            message = f"{field}: seat {seat} is outside 1-{MAX_SEAT}"
            return RejectCode.SCHEMA_VIOLATION, field, message
    collected = () if hand.result is None else hand.result.collected
    for i, collection in enumerate(collected):
        if not 0 <= collection.pot <= MAX_SEAT:
            field = f"$.result.collected[{i}].pot"
            message = f"{field}: pot {collection.pot} is outside 0-{MAX_SEAT}"
            return RejectCode.SCHEMA_VIOLATION, field, message
    total = 0
    for field, amount in _amounts(hand):
        if amount < 0:
            return RejectCode.BAD_AMOUNT, field, f"{_named(field, hand)}: negative amount {amount}"
        if amount > MAX_AMOUNT:
            limit = f"beyond the limit of {MAX_AMOUNT}"
            message = f"{_named(field, hand)}: amount of {amount} units is {limit}"
            return RejectCode.BAD_AMOUNT, field, message
        total += amount
    message = f"the hand's amounts add up to {total} units, beyond the limit of {MAX_HAND_MONEY}"
    return RejectCode.BAD_AMOUNT, "$", message


_INDEXED_RE = re.compile(r"\$\.(seats|actions)\[([0-9]+)\]\.([a-z_]+)")


def _named(field: str, hand: HandRecord) -> str:
    """Return a field's path as read (the hand's own, in Croupier's JSON Lines) and, for a
    seat's or an action's, whose it is in words: a hand read from PokerStars text, OHH or
    PHH has no such path of its own.
    """
    match = _INDEXED_RE.fullmatch(field)
    if match is None:
        return field
    kind, index, name = match.group(1), int(match.group(2)), match.group(3)
    if kind == "seats":
        seat = hand.seats[index]
        return f"{field} (seat {seat.seat}, {seat.player!r}: {name.replace('_', ' ')})"
    action = hand.actions[index]
    who = "" if action.seat is None else f" by seat {action.seat}"
    return f"{field} (action {index + 1}, {action.type.value}{who}: {name})"


def _within(hand: HandRecord) -> bool:
    """Tell quickly (no field names built) whether every seat and amount is in range.

    One pass the compiled form runs on C integers (``limits.pxd``): an int beyond them is
    out of range anyway, and :func:`_problem` then says which it is.
    """
    try:
        return _in_range(hand)
    except OverflowError:
        return False


def _in_range(hand: HandRecord) -> bool:
    game = hand.game
    if _seat_out(hand.button) or (hand.hero is not None and _seat_out(hand.hero)):
        return False
    total = 0
    for value in (game.small_blind, game.big_blind, game.ante, game.small_bet, game.big_bet):
        if value is not None and (total := _added(total, value)) < 0:
            return False
    for s in hand.seats:
        if _seat_out(s.seat) or (total := _added(total, s.stack)) < 0:
            return False
        if s.bounty is not None and (total := _added(total, s.bounty)) < 0:
            return False
    for a in hand.actions:
        if a.seat is not None and _seat_out(a.seat):
            return False
        if a.amount is not None and (total := _added(total, a.amount)) < 0:
            return False
        if a.to is not None and (total := _added(total, a.to)) < 0:
            return False
    result = hand.result
    if result is not None:
        for c in result.collected:
            if c.pot < 0 or c.pot > _SEAT_LIMIT:
                return False
        entries: tuple[Collection | CashOut | SeatAmount, ...] = (
            *result.collected,
            *result.cash_outs,
            *result.final_stacks,
            *result.bounties,
        )
        for entry in entries:
            if _seat_out(entry.seat) or (total := _added(total, entry.amount)) < 0:
                return False
        others = [c.fee for c in result.cash_outs]
        others += [f.amount for f in result.fees]
        others += result.pots
        others += [result.rake or 0, result.total_pot or 0, result.added]
        for value in others:
            if (total := _added(total, value)) < 0:
                return False
    return total <= _MONEY_LIMIT


def _seat_out(seat: int) -> bool:
    """Whether a seat number is outside 1 to MAX_SEAT."""
    return seat < 1 or seat > _SEAT_LIMIT


def _added(total: int, amount: int) -> int:
    """Return ``total + amount``, or -1 when the amount is outside 0 to MAX_AMOUNT."""
    if amount < 0 or amount > _AMOUNT_LIMIT:
        return -1
    return total + amount


# The limits as the compiled form's C integers (limits.pxd), which _in_range compares with
# C integers: the public names are Python ints, each compared with a new int object.
_SEAT_LIMIT = MAX_SEAT
_AMOUNT_LIMIT = MAX_AMOUNT
_MONEY_LIMIT = MAX_HAND_MONEY


def _seat_numbers(hand: HandRecord) -> Iterator[tuple[str, int]]:
    yield "$.button", hand.button
    if hand.hero is not None:
        yield "$.hero", hand.hero
    for i, seat in enumerate(hand.seats):
        yield f"$.seats[{i}].seat", seat.seat
    for i, action in enumerate(hand.actions):
        if action.seat is not None:
            yield f"$.actions[{i}].seat", action.seat
    result = hand.result
    if result is None:
        return
    named: tuple[tuple[str, tuple[Collection | CashOut | SeatAmount, ...]], ...] = (
        ("collected", result.collected),
        ("cash_outs", result.cash_outs),
        ("final_stacks", result.final_stacks),
        ("bounties", result.bounties),
    )
    for name, entries in named:
        for i, entry in enumerate(entries):
            yield f"$.result.{name}[{i}].seat", entry.seat


def _amounts(hand: HandRecord) -> Iterator[tuple[str, int]]:
    game = hand.game
    yield "$.game.small_blind", game.small_blind
    yield "$.game.big_blind", game.big_blind
    yield "$.game.ante", game.ante
    if game.small_bet is not None:
        yield "$.game.small_bet", game.small_bet
    if game.big_bet is not None:
        yield "$.game.big_bet", game.big_bet
    for i, seat in enumerate(hand.seats):
        yield f"$.seats[{i}].stack", seat.stack
        if seat.bounty is not None:
            yield f"$.seats[{i}].bounty", seat.bounty
    for i, action in enumerate(hand.actions):
        if action.amount is not None:
            yield f"$.actions[{i}].amount", action.amount
        if action.to is not None:
            yield f"$.actions[{i}].to", action.to
    result = hand.result
    if result is None:
        return
    at = "$.result"
    if result.rake is not None:
        yield at + ".rake", result.rake
    if result.total_pot is not None:
        yield at + ".total_pot", result.total_pot
    yield at + ".added", result.added
    for i, pot in enumerate(result.pots):
        yield f"{at}.pots[{i}]", pot
    for i, collection in enumerate(result.collected):
        yield f"{at}.collected[{i}].amount", collection.amount
    for i, fee in enumerate(result.fees):
        yield f"{at}.fees[{i}].amount", fee.amount
    for i, cash_out in enumerate(result.cash_outs):
        yield f"{at}.cash_outs[{i}].amount", cash_out.amount
        yield f"{at}.cash_outs[{i}].fee", cash_out.fee
    for i, stack in enumerate(result.final_stacks):
        yield f"{at}.final_stacks[{i}].amount", stack.amount
    for i, bounty in enumerate(result.bounties):
        yield f"{at}.bounties[{i}].amount", bounty.amount
