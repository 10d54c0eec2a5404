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
        return _LABELS[self]


_LABELS = {street: street.name.lower() for street in Street}
_PREFLOP, _FLOP, _SHOWDOWN = Street.PREFLOP, Street.FLOP, Street.SHOWDOWN
_FIXED_LIMIT, _POT_LIMIT = Betting.FIXED_LIMIT, Betting.POT_LIMIT
_POT_LIMIT_PREFLOP = (Betting.POT_LIMIT, Betting.PL_PREFLOP_NL_POSTFLOP)
"""Module constants: an enum's member read through its class is a slow attribute look-up
(some sixty nanoseconds), and these are read for every hand and street."""


class Legal:
    """What the player to act may do now; all amounts are totals for the street.

    ``call`` is the chips a call adds (already capped at the stack); ``can_check`` when
    nothing is owed. A bet (``can_bet``: nobody has bet this street) or raise may go to
    any total from ``min_to`` to ``max_to`` (fixed limit: ``min_to == max_to``); an all-in
    for less than ``min_to`` is always allowed when ``can_raise``. ``all_in_to`` is the
    actor's total if they put in every chip. ``closed_by`` says why no raise is allowed.
    (Read-only by convention; one is made before every action, so it is a bare slotted
    class, a C struct in the compiled engine.)
    """

    __slots__ = (
        "actor",
        "all_in_to",
        "call",
        "can_bet",
        "can_check",
        "can_raise",
        "closed_by",
        "max_to",
        "min_to",
    )
    actor: int
    call: int
    can_check: bool
    can_bet: bool
    can_raise: bool
    min_to: int
    max_to: int
    all_in_to: int
    closed_by: Code | None

    def __init__(
        self,
        actor: int,
        call: int,
        can_check: bool,
        can_bet: bool,
        can_raise: bool,
        min_to: int,
        max_to: int,
        all_in_to: int,
        closed_by: Code | None = None,
    ) -> None:
        _set_legal(self, actor, call, can_check, can_bet, can_raise, min_to, max_to, all_in_to)
        self.closed_by = closed_by

    def __repr__(self) -> str:
        return (
            f"Legal(actor={self.actor}, call={self.call}, can_check={self.can_check}, "
            f"can_bet={self.can_bet}, can_raise={self.can_raise}, min_to={self.min_to}, "
            f"max_to={self.max_to}, all_in_to={self.all_in_to}, closed_by={self.closed_by})"
        )


def _legal(
    actor: int,
    call: int,
    can_check: bool,
    can_bet: bool,
    can_raise: bool,
    min_to: int,
    max_to: int,
    all_in_to: int,
    closed_by: Code | None,
) -> Legal:
    """Return a :class:`Legal` of these values: compiled, its C fields set one by one, where
    calling the class would make each value a Python object for ``__init__`` to read back
    (one is made before every action)."""
    legal = Legal.__new__(Legal)
    _set_legal(legal, actor, call, can_check, can_bet, can_raise, min_to, max_to, all_in_to)
    legal.closed_by = closed_by
    return legal


def _set_legal(
    legal: Legal,
    actor: int,
    call: int,
    can_check: bool,
    can_bet: bool,
    can_raise: bool,
    min_to: int,
    max_to: int,
    all_in_to: int,
) -> None:
    """Set the fields of ``legal`` but ``closed_by`` (:class:`Legal`, :func:`_legal`)."""
    legal.actor = actor
    legal.call = call
    legal.can_check = can_check
    legal.can_bet = can_bet
    legal.can_raise = can_raise
    legal.min_to = min_to
    legal.max_to = max_to
    legal.all_in_to = all_in_to


