"""Settlement properties over generated hands: every variant, structure and hole-card count.

Hypothesis picks the game and the generator's seed; :func:`pipeline.generate.generate_hands`
plays a batch of hands (some with one injected fault, so broken hands are settled too) and
each property is checked on every hand of the batch (RULES.md §8, §9):

- the awards of a complete settlement add up to each pot after rake, and go only to seats
  eligible for that pot (``R8.side-pots``);
- tied shares of one pot, runout and half differ by at most one unit, the larger ones first
  from the button (``R8.odd-chips``); the high half is never smaller than the low half, nor
  an earlier runout's part smaller than a later one's (``R8.hi-lo``, ``R8.run-it-twice``);
- every pot has a claimant or an ``unclaimed-pot`` violation (``R8.best-hand``);
- final stacks plus rake are the starting stacks (``R9.conservation``);
- clean hands reconcile with no settlement violation; every injected payout fault is found.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.generate import GameChoice, generate_hands
from pipeline.model import Betting, HandRecord, Status, Variant
from pipeline.rules import Replay, replay
from pipeline.settle import Half, Settlement, settle, settle_each, settle_many
from pipeline.violations import Code

GAMES = [(variant, betting) for variant in Variant for betting in Betting]
HANDS_PER_EXAMPLE = 24
PAYOUT_CODES = frozenset({Code.PAYOUT_MISMATCH, Code.RAKE_MISMATCH})

Settled = tuple[HandRecord, Replay, Settlement]

PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAME = st.sampled_from(GAMES)
SEED = st.integers(min_value=0, max_value=2**32 - 1)
HOLE = st.sampled_from([4, 5, 6])
FAULTS = st.sampled_from([0.0, 0.3])


def _settled(
    game: tuple[Variant, Betting], seed: int, hole: int, faults: float = 0.0
) -> list[Settled]:
    """Generate a batch of hands of ``game`` and settle them all at once."""
    variant, betting = game
    choice = GameChoice(
        variant=variant, betting=betting, hole_cards=5 if variant.is_courchevel else hole
    )
    hands = list(generate_hands(HANDS_PER_EXAMPLE, seed=seed, choice=choice, faults=faults))
    judged = [replay(hand) for hand in hands]
    return list(zip(hands, judged, settle_many(judged), strict=True))


def _complete(batch: list[Settled]) -> Iterator[Settled]:
    return (item for item in batch if item[2].complete)


def _injected(hand: HandRecord) -> tuple[Code, int | None] | None:
    raw = dict(hand.extras).get("_injected")
    if raw is None:
        return None
    data = json.loads(raw)
    return Code(data["code"]), data["seq"]


def _unclaimed(settlement: Settlement) -> set[int]:
    """Return the pots an ``unclaimed-pot`` violation names."""
    return {
        pot.index
        for v in settlement.violations
        if v.code is Code.UNCLAIMED_POT
        for pot in settlement.pots
        if f"pot {pot.index} " in v.message
    }


def _changes_nothing(hand: HandRecord, settlement: Settlement) -> bool:
    """Tell whether a payout fault left every figure as the rules pay it.

    Settlement writes a zero award for the low half of a one-chip part, the generator
    records it as a 0.00 collection, and moving that to another seat changes nothing.
    """
    result = hand.result
    assert result is not None
    recorded: dict[tuple[int, int], int] = defaultdict(int)
    for c in result.collected:
        recorded[(c.pot, c.seat)] += c.amount
    ours: dict[tuple[int, int], int] = defaultdict(int)
    for a in settlement.awards:
        ours[(a.pot, a.seat)] += a.amount
    nets = [p.net for p in settlement.pots]
    return {k: v for k, v in recorded.items() if v} == {
        k: v for k, v in ours.items() if v
    } and list(result.pots) == nets


@PROPERTY
@given(GAME, SEED, HOLE, FAULTS)
def test_awards_add_up_to_each_pot_after_rake(
    game: tuple[Variant, Betting], seed: int, hole: int, faults: float
) -> None:
    """R8.side-pots, R8.rake-allocation: per pot, the awards sum to the pot less its rake."""
    for hand, judged, settlement in _complete(_settled(game, seed, hole, faults)):
        unclaimed = _unclaimed(settlement)
        paid: dict[int, int] = defaultdict(int)
        for award in settlement.awards:
            pot = settlement.pots[award.pot]
            assert award.seat in pot.eligible, (hand.hand_id, award)
            assert award.amount >= 0, (hand.hand_id, award)  # 0: the low half of 1 chip
            assert len(set(award.rules)) == len(award.rules), (hand.hand_id, award)  # once
            paid[award.pot] += award.amount
        for pot in settlement.pots:
            assert 0 <= pot.rake <= pot.amount, (hand.hand_id, pot)
            if pot.index not in unclaimed:
                assert paid[pot.index] == pot.net, (hand.hand_id, pot, settlement.awards)
        assert sum(p.rake for p in settlement.pots) == settlement.rake
        assert sum(p.amount for p in settlement.pots) == judged.pot
        assert sum(settlement.won.values()) == sum(a.amount for a in settlement.awards)
        if not judged.hand.game.variant.is_hilo:
            assert all(a.half is Half.WHOLE for a in settlement.awards), hand.hand_id


@PROPERTY
@given(GAME, SEED, HOLE, FAULTS)
def test_tied_shares_differ_by_at_most_one_unit(
    game: tuple[Variant, Betting], seed: int, hole: int, faults: float
) -> None:
    """R8.odd-chips, R8.hi-lo, R8.run-it-twice: shares of one split differ by one unit at
    most, larger first from the button; high half >= low half; earlier runouts >= later."""
    for hand, judged, settlement in _complete(_settled(game, seed, hole, faults)):
        order = {seat: i for i, seat in enumerate(judged.seats)}
        splits: dict[tuple[int, int, Half], list[tuple[int, int]]] = defaultdict(list)
        for award in settlement.awards:
            splits[(award.pot, award.runout, award.half)].append((award.seat, award.amount))
        for key, shares in splits.items():
            amounts = [amount for _, amount in sorted(shares, key=lambda s: order[s[0]])]
            assert max(amounts) - min(amounts) <= 1, (hand.hand_id, key, shares)
            assert amounts == sorted(amounts, reverse=True), (hand.hand_id, key, shares)
        halves: dict[tuple[int, int], dict[Half, int]] = defaultdict(dict)
        runouts: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        for (pot, runout, half), shares in splits.items():
            halves[(pot, runout)][half] = sum(amount for _, amount in shares)
            runouts[pot][runout] += sum(amount for _, amount in shares)
        for where, halved in halves.items():
            if Half.LOW in halved:
                high_minus_low = halved[Half.HIGH] - halved[Half.LOW]
                assert 0 <= high_minus_low <= 1, (hand.hand_id, where, halved)
                assert Half.WHOLE not in halved
        if _unclaimed(settlement):
            continue
        for pot, parts in runouts.items():
            totals = [parts[r] for r in sorted(parts)]
            assert totals == sorted(totals, reverse=True), (hand.hand_id, pot, totals)
            assert max(totals) - min(totals) <= 1, (hand.hand_id, pot, totals)


@PROPERTY
@given(GAME, SEED, HOLE, FAULTS)
def test_every_pot_has_a_claimant_or_an_unclaimed_pot_violation(
    game: tuple[Variant, Betting], seed: int, hole: int, faults: float
) -> None:
    """R8.best-hand: each pot (on each runout) is paid to someone, or reported unclaimed."""
    for hand, judged, settlement in _complete(_settled(game, seed, hole, faults)):
        unclaimed = _unclaimed(settlement)
        runs = len(judged.boards) if sum(not out for out in judged.folded) > 1 else 1
        claimed = {(a.pot, a.runout) for a in settlement.awards}
        for pot in settlement.pots:
            if pot.net <= 0:
                continue
            for runout in range(1, runs + 1):
                if pot.net // runs + (runout <= pot.net % runs) == 0:
                    continue  # fewer chips than runouts: the later runouts get none
                assert (pot.index, runout) in claimed or pot.index in unclaimed, (
                    hand.hand_id,
                    pot,
                    runout,
                )


@PROPERTY
@given(GAME, SEED, HOLE, FAULTS)
def test_chips_are_conserved(
    game: tuple[Variant, Betting], seed: int, hole: int, faults: float
) -> None:
    """R9.conservation: final stacks + rake = starting stacks; a void hand changes nothing."""
    for hand, judged, settlement in _settled(game, seed, hole, faults):
        starting = {s.seat: s.stack for s in hand.seats}
        if judged.status is Status.VOID:
            assert settlement.final_stacks == starting
            continue
        if not settlement.complete or _unclaimed(settlement):
            continue
        assert settlement.final_stacks.keys() == starting.keys(), hand.hand_id
        assert all(stack >= 0 for stack in settlement.final_stacks.values()), hand.hand_id
        total = sum(settlement.final_stacks.values()) + settlement.rake
        assert total == sum(starting.values()), (hand.hand_id, settlement)


@PROPERTY
@given(GAME, SEED, HOLE)
def test_clean_generated_hands_reconcile_with_no_settlement_violation(
    game: tuple[Variant, Betting], seed: int, hole: int
) -> None:
    """R9.conservation: a clean hand's log (as the generator records it) matches to the unit."""
    for hand, judged, settlement in _settled(game, seed, hole):
        assert judged.status is Status.OK, (hand.hand_id, judged.violations)
        assert settlement.complete, hand.hand_id
        assert settlement.violations == (), (hand.hand_id, settlement.violations)
        assert settlement.payouts_match is True, hand.hand_id


