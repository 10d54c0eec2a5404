"""Many small inputs make few files: a run merges its small files, and --replace of one
input keeps the other inputs' rows of a merged file."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.lake.manifest import MANIFEST, load_manifest
from pipeline.lake.query import run_query
from pipeline.lake.schema import TABLES
from pipeline.run import run_lake


def _small_inputs(folder: Path, count: int, hands: int = 2) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(count):
        path = folder / f"session-{k:03d}.jsonl"
        with path.open("wb") as out:
            write_jsonl(generate_hands(hands, seed=1000 + k), out)
        paths.append(path)
    return paths


def _ids(lake: Path) -> set[str]:
    return {str(row[0]) for row in run_query(lake, "SELECT hand_id FROM hands").rows}


def _on_disk(lake: Path) -> set[str]:
    return {p.relative_to(lake).as_posix() for t in TABLES for p in (lake / t).rglob("*.parquet")}


def test_many_small_inputs_make_a_file_per_table_and_month_and_keep_every_row(
    tmp_path: Path,
) -> None:
    _small_inputs(tmp_path / "in", 40)
    lake = tmp_path / "lake"
    report = run_lake([str(tmp_path / "in")], lake, workers=1)
    assert report.hands == 80
    live = load_manifest(lake).live_files()
    folders = {Path(path).parent for path in live}
    assert len(live) == len(folders)  # one file per table (and month): not 40 of each
    assert report.files == len(live) and set(live) == _on_disk(lake)
    shas = {entry.sha256 for entry in report.inputs}
    for path, entry in live.items():
        assert sum(rows for _, rows in entry.inputs()) == entry.rows
        assert pq.read_metadata(lake / path).num_rows == entry.rows
        if entry.table == "hands":
            assert {sha for sha, _ in entry.inputs()} == shas
    assert len(_ids(lake)) == 80
    seats = run_query(lake, "SELECT count(*) FROM seats").rows[0][0]
    assert seats == run_query(lake, "SELECT sum(n_players) FROM hands").rows[0][0]
    raw = json.loads((lake / MANIFEST).read_text())
    assert all(len(f["parts"]) > 1 for f in raw["runs"][0]["added"] if f["table"] != "rejects")
    assert raw["format"] == 2  # a version from before merged files says it does not know it


def test_a_file_that_needs_no_merging_is_written_as_before(tmp_path: Path) -> None:
    [single] = _small_inputs(tmp_path / "in", 1, hands=5)
    lake = tmp_path / "lake"
    run_lake([str(single)], lake, workers=1)
    raw = json.loads((lake / MANIFEST).read_text())
    assert all("parts" not in f for f in raw["runs"][0]["added"])  # readable by older runs
    assert raw["format"] == 1


def test_replace_of_one_small_input_keeps_the_other_inputs_rows(tmp_path: Path) -> None:
    inputs = _small_inputs(tmp_path / "in", 10)
    lake = tmp_path / "lake"
    run_lake([str(p) for p in inputs], lake, workers=1)
    before = _ids(lake)
    changed = inputs[3]
    old = {h for h in before if h.startswith("GEN-1003-")}
    assert len(old) == 2
    with changed.open("wb") as out:  # the file now holds three other hands
        write_jsonl(generate_hands(3, seed=2003), out)
    report = run_lake([str(changed)], lake, workers=1, replace=True)
    assert report.hands == 3 and report.retired > 0
    after = _ids(lake)
    assert after == (before - old) | {f"GEN-2003-{k}" for k in range(3)}
    assert len(load_manifest(lake).live_files()) <= 2 * len(TABLES)
    assert set(load_manifest(lake).live_files()) == _on_disk(lake)
    again = run_lake([str(p) for p in inputs], lake, workers=1)  # nothing new
    assert again.hands == 0 and _ids(lake) == after


def test_a_grown_small_input_holds_its_old_reject_once(tmp_path: Path) -> None:
    first, second = _small_inputs(tmp_path / "in", 2)
    first.write_bytes(first.read_bytes() + b"{broken\n")
    lake = tmp_path / "lake"
    run_lake([str(first), str(second)], lake, workers=1)
    assert run_query(lake, "SELECT count(*) FROM rejects").rows == [(1,)]
    with first.open("ab") as out:  # the session file grew by one hand
        write_jsonl(generate_hands(1, seed=3000), out)
    report = run_lake([str(first)], lake, workers=1)
    entry = report.inputs[0]
    assert (entry.read, entry.hands, entry.rejects, entry.duplicates) == (4, 1, 0, 3)
    assert run_query(lake, "SELECT count(*) FROM rejects").rows == [(1,)]
