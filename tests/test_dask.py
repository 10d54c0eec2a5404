"""croupier run --executor dask: the same lake as the local executor, worker deaths, failures."""

from __future__ import annotations

import importlib.util
import json
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.executors import (
    DIE_ALWAYS,
    DIE_ONCE,
    ChunkExecutor,
    ProcessExecutor,
    open_executor,
)
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.lake.manifest import load_manifest
from pipeline.lake.query import run_query
from pipeline.lake.schema import TABLES
from pipeline.lake.staged import fetch
from pipeline.lake.store import REMOTE, STAGING
from pipeline.rules import STANDARD
from pipeline.run import ChunkTask, process_chunk, run_lake
from tests.test_lake import SAMPLES

runner = CliRunner()
HANDS = 2000
CHUNK = 250
needs_dask = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="Dask is not installed (pip install 'croupier[dask]')",
)


def _input(path: Path) -> Path:
    """Write generated hands, some faulty, then repeats of earlier hands and a broken line.

    The repeats sit in a later chunk than their first reading, so which copy the lake
    keeps depends on the driver taking the chunks in input order.
    """
    with path.open("wb") as out:
        write_jsonl(generate_hands(HANDS, seed=41, faults=0.2), out)
    lines = path.read_bytes().splitlines()
    path.write_bytes(b"\n".join([*lines, *lines[10:40], b"{broken"]) + b"\n")
    return path


def _rows(lake: Path) -> dict[str, list[tuple[object, ...]]]:
    """Return every table's rows, sorted, without the run id."""
    rows = {}
    for table in TABLES:
        columns = ", ".join(c for c in TABLES[table].names if c != "run_id")
        rows[table] = run_query(lake, f"SELECT {columns} FROM {table} ORDER BY ALL").rows
    return rows


def _counts(lake: Path) -> list[tuple[int, int, int, int]]:
    runs = load_manifest(lake).runs
    return [(i.read, i.hands, i.rejects, i.duplicates) for run in runs for i in run.inputs]


def _listing(lake: Path) -> dict[str, bytes]:
    """Return every file of the lake (the manifest and the staging area too), with its bytes."""
    return {p.relative_to(lake).as_posix(): p.read_bytes() for p in lake.rglob("*") if p.is_file()}


def _assert_whole(lake: Path) -> None:
    """Assert the lake holds exactly its committed files, each with the rows listed."""
    live = load_manifest(lake).live_files()
    on_disk = {p.relative_to(lake).as_posix() for t in TABLES for p in (lake / t).rglob("*")}
    on_disk = {p for p in on_disk if p.endswith(".parquet")}
    assert on_disk == set(live)
    for path, entry in live.items():
        table = path.split("/", 1)[0]
        assert (table, pq.read_metadata(lake / path).num_rows) == (entry.table, entry.rows)
    assert not (lake / STAGING).exists()


@pytest.fixture(scope="module")
def hands_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _input(tmp_path_factory.mktemp("dask") / "hands.jsonl")


@pytest.fixture(scope="module")
def local_lake(hands_log: Path) -> Path:
    lake = hands_log.parent / "local"
    report = run_lake([str(hands_log)], lake, workers=1, chunk_hands=CHUNK)
    assert (report.hands, report.duplicates, report.rejects) == (HANDS, 30, 1)
    return lake


@pytest.fixture(scope="module")
def cluster() -> Iterator[ChunkExecutor]:
    executor = open_executor("dask", workers=2)
    yield executor
    executor.close()


@needs_dask
def test_a_local_dask_cluster_writes_the_local_executors_lake(
    hands_log: Path, local_lake: Path, tmp_path: Path
) -> None:
    lake = tmp_path / "dask"
    options = ["--executor", "dask", "--workers", "2", "--format", "json"]
    result = runner.invoke(app, ["run", str(hands_log), "--out", str(lake), *options])
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["hands"], summary["duplicates"], summary["rejects"]) == (HANDS, 30, 1)
    assert summary["executor"] == "dask"
    assert _rows(lake) == _rows(local_lake)
    assert _counts(lake) == _counts(local_lake)
    assert len(_rows(lake)["hands"]) == HANDS
    _assert_whole(lake)


