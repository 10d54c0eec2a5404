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
evaluated in numpy batches: :func:`settle_many` settles a whole chunk of hands with one
evaluator call per hole-card count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from pipeline.cards import UNKNOWN
from pipeline.evaluate import NO_LOW, BatchResult, describe_high, describe_low, evaluate_batch
from pipeline.model import ActionType, HandRecord, Status
from pipeline.money import format_amount
from pipeline.rules import Replay, RuleSet
from pipeline.violations import Code, Severity, Violation

__all__ = [
    "Award",
    "Half",
    "Pot",
    "Settlement",
    "allocate_rake",
    "build_pots",
    "hand_status",
    "settle",
    "settle_many",
    "split_evenly",
]


class Half(StrEnum):
    """Which part of a pot an award is: all of it, or its high or low half."""

    WHOLE = "whole"
    HIGH = "high"
    LOW = "low"


@dataclass(frozen=True, slots=True)
class Pot:
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


@dataclass(frozen=True, slots=True)
class Award:
    """A share of a pot (per runout and half) paid to a seat, with the rules it applied."""

    pot: int
    runout: int
    half: Half
    seat: int
    amount: int
    description: str = ""
    cards_used: tuple[int, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Settlement:
    """Who gets what: pots, awards, final stacks, and every discrepancy with the log.

    ``won`` maps each seat to the chips it was awarded (uncalled bets not included: the
    replay already returned them); ``final_stacks`` to what it holds after the hand.
    ``payouts_match`` is ``None`` when the log records nothing to compare with.
    ``high_hands``/``low_hands`` give each showdown seat's best hand on the first board.
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

    @property
    def errors(self) -> tuple[Violation, ...]:
        """Return the violations of severity ``error``."""
        return tuple(v for v in self.violations if v.severity is Severity.ERROR)


def hand_status(judged: Replay, settled: Settlement) -> Status:
    """Return a hand's status counting settlement errors: an ``ok`` replay whose payouts
    break a rule is ``violations``."""
    if judged.status is Status.OK and settled.errors:
        return Status.VIOLATIONS
    return judged.status


# ------------------------------------------------------------------------------ arithmetic


def _layers(amounts: Sequence[int], folded: Sequence[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """Cut contributions into pots at the levels of the players still in."""
    levels = sorted({amount for amount, out in zip(amounts, folded, strict=True) if not out})
    pots: list[tuple[int, tuple[int, ...]]] = []
    below = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, below) for c in amounts)
        eligible = tuple(
            i
            for i, (c, out) in enumerate(zip(amounts, folded, strict=True))
            if not out and c >= level
        )
        if amount:
            pots.append((amount, eligible))
        below = level
    rest = sum(c - below for c in amounts if c > below)
    if rest:
        if pots:
            amount, eligible = pots[-1]
            pots[-1] = (amount + rest, eligible)
        else:
            pots.append((rest, tuple(i for i, out in enumerate(folded) if not out)))
    return pots


def build_pots(
    invested: Sequence[int],
    folded: Sequence[bool],
    dead: Sequence[int] = (),
    antes: Sequence[int] = (),
) -> list[tuple[int, tuple[int, ...]]]:
    """Split the chips put in into a main pot and side pots: ``(amount, eligible indices)``.

    Live chips (``invested`` less ``dead``) are cut at the levels the players still in
    reached; each pot holds every player's chips between two levels, and only players in
    for the upper level may win it. Antes (``antes[i]``, part of ``dead[i]``) are cut the
    same way on their own, so a player all-in on part of an ante wins only what they
    matched. Other dead money (a dead small blind) belongs to the main pot. Pots open to
    the same players are one pot.

    >>> build_pots([50, 100, 100, 30], [False, False, False, True])
    [(180, (0, 1, 2)), (100, (1, 2))]
    >>> build_pots([150, 100], [False, False], dead=[50, 0])
    [(250, (0, 1))]
    >>> build_pots([10, 110, 110], [False, False, False], dead=[10, 10, 10], antes=[10, 10, 10])
    [(30, (0, 1, 2)), (200, (1, 2))]
    >>> build_pots([5, 10, 10], [False, False, False], dead=[5, 10, 10], antes=[5, 10, 10])
    [(15, (0, 1, 2)), (10, (1, 2))]
    """
    n = len(invested)
    dead = dead or [0] * n
    antes = antes or [0] * n
    live = [c - d for c, d in zip(invested, dead, strict=True)]
    other_dead = sum(dead) - sum(antes)
    pots = _layers(antes, folded) if any(antes) else []
    for amount, eligible in _layers(live, folded):
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
    if other_dead:
        if pots:
            pots[0] = (pots[0][0] + other_dead, pots[0][1])
        else:
            pots.append((other_dead, tuple(i for i, out in enumerate(folded) if not out)))
    return pots


def split_evenly(amount: int, parts: int) -> list[int]:
    """Split ``amount`` into ``parts`` shares differing by at most one unit, larger first.

    >>> split_evenly(7, 3)
    [3, 2, 2]
    """
    share, odd = divmod(amount, parts)
    return [share + (1 if k < odd else 0) for k in range(parts)]


def allocate_rake(
    amounts: Sequence[int], rake: int, *, listed: Sequence[int] = (), policy: str = "proportional"
) -> list[int]:
    """Spread the recorded rake over the pots (``R8.rake-allocation``).

    When the log lists each pot after rake (as PokerStars does) and the listing adds up,
    the listing decides. Otherwise ``proportional`` (the remainder to the main pot) or
    ``main-pot-first``.

    >>> allocate_rake([600, 300, 100], 30)
    [18, 9, 3]
    >>> allocate_rake([100, 50], 7, policy="main-pot-first")
    [7, 0]
    """
    total = sum(amounts)
    if listed and len(listed) == len(amounts):
        shares = [a - net for a, net in zip(amounts, listed, strict=True)]
        if all(s >= 0 for s in shares) and sum(shares) == rake:
            return shares
    if not amounts:
        return []
    if policy == "main-pot-first":
        shares, left = [], rake
        for a in amounts:
            take = min(a, left)
            shares.append(take)
            left -= take
        shares[0] += left
        return shares
    shares = [rake * a // total if total else 0 for a in amounts]
    shares[0] += rake - sum(shares)
    return shares


# ------------------------------------------------------------------------------ evaluation


@dataclass(slots=True)
class _Showdown:
    """Per hand: for each runout, each eligible seat's high and low rank and hand."""

    high: list[dict[int, int]] = field(default_factory=list)
    low: list[dict[int, int]] = field(default_factory=list)
    describe_high: list[dict[int, tuple[str, tuple[int, ...]]]] = field(default_factory=list)
    describe_low: list[dict[int, tuple[str, tuple[int, ...]]]] = field(default_factory=list)


def _known(cards: tuple[int, ...] | None, count: int) -> bool:
    return cards is not None and len(cards) == count and UNKNOWN not in cards


def _cards_sound(judged: Replay) -> bool:
    """Tell whether the boards are whole and no card was dealt twice: else no showdown."""
    if any(len(board) != 5 for board in judged.boards):
        return False
    return not any(v.code is Code.DUPLICATE_CARD for v in judged.violations)


def _needs_showdown(judged: Replay) -> bool:
    return sum(1 for out in judged.folded if not out) > 1


_Row = tuple[int, int, int, tuple[int, ...], tuple[int, ...]]
"""One player's showdown on one runout: (hand, runout, seat, hole cards, board)."""


def _evaluate(replays: Sequence[Replay]) -> list[_Showdown | None]:
    """Evaluate every showdown of every hand, one batch per hole-card count."""
    rows: dict[int, list[_Row]] = defaultdict(list)
    out: list[_Showdown | None] = []
    for h, judged in enumerate(replays):
        if not _needs_showdown(judged) or not _cards_sound(judged):
            out.append(None)
            continue
        k = judged.hand.game.hole_cards
        show = _Showdown()
        for r, board in enumerate(judged.boards):
            show.high.append({})
            show.low.append({})
            show.describe_high.append({})
            show.describe_low.append({})
            for i, seat in enumerate(judged.seats):
                cards = judged.hole_cards.get(seat)
                if judged.folded[i] or cards is None or not _known(cards, k):
                    continue
                rows[k].append((h, r, seat, cards, board))
        out.append(show)
    for items in rows.values():
        holes = np.array([item[3] for item in items], dtype=np.int8)
        boards = np.array([item[4] for item in items], dtype=np.int8)
        result = evaluate_batch(holes, boards, low=True, check=False)
        _distribute(result, items, out)
    return out


def _distribute(
    result: BatchResult,
    items: list[_Row],
    out: list[_Showdown | None],
) -> None:
    high = result.high.tolist()
    low = result.low.tolist() if result.low is not None else [NO_LOW] * len(items)
    for row, (h, r, seat, _, _) in enumerate(items):
        show = out[h]
        assert show is not None
        show.high[r][seat] = high[row]
        show.low[r][seat] = low[row]
    # descriptions and the five cards of every hand, the cards gathered in one numpy call
    high_cards = result.high_cards().tolist()
    low_cards = result.low_cards().tolist() if result.low is not None else []
    for row, (h, r, seat, _, _) in enumerate(items):
        show = out[h]
        assert show is not None
        show.describe_high[r][seat] = (describe_high(high[row]), tuple(high_cards[row]))
        if low[row] != NO_LOW:
            show.describe_low[r][seat] = (describe_low(low[row]), tuple(low_cards[row]))


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


@dataclass(slots=True)
class _Book:
    judged: Replay
    rules: RuleSet
    violations: list[Violation] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)

    def money(self, amount: int) -> str:
        return format_amount(amount, self.judged.hand.game.scale)


