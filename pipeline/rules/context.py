"""What one replay carries from action to action: the steps, the violations, the state."""

from __future__ import annotations

import pipeline.records  # noqa: F401 - first, it checks the compiled view of the records
from pipeline.model import (
    Action,
    ActionType,
    Blind,
    HandRecord,
)
from pipeline.money import format_amount
from pipeline.rules.rulesets import RuleSet
from pipeline.rules.state import BettingState, Street
from pipeline.violations import Code, Violation

FATAL = frozenset(
    {
        Code.TOO_FEW_PLAYERS,
        Code.DUPLICATE_SEAT,
        Code.UNKNOWN_SEAT,
        Code.EXCEEDS_STACK,
        Code.ACTION_AFTER_HAND_END,
    }
)


STEP_FIELDS = (
    "seq",
    "street",
    "seat",
    "type",
    "amount",
    "to",
    "pot_before",
    "stack_before",
    "to_call",
    "min_to",
    "max_to",
    "all_in",
    "codes",
)
"""A :class:`Step`'s fields, in order: the columns of the lake's ``actions`` it gives."""

StepValues = tuple[
    int,
    Street,
    int | None,
    ActionType,
    int | None,
    int | None,
    int,
    int | None,
    int | None,
    int | None,
    int | None,
    bool,
    tuple[Code, ...],
]
"""A step's values, in :data:`STEP_FIELDS` order (:meth:`Step.values`)."""


NO_CHIPS = -(2**63)
"""A step's chips that are not there (``None``), as the step keeps them (:class:`Step`)."""
_NO_CHIPS = NO_CHIPS  # a C constant in the compiled form


def raw_chips(value: int | None) -> int:
    """Return chips as a step keeps them: ``None`` as :data:`NO_CHIPS`."""
    return _NO_CHIPS if value is None else value


def _chips(raw: int) -> int | None:
    """Return chips a step keeps as they read: :data:`NO_CHIPS` as ``None``."""
    return None if raw == _NO_CHIPS else raw


