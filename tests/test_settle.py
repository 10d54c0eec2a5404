"""Settlement, hand by hand: every rule of RULES.md §8 (showdown and awarding) and §9 (money).

Each test names the rule it checks. Hands are built with :mod:`tests.handbuilder` (pot limit
at $0.50/$1, $100 stacks, seats 1..n, the button on the last seat unless told) and read by
the real reader; a log's recorded result is added with :func:`tests.handbuilder.with_result`.
Every figure is an integer number of cents (the hand's unit), worked out by hand in the
test's comments. Awards are compared as ``(pot, runout, half, seat, amount)``.

Tests marked ``xfail(strict=True, reason="settle bug: …")`` assert what RULES.md requires
where ``pipeline/settle.py`` (or ``pipeline/reconcile.py``) does something else; they turn
into failures the day it is fixed, so the marker goes with the fix.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Unpack

import pytest
from msgspec import structs

from pipeline.cards import parse_cards
from pipeline.formats.jsonl import read_jsonl
from pipeline.formats.pokerstars import parse_pokerstars_bytes
from pipeline.model import HandRecord, Status
from pipeline.rules import STANDARD, RuleSet, replay
from pipeline.settle import Half, Settlement, allocate_rake, build_pots, settle, split_evenly
from pipeline.violations import Code, Severity
from tests.handbuilder import (
    HandOptions,
    Json,
    bet,
    blinds,
    board,
    build,
    call,
    check,
    checked_streets,
    collected,
    deal,
    fold,
    muck,
    post,
    raise_to,
    show,
    uncalled,
    with_result,
)

Log = Mapping[str, object]
"""A log's ``result`` object, amounts as decimal text."""

Share = tuple[int, int, str, int, int]
"""One award as ``(pot, runout, half, seat, amount)``."""

WHOLE, HIGH, LOW = Half.WHOLE.value, Half.HIGH.value, Half.LOW.value
MAIN_POT_FIRST = replace(STANDARD, rake_allocation="main-pot-first")


def _settle(
    actions: list[Json],
    *,
    result: Log | None = None,
    rules: RuleSet = STANDARD,
    **options: Unpack[HandOptions],
) -> Settlement:
    """Build a hand (with the log's ``result`` if given), replay it and settle it.

    The hand must be a clean one by the rules of play, so only settlement is under test.
    """
    hand = build(actions, **options)
    if result is not None:
        hand = with_result(hand, result)
    judged = replay(hand, rules)
    assert judged.violations == (), judged.violations
    assert judged.status is Status.OK
    return settle(judged, rules)


def _shares(settlement: Settlement) -> list[Share]:
    return sorted((a.pot, a.runout, a.half.value, a.seat, a.amount) for a in settlement.awards)


def _codes(settlement: Settlement) -> list[str]:
    return [str(v.code) for v in settlement.violations]


def _rules_of(settlement: Settlement, pot: int, runout: int, half: str, seat: int) -> set[str]:
    (award,) = [
        a
        for a in settlement.awards
        if (a.pot, a.runout, a.half.value, a.seat) == (pot, runout, half, seat)
    ]
    return set(award.rules)


def _deals(hole: dict[int, str]) -> list[Json]:
    return [deal(seat, cards) for seat, cards in hole.items()]


def _shows(hole: dict[int, str], *order: int) -> list[Json]:
    return [show(seat, hole[seat]) for seat in order]


LIMPED = [*blinds(), call(3, "1.00"), call(1, "0.50"), check(2)]
"""Pre-flop: seat 3 calls, seat 1 completes, seat 2 checks: a pot of 3.00 (300)."""

HOLE = {1: "AhKhQhJh", 2: "5c6c7c8c", 3: "8d9dTdJd"}
"""On the default board 2c3d4h 9s Kd: seat 1 a pair of kings, seat 2 a six-high straight
(5-6 with 2-3-4), seat 3 a pair of nines. Nobody has a flush (no three board cards share a
suit)."""


def _limped_showdown(*extra: Json, hole: dict[int, str] = HOLE) -> list[Json]:
    """LIMPED, the cards dealt, checked to the river on the default board, then ``extra``."""
    return [*LIMPED, *_deals(hole), *checked_streets([1, 2, 3]), *extra]


# ---------------------------------------------------------------------------- R8.showdown-order


def test_showdown_order_a_deviation_is_a_warning_and_the_cards_decide() -> None:
    """R8.showdown-order: seat 3 shows first (seat 1 should have): a warning; seat 2 wins."""
    hand = build(_limped_showdown(*_shows(HOLE, 3, 2, 1)))
    judged = replay(hand)
    assert [(str(v.code), v.severity) for v in judged.violations] == [
        ("showdown-order", Severity.WARNING)
    ]
    assert judged.status is Status.OK
    settlement = settle(judged)
    assert _shares(settlement) == [(0, 1, WHOLE, 2, 300)]
    assert settlement.violations == ()


# ---------------------------------------------------------------------------- R8.best-hand


def test_best_hand_wins_and_the_award_names_the_hand_and_its_five_cards() -> None:
    """R8.best-hand, R6.two-plus-three: the straight wins, made of 5c6c + 2c3d4h."""
    settlement = _settle(_limped_showdown(*_shows(HOLE, 1, 2, 3)))
    assert _shares(settlement) == [(0, 1, WHOLE, 2, 300)]
    (award,) = settlement.awards
    assert award.description == "straight, Six high"
    assert set(award.cards_used) == set(parse_cards("5c6c2c3d4h"))
    assert {"R8.best-hand", "R8.high-split"} <= set(award.rules)
    assert settlement.won == {2: 300}
    assert settlement.final_stacks == {1: 9900, 2: 10200, 3: 9900}
    assert settlement.violations == ()
    assert settlement.payouts_match is None  # the log records no result


def test_best_hand_a_mucked_winner_whose_cards_are_known_still_wins() -> None:
    """R8.best-hand [000]: the software pays the best hand that reached showdown, shown or not."""
    settlement = _settle(_limped_showdown(show(1, HOLE[1]), muck(2), show(3, HOLE[3])))
    assert _shares(settlement) == [(0, 1, WHOLE, 2, 300)]
    assert settlement.violations == ()


def test_best_hand_unknown_cards_cannot_win() -> None:
    """R8.best-hand: seat 2 would win but its cards are never dealt nor shown: seat 1 wins."""
    hole = {1: HOLE[1], 3: HOLE[3]}
    settlement = _settle(
        [
            *LIMPED,
            *_deals(hole),
            *checked_streets([1, 2, 3]),
            *_shows(hole, 1),
            muck(2),
            *_shows(hole, 3),
        ]
    )
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 300)]  # a pair of kings beats nines
    assert settlement.violations == ()


def test_best_hand_two_cards_shown_of_four_cannot_win() -> None:
    """R8.best-hand: seat 2 shows only 5c6c (PokerStars ``shows [Qh]``): no whole hand, no win."""
    settlement = _settle(
        [*LIMPED, *checked_streets([1, 2, 3]), show(1, HOLE[1]), show(2, "5c6c"), show(3, HOLE[3])]
    )
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 300)]


def test_best_hand_a_pot_nobody_eligible_can_claim_is_unclaimed_pot() -> None:
    """R8.best-hand: nobody's cards are known: ``unclaimed-pot``, nothing paid, nothing burned."""
    settlement = _settle([*LIMPED, *checked_streets([1, 2, 3]), muck(1), muck(2), muck(3)])
    assert settlement.awards == ()
    (violation,) = settlement.violations
    assert violation.code is Code.UNCLAIMED_POT
    assert violation.rule == "R8.best-hand"
    assert violation.severity is Severity.ERROR
    assert "3.00" in violation.message
    assert settlement.won == {}


# ---------------------------------------------------------------------------- side-pot hands

SIDE_HOLE = {1: "5c6c7c8c", 2: "AhKhQhJh", 3: "8d9dTdJd"}
"""Seat 1 (all-in) a six-high straight, seat 2 a pair of kings, seat 3 a pair of nines."""


def _side_actions(hole: dict[int, str], *ending: Json, flop: str = "2c3d4h") -> list[Json]:
    """Seat 1 ($10) is all-in on the flop; seats 2 and 3 bet on: main 30.00, side 26.00.

    Pre-flop all three put in 1.00 (pot 3.00). Flop: seat 1 bets 3.00 (the pot), seat 2
    raises to 12.00 (the pot-limit maximum 3 + 3 + 3 + 3), seat 3 calls, seat 1 calls its
    last 6.00. Turn: seat 2 bets 10.00, seat 3 calls. River: checks. Seat 1 put in 10.00,
    seats 2 and 3 23.00 each: main pot 3 x 10.00 = 30.00, side pot 2 x 13.00 = 26.00.
    """
    return [
        *blinds(),
        *_deals(hole),
        call(3, "1.00"),
        call(1, "0.50"),
        check(2),
        board(flop),
        bet(1, "3.00"),
        raise_to(2, "12.00"),
        call(3, "12.00"),
        call(1, "6.00", all_in=True),
        board("9s"),
        bet(2, "10.00"),
        call(3, "10.00"),
        board("Kd"),
        check(2),
        check(3),
        *ending,
    ]


SIDE_STACKS = ["10.00", "100.00", "100.00"]


def test_side_pots_an_all_in_player_wins_only_the_chips_they_matched() -> None:
    """R8.side-pots: seat 1 (all-in) has the best hand: main pot 30.00; the side pot goes to
    the best hand among seats 2 and 3 (seat 2's kings)."""
    settlement = _settle(_side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)), stacks=SIDE_STACKS)
    assert [(p.index, p.amount, p.eligible) for p in settlement.pots] == [
        (0, 3000, (1, 2, 3)),
        (1, 2600, (2, 3)),
    ]
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 3000), (1, 1, WHOLE, 2, 2600)]
    assert "R8.side-pots" in _rules_of(settlement, 1, 1, WHOLE, 2)
    assert settlement.final_stacks == {1: 3000, 2: 7700 + 2600, 3: 7700}
    assert settlement.violations == ()


