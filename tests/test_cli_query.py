"""`croupier query` and the outputs of the lake's commands: where results go, strict JSON and
CSV, parameters as text, Ctrl-C, and errors that name the option."""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pipeline.cli
from pipeline.cli import app, main
from pipeline.run import run_lake

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "plo.jsonl"

runner = CliRunner()


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("query") / "lake"
    run_lake([str(SAMPLE)], root, workers=1)
    return root


def _files(lake: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(lake)): p.read_bytes()
        for p in sorted(lake.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def _strict_json(text: str) -> object:
    def refuse(constant: str) -> object:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["query", "SELECT 1 AS a", "-o", "{lake}/_manifest.json"], "--output"),
        (["query", "SELECT 1 AS a", "--format", "json", "-o", "{lake}/new.json"], "--output"),
        (["query", "SELECT 1 AS a", "-o", "{lake}/../lake/hands/x.csv"], "--output"),
        (["stats", "-o", "{lake}/_manifest.json"], "--output"),
        (["stats", "--format", "parquet", "-o", "{lake}/x.parquet"], "--output"),
        (["audit", "-o", "{lake}/_manifest.json"], "--output"),
        (["audit", "--format", "json", "--html", "{lake}/_manifest.json"], "--html"),
        (["explain", "SAMPLE-0001", "-o", "{lake}/_manifest.json"], "--output"),
    ],
)
def test_an_output_inside_the_lake_is_refused_and_nothing_is_written(
    lake: Path, args: list[str], option: str
) -> None:
    # croupier query … -o LAKE/_manifest.json replaced the manifest and broke the lake
    before = _files(lake)
    filled = [a.replace("{lake}", str(lake)) for a in args]
    result = runner.invoke(app, [*filled, "--lake", str(lake)])
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert f"{option} " in result.stderr
    assert "inside the lake folder" in result.stderr
    assert _files(lake) == before


def test_an_output_that_links_into_the_lake_is_refused(lake: Path, tmp_path: Path) -> None:
    link = tmp_path / "result.csv"
    link.symlink_to(lake / "_manifest.json")
    before = _files(lake)
    result = runner.invoke(app, ["query", "SELECT 1 AS a", "--lake", str(lake), "-o", str(link)])
    assert result.exit_code == 2
    assert "inside the lake folder" in result.stderr
    assert _files(lake) == before


def test_an_output_beside_the_lake_is_written(lake: Path, tmp_path: Path) -> None:
    beside = tmp_path / "lake-result.csv"  # a name that starts as the lake's does is outside
    result = runner.invoke(app, ["query", "SELECT 1 AS a", "--lake", str(lake), "-o", str(beside)])
    assert result.exit_code == 0, result.stderr
    assert beside.read_text(encoding="utf-8") == "a\n1\n"


