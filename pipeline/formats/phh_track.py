"""PHH shared pieces: variant codes, and the bookkeeping that turns PHH moves into actions
(which checks are calls, which bets are raises, what a call costs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import TypeGuard

from pipeline.cards import CardError, parse_cards
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Blind,
    GameSpec,
    Variant,
)
from pipeline.money import MAX_DIGITS
from pipeline.violations import RejectCode

MAX_HAND_BYTES = 4 * 1024 * 1024
"""The largest hand read; a longer one is rejected without being kept."""

EXCERPT_CHARS = 160
Number = int | Decimal
_TOO_LARGE = 10**MAX_DIGITS

_BETTING_CODE = {
    "F": Betting.FIXED_LIMIT,
    "P": Betting.POT_LIMIT,
    "N": Betting.NO_LIMIT,
    "PN": Betting.PL_PREFLOP_NL_POSTFLOP,
}
_CODE_OF_BETTING = {betting: code for code, betting in _BETTING_CODE.items()}
_VARIANT_RE = re.compile(r"(PN|[FPN])([OC])([56])?(/8)?")
_OTHER_GAMES = {
    "FT": "fixed-limit Texas hold'em",
    "NT": "no-limit Texas hold'em",
    "NS": "no-limit short-deck hold'em",
    "F7S": "fixed-limit seven card stud",
    "F7S/8": "fixed-limit seven card stud hi/lo",
    "FR": "fixed-limit razz",
    "N2L1D": "no-limit deuce-to-seven lowball single draw",
    "F2L3D": "fixed-limit deuce-to-seven lowball triple draw",
    "FB": "fixed-limit badugi",
}
_SNIFF_RE = re.compile(
    rb"^\s*(variant|actions|antes|blinds_or_straddles|starting_stacks|min_bet|small_bet)\s*=",
    re.MULTILINE,
)
_HEADER_RE = re.compile(r"\[\s*([^\[\]\s#][^\[\]#]*?)\s*\]\s*(?:#.*)?")
_AMOUNT_RE = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_PLAYER_RE = re.compile(r"p([1-9][0-9]{0,5})")
_INDEX_RE = re.compile(r"[0-9]{1,6}")
_KINDS = {"small": Blind.SMALL, "big": Blind.BIG, "both": Blind.BOTH, "dead": Blind.DEAD}
_KINDS |= {"ante": Blind.ANTE, "straddle": Blind.STRADDLE}
_BOM = "\ufeff"
_CURRENCY_RE = re.compile(r"[A-Z0-9]{1,12}")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


# ------------------------------------------------------------------------ variant codes


class UnwritableHand(ValueError):
    """A hand PHH cannot express (an action by a seat that is not dealt in, say)."""


def parse_variant_code(code: str) -> tuple[Variant, int, Betting] | None:
    """Return (variant, hole cards, betting) for a PHH variant code, ``None`` if not ours.

    >>> parse_variant_code("FO/8")
    (<Variant.OMAHA_HILO: 'omaha-hilo'>, 4, <Betting.FIXED_LIMIT: 'fixed-limit'>)
    >>> parse_variant_code("PC")[:2], parse_variant_code("NO6")[1], parse_variant_code("NT")
    ((<Variant.COURCHEVEL: 'courchevel'>, 5), 6, None)
    """
    match = _VARIANT_RE.fullmatch(code)
    if match is None:
        return None
    betting_code, game, cards, hilo = match.groups()
    if game == "C":
        if cards is not None:
            return None
        variant = Variant.COURCHEVEL_HILO if hilo else Variant.COURCHEVEL
        return variant, 5, _BETTING_CODE[betting_code]
    variant = Variant.OMAHA_HILO if hilo else Variant.OMAHA
    return variant, int(cards or 4), _BETTING_CODE[betting_code]


def variant_code(game: GameSpec) -> str:
    """Return the PHH variant code of a game (``PO``, ``FO/8``, or a Croupier extension).

    >>> from pipeline.model import GameSpec
    >>> variant_code(GameSpec(Variant.OMAHA_HILO, 5, Betting.POT_LIMIT, 1, 2, "USD", 2))
    'PO5/8'
    """
    if game.variant.is_courchevel:
        if game.hole_cards != 5:
            raise UnwritableHand(f"Courchevel deals 5 hole cards, not {game.hole_cards}")
        body = "C"
    else:
        if game.hole_cards not in (4, 5, 6):
            raise UnwritableHand(f"no PHH code for Omaha with {game.hole_cards} hole cards")
        body = "O" if game.hole_cards == 4 else f"O{game.hole_cards}"
    return _CODE_OF_BETTING[game.betting] + body + ("/8" if game.variant.is_hilo else "")


# ------------------------------------------------------------------------ betting book


class BettingBook:
    """Chips on the table while a reader turns a log into actions.

    Tracks stacks, live bets of the street and who still owes a decision, closely
    enough to say what a check-or-call moves, whether a wager is a bet or a raise, when
    a betting round has closed and what an uncalled bet returns (RULES.md ``R4``). It
    judges nothing: the engine does. Players are indices in position order.
    """

    __slots__ = ("bet", "current", "folded", "needs", "open", "stack")

    def __init__(self, stacks: Sequence[int]) -> None:
        self.stack = list(stacks)
        self.bet = [0] * len(stacks)
        self.folded = [False] * len(stacks)
        self.needs = [False] * len(stacks)
        self.current = 0
        self.open = False

    def can_act(self, i: int) -> bool:
        """Tell whether player ``i`` still makes decisions (in the hand, chips behind)."""
        return not self.folded[i] and self.stack[i] > 0

    @property
    def live(self) -> int:
        """Return how many players have not folded."""
        return self.folded.count(False)

    @property
    def closed(self) -> bool:
        """Tell whether the round is over: nobody owes a decision, or one player is left."""
        return self.live <= 1 or not any(self.needs)

    def owed(self, i: int) -> int:
        """Return the chips a call by player ``i`` moves (capped at the stack)."""
        return max(0, min(self.current - self.bet[i], self.stack[i]))

    def post(self, i: int, amount: int, *, live: bool = True) -> None:
        """Put a post in front of player ``i``: live chips count as their bet."""
        self.stack[i] -= amount
        if live:
            self.bet[i] += amount

    def open_round(self, opening: int = 0) -> None:
        """Open a betting round; ``opening`` is the bet to call (pre-flop: the big blind)."""
        self.open = True
        self.current = max([opening, *self.bet])
        self.needs = [self.can_act(i) for i in range(len(self.stack))]
        self._lone()

    def next_street(self) -> None:
        """Start a later street: live bets go to the pot, nobody has bet."""
        self.bet = [0] * len(self.stack)
        self.open_round()

    def fold(self, i: int) -> None:
        """Player ``i`` folds."""
        self.folded[i] = True
        self._acted(i)

    def call(self, i: int, amount: int) -> None:
        """Player ``i`` checks (``amount`` 0) or calls with ``amount`` chips."""
        self.stack[i] -= amount
        self.bet[i] += amount
        self._acted(i)

    def raise_to(self, i: int, to: int) -> None:
        """Player ``i`` bets or raises to a street total of ``to``."""
        self.stack[i] -= to - self.bet[i]
        self.bet[i] = to
        if to > self.current:
            self.current = to
            for j in range(len(self.stack)):
                if j != i and self.can_act(j):
                    self.needs[j] = True
        self._acted(i)

    def take_uncalled(self) -> tuple[int, int] | None:
        """Return ``(index, chips)`` of the unmatched part of the top bet, giving it back."""
        top = max(self.bet, default=0)
        if top <= 0:
            return None
        leader = self.bet.index(top)
        second = max((b for j, b in enumerate(self.bet) if j != leader), default=0)
        if second >= top:
            return None
        amount = top - second
        self.bet[leader] -= amount
        self.stack[leader] += amount
        self.current = second
        return leader, amount

    def _acted(self, i: int) -> None:
        self.needs[i] = False
        self._lone()

    def _lone(self) -> None:
        """With one player able to act, they act only if they owe chips (R4.round-end)."""
        able = [j for j in range(len(self.stack)) if self.can_act(j)]
        if not able:
            self.needs = [False] * len(self.stack)
        elif len(able) == 1:
            j = able[0]
            others = (b for k, b in enumerate(self.bet) if k != j and not self.folded[k])
            if max(others, default=0) <= self.bet[j]:
                self.needs[j] = False


# ------------------------------------------------------------------------ problems


class _Problem(Exception):
    """Input that cannot become a hand; becomes a Reject."""

    def __init__(self, code: RejectCode, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


def _cards(text: str, field: str) -> tuple[int, ...]:
    try:
        cards = parse_cards(text)
    except CardError as error:
        raise _Problem(RejectCode.BAD_CARD, f"{field}: {error}", field) from None
    if not cards:
        raise _Problem(RejectCode.BAD_CARD, f"{field}: no cards", field)
    return cards


def _decimals(value: Number) -> int:
    if isinstance(value, int):
        return 0
    exponent = value.as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _money(value: object, field: str) -> Number:
    """Check one amount: a non-negative integer or finite decimal."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise _Problem(RejectCode.BAD_AMOUNT, f"{field}: not an amount: {value!r}", field)
    if isinstance(value, Decimal) and not value.is_finite():
        raise _Problem(RejectCode.BAD_AMOUNT, f"{field}: not a finite amount: {value}", field)
    if value < 0:
        raise _Problem(RejectCode.BAD_AMOUNT, f"{field}: negative amount: {value}", field)
    if value >= _TOO_LARGE:
        raise _Problem(RejectCode.BAD_AMOUNT, f"{field}: amount too large", field)
    return value