def _starting(hand: HandRecord) -> dict[int, int]:
    return {s.seat: s.stack for s in hand.seats}


def _settle_one(judged: Replay, show: _Showdown | None, rules: RuleSet) -> Settlement:
    hand = judged.hand
    book = _Book(judged, rules)
    starting = _starting(hand)
    if judged.status in (Status.VOID, Status.INVALID):
        finals = dict(starting) if judged.status is Status.VOID else {}
        return Settlement((), (), {}, finals, 0, (), None, complete=False)
    result = hand.result
    rake = result.rake if result is not None and result.rake is not None else 0
    raw = build_pots(judged.invested, judged.folded, judged.dead, judged.antes)
    listed = result.pots if result is not None else ()
    amounts = [a for a, _ in raw]
    shares = allocate_rake(amounts, rake, listed=listed, policy=rules.rake_allocation)
    fees = sum(f.amount for f in result.fees) if result is not None else 0
    fee_shares = allocate_rake(amounts, fees, policy=rules.rake_allocation)
    added = result.added if result is not None else 0
    pots = tuple(
        Pot(
            k,
            amount,
            tuple(judged.seats[i] for i in eligible),
            shares[k],
            fee_shares[k],
            added if k == 0 else 0,  # money the site adds goes to the main pot
        )
        for k, (amount, eligible) in enumerate(raw)
    )
    complete = True
    if _needs_showdown(judged):
        if show is None:
            complete = False
        else:
            for pot in pots:
                _award_pot(book, pot, show)
    else:
        winner = next(s for i, s in enumerate(judged.seats) if not judged.folded[i])
        for pot in pots:
            if pot.net:
                book.awards.append(
                    Award(pot.index, 1, Half.WHOLE, winner, pot.net, rules=("R4.round-end",))
                )
    won: dict[int, int] = defaultdict(int)
    for award in book.awards:
        won[award.seat] += award.amount
    finals = {seat: judged.stacks[i] + won.get(seat, 0) for i, seat in enumerate(judged.seats)}
    if result is not None:
        for cash_out in result.cash_outs:  # R9.cash-out: paid the cash-out, not the share
            if cash_out.seat in finals:
                i = judged.seats.index(cash_out.seat)
                finals[cash_out.seat] = judged.stacks[i] + cash_out.amount - cash_out.fee
    for seat, stack in starting.items():
        finals.setdefault(seat, stack)  # seated but not dealt in
    highs, lows = _first_board_hands(show)
    matched: bool | None = None
    if result is not None and complete and judged.status is not Status.PARTIAL:
        matched = _reconcile(book, pots, dict(won), finals, rake)
    return Settlement(
        pots=pots,
        awards=tuple(book.awards),
        won=dict(won),
        final_stacks=finals,
        rake=rake,
        violations=tuple(book.violations),
        payouts_match=matched,
        high_hands=highs,
        low_hands=lows,
        complete=complete,
    )