def test_side_pot_nobody_in_it_can_claim_is_unclaimed_while_the_main_pot_is_paid() -> None:
    """R8.best-hand, R8.side-pots: seats 2 and 3 muck unseen cards: the main pot goes to seat 1
    (the only known hand), the side pot is ``unclaimed-pot`` (never paid to seat 1)."""
    hole = {1: SIDE_HOLE[1]}
    settlement = _settle(
        _side_actions(hole, show(1, hole[1]), muck(2), muck(3)), stacks=SIDE_STACKS
    )
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 3000)]
    assert _codes(settlement) == ["unclaimed-pot"]
    assert "pot 1" in settlement.violations[0].message
    assert "26.00" in settlement.violations[0].message


# ---------------------------------------------------------------------------- R8.high-split


def test_high_split_equal_hands_split_the_pot_equally() -> None:
    """R8.high-split: seats 1 and 2 both hold a six-high straight: 150 each, seat 3 nothing."""
    hole = {1: "5d6dJsQs", 2: HOLE[2], 3: HOLE[3]}
    settlement = _settle(_limped_showdown(*_shows(hole, 1, 2, 3), hole=hole))
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 150), (0, 1, WHOLE, 2, 150)]
    assert "R8.odd-chips" not in _rules_of(settlement, 0, 1, WHOLE, 1)  # nothing odd


# ---------------------------------------------------------------------------- R8.odd-chips


def _three_way_tie(*paid: tuple[int, str]) -> Settlement:
    """Button on seat 2, so the order is 3, 1, 2: three tied straights share 3.00 less 0.01
    rake; the log pays ``paid`` (seat, amount)."""
    hole = {3: "5c6cJcQc", 1: "5d6dJsQs", 2: "5h6hJhQh"}
    actions = [
        post(3, "small", "0.50"),
        post(1, "big", "1.00"),
        *_deals(hole),
        call(2, "1.00"),
        call(3, "0.50"),
        check(1),
        *checked_streets([3, 1, 2]),
        *_shows(hole, 3, 1, 2),
    ]
    log = {
        "rake": "0.01",
        "total_pot": "3.00",
        "collected": [collected(seat, amount) for seat, amount in paid],
    }
    return _settle(actions, result=log, button=2)


def test_odd_chips_three_way_tie_go_one_each_from_the_first_seat_left_of_the_button() -> None:
    """R8.odd-chips: button on seat 2, so the order is 3, 1, 2. Pot 300 less 1 rake = 299
    among three tied straights: 99 each and two odd chips, to seats 3 and 1."""
    settlement = _three_way_tie((3, "1.00"), (1, "1.00"), (2, "0.99"))
    assert _shares(settlement) == [
        (0, 1, WHOLE, 1, 100),
        (0, 1, WHOLE, 2, 99),
        (0, 1, WHOLE, 3, 100),
    ]
    assert {"R8.high-split", "R8.odd-chips"} <= _rules_of(settlement, 0, 1, WHOLE, 3)
    assert settlement.violations == ()
    assert settlement.payouts_match is True


def test_odd_chips_paid_in_seat_number_order_break_the_odd_chip_rule() -> None:
    """R8.odd-chips: the same three-way tie paid with the odd chips to seats 1 and 2 (seat
    numbers) instead of 3 and 1 (left of the button): the mismatches cite the odd-chip
    rule, not the split's."""
    settlement = _three_way_tie((1, "1.00"), (2, "1.00"), (3, "0.99"))
    wrong = [(v.seat, v.rule) for v in settlement.violations]
    assert wrong == [(2, "R8.odd-chips"), (3, "R8.odd-chips")]
    rules = next(a.rules for a in settlement.awards if a.seat == 3)
    assert len(rules) == len(set(rules))  # each rule once


PLO8_A = {2: "7c6s7hAs", 3: "Ah2hKh2s"}
"""PokerStars worked example (A), hand #35875034981: UnderMeSensi (seat 2) and supermeXXX
(seat 3) on 5h4d2d Jd 6h: trips for seat 3, and both 6-5-4-2-A lows."""


def _plo8_a(result: Log | None = None) -> Settlement:
    actions = [
        post(6, "small", "0.01"),
        post(2, "big", "0.02"),
        deal(5, "Qh6cTh9c"),
        raise_to(3, "0.06"),
        call(5, "0.06"),
        fold(6),
        call(2, "0.04"),
        board("5h4d2d"),
        check(2),
        bet(3, "0.10"),
        fold(5),
        call(2, "0.10"),
        board("Jd"),
        check(2),
        check(3),
        board("6h"),
        check(2),
        check(3),
        *_shows(PLO8_A, 2, 3),
    ]
    return _settle(
        actions,
        result=result,
        variant="omaha-hilo",
        seats=[2, 3, 5, 6],
        button=5,
        small_blind="0.01",
        big_blind="0.02",
        stacks=["3.52", "1.19", "2.84", "5.00"],
    )


def test_odd_chips_quartered_low_the_pokerstars_example() -> None:
    """R8.odd-chips, R8.hi-lo: pot 0.39: the high half gets the odd cent (0.20 to seat 3);
    the tied lows split 0.19 as 0.10 to seat 2 (first left of the button 5, seat 6 folded)
    and 0.09 to seat 3. The log's three collection lines reconcile."""
    log = {
        "rake": "0",
        "total_pot": "0.39",
        "collected": [collected(3, "0.20"), collected(2, "0.10"), collected(3, "0.09")],
    }
    settlement = _plo8_a(log)
    assert _shares(settlement) == [
        (0, 1, HIGH, 3, 20),
        (0, 1, LOW, 2, 10),
        (0, 1, LOW, 3, 9),
    ]
    assert "R8.odd-chips" in _rules_of(settlement, 0, 1, HIGH, 3)
    assert "R8.odd-chips" in _rules_of(settlement, 0, 1, LOW, 2)
    assert settlement.won == {3: 29, 2: 10}
    assert settlement.violations == ()
    assert settlement.payouts_match is True


def test_odd_chips_tied_lows_follow_the_button_not_the_seat_numbers() -> None:
    """R8.odd-chips: button on seat 1, so the order is 2, 3, 1. Pot 300 less 1 rake = 299:
    high 150 (odd chip) to seat 2's trip kings; the low 149 between the tied 7-4-3-2-A of
    seats 3 and 1: 75 to seat 3 (before seat 1 in the order), 74 to seat 1."""
    hole = {1: "Ah3hQcJc", 2: "KcKsTcTh", 3: "Ad3cQsJs"}
    actions = [
        post(2, "small", "0.50"),
        post(3, "big", "1.00"),
        *_deals(hole),
        call(1, "1.00"),
        call(2, "0.50"),
        check(3),
        *checked_streets([2, 3, 1], ("2c4d7h", "9s", "Kd")),
        *_shows(hole, 2, 3, 1),
    ]
    log = {
        "rake": "0.01",
        "total_pot": "3.00",
        "collected": [collected(2, "1.50"), collected(3, "0.75"), collected(1, "0.74")],
    }
    settlement = _settle(actions, result=log, variant="omaha-hilo", button=1)
    assert _shares(settlement) == [
        (0, 1, HIGH, 2, 150),
        (0, 1, LOW, 1, 74),
        (0, 1, LOW, 3, 75),
    ]
    assert settlement.payouts_match is True


def test_odd_chips_option_left_of_button_gives_the_halving_odd_chip_by_seat_order() -> None:
    """R8.odd-chips **option** ``odd_chips="left-of-button"``: the odd chip left by halving
    a hi/lo pot goes, like every odd chip, to the first winner left of the button. Button on
    seat 1 (order 2, 3, 1); 299 after rake: seat 3's trip kings take the high, seat 2's
    7-4-3-2-A the low. Default: high 150, low 149; by seat order seat 2 comes first: 150."""
    hole = {2: "Ah3hQcJc", 3: "KcKsTcTh", 1: "9d9c5s5h"}
    actions = [
        post(2, "small", "0.50"),
        post(3, "big", "1.00"),
        *_deals(hole),
        call(1, "1.00"),
        call(2, "0.50"),
        check(3),
        *checked_streets([2, 3, 1], ("2c4d7h", "9s", "Kd")),
        *_shows(hole, 2, 3, 1),
    ]
    log: Json = {"rake": "0.01"}
    default = _settle(actions, result=log, variant="omaha-hilo", button=1)
    assert _shares(default) == [(0, 1, HIGH, 3, 150), (0, 1, LOW, 2, 149)]
    rules = replace(STANDARD, odd_chips="left-of-button")
    by_seat = _settle(actions, result=log, rules=rules, variant="omaha-hilo", button=1)
    assert _shares(by_seat) == [(0, 1, HIGH, 3, 149), (0, 1, LOW, 2, 150)]


def test_odd_chips_in_the_smallest_unit_of_a_tournament() -> None:
    """R8.odd-chips, R9.exact: chips of unit 1: pot 25 (seat 1 folds its 5-chip small blind)
    between the tied straights of seats 2 and 3: 13 to seat 2 (first left of the button
    among them), 12 to seat 3; no fraction of a chip anywhere."""
    hole = {2: "5d6dJsQs", 3: "5h6hJhQh"}
    actions = [
        post(1, "small", "5"),
        post(2, "big", "10"),
        *_deals(hole),
        call(3, "10"),
        fold(1),
        check(2),
        *checked_streets([2, 3]),
        *_shows(hole, 2, 3),
    ]
    settlement = _settle(actions, unit="1", small_blind="5", big_blind="10", stacks="1000")
    assert _shares(settlement) == [(0, 1, WHOLE, 2, 13), (0, 1, WHOLE, 3, 12)]
    assert all(isinstance(a.amount, int) for a in settlement.awards)
    assert settlement.final_stacks == {1: 995, 2: 1003, 3: 1002}


