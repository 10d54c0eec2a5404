"""Fairness of the deal: tests on cards whose sample does not depend on play.

Two samples qualify. **Hole cards known at the deal**: the ``deal`` rows of the actions
table whose cards the log shows (every seat in generated logs, the hero's in a site's
export), each card counted at its position in the player's hole cards (1..n). **Deck
orders**: the ``deck`` column of hands whose log records the whole shuffled deck (burns
included), each card counted at its position from the top. Shown cards are never
tested, nor boards on their own: which hands reach a showdown or a street depends on how
they were played (boards are tested against the hole cards, below).

Tests: each of the 52 cards equally often at each hole-card position and at each of the 52
deck positions (the whole deck is recorded whether or not a card was dealt, so every
position is a fair sample), ranks (13) and suits (4) of all known hole cards uniform, and
the same ranks and suits at every table position relative to the button (SB, BB … BTN: a
deal that moves aces to one seat leaves every other test unchanged; see
:mod:`pipeline.reports.fairness_seats`). A test is meaningful when every cell expects at
least 5 observations (``needed`` says how many that takes).

**Dealt without replacement.** The cards one hand gives a test come from one deck, so
they are never a card twice: per hand the cell counts are multivariate hypergeometric, and
their covariance is the multinomial one times (52 − m)/51 for a hand that gives the test m
known cards. Summed over many hands, Pearson's statistic is c times a chi-square, with
``c = Σ m(52 − m) / (51 · Σ m)``; the statistic reported (and its p-value) is the corrected
one, Pearson's divided by ``c`` (``ChiSquare.correction``). For ranks and suits m is every
known hole card of the hand (24 when six players' four cards are known: c = 0.55, and
uncorrected a fair deal would average 6.6 instead of 12, hiding real bias); for a hole-card
position, the known cards at that position, one per player; a deck position has m = 1.

**Recorded order.** The by-position tests assume each player's hole cards are written in
the order dealt. Some writers sort them (the PHH files of the WSOP corpus write every
player's cards high to low), and a fair deal then fails those tests. Per input file (the
``source`` column) a hand is *sorted* when each player's fully known hole cards are in
non-increasing rank order (or each in non-decreasing order); dealt in random order that
happens to four different ranks 1 time in 24. A file whose hands are at least 90% sorted,
where the sorted hands had less than 1 chance in 10,000 (``UNORDERED_CHANCE``) of all being
so in dealing order, is left out of the by-position tests (its hands still count for
ranks, suits, the tests by table position, which do not need the order, and repeats);
``Fairness.unordered_hands`` counts the hands left out.

**The board against the hole cards.** Boards alone are no fair sample (which hands reach
the flop depends on play), but where every seat's hole cards are known each board card is
dealt from the cards left, whatever was played: one test compares how often board cards
share a rank with hole cards against that, two more the board cards' ranks (13) and cards
(52) against the chances the cards left gave them, a chi-square corrected for those chances
varying from card to card (see :mod:`pipeline.reports.fairness_board`).

**Repeated deals.** A fair shuffle never deals the same cards twice. A hand's deal is its
recorded deck where there is one, else every seat's hole cards in seat order and the first
board, used only when at least 12 cards of it are known (``REPEAT_MIN_CARDS``: a chance match
of two hands is then below 1/P(52, 12) ≈ 1e-20). The test counts hands whose deal equals an
earlier hand's. Under a fair deal the pairs of equal deals are Poisson with a mean of at
most C(n, 2) / P(52, k), n the hands compared and k the fewest known cards of a deal
compared; each repeating hand makes at least one pair, so P(Poisson ≥ repeats) at that
mean bounds the p-value from above.

P-values of the meaningful tests are corrected with Holm's method for their number, and
the verdict is read at ``alpha`` (1%): "evidence of bias" when any test fails, else "not
enough hands" unless some test of hole cards or decks by card and position had enough
data, else "consistent with a fair deal". The statistics themselves (chi-square and Poisson
tails, Holm's method, the correction for dealing without replacement) are in
:mod:`pipeline.reports.fairness_stats`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import duckdb

from pipeline.cards import RANKS, SUITS, format_card, parse_card, rank_of, suit_of
from pipeline.reports.fairness_board import (
    MIN_BOARD_CARDS,
    NO_BOARD,
    BoardPairs,
    board_card_tests,
    deal_boards,
)
from pipeline.reports.fairness_seats import deal_position_tests
from pipeline.reports.fairness_stats import (
    FAIL,
    MIN_EXPECTED,
    PASS,
    ChiSquare,
    chi2_sf,
    chi_square,
    holm,
    poisson_sf,
    regularized_gamma_q,
    without_replacement,
)

__all__ = [
    "ALPHA",
    "MIN_EXPECTED",
    "REPEAT_MIN_CARDS",
    "UNORDERED_CHANCE",
    "VERDICT_BIASED",
    "VERDICT_FAIR",
    "VERDICT_TOO_FEW",
    "ChiSquare",
    "Fairness",
    "RepeatedDeal",
    "Repeats",
    "TestKey",
    "chi2_sf",
    "chi_square",
    "deal_fairness",
    "fairness_of_counts",
    "holm",
    "largest_deviations",
    "poisson_sf",
    "regularized_gamma_q",
    "without_replacement",
]

ALPHA = 0.01
"""The significance level of the verdict, after Holm's correction."""
UNORDERED_SHARE = 0.9
"""The share of sorted hands that marks an input file as written sorted, not as dealt."""
UNORDERED_CHANCE = 1e-4
"""Below this chance of its sorted hands all being so in dealing order, a file is sorted."""
REPEAT_MIN_CARDS = 12
"""The fewest known cards a deal needs to be compared with others for repeats."""
REPEAT_EXAMPLES = 5
"""How many repeated deals the report names."""
VERDICT_FAIR = "consistent with a fair deal"
VERDICT_TOO_FEW = "not enough hands"
VERDICT_BIASED = "evidence of bias at {alpha:g}% after Holm"

