"""Cards: hole cards, the board (run once or more), burns, shown hands, no card twice."""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.cards import UNKNOWN, format_cards
from pipeline.model import (
    COURCHEVEL_VARIANTS,
    Action,
    ActionType,
)
from pipeline.rules.betting import after_action, collect_uncalled
from pipeline.rules.context import Run, seat_index
from pipeline.rules.forced import close_posts
from pipeline.rules.state import Street
from pipeline.violations import Code

_CARDS = 52  # a card is an int below it (pipeline.cards)

# Enum members compared at every action, bound once (C constants in the compiled engine).
_SHOW, _SHOWDOWN = ActionType.SHOW, Street.SHOWDOWN


def deal(run: Run, seq: int, action: Action) -> None:
    i = seat_index(run, seq, action)
    seat = run.seats[i]
    cards = action.cards or ()
    want = run.hand.game.hole_cards
    if seat in run.dealt:
        before = len(run.dealt[seat])
        run.flag(
            Code.WRONG_HOLE_CARD_COUNT,
            f"seat {seat} is dealt a second time ({before} cards, then {len(cards)}); "
            f"{run.hand.game.variant} deals {want} cards at once",
            seq=seq,
            seat=seat,
            expected=str(want),
            actual=f"{before + len(cards)} in two deals",
        )
    elif len(cards) != want:
        run.flag(
            Code.WRONG_HOLE_CARD_COUNT,
            f"seat {seat} is dealt {len(cards)} cards; {run.hand.game.variant} deals {want}",
            seq=seq,
            seat=seat,
            expected=str(want),
            actual=str(len(cards)),
        )
    run.dealt[seat] = run.dealt.get(seat, ()) + cards
    run.hole[seat] = run.dealt[seat]
    _see_cards(run, seq, cards, seat)


def _see_cards(run: Run, seq: int, cards: Iterable[int], seat: int | None) -> None:
    for card in cards:
        if not 0 <= card < _CARDS:  # unknown (readers take no other int that is not a card)
            continue
        bit = 1 << card  # the compiled engine keeps the cards seen in one 64-bit word
        if run.seen & bit:
            run.flag(
                Code.DUPLICATE_CARD,
                f"{format_cards([card])} appears twice",
                seq=seq,
                seat=seat,
                actual=format_cards([card]),
            )
        run.seen |= bit


def board(run: Run, seq: int, action: Action) -> None:
    state = run.state
    run.skipped = -1  # an action out of turn skipped nobody on the next street
    cards = action.cards or ()
    game = run.hand.game
    if action.burn is not None and len(action.burn) != 1:
        run.flag(
            Code.WRONG_BOARD_SIZE,
            f"{len(action.burn)} burn cards before a street; one is burned",
            seq=seq,
            expected="1",
            actual=str(len(action.burn)),
            rule="R3.burns",
        )
    _see_cards(run, seq, cards, None)
    if action.burn:
        _see_cards(run, seq, action.burn, None)
    if (
        run.posts_open
        and not run.exposed
        and not run.shared_board
        and game.variant in COURCHEVEL_VARIANTS
    ):
        if len(cards) != 1:
            run.flag(
                Code.WRONG_BOARD_SIZE,
                f"Courchevel exposes one flop card before the betting, not {len(cards)}",
                seq=seq,
                expected="1",
                actual=str(len(cards)),
                rule="R3.courchevel",
            )
        run.exposed = True
        run.shared_board.extend(cards)
        return
    if state.hand_over:
        run.flag(
            Code.ACTION_AFTER_HAND_END, "a board dealt after the hand was won uncontested", seq=seq
        )
    if run.posts_open:
        close_posts(run, seq)
    if action.run is not None:
        _run_board(run, seq, action)
        return
    if run.run_boards:
        run.flag(Code.WRONG_BOARD_SIZE, "a shared board card after the runouts began", seq=seq)
    if not state.round_closed:
        run.flag(
            Code.STREET_DEALT_EARLY,
            f"the {Street(min(state.street + 1, 3)).label} was dealt before the "
            f"{state.street.label} betting closed",
            seq=seq,
        )
    size = len(run.shared_board)
    expected = _next_street_size(size, run.exposed and game.variant in COURCHEVEL_VARIANTS)
    if expected is None:
        run.flag(
            Code.WRONG_BOARD_SIZE, "a board card after the river", seq=seq, actual=str(len(cards))
        )
    elif len(cards) != expected:
        run.flag(
            Code.WRONG_BOARD_SIZE,
            f"{len(cards)} cards dealt for a street of {expected}",
            seq=seq,
            expected=str(expected),
            actual=str(len(cards)),
        )
    run.shared_board.extend(cards)
    _advance(run, seq)


