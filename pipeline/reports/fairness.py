"""Fairness of the deal: chi-square tests on cards whose sample does not depend on play.

Two samples qualify. **Hole cards known at the deal**: the ``deal`` rows of the actions
table whose cards the log shows (every seat in generated logs, the hero's in a site's
export), each card counted at its position in the player's hole cards (1..n). **Deck
orders**: the ``deck`` column of hands whose log records the whole shuffled deck (burns
included), each card counted at its position from the top. Shown cards and boards are
never tested: which hands reach a showdown or a street depends on how they were played.

Tests: each of the 52 cards equally often at each hole-card position and at each of the 52
deck positions (the whole deck is recorded whether or not a card was dealt, so every
position is a fair sample), and ranks (13) and suits (4) of all known hole cards uniform.
A test is meaningful when every cell expects at least 5 observations (``needed`` says how
many that takes); p-values of the meaningful tests are corrected with Holm's method for
their number, and the verdict is read at ``alpha`` (1%): "evidence of bias" when any
test fails, else "not enough hands" unless some card-by-position test had enough data, else
"consistent with a fair deal".

>>> round(chi2_sf(3.841458820694124, 1), 6)
0.05
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
>>> holm([8.3e-19, 0.5])
[1.66e-18, 0.5]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import duckdb

from pipeline.cards import RANKS, SUITS, parse_card, rank_of, suit_of

__all__ = [
    "ALPHA",
    "MIN_EXPECTED",
    "VERDICT_BIASED",
    "VERDICT_FAIR",
    "VERDICT_TOO_FEW",
    "ChiSquare",
    "Fairness",
    "chi2_sf",
    "chi_square",
    "deal_fairness",
    "fairness_of_counts",
    "holm",
    "regularized_gamma_q",
]

ALPHA = 0.01
"""The significance level of the verdict, after Holm's correction."""
MIN_EXPECTED = 5
"""The fewest observations every cell must expect for a chi-square test to mean anything."""
VERDICT_FAIR = "consistent with a fair deal"
VERDICT_TOO_FEW = "not enough hands"
VERDICT_BIASED = "evidence of bias at {alpha:g}% after Holm"
PASS, FAIL, TOO_FEW = "pass", "fail", "insufficient data"

_EPS = 1e-15
_TINY = 1e-300


def regularized_gamma_q(a: float, x: float) -> float:
    """Return Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function.

    A power series for ``x < a + 1`` (where it converges fast), else a continued fraction
    evaluated with Lentz's method.

    >>> round(regularized_gamma_q(1.0, 2.0), 12) == round(math.exp(-2.0), 12)
    True
    """
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = 0
        while abs(term) > abs(total) * _EPS:
            n += 1
            term *= x / (a + n)
            total += term
            if n > 10_000:  # pragma: no cover - the series converges long before
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return min(1.0, math.exp(log_front) * h)


def chi2_sf(statistic: float, df: int) -> float:
    """Return P(X >= statistic) for X chi-square distributed with ``df`` degrees of freedom.

    >>> round(chi2_sf(2.0, 2), 12) == round(math.exp(-1.0), 12)
    True
    """
    return regularized_gamma_q(df / 2.0, statistic / 2.0)


def chi_square(observed: Sequence[int]) -> tuple[float, int, float]:
    """Return (statistic, degrees of freedom, p-value) of the test that every cell is equally
    likely.

    >>> chi_square([10, 10, 10, 10])
    (0.0, 3, 1.0)
    """
    n = sum(observed)
    cells = len(observed)
    expected = n / cells
    statistic = sum((o - expected) ** 2 for o in observed) / expected if n else 0.0
    return statistic, cells - 1, chi2_sf(statistic, cells - 1)


def holm(p_values: Sequence[float]) -> list[float]:
    """Return Holm's step-down adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = float(f"{running:.15g}")  # 15 significant digits: never 0 for 1e-19
    return adjusted


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """One uniformity test: its sample, the counts per cell, and what they say.

    ``observed`` is per card (0..51, see :mod:`pipeline.cards`), per rank (deuce..ace) or per
    suit (clubs, diamonds, hearts, spades). ``statistic``, ``p_value`` and ``p_holm`` are
    ``None`` when the test has too few observations to mean anything (``n < needed``).
    """

    sample: str
    kind: str
    position: int | None
    name: str
    n: int
    needed: int
    observed: tuple[int, ...]
    df: int
    statistic: float | None
    p_value: float | None
    p_holm: float | None
    result: str


@dataclass(frozen=True, slots=True)
class Fairness:
    """Every fairness test, the samples' sizes, and the plain verdict."""

    hole_hands: int
    hole_cards: int
    decks: int
    alpha: float
    tests: tuple[ChiSquare, ...]
    verdict: str

    @property
    def meaningful(self) -> tuple[ChiSquare, ...]:
        """Return the tests with enough observations."""
        return tuple(t for t in self.tests if t.p_value is not None)


