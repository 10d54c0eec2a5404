"""Dealing (RULES.md §3: R3.hole-cards, R3.board, R3.burns, R3.courchevel, R3.deck-order;
R1.deck: no card twice; R8.best-hand: shown cards must be the dealt ones).

Pot limit at $0.50/$1, seats 1..n with the button on the last seat. Where a hand records
the deck (``DECK``, from the top), player index ``i`` (0: left of the button) gets the
cards at ``i, i + n, i + 2n …``; a card is burned before the flop, the turn and the river.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.cards import parse_cards
from pipeline.generate import generate_hands
from pipeline.model import ActionType, Status
from pipeline.rules.deal import _deals as deck_deals
from pipeline.rules.deal import check_deck_order
from pipeline.rules.forced import seating
from pipeline.violations import Code
from tests.handbuilder import (
    DECK,
    Json,
    bet,
    blinds,
    board,
    call,
    check,
    checked_streets,
    deal,
    fold,
    found,
    from_deck,
    hole_from_deck,
    play,
    post,
    show,
    uncalled,
)

_HANDS = ("AhKhQhJhTh9h", "5c6c7c8cTcJc", "8d9dTdJdQdAd")
"""Hole cards for seats 1, 2 and 3 (sliced to the variant's count)."""


def _fold_to_the_big_blind(deals: list[Json], exposed: list[Json] | None = None) -> list[Json]:
    """Blinds (seq 0, 1), the deals (seq 2 …), Courchevel's exposed card, then a walk."""
    return [*blinds(), *deals, *(exposed or []), fold(3), fold(1), uncalled(2, "0.50")]


# ---------------------------------------------------------------------------- R3.hole-cards


@pytest.mark.parametrize(
    ("variant", "hole_cards", "dealt", "expected"),
    [
        ("omaha", 4, 4, []),
        ("omaha", 4, 3, [("wrong-hole-card-count", 3)]),
        ("omaha", 4, 5, [("wrong-hole-card-count", 3)]),
        ("omaha", 5, 5, []),
        ("omaha", 5, 4, [("wrong-hole-card-count", 3)]),
        ("omaha-hilo", 6, 6, []),
        ("omaha", 6, 5, [("wrong-hole-card-count", 3)]),
        ("courchevel", 5, 5, []),
        ("courchevel-hilo", 5, 4, [("wrong-hole-card-count", 3)]),
    ],
)
def test_hole_cards_per_variant(
    variant: str, hole_cards: int, dealt: int, expected: list[tuple[str, int]]
) -> None:
    """R3.hole-cards: 4 in Omaha, 5 in Five-Card Omaha and Courchevel, 6 in Six-Card Omaha."""
    deals = [
        deal(seat, cards[: 2 * (dealt if seat == 2 else hole_cards)])
        for seat, cards in zip((1, 2, 3), _HANDS, strict=True)
    ]
    exposed = [board("As")] if variant.startswith("courchevel") else None
    result = play(_fold_to_the_big_blind(deals, exposed), variant=variant, hole_cards=hole_cards)
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)
    if expected:
        violation = result.violations[0]
        assert (violation.seat, violation.expected, violation.actual) == (
            2,
            str(hole_cards),
            str(dealt),
        )
        assert violation.rule == "R3.hole-cards"


def test_hole_cards_dealt_twice_to_one_seat() -> None:
    """R3.hole-cards: a second deal to the same seat makes eight cards."""
    deals = [deal(1, "AhKhQhJh"), deal(2, "2c3c4c5c"), deal(2, "6c7c8c9c"), deal(3, "8d9dTdJd")]
    result = play(_fold_to_the_big_blind(deals))
    assert found(result) == [("wrong-hole-card-count", 4)]
    assert result.violations[0].actual == "8 in two deals"
    assert "dealt a second time (4 cards, then 4)" in result.violations[0].message


def test_hole_cards_dealt_in_two_halves_say_so_not_that_four_is_wrong() -> None:
    """R3.hole-cards: two deals of two cards: the first is short; the second a second deal
    (not "dealt 4 cards; omaha deals 4")."""
    deals = [deal(1, "AhKhQhJh"), deal(2, "2c3c"), deal(2, "4c5c"), deal(3, "8d9dTdJd")]
    result = play(_fold_to_the_big_blind(deals))
    assert found(result) == [("wrong-hole-card-count", 3), ("wrong-hole-card-count", 4)]
    short, again = result.violations
    assert (short.expected, short.actual) == ("4", "2")
    assert (again.expected, again.actual) == ("4", "4 in two deals")
    assert "second time" in again.message


