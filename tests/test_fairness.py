"""The chi-square and Poisson tails, Holm's correction, the without-replacement correction,
hands written sorted, repeated deals, and the fairness verdicts."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Iterable, Sequence
from datetime import timedelta
from pathlib import Path

import msgspec
import pytest

from pipeline.cards import rank_of
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.model import ActionType, HandRecord
from pipeline.reports.audit import Audit, audit
from pipeline.reports.audit_render import render_markdown, sections
from pipeline.reports.fairness import (
    VERDICT_FAIR,
    VERDICT_TOO_FEW,
    ChiSquare,
    Fairness,
    TestKey,
    chi2_sf,
    chi_square,
    fairness_of_counts,
    holm,
    poisson_sf,
    regularized_gamma_q,
)
from pipeline.reports.fairness_board import board_pairs
from pipeline.run import run_lake

BIASED = "evidence of bias at 1% after Holm"

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


def test_poisson_tail_matches_closed_forms() -> None:
    for mean in (1e-30, 1e-9, 0.3, 2.0, 7.5, 40.0):
        # P(X ≥ 1) = 1 − e^−λ; P(X ≥ 2) = 1 − e^−λ (1 + λ)
        assert poisson_sf(1, mean) == pytest.approx(-math.expm1(-mean), rel=1e-9)
        two = -math.expm1(-mean) - mean * math.exp(-mean)
        if mean > 1e-4:  # below that the closed form itself loses every digit
            assert poisson_sf(2, mean) == pytest.approx(two, rel=1e-9)
    assert poisson_sf(2, 1e-9) == pytest.approx(1e-18 / 2, rel=1e-6)
    assert poisson_sf(3, 1e-20) == pytest.approx(1e-60 / 6, rel=1e-6)
    assert poisson_sf(0, 5.0) == 1.0 and poisson_sf(4, 0.0) == 0.0


# ------------------------------------------------------------ dealt without replacement

DECK = list(range(52))
ACES = frozenset(range(48, 52))


def _dealt(
    rng: random.Random, hands: int, players: int, cards: int, ace_weight: float = 1.0
) -> dict[int, list[int]]:
    """Deal ``hands`` hands from one shuffled deck each, round the table as a dealer does,
    and count each card at its position in the players' hole cards. An ace weighs
    ``ace_weight`` in the shuffle (Efraimidis-Spirakis keys: a card with a larger u^(1/w)
    comes off the deck earlier), 1.0 being a fair shuffle."""
    hole = {p: [0] * 52 for p in range(1, cards + 1)}
    dealt = players * cards
    for _ in range(hands):
        if ace_weight == 1.0:
            order = rng.sample(DECK, dealt)
        else:
            keys = [rng.random() ** (1 / ace_weight if c in ACES else 1.0) for c in DECK]
            order = sorted(DECK, key=keys.__getitem__, reverse=True)[:dealt]
        for k, card in enumerate(order):
            hole[k // players + 1][card] += 1
    return hole


def _factor(m: int) -> float:
    """c when every hand gives a test m cards: m(52 − m) / (51 m)."""
    return (52 - m) / 51


def _corrections(players: int, cards: int) -> dict[TestKey, float]:
    pooled = _factor(players * cards)
    out: dict[TestKey, float] = {("ranks", None): pooled, ("suits", None): pooled}
    out.update({("cards", p): _factor(players) for p in range(1, cards + 1)})
    return out


def _test_named(fairness: Fairness, name: str) -> ChiSquare:
    return next(t for t in fairness.tests if t.name == name)


def test_the_corrected_statistics_are_chi_square_on_a_fair_deal() -> None:
    rng = random.Random(20240611)
    corrected: dict[str, list[float]] = {"ranks": [], "suits": [], "position": []}
    pearson = []
    low_p = 0
    for _ in range(200):
        hole = _dealt(rng, 500, 6, 4)
        fixed = fairness_of_counts(hole, {}, hole_hands=500, decks=0, correction=_corrections(6, 4))
        plain = fairness_of_counts(hole, {}, hole_hands=500, decks=0)
        ranks = _test_named(fixed, "hole cards: ranks")
        assert ranks.statistic is not None and ranks.p_value is not None
        corrected["ranks"].append(ranks.statistic)
        low_p += ranks.p_value < 0.1
        corrected["suits"].append(_test_named(fixed, "hole cards: suits").statistic or 0.0)
        at_1 = _test_named(fixed, "hole cards: cards at position 1").statistic
        corrected["position"].append(at_1 or 0.0)
        pearson.append(_test_named(plain, "hole cards: ranks").statistic or 0.0)
    # a chi-square with df degrees of freedom averages df (sd √(2 df / 200) over 200 deals)
    assert statistics.mean(corrected["ranks"]) == pytest.approx(12, abs=1.1)
    assert statistics.mean(corrected["suits"]) == pytest.approx(3, abs=0.55)
    assert statistics.mean(corrected["position"]) == pytest.approx(51, abs=2.2)
    assert 6 <= low_p <= 36  # 10% of 200 p-values below 0.1, give or take 3 sd
    # Pearson's statistic alone averages 12 · 28/51 ≈ 6.6: the test was far too lenient
    assert statistics.mean(pearson) < 8


def test_a_shuffle_that_favours_aces_fails_once_corrected() -> None:
    # eight players, six cards each: 48 of 52 cards dealt, c = 4/51 for ranks
    rng = random.Random(7)
    hole = _dealt(rng, 4000, 8, 6, ace_weight=1.1)
    fixed = fairness_of_counts(hole, {}, hole_hands=4000, decks=0, correction=_corrections(8, 6))
    plain = fairness_of_counts(hole, {}, hole_hands=4000, decks=0)
    assert fixed.verdict == BIASED
    assert _test_named(fixed, "hole cards: ranks").result == "fail"
    assert _test_named(plain, "hole cards: ranks").result == "pass"  # before the correction
    # a fair shuffle of the same size still passes once corrected
    fair = fairness_of_counts(
        _dealt(rng, 4000, 8, 6), {}, hole_hands=4000, decks=0, correction=_corrections(8, 6)
    )
    assert fair.verdict == VERDICT_FAIR


def test_counts_without_a_correction_are_plain_pearson() -> None:
    counts = [30] * 51 + [81]
    fairness = fairness_of_counts({1: counts}, {}, hole_hands=1611, decks=0)
    cards = _test_named(fairness, "hole cards: cards at position 1")
    assert cards.correction == 1.0
    assert cards.statistic == pytest.approx(chi_square(counts)[0])


# ----------------------------------------------------------------------- lakes on disk


def _write(path: Path, hands: Iterable[HandRecord]) -> Path:
    with path.open("wb") as out:
        write_jsonl(hands, out)
    return path


def _without_deck(hand: HandRecord) -> HandRecord:
    actions = tuple(msgspec.structs.replace(a, burn=None) for a in hand.actions)
    return msgspec.structs.replace(hand, deck=None, actions=actions)


def _sorted(hand: HandRecord, *, high_first: bool) -> HandRecord:
    """The hand as a writer that sorts each player's cards by rank logs it (no deck)."""
    kinds = (ActionType.DEAL, ActionType.SHOW, ActionType.MUCK)
    actions = tuple(
        msgspec.structs.replace(a, cards=tuple(sorted(a.cards, key=rank_of, reverse=high_first)))
        if a.type in kinds and a.cards
        else a
        for a in _without_deck(hand).actions
    )
    return msgspec.structs.replace(hand, actions=actions)


