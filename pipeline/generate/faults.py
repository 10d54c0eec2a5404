"""Faults injected into generated hands: exactly one broken rule, recorded in the hand.

A faulted hand carries ``"_injected": {"code": …, "seq": …}``: the violation code the
engine must report and the index of the action it must report it at (``null`` for a
fault of the whole hand, such as a missing blind). Betting faults are injected while the
hand is played, so the rest of the hand is played on from the state the faulty action
left, exactly as a replay sees it, and nothing else breaks; card and structure faults
mutate the finished action list in ways that touch nothing else. The injector never asks
the replay whether it would notice: that is what the tests check.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from msgspec.structs import replace

from pipeline.cards import DECK
from pipeline.model import Action, ActionType, Betting, HandRecord
from pipeline.rules import BettingState, Legal
from pipeline.violations import Code

__all__ = [
    "BETTING_FAULTS",
    "BLIND_FAULTS",
    "CARD_FAULTS",
    "FaultPlan",
    "apply_card_fault",
    "betting_fault",
    "choose_fault",
    "mark",
]

BETTING_FAULTS: tuple[Code, ...] = (
    Code.CHECK_FACING_BET,
    Code.CALL_WRONG_AMOUNT,
    Code.BET_ABOVE_POT_LIMIT,
    Code.RAISE_ABOVE_POT_LIMIT,
    Code.BET_BELOW_MINIMUM,
    Code.RAISE_BELOW_MINIMUM,
    Code.WRONG_LIMIT_SIZE,
    Code.RAISE_CAP_EXCEEDED,
    Code.RAISE_NOT_REOPENED,
    Code.BET_FACING_BET,
    Code.RAISE_WITHOUT_BET,
    Code.ACTION_OUT_OF_TURN,
    Code.EXCEEDS_STACK,
    Code.ALL_IN_FLAG_MISMATCH,
)
"""Faults made at a decision point while the hand is played."""

BLIND_FAULTS: tuple[Code, ...] = (
    Code.BLIND_WRONG_AMOUNT,
    Code.BLIND_WRONG_SEAT,
    Code.MISSING_BLIND,
    Code.ANTE_WRONG_AMOUNT,
    Code.STRADDLE_WRONG_SEAT,
)
"""Faults made while the blinds are posted."""

CARD_FAULTS: tuple[Code, ...] = (
    Code.DUPLICATE_CARD,
    Code.WRONG_HOLE_CARD_COUNT,
    Code.WRONG_BOARD_SIZE,
    Code.SHOWN_CARDS_NOT_DEALT,
    Code.DEAL_ORDER_MISMATCH,
    Code.STREET_DEALT_EARLY,
    Code.ACTION_AFTER_HAND_END,
    Code.UNCALLED_BET_MISMATCH,
    Code.UNKNOWN_SEAT,
    Code.HAND_NOT_FINISHED,
    Code.SHOWDOWN_ORDER,
)
"""Faults made by changing the finished action list."""

FALLBACKS: tuple[Code, ...] = (
    Code.SHOWN_CARDS_NOT_DEALT,
    Code.DUPLICATE_CARD,
    Code.UNCALLED_BET_MISMATCH,
    Code.UNKNOWN_SEAT,
)
"""Card faults tried, in order, when the chosen fault found no place in the hand."""


@dataclass(slots=True)
class FaultPlan:
    """The fault a hand is to carry, and where it went once injected."""

    code: Code
    seq: int | None = None
    done: bool = False
    stop: bool = False  # the fault is fatal: play no further

    def place(self, seq: int | None) -> None:
        """Record that the fault was injected at action ``seq``."""
        self.seq = seq
        self.done = True


def choose_fault(rng: random.Random, betting: Betting) -> Code:
    """Pick a fault kind at random, among those the betting structure can have."""
    kinds = list(BETTING_FAULTS + BLIND_FAULTS + CARD_FAULTS)
    if betting is Betting.FIXED_LIMIT:
        skip = {
            Code.BET_ABOVE_POT_LIMIT,
            Code.RAISE_ABOVE_POT_LIMIT,
            Code.BET_BELOW_MINIMUM,
            Code.RAISE_BELOW_MINIMUM,
            Code.RAISE_NOT_REOPENED,
            Code.STRADDLE_WRONG_SEAT,
        }
    else:
        skip = {Code.WRONG_LIMIT_SIZE, Code.RAISE_CAP_EXCEEDED}
        if betting is Betting.NO_LIMIT:
            skip |= {Code.BET_ABOVE_POT_LIMIT, Code.RAISE_ABOVE_POT_LIMIT}
    return rng.choice([k for k in kinds if k not in skip])


def betting_fault(
    plan: FaultPlan, rng: random.Random, legal: Legal, state: BettingState
) -> tuple[ActionType, int, int, bool] | None:
    """Return a faulty decision ``(type, value, index, all_in_flag)`` if one fits now.

    ``value`` is the call amount or the street total of a bet or raise; ``index`` the
    player who acts (not the one whose turn it is, for an out-of-turn fault).
    """
    if plan.done or plan.code not in BETTING_FAULTS or rng.random() > 0.35:
        return None
    i = legal.actor
    stack = state.stack[i]
    code = plan.code
    pot_limit = state.pot_limit
    limit = state.betting is Betting.FIXED_LIMIT
    allin_to = legal.all_in_to
    if code is Code.CHECK_FACING_BET and legal.call > 0:
        return ActionType.CHECK, 0, i, False
    if code is Code.CALL_WRONG_AMOUNT and 1 < legal.call < stack - 1:
        wrong = legal.call + rng.choice((-1, 1))
        return ActionType.CALL, wrong, i, False
    if code is Code.ALL_IN_FLAG_MISMATCH and 0 < legal.call == stack:
        return ActionType.CALL, legal.call, i, False
    if code is Code.EXCEEDS_STACK and legal.call > 0 and legal.call >= stack:
        plan.stop = True
        return ActionType.CALL, stack + 1, i, True
    if code is Code.ACTION_OUT_OF_TURN:
        others = [j for j in range(state.n) if j != i and state.can_act(j)]
        if others:
            return ActionType.FOLD, 0, rng.choice(others), False
        return None
    if not legal.can_raise:
        if (
            legal.closed_by is code
            and stack > legal.call + 1
            and code in (Code.RAISE_CAP_EXCEEDED, Code.RAISE_NOT_REOPENED)
        ):
            to = min(legal.min_to, allin_to - 1) if not limit else legal.min_to
            if to > state.current_bet and to < allin_to:
                return ActionType.RAISE, to, i, False
        return None
    if code is Code.BET_FACING_BET and not legal.can_bet:
        to = min(legal.min_to, allin_to)
        return ActionType.BET, to, i, to == allin_to
    if code is Code.RAISE_WITHOUT_BET and legal.can_bet:
        to = min(legal.min_to, allin_to)
        return ActionType.RAISE, to, i, to == allin_to
    if code in (Code.BET_ABOVE_POT_LIMIT, Code.RAISE_ABOVE_POT_LIMIT) and pot_limit:
        betting_now = legal.can_bet
        if (code is Code.BET_ABOVE_POT_LIMIT) == betting_now and legal.max_to + 1 < allin_to:
            kind = ActionType.BET if betting_now else ActionType.RAISE
            return kind, legal.max_to + 1, i, False
        return None
    if code in (Code.BET_BELOW_MINIMUM, Code.RAISE_BELOW_MINIMUM) and not limit:
        betting_now = legal.can_bet
        to = legal.min_to - 1
        if (code is Code.BET_BELOW_MINIMUM) == betting_now and state.current_bet < to < allin_to:
            kind = ActionType.BET if betting_now else ActionType.RAISE
            return kind, to, i, False
        return None
    if code is Code.WRONG_LIMIT_SIZE and limit and legal.min_to + 1 < allin_to:
        kind = ActionType.BET if legal.can_bet else ActionType.RAISE
        return kind, legal.min_to + 1, i, False
    return None


def mark(hand: HandRecord, plan: FaultPlan) -> HandRecord:
    """Return the hand with its ``_injected`` field recording the plan's code and place."""
    raw = json.dumps({"code": plan.code.value, "seq": plan.seq}).encode()
    extras = tuple(sorted((*hand.extras, ("_injected", raw))))
    return replace(hand, extras=extras)


