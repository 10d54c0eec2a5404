"""The lake's safe writes under abuse: locks left behind or garbled, runs that race for a
stale lock, a damaged lake run into, worker counts out of range."""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.executors import (
    MAX_WORKERS,
    ExecutorError,
    ProcessExecutor,
    SerialExecutor,
    check_workers,
)
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.lake import query as lake_query
from pipeline.lake.manifest import MANIFEST, Manifest, load_manifest
from pipeline.lake.query import SNAPSHOT_TRIES, read_lake, run_query
from pipeline.lake.store import (
    LOCK,
    LakeDamaged,
    LakeLocked,
    _start_ticks,
    check_committed,
    lake_lock,
)
from pipeline.run import run_lake

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "sample"


def _generated(path: Path, hands: int, seed: int) -> Path:
    with path.open("wb") as out:
        write_jsonl(generate_hands(hands, seed=seed), out)
    return path


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def _listing(lake: Path) -> list[str]:
    return sorted(p.relative_to(lake).as_posix() for p in lake.rglob("*"))


# ---------------------------------------------------------------------------- the lock


@pytest.mark.parametrize(
    "text", ["", "\n", "garbage", "[1, 2]", '{"host": "x"}', '{"pid": "abc", "host": null}']
)
def test_a_lock_file_that_names_no_run_is_refused_in_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    lake = tmp_path / "lake"
    lake.mkdir()
    (lake / LOCK).write_text(text)
    assert main(["run", str(SAMPLES), "--out", str(lake), "--quiet"]) == 3
    err = " ".join(capsys.readouterr().err.split())
    assert "None" not in err and "since ?" not in err, err
    assert "names no run" in err and "remove it" in err, err
    assert (lake / LOCK).read_text() == text  # not taken over: it is no run's to judge
    assert not (lake / "_manifest.json").exists()


