"""Hole cards by table position: a test that the deal favours no seat relative to the button.

The tests of hole cards by their index in the hand (1st card, 2nd card …) and of ranks and
suits pooled over every known hole card cannot see a deal that moves good cards from one
player to another: every card still turns up as often at each index. Under a fair deal every
player's known hole cards are uniform over the 52 cards whatever other cards are known, so the
same sample (``deal`` rows whose cards the log shows; never shown cards, which play selects)
split by the seat's table position (``seats.position``: SB, BB, UTG … CO, BTN, named from the
button) shows the same rank and suit frequencies at every position. One player's cards per
hand (the hero of a site's export) are a sample too: they are known whatever was played, and
the hero's position changes from hand to hand.

**The tests.** A chi-square test of homogeneity, positions × ranks (13 cells a position) and
positions × suits (4): the cell of position p and rank r expects n_p · X_r / n (n_p the known
cards at p, X_r those of rank r at every position tested, n all of them), with (P − 1)(K − 1)
degrees of freedom for P positions and K ranks or suits. A position takes part when its cells
expect at least 5 under a fair deal (n_p ≥ 5K: 65 cards for ranks); a test needs two such
positions (``needed``: 2 · 5K cards). Only the sample's sizes decide, never the cards.

**Dealt without replacement.** A hand's cards at position p (m_p of them) and at the other
positions come from one deck: per hand the count vectors have covariance Π · m_p(52 − m_p)/51
at p and −Π · m_p m_q / 51 between p and q (Π the multinomial covariance of one card). Pearson's
statistic of homogeneity is then a weighted sum of chi-squares whose mean weight is

    c = (Σ_p c_p − c_all) / (P − 1),

c_p the factor of :func:`~pipeline.reports.fairness_stats.without_replacement` over the cards
at p alone and c_all over every card of the test (the weight of the positions' pooled
counts, which a test of homogeneity leaves out). The statistic reported is Pearson's divided
by c. When every hand gives the test the same positions' cards the weights are all equal and
the correction is exact: 52/51 when a table's every seat is known (a position that holds an ace
leaves fewer for the others, so the positions differ more than independent draws would),
(52 − m)/51 when one player's m cards are; a mix of table sizes lies in between (the tests
check the calibration on generated hands).

>>> hero = {"SB": [2] * 52, "BB": [2] * 52}  # 26 hands as each, four cards a hand
>>> ranks, suits = position_tests(hero, {("SB", "SB"): 26 * 16, ("BB", "BB"): 26 * 16})
>>> ranks.name, ranks.df, ranks.statistic, suits.df
('hole cards: ranks by table position', 12, 0.0, 3)
>>> round(ranks.correction * 51, 6)  # one player's four cards: (52 - 4) / 51
48.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import duckdb

from pipeline.cards import RANKS, SUITS, parse_card, rank_of, suit_of
from pipeline.reports.fairness_stats import MIN_EXPECTED, ChiSquare, chi2_sf, pearson

__all__ = ["deal_position_tests", "position_order", "position_tests"]

_ORDER = {"SB": 0, "BB": 1, "UTG": 2, "MP": 3, "HJ": 4, "CO": 5, "BTN": 6}


def position_order(name: str) -> tuple[int, int, str]:
    """Return a sort key putting positions in dealing order from the button.

    >>> sorted(["BTN", "UTG+1", "CO", "SB", "UTG", "MP", "BB", "HJ"], key=position_order)
    ['SB', 'BB', 'UTG', 'UTG+1', 'MP', 'HJ', 'CO', 'BTN']
    """
    if name.startswith("UTG+") and name[4:].isdigit():
        return _ORDER["UTG"], int(name[4:]), name
    return _ORDER.get(name, len(_ORDER)), 0, name


def _grouped(cards: Sequence[int], cells: int) -> list[int]:
    key = rank_of if cells == len(RANKS) else suit_of
    out = [0] * cells
    for card, count in enumerate(cards):
        out[key(card)] += count
    return out


def _correction(
    tested: Sequence[str], n_at: Mapping[str, int], pairs: Mapping[tuple[str, str], int]
) -> float:
    """Return c = (Σ_p c_p − c_all) / (P − 1) over the positions ``tested``."""
    total = sum(n_at[p] for p in tested)
    each = sum((52 * n_at[p] - pairs.get((p, p), 0)) / (51 * n_at[p]) for p in tested)
    squares = sum(pairs.get((p, q), 0) for p in tested for q in tested)  # Σ_h (Σ_p m_hp)²
    return (each - (52 * total - squares) / (51 * total)) / (len(tested) - 1)


def _position_test(
    kind: str,
    cells: int,
    counts: Mapping[str, list[int]],
    pairs: Mapping[tuple[str, str], int],
) -> ChiSquare:
    labels_of = RANKS if cells == len(RANKS) else SUITS
    n_at = {p: sum(c) for p, c in counts.items()}
    tested = [p for p in sorted(counts, key=position_order) if n_at[p] >= MIN_EXPECTED * cells]
    shown = tested if len(tested) >= 2 else sorted(counts, key=position_order)
    observed = [o for p in shown for o in counts[p]]
    labels = tuple(f"{labels_of[k]} at {p}" for p in shown for k in range(cells))
    n = sum(observed)
    column = [sum(counts[p][k] for p in shown) for k in range(cells)]
    expected = tuple(n_at[p] * column[k] / n if n else 0.0 for p in shown for k in range(cells))
    statistic = p_value = None
    correction = 1.0
    df = (len(shown) - 1) * (cells - 1) if shown else 0
    if len(tested) >= 2:
        correction = _correction(tested, n_at, pairs)
        statistic = pearson(observed, expected) / correction
        p_value = chi2_sf(statistic, df)
    return ChiSquare(
        sample="hole cards",
        kind=f"{kind} by position",
        position=None,
        name=f"hole cards: {kind} by table position",
        n=n,
        needed=2 * MIN_EXPECTED * cells,
        observed=tuple(observed),
        df=df,
        correction=correction,
        statistic=statistic,
        p_value=p_value,
        labels=labels,
        expected=expected,
    )


def position_tests(
    cards: Mapping[str, Sequence[int]], pairs: Mapping[tuple[str, str], int]
) -> list[ChiSquare]:
    """Test ranks and suits of the known hole cards for homogeneity across table positions.

    ``cards`` maps a position to the count of each of the 52 cards known there; ``pairs``
    maps two positions (p, q) to Σ m_p · m_q over the hands, m_p a hand's known cards at p
    (both orders; (p, p) gives Σ m_p²). No test without a known card.
    """
    if not any(any(c) for c in cards.values()):
        return []
    out = []
    for kind, cells in (("ranks", len(RANKS)), ("suits", len(SUITS))):
        counts = {p: _grouped(c, cells) for p, c in cards.items() if any(c)}
        out.append(_position_test(kind, cells, counts, pairs))
    return out


_KNOWN = """
WITH dealt AS (
    SELECT a.site, a.hand_id, s.position::VARCHAR AS position, a.cards,
           unnest(range(length(a.cards) // 2)) AS k
    FROM actions a
    JOIN hands h ON a.site = h.site AND a.hand_id = h.hand_id
    JOIN seats s ON a.site = s.site AND a.hand_id = s.hand_id AND a.seat = s.seat
    WHERE a.type = 'deal' AND a.cards IS NOT NULL AND h.status <> 'void'
      AND s.position IS NOT NULL
), known AS MATERIALIZED (
    SELECT site, hand_id, position, substr(cards, 2 * k + 1, 2) AS card
    FROM dealt
    WHERE substr(cards, 2 * k + 1, 2) <> '??'
)
"""
_CARDS_SQL = _KNOWN + "SELECT position, card, count(*) FROM known GROUP BY ALL"
# Σ over hands of m_p · m_q, m_p the hand's known cards at position p
_PAIRS_SQL = (
    _KNOWN
    + """
, per_position AS MATERIALIZED (
    SELECT site, hand_id, position, count(*) AS m FROM known GROUP BY ALL
)
SELECT a.position, b.position, sum(a.m * b.m)
FROM per_position a JOIN per_position b ON a.site = b.site AND a.hand_id = b.hand_id
GROUP BY ALL
"""
)


def deal_position_tests(con: duckdb.DuckDBPyConnection) -> list[ChiSquare]:
    """Run :func:`position_tests` on the hole cards known at the deal in the lake on ``con``."""
    cards: dict[str, list[int]] = {}
    for position, text, n in con.execute(_CARDS_SQL).fetchall():
        try:
            card = parse_card(str(text))
        except ValueError:
            continue
        cards.setdefault(str(position), [0] * 52)[card] += int(n)
    pairs = {(str(p), str(q)): int(s) for p, q, s in con.execute(_PAIRS_SQL).fetchall()}
    return position_tests(cards, pairs)
