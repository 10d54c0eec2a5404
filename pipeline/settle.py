"""Settlement: build every pot from a replay, award it by the cards, reconcile with the log.

From a :class:`~pipeline.rules.Replay` (uncalled bets already returned) the chips each
player put in form a main pot and side pots, each with the players eligible for it
(RULES.md ``R8.side-pots``). The recorded rake is spread over the pots (``R8.rake-allocation``);
a board run more than once divides each pot between the runouts, odd chips to the first
(``R8.run-it-twice``). Each pot (per runout) goes to the best high among its eligible
players, or in hi/lo half to the best high and half to the best qualifying low among
**that pot's** players (``R8.hi-lo``); ties split, odd chips to the high half and then one
each from the first seat left of the button (``R8.odd-chips``). A hand whose cards are
unknown cannot win (``R8.best-hand``); a pot nobody can claim is an ``unclaimed-pot``
violation, never silently burned.

Then :mod:`pipeline.reconcile` compares the awards with what the log recorded, to the
smallest unit: ``payout-mismatch`` (per seat, per pot, and finishing stacks),
``rake-mismatch``, ``pot-mismatch`` and ``chips-not-conserved`` (``R9.conservation``).
Showdowns are
evaluated in numpy batches: :func:`settle_many` (or :func:`settle_each`, one hand at a
time) settles a batch of hands with one evaluator call per hole-card count.

Settling runs once per hand of every run, so the hot paths are written for speed: plain
loops instead of generator expressions, one pass where the obvious code takes several,
short cuts for the common cases (one pot, no rake, no odd chip, a log that agrees), and
``msgspec`` structs for the records (several times cheaper to build than frozen
dataclasses). Each short cut gives exactly what the general code gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np
from msgspec import Struct, field

import pipeline.judged_view  # noqa: F401 - first, it checks the compiled view of a judged hand
from pipeline.cards import UNKNOWN
from pipeline.evaluate import NO_LOW, BatchResult, describe_high, describe_low, evaluate_batch
from pipeline.model import HILO_VARIANTS, HandRecord, Status
from pipeline.pots import Award, Half, Pot, allocate_rake, build_pots, listed_shares, split_evenly
from pipeline.reconcile import Book, reconcile
from pipeline.rules import Replay, RuleSet
from pipeline.violations import Code, Severity, Violation

__all__ = [
    "Award",
    "Half",
    "Pot",
    "Settlement",
    "allocate_rake",
    "build_pots",
    "error_count",
    "hand_status",
    "settle",
    "settle_each",
    "settle_many",
    "split_evenly",
]

_OK, _VIOLATIONS, _INVALID = Status.OK, Status.VIOLATIONS, Status.INVALID
_VOID, _PARTIAL = Status.VOID, Status.PARTIAL
_WHOLE, _HIGH, _LOW = Half.WHOLE, Half.HIGH, Half.LOW
_ERROR = Severity.ERROR
"""Module constants: an enum's member read through its class is a slow attribute look-up
(some sixty nanoseconds), and these are read for every hand and pot."""


class Settlement(Struct, frozen=True):
    """Who gets what: pots, awards, final stacks, and every discrepancy with the log.

    ``won`` maps each seat to the chips it was awarded (uncalled bets not included: the
    replay already returned them); ``final_stacks`` to what it holds after the hand.
    ``payouts_match`` is ``None`` when the log records nothing to compare with.
    ``high_hands``/``low_hands`` give each showdown seat's best hand on the first board
    (a low in a hi/lo game only).
    """

    pots: tuple[Pot, ...]
    awards: tuple[Award, ...]
    won: dict[int, int]
    final_stacks: dict[int, int]
    rake: int
    violations: tuple[Violation, ...]
    payouts_match: bool | None
    high_hands: dict[int, str] = field(default_factory=dict)
    low_hands: dict[int, str] = field(default_factory=dict)
    complete: bool = True
    runouts: int = 1
    """The boards each pot is played on (split between them): 1 unless the board was run
    more than once in a contested hand."""

    @property
    def errors(self) -> tuple[Violation, ...]:
        """Return the violations of severity ``error``."""
        return tuple(v for v in self.violations if v.severity is _ERROR)

    @property
    def settled(self) -> bool:
        """Tell whether the rules awarded every pot: not in a void or stopped hand, a showdown
        they could not judge, or a pot no eligible player showed a hand for (unclaimed)."""
        return self.complete and all(v.code is not Code.UNCLAIMED_POT for v in self.violations)


def hand_status(judged: Replay, settled: Settlement) -> Status:
    """Return a hand's status counting settlement errors: an ``ok`` replay whose payouts
    break a rule is ``violations``."""
    if judged.status is _OK and settled.errors:
        return _VIOLATIONS
    return judged.status


def error_count(status: Status, violations: Sequence[Violation]) -> int:
    """Return how many of a hand's violations are errors: none in a void hand (cancelled by
    the site, what it lacks is why, and fails nothing)."""
    if status is _VOID:
        return 0
    return sum([v.severity is _ERROR for v in violations])


# ------------------------------------------------------------------------------ evaluation


class _Showdown(Struct):
    """Per hand: for each runout, each eligible seat's high rank, qualifying low rank (seats
    with no low left out), and the five cards of each (descriptions are made when needed).

    Each dict lists the seats in seating order, first left of the button first.
    """

    high: list[dict[int, int]]
    low: list[dict[int, int]]
    high_cards: list[dict[int, list[int]]]
    low_cards: list[dict[int, list[int]]]


_HIGH_TEXTS: dict[int, str] = {}
_LOW_TEXTS: dict[int, str] = {}
"""Each rank's description, once described: a high rank is one of 7,462 and a low one of
56, described again at every showdown (a dict read is several times quicker than a call
of a ``functools.cache`` wrapper)."""


def _described(texts: dict[int, str], describe: Callable[[int], str], rank: int) -> str:
    """Return ``describe(rank)``, remembered in ``texts``."""
    text = texts.get(rank)
    if text is None:
        text = texts[rank] = describe(rank)
    return text


def _known(cards: tuple[int, ...] | None, count: int) -> bool:
    return cards is not None and len(cards) == count and UNKNOWN not in cards


def _cards_sound(judged: Replay) -> bool:
    """Tell whether the boards are whole and no card was dealt twice: else no showdown."""
    for board in judged.boards:
        if len(board) != 5:
            return False
    return not judged.violations or all(
        v.code is not Code.DUPLICATE_CARD for v in judged.violations
    )


def _needs_showdown(judged: Replay) -> bool:
    return judged.folded.count(False) > 1


class _Batch(Struct):
    """The showdown rows of one hole-card count, one group of rows per hand and runout:
    each group is the hand's showdown and the seats of its rows (consecutive rows)."""

    groups: list[tuple[_Showdown, tuple[int, ...]]] = field(default_factory=list)
    holes: list[int] = field(default_factory=list)  # each row's hole cards, one after another
    boards: list[int] = field(default_factory=list)  # each row's five board cards, the same


