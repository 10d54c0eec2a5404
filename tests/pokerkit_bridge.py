"""Play one of our hand records through PokerKit, as an independent oracle for the engine.

Test and bench code only: ``pipeline/`` never imports this module. PokerKit's
``PotLimitOmahaHoldem`` plays pot-limit Omaha high with plain blinds and uniform antes, and
the same game with PokerKit's eight-or-better low hand as a second hand type
(:class:`PotLimitOmahaHiLo`; PokerKit has no such class of its own) plays pot-limit Omaha
hi/lo. :func:`pokerkit_can_play` picks the records they can represent; :func:`play_in_pokerkit`
builds a state with the record's stakes and stacks in integer units (no floats), deals the
recorded cards, burns included, and applies every betting action, stopping at the first
one PokerKit refuses.

Player order: PokerKit's player 0 is the first seat left of the button and its last player
is the button, exactly like our replay's index order. Heads-up PokerKit swaps the blinds
itself (player 0, the non-button, posts ``blinds[1]``; the button posts ``blinds[0]`` and
acts first pre-flop: ``R2.heads-up``), so the raw blinds are always ``(small, big)``.
This module seats the players itself rather than asking the engine, so the oracle shares
no code with what it checks.

Where PokerKit's rules differ from RULES.md (see ``tests/test_rules_pokerkit.py``):

- ``R5.short-big-blind``: PokerKit has the others call what a short all-in big blind
  posted, not the full blind; such hands are left out by :func:`pokerkit_can_play`.
- ``R5.reopen``: PokerKit counts the first wager of a round as a full one whatever its
  size (its last raise size starts at 0, not at the big blind), so a short all-in below the
  big blind reopens the betting there. Recorded ranges carry ``below_opening`` for that.
- ``R8.hi-lo``: PokerKit halves every pot when any hand left at the showdown has a
  qualifying low, and gives the low half of a side pot nobody in it qualifies for to all
  of them, where the pot's best high should take it whole; and ``R8.odd-chips``: PokerKit
  pools the odd chips of neighbouring pots and gives a split's whole remainder to one
  player. ``tests/test_settle_pokerkit.py`` models both and compares the rest to the chip.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

from pokerkit import (
    Automation,
    Card,
    Mode,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    PotLimitOmahaHoldem,
)

from pipeline.cards import UNKNOWN, format_card
from pipeline.model import Action, ActionType, Betting, Blind, HandRecord, Variant

__all__ = [
    "AUTOMATIONS",
    "PokerKitPlay",
    "PokerKitRange",
    "PotLimitOmahaHiLo",
    "Refusal",
    "play_in_pokerkit",
    "pokerkit_can_play",
    "pokerkit_seats",
]

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
"""What PokerKit does by itself: posts, bet collection (uncalled bets go back), showdown
and paying the pots. Cards, burns included, come from the record."""


class PotLimitOmahaHiLo(PotLimitOmahaHoldem):
    """Pot-limit Omaha hi/lo eight or better: PokerKit's pot-limit Omaha with its Omaha
    eight-or-better low as a second hand type. PokerKit splits each pot between the hand
    types that have a hand at showdown, the odd chip to the high half."""

    hand_types = (OmahaHoldemHand, OmahaEightOrBetterLowHand)  # type: ignore[assignment]


_GAMES = {Variant.OMAHA: PotLimitOmahaHoldem, Variant.OMAHA_HILO: PotLimitOmahaHiLo}
"""PokerKit's game for each variant it can play (pot-limit, four hole cards)."""
_CARDS: tuple[Any, ...] = tuple(next(iter(Card.parse(format_card(c)))) for c in range(52))
_UNKNOWN_CARD: Any = next(iter(Card.parse("??")))
_BETTING = frozenset(
    {ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET, ActionType.RAISE}
)
_AUTOMATED = frozenset({ActionType.POST, ActionType.UNCALLED, ActionType.SHOW, ActionType.MUCK})
_REFUSALS = (ValueError, UserWarning, AssertionError)


@dataclass(frozen=True, slots=True)
class Refusal:
    """The first action PokerKit would not take: its position in ``hand.actions`` and why.

    ``error`` is PokerKit's own message, or, where PokerKit would take the action but move
    other chips (a call of another size, a check facing a bet), a sentence saying so.
    """

    seq: int
    action: Action
    error: str


@dataclass(frozen=True, slots=True)
class PokerKitRange:
    """What PokerKit allowed just before the betting action at ``seq`` (street totals, units).

    ``call`` is the chips a check or call moves; ``min_to``/``max_to`` the bet or raise
    range, capped at ``all_in_to`` (``None``: PokerKit allows no bet or raise, and
    ``closed_by`` holds its reason). ``below_opening`` says no wager of at least the big
    blind has been made this round by PokerKit's count, where it may reopen the betting
    against ``R5.reopen``.
    """

    seq: int
    call: int
    min_to: int | None
    max_to: int | None
    all_in_to: int
    below_opening: bool
    closed_by: str | None = None