# ---------------------------------------------------------------------------- R8.hi-lo

NUT_NUT = {1: "AdKd3s2s", 2: "Ac2c9h9c", 3: "KcKh8c8d"}
"""Seed 000's example: A♦K♦3♠2♠ on J♦4♦3♣Q♦5♥ (the seed's 3f is the 3 of clubs, 5c the 5
of hearts): the ace-high flush (RULES.md §10: not a straight flush) and the wheel. Seat 2's
second A-2 makes the wheel too (and only a five-high straight); seat 3 has a pair of kings."""


def _nut_nut(hole: dict[int, str] = NUT_NUT) -> Settlement:
    return _settle(
        [
            *blinds(),
            *_deals(hole),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3], ("Jd4d3c", "Qd", "5h")),
            *_shows(hole, 1, 2, 3),
        ],
        variant="omaha-hilo",
    )


def test_hilo_nut_nut_with_a_second_ace_deuce_wins_three_quarters() -> None:
    """R8.hi-lo [000]: seat 1 has the nut high and shares the nut low with seat 2's A-2:
    high half 150 + half the low half 75 = 225, three quarters of the 300 pot."""
    settlement = _nut_nut()
    assert _shares(settlement) == [
        (0, 1, HIGH, 1, 150),
        (0, 1, LOW, 1, 75),
        (0, 1, LOW, 2, 75),
    ]
    assert settlement.won == {1: 225, 2: 75}
    assert 4 * settlement.won[1] == 3 * settlement.pots[0].amount
    assert "R8.hi-lo" in _rules_of(settlement, 0, 1, LOW, 2)


def test_hilo_high_and_low_use_different_cards() -> None:
    """R8.hi-lo, R6.hi-lo-separate: the flush uses A♦K♦ + J♦Q♦4♦, the wheel A♦2♠ + 3♣4♦5♥."""
    settlement = _nut_nut()
    high = next(a for a in settlement.awards if a.half is Half.HIGH)
    low = next(a for a in settlement.awards if a.half is Half.LOW and a.seat == 1)
    assert high.description == "flush, Ace high"
    assert set(high.cards_used) == set(parse_cards("AdKdJdQd4d"))
    assert low.description == "5-4-3-2-A low"
    assert set(low.cards_used) == set(parse_cards("Ad2s3c4d5h"))


def test_hilo_one_player_wins_both_halves_scoop() -> None:
    """R8.hi-lo: without the second A-2 (seat 2 holds 9-9-T-T: no low), seat 1 scoops:
    the high half and the low half, 150 + 150."""
    settlement = _nut_nut({**NUT_NUT, 2: "9h9cTsTc"})
    assert _shares(settlement) == [(0, 1, HIGH, 1, 150), (0, 1, LOW, 1, 150)]
    assert settlement.won == {1: 300}


def test_hilo_no_qualifying_low_the_best_high_takes_the_whole_pot() -> None:
    """R8.hi-lo: on Kc9sQd Jc 2h only one board card is 8 or lower, so nobody has a low and
    the best high takes the whole pot: seat 3's T-J + 9-Q-K straight beats seat 1's kings
    and queens and seat 2's king high."""
    actions = [*LIMPED, *_deals(HOLE), *checked_streets([1, 2, 3], ("Kc9sQd", "Jc", "2h"))]
    settlement = _settle(
        [*actions, *_shows(HOLE, 1, 2, 3)],
        variant="omaha-hilo",
    )
    assert _shares(settlement) == [(0, 1, WHOLE, 3, 300)]
    assert settlement.low_hands == {}
    assert "R8.hi-lo" in _rules_of(settlement, 0, 1, WHOLE, 3)


SIDE_LOW_HOLE = {1: "As3sQhQd", 2: "KcKsThTc", 3: "3h6h8c8d"}
"""On 2c4d7h 9s Kd: seat 1 (all-in) the best low 7-4-3-2-A and a pair of queens; seat 2 trip
kings and no low; seat 3 the low 7-6-4-3-2 and a pair of eights."""


def test_hilo_side_pot_low_goes_only_to_that_pots_players() -> None:
    """R8.side-pots, R8.hi-lo: main 30.00: high 15.00 to seat 2, low 15.00 to seat 1. The side
    pot's low goes to seat 3's worse low: seat 1 is not in that pot."""
    settlement = _settle(
        _side_actions(SIDE_LOW_HOLE, *_shows(SIDE_LOW_HOLE, 1, 2, 3), flop="2c4d7h"),
        stacks=SIDE_STACKS,
        variant="omaha-hilo",
    )
    assert _shares(settlement) == [
        (0, 1, HIGH, 2, 1500),
        (0, 1, LOW, 1, 1500),
        (1, 1, HIGH, 2, 1300),
        (1, 1, LOW, 3, 1300),
    ]
    assert settlement.won == {1: 1500, 2: 2800, 3: 1300}


def test_hilo_side_pot_without_a_low_among_its_players_goes_whole_to_the_high() -> None:
    """R8.side-pots, R8.hi-lo: seat 3 now has no low (8c8dJhJc): the only low in the hand is
    seat 1's, outside the side pot, so seat 2's high takes the whole side pot (26.00)."""
    hole = {**SIDE_LOW_HOLE, 3: "8c8dJhJc"}
    settlement = _settle(
        _side_actions(hole, *_shows(hole, 1, 2, 3), flop="2c4d7h"),
        stacks=SIDE_STACKS,
        variant="omaha-hilo",
    )
    assert _shares(settlement) == [
        (0, 1, HIGH, 2, 1500),
        (0, 1, LOW, 1, 1500),
        (1, 1, WHOLE, 2, 2600),
    ]


THREE_ALL_INS = {1: "KcKdQhJh", 2: "9h9dThJc", 3: "As3hQdQc", 4: "Ac5cJdJs", 5: "3d6d8c8h"}
"""On Ks7d2c 4h 9s: seat 1 trip kings, seat 2 trip nines, no low for either; lows: seat 3
7-4-3-2-A, seat 4 7-5-4-2-A, seat 5 7-6-4-3-2 (best to worst)."""


def _three_all_ins(result: Log | None = None, rules: RuleSet = STANDARD) -> Settlement:
    """No limit, 5 seats: seats 3, 4, 5 all-in pre-flop for 10, 20, 30; seats 1 and 2 call
    30 and bet 20 more on the flop. Pots: main 5 x 10 = 50.00 (everyone), side 1 4 x 10 =
    40.00 (1, 2, 4, 5), side 2 3 x 10 = 30.00 (1, 2, 5), side 3 2 x 20 = 40.00 (1, 2)."""
    return _settle(
        [
            *blinds(),
            *_deals(THREE_ALL_INS),
            raise_to(3, "10.00", all_in=True),
            raise_to(4, "20.00", all_in=True),
            raise_to(5, "30.00", all_in=True),
            call(1, "29.50"),
            call(2, "29.00"),
            board("Ks7d2c"),
            bet(1, "20.00"),
            call(2, "20.00"),
            *checked_streets([1, 2], ("4h", "9s")),
            *_shows(THREE_ALL_INS, 1, 2, 3, 4, 5),
        ],
        result=result,
        rules=rules,
        variant="omaha-hilo",
        betting="no-limit",
        seats=5,
        stacks=["100.00", "100.00", "10.00", "20.00", "30.00"],
    )


def test_hilo_three_all_ins_make_three_side_pots_each_split_hi_lo() -> None:
    """R8.side-pots, R8.hi-lo: seat 1's kings take every high half; each pot's low goes to the
    best low among its own players (3, then 4, then 5); the last side pot (seats 1, 2, no
    low) goes whole to seat 1."""
    settlement = _three_all_ins()
    assert [(p.amount, p.eligible) for p in settlement.pots] == [
        (5000, (1, 2, 3, 4, 5)),
        (4000, (1, 2, 4, 5)),
        (3000, (1, 2, 5)),
        (4000, (1, 2)),
    ]
    assert _shares(settlement) == [
        (0, 1, HIGH, 1, 2500),
        (0, 1, LOW, 3, 2500),
        (1, 1, HIGH, 1, 2000),
        (1, 1, LOW, 4, 2000),
        (2, 1, HIGH, 1, 1500),
        (2, 1, LOW, 5, 1500),
        (3, 1, WHOLE, 1, 4000),
    ]
    assert settlement.final_stacks == {1: 15000, 2: 5000, 3: 2500, 4: 2000, 5: 1500}
    for pot in (1, 2, 3):
        assert "R8.side-pots" in {r for a in settlement.awards if a.pot == pot for r in a.rules}


# ---------------------------------------------------------------------------- R8.rake-allocation


def _side_with_log(rake: str, pots: list[str] | None, rules: RuleSet = STANDARD) -> Settlement:
    """The side-pot hand (main 30.00 to seat 1, side 26.00 to seat 2) with a rake: the log's
    collections are whatever we pay, so only the allocation is under test."""
    log: Json = {"rake": rake} if pots is None else {"rake": rake, "pots": pots}
    return _settle(
        _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)),
        result=log,
        rules=rules,
        stacks=SIDE_STACKS,
    )


