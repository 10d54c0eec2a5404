"""Pot limit, no limit and all-in betting (RULES.md §5: R5.pl-*, R5.nl-limits, R5.all-in …).

Every hand here is played at a table built by :mod:`tests.handbuilder`: seats 1..n, the
button on the last seat, so seat 1 posts the small blind and seat 2 the big blind
(heads-up: the button, seat 2, posts the small blind). Amounts are cents.
"""

from __future__ import annotations

import pytest

from pipeline.model import Status
from pipeline.violations import Code
from tests.handbuilder import (
    BOARD,
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
    step,
    uncalled,
)

# ---------------------------------------------------------------------------- R5.pl-max


@pytest.mark.parametrize(
    ("to", "back", "expected"),
    [
        ("400.00", "300.00", []),
        ("400.01", "300.01", [("raise-above-pot-limit", 6)]),
    ],
)
def test_pl_max_pot_100_bet_100_raise_to_at_most_400(
    to: str, back: str, expected: list[tuple[str, int]]
) -> None:
    """R5.pl-max [004]: pot $100, a bet of $100; the next may raise to at most $400."""
    result = play(
        [
            post(2, "small", "25.00"),
            post(1, "big", "50.00"),
            call(2, "25.00"),
            check(1),
            board("2c3d4h"),
            bet(1, "100.00"),
            raise_to(2, to),  # seq 6
            fold(1),
            uncalled(2, back),
        ],
        seats=2,
        small_blind="25.00",
        big_blind="50.00",
        stacks="1000.00",
    )
    assert step(result, 6).pot_before == 200_00
    assert legal_at(result, 6) == Legal(to_call="100.00", min_to="200.00", max_to="400.00")
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)
    if expected:
        (violation,) = result.violations
        assert violation.rule == "R5.pl-max"
        assert (violation.seat, violation.expected, violation.actual) == (2, "400.00", "400.01")


@pytest.mark.parametrize(
    ("to", "expected"), [("7.00", []), ("7.01", [("raise-above-pot-limit", 2)])]
)
def test_pl_max_preflop_at_1_2_the_first_player_raises_to_at_most_7(
    to: str, expected: list[tuple[str, int]]
) -> None:
    """R5.pl-max: pre-flop at $1/$2 the first player may raise to at most $7."""
    back = minus(to, "2.00")
    result = play(
        [*blinds(sb="1.00", bb="2.00"), raise_to(3, to), fold(1), fold(2), uncalled(3, back)],
        small_blind="1.00",
        big_blind="2.00",
    )
    assert legal_at(result, 2) == Legal(to_call="2.00", min_to="4.00", max_to="7.00")
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)


@pytest.mark.parametrize(
    ("blind", "amount", "max_to"),
    [("both", "1.50", "5.00"), ("big", "1.00", "4.50")],
)
def test_pl_max_counts_a_dead_small_blind_in_the_pot(blind: str, amount: str, max_to: str) -> None:
    """R5.pl-max, R2.dead-blind: the dead half of a `both` post is in the pot, so it raises the max.

    Seat 4 (the button) posts to come in: `both` (0.50 dead + 1.00 live) or a live `big`.
    Under the gun (seat 3) may raise to 1.00 + pot + 1.00 to call.
    """
    actions = [
        *blinds(),
        post(4, blind, amount),
        raise_to(3, max_to),  # seq 3
        fold(4),
        fold(1),
        fold(2),
        uncalled(3, minus(max_to, "1.00")),
    ]
    result = play(actions, seats=4)
    assert legal_at(result, 3) == Legal(to_call="1.00", min_to="2.00", max_to=max_to)
    assert found(result) == []
    assert result.status is Status.OK
    over = play([*actions[:3], raise_to(3, plus(max_to, "0.01"))], seats=4)
    assert (Code.RAISE_ABOVE_POT_LIMIT, 3) in [(v.code, v.seq) for v in over.violations]


@pytest.mark.parametrize(
    ("to", "expected"), [("3.80", []), ("3.81", [("raise-above-pot-limit", 5)])]
)
def test_pl_max_counts_antes_in_the_pot(to: str, expected: list[tuple[str, int]]) -> None:
    """R5.pl-max, R2.antes: antes are dead money in the pot: 1.00 + (0.30 + 1.50) + 1.00."""
    result = play(
        [
            post(1, "ante", "0.10"),
            post(2, "ante", "0.10"),
            post(3, "ante", "0.10"),
            *blinds(),
            raise_to(3, to),  # seq 5
            fold(1),
            fold(2),
            uncalled(3, minus(to, "1.00")),
        ],
        ante="0.10",
    )
    assert step(result, 5).pot_before == 180
    assert legal_at(result, 5) == Legal(to_call="1.00", min_to="2.00", max_to="3.80")
    assert found(result) == expected


