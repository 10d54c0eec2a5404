"""PokerStars text hand histories (and the clones that write the same grammar), Omaha only.

:func:`read_pokerstars` reads a file as a stream (memory does not grow with its size),
:func:`read_pokerstars_stream` a stream that can be read only once (stdin, a pipe),
:func:`parse_pokerstars` an already decoded text;
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
A byte-order mark at the start of any line is taken off (files joined together, each
saved with one). A last line with no line end after it may be cut short: unless it is
whole beyond doubt, it is not read and its hand is ``partial`` (see
:func:`~pipeline.formats.pokerstars_body.parse_hand`).

Encoding, decided hand by hand (:func:`_decode_hand`, on the bytes from a header line to the
next blank line, so text joined after a hand cannot change how it reads): UTF-8 with or
without a byte-order mark, or cp1252 (FPDB's fallback) for a hand that is not valid UTF-8
and whose bytes beyond ASCII are mostly not UTF-8. A hand of UTF-8 text with a stray byte
that is not (a Latin-1 chat line), or a byte cp1252 leaves undefined, is a ``bad-encoding``
reject naming the line, never guessed, so it cannot garble the names of its hand; the other
hands are read.
A file in UTF-16 is one ``bad-encoding`` reject; so is UTF-16 text joined after
UTF-8 text (lines with NUL bytes between their characters where a hand would start).
``\\r\\n`` and ``\\r`` line ends are read as ``\\n``.

Money: integer units of the hand; cash games in cents (finer when an amount needs it),
tournament chips and play money in whole units. Times: the ET time (or the stated zone,
a stated UTC first) converted to UTC with :mod:`zoneinfo`; a time printed with no zone is
read as ET, as FPDB does, but a zone that is not known is never guessed (``bad-timestamp``
unless the header also has a time in a known zone). See
:mod:`pipeline.formats.pokerstars_body` for what a record holds and never invents. A file
comes from one tool: when any of its hands shows a converter's signs, every hand of the
file is marked ``converted``.
"""

from __future__ import annotations

import io
import itertools
import re
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from msgspec.structs import replace

from pipeline.formats.limits import (
    MAX_DIGITS,
    MAX_LINE_BYTES,
    Readable,
    is_utf16,
    read_head,
    utf16_reject,
    vet,
)
from pipeline.formats.pokerstars_body import Line, parse_hand
from pipeline.formats.pokerstars_header import HEADER_RE, HandError
from pipeline.model import HandRecord
from pipeline.violations import Reject, RejectCode

__all__ = [
    "BUFFERED_HANDS",
    "MAX_CHUNK_BYTES",
    "MAX_CHUNK_LINES",
    "SNIFF_BYTES",
    "SPOOL_MEMORY_BYTES",
    "is_header_line",
    "looks_like_pokerstars",
    "parse_pokerstars",
    "parse_pokerstars_bytes",
    "pokerstars_frame_bytes",
    "pokerstars_frames",
    "read_pokerstars",
    "read_pokerstars_frames",
    "read_pokerstars_stream",
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
_LINE_END_RE = re.compile(rb"\r\n|\r|\n")
_READ_BYTES = 1 << 16

BUFFERED_HANDS = 5_000
"""Hands of a file held before deciding it is long: a longer file is read twice (see
:func:`read_pokerstars`), so that memory does not grow with the file."""
SPOOL_MEMORY_BYTES = 1 << 20
"""How much of a stream read once :func:`read_pokerstars_stream` keeps in memory to read
it again; the rest of a longer stream is kept in a temporary file."""
MAX_CHUNK_BYTES = 2 * MAX_LINE_BYTES
"""The most text kept between two header lines (a real hand is a few kilobytes); the rest
of a longer stretch is counted, not kept, and the stretch is one reject."""
MAX_CHUNK_LINES = 100_000
"""The most lines kept between two header lines (each costs about 100 bytes held)."""
_LONG_NUMBER_RE = re.compile(f"[0-9]{{{MAX_DIGITS + 1},}}")


def is_header_line(text: str) -> bool:
    """Tell whether a line starts a hand (the site, ``Hand #…:`` or ``Game #…:``), after
    any byte-order marks (files joined together)."""
    return HEADER_RE.match(text.lstrip("\ufeff")) is not None


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
    The file is read as a stream, a hand at a time; memory does not grow with its size.
    A file comes from one tool (see :func:`_one_tool_per_file`): a file of more than
    :data:`BUFFERED_HANDS` hands is read twice, first to learn that, then to yield.
    """
    name = str(path) if source is None else source
    with open(path, "rb") as stream:
        if not stream.seekable():  # a pipe is read once (see read_pokerstars_stream)
            yield from read_pokerstars_stream(stream, name)
            return
        first_pass = _Reads(stream)

        def again() -> Iterator[HandRecord | Reject]:
            stream.seek(0)  # the same bytes again, even if the file has grown meanwhile
            return _parse_stream(_Reads(stream, limit=first_pass.count), name)

        yield from _one_tool(_parse_stream(first_pass, name), again)


def read_pokerstars_stream(stream: Readable, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a binary stream read once (stdin, a pipe).

    ``source`` names the stream in records and rejects. A stream comes from one tool (see
    :func:`_one_tool_per_file`), which is known only once it is read through: up to
    :data:`BUFFERED_HANDS` hands are held; the bytes of a longer stream are copied to a
    temporary file as they are read (in memory up to :data:`SPOOL_MEMORY_BYTES`, then on
    disk), and read again from there, so memory does not grow with its size.
    """
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY_BYTES) as spool:

        def again() -> Iterator[HandRecord | Reject]:
            spool.seek(0)  # every byte the first pass read, and nothing else
            return _parse_stream(spool, source)

        yield from _one_tool(_parse_stream(_Copied(stream, spool), source), again)


