"""Keep the rank tables in the user's cache directory; rebuild them when missing or bad.

The file ``rank-tables.bin`` holds a 48-byte header (magic, format version, hand count and
the SHA-256 of the payload) and then the payload: the high table as little-endian int16 and
the low table as int8, 7.8 MB in all. A file with another magic, version, size or checksum is
stale or corrupt: the tables are rebuilt and the file replaced atomically (a temporary file in
the same directory, then ``os.replace``). When the directory cannot be written the tables are
built in memory and the run carries on.

The directory is ``$CROUPIER_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/croupier``, else
``~/.cache/croupier``.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.evaluate.tables import HAND_COUNT, RankTables, build_tables

__all__ = [
    "TABLE_FILE",
    "TABLE_VERSION",
    "LoadedTables",
    "TableSource",
    "cache_dir",
    "default_tables",
    "load_tables",
]

TABLE_FILE = "rank-tables.bin"
TABLE_VERSION = 1
"""Bump when the meaning of a rank or the file layout changes: older files then count as stale."""

_MAGIC = b"CRPRANK\x00"
_HEADER = struct.Struct("<8sII32s")
_PAYLOAD_SIZE = HAND_COUNT * 3


class TableSource(enum.StrEnum):
    """Where a :class:`LoadedTables` came from."""

    LOADED = "loaded"
    """Read from a valid cache file."""
    BUILT = "built"
    """Built, then saved to the cache file (it was missing, stale or corrupt)."""
    BUILT_UNSAVED = "built-unsaved"
    """Built in memory; the cache directory could not be written."""


@dataclass(frozen=True, slots=True)
class LoadedTables:
    """Rank tables with the cache file they belong to and how they were obtained."""

    tables: RankTables
    path: Path
    source: TableSource


def cache_dir() -> Path:
    """Return the cache directory from the environment (it may not exist yet)."""
    explicit = os.environ.get("CROUPIER_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "croupier"
    return Path.home() / ".cache" / "croupier"


def load_tables(directory: Path | None = None) -> LoadedTables:
    """Load the tables from ``directory`` (default :func:`cache_dir`), rebuilding if needed."""
    path = (cache_dir() if directory is None else directory) / TABLE_FILE
    tables = _read(path)
    if tables is not None:
        return LoadedTables(tables=tables, path=path, source=TableSource.LOADED)
    tables = build_tables()
    try:
        _write(path, tables)
    except OSError:
        return LoadedTables(tables=tables, path=path, source=TableSource.BUILT_UNSAVED)
    return LoadedTables(tables=tables, path=path, source=TableSource.BUILT)


@functools.cache
def default_tables() -> RankTables:
    """Return the process-wide tables, loaded (or built) from :func:`cache_dir` on first use."""
    return load_tables().tables


def _payload(tables: RankTables) -> bytes:
    """Return the payload bytes of the tables: high as little-endian int16, then low."""
    return tables.high.astype("<i2").tobytes() + tables.low.astype(np.int8).tobytes()


def _read(path: Path) -> RankTables | None:
    """Return the tables stored at ``path``, or None when it is missing, stale or corrupt."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) != _HEADER.size + _PAYLOAD_SIZE:
        return None
    magic, version, count, digest = _HEADER.unpack_from(data)
    if magic != _MAGIC or version != TABLE_VERSION or count != HAND_COUNT:
        return None
    if hashlib.sha256(memoryview(data)[_HEADER.size :]).digest() != digest:
        return None
    high = np.frombuffer(data, dtype="<i2", count=HAND_COUNT, offset=_HEADER.size)
    low = np.frombuffer(data, dtype=np.int8, count=HAND_COUNT, offset=_HEADER.size + 2 * HAND_COUNT)
    return RankTables(high=high.astype(np.int16, copy=False), low=low)


def _write(path: Path, tables: RankTables) -> None:
    """Write the tables to ``path`` atomically; raise OSError when the directory is unusable."""
    payload = _payload(tables)
    header = _HEADER.pack(_MAGIC, TABLE_VERSION, HAND_COUNT, hashlib.sha256(payload).digest())
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(header)
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
