"""The rules engine, hand by hand: the table (R1.players, R1.button, R2.blind-sizes stakes),
hand statuses, and the showdown order (R8.showdown-order).

The other rules have their own files: ``test_rules_forced.py`` (§2), ``test_rules_cards.py``
(§3), ``test_rules_betting.py`` (§4), ``test_rules_limit.py`` and ``test_rules_potlimit.py``
(§5). Hands are built with :mod:`tests.handbuilder`: pot limit at $0.50/$1, $100 stacks,
seats 1..n, the button on the last seat (seat 1 small blind, seat 2 big blind).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.model import ActionType, Status
from pipeline.rules import STANDARD, Replay, RuleSet, Step, Street
from pipeline.rules.context import NO_CHIPS, STEP_FIELDS, make_step, raw_chips, with_codes
from pipeline.violations import Code, Severity
from tests.handbuilder import (
    BOARD,
    HandOptions,
    Json,
    bet,
    blinds,
    board,
    call,
    check,
    checked_streets,
    deal,
    errors,
    fold,
    found,
    muck,
    play,
    post,
    raise_to,
    show,
    step,
    uncalled,
)

WALK = [*blinds(), fold(3), fold(1), uncalled(2, "0.50")]
"""Everyone folds to the big blind (seq 0-4)."""

LIMPED = [*blinds(), call(3, "1.00"), call(1, "0.50"), check(2)]
"""Pre-flop: seat 3 calls, seat 1 completes, seat 2 checks (seq 0-4)."""

HOLE = {1: "AhKhQhJh", 2: "5c6c7c8c", 3: "8d9dTdJd"}
"""Cards shown at showdown (none on ``BOARD``)."""


def _shows(*seats: int) -> list[Json]:
    return [show(seat, HOLE[seat]) for seat in seats]


# ---------------------------------------------------------------------------- R1.players


@pytest.mark.parametrize("players", [2, 10])
def test_players_2_to_10_at_a_table(players: int) -> None:
    """R1.players: two to ten players is a table."""
    if players == 2:
        actions = [post(2, "small", "0.50"), post(1, "big", "1.00"), fold(2), uncalled(1, "0.50")]
    else:
        folds = [fold(seat) for seat in range(3, players + 1)]
        actions = [*blinds(), *folds, fold(1), uncalled(2, "0.50")]
    result = play(actions, seats=players)
    assert len(result.seats) == players
    assert found(result) == []
    assert result.status is Status.OK


def test_too_few_players() -> None:
    """R1.players: one player is no hand; the replay stops before the first action."""
    result = play([post(1, "big", "1.00")], seats=1)
    assert found(result) == [("too-few-players", None)]
    assert result.violations[0].rule == "R1.players"
    assert result.status is Status.INVALID
    assert result.steps == ()


def _eleven() -> list[Json]:
    return [*blinds(), *(fold(seat) for seat in range(3, 12)), fold(1), uncalled(2, "0.50")]


def test_too_many_players_is_reported() -> None:
    """R1.players: at most ten players; eleven is too-many-players (a hand-level violation)."""
    result = play(_eleven(), seats=11)
    assert found(result) == [("too-many-players", None)]
    assert result.violations[0].rule == "R1.players"
    assert result.status is not Status.OK


def test_too_many_players_is_an_error_but_the_hand_is_still_judged() -> None:
    """R1.players: eleven at one table is an error; the rest of the hand can still be judged."""
    result = play(_eleven(), seats=11)
    assert found(result) == [("too-many-players", None)]
    assert result.status is Status.VIOLATIONS


def test_duplicate_seat() -> None:
    """R1.players: one player per seat; a seat listed twice stops the replay."""
    result = play(WALK, seats=[1, 2, 2, 3], players=["a", "b", "c", "d"])
    assert found(result) == [("duplicate-seat", None)]
    assert result.violations[0].seat == 2
    assert result.status is Status.INVALID
    assert result.steps == ()


def test_duplicate_player() -> None:
    """R1.players: every player plays for themself: one name in two seats."""
    result = play(WALK, players=["a", "b", "a"])
    assert found(result) == [("duplicate-player", None)]
    assert result.status is Status.VIOLATIONS


def test_unknown_seat_stops_the_replay() -> None:
    """R1.players: an action by a seat that is not dealt in makes the rest meaningless."""
    result = play([*blinds(), fold(7), fold(3), fold(1), uncalled(2, "0.50")])
    assert found(result) == [("unknown-seat", 2)]
    assert result.violations[0].seat == 7
    assert result.status is Status.INVALID
    assert [s.seq for s in result.steps] == [0, 1, 2]
    assert result.steps[-1].codes == (Code.UNKNOWN_SEAT,)


def test_sitting_out_seat_is_not_dealt_in() -> None:
    """R1.players: a seat that is not dealt in cannot act (unknown-seat)."""
    result = play([post(5, "small", "0.50")], seats=[1, 2, 3])
    assert found(result) == [("unknown-seat", 0)]
    assert result.status is Status.INVALID


# ---------------------------------------------------------------------------- R1.button, stakes


def test_button_not_seated() -> None:
    """R1.button: the button on an empty seat (3); seat 4 is then the first seat left of it."""
    result = play(
        [post(4, "small", "0.50"), post(1, "big", "1.00"), fold(2), fold(4), uncalled(1, "0.50")],
        seats=[1, 2, 4],
        button=3,
    )
    assert result.seats == (4, 1, 2)
    assert found(result) == [("button-not-seated", None)]
    assert result.violations[0].seat == 3
    assert result.status is Status.VIOLATIONS


@pytest.mark.parametrize(
    ("stakes", "actions"),
    [
        (
            HandOptions(small_blind="1.00", big_blind="0.50"),
            [
                post(1, "small", "1.00"),
                post(2, "big", "0.50"),
                fold(3),
                check(1),
                fold(2),
                uncalled(1, "0.50"),
            ],
        ),
        (
            HandOptions(small_blind="0", big_blind="0"),
            [post(1, "small", "0"), post(2, "big", "0"), fold(3), fold(1)],
        ),
        (
            HandOptions(
                betting="fixed-limit",
                small_blind="1.00",
                big_blind="2.00",
                small_bet="2.00",
                big_bet="1.00",
            ),
            [*blinds(sb="1.00", bb="2.00"), fold(3), fold(1), uncalled(2, "1.00")],
        ),
    ],
    ids=["small-above-big", "zero-big-blind", "big-bet-below-small-bet"],
)
def test_bad_stakes(stakes: HandOptions, actions: list[Json]) -> None:
    """R2.blind-sizes: stakes that cannot be played are bad-stakes (a hand-level violation)."""
    result = play(actions, **stakes)
    assert found(result) == [("bad-stakes", None)]
    assert result.violations[0].rule == "R2.blind-sizes"
    assert result.status is Status.VIOLATIONS


def test_a_fixed_limit_big_bet_is_twice_the_small_bet() -> None:
    """R5.limit-size: the big bet is twice the small bet ($2/$6 is not a limit game)."""
    stakes: HandOptions = {
        "betting": "fixed-limit",
        "small_blind": "1.00",
        "big_blind": "2.00",
        "small_bet": "2.00",
        "big_bet": "6.00",
    }
    actions = [*blinds(sb="1.00", bb="2.00"), fold(3), fold(1), uncalled(2, "1.00")]
    result = play(actions, **stakes)
    assert found(result) == [("bad-stakes", None)]
    violation = result.violations[0]
    assert (violation.rule, violation.expected, violation.actual) == (
        "R5.limit-size",
        "4.00",
        "6.00",
    )
    stakes["big_bet"] = "4.00"
    assert play(actions, **stakes).violations == ()
    stakes["small_blind"], stakes["big_bet"] = "3.00", "6.00"  # two problems: both said
    result = play(actions, **stakes)
    messages = [v.message for v in result.violations if v.code.value == "bad-stakes"]
    assert len(messages) == 2 and "not twice the small bet" in messages[1], messages


# ---------------------------------------------------------------------------- statuses


def test_status_ok() -> None:
    """Status ok (R4.rounds): a clean hand, one step per action, no violations."""
    actions = [*LIMPED, *checked_streets([1, 2, 3]), *_shows(1, 2, 3)]
    result = play(actions)
    assert result.status is Status.OK
    assert result.violations == ()
    assert [s.seq for s in result.steps] == list(range(len(actions)))


def test_status_violations_replays_to_the_end() -> None:
    """Status violations (R4.actions): a non-fatal error; the hand is replayed to the end."""
    actions = [
        *blinds(),
        call(3, "0.90"),
        call(1, "0.50"),
        check(2),
        *checked_streets([1, 2, 3]),
    ]
    result = play(actions)
    assert found(result) == [("call-wrong-amount", 2)]
    assert result.status is Status.VIOLATIONS
    assert [s.seq for s in result.steps] == list(range(len(actions)))
    assert result.street is Street.SHOWDOWN


def test_status_invalid_stops_at_the_fatal_action() -> None:
    """Status invalid (R9.exact): chips a player does not have stop the replay at that action."""
    result = play(
        [*blinds(), call(3, "1.00"), call(1, "0.50"), raise_to(2, "150.00"), call(3, "149.00")]
    )
    assert found(result) == [("exceeds-stack", 4)]
    assert result.status is Status.INVALID
    assert max(s.seq for s in result.steps) == 4


def test_a_step_is_equal_by_its_values_which_it_lists_in_field_order() -> None:
    made = make_step(3, Street.FLOP, 2, ActionType.BET, 40, 40, 120, 500, 0, 20, 120, True)
    built = Step(3, Street.FLOP, 2, ActionType.BET, 40, 40, 120, 500, 0, 20, 120, True)
    assert made == built
    assert made != Step(3, Street.FLOP, 2, ActionType.BET, 40, 40, 120, 500, 0, 20, 120)
    assert [getattr(made, name) for name in STEP_FIELDS] == list(made.values())
    flagged = with_codes(built, (Code.IDLE_CHECK,))
    assert flagged.codes == (Code.IDLE_CHECK,) and built.codes == ()
    assert flagged != built and flagged.values()[:-1] == built.values()[:-1]
    assert repr(made).startswith("Step(seq=3, street=<Street.FLOP: 1>, seat=2, type=")


def test_a_step_keeps_missing_chips_as_no_chips_and_reads_them_as_none() -> None:
    """The chips a step may lack are kept as NO_CHIPS (C integers when compiled), and read
    as ``None``; zero is kept as zero."""
    made = make_step(5, Street.PREFLOP, 4, ActionType.FOLD, NO_CHIPS, NO_CHIPS, 75, NO_CHIPS)
    built = Step(5, Street.PREFLOP, 4, ActionType.FOLD, None, None, 75, None)
    assert made == built
    assert (made.amount, made.to, made.stack_before) == (None, None, None)
    assert (made.to_call, made.min_to, made.max_to) == (None, None, None)
    fold = (5, Street.PREFLOP, 4, ActionType.FOLD, None, None, 75, None, None, None, None)
    assert made.values() == (*fold, False, ())
    zero = Step(5, Street.PREFLOP, 4, ActionType.CHECK, 0, None, 75, 0, 0)
    assert (zero.amount, zero.stack_before, zero.to_call) == (0, 0, 0)
    assert raw_chips(None) == NO_CHIPS and raw_chips(0) == 0
    assert made != zero
    assert made != made.values()  # a step is not a tuple


def test_status_void_for_a_cancelled_hand() -> None:
    """R3.misdeal: a hand the site cancelled is void, even cut short."""
    result = play([*blinds(), deal(1, "AhKhQhJh"), deal(2, "5c6c7c8c")], cancelled=True)
    assert found(result) == []
    assert result.status is Status.VOID


def test_status_partial_for_an_incomplete_log() -> None:
    """Status partial (R4.round-end): a log the site marks incomplete is not hand-not-finished."""
    result = play([*LIMPED, board("2c3d4h"), check(1)], partial=True)
    assert found(result) == []
    assert result.status is Status.PARTIAL
    unmarked = play([*LIMPED, board("2c3d4h"), check(1)])
    assert found(unmarked) == [("hand-not-finished", None)]


def test_warnings_never_change_the_status() -> None:
    """R5.all-in: a wrong all-in flag is only a warning; the hand stays ok."""
    result = play(
        [*blinds(), raise_to(3, "3.00"), fold(1), fold(2), uncalled(3, "2.00")],
        stacks=["100.00", "100.00", "3.00"],
    )
    assert found(result) == [("all-in-flag-mismatch", 2)]
    assert result.violations[0].severity is Severity.WARNING
    assert errors(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- R8.showdown-order

_RIVER_BET = [
    *LIMPED,
    *checked_streets([1, 2, 3], BOARD[:2]),
    board(BOARD[2]),
    check(1),
    bet(2, "1.00"),
    call(3, "1.00"),
    fold(1),
]
"""Seat 2 bets the river, seat 3 calls, seat 1 folds; the first show is seq 18."""

_CHECKED = [*LIMPED, *checked_streets([1, 2, 3])]
"""Every street checked; the first show is seq 17."""

_FLOP_BET = [
    *LIMPED,
    board(BOARD[0]),
    check(1),
    check(2),
    bet(3, "1.00"),
    call(1, "1.00"),
    call(2, "1.00"),
    *checked_streets([1, 2, 3], BOARD[1:]),
]
"""Seat 3 bets the flop and is called; turn and river checked; the first show is seq 19."""

LAST_AGGRESSOR = replace(STANDARD, showdown_order="last-aggressor-any-street")


@pytest.mark.parametrize(
    ("actions", "order", "expected"),
    [
        (_RIVER_BET, (2, 3), []),
        (_RIVER_BET, (3, 2), [("showdown-order", 18)]),
        (_CHECKED, (1, 2, 3), []),
        (_CHECKED, (2, 1, 3), [("showdown-order", 17)]),
        (_FLOP_BET, (1, 2, 3), []),
        (_FLOP_BET, (3, 1, 2), [("showdown-order", 19)]),
    ],
    ids=[
        "river-bettor-first",
        "caller-first",
        "checked-left-of-button-first",
        "checked-seat-2-first",
        "flop-bet-button-rule",
        "flop-bettor-first",
    ],
)
def test_showdown_order(
    actions: list[Json], order: tuple[int, ...], expected: list[tuple[str, int]]
) -> None:
    """R8.showdown-order: the river's last aggressor shows first, else the first active player
    left of the button; a deviation is a warning and the hand stays ok."""
    result = play([*actions, *_shows(*order)])
    assert found(result) == expected
    assert errors(result) == []
    assert result.status is Status.OK
    if expected:
        violation = result.violations[0]
        assert violation.severity is Severity.WARNING
        assert violation.rule == "R8.showdown-order"
        assert violation.actual == f"seat {order[0]}"


@pytest.mark.parametrize(
    ("rules", "first", "expected"),
    [
        (LAST_AGGRESSOR, 3, []),
        (LAST_AGGRESSOR, 1, [("showdown-order", 19)]),
        (STANDARD, 3, [("showdown-order", 19)]),
    ],
)
def test_showdown_order_option_last_aggressor_any_street(
    rules: RuleSet, first: int, expected: list[tuple[str, int]]
) -> None:
    """R8.showdown-order option `last-aggressor-any-street`: the flop bettor shows first."""
    order = [first, *(seat for seat in (1, 2, 3) if seat != first)]
    result = play([*_FLOP_BET, *_shows(*order)], rules)
    assert found(result) == expected
    assert result.status is Status.OK


def test_showdown_order_a_muck_takes_the_first_turn() -> None:
    """R8.showdown-order: others show or muck in turn; the first to act may muck."""
    result = play([*_CHECKED, muck(1), *_shows(2, 3)])
    assert found(result) == []


@pytest.mark.parametrize("first", [1, 3])
def test_showdown_order_does_not_apply_all_in(first: int) -> None:
    """R8.showdown-order: all but one all-in: every hand is turned up at once, no order."""
    other = 4 - first
    result = play(
        [
            *blinds(),
            raise_to(3, "3.00", all_in=True),
            call(1, "2.50"),
            fold(2),
            *(board(cards) for cards in BOARD),
            *_shows(first, other),
        ],
        stacks=["100.00", "100.00", "3.00"],
    )
    assert found(result) == []
    assert result.status is Status.OK


# ---------------------------------------------------------------------------- streets of steps


def _all_in_preflop(*after: Json) -> Replay:
    """Seat 3 all-in pre-flop for 3.00, seat 1 calls, seat 2 folds; the flop (seq 5), then
    ``after``."""
    before = [*blinds(), raise_to(3, "3.00", all_in=True), call(1, "2.50"), fold(2)]
    return play([*before, board(BOARD[0]), *after], stacks=["100.00", "100.00", "3.00"])


def test_board_cards_dealt_all_in_are_the_streets_they_open_and_shows_the_showdown() -> None:
    """A step's street: the turn and river dealt with nobody left to bet are the turn's and
    the river's (the river was the showdown's), and the hands shown after are the showdown's."""
    turn, river = BOARD[1], BOARD[2]
    result = _all_in_preflop(board(turn), board(river), *_shows(1, 3))  # seq 6 …
    streets = [step(result, seq).street for seq in range(5, 10)]
    assert streets == [Street.FLOP, Street.TURN, Street.RIVER, Street.SHOWDOWN, Street.SHOWDOWN]


