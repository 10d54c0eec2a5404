"""Player statistics (STATS.md) as DuckDB SQL over the lake: sums of the seats' flags.

Each statistic is ``done / opportunities`` over the hands selected, reported with both
counts. Only hands the rules replayed to the end and settled count (statuses ``ok`` and
``violations``): a void hand was cancelled, and the money and actions of an ``invalid`` or
``partial`` hand are not whole; a player dealt into two seats of one hand
(``duplicate-player``) is left out of that hand's. Money is never added across currencies:
rows are always grouped by currency, with tournament chips apart from cash (a tournament hand
is grouped as ``<currency> tournament``: ``CHIPS tournament`` apart from play chips).
Amounts of different scales in one group (a site writing some hands in cents, some in
tenths of a cent) are added at the finest of them, exactly; stakes are grouped by value
(``1``, ``1.00`` and ``1.000`` are one big blind). Filters are bound parameters; grouping
columns come from a fixed list, never from the user's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path

import duckdb

from pipeline.lake.query import QueryResult, read_lake
from pipeline.lake.stats_sql import COUNTED, CURRENCY, FROM, RATIOS, aggregates

__all__ = ["GROUPS", "RATIOS", "StatsFilter", "player_stats"]

_STAKES = (
    "CASE WHEN h.currency = 'CHIPS' AND h.scale > 0 "
    "THEN rtrim(rtrim(money_text(h.big_blind, h.scale), '0'), '.') "
    "WHEN h.currency = 'CHIPS' THEN money_text(h.big_blind, 0) "
    "ELSE regexp_replace(money_text(h.big_blind * CAST(pow(10, greatest(2, h.scale) - h.scale) "
    r"AS BIGINT), greatest(2, h.scale)), '(\.[0-9]{2}[0-9]*?)0+$', '\1') END"
)
"""The big blind as decimal text, by value, whatever the unit it was written in: money
with at least two decimals and no trailing zero beyond them (``2.00`` from ``2``, ``2.0``,
``2.00`` or ``2.000``; ``0.005``), tournament chips with as few as the value needs
(``100``, ``0.5``)."""

GROUPS: dict[str, str] = {
    "variant": "h.variant",
    "betting": "h.betting",
    "stakes": _STAKES,
    "position": "s.position",
    "site": "h.site",
    "month": "h.month",
    "currency": CURRENCY,
}
"""The ``--by`` groupings and the SQL expression of each (a fixed list: never user text)."""


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


def _sql(spec: StatsFilter) -> tuple[str, list[object]]:
    unknown = [g for g in spec.by if g not in GROUPS]
    if unknown:
        raise ValueError(f"unknown grouping {unknown[0]!r}; choose from {', '.join(GROUPS)}")
    keys = ["s.player AS player"]
    keys += [f"{GROUPS[g]} AS {g}" for g in spec.by if g != "currency"]
    keys.append(f"{CURRENCY} AS currency")
    columns = [*keys, *aggregates()]
    where = [COUNTED]
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
    if spec.since is not None:  # days in UTC, as the lake's months are
        where.append("h.started_at >= ?")
        params.append(_utc(spec.since))
    if spec.until is not None:
        where.append("h.started_at < ? + INTERVAL 1 DAY")
        params.append(_utc(spec.until))
    group = ", ".join(str(k + 1) for k in range(len(keys)))
    sql = (
        f"SELECT {', '.join(columns)} {FROM} "
        f"WHERE {' AND '.join(where)} GROUP BY {group} HAVING count(*) >= ? "
        f"ORDER BY hands DESC, {group}"  # the groups are unique: the same order every time
    )
    params.append(spec.min_hands)
    return sql, params


def _utc(day: date) -> datetime:
    """Return the start of a day in UTC (a bare date would be read in DuckDB's time zone)."""
    return datetime.combine(day, time(), tzinfo=UTC)


def player_stats(lake: str | Path, spec: StatsFilter = StatsFilter()) -> QueryResult:
    """Return one row per player (and grouping): hands, each ratio's counts, AF counts,
    net won (minor units and text) and bb/100, and the hi/lo pot kinds."""
    sql, params = _sql(spec)

    def read(con: duckdb.DuckDBPyConnection) -> QueryResult:
        cursor = con.execute(sql, params)
        columns = [d[0] for d in cursor.description or []]
        return QueryResult(columns, cursor.fetchall())

    return read_lake(lake, read)
