"""The lake end to end: croupier run and croupier query, commits, re-runs, crashes, locks."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shlex
import socket
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app, main
from pipeline.formats import frame_bytes, read_hands
from pipeline.formats.jsonl import read_jsonl, write_jsonl
from pipeline.generate import generate_hands
from pipeline.lake.action_rows import (
    ACTION_INTS,
    ActionRows,
    _add_players,
    _add_step_rows,
    _add_value_rows,
    _Unreplayed,
)
from pipeline.lake.manifest import load_manifest
from pipeline.lake.query import run_query
from pipeline.lake.rows import _minified
from pipeline.lake.schema import TABLES, describe, snapshot
from pipeline.lake.staged import PLAIN, STATISTICS
from pipeline.lake.store import LOCK, LakeLocked, lake_lock
from pipeline.model import HandRecord
from pipeline.reports.explain import explain
from pipeline.rules import get_rule_set, replay
from pipeline.rules.context import STEP_FIELDS, StepValues
from pipeline.run import _Cut, _Made, _stream_tasks, run_lake
from tests.handbuilder import blinds, build, collected, deal, fold, uncalled, with_result
from tests.test_pokerstars_robust import many_hands

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "sample"
runner = CliRunner()
PS_PLO8 = (
    Path(
        os.environ.get("CROUPIER_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus")
    )
    / "pokerstars/fpdb/cash/Stars/Flop/PLO8-6max-USD-0.01-0.02-200911.txt"
)
"""A real PokerStars hand log (PLO8), cut at chosen bytes by the tests of a growing file."""


def _count(lake: Path, table: str) -> int:
    return int(run_query(lake, f"SELECT count(*) FROM {table}").rows[0][0])


def _generated(path: Path, hands: int, seed: int, faults: float = 0.0) -> Path:
    with path.open("wb") as out:
        write_jsonl(generate_hands(hands, seed=seed, faults=faults), out)
    return path


def _live(lake: Path) -> set[str]:
    return set(load_manifest(lake).live_files())


def _on_disk(lake: Path) -> set[str]:
    return {p.relative_to(lake).as_posix() for t in TABLES for p in (lake / t).rglob("*.parquet")}


# ---------------------------------------------------------------------------- schemas


@pytest.mark.parametrize("name", sorted(TABLES))
def test_schema_snapshots_match_the_code(name: str) -> None:
    path = ROOT / "schemas" / "lake" / f"{name}.json"
    assert path.read_text(encoding="utf-8") == snapshot(TABLES[name]), (
        f"schemas/lake/{name}.json differs from pipeline/lake/schema.py: "
        "update the snapshot on purpose and review the diff"
    )


def test_the_readme_documents_every_table_and_column() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- tables:start -->\n", 1)[1].split("<!-- tables:end -->", 1)[0]
    assert section == describe()


# ---------------------------------------------------------------------------- end to end


def test_a_board_run_twice_has_a_pot_row_per_runout_and_its_cards_are_labelled(
    tmp_path: Path,
) -> None:
    """SAMPLE-0012 is run twice: the pot's 41.40 (rake 2.07) is split between the boards as
    settlement splits it (19.67 and 19.66 paid, the odd chip and the odd cent of rake to the
    first); each board's winner is its row's; its cards are the turn and river of their
    board (they were the flop's, where the betting stopped), and the shows the showdown's."""
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES / "special.jsonl")], lake, workers=1)
    pots = run_query(
        lake,
        "SELECT runout, amount, rake_share, high_winners FROM pots WHERE hand_id = ? "
        "ORDER BY runout",
        ["SAMPLE-0012"],
    ).rows
    assert pots == [(1, 1967 + 104, 104, [2]), (2, 1966 + 103, 103, [1])]
    awards = run_query(
        lake,
        "SELECT runout, seat, amount FROM awards WHERE hand_id = ? ORDER BY runout",
        ["SAMPLE-0012"],
    ).rows
    assert awards == [(1, 2, 1967), (2, 1, 1966)]
    steps = run_query(
        lake,
        "SELECT type, street, runout, cards FROM actions WHERE hand_id = ? "
        "AND type IN ('board', 'show') ORDER BY seq",
        ["SAMPLE-0012"],
    ).rows
    assert steps == [
        ("board", "flop", None, "Th8h3c"),
        ("board", "turn", 1, "5h"),
        ("board", "river", 1, "6c"),
        ("board", "turn", 2, "3d"),
        ("board", "river", 2, "8c"),
        ("show", "showdown", None, "TcTs8d7s2d"),
        ("show", "showdown", None, "AhKhQsJd9c"),
    ]
    others = run_query(
        lake, "SELECT count(*) FROM pots WHERE runout > 1 AND hand_id <> ?", ["SAMPLE-0012"]
    )
    assert others.rows == [(0,)]  # a board dealt once: one row per pot


def test_hole_cards_the_log_does_not_show_are_null_and_one_unknown_card_is_marked(
    tmp_path: Path,
) -> None:
    """A seat dealt unknown cards (PHH writes '????????') is null, as a seat with no deal
    line (PokerStars) is; a hand shown in part keeps '??' for each card not shown."""
    actions = [deal(1, "AsKsQsJs"), deal(2, "????????"), deal(3, "Ah??Kd??")]
    hand = build([*blinds(), *actions, fold(3), fold(1), uncalled(2, "0.50")])
    path = tmp_path / "hand.jsonl"
    with path.open("wb") as out:
        write_jsonl([hand], out)
    run_lake([str(path)], tmp_path / "lake", workers=1)
    rows = run_query(tmp_path / "lake", "SELECT seat, hole_cards FROM seats ORDER BY seat").rows
    assert rows == [(1, "AsKsQsJs"), (2, None), (3, "Ah??Kd??")]


def test_won_recorded_is_null_where_the_log_records_no_collection_as_explain_has_it(
    tmp_path: Path,
) -> None:
    """A log whose result has finishing stacks and no collections says nothing of what each
    seat collected: won_recorded is null for every seat (not 0, which would say "collected
    nothing"), as explain's Collected (log) is blank. With collections, a seat that collects
    nothing collected 0."""
    actions = [*blinds(), deal(1, "AsKsQsJs"), deal(2, "2c3c4c5c"), deal(3, "7h8h9hTh")]
    hand = build([*actions, fold(3), fold(1), uncalled(2, "0.50")])
    stacks = {"final_stacks": [{"seat": 1, "amount": "99.50"}, {"seat": 2, "amount": "100.50"}]}
    paid = {"collected": [collected(2, "1.00")]}
    path = tmp_path / "hands.jsonl"
    with path.open("wb") as out:
        write_jsonl([msgspec.structs.replace(with_result(hand, stacks), hand_id="stacks")], out)
        write_jsonl([msgspec.structs.replace(with_result(hand, paid), hand_id="paid")], out)
    run_lake([str(path)], tmp_path / "lake", workers=1)
    rows = run_query(
        tmp_path / "lake", "SELECT hand_id, seat, won_recorded FROM seats ORDER BY hand_id, seat"
    ).rows
    assert rows == [
        ("paid", 1, 0),
        ("paid", 2, 100),
        ("paid", 3, 0),
        ("stacks", 1, None),
        ("stacks", 2, None),
        ("stacks", 3, None),
    ]
    first = next(iter(read_jsonl(path)))
    assert isinstance(first, HandRecord)
    explained = explain(first, get_rule_set("standard")).players
    assert [p.won_recorded for p in explained] == [None, None, None]


def test_run_on_the_samples_then_query_every_table(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    result = runner.invoke(app, ["run", str(SAMPLES), "--out", str(lake), "--workers", "1", "-q"])
    assert result.exit_code == 0, result.stderr
    assert _count(lake, "hands") == 15
    assert _count(lake, "violations") == 0
    assert _count(lake, "rejects") == 0
    players = run_query(lake, "SELECT sum(n_players) FROM hands").rows[0][0]
    assert _count(lake, "seats") == players
    assert _count(lake, "actions") == run_query(lake, "SELECT count(*) FROM actions").rows[0][0]
    # the quartered low of SAMPLE-0007: 10.22 high, 5.11 and 5.10 low, odd cents by the rules
    awards = run_query(
        lake,
        "SELECT half, seat, amount FROM awards WHERE hand_id = ? ORDER BY half, amount DESC",
        ["SAMPLE-0007"],
    ).rows
    assert awards == [("high", 4, 1022), ("low", 5, 511), ("low", 1, 510)]
    # the three-way all-in of SAMPLE-0011: three pots, rake spread 1.80 / 0.90 / 0.30
    pots = run_query(
        lake,
        "SELECT pot_index, amount, rake_share, high_winners FROM pots WHERE hand_id = ? "
        "ORDER BY pot_index",
        ["SAMPLE-0011"],
    ).rows
    assert [(p[0], p[1], p[2]) for p in pots] == [(0, 6000, 180), (1, 3000, 90), (2, 1000, 30)]
    statuses = dict(run_query(lake, "SELECT status, count(*) FROM hands GROUP BY 1").rows)
    assert statuses == {"ok": 14, "void": 1}
    # a low is described in hi/lo games only; a hand with no board has no board text
    lows = "SELECT DISTINCT h.hi_lo FROM seats s JOIN hands h USING (site, hand_id) "
    assert run_query(lake, lows + "WHERE s.low_hand IS NOT NULL").rows == [(True,)]
    sql = "SELECT boards FROM hands WHERE hand_id = 'SAMPLE-0003'"  # a walk
    assert run_query(lake, sql).rows == [([],)]
    text = run_query(lake, "SELECT total_pot FROM hands_money WHERE hand_id = 'SAMPLE-0001'").rows
    assert text == [("112.00",)]
    limits = (
        "SELECT betting, small_bet, big_bet, mixed FROM hands_money WHERE small_bet IS NOT NULL"
    )
    assert run_query(lake, limits).rows == [("fixed-limit", "2.00", "4.00", None)]
    months = {p.parent.name for p in (lake / "hands").rglob("*.parquet")}
    assert months == {"month=2026-01", "month=2026-02"} or all(
        m.startswith("month=") for m in months
    )


def test_a_chunk_of_several_months_is_written_a_file_per_month(tmp_path: Path) -> None:
    """One chunk holds hands of three months (and one with no time): each month's rows of
    every table go to its own partition, and only there."""
    hands = list(generate_hands(8, seed=3))
    months = ["2025-11", "2025-12", "2026-01", "unknown"]
    moved = []
    for k, hand in enumerate(hands):
        start = hand.started_at
        assert start is not None
        if k % 4 < 3:  # the last of each four keeps no time
            start = start.replace(year=2025 + (k % 4 == 2), month=(11, 12, 1)[k % 4])
        moved.append(msgspec.structs.replace(hand, started_at=start if k % 4 < 3 else None))
    source = tmp_path / "months.jsonl"
    with source.open("wb") as out:
        write_jsonl(moved, out)
    lake = tmp_path / "lake"
    report = run_lake([str(source)], lake, workers=1)
    assert report.hands == 8
    for table in ("hands", "seats", "actions", "pots", "awards"):
        folders = sorted(p.parent.name for p in (lake / table).rglob("*.parquet"))
        assert folders == [f"month={m}" for m in sorted(months)], table
        for path in (lake / table).rglob("*.parquet"):
            written = set(pq.read_table(path, columns=["month"])["month"].to_pylist())
            assert written == {path.parent.name.removeprefix("month=")}, (table, path)
    per_month = dict(run_query(lake, "SELECT month, count(*) FROM hands GROUP BY 1").rows)
    assert per_month == dict.fromkeys(months, 2)
    seats = run_query(lake, "SELECT count(*) FROM seats").rows[0][0]
    assert seats == sum(len(hand.seats) for hand in hands)


def _arrow_pool(setting: str | None, code: str) -> str:
    """Run ``code`` in a new Python with ``ARROW_DEFAULT_MEMORY_POOL`` set to ``setting``
    (unset: ``None``); return what it prints (the pool it reports)."""
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    if setting is not None:
        env["ARROW_DEFAULT_MEMORY_POOL"] = setting
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.parametrize(("setting", "pool"), [(None, "system"), ("mimalloc", "mimalloc")])
def test_a_chunk_task_has_arrow_allocate_with_malloc_unless_told(
    setting: str | None, pool: str
) -> None:
    """A task switches Arrow to the C library's allocator, unless the environment chose one."""
    code = (
        "import pyarrow as pa, pipeline.task as r; "
        "r._use_system_allocator(); print(pa.default_memory_pool().backend_name)"
    )
    assert _arrow_pool(setting, code) == pool


@pytest.mark.parametrize(("setting", "pool"), [(None, "system"), ("mimalloc", "mimalloc")])
def test_importing_pipeline_first_gives_arrow_malloc_unless_told(
    setting: str | None, pool: str
) -> None:
    """Arrow's C++ code allocates with malloc when pipeline is imported before pyarrow (as
    the croupier command does), unless the environment chose another allocator."""
    code = "import pipeline, pyarrow as pa; print(pa.default_memory_pool().backend_name)"
    assert _arrow_pool(setting, code) == pool


def test_a_mixed_games_name_is_in_the_hands_table(tmp_path: Path) -> None:
    hand = json.loads((SAMPLES / "limit.jsonl").read_text(encoding="utf-8").splitlines()[0])
    hand["game"]["mixed"] = "Mixed PLO/PLO8"
    log = tmp_path / "mixed.jsonl"
    log.write_text(json.dumps(hand) + "\n", encoding="utf-8")
    run_lake([str(log)], tmp_path / "lake", workers=1)
    rows = run_query(tmp_path / "lake", "SELECT mixed, small_bet, big_bet FROM hands").rows
    assert rows == [("Mixed PLO/PLO8", 200, 400)]


def test_a_rerun_is_a_no_op_and_replace_replaces(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    first = run_lake([str(SAMPLES)], lake, workers=1)
    files = _live(lake)
    assert first.hands == 15 and first.files == len(files)
    again = run_lake([str(SAMPLES)], lake, workers=1)
    assert again.hands == 0
    assert len(again.skipped) == 5
    assert _live(lake) == files
    assert _count(lake, "hands") == 15
    replaced = run_lake([str(SAMPLES / "plo.jsonl")], lake, workers=1, replace=True)
    assert replaced.hands == 5 and replaced.retired > 0
    assert _count(lake, "hands") == 15
    assert _live(lake) == _on_disk(lake)  # retired files are gone from disk too
    assert len(load_manifest(lake).runs) == 3


def test_worker_processes_start_early_only_for_an_input_sure_to_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forkserver is started before hashing only when an input is new for sure (a size
    the lake has not seen, --replace, stdin); a re-run of ingested files starts nothing."""
    import pipeline.run

    started: list[bool] = []
    monkeypatch.setattr(pipeline.run, "start_forkserver", lambda: started.append(True))
    lake = tmp_path / "lake"
    log = tmp_path / "plo.jsonl"
    log.write_bytes((SAMPLES / "plo.jsonl").read_bytes())
    assert run_lake([str(log)], lake, workers=2).hands == 5
    assert started == [True]  # a lake with no input yet: every input is new
    started.clear()
    again = run_lake([str(log)], lake, workers=2)
    assert (again.hands, len(again.skipped), started) == (0, 1, [])
    run_lake([str(log)], lake, workers=1, replace=True)
    assert started == []  # one worker: this process, no forkserver
    grown = tmp_path / "grown.jsonl"  # same bytes and one more line: another size
    grown.write_bytes(log.read_bytes() + (SAMPLES / "hilo.jsonl").read_bytes().splitlines(True)[0])
    assert run_lake([str(log), str(grown)], lake, workers=2).hands == 1
    assert started == [True]


def test_hands_already_in_the_lake_are_duplicates_and_every_hand_is_accounted(
    tmp_path: Path,
) -> None:
    lake = tmp_path / "lake"
    log = _generated(tmp_path / "session.jsonl", 40, seed=8)
    run_lake([str(log)], lake, workers=1)
    grown = (
        log.read_bytes()
        + b"\n".join(_generated(tmp_path / "more.jsonl", 50, seed=8).read_bytes().splitlines()[40:])
        + b"\n{broken\n"
    )
    log.write_bytes(grown)  # the session file grew: 10 new hands and a broken line
    report = run_lake([str(log)], lake, workers=1)
    entry = report.inputs[0]
    assert (entry.read, entry.hands, entry.duplicates, entry.rejects) == (51, 10, 40, 1)
    assert entry.read == entry.hands + entry.duplicates + entry.rejects
    assert _count(lake, "hands") == 50
    assert run_query(lake, "SELECT count(DISTINCT hand_id) FROM hands").rows == [(50,)]
    assert run_query(lake, "SELECT code, line FROM rejects").rows == [("malformed-json", 51)]
    # the summary counts the hands written, not the 40 dropped as duplicates
    sql = "SELECT status, count(*) FROM hands WHERE run_id = ? GROUP BY 1"
    assert dict(run_query(lake, sql, [report.run_id]).rows) == dict(report.statuses)
    assert sum(report.statuses.values()) == sum(report.payouts.values()) == 10
    sql = "SELECT count(*) FROM violations JOIN hands USING (site, hand_id) WHERE run_id = ?"
    assert run_query(lake, sql, [report.run_id]).rows == [(sum(report.codes.values()),)]


def test_a_hand_cut_in_the_lake_and_whole_in_a_grown_file_is_said_and_replace_takes_it(
    tmp_path: Path,
) -> None:
    """A session file read while its last hand was being written: that hand is partial in
    the lake. Read again grown, the whole hand is a duplicate the summary counts apart;
    with --replace the earlier version's rows are retired and the whole hand is taken."""
    lake = tmp_path / "lake"
    full = _generated(tmp_path / "full.jsonl", 6, seed=4).read_bytes().splitlines()
    cut = json.loads(full[2])
    cut["actions"] = cut["actions"][:6]
    cut["partial"] = True
    cut.pop("result", None)
    log = tmp_path / "session.jsonl"
    log.write_bytes(b"\n".join([*full[:2], json.dumps(cut).encode()]) + b"\n")
    first = run_lake([str(log)], lake, workers=1)
    assert (first.hands, first.statuses["partial"]) == (3, 1)
    log.write_bytes(b"\n".join(full) + b"\n")  # the file grew: the hand is whole, and more
    grown = run_lake([str(log)], lake, workers=1)
    assert (grown.hands, grown.duplicates, grown.completed) == (3, 3, 1)
    result = runner.invoke(app, ["run", str(log), "--out", str(lake)])
    assert result.exit_code == 0  # a third run of the same bytes is skipped
    again = runner.invoke(app, ["run", str(log), "--out", str(lake), "--replace"])
    assert again.exit_code == 0, again.output
    statuses = dict(run_query(lake, "SELECT status, count(*) FROM hands GROUP BY 1").rows)
    assert statuses == {"ok": 6}
    assert _live(lake) == _on_disk(lake)


def test_the_run_summary_says_when_a_partial_hand_in_the_lake_is_whole_in_an_input(
    tmp_path: Path,
) -> None:
    lake = tmp_path / "lake"
    full = _generated(tmp_path / "full.jsonl", 2, seed=4).read_bytes().splitlines()
    cut = json.loads(full[1])
    cut["actions"], cut["partial"] = cut["actions"][:6], True
    cut.pop("result", None)
    (tmp_path / "early.jsonl").write_bytes(json.dumps(cut).encode() + b"\n")
    (tmp_path / "late.jsonl").write_bytes(full[1] + b"\n")
    runner.invoke(app, ["run", str(tmp_path / "early.jsonl"), "--out", str(lake)])
    result = runner.invoke(app, ["run", str(tmp_path / "late.jsonl"), "--out", str(lake)])
    assert result.exit_code == 0
    assert "1 hand the lake holds as cut (partial, or its line a reject) is whole" in (
        " ".join(result.output.split())
    )
    summary = runner.invoke(
        app, ["run", str(tmp_path / "late.jsonl"), "--out", str(lake), "--format", "json"]
    )
    assert json.loads(summary.stdout)["completed_partials"] == 0  # skipped: already read


def _cut_and_whole(tmp_path: Path) -> tuple[Path, Path]:
    """Write two files: one with a hand cut short (partial), one with the same hand whole."""
    full = _generated(tmp_path / "full.jsonl", 3, seed=4).read_bytes().splitlines()
    cut = json.loads(full[1])
    cut["actions"], cut["partial"] = cut["actions"][:6], True
    cut.pop("result", None)
    early, late = tmp_path / "early.jsonl", tmp_path / "late.jsonl"
    early.write_bytes(b"\n".join([full[0], json.dumps(cut).encode()]) + b"\n")
    late.write_bytes(b"\n".join(full) + b"\n")
    return early, late


@pytest.mark.parametrize("chunk_hands", [1, 1000])  # the two copies in two chunks, or one
def test_a_hand_one_run_reads_cut_then_whole_is_said_and_replace_in_order_takes_it(
    tmp_path: Path, chunk_hands: int
) -> None:
    early, late = _cut_and_whole(tmp_path)
    lake = tmp_path / "lake"
    if chunk_hands == 1000:  # one input, so one chunk: the cut copy, then the whole one
        both = tmp_path / "both.jsonl"
        both.write_bytes(early.read_bytes() + late.read_bytes())
        report = run_lake([str(both)], lake, workers=1, chunk_hands=chunk_hands)
    else:
        report = run_lake([str(early), str(late)], lake, workers=1, chunk_hands=chunk_hands)
    assert (report.hands, report.duplicates, report.completed) == (3, 2, 1)
    statuses = dict(run_query(lake, "SELECT status, count(*) FROM hands GROUP BY 1").rows)
    assert statuses == {"ok": 2, "partial": 1}  # the first copy is kept, and said
    if chunk_hands == 1000:
        return
    # what the summary advises: the files with the whole hands first, then the others
    again = run_lake([str(late), str(early)], lake, workers=1, replace=True)
    assert (again.hands, again.duplicates, again.completed) == (3, 2, 0)
    statuses = dict(run_query(lake, "SELECT status, count(*) FROM hands GROUP BY 1").rows)
    assert statuses == {"ok": 3}


def test_a_hand_read_whole_twice_after_its_cut_copy_is_counted_once(tmp_path: Path) -> None:
    early, late = _cut_and_whole(tmp_path)
    lake = tmp_path / "lake"
    run_lake([str(early)], lake, workers=1)
    twice = tmp_path / "twice.jsonl"
    twice.write_bytes(late.read_bytes() * 2)
    report = run_lake([str(twice), str(late)], lake, workers=1, chunk_hands=2)
    assert report.completed == 1
    # a whole copy first, the cut one after it: nothing to complete
    other = run_lake([str(late), str(early)], tmp_path / "other", workers=1)
    assert (other.hands, other.duplicates, other.completed) == (3, 2, 0)


def test_a_crash_before_the_commit_leaves_the_lake_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES / "plo.jsonl")], lake, workers=1)
    before = (lake / "_manifest.json").read_bytes()
    rows_before = run_query(lake, "SELECT site, hand_id FROM hands ORDER BY 2").rows

    def crash(*_: object) -> None:
        raise RuntimeError("simulated crash before the commit")

    monkeypatch.setattr("pipeline.run.write_manifest", crash)
    log = _generated(tmp_path / "more.jsonl", 300, seed=4)
    with pytest.raises(RuntimeError, match="simulated crash"):
        run_lake([str(log)], lake, workers=1, chunk_hands=100)
    assert (lake / "_manifest.json").read_bytes() == before
    assert run_query(lake, "SELECT site, hand_id FROM hands ORDER BY 2").rows == rows_before
    assert _on_disk(lake) - _live(lake), "the crashed run left files behind (invisible)"
    monkeypatch.undo()
    report = run_lake([str(log)], lake, workers=1, chunk_hands=100)
    assert report.hands == 300
    assert _count(lake, "hands") == 305
    assert _on_disk(lake) == _live(lake)  # the leftovers were cleaned
    assert not (lake / "_staging").exists()