def test_runout_cards_are_the_streets_of_their_own_board() -> None:
    """R8.run-it-twice: the betting stays at the all-in's street, but each runout's cards
    are the turn and river of their board, and the shows after them are the showdown's."""
    turn, river = BOARD[1], BOARD[2]
    runs = [board(turn, run=1), board(river, run=1), board("Qs", run=2), board("Jd", run=2)]
    result = _all_in_preflop(*runs, *_shows(1, 3))  # seq 6 …
    streets = [step(result, seq).street for seq in range(5, 12)]
    assert streets == [
        Street.FLOP,
        Street.TURN,
        Street.RIVER,
        Street.TURN,
        Street.RIVER,
        Street.SHOWDOWN,
        Street.SHOWDOWN,
    ]
    assert result.street is Street.SHOWDOWN  # the hand itself reached the showdown


def test_a_bet_after_the_river_closed_is_the_rivers_though_it_ends_the_replay() -> None:
    """A bet after the river's betting closed stops the replay (action-after-hand-end); its
    step is the river's, as a check there is (it was labelled the showdown's)."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3]),
            bet(1, "1.00"),
        ]
    )
    last = len(result.hand.actions) - 1
    assert ("action-after-hand-end", last) in found(result)
    assert step(result, last).street is Street.RIVER
