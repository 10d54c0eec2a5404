"""Crashes: a run killed at any moment, or stopped by a full disk, leaves the lake as it was.

The lake seen by its readers is what the manifest commits. After a ``kill -9`` at a random
moment the lake must read exactly as before the run or exactly as after it, and the next run
must complete and give the same lake as a run that was never interrupted.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli import main
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.lake.query import run_query
from pipeline.lake.schema import TABLES
from pipeline.run import run_lake

KILLS = int(os.environ.get("CROUPIER_CRASH_KILLS", "5"))
"""How many times the kill test kills a run (more with the environment variable)."""

Contents = dict[str, list[tuple[Any, ...]]]


def _contents(lake: Path) -> Contents:
    """Every committed row of every table, sorted, without the run id (which differs)."""
    if not (lake / "_manifest.json").exists():
        return {name: [] for name in TABLES}
    out: Contents = {}
    for name, schema in TABLES.items():
        drop = " EXCLUDE (run_id)" if "run_id" in schema.names else ""
        out[name] = run_query(lake, f"SELECT *{drop} FROM {name} ORDER BY ALL").rows
    return out


def _files(lake: Path) -> list[str]:
    """Every file under the lake, committed or not."""
    return sorted(p.relative_to(lake).as_posix() for p in lake.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """An earlier input already in the lake, and a larger one the killed runs ingest."""
    root = tmp_path_factory.mktemp("crash-inputs")
    first, second = root / "first.jsonl", root / "second.jsonl"
    with first.open("wb") as out:
        write_jsonl(generate_hands(200, seed=11), out)
    with second.open("wb") as out:
        write_jsonl(generate_hands(4000, seed=12, faults=0.05), out)
    return first, second


def _croupier(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: the kill takes the workers too
    )


def test_kill_9_at_random_moments_leaves_the_lake_before_or_after(
    inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    first, second = inputs
    reference = tmp_path / "reference"
    run_lake([str(first)], reference, workers=1)
    before = _contents(reference)
    began = time.perf_counter()
    done = _croupier("run", str(second), "--out", str(reference), "--quiet", "--workers", "2")
    assert done.wait(timeout=300) == 0
    duration = time.perf_counter() - began
    after = _contents(reference)
    assert len(after["hands"]) > len(before["hands"])

    rng = random.Random(20261129)
    outcomes = {"before": 0, "after": 0}
    for attempt in range(KILLS):
        lake = tmp_path / f"lake{attempt}"
        run_lake([str(first)], lake, workers=1)
        proc = _croupier("run", str(second), "--out", str(lake), "--quiet", "--workers", "2")
        time.sleep(rng.uniform(0.05, duration * 1.05))
        with contextlib.suppress(ProcessLookupError):  # finished: the "after" state
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        seen = _contents(lake)
        assert seen in (before, after), f"kill {attempt}: the lake is neither before nor after"
        outcomes["before" if seen == before else "after"] += 1
        # the next run takes over the dead run's lock, cleans its leftovers, and completes
        rerun = _croupier("run", str(second), "--out", str(lake), "--quiet", "--workers", "1")
        _, err = rerun.communicate(timeout=300)
        assert rerun.returncode == 0, err.decode()
        assert _contents(lake) == after
        assert not (lake / "_staging").exists() or not any((lake / "_staging").iterdir())
    assert outcomes["before"] >= 1, f"no kill landed mid-run: {outcomes}"
    print(f"kill -9 outcomes: {outcomes}")


def test_a_full_disk_leaves_the_lake_unchanged_with_a_clear_message(
    inputs: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first, second = inputs
    lake = tmp_path / "lake"
    run_lake([str(first)], lake, workers=1)
    before, listing = _contents(lake), _files(lake)

    import pyarrow.parquet as pq

    real = pq.write_table
    calls = {"n": 0}

    def full_disk(table: Any, where: Any, **kwargs: Any) -> None:
        calls["n"] += 1
        if calls["n"] > 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(where))
        real(table, where, **kwargs)

    monkeypatch.setattr("pyarrow.parquet.write_table", full_disk)
    code = main(["run", str(second), "--out", str(lake), "--quiet", "--workers", "1"])
    err = capsys.readouterr().err
    assert code == 3
    assert "No space left on device" in err
    assert "Traceback" not in err
    assert _contents(lake) == before
    assert _files(lake) == listing, "the failed run left files in the lake"

    monkeypatch.setattr("pyarrow.parquet.write_table", real)
    assert main(["run", str(second), "--out", str(lake), "--quiet", "--workers", "1"]) == 0
    assert len(_contents(lake)["hands"]) > len(before["hands"])


@pytest.mark.parametrize("failing", ["manifest", "part-"])
def test_a_full_disk_at_the_commit_leaves_the_lake_unchanged(
    failing: str,
    inputs: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first, second = inputs
    lake = tmp_path / "lake"
    run_lake([str(first)], lake, workers=1)
    before, listing = _contents(lake), _files(lake)

    real_fsync = os.fsync

    def full_disk(fd: int) -> None:  # flushing the manifest, or a data file, fails
        if failing not in os.readlink(f"/proc/self/fd/{fd}"):
            return real_fsync(fd)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full_disk)
    code = main(["run", str(second), "--out", str(lake), "--quiet", "--workers", "1"])
    assert code == 3
    assert "No space left on device" in capsys.readouterr().err
    monkeypatch.undo()
    assert _contents(lake) == before
    assert _files(lake) == listing, "the failed commit left files in the lake"


def test_a_fifo_named_as_an_input_stops_the_run_at_once(tmp_path: Path) -> None:
    """Not a regular file: exit 3 with one line, instead of waiting on the pipe forever."""
    fifo = tmp_path / "hands.jsonl"
    os.mkfifo(fifo)
    proc = _croupier("run", str(fifo), "--out", str(tmp_path / "lake"), "--quiet")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 3
    assert str(fifo) in err.decode()
    assert not (tmp_path / "lake" / "_manifest.json").exists()


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
def test_workers_stop_when_their_run_is_killed(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    """kill -9 of the run alone (not its process group): its workers exit within seconds."""
    _, second = inputs
    proc = _croupier("run", str(second), "--out", str(tmp_path / "lake"), "-q", "--workers", "2")
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 3:  # the forkserver and two workers
        time.sleep(0.2)
        workers = _descendants(proc.pid)
    assert len(workers) >= 3, "the run started no workers"
    proc.kill()
    proc.wait(timeout=30)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.2)
    assert not [p for p in workers if _alive(p)], "workers of the killed run are still running"


@pytest.mark.skipif(importlib.util.find_spec("fsspec") is None, reason="fsspec is not installed")
def test_a_run_killed_while_staging_at_a_url_has_its_leftovers_removed_by_the_next(
    inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    first, second = inputs
    reference, lake, store = tmp_path / "reference", tmp_path / "lake", tmp_path / "store"
    for lake_ in (reference, lake):
        run_lake([str(first)], lake_, workers=1)
    run_lake([str(second)], reference, workers=1)
    proc = _croupier(
        "run", str(second), "--out", str(lake), "-q", "--workers", "2",
        "--staging", f"file://{store}",
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if any(store.rglob("*.parquet")):
            break
        time.sleep(0.01)
    assert proc.poll() is None, proc.communicate()[1].decode()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    assert any(store.rglob("*.parquet")), "the run was not killed while it staged files"
    rerun = _croupier("run", str(second), "--out", str(lake), "--quiet", "--workers", "1")
    _, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err.decode()
    assert _contents(lake) == _contents(reference)
    assert not list(store.iterdir())  # the killed run's folder there is gone