def _evaluate(replays: Sequence[Replay]) -> list[_Showdown | None]:
    """Evaluate every showdown of every hand, one batch per hole-card count."""
    batches: dict[int, _Batch] = {}
    out: list[_Showdown | None] = []
    for judged in replays:
        if not _needs_showdown(judged) or not _cards_sound(judged):
            out.append(None)
            continue
        k = judged.hand.game.hole_cards
        folded = judged.folded
        hole_cards = judged.hole_cards
        seats: list[int] = []  # the players in with known cards, in seating order
        holes: list[tuple[int, ...]] = []
        for i, seat in enumerate(judged.seats):
            if folded[i]:
                continue
            cards = hole_cards.get(seat)
            if cards is not None and _known(cards, k):
                seats.append(seat)
                holes.append(cards)
        boards = judged.boards
        if not seats:  # nobody can win: no rows, an empty showdown per runout
            out.append(
                _Showdown(
                    [{} for _ in boards],
                    [{} for _ in boards],
                    [{} for _ in boards],
                    [{} for _ in boards],
                )
            )
            continue
        show = _Showdown([], [], [], [])  # _distribute appends each runout's, in order
        out.append(show)
        batch = batches.get(k)
        if batch is None:
            batch = batches[k] = _Batch()
        group = (show, tuple(seats))
        for board in boards:  # whole: five cards (_cards_sound)
            batch.groups.append(group)
            for cards in holes:
                batch.holes.extend(cards)
            batch.boards.extend(board * len(holes))
    for k, batch in batches.items():  # flat lists: NumPy reads them much faster than rows
        holes_array = np.array(batch.holes, dtype=np.int8).reshape(-1, k)
        boards_array = np.array(batch.boards, dtype=np.int8).reshape(-1, 5)
        result = evaluate_batch(holes_array, boards_array, low=True, check=False)
        _distribute(result, batch.groups)
    return out