def _first_board_hands(show: _Showdown | None) -> tuple[dict[int, str], dict[int, str]]:
    if show is None or not show.describe_high:
        return {}, {}
    highs = {seat: text for seat, (text, _) in show.describe_high[0].items()}
    lows = {seat: text for seat, (text, _) in show.describe_low[0].items()}
    return highs, lows


def _award_pot(book: _Book, pot: Pot, show: _Showdown) -> None:
    judged = book.judged
    runs = len(judged.boards)
    parts = split_evenly(pot.net, runs)
    hilo = judged.hand.game.variant.is_hilo
    order = {seat: i for i, seat in enumerate(judged.seats)}
    eligible = sorted(pot.eligible, key=order.__getitem__)
    base = ["R8.side-pots"] if pot.index > 0 else []
    if runs > 1:
        base.append("R8.run-it-twice")
    if len(eligible) == 1:
        for r, part in enumerate(parts):
            if part:
                book.awards.append(
                    Award(pot.index, r + 1, Half.WHOLE, eligible[0], part, rules=("R8.side-pots",))
                )
        return
    for r, part in enumerate(parts):
        if not part:
            continue
        highs = {s: show.high[r][s] for s in eligible if s in show.high[r]}
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
        lows = {s: show.low[r][s] for s in eligible if show.low[r].get(s, NO_LOW) != NO_LOW}
        if hilo and lows:
            high_part, low_part = split_evenly(part, 2)  # the odd chip goes to the high half
            odd = ["R8.odd-chips"] if part % 2 else []
            if part % 2 and book.rules.odd_chips == "left-of-button":
                # the odd chip goes to the half whose winner sits first left of the button
                best_high, best_low = max(highs.values()), max(lows.values())
                first_high = min(order[s] for s, v in highs.items() if v == best_high)
                first_low = min(order[s] for s, v in lows.items() if v == best_low)
                if first_low < first_high:
                    high_part, low_part = low_part, high_part
            high_odd = odd if high_part > low_part else []
            low_odd = odd if low_part > high_part else []
            _pay(book, pot, r, Half.HIGH, high_part, highs, show, [*base, "R8.hi-lo", *high_odd])
            _pay(book, pot, r, Half.LOW, low_part, lows, show, [*base, "R8.hi-lo", *low_odd])
        else:
            rule = "R8.hi-lo" if hilo else "R8.high-split"
            _pay(book, pot, r, Half.WHOLE, part, highs, show, [*base, rule])