def _hole(hand: HandRecord) -> list[tuple[int, ...]]:
    return [a.cards for a in hand.actions if a.type is ActionType.DEAL and a.cards]


def _pearson(counts: Sequence[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((o - expected) ** 2 for o in counts) / expected


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[HandRecord]]:
    """Generated hands logged in dealing order, and a lake of them."""
    root = tmp_path_factory.mktemp("fairness-dealt")
    hands = list(generate_hands(400, seed=23))
    run_lake([str(_write(root / "dealt.jsonl", hands))], root / "lake", workers=1)
    return root, hands


def test_the_lake_statistic_is_corrected_by_each_hands_known_cards(
    dealt: tuple[Path, list[HandRecord]],
) -> None:
    root, hands = dealt
    fairness = audit(root / "lake").fairness
    ranks = [0] * 13
    spread = total = 0
    positions: dict[int, list[int]] = {}
    position_spread: dict[int, int] = {}
    for hand in hands:
        rows = _hole(hand)
        m = sum(len(r) for r in rows)
        spread, total = spread + m * (52 - m), total + m
        for card in (c for r in rows for c in r):
            ranks[rank_of(card)] += 1
        for p in range(1, max(len(r) for r in rows) + 1):
            at_p = [r[p - 1] for r in rows if len(r) >= p]
            position_spread[p] = position_spread.get(p, 0) + len(at_p) * (52 - len(at_p))
            for card in at_p:
                positions.setdefault(p, [0] * 52)[card] += 1
    assert fairness.hole_cards == total and fairness.hole_hands == len(hands)
    rank_test = _test_named(fairness, "hole cards: ranks")
    assert rank_test.correction == pytest.approx(spread / (51 * total))
    assert rank_test.statistic == pytest.approx(_pearson(ranks) / rank_test.correction)
    for p, counts in positions.items():
        test = _test_named(fairness, f"hole cards: cards at position {p}")
        assert test.observed == tuple(counts)
        assert test.correction == pytest.approx(position_spread[p] / (51 * sum(counts)))
        if test.statistic is not None:
            assert test.statistic == pytest.approx(_pearson(counts) / test.correction)
    for test in fairness.tests:
        if test.sample == "deck":
            assert test.correction == 1.0
    assert "chi-square corrected for dealing without replacement" in render_markdown(
        audit(root / "lake")
    )


def test_files_written_sorted_are_left_out_of_the_position_tests(
    dealt: tuple[Path, list[HandRecord]], tmp_path: Path
) -> None:
    root, in_order = dealt
    falling = [_sorted(h, high_first=True) for h in generate_hands(300, seed=31)]
    rising = [_sorted(h, high_first=False) for h in generate_hands(60, seed=37)]
    inputs = [
        root / "dealt.jsonl",
        _write(tmp_path / "falling.jsonl", falling),
        _write(tmp_path / "rising.jsonl", rising),
    ]
    run_lake([str(p) for p in inputs], tmp_path / "lake", workers=1)
    report = audit(tmp_path / "lake")
    fairness = report.fairness
    assert fairness.unordered_sources == 2
    assert fairness.unordered_hands == len(falling) + len(rising)
    assert fairness.hole_hands == len(in_order) + len(falling) + len(rising)
    # the position tests count only the hands logged as dealt; ranks and suits count all
    in_order_cards = sum(len(r) >= 1 for h in in_order for r in _hole(h))
    at_1 = _test_named(fairness, "hole cards: cards at position 1")
    assert at_1.n == in_order_cards
    every_card = sum(len(r) for h in in_order + falling + rising for r in _hole(h))
    assert _test_named(fairness, "hole cards: ranks").n == every_card
    assert fairness.verdict == VERDICT_FAIR
    note = next(s for s in sections(report) if s.title == "Fairness of the deal").note
    assert "360 hands from 2 input file(s) left out of the card-by-position tests" in note
    # what the report could not test is said, not left for the reader to infer
    assert "not tested: cards shown at showdown, and boards of hands with a seat's" in note
    # tested by position, the sorted file alone looks rigged: what the exclusion prevents
    counts = {p: [0] * 52 for p in range(1, 7)}
    for hand in falling:
        for row in _hole(hand):
            for p, card in enumerate(row, 1):
                counts[p][card] += 1
    alone = fairness_of_counts(counts, {}, hole_hands=len(falling), decks=0)
    assert alone.verdict == BIASED


def _again(hand: HandRecord, k: int) -> HandRecord:
    """The same deal as ``hand`` under a new hand id, a day later."""
    later = hand.started_at + timedelta(days=1) if hand.started_at else None
    return msgspec.structs.replace(hand, hand_id=f"AGAIN-{k}", started_at=later)


def test_repeated_deals_fail_and_are_named(
    dealt: tuple[Path, list[HandRecord]], tmp_path: Path
) -> None:
    root, with_deck = dealt
    fair = audit(root / "lake").fairness
    repeat_test = _test_named(fair, "deals: repeated deals")
    assert fair.repeats.repeated == 0 and repeat_test.result == "pass"
    assert repeat_test.n == len(with_deck)  # every generated hand records its deck
    assert fair.verdict == VERDICT_FAIR
    no_deck = [_without_deck(h) for h in generate_hands(200, seed=41)]
    copies = [_again(with_deck[k], k) for k in (5, 77, 300)]
    copies += [_again(no_deck[k], 1000 + k) for k in (3, 150)]
    inputs = [
        root / "dealt.jsonl",
        _write(tmp_path / "no_deck.jsonl", no_deck),
        _write(tmp_path / "again.jsonl", copies),
    ]
    run_lake([str(p) for p in inputs], tmp_path / "lake", workers=1)
    report = audit(tmp_path / "lake")
    fairness = report.fairness
    assert fairness.repeats.repeated == 5
    assert {(r.hand_id, r.first_hand_id) for r in fairness.repeats.examples} == {
        ("AGAIN-5", with_deck[5].hand_id),
        ("AGAIN-77", with_deck[77].hand_id),
        ("AGAIN-300", with_deck[300].hand_id),
        ("AGAIN-1003", no_deck[3].hand_id),
        ("AGAIN-1150", no_deck[150].hand_id),
    }
    test = _test_named(fairness, "deals: repeated deals")
    assert test.result == "fail" and fairness.verdict == BIASED
    # p is the Poisson tail at C(n, 2) / P(52, k), k the fewest cards of a key
    keyed = fairness.repeats.hands
    assert len(with_deck) + 3 < keyed <= len(with_deck) + len(no_deck) + 5
    assert 12 <= fairness.repeats.shortest < 52
    chance = math.comb(keyed, 2) / math.perm(52, fairness.repeats.shortest)
    assert fairness.repeats.chance == pytest.approx(chance)
    assert test.p_value == pytest.approx(chance**5 / math.factorial(5), rel=1e-6)
    row = next(r for r in _fairness_rows(report) if r[0] == "deals: repeated deals")
    assert f"AGAIN-5 repeats {with_deck[5].hand_id}" in row[-1]
    assert "5 hand(s) repeat an earlier deal" in render_markdown(report)
    # the finding (the CSV row) names the repeated hands too, not the test alone
    finding = next(f for f in report.findings if f.kind == "deal-fairness")
    assert finding.message.startswith("deals: repeated deals: 5 hand(s) repeat an earlier deal")
    assert f"AGAIN-5 (Croupier Generator) repeats {with_deck[5].hand_id}" in finding.message


def _fairness_rows(report: Audit) -> tuple[tuple[str, ...], ...]:
    return next(s for s in sections(report) if s.title == "Fairness of the deal").rows


def test_a_failed_card_test_names_the_cells_that_deviate_most(
    dealt: tuple[Path, list[HandRecord]],
) -> None:
    root, _ = dealt
    report = audit(root / "lake")
    counts = [20] * 52
    counts[51], counts[45], counts[20] = 60, 2, 35  # As, Kd, 7c; 1077 cards: 20.7 each
    rigged = fairness_of_counts({1: counts}, {}, hole_hands=1077, decks=0)
    shown = dataclasses.replace(report, fairness=rigged)
    row = next(r for r in _fairness_rows(shown) if r[0] == "hole cards: cards at position 1")
    assert row[8] == "fail"
    assert row[-1] == "As: 60 vs 21 expected; Kd: 2 vs 21 expected; 7c: 35 vs 21 expected"
    assert "As: 60 vs 21 expected" in render_markdown(shown)
    passing = next(r for r in _fairness_rows(report) if r[0] == "hole cards: ranks")
    assert passing[8] == "pass" and passing[-1] == ""


# ------------------------------------------------------------------ the board against the hole


def _shuffled_deals(
    rng: random.Random, hands: int, players: int = 6, rigged: float = 0.0
) -> list[tuple[list[int], list[int]]]:
    """Deal ``hands`` hands of ``players`` × 4 hole cards and a five-card board; with
    ``rigged`` > 0, that share of boards swaps its first card for one pairing seat 1."""
    deals = []
    for _ in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        hole, board = deck[: 4 * players], deck[4 * players : 4 * players + 5]
        if rigged and rng.random() < rigged:
            ranks = {rank_of(c) for c in hole[:4]}
            rest = deck[4 * players + 5 :]
            pairing = [c for c in rest if rank_of(c) in ranks]
            if pairing:
                board[0] = pairing[0]
        deals.append((hole, board))
    return deals


def test_the_board_pairing_statistic_is_standard_normal_on_a_fair_deal() -> None:
    """Each board card comes from the cards left, so z is (nearly) standard normal: over 200
    fair samples its mean is near 0 and z² near 1, and about 10% of p-values fall below 0.1;
    ignoring the hole cards (expecting 3/51 per hole card of a rank) would not be."""
    rng = random.Random(11)
    zs = [board_pairs(_shuffled_deals(rng, 150)).z for _ in range(200)]
    mean = sum(zs) / len(zs)
    square = sum(z * z for z in zs) / len(zs)
    assert abs(mean) < 0.25 and 0.7 < square < 1.35
    low = sum(chi2_sf(z * z, 1) < 0.1 for z in zs) / len(zs)
    assert 0.04 < low < 0.18


def test_a_board_rigged_to_pair_one_seat_fails_and_names_the_counts() -> None:
    rng = random.Random(12)
    rigged = board_pairs(_shuffled_deals(rng, 2000, rigged=0.15))
    fair = board_pairs(_shuffled_deals(rng, 2000))
    assert rigged.z > 4 and abs(fair.z) < 3
    assert rigged.cards == fair.cards == 10_000 and rigged.hands == 2000
    verdicts = [
        fairness_of_counts({}, {}, hole_hands=0, decks=0, board=b).tests[0] for b in (rigged, fair)
    ]
    assert [t.kind for t in verdicts] == ["pairs", "pairs"]
    assert [t.result for t in verdicts] == ["fail", "pass"]
    assert verdicts[0].statistic == pytest.approx(rigged.z**2)


def test_a_failed_pairing_test_is_a_finding_with_its_counts() -> None:
    from pipeline.reports.audit import _failed_test

    rigged = board_pairs(_shuffled_deals(random.Random(12), 2000, rigged=0.15))
    fairness = fairness_of_counts({}, {}, hole_hands=0, decks=0, board=rigged)
    finding = _failed_test(fairness.tests[0], fairness)
    assert finding.kind == "deal-fairness" and finding.expected == "p >= 0.01 after Holm"
    assert finding.message == (
        f"boards: pairing the hole cards: board cards paired {rigged.observed} hole cards "
        f"vs {rigged.expected:.1f} expected (z = {rigged.z:+.1f})"
    )


def test_a_deal_with_a_card_twice_is_left_out_of_the_board_test() -> None:
    hole = list(range(24))
    assert board_pairs([(hole, [0, 30, 31])]).hands == 0  # the board repeats a hole card
    assert board_pairs([(hole, [30, 31, 32])]).hands == 1
