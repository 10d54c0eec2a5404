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

Then the awards are compared with what the log recorded, to the smallest unit:
``payout-mismatch`` (per seat, per pot, and finishing stacks), ``rake-mismatch``,
``pot-mismatch`` and ``chips-not-conserved`` (``R9.conservation``). Showdowns are
evaluated in numpy batches: :func:`settle_many` settles a batch of hands with one
evaluator call per hole-card count.

Settling runs once per hand of every run, so the hot paths are written for speed: plain
loops instead of generator expressions, one pass where the obvious code takes several,
short cuts for the common cases (one pot, no rake, no odd chip, a log that agrees), and
``msgspec`` structs for the records (several times cheaper to build than frozen
dataclasses). Each short cut gives exactly what the general code gives.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from enum import StrEnum

import numpy as np
from msgspec import Struct, field

from pipeline.cards import UNKNOWN
from pipeline.evaluate import NO_LOW, BatchResult, describe_high, describe_low, evaluate_batch
from pipeline.model import ActionType, HandRecord, Status
from pipeline.money import format_amount
from pipeline.pots import allocate_rake, build_pots, listed_shares, split_evenly
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
    "returns_in_collections",
    "settle",
    "settle_many",
    "split_evenly",
]


class Half(StrEnum):
    """Which part of a pot an award is: all of it, or its high or low half."""

    WHOLE = "whole"
    HIGH = "high"
    LOW = "low"


