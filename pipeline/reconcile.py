"""Reconciling: compare a settlement with what the log recorded, to the smallest unit.

:func:`reconcile` takes the awards :mod:`pipeline.settle` computed and checks the log's
record against them: the total pot (``pot-mismatch``), the rake and fees
(``rake-mismatch``), the pots it lists after rake, each seat's collections and finishing
stack (``payout-mismatch``, naming the rule the wrong payout breaks), each pot's winners
where the log names its pots, and that the pot is paid out in full (``chips-not-conserved``,
RULES.md ``R9.conservation``). Uncalled bets a log pays back inside its collections
(:func:`returns_in_collections`) are bookkeeping, not a wrong payout.
"""

from __future__ import annotations

from msgspec import Struct, field

import pipeline.judged_view  # noqa: F401 - first, it checks the compiled view of a judged hand
from pipeline.model import ActionType
from pipeline.money import format_amount
from pipeline.pots import Award, Pot
from pipeline.rules import Replay, RuleSet
from pipeline.violations import Code, Severity, Violation

__all__ = ["Book", "reconcile", "returns_in_collections"]

_UNCALLED = ActionType.UNCALLED


class Book(Struct):
    """A settlement being made: the replay, the rules, and the awards and violations so far."""

    judged: Replay
    rules: RuleSet
    violations: list[Violation] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)

    def money(self, amount: int) -> str:
        """Format ``amount`` (minor units) in the hand's scale."""
        return format_amount(amount, self.judged.hand.game.scale)


def reconcile(
    book: Book,
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
        total += sum([amount for _, amount in judged.uncalled])
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
        listed = " / ".join([money(a) for a in result.pots])
        computed = " / ".join([money(a) for a in nets])
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
        listed = " / ".join([money(a) for a in result.pots])
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
    # (a list, not any() over a generator: a cpdef function holds no closure)
    return Severity.ERROR not in [v.severity for v in violations[before:]]


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
        if action.type is _UNCALLED:
            return False
    returned = sum([amount for _, amount in judged.uncalled])
    if result.total_pot is not None:
        return result.total_pot == pot + returned
    collected = sum([c.amount for c in result.collected])
    taken = (result.rake or 0) + sum([f.amount for f in result.fees]) - result.added
    return collected + taken == pot + returned


def _reconcile_pots(book: Book, pots: tuple[Pot, ...], returned: dict[int, int]) -> None:
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
        last = max([p.index for p in pots if seat in p.eligible], default=0)
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


def _rule_for(book: Book, seat: int, logged: int, pots: tuple[Pot, ...]) -> str:
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


def _odd_chips_apart(book: Book, seat: int, logged: int) -> bool:
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


def _rule_of_pots(book: Book, seat: int, wrong: set[int], pots: tuple[Pot, ...]) -> str:
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


def _wrong_pots(book: Book, seat: int, pots: tuple[Pot, ...]) -> set[int]:
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
