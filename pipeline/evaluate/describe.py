"""Describe high and low ranks the way players say them.

>>> describe_high(high_rank_of("AsKsQsJsTs"))
'straight flush, Ace high (royal flush)'
>>> describe_high(high_rank_of("AcAdAhKsKd"))
'full house, Aces full of Kings'
>>> describe_high(high_rank_of("JcJd7h7s2d"))
'two pair, Jacks and Sevens'
>>> describe_low(low_rank_of("8c6d4h2sAd")), describe_low(low_rank_of("8c6d4h2sAd"), short=True)
('8-6-4-2-A low', '8642A')
"""

from __future__ import annotations

import functools

from pipeline.cards import RANKS, parse_cards
from pipeline.evaluate.classes import (
    ACE,
    HIGH_CLASS_COUNT,
    LOW_CLASS_COUNT,
    Category,
    HighClass,
    LowClass,
    high_classes,
    low_classes,
)

__all__ = [
    "NO_LOW",
    "category_of",
    "describe_high",
    "describe_low",
    "high_class",
    "high_rank_of",
    "low_class",
    "low_rank_of",
]

NO_LOW = 0
"""The low rank of cards that make no eight-or-better low."""

_NAMES = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_PLURALS = tuple("Sixes" if name == "Six" else name + "s" for name in _NAMES)


def high_class(rank: int) -> HighClass:
    """Return the class of a high rank (1..7,462); raise ValueError for any other int."""
    if not 1 <= rank <= HIGH_CLASS_COUNT:
        raise ValueError(f"not a high rank: {rank}")
    return high_classes()[rank - 1]


def low_class(rank: int) -> LowClass:
    """Return the class of a qualifying low rank (1..56); raise ValueError for any other int."""
    if not 1 <= rank <= LOW_CLASS_COUNT:
        raise ValueError(f"not a qualifying low rank: {rank}")
    return low_classes()[rank - 1]


def category_of(rank: int) -> Category:
    """Return the category of a high rank (1..7,462).

    >>> category_of(1).label, category_of(7462).label
    ('high card', 'straight flush')
    """
    return high_class(rank).category


@functools.cache
def describe_high(rank: int) -> str:
    """Describe a high rank: ``"flush, Ace high"``, ``"one pair, Queens"``.

    Kickers are left out, as players say it; a royal flush reads
    ``"straight flush, Ace high (royal flush)"``.

    >>> describe_high(high_rank_of("9c8c7c6c5c")), describe_high(high_rank_of("5d4d3d2dAd"))
    ('straight flush, Nine high', 'straight flush, Five high')
    >>> describe_high(high_rank_of("QcQdQhQs2d")), describe_high(high_rank_of("7h6d4c3s2s"))
    ('four of a kind, Queens', 'high card, Seven')
    """
    hand_class = high_class(rank)
    category = hand_class.category
    first, *rest = hand_class.ranks
    match category:
        case Category.STRAIGHT_FLUSH if first == ACE:
            return "straight flush, Ace high (royal flush)"
        case Category.STRAIGHT_FLUSH | Category.STRAIGHT | Category.FLUSH:
            return f"{category.label}, {_NAMES[first]} high"
        case Category.FULL_HOUSE:
            return f"full house, {_PLURALS[first]} full of {_PLURALS[rest[2]]}"
        case Category.TWO_PAIR:
            return f"two pair, {_PLURALS[first]} and {_PLURALS[rest[1]]}"
        case Category.HIGH_CARD:
            return f"high card, {_NAMES[first]}"
        case _:
            return f"{category.label}, {_PLURALS[first]}"


def describe_low(rank: int, short: bool = False) -> str:
    """Describe a low rank: ``"8-6-4-2-A low"``, or ``"8642A"`` when ``short``.

    Rank 0 (:data:`NO_LOW`) reads ``"no low"`` in both forms.

    >>> describe_low(56), describe_low(1, short=True), describe_low(NO_LOW)
    ('5-4-3-2-A low', '87654', 'no low')
    """
    if rank == NO_LOW:
        return "no low"
    text = [RANKS[card_rank] for card_rank in low_class(rank).ranks]
    return "".join(text) if short else "-".join(text) + " low"


def high_rank_of(text: str) -> int:
    """Return the high rank of exactly five cards written as text (a helper for examples).

    >>> high_rank_of("7c5d4h3s2c"), high_rank_of("AsKsQsJsTs")
    (1, 7462)
    """
    cards = _five_cards(text)
    suited = len({card & 3 for card in cards}) == 1
    return _high_by_ranks()[tuple(sorted(card >> 2 for card in cards)), suited]


def low_rank_of(text: str) -> int:
    """Return the low rank of exactly five cards written as text, 0 when they make no low.

    >>> low_rank_of("5c4d3h2sAc"), low_rank_of("9c4d3h2sAc"), low_rank_of("7c7d3h2sAc")
    (56, 0, 0)
    """
    cards = _five_cards(text)
    return _low_by_ranks().get(tuple(sorted(card >> 2 for card in cards)), NO_LOW)


def _five_cards(text: str) -> tuple[int, ...]:
    """Parse exactly five distinct known cards; raise ValueError otherwise."""
    cards = parse_cards(text)
    if len(cards) != 5 or len(set(cards)) != 5 or min(cards) < 0:
        raise ValueError(f"not five distinct known cards: {text!r}")
    return cards


@functools.cache
def _high_by_ranks() -> dict[tuple[tuple[int, ...], bool], int]:
    """Return the high rank by (ascending ranks, is a flush)."""
    return {
        (tuple(sorted(hand_class.ranks)), hand_class.is_flush): hand_class.rank
        for hand_class in high_classes()
    }


@functools.cache
def _low_by_ranks() -> dict[tuple[int, ...], int]:
    """Return the low rank by ascending ranks, for qualifying lows only."""
    return {tuple(sorted(hand_class.ranks)): hand_class.rank for hand_class in low_classes()}
