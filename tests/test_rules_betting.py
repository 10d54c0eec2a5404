"""Betting rounds (RULES.md §4: R4.preflop-order, R4.postflop-order, R4.actions, R4.round-end,
R4.uncalled) and chips a player does not have (exceeds-stack).

Pot limit at $0.50/$1 with $100 stacks, three seats, button on seat 3: pre-flop the order
is 3, 1, 2; after the flop 1, 2, 3. In the usual limped hand below, posts are seq 0-1,
pre-flop 2-4 and the flop is seq 5.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pipeline.model import Status
from pipeline.rules import Street
from pipeline.violations import Code
from tests.handbuilder import (
    BOARD,
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
    play,
    post,
    raise_to,
    step,
    uncalled,
)

LIMPED = [*blinds(), call(3, "1.00"), call(1, "0.50"), check(2)]
"""Pre-flop: seat 3 calls, seat 1 completes, seat 2 checks (seq 0-4)."""

TURN_AND_RIVER = checked_streets([1, 2, 3], BOARD[1:])


def _status(expected: Sequence[tuple[str, int | None]]) -> Status:
    return Status.VIOLATIONS if expected else Status.OK


# ---------------------------------------------------------------------------- R4.rounds


def test_rounds_four_betting_rounds_then_showdown() -> None:
    """R4.rounds: pre-flop, flop, turn, river; then the hand goes to showdown."""
    result = play([*LIMPED, *checked_streets([1, 2, 3])])
    assert [s.street for s in result.steps if s.type == "board"] == [
        Street.FLOP,
        Street.TURN,
        Street.RIVER,
    ]
    assert result.street is Street.SHOWDOWN
    assert result.showdown
    assert result.pot == 300
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- R4.*-order


def test_preflop_order_under_the_gun_acts_first() -> None:
    """R4.preflop-order: pre-flop the player left of the big blind (seat 3) acts first."""
    result = play(
        [
            *blinds(),
            call(1, "0.50"),  # seq 2: seat 3's turn
            check(2),
            call(3, "1.00"),
            *checked_streets([1, 2, 3]),
        ]
    )
    assert found(result) == [("action-out-of-turn", 2)]
    violation = result.violations[0]
    assert (violation.rule, violation.expected, violation.actual) == (
        "R4.preflop-order",
        "seat 3",
        "seat 1",
    )
    assert result.status is Status.VIOLATIONS


def test_one_action_out_of_turn_is_one_violation_whoever_acts_next() -> None:
    """R4.preflop-order: seat 3 is under the gun; the button (seat 4) acts first. Whether
    the skipped player (seat 3) or the one after the button (seat 1) acts next, only the
    button's action is out of turn."""
    skipped_next = [*blinds(), call(4, "1.00"), call(3, "1.00"), call(1, "0.50"), check(2)]
    button_next = [*blinds(), call(4, "1.00"), call(1, "0.50"), check(2), call(3, "1.00")]
    for actions in (skipped_next, button_next):
        result = play([*actions, *checked_streets([1, 2, 3, 4])], seats=4)
        assert found(result) == [("action-out-of-turn", 2)]
        assert (result.violations[0].expected, result.violations[0].actual) == (
            "seat 3",
            "seat 4",
        )


def test_after_an_action_out_of_turn_only_the_player_it_skipped_is_spared() -> None:
    """R4.postflop-order: on the flop seat 2 checks before seat 1 (one fault), seat 1 then
    checks (spared: it was skipped); seat 4 bets before seat 3 (a fault), and seat 2's fold
    before seat 3 is one more: only seat 3 may act next without being out of turn."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(4, "1.00"),
            call(1, "0.50"),
            check(2),
            board("2c3d4h"),
            check(2),  # seq 7: seat 1's turn
            check(1),
            bet(4, "1.00"),  # seq 9: seat 3's turn
            fold(2),  # seq 10: still seat 3's turn
            call(3, "1.00"),
            fold(1),
            *checked_streets([3, 4], BOARD[1:]),
        ],
        seats=4,
    )
    assert found(result) == [
        ("action-out-of-turn", 7),
        ("action-out-of-turn", 9),
        ("action-out-of-turn", 10),
    ]
    assert [v.expected for v in result.violations] == ["seat 1", "seat 3", "seat 3"]


def test_a_bet_the_betting_was_not_reopened_for_says_bets() -> None:
    """R5.reopen: seat 1 checked; with no bet since, its bet out of turn is not a raise."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(4, "1.00"),
            call(1, "0.50"),
            check(2),
            board("2c3d4h"),
            check(1),
            check(3),  # seq 8: seat 2's turn
            check(2),
            bet(1, "2.00"),  # seq 10: seat 4's turn
            fold(4),
            fold(2),
            fold(3),
            uncalled(1, "2.00"),
        ],
        seats=4,
    )
    reopen = next(v for v in result.violations if v.code is Code.RAISE_NOT_REOPENED)
    assert reopen.message == "bets 2.00 but the betting was not reopened to this player"


