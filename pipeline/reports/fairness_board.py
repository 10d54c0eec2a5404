"""The board against the hole cards: a test of the deal that play cannot bias.

Which hands reach the flop depends on play, so boards are no sample of the deck on their
own. But a hand whose every seat's hole cards are known (generated logs, a table's full
history) fixes the cards left in the deck: whatever the players did, each board card is
dealt from the cards not yet seen, every one equally likely (a decision is made before the
card it might depend on is dealt). So, hand by hand and card by card, how many known hole
cards share the board card's rank has a known distribution, and over many hands the count
is nearly normal (a sum of martingale differences). A deal that pairs the board with some
player's hole cards more often than chance (or less) moves it.

The test counts, over the first board of each such hand, the hole cards of the same rank as
each board card (``observed``) against its expectation given the cards seen before it, and
reports ``z**2`` as a chi-square of one degree of freedom (a two-sided z-test). Cards burnt
are not used: unseen, a burn is one more card left out at random, which changes nothing.

>>> from pipeline.cards import parse_card
>>> cards = lambda text: [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]
>>> pairs = board_pairs([(cards("AhAdKcKs"), cards("AsKh2c"))])
>>> (pairs.hands, pairs.cards, pairs.observed)
(1, 3, 4)
>>> round(pairs.expected, 4)  # 8/48 + 6/47 + 4/46: unseen aces and kings, 2 held each
0.3813
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import duckdb

from pipeline.cards import parse_card, rank_of

__all__ = ["NO_BOARD", "BoardPairs", "board_pairs", "deal_board_pairs"]

MIN_BOARD_CARDS = 100
"""The fewest board cards the test needs for its normal approximation to mean anything."""


@dataclass(frozen=True, slots=True)
class BoardPairs:
    """Board cards of ``hands`` hands with every seat's hole cards known: how many hole
    cards shared their ranks (``observed``), what chance expects, and its variance."""

    hands: int
    cards: int
    observed: int
    expected: float
    variance: float

    @property
    def z(self) -> float:
        """Return (observed − expected) / standard deviation (0 with no variance)."""
        if self.variance <= 0:
            return 0.0
        return (self.observed - self.expected) / math.sqrt(self.variance)


NO_BOARD = BoardPairs(hands=0, cards=0, observed=0, expected=0.0, variance=0.0)


def board_pairs(deals: Iterable[tuple[Sequence[int], Sequence[int]]]) -> BoardPairs:
    """Count, for each (every seat's hole cards, first board) deal, the hole cards sharing a
    rank with each board card, against the expectation given the cards seen before it.

    A deal with a card twice (an invalid hand) is left out.
    """
    hands = cards = observed = 0
    expected = variance = 0.0
    for hole, board in deals:
        hole_set, board_set = set(hole), set(board)
        if len(hole_set) != len(hole) or len(board_set) != len(board) or hole_set & board_set:
            continue
        held = [0] * 13  # hole cards of each rank
        for card in hole:
            held[rank_of(card)] += 1
        left = [4 - n for n in held]  # unseen cards of each rank
        size = 52 - len(hole)
        hands += 1
        for card in board:
            mean = sum(left[r] * held[r] for r in range(13)) / size
            square = sum(left[r] * held[r] * held[r] for r in range(13)) / size
            expected += mean
            variance += square - mean * mean
            rank = rank_of(card)
            observed += held[rank]
            left[rank] -= 1
            size -= 1
            cards += 1
    return BoardPairs(hands, cards, observed, expected, variance)


_BOARD_SQL = """
WITH hole AS (
    SELECT site, hand_id, string_agg(cards, '' ORDER BY seat, seq) AS cards,
           count(*) AS players, bool_and(NOT contains(cards, '??')) AS known
    FROM actions
    WHERE type = 'deal' AND cards IS NOT NULL
    GROUP BY site, hand_id
)
SELECT h.cards, x.boards[1]
FROM hole h JOIN hands x ON x.site = h.site AND x.hand_id = h.hand_id
WHERE h.known AND h.players = x.n_players AND x.status <> 'void'
  AND len(x.boards) > 0 AND length(x.boards[1]) >= 2
ORDER BY x.site, x.hand_id  -- the sums of floats, and so the report, the same every time
"""


def _parsed(text: str) -> list[int] | None:
    try:
        return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]
    except ValueError:
        return None


def deal_board_pairs(con: duckdb.DuckDBPyConnection) -> BoardPairs:
    """Run :func:`board_pairs` on the hands of the lake open on ``con`` whose every seat's
    hole cards are known and that dealt a board."""

    def deals() -> Iterable[tuple[list[int], list[int]]]:
        for hole_text, board_text in con.execute(_BOARD_SQL).fetchall():
            hole, board = _parsed(str(hole_text)), _parsed(str(board_text))
            if hole is not None and board is not None:
                yield hole, board

    return board_pairs(deals())
