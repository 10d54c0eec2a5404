"""Evaluate Omaha hands (two hole cards plus three board cards) in numpy batches or one by one.

Ranks: high 1..7,462 and low 1..56, larger is better; low 0 means no qualifying low. Each
player's best hand is reported with its combo number (see :mod:`pipeline.evaluate.kernel`), from
which the five cards and the two hole cards are recovered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pipeline.evaluate.cache import default_tables
from pipeline.evaluate.classes import Category
from pipeline.evaluate.describe import NO_LOW, describe_high, describe_low, high_class, low_class
from pipeline.evaluate.kernel import (
    BOARD_SIZES,
    HOLE_SIZES,
    POSITION_PAIRS,
    POSITION_TRIPLES,
    best_keys,
    decode_keys,
    omaha_tables,
)
from pipeline.evaluate.tables import RankTables, sorted_colex_index

__all__ = [
    "BatchResult",
    "HandValue",
    "best_high",
    "best_low8",
    "combo_count",
    "evaluate_batch",
    "evaluate_five",
]

IntArray = npt.NDArray[np.int32]


def combo_count(hole_size: int, board_size: int = 5) -> int:
    """Return how many two-plus-three hands a player has: 60, 100 or 150 with a full board."""
    return len(POSITION_PAIRS[hole_size]) * len(POSITION_TRIPLES[board_size])


@dataclass(frozen=True, slots=True)
class HandValue:
    """A player's best high or low: rank, category, the five cards and the two from the hand.

    ``cards_used`` is ordered as the description reads (``AdKdQdJd4d`` for "flush, Ace high",
    ``8c6d4h2sAd`` for an 8-6-4-2-A low); ``hole_used`` keeps the order of the hole cards.
    """

    rank: int
    category: Category
    cards_used: tuple[int, ...]
    hole_used: tuple[int, ...]
    description: str

    @property
    def board_used(self) -> tuple[int, ...]:
        """Return the three board cards of the hand, in ``cards_used`` order."""
        return tuple(card for card in self.cards_used if card not in self.hole_used)


@dataclass(frozen=True, slots=True, eq=False)
class BatchResult:
    """Best high (and low) per player: ranks and the combo that makes each.

    Arrays have one entry per player (row of ``holes``). ``low``/``low_combo`` are None when
    lows were not asked for; ``low_combo`` is -1 where ``low`` is 0 (no qualifying low).
    """

    holes: npt.NDArray[np.int8]
    boards: npt.NDArray[np.int8]
    high: IntArray
    high_combo: IntArray
    low: IntArray | None
    low_combo: IntArray | None

    def __len__(self) -> int:
        return int(self.high.shape[0])

    def high_hole(self) -> npt.NDArray[np.int8]:
        """Return the two hole cards of each best high, shape ``(n, 2)``."""
        return self._hole_of(self.high_combo)

    def high_cards(self) -> npt.NDArray[np.int8]:
        """Return the five cards of each best high (hole pair, then board triple), ``(n, 5)``."""
        return self._cards_of(self.high_combo)

    def low_hole(self) -> npt.NDArray[np.int8]:
        """Return the two hole cards of each best low, ``(n, 2)``, -1 where there is none."""
        return self._hole_of(self._low_combo())

    def low_cards(self) -> npt.NDArray[np.int8]:
        """Return the five cards of each best low, ``(n, 5)``, -1 where there is none."""
        return self._cards_of(self._low_combo())

    def high_value(self, player: int) -> HandValue:
        """Return the best high of one player (a row index) as a :class:`HandValue`."""
        rank = int(self.high[player])
        rows = slice(player, player + 1)
        cards = self._cards_of(self.high_combo[rows], rows=rows)
        hand_class = high_class(rank)
        return _hand_value(
            rank=rank,
            category=hand_class.category,
            order=hand_class.ranks,
            cards=cards[0],
            hole=self.holes[player],
            description=describe_high(rank),
        )

    def low_value(self, player: int) -> HandValue | None:
        """Return the best low of one player as a :class:`HandValue`, None without a low."""
        combo = self._low_combo()
        if self.low is None or int(self.low[player]) == NO_LOW:
            return None
        rank = int(self.low[player])
        cards = self._cards_of(combo[player : player + 1], rows=slice(player, player + 1))
        return _hand_value(
            rank=rank,
            category=Category.LOW,
            order=low_class(rank).ranks,
            cards=cards[0],
            hole=self.holes[player],
            description=describe_low(rank),
        )

    def _low_combo(self) -> IntArray:
        if self.low_combo is None:
            raise ValueError("lows were not evaluated (evaluate_batch(..., low=False))")
        return self.low_combo

    def _hole_of(self, combo: IntArray) -> npt.NDArray[np.int8]:
        pairs = POSITION_PAIRS[self.holes.shape[1]]
        triples = len(POSITION_TRIPLES[self.boards.shape[1]])
        positions = pairs[np.maximum(combo, 0) // triples]
        cards = np.take_along_axis(self.holes, positions, axis=1)
        return np.where((combo >= 0)[:, None], cards, -1).astype(np.int8)

    def _cards_of(self, combo: IntArray, rows: slice | None = None) -> npt.NDArray[np.int8]:
        holes = self.holes if rows is None else self.holes[rows]
        boards = self.boards if rows is None else self.boards[rows]
        pairs = POSITION_PAIRS[holes.shape[1]]
        triples = POSITION_TRIPLES[boards.shape[1]]
        known = np.maximum(combo, 0)
        hole_cards = np.take_along_axis(holes, pairs[known // len(triples)], axis=1)
        board_cards = np.take_along_axis(boards, triples[known % len(triples)], axis=1)
        cards = np.concatenate((hole_cards, board_cards), axis=1)
        return np.where((combo >= 0)[:, None], cards, -1).astype(np.int8)


def _hand_value(
    *,
    rank: int,
    category: Category,
    order: tuple[int, ...],
    cards: npt.NDArray[np.int8],
    hole: npt.NDArray[np.int8],
    description: str,
) -> HandValue:
    """Build a HandValue, ordering the five cards by the class's rank order."""
    place: dict[int, int] = {}
    for position, rank_ in enumerate(order):
        place.setdefault(rank_, position)
    used = sorted((int(card) for card in cards), key=lambda card: (place[card >> 2], -card))
    used_set = set(used)
    return HandValue(
        rank=rank,
        category=category,
        cards_used=tuple(used),
        hole_used=tuple(int(card) for card in hole if int(card) in used_set),
        description=description,
    )


