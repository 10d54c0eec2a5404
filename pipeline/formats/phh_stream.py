"""Read PHH files as streams: ``.phh`` (one hand) and ``.phhs`` (``[k]`` tables), a hand at
a time, each decoded by :func:`~pipeline.formats.phh.decode_hand` (what PHH means is there).

A file is read line by line; its hands are cut at their table headers, each hand's text
capped at :data:`MAX_HAND_BYTES`, so memory stays bounded by the largest hand and one
broken hand is one reject, the next still read.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from pipeline.formats.limits import read_lines, vet
from pipeline.formats.phh import _excerpt, decode_hand
from pipeline.formats.phh_track import _BOM, _HEADER_RE, _SNIFF_RE, MAX_HAND_BYTES
from pipeline.model import HandRecord
from pipeline.violations import Reject, RejectCode

__all__ = [
    "MAX_HAND_BYTES",
    "looks_like_phh",
    "parse_phh",
    "phh_frame_bytes",
    "phh_frames",
    "read_phh",
    "read_phh_frames",
    "read_phh_stream",
]


_Chunk = tuple[int, str | None, str, str]
"""A hand's text: ``(first line, table key or None, text, its header line)``."""
_CLOSED: tuple[str | None, int] = (None, 0)


def _chunks(lines: Iterator[tuple[int, str] | Reject]) -> Iterator[_Chunk | Reject]:
    """Group lines into hands: ``(first line, table key or None, text, header)``, or line
    rejects.

    A file whose first significant line is a table header holds one hand per top-level
    table (a header ``[k.sub]`` stays with hand ``k``); otherwise the file is one hand,
    unless a table ``[1]`` comes later: then it holds hands after keys that
    belong to none, given as the chunk ``(1, PREAMBLE, text)``. A hand's text stops
    growing just past :data:`MAX_HAND_BYTES` (it is rejected as too long), so memory
    stays bounded whatever the file holds.
    """
    key: str | None = None
    start = 1
    head = ""
    body: list[str] = []
    size = 0
    significant = False
    multi: bool | None = None
    for item in lines:
        if isinstance(item, Reject):
            yield item
            continue
        number, text = item
        stripped = text.strip()
        if multi is None and stripped and not stripped.startswith("#"):
            multi = _HEADER_RE.fullmatch(stripped) is not None
        header = _HEADER_RE.fullmatch(stripped) if multi is not None else None
        if header is not None and not multi:  # one hand, unless this table is hand 1
            if _table_name(header.group(1)) == "1":
                multi, key = True, PREAMBLE
            else:
                header = None
        if header is None or (key is not None and _sub_table(header.group(1), key)):
            significant = significant or bool(stripped and not stripped.startswith("#"))
            if size <= MAX_HAND_BYTES:
                body.append(text)
            size += len(text)
            continue
        if key is not None:
            yield start, key, "".join(body), head
        key, start, body, size, head = _table_name(header.group(1)), number, [], 0, text
    if key is not None or significant:
        yield start, key, "".join(body), head


def _rejoin(chunks: Iterator[_Chunk | Reject]) -> Iterator[_Chunk | Reject]:
    """Join a hand whose text ends inside a multi-line string or an array with the chunks
    after it, up to where the value closes: a header-like line there (``[2]`` in a note)
    is text of the hand, as TOML says. A value that does not close (by the end of the
    file, or within :data:`MAX_HAND_BYTES`) is a broken hand: the chunks stay hands of
    their own, so one broken hand is one reject and the next is still read."""
    queue: deque[_Chunk | Reject] = deque()
    held: list[_Chunk] = []
    state, size = _CLOSED, 0
    while True:
        item = queue.popleft() if queue else next(chunks, None)
        if item is None or isinstance(item, Reject) or size > MAX_HAND_BYTES:
            if held:  # never closed: each chunk is its own hand after all
                yield held[0]
                queue.extend([*held[1:], *([] if item is None else [item])])
                held, state, size = [], _CLOSED, 0
                continue
            if item is None:
                return
        if isinstance(item, Reject):
            yield item
            continue
        if not held:
            state = _scan(item[2], _CLOSED) if item[1] not in (None, PREAMBLE) else _CLOSED
            if state == _CLOSED:
                yield item
            else:
                held, size = [item], len(item[2])
            continue
        held.append(item)
        state = _scan(item[3] + item[2], state)
        size += len(item[3]) + len(item[2])
        if state == _CLOSED:
            start, key, text, head = held[0]
            yield start, key, text + "".join(h[3] + h[2] for h in held[1:]), head
            held, size = [], 0


_TOKEN_RE = re.compile(
    r'"""' + r"|'''" + r'|"(?:[^"\\\n]|\\.)*"?' + r"|'[^'\n]*'?|#[^\n]*|[\[\]{}]"
)
"""What matters to :func:`_scan` outside a multi-line string: its opening, a one-line
string, a comment, a bracket or a brace."""
_BASIC_END_RE = re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL)
"""The rest of a multi-line basic string, to its closing quotes (escapes skipped)."""


def _scan(text: str, state: tuple[str | None, int]) -> tuple[str | None, int]:
    """Return where TOML stands after ``text``: the multi-line string it is in (its
    delimiter) and how many brackets and braces of values are open. Enough to tell a
    table header from a line of a string or an array that looks like one; the TOML
    parser reports what is wrong.

    >>> _scan("a = [1,", (None, 0)), _scan("b = '''x [2]", (None, 0))
    ((None, 1), ("'''", 0))
    """
    quote, depth = state
    i, n = 0, len(text)
    while i < n:
        if quote is not None:  # inside a multi-line string: find its end
            if quote == "'''":
                end = text.find(quote, i)
                if end < 0:
                    return quote, depth
                i = end + 3
            else:
                match = _BASIC_END_RE.match(text, i)
                if match is None:
                    return quote, depth
                i = match.end()
            while i < n and text[i] == quote[0]:  # quotes just before the end are text
                i += 1
            quote = None
            continue
        match = _TOKEN_RE.search(text, i)
        if match is None:
            break
        token, i = match.group(), match.end()
        if token in ('"""', "'''"):
            quote = token
        elif token in ("[", "{"):
            depth += 1
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
    return quote, depth


