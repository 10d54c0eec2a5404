"""Differential tests of the rules engine against PokerKit's ``PotLimitOmahaHoldem``
(and, for pot-limit Omaha hi/lo, the bridge's hi/lo form of it: one ``long`` test).

The issue: every action of at least 2,000 generated pot-limit Omaha hands is accepted by
PokerKit, and an over-pot raise is refused by both. The hands come from our generator (4
hole cards, pot limit) and are kept where PokerKit can represent them
(:func:`tests.pokerkit_bridge.pokerkit_can_play`). For each hand we also compare the legal
range (call, minimum and maximum raise-to) before every betting action, and, for hands won
uncontested, the final stacks. PokerKit plays about a hundred hands a second, so the default
run plays 2,000 hands once (module fixture) and the ``slow`` run 20,000.

Where PokerKit and RULES.md differ, RULES.md wins and a test below pins the difference:
PokerKit has no ``R5.short-big-blind`` and reopens the betting after a short all-in below the
big blind (``R5.reopen``). Where our engine is wrong, the test asserts the rule and fails
see :func:`test_no_raise_when_nobody_can_call`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

import pytest
from msgspec.structs import replace

from pipeline.cards import parse_cards
from pipeline.formats.jsonl import encode_hand
from pipeline.generate.play import GameChoice, generate_hands
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Blind,
    GameSpec,
    HandRecord,
    Seat,
    Variant,
)
from pipeline.rules import Replay, Step, replay
from pipeline.violations import Code
from tests.pokerkit_bridge import PokerKitPlay, play_in_pokerkit, pokerkit_can_play

CHOICE = GameChoice(variant=Variant.OMAHA, hole_cards=4, betting=Betting.POT_LIMIT)
PLO8 = GameChoice(variant=Variant.OMAHA_HILO, hole_cards=4, betting=Betting.POT_LIMIT)
DEFAULT_HANDS = 2_000
PLO8_HANDS = 1_000
"""The hi/lo hands (``long``: with the legal ranges, PokerKit plays a few dozen a second)."""
SLOW_HANDS = 20_000
SEED = 2026
OVER_POT_HANDS = 25


@dataclass(frozen=True, slots=True)
class Played:
    """One hand, our replay of it, and PokerKit's."""

    hand: HandRecord
    ours: Replay
    kit: PokerKitPlay


def playable_hands(count: int, seed: int, choice: GameChoice = CHOICE) -> list[HandRecord]:
    """Return the first ``count`` generated hands of ``choice`` (PLO) that PokerKit can play."""
    generated = generate_hands(3 * count, seed=seed, choice=choice)
    hands = list(islice(filter(pokerkit_can_play, generated), count))
    assert len(hands) == count, f"only {len(hands)} playable hands in {3 * count}"
    return hands


def play_all(hands: Iterable[HandRecord]) -> list[Played]:
    return [
        Played(hand=hand, ours=replay(hand), kit=play_in_pokerkit(hand, ranges=True))
        for hand in hands
    ]


@pytest.fixture(scope="module")
def played() -> list[Played]:
    return play_all(playable_hands(DEFAULT_HANDS, SEED))


def describe(play: Played) -> str:
    refused = play.kit.refused
    if refused is None:
        return f"{play.hand.hand_id}: PokerKit did not finish the hand"
    return f"{play.hand.hand_id} action {refused.seq} {refused.action}: {refused.error}"


def assert_pokerkit_accepts(plays: list[Played]) -> None:
    """Assert PokerKit took every action and finished every hand; show the smallest failure."""
    failed = [p for p in plays if not (p.kit.accepted and p.kit.finished)]
    if failed:
        smallest = min(failed, key=lambda p: len(p.hand.actions))
        lines = [describe(p) for p in failed[:8]]
        pytest.fail(
            f"PokerKit refused {len(failed)} of {len(plays)} hands:\n"
            + "\n".join(lines)
            + f"\nsmallest: {encode_hand(smallest.hand).decode()}"
        )


# ------------------------------------------------------------------- the check


def test_enough_playable_hands(played: list[Played]) -> None:
    assert len(played) >= 2_000
    assert all(p.ours.seats == p.kit.seats for p in played)  # same player order


def test_pokerkit_accepts_every_action(played: list[Played]) -> None:
    assert_pokerkit_accepts(played)


def test_replay_finds_no_violations(played: list[Played]) -> None:
    bad = [(p.hand.hand_id, p.ours.violations) for p in played if p.ours.violations]
    assert not bad, bad[:5]