def _as_cards(cards: npt.ArrayLike, name: str, sizes: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """Return ``cards`` as an int8 ``(n, size)`` array; raise ValueError for a bad shape."""
    array = np.asarray(cards)
    if array.ndim != 2 or array.shape[1] not in sizes or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(
            f"{name} must be an integer array of shape (n, {sizes}), not {array.shape}"
        )
    if array.size and (int(array.min()) < 0 or int(array.max()) > 51):
        raise ValueError(f"{name} holds a card int outside 0..51 (unknown cards cannot be ranked)")
    return array.astype(np.int8)  # a copy: the result must not change with the caller's array


def _check_distinct(holes: npt.NDArray[np.int8], boards: npt.NDArray[np.int8]) -> None:
    """Raise ValueError when a row of hole and board cards repeats a card."""
    masks = np.zeros(holes.shape[0], dtype=np.uint64)
    for column in (*holes.T, *boards.T):
        masks |= np.left_shift(np.uint64(1), column.astype(np.uint64))
    repeated = np.nonzero(np.bitwise_count(masks) != holes.shape[1] + boards.shape[1])[0]
    if repeated.size:
        raise ValueError(f"player row {int(repeated[0])} holds a card twice")


def evaluate_batch(
    holes: npt.ArrayLike,
    boards: npt.ArrayLike,
    *,
    low: bool = True,
    tables: RankTables | None = None,
    check: bool = True,
) -> BatchResult:
    """Find every player's best two-plus-three high (and eight-or-better low) in one call.

    ``holes`` is ``(n, k)`` card ints with ``k`` in 4, 5, 6; ``boards`` is ``(n, b)`` with ``b``
    in 3, 4, 5, row ``i`` being the board of player ``i`` (repeat a board for players who share
    it), or one board ``(b,)`` for all. ``check`` verifies that each row's cards are distinct;
    card ints are always range-checked. ``tables`` defaults to the cached tables. High and low
    may use different hole cards. Ties between combos go to the lowest combo number.
    """
    hole_cards = _as_cards(holes, "holes", HOLE_SIZES)
    board_array = np.asarray(boards)
    if board_array.ndim == 1:
        board_array = np.broadcast_to(board_array, (hole_cards.shape[0], board_array.shape[0]))
    board_cards = _as_cards(board_array, "boards", BOARD_SIZES)
    if board_cards.shape[0] != hole_cards.shape[0]:
        raise ValueError(f"{hole_cards.shape[0]} hole rows but {board_cards.shape[0]} board rows")
    if check:
        _check_distinct(hole_cards, board_cards)
    lookups = omaha_tables(default_tables() if tables is None else tables)
    high_keys, low_keys = best_keys(hole_cards, board_cards, lookups, low)
    high, high_combo = decode_keys(high_keys)
    low_rank, low_combo = (None, None) if low_keys is None else decode_keys(low_keys)
    return BatchResult(
        holes=hole_cards,
        boards=board_cards,
        high=high,
        high_combo=high_combo,
        low=low_rank,
        low_combo=low_combo,
    )


def best_high(hole: Sequence[int], board: Sequence[int]) -> HandValue:
    """Return the best two-plus-three high of one player (4-6 hole cards, 3-5 board cards)."""
    return evaluate_batch([list(hole)], [list(board)], low=False).high_value(0)


def best_low8(hole: Sequence[int], board: Sequence[int]) -> HandValue | None:
    """Return the best two-plus-three eight-or-better low of one player, None without one."""
    return evaluate_batch([list(hole)], [list(board)]).low_value(0)


def evaluate_five(
    hands: npt.ArrayLike, *, tables: RankTables | None = None
) -> tuple[IntArray, IntArray]:
    """Return the high and low ranks of five-card rows ``(n, 5)`` in any card order."""
    cards = _as_cards(hands, "hands", (5,))
    _check_distinct(cards[:, :0], cards)
    lookup = default_tables() if tables is None else tables
    index = sorted_colex_index(cards)
    return lookup.high[index].astype(np.int32), lookup.low[index].astype(np.int32)