def _one_tool(
    items: Iterator[HandRecord | Reject],
    again: Callable[[], Iterator[HandRecord | Reject]],
) -> Iterator[HandRecord | Reject]:
    """Mark the hands of one input as one tool wrote them (see :func:`_one_tool_per_file`):
    up to :data:`BUFFERED_HANDS` of the first pass are held; past that, the first pass is
    read through only to tell, and ``again()`` reads the input a second time to yield it."""
    first = list(itertools.islice(items, BUFFERED_HANDS + 1))
    if len(first) <= BUFFERED_HANDS:
        yield from _one_tool_per_file(first)
        return
    converted = _any_converted(first) or _any_converted(items)
    del first
    yield from _marked(again(), converted)


class _Copied:
    """A binary stream read through, every byte read written to a copy as well."""

    def __init__(self, stream: Readable, copy: IO[bytes]) -> None:
        self.stream = stream
        self.copy = copy

    def read(self, size: int, /) -> bytes:
        data = self.stream.read(size)
        self.copy.write(data)
        return data


class _Reads:
    """A binary stream read through, counting the bytes read, up to an optional limit."""

    def __init__(self, stream: Readable, limit: int | None = None) -> None:
        self.stream = stream
        self.limit = limit
        self.count = 0

    def read(self, size: int, /) -> bytes:
        if self.limit is not None:
            size = min(size, self.limit - self.count)
            if size <= 0:
                return b""
        data = self.stream.read(size)
        self.count += len(data)
        return data


