"""The deal as a deck deals it: hole cards one at a time clockwise, burns before streets.

Where a room records the deck order (``HandRecord.deck``, from the top), the cards in the
log must be exactly the ones that order deals (RULES.md ``R3.deck-order``): with ``n``
players dealt in, index ``i`` (0 = first seat left of the button) gets the cards at
positions ``i, i + n, i + 2n …``; then one card is burned before the flop, the turn and
the river. Courchevel burns once and exposes the first flop card after the hole cards;
the other two flop cards follow without another burn. A board run more than once takes
each runout from the cards that follow the previous one, each street after a burn.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.cards import UNKNOWN, format_cards
from pipeline.model import COURCHEVEL_VARIANTS, ActionType, HandRecord

__all__ = ["check_deck_order", "deal_order"]

# Enum members compared at every action, bound once (C constants in the compiled engine).
_DEAL, _BOARD = ActionType.DEAL, ActionType.BOARD


def deal_order(n_players: int, hole_cards: int) -> list[list[int]]:
    """Return, per player index, the deck positions of their hole cards.

    >>> deal_order(3, 2)
    [[0, 3], [1, 4], [2, 5]]
    """
    return [[r * n_players + i for r in range(hole_cards)] for i in range(n_players)]


def _deals(cards: tuple[int, ...], deck: tuple[int, ...], start: int, stop: int, step: int) -> bool:
    """Tell whether ``cards`` are ``deck[start:stop:step]``, a card the log hides matching any
    card: without making the slice (the check runs for every deal and board action).

    >>> deck = (0, 1, 2, 3, 4, 5)
    >>> _deals((1, 4), deck, 1, 7, 3), _deals((1, -1), deck, 1, 7, 3), _deals((1,), deck, 1, 7, 3)
    (True, True, False)
    >>> _deals((5,), deck, 5, 8, 1), _deals((5, 0), deck, 5, 8, 1), _deals((), deck, 9, 10, 1)
    (True, False, True)
    """
    end = stop if stop < len(deck) else len(deck)  # a slice stops where the deck ends
    size = (end - start + step - 1) // step if end > start else 0
    if len(cards) != size:
        return False
    for j in range(size):
        card = cards[j]
        dealt = deck[start + j * step]
        if card != UNKNOWN and card != dealt:
            return False
    return True


def check_deck_order(
    hand: HandRecord, seats: list[int], seqs: Sequence[int] | None = None
) -> list[tuple[int, int | None, str]]:
    """Return ``(seq, seat, message)`` for every dealt card that the deck order contradicts.

    ``seqs``: the positions of the hand's deal and board actions, in order, when the caller
    knows them (the replay does), else every action is looked at.
    """
    deck = tuple(hand.deck) if hand.deck else ()  # itself, as a rule
    n = len(seats)
    k = hand.game.hole_cards
    index = {seat: i for i, seat in enumerate(seats)}
    problems: list[tuple[int, int | None, str]] = []
    courchevel = hand.game.variant in COURCHEVEL_VARIANTS
    pointer = n * k
    board_cards = 0
    run_pointer: dict[int, int] = {}
    run_cards: dict[int, int] = {}
    shared_end = pointer
    actions = hand.actions
    for seq in range(len(actions)) if seqs is None else seqs:
        action = actions[seq]
        kind = action.type
        if kind is not _DEAL and kind is not _BOARD:
            continue  # most actions: bets, posts, shows
        if kind is _DEAL and action.seat in index:
            first = index[action.seat]
            cards = action.cards or ()
            if not _deals(cards, deck, first, first + n * k, n):
                expected = deck[first : first + n * k : n]
                problems.append(
                    (
                        seq,
                        action.seat,
                        f"seat {action.seat} got {format_cards(cards, sep=' ')}; "
                        f"the deck order deals {format_cards(expected, sep=' ')}",
                    )
                )
        elif kind is _BOARD:
            cards = action.cards or ()
            if action.run is None:
                start, size = pointer, board_cards
            else:
                start = run_pointer.get(
                    action.run,
                    shared_end
                    if action.run == 1
                    else max(run_pointer.values(), default=shared_end),
                )
                size = board_cards + run_cards.get(action.run, 0)
            burn = not (courchevel and size == 1)
            take = start + (1 if burn else 0)
            wrong = not _deals(cards, deck, take, take + len(cards), 1) or (
                action.burn is not None and burn and not _deals(action.burn, deck, start, take, 1)
            )
            if wrong:
                expected = deck[take : take + len(cards)]  # a slice stops where the deck ends
                expected_burn = deck[start:take]
                burnt = format_cards(expected_burn, sep=" ") or "nothing"
                problems.append(
                    (
                        seq,
                        None,
                        f"board {format_cards(cards, sep=' ')}; the deck order deals "
                        f"{format_cards(expected, sep=' ')} after burning {burnt}",
                    )
                )
            end = take + len(cards)
            if action.run is None:
                pointer = end
                shared_end = end
                board_cards += len(cards)
            else:
                run_pointer[action.run] = end
                run_cards[action.run] = run_cards.get(action.run, 0) + len(cards)
    return problems