@PROPERTY
@given(GAME, SEED, HOLE)
def test_every_injected_payout_fault_is_found(
    game: tuple[Variant, Betting], seed: int, hole: int
) -> None:
    """R8.best-hand, R9.conservation: a wrong winner, a missing odd chip, a side pot paid to
    a player not in it (payout-mismatch) or a wrong rake (rake-mismatch), made on the
    recorded result (seq null), is reported with its code and the payouts do not match."""
    for hand, _, settlement in _settled(game, seed, hole, faults=1.0):
        injected = _injected(hand)
        if (
            injected is None
            or injected[0] not in PAYOUT_CODES
            or _changes_nothing(hand, settlement)
        ):
            continue
        code, seq = injected
        assert seq is None, hand.hand_id
        assert code in {v.code for v in settlement.violations}, (
            hand.hand_id,
            code,
            settlement.violations,
        )
        assert settlement.payouts_match is False, hand.hand_id


def test_payout_faults_of_every_kind_are_found_in_a_large_sample() -> None:
    """R8.best-hand, R9.conservation: over 3,000 faulted hands, both payout codes occur (so
    the property above is not vacuous) and every one is found."""
    by_code: dict[Code | None, int] = defaultdict(int)
    hands = list(generate_hands(3000, seed=77, faults=1.0))
    judged = [replay(hand) for hand in hands]
    for hand, settlement in zip(hands, settle_many(judged), strict=True):
        injected = _injected(hand)
        if injected is None or injected[0] not in PAYOUT_CODES:
            continue
        if _changes_nothing(hand, settlement):
            by_code[None] += 1
            continue
        assert injected[0] in {v.code for v in settlement.violations}, hand.hand_id
        by_code[injected[0]] += 1
    assert by_code[Code.PAYOUT_MISMATCH] >= 50
    assert by_code[Code.RAKE_MISMATCH] >= 10
    assert by_code[None] <= by_code[Code.PAYOUT_MISMATCH] // 20  # no-op faults are rare


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEED)
def test_settling_a_chunk_at_once_equals_settling_each_hand(seed: int) -> None:
    """R8.best-hand: the batch evaluator gives every hand the settlement it gets alone."""
    hands = list(generate_hands(HANDS_PER_EXAMPLE, seed=seed, faults=0.3))
    judged = [replay(hand) for hand in hands]
    assert settle_many(judged) == [settle(one) for one in judged]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEED)
def test_settle_each_yields_what_settle_many_gives_and_empties_its_list(seed: int) -> None:
    """settle_each gives each replay, in order, the settlement settle_many gives it, and
    keeps none of them: the list it was given is empty once it is done."""
    hands = list(generate_hands(HANDS_PER_EXAMPLE, seed=seed, faults=0.3))
    judged = [replay(hand) for hand in hands]
    given = list(judged)
    pairs: list[tuple[Replay, Settlement]] = []
    for item in settle_each(given, None):
        pairs.append(item)
        assert len(given) == len(judged) - len(pairs)  # released as it is yielded
    assert [j for j, _ in pairs] == judged
    assert [s for _, s in pairs] == settle_many(judged)
    assert given == []