def test_pl_max_formula_on_the_flop_with_a_bet_and_a_raise() -> None:
    """R5.pl-max: max raise-to = highest bet + (pot before the round + bets + to call)."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            board("2c3d4h"),
            bet(1, "3.00"),  # seq 6: pot 3.00
            raise_to(2, "12.00"),  # seq 7: 3 + (3 + 3 + 3)
            raise_to(3, "42.00"),  # seq 8: 12 + (3 + 3 + 12 + 12)
            fold(1),
            fold(2),
            uncalled(3, "30.00"),
        ]
    )
    assert legal_at(result, 6) == Legal(to_call="0.00", min_to="1.00", max_to="3.00")
    assert legal_at(result, 7) == Legal(to_call="3.00", min_to="6.00", max_to="12.00")
    assert legal_at(result, 8) == Legal(to_call="12.00", min_to="21.00", max_to="42.00")
    assert found(result) == []
    assert result.status is Status.OK


def test_pl_max_is_capped_by_the_stack() -> None:
    """R5.pl-max, R5.nl-limits: nobody may put in more than they have; the all-in is the max."""
    result = play(
        [*blinds(), raise_to(3, "3.00", all_in=True), fold(1), fold(2), uncalled(3, "2.00")],
        stacks=["100.00", "100.00", "3.00"],
    )
    assert legal_at(result, 2) == Legal(to_call="1.00", min_to="2.00", max_to="3.00")
    assert found(result) == []
    assert result.status is Status.OK


def test_pl_max_an_all_in_above_the_pot_is_still_above_the_limit() -> None:
    """R5.pl-max: in pot limit a player may not go all-in for more than the pot."""
    result = play(
        [*blinds(), raise_to(3, "10.00", all_in=True), fold(1), fold(2), uncalled(3, "9.00")],
        stacks=["100.00", "100.00", "10.00"],
    )
    assert legal_at(result, 2) == Legal(to_call="1.00", min_to="2.00", max_to="3.50")
    assert found(result) == [("raise-above-pot-limit", 2)]
    assert result.status is Status.VIOLATIONS


def test_bet_above_pot_limit_on_the_flop() -> None:
    """R5.pl-max: with 3.00 in the pot, a bet of 3.01 is bet-above-pot-limit (not a raise)."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            board("2c3d4h"),
            bet(1, "3.01"),  # seq 6
            fold(2),
            fold(3),
            uncalled(1, "3.01"),
        ]
    )
    assert found(result) == [("bet-above-pot-limit", 6)]
    assert result.violations[0].rule == "R5.pl-max"
    assert result.status is Status.VIOLATIONS


# ---------------------------------------------------------------------------- R5.pl-min


def _flop_bet(amount: str) -> list[Json]:
    return [
        *blinds(),
        call(3, "1.00"),
        call(1, "0.50"),
        check(2),
        board("2c3d4h"),
        bet(1, amount),  # seq 6
    ]


@pytest.mark.parametrize(
    ("amount", "expected"), [("1.00", []), ("0.99", [("bet-below-minimum", 6)])]
)
def test_pl_min_bet_is_the_big_blind(amount: str, expected: list[tuple[str, int]]) -> None:
    """R5.pl-min: the smallest bet is the big blind."""
    result = play([*_flop_bet(amount), fold(2), fold(3), uncalled(1, amount)])
    assert legal_at(result, 6).min_to == "1.00"
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)
    if expected:
        assert result.violations[0].rule == "R5.pl-min"


@pytest.mark.parametrize(("to", "expected"), [("4.00", []), ("3.99", [("raise-below-minimum", 7)])])
def test_pl_min_raise_is_the_previous_bet(to: str, expected: list[tuple[str, int]]) -> None:
    """R5.pl-min: after a bet of 2.00 the smallest raise is to 4.00."""
    result = play(
        [*_flop_bet("2.00"), raise_to(2, to), fold(3), fold(1), uncalled(2, minus(to, "2.00"))]
    )
    assert legal_at(result, 7) == Legal(to_call="2.00", min_to="4.00", max_to="9.00")
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)


