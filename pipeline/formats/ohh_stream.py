"""Read OHH files as streams: a window of text over the file, a hand object at a time.

:func:`read_ohh` yields exactly what :func:`~pipeline.formats.ohh.parse_ohh` yields for the
whole text (the same hands, rejects, lines and excerpts: a test compares the two on damaged
files), but holds only the hand being read and what follows it in the last read, so memory
does not grow with the file. A hand object longer than :data:`MAX_HAND_BYTES` characters
is one ``malformed-hand`` reject, skipped up to the next blank line before a ``{`` or ``[``.
After a hand that is not JSON, reading resumes where :func:`parse_ohh` resumes (see
:func:`~pipeline.formats.ohh._resume_after`).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from pipeline.formats.limits import is_utf16, read_head, utf16_reject, vet
from pipeline.formats.ohh import _BLANK_RE, _DECODER, _decode, _excerpt, _resume_after
from pipeline.formats.phh_track import MAX_HAND_BYTES
from pipeline.model import HandRecord
from pipeline.violations import Reject, RejectCode

__all__ = [
    "MAX_HAND_BYTES",
    "ohh_frame_bytes",
    "ohh_frames",
    "parse_ohh_stream",
    "read_ohh",
    "read_ohh_frames",
]

_READ_BYTES = 1 << 16
_NOT_BLANK = re.compile(r"\S")
_NOT_BLANK_OR_COMMA = re.compile(r"[^\s,]")


def read_ohh(path: str | Path, *, source: str | None = None) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand object of an OHH file.

    ``source`` names the file in records and rejects (default: the path as given).
    Bytes that are not UTF-8 make their hand a ``bad-encoding`` reject. Opening the file
    may raise ``OSError``: that is the environment, not bad data.
    """
    name = str(path) if source is None else source
    with open(path, "rb") as stream:
        yield from parse_ohh_stream(stream, name)


class _Window:
    """The text of a byte stream from some point on; earlier text is let go of."""

    def __init__(self, stream: IO[bytes], head: bytes) -> None:
        self.stream = stream
        self.decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self.text = self.decoder.decode(head).removeprefix("\ufeff")
        self.eof = not head
        self.line = 1  # the line of text[0]
        self.chars = 0  # characters let go of before text[0]
        self.column = 0  # of them, those on text[0]'s line
        self.tail = ""  # the last characters let go of (for the excerpt of a cut array)

    def more(self, size: int = 0) -> bool:
        """Read on (``size`` bytes, at least a block); return ``False`` at the end of the
        stream."""
        if self.eof:
            return False
        block = self.stream.read(max(size, _READ_BYTES))
        self.eof = not block
        self.text += self.decoder.decode(block, final=self.eof)
        return True

    def drop(self, position: int) -> None:
        """Let go of the text before ``position`` (counting its lines)."""
        gone = self.text[:position]
        ends = gone.count("\n")
        self.line += ends
        self.chars += len(gone)
        self.column = len(gone) - gone.rfind("\n") - 1 if ends else self.column + len(gone)
        self.tail = (self.tail + gone[-200:])[-200:]
        self.text = self.text[position:]

    def skip(self, position: int, *, comma: bool = False) -> int:
        """Return the first position at or after ``position`` that is not blank (or a
        comma); blank text passed over is let go of, so positions may move back."""
        pattern = _NOT_BLANK_OR_COMMA if comma else _NOT_BLANK
        while True:
            found = pattern.search(self.text, position)
            if found is not None:
                return found.start()
            self.drop(len(self.text))
            position = 0
            if not self.more():
                return position


def parse_ohh_stream(stream: IO[bytes], source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand object of an OHH binary stream."""
    for item in read_ohh_frames(ohh_frames(stream, source), source):
        yield vet(item)


Frame = tuple[str, int, tuple[int, int, int]] | Reject
"""The JSON text of one hand object, its line, and where the text stands in its file (see
:func:`~pipeline.formats.ohh._decode`), or a reject of text that is no hand."""


def ohh_frames(stream: IO[bytes], source: str) -> Iterator[Frame]:
    """Cut an OHH binary stream into its hand objects' texts, unread: what
    :func:`read_ohh_frames` reads into hands and rejects, in order, wherever it runs (a
    ``croupier run`` worker). A hand's end is found by decoding its JSON (the quick part
    of reading it); text that is not JSON, or too long, is a reject here."""
    head = read_head(stream, _READ_BYTES)
    if is_utf16(head):
        yield utf16_reject(source, head)
        return
    window = _Window(stream, head)
    position = window.skip(0)
    in_array = window.text[position : position + 1] == "["
    if in_array:
        position = window.skip(position + 1)
    while position < len(window.text):
        if in_array and window.text[position] == "]":
            position = window.skip(position + 1)
            in_array = False
            continue
        window.drop(position)
        end = _settle(window)
        if end is None:
            yield _too_long(window, source)
            position = window.skip(0, comma=in_array)
            continue
        base = (window.chars, window.line - 1, window.column)
        if end == _BROKEN:  # not JSON: the reject says where, and where reading resumes
            item, position = _decode(window.text, 0, source, window.line, base)
            assert isinstance(item, Reject)  # what does not decode is no hand
            yield item
        else:
            yield window.text[:end], window.line, base
            position = end
        position = window.skip(position, comma=in_array)
    if in_array:  # '[' never closed: the file was cut, perhaps in the middle of a hand
        window.drop(len(window.text))
        message = "the JSON array of hands is not closed with ']': the file looks cut short"
        tail = window.tail
        yield Reject(source, window.line, RejectCode.TRUNCATED_HAND, message, _excerpt(tail))


def ohh_frame_bytes(frame: Frame) -> int:
    """Return the characters of a frame's text (a reject's: none)."""
    return 0 if isinstance(frame, Reject) else len(frame[0])


def read_ohh_frames(frames: Iterable[Frame], source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject, not yet vetted, for every frame of a stream cut by
    :func:`ohh_frames`."""
    for frame in frames:
        if isinstance(frame, Reject):
            yield frame
        else:
            text, line, base = frame
            yield _decode(text, 0, source, line, base)[0]