def test_showing_more_cards_than_dealt() -> None:
    """R3.hole-cards: an Omaha hand shows at most four cards."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3]),
            show(1, "AhKhQhJhTh"),  # seq 17
            show(2, "5c6c7c8c"),
            show(3, "8d9dTdJd"),
        ]
    )
    assert found(result) == [("wrong-hole-card-count", 17)]


# ---------------------------------------------------------------------------- R3.board


def _flop_bet_and_folds(flop: str, turn: str | None = None, river: str | None = None) -> list[Json]:
    """Everyone calls pre-flop; the board is dealt; seat 1 bets on the last street; all fold."""
    actions = [*blinds(), call(3, "1.00"), call(1, "0.50"), check(2), board(flop)]  # flop: seq 5
    for street in (turn, river):
        if street is not None:
            actions += [check(1), check(2), check(3), board(street)]  # turn: seq 9, river: 13
    return [*actions, bet(1, "1.00"), fold(2), fold(3), uncalled(1, "1.00")]


@pytest.mark.parametrize(
    ("streets", "expected"),
    [
        (("2c3d4h",), []),
        (("2c3d4h", "9s", "Kd"), []),
        (("2c3d4h5s",), [("wrong-board-size", 5)]),
        (("2c3d4h", "9s8s"), [("wrong-board-size", 9)]),
        (("2c3d4h", "9s", "KdQd"), [("wrong-board-size", 13)]),
    ],
    ids=["flop", "river", "flop-of-4", "turn-of-2", "river-of-2"],
)
def test_board_flop_3_turn_1_river_1(
    streets: tuple[str, ...], expected: list[tuple[str, int]]
) -> None:
    """R3.board: the flop is 3 cards, the turn 1, the river 1."""
    result = play(_flop_bet_and_folds(*streets))
    assert found(result) == expected
    assert result.status is (Status.VIOLATIONS if expected else Status.OK)
    if expected:
        assert result.violations[0].rule == "R3.board"


def test_board_no_card_after_the_river() -> None:
    """R3.board: five board cards in all; a sixth is wrong-board-size."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3]),
            board("Ac"),  # seq 17
        ]
    )
    assert found(result) == [("wrong-board-size", 17)]


def test_burns_one_card_per_street() -> None:
    """R3.burns: one card is burned before a street, never two."""
    result = play(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            board("2c3d4h", burn="AsKs"),  # seq 5
            check(1),
            check(2),
            check(3),
            *checked_streets([1, 2, 3], ("9s", "Kd")),
        ]
    )
    assert found(result) == [("wrong-board-size", 5)]
    assert result.violations[0].rule == "R3.burns"


# ---------------------------------------------------------------------------- R3.courchevel

_COURCHEVEL_DEALS = [deal(1, "AhKhQhJhTh"), deal(2, "5c6c7c8cTc"), deal(3, "8d9dTdJdQd")]


def test_courchevel_one_card_exposed_before_the_betting_then_two_on_the_flop() -> None:
    """R3.courchevel: 5 hole cards; one flop card face up before pre-flop betting; flop adds 2."""
    result = play(
        [
            *blinds(),
            *_COURCHEVEL_DEALS,
            board("As"),  # seq 5: exposed before the betting
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            board("2c3d"),  # seq 9: the rest of the flop
            check(1),
            check(2),
            check(3),
            *checked_streets([1, 2, 3], ("9s", "Kd")),
        ],
        variant="courchevel",
    )
    assert result.boards == (parse_cards("As2c3d9sKd"),)
    assert found(result) == []
    assert result.status is Status.OK


def test_courchevel_exposing_three_cards_is_wrong_board_size() -> None:
    """R3.courchevel: one card is exposed before the betting, not the whole flop."""
    result = play(
        _fold_to_the_big_blind(_COURCHEVEL_DEALS, [board("As2c3d")]), variant="courchevel"
    )
    assert found(result) == [("wrong-board-size", 5)]
    assert result.violations[0].rule == "R3.courchevel"


def test_courchevel_with_no_exposed_card() -> None:
    """R3.courchevel: betting that starts with no exposed card is reported at that action."""
    result = play(_fold_to_the_big_blind(_COURCHEVEL_DEALS), variant="courchevel")
    assert found(result) == [("wrong-board-size", 5)]
    assert result.violations[0].rule == "R3.courchevel"