def test_a_failed_run_into_a_new_lake_leaves_no_folder_and_an_old_lake_as_it_was(
    tmp_path: Path,
) -> None:
    missing = str(tmp_path / "missing.jsonl")
    new = tmp_path / "new" / "deep" / "lake"
    assert main(["run", missing, "--out", str(new), "--quiet"]) == 3
    assert not (tmp_path / "new").exists()  # nor the folders made for it
    old = tmp_path / "old"
    run_lake([str(SAMPLES)], old, workers=1)
    before = sorted(p.relative_to(old).as_posix() for p in old.rglob("*"))
    assert main(["run", missing, "--out", str(old), "--quiet"]) == 3
    assert sorted(p.relative_to(old).as_posix() for p in old.rglob("*")) == before


def test_a_run_refused_the_lock_of_a_lake_it_saw_as_new_removes_nothing(tmp_path: Path) -> None:
    """Two runs start on a new --out: the one refused the lock must not remove the folder
    the other is working in."""
    lake = tmp_path / "lake"
    made = _Made(lake)  # the folder did not exist when this run looked
    lake.mkdir()
    (lake / LOCK).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    (lake / "_staging").mkdir()  # the other run's work
    with (
        pytest.raises(LakeLocked),
        made.removed_if_emptied(),
        lake_lock(lake),
        made.emptied_on_failure(),
    ):
        pass
    assert sorted(p.name for p in lake.iterdir()) == [LOCK, "_staging"]