TestKey = tuple[str, int | None]
"""A hole-card test: ``("cards", position)``, ``("ranks", None)`` or ``("suits", None)``."""


@dataclass(frozen=True, slots=True)
class RepeatedDeal:
    """A hand (``site``, ``hand_id``) dealt exactly as an earlier one (``first_*``)."""

    site: str
    hand_id: str
    first_site: str
    first_hand_id: str


@dataclass(frozen=True, slots=True)
class Repeats:
    """Deals compared for repeats: ``hands`` with a key (a recorded deck, or at least
    :data:`REPEAT_MIN_CARDS` known cards), ``shortest`` the fewest known cards of a key,
    ``repeated`` the hands whose deal equals an earlier hand's, a few of them named."""

    hands: int
    shortest: int
    repeated: int
    examples: tuple[RepeatedDeal, ...]

    @property
    def chance(self) -> float:
        """Return C(n, 2) / P(52, k): at least the expected number of chance repeats."""
        if self.hands < 2 or self.shortest <= 0:
            return 0.0
        k = min(self.shortest, 52)
        log_pairs = math.log(self.hands) + math.log(self.hands - 1) - math.log(2)
        return math.exp(log_pairs - (math.lgamma(53) - math.lgamma(53 - k)))


NO_REPEATS = Repeats(hands=0, shortest=0, repeated=0, examples=())


@dataclass(frozen=True, slots=True)
class Fairness:
    """Every fairness test, the samples' sizes, and the plain verdict.

    ``hole_hands`` and ``hole_cards`` count every hand with known hole cards and those
    cards (the rank and suit sample); ``unordered_hands`` of those hands, from
    ``unordered_sources`` input files that write hole cards sorted, are left out of the
    by-position tests.
    """

    hole_hands: int
    hole_cards: int
    unordered_hands: int
    unordered_sources: int
    decks: int
    repeats: Repeats
    alpha: float
    tests: tuple[ChiSquare, ...]
    verdict: str
    board: BoardPairs = NO_BOARD

    @property
    def meaningful(self) -> tuple[ChiSquare, ...]:
        """Return the tests with enough observations."""
        return tuple(t for t in self.tests if t.p_value is not None)


