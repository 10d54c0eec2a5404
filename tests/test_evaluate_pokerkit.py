"""Differential tests against PokerKit's Omaha high and Omaha eight-or-better low hands.

Each deal seats 2 to 6 players around one board. For every deal the order of the players
(every pairwise comparison) and who qualifies for a low must match PokerKit; across all deals
our ranks must order PokerKit's hands the same way; the five cards we report must make a hand
PokerKit values the same, in the same category. PokerKit is slow (about a millisecond per
player), so the default run checks 2,000 deals per variant and the ``slow`` run 20,000.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pytest
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from pipeline.cards import format_cards
from pipeline.evaluate import NO_LOW, category_of, evaluate_batch

DEFAULT_DEALS = 2_000
SLOW_DEALS = 20_000


@pytest.fixture(autouse=True, scope="module")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROUPIER_CACHE_DIR", str(tmp_path_factory.mktemp("croupier-cache")))
        yield


@dataclass(frozen=True, slots=True)
class Deals:
    """Players of many deals, one row each, and the deal each row belongs to."""

    holes: list[list[int]]
    boards: list[list[int]]
    deal_of: list[int]


def deal(count: int, hole_size: int, board_size: int, seed: int) -> Deals:
    rng = random.Random(seed)
    holes: list[list[int]] = []
    boards: list[list[int]] = []
    deal_of: list[int] = []
    for number in range(count):
        players = rng.randint(2, 6)
        cards = rng.sample(range(52), board_size + players * hole_size)
        board = cards[:board_size]
        for player in range(players):
            start = board_size + player * hole_size
            holes.append(cards[start : start + hole_size])
            boards.append(board)
            deal_of.append(number)
    return Deals(holes=holes, boards=boards, deal_of=deal_of)


def pokerkit_low(hole: str, board: str) -> object | None:
    try:
        return OmahaEightOrBetterLowHand.from_game(hole, board)
    except ValueError:  # PokerKit's way of saying "no qualifying low"
        return None


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def compare(left: object, right: object) -> int:
    return int(left > right) - int(left < right)  # type: ignore[operator]


def assert_same_order(ours: Sequence[int], theirs: Sequence[object], what: str) -> None:
    """Assert that our ranks order PokerKit's hands the same way, over all pairs."""
    for i in range(len(ours)):
        for j in range(i + 1, len(ours)):
            assert sign(ours[i] - ours[j]) == compare(theirs[i], theirs[j]), (what, i, j)


def assert_globally_consistent(ours: Sequence[int], theirs: Sequence[object]) -> None:
    """Assert one rank per PokerKit value, increasing with PokerKit's order, over all deals."""
    rank_of: dict[object, int] = {}
    for rank, hand in zip(ours, theirs, strict=True):
        assert rank_of.setdefault(hand, rank) == rank, hand
    ordered = sorted(rank_of)  # type: ignore[type-var]
    ranks = [rank_of[hand] for hand in ordered]
    assert ranks == sorted(set(ranks))


def check_against_pokerkit(count: int, hole_size: int, board_size: int, seed: int) -> None:
    deals = deal(count, hole_size, board_size, seed)
    result = evaluate_batch(np.array(deals.holes), np.array(deals.boards))
    assert result.low is not None
    high_cards, low_cards = result.high_cards(), result.low_cards()
    our_high = result.high.tolist()
    our_low = result.low.tolist()
    their_high: list[object] = []
    their_low: list[object | None] = []
    for row, (hole, board) in enumerate(zip(deals.holes, deals.boards, strict=True)):
        hole_text, board_text = format_cards(hole), format_cards(board)
        high = OmahaHoldemHand.from_game(hole_text, board_text)
        low = pokerkit_low(hole_text, board_text)
        their_high.append(high)
        their_low.append(low)
        assert OmahaHoldemHand(format_cards(high_cards[row].tolist())) == high, row
        assert category_of(our_high[row]).name == high.entry.label.name, row
        assert (low is None) == (our_low[row] == NO_LOW), (row, hole_text, board_text)
        if low is not None:
            assert OmahaEightOrBetterLowHand(format_cards(low_cards[row].tolist())) == low, row
    start = 0
    while start < len(deals.deal_of):
        stop = start
        while stop < len(deals.deal_of) and deals.deal_of[stop] == deals.deal_of[start]:
            stop += 1
        assert_same_order(our_high[start:stop], their_high[start:stop], "high")
        qualifying = [row for row in range(start, stop) if their_low[row] is not None]
        assert_same_order(
            [our_low[row] for row in qualifying], [their_low[row] for row in qualifying], "low"
        )
        start = stop
    assert_globally_consistent(our_high, their_high)
    low_rows = [row for row, low in enumerate(their_low) if low is not None]
    assert_globally_consistent([our_low[row] for row in low_rows], [their_low[r] for r in low_rows])


# Five and six hole cards take PokerKit a minute or more each: `make test-long` runs them.
@pytest.mark.parametrize(
    "hole_size",
    [4, pytest.param(5, marks=pytest.mark.long), pytest.param(6, marks=pytest.mark.long)],
)
def test_same_as_pokerkit(hole_size: int) -> None:
    check_against_pokerkit(DEFAULT_DEALS, hole_size, board_size=5, seed=hole_size)


@pytest.mark.parametrize("board_size", [3, 4])
def test_same_as_pokerkit_before_the_river(board_size: int) -> None:
    check_against_pokerkit(300, hole_size=4, board_size=board_size, seed=100 + board_size)


@pytest.mark.slow
@pytest.mark.parametrize("hole_size", [4, 5, 6])
def test_same_as_pokerkit_many_deals(hole_size: int) -> None:
    check_against_pokerkit(SLOW_DEALS, hole_size, board_size=5, seed=1_000 + hole_size)