def test_a_run_killed_while_taking_the_lock_leaves_none_behind(tmp_path: Path) -> None:
    """kill -9 between creating the lock file and writing it must not leave an empty lock
    that refuses every later run."""
    lake = tmp_path / "lake"
    script = (
        "import json, os, signal, sys\n"
        "from pathlib import Path\n"
        "from pipeline.lake.store import lake_lock\n"
        "def killed(*a, **k):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "json.dump = killed\n"
        "json.dumps = killed\n"
        "with lake_lock(Path(sys.argv[1])):\n"
        "    pass\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(lake)], cwd=ROOT, check=False)
    assert done.returncode == -9
    assert run_lake([str(SAMPLES)], lake, workers=1).hands == 15


def test_two_runs_taking_over_one_stale_lock_do_not_both_hold_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run A finds a dead run's lock; before A removes it, run B takes it over and holds
    its own. A must then be refused, not remove B's lock and write the lake beside B."""
    lake = tmp_path / "lake"
    lake.mkdir()
    path = lake / LOCK
    host = socket.gethostname()
    path.write_text(json.dumps({"pid": _dead_pid(), "host": host, "since": 0}))
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        from pipeline.lake import store

        alive = store._alive
        raced: list[bool] = []

        def alive_then_raced(pid: int) -> bool:
            answer = alive(pid)
            if not raced:  # B takes the stale lock over between A's look and A's removal
                raced.append(True)
                path.unlink()
                path.write_text(json.dumps({"pid": other.pid, "host": host, "since": 1}))
            return answer

        monkeypatch.setattr(store, "_alive", alive_then_raced)
        with pytest.raises(LakeLocked, match=f"pid {other.pid}"), lake_lock(lake):
            pass
        assert json.loads(path.read_text())["pid"] == other.pid  # B's lock still there
    finally:
        other.kill()
        other.wait()


def test_a_stale_lock_is_taken_over_and_a_live_one_says_who_holds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake = tmp_path / "lake"
    lake.mkdir()
    host = socket.gethostname()
    (lake / LOCK).write_text(json.dumps({"pid": _dead_pid(), "host": host, "since": 0}))
    assert main(["run", str(SAMPLES), "--out", str(lake), "--quiet"]) == 0
    assert not (lake / LOCK).exists()
    assert not [p for p in lake.iterdir() if p.name.startswith(f".{LOCK}")]
    (lake / LOCK).write_text(json.dumps({"pid": os.getpid(), "host": host, "since": 0}))
    log = _generated(tmp_path / "more.jsonl", 20, seed=5)
    assert main(["run", str(log), "--out", str(lake), "--quiet"]) == 3
    err = " ".join(capsys.readouterr().err.split())
    assert f"locked by another run (pid {os.getpid()} on {host}" in err, err


def test_a_lock_whose_pid_another_process_was_given_is_taken_over(tmp_path: Path) -> None:
    """A container restarted after a kill gives the same pids again: the dead run's pid
    may be a live process now (even this run), which did not start when the lock's did."""
    lake = tmp_path / "lake"
    lake.mkdir()
    mine = _start_ticks(os.getpid())
    assert mine is not None
    host = socket.gethostname()
    reused = {"pid": os.getpid(), "host": host, "since": 0, "started": mine - 100}
    (lake / LOCK).write_text(json.dumps(reused))
    assert run_lake([str(SAMPLES)], lake, workers=1).hands == 15
    assert not (lake / LOCK).exists()
    live = {"pid": os.getpid(), "host": host, "since": 0, "started": mine}  # this very one
    (lake / LOCK).write_text(json.dumps(live))
    with pytest.raises(LakeLocked, match=f"pid {os.getpid()}"):
        run_lake([str(_generated(tmp_path / "more.jsonl", 10, seed=9))], lake, workers=1)


def test_a_run_s_lock_says_when_it_started(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    with lake_lock(lake):
        held = json.loads((lake / LOCK).read_text())
    assert held["pid"] == os.getpid()
    assert held["started"] == _start_ticks(os.getpid())


def test_a_lock_that_cannot_be_written_is_named_in_the_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(source: object, target: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(source))

    monkeypatch.setattr("pipeline.lake.store.os.link", refused)
    lake = tmp_path / "lake"
    assert main(["run", str(SAMPLES), "--out", str(lake), "--quiet"]) == 3
    err = " ".join(capsys.readouterr().err.split())
    assert f"Read-only file system: {lake / LOCK}" in err, err
    assert ".tmp" not in err


def test_a_lake_on_a_filesystem_without_hard_links_is_locked_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(source: object, target: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted", str(source))

    monkeypatch.setattr("pipeline.lake.store.os.link", no_links)
    lake = tmp_path / "lake"
    with lake_lock(lake):
        assert json.loads((lake / LOCK).read_text())["pid"] == os.getpid()
        with pytest.raises(LakeLocked, match=f"pid {os.getpid()}"), lake_lock(lake):
            pass
    assert sorted(p.name for p in lake.iterdir()) == []


def test_a_lock_file_a_killed_run_was_writing_is_cleaned_once_old(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES)], lake, workers=1)
    old = lake / f".{LOCK}.12345.abcdef01.tmp"
    new = lake / f".{LOCK}.12346.abcdef02.tmp"
    old.write_text("{}")
    new.write_text("{}")
    os.utime(old, (0, 0))
    run_lake([str(_generated(tmp_path / "more.jsonl", 20, seed=6))], lake, workers=1)
    assert not old.exists()
    assert new.exists()  # maybe a run writing its lock right now


# ---------------------------------------------------------------------------- --workers


def _die(task: int) -> int:
    os._exit(1)


def test_a_local_worker_that_dies_is_one_clear_executor_error() -> None:
    pool = ProcessExecutor(1)
    try:
        with pytest.raises(ExecutorError, match="a worker process died"):
            list(pool.map(_die, [1, 2]))
    finally:
        pool.close()


@pytest.mark.parametrize("workers", ["0", "-1", "257", "100000"])
def test_workers_out_of_range_is_a_usage_error_and_makes_no_lake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    lake = tmp_path / "lake"
    assert main(["run", str(SAMPLES), "--out", str(lake), "--workers", workers, "-q"]) == 2
    assert "--workers" in capsys.readouterr().err
    assert not lake.exists()


@pytest.mark.parametrize("workers", [0, MAX_WORKERS + 1])
def test_run_lake_refuses_workers_out_of_range(tmp_path: Path, workers: int) -> None:
    with pytest.raises(ValueError, match=f"from 1 to {MAX_WORKERS}"):
        run_lake([str(SAMPLES)], tmp_path / "lake", workers=workers)
    assert not (tmp_path / "lake").exists()


def test_the_default_workers_are_the_cores_up_to_the_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[int] = []

    def open_serial(kind: str, *, workers: int, **_: object) -> SerialExecutor:
        check_workers(workers)
        opened.append(workers)
        return SerialExecutor()

    monkeypatch.setattr("pipeline.run.os.cpu_count", lambda: 4 * MAX_WORKERS)
    monkeypatch.setattr("pipeline.run.open_executor", open_serial)
    assert run_lake([str(SAMPLES)], tmp_path / "lake").hands == 15
    assert opened == [MAX_WORKERS]


# ---------------------------------------------------------------------------- a damaged lake


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:100])


