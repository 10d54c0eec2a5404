"""The betting state machine: who acts, what is legal, and what an action does to the chips.

Applying an action trusts its input (it moves exactly the chips it is told to); whether
the action was legal is a separate question, answered by :meth:`BettingState.legal`
without changing anything. The replay asks that question before every action and judges
the action with the answer; the generator asks it to choose an action.

Players are addressed by **index**: 0 is the first seat dealt in clockwise from the
button (the small blind; heads-up, the big blind), and the button is the last index.
All money is in units of the hand's scale. Pot-limit arithmetic (RULES.md ``R5.pl-max``):

>>> from pipeline.model import Betting
>>> state = BettingState([10_000, 10_000, 10_000], Betting.POT_LIMIT, big_blind=200)
>>> state.post(0, 100); state.post(1, 200); state.start_preflop(first=2)
>>> legal = state.legal()
>>> legal.call, legal.min_to, legal.max_to
(200, 400, 700)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from pipeline.model import Betting
from pipeline.rules.rulesets import STANDARD, RuleSet
from pipeline.violations import Code

__all__ = ["BettingState", "Legal", "Street", "legal_actions"]


class Street(IntEnum):
    """The betting rounds, in order; ``SHOWDOWN`` once the river round has closed."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4

    @property
    def label(self) -> str:
        """Return the lower-case name used in the lake (``preflop``, ``flop`` …)."""
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Legal:
    """What the player to act may do now; all amounts are totals for the street.

    ``call`` is the chips a call adds (already capped at the stack); ``can_check`` when
    nothing is owed. A bet (``can_bet``: nobody has bet this street) or raise may go to
    any total from ``min_to`` to ``max_to`` (fixed limit: ``min_to == max_to``); an all-in
    for less than ``min_to`` is always allowed when ``can_raise``. ``all_in_to`` is the
    actor's total if they put in every chip. ``closed_by`` says why no raise is allowed.
    """

    actor: int
    call: int
    can_check: bool
    can_bet: bool
    can_raise: bool
    min_to: int
    max_to: int
    all_in_to: int
    closed_by: Code | None = None


