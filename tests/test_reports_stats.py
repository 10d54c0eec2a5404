"""croupier stats: sums of the seats' flags, filtered and grouped, in every format."""

from __future__ import annotations

import json
import time
from datetime import date
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.lake.query import VIEWS_SQL, run_query
from pipeline.lake.stats_sql import VIEW_END, VIEW_START, view_sql
from pipeline.reports.audit import audit
from pipeline.reports.stats import RATIOS, StatsFilter, player_stats
from pipeline.run import run_lake
from tests.handbuilder import (
    Json,
    bet,
    board,
    call,
    check,
    deal,
    fold,
    post,
    raise_to,
    show,
    uncalled,
)
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


def test_the_player_stats_view_is_croupier_stats_without_filters(lake: Path) -> None:
    """One definition: the view's columns and rows are those of ``croupier stats``."""
    stats = player_stats(lake, StatsFilter())
    view = run_query(lake, "SELECT * FROM player_stats")
    assert view.columns == stats.columns
    assert sorted(view.rows) == sorted(stats.rows)
    assert len(stats.rows) > 3


def test_views_sql_holds_the_player_stats_view_as_written_from_its_definitions() -> None:
    text = VIEWS_SQL.read_text(encoding="utf-8")
    block = text.split(VIEW_START, 1)[1].split(VIEW_END, 1)[0]
    assert block == view_sql(), "run python -m pipeline.lake.stats_sql and review the diff"


def test_a_lake_written_before_pots_had_runouts_counts_the_same_wins_at_showdown(
    lake: Path, tmp_path: Path
) -> None:
    """A lake from before pots had a row per runout has no pots.runout column (it reads as
    null): its wins at showdown were all lost (every W$SD 0), as the player_stats view's."""
    import shutil

    old = tmp_path / "old"
    shutil.copytree(lake, old)
    for path in (old / "pots").rglob("*.parquet"):
        table = pq.read_table(path)
        pq.write_table(table.drop_columns(["runout"]), path)
    query = "SELECT player, wsd FROM player_stats ORDER BY ALL"
    assert run_query(old, query).rows == run_query(lake, query).rows
    assert sum(n for _, n in run_query(lake, query).rows) > 0
    new, was = player_stats(lake, StatsFilter()), player_stats(old, StatsFilter())
    assert was.rows == new.rows


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


def test_rows_come_in_one_order_most_hands_first_then_by_the_groups(lake: Path) -> None:
    result = player_stats(lake, StatsFilter(by=("variant", "position")))
    at = result.columns.index
    keys = [
        (-row[at("hands")], row[at("player")], row[at("variant")], row[at("position")])
        for row in result.rows
    ]
    assert len(keys) > 20 and len({k[0] for k in keys}) < len(keys)  # ties to break
    assert keys == sorted(keys)


def test_cli_formats(lake: Path, tmp_path: Path) -> None:
    table = runner.invoke(app, ["stats", "--lake", str(lake), "--min-hands", "50"])
    assert table.exit_code == 0, table.stderr
    assert "VPIP" in table.stdout and "bb/100" in table.stdout and "net bb" in table.stdout
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
    assert rows("--stakes", "1.000000000000") == rows("--stakes", "1")  # zeros are no unit
    assert rows("--stakes", "1.00")  # the generated hands have 1.00 big blinds
    assert rows("--position", "btn") == rows("--position", "BTN") != []
    for args, message in [
        (["--variant", "plo"], "unknown variant 'plo'; choose from omaha, omaha-hilo"),
        (["--betting", "pl"], "unknown betting 'pl'; choose from fixed-limit"),
        (["--stakes", "NaN"], "--stakes takes a big blind such as 0.10, not 'NaN'"),
        (["--stakes", "1e40"], "--stakes takes a big blind such as 0.10, not '1e40'"),
        (["--stakes", "-1"], "--stakes takes a big blind such as 0.10, not '-1'"),
        (["--stakes", "1e-20"], "--stakes takes a big blind such as 0.10, not '1e-20'"),
        (["--stakes", "١"], "--stakes takes a big blind such as 0.10, not '١'"),
        (["--stakes", "1." + "0" * 27 + "1"], "--stakes takes a big blind such as 0.10"),
    ]:
        bad = runner.invoke(app, ["stats", "--lake", str(lake), *args])
        assert bad.exit_code == 2
        said = " ".join(bad.stderr.replace("│", " ").split())  # the box rich draws, unwrapped
        assert message in said
        assert f"Invalid value for {args[0]}:" in said  # the option named


