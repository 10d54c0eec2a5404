"""Files written whole or not at all, with the permissions a new file gets; files hashed.

:func:`replaced` writes beside the target under a temporary name and renames it over the
target once everything is written: a reader sees the old file or the new one, never half
of one. Unlike :func:`tempfile.mkstemp` (mode 0600), the temporary file is created as any
new file is (0666 less the umask), so a lake or an output shared with other users stays
readable by them.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

__all__ = ["fsync_dir", "fsync_file", "replaced", "sha256_of", "temporary_name"]


def temporary_name(target: Path) -> Path:
    """Return a fresh temporary name beside ``target`` (hidden, ending ``.tmp``)."""
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")


@contextmanager
def replaced(path: str | Path, *, durable: bool = False) -> Iterator[IO[bytes]]:
    """Yield a binary stream whose bytes replace the file at ``path`` when the block ends.

    If the block raises, or the file cannot be written or renamed, the temporary file is
    removed and the target left as it was; an ``OSError`` names ``path``, not the temporary
    file. ``durable`` flushes the file to disk before the rename. A symbolic link stays a
    link: the file it points to is replaced (keeping its permissions, as an existing file
    does). What is not a regular file (``/dev/null``, a named pipe), and a file descriptor's
    name (``/dev/stdout`` redirected to a file), cannot be replaced: it is written to
    directly, as ``open`` would. A loop of links is ``open``'s error.
    """
    target = Path(path)
    try:
        existing = target.stat()  # through a link
    except FileNotFoundError:
        existing = None
    except OSError as error:  # a loop of links, a path through a file …: open's error
        raise _naming(error, target) from None
    if _is_descriptor(target):  # appended to: a file redirected there keeps what it holds
        with _naming_errors(target), os.fdopen(os.open(target, _APPEND), "wb") as stream:
            yield stream
        return
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with _naming_errors(target), open(target, "wb") as stream:
            yield stream
        return
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    tmp = temporary_name(target)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        if existing is not None:
            os.chmod(fd, stat.S_IMODE(existing.st_mode))
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise _naming(error, target) from None
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.replace(tmp, target)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        if error.filename is not None and error.filename != str(tmp):
            raise  # about another file: the block's own error (an input it read, say)
        raise _naming(error, target) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


_APPEND = os.O_WRONLY | os.O_APPEND


def _is_descriptor(target: Path) -> bool:
    """Tell whether a path names an open file descriptor (``/dev/stdout``, ``/dev/fd/3``,
    ``/proc/self/fd/1``): a file redirected there is written to, not replaced."""
    text = str(target)
    if text.startswith(("/dev/std", "/dev/fd/", "/proc/")):
        return True
    return target.is_symlink() and os.path.realpath(target).startswith("/proc/")


@contextmanager
def _naming_errors(target: Path) -> Iterator[None]:
    """Raise an ``OSError`` of opening or writing ``target`` as one about ``target``."""
    try:
        yield
    except OSError as error:
        if error.filename is not None and error.filename != str(target):
            raise  # about another file: the block's own error
        raise _naming(error, target) from None


def _naming(error: OSError, target: Path) -> OSError:
    """Return ``error`` as if it were about ``target`` (one with no errno is kept)."""
    if error.errno is None:
        return error
    return type(error)(error.errno, error.strerror, str(target))


def fsync_file(path: Path) -> None:
    """Flush a written file's bytes to disk (before a rename that publishes it)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (files renamed into it) to disk, where the platform can."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sha256_of(path: str | Path, limit: int | None = None) -> tuple[str, int]:
    """Return the sha256 and size of a file (of its first ``limit`` bytes), read in blocks."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as stream:
        while limit is None or size < limit:
            block = stream.read(1 << 20 if limit is None else min(1 << 20, limit - size))
            if not block:
                break
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size