class Step:
    """One recorded action with the state before it and the legal range it was judged by.

    ``pot_before`` counts every chip in the middle; ``to_call``, ``min_to`` and
    ``max_to`` are set for betting actions (totals for the street). ``codes`` lists
    the violations found at this action. Steps are equal when their values are.

    (Read-only by convention. One is made per action and read field by field by the
    statistics and the lake, so it is a bare slotted class, a C struct in the compiled
    engine: ``context.pxd``. A named tuple's fields are reached through a generic
    attribute look-up, and making one built its values twice.)

    The chips that may be missing (``amount``, ``to``, ``stack_before``, ``to_call``,
    ``min_to``, ``max_to``) are kept as ``_amount`` and so on, :data:`NO_CHIPS` for
    ``None``, and read as ints or ``None`` through properties: compiled, they are C
    integers, so that a step is made without an int object per amount (a hand has some
    hundred of them) and the lake's rows and the statistics read them as they are.
    """

    __slots__ = (
        "_amount",
        "_max_to",
        "_min_to",
        "_stack_before",
        "_to",
        "_to_call",
        "all_in",
        "codes",
        "pot_before",
        "seat",
        "seq",
        "street",
        "type",
    )

    def __init__(
        self,
        seq: int,
        street: Street,
        seat: int | None,
        type: ActionType,
        amount: int | None,
        to: int | None,
        pot_before: int,
        stack_before: int | None,
        to_call: int | None = None,
        min_to: int | None = None,
        max_to: int | None = None,
        all_in: bool = False,
        codes: tuple[Code, ...] = (),
    ) -> None:
        self.seq = seq
        self.street = street
        self.seat = seat
        self.type = type
        self._amount = raw_chips(amount)
        self._to = raw_chips(to)
        self.pot_before = pot_before
        self._stack_before = raw_chips(stack_before)
        self._to_call = raw_chips(to_call)
        self._min_to = raw_chips(min_to)
        self._max_to = raw_chips(max_to)
        self.all_in = all_in
        self.codes = codes

    @property
    def amount(self) -> int | None:
        """Chips the action moved."""
        return _chips(self._amount)

    @property
    def to(self) -> int | None:
        """The player's total for the street after a raise, as logged."""
        return _chips(self._to)

    @property
    def stack_before(self) -> int | None:
        """The player's stack before a betting action."""
        return _chips(self._stack_before)

    @property
    def to_call(self) -> int | None:
        """What the player had to put in to call, for a betting action."""
        return _chips(self._to_call)

    @property
    def min_to(self) -> int | None:
        """The least total the player could bet or raise to, when they could."""
        return _chips(self._min_to)

    @property
    def max_to(self) -> int | None:
        """The most total the player could bet or raise to, when they could."""
        return _chips(self._max_to)

    def values(self) -> StepValues:
        """Return the step's values, in field order (a row of the lake's ``actions``)."""
        return (
            self.seq,
            self.street,
            self.seat,
            self.type,
            _chips(self._amount),
            _chips(self._to),
            self.pot_before,
            _chips(self._stack_before),
            _chips(self._to_call),
            _chips(self._min_to),
            _chips(self._max_to),
            self.all_in,
            self.codes,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return self.values() == other.values()

    def __repr__(self) -> str:
        body = ", ".join(
            f"{name}={value!r}" for name, value in zip(STEP_FIELDS, self.values(), strict=True)
        )
        return f"Step({body})"


def make_step(
    seq: int,
    street: Street,
    seat: int | None,
    kind: ActionType,
    amount: int,
    to: int,
    pot_before: int,
    stack_before: int,
    to_call: int = NO_CHIPS,
    min_to: int = NO_CHIPS,
    max_to: int = NO_CHIPS,
    all_in: bool = False,
) -> Step:
    """Return a :class:`Step` with no codes, its fields set one by one (in the compiled
    engine, without a call of ``__init__``: one is made per action). The chips are as the
    step keeps them, :data:`NO_CHIPS` for none (:func:`raw_chips`).

    Equal to ``Step(seq, street, …)`` with ``None`` for each :data:`NO_CHIPS`.
    """
    step = Step.__new__(Step)
    step.seq = seq
    step.street = street
    step.seat = seat
    step.type = kind
    step._amount = amount
    step._to = to
    step.pot_before = pot_before
    step._stack_before = stack_before
    step._to_call = to_call
    step._min_to = min_to
    step._max_to = max_to
    step.all_in = all_in
    step.codes = ()
    return step


def step_values(steps: tuple[Step, ...]) -> list[StepValues]:
    """Return each step's values (:meth:`Step.values`), in order: rows of the lake's
    ``actions``."""
    return [step.values() for step in steps]


def with_codes(step: Step, codes: tuple[Code, ...]) -> Step:
    """Return a copy of ``step`` that lists ``codes``."""
    return Step(*step.values()[:-1], codes)


class Stop(Exception):
    """Raised inside the replay after a fatal violation was recorded."""


class Run:
    """Mutable bookkeeping of one replay.

    (A plain class rather than a dataclass so that the compiled engine can make it a C
    struct: see ``context.pxd``.)
    """

    __slots__ = (
        "all_in_showdown",
        "antes",
        "bb_index",
        "big_posts",
        "dealt",
        "deck_seqs",
        "expected_uncalled",
        "exposed",
        "hand",
        "hole",
        "index",
        "last_aggressor",
        "posts_open",
        "returned",
        "river_aggressor",
        "rules",
        "run_boards",
        "sb_index",
        "seat_posts",
        "seats",
        "seen",
        "shared_board",
        "shows",
        "skipped",
        "small_posted",
        "state",
        "steps",
        "straddle_index",
        "violations",
    )

    def __init__(
        self,
        hand: HandRecord,
        rules: RuleSet,
        seats: list[int],
        index: dict[int, int],
        state: BettingState,
    ) -> None:
        self.hand = hand
        self.rules = rules
        self.seats = seats
        self.index = index
        self.state = state
        self.violations: list[Violation] = []
        self.steps: list[Step] = []
        self.posts_open = True
        self.sb_index = 0
        self.bb_index = 1
        self.small_posted = False
        self.skipped = -1  # the player an action out of turn went before, until they act
        self.big_posts: list[tuple[int, int]] = []  # (seq, index)
        self.seat_posts: list[tuple[int, int, Blind]] = []  # (seq, index, kind): see forced
        self.straddle_index: int | None = None
        self.antes: set[int] = set()
        self.hole: dict[int, tuple[int, ...]] = {}
        self.dealt: dict[int, tuple[int, ...]] = {}
        self.deck_seqs: list[int] = []  # the deal and board actions' seqs (R3.deck-order)
        self.seen = 0
        self.shared_board: list[int] = []
        self.run_boards: dict[int, list[int]] = {}
        self.exposed = False
        self.expected_uncalled: list[tuple[int, int, int]] = []  # seq, index, amount
        self.returned: list[tuple[int, int]] = []
        self.shows: list[tuple[int, int]] = []  # (seq, index)
        self.river_aggressor: int | None = None
        self.last_aggressor: int | None = None
        self.all_in_showdown = False

    def money(self, amount: int) -> str:
        return format_amount(amount, self.hand.game.scale)

    def flag(
        self,
        code: Code,
        message: str,
        *,
        seq: int | None = None,
        seat: int | None = None,
        expected: str | None = None,
        actual: str | None = None,
        rule: str = "",
    ) -> None:
        self.violations.append(
            Violation(
                code, message, seq=seq, seat=seat, expected=expected, actual=actual, rule=rule
            )
        )
        if code in FATAL:
            raise Stop


def seat_index(run: Run, seq: int, action: Action) -> int:
    seat = action.seat
    index = run.index.get(seat) if seat is not None else None
    if index is None:
        run.flag(
            Code.UNKNOWN_SEAT,
            f"{action.type} by seat {seat}, which is not dealt in",
            seq=seq,
            seat=seat,
            rule="R4.actions",
        )
        raise Stop  # pragma: no cover - flag raises for fatal codes
    return index


def check_all_in_flag(run: Run, seq: int, action: Action, all_in: bool) -> None:
    if action.all_in != all_in:
        said = "all-in" if action.all_in else "not all-in"
        run.flag(
            Code.ALL_IN_FLAG_MISMATCH,
            f"the log says {said}, the chips say otherwise",
            seq=seq,
            seat=action.seat,
            expected=str(all_in).lower(),
            actual=str(action.all_in).lower(),
        )