# ------------------------------------------------------------- hand-made hands, known answers

_HEADS_UP = [  # seat 1 (button, small blind) raises; seat 2 folds: seat 1 wins the big blind
    post(1, "small", "0.50"),
    post(2, "big", "1.00"),
    raise_to(1, "3.00"),
    fold(2),
    uncalled(1, "2.00"),
]


def _hand(hand_id: str, actions: list[Json], **fields: object) -> Json:
    """A hand of Ann (seat 1), Bob (seat 2) and, with ``stacks`` of three, Cat (seat 3)."""
    stacks = fields.pop("stacks", ["100.00", "100.00"])
    assert isinstance(stacks, list)
    game: Json = {
        "variant": "omaha",
        "hole_cards": 4,
        "betting": "pot-limit",
        "small_blind": "0.50",
        "big_blind": "1.00",
        "currency": "USD",
        "unit": "0.01",
    }
    game.update(fields.pop("game", {}))  # type: ignore[call-overload]
    return {
        "hand_id": hand_id,
        "site": "Known",
        "table": "T",
        "started_at": fields.pop("started_at", "2026-03-02T19:00:00Z"),
        "game": game,
        "button": 1 if len(stacks) == 2 else 3,
        "seats": [
            {"seat": k + 1, "player": name, "stack": stack}
            for k, (name, stack) in enumerate(zip(("Ann", "Bob", "Cat"), stacks, strict=False))
        ],
        "actions": actions,
        **fields,
    }


def _stats(tmp_path: Path, *hands: Json, **spec: Any) -> dict[tuple[str, str], dict[str, Any]]:
    log = tmp_path / "hands.jsonl"
    log.write_text("".join(json.dumps(hand) + "\n" for hand in hands))
    run_lake([str(log)], tmp_path / "lake", workers=1)
    result = player_stats(tmp_path / "lake", StatsFilter(**spec))
    rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    return {(row["player"], row["currency"]): row for row in rows}


def test_nets_of_different_units_add_up_exactly_and_stakes_group_by_value(
    tmp_path: Path,
) -> None:
    cents = _hand("CENTS", _HEADS_UP)
    mills = _hand("MILLS", _HEADS_UP, game={"unit": "0.001"})  # the same hand in 1/1000s
    rows = _stats(tmp_path, cents, mills, by=("stakes",))
    ann = rows[("Ann", "USD")]
    assert (ann["hands"], ann["stakes"], ann["scale"], ann["net"]) == (2, "1.00", 3, 2000)
    assert (ann["net_won"], ann["net_bb"], ann["bb_per_100"]) == ("2.000", 2.0, 100.0)
    assert (rows[("Bob", "USD")]["net_won"], rows[("Bob", "USD")]["net_bb"]) == ("-2.000", -2.0)
    view = run_query(tmp_path / "lake", "SELECT net_won FROM player_stats WHERE player = 'Ann'")
    assert view.rows == [("2.000",)]


def test_tournament_chips_are_never_added_to_cash(tmp_path: Path) -> None:
    chips = [post(1, "small", "50"), post(2, "big", "100"), raise_to(1, "300"), fold(2)]
    chips.append(uncalled(1, "200"))
    tournament = _hand(
        "TOURNEY",
        chips,
        stacks=["1500", "1500"],
        game={"small_blind": "50", "big_blind": "100", "unit": "1"},
        tournament={"id": "T1"},
    )
    rows = _stats(tmp_path, tournament, _hand("CASH", _HEADS_UP))
    assert rows[("Ann", "USD")]["net_won"] == "1.00"
    assert rows[("Ann", "USD tournament")]["net_won"] == "100"