def our_range(step: Step, all_in_to: int) -> tuple[int | None, int | None, int | None]:
    low = None if step.min_to is None else min(step.min_to, all_in_to)
    return step.to_call, low, step.max_to


def test_legal_ranges_agree(played: list[Played]) -> None:
    """Before every betting action, the call and the raise-to range equal PokerKit's.

    Tolerated: PokerKit lets a player who already acted raise after a short all-in below
    the big blind (its ``below_opening``), where ``R5.reopen`` does not; pinned by
    :func:`test_pokerkit_reopens_after_a_wager_below_the_big_blind`.
    """
    assert_ranges_agree(played, least=10_000)


def assert_ranges_agree(played: list[Played], *, least: int) -> None:
    """Assert the ranges agree before every betting action (at least ``least`` of them)."""
    compared = tolerated = 0
    mismatches: list[str] = []
    for play in played:
        steps = {step.seq: step for step in play.ours.steps}
        for kit in play.kit.ranges:
            ours = our_range(steps[kit.seq], kit.all_in_to)
            theirs = (kit.call, kit.min_to, kit.max_to)
            compared += 1
            if ours == theirs:
                continue
            if ours[1] is None and kit.min_to is not None and kit.below_opening:
                tolerated += 1
                continue
            mismatches.append(
                f"{play.hand.hand_id} action {kit.seq}: ours {ours}, PokerKit {theirs}"
                + (f" ({kit.closed_by})" if kit.closed_by else "")
            )
    assert compared > least
    assert not mismatches, f"{len(mismatches)} of {compared} ranges differ:\n" + "\n".join(
        mismatches[:8]
    )
    assert tolerated < compared // 100


def test_uncontested_final_stacks(played: list[Played]) -> None:
    """Where everyone else folds, the winner takes the pot and the others lose what they put in."""
    assert_uncontested_stacks(played, least=300)


def assert_uncontested_stacks(played: list[Played], *, least: int) -> None:
    """Assert PokerKit's final stacks of the hands won uncontested (``least`` of them)."""
    checked = 0
    for play in played:
        ours = play.ours
        if not (play.kit.accepted and play.kit.finished) or ours.showdown:
            continue
        left = [i for i, folded in enumerate(ours.folded) if not folded]
        if len(left) != 1:
            continue
        starts = [_stack(play.hand, seat) for seat in ours.seats]
        expected = tuple(
            start - put_in + (ours.pot if i == left[0] else 0)
            for i, (start, put_in) in enumerate(zip(starts, ours.invested, strict=True))
        )
        assert play.kit.final_stacks == expected, play.hand.hand_id
        checked += 1
    assert checked >= least


def _stack(hand: HandRecord, seat: int) -> int:
    found = hand.seat(seat)
    assert found is not None
    return found.stack


def over_pot(play: Played, kind: ActionType) -> tuple[HandRecord, int, int] | None:
    """Return the hand with its first ``kind`` made one unit above the pot, its seq and max."""
    for step in play.ours.steps:
        if step.type is not kind or step.max_to is None or step.to is None:
            continue
        stack_before = step.stack_before or 0
        mine = step.to - (step.amount or 0)
        if step.max_to + 1 > mine + stack_before:
            continue  # the pot is the player's whole stack: one more is not theirs
        action = play.hand.actions[step.seq]
        all_in = step.max_to + 1 == mine + stack_before
        if kind is ActionType.RAISE:
            wrong = replace(action, to=step.max_to + 1, all_in=all_in)
        else:
            wrong = replace(action, amount=step.max_to + 1 - mine, all_in=all_in)
        actions = (*play.hand.actions[: step.seq], wrong, *play.hand.actions[step.seq + 1 :])
        return replace(play.hand, actions=actions), step.seq, step.max_to
    return None


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        (ActionType.RAISE, Code.RAISE_ABOVE_POT_LIMIT),
        (ActionType.BET, Code.BET_ABOVE_POT_LIMIT),
    ],
)
def test_over_pot_refused_by_both(played: list[Played], kind: ActionType, code: Code) -> None:
    """A bet or raise one unit over the pot limit is refused by PokerKit and flagged by us."""
    cases = 0
    for play in played:
        if not play.kit.accepted:
            continue
        found = over_pot(play, kind)
        if found is None:
            continue
        hand, seq, max_to = found
        kit = play_in_pokerkit(hand)
        assert kit.refused is not None, hand.hand_id
        assert kit.refused.seq == seq, (hand.hand_id, kit.refused)
        assert f"above the maximum allowed {max_to}." in kit.refused.error
        step = next(step for step in replay(hand).steps if step.seq == seq)
        assert code in step.codes, (hand.hand_id, step)
        cases += 1
        if cases == OVER_POT_HANDS:
            break
    assert cases == OVER_POT_HANDS


