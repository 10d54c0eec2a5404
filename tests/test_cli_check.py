"""`croupier generate` and `croupier check` end to end, through the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.check import violation_record
from pipeline.cli import app, main
from pipeline.formats.jsonl import read_jsonl
from pipeline.model import HandRecord
from pipeline.rules import replay
from pipeline.settle import settle

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = Path(os.environ.get("CROUPIER_CORPUS", ROOT.parent / "shared" / "corpus"))
PLO_TXT = CORPUS / "pokerstars" / "hhsmithy" / "CashGame" / "GameTypeTests" / "PotLimitOmaha.txt"


def _generate(path: Path, *args: str) -> None:
    result = runner.invoke(app, ["generate", "-o", str(path), *args])
    assert result.exit_code == 0, result.stderr
    assert "generated" in result.stderr


def test_every_injected_fault_is_found_at_its_action_and_nothing_else_is(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    _generate(log, "--hands", "20000", "--faults", "0.2", "--seed", "2026")
    result = runner.invoke(app, ["check", str(log), "--format", "json"])
    assert result.exit_code == 1
    reported = {}
    for line in result.stdout.splitlines():
        row = json.loads(line)
        assert row["kind"] == "hand"
        reported[row["hand_id"]] = row
    faulted = 0
    for hand in read_jsonl(log):
        assert isinstance(hand, HandRecord)
        raw = dict(hand.extras).get("_injected")
        if raw is None:
            assert hand.hand_id not in reported, reported.get(hand.hand_id)
            continue
        faulted += 1
        injected = json.loads(raw)
        row = reported[hand.hand_id]
        found = {(v["code"], v["seq"]) for v in row["violations"]}
        assert (injected["code"], injected["seq"]) in found, (hand.hand_id, injected, found)
    assert 3500 < faulted < 4500
    assert "checked 20000 hands" in result.stderr


def test_check_json_objects_equal_the_library_records(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    _generate(log, "--hands", "300", "--faults", "0.5", "--seed", "5")
    result = runner.invoke(app, ["check", str(log), "--format", "json", "--all"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    hands = [h for h in read_jsonl(log) if isinstance(h, HandRecord)]
    assert [r["hand_id"] for r in rows] == [h.hand_id for h in hands]
    for row, hand in zip(rows, hands, strict=True):
        judged = replay(hand)
        settled = settle(judged)
        everything = judged.violations + settled.violations
        assert row["violations"] == [violation_record(v) for v in everything]
        assert row["payouts_match"] == settled.payouts_match
        assert row["rules"] == "standard-2026.1"
        if judged.status.value == "ok" and settled.errors:
            assert row["status"] == "violations"
        else:
            assert row["status"] == judged.status.value


def test_check_of_clean_hands_exits_0_and_text_names_code_action_and_rule(tmp_path: Path) -> None:
    clean = tmp_path / "clean.jsonl"
    _generate(
        clean,
        "--hands",
        "200",
        "--seed",
        "3",
        "--variant",
        "omaha-hilo",
        "--betting",
        "fixed-limit",
    )
    result = runner.invoke(app, ["check", str(clean)])
    assert result.exit_code == 0, result.stdout
    assert result.stdout == ""
    assert "checked 200 hands (200 ok)" in result.stderr

    faulty = tmp_path / "faulty.jsonl"
    _generate(faulty, "--hands", "50", "--seed", "3", "--faults", "1")
    result = runner.invoke(app, ["check", str(faulty)])
    assert result.exit_code == 1
    first = result.stdout.splitlines()[1]
    assert first.startswith(("  error ", "  warning "))
    assert "[R" in first


def test_generate_options_shape_the_hands(tmp_path: Path) -> None:
    log = tmp_path / "plo.jsonl"
    _generate(
        log,
        "--hands",
        "100",
        "--variant",
        "courchevel",
        "--betting",
        "no-limit",
        "--players",
        "3-4",
    )
    hands = [h for h in read_jsonl(log) if isinstance(h, HandRecord)]
    assert len(hands) == 100
    assert {h.game.variant for h in hands} == {"courchevel"}
    assert {h.game.betting for h in hands} == {"no-limit"}
    assert {len(h.seats) for h in hands} <= {3, 4}


def test_generate_refuses_bad_options(tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    for args in (
        ["--variant", "stud"],
        ["--players", "1-3"],
        ["--players", "many"],
        ["--variant", "courchevel", "--hole-cards", "4"],
        ["--faults", "2"],
    ):
        result = runner.invoke(app, ["generate", "--hands", "5", "-o", out, *args])
        assert result.exit_code == 2, (args, result.stdout)


def test_check_reads_directories_and_reports_rejects(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("not a hand log")
    (tmp_path / "bad.jsonl").write_text('{"hand_id": 1}\n')
    _generate(tmp_path / "good.jsonl", "--hands", "5", "--seed", "1")
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 1
    assert "bad.jsonl:1 rejected schema-violation" in result.stdout
    assert "notes.md" not in result.stdout
    assert "checked 5 hands (5 ok), 1 rejected" in result.stderr


def test_check_unknown_rules_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", "x.jsonl", "--rules", "house-of-cards"])
    assert result.exit_code == 2
    assert "unknown rule set" in result.stderr


def test_a_void_hand_says_it_fails_nothing() -> None:
    sample = Path(__file__).resolve().parent.parent / "data" / "sample" / "special.jsonl"
    result = CliRunner().invoke(app, ["check", str(sample), "--all"])
    assert result.exit_code == 0
    [line] = [line for line in result.stdout.splitlines() if " void" in line]
    assert line.endswith(" void (cancelled by the site: what it lacks fails nothing)")
    assert "1 void), 0 rejected; 0 with errors" in result.stderr


def test_hands_read_twice_are_duplicates_not_judged_again_as_run_counts_them(
    tmp_path: Path,
) -> None:
    whole = tmp_path / "session.jsonl"
    _generate(whole, "--hands", "1200", "--seed", "11")  # more than one batch of 512
    lines = whole.read_bytes().splitlines(keepends=True)
    (tmp_path / "copy.jsonl").write_bytes(b"".join(lines[600:700]))
    (tmp_path / "session.jsonl").write_bytes(b"".join(lines) + lines[3] + lines[1100])
    result = runner.invoke(app, ["check", str(tmp_path), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(row["kind"] == "duplicate" for row in rows)
    ids = [json.loads(line)["hand_id"] for line in lines]
    # the folder is read in name order: copy.jsonl first, so its hands are the originals
    found = [(r["hand_id"], r["line"]) for r in rows if r["source"].endswith("session.jsonl")]
    assert (len(rows), len(found)) == (102, 102)
    assert found[0] == (ids[600], 601) and found[-2:] == [(ids[3], 1201), (ids[1100], 1202)]
    assert {r["hand_id"] for r in rows} == set(ids[600:700]) | {ids[3], ids[1100]}
    assert "checked 1200 hands (1200 ok), 0 rejected, 102 duplicates" in result.stderr
    lake = str(tmp_path / "lake")
    ran = runner.invoke(app, ["run", str(tmp_path), "--out", lake, "--format", "json", "-q"])
    assert ran.exit_code == 0, ran.stderr
    summary = json.loads(ran.stdout)
    assert (summary["hands"], summary["duplicates"]) == (1200, 102)


# ------------------------------------------------------------------------------ stdin


def _same_on_stdin(path: Path, *options: str) -> list[dict[str, object]]:
    """Check a file named and the same bytes on stdin; assert they give the same rows."""
    args = [*options, "--format", "json", "--all"]
    named = runner.invoke(app, ["check", str(path), *args])
    piped = runner.invoke(app, ["check", "-", *args], input=path.read_bytes())
    assert piped.exit_code == named.exit_code, piped.stderr
    rows = [json.loads(line) for line in named.stdout.splitlines()]
    stdin_rows = [json.loads(line) for line in piped.stdout.splitlines()]
    assert {row["source"] for row in stdin_rows} == {"<stdin>"}
    assert [row | {"source": ""} for row in stdin_rows] == [row | {"source": ""} for row in rows]
    return rows


def test_pokerstars_on_stdin_is_read_with_input_format() -> None:
    rows = _same_on_stdin(
        FIXTURES / "pokerstars" / "mixed-games.txt", "--input-format", "pokerstars"
    )
    assert [row["kind"] for row in rows].count("hand") == 3
    assert not any(row.get("code") == "malformed-json" for row in rows)


def test_pokerstars_on_stdin_is_detected_without_input_format() -> None:
    rows = _same_on_stdin(FIXTURES / "pokerstars" / "zoom.txt")
    assert [(row["kind"], row["status"]) for row in rows] == [("hand", "ok")]


@pytest.mark.skipif(not PLO_TXT.is_file(), reason=f"corpus file not at {PLO_TXT}")
def test_the_reported_pokerstars_file_on_stdin_reads_as_named() -> None:
    result = runner.invoke(
        app, ["check", "-", "--input-format", "pokerstars"], input=PLO_TXT.read_bytes()
    )
    assert result.exit_code == 0, result.stdout
    assert "checked 1 hands (1 ok), 0 rejected" in result.stderr


def test_phh_on_stdin_is_detected_without_input_format() -> None:
    rows = _same_on_stdin(FIXTURES / "phh" / "extensions.phhs")
    assert [(row["kind"], row["status"]) for row in rows] == [("hand", "ok")] * 3


def test_ohh_on_stdin_is_detected_and_read_with_input_format() -> None:
    rows = _same_on_stdin(FIXTURES / "ohh" / "omaha_pl.ohh")
    assert [(row["kind"], row["status"]) for row in rows] == [("hand", "ok")] * 2
    assert _same_on_stdin(FIXTURES / "ohh" / "omaha_pl.ohh", "--input-format", "ohh") == rows


def test_jsonl_on_stdin_is_still_detected() -> None:
    rows = _same_on_stdin(ROOT / "data" / "sample" / "plo.jsonl")
    assert len(rows) == 5


def test_a_folder_with_no_hand_log_is_no_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["check", str(tmp_path / "empty")]) == 3  # nothing checked: not exit 0
    assert "no hand log to read in" in capsys.readouterr().err