def test_tournament_chips_are_never_added_to_play_chips_at_a_cash_table(tmp_path: Path) -> None:
    chips = [post(1, "small", "50"), post(2, "big", "100"), raise_to(1, "300"), fold(2)]
    chips.append(uncalled(1, "200"))
    game = {"small_blind": "50", "big_blind": "100", "unit": "1", "currency": "CHIPS"}
    stacks = ["1500", "1500"]
    tournament = _hand("TOURNEY", chips, stacks=stacks, game=game, tournament={"id": "T1"})
    cash = _hand("CASH", chips, stacks=stacks, game=game)
    rows = _stats(tmp_path, tournament, cash)
    assert rows[("Ann", "CHIPS")]["net_won"] == "100"
    assert rows[("Ann", "CHIPS tournament")]["net_won"] == "100"


def test_only_hands_replayed_to_the_end_count(tmp_path: Path) -> None:
    three = ["100.00", "100.00", "100.00"]
    flop = [post(1, "small", "0.50"), post(2, "big", "1.00"), raise_to(3, "3.00")]
    flop += [call(1, "2.50"), call(2, "2.00"), board("Kh9s4d"), check(1), check(2)]
    flop += [bet(3, "9.00"), fold(1), call(2, "9.00")]
    invalid = _hand("INVALID", [*flop, board("2c"), bet(7, "5.00")], stacks=three)
    collected = [{"seat": 3, "amount": "27.00", "pot": 0}]
    partial = _hand("PARTIAL", flop, stacks=three, partial=True, result={"collected": collected})
    void = _hand("VOID", _HEADS_UP[:2], cancelled=True)
    rows = _stats(tmp_path, invalid, partial, void, _hand("OK", _HEADS_UP))
    statuses = run_query(tmp_path / "lake", "SELECT status FROM hands ORDER BY status").rows
    assert statuses == [("invalid",), ("ok",), ("partial",), ("void",)]
    assert set(rows) == {("Ann", "USD"), ("Bob", "USD")}
    assert [rows[p, "USD"]["hands"] for p in ("Ann", "Bob")] == [1, 1]
    assert [rows[p, "USD"]["net_won"] for p in ("Ann", "Bob")] == ["1.00", "-1.00"]
    (tmp_path / "void.jsonl").write_text(json.dumps(void) + "\n")
    run_lake([str(tmp_path / "void.jsonl")], tmp_path / "void", workers=1)
    said = runner.invoke(app, ["stats", "--lake", str(tmp_path / "void")])
    assert (said.exit_code, said.stdout) == (0, "")
    assert "holds no hand that statistics count (void, invalid and partial" in said.stderr


def test_days_are_utc_days_whatever_the_local_time_zone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "America/New_York")  # 02:00 UTC on the 2nd is the 1st there
    time.tzset()
    try:
        early = _hand("EARLY", _HEADS_UP, started_at="2026-03-02T02:00:00Z")
        day = date(2026, 3, 2)
        rows = _stats(tmp_path, early, since=day, until=day)
        assert rows[("Ann", "USD")]["hands"] == 1
    finally:
        monkeypatch.undo()
        time.tzset()


def test_wsd_counts_money_won_at_showdown_not_a_side_pot_left_uncontested(
    tmp_path: Path,
) -> None:
    side = [post(1, "small", "0.50"), post(2, "big", "1.00")]
    side += [deal(1, "2c3d4h5s"), deal(2, "7c7d8h9s"), deal(3, "AhAsKhKs")]
    side += [raise_to(3, "10.00", all_in=True), call(1, "9.50"), call(2, "9.00")]
    side += [board("Ad2h6c"), bet(1, "20.00"), call(2, "20.00")]
    side += [board("Tc"), bet(1, "30.00"), fold(2), uncalled(1, "30.00")]
    side += [board("Jd"), show(1, "2c3d4h5s"), show(3, "AhAsKhKs")]
    hand = _hand("SIDE", side, stacks=["100.00", "100.00", "10.00"], game={"betting": "no-limit"})
    rows = _stats(tmp_path, hand)
    ann, cat = rows[("Ann", "USD")], rows[("Cat", "USD")]
    assert (ann["wsd"], ann["wsd_opp"], ann["wwsf"]) == (0, 1, 1)  # won the side pot alone
    assert (cat["wsd"], cat["wsd_opp"]) == (1, 1)
    view = run_query(tmp_path / "lake", "SELECT player, wsd FROM player_stats ORDER BY player")
    assert view.rows == [("Ann", 0), ("Bob", 0), ("Cat", 1)]