def _next_street_size(size: int, courchevel: bool) -> int | None:
    if courchevel and size == 1:
        return 2
    if size == 0:
        return 3
    if size in (3, 4):
        return 1
    return None


_STREET_OF_SIZE = (Street.PREFLOP,) * 3 + (Street.FLOP, Street.TURN)


def _street_of(size: int) -> Street:
    """Return the betting round a shared board of ``size`` cards opens."""
    return _STREET_OF_SIZE[size] if size < 5 else Street.RIVER


def board_street(run: Run, action: Action) -> Street:
    """Return the round a board action's cards open, for its step (a river card dealt
    with everyone all-in is the river's, not the showdown's). A runout's cards count with
    that runout's board: the betting stays at the street of the all-in."""
    size = len(run.shared_board)
    if action.run is not None:
        size += len(run.run_boards.get(action.run, ()))
    return _street_of(size)


def _advance(run: Run, seq: int) -> None:
    """Open the street the shared board now shows."""
    state = run.state
    street = _street_of(len(run.shared_board))
    if street > state.street:
        collect_uncalled(run, seq)
        state.start_street(street)
        after_action(run, seq)


def _run_board(run: Run, seq: int, action: Action) -> None:
    state = run.state
    cards = action.cards or ()
    k = action.run or 1
    if not state.round_closed or state.able > 1:  # able: players who can still act
        run.flag(
            Code.STREET_DEALT_EARLY,
            "the board was run more than once while players could still bet",
            seq=seq,
            rule="R8.run-it-twice",
        )
    board = run.run_boards.setdefault(k, [])
    size = len(run.shared_board) + len(board)
    expected = _next_street_size(size, run.exposed and run.hand.game.variant in COURCHEVEL_VARIANTS)
    if expected is None or len(cards) != expected:
        run.flag(
            Code.WRONG_BOARD_SIZE,
            f"runout {k}: {len(cards)} cards dealt for a street of {expected or 0}",
            seq=seq,
            expected=str(expected or 0),
            actual=str(len(cards)),
            rule="R8.run-it-twice",
        )
    board.extend(cards)
    collect_uncalled(run, seq)


def show(run: Run, seq: int, action: Action) -> None:
    i = seat_index(run, seq, action)
    seat = run.seats[i]
    cards = action.cards
    if action.type is _SHOW or (run.state.street is _SHOWDOWN and not run.state.folded[i]):
        run.shows.append((seq, i))
    if cards is None:
        return
    want = run.hand.game.hole_cards
    if len(cards) > want:
        run.flag(
            Code.WRONG_HOLE_CARD_COUNT,
            f"seat {seat} shows {len(cards)} cards; {want} were dealt",
            seq=seq,
            seat=seat,
            expected=str(want),
            actual=str(len(cards)),
        )
    dealt = run.dealt.get(seat)
    if dealt is not None:
        if cards == dealt:  # the common case: the cards dealt, shown
            run.hole[seat] = dealt
            return
        known = {c for c in dealt if c != UNKNOWN}
        unknown_slots = dealt.count(UNKNOWN)
        new = [c for c in cards if c != UNKNOWN and c not in known]
        if len(new) > unknown_slots:
            run.flag(
                Code.SHOWN_CARDS_NOT_DEALT,
                f"seat {seat} shows {format_cards(cards, sep=' ')}, "
                f"but was dealt {format_cards(dealt, sep=' ')}",
                seq=seq,
                seat=seat,
                expected=format_cards(dealt, sep=" "),
                actual=format_cards(cards, sep=" "),
            )
            return
        _see_cards(run, seq, new, seat)
        merged = list(dealt)
        for card in new:
            merged[merged.index(UNKNOWN)] = card
        run.hole[seat] = tuple(merged)
        return
    previous = run.hole.get(seat, ())
    fresh = [c for c in cards if c not in previous]
    _see_cards(run, seq, fresh, seat)
    run.hole[seat] = tuple(previous) + tuple(fresh)


# ---------------------------------------------------------------------------- the end


def boards_of(run: Run) -> list[tuple[int, ...]]:
    if not run.run_boards:
        return [tuple(run.shared_board)]
    return [tuple(run.shared_board) + tuple(run.run_boards[k]) for k in sorted(run.run_boards)]