@needs_dask
@pytest.mark.parametrize("kind", ["dask", "processes"])
def test_results_come_in_task_order_with_few_tasks_in_flight(
    kind: str, cluster: ChunkExecutor
) -> None:
    executor = cluster if kind == "dask" else ProcessExecutor(2)
    pulled = 0

    def tasks() -> Iterator[int]:
        nonlocal pulled
        for n in range(40):
            pulled += 1
            yield n

    try:
        results = []
        for result in executor.map(abs, (-n for n in tasks())):
            results.append(result)
            assert pulled - len(results) < 2 * executor.slots
    finally:
        if kind != "dask":
            executor.close()
    assert results == list(range(40))


@needs_dask
def test_large_chunks_go_to_dask_without_its_large_graph_warning(cluster: ChunkExecutor) -> None:
    # a chunk of 100,000 hands is ~10 MB, past Dask's threshold: lower it to see the warning
    dask = pytest.importorskip("dask")
    with (
        dask.config.set({"distributed.admin.large-graph-warning-threshold": "1kB"}),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        assert list(cluster.map(len, [b"x" * 50_000] * 3)) == [50_000] * 3
    assert not [w for w in caught if "large graph" in str(w.message)]


@needs_dask
def test_a_worker_killed_mid_task_loses_and_duplicates_nothing(
    hands_log: Path, local_lake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "died"
    monkeypatch.setenv(DIE_ONCE, str(marker))  # read by the workers the cluster spawns
    lake = tmp_path / "dask"
    report = run_lake([str(hands_log)], lake, workers=2, executor="dask", chunk_hands=CHUNK)
    assert marker.exists(), "no worker died: the test proved nothing"
    assert report.committed
    assert _rows(lake) == _rows(local_lake)
    assert _counts(lake) == _counts(local_lake)
    assert run_query(lake, "SELECT count(DISTINCT (site, hand_id)) FROM hands").rows == [(HANDS,)]
    _assert_whole(lake)


@needs_dask
def test_a_task_that_kills_every_worker_fails_the_run_and_leaves_the_lake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES / "plo.jsonl")], lake, workers=1)
    before = _listing(lake)
    monkeypatch.setenv(DIE_ALWAYS, "1")
    result = runner.invoke(
        app, ["run", str(SAMPLES), "--out", str(lake), "--executor", "dask", "--workers", "2"]
    )
    assert result.exit_code == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "every Dask worker that ran it died" in lines[0]
    assert _listing(lake) == before
    assert run_query(lake, "SELECT count(*) FROM hands").rows == [(5,)]
    monkeypatch.delenv(DIE_ALWAYS)
    assert run_lake([str(SAMPLES)], lake, workers=1).hands == 10  # the next run goes on
    _assert_whole(lake)


@needs_dask
def test_a_running_scheduler_is_used_by_address(tmp_path: Path) -> None:
    distributed: Any = importlib.import_module("distributed")  # only partly typed
    lake = tmp_path / "lake"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, dashboard_address="127.0.0.1:0", silence_logs=40
    ) as running:
        address = running.scheduler_address
        options = ["--executor", "dask", "--scheduler", address, "--format", "json"]
        result = runner.invoke(app, ["run", str(SAMPLES), "--out", str(lake), *options])
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["hands"] == 15
        assert len(running.scheduler_info["workers"]) == 2  # the cluster is still up
    _assert_whole(lake)


@needs_dask
def test_an_unreachable_scheduler_is_one_line_and_exit_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.executors.CONNECT_SECONDS", 1)
    lake = tmp_path / "lake"
    options = ["--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"]
    result = runner.invoke(app, ["run", str(SAMPLES), "--out", str(lake), *options])
    assert result.exit_code == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: cannot reach the Dask scheduler tcp://127.0.0.1:9")
    assert not (lake / "_manifest.json").exists()


def test_without_dask_the_dask_executor_exits_3_with_the_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    lake = tmp_path / "lake"
    result = runner.invoke(app, ["run", str(SAMPLES), "--out", str(lake), "--executor", "dask"])
    assert result.exit_code == 3
    assert result.stderr.strip().splitlines() == [
        "error: the dask executor needs Dask: pip install 'croupier[dask]'"
    ]
    assert not (lake / "_manifest.json").exists()


