"""The lake on disk: its lock, the staging area, moving files into place, cleaning up.

A run writes every file under ``_staging/<run_id>/`` (ignored by hive-style readers),
moves the files into their table folders, and only then commits its manifest entry. The
lock file ``_lock`` keeps two runs from committing into one lake at once; a lock left by
a process that no longer exists is taken over.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.lake.manifest import MANIFEST, Manifest
from pipeline.lake.schema import TABLES

__all__ = ["LOCK", "STAGING", "LakeLocked", "clean_orphans", "lake_lock", "publish", "staging_dir"]

LOCK = "_lock"
STAGING = "_staging"


class LakeLocked(RuntimeError):
    """Another run is writing to this lake."""


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

    Raises ``NotADirectoryError`` when the lake's path is a file (``--out hands.jsonl``)."""
    if lake.exists() and not lake.is_dir():
        raise NotADirectoryError(
            errno.ENOTDIR,
            "a lake is a folder, and this is a file (name a folder with --out)",
            str(lake),
        )
    lake.mkdir(parents=True, exist_ok=True)
    path = lake / LOCK
    me = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            holder = _read_lock(path)
            same_host = holder.get("host") == me["host"]
            pid = holder.get("pid")
            if same_host and isinstance(pid, int) and not _alive(pid):
                path.unlink(missing_ok=True)  # a crashed run's lock
                continue
            since = holder.get("since")
            when = (
                time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(since))
                if isinstance(since, int | float)
                else "?"
            )
            raise LakeLocked(
                f"{lake} is locked by another run (pid {pid} on {holder.get('host')}, since "
                f"{when}); if no run is going, remove {path}"
            ) from None
        with os.fdopen(fd, "w") as out:
            json.dump(me, out)
        break
    else:  # pragma: no cover - lost a race twice
        raise LakeLocked(f"{lake} is locked by another run")
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


def _read_lock(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def staging_dir(lake: Path, run_id: str) -> Path:
    """Return (and create) the staging folder of a run."""
    path = lake / STAGING / run_id
    path.mkdir(parents=True, exist_ok=True)
    return path


def publish(lake: Path, staged: Path, relative: str) -> None:
    """Move one staged file to its place in the lake (``relative`` to the lake)."""
    target = lake / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staged, target)


def clean_orphans(lake: Path, manifest: Manifest) -> list[str]:
    """Remove what no committed run lists: staging leftovers and unlisted data files."""
    removed: list[str] = []
    staging = lake / STAGING
    if staging.exists():
        shutil.rmtree(staging, ignore_errors=True)
        removed.append(STAGING)
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
    return removed