class BettingState:
    """Chips, bets and turn of one hand's betting, street by street.

    ``bet[i]`` is player ``i``'s live chips on the current street; ``invested[i]`` all
    chips they put in this hand (dead money and antes included, uncalled returns taken
    back), of which ``dead[i]`` went straight to the pot (antes, dead blinds) and
    ``antes[i]`` were antes;
    ``pot_before_round`` the pot from earlier streets plus dead money. Counts of
    players still in the hand and still able to act are kept up to date, so the
    questions asked before every action cost no scan of the table.
    """

    __slots__ = (
        "able",
        "acted_level",
        "aggressor",
        "all_in",
        "antes",
        "bet",
        "betting",
        "big_bet",
        "big_blind",
        "current_bet",
        "dead",
        "folded",
        "full_level",
        "invested",
        "is_limit",
        "last_actor",
        "last_full_raise",
        "limit_size",
        "live",
        "n",
        "needs",
        "pot_before_round",
        "pot_limit",
        "raises",
        "round_start_players",
        "rules",
        "short_raise",
        "small_bet",
        "stack",
        "street",
        "street_total",
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
        self.dead = [0] * n
        self.antes = [0] * n
        self.folded = [False] * n
        self.all_in = [s <= 0 for s in stacks]
        self.live = n
        self.able = n - sum(self.all_in)
        self.needs = [False] * n
        self.acted_level: list[int | None] = [None] * n
        self.pot_before_round = 0
        self.street_total = 0
        self.street = _PREFLOP
        self.is_limit = betting is _FIXED_LIMIT
        self.pot_limit = betting in _POT_LIMIT_PREFLOP
        self.current_bet = 0
        self.last_full_raise = big_blind
        self.short_raise = False  # the last raise was an all-in for less than a full raise
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
        return self.pot_before_round + self.street_total

    def can_act(self, i: int) -> bool:
        """Tell whether player ``i`` still makes decisions (not folded, not all-in)."""
        return not self.folded[i] and not self.all_in[i]

    @property
    def hand_over(self) -> bool:
        """Tell whether one player is left: the hand is won uncontested."""
        return self.live <= 1

    @property
    def round_closed(self) -> bool:
        """Tell whether nobody owes a decision on this street."""
        return self.next_actor() is None

    def next_actor(self) -> int | None:
        """Return the index of the player to act, or ``None`` when the round is closed."""
        if self.live <= 1 or not self.able:
            return None
        needs = self.needs
        n = self.n
        i = self.last_actor
        for _ in range(n):
            i += 1
            if i == n:
                i = 0
            if needs[i]:
                return i
        return None

    def _capped(self) -> bool:
        if self.raises < 1 + self.rules.limit_raises:
            return False
        policy = self.rules.cap_heads_up
        if policy == "uncapped-if-two-at-round-start":
            return self.round_start_players > 2
        if policy == "uncapped-when-two-remain":
            return self.live > 2
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
        current = self.current_bet
        owed = current - mine if current > mine else 0
        call = owed if owed < stack else stack
        all_in_to = mine + stack
        can_bet = current == 0
        closed_by: Code | None = None
        can_raise = stack > owed and self._someone_can_call_a_raise(i)
        if not can_raise and stack > owed:
            closed_by = Code.UNCALLABLE_RAISE  # nobody left who could call more
        if self.is_limit:
            min_to = max_to = self.full_level + self.limit_size
            if can_raise and self._capped():
                can_raise, closed_by = False, Code.RAISE_CAP_EXCEEDED
        else:
            min_to = self.big_blind if can_bet else current + self.last_full_raise
            if self.pot_limit:
                max_to = current + self.pot_before_round + self.street_total + owed
            else:
                max_to = all_in_to
        if can_raise:
            level = self.acted_level[i]
            if level is not None:
                acted = level  # a C integer (state.pxd), compared as one
                if not (
                    self.full_level > acted
                    if self.is_limit
                    else current - acted >= self.last_full_raise
                ):
                    can_raise, closed_by = False, Code.RAISE_NOT_REOPENED
        if max_to > all_in_to:
            max_to = all_in_to
        return _legal(i, call, owed == 0, can_bet, can_raise, min_to, max_to, all_in_to, closed_by)

    def _someone_can_call_a_raise(self, i: int) -> bool:
        """Tell whether another player still acting could put in more than the current bet."""
        if self.able - (0 if self.folded[i] or self.all_in[i] else 1) <= 0:
            return False
        current = self.current_bet
        folded, all_in, stack, bet = self.folded, self.all_in, self.stack, self.bet
        for j in range(self.n):
            if j == i or folded[j] or all_in[j]:
                continue
            behind = stack[j]  # compiled, C integers (state.pxd): no int made to add, compare
            put = bet[j]
            if behind + put > current:
                return True
        return False

    # ------------------------------------------------------------------ chips

    def _went_all_in(self, i: int) -> None:
        if not self.all_in[i]:
            self.all_in[i] = True
            self.needs[i] = False
            if not self.folded[i]:
                self.able -= 1

    def _put(self, i: int, amount: int) -> None:
        # each value read into a C integer first (state.pxd): an in-place sum of a list's
        # int and a C integer would make an int of the C one too
        left = self.stack[i]
        left -= amount
        self.stack[i] = left
        put = self.bet[i]
        self.bet[i] = put + amount
        put = self.invested[i]
        self.invested[i] = put + amount
        self.street_total += amount
        if left <= 0:
            self._went_all_in(i)

    # ------------------------------------------------------------------ forced bets

    def post(self, i: int, amount: int, *, live: bool = True, ante: bool = False) -> None:
        """Put a blind, straddle, ante or dead blind of ``amount`` in front of player ``i``.

        Live chips count toward the player's bet on the first round; dead chips go
        straight to the pot (``ante`` marks an ante, which is dead too, and counted apart
        in ``antes[i]``: a player all-in on part of an ante wins only what they matched).
        A player whose stack is emptied is all-in.
        """
        if live and not ante:
            self._put(i, amount)
            return
        self.stack[i] -= amount
        self.invested[i] += amount
        self.dead[i] += amount
        if ante:
            self.antes[i] += amount
        self.pot_before_round += amount
        if self.stack[i] <= 0:
            self._went_all_in(i)

    def start_preflop(self, *, first: int, opening_bet: int | None = None) -> None:
        """Open the first round after the posts; ``first`` is the index of the first to act.

        ``opening_bet`` is the bet everyone must call (the big blind, or the straddle),
        whatever a short all-in blind actually posted (``R5.short-big-blind``). In fixed
        limit a straddle raises the big blind by a small bet, so it counts toward the cap
        (``R5.limit-cap``: the big blind is the bet, a straddle the first raise).
        """
        bet = self.big_blind if opening_bet is None else opening_bet
        self.current_bet = max(bet, max(self.bet, default=0))
        self.last_full_raise = bet  # a straddle is a new big blind: raises go by its size
        self.full_level = bet
        self.raises = 1  # the big blind counts as the bet
        if self.is_limit and bet > self.big_blind and self.small_bet:
            self.raises += (bet - self.big_blind) // self.small_bet  # a straddle is a raise
        self.limit_size = self.small_bet
        self.street = _PREFLOP
        self.pot_limit = self.betting in _POT_LIMIT_PREFLOP
        self._open_round(first)

    def _open_round(self, first: int) -> None:
        n = self.n
        folded, all_in = self.folded, self.all_in
        self.acted_level = [None] * n
        self.needs = [not folded[i] and not all_in[i] for i in range(n)]
        self.round_start_players = self.live
        self.last_actor = (first - 1) % n
        self.aggressor = -1
        self._settle_lone_player()

    def start_street(self, street: Street) -> None:
        """Move the live bets into the pot and open a later round (first to act: index 0 on)."""
        self.pot_before_round += self.street_total
        self.street_total = 0
        self.bet = [0] * self.n
        self.street = street
        self.current_bet = 0
        self.last_full_raise = self.big_blind
        self.short_raise = False
        self.full_level = 0
        self.raises = 0
        self.limit_size = self.small_bet if street <= _FLOP else self.big_bet
        self.pot_limit = self.betting is _POT_LIMIT
        if street < _SHOWDOWN:
            self._open_round(0)
        else:
            self.needs = [False] * self.n

    # ------------------------------------------------------------------ actions

    def _acted(self, i: int) -> None:
        self.needs[i] = False
        self.acted_level[i] = self.full_level if self.is_limit else self.current_bet
        self.last_actor = i
        if self.able == 1:
            self._settle_lone_player()

    def _settle_lone_player(self) -> None:
        """With one player left who can act, they act only if they owe chips to an all-in."""
        if self.able != 1:
            if not self.able:
                self.needs = [False] * self.n
            return
        folded, all_in, bet = self.folded, self.all_in, self.bet
        i = 0
        while folded[i] or all_in[i]:  # the one who can act
            i += 1
        top = 0  # the most any other player in the hand has bet
        for j in range(self.n):
            if j != i and not folded[j] and bet[j] > top:
                top = bet[j]
        if top <= bet[i]:
            self.needs[i] = False

    def fold(self, i: int) -> None:
        """Player ``i`` folds: their chips stay in the pot."""
        if not self.folded[i]:
            self.folded[i] = True
            self.live -= 1
            if not self.all_in[i]:
                self.able -= 1
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
        if self.is_limit:
            over_full = to - self.full_level
            full = over_full >= self.limit_size or (
                self.rules.limit_half_bet_reopens and 2 * over_full >= self.limit_size
            )
            if full:
                self.full_level = to
                self.raises += 1
        else:
            increase = to - self.current_bet
            if increase >= self.last_full_raise:
                self.last_full_raise = increase
                self.short_raise = False
            elif increase > 0 and self.all_in[i]:
                self.short_raise = True  # a short all-in: the next raise goes by the last full one
        if to > self.current_bet:
            self.current_bet = to
            folded, all_in, needs = self.folded, self.all_in, self.needs
            for j in range(self.n):
                if j != i and not folded[j] and not all_in[j]:
                    needs[j] = True
        self.aggressor = i
        self._acted(i)

    def uncalled(self) -> tuple[int, int] | None:
        """Return ``(index, amount)`` of the unmatched part of the highest bet, if any.

        The top bettor gets back what nobody else (folded players included) put in on
        this street. Nothing is returned until the round is closed or the hand is over.
        """
        if self.live > 1 and self.next_actor() is not None:
            return None
        bet = self.bet
        top = 0
        leader = -1
        for j, b in enumerate(bet):  # the first highest bet (a loop: C integers compiled)
            if b > top:
                top = b
                leader = j
        if top == 0:
            return None
        second = 0
        for j, b in enumerate(bet):
            if j != leader and b > second:
                second = b
        if second == top:
            return None
        return leader, top - second

    def return_uncalled(self, i: int, amount: int) -> None:
        """Give ``amount`` of player ``i``'s bet back to them."""
        self.bet[i] -= amount
        self.stack[i] += amount
        self.invested[i] -= amount
        self.street_total -= amount
        if self.all_in[i] and self.stack[i] > 0:
            self.all_in[i] = False
            if not self.folded[i]:
                self.able += 1


def legal_actions(state: BettingState) -> Legal | None:
    """Return what is legal now without applying anything (``None``: nobody is to act)."""
    return state.legal()