@dataclass(frozen=True, slots=True)
class PokerKitPlay:
    """What PokerKit made of a record.

    ``seats`` maps PokerKit's player index to our seat number. ``finished`` says PokerKit
    ended the hand (pots pushed and pulled) after the last action; ``final_stacks`` are
    PokerKit's stacks then (or where it stopped), by player index. ``idle_checks`` counts
    turns PokerKit gave that had no choice but a check, which the record rightly leaves out
    (see :func:`_close_idle_option`). ``ranges`` is filled when asked for.
    """

    seats: tuple[int, ...]
    refused: Refusal | None
    finished: bool
    final_stacks: tuple[int, ...]
    idle_checks: int = 0
    ranges: tuple[PokerKitRange, ...] = ()

    @property
    def accepted(self) -> bool:
        """Tell whether PokerKit took every action of the record."""
        return self.refused is None

    def final_stack(self, seat: int) -> int:
        """Return PokerKit's final stack of seat number ``seat``."""
        return self.final_stacks[self.seats.index(seat)]


def pokerkit_seats(hand: HandRecord) -> list[int]:
    """Return the dealt-in seat numbers in PokerKit's player order (button last)."""
    numbers = sorted({s.seat for s in hand.seats if not s.sitting_out})
    return [s for s in numbers if s > hand.button] + [s for s in numbers if s <= hand.button]


def pokerkit_can_play(hand: HandRecord) -> bool:
    """Tell whether PokerKit's pot-limit Omaha can represent ``hand`` action by action.

    It can when the hand is pot-limit Omaha, high or hi/lo, with 4 known hole cards for each of 2 to
    10 players; the posts are exactly a small blind (full, or the poster's whole stack) and
    a full big blind from their seats, plus one uniform ante from everyone where the game
    has antes; and a single known board is dealt. Left out: straddles, dead, missed or
    entering blinds, a missing small blind, a short all-in big blind (PokerKit has no
    ``R5.short-big-blind``), run-it-twice, cancelled or partial logs.
    """
    game = hand.game
    if (
        game.variant not in _GAMES
        or game.hole_cards != 4
        or game.betting is not Betting.POT_LIMIT
        or hand.cancelled
        or hand.partial
        or not 0 < game.small_blind <= game.big_blind
        or game.ante < 0
    ):
        return False
    seats = pokerkit_seats(hand)
    n = len(seats)
    numbers = [s.seat for s in hand.seats]
    if not 2 <= n <= 10 or hand.button not in seats or len(numbers) != len(set(numbers)):
        return False
    stacks = [_stack(hand, seat) for seat in seats]
    expected = _expected_posts(hand, stacks)
    if expected is None:
        return False
    index = {seat: i for i, seat in enumerate(seats)}
    posts: dict[tuple[int, Blind], int] = {}
    dealt: set[int] = set()
    for action in hand.actions:
        if action.run is not None:
            return False
        i = index.get(action.seat) if action.seat is not None else None
        if action.type is ActionType.POST:
            if i is None or action.blind is None or (i, action.blind) in posts:
                return False
            posts[(i, action.blind)] = action.amount or 0
        elif action.type is ActionType.DEAL:
            cards = action.cards or ()
            if i is None or i in dealt or len(cards) != 4 or UNKNOWN in cards:
                return False
            dealt.add(i)
        elif action.type is ActionType.BOARD and UNKNOWN in (action.cards or (UNKNOWN,)):
            return False
    return posts == expected and dealt == set(range(n))


def _expected_posts(hand: HandRecord, stacks: list[int]) -> dict[tuple[int, Blind], int] | None:
    """Return the posts PokerKit makes by itself, or ``None`` when it cannot make them."""
    game = hand.game
    n = len(stacks)
    sb, bb = (1, 0) if n == 2 else (0, 1)
    posts = {(i, Blind.ANTE): min(game.ante, stacks[i]) for i in range(n) if game.ante > 0}
    left = [stacks[i] - posts.get((i, Blind.ANTE), 0) for i in range(n)]
    if left[sb] <= 0 or left[bb] < game.big_blind:
        return None
    posts[(sb, Blind.SMALL)] = min(game.small_blind, left[sb])
    posts[(bb, Blind.BIG)] = game.big_blind
    return posts


def _stack(hand: HandRecord, seat: int) -> int:
    found = hand.seat(seat)
    assert found is not None
    return found.stack


