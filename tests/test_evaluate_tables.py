"""Exhaustive checks of the five-card rank tables against a slow, obviously-correct reference."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

import numpy as np
import pytest

from pipeline.evaluate import (
    HAND_COUNT,
    HIGH_CLASS_COUNT,
    LOW_CLASS_COUNT,
    Category,
    RankTables,
    build_tables,
    category_of,
    colex_index,
    default_tables,
)
from pipeline.evaluate.kernel import KEY_SHIFT, omaha_tables
from pipeline.evaluate.tables import all_hands, sorted_colex_index

# Reference category numbers, weakest first, and the Category each one must be.
REFERENCE_CATEGORIES = (
    Category.HIGH_CARD,
    Category.ONE_PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
)


@pytest.fixture(autouse=True, scope="module")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROUPIER_CACHE_DIR", str(tmp_path_factory.mktemp("croupier-cache")))
        yield


@pytest.fixture(scope="module")
def tables() -> RankTables:
    return default_tables()


def reference_high(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Return (category number 0..8, tie-break ranks); a larger tuple is a better hand."""
    ranks = sorted((card // 4 for card in cards), reverse=True)
    is_flush = len({card % 4 for card in cards}) == 1
    counts = {rank: ranks.count(rank) for rank in ranks}
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    pattern = tuple(count for _, count in groups)
    tie_break = tuple(rank for rank, _ in groups)
    top = None
    if len(counts) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the ace plays low, the five is on top
        top = 3
    if top is not None and is_flush:
        return 8, (top,)
    if pattern == (4, 1):
        return 7, tie_break
    if pattern == (3, 2):
        return 6, tie_break
    if is_flush:
        return 5, tie_break
    if top is not None:
        return 4, (top,)
    if pattern == (3, 1, 1):
        return 3, tie_break
    if pattern == (2, 2, 1):
        return 2, tie_break
    if pattern == (2, 1, 1, 1):
        return 1, tie_break
    return 0, tie_break


def reference_low(cards: tuple[int, ...]) -> tuple[int, ...] | None:
    """Return the face values (ace 1) from the top down of a qualifying low; smaller is better."""
    values = sorted({1 if card // 4 == 12 else card // 4 + 2 for card in cards}, reverse=True)
    if len(values) < 5 or values[0] > 8:
        return None
    return tuple(values)


def colex_hands() -> Iterator[tuple[int, int, int, int, int]]:
    """Yield every five-card hand in colex order (the largest card varies slowest)."""
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        yield a, b, c, d, e


def test_high_table_matches_reference_on_every_hand(tables: RankTables) -> None:
    rank_by_key: dict[tuple[int, tuple[int, ...]], int] = {}
    count = 0
    for cards, rank in zip(colex_hands(), tables.high.tolist(), strict=True):
        key = reference_high(cards)
        if rank_by_key.setdefault(key, rank) != rank:
            pytest.fail(f"{cards}: rank {rank}, but an equal hand has {rank_by_key[key]}")
        count += 1
    assert count == HAND_COUNT
    ordered = sorted(rank_by_key)
    assert [rank_by_key[key] for key in ordered] == list(range(1, HIGH_CLASS_COUNT + 1))
    for key in ordered:
        assert category_of(rank_by_key[key]) is REFERENCE_CATEGORIES[key[0]], key


def test_low_table_matches_reference_on_every_hand(tables: RankTables) -> None:
    rank_by_key: dict[tuple[int, ...], int] = {}
    for cards, rank in zip(colex_hands(), tables.low.tolist(), strict=True):
        key = reference_low(cards)
        if key is None:
            assert rank == 0, cards
        elif rank_by_key.setdefault(key, rank) != rank:
            pytest.fail(f"{cards}: low rank {rank}, but an equal low has {rank_by_key[key]}")
    worst_first = sorted(rank_by_key, reverse=True)
    assert [rank_by_key[key] for key in worst_first] == list(range(1, LOW_CLASS_COUNT + 1))
    assert worst_first[0] == (8, 7, 6, 5, 4)
    assert worst_first[-1] == (5, 4, 3, 2, 1)


def test_colex_index_is_a_bijection_in_itertools_terms() -> None:
    hands = np.array(list(combinations(range(52), 5)), dtype=np.int8)
    index = colex_index(hands)
    expected = [sum(comb(card, k + 1) for k, card in enumerate(hand)) for hand in hands[::997]]
    assert index[::997].tolist() == expected
    assert np.array_equal(np.sort(index), np.arange(HAND_COUNT))
    assert np.array_equal(all_hands()[index], hands)


def test_colex_index_ignores_card_order() -> None:
    hands = all_hands()[::101]
    shuffled = np.random.default_rng(7).permuted(hands, axis=1)
    assert np.array_equal(sorted_colex_index(shuffled), colex_index(hands))


def test_built_tables_equal_the_cached_ones(tables: RankTables) -> None:
    fresh = build_tables()
    assert np.array_equal(fresh.high, tables.high)
    assert np.array_equal(fresh.low, tables.low)
    assert not fresh.high.flags.writeable
    assert not tables.high.flags.writeable


def test_two_plus_three_tables_agree_with_five_card_tables_on_every_split(
    tables: RankTables,
) -> None:
    """Every hand, split into a hole pair and a board triple three ways, cards in any order."""
    lookups = omaha_tables(tables)
    hands = all_hands().astype(np.intp)
    ranks, suits = hands >> 2, hands & 3
    is_flush = np.all(suits == suits[:, :1], axis=1)
    masks = np.bitwise_or.reduce(np.left_shift(1, ranks), axis=1)
    flush_high = lookups.flush_key[masks] >> KEY_SHIFT
    for pair_at, triple_at in (((0, 1), (2, 3, 4)), ((4, 3), (0, 1, 2)), ((0, 4), (3, 1, 2))):
        p0, p1 = (hands[:, i] for i in pair_at)
        t0, t1, t2 = (hands[:, i] for i in triple_at)
        index = lookups.pair_index[p0 * 52 + p1] + lookups.triple_index[(t0 * 52 + t1) * 52 + t2]
        high = np.where(is_flush, flush_high, lookups.high_key[index] >> KEY_SHIFT)
        assert np.array_equal(high, tables.high)
        assert np.array_equal(lookups.low_key[index] >> KEY_SHIFT, tables.low)