def test_players_acting_out_of_turn_in_a_row_are_each_out_of_turn() -> None:
    """R4.postflop-order: seat 1 is first on the flop; seats 3, 5 and 4 check before it:
    three faults, each while it was seat 1's turn."""
    preflop = [*blinds(), *(call(s, "1.00") for s in (3, 4, 5, 6)), call(1, "0.50"), check(2)]
    result = play(
        [
            *preflop,
            board("2c3d4h"),
            check(3),  # seq 9
            check(5),
            check(4),
            check(1),
            check(2),
            check(6),
            *checked_streets([1, 2, 3, 4, 5, 6], BOARD[1:]),
        ],
        seats=6,
    )
    assert found(result) == [("action-out-of-turn", seq) for seq in (9, 10, 11)]
    assert {v.expected for v in result.violations} == {"seat 1"}


def test_postflop_order_first_active_left_of_the_button() -> None:
    """R4.postflop-order: after the flop seat 1 acts first."""
    result = play(
        [
            *LIMPED,
            board("2c3d4h"),
            check(2),  # seq 6: seat 1's turn
            check(3),
            check(1),
            *TURN_AND_RIVER,
        ]
    )
    assert found(result) == [("action-out-of-turn", 6)]
    assert result.violations[0].rule == "R4.postflop-order"
    assert result.status is Status.VIOLATIONS


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [(2, 3, []), (3, 2, [("action-out-of-turn", 6)])],
)
def test_postflop_order_skips_a_folded_player(
    first: int, second: int, expected: list[tuple[str, int]]
) -> None:
    """R4.postflop-order: seat 1 folded, so seat 2 is the first active player left of the button."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            fold(1),
            check(2),
            board("2c3d4h"),
            check(first),  # seq 6
            check(second),
            *checked_streets([2, 3], BOARD[1:]),
        ]
    )
    assert found(result) == expected
    assert result.status is _status(expected)


# ---------------------------------------------------------------------------- R4.actions


def test_check_facing_bet() -> None:
    """R4.actions: check only when there is nothing to call."""
    result = play(
        [
            *LIMPED,
            board("2c3d4h"),
            bet(1, "1.00"),
            check(2),  # seq 7
            call(3, "1.00"),
            *TURN_AND_RIVER,
        ]
    )
    assert legal_at(result, 7).to_call == "1.00"
    assert found(result) == [("check-facing-bet", 7)]
    assert result.violations[0].rule == "R4.actions"
    assert result.status is Status.VIOLATIONS


def test_bet_facing_bet() -> None:
    """R4.actions: a bet only when nobody has bet in the round; after a bet it is a raise."""
    result = play(
        [
            *LIMPED,
            board("2c3d4h"),
            bet(1, "1.00"),
            bet(2, "3.00"),  # seq 7
            fold(3),
            fold(1),
            uncalled(2, "2.00"),
        ]
    )
    assert found(result) == [("bet-facing-bet", 7)]
    assert result.status is Status.VIOLATIONS


def test_raise_without_bet() -> None:
    """R4.actions: a raise needs a bet to raise."""
    result = play(
        [*LIMPED, board("2c3d4h"), raise_to(1, "1.00"), fold(2), fold(3), uncalled(1, "1.00")]
    )
    assert found(result) == [("raise-without-bet", 6)]
    assert result.status is Status.VIOLATIONS


def test_bet_facing_bet_preflop_the_big_blind_is_the_bet() -> None:
    """R4.actions, R2.live-blinds: pre-flop the big blind is the bet, so a `bet` is wrong."""
    result = play([*blinds(), bet(3, "2.00"), fold(1), fold(2), uncalled(3, "1.00")])
    assert found(result) == [("bet-facing-bet", 2)]


@pytest.mark.parametrize(
    ("amount", "expected"),
    [("1.00", []), ("0.90", [("call-wrong-amount", 2)]), ("1.10", [("call-wrong-amount", 2)])],
)
def test_call_wrong_amount(amount: str, expected: list[tuple[str, int]]) -> None:
    """R4.actions: a call puts in exactly what is owed."""
    tail = [uncalled(3, "0.10")] if amount == "1.10" else []
    result = play(
        [*blinds(), call(3, amount), call(1, "0.50"), check(2), *tail, *checked_streets([1, 2, 3])]
    )
    assert legal_at(result, 2).to_call == "1.00"
    assert found(result) == expected
    assert result.status is _status(expected)
    if expected:
        assert (result.violations[0].expected, result.violations[0].actual) == ("1.00", amount)


def test_call_with_nothing_to_call() -> None:
    """R4.actions: with nothing owed the action is a check, not a call."""
    result = play(
        [*blinds(), call(3, "1.00"), call(1, "0.50"), call(2, "0.00"), *checked_streets([1, 2, 3])]
    )
    assert found(result) == [("call-wrong-amount", 4)]
    assert result.violations[0].expected == "a check"


# ---------------------------------------------------------------------------- R4.round-end


def test_round_end_flop_dealt_before_the_big_blind_acted() -> None:
    """R4.round-end: the round is not over until every player able to act has acted."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            board("2c3d4h"),  # seq 4: seat 2 has not acted
            check(1),
            check(2),
            check(3),
            *TURN_AND_RIVER,
        ]
    )
    assert found(result) == [("street-dealt-early", 4)]
    assert result.violations[0].rule == "R4.round-end"
    assert result.status is Status.VIOLATIONS


