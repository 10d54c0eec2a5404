"""The normalized hand: frozen records every reader produces and the engine consumes.

The records are frozen ``msgspec`` structs: a reader makes tens of them per hand, and a
struct is built about fifteen times faster than a frozen dataclass (change one with
``msgspec.structs.replace``). They hold only immutable values, so the garbage collector
does not track them.

All money is ``int`` units of the hand's ``GameSpec.scale`` (see :mod:`pipeline.money`);
all cards are ints (see :mod:`pipeline.cards`). Seats are numbered as the site numbers
them. Nothing here validates the rules of poker: that is the engine's job, and a record
that breaks them is still a record.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from msgspec import Struct

__all__ = [
    "COURCHEVEL_VARIANTS",
    "HILO_VARIANTS",
    "Action",
    "ActionType",
    "Betting",
    "Blind",
    "CashOut",
    "Collection",
    "Fee",
    "GameSpec",
    "HandRecord",
    "RecordedResult",
    "Seat",
    "SeatAmount",
    "Status",
    "Tournament",
    "Variant",
]


class Variant(StrEnum):
    """The game dealt. The number of hole cards is a separate field of :class:`GameSpec`."""

    OMAHA = "omaha"
    OMAHA_HILO = "omaha-hilo"
    COURCHEVEL = "courchevel"
    COURCHEVEL_HILO = "courchevel-hilo"

    @property
    def is_hilo(self) -> bool:
        """Tell whether the pot is split between high and an eight-or-better low."""
        return self in HILO_VARIANTS

    @property
    def is_courchevel(self) -> bool:
        """Tell whether the first flop card is exposed before the first betting round."""
        return self in COURCHEVEL_VARIANTS


HILO_VARIANTS = frozenset({Variant.OMAHA_HILO, Variant.COURCHEVEL_HILO})
"""The variants of :attr:`Variant.is_hilo`. The compiled modules test a hand's variant here:
reading the property is a call of Python code, several times a hand."""
COURCHEVEL_VARIANTS = frozenset({Variant.COURCHEVEL, Variant.COURCHEVEL_HILO})
"""The variants of :attr:`Variant.is_courchevel` (read here as :data:`HILO_VARIANTS` is)."""


class Betting(StrEnum):
    """The betting structure: how much a bet or raise may be."""

    FIXED_LIMIT = "fixed-limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"
    PL_PREFLOP_NL_POSTFLOP = "pl-preflop-nl-postflop"


class ActionType(StrEnum):
    """What one entry of a hand's action list records."""

    POST = "post"
    DEAL = "deal"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    BOARD = "board"
    SHOW = "show"
    MUCK = "muck"
    UNCALLED = "uncalled"


class Blind(StrEnum):
    """The kind of a forced or voluntary post.

    ``big`` from a seat other than the big blind is a post to enter (live).
    ``both`` is a missed-blinds post: the big-blind part is live, the small-blind part dead.
    ``dead`` is chips that go straight to the pot (a dead small blind posted alone).
    """

    SMALL = "small"
    BIG = "big"
    BOTH = "both"
    DEAD = "dead"
    ANTE = "ante"
    STRADDLE = "straddle"


class Status(StrEnum):
    """A judged hand's status (DESIGN.md): only errors, never warnings, change it."""

    OK = "ok"
    VIOLATIONS = "violations"  # errors found, replayed to the end
    INVALID = "invalid"  # replay stopped at an action that makes the rest meaningless
    VOID = "void"  # misdeal, or cancelled by the site
    PARTIAL = "partial"  # the log itself is incomplete


class GameSpec(Struct, frozen=True, gc=False):
    """The game, its stakes and its money unit.

    ``small_bet``/``big_bet`` are set for fixed limit only; ``ante`` is 0 when there is none.
    """

    variant: Variant
    hole_cards: int
    betting: Betting
    small_blind: int
    big_blind: int
    currency: str
    scale: int
    small_bet: int | None = None
    big_bet: int | None = None
    ante: int = 0
    max_seats: int | None = None
    mixed: str | None = None