def test_hands_without_a_big_blind_have_no_bb_per_100(tmp_path: Path) -> None:
    antes = [post(1, "ante", "1.00"), post(2, "ante", "1.00"), bet(1, "2.00"), fold(2)]
    antes.append(uncalled(1, "2.00"))
    ante_only = _hand("ANTES", antes, game={"small_blind": "0", "big_blind": "0", "ante": "1.00"})
    rows = _stats(tmp_path, ante_only, _hand("BLINDS", _HEADS_UP))
    ann = rows[("Ann", "USD")]
    assert (ann["hands"], ann["net_won"], ann["bb_per_100"]) == (2, "2.00", 100.0)


def test_stakes_group_by_value_whatever_the_unit_it_was_written_in(tmp_path: Path) -> None:
    whole = [post(1, "small", "1"), post(2, "big", "2"), raise_to(1, "6"), fold(2)]
    whole.append(uncalled(1, "4"))
    units = {"small_blind": "1", "big_blind": "2"}
    hands = [
        _hand(f"U{k}", whole, stacks=["100", "100"], game={**units, "unit": unit})
        for k, unit in enumerate(("1", "0.1", "0.01", "0.001"))
    ]
    chips = {**units, "currency": "CHIPS"}
    hands += [
        _hand(f"C{k}", whole, stacks=["100", "100"], game={**chips, "unit": unit})
        for k, unit in enumerate(("1", "0.01"))
    ]
    rows = _stats(tmp_path, *hands, player="Ann", by=("stakes",))
    assert {key: (row["stakes"], row["hands"]) for key, row in rows.items()} == {
        ("Ann", "USD"): ("2.00", 4),
        ("Ann", "CHIPS"): ("2", 2),
    }
    filtered = player_stats(tmp_path / "lake", StatsFilter(player="Ann", stakes="2"))
    assert [(row[1], row[2]) for row in filtered.rows] == [("USD", 4), ("CHIPS", 2)]


def test_hi_lo_pot_kinds_count_hi_lo_games_only(tmp_path: Path) -> None:
    heads_up = [*_HEADS_UP[:2], call(1, "0.50"), check(2), board("2c3d4h"), check(2), check(1)]
    heads_up += [board("9s"), check(2), check(1), board("Kd"), check(2), check(1)]
    heads_up += [show(2, "AsAhQcJd"), show(1, "5c6c7h8h")]
    high = _hand("HIGH", heads_up)
    hilo = _hand("HILO", heads_up, game={"variant": "omaha-hilo"})
    rows = _stats(tmp_path, high, hilo)
    ann, bob = rows[("Ann", "USD")], rows[("Bob", "USD")]
    kinds = ("pots_won", "scoops", "high_only", "low_only", "quartered")
    # Ann's six-high straight wins the high of both games, and her 6-5-4-3-2 the low; Bob's
    # two aces make no low (it takes two hole cards of different ranks): she scoops both
    assert [ann[k] for k in kinds] == [1, 1, 0, 0, 0]
    assert [bob[k] for k in kinds] == [0, 0, 0, 0, 0]
    seats = run_query(
        tmp_path / "lake", "SELECT sum(pots_won), sum(scoops) FROM seats WHERE player = 'Ann'"
    )
    assert seats.rows == [(2, 2)]  # the seats table counts the pots of every game


