"""PHH shared pieces: variant codes, the bookkeeping that turns PHH moves into actions
(which checks are calls, which bets are raises, what a call costs), and typed access to a
hand's TOML fields, Croupier's ``_croupier_`` fields included (what they mean:
:mod:`pipeline.formats.phh` and ``docs/phh-extensions.md``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import TypeGuard

import msgspec
from msgspec.structs import replace

from pipeline.cards import CardError, parse_cards
from pipeline.formats.limits import ReadProblem
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Blind,
    CashOut,
    Fee,
    GameSpec,
    RecordedResult,
    Seat,
    SeatAmount,
    Variant,
)
from pipeline.money import MAX_DIGITS, MAX_SCALE
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

    __slots__ = ("acted", "bet", "current", "folded", "needs", "open", "stack")

    def __init__(self, stacks: Sequence[int]) -> None:
        self.stack = list(stacks)
        self.bet = [0] * len(stacks)
        self.folded = [False] * len(stacks)
        self.needs = [False] * len(stacks)
        self.acted = [False] * len(stacks)  # who has had a turn in this round
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
        self.acted = [False] * len(self.stack)
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
        self.acted[i] = True
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


_Problem = ReadProblem


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
        """Deal hole cards to player ``i``. Cards dealt to a player in parts (PHH may deal
        ``d dh p1 8s8d`` then ``d dh p1 6h5h``) join the player's first deal: a hand holds
        one deal per seat, with every hole card."""
        for k, action in enumerate(self.out):
            if action.type is ActionType.DEAL and action.seat == i:
                self.out[k] = replace(action, cards=(action.cards or ()) + cards)
                return
        self.out.append(Action(ActionType.DEAL, seat=i, cards=cards))

    def reveal(self, i: int, kind: ActionType, cards: tuple[int, ...] | None) -> None:
        """Player ``i`` shows or mucks (betting is over, so the first round is open)."""
        self.open_preflop()
        self.out.append(Action(kind, seat=i, cards=cards))

    def is_idle_check(self, i: int) -> bool:
        """Tell whether a check is the one turn PokerKit gives a player whose round is closed.

        PokerKit keeps a player who has not acted in the round as next to act when every
        other player still in went all-in during it (a big blind whose only caller is
        all-in for less; before the flop, a player all-in on the ante or a blind): that
        player, the only one able to act, owes nothing and is asked for a check. Only that
        first check is the idle one; any other check after the round closed is a real
        action of the log, for the engine to judge.
        """
        book = self.book
        if book.live <= 1 or not book.closed or book.folded[i] or book.acted[i]:
            return False
        if book.owed(i) or not book.can_act(i):
            return False
        others = [j for j in range(len(book.stack)) if j != i and not book.folded[j]]
        if any(book.can_act(j) for j in others):
            return False
        # went all-in in this round: with a bet in it, or before the flop on the posts alone
        # (an ante or a blind that took the whole stack)
        return self.board == 0 or any(book.bet[j] > 0 for j in others)

    def skip_idle_check(self, i: int) -> None:
        """Pass over PokerKit's idle check by player ``i`` (:meth:`is_idle_check`): it is
        that player's turn in the round, and adds no action."""
        self.book.acted[i] = True

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
    """Return the bet to call pre-flop: the big blind, or the largest straddle.

    Only a big blind the arrays post sets it (a short all-in one still owes the others the
    whole blind, R5.short-big-blind); with none (antes only, ``blinds_or_straddles`` all 0)
    a ``cc`` calls what is in front, as PHH says, and never ``min_bet`` nobody posted.
    """
    big = game.big_blind if len(blinds) > 1 and blinds[1] > 0 else 0
    return max([big, *blinds[2:]])


# ------------------------------------------------------------------------ fields


