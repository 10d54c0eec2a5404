"""PokerStars text hand histories (and the clones that write the same grammar), Omaha only.

:func:`read_pokerstars` reads a file, :func:`parse_pokerstars` an already decoded text;
both yield a :class:`~pipeline.model.HandRecord` or a :class:`~pipeline.violations.Reject`
for every hand, in file order, and never raise on bad data: a hand that cannot be read
becomes one reject (with the line at fault in its message) and the file goes on.
:func:`looks_like_pokerstars` sniffs the first few KB of a file.

Framing (``shared/formats/pokerstars.md`` §2.1): a hand starts at a header line
(``PokerStars Hand #…:``, ``PokerStars Game #…:``, ``PokerStars Zoom Hand``, ``PokerStars
Home Game Hand``, ``Run It Once Poker Hand`` …) and runs to the next blank line or the next
header. Any number of blank lines and ``*** # 2 ***`` banners may separate hands. Text
outside any hand (a log that starts mid-hand, a stray tail) cannot become a hand: each
such block is one ``truncated-hand`` reject, so every piece of input is accounted for.

Encoding: UTF-8 with or without a byte-order mark; when the file is not valid UTF-8 each
hand is decoded on its own, as UTF-8 and else as cp1252 (the order FPDB uses), so one
corrupt hand never garbles the rest; a hand neither can decode is a ``bad-encoding``
reject. ``\\r\\n`` and ``\\r`` line ends are read as ``\\n``.

Money: integer units of the hand; cash games in cents (finer when an amount needs it),
tournament chips and play money in whole units. Times: the ET time (or the stated zone,
a stated UTC first) converted to UTC with :mod:`zoneinfo`; a time printed with no zone is
read as ET, as FPDB does. See :mod:`pipeline.formats.pokerstars_body` for what a record
holds and never invents. A file comes from one tool: when any of its hands shows a
converter's signs, every hand of the file is marked ``converted``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from pipeline.formats.limits import MAX_DIGITS, MAX_LINE_BYTES, is_utf16, utf16_reject, vet
from pipeline.formats.pokerstars_body import Line, parse_hand
from pipeline.formats.pokerstars_header import HEADER_RE, HandError
from pipeline.model import HandRecord
from pipeline.violations import Reject, RejectCode

__all__ = [
    "SNIFF_BYTES",
    "is_header_line",
    "looks_like_pokerstars",
    "parse_pokerstars",
    "parse_pokerstars_bytes",
    "read_pokerstars",
]

SNIFF_BYTES = 8192
"""How much of a file :func:`looks_like_pokerstars` needs to see."""

EXCERPT_CHARS = 160
_BOM = b"\xef\xbb\xbf"
_BANNER_RE = re.compile(r"^\*{3,}\s*#\s*[0-9]+\s*\*{3,}$")
_BYTES_HEADER_RE = re.compile(
    rb"^(?i:PokerStars|Run It Once Poker|Run It Once|PokerMaster|SupremaPoker|Suprema Poker"
    rb"|PokerBros|Full Tilt Poker|Full Tilt)(?i: Zoom| Home Game)? (?i:Game|Hand) #"
    rb"[0-9A-Za-z_-]+: ?(?P<rest>.*)$"
)
_SNIFF_DATE_RE = re.compile(rb" - [0-9]{4}[/-][0-9]{1,2}[/-][0-9]{1,2}")
_LONG_NUMBER_RE = re.compile(f"[0-9]{{{MAX_DIGITS + 1},}}")


def is_header_line(text: str) -> bool:
    """Tell whether a line starts a hand (the site, ``Hand #…:`` or ``Game #…:``)."""
    return HEADER_RE.match(text) is not None


def looks_like_pokerstars(head: bytes) -> bool:
    """Tell whether a file's first bytes look like a PokerStars-format hand history.

    Looks for a header line (PokerStars, Zoom, Home Game or a clone) with a date, at the
    start of a line, with or without a byte-order mark. The old Full Tilt grammar
    (``Full Tilt Poker Game #…: Table …``) is a different format and does not count.

    >>> looks_like_pokerstars(b"\\xef\\xbb\\xbfPokerStars Hand #1:  Omaha Pot Limit ($1/$2)"
    ...                       b" - 2013/03/29 3:47:12 ET\\r\\nTable 'A' 6-max Seat #1 is the")
    True
    >>> looks_like_pokerstars(b'{"hand_id": "PokerStars Hand #1: - 2013/03/29"}')
    False
    """
    data = head[len(_BOM) :] if head.startswith(_BOM) else head
    for raw in data.replace(b"\r", b"\n").split(b"\n"):
        match = _BYTES_HEADER_RE.match(raw.strip(b" \t"))
        if match is None:
            continue
        rest = match.group("rest")
        if not rest.startswith(b"Table ") and _SNIFF_DATE_RE.search(rest):
            return True
    return False


def read_pokerstars(
    path: str | Path, *, source: str | None = None
) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a PokerStars text file.

    ``source`` names the file in records and rejects (default: the path as given).
    Opening the file may raise ``OSError``: that is the environment, not bad data.
    """
    name = str(path) if source is None else source
    data = Path(path).read_bytes()
    yield from parse_pokerstars_bytes(data, name)


def parse_pokerstars_bytes(data: bytes, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a file's bytes (see the module docs).

    A file in UTF-16 (it starts with a UTF-16 byte-order mark) is one ``bad-encoding``
    reject.
    """
    if is_utf16(data):
        yield utf16_reject(source, data)
        return
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        yield from _parse_chunks_of_bytes(data, source)
        return
    yield from parse_pokerstars(text, source)


def parse_pokerstars(text: str, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a decoded text, in order."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(number, line.rstrip()) for number, line in enumerate(lines, start=1)]
    yield from _one_tool_per_file(_parse_block(block, source) for block in _blocks(numbered))


def _one_tool_per_file(items: Iterable[HandRecord | Reject]) -> Iterator[HandRecord | Reject]:
    """A file comes from one tool: a converter's signs in any hand flag all its hands."""
    buffered = list(items)
    if any(isinstance(item, HandRecord) and item.converted for item in buffered):
        buffered = [
            replace(item, converted=True) if isinstance(item, HandRecord) else item
            for item in buffered
        ]
    for item in buffered:
        yield vet(item)


def _blocks(lines: Sequence[Line]) -> Iterator[list[Line]]:
    """Split numbered lines into hands (header first) and stray blocks of other text."""
    block: list[Line] = []
    for number, text in lines:
        if is_header_line(text):
            if block:
                yield block
            block = [(number, text)]
        elif not text.strip() or _BANNER_RE.match(text.strip()):
            if block:
                yield block
            block = []
        else:
            block.append((number, text))
    if block:
        yield block


def _parse_block(block: list[Line], source: str) -> HandRecord | Reject:
    first_line, first_text = block[0]
    if not is_header_line(first_text):
        return Reject(
            source,
            first_line,
            RejectCode.TRUNCATED_HAND,
            f"lines {first_line}-{block[-1][0]}: text outside any hand (no header line before "
            "it: the log starts or goes on mid-hand)",
            first_text[:EXCERPT_CHARS],
        )
    match = HEADER_RE.match(first_text)
    hand_id = match.group("id") if match else None
    hostile = _hostile_line(block)
    if hostile is not None:
        code, message, excerpt = hostile
        return Reject(source, first_line, code, message, excerpt, hand_id=hand_id)
    try:
        record, _signs = parse_hand(block)
    except HandError as error:
        excerpt = next((text for number, text in block if number == error.line), first_text)
        return Reject(
            source,
            first_line,
            error.code,
            error.message,
            excerpt[:EXCERPT_CHARS],
            hand_id=hand_id,
        )
    return _located(record, source, first_line)


def _hostile_line(block: list[Line]) -> tuple[RejectCode, str, str] | None:
    """Find a line too long to read, or a number too long to convert (``int`` refuses
    4300 digits); real logs have neither."""
    for number, text in block:
        if len(text) <= MAX_DIGITS:
            continue
        if len(text) > MAX_LINE_BYTES:
            message = (
                f"line {number}: a line of {len(text)} characters is longer than the limit "
                f"of {MAX_LINE_BYTES}"
            )
            return RejectCode.LINE_TOO_LONG, message, text[:EXCERPT_CHARS]
        digits = _LONG_NUMBER_RE.search(text)
        if digits is not None:
            size = digits.end() - digits.start()
            message = f"line {number}: a number of {size} digits (at most {MAX_DIGITS} are read)"
            return RejectCode.MALFORMED_HAND, message, text[:EXCERPT_CHARS]
    return None


def _located(record: HandRecord, source: str, line: int) -> HandRecord:
    return replace(record, source=source, line=line)


def _parse_chunks_of_bytes(data: bytes, source: str) -> Iterator[HandRecord | Reject]:
    """Decode a file that is not valid UTF-8 hand by hand: UTF-8, else cp1252."""
    yield from _one_tool_per_file(_chunks_of_bytes(data, source))


def _chunks_of_bytes(data: bytes, source: str) -> Iterator[HandRecord | Reject]:
    raw_lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    starts = [i for i, raw in enumerate(raw_lines) if _BYTES_HEADER_RE.match(raw)]
    bounds = [0, *starts, len(raw_lines)]
    for begin, end in itertools.pairwise(bounds):
        if begin == end:
            continue
        chunk = b"\n".join(raw_lines[begin:end])
        text = _decode(chunk)
        if text is None:
            yield _bad_encoding(chunk, raw_lines[begin], begin + 1, source)
            continue
        lines = [(begin + k + 1, line.rstrip()) for k, line in enumerate(text.split("\n"))]
        for block in _blocks(lines):
            yield _parse_block(block, source)


def _decode(chunk: bytes) -> str | None:
    for encoding in ("utf-8", "cp1252"):
        try:
            return chunk.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


def _bad_encoding(chunk: bytes, first: bytes, line: int, source: str) -> Reject:
    match = _BYTES_HEADER_RE.match(first)
    hand_id = None
    if match is not None:
        found = re.search(rb"#([0-9A-Za-z_-]+):", first)
        hand_id = found.group(1).decode("ascii") if found else None
    message = f"line {line}: neither UTF-8 nor cp1252"
    try:
        chunk.decode("utf-8")
    except UnicodeDecodeError as bad:
        at = chunk[: bad.start].count(b"\n") + line
        message = f"line {at}: neither UTF-8 nor cp1252 ({bad.reason} at byte {bad.start})"
    return Reject(
        source,
        line,
        RejectCode.BAD_ENCODING,
        message,
        first.decode("utf-8", "replace")[:EXCERPT_CHARS],
        hand_id=hand_id,
    )