def test_round_end_turn_dealt_before_everyone_matched_the_bet() -> None:
    """R4.round-end: seat 3 has not answered the flop bet when the turn comes."""
    result = play(
        [
            *LIMPED,
            board("2c3d4h"),
            bet(1, "1.00"),
            call(2, "1.00"),
            board("9s"),  # seq 8
            check(1),
            check(2),
            check(3),
            board("Kd"),
            check(1),
            check(2),
            check(3),
        ]
    )
    assert found(result) == [("street-dealt-early", 8)]


def test_round_end_all_in_players_need_no_more_betting() -> None:
    """R4.round-end: when everyone is all-in the board is dealt with no betting."""
    result = play(
        [
            *blinds(),
            raise_to(3, "3.00", all_in=True),
            call(1, "2.50", all_in=True),
            call(2, "2.00", all_in=True),
            *(board(cards) for cards in BOARD),
        ],
        stacks="3.00",
    )
    assert result.all_in == (True, True, True)
    assert result.showdown
    assert found(result) == []
    assert result.status is Status.OK


@pytest.mark.parametrize(
    "actions",
    [
        [*blinds(), call(3, "1.00")],
        [*LIMPED, board("2c3d4h"), check(1), check(2), check(3)],
        [*LIMPED, *checked_streets([1, 2, 3], BOARD[:2]), board("Kd"), check(1), check(2)],
    ],
    ids=["pre-flop", "flop", "river"],
)
def test_round_end_hand_not_finished(actions: list[Json]) -> None:
    """R4.round-end: a log that stops with players still to act or cards still to come."""
    result = play(actions)
    assert found(result) == [("hand-not-finished", None)]
    assert result.status is Status.VIOLATIONS


@pytest.mark.parametrize(
    "after",
    [board("9s"), check(2), bet(1, "1.00")],
    ids=["board", "check", "bet"],
)
def test_round_end_an_uncontested_hand_ends_at_once(after: Json) -> None:
    """R4.round-end: a hand won uncontested ends at once: no more cards, no more actions."""
    result = play(
        [
            *LIMPED,
            board("2c3d4h"),
            bet(1, "1.00"),
            fold(2),
            fold(3),
            uncalled(1, "1.00"),
            after,  # seq 10
        ]
    )
    assert found(result) == [("action-after-hand-end", 10)]
    assert result.status is Status.INVALID
    assert max(s.seq for s in result.steps) == 10


def test_round_end_no_action_after_the_river_closed() -> None:
    """R4.round-end: once the river round has closed the betting is over."""
    result = play([*LIMPED, *checked_streets([1, 2, 3]), bet(1, "1.00")])  # seq 17
    assert found(result) == [("action-after-hand-end", 17)]
    assert result.status is Status.INVALID


# ---------------------------------------------------------------------------- R4.uncalled