def test_executor_options_are_checked(tmp_path: Path) -> None:
    lake = str(tmp_path / "lake")
    bad = runner.invoke(app, ["run", str(SAMPLES), "--out", lake, "--executor", "spark"])
    assert bad.exit_code == 2
    assert "unknown executor" in bad.stderr
    alone = runner.invoke(app, ["run", str(SAMPLES), "--out", lake, "--scheduler", "tcp://h:1"])
    assert alone.exit_code == 2
    assert "--scheduler needs --executor dask" in alone.stderr
    with pytest.raises(ValueError, match="needs the dask executor"):
        run_lake([str(SAMPLES)], lake, scheduler="tcp://h:1")


def test_a_worker_that_cannot_see_the_staging_folder_says_so(tmp_path: Path) -> None:
    line = (SAMPLES / "plo.jsonl").read_bytes().splitlines()[0]
    task = ChunkTask(
        task_id=0,
        source="plo.jsonl",
        input_sha="0" * 64,
        lines=[(1, line, True)],
        rejects=[],
        run_id="r",
        rules=STANDARD,
        staging=str(tmp_path / "elsewhere" / "_staging" / "r"),
    )
    with pytest.raises(FileNotFoundError, match="filesystem every worker shares"):
        process_chunk(task)
    assert not (tmp_path / "elsewhere").exists()


def test_a_retried_task_replaces_its_own_files_only(tmp_path: Path) -> None:
    lines = (SAMPLES / "plo.jsonl").read_bytes().splitlines()
    staging = tmp_path / "_staging" / "r"
    staging.mkdir(parents=True)

    def task(task_id: int, chunk: list[bytes]) -> ChunkTask:
        numbered = [(n, body, True) for n, body in enumerate(chunk, 1)]
        return ChunkTask(task_id, "plo.jsonl", "0" * 64, numbered, [], "r", STANDARD, str(staging))

    first = process_chunk(task(0, lines[:2]))
    other = process_chunk(task(1, lines[2:]))
    files = {p: p.read_bytes() for p in staging.rglob("*") if p.is_file()}
    again = process_chunk(task(0, lines[:2]))  # the same chunk run a second time
    assert again.files == first.files
    assert {p: p.read_bytes() for p in staging.rglob("*") if p.is_file()} == files
    assert not {f for _, f, _ in first.files} & {f for _, f, _ in other.files}
    assert all(not p.name.startswith(".") for p in staging.rglob("*"))  # no temporary left


# ------------------------------------------------------------------ staging at a URL


needs_fsspec = pytest.mark.skipif(
    importlib.util.find_spec("fsspec") is None,
    reason="fsspec is not installed (pip install 'croupier[fsspec]')",
)