def test_courchevel_a_flop_of_three_after_the_exposed_card() -> None:
    """R3.courchevel, R3.board: after the exposed card the flop adds two cards, not three."""
    result = play(
        [
            *blinds(),
            *_COURCHEVEL_DEALS,
            board("As"),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            board("2c3d4h"),  # seq 9
            bet(1, "1.00"),
            fold(2),
            fold(3),
            uncalled(1, "1.00"),
        ],
        variant="courchevel",
    )
    assert found(result) == [("wrong-board-size", 9)]


# ---------------------------------------------------------------------------- R3.deck-order


def _deck_hand(
    players: int, deals: list[Json], boards: list[Json], exposed: Json | None = None
) -> list[Json]:
    """Posts, ``deals``, Courchevel's ``exposed`` card, calls pre-flop, each board checked.

    Three players: posts 0-1, deals 2-4, (exposed 5), pre-flop calls, then the flop at 8
    (Courchevel 9), the turn at 12 (13), the river at 16 (17).
    """
    if players == 2:
        posts = [post(2, "small", "0.50"), post(1, "big", "1.00")]
        preflop = [call(2, "0.50"), check(1)]
        order = [1, 2]
    else:
        posts = blinds()
        preflop = [call(3, "1.00"), call(1, "0.50"), check(2)]
        order = [1, 2, 3]
    actions = [*posts, *deals, *([exposed] if exposed is not None else []), *preflop]
    for street in boards:
        actions += [street, *(check(seat) for seat in order)]
    return actions


def _deals(players: int, hole_cards: int = 4) -> list[Json]:
    seats = (1, 2) if players == 2 else (1, 2, 3)
    return [deal(seat, hole_from_deck(i, players, hole_cards)) for i, seat in enumerate(seats)]


def _boards(players: int, hole_cards: int = 4) -> list[Json]:
    top = players * hole_cards
    return [
        board(from_deck(top + 1, top + 2, top + 3), burn=from_deck(top)),
        board(from_deck(top + 5), burn=from_deck(top + 4)),
        board(from_deck(top + 7), burn=from_deck(top + 6)),
    ]


def test_deck_order_clean_hand() -> None:
    """R3.deck-order: hole cards one at a time from the left of the button, burns before streets."""
    result = play(_deck_hand(3, _deals(3), _boards(3)), deck=" ".join(DECK))
    assert found(result) == []
    assert result.status is Status.OK


def test_deck_order_hole_cards_swapped() -> None:
    """R3.deck-order: seat 1 (left of the button) gets the first card, not seat 2."""
    deals = _deals(3)
    deals[0], deals[1] = deal(1, str(deals[1]["cards"])), deal(2, str(deals[0]["cards"]))
    result = play(_deck_hand(3, deals, _boards(3)), deck=" ".join(DECK))
    assert found(result) == [("deal-order-mismatch", 2), ("deal-order-mismatch", 3)]
    assert result.violations[0].rule == "R3.deck-order"
    assert result.status is Status.VIOLATIONS


def test_deck_order_hidden_cards_match_anything() -> None:
    """R3.deck-order: cards the log does not show (`??`) cannot contradict the deck."""
    deals = _deals(3)
    deals[1] = deal(2, "????????")
    result = play(_deck_hand(3, deals, _boards(3)), deck=" ".join(DECK))
    assert found(result) == []


def test_deck_order_flop_dealt_without_the_burn() -> None:
    """R3.deck-order, R3.burns: the flop comes after one burned card."""
    boards = _boards(3)
    boards[0] = board(from_deck(12, 13, 14))
    result = play(_deck_hand(3, _deals(3), boards), deck=" ".join(DECK))
    assert found(result) == [("deal-order-mismatch", 8)]


def test_deck_order_wrong_burn_card() -> None:
    """R3.deck-order: a recorded burn card must be the deck's."""
    boards = _boards(3)
    boards[1] = board(from_deck(17), burn=from_deck(20))
    result = play(_deck_hand(3, _deals(3), boards), deck=" ".join(DECK))
    assert found(result) == [("deal-order-mismatch", 12)]