def _flop_bet_folded_to(*tail: Json) -> list[Json]:
    """Seat 1 bets 1.00 on the flop (seq 6), seats 2 and 3 fold (seq 7, 8)."""
    return [*LIMPED, board("2c3d4h"), bet(1, "1.00"), fold(2), fold(3), *tail]


def test_uncalled_bet_returned() -> None:
    """R4.uncalled: an unmatched bet goes back to its maker."""
    result = play(_flop_bet_folded_to(uncalled(1, "1.00")))
    assert result.uncalled == ((1, 100),)
    assert result.invested == (100, 100, 100)
    assert found(result) == []
    assert result.status is Status.OK


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        ([uncalled(1, "0.90")], [("uncalled-bet-mismatch", 9)]),  # its seat's return, wrong
        ([uncalled(2, "1.00")], [("uncalled-bet-mismatch", 9), ("uncalled-bet-mismatch", None)]),
        ([], [("uncalled-bet-mismatch", None)]),
    ],
    ids=["wrong-amount", "wrong-seat", "missing-line"],
)
def test_uncalled_bet_mismatch(tail: list[Json], expected: list[tuple[str, int | None]]) -> None:
    """R4.uncalled: the log must return exactly the unmatched part, to its maker."""
    result = play(_flop_bet_folded_to(*tail))
    assert found(result) == expected
    assert all(v.rule == "R4.uncalled" for v in result.violations)
    assert result.status is Status.VIOLATIONS


def test_uncalled_line_where_nothing_is_uncalled() -> None:
    """R4.uncalled: a called bet is not returned."""
    result = play(
        [
            *LIMPED,
            board("2c3d4h"),
            bet(1, "1.00"),
            call(2, "1.00"),
            fold(3),
            uncalled(1, "1.00"),  # seq 9
            *checked_streets([1, 2], BOARD[1:]),
        ]
    )
    assert found(result) == [("uncalled-bet-mismatch", 9)]


def test_uncalled_part_above_a_short_all_in_call() -> None:
    """R4.uncalled, R5.all-in: bet 3.00, called all-in for 2.00: 1.00 goes back."""
    result = play(
        [
            *LIMPED,
            board("2c3d4h"),
            bet(1, "3.00"),
            call(2, "2.00", all_in=True),
            fold(3),
            uncalled(1, "1.00"),
            *(board(cards) for cards in BOARD[1:]),
        ],
        stacks=["100.00", "3.00", "100.00"],
    )
    assert legal_at(result, 7).to_call == "2.00"
    assert result.uncalled == ((1, 100),)
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- exceeds-stack


@pytest.mark.parametrize(
    ("actions", "seq"),
    [
        ([post(1, "small", "0.50")], 0),
        ([*blinds(), call(3, "1.00")], 2),
        ([*blinds(), raise_to(3, "3.00")], 2),
    ],
    ids=["post", "call", "raise"],
)
def test_exceeds_stack_is_fatal(actions: list[Json], seq: int) -> None:
    """R9.exact: nobody puts in chips they do not have; the replay stops there (invalid)."""
    stacks = ["0.40", "100.00", "100.00"] if seq == 0 else ["100.00", "100.00", "0.80"]
    result = play([*actions, fold(1), fold(2)], stacks=stacks)
    assert found(result) == [("exceeds-stack", seq)]
    assert result.status is Status.INVALID
    assert max(s.seq for s in result.steps) == seq


def test_legal_range_shape() -> None:
    """R4.actions: the first pre-flop action sees call 1.00 and raise-to 2.00 … 3.50."""
    result = play([*LIMPED, *checked_streets([1, 2, 3])])
    assert legal_at(result, 2) == Legal(to_call="1.00", min_to="2.00", max_to="3.50")


def test_the_pot_before_an_uncalled_bet_line_still_holds_the_bet_it_returns() -> None:
    """R4.uncalled: the rules return the bet when the round closes (at the last fold), and
    the log's line says so after; 'pot before' that line still counts the returned chips,
    as every other action's does (3.00 limped + 3.00 bet = 6.00)."""
    result = play([*LIMPED, board("2c3d4h"), bet(1, "3.00"), fold(2), fold(3), uncalled(1, "3.00")])
    assert found(result) == []
    assert step(result, 8).pot_before == 600  # the last fold: the bet is in the middle
    assert step(result, 9).pot_before == 600  # and still is until this line returns it