def test_json_is_strict_with_null_for_nan_and_infinities_and_iso_times(lake: Path) -> None:
    sql = (
        "SELECT 'nan'::DOUBLE AS nan, 'inf'::DOUBLE AS inf, '-inf'::DOUBLE AS minus_inf, "
        "[1.5, 'nan'::DOUBLE] AS listed, {'x': 'inf'::DOUBLE} AS nested, "
        "TIMESTAMPTZ '2026-03-08 20:47:13+00' AS at, 1.50::DECIMAL(10, 2) AS money"
    )
    result = runner.invoke(app, ["query", sql, "--lake", str(lake), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    rows = _strict_json(result.stdout)
    assert isinstance(rows, list)
    row = rows[0]
    assert (row["nan"], row["inf"], row["minus_inf"]) == (None, None, None)
    assert (row["listed"], row["nested"], row["money"]) == ([1.5, None], {"x": None}, "1.50")
    at = row["at"]
    assert "T" in at
    assert datetime.fromisoformat(at) == datetime(2026, 3, 8, 20, 47, 13, tzinfo=UTC)


def test_json_writes_intervals_as_iso_durations_and_blobs_in_base64(lake: Path) -> None:
    sql = "SELECT INTERVAL '3 days 90 minutes' AS i, 'a\"b'::BLOB AS b, [INTERVAL 1 SECOND] AS l"
    result = runner.invoke(app, ["query", sql, "--lake", str(lake), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    rows = _strict_json(result.stdout)
    assert isinstance(rows, list) and len(rows) == 1
    assert rows[0] == {
        "i": "P3DT1H30M0S",
        "b": base64.b64encode(b'a"b').decode(),
        "l": ["P0DT0H0M1S"],
    }


def test_csv_writes_lists_and_structs_as_json_text(lake: Path) -> None:
    sql = "SELECT ['Kh9s4d'] AS boards, {'a': 'x,y'} AS detail, true AS flag, 7 AS n"
    result = runner.invoke(app, ["query", sql, "--lake", str(lake), "--format", "csv"])
    assert result.exit_code == 0, result.stderr
    header, row = list(csv.reader(io.StringIO(result.stdout)))
    assert header == ["boards", "detail", "flag", "n"]
    assert row == ['["Kh9s4d"]', '{"a": "x,y"}', "true", "7"]


@pytest.mark.parametrize(
    "args",
    [
        ["query", "SELECT 1 AS a"],
        ["query", "SELECT 1 AS a", "--format", "json"],
        ["stats", "--format", "csv"],
        ["audit", "--format", "json"],
        ["audit"],  # the table format written to -o is Markdown
        ["explain", "SAMPLE-0001", "--format", "markdown"],
    ],
)
def test_output_dash_writes_to_stdout_not_a_file_named_dash(
    lake: Path, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    to_dash = runner.invoke(app, [*args, "--lake", str(lake), "-o", "-"])
    assert to_dash.exit_code == 0, to_dash.stderr
    assert not (tmp_path / "-").exists()
    written = tmp_path / "out.txt"
    to_file = runner.invoke(app, [*args, "--lake", str(lake), "-o", str(written)])
    assert to_file.exit_code == 0, to_file.stderr
    assert to_dash.stdout == written.read_text(encoding="utf-8") != ""


def test_params_are_text_and_the_error_says_how_to_cast(lake: Path) -> None:
    result = runner.invoke(app, ["query", "SELECT ? + 1 AS n", "--lake", str(lake), "-p", "2"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "--param values are text" in result.stderr
    assert "CAST(? AS INTEGER)" in result.stderr
    cast = "SELECT CAST(? AS INTEGER) + 1 AS n"
    result = runner.invoke(app, ["query", cast, "--lake", str(lake), "-p", "2", "--format", "csv"])
    assert (result.exit_code, result.stdout) == (0, "n\n3\n")


def test_query_help_says_params_are_text_with_an_example_of_a_cast() -> None:
    shown = " ".join(runner.invoke(app, ["query", "--help"], env={"COLUMNS": "300"}).stdout.split())
    assert "bound as text" in shown
    assert "CAST(? AS INTEGER)" in shown
    assert re.search(r"Example: croupier query \"[^\"]*CAST\(\? AS \w+\)[^\"]*\" -p", shown)


def test_ctrl_c_says_aborted_and_exits_130(
    lake: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Typer turns KeyboardInterrupt into Exit(130) and returns it: no message was printed
    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline.cli, "run_query", interrupted)
    assert main(["query", "SELECT 1", "--lake", str(lake)]) == 130
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "aborted\n")


def test_an_unknown_rule_set_names_the_option_and_the_names_help_lists() -> None:
    result = runner.invoke(app, ["check", str(SAMPLE), "--rules", "x"])
    assert result.exit_code == 2
    said = " ".join(result.stderr.split())
    assert "--rules: unknown rule set 'x'; choose standard or pokerstars" in said
    assert "2026" not in said
    shown = " ".join(runner.invoke(app, ["check", "--help"], env={"COLUMNS": "300"}).stdout.split())
    assert "Rule set: standard or pokerstars." in shown


@pytest.mark.parametrize("body", [b"", b"{not json", b'{"format": 1, "runs": [{}]}', b"[1]"])
def test_a_damaged_manifest_is_one_line_that_names_it_and_says_what_to_do(
    body: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLE)], lake, workers=1)
    (lake / "_manifest.json").write_bytes(body)
    query = ["query", "SELECT 1", "--lake", str(lake)]
    for args in (query, ["run", str(SAMPLE), "--out", str(lake), "-q"]):
        assert main(args) == 3
        err = " ".join(capsys.readouterr().err.split())
        assert f"the lake's manifest {lake / '_manifest.json'} cannot be read" in err
        assert "restore it from a backup" in err and "ManifestError" not in err


def test_times_are_utc_whatever_the_machines_time_zone(lake: Path) -> None:
    """SAMPLE-0001 started 2026-03-02 19:04:11 UTC: 04:04 the next day in Tokyo. A query's
    dates and times are the lake's (UTC), as its month and ``stats --since`` are."""
    sql = (
        "SELECT started_at, started_at::DATE AS day, hour(started_at) AS h FROM hands "
        "WHERE hand_id = 'SAMPLE-0001'"
    )
    env = {**os.environ, "TZ": "Asia/Tokyo"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pipeline.cli",
            "query",
            sql,
            "--lake",
            str(lake),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _strict_json(done.stdout) == [
        {"started_at": "2026-03-02T19:04:11+00:00", "day": "2026-03-02", "h": 19}
    ]


def test_json_keeps_every_column_of_a_name_given_twice(lake: Path) -> None:
    sql = (
        "SELECT h.hole_cards, s.hole_cards, 1 AS hole_cards_1 FROM hands h "
        "JOIN seats s USING (site, hand_id) WHERE hand_id = 'SAMPLE-0001' AND seat = 1"
    )
    result = runner.invoke(app, ["query", sql, "--lake", str(lake), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert _strict_json(result.stdout) == [
        {"hole_cards": 4, "hole_cards_2": "QhJhTc9c", "hole_cards_1": 1}
    ]


def test_a_lake_missing_a_committed_file_is_an_environment_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLE)], lake, workers=1)
    gone = next(lake.glob("seats/**/*.parquet"))
    gone.unlink()
    for args in (["query", "SELECT count(*) FROM hands"], ["stats"], ["audit"]):
        assert main([*args, "--lake", str(lake)]) == 3
        err = " ".join(capsys.readouterr().err.split())
        assert f"the lake at {lake} is damaged: 1 file(s) its manifest lists are missing" in err
        assert gone.relative_to(lake).as_posix() in err


def test_a_corrupt_committed_file_is_an_environment_error_not_the_sqls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake = tmp_path / "lake"
    run_lake([str(SAMPLE)], lake, workers=1)
    broken = next(lake.glob("hands/**/*.parquet"))
    broken.write_bytes(b"not parquet\n")
    for args in (
        ["query", "SELECT count(*) FROM hands"],
        ["stats"],
        ["audit"],
        ["explain", "SAMPLE-0001"],
    ):
        assert main([*args, "--lake", str(lake)]) == 3, args
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        text = " ".join(err.split())
        assert f"the lake at {lake} is damaged" in text, text
        assert broken.relative_to(lake).as_posix() in text
        assert "SQL:" not in text and "Exception" not in text
