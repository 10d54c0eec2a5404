"""The chi-square survival function, Holm's correction and the fairness verdicts."""

from __future__ import annotations

import math
import random

import pytest

from pipeline.reports.fairness import (
    VERDICT_FAIR,
    VERDICT_TOO_FEW,
    chi2_sf,
    chi_square,
    fairness_of_counts,
    holm,
    regularized_gamma_q,
)

# critical values from published chi-square tables: (statistic, df, upper tail probability)
TABLE = [
    (3.841, 1, 0.05),
    (6.635, 1, 0.01),
    (5.991, 2, 0.05),
    (11.345, 3, 0.01),
    (7.815, 3, 0.05),
    (21.026, 12, 0.05),
    (26.217, 12, 0.01),
    (77.386, 51, 0.01),
]


@pytest.mark.parametrize(("statistic", "df", "p"), TABLE)
def test_chi2_sf_matches_table_values(statistic: float, df: int, p: float) -> None:
    assert chi2_sf(statistic, df) == pytest.approx(p, abs=2e-4)


@pytest.mark.parametrize("x", [0.0, 1e-6, 0.3, 1.0, 2.5, 7.0, 19.0, 60.0, 300.0])
def test_chi2_sf_matches_closed_forms(x: float) -> None:
    # one degree of freedom: P(Z² ≥ x) = erfc(√(x/2)); two: exp(−x/2)
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=1e-300)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10, abs=1e-300)
    # an even df = 2k: Q(k, x/2) = exp(−x/2) Σ_{i<k} (x/2)^i / i!, on both sides of a + 1
    for k in (3, 6, 26):
        half = x / 2
        closed = math.exp(-half) * sum(half**i / math.factorial(i) for i in range(k))
        assert chi2_sf(x, 2 * k) == pytest.approx(closed, rel=1e-9, abs=1e-300)


def test_chi2_sf_agrees_with_scipy_where_installed() -> None:
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 3, 12, 51, 200):
        for x in (0.01, 0.5 * df, df, 1.5 * df + 3, 4.0 * df + 20):
            assert chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-9, abs=1e-300)


def test_regularized_gamma_bounds() -> None:
    assert regularized_gamma_q(2.5, 0.0) == 1.0
    assert 0.0 <= regularized_gamma_q(25.5, 500.0) < 1e-100
    with pytest.raises(ValueError, match="positive"):
        regularized_gamma_q(0.0, 1.0)


def test_holm_steps_down_and_never_lowers_a_p_value() -> None:
    raw = [0.001, 0.2, 0.012, 0.04, 0.9]
    adjusted = holm(raw)
    # sorted: 0.001×5, 0.012×4, 0.04×3, 0.2×2, 0.9×1 (made monotone)
    assert adjusted == pytest.approx([0.005, 0.4, 0.048, 0.12, 0.9])
    assert all(a >= r for a, r in zip(adjusted, raw, strict=True))
    assert holm([]) == []
    assert holm([0.6, 0.7]) == [1.0, 1.0]
    tiny = holm([8.3e-19, 1e-300, 0.5])  # rounding must not make a tiny p-value 0
    assert tiny[0] == pytest.approx(2 * 8.3e-19) and tiny[1] == pytest.approx(3e-300)


def test_chi_square_of_uniform_and_skewed_counts() -> None:
    assert chi_square([25] * 52) == (0.0, 51, 1.0)
    statistic, df, p = chi_square([80] + [20] * 51)
    assert df == 51
    expected = 1100 / 52
    assert statistic == pytest.approx(((80 - expected) ** 2 + 51 * (20 - expected) ** 2) / expected)
    assert p < 1e-10


def _sampled(rng: random.Random, n: int, weights: list[float] | None = None) -> list[int]:
    counts = [0] * 52
    for card in rng.choices(range(52), weights=weights, k=n):
        counts[card] += 1
    return counts


def test_fair_counts_pass_and_biased_counts_fail() -> None:
    rng = random.Random(5)
    fair = fairness_of_counts(
        {p: _sampled(rng, 2000) for p in (1, 2, 3, 4)}, {}, hole_hands=2000, decks=0
    )
    assert fair.verdict == VERDICT_FAIR
    assert len(fair.meaningful) == 6
    assert all(t.result == "pass" for t in fair.tests)
    weights = [1.0] * 52
    weights[51] = 2.0  # the ace of spades twice as likely
    biased = fairness_of_counts(
        {1: _sampled(rng, 5000, weights), 2: _sampled(rng, 5000)},
        {1: _sampled(rng, 5000)},
        hole_hands=5000,
        decks=5000,
    )
    assert biased.verdict == "evidence of bias at 1% after Holm"
    results = {t.name: t.result for t in biased.tests}
    assert results["hole cards: cards at position 1"] == "fail"
    assert results["hole cards: cards at position 2"] == "pass"
    assert results["deck: cards at position 1"] == "pass"
    holm_p = [t.p_holm for t in biased.tests]
    assert all(p is not None for p in holm_p)


def test_tests_without_enough_data_are_left_out_of_holm() -> None:
    rng = random.Random(9)
    result = fairness_of_counts({1: _sampled(rng, 100)}, {}, hole_hands=25, decks=0)
    cards = next(t for t in result.tests if t.kind == "cards")
    assert cards.result == "insufficient data" and cards.needed == 260
    assert cards.statistic is None and cards.p_holm is None
    assert result.verdict == VERDICT_TOO_FEW
    nothing = fairness_of_counts({}, {}, hole_hands=0, decks=0)
    assert nothing.tests == () and nothing.verdict == VERDICT_TOO_FEW
