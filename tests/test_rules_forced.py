"""Forced bets (RULES.md §2: R2.blinds, R2.heads-up, R2.live-blinds, R2.dead-blind,
R2.short-blind, R2.antes, R2.straddle, R2.post-to-enter, R2.no-small-blind, R2.walk).

Pot limit at $0.50/$1 with $100 stacks unless told otherwise; seats 1..n with the
button on the last seat, so seat 1 is the small blind and seat 2 the big blind.
"""

from __future__ import annotations

import pytest

from pipeline.model import Status
from pipeline.violations import Code
from tests.handbuilder import (
    Json,
    Legal,
    blinds,
    board,
    call,
    check,
    checked_streets,
    fold,
    found,
    legal_at,
    minus,
    play,
    post,
    raise_to,
    step,
    uncalled,
)

# ---------------------------------------------------------------------------- R2.blinds


def test_blinds_left_of_the_button_with_gaps_in_the_seat_numbers() -> None:
    """R2.blinds, R4.preflop-order: seats 2, 5, 9, button 5: 9 small, 2 big, 5 first."""
    result = play(
        [
            post(9, "small", "0.50"),
            post(2, "big", "1.00"),
            call(5, "1.00"),  # seq 2
            call(9, "0.50"),
            check(2),
            *checked_streets([9, 2, 5]),
        ],
        seats=[2, 5, 9],
        button=5,
    )
    assert result.seats == (9, 2, 5)
    assert legal_at(result, 2) == Legal(to_call="1.00", min_to="2.00", max_to="3.50")
    assert found(result) == []
    assert result.status is Status.OK


def test_blinds_a_small_blind_from_the_button_is_blind_wrong_seat() -> None:
    """R2.blinds: the small blind is the first seat left of the button, not the button."""
    result = play(
        [post(3, "small", "0.50"), post(2, "big", "1.00"), fold(3), fold(1), uncalled(2, "0.50")]
    )
    assert found(result) == [("blind-wrong-seat", 0)]
    assert result.violations[0].rule == "R2.blinds"
    assert result.status is Status.VIOLATIONS


def test_blinds_a_second_small_blind_is_blind_wrong_seat() -> None:
    """R2.blinds: one small blind per hand."""
    result = play(
        [*blinds(), post(1, "small", "0.50"), fold(3), fold(1)],  # 1.00 each: nothing uncalled
    )
    assert found(result) == [("blind-wrong-seat", 2)]


def test_blinds_big_blind_from_the_wrong_seat_leaves_the_big_blind_missing() -> None:
    """R2.blinds: seat 3's `big` is a post to enter; seat 2, the big blind, posted nothing."""
    result = play(
        [
            post(1, "small", "0.50"),
            post(3, "big", "1.00"),
            check(3),
            fold(1),
            fold(2),
            uncalled(3, "0.50"),
        ]
    )
    assert found(result) == [("missing-blind", None)]
    assert result.violations[0].seat == 2
    assert result.status is Status.VIOLATIONS


@pytest.mark.parametrize(
    ("small", "big", "expected"),
    [
        ("0.50", "1.00", []),
        ("0.40", "1.00", [("blind-wrong-amount", 0)]),
        ("0.50", "1.50", [("blind-wrong-amount", 1)]),
    ],
)
def test_blind_sizes_are_the_table_stakes(
    small: str, big: str, expected: list[tuple[str, int]]
) -> None:
    """R2.blind-sizes: a blind must be exactly the table's small or big blind."""
    back = minus(big, small)
    result = play([*blinds(sb=small, bb=big), fold(3), fold(1), uncalled(2, back)])
    assert found(result) == expected
    if expected:
        name = "small" if small != "0.50" else "big"
        posted, table = (small, "0.50") if name == "small" else (big, "1.00")
        assert result.violations[0].message == f"posts {posted}; the {name} blind is {table}"
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)


