"""Player statistics (STATS.md) as DuckDB SQL over the lake: sums of the seats' flags.

Each statistic is ``done / opportunities`` over the hands selected, reported with both
counts. Only hands the rules replayed to the end and settled count (statuses ``ok`` and
``violations``): a void hand was cancelled, and the money and actions of an ``invalid`` or
``partial`` hand are not whole; a player dealt into two seats of one hand
(``duplicate-player``) is left out of that hand's. Money is never added across currencies:
rows are always grouped by currency, with tournament chips apart from cash (a tournament hand whose
currency is not ``CHIPS`` is grouped as ``<currency> tournament``). Amounts of different
scales in one group (a site writing some hands in cents, some in tenths of a cent) are
added at the finest of them, exactly; stakes are grouped by value (``1``, ``1.00`` and
``1.000`` are one big blind). Filters are bound parameters; grouping columns come from a fixed list,
never from the user's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path

from pipeline.lake.query import QueryResult, connect
from pipeline.money import MAX_SCALE

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

_CURRENCY = (
    "CASE WHEN h.tournament AND h.currency <> 'CHIPS' THEN h.currency || ' tournament' "
    "ELSE h.currency END"
)
"""A group's currency: tournament chips are never added to cash."""

_FINE = f"CAST(pow(10, {MAX_SCALE} - h.scale) AS HUGEINT)"
_NET = f"sum(s.net * {_FINE}) // CAST(pow(10, {MAX_SCALE} - max(h.scale)) AS HUGEINT)"
"""A group's net in units of its finest scale: every hand's net at the finest scale there
is, summed, then divided exactly (every term is a multiple of the divisor)."""

_SHOWDOWN_WINS = (
    "LEFT JOIN (SELECT DISTINCT a.site, a.hand_id, a.seat FROM awards a "
    "JOIN pots p ON p.site = a.site AND p.hand_id = a.hand_id AND p.pot_index = a.pot_index "
    "AND coalesce(p.runout, a.runout) = a.runout "  # a lake from before runout rows: none
    "WHERE len(p.eligible_seats) > 1) sd "
    "ON sd.site = s.site AND sd.hand_id = s.hand_id AND sd.seat = s.seat"
)
"""The seats that won money at showdown: a share of a pot two or more players contested
to the end (a side pot left to one player after the others folded is won without one)."""

_TWICE = (
    "LEFT JOIN (SELECT site, hand_id, player FROM seats "
    "SEMI JOIN (SELECT site, hand_id FROM violations WHERE code = 'duplicate-player') "
    "USING (site, hand_id) GROUP BY site, hand_id, player HAVING count(*) > 1) twice "
    "ON twice.site = s.site AND twice.hand_id = s.hand_id AND twice.player = s.player"
)
"""The players dealt into two seats of one hand (``duplicate-player``): their seats are
left out of that hand's statistics, as two seats' decisions are not one player's hand."""

_COUNTED = "h.status IN ('ok', 'violations') AND h.settled IS NOT FALSE AND twice.player IS NULL"
"""The hands statistics count: replayed to the end and settled (a showdown the rules could
not judge paid nobody, so its nets are not the hand's; a lake from before ``settled``
has it null, and counts them)."""

GROUPS: dict[str, str] = {
    "variant": "h.variant",
    "betting": "h.betting",
    "stakes": _STAKES,
    "position": "s.position",
    "site": "h.site",
    "month": "h.month",
    "currency": _CURRENCY,
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
    ("wsd", "s.went_to_showdown AND sd.seat IS NOT NULL", "s.went_to_showdown"),
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
    keys.append(f"{_CURRENCY} AS currency")
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
        f"CAST({_NET} AS BIGINT) AS net",
        "max(h.scale) AS scale",
        f"money_text({_NET}, max(h.scale)) AS net_won",
        # hands without a big blind (ante-only games) have no bb/100
        "round(100.0 * sum(s.net / nullif(h.big_blind, 0)) "
        "/ nullif(count(*) FILTER (WHERE h.big_blind > 0), 0), 2) AS bb_per_100",
        # the hi/lo kinds share the pots won in hi/lo games only (STATS.md: Hi/Lo)
        *(
            f"coalesce(sum(s.{kind}) FILTER (WHERE h.hi_lo), 0) AS {kind}"
            for kind in ("pots_won", "scoops", "high_only", "low_only", "quartered")
        ),
    ]
    where = [_COUNTED]
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
        f"SELECT {', '.join(columns)} FROM seats s JOIN hands h USING (site, hand_id) "
        f"{_SHOWDOWN_WINS} {_TWICE} "
        f"WHERE {' AND '.join(where)} GROUP BY {group} HAVING count(*) >= ? "
        f"ORDER BY hands DESC, player"
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
    con = connect(lake)
    try:
        cursor = con.execute(sql, params)
        columns = [d[0] for d in cursor.description or []]
        return QueryResult(columns, cursor.fetchall())
    finally:
        con.close()