class _Fields:
    """Typed access to one hand's TOML table; every amount read is kept for the scale."""

    def __init__(self, table: dict[str, object]) -> None:
        self.table = table
        self.amounts: list[Number] = []
        self.read: set[str] = set()  # the fields looked at: the others are kept as extras

    def get(self, key: str) -> object:
        self.read.add(key)
        return self.table.get(key)

    def text(self, key: str) -> str | None:
        value = self.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise _Problem(RejectCode.SCHEMA_VIOLATION, f"{key}: not text: {value!r}", key)
        return str(value)

    def strings(self, key: str) -> list[str] | None:
        value = self.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _Problem(RejectCode.SCHEMA_VIOLATION, f"{key}: not a list of strings", key)
        return [str(v) for v in value]

    def number(self, key: str) -> Number | None:
        value = self.get(key)
        if value is None:
            return None
        number = _money(value, key)
        self.amounts.append(number)
        return number

    def numbers(self, key: str, n: int) -> list[Number] | None:
        value = self.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise _Problem(RejectCode.SCHEMA_VIOLATION, f"{key}: not a list", key)
        if len(value) != n:
            raise _Problem(
                RejectCode.SCHEMA_VIOLATION, f"{key}: {len(value)} values for {n} players", key
            )
        numbers = [_money(v, f"{key}[{i}]") for i, v in enumerate(value)]
        self.amounts.extend(numbers)
        return numbers

    def decimal(self, text: str, field: str) -> Decimal:
        value = _amount_text(text, field)
        self.amounts.append(value)
        return value

    def player(self, word: str, n: int, field: str) -> int:
        match = _PLAYER_RE.fullmatch(word)
        if match is None or int(match.group(1)) > n:
            raise _Problem(
                RejectCode.MALFORMED_HAND, f"{field}: no player {word!r} in a hand of {n}", field
            )
        return int(match.group(1)) - 1


# ------------------------------------------------------------------------ Croupier's fields


def _extra_posts(fields: _Fields, n: int) -> list[tuple[int, Blind, Decimal]] | None:
    texts = fields.strings("_croupier_posts")
    if texts is None:
        return None
    posts = []
    for k, text in enumerate(texts):
        field = f"_croupier_posts[{k}]"
        match text.split():
            case [who, kind, amount] if kind in _KINDS:
                posts.append(
                    (fields.player(who, n, field), _KINDS[kind], fields.decimal(amount, field))
                )
            case _:
                raise _Problem(RejectCode.SCHEMA_VIOLATION, f"{field}: not a post: {text!r}", field)
    return posts


def _stated_uncalled(fields: _Fields, n: int) -> list[tuple[int, int, Decimal]] | None:
    """Read ``_croupier_uncalled``: ``"pN amount at K"``, returned before ``actions[K]``."""
    texts = fields.strings("_croupier_uncalled")
    if texts is None:
        return None
    rows = []
    for k, text in enumerate(texts):
        field = f"_croupier_uncalled[{k}]"
        match text.split():
            case [who, amount, "at", at] if _INDEX_RE.fullmatch(at):
                rows.append((int(at), fields.player(who, n, field), fields.decimal(amount, field)))
            case _:
                message = f"{field}: not an uncalled return: {text!r}"
                raise _Problem(RejectCode.SCHEMA_VIOLATION, message, field)
    return rows


def _collected(fields: _Fields, n: int) -> list[tuple[int, int, int | None, Decimal]]:
    rows = []
    for k, text in enumerate(fields.strings("_croupier_collected") or ()):
        field = f"_croupier_collected[{k}]"
        match text.split():
            case [who, "pot", pot, amount] if _INDEX_RE.fullmatch(pot):
                run = None
            case [who, "pot", pot, "run", ("1" | "2" | "3") as runs, amount] if _INDEX_RE.fullmatch(
                pot
            ):
                run = int(runs)
            case _:
                raise _Problem(RejectCode.SCHEMA_VIOLATION, f"{field}: not a collection", field)
        rows.append((fields.player(who, n, field), int(pot), run, fields.decimal(amount, field)))
    return rows


def _rows(fields: _Fields, key: str) -> list[tuple[str, list[str]]]:
    """Return the entries of a list-of-text field as (field path, words)."""
    return [(f"{key}[{k}]", text.split()) for k, text in enumerate(fields.strings(key) or ())]


def _not_a(field: str, what: str, words: list[str]) -> _Problem:
    shown = " ".join(words)[:60]
    return _Problem(RejectCode.SCHEMA_VIOLATION, f"{field}: not {what}: {shown!r}", field)