def test_rake_allocation_proportional_with_the_remainder_to_the_main_pot() -> None:
    """R8.rake-allocation (default ``proportional``): rake 7 over 3000 / 2600: 7*3000//5600 =
    3 and 7*2600//5600 = 3, the remaining 1 to the main pot: 4 and 3."""
    settlement = _side_with_log("0.07", None)
    assert [p.rake for p in settlement.pots] == [4, 3]
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 2996), (1, 1, WHOLE, 2, 2597)]
    assert settlement.rake == 7


def test_rake_allocation_main_pot_first_option() -> None:
    """R8.rake-allocation **option** ``main-pot-first``: all 7 from the main pot."""
    settlement = _side_with_log("0.07", None, rules=MAIN_POT_FIRST)
    assert [p.rake for p in settlement.pots] == [7, 0]
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 2993), (1, 1, WHOLE, 2, 2600)]


def test_rake_allocation_the_logs_pot_listing_decides() -> None:
    """R8.rake-allocation: the log lists the pots after rake (29.98 / 25.95: 2 and 5 of the 7),
    which neither policy would give; the listing decides, under either policy."""
    for rules in (STANDARD, MAIN_POT_FIRST):
        settlement = _side_with_log("0.07", ["29.98", "25.95"], rules=rules)
        assert [p.rake for p in settlement.pots] == [2, 5]
        assert _shares(settlement) == [(0, 1, WHOLE, 1, 2998), (1, 1, WHOLE, 2, 2595)]


def test_rake_allocation_spreads_over_every_pot_of_three_side_pots() -> None:
    """R8.rake-allocation, R8.hi-lo: rake 7 over 5000/4000/3000/4000 (16000): 2, 1, 1, 1 and
    the remaining 2 to the main pot: 4, 1, 1, 1. Each net pot is then halved, the odd
    chip high: main 4996 = 2498 + 2498; side 1 3999 = 2000 + 1999; side 2 2999 = 1500 +
    1499; side 3 3999 whole. Main-pot-first takes all 7 from the main pot: 4993 = 2497 + 2496."""
    settlement = _three_all_ins({"rake": "0.07"})
    assert [p.rake for p in settlement.pots] == [4, 1, 1, 1]
    assert _shares(settlement) == [
        (0, 1, HIGH, 1, 2498),
        (0, 1, LOW, 3, 2498),
        (1, 1, HIGH, 1, 2000),
        (1, 1, LOW, 4, 1999),
        (2, 1, HIGH, 1, 1500),
        (2, 1, LOW, 5, 1499),
        (3, 1, WHOLE, 1, 3999),
    ]
    first = _three_all_ins({"rake": "0.07"}, rules=MAIN_POT_FIRST)
    assert [p.rake for p in first.pots] == [7, 0, 0, 0]
    assert [s for s in _shares(first) if s[0] == 0] == [(0, 1, HIGH, 1, 2497), (0, 1, LOW, 3, 2496)]


@pytest.mark.parametrize(
    ("amounts", "rake", "policy", "listed", "expected"),
    [
        ([600, 300, 100], 30, "proportional", (), [18, 9, 3]),
        ([333, 333, 334], 10, "proportional", (), [4, 3, 3]),  # 3 + 3 + 3, remainder 1 to main
        ([100, 50], 7, "main-pot-first", (), [7, 0]),
        ([5, 100], 7, "main-pot-first", (), [5, 2]),  # spills into the next pot
        ([100, 50], 7, "proportional", (97, 46), [3, 4]),  # the listing decides
        ([100, 50], 7, "proportional", (97, 47), [5, 2]),  # a listing off by one is ignored
    ],
)
def test_allocate_rake(
    amounts: list[int], rake: int, policy: str, listed: tuple[int, ...], expected: list[int]
) -> None:
    """R8.rake-allocation: the shares of each policy, and a listing that adds up decides."""
    shares = allocate_rake(amounts, rake, listed=listed, policy=policy)
    assert shares == expected
    assert sum(shares) == rake


# ---------------------------------------------------------------------------- R8.run-it-twice

COURCHEVEL_HOLE = {4: "As4sKsAdQh", 3: "7d6dJhAh5s"}
"""PokerStars worked example (C), hand #97007286518: Hero (seat 4, big blind) and Player0
(seat 3, button and small blind) in Courchevel Hi/Lo, all-in on the flop 7h 5d 3s."""


def _courchevel(result: Log) -> Settlement:
    """The hand as the log has it: 4.00, 12.00, 36.00 pre-flop (each the pot-limit maximum
    after the first), Hero bets 71.50 on the flop, Player0 calls 45.75 all-in, 25.75 goes
    back. Pot 36 + 36 + 45.75 + 45.75 = 163.50; then two turns and rivers."""
    return _settle(
        [
            post(3, "small", "1.00"),
            post(4, "big", "2.00"),
            *_deals(COURCHEVEL_HOLE),
            board("7h"),
            raise_to(3, "4.00"),
            raise_to(4, "12.00"),
            raise_to(3, "36.00"),
            call(4, "24.00"),
            board("5d3s"),
            bet(4, "71.50"),
            call(3, "45.75", all_in=True),
            uncalled(4, "25.75"),
            board("7s", run=1),
            board("Ts", run=1),
            board("2s", run=2),
            board("4h", run=2),
            *_shows(COURCHEVEL_HOLE, 4, 3),
        ],
        result=result,
        variant="courchevel-hilo",
        seats=[3, 4],
        button=3,
        small_blind="1.00",
        big_blind="2.00",
        stacks=["81.75", "353.48"],
    )


def test_run_it_twice_hi_lo_each_board_split_separately_the_pokerstars_example() -> None:
    """R8.run-it-twice, R8.hi-lo, R8.odd-chips: 163.50 - 0.50 rake = 163.00, 81.50 a board.
    Board 1 (7h5d3s 7s Ts): Player0's full house high 40.75, Hero's 7-5-4-3-A low 40.75.
    Board 2 (7h5d3s 2s 4h): Player0's seven-high straight 40.75; both wheels split 40.75 as
    20.38 to Hero (first left of the button) and 20.37 to Player0."""
    log = {
        "rake": "0.50",
        "total_pot": "163.50",
        "collected": [
            collected(3, "40.75", run=1),
            collected(4, "40.75", run=1),
            collected(3, "40.75", run=2),
            collected(4, "20.38", run=2),
            collected(3, "20.37", run=2),
        ],
    }
    settlement = _courchevel(log)
    assert _shares(settlement) == [
        (0, 1, HIGH, 3, 4075),
        (0, 1, LOW, 4, 4075),
        (0, 2, HIGH, 3, 4075),
        (0, 2, LOW, 3, 2037),
        (0, 2, LOW, 4, 2038),
    ]
    assert {"R8.run-it-twice", "R8.hi-lo", "R8.odd-chips"} <= _rules_of(settlement, 0, 2, LOW, 4)
    assert settlement.won == {3: 10187, 4: 6113}  # the summary's 40.75 + 61.12 and 40.75 + 20.38
    assert settlement.final_stacks == {3: 10187, 4: 35348 - 8175 + 6113}
    assert settlement.violations == ()
    assert settlement.payouts_match is True


def test_run_it_twice_the_odd_cent_goes_to_the_first_runout() -> None:
    """R8.run-it-twice, R8.odd-chips: the same hand with 0.49 rake: 163.01 = 81.51 (board 1)
    + 81.50 (board 2). Board 1: high 40.76 (odd cent high), low 40.75. Board 2 as before:
    40.75, and 20.38 / 20.37 for the tied wheels."""
    log = {
        "rake": "0.49",
        "total_pot": "163.50",
        "collected": [
            collected(3, "40.76", run=1),
            collected(4, "40.75", run=1),
            collected(3, "40.75", run=2),
            collected(4, "20.38", run=2),
            collected(3, "20.37", run=2),
        ],
    }
    settlement = _courchevel(log)
    assert _shares(settlement) == [
        (0, 1, HIGH, 3, 4076),
        (0, 1, LOW, 4, 4075),
        (0, 2, HIGH, 3, 4075),
        (0, 2, LOW, 3, 2037),
        (0, 2, LOW, 4, 2038),
    ]
    assert "R8.odd-chips" in _rules_of(settlement, 0, 1, HIGH, 3)
    assert settlement.payouts_match is True


def test_run_it_three_times_odd_chips_to_the_earlier_runouts() -> None:
    """R8.run-it-twice: heads-up all-in pre-flop for 100.00 each, run three times: 20000 =
    6667 + 6667 + 6666. Board 1 (2s3dQc Jd 4h): seat 1's aces; board 2 (6s5cJh 2d 9s):
    seat 2's nine-high straight; board 3 (Ts9c2c 3h Qs): seat 2's tens and nines."""
    hole = {1: "AhAdKcKs", 2: "7c8c9hTh"}
    actions = [
        post(2, "small", "0.50"),
        post(1, "big", "1.00"),
        *_deals(hole),
        raise_to(2, "100.00", all_in=True),
        call(1, "99.00", all_in=True),
        *[
            board(cards, run=run)
            for run, streets in enumerate(
                (("2s3dQc", "Jd", "4h"), ("6s5cJh", "2d", "9s"), ("Ts9c2c", "3h", "Qs")), 1
            )
            for cards in streets
        ],
        *_shows(hole, 2, 1),
    ]
    settlement = _settle(actions, seats=2, betting="no-limit")
    assert _shares(settlement) == [
        (0, 1, WHOLE, 1, 6667),
        (0, 2, WHOLE, 2, 6667),
        (0, 3, WHOLE, 2, 6666),
    ]
    assert settlement.final_stacks == {1: 6667, 2: 13333}


# ---------------------------------------------------------------------------- R4.round-end, R2.walk