def _label(kind: str, cell: int) -> str:
    if kind == "ranks":
        return RANKS[cell]
    if kind == "suits":
        return SUITS[cell]
    return format_card(cell)


def largest_deviations(test: ChiSquare, top: int = 3) -> list[tuple[str, int, float]]:
    """Return the ``top`` cells furthest from what a fair deal expects, furthest first, as
    (the cell's card, rank or suit, or its ``labels``; observed; expected). Every cell
    expects as many, unless the test gives each cell's ``expected``.

    >>> t = fairness_of_counts({}, {1: [10] * 49 + [16, 1, 13]}, hole_hands=0, decks=520)
    >>> largest_deviations(t.tests[0], 2)
    [('Ah', 1, 10.0), ('Ad', 16, 10.0)]
    """
    if test.kind in ("repeats", "pairs") or not test.n:
        return []
    cells = range(len(test.observed))
    expected = list(test.expected) or [test.n / len(test.observed)] * len(test.observed)
    order = sorted(cells, key=lambda i: (-abs(test.observed[i] - expected[i]), i))
    labels = test.labels or tuple(_label(test.kind, i) for i in cells)
    return [(labels[i], test.observed[i], expected[i]) for i in order[:top]]


def _test(
    sample: str, kind: str, position: int | None, counts: Sequence[int], correction: float
) -> ChiSquare:
    cells = len(counts)
    where = f" at position {position}" if position is not None else ""
    n = sum(counts)
    needed = MIN_EXPECTED * cells
    statistic = p_value = None
    if n >= needed:
        pearson, df, _ = chi_square(counts)
        # c = 0 only when every hand gives the test the whole deck: counts carry no news
        statistic = pearson / correction if correction > 0 else 0.0
        p_value = chi2_sf(statistic, df)
    return ChiSquare(
        sample=sample,
        kind=kind,
        position=position,
        name=f"{sample}: {kind}{where}",
        n=n,
        needed=needed,
        observed=tuple(counts),
        df=cells - 1,
        correction=correction,
        statistic=statistic,
        p_value=p_value,
    )


def _repeat_test(repeats: Repeats) -> ChiSquare:
    enough = repeats.hands >= 2
    return ChiSquare(
        sample="deals",
        kind="repeats",
        position=None,
        name="deals: repeated deals",
        n=repeats.hands,
        needed=2,
        observed=(repeats.repeated,),
        df=0,
        correction=1.0,
        statistic=None,
        p_value=poisson_sf(repeats.repeated, repeats.chance) if enough else None,
    )


def _board_test(board: BoardPairs) -> ChiSquare:
    enough = board.cards >= MIN_BOARD_CARDS and board.variance > 0
    statistic = board.z**2 if enough else None
    return ChiSquare(
        sample="boards",
        kind="pairs",
        position=None,
        name="boards: pairing the hole cards",
        n=board.cards,
        needed=MIN_BOARD_CARDS,
        observed=(board.observed,),
        df=1,
        correction=1.0,
        statistic=statistic,
        p_value=chi2_sf(statistic, 1) if statistic is not None else None,
    )


