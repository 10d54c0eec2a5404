"""Hole cards by table position: the correction's closed forms, calibration on fair deals
(simulated and generated), the hero-only sample, and a deal that favours the small blind."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec
import pytest

from pipeline.cards import UNKNOWN, rank_of
from pipeline.generate import generate_hands
from pipeline.model import ActionType, HandRecord
from pipeline.reports.audit import audit
from pipeline.reports.audit_render import render_markdown
from pipeline.reports.fairness import VERDICT_FAIR, Fairness
from pipeline.reports.fairness_seats import position_order, position_tests
from pipeline.reports.fairness_stats import ChiSquare
from pipeline.rules.stats import positions
from tests.test_fairness_board import lake_of

ACE = 12  # rank_of an ace
BIASED = "evidence of bias at 1% after Holm"
RANKS_BY_SEAT = "hole cards: ranks by table position"
SUITS_BY_SEAT = "hole cards: suits by table position"
Counts = tuple[dict[str, list[int]], dict[tuple[str, str], int]]


def _dealt(
    rng: random.Random, hands: int, *, hero_only: bool = False, players: int | None = None
) -> Counts:
    """Deal ``hands`` hands (2 to 10 players, 4 to 6 hole cards each, unless ``players``
    is given: then 4) and count each known card at its seat's table position, with the
    sums Σ m_p · m_q; ``hero_only`` knows one player's cards a hand, at a random seat."""
    cards: dict[str, list[int]] = {}
    pairs: dict[tuple[str, str], int] = {}
    for _ in range(hands):
        hole = 4 if players else rng.choice((4, 4, 4, 5, 6))
        n = players or rng.randint(2, {4: 10, 5: 9, 6: 8}[hole])
        names = positions(n)
        deck = rng.sample(range(52), n * hole)
        known = [rng.randrange(n)] if hero_only else range(n)
        m: dict[str, int] = {}
        for i in known:
            for card in deck[i * hole : (i + 1) * hole]:
                cards.setdefault(names[i], [0] * 52)[card] += 1
            m[names[i]] = m.get(names[i], 0) + hole
        for p, mp in m.items():
            for q, mq in m.items():
                pairs[(p, q)] = pairs.get((p, q), 0) + mp * mq
    return cards, pairs


def test_the_correction_is_exact_for_one_table_size_and_for_the_hero() -> None:
    rng = random.Random(3)
    ranks, suits = position_tests(*_dealt(rng, 400, players=6))
    # every seat known: 52/51, the positions differing more than independent draws
    assert ranks.correction == pytest.approx(52 / 51) and suits.correction == ranks.correction
    assert (ranks.df, suits.df) == (5 * 12, 5 * 3)
    assert ranks.observed[:13] == tuple(ranks.observed[:13])  # the SB's ranks come first
    assert ranks.labels[0] == "2 at SB" and ranks.labels[-1] == "A at BTN"
    hero, _ = position_tests(*_dealt(rng, 1000, hero_only=True, players=6))
    assert hero.correction == pytest.approx(48 / 51)  # one player's four cards a hand


def test_the_corrected_statistic_is_chi_square_on_fair_deals() -> None:
    """Over 200 fair samples of mixed tables, every seat known or the hero's only, the
    statistic averages its degrees of freedom and 10% of p-values fall below 0.1."""
    rng = random.Random(20260611)
    for hero_only in (False, True):
        tests = [position_tests(*_dealt(rng, 250, hero_only=hero_only))[0] for _ in range(200)]
        assert all(t.statistic is not None and t.p_value is not None for t in tests)
        # rare positions (UTG+5) take part in some samples: the df vary a little
        excess = statistics.mean((t.statistic or 0.0) - t.df for t in tests)
        df = statistics.mean(t.df for t in tests)
        assert abs(excess) < 3 * (2 * df / 200) ** 0.5
        low = sum((t.p_value or 0.0) < 0.1 for t in tests)
        assert 6 <= low <= 36


def test_rare_positions_are_left_out_until_their_cells_expect_five() -> None:
    cards = {"SB": [2] * 52, "BB": [2] * 52, "UTG+5": [1] * 20 + [0] * 32}
    pairs = {("SB", "SB"): 26 * 16, ("BB", "BB"): 26 * 16, ("UTG+5", "UTG+5"): 5 * 16}
    ranks, suits = position_tests(cards, pairs)
    assert ranks.df == 12 and ranks.n == 208  # UTG+5's 20 cards: fewer than 65
    assert suits.df == 2 * 3 and suits.n == 228  # but enough for 4 suits (20 cards)
    lonely = position_tests({"SB": [3] * 52}, {("SB", "SB"): 39 * 16})
    assert [t.result for t in lonely] == ["insufficient data"] * 2
    assert [t.needed for t in lonely] == [2 * 5 * 13, 2 * 5 * 4]
    assert all(t.p_value is None for t in lonely)
    assert position_tests({}, {}) == []
    assert sorted(["CO", "UTG+2", "BB"], key=position_order) == ["BB", "UTG+2", "CO"]