class Pot(Struct, frozen=True, gc=False):
    """One pot: its chips before rake, who may win it (seats), and what the site took
    from it (rake, other fees such as a jackpot drop) or added to it (STP, "add to pot")."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    rake: int = 0
    fees: int = 0
    added: int = 0

    @property
    def net(self) -> int:
        """Return the chips the pot pays out: less rake and fees, plus money added."""
        return self.amount - self.rake - self.fees + self.added


class Award(Struct, frozen=True, gc=False):
    """A share of a pot (per runout and half) paid to a seat, with the rules it applied."""

    pot: int
    runout: int
    half: Half
    seat: int
    amount: int
    description: str = ""
    cards_used: tuple[int, ...] = ()
    rules: tuple[str, ...] = ()


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
        return tuple(v for v in self.violations if v.severity is Severity.ERROR)

    @property
    def settled(self) -> bool:
        """Tell whether the rules awarded every pot: not in a void or stopped hand, a showdown
        they could not judge, or a pot no eligible player showed a hand for (unclaimed)."""
        return self.complete and all(v.code is not Code.UNCLAIMED_POT for v in self.violations)


def hand_status(judged: Replay, settled: Settlement) -> Status:
    """Return a hand's status counting settlement errors: an ``ok`` replay whose payouts
    break a rule is ``violations``."""
    if judged.status is Status.OK and settled.errors:
        return Status.VIOLATIONS
    return judged.status


def error_count(status: Status, violations: Sequence[Violation]) -> int:
    """Return how many of a hand's violations are errors: none in a void hand (cancelled by
    the site, what it lacks is why, and fails nothing)."""
    if status is Status.VOID:
        return 0
    return sum([v.severity is Severity.ERROR for v in violations])


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


_describe_low = functools.cache(describe_low)
"""``describe_low``, remembered: a low rank is one of 56, described again and again."""


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
    holes: list[tuple[int, ...]] = field(default_factory=list)
    boards: list[tuple[int, ...]] = field(default_factory=list)


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
        for board in boards:
            batch.groups.append(group)
            batch.holes += holes
            batch.boards += [board] * len(holes)
    for batch in batches.values():
        holes_array = np.array(batch.holes, dtype=np.int8)
        boards_array = np.array(batch.boards, dtype=np.int8)
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


class _Book(Struct):
    judged: Replay
    rules: RuleSet
    violations: list[Violation] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)

    def money(self, amount: int) -> str:
        return format_amount(amount, self.judged.hand.game.scale)


def _starting(hand: HandRecord) -> dict[int, int]:
    return {s.seat: s.stack for s in hand.seats}


_ROUND_END = ("R4.round-end",)
_SIDE_POTS = ("R8.side-pots",)


def _settle_one(judged: Replay, show: _Showdown | None, rules: RuleSet) -> Settlement:
    hand = judged.hand
    status = judged.status
    if status is Status.VOID or status is Status.INVALID:
        finals = _starting(hand) if status is Status.VOID else {}
        return Settlement((), (), {}, finals, 0, (), None, complete=False)
    book = _Book(judged, rules)
    awards = book.awards
    seats = judged.seats
    result = hand.result
    if result is None:
        rake = fees = added = 0
        listed: Sequence[int] = ()
    else:
        rake = result.rake if result.rake is not None else 0
        fees = sum(f.amount for f in result.fees) if result.fees else 0
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
    if any(a < r + f for a, r, f in zip(amounts, shares, fee_shares, strict=True)):
        left = [a - r for a, r in zip(amounts, shares, strict=True)]
        fee_shares = allocate_rake(left, sum(fee_shares), policy=rules.rake_allocation)
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
            hilo = hand.game.variant.is_hilo
            for pot, net in zip(pots, nets, strict=True):
                _award_pot(book, pot, net, show, runs, hilo)
    else:
        winner = next(s for i, s in enumerate(seats) if not judged.folded[i])
        for pot, net in zip(pots, nets, strict=True):
            if net:
                awards.append(Award(pot.index, 1, Half.WHOLE, winner, net, rules=_ROUND_END))
    won: dict[int, int] = {}
    for award in awards:
        won[award.seat] = won.get(award.seat, 0) + award.amount
    finals = dict(zip(seats, judged.stacks, strict=True))
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
    highs, lows = _first_board_hands(show, hand.game.variant.is_hilo)
    matched: bool | None = None
    if result is not None and complete and status is not Status.PARTIAL:
        matched = _reconcile(book, pots, sum(amounts), nets, won, finals, rake, fees)
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
    highs = {seat: describe_high(rank) for seat, rank in show.high[0].items()}
    if not hilo:
        return highs, {}
    lows = {seat: _describe_low(rank) for seat, rank in show.low[0].items()}
    return highs, lows


def _award_pot(book: _Book, pot: Pot, net: int, show: _Showdown, runs: int, hilo: bool) -> None:
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
                    Award(pot.index, r + 1, Half.WHOLE, eligible[0], part, rules=_SIDE_POTS)
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
                first_high = min(order[s] for s, v in highs.items() if v == best_high)
                first_low = min(order[s] for s, v in lows.items() if v == best_low)
                if first_low < first_high:
                    high_part, low_part = low_part, high_part
            high_odd = odd if high_part > low_part else ()
            low_odd = odd if low_part > high_part else ()
            _pay(book, pot, r, Half.HIGH, high_part, highs, show, (*base, "R8.hi-lo", *high_odd))
            _pay(book, pot, r, Half.LOW, low_part, lows, show, (*base, "R8.hi-lo", *low_odd))
        else:
            rule = "R8.hi-lo" if hilo else "R8.high-split"
            _pay(book, pot, r, Half.WHOLE, part, highs, show, (*base, rule))


def _pay(
    book: _Book,
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
    if half is Half.LOW:
        describe, cards = _describe_low, show.low_cards[runout]
    else:
        describe, cards = describe_high, show.high_cards[runout]
    shares = split_evenly(amount, len(winners))  # odd chips one each, left of the button first
    tied = ("R8.odd-chips",) if amount % len(winners) and "R8.odd-chips" not in rules else ()
    text = describe(best)  # tied hands rank the same, so they read the same
    for seat, share in zip(winners, shares, strict=True):
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


# ------------------------------------------------------------------------------ reconciling


def _reconcile(
    book: _Book,
    pots: tuple[Pot, ...],
    total: int,
    nets: list[int],
    won: dict[int, int],
    finals: dict[int, int],
    rake: int,
    fees: int,
) -> bool | None:
    """Compare our awards with the log's record; return whether every payout matches.

    Collections are compared when the log lists them, finishing stacks when it has them
    (PHH); ``None`` when it records neither. ``total`` is the chips in the pots, ``nets``
    their net amounts, ``fees`` the log's fees (a cash-out's fee is not among them: the
    site took it off the cash-out it paid, not from the pot).
    """
    judged = book.judged
    result = judged.hand.result
    assert result is not None
    money = book.money
    violations = book.violations
    before = len(violations)
    returned: dict[int, int] = {}  # uncalled bets the log pays back inside its collections
    if judged.uncalled and returns_in_collections(judged, total):
        # the log counts uncalled returns as part of the pot and the collections
        total += sum(amount for _, amount in judged.uncalled)
        won = dict(won)
        for seat, amount in judged.uncalled:
            won[seat] = won.get(seat, 0) + amount
            returned[seat] = returned.get(seat, 0) + amount
    if result.total_pot is not None and result.total_pot != total:
        violations.append(
            Violation(
                Code.POT_MISMATCH,
                f"the log's total pot is {money(result.total_pot)}; "
                f"the actions make {money(total)}",
                expected=money(total),
                actual=money(result.total_pot),
            )
        )
    if rake > total:
        violations.append(
            Violation(
                Code.RAKE_MISMATCH,
                f"rake {money(rake)} is more than the pot {money(total)}",
                expected=f"at most {money(total)}",
                actual=money(rake),
            )
        )
    elif rake + fees > total + result.added:
        violations.append(
            Violation(
                Code.RAKE_MISMATCH,
                f"rake {money(rake)} and fees {money(fees)} are more than the pot "
                f"{money(total + result.added)}",
                expected=f"at most {money(total + result.added)} in all",
                actual=money(rake + fees),
            )
        )
    if result.pots and list(result.pots) != nets:
        listed = " / ".join(money(a) for a in result.pots)
        computed = " / ".join(money(a) for a in nets)
        same_count = len(result.pots) == len(nets)
        violations.append(
            Violation(
                Code.RAKE_MISMATCH if same_count else Code.POT_MISMATCH,
                f"the log lists pots {listed} after rake; the rules make {computed}",
                expected=computed,
                actual=listed,
                # the listing decides how rake is spread only when it adds up (see
                # allocate_rake): pots and rake that do not add up lose or make chips; ones
                # that do are the wrong pots (more than a pot holds, or not the side pots)
                rule="R9.conservation" if sum(result.pots) != sum(nets) else "R8.side-pots",
            )
        )
    collected = result.collected
    recorded: dict[int, int] = {}
    for c in collected:
        recorded[c.seat] = recorded.get(c.seat, 0) + c.amount
    if not collected and not result.final_stacks and any(won.values()):
        if not any(result.pots):
            return None  # the log records no payout to compare with (a rake alone, say)
        listed = " / ".join(money(a) for a in result.pots)
        violations.append(  # it says what is left to pay out, and pays nobody
            Violation(
                Code.CHIPS_NOT_CONSERVED,
                f"the log lists pots {listed} after rake, and nobody collects them",
                expected=money(sum(result.pots)),
                actual=money(0),
            )
        )
        return False
    if collected and recorded != won:  # equal totals per seat leave nothing to report
        for seat in sorted(set(recorded) | set(won)):
            ours, theirs = won.get(seat, 0), recorded.get(seat, 0)
            if ours != theirs:
                violations.append(
                    Violation(
                        Code.PAYOUT_MISMATCH,
                        f"seat {seat} collected {money(theirs)}; the rules pay {money(ours)}",
                        seat=seat,
                        expected=money(ours),
                        actual=money(theirs),
                        rule=_rule_for(book, seat, theirs, pots),
                    )
                )
    if collected and len(violations) == before:
        _reconcile_pots(book, pots, returned)
    if result.final_stacks:
        # a seat that cashed out finishes with the cash-out it was paid (R9.cash-out), which
        # finals holds: its share is no part of its stack, so no award rule explains a gap
        cashed = {c.seat for c in result.cash_outs}
        for stack in result.final_stacks:
            final = finals.get(stack.seat)
            if final is not None and final != stack.amount:
                if stack.seat in cashed:
                    rule = "R9.cash-out"
                else:
                    logged = stack.amount - final + won.get(stack.seat, 0)
                    rule = _rule_for(book, stack.seat, logged, pots)
                violations.append(
                    Violation(
                        Code.PAYOUT_MISMATCH,
                        f"seat {stack.seat} finishes with {money(stack.amount)}; the rules "
                        f"leave {money(final)}",
                        seat=stack.seat,
                        expected=money(final),
                        actual=money(stack.amount),
                        rule=rule,
                    )
                )
    paid = sum(recorded.values())
    if collected and total != paid + rake + fees - result.added:
        gap = total - paid - rake - fees + result.added
        violations.append(
            Violation(
                Code.CHIPS_NOT_CONSERVED,
                f"the pot of {money(total)} is not paid out: collected {money(paid)}, rake "
                f"{money(rake)}, fees {money(fees)}, added {money(result.added)} leave "
                f"{money(gap)}",
                expected=money(total),
                actual=money(paid + rake + fees - result.added),
            )
        )
    if len(violations) == before:
        return True
    return not any(v.severity is Severity.ERROR for v in violations[before:])


def returns_in_collections(judged: Replay, pot: int) -> bool:
    """Tell whether a log with no uncalled-bet lines paid the returns as collections.

    Some exports (third-party converters) print no "uncalled bet returned" line and pay
    the returned chips as part of the collection, with a total pot that includes them. The
    chips are the same: only the bookkeeping differs, so it is compared that way. ``pot``
    is the chips in the pots (before rake). With no total pot, the collections are held to
    the pot as R9.conservation has it: less rake and fees, plus money the site added.
    """
    hand = judged.hand
    result = hand.result
    if result is None or not judged.uncalled:
        return False
    for action in reversed(hand.actions):  # an uncalled-bet line comes late: search back
        if action.type is ActionType.UNCALLED:
            return False
    returned = sum(amount for _, amount in judged.uncalled)
    if result.total_pot is not None:
        return result.total_pot == pot + returned
    collected = sum(c.amount for c in result.collected)
    taken = (result.rake or 0) + sum(f.amount for f in result.fees) - result.added
    return collected + taken == pot + returned


def _reconcile_pots(book: _Book, pots: tuple[Pot, ...], returned: dict[int, int]) -> None:
    """With every seat's total right, check that each pot went to the right seats.

    ``returned`` is the uncalled bets (by seat) a log with no uncalled-bet line pays back
    inside its collections (see :func:`returns_in_collections`): the return is counted in
    the pot the log pays it from, the one whose collection is over by exactly the return
    (else the last pot the seat may win), so only the bookkeeping differs.

    A seat that cashed out and is paid from pot 0 alone is left out: its would-have-won
    figure (R9.cash-out) is one total, which PokerStars prints in the summary only, naming
    no pot, and that total is already right.
    """
    result = book.judged.hand.result
    assert result is not None
    for c in result.collected:
        if c.pot:
            break
    else:  # every collection from pot 0: with several pots listed, that is what it says;
        if len(result.pots) <= 1:  # with none, it does not say which pot paid what (PHH
            return  # winnings): each seat's total, already right, is all it says
    ours: dict[tuple[int, int], int] = {}
    for a in book.awards:
        key = (a.pot, a.seat)
        ours[key] = ours.get(key, 0) + a.amount
    theirs: dict[tuple[int, int], int] = {}
    for c in result.collected:
        key = (c.pot, c.seat)
        theirs[key] = theirs.get(key, 0) + c.amount
    for seat, amount in returned.items():
        over = [
            pot
            for pot, s in sorted(theirs)
            if s == seat and theirs[pot, seat] - ours.get((pot, seat), 0) == amount
        ]
        last = max((p.index for p in pots if seat in p.eligible), default=0)
        pot = over[0] if over else last
        ours[pot, seat] = ours.get((pot, seat), 0) + amount
    unnamed = {c.seat for c in result.cash_outs} - {c.seat for c in result.collected if c.pot}
    if unnamed:
        ours = {key: amount for key, amount in ours.items() if key[1] not in unnamed}
        theirs = {key: amount for key, amount in theirs.items() if key[1] not in unnamed}
    if ours == theirs:  # every pot went to the seats the log names
        return
    for pot, seat in sorted(set(ours) | set(theirs)):
        mine, logged = ours.get((pot, seat), 0), theirs.get((pot, seat), 0)
        if mine != logged:
            book.violations.append(
                Violation(
                    Code.PAYOUT_MISMATCH,
                    f"seat {seat} collected {book.money(logged)} from pot {pot}; the rules pay "
                    f"{book.money(mine)}",
                    seat=seat,
                    expected=book.money(mine),
                    actual=book.money(logged),
                    rule="R8.side-pots",
                )
            )


def _rule_for(book: _Book, seat: int, logged: int, pots: tuple[Pot, ...]) -> str:
    """Return the rule a wrong payout to ``seat`` breaks, ``logged`` being what the log pays.

    More than the pots a live seat is eligible for hold (before rake) breaks the side-pot
    rule. Where the log names the pots it pays from, the rule is that of the pots it pays
    wrongly: the side-pot rule for a pot the seat may not win, else the rule that awarded
    the pot (hi/lo, run it twice, a split, or the best hand's). Otherwise it is the rule
    that awarded the seat's own share, or the best hand's.
    """
    reachable = [pot.amount + pot.added for pot in pots if seat in pot.eligible]
    if reachable and logged > sum(reachable):  # not a folded seat: one short of side pots
        return "R8.side-pots"
    if _odd_chips_apart(book, seat, logged):
        return "R8.odd-chips"
    wrong = _wrong_pots(book, seat, pots)
    if wrong:
        return _rule_of_pots(book, seat, wrong, pots)
    rules = [r for a in book.awards if a.seat == seat for r in a.rules]
    for rule in ("R8.hi-lo", "R8.run-it-twice", "R8.side-pots", "R8.high-split"):
        if rule in rules:
            return rule
    return "R8.best-hand"


def _odd_chips_apart(book: _Book, seat: int, logged: int) -> bool:
    """Tell whether the log pays ``seat`` no more than the odd chips away from the rules:
    at most one chip for each split with odd chips (of a pot, on one board) it shares in."""
    mine = 0
    shared: set[tuple[int, int]] = set()
    odd: set[tuple[int, int]] = set()
    for a in book.awards:
        if a.seat == seat:
            mine += a.amount
            shared.add((a.pot, a.runout))
        if "R8.odd-chips" in a.rules:
            odd.add((a.pot, a.runout))
    return 0 < abs(logged - mine) <= len(shared & odd)


def _rule_of_pots(book: _Book, seat: int, wrong: set[int], pots: tuple[Pot, ...]) -> str:
    """Return the rule of pots paid wrongly to ``seat``: the side-pot rule for one the seat
    may not win, the best hand's for one it lost, else the rule that awarded its share
    (hi/lo, run it twice, a split)."""
    eligible = {pot.index: pot.eligible for pot in pots}
    live = any(seat in seats for seats in eligible.values())  # else folded: no pot is its
    if live and any(seat not in eligible.get(index, ()) for index in wrong):
        return "R8.side-pots"
    rules = [r for a in book.awards if a.pot in wrong and a.seat == seat for r in a.rules]
    for rule in ("R8.hi-lo", "R8.run-it-twice", "R8.high-split", "R8.side-pots"):
        if rule in rules:
            return rule
    return "R8.best-hand"


def _wrong_pots(book: _Book, seat: int, pots: tuple[Pot, ...]) -> set[int]:
    """Return the pots the log pays ``seat`` from wrongly, where the log names its pots."""
    result = book.judged.hand.result
    if result is None or (len(pots) > 1 and not any(c.pot for c in result.collected)):
        return set()  # several pots, all collected as one: the log does not say which
    ours: dict[int, int] = {}
    for a in book.awards:
        if a.seat == seat:
            ours[a.pot] = ours.get(a.pot, 0) + a.amount
    theirs: dict[int, int] = {}
    for c in result.collected:
        if c.seat == seat:
            theirs[c.pot] = theirs.get(c.pot, 0) + c.amount
    return {index for index in set(ours) | set(theirs) if ours.get(index) != theirs.get(index)}
