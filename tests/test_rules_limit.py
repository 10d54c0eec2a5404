"""Fixed-limit betting (RULES.md §5: R5.limit-size, R5.limit-cap, R5.limit-cap-heads-up,
R5.limit-short-all-in; R2.blind-sizes).

The game is $2/$4 unless told otherwise: blinds $1/$2, small bet $2 (pre-flop and flop),
big bet $4 (turn and river). Seat 1 posts the small blind, seat 2 the big blind, the
button is the last seat (heads-up: seat 2, the button, posts the small blind).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.model import Status
from pipeline.rules import STANDARD, RuleSet
from pipeline.rules.rulesets import CapHeadsUp
from pipeline.violations import Code
from tests.handbuilder import (
    HandOptions,
    Json,
    Legal,
    bet,
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
    plus,
    post,
    raise_to,
    uncalled,
)

LIMIT = HandOptions(betting="fixed-limit", small_blind="1.00", big_blind="2.00", small_bet="2.00")
NO_HALF_BET = replace(STANDARD, limit_half_bet_reopens=False)


def _limit(*, seats: int = 4, stacks: list[str] | None = None) -> HandOptions:
    options = HandOptions(**LIMIT, seats=seats)
    if stacks is not None:
        options["stacks"] = stacks
    return options


def _status(expected: list[tuple[str, int]]) -> Status:
    return Status.VIOLATIONS if expected else Status.OK


# ---------------------------------------------------------------------------- R5.limit-cap


def test_limit_cap_preflop_2_4_6_8_is_capped() -> None:
    """R5.limit-cap [000]: at $2/$4, $2 (big blind) → $4 → $6 → $8 is capped."""
    result = play(
        [
            *blinds(sb="1.00", bb="2.00"),
            raise_to(3, "4.00"),  # seq 2
            raise_to(4, "6.00"),
            raise_to(1, "8.00"),  # seq 4: the cap
            call(2, "6.00"),  # seq 5
            call(3, "4.00"),
            call(4, "2.00"),
            *checked_streets([1, 2, 3, 4]),
        ],
        **_limit(),
    )
    assert legal_at(result, 2) == Legal(to_call="2.00", min_to="4.00", max_to="4.00")
    assert legal_at(result, 3) == Legal(to_call="4.00", min_to="6.00", max_to="6.00")
    assert legal_at(result, 4) == Legal(to_call="5.00", min_to="8.00", max_to="8.00")
    assert legal_at(result, 5) == Legal(to_call="6.00", min_to=None, max_to=None)
    assert found(result) == []
    assert result.status is Status.OK


@pytest.mark.parametrize(
    ("seat_2", "expected"),
    [
        ([call(2, "6.00")], []),
        (
            [raise_to(2, "10.00"), call(3, "6.00"), call(4, "4.00"), call(1, "2.00")],
            [("raise-cap-exceeded", 5)],
        ),
    ],
)
def test_limit_cap_a_straddle_is_the_first_raise(
    seat_2: list[Json], expected: list[tuple[str, int]]
) -> None:
    """R5.limit-cap, R2.straddle: at $2/$4 the big blind is the bet and a $4 straddle the first
    raise, so $6 → $8 caps the betting."""
    calls = [call(3, "4.00"), call(4, "2.00")] if not expected else []
    result = play(
        [
            *blinds(sb="1.00", bb="2.00"),
            post(3, "straddle", "4.00"),
            raise_to(4, "6.00"),  # seq 3
            raise_to(1, "8.00"),  # seq 4: the cap
            *seat_2,  # seq 5
            *calls,
            *checked_streets([1, 2, 3, 4]),
        ],
        **_limit(),
    )
    assert legal_at(result, 3) == Legal(to_call="4.00", min_to="6.00", max_to="6.00")
    assert legal_at(result, 5) == Legal(to_call="6.00", min_to=None, max_to=None)
    assert found(result) == expected
    assert result.status is _status(expected)


def test_limit_cap_a_fourth_raise_preflop_is_raise_cap_exceeded() -> None:
    """R5.limit-cap: after $8 a raise to $10 is raise-cap-exceeded at that action."""
    result = play(
        [
            *blinds(sb="1.00", bb="2.00"),
            raise_to(3, "4.00"),
            raise_to(4, "6.00"),
            raise_to(1, "8.00"),
            raise_to(2, "10.00"),  # seq 5
            call(3, "6.00"),
            call(4, "4.00"),
            call(1, "2.00"),
            *checked_streets([1, 2, 3, 4]),
        ],
        **_limit(),
    )
    assert found(result) == [("raise-cap-exceeded", 5)]
    assert result.violations[0].rule == "R5.limit-cap"
    assert result.status is Status.VIOLATIONS


@pytest.mark.parametrize(
    ("last", "expected"),
    [(call(1, "6.00"), []), (raise_to(1, "10.00"), [("raise-cap-exceeded", 11)])],
)
def test_limit_cap_on_the_flop_one_bet_and_three_raises(
    last: Json, expected: list[tuple[str, int]]
) -> None:
    """R5.limit-cap: after the flop the cap is a bet and three raises: 2, 4, 6, 8."""
    tail = (
        [call(2, "4.00"), call(3, "2.00")]
        if not expected
        else [call(2, "6.00"), call(3, "4.00"), call(4, "2.00")]
    )
    result = play(
        [
            *blinds(sb="1.00", bb="2.00"),
            call(3, "2.00"),
            call(4, "2.00"),
            call(1, "1.00"),
            check(2),
            board("2c3d4h"),
            bet(1, "2.00"),  # seq 7
            raise_to(2, "4.00"),
            raise_to(3, "6.00"),
            raise_to(4, "8.00"),  # seq 10: the cap
            last,  # seq 11
            *tail,
            *checked_streets([1, 2, 3, 4], ["9s", "Kd"]),
        ],
        **_limit(),
    )
    assert legal_at(result, 10) == Legal(to_call="6.00", min_to="8.00", max_to="8.00")
    assert legal_at(result, 11) == Legal(to_call="6.00", min_to=None, max_to=None)
    assert found(result) == expected
    assert result.status is _status(expected)


# ---------------------------------------------------------------------------- R5.limit-size


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        (("4.00", "2.00", "4.00", "4.00"), []),
        (("5.00", "2.00", "4.00", "4.00"), [("wrong-limit-size", 2)]),
        (("3.00", "2.00", "4.00", "4.00"), [("wrong-limit-size", 2)]),
        (("4.00", "4.00", "4.00", "4.00"), [("wrong-limit-size", 6)]),
        (("4.00", "2.00", "2.00", "4.00"), [("wrong-limit-size", 9)]),
        (("4.00", "2.00", "4.00", "8.00"), [("wrong-limit-size", 12)]),
    ],
)
def test_limit_size_small_bet_preflop_and_flop_big_bet_turn_and_river(
    sizes: tuple[str, str, str, str], expected: list[tuple[str, int]]
) -> None:
    """R5.limit-size: raise to $4 pre-flop, bet $2 on the flop, $4 on the turn and river."""
    pre, flop, turn, river = sizes
    result = play(
        [
            *blinds(sb="1.00", bb="2.00"),
            raise_to(3, pre),  # seq 2
            fold(1),
            call(2, minus(pre, "2.00")),
            board("2c3d4h"),
            bet(2, flop),  # seq 6
            call(3, flop),
            board("9s"),
            bet(2, turn),  # seq 9
            call(3, turn),
            board("Kd"),
            bet(2, river),  # seq 12
            call(3, river),
        ],
        **_limit(seats=3),
    )
    assert legal_at(result, 2) == Legal(to_call="2.00", min_to="4.00", max_to="4.00")
    assert legal_at(result, 6).min_to == "2.00"
    assert legal_at(result, 9).min_to == "4.00"
    assert legal_at(result, 12).min_to == "4.00"
    assert found(result) == expected
    assert result.status is _status(expected)
    if expected:
        assert result.violations[0].rule == "R5.limit-size"


@pytest.mark.parametrize(
    ("to", "expected"),
    [("8.00", []), ("6.00", [("wrong-limit-size", 11)]), ("12.00", [("wrong-limit-size", 11)])],
)
def test_limit_size_a_turn_raise_is_by_the_big_bet(
    to: str, expected: list[tuple[str, int]]
) -> None:
    """R5.limit-size: on the turn a bet of $4 is raised to exactly $8."""
    result = play(
        [
            *blinds(sb="1.00", bb="2.00"),
            call(3, "2.00"),
            call(1, "1.00"),
            check(2),
            board("2c3d4h"),
            check(1),
            check(2),
            check(3),
            board("9s"),
            bet(1, "4.00"),  # seq 10
            raise_to(2, to),  # seq 11
            fold(3),
            fold(1),
            uncalled(2, minus(to, "4.00")),
        ],
        **_limit(seats=3),
    )
    assert legal_at(result, 11) == Legal(to_call="4.00", min_to="8.00", max_to="8.00")
    assert found(result) == expected


def test_blind_sizes_limit_15_30_with_blinds_10_15() -> None:
    """R2.blind-sizes [004]: limit $15/$30 may have blinds $10/$15; the raise is to $30."""
    result = play(
        [
            *blinds(sb="10.00", bb="15.00"),
            raise_to(3, "30.00"),
            fold(1),
            fold(2),
            uncalled(3, "15.00"),
        ],
        betting="fixed-limit",
        small_blind="10.00",
        big_blind="15.00",
        small_bet="15.00",
        big_bet="30.00",
        stacks="500.00",
    )
    assert legal_at(result, 2) == Legal(to_call="15.00", min_to="30.00", max_to="30.00")
    assert legal_at(result, 3).to_call == "20.00"
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- R5.limit-short-all-in

_SHORT = ["100.00", "100.00", "100.00", "5.00"]


def _half_bet_all_in(stack_of_4: str = "5.00") -> list[Json]:
    """Seat 3 raises to $4; seat 4 goes all-in for the rest of its stack (seq 3)."""
    return [
        *blinds(sb="1.00", bb="2.00"),
        raise_to(3, "4.00"),
        raise_to(4, stack_of_4, all_in=True),  # seq 3
    ]


@pytest.mark.parametrize(
    ("seat_2", "expected"),
    [
        ([call(2, "5.00"), call(3, "3.00")], []),
        ([raise_to(2, "9.00"), call(3, "5.00"), call(1, "2.00")], [("raise-cap-exceeded", 5)]),
    ],
)
def test_limit_short_all_in_of_half_a_bet_counts_as_a_raise(
    seat_2: list[Json], expected: list[tuple[str, int]]
) -> None:
    """R5.limit-short-all-in (default): an all-in of half a bet or more is a full raise.

    $2 → $4 → all-in $5 (+1 = half the small bet) counts: the next raise is to $7 and caps.
    """
    result = play(
        [*_half_bet_all_in(), raise_to(1, "7.00"), *seat_2, *checked_streets([1, 2, 3])],
        **_limit(stacks=_SHORT),
    )
    assert legal_at(result, 3) == Legal(to_call="4.00", min_to="6.00", max_to="5.00")
    assert legal_at(result, 4) == Legal(to_call="4.00", min_to="7.00", max_to="7.00")
    assert legal_at(result, 5).min_to is None  # capped
    assert found(result) == expected
    assert result.status is _status(expected)


@pytest.mark.parametrize(
    ("seat_3", "expected"),
    [
        ([call(3, "4.00"), call(1, "2.00")], []),
        ([raise_to(3, "10.00"), call(1, "4.00"), call(2, "2.00")], [("raise-cap-exceeded", 6)]),
    ],
)
def test_limit_short_all_in_option_off_half_a_bet_is_not_a_raise(
    seat_3: list[Json], expected: list[tuple[str, int]]
) -> None:
    """R5.limit-short-all-in, option limit_half_bet_reopens=False: the $5 all-in does not count.

    The next player completes to $6 (2nd raise), then $8 is the cap.
    """
    result = play(
        [
            *_half_bet_all_in(),
            raise_to(1, "6.00"),  # seq 4
            raise_to(2, "8.00"),  # seq 5: the cap
            *seat_3,
            *checked_streets([1, 2, 3]),
        ],
        rules=NO_HALF_BET,
        **_limit(stacks=_SHORT),
    )
    assert legal_at(result, 4) == Legal(to_call="4.00", min_to="6.00", max_to="6.00")
    assert legal_at(result, 5) == Legal(to_call="4.00", min_to="8.00", max_to="8.00")
    assert legal_at(result, 6).min_to is None
    assert found(result) == expected
    assert result.status is _status(expected)


def test_limit_short_all_in_for_less_than_half_counts_for_nothing() -> None:
    """R5.limit-short-all-in: an all-in of $4.90 (+0.90 < half of $2) is not a raise.

    The next player completes to $6, and $6 → $8 is still allowed (the cap is not reached).
    """
    result = play(
        [
            *_half_bet_all_in("4.90"),
            raise_to(1, "6.00"),  # seq 4
            raise_to(2, "8.00"),
            call(3, "4.00"),
            call(1, "2.00"),
            *checked_streets([1, 2, 3]),
        ],
        **_limit(stacks=["100.00", "100.00", "100.00", "4.90"]),
    )
    assert legal_at(result, 4) == Legal(to_call="3.90", min_to="6.00", max_to="6.00")
    assert found(result) == []
    assert result.status is Status.OK


def _flop_short_all_in(to: str) -> list[Json]:
    """Flop: seat 1 bets $2, seat 2 goes all-in to ``to``, seat 3 calls (seq 6, 7, 8)."""
    return [
        *blinds(sb="1.00", bb="2.00"),
        call(3, "2.00"),
        call(1, "1.00"),
        check(2),
        board("2c3d4h"),
        bet(1, "2.00"),  # seq 6
        raise_to(2, to, all_in=True),  # seq 7
        call(3, to),  # seq 8
    ]


@pytest.mark.parametrize(
    ("to", "rules", "reopened"),
    [
        ("3.00", STANDARD, True),  # +1.00: half the small bet
        ("3.00", NO_HALF_BET, False),
        ("2.90", STANDARD, False),  # +0.90: less than half
    ],
)
def test_limit_short_all_in_reopens_only_when_it_counts(
    to: str, rules: RuleSet, reopened: bool
) -> None:
    """R5.limit-short-all-in: a bettor facing a short all-in may re-raise only if it counted."""
    stack = plus(to, "2.00")
    options = _limit(seats=3, stacks=["100.00", stack, "100.00"])
    full = "5.00" if reopened else "4.00"  # the size the next raise goes to
    owed = minus(to, "2.00")

    called = play(
        [*_flop_short_all_in(to), call(1, owed), *checked_streets([1, 3], ["9s", "Kd"])],
        rules,
        **options,
    )
    assert legal_at(called, 8) == Legal(to_call=to, min_to=full, max_to=full)
    assert legal_at(called, 9) == Legal(
        to_call=owed, min_to=full if reopened else None, max_to=full if reopened else None
    )
    assert found(called) == []
    assert called.status is Status.OK

    raised = play(
        [
            *_flop_short_all_in(to),
            raise_to(1, full),  # seq 9
            call(3, minus(full, to)),
            *checked_streets([1, 3], ["9s", "Kd"]),
        ],
        rules,
        **options,
    )
    expected = [] if reopened else [("raise-not-reopened", 9)]
    assert found(raised) == expected
    assert raised.status is _status(expected)


@pytest.mark.parametrize(("to", "expected"), [("2.00", []), ("2.90", [("wrong-limit-size", 7)])])
def test_limit_short_all_in_bet_the_next_player_completes_to_the_full_bet(
    to: str, expected: list[tuple[str, int]]
) -> None:
    """R5.limit-short-all-in: an all-in bet of $0.90 on the flop; the next may complete to $2."""
    result = play(
        [
            *blinds(sb="1.00", bb="2.00"),
            call(3, "2.00"),
            call(1, "1.00"),
            check(2),
            board("2c3d4h"),
            bet(1, "0.90", all_in=True),  # seq 6
            raise_to(2, to),  # seq 7
            call(3, to),
            *checked_streets([2, 3], ["9s", "Kd"]),
        ],
        **_limit(seats=3, stacks=["2.90", "100.00", "100.00"]),
    )
    assert legal_at(result, 7) == Legal(to_call="0.90", min_to="2.00", max_to="2.00")
    assert found(result) == expected
    assert result.status is _status(expected)


# ---------------------------------------------------------------------------- R5.limit-cap-heads-up


@pytest.mark.parametrize(
    ("policy", "capped"),
    [
        ("capped", True),
        ("uncapped-if-two-at-round-start", False),
        ("uncapped-when-two-remain", False),
    ],
)
def test_limit_cap_heads_up_from_the_start(policy: CapHeadsUp, capped: bool) -> None:
    """R5.limit-cap-heads-up: two players from the start: capped only under `capped`."""
    result = play(
        [
            post(2, "small", "1.00"),
            post(1, "big", "2.00"),
            raise_to(2, "4.00"),
            raise_to(1, "6.00"),
            raise_to(2, "8.00"),
            raise_to(1, "10.00"),  # seq 5: a fourth raise
            call(2, "2.00"),
            *checked_streets([1, 2]),
        ],
        replace(STANDARD, cap_heads_up=policy),
        **_limit(seats=2),
    )
    expected = [("raise-cap-exceeded", 5)] if capped else []
    assert found(result) == expected
    assert result.status is _status(expected)
    assert (legal_at(result, 5).min_to is None) is capped


@pytest.mark.parametrize(
    ("policy", "capped"),
    [
        ("capped", True),
        ("uncapped-if-two-at-round-start", True),  # three started the round
        ("uncapped-when-two-remain", False),
    ],
)
def test_limit_cap_heads_up_after_a_fold(policy: CapHeadsUp, capped: bool) -> None:
    """R5.limit-cap-heads-up: three start the round, one folds: the options now differ."""
    result = play(
        [
            *blinds(sb="1.00", bb="2.00"),
            fold(3),
            raise_to(1, "4.00"),
            raise_to(2, "6.00"),
            raise_to(1, "8.00"),
            raise_to(2, "10.00"),  # seq 6: a fourth raise
            call(1, "2.00"),
            *checked_streets([1, 2]),
        ],
        replace(STANDARD, cap_heads_up=policy),
        **_limit(seats=3),
    )
    expected = [("raise-cap-exceeded", 6)] if capped else []
    assert found(result) == expected
    assert result.status is _status(expected)
    if capped:
        assert result.violations[0].code is Code.RAISE_CAP_EXCEEDED