def _spy_on_fetch(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Record the files the driver fetches from the staging URL."""
    fetched: set[str] = set()

    def spy(url: str, relative: str, local: Path) -> None:
        fetched.add(relative)
        fetch(url, relative, local)

    monkeypatch.setattr("pipeline.run.fetch", spy)
    return fetched


def _made_here(lake: Path) -> set[str]:
    """The live files a task wrote (not merged by the driver from small ones)."""
    return {p for p in load_manifest(lake).live_files() if "-m" not in Path(p).stem}


@needs_fsspec
def test_staging_in_memory_commits_the_same_lake_and_leaves_nothing_there(
    hands_log: Path, local_lake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fsspec

    memory = fsspec.filesystem("memory")
    fetched = _spy_on_fetch(monkeypatch)
    lake = tmp_path / "lake"
    report = run_lake(
        [str(hands_log)], lake, workers=1, chunk_hands=CHUNK, staging_url="memory://croupier"
    )
    assert report.committed
    assert _rows(lake) == _rows(local_lake)
    assert _counts(lake) == _counts(local_lake)
    assert not memory.exists(f"/croupier/{report.run_id}")
    assert _made_here(lake) <= fetched  # the others merge small fetched ones
    _assert_whole(lake)


@needs_dask
@needs_fsspec
def test_dask_workers_staging_at_a_file_url_commit_the_same_lake(
    hands_log: Path,
    local_lake: Path,
    tmp_path: Path,
    cluster: ChunkExecutor,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fetched = _spy_on_fetch(monkeypatch)
    store = tmp_path / "store"
    lake = tmp_path / "lake"
    report = run_lake(
        [str(hands_log)],
        lake,
        executor=cluster,
        chunk_hands=CHUNK,
        staging_url=f"file://{store}",
    )
    assert report.committed
    assert _rows(lake) == _rows(local_lake)
    assert not (store / report.run_id).exists()
    assert _made_here(lake) <= fetched  # the others merge small fetched ones
    _assert_whole(lake)


def test_staging_needs_a_url_and_fsspec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lake = str(tmp_path / "lake")
    plain = runner.invoke(app, ["run", str(SAMPLES), "--out", lake, "--staging", "/tmp/x"])
    assert plain.exit_code == 2
    assert "not a URL" in plain.stderr
    monkeypatch.setitem(sys.modules, "fsspec", None)
    missing = runner.invoke(app, ["run", str(SAMPLES), "--out", lake, "--staging", "memory://s"])
    assert missing.exit_code == 3
    assert "pip install 'croupier[fsspec]'" in missing.stderr
    assert not Path(lake, "_manifest.json").exists()


def _lake_with_leftover(tmp_path: Path, url: str | None = None) -> tuple[Path, Path, Path]:
    """Return a committed lake, the store at ``file://store``, and the folder a run
    (``r-dead``) killed mid-way while staging there left: a staged file at the URL, and the
    note of that URL (``url``, else the run's own) in the lake's staging folder."""
    lake, store = tmp_path / "lake", tmp_path / "store"
    run_lake([str(SAMPLES)], lake, workers=1)
    folder = store / "r-dead" / "hands"
    folder.mkdir(parents=True)
    (folder / "part-r-dead-000000.parquet").write_bytes(b"PAR1 half a file")
    note = lake / STAGING / "r-dead" / REMOTE
    note.parent.mkdir(parents=True)
    note.write_text(url or f"file://{store}/r-dead", encoding="utf-8")
    return lake, store, store / "r-dead"


@needs_fsspec
def test_the_next_run_removes_what_a_killed_run_left_at_the_staging_url(
    hands_log: Path, tmp_path: Path
) -> None:
    lake, store, dead = _lake_with_leftover(tmp_path)
    other = store / "someone-else"
    other.mkdir()
    report = run_lake([str(hands_log)], lake, workers=1, chunk_hands=CHUNK)  # no --staging
    assert report.committed and report.leftovers == {}
    assert not dead.exists()
    assert other.exists()  # only the killed run's own folder
    assert not (lake / STAGING).exists()


@needs_fsspec
def test_a_note_that_names_another_folder_than_its_runs_is_not_followed(
    hands_log: Path, tmp_path: Path
) -> None:
    lake, _, dead = _lake_with_leftover(tmp_path, url=f"file://{tmp_path / 'store'}")  # all
    run_lake([str(hands_log)], lake, workers=1, chunk_hands=CHUNK)
    assert dead.exists()


def test_a_leftover_at_a_url_that_cannot_be_removed_is_reported_and_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lake, store, dead = _lake_with_leftover(tmp_path)
    url = f"file://{store}/r-dead"
    monkeypatch.setattr("pipeline.lake.store.has_fsspec", lambda: False)
    sample = next(p for p in sorted(SAMPLES.iterdir()) if p.suffix == ".jsonl")
    again = runner.invoke(app, ["run", str(sample), "--out", str(lake), "--replace"])
    assert again.exit_code == 0, again.stderr
    assert "not removed" in again.stderr and url in again.stderr.replace("\n", "")
    assert "fsspec is not installed" in again.stderr
    assert dead.exists()
    assert (lake / STAGING / "r-dead" / REMOTE).read_text(encoding="utf-8") == url  # kept
    listed = runner.invoke(
        app, ["run", str(sample), "--out", str(lake), "--replace", "--format", "json"]
    )
    assert json.loads(listed.stdout)["staging_leftovers"] == {
        url: "fsspec is not installed (pip install 'croupier[fsspec]')"
    }
    if importlib.util.find_spec("fsspec") is not None:  # with it, the next run removes it
        monkeypatch.undo()
        assert run_lake([str(sample)], lake, workers=1, replace=True).leftovers == {}
        assert not dead.exists()
        assert not (lake / STAGING).exists()