def _other_parquet(path: Path) -> None:
    """Overwrite a committed file with another, valid, Parquet file of fewer rows."""
    table = pq.read_table(path)
    pq.write_table(table.slice(0, table.num_rows - 1), path)


def _gone(path: Path) -> None:
    path.unlink()


@pytest.mark.parametrize(
    ("table", "damage", "said"),
    [
        ("actions", _truncate, "cannot be read"),
        ("hands", _truncate, "cannot be read"),
        ("seats", _gone, "missing"),
        ("hands", _gone, "missing"),
        ("actions", _other_parquet, "rows"),
    ],
)
def test_a_run_into_a_damaged_lake_is_refused_before_it_writes_anything(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    table: str,
    damage: Callable[[Path], None],
    said: str,
) -> None:
    lake = tmp_path / "lake"
    run_lake([str(_generated(tmp_path / "first.jsonl", 40, seed=7))], lake, workers=1)
    (lake / "_staging" / "crashed-run").mkdir(parents=True)  # a crashed run's leftovers
    damage(lake / load_manifest(lake).files_of(table)[0])
    before = {p: p.read_bytes() if p.is_file() else b"" for p in lake.rglob("*")}
    log = _generated(tmp_path / "more.jsonl", 20, seed=8)
    assert main(["run", str(log), "--out", str(lake), "--quiet"]) == 3
    err = " ".join(capsys.readouterr().err.split())
    assert "is damaged" in err and said in err and "Traceback" not in err, err
    after = {p: p.read_bytes() if p.is_file() else b"" for p in lake.rglob("*")}
    assert after == before  # nothing written, nothing cleaned
    assert main(["query", "SELECT 1", "--lake", str(lake)]) == 3  # as query refuses it
    err = " ".join(capsys.readouterr().err.split())
    assert "is damaged" in err and said in err, err


# ---------------------------------------------------------------------------- --replace