def _amount_text(text: str, field: str) -> Decimal:
    if _AMOUNT_RE.fullmatch(text) is None:
        raise _Problem(RejectCode.BAD_AMOUNT, f"{field}: not an amount: {text!r}", field)
    return Decimal(_money(Decimal(text), field))


def _units(value: Number, scale: int) -> int:
    return int(value * 10**scale)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# ------------------------------------------------------------------------ the tracker


class ActionTracker:
    """Turn a log's posts, cards and wagers into actions, tracking the chips (with OHH).

    Adds what the log leaves implicit: a check or a call as the chips owed say, a bet or
    a raise, and (``implied``) the return of an uncalled bet where the betting closes.
    The PHH reader feeds it the file; the writer feeds it the record, to learn what the
    reader will infer. Players are indices; ``out`` collects the actions made.
    """

    def __init__(
        self, game: GameSpec, stacks: Sequence[int], opening: int, *, implied: bool = True
    ) -> None:
        self.game = game
        self.book = BettingBook(stacks)
        self.opening = opening
        self.implied = implied  # add uncalled returns where the betting closes
        self.board = 0
        self.out: list[Action] = []

    def post(self, i: int, blind: Blind, amount: int, all_in: bool | None = None) -> None:
        """Post a blind, ante or straddle (``both``: the big blind live, the rest dead)."""
        book = self.book
        if blind is Blind.BOTH:
            live = min(amount, self.game.big_blind)
            book.post(i, live)
            book.post(i, amount - live, live=False)
        else:
            book.post(i, amount, live=blind not in (Blind.ANTE, Blind.DEAD))
        flag = book.stack[i] <= 0 if all_in is None else all_in
        self.out.append(Action(ActionType.POST, seat=i, amount=amount, blind=blind, all_in=flag))

    def open_preflop(self) -> None:
        """Open the first betting round once the posts are over (idempotent)."""
        if not self.book.open:
            self.book.open_round(self.opening)
            self.return_uncalled()

    def return_uncalled(self) -> None:
        """Return the unmatched part of the top bet once the round has closed."""
        if self.implied and self.book.closed:
            back = self.book.take_uncalled()
            if back is not None:
                self.out.append(Action(ActionType.UNCALLED, seat=back[0], amount=back[1]))

    def give_back(self, i: int, amount: int) -> None:
        """Apply an uncalled return the file states (``_croupier_uncalled``)."""
        self.book.bet[i] -= amount
        self.book.stack[i] += amount
        self.out.append(Action(ActionType.UNCALLED, seat=i, amount=amount))

    def deal_board(
        self, cards: tuple[int, ...], run: int | None, burn: tuple[int, ...] | None
    ) -> None:
        """Add board cards; a new street (or a runout) closes the betting before it."""
        before = self.board
        if run is None:
            self.board += len(cards)
        street = run is None and _street_of(self.board) > _street_of(before)
        if street or run is not None:
            self.open_preflop()
        self.out.append(Action(ActionType.BOARD, cards=cards, run=run, burn=burn))
        if street:
            self.book.next_street()

    def deal(self, i: int, cards: tuple[int, ...]) -> None:
        """Deal hole cards to player ``i``."""
        self.out.append(Action(ActionType.DEAL, seat=i, cards=cards))

    def reveal(self, i: int, kind: ActionType, cards: tuple[int, ...] | None) -> None:
        """Player ``i`` shows or mucks (betting is over, so the first round is open)."""
        self.open_preflop()
        self.out.append(Action(kind, seat=i, cards=cards))

    def is_idle_check(self, i: int) -> bool:
        """Tell whether a check is PokerKit's turn for a player whose round is closed."""
        book = self.book
        return book.live > 1 and book.closed and book.owed(i) == 0 and not book.folded[i]

    def wager(self, i: int, kind: ActionType, chips: int, all_in: bool | None) -> None:
        """Apply a fold, check, call (``chips`` moved) or bet/raise (``chips``: the total)."""
        book = self.book
        self.open_preflop()
        stack, mine = book.stack[i], book.bet[i]
        if kind is ActionType.FOLD:
            book.fold(i)
            action = Action(kind, seat=i)
        elif kind is ActionType.CHECK:
            book.call(i, 0)
            action = Action(kind, seat=i)
        elif kind is ActionType.CALL:
            book.call(i, chips)
            flag = chips >= stack if all_in is None else all_in
            action = Action(kind, seat=i, amount=chips, all_in=flag)
        else:
            book.raise_to(i, chips)
            flag = chips - mine >= stack if all_in is None else all_in
            if kind is ActionType.BET:
                action = Action(kind, seat=i, amount=chips - mine, all_in=flag)
            else:
                action = Action(kind, seat=i, to=chips, all_in=flag)
        self.out.append(action)
        self.return_uncalled()


