"""`croupier query` is read-only over the lake, and strings from logs never become SQL."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.lake.query import NotReadOnly, run_query
from pipeline.reports.stats import StatsFilter, player_stats
from pipeline.run import run_lake

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "plo.jsonl"
HOSTILE = "Bob'); DROP VIEW hands; --"

runner = CliRunner()


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lake of the PLO samples in which one player's name is an SQL injection attempt."""
    root = tmp_path_factory.mktemp("secure")
    text = SAMPLE.read_text(encoding="utf-8")
    assert '"Bruno"' in text
    source = root / "hostile.jsonl"
    source.write_text(text.replace('"Bruno"', json.dumps(HOSTILE)), encoding="utf-8")
    run_lake([str(source)], root / "lake", workers=1)
    return root / "lake"


def _fingerprint(lake: Path) -> dict[str, str]:
    return {
        str(p.relative_to(lake)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(lake.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def _query(lake: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["query", *args, "--lake", str(lake), "--format", "json"])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("sql", "kind"),
    [
        ("COPY (SELECT 1) TO '{lake}/hands/evil.parquet'", "COPY"),
        ("COPY hands TO '{lake}/../copied.csv'", "COPY"),
        ("ATTACH '{lake}/evil.duckdb' AS evil", "ATTACH"),
        ("INSTALL httpfs", "LOAD"),
        ("LOAD httpfs", "LOAD"),
        ("CREATE TABLE t AS SELECT * FROM hands", "CREATE"),
        ("DROP VIEW hands", "DROP"),
        ("SET enable_external_access = true", "SET"),
    ],
)
def test_statements_other_than_select_are_refused(lake: Path, sql: str, kind: str) -> None:
    before = _fingerprint(lake)
    code, output = _query(lake, sql.format(lake=lake))
    assert code == 2
    assert f"only SELECT queries are allowed (found {kind})" in output
    assert "--allow-external" in output
    assert _fingerprint(lake) == before
    assert not (lake.parent / "copied.csv").exists()


def test_several_statements_are_refused(lake: Path) -> None:
    with pytest.raises(NotReadOnly, match="exactly one SQL statement"):
        run_query(lake, "SELECT 1; DROP VIEW hands")


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM read_csv('{lake}/_manifest.json')",
        "SELECT * FROM read_parquet('{lake}/../*.parquet')",
        "SELECT * FROM glob('/*')",
    ],
)
def test_select_cannot_open_files_outside_the_committed_ones(lake: Path, sql: str) -> None:
    code, output = _query(lake, sql.format(lake=lake))
    assert code == 2
    assert "SQL:" in output and "disabled" in output


def test_the_lake_itself_stays_readable(lake: Path) -> None:
    code, output = _query(lake, "SELECT count(*) AS n FROM hands_money")
    assert code == 0
    assert json.loads(output) == [{"n": 5}]


def test_allow_external_permits_copy_out_of_the_lake(lake: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    before = _fingerprint(lake)
    result = runner.invoke(
        app,
        [
            "query",
            f"COPY (SELECT hand_id FROM hands ORDER BY hand_id) TO '{target}' (HEADER)",
            "--lake",
            str(lake),
            "--allow-external",
        ],
    )
    assert result.exit_code == 0, result.output
    assert target.read_text().splitlines()[:2] == ["hand_id", "SAMPLE-0001"]
    assert _fingerprint(lake) == before


def test_hostile_player_name_is_data_not_code(lake: Path) -> None:
    code, output = _query(
        lake, "SELECT count(*) AS n FROM seats WHERE player = ?", "--param", HOSTILE
    )
    assert code == 0
    seen = json.loads(output)[0]["n"]
    assert seen >= 1
    result = player_stats(lake, StatsFilter(player=HOSTILE))
    assert [row[0] for row in result.rows] == [HOSTILE]
    assert result.rows[0][result.columns.index("hands")] == seen
    # the views are intact afterwards
    assert run_query(lake, "SELECT count(*) FROM hands").rows == [(5,)]


def test_stats_command_takes_the_hostile_name_as_a_filter(lake: Path) -> None:
    result = runner.invoke(
        app, ["stats", "--lake", str(lake), "--player", HOSTILE, "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["player"] for r in rows] == [HOSTILE]