WALK = [*blinds(), fold(3), fold(1), uncalled(2, "0.50")]
"""Everyone folds to the big blind: 0.50 of its 1.00 goes back uncalled."""


def test_uncontested_walk_pays_the_whole_pot_without_showdown() -> None:
    """R2.walk, R4.round-end: the big blind wins the 1.00 pot (its own 0.50 and the small
    blind's 0.50); nobody's cards are known and none are needed."""
    log = {"rake": "0", "total_pot": "1.00", "collected": [collected(2, "1.00")]}
    settlement = _settle(WALK, result=log)
    assert _shares(settlement) == [(0, 1, WHOLE, 2, 100)]
    assert settlement.awards[0].rules == ("R4.round-end",)
    assert settlement.final_stacks == {1: 9950, 2: 10050, 3: 10000}
    assert settlement.violations == ()
    assert settlement.payouts_match is True


def test_uncontested_after_a_river_bet_pays_the_whole_pot_less_rake() -> None:
    """R4.round-end, R4.uncalled: seat 1 bets 3.00 on the river, both fold; the bet comes back
    and seat 1 takes the 3.00 pot less the 0.03 rake, with its cards never shown."""
    actions = [
        *LIMPED,
        *checked_streets([1, 2, 3], ("2c3d4h", "9s")),
        board("Kd"),
        bet(1, "3.00"),
        fold(2),
        fold(3),
        uncalled(1, "3.00"),
    ]
    log = {"rake": "0.03", "total_pot": "3.00", "collected": [collected(1, "2.97")]}
    settlement = _settle(actions, result=log)
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 297)]
    assert settlement.final_stacks == {1: 10197, 2: 9900, 3: 9900}
    assert settlement.payouts_match is True


@pytest.mark.parametrize(
    ("changes", "paid"),
    [
        ({}, "5.97"),  # 3.00 - 0.03 + the 3.00 bet back
        ({"fees": [{"kind": "jackpot", "amount": "0.50"}]}, "5.47"),  # less a 0.50 jackpot
        ({"added": "5.00"}, "10.97"),  # plus 5.00 the site added
    ],
    ids=["rake", "jackpot-fee", "site-added"],
)
def test_an_uncalled_bet_in_the_collection_of_a_log_with_no_total_pot(
    changes: dict[str, object], paid: str
) -> None:
    """R4.uncalled, R9.conservation: seat 1's river bet of 3.00 is folded to and the log, with
    no uncalled-bet line and no total pot, pays it back inside the collection. What the site
    took (rake, fees) and added count as they do for the pot: the chips agree."""
    actions = [
        *LIMPED,
        *checked_streets([1, 2, 3], ("2c3d4h", "9s")),
        board("Kd"),
        bet(1, "3.00"),
        fold(2),
        fold(3),
    ]
    log = {"rake": "0.03", "collected": [collected(1, paid)], **changes}
    settlement = _settle(actions, result=log)
    assert settlement.violations == ()
    assert settlement.payouts_match is True


# ---------------------------------------------------------------------------- dead money


def test_dead_small_blind_is_in_the_main_pot_a_short_all_in_can_win() -> None:
    """R2.dead-blind, R8.side-pots: seat 3 posts both blinds (0.50 dead, 1.00 live) and raises
    to 5.00; seat 1 (the small blind, 5.00 stack) calls all-in, seat 2 calls; seats 2 and 3
    bet 10.00 more. Main pot 3 x 5.00 + 0.50 dead = 15.50, all to seat 1's straight; side
    pot 20.00 to seat 2's kings."""
    hole = {1: "5c6c7c8c", 2: "AhKhQhJh", 3: "8d9dTdJd", 4: "2s2h3s3h"}
    actions = [
        *blinds(),
        post(3, "both", "1.50"),
        *_deals(hole),
        raise_to(3, "5.00"),
        fold(4),
        call(1, "4.50", all_in=True),
        call(2, "4.00"),
        board("2c3d4h"),
        bet(2, "10.00"),
        call(3, "10.00"),
        *checked_streets([2, 3], ("9s", "Kd")),
        *_shows(hole, 1, 2, 3),
    ]
    settlement = _settle(
        actions, seats=4, betting="no-limit", stacks=["5.00", "100.00", "100.00", "100.00"]
    )
    assert [(p.amount, p.eligible) for p in settlement.pots] == [(1550, (1, 2, 3)), (2000, (2, 3))]
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 1550), (1, 1, WHOLE, 2, 2000)]


def test_a_player_all_in_on_a_dead_blind_alone_can_win_the_dead_money() -> None:
    """R2.dead-blind, R8.side-pots: seat 4 posts a dead 0.50 with its whole stack (no live
    chip); seats 1-3 put in 1.00 each and check down. Seat 4's kings win the 0.50 it put
    in; seat 2's two pair wins the 3.00 side pot (a pot of 3.50 with no place for seat 4
    gave it nothing, with no violation)."""
    hole = {1: "9s9h8s8h", 2: "2d3d4c4s", 3: "QhQdJhJd", 4: "AhAdKsKc"}
    actions = [
        *blinds(),
        post(4, "dead", "0.50", all_in=True),
        *_deals(hole),
        call(3, "1.00"),
        call(1, "0.50"),
        check(2),
        *checked_streets([1, 2, 3], ("Kh7d2c", "3s", "Tc")),
        *_shows(hole, 1, 2, 3, 4),
    ]
    settlement = _settle(
        actions, seats=4, betting="no-limit", stacks=["100.00", "100.00", "100.00", "0.50"]
    )
    assert [(p.amount, p.eligible) for p in settlement.pots] == [
        (50, (1, 2, 3, 4)),
        (300, (1, 2, 3)),
    ]
    assert _shares(settlement) == [(0, 1, WHOLE, 4, 50), (1, 1, WHOLE, 2, 300)]


ANTE_HOLE = {1: "AhKhQhJh", 2: "8d9dTdJd", 3: "5c6c7c8c"}
"""Seat 1 a pair of kings, seat 2 a pair of nines, seat 3 the straight (on 2c3d4h 9s Kd)."""


def _ante_hand(seat3_ante: str) -> Settlement:
    """Antes of 0.10; seat 3 has only ``seat3_ante`` and is all-in on it; seats 1 and 2 limp
    and check down (2.00 of live money)."""
    return _settle(
        [
            post(1, "ante", "0.10"),
            post(2, "ante", "0.10"),
            post(3, "ante", seat3_ante, all_in=True),
            *blinds(),
            *_deals(ANTE_HOLE),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2]),
            *_shows(ANTE_HOLE, 1, 2, 3),
        ],
        ante="0.10",
        stacks=["100.00", "100.00", seat3_ante],
    )


def test_antes_are_dead_money_a_player_all_in_on_the_ante_can_win() -> None:
    """R2.antes, R8.side-pots: seat 3, all-in on its 0.10 ante, wins the main pot of the three
    antes (0.30); the 2.00 side pot goes to seat 1's kings."""
    settlement = _ante_hand("0.10")
    assert [(p.amount, p.eligible) for p in settlement.pots] == [(30, (1, 2, 3)), (200, (1, 2))]
    assert _shares(settlement) == [(0, 1, WHOLE, 3, 30), (1, 1, WHOLE, 1, 200)]
    assert settlement.final_stacks == {1: 9890 + 200, 2: 9890, 3: 30}


def test_antes_a_player_all_in_for_part_of_the_ante_wins_only_what_it_matched() -> None:
    """R8.side-pots, R2.antes: seat 3 has 0.05 of the 0.10 ante: it matched 0.05 of each
    ante, so it can win 3 x 0.05 = 0.15; the other 0.10 of antes and the 2.00 go to seat 1."""
    settlement = _ante_hand("0.05")
    assert _shares(settlement) == [(0, 1, WHOLE, 3, 15), (1, 1, WHOLE, 1, 210)]


@pytest.mark.parametrize(
    ("invested", "folded", "dead", "expected"),
    [
        # the all-in player's 50 caps the main pot; the folder's 30 is below it
        ([50, 100, 100, 30], [False, False, False, True], [], [(180, (0, 1, 2)), (100, (1, 2))]),
        # a folder's chips above the top level join the last pot
        ([40, 100, 100, 120], [False, False, False, True], [], [(160, (0, 1, 2)), (200, (1, 2))]),
        # a dead blind belongs to the main pot
        ([150, 100], [False, False], [50, 0], [(250, (0, 1))]),
        # everyone's ante in a pot of its own when one player is all-in on the ante alone
        ([10, 110, 110], [False, False, False], [10, 10, 10], [(30, (0, 1, 2)), (200, (1, 2))]),
    ],
)
def test_build_pots(
    invested: list[int],
    folded: list[bool],
    dead: list[int],
    expected: list[tuple[int, tuple[int, ...]]],
) -> None:
    """R8.side-pots, R2.antes, R2.dead-blind: pots and who may win each (player indices).

    In these cases dead money is antes when everyone posted the same (the last case), a
    dead blind otherwise.
    """
    antes = dead if dead and len(set(dead)) == 1 else []
    pots = build_pots(invested, folded, dead, antes)
    assert pots == expected
    assert sum(amount for amount, _ in pots) == sum(invested)


def test_split_evenly_shares_differ_by_at_most_one_larger_first() -> None:
    """R8.odd-chips, R9.exact: shares in whole units, the odd ones first."""
    assert split_evenly(299, 3) == [100, 100, 99]
    assert split_evenly(8151, 2) == [4076, 4075]
    assert split_evenly(0, 2) == [0, 0]


# ---------------------------------------------------------------------------- reconciliation

CLEAN_LOG: Json = {"rake": "0.03", "total_pot": "3.00", "collected": [collected(2, "2.97")]}
"""What the site logs for the limped hand: seat 2's straight takes 3.00 less 0.03 rake."""