def _test(sample: str, kind: str, position: int | None, counts: Sequence[int]) -> ChiSquare:
    cells = len(counts)
    labels = {"cards": "cards", "ranks": "ranks", "suits": "suits"}
    where = f" at position {position}" if position is not None else ""
    n = sum(counts)
    needed = MIN_EXPECTED * cells
    statistic = p_value = None
    if n >= needed:
        statistic, _, p_value = chi_square(counts)
    return ChiSquare(
        sample=sample,
        kind=kind,
        position=position,
        name=f"{sample}: {labels[kind]}{where}",
        n=n,
        needed=needed,
        observed=tuple(counts),
        df=cells - 1,
        statistic=statistic,
        p_value=p_value,
        p_holm=None,
        result=TOO_FEW,
    )


def fairness_of_counts(
    hole: Mapping[int, Sequence[int]],
    deck: Mapping[int, Sequence[int]],
    *,
    hole_hands: int,
    decks: int,
    alpha: float = ALPHA,
) -> Fairness:
    """Run every test on card counts: ``hole`` and ``deck`` map a position (from 1) to the
    count of each of the 52 cards seen there."""
    tests = [_test("hole cards", "cards", p, hole[p]) for p in sorted(hole)]
    ranks = [0] * len(RANKS)
    suits = [0] * len(SUITS)
    for counts in hole.values():
        for card, count in enumerate(counts):
            ranks[rank_of(card)] += count
            suits[suit_of(card)] += count
    if hole:
        tests.append(_test("hole cards", "ranks", None, ranks))
        tests.append(_test("hole cards", "suits", None, suits))
    tests += [_test("deck", "cards", p, deck[p]) for p in sorted(deck)]
    meaningful = [i for i, t in enumerate(tests) if t.p_value is not None]
    adjusted = holm([tests[i].p_value or 0.0 for i in meaningful])
    done = list(tests)
    for i, p in zip(meaningful, adjusted, strict=True):
        t = tests[i]
        done[i] = ChiSquare(
            sample=t.sample,
            kind=t.kind,
            position=t.position,
            name=t.name,
            n=t.n,
            needed=t.needed,
            observed=t.observed,
            df=t.df,
            statistic=t.statistic,
            p_value=t.p_value,
            p_holm=p,
            result=FAIL if p < alpha else PASS,
        )
    if any(t.result == FAIL for t in done):
        verdict = VERDICT_BIASED.format(alpha=100 * alpha)
    elif not any(t.kind == "cards" and t.p_value is not None for t in done):
        verdict = VERDICT_TOO_FEW  # ranks and suits alone say nothing of cards by position
    else:
        verdict = VERDICT_FAIR
    return Fairness(
        hole_hands=hole_hands,
        hole_cards=sum(sum(c) for c in hole.values()),
        decks=decks,
        alpha=alpha,
        tests=tuple(done),
        verdict=verdict,
    )


_HOLE_SQL = """
WITH dealt AS (
    SELECT a.cards, unnest(range(length(a.cards) // 2)) AS k
    FROM actions a JOIN hands h ON a.site = h.site AND a.hand_id = h.hand_id
    WHERE a.type = 'deal' AND a.cards IS NOT NULL AND h.status <> 'void'
)
SELECT k + 1 AS position, substr(cards, 2 * k + 1, 2) AS card, count(*) AS n
FROM dealt
WHERE substr(cards, 2 * k + 1, 2) <> '??'
GROUP BY ALL
"""
_HOLE_HANDS_SQL = """
SELECT count(DISTINCT a.site || chr(0) || a.hand_id)
FROM actions a JOIN hands h ON a.site = h.site AND a.hand_id = h.hand_id
WHERE a.type = 'deal' AND a.cards IS NOT NULL AND h.status <> 'void'
  AND regexp_matches(a.cards, '[2-9TJQKA][cdhs]')
"""
_DECK_SQL = """
WITH decks AS (
    SELECT deck, unnest(range(length(deck) // 2)) AS k
    FROM hands WHERE deck IS NOT NULL AND status <> 'void'
)
SELECT k + 1 AS position, substr(deck, 2 * k + 1, 2) AS card, count(*) AS n
FROM decks
GROUP BY ALL
"""
_DECKS_SQL = "SELECT count(*) FROM hands WHERE deck IS NOT NULL AND status <> 'void'"


def _counts(rows: Sequence[tuple[object, ...]]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for position, text, n in rows:
        assert isinstance(position, int) and isinstance(text, str) and isinstance(n, int)
        card = parse_card(text)
        if card < 0:
            continue
        out.setdefault(position, [0] * 52)[card] += n
    return out


def deal_fairness(con: duckdb.DuckDBPyConnection, *, alpha: float = ALPHA) -> Fairness:
    """Count the play-independent samples in the lake open on ``con`` and test them."""
    hole = _counts(con.execute(_HOLE_SQL).fetchall())
    deck = _counts(con.execute(_DECK_SQL).fetchall())
    hole_hands = con.execute(_HOLE_HANDS_SQL).fetchone()
    decks = con.execute(_DECKS_SQL).fetchone()
    return fairness_of_counts(
        hole,
        deck,
        hole_hands=int(hole_hands[0]) if hole_hands else 0,
        decks=int(decks[0]) if decks else 0,
        alpha=alpha,
    )