def test_missing_big_blind() -> None:
    """R2.blinds: a hand with no big blind posted is missing-blind (a hand-level violation)."""
    result = play(
        [post(1, "small", "0.50"), raise_to(3, "2.50"), fold(1), fold(2), uncalled(3, "2.00")]
    )
    assert found(result) == [("missing-blind", None)]
    assert result.violations[0].seat == 2
    assert result.status is Status.VIOLATIONS


def test_blinds_a_post_after_the_betting_began_is_out_of_turn() -> None:
    """R2.blinds: blinds and posts come before the first betting action."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            post(4, "dead", "0.50"),  # seq 3
            call(4, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3, 4]),
        ],
        seats=4,
    )
    assert found(result) == [("action-out-of-turn", 3)]
    assert result.violations[0].rule == "R2.blinds"


# ---------------------------------------------------------------------------- R2.heads-up


def _heads_up(first: Json) -> list[Json]:
    return [post(2, "small", "0.50"), post(1, "big", "1.00"), first]


def test_heads_up_button_posts_small_acts_first_preflop_and_last_after() -> None:
    """R2.heads-up: the button (seat 2) posts the small blind, acts first pre-flop, last after."""
    result = play(
        [
            *_heads_up(call(2, "0.50")),  # seq 2
            check(1),
            *checked_streets([1, 2]),
        ],
        seats=2,
    )
    assert result.seats == (1, 2)
    assert legal_at(result, 2) == Legal(to_call="0.50", min_to="2.00", max_to="3.00")
    assert found(result) == []
    assert result.status is Status.OK


def test_heads_up_with_the_button_on_the_lower_seat() -> None:
    """R2.heads-up: button on seat 1: seat 1 posts the small blind and acts first pre-flop;
    seat 2 (the big blind) acts first after the flop."""
    result = play(
        [
            post(1, "small", "0.50"),
            post(2, "big", "1.00"),
            call(1, "0.50"),  # seq 2
            check(2),
            *checked_streets([2, 1]),
        ],
        seats=2,
        button=1,
    )
    assert result.seats == (2, 1)
    assert legal_at(result, 2).to_call == "0.50"
    assert found(result) == []
    assert result.status is Status.OK


def test_heads_up_big_blind_acting_first_preflop_is_out_of_turn() -> None:
    """R2.heads-up, R4.preflop-order: pre-flop the button acts first heads-up."""
    result = play(
        [
            post(2, "small", "0.50"),
            post(1, "big", "1.00"),
            check(1),  # seq 2
            call(2, "0.50"),
            *checked_streets([1, 2]),
        ],
        seats=2,
    )
    assert found(result) == [("action-out-of-turn", 2)]
    assert result.violations[0].rule == "R4.preflop-order"
    assert result.status is Status.VIOLATIONS


def test_heads_up_button_acting_first_on_the_flop_is_out_of_turn() -> None:
    """R2.heads-up, R4.postflop-order: after the flop the big blind acts first heads-up."""
    result = play(
        [
            *_heads_up(call(2, "0.50")),
            check(1),
            board("2c3d4h"),
            check(2),  # seq 5
            check(1),
            *checked_streets([1, 2], ["9s", "Kd"]),
        ],
        seats=2,
    )
    assert found(result) == [("action-out-of-turn", 5)]
    assert result.violations[0].rule == "R4.postflop-order"


def test_heads_up_small_blind_from_the_big_blind_seat_is_blind_wrong_seat() -> None:
    """R2.heads-up: the non-button player posting the small blind heads-up is wrong."""
    result = play(
        [post(1, "small", "0.50"), post(2, "big", "1.00"), fold(1), uncalled(2, "0.50")],
        seats=2,
    )
    assert ("blind-wrong-seat", 0) in found(result)
    assert result.status is Status.VIOLATIONS
    swapped = next(v for v in result.violations if v.seq == 1)  # not "already posted a blind"
    assert (swapped.code, swapped.message) == (
        "blind-wrong-seat",
        "big blind posted by seat 2, the small blind's seat",
    )
    assert (swapped.expected, swapped.rule) == ("seat 1", "R2.blinds")


# ---------------------------------------------------------------------------- R2.live-blinds


@pytest.mark.parametrize(
    "option",
    [[check(2)], [raise_to(2, "3.00"), call(3, "2.00"), call(1, "2.00")]],
    ids=["checks", "raises"],
)
def test_live_blinds_big_blind_has_the_option(option: list[Json]) -> None:
    """R2.live-blinds: blinds count toward the call; unraised, the big blind may check or raise."""
    result = play(
        [*blinds(), call(3, "1.00"), call(1, "0.50"), *option, *checked_streets([1, 2, 3])]
    )
    assert legal_at(result, 3).to_call == "0.50"
    assert legal_at(result, 4) == Legal(to_call="0.00", min_to="2.00", max_to="4.00")
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- R2.dead-blind


@pytest.mark.parametrize(
    ("amount", "extra", "expected"),
    [
        ("2.00", [], []),
        ("2.50", [uncalled(3, "0.50")], [("call-wrong-amount", 7)]),
    ],
)
def test_dead_blind_the_dead_small_blind_is_not_part_of_the_bet(
    amount: str, extra: list[Json], expected: list[tuple[str, int]]
) -> None:
    """R2.dead-blind [000]: `both` at 0.50/1.00 is 0.50 dead + 1.00 live.

    The poster has 1.00 toward the call (may check), and facing a raise to 3.00 owes 2.00.
    """
    result = play(
        [
            *blinds(),
            post(3, "both", "1.50"),
            check(3),  # seq 3
            raise_to(4, "3.00"),  # seq 4
            fold(1),
            fold(2),
            call(3, amount),  # seq 7
            *extra,
            *checked_streets([3, 4]),
        ],
        seats=4,
    )
    assert legal_at(result, 3).to_call == "0.00"
    assert step(result, 4).pot_before == 300
    assert legal_at(result, 4) == Legal(to_call="1.00", min_to="2.00", max_to="5.00")
    assert legal_at(result, 7).to_call == "2.00"
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)


def test_dead_blind_a_dead_post_goes_to_the_pot_and_the_poster_still_owes_the_call() -> None:
    """R2.dead-blind: a `dead` small blind is not live: the poster still owes the big blind."""
    result = play(
        [
            *blinds(),
            post(4, "dead", "0.50"),
            fold(3),
            call(4, "1.00"),  # seq 4
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 4]),
        ],
        seats=4,
    )
    assert step(result, 3).pot_before == 200
    assert legal_at(result, 4) == Legal(to_call="1.00", min_to="2.00", max_to="4.00")
    assert found(result) == []
    assert result.status is Status.OK


def test_dead_blind_wrong_amount() -> None:
    """R2.dead-blind: a `both` post is the small plus the big blind."""
    result = play(
        [*blinds(), post(3, "both", "1.00"), fold(3), fold(4), fold(1)],
        seats=4,
    )
    assert found(result) == [("blind-wrong-amount", 2)]
    assert result.violations[0].rule == "R2.dead-blind"
    assert result.violations[0].message == (
        "posts 1.00; missed blinds (a dead small and a live big) come to 1.50"
    )


def test_dead_blind_from_a_blind_seat_is_blind_wrong_seat() -> None:
    """R2.post-to-enter: missed blinds are posted from any seat except the two blinds."""
    result = play([*blinds(), post(1, "dead", "0.50"), fold(3), fold(1), uncalled(2, "0.50")])
    assert found(result) == [("blind-wrong-seat", 2)]
    assert result.violations[0].rule == "R2.post-to-enter"


# ---------------------------------------------------------------------------- R2.short-blind


def test_short_small_blind_posts_all_it_has() -> None:
    """R2.short-blind: a small blind with 0.30 posts 0.30 and is all-in."""
    result = play(
        [
            post(1, "small", "0.30", all_in=True),
            post(2, "big", "1.00"),
            call(3, "1.00"),
            check(2),
            *checked_streets([2, 3]),
        ],
        stacks=["0.30", "100.00", "100.00"],
    )
    assert result.all_in == (True, False, False)
    assert [step(result, k).all_in for k in (0, 1)] == [True, False]  # the post's own step
    assert found(result) == []
    assert result.status is Status.OK


def test_short_blind_not_all_in_is_blind_wrong_amount() -> None:
    """R2.short-blind: posting less than the blind is legal only all-in."""
    result = play(
        [post(1, "small", "0.30"), post(2, "big", "1.00"), fold(3), fold(1), uncalled(2, "0.70")]
    )
    assert found(result) == [("blind-wrong-amount", 0)]
    assert result.status is Status.VIOLATIONS


# ---------------------------------------------------------------------------- R2.antes


def _antes(*amounts: tuple[int, str]) -> list[Json]:
    return [post(seat, "ante", amount) for seat, amount in amounts]


@pytest.mark.parametrize(
    ("antes", "expected"),
    [
        (_antes((1, "0.10"), (2, "0.10"), (3, "0.10")), []),
        (_antes((1, "0.10"), (2, "0.05"), (3, "0.10")), [("ante-wrong-amount", 1)]),
        (
            _antes((1, "0.10"), (2, "0.10"), (2, "0.10")),
            [("ante-wrong-amount", 2), ("ante-wrong-amount", None)],  # and none from seat 3
        ),
    ],
    ids=["clean", "short", "twice"],
)
def test_antes_are_dead_money_of_the_table_ante(
    antes: list[Json], expected: list[tuple[str, int | None]]
) -> None:
    """R2.antes: every player posts exactly the ante; it goes to the pot, not the bet."""
    result = play([*antes, *blinds(), fold(3), fold(1), uncalled(2, "0.50")], ante="0.10")
    assert legal_at(result, 5).to_call == "1.00"  # the ante is not part of seat 3's bet
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)


def test_antes_a_missing_ante_is_a_hand_level_violation() -> None:
    """R2.antes: a dealt-in player who posted no ante (hand-level, seq None)."""
    result = play(
        [*_antes((1, "0.10"), (2, "0.10")), *blinds(), fold(3), fold(1), uncalled(2, "0.50")],
        ante="0.10",
    )
    assert found(result) == [("ante-wrong-amount", None)]
    assert result.violations[0].seat == 3


def test_antes_short_ante_all_in() -> None:
    """R2.antes, R2.short-blind: a player with less than the ante posts it all and is all-in."""
    result = play(
        [
            *_antes((1, "0.10"), (2, "0.10")),
            post(3, "ante", "0.05", all_in=True),
            *blinds(),
            call(1, "0.50"),  # seq 5: seat 3 is all-in and skipped
            check(2),
            *checked_streets([1, 2]),
        ],
        ante="0.10",
        stacks=["100.00", "100.00", "0.05"],
    )
    assert step(result, 5).pot_before == 175
    assert [step(result, k).all_in for k in range(3)] == [False, False, True]
    assert found(result) == []
    assert result.status is Status.OK


def test_antes_a_big_blind_all_in_on_its_ante_posts_no_blind() -> None:
    """R2.antes, R2.short-blind: the big blind (seat 2) is all-in on its ante, so it has
    nothing left to post: no missing blind; the others still call the full big blind
    (R5.short-big-blind) and seat 3 acts first."""
    result = play(
        [
            *_antes((1, "0.10"), (3, "0.10")),
            post(2, "ante", "0.10", all_in=True),
            post(1, "small", "0.50"),
            call(3, "1.00"),  # seq 4
            call(1, "0.50"),
            *checked_streets([1, 3]),
        ],
        ante="0.10",
        stacks=["100.00", "0.10", "100.00"],
    )
    assert legal_at(result, 4).to_call == "1.00"
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- R2.straddle


def test_straddle_acts_last_preflop_and_left_of_it_acts_first() -> None:
    """R2.straddle: seat 3 straddles 2.00; seat 4 acts first, the straddler last (may check)."""
    result = play(
        [
            *blinds(),
            post(3, "straddle", "2.00"),
            call(4, "2.00"),  # seq 3
            call(1, "1.50"),
            call(2, "1.00"),
            check(3),  # seq 6
            *checked_streets([1, 2, 3, 4]),
        ],
        seats=4,
    )
    assert legal_at(result, 3) == Legal(to_call="2.00", min_to="4.00", max_to="7.50")
    assert legal_at(result, 6) == Legal(to_call="0.00", min_to="4.00", max_to="10.00")
    assert found(result) == []
    assert result.status is Status.OK


def test_straddle_the_straddler_acting_first_is_out_of_turn() -> None:
    """R2.straddle, R4.preflop-order: the first to act is left of the straddler."""
    result = play(
        [
            *blinds(),
            post(3, "straddle", "2.00"),
            check(3),  # seq 3
            call(4, "2.00"),
            call(1, "1.50"),
            call(2, "1.00"),
            *checked_streets([1, 2, 3, 4]),
        ],
        seats=4,
    )
    assert found(result)[0] == ("action-out-of-turn", 3)


def test_straddle_from_the_button_is_straddle_wrong_seat() -> None:
    """R2.straddle: the straddle is posted by the player left of the big blind."""
    result = play(
        [*blinds(), post(4, "straddle", "2.00"), fold(1), fold(2), fold(3), uncalled(4, "1.00")],
        seats=4,
    )
    assert found(result) == [("straddle-wrong-seat", 2)]
    assert result.violations[0].code is Code.STRADDLE_WRONG_SEAT
    assert result.status is Status.VIOLATIONS


def test_straddle_of_the_wrong_size_is_blind_wrong_amount() -> None:
    """R2.straddle: a straddle is twice the big blind (rule-set option straddle_multiple)."""
    result = play(
        [*blinds(), post(3, "straddle", "1.50"), fold(4), fold(1), fold(2), uncalled(3, "0.50")],
        seats=4,
    )
    assert found(result) == [("blind-wrong-amount", 2)]


def test_a_bigger_straddle_the_site_records_is_the_bet_to_call() -> None:
    """R2.straddle: "sites that allow other straddles record them": a 3.00 straddle (three
    big blinds) at pot limit is no error; it is the bet to call, and the size of a raise."""
    result = play(
        [
            *blinds(),
            post(3, "straddle", "3.00"),
            call(4, "3.00"),  # seq 3
            call(1, "2.50"),
            call(2, "2.00"),
            check(3),
            *checked_streets([1, 2, 3, 4]),
        ],
        seats=4,
    )
    assert legal_at(result, 3) == Legal(to_call="3.00", min_to="6.00", max_to="10.50")
    assert found(result) == []


def test_a_bigger_straddle_in_fixed_limit_is_blind_wrong_amount() -> None:
    """R2.straddle, R5.limit-size: in fixed limit a straddle is one raise, no more."""
    result = play(
        [*blinds(), post(3, "straddle", "3.00"), fold(4), fold(1), fold(2), uncalled(3, "2.00")],
        seats=4,
        betting="fixed-limit",
        small_bet="1.00",
        big_bet="2.00",
    )
    assert found(result) == [("blind-wrong-amount", 2)]


def test_after_a_flagged_fixed_limit_straddle_the_next_raise_goes_over_it() -> None:
    """R5.limit-size: a 3.00 straddle at 0.50/1.00 is flagged, but it is the bet: the one
    legal raise is a small bet over it, 4.00 (not the 3.00 of a 2.00 straddle)."""
    result = play(
        [
            *blinds(),
            post(3, "straddle", "3.00"),
            raise_to(4, "4.00"),  # seq 3
            fold(1),
            fold(2),
            fold(3),
            uncalled(4, "1.00"),
        ],
        seats=4,
        betting="fixed-limit",
        small_bet="1.00",
        big_bet="2.00",
    )
    assert legal_at(result, 3) == Legal(to_call="3.00", min_to="4.00", max_to="4.00")
    assert found(result) == [("blind-wrong-amount", 2)]


# ---------------------------------------------------------------------------- R2.post-to-enter


@pytest.mark.parametrize(
    ("actions", "owed"),
    [
        ([call(3, "1.00"), check(4), call(1, "0.50"), check(2)], "0.00"),
        (
            [raise_to(3, "3.00"), call(4, "2.00"), call(1, "2.50"), call(2, "2.00")],
            "2.00",
        ),
    ],
    ids=["not-raised-checks", "raised-calls"],
)
def test_post_to_enter_is_live(actions: list[Json], owed: str) -> None:
    """R2.post-to-enter: the button's 1.00 post is live: unraised it may check."""
    result = play(
        [*blinds(), post(4, "big", "1.00"), *actions, *checked_streets([1, 2, 3, 4])], seats=4
    )
    assert legal_at(result, 4).to_call == owed
    assert found(result) == []
    assert result.status is Status.OK


