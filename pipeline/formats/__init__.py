"""Readers and writers of hand-history formats: text in, :class:`~pipeline.model.HandRecord` out.

Each format module offers ``read_…(path) -> Iterator[HandRecord | Reject]`` and a reader of
a binary stream; the readers never raise on bad data. :func:`read_hands` picks the reader
for a path, :func:`read_stream` for a stream read once (stdin), whose format
:func:`open_stream` tells from its first bytes as :func:`detect_format` does for a file.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from pipeline.formats.jsonl import read_jsonl, read_jsonl_stream
from pipeline.formats.limits import Readable
from pipeline.formats.ohh import looks_like_ohh
from pipeline.formats.ohh_stream import (
    ohh_frame_bytes,
    ohh_frames,
    parse_ohh_stream,
    read_ohh,
    read_ohh_frames,
)
from pipeline.formats.phh_stream import (
    looks_like_phh,
    phh_frame_bytes,
    phh_frames,
    read_phh,
    read_phh_frames,
    read_phh_stream,
)
from pipeline.formats.pokerstars import (
    looks_like_pokerstars,
    pokerstars_frame_bytes,
    pokerstars_frames,
    read_pokerstars,
    read_pokerstars_frames,
    read_pokerstars_stream,
)
from pipeline.model import HandRecord
from pipeline.violations import Reject

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

__all__ = [
    "FILE_MARKED",
    "HAND_LOG_SUFFIXES",
    "INPUT_FORMATS",
    "detect_format",
    "frame_bytes",
    "framer",
    "looks_like_hand_log",
    "open_stream",
    "read_frames",
    "read_hands",
    "read_stream",
    "stream_reader",
]

INPUT_FORMATS = ("jsonl", "pokerstars", "phh", "ohh")
"""The input formats Croupier reads (``--input-format``)."""

HAND_LOG_SUFFIXES = (".jsonl", ".ndjson", ".txt", ".phh", ".phhs", ".ohh")
"""File names that a directory search picks up as hand logs."""


SNIFF_BYTES = 8192
"""How much of a file format detection reads."""


def detect_format(path: str | Path) -> str:
    """Tell a file's format from its content (its name only breaks a tie).

    Opening the file may raise ``OSError`` (the environment, not bad data). So does a path
    that is not a regular file (a named pipe, ``/dev/fd/…``): what detection reads would be
    gone for the reader, so such input needs its format named, or to come on stdin (``-``).
    """
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(
            errno.EINVAL,
            "not a regular file, so its format cannot be detected (name it with "
            "--input-format, or give it on stdin as -)",
            str(path),
        )
    return sniff(_sniffed(path), str(path))


def _sniffed(path: str | Path) -> bytes:
    """Return the first bytes of a file, what format detection looks at."""
    with open(path, "rb") as stream:
        return stream.read(SNIFF_BYTES)


_BY_SUFFIX = {".ohh": "ohh", ".phh": "phh", ".phhs": "phh"}
"""Formats a file's name tells when its content does not (a broken first hand, say)."""


def sniff(head: bytes, name: str = "") -> str:
    """Tell a format from the first bytes of a file; when they tell none, from the name's
    suffix (``.ohh``, ``.phh``, ``.phhs``): a file whose first hand is broken is still read
    as what it is, one reject for that hand. Default: ``jsonl``.

    >>> sniff(b'{"ohh" {"broken": 1}}', "hands.ohh"), sniff(b'{"ohh" {}}', "hands.jsonl")
    ('ohh', 'jsonl')
    """
    if looks_like_ohh(head):
        return "ohh"
    if looks_like_pokerstars(head):
        return "pokerstars"
    if looks_like_phh(head):
        return "phh"
    return _BY_SUFFIX.get(os.path.splitext(name)[1].lower(), "jsonl")


def looks_like_hand_log(path: str | Path) -> bool:
    """Tell whether a file's first bytes look like a hand log of a format Croupier reads.

    For files a directory search passes over for their names (an OHH file saved as
    ``.json``, say). A JSON Lines log looks like one when it starts with an object that has a
    ``hand_id``. A file that cannot be read does not look like one.
    """
    try:
        head = _sniffed(path)
    except OSError:
        return False
    if sniff(head, str(path)) != "jsonl":
        return True
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") and b'"hand_id"' in head