def test_replace_of_an_input_merged_with_another_works_in_a_lake_named_relatively(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--replace writes again the rows a merged file holds of other inputs, into staging,
    and reads their keys back from there: the path must hold for ``--out lake`` too."""
    monkeypatch.chdir(tmp_path)
    one, two = _generated(Path("one.jsonl"), 30, seed=51), _generated(Path("two.jsonl"), 30, 52)
    assert main(["run", str(one), str(two), "--out", "lake", "--quiet", "--workers", "1"]) == 0
    assert any(f.parts for f in load_manifest(Path("lake")).live_files().values())  # merged
    assert main(["run", str(one), "--out", "lake", "--replace", "-q", "--workers", "1"]) == 0
    report = run_lake([str(two)], "lake", workers=1, replace=True)
    assert report.hands == 30 and report.duplicates == 0
    run = load_manifest(Path("lake")).runs[-1]
    assert [(i.read, i.hands) for i in run.inputs] == [(30, 30)]
    assert int(run_query("lake", "SELECT count(*) FROM hands").rows[0][0]) == 60


def test_a_version_replace_took_out_of_the_lake_is_read_again_not_skipped(
    tmp_path: Path,
) -> None:
    """A file edited and run with --replace, then put back as it was: the lake no longer
    holds what the old version gave, so running it is not 'already ingested'."""
    log = tmp_path / "session.jsonl"
    whole = _generated(tmp_path / "whole.jsonl", 40, seed=61).read_bytes()
    log.write_bytes(whole)
    lake = tmp_path / "lake"
    assert run_lake([str(log)], lake, workers=1).hands == 40
    lines = whole.splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:25]))  # edited: 15 hands taken out
    report = run_lake([str(log)], lake, workers=1, replace=True)
    assert (report.hands, report.gone) == (25, 15)
    log.write_bytes(whole)  # put back
    report = run_lake([str(log)], lake, workers=1)
    assert report.skipped == []
    assert (report.hands, report.duplicates) == (15, 25)
    assert int(run_query(lake, "SELECT count(*) FROM hands").rows[0][0]) == 40


def test_the_same_bytes_at_another_path_are_read_again_once_replace_took_them_out(
    tmp_path: Path,
) -> None:
    first = _generated(tmp_path / "a.jsonl", 30, seed=62)
    copy = tmp_path / "b.jsonl"
    copy.write_bytes(first.read_bytes())
    lake = tmp_path / "lake"
    run_lake([str(first)], lake, workers=1)
    assert run_lake([str(copy)], lake, workers=1).skipped == [str(copy)]  # the same bytes
    first.write_bytes(b"".join(first.read_bytes().splitlines(keepends=True)[:10]))
    assert run_lake([str(first)], lake, workers=1, replace=True).gone == 20
    report = run_lake([str(copy)], lake, workers=1)
    assert (report.skipped, report.hands, report.duplicates) == ([], 20, 10)


def test_rows_kept_of_a_merged_file_keep_their_input_ingested(tmp_path: Path) -> None:
    """--replace of one input of a merged file writes the others' rows again: those
    inputs are still in the lake, and still skipped."""
    one, two = (
        _generated(tmp_path / "one.jsonl", 20, 63),
        _generated(tmp_path / "two.jsonl", 20, 64),
    )
    lake = tmp_path / "lake"
    run_lake([str(one), str(two)], lake, workers=1)
    run_lake([str(one)], lake, workers=1, replace=True)
    assert run_lake([str(two)], lake, workers=1).skipped == [str(two)]


def test_published_files_reach_the_disk_before_the_manifest_lists_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A power cut must not leave a committed manifest listing empty files: each data file
    is flushed before it is renamed into the lake, its folder after, and the manifest last."""
    events: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        events.append(("replace", f"{os.path.abspath(src)} {os.path.abspath(dst)}"))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES)], lake, workers=1)
    files = [p for p, f in load_manifest(lake).live_files().items()]
    assert files
    manifest = next(
        k
        for k, (kind, what) in enumerate(events)
        if kind == "replace" and what.endswith(f"{lake}/_manifest.json")
    )
    for relative in files:
        target = str(lake / relative)
        moved = next(
            k
            for k, (kind, what) in enumerate(events)
            if kind == "replace" and what.endswith(" " + target)
        )
        source = events[moved][1].split(" ")[0]
        assert ("fsync", source) in events[:moved], relative  # its bytes, before it moves
        folder = events.index(("fsync", str(Path(target).parent)), moved)  # then its folder
        assert folder < manifest, relative


