"""Checks that need the whole hand: unfinished, missing returns, deck order and size,
showdown order."""

from __future__ import annotations

from pipeline.model import ActionType
from pipeline.rules.betting import collect_uncalled
from pipeline.rules.board import boards_of
from pipeline.rules.context import Run
from pipeline.rules.deal import check_deck_order
from pipeline.rules.forced import close_posts
from pipeline.rules.state import Street
from pipeline.violations import Code

# Enum members compared at every action, bound once (C constants in the compiled engine).
_UNCALLED = ActionType.UNCALLED
_SHOWDOWN = Street.SHOWDOWN
DECK = 52
"""Cards in the deck (R1.deck)."""


def finish(run: Run) -> None:
    hand = run.hand
    state = run.state
    if run.posts_open:
        close_posts(run, len(hand.actions))
    collect_uncalled(run, len(hand.actions))
    incomplete = hand.partial or hand.cancelled
    if not incomplete and not state.hand_over:
        boards = boards_of(run)
        complete = True
        for board in boards:  # a loop: the compiled form takes no closure here
            if len(board) < 5:
                complete = False
        if run.run_boards and complete and state.next_actor() is None:
            state.start_street(_SHOWDOWN)  # every runout dealt: the hands are shown
        if state.next_actor() is not None or not complete:
            run.flag(
                Code.HAND_NOT_FINISHED,
                f"the log ends on the {state.street.label} with players still in the hand",
                actual=state.street.label,
            )
    if run.expected_uncalled and _return_implied(run):  # (it reads every action)
        run.expected_uncalled.clear()
    for _seq, i, amount in run.expected_uncalled:
        run.flag(
            Code.UNCALLED_BET_MISMATCH,
            f"the rules return an uncalled {run.money(amount)} to seat {run.seats[i]}; "
            "the log does not",
            seat=run.seats[i],
            expected=run.money(amount),
            actual="none",
        )
    if hand.deck is not None:
        for seq, seat, message in check_deck_order(hand, run.seats, run.deck_seqs):
            run.flag(Code.DEAL_ORDER_MISMATCH, message, seq=seq, seat=seat)
    _check_cards_drawn(run)
    _check_showdown_order(run)


def _check_cards_drawn(run: Run) -> None:
    """R1.deck: a hand cannot deal more cards than one deck holds: the hole cards (as many as
    the game deals each player; fewer where the log deals a seat fewer, and no more where
    it deals more, which is wrong-hole-card-count already) and every board card of every
    runout. More means some card was dealt twice, whether or not the log shows it: a deal
    no 52-card deck makes, e.g. Six-Card Omaha for nine players (54 hole cards). Burns are
    not counted: a dealer short of cards deals the last of the board from the burns."""
    game = run.hand.game
    per_player = game.hole_cards
    hole = 0
    for seat in run.seats:
        dealt = run.dealt.get(seat)
        hole += per_player if dealt is None or len(dealt) > per_player else len(dealt)
    board = len(run.shared_board)
    for cards in run.run_boards.values():
        board += len(cards)
    if hole + board > DECK:
        run.flag(
            Code.DUPLICATE_CARD,
            f"the hand deals {hole + board} cards from a deck of {DECK} ({hole} hole cards "
            f"for {len(run.seats)} players, {board} board cards): some card is dealt twice",
            expected=f"at most {DECK} cards",
            actual=str(hole + board),
        )


def _check_showdown_order(run: Run) -> None:
    """Warn when the first hand shown at a river showdown was not the one that should be."""
    state = run.state
    if state.hand_over or state.street is not _SHOWDOWN or run.all_in_showdown or not run.shows:
        return
    if run.rules.showdown_order == "last-aggressor-any-street":
        first = run.last_aggressor
    else:
        first = run.river_aggressor
    if first is None or state.folded[first]:
        first = 0
        while state.folded[first]:  # the first player still in (at a showdown, one is)
            first += 1
    seq, shown = run.shows[0]
    if shown != first:
        run.flag(
            Code.SHOWDOWN_ORDER,
            f"seat {run.seats[shown]} showed first; seat {run.seats[first]} should have",
            seq=seq,
            seat=run.seats[shown],
            expected=f"seat {run.seats[first]}",
            actual=f"seat {run.seats[shown]}",
        )


def _return_implied(run: Run) -> bool:
    """Tell whether a log that prints no uncalled-bet line at all leaves the returns to
    its recorded result.

    Old PokerStars logs and some converters print no such line; the returned chips then
    show in the total pot and the collections, which the settlement reconciles to the
    unit (either excluded from both, or paid as part of the collection).
    """
    hand = run.hand
    for action in hand.actions:
        if action.type is _UNCALLED:
            return False
    return hand.result is not None and bool(hand.result.collected or hand.result.total_pot)