PREAMBLE = "\x00preamble"
"""The key of the text above the first hand table of a file of several hands."""


def _table_name(header: str) -> str:
    return header.strip().strip("\"'")


def _sub_table(header: str, key: str) -> bool:
    return _table_name(header).startswith(key + ".")


Frame = tuple[_Chunk, bool] | Reject
"""A hand's text and whether it is the file's last, or a reject of its lines (see
:func:`phh_frames`)."""


def _framed(lines: Iterator[tuple[int, str] | Reject]) -> Iterator[Frame]:
    """Group lines into hands, each told whether it is the file's last (which may be cut)."""
    held: _Chunk | None = None
    for item in _rejoin(_chunks(lines)):
        if isinstance(item, Reject):
            yield item
            continue
        if held is not None:
            yield held, False
        held = item
    if held is not None:
        yield held, True


def _read_frame(frame: Frame, source: str) -> HandRecord | Reject:
    """Read one frame into a hand or a reject, not yet vetted."""
    if isinstance(frame, Reject):
        return frame
    (line, key, text, _), last = frame
    if key == PREAMBLE:
        return _preamble(source, line, text)
    if len(text) > MAX_HAND_BYTES:
        message = f"a hand longer than the limit of {MAX_HAND_BYTES} characters"
        return Reject(source, line, RejectCode.MALFORMED_HAND, message, _excerpt(text))
    complete = not last or text.endswith("\n")
    first = line if key is None else line + 1  # a table's text starts after its header
    return decode_hand(text, source, line, complete=complete, last=last, text_line=first)


def _hands(lines: Iterator[tuple[int, str] | Reject], source: str) -> Iterator[HandRecord | Reject]:
    for frame in _framed(lines):
        yield vet(_read_frame(frame, source))


def phh_frames(stream: IO[bytes], source: str) -> Iterator[Frame]:
    """Cut a ``.phh``/``.phhs`` binary stream into its hands' texts, unread: what
    :func:`read_phh_frames` reads into hands and rejects, in order, wherever it runs (a
    ``croupier run`` worker). The cutting is the quick part of reading."""
    return _framed(_stream_lines(stream, source))


def phh_frame_bytes(frame: Frame) -> int:
    """Return the characters of a frame's text (a reject's: none)."""
    return 0 if isinstance(frame, Reject) else len(frame[0][2]) + len(frame[0][3])


def read_phh_frames(frames: Iterable[Frame], source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject, not yet vetted, for every frame of a stream cut by
    :func:`phh_frames`."""
    for frame in frames:
        yield _read_frame(frame, source)


def _preamble(source: str, line: int, text: str) -> Reject:
    last = line + text.count("\n", 0, len(text.rstrip("\n")))
    where = f"line {line} is" if last == line else f"lines {line}-{last} are"
    message = (
        f"{where} outside any hand: a file of several hands holds each under its own "
        "table ([1], [2] …), and keys above the first belong to none"
    )
    return Reject(source, line, RejectCode.SCHEMA_VIOLATION, message, _excerpt(text))


def _stream_lines(stream: IO[bytes], source: str) -> Iterator[tuple[int, str] | Reject]:
    for item in read_lines(stream, source, MAX_HAND_BYTES):
        yield (
            item
            if isinstance(item, Reject)
            else (item[0], item[1].decode("utf-8", "surrogateescape"))
        )


def read_phh_stream(stream: IO[bytes], source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a ``.phh``/``.phhs`` binary stream.

    Memory stays bounded by the largest hand (:data:`MAX_HAND_BYTES`). Bytes that are not
    UTF-8 make their hand a ``bad-encoding`` reject; a UTF-8 byte-order mark is ignored,
    a UTF-16 one makes the whole stream one ``bad-encoding`` reject.
    """
    yield from _hands(_stream_lines(stream, source), source)


def parse_phh(text: str, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of PHH text (one hand, or ``[k]`` tables).

    Hand ids default to ``source``'s file stem (``stem-k`` for table ``[k]``).
    """
    lines = enumerate(text.removeprefix(_BOM).splitlines(keepends=True), start=1)
    yield from _hands(iter(lines), source)


def read_phh(path: str | Path, *, source: str | None = None) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a ``.phh`` or ``.phhs`` file.

    ``source`` names the file in records and rejects (default: the path as given).
    Opening the file may raise ``OSError``: that is the environment, not bad data.
    """
    name = str(path) if source is None else source
    with open(path, "rb") as stream:
        yield from read_phh_stream(stream, name)


def looks_like_phh(head: bytes) -> bool:
    """Tell whether the first bytes of a file look like PHH (TOML with PHH's keys).

    >>> looks_like_phh(b"variant = 'PO'\\nantes = [0, 0]\\n")
    True
    >>> looks_like_phh(b'{"ohh": {}}'), looks_like_phh(b"[1]\\nactions = []")
    (False, True)
    """
    body = head.removeprefix(_BOM.encode())
    if body.lstrip()[:1] in (b"{", b""):
        return False
    return _SNIFF_RE.search(body) is not None