class Seat(Struct, frozen=True, gc=False):
    """A player in a seat at the start of the hand, with their stack in units."""

    seat: int
    player: str
    stack: int
    sitting_out: bool = False
    bounty: int | None = None


class Action(Struct, frozen=True, gc=False):
    """One entry of the action list.

    ``amount`` is the chips this action moves (post, call, bet, uncalled return);
    ``to`` is the player's total for the street after a raise. ``cards`` are hole cards
    (deal, show, muck) or new board cards (board); ``run`` numbers the runout (1, 2, 3)
    of a board dealt more than once, ``None`` for cards shared by every runout.
    """

    type: ActionType
    seat: int | None = None
    amount: int | None = None
    to: int | None = None
    cards: tuple[int, ...] | None = None
    blind: Blind | None = None
    all_in: bool = False
    run: int | None = None
    burn: tuple[int, ...] | None = None


class Collection(Struct, frozen=True, gc=False):
    """Chips the log says a seat collected from one pot (0 = main, 1.. = side pots)."""

    seat: int
    amount: int
    pot: int = 0
    run: int | None = None


class Fee(Struct, frozen=True, gc=False):
    """Money the site took besides the rake: ``kind`` is e.g. ``"jackpot"``, ``"cash-out"``."""

    kind: str
    amount: int


class CashOut(Struct, frozen=True, gc=False):
    """A player who cashed out the hand: paid ``amount`` instead of their share.

    ``fee`` is what the site kept for the cash-out, already taken off ``amount``: PokerStars'
    ``cashed out the hand for $15.82 | Cash Out Fee $0.32`` pays $15.82.
    """

    seat: int
    amount: int
    fee: int = 0


class SeatAmount(Struct, frozen=True, gc=False):
    """An amount belonging to a seat: a finishing stack, a bounty won."""

    seat: int
    amount: int


class RecordedResult(Struct, frozen=True, gc=False):
    """What the log says happened to the money; the engine recomputes and compares.

    ``pots`` lists pot sizes as the site printed them (PokerStars: after rake, main first).
    ``added`` is money the site put in (STP, "add to pot"). ``bounties`` are in the
    tournament's money, not in chips.
    """

    rake: int | None = None
    total_pot: int | None = None
    pots: tuple[int, ...] = ()
    collected: tuple[Collection, ...] = ()
    fees: tuple[Fee, ...] = ()
    added: int = 0
    cash_outs: tuple[CashOut, ...] = ()
    final_stacks: tuple[SeatAmount, ...] = ()
    bounties: tuple[SeatAmount, ...] = ()


class Tournament(Struct, frozen=True, gc=False):
    """Tournament data. ``scale`` is the unit of bounties in ``currency``, not of chips."""

    id: str
    level: str | None = None
    buyin: str | None = None
    currency: str | None = None
    scale: int = 2


class HandRecord(Struct, frozen=True, gc=False):
    """One hand as the log recorded it, normalized and exact.

    ``source`` and ``line`` locate it in its input. ``deck`` is the deck order from the
    top where the room records it. ``hero`` is the seat whose hole cards the log always
    shows. ``extras`` keeps top-level fields whose names start with ``_`` as raw JSON text.
    """

    hand_id: str
    site: str
    game: GameSpec
    button: int
    seats: tuple[Seat, ...]
    actions: tuple[Action, ...]
    table: str | None = None
    started_at: datetime | None = None
    result: RecordedResult | None = None
    tournament: Tournament | None = None
    deck: tuple[int, ...] | None = None
    hero: int | None = None
    cancelled: bool = False
    partial: bool = False
    converted: bool = False
    source: str = ""
    line: int = 0
    extras: tuple[tuple[str, bytes], ...] = ()

    def seat(self, number: int) -> Seat | None:
        """Return the seat numbered ``number``, or ``None`` when nobody sits there."""
        for seat in self.seats:
            if seat.seat == number:
                return seat
        return None
