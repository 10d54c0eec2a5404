"""The player statistics' SQL (STATS.md), one definition for ``croupier stats`` and the lake's
``player_stats`` view.

Each statistic is ``done / opportunities`` summed over seat rows (``s``, the seats table)
joined with their hands (``h``). Only hands the rules replayed to the end and settled count;
money is never added across currencies; amounts of different scales in one group are added
at the finest of them, exactly (see :mod:`pipeline.reports.stats`).

``views.sql`` holds the ``player_stats`` view as :func:`view_sql` writes it, between two
marker lines; a test fails when they differ. After changing a definition here, rewrite it
with ``python -m pipeline.lake.stats_sql``.
"""

from __future__ import annotations

from pipeline.lake.query import VIEWS_SQL
from pipeline.money import MAX_SCALE

__all__ = [
    "COUNTED",
    "CURRENCY",
    "FROM",
    "RATIOS",
    "VIEW_END",
    "VIEW_START",
    "aggregates",
    "view_sql",
]

CURRENCY = "CASE WHEN h.tournament THEN h.currency || ' tournament' ELSE h.currency END"
"""A group's currency: tournament chips are never added to cash, nor to play chips
(``CHIPS`` at a cash table, as PHH and OHH hands without a currency are read)."""

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

FROM = f"FROM seats s JOIN hands h USING (site, hand_id) {_SHOWDOWN_WINS} {_TWICE}"
"""The rows statistics are summed over: seats with their hands (``h``), whether each won
at showdown (``sd``) and whether its player sat twice (``twice``)."""

COUNTED = "h.status IN ('ok', 'violations') AND h.settled IS NOT FALSE AND twice.player IS NULL"
"""The hands statistics count: replayed to the end and settled (a showdown the rules could
not judge paid nobody, so its nets are not the hand's; a lake from before ``settled``
has it null, and counts them)."""

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


def _sum(condition: str) -> str:
    return f"sum(CASE WHEN {condition} THEN 1 ELSE 0 END)"


def aggregates() -> list[str]:
    """Return the statistics' columns, as SQL over :data:`FROM`: hands, each ratio's counts
    (``name`` and ``name_opp``), the aggression counts, net won (minor units of the finest
    scale, as text, and in big blinds), bb/100 and the hi/lo pot kinds."""
    columns = ["count(*) AS hands"]
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
        # net won in big blinds (STATS.md), each hand's net in its own big blinds
        "round(sum(s.net / nullif(h.big_blind, 0)), 2) AS net_bb",
        # hands without a big blind (ante-only games) have no bb/100
        "round(100.0 * sum(s.net / nullif(h.big_blind, 0)) "
        "/ nullif(count(*) FILTER (WHERE h.big_blind > 0), 0), 2) AS bb_per_100",
        # the hi/lo kinds share the pots won in hi/lo games only (STATS.md: Hi/Lo)
        *(
            f"coalesce(sum(s.{kind}) FILTER (WHERE h.hi_lo), 0) AS {kind}"
            for kind in ("pots_won", "scoops", "high_only", "low_only", "quartered")
        ),
    ]
    return columns


VIEW_START = "-- player_stats: written by python -m pipeline.lake.stats_sql (do not edit)\n"
VIEW_END = "-- player_stats: end\n"


def view_sql() -> str:
    """Return the ``player_stats`` view: every statistic per player and currency, over the
    hands ``croupier stats`` counts, as ``croupier stats`` computes it with no filter."""
    columns = ",\n       ".join(["s.player", f"{CURRENCY} AS currency", *aggregates()])
    return (
        f"CREATE OR REPLACE VIEW player_stats AS\nSELECT {columns}\n{FROM}\n"
        f"WHERE {COUNTED}\nGROUP BY ALL;\n"
    )


def _rewrite() -> None:
    """Write :func:`view_sql` between the markers of views.sql."""
    text = VIEWS_SQL.read_text(encoding="utf-8")
    before, rest = text.split(VIEW_START, 1)
    _, after = rest.split(VIEW_END, 1)
    VIEWS_SQL.write_text(before + VIEW_START + view_sql() + VIEW_END + after, encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover - run by hand after changing a definition
    _rewrite()