@pytest.mark.slow
def test_pokerkit_accepts_every_action_many_hands() -> None:
    plays = play_all(playable_hands(SLOW_HANDS, SEED + 1))
    assert_pokerkit_accepts(plays)
    assert not [p.hand.hand_id for p in plays if p.ours.violations]


@pytest.mark.long
def test_pot_limit_omaha_hi_lo_bets_as_pokerkit_does() -> None:
    """PLO8 (PokerKit's pot-limit Omaha with its eight-or-better low, see the bridge): every
    action is accepted, none is a violation, every legal range and the uncontested final
    stacks agree, as for PLO above. The betting rules are the same; the deal, the low
    and the split pots go through the same replay."""
    plays = play_all(playable_hands(PLO8_HANDS, SEED + 2, PLO8))
    assert {p.hand.game.variant for p in plays} == {Variant.OMAHA_HILO}
    assert_pokerkit_accepts(plays)
    assert not [(p.hand.hand_id, p.ours.violations) for p in plays if p.ours.violations]
    assert_ranges_agree(plays, least=5_000)
    assert_uncontested_stacks(plays, least=150)


# ------------------------------------------------------- where PokerKit and we differ


def hand_of(
    stacks: list[int], blinds: tuple[int, int], betting: list[Action], *, hand_id: str
) -> HandRecord:
    """Build a pot-limit Omaha hand: seats 1..n with the button last, blinds posted.

    ``betting`` is everything after the deal (bets, uncalled returns, boards); the players
    still in at the end show down. Hole cards and the board are fixed, distinct cards.
    """
    n = len(stacks)
    small, big = blinds
    sb, bb = (2, 1) if n == 2 else (1, 2)
    posts = [
        Action(ActionType.POST, seat=sb, amount=min(small, stacks[sb - 1]), blind=Blind.SMALL),
        Action(ActionType.POST, seat=bb, amount=min(big, stacks[bb - 1]), blind=Blind.BIG),
    ]
    posts = [replace(p, all_in=p.amount == stacks[(p.seat or 0) - 1]) for p in posts]
    holes = ["AsKsQsJs", "AhKhQhJh", "2c3c4c5c", "6d7d8d9d"]
    deals = [
        Action(ActionType.DEAL, seat=seat, cards=parse_cards(holes[seat - 1]))
        for seat in range(1, n + 1)
    ]
    folded = {a.seat for a in betting if a.type is ActionType.FOLD}
    shows = [
        Action(ActionType.SHOW, seat=seat, cards=parse_cards(holes[seat - 1]))
        for seat in range(1, n + 1)
        if seat not in folded
    ]
    return HandRecord(
        hand_id=hand_id,
        site="Croupier Tests",
        game=GameSpec(
            variant=Variant.OMAHA,
            hole_cards=4,
            betting=Betting.POT_LIMIT,
            small_blind=small,
            big_blind=big,
            currency="CHIPS",
            scale=0,
        ),
        button=n,
        seats=tuple(
            Seat(seat=seat, player=f"P{seat}", stack=stack)
            for seat, stack in enumerate(stacks, start=1)
        ),
        actions=(*posts, *deals, *betting, *(shows if len(shows) > 1 else ())),
    )


def board() -> list[Action]:
    return [
        Action(ActionType.BOARD, cards=parse_cards("Tc9h8s"), burn=parse_cards("2d")),
        Action(ActionType.BOARD, cards=parse_cards("3h"), burn=parse_cards("2h")),
        Action(ActionType.BOARD, cards=parse_cards("4s"), burn=parse_cards("2s")),
    ]


def step_at(ours: Replay, seq: int) -> Step:
    return next(step for step in ours.steps if step.seq == seq)