def _pay(
    book: _Book,
    pot: Pot,
    runout: int,
    half: Half,
    amount: int,
    ranks: dict[int, int],
    show: _Showdown,
    rules: list[str],
) -> None:
    best = max(ranks.values())
    winners = [seat for seat in ranks if ranks[seat] == best]  # already left of button first
    shares = split_evenly(amount, len(winners))  # odd chips one each, left of the button first
    tied = ["R8.odd-chips"] if len(winners) > 1 and amount % len(winners) else []
    hands = show.describe_low[runout] if half is Half.LOW else show.describe_high[runout]
    for seat, share in zip(winners, shares, strict=True):
        if not share:
            continue  # a one-chip part split between more players than chips
        text, cards = hands.get(seat, ("", ()))
        book.awards.append(
            Award(
                pot.index,
                runout + 1,
                half,
                seat,
                share,
                description=text,
                cards_used=cards,
                rules=(*rules, "R8.best-hand", *tied),
            )
        )


# ------------------------------------------------------------------------------ reconciling


def _reconcile(
    book: _Book, pots: tuple[Pot, ...], won: dict[int, int], finals: dict[int, int], rake: int
) -> bool | None:
    """Compare our awards with the log's record; return whether every payout matches.

    Collections are compared when the log lists them, finishing stacks when it has them
    (PHH); ``None`` when it records neither.
    """
    judged = book.judged
    result = judged.hand.result
    assert result is not None
    money = book.money
    before = len(book.violations)
    total = sum(p.amount for p in pots)
    folded_in = _returns_folded_into_collections(judged, total)
    if folded_in:  # the log counts uncalled returns as part of the pot and the collections
        total += sum(amount for _, amount in judged.uncalled)
        won = dict(won)
        for seat, amount in judged.uncalled:
            won[seat] = won.get(seat, 0) + amount
    if result.total_pot is not None and result.total_pot != total:
        book.violations.append(
            Violation(
                Code.POT_MISMATCH,
                f"the log's total pot is {money(result.total_pot)}; "
                f"the actions make {money(total)}",
                expected=money(total),
                actual=money(result.total_pot),
            )
        )
    if rake > total:
        book.violations.append(
            Violation(
                Code.RAKE_MISMATCH,
                f"rake {money(rake)} is more than the pot {money(total)}",
                expected=f"at most {money(total)}",
                actual=money(rake),
            )
        )
    if result.pots:
        nets = [p.net for p in pots]
        if list(result.pots) != nets:
            listed = " / ".join(money(a) for a in result.pots)
            computed = " / ".join(money(a) for a in nets)
            book.violations.append(
                Violation(
                    Code.RAKE_MISMATCH if len(result.pots) == len(nets) else Code.POT_MISMATCH,
                    f"the log lists pots {listed} after rake; the rules make {computed}",
                    expected=computed,
                    actual=listed,
                    rule="R8.rake-allocation",
                )
            )
    cashed = {c.seat: c for c in result.cash_outs}
    recorded: dict[int, int] = defaultdict(int)
    for c in result.collected:
        recorded[c.seat] += c.amount
    if not result.collected and not result.final_stacks and any(won.values()):
        return None  # the log records no payout to compare with (a rake alone, say)
    collections = sorted(set(recorded) | set(won)) if result.collected else []
    for seat in collections:
        ours, theirs = won.get(seat, 0), recorded.get(seat, 0)
        if ours != theirs:
            book.violations.append(
                Violation(
                    Code.PAYOUT_MISMATCH,
                    f"seat {seat} collected {money(theirs)}; the rules pay {money(ours)}",
                    seat=seat,
                    expected=money(ours),
                    actual=money(theirs),
                    rule=_rule_for(book, seat),
                )
            )
    if result.collected and not book.violations[before:]:
        _reconcile_pots(book, pots)
    for stack in result.final_stacks:
        if stack.seat in cashed:
            continue
        final = finals.get(stack.seat)
        if final is not None and final != stack.amount:
            book.violations.append(
                Violation(
                    Code.PAYOUT_MISMATCH,
                    f"seat {stack.seat} finishes with {money(stack.amount)}; the rules leave "
                    f"{money(final)}",
                    seat=stack.seat,
                    expected=money(final),
                    actual=money(stack.amount),
                    rule=_rule_for(book, stack.seat),
                )
            )
    fees = sum(f.amount for f in result.fees)  # a cash-out fee comes off the cash-out, not the pot
    paid = sum(recorded.values())
    if result.collected and total != paid + rake + fees - result.added:
        gap = total - paid - rake - fees + result.added
        book.violations.append(
            Violation(
                Code.CHIPS_NOT_CONSERVED,
                f"the pot of {money(total)} is not paid out: collected {money(paid)}, rake "
                f"{money(rake)}, fees {money(fees)}, added {money(result.added)} leave "
                f"{money(gap)}",
                expected=money(total),
                actual=money(paid + rake + fees - result.added),
            )
        )
    return not any(v.severity is Severity.ERROR for v in book.violations[before:])