@pytest.mark.parametrize("swapped", [False, True])
def test_deck_order_heads_up_the_big_blind_gets_the_first_card(swapped: bool) -> None:
    """R3.hole-cards, R3.deck-order: heads-up the button is the small blind; the big blind
    (seat 1) gets the first card."""
    deals = _deals(2)
    if swapped:
        deals = [deal(1, str(deals[1]["cards"])), deal(2, str(deals[0]["cards"]))]
    result = play(_deck_hand(2, deals, _boards(2)), seats=2, deck=" ".join(DECK))
    assert deals[0]["cards"] == (from_deck(1, 3, 5, 7) if swapped else from_deck(0, 2, 4, 6))
    expected = [("deal-order-mismatch", 2), ("deal-order-mismatch", 3)] if swapped else []
    assert found(result) == expected


def test_deck_order_courchevel_burns_once_before_the_exposed_card() -> None:
    """R3.courchevel, R3.deck-order: burn, expose one card; the flop's other two follow unburned."""
    top = 15  # 3 players x 5 cards
    exposed = board(from_deck(top + 1), burn=from_deck(top))
    boards = [
        board(from_deck(top + 2, top + 3)),
        board(from_deck(top + 5), burn=from_deck(top + 4)),
        board(from_deck(top + 7), burn=from_deck(top + 6)),
    ]
    deals = _deals(3, 5)
    result = play(_deck_hand(3, deals, boards, exposed), deck=" ".join(DECK), variant="courchevel")
    assert found(result) == []
    assert result.status is Status.OK
    # a dealer who burns again before the rest of the flop is one card off from then on
    burned = [
        board(from_deck(top + 3, top + 4), burn=from_deck(top + 2)),
        board(from_deck(top + 6), burn=from_deck(top + 5)),
        board(from_deck(top + 8), burn=from_deck(top + 7)),
    ]
    wrong = play(_deck_hand(3, deals, burned, exposed), deck=" ".join(DECK), variant="courchevel")
    assert found(wrong) == [
        ("deal-order-mismatch", 9),
        ("deal-order-mismatch", 13),
        ("deal-order-mismatch", 17),
    ]


# ---------------------------------------------------------------------------- R1.deck


def test_duplicate_card_in_two_hands() -> None:
    """R1.deck: one deck, no card twice: Ah dealt to seat 1 and seat 2."""
    deals = [deal(1, "AhKhQhJh"), deal(2, "Ah3c4c5c"), deal(3, "8d9dTdJd")]
    result = play(_fold_to_the_big_blind(deals))
    assert found(result) == [("duplicate-card", 3)]
    assert result.violations[0].actual == "Ah"
    assert result.violations[0].rule == "R1.deck"
    assert result.status is Status.VIOLATIONS


def _to_the_flop(players: int, flop: list[Json]) -> list[Json]:
    """Everyone folds to the blinds (no deal lines: an observer's log). With a ``flop``, the
    blinds see it, the small blind checks, the big blind bets and the small blind folds;
    without, a walk."""
    folds = [fold(seat) for seat in range(3, players + 1)]
    if not flop:
        return [*blinds(), *folds, fold(1), uncalled(2, "0.50")]
    flopped = [*flop, check(1), bet(2, "1.00"), fold(1), uncalled(2, "1.00")]
    return [*blinds(), *folds, call(1, "0.50"), check(2), *flopped]


@pytest.mark.parametrize(
    ("hole_cards", "players", "flop", "drawn"),
    [
        (6, 9, [], 54),  # Six-Card Omaha for nine: more hole cards than the deck holds
        (6, 8, [board("Ah7s6s")], None),  # 48 + 3
        (5, 10, [], None),  # 50: a hand over before the flop fits
        (5, 10, [board("Ah7s6s")], 53),
        (5, 9, [board("Ah7s6s", burn="2d")], None),  # 45 + 3 + 1
        (4, 10, [board("Ah7s6s", burn="2d")], None),
    ],
)
def test_a_hand_cannot_take_more_cards_than_the_deck_holds(
    hole_cards: int, players: int, flop: list[Json], drawn: int | None
) -> None:
    """R1.deck: more than 52 cards drawn means a card dealt twice, whether or not the log
    shows which (the hole cards here are hidden)."""
    result = play(_to_the_flop(players, flop), seats=players, hole_cards=hole_cards)
    if drawn is None:
        assert found(result) == []
        return
    assert found(result) == [("duplicate-card", None)]
    violation = result.violations[0]
    assert (violation.expected, violation.actual, violation.rule) == (
        "at most 52 cards",
        str(drawn),
        "R1.deck",
    )
    assert f"deals {drawn} cards from a deck of 52" in violation.message