def test_post_to_enter_from_the_small_blind_is_blind_wrong_seat() -> None:
    """R2.post-to-enter: not from the two blinds."""
    result = play(
        [*blinds(), post(1, "big", "1.00"), fold(3), check(1), fold(2), uncalled(1, "0.50")]
    )
    assert found(result) == [("blind-wrong-seat", 2)]
    assert result.violations[0].rule == "R2.post-to-enter"


def test_post_to_enter_from_the_big_blind_is_blind_wrong_seat() -> None:
    """R2.post-to-enter: the big blind posting again (a post to enter from a blind seat)."""
    result = play([*blinds(), post(2, "big", "1.00"), fold(3), fold(1), uncalled(2, "1.50")])
    assert found(result)[0] == ("blind-wrong-seat", 2)
    assert result.violations[0].rule in {"R2.post-to-enter", "R2.blinds"}
    assert result.status is Status.VIOLATIONS


# ---------------------------------------------------------------------------- R2.no-small-blind


def test_no_small_blind_big_blind_in_its_seat() -> None:
    """R2.no-small-blind: the log has no small blind; the big blind (seat 2) is as usual."""
    result = play(
        [
            post(2, "big", "1.00"),
            call(3, "1.00"),  # seq 1
            call(1, "1.00"),
            check(2),
            *checked_streets([1, 2, 3]),
        ]
    )
    assert legal_at(result, 1).to_call == "1.00"
    assert found(result) == []
    assert result.status is Status.OK