def test_no_raise_when_nobody_can_call() -> None:
    """A raise that no opponent can call is refused: everyone else is all-in or covered.

    Blinds 1/2. The button (6 chips) raises all-in to 6; the big blind has 5 chips in all,
    less than the 6 already bet, so whatever the small blind raises to, nobody can call
    more than 6. PokerKit refuses the small blind's raise ("no reason to raise since every
    other player has either folded or gone all-in"). Our engine already closes the raise
    when nobody is left to act (``BettingState.legal_for``: "nobody left to call it",
    ``raise-not-reopened``) but counts a player who cannot even cover the current bet as
    able to call, so it allows the raise and the generator makes such raises (about 1 hand
    in 150 of the differential run). This test fails until the engine is fixed.
    """
    raise_seq = 6
    hand = hand_of(
        [200, 5, 6],
        (1, 2),
        [
            Action(ActionType.RAISE, seat=3, to=6, all_in=True),
            Action(ActionType.RAISE, seat=1, to=10),
            Action(ActionType.CALL, seat=2, amount=3, all_in=True),
            Action(ActionType.UNCALLED, seat=1, amount=4),
            *board(),
        ],
        hand_id="NOBODY-CAN-CALL",
    )
    assert hand.actions[raise_seq].seat == 1
    assert pokerkit_can_play(hand)
    kit = play_in_pokerkit(hand)
    assert kit.refused is not None
    assert kit.refused.seq == raise_seq
    assert "no reason to complete, bet, or raise" in kit.refused.error
    ours = replay(hand)
    assert step_at(ours, raise_seq).max_to is None, "our engine offers a raise nobody can call"
    assert Code.UNCALLABLE_RAISE in step_at(ours, raise_seq).codes


def test_pokerkit_reopens_after_a_wager_below_the_big_blind() -> None:
    """PokerKit lets a limper re-raise after the big blind's short all-in raise; R5.reopen not.

    Blinds 10/20. The button limps, the small blind completes, the big blind raises all-in
    from 20 to 31 (11 more, less than the 20 of a full raise). The button has acted and faces
    less than a full raise: under ``R5.reopen`` it may only call or fold. PokerKit counts the
    round's raise size from 0, not from the big blind, so it takes the 11 as a full raise and
    lets the button raise. Should a PokerKit upgrade fix this, this test fails: then drop the
    tolerance in :func:`test_legal_ranges_agree`.
    """
    raise_seq = 8
    hand = hand_of(
        [119, 31, 2459],
        (10, 20),
        [
            Action(ActionType.CALL, seat=3, amount=20),
            Action(ActionType.CALL, seat=1, amount=10),
            Action(ActionType.RAISE, seat=2, to=31, all_in=True),
            Action(ActionType.RAISE, seat=3, to=100),
            Action(ActionType.FOLD, seat=1),
            Action(ActionType.UNCALLED, seat=3, amount=69),
            *board(),
        ],
        hand_id="REOPEN-BELOW-BB",
    )
    assert hand.actions[raise_seq].type is ActionType.RAISE
    ours = replay(hand)
    assert Code.RAISE_NOT_REOPENED in step_at(ours, raise_seq).codes
    assert [v.seq for v in ours.errors] == [raise_seq]
    kit = play_in_pokerkit(hand, ranges=True)
    assert kit.accepted, kit.refused
    (button_range,) = [r for r in kit.ranges if r.seq == raise_seq]
    assert button_range.below_opening
    assert button_range.min_to == 51  # PokerKit: 31 + 20


def test_short_big_blind_is_not_pokerkit_s_rule() -> None:
    """After a short all-in big blind the others still call the full blind (R5.short-big-blind).

    Blinds 50/100, the big blind has 30 chips. The button calls 100 and the small blind
    completes to 100; PokerKit would have both call only 50 (the highest post), which is why
    :func:`pokerkit_can_play` leaves out hands with a short big blind. Should a PokerKit
    upgrade follow the rule, this test fails: then let the predicate keep those hands.
    """
    hand = hand_of(
        [1_000, 30, 1_000],
        (50, 100),
        [
            Action(ActionType.CALL, seat=3, amount=100),
            Action(ActionType.CALL, seat=1, amount=50),
            board()[0],
            Action(ActionType.CHECK, seat=1),
            Action(ActionType.CHECK, seat=3),
            board()[1],
            Action(ActionType.CHECK, seat=1),
            Action(ActionType.CHECK, seat=3),
            board()[2],
            Action(ActionType.CHECK, seat=1),
            Action(ActionType.CHECK, seat=3),
        ],
        hand_id="SHORT-BB",
    )
    ours = replay(hand)
    assert not ours.errors
    assert step_at(ours, 5).to_call == 100
    assert not pokerkit_can_play(hand)
    kit = play_in_pokerkit(hand)
    assert kit.refused is not None
    assert kit.refused.seq == 5
    assert kit.refused.error == "PokerKit's check or call moves 50; the record moves 100"