def fairness_of_counts(
    hole: Mapping[int, Sequence[int]],
    deck: Mapping[int, Sequence[int]],
    *,
    hole_hands: int,
    decks: int,
    alpha: float = ALPHA,
    pooled: Sequence[int] | None = None,
    correction: Mapping[TestKey, float] | None = None,
    repeats: Repeats | None = None,
    unordered_hands: int = 0,
    unordered_sources: int = 0,
    board: BoardPairs | None = None,
    by_position: Sequence[ChiSquare] = (),
    board_cards: Sequence[ChiSquare] = (),
) -> Fairness:
    """Run every test on card counts: ``hole`` and ``deck`` map a position (from 1) to the
    count of each of the 52 cards seen there.

    ``pooled`` counts each card over every known hole card, for ranks and suits (default:
    the sum of ``hole``; give it when some hands are left out of ``hole``). ``correction``
    maps a hole-card test to its factor c (:func:`without_replacement`); a test it leaves
    out is not corrected (right only when each hand gives that test one card). Deck
    positions take one card per deck: never corrected. ``repeats`` adds the repeated-deal
    test, ``board`` the board-pairing test (:mod:`pipeline.reports.fairness_board`);
    ``by_position`` the tests by table position (:mod:`pipeline.reports.fairness_seats`)
    and ``board_cards`` those of board cards against the cards left
    (:mod:`~pipeline.reports.fairness_board`), corrected and judged with the rest.
    """
    factor = correction or {}
    tests = [
        _test("hole cards", "cards", p, hole[p], factor.get(("cards", p), 1.0))
        for p in sorted(hole)
    ]
    if pooled is None:
        pooled = [sum(counts[card] for counts in hole.values()) for card in range(52)]
    ranks = [0] * len(RANKS)
    suits = [0] * len(SUITS)
    for card, count in enumerate(pooled):
        ranks[rank_of(card)] += count
        suits[suit_of(card)] += count
    if any(pooled):
        tests.append(_test("hole cards", "ranks", None, ranks, factor.get(("ranks", None), 1.0)))
        tests.append(_test("hole cards", "suits", None, suits, factor.get(("suits", None), 1.0)))
    tests += by_position
    tests += [_test("deck", "cards", p, deck[p], 1.0) for p in sorted(deck)]
    if repeats is not None and repeats.hands:
        tests.append(_repeat_test(repeats))
    if board is not None and board.cards:
        tests.append(_board_test(board))
    tests += board_cards
    meaningful = [i for i, t in enumerate(tests) if t.p_value is not None]
    adjusted = holm([tests[i].p_value or 0.0 for i in meaningful])
    done = list(tests)
    for i, p in zip(meaningful, adjusted, strict=True):
        done[i] = replace(tests[i], p_holm=p, result=FAIL if p < alpha else PASS)
    if any(t.result == FAIL for t in done):
        verdict = VERDICT_BIASED.format(alpha=100 * alpha)
    elif not any(t.p_value is not None for t in done if t.kind == "cards" and t.sample != "boards"):
        verdict = VERDICT_TOO_FEW  # ranks, suits and repeats say nothing of cards by position
    else:
        verdict = VERDICT_FAIR
    return Fairness(
        hole_hands=hole_hands,
        hole_cards=sum(pooled),
        unordered_hands=unordered_hands,
        unordered_sources=unordered_sources,
        decks=decks,
        repeats=repeats or NO_REPEATS,
        alpha=alpha,
        tests=tuple(done),
        verdict=verdict,
        board=board or NO_BOARD,
    )


