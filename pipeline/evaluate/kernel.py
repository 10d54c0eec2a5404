"""The numpy kernel of Omaha evaluation: best two-plus-three high and low of many players.

A player with ``k`` hole cards (4, 5 or 6) and a board of ``b`` cards (5, or 3/4 before the
river) has ``C(k, 2) * C(b, 3)`` hands to choose from: 60, 100 or 150 with a full board. Combo
``c`` of a player takes hole pair ``c // C(b, 3)`` and board triple ``c % C(b, 3)``, pairs and
triples numbered in :func:`itertools.combinations` order of card positions.

No combo's cards are sorted. Five cards that are not all one suit have a high value that
depends only on their rank multiset, which is the pair's rank multiset (91 kinds) plus the
triple's (455 kinds): a 91 x 455 table gives it with one add and one gather. A flush needs a
pair and a triple all of the board's flush suit; those few combos, found only on boards with
three or more of a suit, are valued from a table indexed by the 13-bit mask of their ranks.
Lows ignore suits and share the pair x triple index. The tables are derived from the five-card
:class:`~pipeline.evaluate.tables.RankTables`, whatever the cache holds.

Table entries are *keys*: ``rank << 8``. Adding ``255 - combo`` to a combo's key and taking the
maximum over combos gives the best rank and, on ties, the lowest combo number, with one
vectorised reduction instead of an ``argmax`` per player.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, permutations

import numpy as np
import numpy.typing as npt

from pipeline.evaluate.tables import RankTables, sorted_colex_index

__all__ = [
    "BOARD_SIZES",
    "HOLE_SIZES",
    "KEY_SHIFT",
    "POSITION_PAIRS",
    "POSITION_TRIPLES",
    "OmahaTables",
    "best_keys",
    "decode_keys",
    "omaha_tables",
]

HOLE_SIZES = (4, 5, 6)
BOARD_SIZES = (3, 4, 5)
KEY_SHIFT = 8
"""A key is ``rank << KEY_SHIFT`` plus ``255 - combo``; combos number at most 150."""
_CHUNK_ROWS = 1024
"""Players per inner step: keeps the (combos, players) temporaries in the CPU cache."""
_BLOCK_ROWS = 1 << 16
"""Players per outer step: bounds the memory of the per-player pair and triple indexes."""

IntArray = npt.NDArray[np.int32]
CardArray = npt.NDArray[np.int8]

POSITION_PAIRS = {size: np.array(list(combinations(range(size), 2))) for size in HOLE_SIZES}
POSITION_TRIPLES = {size: np.array(list(combinations(range(size), 3))) for size in BOARD_SIZES}
_PAIR_KINDS = np.array(list(combinations_with_replacement(range(13), 2)))
_TRIPLE_KINDS = np.array(list(combinations_with_replacement(range(13), 3)))
_TIE_BREAK = (255 - np.arange(256, dtype=np.int32))[:, None]


@dataclass(frozen=True, slots=True, eq=False)
class OmahaTables:
    """Lookup tables for two-plus-three hands, derived from the five-card tables.

    ``pair_index[52 * a + b]`` is 455 times the rank-multiset number of hole cards ``a, b``;
    ``triple_index[2704 * a + 52 * b + c]`` the rank-multiset number of board cards ``a, b, c``
    (any order). ``high_key``/``low_key`` at ``pair + triple`` give the high/low rank, shifted
    left by :data:`KEY_SHIFT`, of five cards that are not one suit (0 for five of a rank, which
    no deal holds); ``flush_key`` the shifted high rank of a flush by the mask of its ranks.
    """

    pair_index: IntArray
    triple_index: IntArray
    high_key: IntArray
    low_key: IntArray
    flush_key: IntArray


@functools.lru_cache(maxsize=4)
def omaha_tables(tables: RankTables) -> OmahaTables:
    """Derive the two-plus-three lookup tables from five-card rank tables (a few ms)."""
    pair_number = np.zeros((13, 13), dtype=np.int32)
    pair_number[_PAIR_KINDS[:, 0], _PAIR_KINDS[:, 1]] = np.arange(len(_PAIR_KINDS))
    pair_number = np.maximum(pair_number, pair_number.T)
    ranks = np.arange(52) >> 2
    pair_index = (pair_number[ranks[:, None], ranks[None, :]] * len(_TRIPLE_KINDS)).ravel()

    triple_number = np.zeros((13, 13, 13), dtype=np.int32)
    for order in permutations(range(3)):
        kinds = _TRIPLE_KINDS[:, list(order)]
        triple_number[kinds[:, 0], kinds[:, 1], kinds[:, 2]] = np.arange(len(_TRIPLE_KINDS))
    triple_index = triple_number[
        ranks[:, None, None], ranks[None, :, None], ranks[None, None, :]
    ].ravel()

    # One hand per (pair kind, triple kind): ranks ascending with suits 0,1,2,3,0 in that
    # order, so equal ranks (at most four in a row) get distinct suits and no hand is a flush.
    hand_ranks = np.sort(
        np.hstack(
            (
                np.repeat(_PAIR_KINDS, len(_TRIPLE_KINDS), axis=0),
                np.tile(_TRIPLE_KINDS, (len(_PAIR_KINDS), 1)),
            )
        ),
        axis=1,
    )
    possible = hand_ranks[:, 0] != hand_ranks[:, 4]
    cards = np.where(possible[:, None], hand_ranks * 4 + np.arange(5) % 4, np.arange(5))
    index = sorted_colex_index(cards)
    high_key = np.where(possible, tables.high[index].astype(np.int32) << KEY_SHIFT, 0)
    low_key = np.where(possible, tables.low[index].astype(np.int32) << KEY_SHIFT, 0)

    masks = np.array([mask for mask in range(1 << 13) if mask.bit_count() == 5])
    flush_ranks = np.array([[rank for rank in range(13) if mask >> rank & 1] for mask in masks])
    flush_key = np.zeros(1 << 13, dtype=np.int32)
    flush_key[masks] = (
        tables.high[sorted_colex_index(flush_ranks * 4)].astype(np.int32) << KEY_SHIFT
    )

    result = OmahaTables(
        pair_index=pair_index.astype(np.int32),
        triple_index=triple_index.astype(np.int32),
        high_key=high_key.astype(np.int32),
        low_key=low_key.astype(np.int32),
        flush_key=flush_key,
    )
    for array in (
        result.pair_index,
        result.triple_index,
        result.high_key,
        result.low_key,
        result.flush_key,
    ):
        array.flags.writeable = False
    return result


def best_keys(
    holes: CardArray, boards: CardArray, lookups: OmahaTables, want_low: bool
) -> tuple[IntArray, IntArray | None]:
    """Return each player's best high key and best low key (None unless ``want_low``).

    ``holes`` is ``(n, k)`` and ``boards`` ``(n, b)``, valid distinct card ints per row.
    Memory stays bounded: players are taken :data:`_BLOCK_ROWS` at a time.
    """
    count = holes.shape[0]
    high = np.empty(count, dtype=np.int32)
    low = np.empty(count, dtype=np.int32) if want_low else None
    for start in range(0, count, _BLOCK_ROWS):
        stop = min(start + _BLOCK_ROWS, count)
        _block_keys(
            holes[start:stop],
            boards[start:stop],
            lookups,
            high[start:stop],
            None if low is None else low[start:stop],
        )
    return high, low


def _block_keys(
    holes: CardArray,
    boards: CardArray,
    lookups: OmahaTables,
    high: IntArray,
    low: IntArray | None,
) -> None:
    """Fill ``high`` (and ``low``) with the best keys of a block of players."""
    pairs = POSITION_PAIRS[holes.shape[1]]
    triples = POSITION_TRIPLES[boards.shape[1]]
    combos = len(pairs) * len(triples)
    tie_break = _TIE_BREAK[:combos]

    hole_columns = holes.T.astype(np.intp)
    board_columns = boards.T.astype(np.intp)
    pair_index = lookups.pair_index[hole_columns[pairs[:, 0]] * 52 + hole_columns[pairs[:, 1]]]
    triple_index = lookups.triple_index[
        (board_columns[triples[:, 0]] * 52 + board_columns[triples[:, 1]]) * 52
        + board_columns[triples[:, 2]]
    ]  # (pairs, players) and (triples, players)
    for start in range(0, holes.shape[0], _CHUNK_ROWS):
        stop = min(start + _CHUNK_ROWS, holes.shape[0])
        index = pair_index[:, None, start:stop] + triple_index[None, :, start:stop]
        index = index.reshape(combos, stop - start)
        high[start:stop] = (lookups.high_key[index] + tie_break).max(axis=0)
        if low is not None:
            low[start:stop] = (lookups.low_key[index] + tie_break).max(axis=0)
    _raise_to_flushes(high, hole_columns, board_columns, lookups)


def _raise_to_flushes(
    high: IntArray,
    hole_columns: npt.NDArray[np.intp],
    board_columns: npt.NDArray[np.intp],
    lookups: OmahaTables,
) -> None:
    """Raise each best high key to the player's best flush key where that is better.

    Only a player whose board holds three or more of a suit (at most one suit can) and whose
    hand holds two or more of that suit can make a flush; only their suited combos are valued.
    """
    suit_nibbles = np.zeros(board_columns.shape[1], dtype=np.intp)
    for column in board_columns:
        suit_nibbles += 1 << ((column & 3) << 2)
    flush_suit = _FLUSH_SUIT[suit_nibbles]
    in_suit = np.zeros(hole_columns.shape[1], dtype=np.int8)
    for column in hole_columns:
        in_suit += (column & 3) == flush_suit
    candidates = np.nonzero((flush_suit >= 0) & (in_suit >= 2))[0]
    if not candidates.size:
        return
    holes = hole_columns[:, candidates].T
    boards = board_columns[:, candidates].T
    suit = flush_suit[candidates, None]
    pairs = POSITION_PAIRS[holes.shape[1]]
    triples = POSITION_TRIPLES[boards.shape[1]]
    hole_in = (holes & 3) == suit
    board_in = (boards & 3) == suit
    pair_in = hole_in[:, pairs[:, 0]] & hole_in[:, pairs[:, 1]]
    triple_in = board_in[:, triples[:, 0]] & board_in[:, triples[:, 1]] & board_in[:, triples[:, 2]]
    which, pair, triple = np.nonzero(pair_in[:, :, None] & triple_in[:, None, :])
    hole_bits = 1 << (holes[which] >> 2)
    board_bits = 1 << (boards[which] >> 2)
    # A flush has five distinct ranks, so the sum of their bits is their mask.
    mask = np.take_along_axis(hole_bits, pairs[pair], axis=1).sum(axis=1)
    mask += np.take_along_axis(board_bits, triples[triple], axis=1).sum(axis=1)
    keys = lookups.flush_key[mask] + _TIE_BREAK[pair * len(triples) + triple, 0]
    np.maximum.at(high, candidates[which], keys)


def _flush_suits() -> npt.NDArray[np.int8]:
    """Return the suit with three or more cards (-1 if none) by per-suit counts in nibbles."""
    counts = (np.arange(1 << 16)[:, None] >> (4 * np.arange(4))) & 15
    return np.where(counts.max(axis=1) >= 3, counts.argmax(axis=1), -1).astype(np.int8)


_FLUSH_SUIT = _flush_suits()


def decode_keys(keys: IntArray) -> tuple[IntArray, IntArray]:
    """Split keys into ranks and combo numbers; the combo is -1 where the rank is 0."""
    ranks = keys >> KEY_SHIFT
    combos = np.where(ranks > 0, 255 - (keys & 255), -1).astype(np.int32)
    return ranks.astype(np.int32), combos