def test_no_small_blind_big_blind_left_of_the_button() -> None:
    """R2.no-small-blind: the big blind is taken from the log: seat 1, so seat 2 acts first."""
    result = play(
        [
            post(1, "big", "1.00"),
            call(2, "1.00"),  # seq 1
            call(3, "1.00"),
            check(1),
            *checked_streets([1, 2, 3]),
        ]
    )
    assert legal_at(result, 1) == Legal(to_call="1.00", min_to="2.00", max_to="3.00")
    assert found(result) == []
    assert result.status is Status.OK


def test_no_small_blind_the_straddle_is_left_of_the_big_blind_the_log_shows() -> None:
    """R2.no-small-blind, R2.straddle: seat 1 (left of the button) posts the big blind, so
    the straddle is seat 2's, and seat 3 acts first (it was taken for seat 3's)."""
    hand = [
        post(1, "big", "1.00"),
        post(2, "straddle", "2.00"),
        call(3, "2.00"),  # seq 2
        call(4, "2.00"),
        call(1, "1.00"),
        check(2),
        *checked_streets([1, 2, 3, 4]),
    ]
    result = play(hand, seats=4)
    assert legal_at(result, 2).to_call == "2.00"
    assert found(result) == []
    assert result.status is Status.OK
    wrong = [post(1, "big", "1.00"), post(3, "straddle", "2.00")]
    result = play([*wrong, call(4, "2.00"), call(2, "2.00"), call(1, "1.00"), check(3)], seats=4)
    assert ("straddle-wrong-seat", 1) in found(result)