def read_hands(
    path: str | Path, *, input_format: str | None = None, source: str | None = None
) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand in a file of the given (or detected) format."""
    fmt = input_format or detect_format(path)
    _require_known(fmt)
    return _FILE_READERS[fmt](path, source=source)


_FILE_READERS = {
    "jsonl": read_jsonl,
    "pokerstars": read_pokerstars,
    "phh": read_phh,
    "ohh": read_ohh,
}
"""The reader of files of each format (one of :data:`INPUT_FORMATS`)."""


def _require_known(fmt: str) -> None:
    """Raise ``ValueError`` for a format Croupier does not read (a bug of the caller)."""
    if fmt not in INPUT_FORMATS:
        raise ValueError(f"unknown input format {fmt!r}; known: {', '.join(INPUT_FORMATS)}")


# ---------------------------------------------------------------------- streams

StreamReader = Callable[[IO[bytes], str], Iterator[HandRecord | Reject]]
"""Reads a binary stream once, from its first byte: ``(stream, source) -> hands and rejects``."""

_STREAM_READERS: dict[str, StreamReader] = {
    "jsonl": read_jsonl_stream,
    "pokerstars": read_pokerstars_stream,
    "phh": read_phh_stream,
    "ohh": parse_ohh_stream,
}

_STREAM_BUFFER_BYTES = 1 << 16


def stream_reader(fmt: str) -> StreamReader:
    """Return the reader of binary streams of a format (one of :data:`INPUT_FORMATS`)."""
    _require_known(fmt)
    return _STREAM_READERS[fmt]


def open_stream(stream: Readable, input_format: str | None = None) -> tuple[str, IO[bytes]]:
    """Tell a stream's format (``input_format``, else its first bytes, as for a file), and
    return it with a stream that reads it again from its first byte.

    Without ``input_format``, up to :data:`SNIFF_BYTES` are read ahead and given back
    first; the rest is read from ``stream`` as it is asked for, so a stream of any size is
    read incrementally, never held whole.
    """
    if input_format is not None:
        _require_known(input_format)
    head = b"" if input_format is not None else _read_exactly(stream, SNIFF_BYTES)
    fmt = input_format or sniff(head)
    return fmt, io.BufferedReader(_Chained(head, stream), _STREAM_BUFFER_BYTES)


def _read_exactly(stream: Readable, size: int) -> bytes:
    """Read ``size`` bytes, fewer only at the end of the stream (a pipe or a raw stream
    may return less per read: detection must see what it would see of a file)."""
    blocks: list[bytes] = []
    wanted = size
    while wanted > 0 and (block := stream.read(wanted)):
        blocks.append(block)
        wanted -= len(block)
    return b"".join(blocks)


def read_stream(
    stream: Readable, source: str, *, input_format: str | None = None
) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand of a binary stream read once (stdin, a pipe),
    of the given (or detected) format; ``source`` names it in records and rejects.

    Detection reads the stream's first bytes when this is called (see :func:`open_stream`).
    """
    fmt, opened = open_stream(stream, input_format)
    return stream_reader(fmt)(opened, source)


class _Chained(io.RawIOBase):
    """A raw binary stream: bytes already read (a sniffed head), then the rest of a stream."""

    def __init__(self, head: bytes, rest: Readable) -> None:
        super().__init__()
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        """Tell that the stream can be read (always)."""
        return True

    def readinto(self, buffer: WriteableBuffer, /) -> int:
        """Fill ``buffer`` from the head while it lasts, then from the rest; return the
        count of bytes (0 at the end of the stream)."""
        view = memoryview(buffer).cast("B")
        if self._head:
            data, self._head = self._head[: len(view)], self._head[len(view) :]
        else:
            data = self._rest.read(len(view))
        view[: len(data)] = data
        return len(data)


# ---------------------------------------------------------------------- frames

Framer = Callable[[IO[bytes], str], Iterator[object]]
"""Cuts a binary stream into frames: ``(stream, source) -> pieces of text, each one hand's
(or a reject of the lines it holds)``, unread."""


class _Frames(NamedTuple):
    """The two halves of reading a format's streams apart: cutting them into frames (quick,
    where the file is read) and reading the frames (the slow part, where the work is:
    ``croupier run`` reads its tasks' frames in its workers); and a frame's size."""

    cut: Framer
    read: Callable[[Iterable[Any], str], Iterator[HandRecord | Reject]]
    size: Callable[[Any], int]


_FRAMERS = {
    "pokerstars": _Frames(pokerstars_frames, read_pokerstars_frames, pokerstars_frame_bytes),
    "phh": _Frames(phh_frames, read_phh_frames, phh_frame_bytes),
    "ohh": _Frames(ohh_frames, read_ohh_frames, ohh_frame_bytes),
}
"""The formats whose streams are cut into frames and read apart (all but JSON Lines)."""

FILE_MARKED = frozenset({"pokerstars"})
"""The formats whose hands are all marked ``converted`` when any hand of their file is (a
file comes from one tool): frames read apart are marked on their own signs, and the
caller marks the rest once the whole file is read."""


def framer(fmt: str) -> Framer | None:
    """Return what cuts streams of a format into frames, or ``None`` for JSON Lines (cut
    into lines, each a hand)."""
    _require_known(fmt)
    frames = _FRAMERS.get(fmt)
    return None if frames is None else frames.cut


def frame_bytes(fmt: str, frame: object) -> int:
    """Return about how much text a frame that :func:`framer`'s function cut holds (a
    reject's, nothing): what a task carries, and holds while it works."""
    return _FRAMERS[fmt].size(frame)


def read_frames(fmt: str, frames: Iterable[object], source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every frame that :func:`framer`'s function cut from a
    stream of ``fmt``, in order; ``source`` names the stream. The items are not yet vetted
    (:func:`~pipeline.formats.limits.vet`): a hand beyond the readers' limits is still a
    hand here, and its converter's signs still mark its file (:data:`FILE_MARKED`)."""
    return _FRAMERS[fmt].read(frames, source)