@pytest.mark.parametrize("to", ["1.99", "1.00"])
def test_pl_min_preflop_raise_is_twice_the_big_blind(to: str) -> None:
    """R5.pl-min: pre-flop the big blind is the bet; a raise must be to at least 2.00."""
    result = play([*blinds(), raise_to(3, to), fold(1), fold(2)])
    assert legal_at(result, 2).min_to == "2.00"
    assert ("raise-below-minimum", 2) in found(result)
    assert result.status is Status.VIOLATIONS


def test_pl_min_a_raise_by_the_size_of_the_last_raise() -> None:
    """R5.pl-min: bet 2, raise to 6 (by 4): the next raise is to at least 10."""
    result = play(
        [
            *_flop_bet("2.00"),
            raise_to(2, "6.00"),
            raise_to(3, "9.99"),  # seq 8
            fold(1),
            fold(2),
            uncalled(3, "3.99"),
        ]
    )
    assert legal_at(result, 8).min_to == "10.00"
    assert found(result) == [("raise-below-minimum", 8)]


def test_pl_no_cap_on_the_number_of_raises() -> None:
    """R5.pl-no-cap: six raises in one pot-limit round are all legal."""
    result = play(
        [
            *blinds(),
            raise_to(3, "2.00"),
            raise_to(1, "3.00"),
            raise_to(2, "4.00"),
            raise_to(3, "5.00"),
            raise_to(1, "6.00"),
            raise_to(2, "7.00"),  # seq 7
            call(3, "2.00"),
            call(1, "1.00"),
            *checked_streets([1, 2, 3]),
        ]
    )
    assert legal_at(result, 7).min_to == "7.00"
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- R5.nl-limits