def _returns_folded_into_collections(judged: Replay, pot: int) -> bool:
    """Tell whether a log with no uncalled-bet lines paid the returns as collections.

    Some exports (third-party converters) print no "uncalled bet returned" line and pay
    the returned chips as part of the collection, with a total pot that includes them. The
    chips are the same: only the bookkeeping differs, so it is compared that way.
    """
    hand = judged.hand
    result = hand.result
    if result is None or not judged.uncalled:
        return False
    if any(a.type is ActionType.UNCALLED for a in hand.actions):
        return False
    returned = sum(amount for _, amount in judged.uncalled)
    if result.total_pot is not None:
        return result.total_pot == pot + returned
    collected = sum(c.amount for c in result.collected)
    return collected + (result.rake or 0) == pot + returned


def _reconcile_pots(book: _Book, pots: tuple[Pot, ...]) -> None:
    """With every seat's total right, check that each pot went to the right seats."""
    result = book.judged.hand.result
    assert result is not None
    if not any(c.pot for c in result.collected) and len(pots) <= 1:
        return
    ours: dict[tuple[int, int], int] = defaultdict(int)
    for a in book.awards:
        ours[(a.pot, a.seat)] += a.amount
    theirs: dict[tuple[int, int], int] = defaultdict(int)
    for c in result.collected:
        theirs[(c.pot, c.seat)] += c.amount
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


def _rule_for(book: _Book, seat: int) -> str:
    rules = [r for a in book.awards if a.seat == seat for r in a.rules]
    for preferred in ("R8.hi-lo", "R8.side-pots", "R8.run-it-twice", "R8.high-split"):
        if preferred in rules:
            return preferred
    return "R8.best-hand"