class BettingState:
    """Chips, bets and turn of one hand's betting, street by street.

    ``bet[i]`` is player ``i``'s live chips on the current street; ``invested[i]`` all
    chips they put in this hand (dead money and antes included, uncalled returns taken
    back); ``pot_before_round`` the pot from earlier streets plus dead money.
    """

    __slots__ = (
        "acted_level",
        "aggressor",
        "all_in",
        "bet",
        "betting",
        "big_bet",
        "big_blind",
        "current_bet",
        "folded",
        "full_level",
        "invested",
        "last_actor",
        "last_full_raise",
        "limit_size",
        "n",
        "needs",
        "pot_before_round",
        "raises",
        "round_start_players",
        "rules",
        "small_bet",
        "stack",
        "street",
    )

    def __init__(
        self,
        stacks: list[int],
        betting: Betting,
        *,
        big_blind: int,
        small_bet: int | None = None,
        big_bet: int | None = None,
        rules: RuleSet = STANDARD,
    ) -> None:
        n = len(stacks)
        self.n = n
        self.betting = betting
        self.rules = rules
        self.big_blind = big_blind
        self.small_bet = small_bet if small_bet is not None else big_blind
        self.big_bet = big_bet if big_bet is not None else 2 * self.small_bet
        self.stack = list(stacks)
        self.bet = [0] * n
        self.invested = [0] * n
        self.folded = [False] * n
        self.all_in = [False] * n
        self.needs = [False] * n
        self.acted_level: list[int | None] = [None] * n
        self.pot_before_round = 0
        self.street = Street.PREFLOP
        self.current_bet = 0
        self.last_full_raise = big_blind
        self.full_level = 0
        self.raises = 0
        self.limit_size = self.small_bet
        self.last_actor = -1
        self.aggressor = -1
        self.round_start_players = n

    # ------------------------------------------------------------------ queries

    @property
    def pot(self) -> int:
        """Return every chip in the middle: earlier streets, dead money and live bets."""
        return self.pot_before_round + sum(self.bet)

    def in_hand(self) -> list[int]:
        """Return the indices of players who have not folded."""
        return [i for i in range(self.n) if not self.folded[i]]

    def can_act(self, i: int) -> bool:
        """Tell whether player ``i`` still makes decisions (not folded, not all-in)."""
        return not self.folded[i] and not self.all_in[i]

    @property
    def hand_over(self) -> bool:
        """Tell whether one player is left: the hand is won uncontested."""
        return sum(1 for f in self.folded if not f) <= 1

    @property
    def round_closed(self) -> bool:
        """Tell whether nobody owes a decision on this street."""
        return self.next_actor() is None

    def next_actor(self) -> int | None:
        """Return the index of the player to act, or ``None`` when the round is closed."""
        if self.hand_over:
            return None
        n = self.n
        start = self.last_actor + 1
        for k in range(n):
            i = (start + k) % n
            if self.needs[i] and not self.folded[i] and not self.all_in[i]:
                return i
        return None

    def _structure_is_limit(self) -> bool:
        return self.betting is Betting.FIXED_LIMIT

    @property
    def pot_limit(self) -> bool:
        """Tell whether the current street is played pot limit."""
        return self._structure_is_pot_limit()

    def _structure_is_pot_limit(self) -> bool:
        return self.betting is Betting.POT_LIMIT or (
            self.betting is Betting.PL_PREFLOP_NL_POSTFLOP and self.street is Street.PREFLOP
        )

    def _capped(self) -> bool:
        if self.raises < 1 + self.rules.limit_raises:
            return False
        policy = self.rules.cap_heads_up
        if policy == "uncapped-if-two-at-round-start":
            return self.round_start_players > 2
        if policy == "uncapped-when-two-remain":
            return len(self.in_hand()) > 2
        return True

    def legal(self) -> Legal | None:
        """Return what the player to act may do, or ``None`` when nobody is to act."""
        i = self.next_actor()
        if i is None:
            return None
        return self.legal_for(i)

    def legal_for(self, i: int) -> Legal:
        """Return what player ``i`` could do if it were their turn now."""
        stack = self.stack[i]
        mine = self.bet[i]
        owed = max(self.current_bet - mine, 0)
        call = min(owed, stack)
        all_in_to = mine + stack
        can_bet = self.current_bet == 0
        closed_by: Code | None = None
        can_raise = stack > owed
        if can_raise and not any(self.can_act(j) for j in range(self.n) if j != i):
            can_raise, closed_by = False, Code.RAISE_NOT_REOPENED  # nobody left to call it
        if self._structure_is_limit():
            min_to = max_to = self.full_level + self.limit_size
            if can_raise and self._capped():
                can_raise, closed_by = False, Code.RAISE_CAP_EXCEEDED
        else:
            min_to = self.big_blind if can_bet else self.current_bet + self.last_full_raise
            if self._structure_is_pot_limit():
                max_to = self.current_bet + self.pot + owed
            else:
                max_to = all_in_to
        if can_raise and not self._reopened_for(i):
            can_raise, closed_by = False, Code.RAISE_NOT_REOPENED
        max_to = min(max_to, all_in_to)
        return Legal(
            actor=i,
            call=call,
            can_check=owed == 0,
            can_bet=can_bet,
            can_raise=can_raise,
            min_to=min_to,
            max_to=max_to,
            all_in_to=all_in_to,
            closed_by=closed_by,
        )

    def _reopened_for(self, i: int) -> bool:
        level = self.acted_level[i]
        if level is None:
            return True
        if self._structure_is_limit():
            return self.full_level > level
        return self.current_bet - level >= self.last_full_raise

    # ------------------------------------------------------------------ forced bets

    def post(self, i: int, amount: int, *, live: bool = True) -> None:
        """Put a blind, straddle, ante or dead blind of ``amount`` in front of player ``i``.

        Live chips count toward the player's bet on the first round; dead chips go
        straight to the pot. A player whose stack is emptied is all-in.
        """
        self.stack[i] -= amount
        self.invested[i] += amount
        if live:
            self.bet[i] += amount
        else:
            self.pot_before_round += amount
        if self.stack[i] <= 0:
            self.all_in[i] = True

    def start_preflop(self, *, first: int, opening_bet: int | None = None) -> None:
        """Open the first round after the posts; ``first`` is the index of the first to act.

        ``opening_bet`` is the bet everyone must call (the big blind, or the straddle),
        whatever a short all-in blind actually posted (``R5.short-big-blind``).
        """
        bet = self.big_blind if opening_bet is None else opening_bet
        self.current_bet = max(bet, max(self.bet, default=0))
        self.last_full_raise = bet  # a straddle is a new big blind: raises go by its size
        self.full_level = bet
        self.raises = 1  # the big blind counts as the bet
        self.limit_size = self.small_bet
        self.street = Street.PREFLOP
        self._open_round(first)

    def _open_round(self, first: int) -> None:
        n = self.n
        self.acted_level = [None] * n
        self.needs = [self.can_act(i) for i in range(n)]
        self.round_start_players = len(self.in_hand())
        self.last_actor = (first - 1) % n
        self.aggressor = -1
        self._settle_lone_player()

    def start_street(self, street: Street) -> None:
        """Move the live bets into the pot and open a later round (first to act: index 0 on)."""
        self.pot_before_round += sum(self.bet)
        self.bet = [0] * self.n
        self.street = street
        self.current_bet = 0
        self.last_full_raise = self.big_blind
        self.full_level = 0
        self.raises = 0
        self.limit_size = self.small_bet if street <= Street.FLOP else self.big_bet
        if street < Street.SHOWDOWN:
            self._open_round(0)
        else:
            self.needs = [False] * self.n

    # ------------------------------------------------------------------ actions

    def _acted(self, i: int) -> None:
        self.needs[i] = False
        self.acted_level[i] = self.full_level if self._structure_is_limit() else self.current_bet
        self.last_actor = i
        self._settle_lone_player()

    def _settle_lone_player(self) -> None:
        """With one player left who can act, they act only if they owe chips to an all-in."""
        able = [j for j in range(self.n) if self.can_act(j)]
        if len(able) == 1:
            i = able[0]
            top = max(
                (self.bet[j] for j in range(self.n) if j != i and not self.folded[j]), default=0
            )
            if top <= self.bet[i]:
                self.needs[i] = False

    def fold(self, i: int) -> None:
        """Player ``i`` folds: their chips stay in the pot."""
        self.folded[i] = True
        self._acted(i)

    def check(self, i: int) -> None:
        """Player ``i`` checks."""
        self._acted(i)

    def call(self, i: int, amount: int) -> None:
        """Player ``i`` adds ``amount`` chips to call."""
        self._put(i, amount)
        self._acted(i)

    def raise_to(self, i: int, to: int) -> None:
        """Player ``i`` bets or raises to a street total of ``to`` (a bet is a raise from 0).

        A raise of at least the last full raise (limit: the full size, or half of it under
        ``limit_half_bet_reopens`` when all-in) is a full raise: it sets the minimum for
        the next one and reopens the betting; a smaller all-in does neither.
        """
        self._put(i, to - self.bet[i])
        increase = to - self.current_bet
        if self._structure_is_limit():
            over_full = to - self.full_level
            full = over_full >= self.limit_size or (
                self.rules.limit_half_bet_reopens and 2 * over_full >= self.limit_size
            )
            if full:
                self.full_level = to
                self.raises += 1
        else:
            full = increase >= self.last_full_raise
            if full:
                self.last_full_raise = increase
        if to > self.current_bet:
            self.current_bet = to
            for j in range(self.n):
                if j != i and self.can_act(j):
                    self.needs[j] = True
        self.aggressor = i
        self._acted(i)

    def _put(self, i: int, amount: int) -> None:
        self.stack[i] -= amount
        self.bet[i] += amount
        self.invested[i] += amount
        if self.stack[i] <= 0:
            self.all_in[i] = True

    def uncalled(self) -> tuple[int, int] | None:
        """Return ``(index, amount)`` of the unmatched part of the highest bet, if any.

        The top bettor gets back what nobody else (folded players included) put in on
        this street. Nothing is returned until the round is closed or the hand is over.
        """
        if not self.hand_over and not self.round_closed:
            return None
        top = max(self.bet)
        if top == 0:
            return None
        leaders = [i for i in range(self.n) if self.bet[i] == top]
        if len(leaders) > 1:
            return None
        second = max((self.bet[j] for j in range(self.n) if j != leaders[0]), default=0)
        return leaders[0], top - second

    def return_uncalled(self, i: int, amount: int) -> None:
        """Give ``amount`` of player ``i``'s bet back to them."""
        self.bet[i] -= amount
        self.stack[i] += amount
        self.invested[i] -= amount
        self.all_in[i] = self.stack[i] <= 0


def legal_actions(state: BettingState) -> Legal | None:
    """Return what is legal now without applying anything (``None``: nobody is to act)."""
    return state.legal()