# ----------------------------------------------------------------------- lakes on disk


def _without_deck(hand: HandRecord) -> HandRecord:
    actions = tuple(msgspec.structs.replace(a, burn=None) for a in hand.actions)
    return msgspec.structs.replace(hand, deck=None, actions=actions)


def _hero_only(hands: Iterable[HandRecord], seed: int) -> Iterator[HandRecord]:
    """The hands as a site exports them for one player, at a random seat of each: the
    others' hole cards '??', no deck (shown cards stay shown)."""
    rng = random.Random(seed)
    for hand in hands:
        seats = [a.seat for a in hand.actions if a.type is ActionType.DEAL]
        hero = rng.choice(seats)
        actions = tuple(
            msgspec.structs.replace(a, cards=(UNKNOWN,) * len(a.cards), burn=None)
            if a.type is ActionType.DEAL and a.seat != hero and a.cards
            else msgspec.structs.replace(a, burn=None)
            for a in hand.actions
        )
        yield msgspec.structs.replace(hand, deck=None, actions=actions, hero=hero)


def _named(fairness: Fairness, name: str) -> ChiSquare:
    return next(t for t in fairness.tests if t.name == name)


@pytest.mark.parametrize("seed", [101, 202, 303])
def test_fair_generated_hands_pass_by_table_position(tmp_path: Path, seed: int) -> None:
    fairness = audit(lake_of(tmp_path, "fair", generate_hands(1500, seed=seed))).fairness
    for name in (RANKS_BY_SEAT, SUITS_BY_SEAT):
        test = _named(fairness, name)
        assert test.result == "pass" and test.p_value is not None and test.p_value > 1e-3
        assert test.df // (12 if name == RANKS_BY_SEAT else 3) + 1 >= 6  # positions tested
    assert fairness.verdict == VERDICT_FAIR


def test_the_heros_cards_alone_are_tested_by_position(tmp_path: Path) -> None:
    hands = generate_hands(3000, seed=17)
    fairness = audit(lake_of(tmp_path, "hero", _hero_only(hands, 17))).fairness
    ranks = _named(fairness, RANKS_BY_SEAT)
    assert ranks.result == "pass" and ranks.df >= 12 * 5
    assert 46 / 51 <= ranks.correction <= 48 / 51  # one player's 4 to 6 cards a hand
    # every known card is the hero's; a rare position (UTG+5) may be too rare to count
    assert 0.99 * fairness.hole_cards <= ranks.n <= fairness.hole_cards
    # the board is no sample when only the hero's cards are known
    assert not [t for t in fairness.tests if t.sample == "boards"]


@pytest.mark.long
def test_a_deal_that_favours_the_small_blind_fails_by_table_position(tmp_path: Path) -> None:
    """Half the time the SB is given an ace another player holds, at the same index of
    their hole cards: every earlier test is blind to it (no deck recorded), the test by
    table position is not, every seat known or only the hero's."""
    rigged = [_without_deck(h) for h in generate_hands(20_000, seed=5, seat_bias=0.5)]
    aces = {"first": [0, 0], "others": [0, 0]}  # players holding an ace, players
    for hand in rigged:
        dealt = [a for a in hand.actions if a.type is ActionType.DEAL]
        for k, action in enumerate(dealt):  # dealt from the button: the SB first
            held = aces["first" if k == 0 else "others"]
            held[0] += any(rank_of(card) == ACE for card in action.cards or ())
            held[1] += 1
    assert aces["first"][0] / aces["first"][1] > 0.5 > 0.3 > aces["others"][0] / aces["others"][1]
    report = audit(lake_of(tmp_path, "rigged", rigged, workers=2))
    fairness = report.fairness
    assert fairness.verdict == BIASED
    assert {t.name for t in fairness.tests if t.result == "fail"} == {RANKS_BY_SEAT}
    assert "A at SB: " in render_markdown(report)
    hero = audit(lake_of(tmp_path, "hero", _hero_only(rigged, 5), workers=2)).fairness
    assert hero.verdict == BIASED
    assert {t.name for t in hero.tests if t.result == "fail"} == {RANKS_BY_SEAT}