def test_burns_do_not_count_toward_the_deck() -> None:
    """R1.deck: Five-Card Omaha for nine to the river deals 45 + 5 cards, whether or not the
    log records the three burns (a dealer short of cards deals from the burns)."""
    streets = [
        board("Ah7s6s", burn="2d"),
        check(1),
        check(2),
        board("5h", burn="3d"),
        check(1),
        check(2),
        board("4h", burn="4d"),
        check(1),
        bet(2, "1.00"),
        fold(1),
        uncalled(2, "1.00"),
    ]
    folds = [fold(seat) for seat in range(3, 10)]
    result = play([*blinds(), *folds, call(1, "0.50"), check(2), *streets], seats=9, hole_cards=5)
    assert found(result) == []


def test_a_seat_dealt_twice_is_one_fault_not_two() -> None:
    """A deal line repeated (ten cards to one seat of a nine-handed Five-Card Omaha game) is
    wrong-hole-card-count; the deck count takes the seat's five, not ten."""
    deals = [deal(seat, "??????????") for seat in range(1, 10)]
    deals.insert(1, deal(1, "??????????"))
    result = play(
        [*blinds(), *deals, *_to_the_flop(9, [board("Ah7s6s")])[2:]], seats=9, hole_cards=5
    )
    assert found(result) == [("wrong-hole-card-count", 3)]


def test_duplicate_card_on_the_board() -> None:
    """R1.deck: a board card that is also in a player's hand."""
    result = play(
        [
            *blinds(),
            deal(1, "AhKhQhJh"),
            deal(2, "2c3c4c5c"),
            deal(3, "8d9dTdJd"),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            board("Ah7s6s"),  # seq 8
            bet(1, "1.00"),
            fold(2),
            fold(3),
            uncalled(1, "1.00"),
        ]
    )
    assert found(result) == [("duplicate-card", 8)]


# ---------------------------------------------------------------------------- R8.best-hand (shows)


@pytest.mark.parametrize(
    ("dealt", "shown", "expected"),
    [
        ("AhKhQhJh", "AhKhQhJh", []),
        ("AhKhQhJh", "AhKhQhTs", [("shown-cards-not-dealt", 15)]),
        ("AhKh????", "AhKhQhTs", []),
        ("????????", "AhKhQhTs", []),
    ],
)
def test_shown_cards_must_be_the_dealt_ones(
    dealt: str, shown: str, expected: list[tuple[str, int]]
) -> None:
    """R8.best-hand: a player shows the cards they were dealt (hidden ones may be anything)."""
    result = play(
        [
            post(2, "small", "0.50"),
            post(1, "big", "1.00"),
            deal(1, dealt),
            deal(2, "2c3c4c5c"),
            call(2, "0.50"),
            check(1),
            *checked_streets([1, 2], ("7d8d9d", "6c", "Kd")),
            show(1, shown),  # seq 15
            show(2, "2c3c4c5c"),
        ],
        seats=2,
    )
    assert found(result) == expected
    if expected:
        assert result.violations[0].code is Code.SHOWN_CARDS_NOT_DEALT


def test_deck_order_reads_the_same_given_the_deal_and_board_positions() -> None:
    """The replay passes the positions of the deals and boards; found without them, the
    deck order's findings are the same (generated hands, some with faults)."""
    checked = found = 0
    for hand in generate_hands(300, seed=17, faults=0.4):
        if hand.deck is None:
            continue
        seats = seating(hand)
        seqs = [
            seq
            for seq, action in enumerate(hand.actions)
            if action.type in (ActionType.DEAL, ActionType.BOARD)
        ]
        problems = check_deck_order(hand, seats)
        assert check_deck_order(hand, seats, seqs) == problems
        checked += 1
        found += bool(problems)
    assert checked > 100 and found  # some of the faults are in the deal


@given(
    cards=st.lists(st.integers(-1, 5), max_size=5).map(tuple),
    deck=st.permutations(range(6)).map(tuple),
    start=st.integers(0, 8),
    width=st.integers(0, 8),
    step=st.integers(1, 3),
)
def test_deals_is_the_slice_with_hidden_cards_matching_any(
    cards: tuple[int, ...], deck: tuple[int, ...], start: int, width: int, step: int
) -> None:
    """The deck-order check compares in place: as the slice of the deck would compare, an
    unknown card (-1) matching any card, past the deck's end nothing dealt."""
    expected = deck[start : start + width : step]
    same = len(cards) == len(expected) and all(
        c in (-1, e) for c, e in zip(cards, expected, strict=True)
    )
    assert deck_deals(cards, deck, start, start + width, step) is same
