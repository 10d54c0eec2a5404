"""The statistics of the fairness tests: chi-square and Poisson tails, Holm's correction, the
without-replacement factor, and the record of one test (:class:`ChiSquare`).

Pure functions of numbers, no lake: :mod:`pipeline.reports.fairness` and its sibling modules
(:mod:`~pipeline.reports.fairness_board`, :mod:`~pipeline.reports.fairness_seats`) build their
tests from them.

>>> round(chi2_sf(3.841458820694124, 1), 6)
0.05
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
>>> holm([8.3e-19, 0.5])
[1.66e-18, 0.5]
>>> round(without_replacement([24] * 100), 4)  # six players' four cards each: 28/51
0.549
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "FAIL",
    "MIN_EXPECTED",
    "PASS",
    "TOO_FEW",
    "ChiSquare",
    "chi2_sf",
    "chi_square",
    "holm",
    "pearson",
    "poisson_sf",
    "regularized_gamma_q",
    "without_replacement",
]

MIN_EXPECTED = 5
"""The fewest observations every cell must expect for a chi-square test to mean anything."""
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


def poisson_sf(count: int, mean: float) -> float:
    """Return P(X >= count) for X Poisson distributed with ``mean``.

    Far in the tail the terms are summed from ``count`` up, so a tiny probability keeps its
    digits instead of vanishing in 1 − P(X < count).

    >>> poisson_sf(0, 2.0), poisson_sf(1, 0.0)
    (1.0, 0.0)
    >>> round(poisson_sf(1, 2.0), 12) == round(1 - math.exp(-2.0), 12)
    True
    >>> f"{poisson_sf(2, 1e-12):.6g}"  # ≈ mean² / 2
    '5e-25'
    """
    if count <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    if count <= mean:  # not the far tail: P(X >= k) = 1 − Q(k, mean)
        return max(0.0, 1.0 - regularized_gamma_q(count, mean))
    term = math.exp(-mean + count * math.log(mean) - math.lgamma(count + 1))
    total = 0.0
    i = count
    while term > total * _EPS:
        total += term
        i += 1
        term *= mean / i
    return min(1.0, total)


def chi_square(observed: Sequence[int]) -> tuple[float, int, float]:
    """Return (statistic, degrees of freedom, p-value) of Pearson's test that every cell is
    equally likely, for counts of independent draws (see :func:`without_replacement`).

    >>> chi_square([10, 10, 10, 10])
    (0.0, 3, 1.0)
    """
    n = sum(observed)
    cells = len(observed)
    expected = n / cells
    statistic = sum((o - expected) ** 2 for o in observed) / expected if n else 0.0
    return statistic, cells - 1, chi2_sf(statistic, cells - 1)


def pearson(observed: Sequence[int], expected: Sequence[float]) -> float:
    """Return Pearson's Σ (o − e)² / e over the cells that expect anything.

    >>> pearson([12, 8, 10], [10.0, 10.0, 10.0])
    0.8
    """
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


def without_replacement(cards_per_hand: Iterable[int]) -> float:
    """Return c = Σ m(52 − m) / (51 · Σ m): the factor by which dealing each hand's m cards
    from one deck shrinks Pearson's statistic (1.0 when no hand gives more than one card).

    >>> without_replacement([1, 1, 1]), without_replacement([52]), without_replacement([])
    (1.0, 0.0, 1.0)
    """
    spread = total = 0
    for m in cards_per_hand:
        spread += m * (52 - m)
        total += m
    return spread / (51 * total) if total else 1.0


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
    """One test: its sample, the counts per cell, and what they say.

    ``observed`` is per card (0..51, see :mod:`pipeline.cards`), per rank (deuce..ace) or per
    suit (clubs, diamonds, hearts, spades). ``statistic`` is Pearson's divided by
    ``correction`` (c of :func:`without_replacement`; 1.0 for a deck position).
    ``statistic``, ``p_value`` and ``p_holm`` are ``None`` when the test has too few
    observations to mean anything (``n < needed``, or a cell expecting fewer than
    :data:`MIN_EXPECTED`).

    A test whose cells expect unequal counts (by table position, board cards against the
    cards left) names its cells in ``labels`` and gives each cell's expected count in
    ``expected``; both are empty for a test whose every cell expects ``n / cells``.

    The repeated-deal test (sample ``"deals"``, kind ``"repeats"``) is no chi-square: ``n``
    counts the hands compared, ``observed`` holds the number that repeat an earlier deal,
    ``statistic`` is ``None`` and ``p_value`` is the Poisson tail (see the module).
    """

    sample: str
    kind: str
    position: int | None
    name: str
    n: int
    needed: int
    observed: tuple[int, ...]
    df: int
    correction: float
    statistic: float | None
    p_value: float | None
    p_holm: float | None = None
    result: str = TOO_FEW
    labels: tuple[str, ...] = ()
    expected: tuple[float, ...] = ()