def _distribute(result: BatchResult, groups: list[tuple[_Showdown, tuple[int, ...]]]) -> None:
    """Give each hand its ranks and five cards (gathered in one numpy call), runout by runout."""
    high = result.high.tolist()
    high_cards = result.high_cards().tolist()
    if result.low is None:
        low = [NO_LOW] * len(high)
        low_cards = []
    else:
        low = result.low.tolist()
        low_cards = result.low_cards().tolist()
    row = 0
    for show, seats in groups:
        high_r: dict[int, int] = {}
        high_cards_r: dict[int, list[int]] = {}
        low_r: dict[int, int] = {}
        low_cards_r: dict[int, list[int]] = {}
        for seat in seats:
            high_r[seat] = high[row]
            high_cards_r[seat] = high_cards[row]
            if low[row] != NO_LOW:
                low_r[seat] = low[row]
                low_cards_r[seat] = low_cards[row]
            row += 1
        show.high.append(high_r)
        show.high_cards.append(high_cards_r)
        show.low.append(low_r)
        show.low_cards.append(low_cards_r)


# ------------------------------------------------------------------------------ settling


def settle(judged: Replay, rules: RuleSet | None = None) -> Settlement:
    """Settle one replayed hand (see :func:`settle_many` for a chunk at once)."""
    return settle_many([judged], rules)[0]


def settle_many(replays: Sequence[Replay], rules: RuleSet | None = None) -> list[Settlement]:
    """Settle a chunk of replayed hands, evaluating all their showdowns in one batch."""
    showdowns = _evaluate(replays)
    return [
        _settle_one(judged, show, rules or judged.rules)
        for judged, show in zip(replays, showdowns, strict=True)
    ]


def settle_each(
    replays: list[Replay], rules: RuleSet | None = None
) -> Iterator[tuple[Replay, Settlement]]:
    """Settle a chunk of replayed hands, evaluating all their showdowns in one batch, and
    yield each replay with its settlement, in order, **emptying** ``replays`` as it goes.

    A hand's objects are then freed as soon as the caller is done with them, and the next
    hand's settlement is made in the memory they leave, still in the CPU's cache: the run's
    settling and rows took some 2 to 4 us a hand less than with :func:`settle_many`,
    which keeps the whole batch alive (1,000 generated hands at a time).

    The list is reversed at the first hand and popped from its end: a caller that stops
    early finds the hands not yet yielded left in it, last first, and a hand whose settling
    raised is in it no longer (in a run, such an error ends the run, which commits nothing).
    """
    showdowns = _evaluate(replays)
    replays.reverse()
    showdowns.reverse()
    while replays:
        judged = replays.pop()
        yield judged, _settle_one(judged, showdowns.pop(), rules or judged.rules)


def _starting(hand: HandRecord) -> dict[int, int]:
    return {s.seat: s.stack for s in hand.seats}


_ROUND_END = ("R4.round-end",)
_SIDE_POTS = ("R8.side-pots",)