def _limped_log(**changes: object) -> Settlement:
    return _settle(_limped_showdown(*_shows(HOLE, 1, 2, 3)), result={**CLEAN_LOG, **changes})


def test_reconcile_a_clean_log_matches() -> None:
    """R9.conservation: the log agrees with the rules to the cent."""
    settlement = _limped_log()
    assert settlement.violations == ()
    assert settlement.payouts_match is True
    assert settlement.won == {2: 297}
    assert sum(settlement.final_stacks.values()) + settlement.rake == 30000


def test_reconcile_a_wrong_collection_is_payout_mismatch_with_both_figures() -> None:
    """R8.best-hand: the log pays seat 2 only 2.96: expected (ours) 2.97, actual (the log's)
    2.96; the cent gone missing also breaks R9.conservation."""
    settlement = _limped_log(collected=[collected(2, "2.96")])
    assert _codes(settlement) == ["payout-mismatch", "chips-not-conserved"]
    payout, chips = settlement.violations
    assert (payout.seat, payout.expected, payout.actual) == (2, "2.97", "2.96")
    assert (chips.expected, chips.actual) == ("3.00", "2.99")
    assert settlement.payouts_match is False


def test_reconcile_pots_listed_and_collected_by_nobody_are_chips_not_conserved() -> None:
    """R9.conservation: the log lists the pot after rake (2.97) and pays it to nobody; a log
    that records the rake alone (no pots, no collections) has nothing to compare."""
    settlement = _limped_log(pots=["2.97"], collected=[])
    assert _codes(settlement) == ["chips-not-conserved"]
    (chips,) = settlement.violations
    assert (chips.expected, chips.actual) == ("2.97", "0.00")
    assert settlement.payouts_match is False
    unrecorded = _limped_log(collected=[])
    assert (unrecorded.violations, unrecorded.payouts_match) == ((), None)


def test_reconcile_a_collection_by_the_wrong_seat_is_payout_mismatch_for_both_seats() -> None:
    """R8.best-hand: the log pays seat 1 what seat 2 won."""
    settlement = _limped_log(collected=[collected(1, "2.97")])
    assert sorted((v.code, v.seat, v.expected, v.actual) for v in settlement.violations) == [
        (Code.PAYOUT_MISMATCH, 1, "0.00", "2.97"),
        (Code.PAYOUT_MISMATCH, 2, "2.97", "0.00"),
    ]


def test_reconcile_a_total_pot_mismatch_is_pot_mismatch() -> None:
    """R8.side-pots: the log's total pot 3.50 is not what the actions put in (3.00)."""
    settlement = _limped_log(total_pot="3.50")
    assert _codes(settlement) == ["pot-mismatch"]
    assert (settlement.violations[0].expected, settlement.violations[0].actual) == ("3.00", "3.50")
    assert settlement.payouts_match is False


def test_reconcile_a_wrong_rake_is_rake_mismatch() -> None:
    """R8.rake-allocation, R9.conservation: the log says rake 0.04 but lists the pot after
    rake as 2.97 (a rake of 0.03): the listing does not add up, so the rule allocates 0.04
    (net 2.96) and reports the difference."""
    settlement = _limped_log(rake="0.04", pots=["2.97"])
    assert "rake-mismatch" in _codes(settlement)
    rake = next(v for v in settlement.violations if v.code is Code.RAKE_MISMATCH)
    assert (rake.expected, rake.actual) == ("2.96", "2.97")
    assert rake.rule == "R9.conservation"  # 2.97 + 0.04 is more than the 3.00 put in
    assert settlement.payouts_match is False


def test_reconcile_pots_that_add_up_but_are_the_wrong_pots_break_the_side_pot_rule() -> None:
    """R8.side-pots: the log lists 26.00 / 30.00 for the 30.00 / 26.00 pots. The chips add up
    (rake 0), so the fault is the pots, not the rake's spread nor conservation."""
    settlement = _settle(
        _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)),
        result={
            "rake": "0",
            "total_pot": "56.00",
            "pots": ["26.00", "30.00"],
            "collected": [collected(1, "30.00"), collected(2, "26.00", pot=1)],
        },
        stacks=SIDE_STACKS,
    )
    (listing,) = [v for v in settlement.violations if v.code is Code.RAKE_MISMATCH]
    assert (listing.expected, listing.actual, listing.rule) == (
        "30.00 / 26.00",
        "26.00 / 30.00",
        "R8.side-pots",
    )


def test_reconcile_a_log_that_pays_each_seat_without_naming_pots_matches_when_totals_do() -> None:
    """A log that pays each seat its total without naming the pots (PHH winnings, say)
    matches when every total is right: it does not say which pot paid what, so no pot is
    wrong. Wrong totals are still mismatches."""
    result = {"rake": "0", "collected": [collected(1, "30.00"), collected(2, "26.00")]}
    hand = _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3))
    settlement = _settle(hand, result=result, stacks=SIDE_STACKS)
    assert len(settlement.pots) == 2
    assert settlement.violations == () and settlement.payouts_match is True
    wrong = {"rake": "0", "collected": [collected(1, "26.00"), collected(2, "30.00")]}
    settlement = _settle(hand, result=wrong, stacks=SIDE_STACKS)
    assert "payout-mismatch" in _codes(settlement) and settlement.payouts_match is False
    listed = {**result, "pots": ["30.00", "26.00"]}  # it lists two pots and pays from pot 0
    settlement = _settle(hand, result=listed, stacks=SIDE_STACKS)
    mismatches = [v for v in settlement.violations if v.code is Code.PAYOUT_MISMATCH]
    assert [(v.seat, v.rule) for v in mismatches] == [(2, "R8.side-pots"), (2, "R8.side-pots")]


def test_reconcile_an_all_in_paid_a_side_pot_it_cannot_win_breaks_the_side_pot_rule() -> None:
    """R8.side-pots: seat 1, all-in for 10.00, is paid both pots (56.00): more than the 30.00
    it can win, so the rule broken is the side pots', not the best hand's."""
    settlement = _settle(
        _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)),
        result={"rake": "0", "total_pot": "56.00", "collected": [collected(1, "56.00")]},
        stacks=SIDE_STACKS,
    )
    rules = {v.seat: v.rule for v in settlement.violations if v.code is Code.PAYOUT_MISMATCH}
    assert rules == {1: "R8.side-pots", 2: "R8.side-pots"}  # seat 2 won the side pot by it


def test_reconcile_a_rake_above_the_pot_is_rake_mismatch() -> None:
    """R9.conservation: a rake of 3.50 out of a 3.00 pot."""
    settlement = _limped_log(rake="3.50", collected=[])
    rake = next(v for v in settlement.violations if v.code is Code.RAKE_MISMATCH)
    assert (rake.expected, rake.actual) == ("at most 3.00", "3.50")


def test_a_rake_above_the_pot_never_makes_the_rules_pay_less_than_nothing() -> None:
    """R9.conservation: the log's rake 3.50 out of a 3.00 pot, and seat 2 collects 2.97. The
    rules take what the pot holds (3.00), pay nobody a negative amount, and report the
    collection, the rake and the chips that appear."""
    settlement = _limped_log(rake="3.50")
    assert [(p.amount, p.rake) for p in settlement.pots] == [(300, 300)]
    assert all(a.amount >= 0 for a in settlement.awards)
    assert all(w >= 0 for w in settlement.won.values())
    payout = next(v for v in settlement.violations if v.code is Code.PAYOUT_MISMATCH)
    assert (payout.seat, payout.expected, payout.actual) == (2, "0.00", "2.97")
    assert "chips-not-conserved" in _codes(settlement)


def test_rake_and_fees_above_the_pot_are_reported_even_with_no_payout_logged() -> None:
    """R9.conservation: rake 1.50 and a 2.00 jackpot fee out of a 3.00 pot, nothing
    collected: the site took more than the pot, so the payouts cannot match."""
    settlement = _limped_log(
        rake="1.50", fees=[{"kind": "jackpot", "amount": "2.00"}], collected=[]
    )
    rake = next(v for v in settlement.violations if v.code is Code.RAKE_MISMATCH)
    assert (rake.expected, rake.actual, rake.rule) == (
        "at most 3.00 in all",
        "3.50",
        "R9.conservation",
    )
    assert settlement.payouts_match is False


def test_a_pot_with_site_money_paid_to_the_wrong_player_cites_the_best_hand() -> None:
    """R8.best-hand: the site adds 1.00 to the 3.00 pot and the log pays all 3.97 to seat 1,
    whose hand loses: no side pot is involved (the added money is part of the pot)."""
    settlement = _limped_log(added="1.00", collected=[collected(1, "3.97")])
    rules = {v.seat: v.rule for v in settlement.violations if v.code is Code.PAYOUT_MISMATCH}
    assert rules[1] == "R8.best-hand"


def test_the_rake_remainder_never_takes_more_than_a_pot_holds() -> None:
    """R8.rake-allocation: 6 over pots of 1, 3 and 3: floors 0, 2, 2 and a remainder of 2,
    which the main pot (1) cannot hold all of: 1, 3, 2."""
    assert allocate_rake([1, 3, 3], 6) == [1, 3, 2]
    assert allocate_rake([1, 3, 3], 7) == [1, 3, 3]


def test_reconcile_a_pot_listing_of_the_wrong_length_is_pot_mismatch() -> None:
    """R8.side-pots: the side-pot hand has two pots; a log listing one is a pot-mismatch."""
    settlement = _settle(
        _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)),
        result={
            "rake": "0",
            "total_pot": "56.00",
            "pots": ["56.00"],
            "collected": [collected(1, "30.00"), collected(2, "26.00", pot=1)],
        },
        stacks=SIDE_STACKS,
    )
    assert _codes(settlement) == ["pot-mismatch"]