def test_a_second_run_is_refused_while_one_holds_the_lock(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    lake.mkdir()
    (lake / LOCK).write_text(json.dumps({"pid": os.getpid(), "host": os.uname().nodename}))
    with pytest.raises(LakeLocked, match="locked by another run"):
        run_lake([str(SAMPLES)], lake, workers=1)
    result = runner.invoke(app, ["run", str(SAMPLES), "--out", str(lake), "-q"])
    assert result.exit_code == 3
    assert "locked" in result.stderr
    assert not (lake / "_manifest.json").exists()


def test_a_lock_left_by_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    lake.mkdir()
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    (lake / LOCK).write_text(json.dumps({"pid": int(gone.stdout), "host": os.uname().nodename}))
    assert run_lake([str(SAMPLES)], lake, workers=1).hands == 15
    assert not (lake / LOCK).exists()


def test_a_lake_named_as_a_file_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pipeline.cli import main

    log = tmp_path / "hands.jsonl"
    log.write_bytes((SAMPLES / "plo.jsonl").read_bytes())
    assert main(["run", str(SAMPLES / "hilo.jsonl"), "--out", str(log), "-q"]) == 3
    said = capsys.readouterr().err
    assert (
        said == f"error: a lake is a folder, and this is a file (name a folder with --out): {log}\n"
    )
    assert log.read_bytes() == (SAMPLES / "plo.jsonl").read_bytes()


def test_stdin_and_json_summary(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    data = (SAMPLES / "hilo.jsonl").read_bytes()
    result = runner.invoke(app, ["run", "-", "--out", str(lake), "--format", "json"], input=data)
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["hands"] == 2
    assert summary["inputs"][0]["path"] == "-"
    assert len(summary["inputs"][0]["sha256"]) == 64
    manifest = load_manifest(lake)
    assert {f.input for f in manifest.runs[0].added} == {summary["inputs"][0]["sha256"]}


def test_the_summary_says_how_to_list_the_rejects_and_csv_writes_sql_booleans(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"hand_id": 1}\nnot json\n' + (SAMPLES / "plo.jsonl").read_bytes())
    lake = tmp_path / "lake"
    result = runner.invoke(app, ["run", str(bad), "--out", str(lake)], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.stderr
    assert "rejects (input that is not a hand)" in result.stderr
    [hint] = [line for line in result.stderr.splitlines() if line.startswith("the rejects:")]
    command = shlex.split(hint.removeprefix("the rejects: "))
    assert command[:2] == ["croupier", "query"] and command[3:] == ["--lake", str(lake)]
    listed = runner.invoke(app, [*command[1:], "--format", "csv"])
    assert listed.stdout.splitlines() == [
        "source,line,code,message",
        f'{bad},1,schema-violation,"Expected `str`, got `int` - at `$.hand_id`"',
        f"{bad},2,malformed-json,JSON is malformed: invalid character (byte 4); a hand log line "
        "is one JSON object (is this file a hand log?)",
    ]
    flags = runner.invoke(
        app,
        [
            "query",
            "SELECT payouts_match, cash_out FROM hands LIMIT 1",
            "--lake",
            str(lake),
            "--format",
            "csv",
        ],
    )
    assert flags.stdout == "payouts_match,cash_out\ntrue,false\n"


def test_stdin_pokerstars_is_detected_counted_and_hashed(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    data = many_hands(40)  # PokerStars text, no --input-format: detected from its first bytes
    args = ["run", "-", "--out", str(lake), "--format", "json", "--workers", "1"]
    result = runner.invoke(app, args, input=data)
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    [given] = summary["inputs"]
    assert (summary["hands"], summary["rejects"], summary["duplicates"]) == (40, 0, 0)
    assert (given["path"], given["read"], given["size"]) == ("-", 40, len(data))
    assert given["sha256"] == hashlib.sha256(data).hexdigest()
    assert _count(lake, "hands") == 40
    assert {f.input for f in load_manifest(lake).runs[0].added} == {given["sha256"]}
    again = runner.invoke(app, [*args, "--input-format", "pokerstars"], input=data)
    assert again.exit_code == 0, again.stderr
    assert (json.loads(again.stdout)["hands"], json.loads(again.stdout)["duplicates"]) == (0, 40)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("sign_at", [None, 0, 37])
def test_pokerstars_hands_are_read_in_the_tasks_and_marked_as_their_file(
    tmp_path: Path, sign_at: int | None, workers: int
) -> None:
    # The tasks read their own hands (chunks of 5 here): a converter's sign in the hand of
    # one chunk marks every hand of the file converted, as reading the file whole does.
    path = tmp_path / "long.txt"
    path.write_bytes(many_hands(40, sign_at))
    lake = tmp_path / "lake"
    report = run_lake([str(path)], lake, workers=workers, chunk_hands=5)
    [given] = report.inputs
    assert (given.read, given.hands, given.rejects) == (40, 40, 0)
    flags = run_query(lake, "SELECT converted, count(*) FROM hands GROUP BY 1").rows
    assert flags == [(sign_at is not None, 40)]
    whole = [h for h in read_hands(path) if isinstance(h, HandRecord)]
    lines = run_query(lake, "SELECT line FROM hands ORDER BY line").rows
    assert [line for (line,) in lines] == [h.line for h in whole]


@pytest.mark.parametrize("fmt", ["jsonl", "pokerstars"])
def test_a_task_carries_few_hands_when_they_are_large(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tasks are cut at CHUNK_HANDS hands or TASK_BYTES of their text, whichever comes first:
    # memory stays flat whatever the hands' sizes (the budget is small here: a few hands)
    monkeypatch.setattr("pipeline.run.TASK_BYTES", 5_000)
    if fmt == "jsonl":
        out = io.BytesIO()
        write_jsonl(generate_hands(40, seed=4), out)
        data = out.getvalue()
    else:
        data = many_hands(40)
    cut = _Cut("r", get_rule_set("standard"), "staging", 1000, 0)
    tasks = list(_stream_tasks(io.BytesIO(data), fmt, "in", "0" * 64, cut))
    assert sum(len(t.lines) + len(t.frames) for t in tasks) == 40 and len(tasks) > 5
    for task in tasks:  # a task is cut once its text reaches the budget, not before
        held = [len(body) for _, body, _ in task.lines] or [
            frame_bytes(fmt, frame) for frame in task.frames
        ]
        assert sum(held[:-1]) < 5_000
        assert task is tasks[-1] or sum(held) >= 5_000
    assert [t.task_id for t in tasks] == list(range(len(tasks)))


def test_a_hand_beyond_the_limits_still_marks_its_file_converted(tmp_path: Path) -> None:
    # its converter's sign (a thousands separator) is read before its stack makes it a reject
    hands = many_hands(3).split(b"\n\n\n")
    huge = b"Seat 1: Alice ($10,000,000,000,000,000 in chips)"
    hands[1] = hands[1].replace(b"Seat 1: Alice ($10 in chips)", huge)
    path = tmp_path / "three.txt"
    path.write_bytes(b"\n\n\n".join(hands))
    report = run_lake([str(path)], tmp_path / "lake", workers=1, chunk_hands=1)
    [given] = report.inputs
    assert (given.hands, given.rejects) == (2, 1)
    flags = run_query(tmp_path / "lake", "SELECT converted FROM hands").rows
    assert flags == [(True,), (True,)]
    whole = [h.converted for h in read_hands(path) if isinstance(h, HandRecord)]
    assert whole == [True, True]


@pytest.mark.parametrize("name", ["phh/extensions.phhs", "ohh/omaha_pl.ohh"])
def test_hands_are_read_in_the_tasks_as_the_reader_reads_them(tmp_path: Path, name: str) -> None:
    path = ROOT / "tests" / "fixtures" / name
    whole = list(read_hands(path))
    report = run_lake([str(path)], tmp_path / "lake", workers=2, chunk_hands=1)
    [given] = report.inputs
    assert (given.read, given.hands) == (len(whole), len(whole))
    ids = run_query(tmp_path / "lake", "SELECT hand_id FROM hands ORDER BY line").rows
    assert [i for (i,) in ids] == [h.hand_id for h in whole if isinstance(h, HandRecord)]


def test_stdin_in_another_format_is_cut_into_chunks_and_hashed_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (ROOT / "tests" / "fixtures" / "phh" / "extensions.phhs").read_bytes() * 3
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    report = run_lake(["-"], tmp_path / "lake", workers=1, chunk_hands=2)
    [given] = report.inputs
    assert (given.read, given.hands, given.duplicates) == (9, 3, 6)
    assert (given.sha256, given.size) == (hashlib.sha256(data).hexdigest(), len(data))


def test_two_workers_write_the_same_lake_as_one(tmp_path: Path) -> None:
    log = _generated(tmp_path / "hands.jsonl", 1500, seed=12, faults=0.2)
    one, two = tmp_path / "one", tmp_path / "two"
    run_lake([str(log)], one, workers=1, chunk_hands=400)
    run_lake([str(log)], two, workers=2, chunk_hands=400)
    for table in TABLES:
        order = "ORDER BY ALL"
        columns = [c for c in TABLES[table].names if c != "run_id"]
        sql = f"SELECT {', '.join(columns)} FROM {table} {order}"
        assert run_query(one, sql).rows == run_query(two, sql).rows, table
    assert _count(one, "hands") == 1500


def test_a_chunk_judged_in_small_batches_writes_the_same_lake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A task judges its hands a batch at a time; the batches' rows, rejects and duplicates
    add up to what one batch of the whole chunk gives."""
    log = _generated(tmp_path / "hands.jsonl", 300, seed=21, faults=0.2)
    lines = log.read_bytes().splitlines(keepends=True)
    broken = [b'{"not": "a hand"}\n', b"{cut\n"]  # rejects among the batches
    log.write_bytes(b"".join(lines[:150] + broken + lines[150:] + lines[:40]))  # and repeats
    whole, batched = tmp_path / "whole", tmp_path / "batched"
    first = run_lake([str(log)], whole, workers=1, chunk_hands=1000)
    monkeypatch.setattr("pipeline.task.BATCH_HANDS", 7)
    second = run_lake([str(log)], batched, workers=1, chunk_hands=1000)
    counts = [(i.read, i.hands, i.rejects, i.duplicates) for i in first.inputs]
    assert counts == [(i.read, i.hands, i.rejects, i.duplicates) for i in second.inputs]
    assert counts[0][1] > 0 and counts[0][2] > 0 and counts[0][3] >= 40
    for table in TABLES:
        columns = [c for c in TABLES[table].names if c != "run_id"]
        sql = f"SELECT {', '.join(columns)} FROM {table} ORDER BY ALL"
        assert run_query(whole, sql).rows == run_query(batched, sql).rows, table


def test_files_are_few_and_partitioned_by_month(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    log = _generated(tmp_path / "hands.jsonl", 2000, seed=2)
    run_lake([str(log)], lake, workers=1)
    hands_files = sorted((lake / "hands").rglob("*.parquet"))
    assert 1 <= len(hands_files) <= 4
    assert all(p.parent.name.startswith("month=") for p in hands_files)
    assert sum(pq.read_metadata(p).num_rows for p in hands_files) == 2000


def test_dictionaries_and_statistics_of_the_written_columns(tmp_path: Path) -> None:
    # the 64-bit integers (money, line numbers) and the PLAIN columns (hand ids, cards:
    # mostly distinct) are written plain; every other column, lists' values included, with
    # a dictionary (but flags: Parquet has none for booleans, which it packs in bits); only
    # the STATISTICS columns have min/max statistics
    # the second run's file repeats the first's hands: its staged files are written again
    # without them (drop_hands), the same way; a broken line makes a rejects file
    lake = tmp_path / "lake"
    every = _generated(tmp_path / "hands.jsonl", 300, seed=4)
    first = tmp_path / "first.jsonl"
    first.write_bytes(b"".join(every.read_bytes().splitlines(keepends=True)[:200]))
    run_lake([str(first)], lake, workers=1)
    with every.open("ab") as out:
        out.write(b"not a hand\n")
    report = run_lake([str(every)], lake, workers=1)
    assert (report.duplicates, report.rejects) == (200, 1)
    seen: set[str] = set()
    for name, schema in TABLES.items():
        for path in (lake / name).rglob("*.parquet"):
            meta = pq.read_metadata(path)
            columns = [meta.row_group(0).column(i) for i in range(meta.num_columns)]
            plain = {c.path_in_schema.split(".")[0] for c in columns}
            plain -= {
                c.path_in_schema.split(".")[0] for c in columns if "RLE_DICTIONARY" in c.encodings
            }
            expected = {
                f.name for f in schema if f.type in (pa.int64(), pa.bool_()) or f.name in PLAIN
            }
            assert plain == expected & set(meta.schema.to_arrow_schema().names), (name, plain)
            with_range = {
                c.path_in_schema.split(".")[0]
                for c in columns
                if c.statistics is not None and c.statistics.has_min_max
            }
            assert with_range <= STATISTICS, (name, with_range - STATISTICS)
            if name != "rejects":  # a reject has no site or month, and may have no hand id
                assert {"site", "hand_id", "month"} <= with_range, name
            seen.add(name)
    assert {"hands", "seats", "actions", "pots", "awards", "rejects"} <= seen
    # a file's range of hand ids is its hands' (a lookup by hand skips the other files)
    for path in (lake / "actions").rglob("*.parquet"):
        meta = pq.read_metadata(path)
        index = meta.schema.to_arrow_schema().names.index("hand_id")
        stats = meta.row_group(0).column(index).statistics
        ids = pq.read_table(path, columns=["hand_id"])["hand_id"].to_pylist()
        assert (stats.min, stats.max) == (min(ids), max(ids))


# ---------------------------------------------------------------------------- query


def test_query_formats_parameters_and_errors(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES)], lake, workers=1)
    csv_out = runner.invoke(
        app,
        [
            "query",
            "SELECT hand_id, variant FROM hands WHERE hand_id = ?",
            "--param",
            "SAMPLE-0009",
            "--lake",
            str(lake),
            "--format",
            "csv",
        ],
    )
    assert csv_out.exit_code == 0
    assert csv_out.stdout == "hand_id,variant\nSAMPLE-0009,courchevel\n"
    json_out = runner.invoke(
        app, ["query", "SELECT count(*) AS n FROM hands", "--lake", str(lake), "--format", "json"]
    )
    assert json.loads(json_out.stdout) == [{"n": 15}]
    target = tmp_path / "out.csv"
    runner.invoke(
        app, ["query", "SELECT 1 AS one", "--lake", str(lake), "--format", "csv", "-o", str(target)]
    )
    assert target.read_text() == "one\n1\n"
    injected = runner.invoke(
        app,
        [
            "query",
            "SELECT count(*) FROM seats WHERE player = ?",
            "-p",
            "x' OR '1'='1",
            "--lake",
            str(lake),
            "--format",
            "csv",
        ],
    )
    assert injected.stdout.splitlines()[1] == "0"  # a bound value, never SQL
    for sql, given in (("SELECT 1", ["-p", "x"]), ("SELECT ? + 1", [])):
        miscount = runner.invoke(app, ["query", sql, *given, "--lake", str(lake)])
        assert miscount.exit_code == 2
        assert f"(one --param per ?: {len(given) // 2} given)" in miscount.stderr
        assert "cast them" not in miscount.stderr  # a count, not a type
    bad = runner.invoke(app, ["query", "SELEKT nothing", "--lake", str(lake)])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: SQL:")
    assert len(bad.stderr.strip().splitlines()) == 1
    none = runner.invoke(app, ["query", "SELECT 1", "--lake", str(tmp_path / "nowhere")])
    assert none.exit_code == 3
    assert "no lake" in none.stderr


@pytest.mark.parametrize(
    ("amount", "scale", "text"),
    [(5, 2, "0.05"), (-105, 2, "-1.05"), (1500, 0, "1500"), (123456, 3, "123.456"), (0, 2, "0.00")],
)
def test_money_text_macro_is_exact(tmp_path: Path, amount: int, scale: int, text: str) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES / "hilo.jsonl")], lake, workers=1)
    assert run_query(lake, "SELECT money_text(?::BIGINT, ?)", [amount, scale]).rows == [(text,)]


def test_a_lake_written_before_a_column_existed_still_reads(tmp_path: Path) -> None:
    """Files of an older release lack the newer columns: they read as NULL, views still bind."""
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES)], lake, workers=1)
    for path in (lake / "seats").rglob("*.parquet"):
        table = pq.read_table(path)
        pq.write_table(table.drop_columns(["vpip", "vpip_opp", "pfr"]), path)
    assert run_query(lake, "SELECT count(*), count(vpip) FROM seats").rows == [
        (_count(lake, "seats"), 0)
    ]
    assert run_query(lake, "SELECT sum(vpip) FROM player_stats").rows == [(0,)]


def test_a_chunk_may_hold_more_sites_than_an_int8_dictionary_counts(tmp_path: Path) -> None:
    """Sites and currencies are open vocabularies: 200 in one chunk must not overflow."""
    first = (SAMPLES / "plo.jsonl").read_text(encoding="utf-8").splitlines()[0]
    lines = []
    for k in range(200):
        hand = json.loads(first)
        hand["site"] = f"Room{k}"
        lines.append(json.dumps(hand))
    source = tmp_path / "rooms.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = run_lake([str(source)], tmp_path / "lake", workers=1)
    assert report.hands == 200
    rows = run_query(tmp_path / "lake", "SELECT count(DISTINCT site) FROM hands").rows
    assert rows == [(200,)]


def test_json_summary_survives_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    name = os.path.join(folder, b"caf\xe9.jsonl")
    with open(name, "wb") as out:
        out.write((SAMPLES / "plo.jsonl").read_bytes())
    args = ["--out", str(tmp_path / "lake"), "--format", "json", "--workers", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "run", os.fsdecode(name), *args],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    summary = json.loads(done.stdout)
    assert summary["hands"] == 5
    assert summary["executor"] == "local"
    assert summary["inputs"][0]["path"].endswith("caf\ufffd.jsonl")


def test_the_actions_columns_follow_the_fields_of_a_step() -> None:
    # _add_step_rows writes a step's fields by position, in this order: a field added to
    # Step or moved changes ACTION_INTS (made from Step's fields) and must be written there
    written = "seq street seat type amount to_amount pot_before stack_before to_call min_to"
    order = (*written.split(), "max_to", "all_in", "runout", "player")
    assert order == ACTION_INTS
    assert STEP_FIELDS[-1] == "codes"  # joined, as the violation column
    assert {*ACTION_INTS, "cards", "violation"} <= set(TABLES["actions"].names)


def test_steps_read_field_by_field_give_the_columns_of_their_values() -> None:
    # a whole replay's rows are read from its steps' fields; one with an action the replay
    # did not reach, from every step's values: the two give the same columns
    hands = list(generate_hands(200, seed=23, faults=0.3))
    judged = [replay(hand) for hand in hands]
    steps = [s for j in judged for s in j.steps]
    assert any(s.seat is None for s in steps) and any(s.codes for s in steps)
    assert any(s.min_to is None for s in steps) and any(s.min_to is not None for s in steps)
    assert any(s.all_in for s in steps) and any(a.run is not None for h in hands for a in h.actions)
    by_fields, by_values = ActionRows(), ActionRows()
    for hand, j in zip(hands, judged, strict=True):
        players = _add_players(by_fields.names, hand)
        assert _add_players(by_values.names, hand) == players
        _add_step_rows(by_fields.values, by_fields.notes, j.steps, hand.actions, players)
        values: list[StepValues | _Unreplayed] = [s.values() for s in j.steps]
        _add_value_rows(by_values.values, by_values.notes, values, hand.actions, players)
    schema = TABLES["actions"]
    ours, theirs = by_fields.columns(schema), by_values.columns(schema)
    assert ours.keys() == theirs.keys() and len(ours["seq"]) == len(steps)
    for name, column in ours.items():
        assert column.equals(theirs[name]), name
    assert ours["street"].type == schema.field("street").type
    assert ours["all_in"].to_pylist().count(True) == sum(s.all_in for s in steps)
    players_of: list[str | None] = []
    for hand, j in zip(hands, judged, strict=True):
        seated = {s.seat: s.player for s in hand.seats}
        players_of += [None if s.seat is None else seated.get(s.seat) for s in j.steps]
    assert ours["player"].to_pylist() == players_of
    coded = [",".join(s.codes) if s.codes else None for s in steps]
    assert ours["violation"].to_pylist() == coded and any(coded)


def test_hands_by_variant_counts_hands_with_errors_and_errors_apart(tmp_path: Path) -> None:
    log = tmp_path / "faulty.jsonl"
    with log.open("wb") as out:
        write_jsonl(generate_hands(300, seed=5, faults=0.5), out)
    run_lake([str(log)], tmp_path / "lake", workers=1)
    [(with_errors, errors)] = run_query(
        tmp_path / "lake", "SELECT sum(hands_with_errors), sum(errors) FROM hands_by_variant"
    ).rows
    [(direct_hands, direct_errors)] = run_query(
        tmp_path / "lake",
        "SELECT count(*) FILTER (WHERE n_errors > 0), sum(n_errors) FROM hands",
    ).rows
    assert (with_errors, errors) == (direct_hands, direct_errors)
    assert 0 < with_errors < errors  # some hands have more than one error


def test_a_result_too_wide_for_a_table_is_shown_one_record_per_block(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLES)], lake, workers=1)
    sql = "SELECT * FROM seats WHERE hand_id = ? ORDER BY seat"
    wide = runner.invoke(app, ["query", sql, "--param", "SAMPLE-0001", "--lake", str(lake)])
    assert wide.exit_code == 0
    lines = wide.stdout.splitlines()
    assert lines[0] == "── record 1 ──"
    assert lines[1].split() == ["site", "SampleRoom"]
    assert lines[2].split() == ["hand_id", "SAMPLE-0001"]
    columns = len(TABLES["seats"].names)
    seats = run_query(lake, "SELECT count(*) FROM seats WHERE hand_id = 'SAMPLE-0001'").rows[0][0]
    assert len(lines) == seats * (columns + 1)  # every value of every row, none cut
    narrow = runner.invoke(app, ["query", "SELECT count(*) AS n FROM seats", "--lake", str(lake)])
    assert "┃ n " in narrow.stdout  # a table when it fits


def test_an_invalid_hand_s_total_pot_is_the_chips_put_in_and_sites_count_apart(
    tmp_path: Path,
) -> None:
    lake = tmp_path / "lake"
    log = _generated(tmp_path / "faults.jsonl", 400, seed=7, faults=0.3)
    twin = tmp_path / "twin.jsonl"  # the same hands at another site
    twin.write_text(log.read_text().replace('"site":"Croupier Generator"', '"site":"Twin"'))
    run_lake([str(log), str(twin)], lake, workers=1)
    sql = (
        "SELECT h.status, count(*) FROM hands h JOIN (SELECT site, hand_id, sum(invested) AS "
        "invested FROM seats GROUP BY ALL) s USING (site, hand_id) "
        "WHERE h.total_pot = s.invested GROUP BY 1"
    )
    matching = dict(run_query(lake, sql).rows)
    assert matching.get("invalid", 0) > 0
    every = run_query(lake, "SELECT count(DISTINCT (site, hand_id)) FROM seats").rows[0][0]
    assert sum(matching.values()) == every  # every hand dealt in: total_pot = chips put in
    by_code = run_query(lake, "SELECT sum(hands) FROM violations_by_code").rows[0][0]
    per_code = run_query(
        lake,
        "SELECT count(*) FROM (SELECT DISTINCT code, severity, rule, site, hand_id "
        "FROM violations)",
    ).rows[0][0]
    assert by_code == per_code > 0


def test_every_action_of_the_log_has_a_row_even_past_where_the_replay_stopped(
    tmp_path: Path,
) -> None:
    lake = tmp_path / "lake"
    log = _generated(tmp_path / "faults.jsonl", 400, seed=7, faults=0.3)
    run_lake([str(log)], lake, workers=1)
    hands = {h.hand_id: h for h in read_jsonl(log) if isinstance(h, HandRecord)}
    rows = dict(run_query(lake, "SELECT hand_id, count(*) FROM actions GROUP BY 1").rows)
    assert rows == {hand_id: len(h.actions) for hand_id, h in hands.items()}
    unreached = run_query(
        lake,
        "SELECT a.hand_id, a.seq, a.seat, a.type, a.amount, a.to_amount, a.pot_before, "
        "a.all_in, h.status FROM actions a JOIN hands h USING (site, hand_id) "
        "WHERE a.street IS NULL ORDER BY 1, 2",
    ).rows
    assert len({row[0] for row in unreached}) >= 3
    for hand_id, seq, seat, kind, amount, to, pot, all_in, status in unreached:
        action = hands[hand_id].actions[seq]  # as the log records it; the rules said nothing
        assert (seat, kind, amount, to) == (
            action.seat,
            action.type.value,
            action.amount,
            action.to,
        )
        assert (pot, all_in, status) == (None, None, "invalid")
    stopped = run_query(  # the replay's last row comes before every row it did not reach
        lake,
        "SELECT count(*) FROM actions a JOIN actions b USING (site, hand_id) "
        "WHERE a.street IS NULL AND b.street IS NOT NULL AND b.seq > a.seq",
    ).rows[0][0]
    assert stopped == 0


def test_what_a_log_holds_without_croupier_reading_it_is_in_hands_extras(
    tmp_path: Path,
) -> None:
    log = _generated(tmp_path / "two.jsonl", 2, seed=3)
    first, second = log.read_text().splitlines()
    noted = first.replace("{", '{"_note": {"by": "floor", "stake": 2.50}, ', 1)
    log.write_text(f"{noted}\n{second}\n")
    phh = tmp_path / "h.phh"
    phh.write_text(
        "variant = 'PO'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [200, 150]\nactions = ['d dh p1 AhKhQhJh', 'd dh p2 2c3d4s5c', "
        "'p2 f']\nhand = 7\nauthor = 'Juho Kim'\n"
    )
    lake = tmp_path / "lake"
    run_lake([str(log), str(phh)], lake, workers=1)
    rows = run_query(
        lake,
        "SELECT hand_id, json_extract(extras, '$._note.stake')::DECIMAL(9, 2), "
        "json_extract_string(extras, '$._phh_author') FROM hands ORDER BY source, hand_id",
    ).rows
    assert [row[1:] for row in rows] == [(None, "Juho Kim"), (Decimal("2.50"), None), (None, None)]
    assert run_query(lake, "SELECT count(*) FROM hands WHERE extras IS NULL").rows[0][0] == 1
    assert _minified(b'[ "a \\" b ,", 1,\n 2.50 ]') == '["a \\" b ,",1,2.50]'  # as written


def test_a_reject_read_again_is_a_duplicate_not_a_second_row(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 6, seed=3).read_bytes().splitlines()
    log = tmp_path / "session.jsonl"
    log.write_bytes(b"\n".join([*lines[:3], b"{broken", *lines[3:5]]) + b"\n")
    first = run_lake([str(log)], lake, workers=1)
    assert (first.inputs[0].rejects, first.inputs[0].hands) == (1, 5)
    log.write_bytes(log.read_bytes() + lines[5] + b"\n")  # the session file grew by one hand
    grown = run_lake([str(log)], lake, workers=1).inputs[0]
    assert (grown.read, grown.hands, grown.rejects, grown.duplicates) == (7, 1, 0, 6)
    assert run_query(lake, "SELECT count(*) FROM rejects").rows == [(1,)]
    for _ in range(2):  # the same bytes piped twice
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"{broken\n")))
            run_lake(["-"], lake, workers=1)
    sql = "SELECT count(*) FROM rejects WHERE source = '<stdin>'"
    assert run_query(lake, sql).rows == [(1,)]


def test_a_reject_is_matched_by_its_line_and_its_text(tmp_path: Path) -> None:
    """A file edited since the lake took it, a line inserted above: the new bad line at the
    old reject's number is a reject of its own; the old one, moved down, is a line the lake
    has not seen at that number, recorded again (nothing tells a moved line from a new one
    with the same text)."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 4, seed=3).read_bytes().splitlines()
    log = tmp_path / "session.jsonl"
    log.write_bytes(b"\n".join([b"{broken", *lines[:2]]) + b"\n")
    first = run_lake([str(log)], lake, workers=1).inputs[0]
    assert (first.rejects, first.hands) == (1, 2)
    log.write_bytes(b"\n".join([b"[1, 2", b"{broken", *lines]) + b"\n")
    report = run_lake([str(log)], lake, workers=1)
    again = report.inputs[0]
    assert (again.read, again.hands, again.rejects, again.duplicates) == (6, 2, 2, 2)
    sql = "SELECT line, excerpt FROM rejects WHERE run_id = ? ORDER BY line"
    assert run_query(lake, sql, [report.run_id]).rows == [(1, "[1, 2"), (2, "{broken")]


@pytest.mark.parametrize("cut", [40, 120, 300])
def test_a_cut_line_that_grew_and_is_still_cut_is_one_reject(tmp_path: Path, cut: int) -> None:
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 3, seed=1).read_bytes().splitlines()
    log = tmp_path / "session.jsonl"
    log.write_bytes(lines[0] + b"\n" + lines[1][:cut])  # no line end: cut
    run_lake([str(log)], lake, workers=1)
    log.write_bytes(lines[0] + b"\n" + lines[1][: cut + 500])  # longer, still cut
    grown = run_lake([str(log)], lake, workers=1).inputs[0]
    assert (grown.read, grown.hands, grown.rejects, grown.duplicates) == (2, 0, 0, 2)
    assert run_query(lake, "SELECT line, code FROM rejects").rows == [(2, "truncated-hand")]


def test_a_cut_line_come_whole_leaves_no_reject_to_match_a_later_one(tmp_path: Path) -> None:
    """The lake holds a line cut before its hand id was written. The file grows: that line
    is a whole hand now (held back as the cut one, until --replace), and the next line is
    cut at the same place; it is a new reject, not the held one."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 3, seed=1).read_bytes().splitlines()
    log = tmp_path / "session.jsonl"
    log.write_bytes(lines[0] + b"\n" + lines[1][:18])
    run_lake([str(log)], lake, workers=1)
    log.write_bytes(b"\n".join([lines[0], lines[1], lines[2][:18]]))
    grown = run_lake([str(log)], lake, workers=1)
    assert (grown.inputs[0].rejects, grown.inputs[0].duplicates, grown.completed) == (1, 2, 1)
    assert run_query(lake, "SELECT line FROM rejects ORDER BY line").rows == [(2,), (3,)]


def test_a_reject_that_names_a_hand_holds_back_that_line_only(tmp_path: Path) -> None:
    """A line rejected with its hand id read: another site's hand with that id, on another
    line, is a hand of its own; a short numeric id shown in a cut line's other fields is
    not that line's hand either."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 2, seed=1).read_bytes().splitlines()
    bad = json.loads(lines[0])
    bad["seats"] = "oops"
    log = tmp_path / "session.jsonl"
    log.write_bytes(b"\n".join([lines[1], json.dumps(bad).encode()]) + b"\n")
    first = run_lake([str(log)], lake, workers=1).inputs[0]
    assert (first.hands, first.rejects) == (1, 1)
    other = json.loads(lines[0])
    other["site"] = "Other Room"
    log.write_bytes(b"\n".join([lines[1], json.dumps(bad).encode(), json.dumps(other).encode()]))
    again = run_lake([str(log)], lake, workers=1)
    assert (again.inputs[0].hands, again.inputs[0].duplicates, again.completed) == (1, 2, 0)
    numbered = [json.loads(line) for line in lines]
    numbered[0]["hand_id"], numbered[1]["hand_id"] = "3", "5"
    short = tmp_path / "short.jsonl"
    short.write_bytes(json.dumps(numbered[0]).encode()[:300])  # cut: '"hole_cards":4,...'
    run_lake([str(short)], lake, workers=1)
    short.write_bytes(json.dumps(numbered[1]).encode() + b"\n")  # another hand at line 1
    taken = run_lake([str(short)], lake, workers=1)
    assert (taken.hands, taken.completed) == (1, 0)


def test_another_hand_on_a_cut_lines_number_is_a_hand(tmp_path: Path) -> None:
    """The lake holds a cut last line (no hand id read from it). The file rewritten has
    another hand at that number: a hand, not the cut one come whole (whose id the
    reject's excerpt shows)."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 5, seed=4).read_bytes().splitlines()
    log = tmp_path / "session.jsonl"
    log.write_bytes(b"\n".join(lines[:3]) + b"\n" + lines[3][:300])  # no line end: cut
    run_lake([str(log)], lake, workers=1)
    assert run_query(lake, "SELECT line, hand_id FROM rejects").rows == [(4, None)]
    log.write_bytes(b"\n".join([*lines[:3], lines[4]]) + b"\n")
    again = run_lake([str(log)], lake, workers=1)
    assert (again.hands, again.duplicates, again.completed) == (1, 3, 0)
    taken = run_query(lake, "SELECT hand_id FROM hands WHERE run_id = ?", [again.run_id]).rows
    assert taken == [(json.loads(lines[4])["hand_id"],)]


def test_a_bad_line_without_an_id_completes_no_hand_that_lands_on_its_number(
    tmp_path: Path,
) -> None:
    """A whole line that is no hand (not a cut one) and lines inserted above it: the hand
    now at its number is a new hand, taken; and a hand the lake holds whole, now at the
    number of a cut line that showed no id, is a duplicate, not a cut hand come whole."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 3, seed=1).read_bytes().splitlines()
    log = tmp_path / "session.jsonl"
    log.write_bytes(b"\n".join([b"{oops", lines[0]]) + b"\n")
    run_lake([str(log)], lake, workers=1)
    log.write_bytes(b"\n".join([lines[1], b"{oops", lines[0]]) + b"\n")
    moved = run_lake([str(log)], lake, workers=1)
    counts = moved.inputs[0]
    assert (counts.hands, counts.rejects, counts.duplicates, moved.completed) == (1, 1, 1, 0)
    other = tmp_path / "other.jsonl"
    other.write_bytes(lines[0] + b"\n" + lines[2][:15])  # cut before its id is whole
    run_lake([str(other)], tmp_path / "lake2", workers=1)
    other.write_bytes(b"\n".join([lines[2], lines[0]]) + b"\n")  # a held hand at line 2
    again = run_lake([str(other)], tmp_path / "lake2", workers=1)
    assert (again.inputs[0].hands, again.inputs[0].duplicates, again.completed) == (1, 1, 0)


def test_a_pokerstars_hand_cut_again_further_on_is_one_reject(tmp_path: Path) -> None:
    """A PokerStars hand's reject is at the hand's first line, its excerpt where reading
    failed: cut again further on, it is the same hand's reject (the id it names); and a
    reject of a hand the lake holds cut (partial), at its line, is that hand again."""
    if not PS_PLO8.exists():
        pytest.skip(f"{PS_PLO8} is absent (set CROUPIER_CORPUS to the corpus folder)")
    text = PS_PLO8.read_bytes()
    for first, then in ((1515, 1575), (1331, 1336)):  # cut in a seat line; within the id
        lake = tmp_path / f"lake{first}"
        log = tmp_path / f"session{first}.txt"
        log.write_bytes(text[:first])
        run_lake([str(log)], lake, workers=1)
        log.write_bytes(text[:then])
        again = run_lake([str(log)], lake, workers=1).inputs[0]
        assert (again.rejects, again.duplicates) == (0, again.read)
        rows = run_query(lake, "SELECT line, code FROM rejects").rows
        assert rows == [(46, "truncated-hand")]
        log.write_bytes(text)  # whole: the cut hand is held back, the others taken
        whole = run_lake([str(log)], lake, workers=1)
        assert whole.completed == 1
    lake = tmp_path / "lake_partial"  # cut late enough to be a partial hand, then earlier
    log.write_bytes(text[:1492])
    assert run_lake([str(log)], lake, workers=1).statuses["partial"] == 1
    log.write_bytes(text[:1497])  # now a reject of the same hand, at the same line
    again = run_lake([str(log)], lake, workers=1).inputs[0]
    assert (again.rejects, again.duplicates) == (0, again.read)
    assert _count(lake, "rejects") == 0


def test_a_line_the_lake_holds_as_a_cut_hand_and_now_whole_waits_for_replace(
    tmp_path: Path,
) -> None:
    """A session file read while its last line was being written: that line is a
    truncated-hand reject. Read again grown, the whole hand is a duplicate counted apart
    (not a hand in the lake beside its reject); --replace takes the file whole."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 5, seed=4).read_bytes().splitlines()
    log = tmp_path / "session.jsonl"
    log.write_bytes(b"\n".join(lines[:3]) + b"\n" + lines[3][:300])  # no line end: cut
    first = run_lake([str(log)], lake, workers=1)
    assert run_query(lake, "SELECT code, line FROM rejects").rows == [("truncated-hand", 4)]
    log.write_bytes(b"\n".join(lines) + b"\n")
    grown = run_lake([str(log)], lake, workers=1)
    assert (grown.hands, grown.duplicates, grown.completed) == (1, 4, 1)
    sql = "SELECT count(*) FROM hands h JOIN rejects r ON h.source = r.source AND h.line = r.line"
    assert run_query(lake, sql).rows == [(0,)]  # no line is both a hand and a reject
    assert first.hands + grown.hands == _count(lake, "hands") == 4
    run_lake([str(log)], lake, workers=1, replace=True)
    assert (_count(lake, "hands"), _count(lake, "rejects")) == (5, 0)


def test_replace_says_how_many_hands_the_new_version_leaves_out(tmp_path: Path) -> None:
    """A holds hands 0-9 and B hands 5-9 again (duplicates there); A cut to 0-4 and run with
    --replace takes 5-9 out of the lake: the run says so, and B run again brings them back."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 10, seed=5).read_bytes().splitlines(keepends=True)
    a, b = tmp_path / "A.jsonl", tmp_path / "B.jsonl"
    a.write_bytes(b"".join(lines))
    b.write_bytes(b"".join(lines[5:]))
    run_lake([str(a), str(b)], lake, workers=1)
    a.write_bytes(b"".join(lines[:5]))
    result = runner.invoke(app, ["run", str(a), "--out", str(lake), "--replace"])
    assert result.exit_code == 0
    said = " ".join(result.stderr.split())
    assert "5 hands the lake held are no longer in it" in said
    assert _count(lake, "hands") == 5
    again = run_lake([str(b)], lake, workers=1, replace=True)
    assert (again.gone, _count(lake, "hands")) == (0, 10)


def test_replace_through_a_symbolic_link_retires_what_the_file_gave_by_its_own_name(
    tmp_path: Path,
) -> None:
    """A file run through a link, then changed (hand 9 gone) and run by its own name with
    --replace: the link's rows were the file's, so hand 9 leaves the lake (it stayed)."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 10, seed=7).read_bytes().splitlines(keepends=True)
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_bytes(b"".join(lines))
    link.symlink_to(real)
    run_lake([str(link)], lake, workers=1)
    real.write_bytes(b"".join(lines[:9]))
    report = run_lake([str(real)], lake, workers=1, replace=True)
    assert (report.hands, report.duplicates, report.gone) == (9, 0, 1)  # hand 9 is gone
    assert _count(lake, "hands") == 9


def test_a_file_named_twice_is_read_once_and_a_folder_without_logs_makes_no_lake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake = tmp_path / "lake"
    log = _generated(tmp_path / "a.jsonl", 5, seed=6)
    report = run_lake([str(log), str(log), str(tmp_path / "." / "a.jsonl")], lake, workers=1)
    assert (report.hands, report.duplicates, len(report.skipped)) == (5, 0, 2)
    empty = tmp_path / "empty"
    (empty / "sub").mkdir(parents=True)
    (empty / "sub" / "copy.json").write_text(log.read_text())  # a log, not named as one
    assert main(["run", str(empty), "--out", str(tmp_path / "none")]) == 3
    said = " ".join(capsys.readouterr().err.split())
    assert "passed over: sub/copy.json" in said and "no hand log to read in" in said
    assert not (tmp_path / "none").exists()


def test_new_inputs_hashed_as_they_are_read_are_recorded_and_skipped_as_any(
    tmp_path: Path,
) -> None:
    # inputs of sizes the lake has not seen are hashed alongside their reading (the driver
    # does not wait for it); inputs of one size, or of a size the lake holds, first
    lake = tmp_path / "lake"
    a = _generated(tmp_path / "a.jsonl", 7, seed=31)
    b = _generated(tmp_path / "b.jsonl", 4, seed=32)
    twin = tmp_path / "twin.jsonl"  # b's bytes under another name: one size, read once
    twin.write_bytes(b.read_bytes())
    report = run_lake([str(a), str(b), str(twin)], lake, workers=2)
    given = {Path(i.path).name: i for i in report.inputs}
    assert report.hands == 11 and [n for n, i in given.items() if i.skipped] == ["twin.jsonl"]
    for path in (a, b, twin):
        data = path.read_bytes()
        entry = given[path.name]
        assert (entry.sha256, entry.size) == (hashlib.sha256(data).hexdigest(), len(data))
    run = load_manifest(lake).runs[0]
    held = {sha for f in run.added for sha, _ in f.inputs()}
    assert held == {given["a.jsonl"].sha256, given["b.jsonl"].sha256}
    assert [i.sha256 for i in run.inputs] == [i.sha256 for i in report.inputs]
    # a size the lake holds: hashed first, so skipped when its bytes are the same
    again = run_lake([str(a), str(twin)], lake, workers=1)
    assert again.hands == 0 and all(i.skipped for i in again.inputs)
    same_size = tmp_path / "c.jsonl"  # a's size, other bytes: read, not skipped
    data = a.read_bytes()
    same_size.write_bytes(data.replace(b'"hand_id":"GEN-31-', b'"hand_id":"GEN-39-'))
    assert len(same_size.read_bytes()) == len(data)
    third = run_lake([str(same_size)], lake, workers=1)
    assert (
        third.hands == 7
        and third.inputs[0].sha256 == hashlib.sha256(same_size.read_bytes()).hexdigest()
    )


def test_lines_are_matched_by_the_file_they_come_from_not_by_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two different files both named s.jsonl (run from their folders) share nothing; one
    file named s.jsonl, then ./s.jsonl, is one file: its bad line is one reject."""
    lake = tmp_path / "lake"
    lines = _generated(tmp_path / "gen.jsonl", 6, seed=2).read_bytes().splitlines()
    first, second = tmp_path / "tableA", tmp_path / "tableB"
    first.mkdir()
    second.mkdir()
    (first / "s.jsonl").write_bytes(b"\n".join(lines[:2]) + b"\n" + lines[2][:200])  # cut
    (second / "s.jsonl").write_bytes(b"\n".join(lines[3:6]) + b"\n{broken\n")
    monkeypatch.chdir(first)
    run_lake(["s.jsonl"], lake, workers=1)
    monkeypatch.chdir(second)
    other = run_lake(["s.jsonl"], lake, workers=1)
    assert (other.hands, other.rejects, other.duplicates, other.completed) == (3, 1, 0, 0)
    (second / "s.jsonl").write_bytes((second / "s.jsonl").read_bytes() + lines[2] + b"\n")
    grown = run_lake(["./s.jsonl"], lake, workers=1)  # the same file, named another way
    assert (grown.hands, grown.rejects, grown.duplicates) == (1, 0, 4)
    sql = "SELECT code FROM rejects ORDER BY code"  # tableA's cut line, tableB's broken one
    assert run_query(lake, sql).rows == [("malformed-json",), ("truncated-hand",)]