_BROKEN = -1
"""What :func:`_settle` returns for a value at the window's start that is not JSON."""


def _settle(window: _Window) -> int | None:
    """Read until the value at the window's start, or where reading resumes after it, is
    in the window (as in the whole text); return where the value ends, :data:`_BROKEN`
    when it is not JSON, ``None`` when that outgrows the limit."""
    while True:
        text = window.text
        try:
            value, end = _DECODER.raw_decode(text, 0)
            if window.eof or (end < len(text) and (_closed(value) or text[end] in _AFTER)):
                return end
        except json.JSONDecodeError as error:
            cut = error.pos >= len(text.rstrip())
            if not cut and _resumes(text, error.pos, window):
                return _BROKEN
        except (RecursionError, ValueError, ArithmeticError):
            if _resumes(text, 1, window):
                return _BROKEN
        if len(text) > MAX_HAND_BYTES:
            return None
        # Read as much again as is held (up to the limit), not a block: a long hand is
        # then decoded a few times over, not once per block (quadratic in its length).
        if not window.more(min(len(text), MAX_HAND_BYTES + 1 - len(text))):
            return _BROKEN  # at the end: what decoded whole returned above


def _closed(value: object) -> bool:
    """Tell whether a value ends with its own closing character (a number may go on)."""
    return isinstance(value, dict | list | str)


_AFTER = frozenset(" \t\r\n,]}[{")
"""Characters no number or literal goes on with."""


def _resumes(text: str, stop: int, window: _Window) -> bool:
    """Tell whether the place to resume after the broken hand at the window's start, whose
    JSON error is at ``stop``, is known (see :func:`~pipeline.formats.ohh._resume_after`):
    a hand's start found before the error, a blank line past it, or the end."""
    if window.eof:
        return True
    found = _resume_after(text, 0, stop)
    if found is not None and found.start() < stop:
        return True  # a ``{"ohh":`` seen whole: the same in the whole text
    found = _BLANK_RE.search(text, max(stop, 1))
    return found is not None and found.end() < len(text)


def _too_long(window: _Window, source: str) -> Reject:
    """Reject the over-long hand at the window's start and let go of it, up to where
    reading resumes (a blank line, then ``{`` or ``[``: where ``_BLANK_RE`` matches), or
    the end. The text is scanned as it comes, so nothing but the current read is held."""
    message = f"a hand longer than the limit of {MAX_HAND_BYTES} characters"
    reject = Reject(source, window.line, RejectCode.MALFORMED_HAND, message, _excerpt(window.text))
    state, position = _OUTSIDE, 1
    while True:
        text = window.text
        while position < len(text):
            if state == _OUTSIDE:  # only a line end can begin the blank line: go to the next
                position = text.find("\n", position)
                if position < 0:
                    position = len(text)
                    break
            state = _NEXT[state](text[position])
            if state == _FOUND:
                window.drop(position)
                return reject
            position += 1
        window.drop(position)
        position = 0
        if not window.more():
            return reject


# The states of matching _BLANK_RE ("\n[ \t\r]*\n\s*(?=[\[{])") one character at a time.
_OUTSIDE, _AFTER_NEWLINE, _BLANK, _FOUND = range(4)


def _outside(char: str) -> int:
    return _AFTER_NEWLINE if char == "\n" else _OUTSIDE


def _after_newline(char: str) -> int:
    if char == "\n":
        return _BLANK
    return _AFTER_NEWLINE if char in " \t\r" else _OUTSIDE


def _blank(char: str) -> int:
    if char in "[{":
        return _FOUND
    return _BLANK if char.isspace() else _OUTSIDE


_NEXT = (_outside, _after_newline, _blank)