def _cash_outs(fields: _Fields, n: int) -> list[tuple[int, Decimal, Decimal]]:
    """Read ``_croupier_cash_outs``: ``"pN amount [fee F]"`` (the hand's money)."""
    rows: list[tuple[int, Decimal, Decimal]] = []
    for field, words in _rows(fields, "_croupier_cash_outs"):
        match words:
            case [who, amount]:
                fee = "0"
            case [who, amount, "fee", fee]:
                pass
            case _:
                raise _not_a(field, "a cash-out", words)
        player = fields.player(who, n, field)
        if any(player == earlier for earlier, _, _ in rows):  # one a seat (R9.cash-out)
            message = f"{field}: {who} cashes out twice (one cash-out a player)"
            raise _Problem(RejectCode.SCHEMA_VIOLATION, message, field)
        rows.append((player, fields.decimal(amount, field), fields.decimal(fee, field)))
    return rows


def _fees(fields: _Fields) -> list[tuple[str, Decimal]]:
    """Read ``_croupier_fees``: ``"kind amount"`` (the kind may hold spaces)."""
    rows = []
    for k, text in enumerate(fields.strings("_croupier_fees") or ()):
        field = f"_croupier_fees[{k}]"
        kind, space, amount = text.rpartition(" ")
        if not space:
            raise _not_a(field, "a fee", [text])
        rows.append((kind, fields.decimal(amount, field)))
    return rows


def _tournament_money(text: str, scale: int, field: str) -> int:
    """Return an amount of the tournament's money (a bounty) in units of ``scale``."""
    value = _amount_text(text, field)
    if _decimals(value) > scale:
        message = f"{field}: {text} has more decimals than the tournament's money ({scale})"
        raise _Problem(RejectCode.BAD_AMOUNT, message, field)
    return _units(value, scale)


def _bounties(fields: _Fields, key: str, n: int, scale: int) -> list[tuple[int, int]]:
    """Read ``"pN amount"`` entries of tournament money (bounties)."""
    rows = []
    for field, words in _rows(fields, key):
        match words:
            case [who, amount]:
                rows.append((fields.player(who, n, field), _tournament_money(amount, scale, field)))
            case _:
                raise _not_a(field, "a bounty", words)
    return rows


def _tournament_scale(fields: _Fields) -> int:
    value = fields.get("_croupier_tournament_scale")
    if value is None:
        return 2
    if not _is_int(value) or not 0 <= value <= MAX_SCALE:
        message = f"_croupier_tournament_scale: not a scale (0 to {MAX_SCALE}): {value!r}"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "_croupier_tournament_scale")
    return value


def _seats_out(fields: _Fields, scale: int) -> list[tuple[int, str, Number, int | None]]:
    """Read ``_croupier_sitting_out``: seats not dealt in (``seat``, ``player``, ``stack``
    in the hand's money, ``bounty`` text in the tournament's)."""
    value = fields.get("_croupier_sitting_out")
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Problem(RejectCode.SCHEMA_VIOLATION, "_croupier_sitting_out: not a list", None)
    seats = []
    for k, entry in enumerate(value):
        field = f"_croupier_sitting_out[{k}]"
        if not isinstance(entry, dict) or set(entry) - {"seat", "player", "stack", "bounty"}:
            raise _Problem(RejectCode.SCHEMA_VIOLATION, f"{field}: not a seat", field)
        seat, player, bounty = entry.get("seat"), entry.get("player"), entry.get("bounty")
        if not _is_int(seat) or seat <= 0 or not isinstance(player, str):
            message = f"{field}: needs a seat number and a player name"
            raise _Problem(RejectCode.SCHEMA_VIOLATION, message, field)
        if bounty is not None and not isinstance(bounty, str):
            raise _Problem(RejectCode.SCHEMA_VIOLATION, f"{field}.bounty: not text", field)
        stack = _money(entry.get("stack"), f"{field}.stack")
        fields.amounts.append(stack)
        head = None if bounty is None else _tournament_money(bounty, scale, f"{field}.bounty")
        seats.append((seat, player, stack, head))
    return seats


