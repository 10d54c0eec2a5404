"""Readers and writers of hand-history formats: text in, :class:`~pipeline.model.HandRecord` out.

Each format module offers ``read_…(path) -> Iterator[HandRecord | Reject]``; the readers
never raise on bad data. :func:`read_hands` picks the reader for a path.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from pipeline.formats.jsonl import read_jsonl
from pipeline.formats.ohh import looks_like_ohh
from pipeline.formats.ohh_stream import read_ohh
from pipeline.formats.phh import looks_like_phh, read_phh
from pipeline.formats.pokerstars import looks_like_pokerstars, read_pokerstars
from pipeline.model import HandRecord
from pipeline.violations import Reject

__all__ = [
    "HAND_LOG_SUFFIXES",
    "INPUT_FORMATS",
    "detect_format",
    "looks_like_hand_log",
    "read_hands",
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


def sniff(head: bytes, name: str = "") -> str:
    """Tell a format from the first bytes of a file (default: ``jsonl``)."""
    _ = name
    if looks_like_ohh(head):
        return "ohh"
    if looks_like_pokerstars(head):
        return "pokerstars"
    if looks_like_phh(head):
        return "phh"
    return "jsonl"


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
    if fmt not in INPUT_FORMATS:
        raise ValueError(f"unknown input format {fmt!r}; known: {', '.join(INPUT_FORMATS)}")
    if fmt == "pokerstars":
        return read_pokerstars(path, source=source)
    if fmt == "phh":
        return read_phh(path, source=source)
    if fmt == "ohh":
        return read_ohh(path, source=source)
    return read_jsonl(path, source=source)