def test_reconcile_chips_not_conserved() -> None:
    """R9.conservation: collections and rake are right, but the log also records a 0.01
    jackpot fee the pot never had: 3.00 in, 2.97 + 0.03 + 0.01 out."""
    settlement = _limped_log(fees=[{"kind": "jackpot", "amount": "0.01"}])
    # the fee comes out of the pot, so the rules pay 2.96, and the log's numbers do not add up
    assert _codes(settlement) == ["payout-mismatch", "chips-not-conserved"]
    mismatch, chips = settlement.violations
    assert (mismatch.expected, mismatch.actual) == ("2.96", "2.97")
    assert (chips.expected, chips.actual) == ("3.00", "3.01")
    assert chips.rule == "R9.conservation"


def test_reconcile_a_final_stack_mismatch_is_payout_mismatch() -> None:
    """R9.conservation: collections right, but the log's final stack for seat 2 is 102.00;
    the rules leave 100.00 - 1.00 + 2.97 = 101.97."""
    finals = [
        {"seat": 1, "amount": "99.00"},
        {"seat": 2, "amount": "102.00"},
        {"seat": 3, "amount": "99.00"},
    ]
    settlement = _limped_log(final_stacks=finals)
    assert _codes(settlement) == ["payout-mismatch"]
    (payout,) = settlement.violations
    assert (payout.seat, payout.expected, payout.actual) == (2, "101.97", "102.00")


def test_reconcile_final_stacks_that_agree_add_nothing() -> None:
    """R9.conservation: collections and final stacks (PHH style) both right."""
    finals = [
        {"seat": 1, "amount": "99.00"},
        {"seat": 2, "amount": "101.97"},
        {"seat": 3, "amount": "99.00"},
    ]
    settlement = _limped_log(final_stacks=finals)
    assert settlement.violations == ()
    assert settlement.payouts_match is True


def test_reconcile_a_phh_style_log_with_final_stacks_only() -> None:
    """R9.conservation: PHH records finishing stacks, not collections. A correct one (starting
    300.00 = final 300.00 + rake 0) must reconcile clean; a wrong one is payout-mismatch."""
    right = [
        {"seat": 1, "amount": "99.50"},
        {"seat": 2, "amount": "100.50"},
        {"seat": 3, "amount": "100.00"},
    ]
    settlement = _settle(WALK, result={"rake": "0", "final_stacks": right})
    assert settlement.violations == ()
    assert settlement.payouts_match is True
    wrong = [{**right[0]}, {"seat": 2, "amount": "100.00"}, {"seat": 3, "amount": "100.50"}]
    settlement = _settle(WALK, result={"rake": "0", "final_stacks": wrong})
    assert sorted((v.code, v.seat, v.expected, v.actual) for v in settlement.violations) == [
        (Code.PAYOUT_MISMATCH, 2, "100.50", "100.00"),
        (Code.PAYOUT_MISMATCH, 3, "100.00", "100.50"),
    ]


def test_reconcile_a_collection_from_the_wrong_pot_is_payout_mismatch_naming_the_pot() -> None:
    """R8.side-pots: each seat's total is right (seat 1 30.00, seat 2 26.00) but the log has
    seat 1 collect from side pot 1 (which it is not in) and seat 2 from the main pot."""
    log = {
        "rake": "0",
        "total_pot": "56.00",
        "collected": [collected(1, "30.00", pot=1), collected(2, "26.00", pot=0)],
    }
    settlement = _settle(
        _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)), result=log, stacks=SIDE_STACKS
    )
    assert {str(v.code) for v in settlement.violations} == {"payout-mismatch"}
    named = {
        (v.seat, int(re.findall(r"from pot (\d+)", v.message)[0]), v.expected, v.actual)
        for v in settlement.violations
    }
    assert named == {
        (1, 0, "30.00", "0.00"),
        (2, 0, "0.00", "26.00"),
        (1, 1, "0.00", "30.00"),
        (2, 1, "26.00", "0.00"),
    }
    assert all(v.rule == "R8.side-pots" for v in settlement.violations)
    assert settlement.payouts_match is False


def _side_river_bet_folded_to(log: Log) -> Settlement:
    """The side-pot hand, but on the river seat 2 bets 20.00 and seat 3 folds: the log prints
    no uncalled-bet line. Main pot 30.00 to seat 1's straight; side pot 26.00 (seat 2 alone
    left in it) to seat 2; the 20.00 bet goes back to seat 2."""
    actions = _side_actions(SIDE_HOLE)[:-2]  # up to the river card
    actions += [bet(2, "20.00"), fold(3), *_shows(SIDE_HOLE, 1, 2)]
    return _settle(actions, result=log, stacks=SIDE_STACKS)


def test_reconcile_an_uncalled_bet_paid_in_a_side_pot_collection_matches() -> None:
    """R4.uncalled, R8.side-pots: a log with no uncalled-bet line that pays seat 2 its 20.00
    back inside its side-pot collection (46.00 from pot 1, total pot 76.00) pays every pot
    to the right seat: the return is bookkeeping, as in a one-pot hand, not a wrong pot."""
    log = {
        "rake": "0",
        "total_pot": "76.00",
        "collected": [collected(1, "30.00"), collected(2, "46.00", pot=1)],
    }
    settlement = _side_river_bet_folded_to(log)
    assert _shares(settlement) == [(0, 1, WHOLE, 1, 3000), (1, 1, WHOLE, 2, 2600)]
    assert settlement.violations == ()
    assert settlement.payouts_match is True


def test_reconcile_an_uncalled_bet_in_the_collections_still_checks_each_pot() -> None:
    """R8.side-pots: the same log with seat 2's 46.00 from the main pot and seat 1's 30.00
    from side pot 1 (which seat 1 is not in) is still wrong, pot by pot, though each seat's
    total is right."""
    log = {
        "rake": "0",
        "total_pot": "76.00",
        "collected": [collected(2, "46.00"), collected(1, "30.00", pot=1)],
    }
    settlement = _side_river_bet_folded_to(log)
    assert settlement.payouts_match is False
    assert {str(v.code) for v in settlement.violations} == {"payout-mismatch"}
    assert {(v.seat, v.rule) for v in settlement.violations} == {
        (1, "R8.side-pots"),
        (2, "R8.side-pots"),
    }


def test_reconcile_a_cancelled_hand_is_not_reconciled() -> None:
    """R3.misdeal: a cancelled (void) hand: no pots, no awards, stacks unchanged, and its
    log's collections are not a mismatch."""
    hand = with_result(
        build([*LIMPED], cancelled=True), {"rake": "0", "collected": [collected(1, "5.00")]}
    )
    judged = replay(hand)
    assert judged.status is Status.VOID
    settlement = settle(judged)
    assert settlement.awards == ()
    assert settlement.violations == ()
    assert settlement.payouts_match is None
    assert settlement.final_stacks == {1: 10000, 2: 10000, 3: 10000}
    assert settlement.complete is False


# ---------------------------------------------------------------------------- R9


def test_conservation_final_stacks_plus_rake_equal_the_starting_stacks() -> None:
    """R9.conservation: in each hand above with a rake, nothing appears or vanishes."""
    hands = [
        (_three_all_ins({"rake": "0.07"}), 26000),
        (_courchevel({"rake": "0.49"}), 8175 + 35348),
        (_plo8_a({"rake": "0"}), 352 + 119 + 284 + 500),
        (_limped_log(), 30000),
    ]
    for settlement, starting in hands:
        assert sum(settlement.final_stacks.values()) + settlement.rake == starting
        assert sum(a.amount for a in settlement.awards) == sum(p.net for p in settlement.pots)


@pytest.mark.parametrize(
    ("changes", "paid"),
    [
        ({"fees": [{"kind": "jackpot", "amount": "0.50"}]}, "2.47"),  # 3.00 - 0.03 - 0.50
        ({"added": "5.00"}, "7.97"),  # 3.00 - 0.03 + 5.00 (PokerStars STP, OHH Add to Pot)
    ],
    ids=["jackpot-fee", "site-added"],
)
def test_conservation_fees_and_added_money_change_what_the_pot_pays(
    changes: dict[str, object], paid: str
) -> None:
    """R9.conservation: starting - final = rake + fees - added. The site takes a jackpot fee
    from the pot (or adds money to it), so the winner collects the pot less rake and fees
    plus what was added, and that log reconciles."""
    settlement = _limped_log(collected=[collected(2, paid)], **changes)
    assert settlement.violations == ()
    assert settlement.payouts_match is True


def test_cash_out_reconciles_the_would_have_won_figure_not_the_cash_out() -> None:
    """R9.cash-out: seat 2 cashed out for 20.00 (fee 0.20); the log still records what it
    would have won (the side pot, 26.00), which is what reconciliation checks."""
    log = {
        "rake": "0",
        "total_pot": "56.00",
        "collected": [collected(1, "30.00"), collected(2, "26.00", pot=1)],
        "cash_outs": [{"seat": 2, "amount": "20.00", "fee": "0.20"}],
    }
    settlement = _settle(
        _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)), result=log, stacks=SIDE_STACKS
    )
    assert settlement.errors == ()
    assert settlement.payouts_match is True