def test_replace_with_stdin_is_refused_as_it_could_replace_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--replace finds the rows to take by an input's content, which stdin's is not known
    until read: the hands came in as duplicates and nothing was replaced, without a word.
    It is a usage error, and nothing is made."""
    lake = tmp_path / "lake"
    with (SAMPLES / "plo.jsonl").open() as stdin:
        monkeypatch.setattr("sys.stdin", stdin)
        assert main(["run", "-", "--out", str(lake), "--replace", "--quiet"]) == 2
    assert "stdin's is known only once it is read" in " ".join(capsys.readouterr().err.split())
    assert not lake.exists()
    with pytest.raises(ValueError, match="save it to a file"):
        run_lake([str(SAMPLES / "plo.jsonl"), "-"], lake, replace=True)
    assert not lake.exists()


def _replaced_midway(tmp_path: Path) -> tuple[Path, Callable[[], None]]:
    """Return a lake of 40 hands of one log, and a function that edits the log down to 25
    hands and runs it with ``--replace``: a commit that deletes the files it retired."""
    log = _generated(tmp_path / "session.jsonl", 40, seed=62)
    lake = tmp_path / "lake"
    assert run_lake([str(log)], lake, workers=1).hands == 40

    def replace() -> None:
        log.write_bytes(b"".join(log.read_bytes().splitlines(keepends=True)[:25]))
        assert run_lake([str(log)], lake, workers=1, replace=True).retired > 0

    return lake, replace


def test_a_query_a_replace_commits_under_reads_the_new_snapshot(tmp_path: Path) -> None:
    """A reader that opened the lake before a --replace commit, and reads after it deleted
    the retired files, starts again on the new manifest: no damage is reported, and the
    rows are the new snapshot's, whole."""
    lake, replace = _replaced_midway(tmp_path)
    calls: list[int] = []

    def read(con: duckdb.DuckDBPyConnection) -> int:
        calls.append(1)
        if len(calls) == 1:
            replace()  # commits, then deletes the files this connection's views read
        row = con.execute("SELECT count(*) FROM hands").fetchone()
        assert row is not None
        return int(row[0])

    assert read_lake(lake, read) == 25
    assert len(calls) == 2


def test_a_connection_a_replace_commits_under_opens_the_new_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit lands between reading the manifest and checking its files: the files it
    lists are gone, which is not damage. croupier query reads the new snapshot."""
    lake, replace = _replaced_midway(tmp_path)
    checked: list[int] = []

    def check_late(root: Path, manifest: Manifest) -> None:
        checked.append(1)
        if len(checked) == 1:
            replace()
        check_committed(root, manifest)

    monkeypatch.setattr(lake_query, "check_committed", check_late)
    assert run_query(lake, "SELECT count(*) FROM hands").rows == [(25,)]
    assert len(checked) == 2


def test_a_reading_that_fails_on_an_unchanged_lake_is_not_started_again(
    tmp_path: Path,
) -> None:
    """Bad SQL, or a file damaged for good, fails once: only a new manifest means the files
    read may have been retired under the reader."""
    lake, _ = _replaced_midway(tmp_path)
    calls: list[int] = []

    def read(con: duckdb.DuckDBPyConnection) -> object:
        calls.append(1)
        return con.execute("SELECT no_such_column FROM hands").fetchall()

    with pytest.raises(duckdb.BinderException):
        read_lake(lake, read)
    assert len(calls) == 1
    (lake / load_manifest(lake).files_of("hands")[0]).unlink()
    with pytest.raises(LakeDamaged, match=r"missing|damaged"):
        run_query(lake, "SELECT count(*) FROM hands")


def test_a_lake_that_keeps_changing_is_read_at_most_snapshot_tries_times(
    tmp_path: Path,
) -> None:
    """Runs committing under every reading: the reader gives up after SNAPSHOT_TRIES
    readings with the last error, rather than loop."""
    lake, _ = _replaced_midway(tmp_path)
    calls: list[int] = []

    def read(con: duckdb.DuckDBPyConnection) -> object:
        calls.append(1)
        manifest = lake / MANIFEST
        os.replace(manifest, tmp_path / "m")  # a new manifest file each time: a commit
        shutil.copy(tmp_path / "m", manifest)
        raise duckdb.IOException("a retired file went missing")

    with pytest.raises(duckdb.IOException):
        read_lake(lake, read)
    assert len(calls) == SNAPSHOT_TRIES