_DEALT = """
WITH dealt AS (
    SELECT h.source, a.site, a.hand_id, a.seq, a.cards,
           unnest(range(length(a.cards) // 2)) AS k
    FROM actions a JOIN hands h ON a.site = h.site AND a.hand_id = h.hand_id
    WHERE a.type = 'deal' AND a.cards IS NOT NULL AND h.status <> 'void'
), known AS MATERIALIZED (
    SELECT source, site, hand_id, k + 1 AS position, substr(cards, 2 * k + 1, 2) AS card
    FROM dealt
    WHERE substr(cards, 2 * k + 1, 2) <> '??'
)
"""
# Per input file: hands whose every fully known player's cards (two ranks or more) are
# sorted high to low, or low to high, and ln of the chance of that in dealing order: per
# player, (product of each rank's multiplicity!) / (cards)!.
_ORDER_SQL = (
    _DEALT
    + """
, players AS (
    SELECT source, site, hand_id, seq,
           list(instr('23456789TJQKA', substr(cards, 2 * k + 1, 1)) ORDER BY k) AS ranks
    FROM dealt
    GROUP BY ALL
), judged AS (
    SELECT source, site, hand_id,
           ranks = list_reverse_sort(ranks) AS falling,
           ranks = list_sort(ranks) AS rising,
           list_sum(list_transform(
               map_values(list_aggregate(ranks, 'histogram')), lambda n: lgamma(n + 1)
           )) - lgamma(len(ranks) + 1) AS log_chance
    FROM players
    WHERE NOT list_contains(ranks, 0)
), hands_judged AS (
    SELECT source, site, hand_id, bool_and(falling) AS falling, bool_and(rising) AS rising,
           sum(log_chance) AS log_chance
    FROM judged
    WHERE log_chance < -1e-9
    GROUP BY ALL
)
SELECT source, count(*) AS hands,
       count(*) FILTER (WHERE falling),
       coalesce(sum(log_chance) FILTER (WHERE falling), 0.0),
       count(*) FILTER (WHERE rising),
       coalesce(sum(log_chance) FILTER (WHERE rising), 0.0)
FROM hands_judged
GROUP BY source
"""
)
_HOLE_HANDS_SQL = (
    _DEALT
    + """
SELECT source, count(DISTINCT site || chr(0) || hand_id) FROM known GROUP BY source
"""
)
# Card counts per position: ``unordered`` marks the hands of files written sorted.
_HOLE_SQL = (
    _DEALT
    + """
SELECT list_contains(?::VARCHAR[], source) AS unordered, position, card, count(*) AS n
FROM known
GROUP BY ALL
"""
)
# Σ m(52 − m) per position over ordered files (m: a hand's known cards at the position),
# and over every file with m all the known hole cards of a hand (position NULL).
_SPREAD_SQL = (
    _DEALT
    + """
, per_position AS MATERIALIZED (
    SELECT site, hand_id, position, bool_or(list_contains(?::VARCHAR[], source)) AS unordered,
           count(*) AS m
    FROM known
    GROUP BY site, hand_id, position
), per_hand AS (
    SELECT site, hand_id, sum(m) AS m FROM per_position GROUP BY site, hand_id
)
SELECT position, sum(m * (52 - m)) FILTER (WHERE NOT unordered) FROM per_position GROUP BY 1
UNION ALL
SELECT NULL, sum(m * (52 - m)) FROM per_hand
"""
)
_DECK_SQL = """
WITH decks AS (
    SELECT deck, unnest(range(length(deck) // 2)) AS k
    FROM hands WHERE deck IS NOT NULL AND status <> 'void'
)
SELECT k + 1 AS position, substr(deck, 2 * k + 1, 2) AS card, count(*) AS n
FROM decks
GROUP BY ALL
"""
_DECKS_SQL = "SELECT count(*) FROM hands WHERE deck IS NOT NULL AND status <> 'void'"
# A hand's deal: its deck where recorded, else every seat's hole cards in seat order and
# the first board ('??' kept, so only hands with the same cards unknown can match).
_REPEATS_SQL = """
WITH hole AS (
    SELECT site, hand_id, string_agg(cards, '|' ORDER BY seat, seq) AS cards,
           sum(length(replace(cards, '??', ''))) // 2 AS known
    FROM actions
    WHERE type = 'deal' AND cards IS NOT NULL
    GROUP BY site, hand_id
), once AS (
    SELECT site, hand_id, any_value(deck) AS deck, any_value(boards) AS boards,
           min(started_at) AS started_at
    FROM hands
    WHERE status <> 'void'
    GROUP BY site, hand_id
), keyed AS (
    SELECT o.site, o.hand_id, o.started_at,
           CASE WHEN o.deck IS NOT NULL THEN 'deck ' || o.deck
                ELSE 'cards ' || coalesce(h.cards, '') || '/' || coalesce(o.boards[1], '')
           END AS deal,
           CASE WHEN o.deck IS NOT NULL THEN length(o.deck) // 2
                ELSE coalesce(h.known, 0) + length(coalesce(o.boards[1], '')) // 2
           END AS known
    FROM once o LEFT JOIN hole h ON o.site = h.site AND o.hand_id = h.hand_id
), ranked AS (
    SELECT site, hand_id, started_at, known,
           row_number() OVER deals AS nth,
           first_value(site) OVER deals AS first_site,
           first_value(hand_id) OVER deals AS first_hand_id
    FROM keyed
    WHERE known >= ?
    WINDOW deals AS (PARTITION BY deal ORDER BY started_at NULLS LAST, site, hand_id)
)
SELECT count(*), coalesce(min(known), 0), count(*) FILTER (WHERE nth > 1),
       coalesce(list([site::VARCHAR, hand_id, first_site::VARCHAR, first_hand_id]
                     ORDER BY started_at NULLS LAST, site, hand_id) FILTER (WHERE nth > 1),
                []
       )[1:?]
FROM ranked
"""