def parse_pokerstars_bytes(data: bytes, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a file's bytes (see the module docs).

    A file in UTF-16 (it starts with a UTF-16 byte-order mark) is one ``bad-encoding``
    reject.
    """
    yield from _one_tool_per_file(_parse_stream(io.BytesIO(data), source))


def parse_pokerstars(text: str, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a decoded text, in order."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [
        (number, line.lstrip("\ufeff").rstrip()) for number, line in enumerate(lines, start=1)
    ]
    last, text = numbered[-1]
    if text.rstrip(_END_OF_FILE):  # a Ctrl-Z right after the last text is none of it
        numbered[-1] = (last, text.rstrip(_END_OF_FILE))
    open_line = len(numbered) if numbered[-1][1].strip(_END_OF_FILE) else None
    file_end = _file_end([text for _, text in numbered[-8:]], len(numbered))
    yield from _one_tool_per_file(
        _parse_block(block, source, open_line=open_line, file_end=file_end)
        for block in _blocks(numbered)
    )


def _file_end(tail: Sequence[str], count: int) -> int | None:
    """Return the number of the file's last line of text when no blank line follows it.

    ``tail`` is the text of the file's last lines (after the last line end, maybe empty)
    and ``count`` how many lines the file has. A Ctrl-Z or NUL after the text is no line.
    A hand that runs to this line may have been cut at a line end (see
    :func:`~pipeline.formats.pokerstars_body.parse_hand`).
    """
    pieces = list(tail)
    number = count
    if pieces and not pieces[-1]:  # the file ends with a line end: nothing after it
        pieces.pop()
        number -= 1
    while pieces:
        text = pieces.pop()
        if text.strip(_END_OF_FILE):
            return number
        if not text.strip():
            return None  # a blank line: the hand before it ended there
        number -= 1
    return None


def _one_tool_per_file(items: Iterable[HandRecord | Reject]) -> Iterator[HandRecord | Reject]:
    """A file comes from one tool: a converter's signs in any hand flag all its hands."""
    buffered = list(items)
    yield from _marked(buffered, _any_converted(buffered))


def _marked(items: Iterable[HandRecord | Reject], converted: bool) -> Iterator[HandRecord | Reject]:
    """Vet each item, every hand marked converted when the file's tool is a converter."""
    for item in items:
        yield vet(_as_converted(item) if converted else item)


def _any_converted(items: Iterable[HandRecord | Reject]) -> bool:
    return any(isinstance(item, HandRecord) and item.converted for item in items)


def _as_converted(item: HandRecord | Reject) -> HandRecord | Reject:
    if isinstance(item, HandRecord) and not item.converted:
        return replace(item, converted=True)
    return item


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


def _parse_block(
    block: list[Line],
    source: str,
    cut: dict[int, int] | None = None,
    open_line: int | None = None,
    file_end: int | None = None,
) -> HandRecord | Reject:
    """Read one block of lines into a hand or a reject; ``cut`` has the true length of
    lines cut short, ``open_line`` is the number of the file's last line when no line end
    follows it, ``file_end`` that of its last line of text when no blank line follows it
    (see :func:`~pipeline.formats.pokerstars_body.parse_hand`)."""
    first_line, first_text = block[0]
    if not is_header_line(first_text):
        if any("\x00" in text.strip(_END_OF_FILE) for _, text in block):
            return Reject(
                source,
                first_line,
                RejectCode.BAD_ENCODING,
                f"lines {first_line}-{block[-1][0]}: NUL bytes between the characters, as "
                "in UTF-16 text (a UTF-16 file joined to this one?); hand logs are read as "
                "UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8",
                first_text.replace("\x00", "")[:EXCERPT_CHARS],
            )
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
    hostile = _hostile_line(block, cut or {})
    if hostile is not None:
        code, message, excerpt = hostile
        return Reject(source, first_line, code, message, excerpt, hand_id=hand_id)
    try:
        record, _signs = parse_hand(block, open_line=open_line, file_end=file_end)
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


def _hostile_line(block: list[Line], cut: dict[int, int]) -> tuple[RejectCode, str, str] | None:
    """Find a line too long to read, or a number too long to convert (``int`` refuses
    4300 digits); real logs have neither. ``cut`` has the true length of lines cut short."""
    for number, text in block:
        if len(text) <= MAX_DIGITS:
            continue
        if number in cut or len(text) > MAX_LINE_BYTES:
            how_long = f"{cut[number]} bytes" if number in cut else f"{len(text)} characters"
            message = (
                f"line {number}: a line of {how_long} is longer than the limit of {MAX_LINE_BYTES}"
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


def _parse_stream(stream: Readable, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject (not yet vetted) for every hand of a binary stream."""
    return read_pokerstars_frames(pokerstars_frames(stream, source), source)


def pokerstars_frames(stream: Readable, source: str) -> Iterator[Frame]:
    """Cut a binary stream into its hands' lines, unread: what :func:`read_pokerstars_frames`
    reads into hands and rejects, in order, wherever it runs (a ``croupier run`` worker).

    The cutting is the quick part of reading (each line is matched against the header, no
    more); a file in UTF-16 is one ``bad-encoding`` reject here.
    """
    head = read_head(stream, _READ_BYTES)
    if is_utf16(head):
        yield utf16_reject(source, head)
        return
    yield from _chunks(_raw_lines(stream, head))


def pokerstars_frame_bytes(frame: Frame) -> int:
    """Return the bytes of a frame's lines (a reject's: none)."""
    return 0 if isinstance(frame, Reject) else sum(len(line) + 1 for line in frame.lines)


def read_pokerstars_frames(frames: Iterable[Frame], source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject, not yet vetted, for every hand of frames of a stream cut
    by :func:`pokerstars_frames`. A hand is marked ``converted`` on its own signs only (so
    even one whose limits will make it a reject): the whole file's mark (see
    :func:`_one_tool_per_file`) is the caller's to apply."""
    for frame in frames:
        if isinstance(frame, Reject):
            yield frame
        else:
            yield from _chunk_items((frame,), source)


def _raw_lines(stream: Readable, head: bytes = b"") -> Iterator[tuple[bytes, int]]:
    """Yield every line of a binary stream with its length in bytes; ``\\r\\n``,
    ``\\r`` and ``\\n`` each end a line (the text after the last one is a line too, maybe
    empty).

    A line longer than :data:`MAX_LINE_BYTES` is cut just past the limit, at a whole UTF-8
    character: its length says how long it was, and it is never held whole.
    """
    pending: list[bytes] = []
    kept = length = 0
    after_cr = False  # the last block ended with "\r": a "\n" first in the next is its end
    block = head or stream.read(_READ_BYTES)
    while block:
        if after_cr and block.startswith(b"\n"):
            block = block[1:]
        after_cr = block.endswith(b"\r")
        start = 0
        for end in _LINE_END_RE.finditer(block):
            piece = block[start : end.start()]
            if kept <= MAX_LINE_BYTES:
                pending.append(piece[: MAX_LINE_BYTES + 1 - kept])
            yield _line(pending, length + len(piece))
            pending, kept, length = [], 0, 0
            start = end.end()
        piece = block[start:]
        if kept <= MAX_LINE_BYTES:
            pending.append(piece[: MAX_LINE_BYTES + 1 - kept])
            kept += len(pending[-1])
        length += len(piece)
        block = stream.read(_READ_BYTES)
    yield _line(pending, length)


def _line(pieces: list[bytes], length: int) -> tuple[bytes, int]:
    line = b"".join(pieces)
    if length > len(line):  # cut: never end on part of a character (the rest would not decode)
        end = len(line)
        while end > 0 and line[end - 1] & 0xC0 == 0x80:
            end -= 1
        if end > 0 and line[end - 1] >= 0xC0:
            line = line[: end - 1]
    return line, length


@dataclass(frozen=True, slots=True)
class _Chunk:
    """The lines from one header line to the next (the first chunk maybe not a hand's)."""

    begin: int
    end: int
    lines: list[bytes]
    cut: dict[int, int]  # the true length of lines cut short
    dropped: bool  # lines were dropped: the chunk outgrew MAX_CHUNK_BYTES
    open_line: int | None = None  # the file's last line, when no line end follows it
    file_end: int | None = None  # its last line of text, when no blank line follows it


Frame = _Chunk | Reject
"""A piece of a file cut at its hand headers (see :func:`pokerstars_frames`)."""


def _chunks(lines: Iterable[tuple[bytes, int]]) -> Iterator[_Chunk]:
    """Split lines into chunks, each starting at a header line (the first maybe not).

    A byte-order mark at the start of any line (files joined, each saved with one) is
    taken off. It does not decide the encoding (see :func:`_decode_hand`): an old cp1252
    file saved again with one reads as before.
    """
    kept: list[bytes] = []
    cut: dict[int, int] = {}
    begin, size, dropped = 1, 0, False
    number, line = 0, b""
    tail: deque[bytes] = deque(maxlen=8)  # the last lines, for _file_end
    for number, (raw, length) in enumerate(lines, start=1):
        line = raw
        tail.append(raw)
        while line.startswith(_BOM):  # a file saved twice may have two
            line = line[len(_BOM) :]
        if number > begin and _BYTES_HEADER_RE.match(line):
            yield _Chunk(begin, number - 1, kept, cut, dropped)
            begin, kept, size, cut, dropped = number, [], 0, {}, False
        if size > MAX_CHUNK_BYTES or len(kept) >= MAX_CHUNK_LINES:
            dropped = True
            continue
        kept.append(line)
        size += len(line) + 1
        if length != len(raw):
            cut[number] = length
    if number >= begin:
        if kept and begin + len(kept) - 1 == number:  # a Ctrl-Z right after the last text
            text = kept[-1].rstrip(_END_OF_FILE.encode())
            kept[-1] = text if text.strip() else kept[-1]
        # the last line read is the text after the last line end: a line only when the
        # file does not end with a line end (then maybe cut short, see parse_hand)
        open_line = number if line.strip(_END_OF_FILE.encode()) else None
        file_end = _file_end([piece.decode("latin-1") for piece in tail], number)
        yield _Chunk(begin, number, kept, cut, dropped, open_line, file_end)


def _chunk_items(chunks: Iterable[_Chunk], source: str) -> Iterator[HandRecord | Reject]:
    for chunk in chunks:
        begin, end, raw_lines = chunk.begin, chunk.end, chunk.lines
        if chunk.dropped:
            message = (
                f"lines {begin}-{end}: more than {MAX_CHUNK_BYTES} bytes or "
                f"{MAX_CHUNK_LINES} lines between two hand headers (a hand is a few "
                "kilobytes); not read"
            )
            first = raw_lines[0].decode("utf-8", "replace")[:EXCERPT_CHARS]
            yield Reject(source, begin, RejectCode.MALFORMED_HAND, message, first)
            continue
        for start, piece in _paragraphs(begin, raw_lines):
            text = _decode_hand(b"\n".join(piece), start)
            if isinstance(text, _Undecodable):
                yield _bad_encoding(text.message, piece[0], start, source)
                continue
            lines = [(start + k, line.rstrip()) for k, line in enumerate(text.split("\n"))]
            for block in _blocks(lines):
                yield _parse_block(block, source, chunk.cut, chunk.open_line, chunk.file_end)


def _paragraphs(begin: int, lines: list[bytes]) -> Iterator[tuple[int, list[bytes]]]:
    """Split a chunk's lines (the first of them ``begin``) at blank lines, each run of
    other lines with the number of its first: a blank line ends a hand, so each is decoded
    on its own bytes (a hand, or the text after it: another file joined to this one)."""
    piece: list[bytes] = []
    start = begin
    for number, line in enumerate(lines, start=begin):
        if line.strip():
            if not piece:
                start = number
            piece.append(line)
        elif piece:
            yield start, piece
            piece = []
    if piece:
        yield start, piece


@dataclass(frozen=True, slots=True)
class _Undecodable:
    """Bytes of a hand that cannot be decoded (see :func:`_decode_hand`): what, where."""

    message: str


_UTF8_CHAR_RE = re.compile("[\u0080-\udc7f\udd00-\U0010ffff]")
"""A character beyond ASCII that UTF-8 decoded (``surrogateescape`` turns each byte UTF-8
refuses into one of U+DC80-U+DCFF, which this leaves out)."""
_STRAY_RE = re.compile("[\udc80-\udcff]")
"""A byte UTF-8 refused, as ``surrogateescape`` decodes it."""
_END_OF_FILE = " \t\r\n\x00\x1a"
"""What may end a file after its last line end and is no line: blanks, a NUL, and the
Ctrl-Z that joining files with Windows' ``copy a+b`` leaves. After a last line with no line
end, it is no part of that line."""


def _decode_hand(data: bytes, begin: int) -> str | _Undecodable:
    """Decode the bytes of one hand's lines (the first of them ``begin``), on its own bytes.

    A hand that is valid UTF-8 is UTF-8. One that is not is cp1252 text (FPDB's fallback)
    when its bytes beyond ASCII are mostly not UTF-8 sequences (cp1252's accented letters
    and € stand alone between ASCII bytes and only by rare chance form a UTF-8 sequence),
    and :class:`_Undecodable` (a ``bad-encoding`` reject) when they are mostly UTF-8: UTF-8
    text with a stray Latin-1 byte (a chat line), which read as cp1252 would garble its
    UTF-8 names. So files joined from both encodings read whole, and a chance UTF-8
    sequence in a chat line of a cp1252 file changes nothing. A byte-order mark does not
    count.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as bad:
        first = bad.start
    escaped = data.decode("utf-8", "surrogateescape")
    utf8 = len(_UTF8_CHAR_RE.findall(escaped))  # characters UTF-8 decoded
    stray = len(_STRAY_RE.findall(escaped))  # bytes UTF-8 refused, one each
    line = begin + data.count(b"\n", 0, first)
    if utf8 >= stray:
        bytes_ = "byte" if stray == 1 else "bytes"
        return _Undecodable(
            f"line {line}: byte 0x{data[first]:02X} is not UTF-8, in a hand of UTF-8 "
            f"text ({utf8} UTF-8 characters, {stray} stray {bytes_});"
            " the hand is not read in another encoding, which would garble it"
        )
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as undefined:
        line = begin + data.count(b"\n", 0, undefined.start)
        return _Undecodable(
            f"line {line}: byte 0x{data[undefined.start]:02X} is neither UTF-8 nor cp1252"
        )


def _bad_encoding(message: str, first: bytes, line: int, source: str) -> Reject:
    match = _BYTES_HEADER_RE.match(first)
    hand_id = None
    if match is not None:
        found = re.search(rb"#([0-9A-Za-z_-]+):", first)
        hand_id = found.group(1).decode("ascii") if found else None
    return Reject(
        source,
        line,
        RejectCode.BAD_ENCODING,
        message,
        first.decode("utf-8", "replace")[:EXCERPT_CHARS],
        hand_id=hand_id,
    )