def _create_state(hand: HandRecord, stacks: list[int]) -> Any:
    game = hand.game
    return _GAMES[game.variant].create_state(
        AUTOMATIONS,
        True,  # ante trimming: PokerKit's setting for uniform antes
        game.ante,
        (game.small_blind, game.big_blind),
        game.big_blind,  # the minimum bet
        stacks,
        len(stacks),
        mode=Mode.TOURNAMENT,  # strict: one runout, a fold facing no bet is refused
    )


def play_in_pokerkit(hand: HandRecord, *, ranges: bool = False) -> PokerKitPlay:
    """Play ``hand`` through PokerKit; stop at the first action it refuses.

    Call only for a hand :func:`pokerkit_can_play` accepts. Chips are integer units of the
    hand's scale. A PokerKit warning counts as a refusal. With ``ranges``, record what
    PokerKit allowed before every betting action (slower).
    """
    seats = pokerkit_seats(hand)
    index = {seat: i for i, seat in enumerate(seats)}
    refused: Refusal | None = None
    idle_checks = 0
    seen: list[PokerKitRange] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state = _create_state(hand, [_stack(hand, seat) for seat in seats])
        for seq, action in enumerate(hand.actions):
            if action.type in _AUTOMATED:
                continue
            try:
                if action.type is ActionType.BOARD:
                    idle_checks += _close_idle_option(state)
                elif ranges and action.type in _BETTING and state.actor_index is not None:
                    seen.append(_range(state, seq))
                problem = _apply(state, action, index)
            except _REFUSALS as error:
                problem = f"{type(error).__name__}: {error}"
            if problem is not None:
                refused = Refusal(seq=seq, action=action, error=problem)
                break
        else:
            idle_checks += _close_idle_option(state)
    return PokerKitPlay(
        seats=tuple(seats),
        refused=refused,
        finished=not state.status,
        final_stacks=tuple(int(stack) for stack in state.stacks),
        idle_checks=idle_checks,
        ranges=tuple(seen),
    )


def _close_idle_option(state: Any) -> int:
    """Check for each player whose only choice is a check; return how many there were.

    PokerKit gives the big blind (or whoever alone still has chips) a turn even when every
    opponent has folded or is all-in for no more than their bet: nothing is owed and no
    raise could be called, so the only action is a check. Our rules close that round
    without a turn and the record has no action for it. Nothing else is ever filled in.
    """
    checks = 0
    while (
        state.actor_index is not None
        and state.checking_or_calling_amount == 0
        and not state.can_complete_bet_or_raise_to()
    ):
        state.check_or_call()
        checks += 1
    return checks


def _range(state: Any, seq: int) -> PokerKitRange:
    player = state.actor_index
    street = state.street
    closed_by = None
    try:
        state.verify_completion_betting_or_raising_to()
    except ValueError as error:
        closed_by = str(error)
    return PokerKitRange(
        seq=seq,
        call=int(state.checking_or_calling_amount or 0),
        min_to=state.min_completion_betting_or_raising_to_amount,
        max_to=state.max_completion_betting_or_raising_to_amount,
        all_in_to=int(state.stacks[player] + state.bets[player]),
        below_opening=(
            state.completion_betting_or_raising_amount
            < street.min_completion_betting_or_raising_amount
        ),
        closed_by=closed_by,
    )


def _apply(state: Any, action: Action, index: dict[int, int]) -> str | None:
    """Apply one action to PokerKit's state; return why it does not fit, or ``None``."""
    kind = action.type
    if kind is ActionType.DEAL:
        state.deal_hole(_cards(action.cards), index[action.seat or 0])
        return None
    if kind is ActionType.BOARD:
        if state.card_burning_status:
            state.burn_card(_cards(action.burn)[0] if action.burn else _UNKNOWN_CARD)
        state.deal_board(_cards(action.cards))
        return None
    actor = state.actor_index
    player = index[action.seat or 0]
    if actor is not None and actor != player:
        return f"PokerKit has player {actor} (seat {_seat_of(index, actor)}) to act"
    if kind is ActionType.FOLD:
        state.fold()
    elif kind in (ActionType.CHECK, ActionType.CALL):
        moves = state.checking_or_calling_amount
        recorded = (action.amount or 0) if kind is ActionType.CALL else 0
        if moves is not None and moves != recorded:
            return f"PokerKit's check or call moves {moves}; the record moves {recorded}"
        state.check_or_call()
    elif kind is ActionType.BET:
        state.complete_bet_or_raise_to(state.bets[player] + (action.amount or 0))
    else:
        state.complete_bet_or_raise_to(action.to or 0)
    return None


def _cards(cards: tuple[int, ...] | None) -> tuple[Any, ...]:
    return tuple(_UNKNOWN_CARD if c == UNKNOWN else _CARDS[c] for c in cards or ())


def _seat_of(index: dict[int, int], player: int) -> int:
    return next(seat for seat, i in index.items() if i == player)