def _cards(text: str) -> int:
    try:
        return parse_card(text)
    except ValueError:
        return -1


def _counts(rows: Iterable[tuple[object, ...]]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for position, text, n in rows:
        assert isinstance(position, int) and isinstance(text, str) and isinstance(n, int)
        card = _cards(text)
        if card < 0:
            continue
        out.setdefault(position, [0] * 52)[card] += n
    return out


def _unordered(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Return the input files whose hole cards are written sorted by rank, not as dealt."""
    out = []
    threshold = math.log(UNORDERED_CHANCE)
    for source, hands, falling, log_falling, rising, log_rising in con.execute(
        _ORDER_SQL
    ).fetchall():
        for sorted_hands, log_chance in ((falling, log_falling), (rising, log_rising)):
            if sorted_hands >= UNORDERED_SHARE * hands and log_chance < threshold:
                out.append(str(source))
                break
    return sorted(out)


def _repeats(con: duckdb.DuckDBPyConnection) -> Repeats:
    row = con.execute(_REPEATS_SQL, [REPEAT_MIN_CARDS, REPEAT_EXAMPLES]).fetchone()
    assert row is not None
    hands, shortest, repeated, examples = row
    return Repeats(
        hands=int(hands),
        shortest=int(shortest),
        repeated=int(repeated),
        examples=tuple(RepeatedDeal(*map(str, example)) for example in examples),
    )


def deal_fairness(con: duckdb.DuckDBPyConnection, *, alpha: float = ALPHA) -> Fairness:
    """Count the play-independent samples in the lake open on ``con`` and test them."""
    unordered = _unordered(con)
    hands_per_source = dict(con.execute(_HOLE_HANDS_SQL).fetchall())
    hole: dict[int, list[int]] = {}
    pooled = [0] * 52
    for is_unordered, position, text, n in con.execute(_HOLE_SQL, [unordered]).fetchall():
        card = _cards(str(text))
        if card < 0:
            continue
        pooled[card] += int(n)
        if not is_unordered:
            hole.setdefault(int(position), [0] * 52)[card] += int(n)
    spread: dict[int | None, int] = {
        None if p is None else int(p): int(total)
        for p, total in con.execute(_SPREAD_SQL, [unordered]).fetchall()
        if total is not None
    }
    correction: dict[TestKey, float] = {}
    for position, counts in hole.items():
        if position in spread:
            correction[("cards", position)] = spread[position] / (51 * sum(counts))
    if None in spread:
        pooled_c = spread[None] / (51 * sum(pooled))
        correction[("ranks", None)] = correction[("suits", None)] = pooled_c
    deck = _counts(con.execute(_DECK_SQL).fetchall())
    decks = con.execute(_DECKS_SQL).fetchone()
    board, draws = deal_boards(con)
    return fairness_of_counts(
        hole,
        deck,
        hole_hands=sum(int(n) for n in hands_per_source.values()),
        decks=int(decks[0]) if decks else 0,
        alpha=alpha,
        pooled=pooled,
        correction=correction,
        repeats=_repeats(con),
        unordered_hands=sum(int(hands_per_source.get(s, 0)) for s in unordered),
        unordered_sources=len(unordered),
        board=board,
        by_position=deal_position_tests(con),
        board_cards=board_card_tests(draws),
    )