def _street_of(board_size: int) -> int:
    return 0 if board_size < 3 else min(board_size - 2, 3)


def _implied_posts(
    antes: Sequence[int], blinds: Sequence[int], stacks: Sequence[int]
) -> list[tuple[int, Blind, int]]:
    """Return ``(index, kind, amount)`` of the posts PHH's position arrays imply.

    Antes first (by player), then blinds and straddles (by position); each is capped at
    the poster's stack left. Heads-up the two positions swap players.
    """
    n = len(stacks)
    left = list(stacks)
    posts: list[tuple[int, Blind, int]] = []

    def position(i: int) -> int:
        return 1 - i if n == 2 else i

    for i in range(n):
        ante = antes[position(i)]
        if ante > 0:
            amount = min(ante, max(left[i], 0))
            left[i] -= amount
            posts.append((i, Blind.ANTE, amount))
    for p, blind in enumerate(blinds):
        i = position(p)
        if blind > 0:
            amount = min(blind, max(left[i], 0))
            left[i] -= amount
            kind = (Blind.SMALL, Blind.BIG)[p] if p < 2 else Blind.STRADDLE
            posts.append((i, kind, amount))
    return posts


def _opening(game: GameSpec, blinds: Sequence[int]) -> int:
    """Return the bet to call pre-flop: the big blind, or the largest straddle."""
    return max([game.big_blind, *blinds[2:]]) if len(blinds) > 2 else game.big_blind


# ------------------------------------------------------------------------ reading