def test_nl_bet_may_be_all_the_players_chips() -> None:
    """R5.nl-limits: no limit: min bet the big blind, max all the player's chips."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            board("2c3d4h"),
            bet(1, "99.00", all_in=True),  # seq 6
            fold(2),
            fold(3),
            uncalled(1, "99.00"),
        ],
        betting="no-limit",
    )
    assert legal_at(result, 6) == Legal(to_call="0.00", min_to="1.00", max_to="99.00")
    assert found(result) == []
    assert result.status is Status.OK


@pytest.mark.parametrize(("to", "expected"), [("4.00", []), ("3.99", [("raise-below-minimum", 7)])])
def test_nl_min_raise_is_the_previous_bet(to: str, expected: list[tuple[str, int]]) -> None:
    """R5.nl-limits: the smallest raise is by the previous bet or raise."""
    result = play(
        [
            *_flop_bet("2.00"),
            raise_to(2, to),
            fold(3),
            fold(1),
            uncalled(2, minus(to, "2.00")),
        ],
        betting="no-limit",
    )
    assert legal_at(result, 7) == Legal(to_call="2.00", min_to="4.00", max_to="99.00")
    assert found(result) == expected
    if expected:
        assert result.violations[0].rule == "R5.nl-limits"


@pytest.mark.parametrize(
    ("to", "expected"), [("3.50", []), ("3.51", [("raise-above-pot-limit", 2)])]
)
def test_pl_preflop_nl_postflop(to: str, expected: list[tuple[str, int]]) -> None:
    """R5.pl-max, R5.nl-limits: pot limit before the flop, no limit after it."""
    result = play(
        [
            *blinds(),
            raise_to(3, to),  # seq 2: pot limit 3.50
            fold(1),
            call(2, minus(to, "1.00")),
            board("2c3d4h"),
            bet(2, "50.00"),  # seq 6: no limit, far above the pot
            fold(3),
            uncalled(2, "50.00"),
        ],
        betting="pl-preflop-nl-postflop",
    )
    assert legal_at(result, 2).max_to == "3.50"
    assert legal_at(result, 6).max_to == minus("100.00", to)
    assert found(result) == expected


# ---------------------------------------------------------------------------- R5.all-in


def test_all_in_call_for_less() -> None:
    """R5.all-in: a player may call all-in for less; the call owed is capped at the stack."""
    result = play(
        [
            *blinds(),
            raise_to(3, "3.50"),
            call(1, "2.50", all_in=True),  # seq 3: had 2.50 behind, 3.00 to call
            fold(2),
            uncalled(3, "0.50"),
            *(board(cards) for cards in BOARD),
        ],
        stacks=["3.00", "100.00", "100.00"],
    )
    assert legal_at(result, 3).to_call == "2.50"
    assert step(result, 3).all_in
    assert found(result) == []
    assert result.status is Status.OK


@pytest.mark.parametrize("betting", ["no-limit", "pot-limit"])
def test_all_in_raise_for_less_than_a_full_raise(betting: str) -> None:
    """R5.all-in: an all-in raise below the minimum raise is allowed (bet 100, all-in to 150)."""
    result = play([*_short_all_in_flop(), fold(3), fold(1), uncalled(2, "50.00")], **_deep(betting))
    assert legal_at(result, 7).min_to == "200.00"
    assert step(result, 7).all_in
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------- R5.min-raise-after-all-in


def _short_all_in_flop() -> list[Json]:
    """Blinds 5/10, 105 in the pot; seat 1 bets 100, seat 2 goes all-in to 150 (seq 6, 7)."""
    return [
        post(1, "small", "5.00"),
        post(2, "big", "10.00"),
        raise_to(3, "35.00"),
        call(1, "30.00"),
        call(2, "25.00"),
        board("2c3d4h"),
        bet(1, "100.00"),  # seq 6
        raise_to(2, "150.00", all_in=True),  # seq 7
    ]


def _deep(betting: str, *, seats: int = 3, short: dict[int, str] | None = None) -> HandOptions:
    """Blinds 5/10, stacks of 1000 except the ``short`` ones (seat 2: 185 by default)."""
    stacks = ["1000.00"] * seats
    for seat, stack in (short or {2: "185.00"}).items():
        stacks[seat - 1] = stack
    return HandOptions(
        small_blind="5.00", big_blind="10.00", betting=betting, seats=seats, stacks=stacks
    )


@pytest.mark.parametrize(("betting", "max_to"), [("no-limit", "965.00"), ("pot-limit", "655.00")])
@pytest.mark.parametrize(
    ("to", "expected"), [("250.00", []), ("249.99", [("raise-below-minimum", 8)])]
)
def test_min_raise_after_a_short_all_in_goes_by_the_last_full_raise(
    betting: str, max_to: str, to: str, expected: list[tuple[str, int]]
) -> None:
    """R5.min-raise-after-all-in: bet 100, short all-in to 150: the next raise is to >= 250."""
    result = play(
        [
            *_short_all_in_flop(),
            raise_to(3, to),  # seq 8
            fold(1),
            uncalled(3, minus(to, "150.00")),
            *(board(cards) for cards in BOARD[1:]),
        ],
        **_deep(betting),
    )
    assert legal_at(result, 8) == Legal(to_call="150.00", min_to="250.00", max_to=max_to)
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)


# ---------------------------------------------------------------------------- R5.reopen


@pytest.mark.parametrize("betting", ["no-limit", "pot-limit"])
def test_reopen_one_short_all_in_lets_the_bettor_only_call(betting: str) -> None:
    """R5.reopen: bet 100, all-in to 150, call: the bettor faces +50 < 100 and may not raise."""
    tail = [*checked_streets([1, 3], BOARD[1:])]
    called = play(
        [*_short_all_in_flop(), call(3, "150.00"), call(1, "50.00"), *tail],
        **_deep(betting),
    )
    assert legal_at(called, 9) == Legal(to_call="50.00", min_to=None, max_to=None)
    assert found(called) == []
    assert called.status is Status.OK

    raised = play(
        [*_short_all_in_flop(), call(3, "150.00"), raise_to(1, "400.00"), call(3, "250.00"), *tail],
        **_deep(betting),
    )
    assert found(raised) == [("raise-not-reopened", 9)]
    assert raised.violations[0].rule == "R5.reopen"
    assert raised.status is Status.VIOLATIONS


def test_reopen_preflop_a_limper_facing_a_short_all_in_raise() -> None:
    """R5.reopen: seat 3 limps, the small blind goes all-in to 1.80 (+0.80 < 1.00): seat 3
    may only call; the big blind, who has not acted, may raise."""
    actions = [
        *blinds(),
        call(3, "1.00"),
        raise_to(1, "1.80", all_in=True),
        call(2, "0.80"),  # seq 4
    ]
    stacks = ["1.80", "100.00", "100.00"]
    called = play([*actions, call(3, "0.80"), *checked_streets([2, 3])], stacks=stacks)
    assert legal_at(called, 4) == Legal(to_call="0.80", min_to="2.80", max_to="6.40")
    assert legal_at(called, 5) == Legal(to_call="0.80", min_to=None, max_to=None)
    assert found(called) == []
    raised = play(
        [*actions, raise_to(3, "4.00"), call(2, "2.20"), *checked_streets([2, 3])], stacks=stacks
    )
    assert found(raised) == [("raise-not-reopened", 5)]


@pytest.mark.parametrize("betting", ["no-limit", "pot-limit"])
def test_reopen_two_short_all_ins_that_make_a_full_raise(betting: str) -> None:
    """R5.reopen: bet 100, all-in to 150, all-in to 210: +110 >= 100 reopens the betting."""
    result = play(
        [
            post(1, "small", "5.00"),
            post(2, "big", "10.00"),
            raise_to(3, "35.00"),
            call(4, "35.00"),
            call(1, "30.00"),
            call(2, "25.00"),
            board("2c3d4h"),
            bet(1, "100.00"),  # seq 7
            raise_to(2, "150.00", all_in=True),
            raise_to(3, "210.00", all_in=True),
            call(4, "210.00"),
            raise_to(1, "500.00"),  # seq 11
            call(4, "290.00"),
            *checked_streets([1, 4], BOARD[1:]),
        ],
        **_deep(betting, seats=4, short={2: "185.00", 3: "245.00"}),
    )
    assert legal_at(result, 11) == Legal(to_call="110.00", min_to="310.00", max_to="965.00")
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- R5.short-big-blind


@pytest.mark.parametrize(
    ("amount", "back", "expected"),
    [
        ("1.00", [], []),
        # seat 3 calls only 0.60: seat 1's 1.00 is then unmatched by 0.40
        ("0.60", [uncalled(1, "0.40")], [("call-wrong-amount", 2)]),
    ],
)
def test_short_big_blind_others_still_call_the_full_blind(
    amount: str, back: list[Json], expected: list[tuple[str, int]]
) -> None:
    """R5.short-big-blind, R2.short-blind: a big blind all-in for 0.60; the call is still 1.00."""
    result = play(
        [
            post(1, "small", "0.50"),
            post(2, "big", "0.60", all_in=True),
            call(3, amount),  # seq 2
            call(1, "0.50"),
            *back,
            *checked_streets([1, 3]),
        ],
        stacks=["100.00", "0.60", "100.00"],
    )
    assert legal_at(result, 2) == Legal(to_call="1.00", min_to="2.00", max_to="3.10")
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)


def test_a_raise_below_the_last_full_raise_after_a_short_all_in_cites_that_rule() -> None:
    """R5.min-raise-after-all-in: on the flop seat 1 bets 4.00, seat 2 is all-in to 6.00 (a
    raise of 2.00, short), seat 3 raises to 9.00: the minimum is 10.00, measured from the
    last full raise (4.00), not from the 2.00 of the short one (R5.pl-min's "previous raise"
    would allow 8.00)."""
    flop = [board("Kh9s4d"), bet(1, "4.00"), raise_to(2, "6.00", all_in=True)]
    flop += [raise_to(3, "9.00")]
    limped = [*blinds(), call(3, "1.00"), call(1, "0.50"), check(2)]
    result = play([*limped, *flop], stacks=["100.00", "7.00", "100.00"])
    (below,) = [v for v in result.violations if v.code is Code.RAISE_BELOW_MINIMUM]
    assert (below.expected, below.rule) == ("10.00", "R5.min-raise-after-all-in")
    full = play([*limped, board("Kh9s4d"), bet(1, "4.00"), raise_to(3, "7.00")])
    (plain,) = [v for v in full.violations if v.code is Code.RAISE_BELOW_MINIMUM]
    assert (plain.expected, plain.rule) == ("8.00", "R5.pl-min")  # no all-in: the usual rule
    # a short raise that is not all-in is flagged itself; the next one goes by R5.pl-min
    under = [board("Kh9s4d"), bet(1, "4.00"), raise_to(2, "6.00"), raise_to(3, "9.00")]
    shorts = play([*limped, *under])
    rules = [v.rule for v in shorts.violations if v.code is Code.RAISE_BELOW_MINIMUM]
    assert rules == ["R5.pl-min", "R5.pl-min"]


def test_a_bet_is_said_by_its_amount_and_a_raise_by_its_new_total() -> None:
    """A bet of 23.97 above the pot 'bets 23.97', not 'bets to 23.97'; a raise 'raises to'."""
    limped = [*blinds(), call(3, "1.00"), call(1, "0.50"), check(2)]
    over = play([*limped, board("Kh9s4d"), bet(1, "23.97")])
    (big,) = [v for v in over.violations if v.code is Code.BET_ABOVE_POT_LIMIT]
    assert big.message == "bets 23.97; the pot limit is 3.00"
    short = play([*limped, board("Kh9s4d"), bet(1, "2.00"), raise_to(2, "3.00")])
    (small,) = [v for v in short.violations if v.code is Code.RAISE_BELOW_MINIMUM]
    assert small.message == "raises to 3.00; the minimum is 4.00"
