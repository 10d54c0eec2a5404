"""Rank tables for all 2,598,960 five-card hands, indexed by the colex index of the cards.

The colex (combinatorial number system) index of five distinct cards ``c0 < c1 < c2 < c3 < c4``
is ``C(c0, 1) + C(c1, 2) + C(c2, 3) + C(c3, 4) + C(c4, 5)``: a bijection from five-card sets
onto ``0 .. 2,598,959``, computed with plain numpy arithmetic on card arrays.

``RankTables.high[i]`` is the high rank (1..7,462, larger is better) of hand ``i`` and
``RankTables.low[i]`` its eight-or-better low rank (1..56, larger is better; 0 when the hand
is no qualifying low); see :mod:`pipeline.evaluate.classes` for what the ranks mean.

>>> int(colex_index(np.array([0, 1, 2, 3, 4])))
0
>>> int(colex_index(np.array([47, 48, 49, 50, 51]))) == HAND_COUNT - 1
True
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
import numpy.typing as npt

from pipeline.evaluate.classes import high_classes, low_classes

__all__ = [
    "HAND_COUNT",
    "RankTables",
    "all_hands",
    "build_tables",
    "colex_index",
    "rank_code",
    "sorted_colex_index",
]

HAND_COUNT = comb(52, 5)

_BINOMIAL: npt.NDArray[np.int32] = np.array(
    [[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int32
)
"""``_BINOMIAL[n, k] == C(n, k)`` for a card ``n`` and a position ``k`` from 0 to 5."""

_RANK_CODE_SIZE = 13**5


@dataclass(frozen=True, slots=True, eq=False)
class RankTables:
    """The high and low rank of every five-card hand, by colex index (read-only arrays).

    Instances compare and hash by identity, so derived tables can be cached per instance.
    """

    high: npt.NDArray[np.int16]
    low: npt.NDArray[np.int8]


def colex_index(cards: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """Return the colex index of ascending five-card rows (last axis of length 5).

    The cards of each row must be distinct and ascending; see :func:`sorted_colex_index`.
    """
    positions = cards.astype(np.intp, copy=False)
    index: npt.NDArray[np.int32] = _BINOMIAL[positions[..., 0], 1]
    for position in range(1, 5):
        index = index + _BINOMIAL[positions[..., position], position + 1]
    return index


def sorted_colex_index(cards: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """Return the colex index of five-card rows given in any order.

    >>> int(sorted_colex_index(np.array([4, 3, 2, 1, 0])))
    0
    """
    return colex_index(np.sort(cards, axis=-1))


def all_hands() -> npt.NDArray[np.int8]:
    """Return every five-card hand as an ascending row, row ``i`` having colex index ``i``.

    Shape ``(2_598_960, 5)``. Built level by level: the ``k``-card sets of the cards below
    ``m`` are the first ``C(m, k)`` rows of the ``k``-card list, so the sets whose top card
    is ``m`` are those rows with ``m`` appended.
    """
    level = np.arange(52, dtype=np.int8).reshape(52, 1)
    for size in range(2, 6):
        blocks = []
        for top in range(size - 1, 52):
            below = level[: comb(top, size - 1)]
            column = np.full((below.shape[0], 1), top, dtype=np.int8)
            blocks.append(np.hstack((below, column)))
        level = np.concatenate(blocks)
    return level


def rank_code(ranks: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """Return the base-13 code of ascending five-rank rows (one number per rank multiset)."""
    digits = ranks.astype(np.int32, copy=False)
    code = digits[..., 0]
    for position in range(1, 5):
        code = code * 13 + digits[..., position]
    return code


def _class_lookups() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """Return the high rank by rank code (no flush), by flush rank mask, and the low by code."""
    plain = np.zeros(_RANK_CODE_SIZE, dtype=np.int16)
    flush = np.zeros(1 << 13, dtype=np.int16)
    for hand_class in high_classes():
        if hand_class.is_flush:
            mask = sum(1 << rank for rank in hand_class.ranks)
            flush[mask] = hand_class.rank
        else:
            plain[int(rank_code(np.array(sorted(hand_class.ranks))))] = hand_class.rank
    low = np.zeros(_RANK_CODE_SIZE, dtype=np.int8)
    for low_class in low_classes():
        low[int(rank_code(np.array(sorted(low_class.ranks))))] = low_class.rank
    return plain, flush, low


def build_tables() -> RankTables:
    """Build the high and low tables for all 2,598,960 hands (about a second with numpy)."""
    plain, flush, low_by_code = _class_lookups()
    hands = all_hands()
    ranks = hands >> 2
    suits = hands & 3
    codes = rank_code(ranks)
    is_flush = np.all(suits == suits[:, :1], axis=1)
    masks = np.bitwise_or.reduce(np.left_shift(1, ranks, dtype=np.int32), axis=1)
    high = np.where(is_flush, flush[masks], plain[codes]).astype(np.int16)
    low = low_by_code[codes]
    if int(high.min()) < 1:
        raise AssertionError("a hand has no high class")
    high.flags.writeable = False
    low.flags.writeable = False
    return RankTables(high=high, low=low)