def _settle_one(judged: Replay, show: _Showdown | None, rules: RuleSet) -> Settlement:
    hand = judged.hand
    status = judged.status
    if status is _VOID or status is _INVALID:
        finals = _starting(hand) if status is _VOID else {}
        return Settlement((), (), {}, finals, 0, (), None, complete=False)
    book = Book(judged, rules)
    awards = book.awards
    seats = judged.seats
    result = hand.result
    if result is None:
        rake = fees = added = 0
        listed: Sequence[int] = ()
    else:
        rake = result.rake if result.rake is not None else 0
        fees = sum([f.amount for f in result.fees]) if result.fees else 0
        added = result.added
        listed = result.pots
    raw = build_pots(judged.invested, judged.folded, judged.dead, judged.antes)
    amounts = [a for a, _ in raw]
    # A log's rake (or rake and fees) above the pot is reported (rake-mismatch); the rules
    # take no more than the pot holds, so no pot pays less than nothing.
    total = sum(amounts)
    if listed and added:  # the money the site added is in the main pot's listing
        listed = [net - added if k == 0 else net for k, net in enumerate(listed)]
    # a log that lists each pot after its rake and fees (OHH's jackpot is per pot)
    deducted = listed_shares(amounts, listed, rake + fees) if fees else None
    if deducted is not None:
        shares = allocate_rake(deducted, rake, policy=rules.rake_allocation)
        fee_shares = [d - r for d, r in zip(deducted, shares, strict=True)]
    else:
        shares = allocate_rake(
            amounts, min(rake, total), listed=listed, policy=rules.rake_allocation
        )
        fee_shares = allocate_rake(
            amounts, min(fees, total - sum(shares)), policy=rules.rake_allocation
        )
    # (a loop, not any() over a generator: a cpdef function holds no closure; by index,
    # not zip(..., strict=True): a keyword costs zip a thousand instructions to parse)
    for k in range(len(amounts)):
        # a pot the fees overfill: spread them over what the rake leaves
        if amounts[k] < shares[k] + fee_shares[k]:
            left = [held - taken for held, taken in zip(amounts, shares, strict=True)]
            fee_shares = allocate_rake(left, sum(fee_shares), policy=rules.rake_allocation)
            break
    pot_list: list[Pot] = []
    nets: list[int] = []  # each pot's Pot.net
    for k, (amount, eligible) in enumerate(raw):
        extra = added if k == 0 else 0  # money the site adds goes to the main pot
        pot_list.append(
            Pot(k, amount, tuple([seats[i] for i in eligible]), shares[k], fee_shares[k], extra)
        )
        nets.append(amount - shares[k] - fee_shares[k] + extra)
    pots = tuple(pot_list)
    complete = True
    contested = judged.folded.count(False) > 1
    runs = len(judged.boards) if contested else 1  # a pot won uncontested is paid once
    if contested:
        if show is None:
            complete = False
        else:
            hilo = hand.game.variant in HILO_VARIANTS
            for k, pot in enumerate(pots):  # a net per pot (by index: see above)
                _award_pot(book, pot, nets[k], show, runs, hilo)
    else:
        winner = seats[judged.folded.index(False)]  # the one player left
        for k, pot in enumerate(pots):
            net = nets[k]
            if net:
                awards.append(Award(pot.index, 1, _WHOLE, winner, net, rules=_ROUND_END))
    won: dict[int, int] = {}
    for award in awards:
        won[award.seat] = won.get(award.seat, 0) + award.amount
    stacks = judged.stacks  # a stack per seat dealt in
    finals = {seat: stacks[i] for i, seat in enumerate(seats)}
    for seat, amount in won.items():
        if seat in finals:  # always: only seats dealt in win
            finals[seat] += amount
    if result is not None:
        for cash_out in result.cash_outs:  # R9.cash-out: paid the cash-out, not the share
            if cash_out.seat in finals:
                i = seats.index(cash_out.seat)
                finals[cash_out.seat] = judged.stacks[i] + cash_out.amount  # fee already off
    if len(hand.seats) != len(seats):  # someone seated was not dealt in (seats come from
        for seat, stack in _starting(hand).items():  # hand.seats, so else none is missing)
            finals.setdefault(seat, stack)
    highs, lows = _first_board_hands(show, hand.game.variant in HILO_VARIANTS)
    matched: bool | None = None
    if result is not None and complete and status is not _PARTIAL:
        matched = reconcile(book, pots, sum(amounts), nets, won, finals, rake, fees)
    return Settlement(
        pots,
        tuple(awards),
        won,
        finals,
        rake,
        tuple(book.violations),
        matched,
        highs,
        lows,
        complete,
        runs,
    )


