"""Every distinct high value and eight-or-better low value of five cards, in order.

A five-card hand's high value depends only on its ranks and on whether it is a flush, so the
2,598,960 hands fall into 7,462 high classes: 6,175 rank multisets without a flush and 1,287
flushes (sets of five distinct ranks). A class's *rank* counts from 1 (7-5-4-3-2 offsuit, the
worst high hand) to 7,462 (the royal flush); larger is better.

An eight-or-better low is five distinct ranks from ace (low) to eight, so there are 56 low
classes: rank 1 is 8-7-6-5-4 (the worst qualifying low), rank 56 is the wheel 5-4-3-2-A.
Rank 0 means "no qualifying low". Suits never matter to a low.

Ranks here are card ranks as in :mod:`pipeline.cards`: 0 for a deuce up to 12 for an ace.

>>> high_classes()[-1].category.label, high_classes()[0].category.label
('straight flush', 'high card')
>>> low_classes()[-1].ranks
(3, 2, 1, 0, 12)
"""

from __future__ import annotations

import enum
import functools
from collections import Counter
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

__all__ = [
    "ACE",
    "HIGH_CLASS_COUNT",
    "LOW_CLASS_COUNT",
    "Category",
    "HighClass",
    "LowClass",
    "high_classes",
    "low_classes",
]

ACE = 12
HIGH_CLASS_COUNT = 7462
LOW_CLASS_COUNT = 56
_WHEEL = (0, 1, 2, 3, ACE)


class Category(enum.IntEnum):
    """The kind of a hand; high categories are ordered weakest to strongest.

    A royal flush is a ``STRAIGHT_FLUSH`` (ace high). ``LOW`` is the category of every
    qualifying eight-or-better low and is not comparable with the high categories.
    """

    LOW = 0
    HIGH_CARD = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9

    @property
    def label(self) -> str:
        """Return the lower-case name players use, e.g. ``"full house"``."""
        return (
            "eight-or-better low" if self is Category.LOW else self.name.lower().replace("_", " ")
        )


@dataclass(frozen=True, slots=True)
class HighClass:
    """One high value: its rank (1..7462), category and the five ranks by significance.

    ``ranks`` lists the five card ranks in the order they break ties: the biggest group
    first (the trips of a full house, the pairs of two pair, highest first), then kickers
    from the highest down; a straight lists its cards from the top down, the wheel as
    5-4-3-2-A (ace last). Comparing ``(category, ranks)`` orders the classes.
    """

    rank: int
    category: Category
    ranks: tuple[int, ...]

    @property
    def is_flush(self) -> bool:
        """Tell whether every card of the class has one suit."""
        return self.category in (Category.FLUSH, Category.STRAIGHT_FLUSH)


@dataclass(frozen=True, slots=True)
class LowClass:
    """One qualifying low: its rank (1..56) and five distinct ranks, highest low card first.

    Ranks are card ranks, so the ace (12) comes last: the wheel is ``(3, 2, 1, 0, 12)``.
    """

    rank: int
    ranks: tuple[int, ...]


def _straight_top(distinct: list[int]) -> int | None:
    """Return the top rank of five distinct ascending ranks forming a straight, else None."""
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    if tuple(distinct) == _WHEEL:
        return 3
    return None


def _classify(ranks: tuple[int, ...], suited: bool) -> tuple[Category, tuple[int, ...]]:
    """Return the category and significance order of five ascending ranks."""
    counts = Counter(ranks)
    ordered = tuple(sorted(ranks, key=lambda rank: (counts[rank], rank), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    if len(counts) == 5:
        top = _straight_top(sorted(counts))
        if top is not None:
            run = tuple(top - step if step <= top else ACE for step in range(5))
            return (Category.STRAIGHT_FLUSH if suited else Category.STRAIGHT), run
        return (Category.FLUSH if suited else Category.HIGH_CARD), ordered
    if shape[0] == 4:
        return Category.FOUR_OF_A_KIND, ordered
    if shape[:2] == [3, 2]:
        return Category.FULL_HOUSE, ordered
    if shape[0] == 3:
        return Category.THREE_OF_A_KIND, ordered
    if shape[:2] == [2, 2]:
        return Category.TWO_PAIR, ordered
    return Category.ONE_PAIR, ordered


@functools.cache
def high_classes() -> tuple[HighClass, ...]:
    """Return the 7,462 high classes, weakest first: ``high_classes()[rank - 1].rank == rank``."""
    keyed: list[tuple[Category, tuple[int, ...]]] = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) <= 4:
            keyed.append(_classify(ranks, suited=False))
    for ranks in combinations(range(13), 5):
        keyed.append(_classify(ranks, suited=True))
    keyed.sort()
    classes = tuple(
        HighClass(rank=index + 1, category=category, ranks=ranks)
        for index, (category, ranks) in enumerate(keyed)
    )
    if len(classes) != HIGH_CLASS_COUNT or len(set(keyed)) != HIGH_CLASS_COUNT:
        raise AssertionError("high classes are not 7,462 distinct values")
    return classes


@functools.cache
def low_classes() -> tuple[LowClass, ...]:
    """Return the 56 eight-or-better low classes, weakest (8-7-6-5-4) first."""
    # Low values count the ace as 0 and the eight as 7; a smaller top-down tuple is better.
    tops_down = sorted(
        (tuple(sorted(values, reverse=True)) for values in combinations(range(8), 5)),
        reverse=True,
    )
    classes = tuple(
        LowClass(rank=index + 1, ranks=tuple(ACE if value == 0 else value - 1 for value in values))
        for index, values in enumerate(tops_down)
    )
    if len(classes) != LOW_CLASS_COUNT:
        raise AssertionError("low classes are not 56 values")
    return classes