def test_a_showdown_the_rules_could_not_settle_is_left_out_of_the_statistics(
    tmp_path: Path,
) -> None:
    """A hand that ends on the turn with both players in (hand-not-finished) is judged to
    the end, but its pots are awarded to nobody: counted, its nets were each seat's chips
    put in, lost."""
    cards = [deal(1, "AhKhQhJh"), deal(2, "2c3c4d5d"), call(1, "0.50"), check(2)]
    streets = [board("Ts9s8d"), check(2), check(1), board("7h"), check(2), check(1)]
    shows = [show(2, "2c3c4d5d"), show(1, "AhKhQhJh")]
    short = _hand("SHORT", [post(1, "small", "0.50"), post(2, "big", "1.00"), *cards, *streets])
    short["actions"] += shows  # type: ignore[operator]
    rows = _stats(tmp_path, short, _hand("OK", _HEADS_UP))
    ann, bob = rows[("Ann", "USD")], rows[("Bob", "USD")]
    assert (ann["hands"], ann["net"], bob["hands"], bob["net"]) == (1, 100, 1, -100)
    lake = tmp_path / "lake"
    settled = run_query(lake, "SELECT hand_id, status, settled FROM hands ORDER BY hand_id")
    assert settled.rows == [("OK", "ok", True), ("SHORT", "violations", False)]
    view = run_query(lake, "SELECT hands, net FROM player_stats WHERE player = 'Bob'")
    assert view.rows == [(1, -100)]
    payouts = {p.payouts: p.hands for p in audit(lake).payouts}
    assert payouts["not checked: the rules could not award the pots"] == 1


def test_a_pot_nobody_showed_a_hand_for_is_not_settled_and_not_counted(tmp_path: Path) -> None:
    """Checked to the river, no hand shown: the rules cannot award the pot (unclaimed-pot),
    whatever the log says was collected."""
    actions = [post(1, "small", "0.50"), post(2, "big", "1.00"), call(1, "0.50"), check(2)]
    for cards in ("Ts9s8d", "7h", "2c"):
        actions += [board(cards), check(2), check(1)]
    paid = {"collected": [{"seat": 1, "amount": "2.00", "pot": 0}]}
    rows = _stats(tmp_path, _hand("NOSHOW", actions, result=paid), _hand("OK", _HEADS_UP))
    assert (rows[("Ann", "USD")]["hands"], rows[("Ann", "USD")]["net"]) == (1, 100)
    lake = tmp_path / "lake"
    hands = run_query(lake, "SELECT hand_id, settled, payouts_match FROM hands ORDER BY 1")
    assert hands.rows == [("NOSHOW", False, False), ("OK", True, None)]
    payouts = {p.payouts: p.hands for p in audit(lake).payouts}
    assert payouts["differ from the log"] == 1  # compared, and they differ


def test_a_player_seated_twice_is_left_out_of_that_hands_statistics(tmp_path: Path) -> None:
    three = ["100.00", "100.00", "100.00"]
    actions = [post(1, "small", "0.50"), post(2, "big", "1.00"), fold(3), fold(1)]
    actions.append(uncalled(2, "0.50"))
    twice = _hand("TWICE", actions, stacks=three)
    seats = twice["seats"]
    assert isinstance(seats, list)
    seats[2]["player"] = "Ann"  # Ann in seats 1 and 3
    rows = _stats(tmp_path, twice, _hand("OK", _HEADS_UP))
    assert rows[("Ann", "USD")]["hands"] == 1  # the other hand only
    assert (rows[("Ann", "USD")]["vpip_opp"], rows[("Bob", "USD")]["hands"]) == (1, 2)
    view = run_query(tmp_path / "lake", "SELECT hands FROM player_stats WHERE player = 'Ann'")
    assert view.rows == [(1,)]


def test_the_table_shows_the_aggression_factor_with_both_counts(tmp_path: Path) -> None:
    """STATS.md: reports show both counts. Ann bets once and calls once after the flop (AF
    1/1); Bob bets once and calls nothing (no AF: no call to divide by)."""
    actions = [*_HEADS_UP[:3], call(2, "2.00"), board("Kh9s4d"), bet(2, "3.00"), call(1, "3.00")]
    actions += [board("2c"), check(2), bet(1, "6.00"), fold(2), uncalled(1, "6.00")]
    log = tmp_path / "hands.jsonl"
    log.write_text(json.dumps(_hand("AF", actions)) + "\n")
    run_lake([str(log)], tmp_path / "lake", workers=1)
    table = runner.invoke(app, ["stats", "--lake", str(tmp_path / "lake")])
    assert table.exit_code == 0, table.stderr
    lines = {line.split("│")[1].strip(): line for line in table.stdout.splitlines()[3:-1]}
    assert lines["Ann"].rstrip("│ ").split("│")[-4].strip() == "1.0 (1/1)"
    assert lines["Bob"].rstrip("│ ").split("│")[-4].strip() == "-"