def test_cash_out_a_wrong_would_have_won_figure_is_payout_mismatch() -> None:
    """R9.cash-out: the would-have-won figure must match the cards: 25.00 is not 26.00."""
    log = {
        "rake": "0",
        "total_pot": "56.00",
        "collected": [collected(1, "30.00"), collected(2, "25.00", pot=1)],
        "cash_outs": [{"seat": 2, "amount": "20.00", "fee": "0.20"}],
    }
    settlement = _settle(
        _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)), result=log, stacks=SIDE_STACKS
    )
    payout = next(v for v in settlement.violations if v.code is Code.PAYOUT_MISMATCH)
    assert (payout.seat, payout.expected, payout.actual) == (2, "26.00", "25.00")
    assert settlement.payouts_match is False


@pytest.mark.parametrize(
    ("seat_2_final", "matches"),
    [("97.00", True), ("77.00", False), ("103.00", False)],
    ids=["cash-out-paid", "nothing-paid", "share-paid-too"],
)
def test_cash_out_the_final_stack_of_the_seat_that_cashed_out_is_checked(
    seat_2_final: str, matches: bool
) -> None:
    """R9.cash-out: seat 2 (77.00 left after the betting) cashed out for 20.00, paid instead
    of its 26.00 share, so it finishes with 97.00. A log whose final stack for it says
    otherwise (nothing paid, or the share paid on top) does not match."""
    log = {
        "rake": "0",
        "final_stacks": [
            {"seat": 1, "amount": "30.00"},
            {"seat": 2, "amount": seat_2_final},
            {"seat": 3, "amount": "77.00"},
        ],
        "cash_outs": [{"seat": 2, "amount": "20.00", "fee": "0.20"}],
    }
    settlement = _settle(
        _side_actions(SIDE_HOLE, *_shows(SIDE_HOLE, 1, 2, 3)), result=log, stacks=SIDE_STACKS
    )
    assert settlement.final_stacks[2] == 9700
    assert settlement.payouts_match is matches
    if not matches:
        (payout,) = settlement.violations
        assert (payout.code, payout.seat) == (Code.PAYOUT_MISMATCH, 2)
        assert (payout.expected, payout.actual) == ("97.00", seat_2_final)
        assert payout.rule == "R9.cash-out"


CASHED_OUT_OF_A_SIDE_POT = "\n".join(
    [
        "PokerStars Hand #231645858339:  6 Card Omaha Pot Limit ($0.05/$0.10 USD) - "
        "2021/11/23 22:30:22 MSK [2021/11/23 14:30:22 ET]",
        "Table 'Aribeda IV' 6-max Seat #3 is the button",
        "Seat 1: Player0 ($49.76 in chips)",
        "Seat 2: Player1 ($6.32 in chips)",
        "Seat 3: Player2 ($17.49 in chips)",
        "Seat 5: Player3 ($1.45 in chips)",
        "Seat 6: Hero ($10 in chips)",
        "Player3: posts small blind $0.05",
        "Hero: posts big blind $0.10",
        "*** HOLE CARDS ***",
        "Dealt to Hero [Ac 6s Ts 4d 8d As]",
        "Player0: calls $0.10",
        "Player4 joins the table at seat #4",
        "Player1: folds",
        "Player2: raises $0.35 to $0.45",
        "Player3: raises $1 to $1.45 and is all-in",
        "Hero: raises $3.45 to $4.90",
        "Player0: calls $4.80",
        "Player2: calls $4.45",
        "*** FLOP *** [2s 9h 7d]",
        "Hero: bets $5.10 and is all-in",
        "Player0: calls $5.10",
        "Player2: folds",
        "*** TURN *** [2s 9h 7d] [8s]",
        "*** RIVER *** [2s 9h 7d 8s] [Th]",
        "*** SHOW DOWN ***",
        "Hero: shows [Ac 6s Ts 4d 8d As] (a straight, Six to Ten)",
        "Player0: shows [6c Qd Js Ad Kc 8c] (a straight, Eight to Queen)",
        "Player3: shows [Qs Jh 5s 7c 2d 8h] (a straight, Eight to Queen)",
        "Player3 collected $2.78 from main pot",
        "Player0 cashed out the hand for $6.63 | Cash Out Fee $0.07",
        "*** SUMMARY ***",
        "Total pot $26.35 Main pot $5.55. Side pot $19.68. | Rake $1.12",
        "Board [2s 9h 7d 8s Th]",
        "Seat 1: Player0 showed [6c Qd Js Ad Kc 8c] and won ($22.45) with a straight, "
        "Eight to Queen (pot not awarded as player cashed out)",
        "Seat 2: Player1 folded before Flop (didn't bet)",
        "Seat 3: Player2 (button) folded on the Flop",
        "Seat 5: Player3 (small blind) showed [Qs Jh 5s 7c 2d 8h] and won ($2.78) with a "
        "straight, Eight to Queen",
        "Seat 6: Hero (big blind) showed [Ac 6s Ts 4d 8d As] and lost with a straight, Six to Ten",
    ]
)
"""PokerStars hand #231645858339 (the corpus's cash-out), its cards changed so that Player3
ties Player0's queen-high straight: Player3 collects 2.78 of the main pot (the odd cent: it
sits first left of the button) and Player0, who cashed out, would have won 2.77 of it and
the 19.68 side pot. PokerStars prints no collection line for a seat that cashed out: its
would-have-won 22.45 is in the summary alone, which names no pot."""


def test_cash_out_a_would_have_won_figure_that_names_no_pot_is_not_a_wrong_pot() -> None:
    """R9.cash-out, R8.side-pots: the would-have-won figure is checked (22.45 = 2.77 + 19.68);
    the reader records it as collected from pot 0, for want of a pot, and that is no
    payout from the wrong pot while the other seats' collections name theirs."""
    (hand,) = parse_pokerstars_bytes(CASHED_OUT_OF_A_SIDE_POT.encode(), "cash-out")
    assert isinstance(hand, HandRecord)
    assert hand.result is not None
    assert [(c.seat, c.amount, c.pot) for c in hand.result.collected] == [
        (5, 278, 0),
        (1, 2245, 0),
    ]
    settlement = settle(replay(hand))
    assert _shares(settlement) == [
        (0, 1, WHOLE, 1, 277),
        (0, 1, WHOLE, 5, 278),
        (1, 1, WHOLE, 1, 1968),
    ]
    assert settlement.violations == ()
    assert settlement.payouts_match is True
    wrong = structs.replace(
        hand,
        result=structs.replace(
            hand.result,
            collected=(hand.result.collected[1], structs.replace(hand.result.collected[0], pot=1)),
        ),
    )  # Player3's 2.78 from the side pot, which it is not in: still a wrong pot
    assert settle(replay(wrong)).payouts_match is False


def _sample(hand_id: str) -> HandRecord:
    path = Path(__file__).resolve().parent.parent / "data" / "sample" / "special.jsonl"
    (hand,) = [h for h in read_jsonl(path) if isinstance(h, HandRecord) and h.hand_id == hand_id]
    return hand


def test_a_main_pot_paid_to_a_seat_that_lost_it_cites_the_best_hand_not_its_side_pot() -> None:
    """SAMPLE-0011, the log paying the main pot (58.20) to seat 3, which lost it and won
    side pot 1: the rule broken is the best hand's, not the side-pot rule of the pot seat 3
    won rightly; seat 2, the main pot's winner, is paid nothing (the high's rule)."""
    hand = _sample("SAMPLE-0011")
    assert hand.result is not None
    moved = tuple(
        structs.replace(c, seat=3) if c.pot == 0 else c for c in hand.result.collected
    )  # the main pot to seat 3 instead of seat 2
    wrong = structs.replace(
        hand, result=structs.replace(hand.result, collected=moved, final_stacks=())
    )
    settlement = settle(replay(wrong))
    rules = {v.seat: v.rule for v in settlement.violations if v.code is Code.PAYOUT_MISMATCH}
    assert rules == {2: "R8.high-split", 3: "R8.best-hand"}


def test_a_folded_seat_paid_in_a_hand_of_one_pot_is_no_side_pot_matter() -> None:
    """Everyone folds to seat 3's raise and the log pays seat 1, which folded: seat 1 is in
    no pot at all, so the rule is the best hand's, not R8.side-pots (there is no side pot)."""
    actions = [*blinds(), raise_to(3, "3.00"), fold(1), fold(2), uncalled(3, "2.00")]
    log = {"rake": "0", "total_pot": "2.50", "collected": [collected(1, "2.50")]}
    settlement = _settle(actions, result=log)
    rules = {v.seat: v.rule for v in settlement.violations if v.code is Code.PAYOUT_MISMATCH}
    assert rules == {1: "R8.best-hand", 3: "R8.best-hand"}


def test_a_side_pot_left_to_one_seat_and_paid_to_another_cites_the_side_pot_rule() -> None:
    """Side pot 1 is seat 2's alone (seat 3 folded on the turn); the log pays it to seat 3.
    Seat 2's share was a side pot's (R8.side-pots); seat 3 folded, so it reached no
    showdown (R8.best-hand: the pot goes to the best hand that did)."""
    actions = [*blinds(), call(3, "1.00"), call(1, "0.50"), check(2), board("2c3d4h")]
    actions += [bet(1, "9.00", all_in=True), call(2, "9.00"), call(3, "9.00")]
    actions += [board("9s"), bet(2, "20.00"), call(3, "20.00"), board("Kd"), bet(2, "10.00")]
    actions += [fold(3), uncalled(2, "10.00"), *_shows(HOLE, 1, 2)]
    log = {
        "rake": "0",
        "total_pot": "70.00",
        "collected": [collected(2, "30.00"), collected(3, "40.00", pot=1)],
    }
    stacks = ["10.00", "100.00", "100.00"]
    settlement = _settle(actions, result=log, stacks=stacks, betting="no-limit")
    rules = {v.seat: v.rule for v in settlement.violations if v.code is Code.PAYOUT_MISMATCH}
    assert rules == {2: "R8.side-pots", 3: "R8.best-hand"}
