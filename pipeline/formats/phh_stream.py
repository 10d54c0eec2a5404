"""Read PHH files as streams: ``.phh`` (one hand) and ``.phhs`` (``[k]`` tables), a hand at
a time, each decoded by :func:`~pipeline.formats.phh.decode_hand` (what PHH means is there).

A file is read line by line; its hands are cut at their table headers, each hand's text
capped at :data:`MAX_HAND_BYTES`, so memory stays bounded by the largest hand and one
broken hand is one reject, the next still read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO

from pipeline.formats.limits import read_lines, vet
from pipeline.formats.phh import _excerpt, decode_hand
from pipeline.formats.phh_track import _BOM, _HEADER_RE, _SNIFF_RE, MAX_HAND_BYTES
from pipeline.model import HandRecord
from pipeline.violations import Reject, RejectCode

__all__ = ["MAX_HAND_BYTES", "looks_like_phh", "parse_phh", "read_phh", "read_phh_stream"]


def _chunks(
    lines: Iterator[tuple[int, str] | Reject],
) -> Iterator[tuple[int, str | None, str] | Reject]:
    """Group lines into hands: ``(first line, table key or None, text)``, or line rejects.

    A file whose first significant line is a table header holds one hand per top-level
    table (a header ``[k.sub]`` stays with hand ``k``); otherwise the file is one hand,
    unless a table ``[1]`` comes later: then it holds hands after keys that
    belong to none, given as the chunk ``(1, PREAMBLE, text)``. A hand's text stops
    growing just past :data:`MAX_HAND_BYTES` (it is rejected as too long), so memory
    stays bounded whatever the file holds.
    """
    key: str | None = None
    start = 1
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
            yield start, key, "".join(body)
        key, start, body, size = _table_name(header.group(1)), number, [], 0
    if key is not None or significant:
        yield start, key, "".join(body)


PREAMBLE = "\x00preamble"
"""The key of the text above the first hand table of a file of several hands."""


def _table_name(header: str) -> str:
    return header.strip().strip("\"'")


def _sub_table(header: str, key: str) -> bool:
    return _table_name(header).startswith(key + ".")


def _hands(lines: Iterator[tuple[int, str] | Reject], source: str) -> Iterator[HandRecord | Reject]:
    held: tuple[int, str | None, str] | None = None

    def decode(chunk: tuple[int, str | None, str], last: bool) -> HandRecord | Reject:
        line, key, text = chunk
        if key == PREAMBLE:
            return vet(_preamble(source, line, text))
        if len(text) > MAX_HAND_BYTES:
            message = f"a hand longer than the limit of {MAX_HAND_BYTES} characters"
            return Reject(source, line, RejectCode.MALFORMED_HAND, message, _excerpt(text))
        complete = not last or text.endswith("\n")
        first = line if key is None else line + 1  # a table's text starts after its header
        hand = decode_hand(text, source, line, complete=complete, last=last, text_line=first)
        return vet(hand)

    for item in _chunks(lines):
        if isinstance(item, Reject):
            yield vet(item)
            continue
        if held is not None:
            yield decode(held, last=False)
        held = item
    if held is not None:
        yield decode(held, last=True)


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
