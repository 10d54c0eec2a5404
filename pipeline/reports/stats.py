"""Player statistics (STATS.md) as DuckDB SQL over the lake: sums of the seats' flags.

Each statistic is ``done / opportunities`` over the hands selected, reported with both
counts. Money is never added across currencies: rows are always grouped by currency (which
keeps tournament chips apart from cash). Filters are bound parameters; grouping columns
come from a fixed list, never from the user's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from pipeline.lake.query import QueryResult, connect

__all__ = ["GROUPS", "RATIOS", "StatsFilter", "player_stats"]

GROUPS: dict[str, str] = {
    "variant": "h.variant",
    "betting": "h.betting",
    "stakes": "money_text(h.big_blind, h.scale)",
    "position": "s.position",
    "site": "h.site",
    "month": "h.month",
    "currency": "h.currency",
}
"""The ``--by`` groupings and the SQL expression of each (a fixed list: never user text)."""

RATIOS: tuple[tuple[str, str, str], ...] = (
    ("vpip", "s.vpip", "s.vpip_opp"),
    ("pfr", "s.pfr", "s.vpip_opp"),
    ("three_bet", "s.three_bet", "s.three_bet_opp"),
    ("fold_to_three_bet", "s.fold_to_three_bet", "s.fold_to_three_bet_opp"),
    ("steal", "s.steal", "s.steal_opp"),
    ("cbet_flop", "s.cbet_flop", "s.cbet_flop_opp"),
    ("cbet_turn", "s.cbet_turn", "s.cbet_turn_opp"),
    ("cbet_river", "s.cbet_river", "s.cbet_river_opp"),
    ("fold_to_cbet_flop", "s.fold_to_cbet_flop", "s.fold_to_cbet_flop_opp"),
    ("fold_to_cbet_turn", "s.fold_to_cbet_turn", "s.fold_to_cbet_turn_opp"),
    ("fold_to_cbet_river", "s.fold_to_cbet_river", "s.fold_to_cbet_river_opp"),
    ("saw_flop", "s.saw_flop", "TRUE"),
    ("wtsd", "s.went_to_showdown", "s.saw_flop"),
    ("wsd", "s.went_to_showdown AND s.won > 0", "s.went_to_showdown"),
    ("wwsf", "s.saw_flop AND s.won > 0", "s.saw_flop"),
)
"""Each ratio statistic: its name, the SQL of 'done' and of 'opportunity' per seat row."""


@dataclass(frozen=True, slots=True)
class StatsFilter:
    """Which seats count (``None``: any) and how rows are grouped."""

    player: str | None = None
    variant: str | None = None
    betting: str | None = None
    stakes: str | None = None
    site: str | None = None
    position: str | None = None
    since: date | None = None
    until: date | None = None
    min_hands: int = 1
    by: tuple[str, ...] = field(default=())


def _sum(condition: str) -> str:
    return f"sum(CASE WHEN {condition} THEN 1 ELSE 0 END)"


def _sql(spec: StatsFilter) -> tuple[str, list[object]]:
    unknown = [g for g in spec.by if g not in GROUPS]
    if unknown:
        raise ValueError(f"unknown grouping {unknown[0]!r}; choose from {', '.join(GROUPS)}")
    keys = ["s.player AS player"]
    keys += [f"{GROUPS[g]} AS {g}" for g in spec.by if g != "currency"]
    keys.append("h.currency AS currency")
    columns = [
        *keys,
        "count(*) AS hands",
    ]
    for name, done, opportunity in RATIOS:
        columns.append(f"{_sum(done)} AS {name}")
        columns.append(f"{_sum(opportunity)} AS {name}_opp")
    columns += [
        "sum(s.postflop_aggressive) AS postflop_aggressive",
        "sum(s.postflop_calls) AS postflop_calls",
        "sum(s.postflop_folds) AS postflop_folds",
        "sum(s.net) AS net",
        "any_value(h.scale) AS scale",
        "money_text(sum(s.net), any_value(h.scale)) AS net_won",
        "round(100.0 * sum(s.net / h.big_blind) / count(*), 2) AS bb_per_100",
        "sum(s.pots_won) AS pots_won",
        "sum(s.scoops) AS scoops",
        "sum(s.high_only) AS high_only",
        "sum(s.low_only) AS low_only",
        "sum(s.quartered) AS quartered",
    ]
    where = ["h.status <> 'void'"]
    params: list[object] = []
    for condition, value in (
        ("s.player = ?", spec.player),
        ("h.variant = ?", spec.variant),
        ("h.betting = ?", spec.betting),
        # stakes as numbers: 1, 1.0 and 1.00 name the same big blind
        ("money_text(h.big_blind, h.scale)::DECIMAL(38, 9) = ?::DECIMAL(38, 9)", spec.stakes),
        ("h.site = ?", spec.site),
        ("s.position = ?", spec.position),
    ):
        if value is not None:
            where.append(condition)
            params.append(value)
    if spec.since is not None:
        where.append("h.started_at >= ?")
        params.append(spec.since)
    if spec.until is not None:
        where.append("h.started_at < ? + INTERVAL 1 DAY")
        params.append(spec.until)
    group = ", ".join(str(k + 1) for k in range(len(keys)))
    sql = (
        f"SELECT {', '.join(columns)} FROM seats s JOIN hands h USING (site, hand_id) "
        f"WHERE {' AND '.join(where)} GROUP BY {group} HAVING count(*) >= ? "
        f"ORDER BY hands DESC, player"
    )
    params.append(spec.min_hands)
    return sql, params


def player_stats(lake: str | Path, spec: StatsFilter = StatsFilter()) -> QueryResult:
    """Return one row per player (and grouping): hands, each ratio's counts, AF counts,
    net won (minor units and text) and bb/100, and the hi/lo pot kinds."""
    sql, params = _sql(spec)
    con = connect(lake)
    try:
        cursor = con.execute(sql, params)
        columns = [d[0] for d in cursor.description or []]
        return QueryResult(columns, cursor.fetchall())
    finally:
        con.close()
