"""The lake on disk: its lock, the staging area, moving files into place, cleaning up.

A run writes every file under ``_staging/<run_id>/`` (ignored by hive-style readers),
moves the files into their table folders, and only then commits its manifest entry. The
lock file ``_lock`` keeps two runs from committing into one lake at once; a lock left by
a process that no longer exists is taken over.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import secrets
import shutil
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.files import fsync_dir, fsync_file, temporary_name
from pipeline.lake.manifest import MANIFEST, Manifest
from pipeline.lake.schema import TABLES
from pipeline.lake.staged import has_fsspec, is_url, remove

__all__ = [
    "LOCK",
    "REMOTE",
    "STAGING",
    "LakeDamaged",
    "LakeError",
    "LakeLocked",
    "NoLake",
    "check_committed",
    "clean_orphans",
    "lake_lock",
    "note_remote",
    "publish",
    "staging_dir",
]

LOCK = "_lock"
STAGING = "_staging"
REMOTE = ".remote"
"""In a run's staging folder: the URL its tasks stage at (``--staging``), written before
any task runs, so that the next run removes what a run killed before its end left there."""


class LakeLocked(RuntimeError):
    """Another run is writing to this lake."""


class LakeError(OSError):
    """The lake cannot be read: the environment's problem, not the SQL's."""


class NoLake(LakeError, FileNotFoundError):
    """The folder holds no lake (no committed run)."""


class LakeDamaged(LakeError):
    """Files that committed runs list are not in the lake (deleted or moved by hand), or
    cannot be read as the Parquet files the manifest says they are."""


def check_committed(lake: Path, manifest: Manifest) -> None:
    """Raise :class:`LakeDamaged` unless every file the manifest lists is there, is Parquet
    and holds the rows it lists (each file's footer is read, not its data).

    A run checks this before it writes anything: a lake whose record and files disagree is
    refused, as ``croupier query`` refuses it, rather than committed to (its hands could
    not be told apart from new ones, and the run's counts would prove nothing).
    """
    live = manifest.live_files()
    gone = [path for path in live if not (lake / path).is_file()]
    if gone:
        raise LakeDamaged(
            f"the lake at {lake} is damaged: {len(gone)} file(s) its manifest lists "
            f"are missing, e.g. {gone[0]}; restore them from a backup, or run the inputs "
            "again into a new lake"
        )
    for path, entry in live.items():
        try:
            rows = pq.read_metadata(lake / path).num_rows
        except (OSError, pa.ArrowException) as error:
            why = " ".join(str(error).replace(str(lake / path), "").split()) or type(error).__name__
            raise LakeDamaged(
                f"the lake at {lake} is damaged: {path}, a file its manifest lists, cannot "
                f"be read ({why}); restore it from a backup, or run the inputs again into a "
                "new lake"
            ) from None
        if rows != entry.rows:
            raise LakeDamaged(
                f"the lake at {lake} is damaged: {path}, a file its manifest lists with "
                f"{entry.rows} rows, holds {rows}; restore it from a backup, or run the "
                "inputs again into a new lake"
            )


def _holds(pid: int, started: object) -> bool:
    """Tell whether the process ``pid`` of this host may be the run that took a lock: it is
    alive and, when the lock says when its run started (``started``, in clock ticks since
    boot), it started then (a process that did not is another one that was given the dead
    run's pid, as a restarted container gives the same pids)."""
    if not _alive(pid):
        return False
    now = _start_ticks(pid)
    return now is None or not isinstance(started, int) or now == started


def _start_ticks(pid: int) -> int | None:
    """Return when a process started, in clock ticks since boot (``None``: unknown, as on
    a system without ``/proc``): with its pid, it names one process for as long as the
    machine is up, whatever the wall clock does."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return int(stat.rsplit(")", 1)[1].split()[19])  # field 22, after the name's ")"
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - exists, owned by someone else
        return True
    return True


@contextmanager
def lake_lock(lake: Path) -> Iterator[None]:
    """Hold the lake's lock for a run; raise :class:`LakeLocked` if a live run holds it.

    The lock file appears whole or not at all (written under a temporary name, then linked
    to ``_lock``), so a run killed while taking it leaves no empty lock behind. A lock that
    names a process of this host that no longer exists (or whose pid another process has
    since been given: the lock says when its run started) is taken over, by one run only: two
    runs that find it at once take turns (an advisory lock on the stale file), and the
    second finds the first one's lock. Raises ``NotADirectoryError`` when the lake's path
    is a file (``--out hands.jsonl``)."""
    if lake.exists() and not lake.is_dir():
        raise NotADirectoryError(
            errno.ENOTDIR,
            "a lake is a folder, and this is a file (name a folder with --out)",
            str(lake),
        )
    lake.mkdir(parents=True, exist_ok=True)
    path = lake / LOCK
    me = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
    started = _start_ticks(os.getpid())
    if started is not None:
        me["started"] = started
    for _ in range(_LOCK_TRIES):
        if _create_lock(path, me):
            break
        _take_over_or_refuse(lake, path, str(me["host"]))
    else:  # pragma: no cover - lost a race every time
        raise LakeLocked(f"{lake} is locked by another run")
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


_LOCK_TRIES = 5
_LOCK_WRITE_SECONDS = 60
"""A lock file being written (under its temporary name) is older than this only if the run
writing it was killed."""


def _create_lock(path: Path, me: dict[str, object]) -> bool:
    """Create the lock file whole, naming this process; ``False`` if one is there."""
    partial = path.with_name(f".{LOCK}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with partial.open("x", encoding="utf-8") as out:
            json.dump(me, out)
        try:
            os.link(partial, path)
        except OSError as error:
            if error.errno not in _NO_LINKS:
                raise
            _create_in_place(path, me)  # a filesystem without hard links
    except FileExistsError:
        return False
    except OSError as error:  # a read-only lake, say: about the lock, not its temporary name
        raise type(error)(error.errno, error.strerror, str(path)) from None
    finally:
        partial.unlink(missing_ok=True)
    return True


_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK}


def _create_in_place(path: Path, me: dict[str, object]) -> None:
    """Create the lock file and then write it (where a file cannot be linked): a run killed
    in between leaves an empty lock, which names no run and is said so."""
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(me, out)


def _take_over_or_refuse(lake: Path, path: Path, host: str) -> None:
    """Remove the lock at ``path`` if the process it names is gone; else raise LakeLocked."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:  # let go of meanwhile: try again
        return
    try:
        text = os.read(fd, 1 << 16)
        holder = _parse_lock(text)
        pid = holder.get("pid")
        started = holder.get("started")
        if holder.get("host") == host and isinstance(pid, int) and not _holds(pid, started):
            try:  # one run at a time takes a stale lock over
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # another run is taking it over: try again
                time.sleep(0.05)
                return
            try:
                now = os.stat(path)
            except FileNotFoundError:
                return
            if now.st_ino == os.fstat(fd).st_ino and now.st_dev == os.fstat(fd).st_dev:
                path.unlink()  # still the dead run's lock: no other run can have made one
            return
    finally:
        os.close(fd)
    if not holder:
        what = "is empty" if not text.strip() else "is not a lock Croupier wrote"
        raise LakeLocked(
            f"{lake} is locked: its lock file {path} {what}, so it names no run; if no run "
            "is going, remove it"
        )
    since = holder.get("since")
    when = (
        time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(since))
        if isinstance(since, int | float)
        else "?"
    )
    raise LakeLocked(
        f"{lake} is locked by another run (pid {pid} on {holder.get('host')}, since "
        f"{when}); if no run is going, remove {path}"
    )


def _parse_lock(text: bytes) -> dict[str, object]:
    """Return what a lock file says (pid, host, since), or ``{}`` if it says nothing."""
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    pid, host = data.get("pid"), data.get("host")
    return data if isinstance(pid, int) and isinstance(host, str) else {}


def staging_dir(lake: Path, run_id: str) -> Path:
    """Return (and create) the staging folder of a run."""
    path = lake / STAGING / run_id
    path.mkdir(parents=True, exist_ok=True)
    return path


def publish(lake: Path, staging: Path, paths: list[str]) -> None:
    """Move staged files to their places in the lake (``paths`` relative to both), each
    file's bytes on disk before it moves and the folders' entries after: the manifest,
    committed next, must never list a file a power cut left empty or unnamed."""
    folders: set[Path] = set()
    for relative in paths:
        target = lake / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        fsync_file(staging / relative)
        os.replace(staging / relative, target)
        folders.add(target.parent)
    for folder in sorted(folders):
        fsync_dir(folder)


def note_remote(staging: Path, url: str) -> None:
    """Record in a run's staging folder the URL its tasks stage at (:data:`REMOTE`)."""
    note = staging / REMOTE
    partial = temporary_name(note)
    partial.write_text(url, encoding="utf-8")
    os.replace(partial, note)


def _remote_leftovers(staging: Path) -> list[tuple[str, str]]:
    """Return the (run_id, URL) of every run whose staging folder notes a URL."""
    found = []
    for note in sorted(staging.glob(f"*/{REMOTE}")):
        try:
            url = note.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):  # unreadable: nothing known to remove
            continue
        run_id = note.parent.name
        if is_url(url) and url.endswith(f"/{run_id}"):  # only ever the run's own folder
            found.append((run_id, url))
    return found


def _remove_remote(url: str) -> str | None:
    """Remove a run's staging folder at a URL; return why it could not be, or None."""
    if not has_fsspec():
        return "fsspec is not installed (pip install 'croupier[fsspec]')"
    try:
        remove(url)
    except Exception as error:  # any store's failure (network, credentials): kept, retried
        return f"{type(error).__name__}: {error}"
    return None


def clean_orphans(lake: Path, manifest: Manifest) -> tuple[list[str], dict[str, str]]:
    """Remove what no committed run lists: staging leftovers and unlisted data files.

    A staging folder that notes a URL (:data:`REMOTE`: a run that staged at ``--staging``
    and was killed before its end) has the run's folder at that URL removed too. Returns
    what was removed (paths in the lake, and URLs), and the URLs that could not be, each
    with why: their notes are kept, so a later run tries again.
    """
    removed: list[str] = []
    kept: dict[str, str] = {}
    staging = lake / STAGING
    if staging.exists():
        kept_notes: list[tuple[str, str]] = []
        for run_id, url in _remote_leftovers(staging):
            why = _remove_remote(url)
            if why is None:
                removed.append(url)
            else:
                kept[url] = why
                kept_notes.append((run_id, url))
        shutil.rmtree(staging, ignore_errors=True)
        removed.append(STAGING)
        for run_id, url in kept_notes:
            note_remote(staging_dir(lake, run_id), url)
    live = set(manifest.live_files())
    for table in TABLES:
        folder = lake / table
        if not folder.exists():
            continue
        for path in folder.rglob("*.parquet"):
            relative = path.relative_to(lake).as_posix()
            if relative not in live:
                path.unlink(missing_ok=True)
                removed.append(relative)
    for tmp in [*lake.glob(f".{MANIFEST}.*.tmp"), *lake.glob(".manifest.*.tmp")]:  # new, old
        tmp.unlink(missing_ok=True)
        removed.append(tmp.name)
    for tmp in lake.glob(f".{LOCK}.*.tmp"):  # a lock a run was killed writing
        try:
            if time.time() - tmp.stat().st_mtime > _LOCK_WRITE_SECONDS:  # not one being written
                tmp.unlink()
                removed.append(tmp.name)
        except FileNotFoundError:
            pass
    return removed, kept
