"""croupier stats: sums of the seats' flags, filtered and grouped, in every format."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.lake.query import run_query
from pipeline.reports.stats import RATIOS, StatsFilter, player_stats
from pipeline.run import run_lake
from tests.test_lake import SAMPLES

runner = CliRunner()


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("stats")
    log = root / "hands.jsonl"
    with log.open("wb") as out:
        write_jsonl(generate_hands(800, seed=31), out)
    run_lake([str(log), str(SAMPLES)], root / "lake", workers=1)
    return root / "lake"


def test_each_statistic_is_the_sum_of_its_flags(lake: Path) -> None:
    result = player_stats(lake, StatsFilter(player="Dana"))
    rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    assert "USD" in {r["currency"] for r in rows}
    usd = next(r for r in rows if r["currency"] == "USD")
    direct = run_query(
        lake,
        "SELECT count(*), sum(s.vpip::INT), sum(s.vpip_opp::INT), sum(s.went_to_showdown::INT), "
        "sum(s.net) FROM seats s JOIN hands h USING (site, hand_id) "
        "WHERE s.player = 'Dana' AND h.currency = 'USD' AND h.status <> 'void'",
    ).rows[0]
    assert (usd["hands"], usd["vpip"], usd["vpip_opp"], usd["wtsd"], usd["net"]) == direct
    for name, _, _ in RATIOS:
        assert 0 <= usd[name] <= usd[f"{name}_opp"], name


def test_filters_and_groupings(lake: Path) -> None:
    by_variant = player_stats(lake, StatsFilter(player="Dana", by=("variant",)))
    variants = {row[1] for row in by_variant.rows}
    assert variants <= {"omaha", "omaha-hilo", "courchevel", "courchevel-hilo"}
    total = sum(row[by_variant.columns.index("hands")] for row in by_variant.rows)
    assert total == sum(row[2] for row in player_stats(lake, StatsFilter(player="Dana")).rows)
    few = player_stats(lake, StatsFilter(min_hands=10**6))
    assert few.rows == []
    nobody = player_stats(lake, StatsFilter(player="x' OR '1'='1"))
    assert nobody.rows == []
    with pytest.raises(ValueError, match="unknown grouping"):
        player_stats(lake, StatsFilter(by=("colour",)))


def test_cli_formats(lake: Path, tmp_path: Path) -> None:
    table = runner.invoke(app, ["stats", "--lake", str(lake), "--min-hands", "50"])
    assert table.exit_code == 0, table.stderr
    assert "VPIP" in table.stdout and "bb/100" in table.stdout
    as_json = runner.invoke(
        app, ["stats", "--lake", str(lake), "--format", "json", "--by", "position"]
    )
    rows = json.loads(as_json.stdout)
    assert {"player", "position", "hands", "vpip", "vpip_opp", "bb_per_100"} <= set(rows[0])
    target = tmp_path / "stats.parquet"
    done = runner.invoke(
        app, ["stats", "--lake", str(lake), "--format", "parquet", "-o", str(target)]
    )
    assert done.exit_code == 0
    assert pq.read_table(target).num_rows == len(
        json.loads(runner.invoke(app, ["stats", "--lake", str(lake), "--format", "json"]).stdout)
    )
    bad = runner.invoke(app, ["stats", "--lake", str(lake), "--by", "colour"])
    assert bad.exit_code == 2


def test_an_empty_table_says_which_filters_left_nobody(lake: Path) -> None:
    args = ["stats", "--lake", str(lake), "--player", "Dana", "--min-hands", "1000000"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0
    assert result.stdout == ""  # no empty table
    assert result.stderr.strip() == "no player matches --player Dana, --min-hands 1000000"
    as_json = runner.invoke(app, [*args, "--format", "json"])
    assert json.loads(as_json.stdout) == []  # scripts get the empty result, no note
    assert as_json.stderr == ""


def test_filters_are_checked_and_read_as_a_user_writes_them(lake: Path) -> None:
    def rows(*args: str) -> list[dict[str, object]]:
        result = runner.invoke(app, ["stats", "--lake", str(lake), "--format", "json", *args])
        assert result.exit_code == 0, result.output
        found: list[dict[str, object]] = json.loads(result.stdout)
        return found

    assert rows("--stakes", "1") == rows("--stakes", "1.00") == rows("--stakes", "1.0")
    assert rows("--stakes", "1.00")  # the generated hands have 1.00 big blinds
    assert rows("--position", "btn") == rows("--position", "BTN") != []
    for args, message in [
        (["--variant", "plo"], "unknown variant 'plo'; choose from omaha, omaha-hilo"),
        (["--betting", "pl"], "unknown betting 'pl'; choose from fixed-limit"),
        (["--stakes", "NaN"], "--stakes takes a big blind such as 0.10, not 'NaN'"),
    ]:
        bad = runner.invoke(app, ["stats", "--lake", str(lake), *args])
        assert bad.exit_code == 2
        assert message in " ".join(bad.stderr.split())