def _extras(fields: _Fields, keep: Iterable[str] = ()) -> tuple[tuple[str, bytes], ...]:
    """Return the record's ``_`` fields: those ``_croupier_extras`` carries, each its raw
    JSON text, and every field of the file the reader did not look at (or looked at and
    could not keep: ``keep``) as JSON text, so that nothing is dropped: ``author`` as
    ``_phh_author``, a field of the file's own ``_name`` as itself. Call it last."""
    kept = dict(_croupier_extras(fields))
    unread = [k for k in fields.table if k not in fields.read or k in keep]
    for key in unread:
        name = key if key.startswith("_") else f"_phh_{key}"
        if name not in kept:
            kept[name] = _AS_JSON.encode(_finite(fields.table[key]))
    return tuple(kept.items())  # in the order carried, then the fields not read


_AS_JSON = msgspec.json.Encoder(decimal_format="number")
"""A TOML value as JSON text: decimals as numbers (as written), dates and times in ISO 8601."""
_NOT_FINITE = {"Infinity": "inf", "-Infinity": "-inf", "NaN": "nan", "-NaN": "nan"}


def _finite(value: object) -> object:
    """Return a TOML value with its ``inf`` and ``nan`` as the text TOML writes (JSON has no
    number for them)."""
    if isinstance(value, Decimal) and not value.is_finite():
        return _NOT_FINITE.get(str(value), str(value))
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    return value


def _croupier_extras(fields: _Fields) -> tuple[tuple[str, bytes], ...]:
    """Read ``_croupier_extras``: the record's ``_`` fields, each its raw JSON text."""
    value = fields.get("_croupier_extras")
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and k.startswith("_") and isinstance(v, str) for k, v in value.items()
    ):
        message = "_croupier_extras: not a table of '_' names and JSON text"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "_croupier_extras")
    for key, text in value.items():
        try:
            msgspec.json.decode(text)  # strict: Python's json takes NaN and Infinity
        except msgspec.DecodeError:
            message = f"_croupier_extras: {key!r} is not JSON text"
            raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "_croupier_extras") from None
    return tuple((k, v.encode()) for k, v in value.items())


class _Aside:
    """What Croupier's fields carry beside the betting: fees, added money, cash-outs,
    bounties, seats sitting out (read before the hand's scale is known)."""

    def __init__(self, fields: _Fields, n: int) -> None:
        self.cash_outs = _cash_outs(fields, n)
        self.fees = _fees(fields)
        self.added = fields.number("_croupier_added")
        self.bounty_scale = _tournament_scale(fields)
        heads = _bounties(fields, "_croupier_bounties", n, self.bounty_scale)
        self.heads = dict(heads)
        if len(self.heads) < len(heads):
            message = "_croupier_bounties: a player's bounty is given twice"
            raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "_croupier_bounties")
        self.won = _bounties(fields, "_croupier_bounties_won", n, self.bounty_scale)
        self.away = _seats_out(fields, self.bounty_scale)

    def result(
        self, result: RecordedResult | None, scale: int, numbers: list[int]
    ) -> RecordedResult | None:
        """Return ``result`` with the money the betting does not show."""
        aside = RecordedResult(
            fees=tuple(Fee(kind, _units(a, scale)) for kind, a in self.fees),
            added=0 if self.added is None else _units(self.added, scale),
            cash_outs=tuple(
                CashOut(numbers[i], _units(a, scale), _units(fee, scale))
                for i, a, fee in self.cash_outs
            ),
            bounties=tuple(SeatAmount(numbers[i], a) for i, a in self.won),
        )
        if aside == RecordedResult():
            return result
        return replace(
            result or RecordedResult(),
            fees=aside.fees,
            added=aside.added,
            cash_outs=aside.cash_outs,
            bounties=aside.bounties,
        )

    def seats(self, dealt: list[Seat], scale: int) -> tuple[Seat, ...]:
        """Return every seat, the ones sitting out included, by seat number."""
        seats = list(dealt)
        for seat, player, stack, head in self.away:
            if any(s.seat == seat for s in seats):
                message = f"_croupier_sitting_out: seat {seat} is taken"
                raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "_croupier_sitting_out")
            seats.append(Seat(seat, player, _units(stack, scale), sitting_out=True, bounty=head))
        return tuple(sorted(seats, key=lambda seat: seat.seat))
