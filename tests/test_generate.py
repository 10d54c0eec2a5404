"""Generated hands: reproducible, legal by the engine's own judgement, and faulted on demand."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.formats.jsonl import decode_line, encode_hand
from pipeline.generate import GameChoice, generate_hands
from pipeline.generate.faults import BETTING_FAULTS, BLIND_FAULTS, CARD_FAULTS
from pipeline.model import ActionType, Betting, HandRecord, Status, Variant
from pipeline.rules import replay
from pipeline.violations import Code

GAMES = [(v, b) for v in Variant for b in Betting]


def _injected(hand: HandRecord) -> tuple[Code, int | None] | None:
    raw = dict(hand.extras).get("_injected")
    if raw is None:
        return None
    data = json.loads(raw)
    return Code(data["code"]), data["seq"]


def test_the_same_seed_gives_the_same_hands() -> None:
    one = [encode_hand(h) for h in generate_hands(50, seed=11, faults=0.3)]
    two = [encode_hand(h) for h in generate_hands(50, seed=11, faults=0.3)]
    three = [encode_hand(h) for h in generate_hands(50, seed=12, faults=0.3)]
    assert one == two
    assert one != three


def test_generated_hands_are_valid_hand_log_lines() -> None:
    for hand in generate_hands(200, seed=5):
        line = encode_hand(hand)
        back = decode_line(line, "gen", 1)
        assert isinstance(back, HandRecord), back
        assert encode_hand(back) == line


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(GAMES), st.integers(min_value=0, max_value=2**32), st.sampled_from([4, 5, 6])
)
def test_clean_generated_hands_replay_without_violations(
    game: tuple[Variant, Betting], seed: int, hole: int
) -> None:
    variant, betting = game
    choice = GameChoice(
        variant=variant, betting=betting, hole_cards=5 if variant.is_courchevel else hole
    )
    for hand in generate_hands(25, seed=seed, choice=choice):
        judged = replay(hand)
        assert judged.violations == (), (hand.hand_id, judged.violations)
        assert judged.status is Status.OK
        # chips are conserved: what a player holds plus what they put in is what they had
        starting = {s.seat: s.stack for s in hand.seats}
        for i, seat in enumerate(judged.seats):
            assert judged.stacks[i] >= 0
            assert judged.invested[i] >= 0
            assert judged.stacks[i] + judged.invested[i] == starting[seat]
        # every round closed: the hand ended uncontested or reached a showdown
        assert sum(not f for f in judged.folded) == 1 or judged.showdown
        assert (
            all(len(board) == 5 for board in judged.boards)
            or sum(not f for f in judged.folded) == 1
        )


def test_every_variant_structure_and_table_size_is_generated() -> None:
    hands = list(generate_hands(3000, seed=2))
    assert {h.game.variant for h in hands} == set(Variant)
    assert {h.game.betting for h in hands} == set(Betting)
    assert {h.game.hole_cards for h in hands} == {4, 5, 6}
    sizes = {len(h.seats) for h in hands}
    assert {2, 10} <= sizes
    runs = [h for h in hands if any(a.run is not None for a in h.actions)]
    assert runs, "no board was run twice"
    straddles = [h for h in hands if any(a.blind == "straddle" for a in h.actions)]
    dead = [h for h in hands if any(a.blind == "both" for a in h.actions)]
    all_ins = [h for h in hands if any(a.all_in for a in h.actions)]
    assert straddles and dead and all_ins
    side_pots = [
        h for h in hands if sum(a.all_in for a in h.actions if a.type is not ActionType.POST) >= 2
    ]
    assert side_pots


def test_faults_are_injected_at_the_requested_rate_and_each_is_one_code() -> None:
    hands = list(generate_hands(2000, seed=9, faults=0.25))
    faulted = [h for h in hands if _injected(h) is not None]
    assert 0.2 < len(faulted) / len(hands) < 0.3


def _hands_by_injected_code(count: int, seed: int) -> dict[Code, list[HandRecord]]:
    found: dict[Code, list[HandRecord]] = defaultdict(list)
    clean = 0
    for hand in generate_hands(count, seed=seed, faults=1.0):
        injected = _injected(hand)
        if injected is None:  # a payout fault with no room in the hand (nothing collected)
            clean += 1
            continue
        found[injected[0]].append(hand)
    assert clean < count * 0.05
    return found


INJECTED = _hands_by_injected_code(6000, seed=21)


@pytest.mark.parametrize("code", BETTING_FAULTS + BLIND_FAULTS + CARD_FAULTS, ids=str)
def test_one_mutated_action_gives_exactly_its_code_at_that_action(code: Code) -> None:
    hands = INJECTED.get(code, [])
    if not hands:
        pytest.skip(f"no generated hand had room for {code}")  # pragma: no cover
    for hand in hands[:25]:
        injected = _injected(hand)
        assert injected is not None
        _, seq = injected
        judged = replay(hand)
        at = [v.code for v in judged.violations if v.seq == seq]
        if seq is None:
            assert code in at, (hand.hand_id, judged.violations)
        else:
            assert at == [code], (hand.hand_id, judged.violations)
            step = next(s for s in judged.steps if s.seq == seq)
            assert step.codes == (code,)


def test_the_injector_reaches_almost_every_code() -> None:
    missing = set(BETTING_FAULTS + BLIND_FAULTS + CARD_FAULTS) - set(INJECTED)
    # the cap and the reopening rule need rare table situations; the rest must all appear
    assert missing <= {Code.RAISE_CAP_EXCEEDED, Code.RAISE_NOT_REOPENED}