def test_no_small_blind_missed_blinds_may_be_posted_left_of_the_big_blind() -> None:
    """R2.no-small-blind, R2.post-to-enter: with seat 1 the big blind, seat 2 is no blind
    seat: it may post both blinds (it was taken for the big blind's seat)."""
    result = play(
        [
            post(1, "big", "1.00"),
            post(2, "both", "1.50"),
            check(2),  # seq 2: first to act, its live 1.00 in
            call(3, "1.00"),
            call(4, "1.00"),
            check(1),
            *checked_streets([1, 2, 3, 4]),
        ],
        seats=4,
    )
    assert found(result) == []
    assert result.status is Status.OK


def test_no_small_blind_the_first_big_blind_posted_is_the_big_blind() -> None:
    """R2.no-small-blind, R2.post-to-enter: seat 1 posts the big blind, then seat 2 a big
    blind to enter: seat 2 is first to act (and may check), seat 1 last."""
    result = play(
        [
            post(1, "big", "1.00"),
            post(2, "big", "1.00"),
            check(2),  # seq 2
            call(3, "1.00"),
            call(4, "1.00"),
            check(1),
            *checked_streets([1, 2, 3, 4]),
        ],
        seats=4,
    )
    assert legal_at(result, 2).to_call == "0.00"
    assert found(result) == []
    assert result.status is Status.OK