def _first_board_hands(show: _Showdown | None, hilo: bool) -> tuple[dict[int, str], dict[int, str]]:
    """Describe each showdown seat's best hand on the first board (a low in hi/lo only)."""
    if show is None or not show.high:
        return {}, {}
    highs = {
        seat: _described(_HIGH_TEXTS, describe_high, rank) for seat, rank in show.high[0].items()
    }
    if not hilo:
        return highs, {}
    lows = {seat: _described(_LOW_TEXTS, describe_low, rank) for seat, rank in show.low[0].items()}
    return highs, lows


def _award_pot(book: Book, pot: Pot, net: int, show: _Showdown, runs: int, hilo: bool) -> None:
    """Award one pot (its ``net`` chips) on each of the ``runs`` boards."""
    judged = book.judged
    parts = [net] if runs == 1 else split_evenly(net, runs)
    # pot.eligible lists seats in seating order (first left of the button first), the
    # order every tie is broken in: build_pots gives indices into the seating, ascending
    eligible = pot.eligible
    if len(eligible) == 1:
        for r, part in enumerate(parts):
            if part:
                book.awards.append(
                    Award(pot.index, r + 1, _WHOLE, eligible[0], part, rules=_SIDE_POTS)
                )
        return
    base: tuple[str, ...] = ("R8.side-pots",) if pot.index > 0 else ()
    if runs > 1:
        base += ("R8.run-it-twice",)
    for r, part in enumerate(parts):
        if not part:
            continue
        high_r = show.high[r]
        highs = {s: high_r[s] for s in eligible if s in high_r}
        if not highs:
            book.violations.append(
                Violation(
                    Code.UNCLAIMED_POT,
                    f"pot {pot.index} ({book.money(part)}) has no eligible hand with known cards",
                    expected="a hand shown by an eligible player",
                    actual="none",
                )
            )
            continue
        low_r = show.low[r]
        lows = {s: low_r[s] for s in eligible if s in low_r} if hilo else {}
        if lows:
            high_part, low_part = split_evenly(part, 2)  # the odd chip goes to the high half
            odd = ("R8.odd-chips",) if part % 2 else ()
            if part % 2 and book.rules.odd_chips == "left-of-button":
                # the odd chip goes to the half whose winner sits first left of the button
                order = {seat: i for i, seat in enumerate(judged.seats)}
                best_high, best_low = max(highs.values()), max(lows.values())
                first_high = min([order[s] for s, v in highs.items() if v == best_high])
                first_low = min([order[s] for s, v in lows.items() if v == best_low])
                if first_low < first_high:
                    high_part, low_part = low_part, high_part
            high_odd = odd if high_part > low_part else ()
            low_odd = odd if low_part > high_part else ()
            _pay(book, pot, r, _HIGH, high_part, highs, show, (*base, "R8.hi-lo", *high_odd))
            _pay(book, pot, r, _LOW, low_part, lows, show, (*base, "R8.hi-lo", *low_odd))
        else:
            rule = "R8.hi-lo" if hilo else "R8.high-split"
            _pay(book, pot, r, _WHOLE, part, highs, show, (*base, rule))


def _pay(
    book: Book,
    pot: Pot,
    runout: int,
    half: Half,
    amount: int,
    ranks: dict[int, int],
    show: _Showdown,
    rules: tuple[str, ...],
) -> None:
    best = max(ranks.values())
    winners = [seat for seat, rank in ranks.items() if rank == best]  # left of button first
    # tied hands rank the same, so they read the same
    if half is _LOW:
        text, cards = _described(_LOW_TEXTS, describe_low, best), show.low_cards[runout]
    else:
        text, cards = _described(_HIGH_TEXTS, describe_high, best), show.high_cards[runout]
    shares = split_evenly(amount, len(winners))  # odd chips one each, left of the button first
    tied = ("R8.odd-chips",) if amount % len(winners) and "R8.odd-chips" not in rules else ()
    for k, seat in enumerate(winners):  # a share each (by index: see _settle_one)
        share = shares[k]
        if not share:
            continue  # a one-chip part split between more players than chips
        book.awards.append(
            Award(
                pot.index,
                runout + 1,
                half,
                seat,
                share,
                text,
                tuple(cards[seat]),
                (*rules, "R8.best-hand", *tied),
            )
        )
