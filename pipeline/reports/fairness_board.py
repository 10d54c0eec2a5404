"""The board against the hole cards: a test of the deal that play cannot bias.

Which hands reach the flop depends on play, so boards are no sample of the deck on their
own. But a hand whose every seat's hole cards are known (generated logs, a table's full
history) fixes the cards left in the deck: whatever the players did, each board card is
dealt from the cards not yet seen, every one equally likely (a decision is made before the
card it might depend on is dealt). So, hand by hand and card by card, how many known hole
cards share the board card's rank has a known distribution, and over many hands the count
is nearly normal (a sum of martingale differences). A deal that pairs the board with some
player's hole cards more often than chance (or less) moves it.

The test counts, over the board cards of each such hand (its first board, then the cards each
later runout dealt anew: :func:`dealt_to_boards`), the hole cards of the same rank as each
board card (``observed``) against its expectation given the cards seen before it, and
reports ``z**2`` as a chi-square of one degree of freedom (a two-sided z-test). Cards burnt
are not used: unseen, a burn is one more card left out at random, which changes nothing.

**Board cards against the cards left.** The same sample tests the board cards themselves:
each is, given every hole card and the earlier cards of the board, uniform over the cards not
yet seen, so a deal that slips an ace into the flop shows. Per cell (13 ranks, then the 52
cards) the expected count sums, over the board cards, the cell's share of the cards left
(a rank with three of its cards in the players' hands expects 1/size, a card held 0);
``observed`` counts the board cards. Pearson's statistic of those counts is then a weighted
sum of chi-squares (the board cards are martingale differences, their conditional covariance
diag(p_t) − p_t p_tᵀ for card t's chances p_t), with K − 1 degrees of freedom for K cells and
weights of mean c = (K − Σ_k F_k / E_k) / (K − 1), E_k and F_k the sums of p_tk and p_tk²: the
statistic reported is Pearson's divided by c. With the chances the same for every card c is
1 and this is Pearson's plain test; the cards left differ from hand to hand only a little
around a chance symmetric in the ranks and cards, so the weights are nearly equal and c is
close to 1 (the tests check the calibration by simulation). A test is meaningful when every
cell expects at least 5.

Only hands whose every seat's hole cards are known count: with only the hero's cards known,
which hands reach the flop depends on the other players' cards, which a board's cards
depend on too. A board run more than once adds the cards its later runouts dealt: each
comes from the cards not yet seen too (the earlier runouts' among them), and whether a hand
is run again is decided before any of them is dealt.

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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import duckdb

from pipeline.cards import RANKS, format_card, parse_card, rank_of
from pipeline.reports.fairness_stats import MIN_EXPECTED, ChiSquare, chi2_sf, pearson

__all__ = [
    "NO_BOARD",
    "BoardDraws",
    "BoardPairs",
    "board_card_tests",
    "board_draws",
    "board_pairs",
    "deal_boards",
    "dealt_to_boards",
]

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
    """Count, for each (every seat's hole cards, board cards) deal, the hole cards sharing a
    rank with each board card, against the expectation given the cards seen before it.

    A deal with a card twice (an invalid hand) is left out.
    """
    hands = cards = observed = 0
    expected = variance = 0.0
    for hole, board in deals:
        if not _valid(hole, board):
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


@dataclass(frozen=True, slots=True)
class BoardDraws:
    """Board cards of ``hands`` hands with every seat's hole cards known, per card (0..51):
    how often it was dealt to the board (``observed``), and the sums over the board cards of
    its chance of being that card given the cards seen before (``expected``) and of that
    chance squared (``squares``); per rank, the sums of the rank's chance squared
    (``rank_squares``)."""

    hands: int
    cards: int
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    squares: tuple[float, ...]
    rank_squares: tuple[float, ...]


def _valid(hole: Sequence[int], board: Sequence[int]) -> bool:
    hole_set, board_set = set(hole), set(board)
    return len(hole_set) == len(hole) and len(board_set) == len(board) and not hole_set & board_set


def board_draws(deals: Iterable[tuple[Sequence[int], Sequence[int]]]) -> BoardDraws:
    """Count each (every seat's hole cards, board cards) deal's board cards against the
    chances the cards left gave them; a deal with a card twice is left out.

    Every board card owes each unseen card 1/size (size: the cards left), so a card's sums
    are the sums over every board card less those dealt while it was seen.

    >>> draws = board_draws([(range(24), [24, 25])])  # 2c..7s held, a board of 8c 8d
    >>> round(draws.expected[30] * 28 * 27, 6)  # 9d, unseen: 1/28 + 1/27
    55.0
    >>> draws.expected[0], round(draws.expected[24] * 28, 6)  # 2c held; 8c seen once dealt
    (0.0, 1.0)
    """
    hands = cards = 0
    observed = [0] * 52
    owed = owed_squares = 0.0  # Σ 1/size and Σ 1/size² over every board card
    seen = [0.0] * 52  # the part of ``owed`` dealt while a card was seen
    seen_squares = [0.0] * 52
    rank_squares = [0.0] * 13
    for hole, board in deals:
        if not _valid(hole, board):
            continue
        size = 52 - len(hole)
        shares = [1.0 / (size - t) for t in range(len(board))]
        total = sum(shares)
        total_squares = sum(x * x for x in shares)
        owed += total
        owed_squares += total_squares
        left = [4] * 13
        for card in hole:
            seen[card] += total
            seen_squares[card] += total_squares
            left[rank_of(card)] -= 1
        for card, share in zip(board, shares, strict=True):
            total -= share  # what the board cards after this one owe
            total_squares -= share * share
            seen[card] += total
            seen_squares[card] += total_squares
            observed[card] += 1
            for r in range(13):
                rank_squares[r] += (left[r] * share) ** 2
            left[rank_of(card)] -= 1
        hands += 1
        cards += len(board)
    return BoardDraws(
        hands=hands,
        cards=cards,
        observed=tuple(observed),
        expected=tuple(max(0.0, owed - s) for s in seen),
        squares=tuple(max(0.0, owed_squares - s) for s in seen_squares),
        rank_squares=tuple(rank_squares),
    )


def _draw_test(
    kind: str,
    labels: tuple[str, ...],
    observed: Sequence[int],
    expected: Sequence[float],
    squares: Sequence[float],
) -> ChiSquare:
    cells = len(observed)
    n = sum(observed)
    least = min(expected)
    statistic = p_value = None
    correction = 1.0
    if least >= MIN_EXPECTED:
        spread = sum(f / e for f, e in zip(squares, expected, strict=True))
        correction = (cells - spread) / (cells - 1)
        statistic = pearson(observed, expected) / correction
        p_value = chi2_sf(statistic, cells - 1)
    return ChiSquare(
        sample="boards",
        kind=kind,
        position=None,
        name=f"boards: {kind} from the cards left",
        n=n,
        needed=math.ceil(MIN_EXPECTED * n / least) if least > 0 else MIN_EXPECTED * cells,
        observed=tuple(observed),
        df=cells - 1,
        correction=correction,
        statistic=statistic,
        p_value=p_value,
        labels=labels,
        expected=tuple(expected),
    )


def board_card_tests(draws: BoardDraws) -> list[ChiSquare]:
    """Test the board cards' ranks (13 cells) and cards (52) against the cards left; no test
    without a board card."""
    if not draws.cards:
        return []
    ranks = [0] * 13
    rank_expected = [0.0] * 13
    for card in range(52):
        ranks[rank_of(card)] += draws.observed[card]
        rank_expected[rank_of(card)] += draws.expected[card]
    cards = tuple(format_card(card) for card in range(52))
    return [
        _draw_test("ranks", tuple(RANKS), ranks, rank_expected, draws.rank_squares),
        _draw_test("cards", cards, draws.observed, draws.expected, draws.squares),
    ]


_BOARD_SQL = """
WITH hole AS (
    SELECT site, hand_id, string_agg(cards, '' ORDER BY seat, seq) AS cards,
           count(*) AS players, bool_and(NOT contains(cards, '??')) AS known
    FROM actions
    WHERE type = 'deal' AND cards IS NOT NULL
    GROUP BY site, hand_id
)
SELECT h.cards, x.boards
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


def dealt_to_boards(boards: Sequence[Sequence[int]]) -> list[int]:
    """Return the cards a hand dealt to its boards, in order: the first board, then what
    each later runout dealt anew (its cards after those it shares with the first).

    >>> dealt_to_boards([[1, 2, 3, 4, 5], [1, 2, 3, 6, 7], [1, 2, 3, 8, 9]])
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    >>> dealt_to_boards([[1, 2, 3, 4, 5]])
    [1, 2, 3, 4, 5]
    """
    if not boards:
        return []
    first = list(boards[0])
    cards = list(first)
    for board in boards[1:]:
        shared = 0
        while shared < min(len(board), len(first)) and board[shared] == first[shared]:
            shared += 1
        cards += board[shared:]
    return cards


def deal_boards(con: duckdb.DuckDBPyConnection) -> tuple[BoardPairs, BoardDraws]:
    """Run :func:`board_pairs` and :func:`board_draws` on the hands of the lake open on
    ``con`` whose every seat's hole cards are known and that dealt a board."""
    rows = con.execute(_BOARD_SQL).fetchall()

    def deals() -> Iterator[tuple[list[int], list[int]]]:  # parsed as used: twice, not kept
        for hole_text, board_texts in rows:
            hole = _parsed(str(hole_text))
            boards = [_parsed(str(text)) for text in board_texts]
            read = [board for board in boards if board is not None]
            if hole is not None and len(read) == len(boards):
                yield hole, dealt_to_boards(read)

    return board_pairs(deals()), board_draws(deals())