@pytest.mark.parametrize("first", ["big", "other"])
def test_no_small_blind_the_seats_of_posts_do_not_depend_on_their_order_in_the_log(
    first: str,
) -> None:
    """R2.no-small-blind: a straddle or missed blinds listed before the big blind are judged
    once every post is known (they were judged by the big blinds posted so far)."""
    for other, acting in (
        (post(2, "straddle", "2.00"), [call(3, "2.00"), call(4, "2.00"), call(1, "1.00")]),
        (post(2, "both", "1.50"), [check(2), call(3, "1.00"), call(4, "1.00"), check(1)]),
    ):
        big = post(1, "big", "1.00")
        posts = [big, other] if first == "big" else [other, big]
        closing = [check(2)] if other["blind"] == "straddle" else []
        hand = [*posts, *acting, *closing, *checked_streets([1, 2, 3, 4])]
        result = play(hand, seats=4)
        assert found(result) == [], other["blind"]


# ---------------------------------------------------------------------------- R2.walk


def test_walk_big_blind_wins_when_everyone_folds() -> None:
    """R2.walk, R4.uncalled: all fold to the big blind; its unmatched 0.50 goes back."""
    result = play([*blinds(), fold(3), fold(1), uncalled(2, "0.50")])
    assert result.folded == (True, False, True)
    assert result.invested == (50, 50, 0)
    assert result.uncalled == ((2, 50),)
    assert not result.showdown
    assert found(result) == []
    assert result.status is Status.OK


@pytest.mark.parametrize("after", [check(2), board("2c3d4h")], ids=["check", "board"])
def test_walk_nothing_happens_after_it(after: Json) -> None:
    """R2.walk, R4.round-end: a hand won uncontested ends at once (action-after-hand-end)."""
    result = play([*blinds(), fold(3), fold(1), uncalled(2, "0.50"), after])
    assert found(result) == [("action-after-hand-end", 5)]
    assert result.status is Status.INVALID