def _unused_cards(hand: HandRecord) -> list[int]:
    used: set[int] = set()
    for action in hand.actions:
        used.update(action.cards or ())
        used.update(action.burn or ())
    return [card for card in DECK if card not in used]


def apply_card_fault(plan: FaultPlan, rng: random.Random, hand: HandRecord) -> HandRecord | None:
    """Change the finished hand to carry the plan's card or structure fault, if it fits."""
    actions = list(hand.actions)
    code = plan.code
    kinds = [a.type for a in actions]
    seqs = {kind: [k for k, t in enumerate(kinds) if t is kind] for kind in set(kinds)}
    boards = [k for k in seqs.get(ActionType.BOARD, []) if actions[k].run is None]
    shows = seqs.get(ActionType.SHOW, [])
    deals = seqs.get(ActionType.DEAL, [])
    no_deck = replace(hand, deck=None)
    unused = _unused_cards(hand)
    if code is Code.DUPLICATE_CARD and boards and deals:
        k = rng.choice(boards)
        dealt = actions[rng.choice(deals)].cards or ()
        cards = list(actions[k].cards or ())
        cards[rng.randrange(len(cards))] = rng.choice(dealt)
        actions[k] = replace(actions[k], cards=tuple(cards))
        return _done(plan, no_deck, actions, k)
    if code is Code.WRONG_HOLE_CARD_COUNT and deals:
        k = rng.choice(deals)
        seat = actions[k].seat
        if any(actions[s].seat == seat for s in shows):
            return None
        actions[k] = replace(actions[k], cards=(actions[k].cards or ())[:-1])
        return _done(plan, no_deck, actions, k)
    if code is Code.WRONG_BOARD_SIZE:
        rivers = [
            k for k in boards if sum(len(actions[b].cards or ()) for b in boards if b <= k) == 5
        ]
        if not rivers or not unused or any(a.run is not None for a in actions):
            return None
        k = rivers[0]
        extra = rng.choice(unused)
        actions[k] = replace(actions[k], cards=(*(actions[k].cards or ()), extra))
        return _done(plan, no_deck, actions, k)
    if code is Code.SHOWN_CARDS_NOT_DEALT and shows and unused:
        k = rng.choice(shows)
        cards = list(actions[k].cards or ())
        cards[rng.randrange(len(cards))] = rng.choice(unused)
        actions[k] = replace(actions[k], cards=tuple(cards))
        return _done(plan, no_deck, actions, k)
    if code is Code.DEAL_ORDER_MISMATCH and deals and hand.deck is not None:
        k = rng.choice(deals)
        dealt = actions[k].cards or ()
        actions[k] = replace(actions[k], cards=(*dealt[1:], dealt[0]))
        return _done(plan, hand, actions, k)
    if code is Code.STREET_DEALT_EARLY:
        for k in boards:
            if k > 0 and actions[k - 1].type is ActionType.CHECK:
                del actions[k - 1]
                return _done(plan, no_deck, actions, k - 1)
        return None
    if code is Code.ACTION_AFTER_HAND_END:
        folds = seqs.get(ActionType.FOLD, [])
        if shows or not folds:
            return None
        winner = next((a.seat for a in reversed(actions) if a.type is ActionType.UNCALLED), None)
        if winner is None:
            return None
        actions.append(Action(ActionType.CHECK, seat=winner))
        return _done(plan, hand, actions, len(actions) - 1)
    if code is Code.UNCALLED_BET_MISMATCH:
        returns = [k for k in seqs.get(ActionType.UNCALLED, []) if (actions[k].amount or 0) > 1]
        if not returns:
            return None
        k = rng.choice(returns)
        actions[k] = replace(actions[k], amount=(actions[k].amount or 0) - 1)
        return _done(plan, hand, actions, k)
    if code is Code.UNKNOWN_SEAT:
        betting = [k for k, t in enumerate(kinds) if t in (ActionType.FOLD, ActionType.CHECK)]
        if not betting:
            return None
        k = rng.choice(betting)
        empty = max(s.seat for s in hand.seats) + 1
        actions[k] = replace(actions[k], seat=empty)
        return _done(plan, hand, actions, k)
    if code is Code.HAND_NOT_FINISHED:
        if len(boards) < 3 or any(a.run is not None for a in actions) or not shows:
            return None
        river = boards[2]
        bets_after = [k for k in range(river + 1, len(actions)) if kinds[k] is ActionType.CHECK]
        if not bets_after:
            return None
        return _done(plan, no_deck, actions[: bets_after[0]], None)
    if code is Code.SHOWDOWN_ORDER and len(shows) >= 2:
        if _all_in_showdown(actions):
            return None
        a, b = shows[0], shows[1]
        actions[a], actions[b] = actions[b], actions[a]
        return _done(plan, hand, actions, a)
    return None


def _all_in_showdown(actions: list[Action]) -> bool:
    """Tell whether anybody went all-in: then the showdown order may not apply (R8)."""
    return any(a.all_in for a in actions)


def _done(plan: FaultPlan, hand: HandRecord, actions: list[Action], seq: int | None) -> HandRecord:
    plan.place(seq)
    return replace(hand, actions=tuple(actions))
