"""Problems as data: violation codes for hands that break a rule, reject codes for input.

Every code is a stable slug (never renamed, never reused) with a severity and the
RULES.md rule id it enforces, so a report can filter by severity and an explanation can
quote the rule. A :class:`Violation` is a problem found in a hand; a :class:`Reject` is
input that could not become a hand at all.

>>> Code.RAISE_ABOVE_POT_LIMIT.severity, Code.RAISE_ABOVE_POT_LIMIT.rule
(<Severity.ERROR: 'error'>, 'R5.pl-max')
>>> Code("showdown-order").severity
<Severity.WARNING: 'warning'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Code", "Reject", "RejectCode", "Severity", "Violation"]


class Severity(StrEnum):
    """How much a violation matters: only errors change a hand's status."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Code(StrEnum):
    """A rule broken by a hand. The value is the stable slug stored in the lake."""

    # setup
    TOO_FEW_PLAYERS = "too-few-players"
    TOO_MANY_PLAYERS = "too-many-players"
    DUPLICATE_SEAT = "duplicate-seat"
    DUPLICATE_PLAYER = "duplicate-player"
    UNKNOWN_SEAT = "unknown-seat"
    BUTTON_NOT_SEATED = "button-not-seated"
    BAD_STAKES = "bad-stakes"
    # cards
    DUPLICATE_CARD = "duplicate-card"
    WRONG_HOLE_CARD_COUNT = "wrong-hole-card-count"
    WRONG_BOARD_SIZE = "wrong-board-size"
    DEAL_ORDER_MISMATCH = "deal-order-mismatch"
    SHOWN_CARDS_NOT_DEALT = "shown-cards-not-dealt"
    # forced bets
    BLIND_WRONG_SEAT = "blind-wrong-seat"
    BLIND_WRONG_AMOUNT = "blind-wrong-amount"
    MISSING_BLIND = "missing-blind"
    ANTE_WRONG_AMOUNT = "ante-wrong-amount"
    STRADDLE_WRONG_SEAT = "straddle-wrong-seat"
    # turn
    ACTION_OUT_OF_TURN = "action-out-of-turn"
    ACTION_AFTER_HAND_END = "action-after-hand-end"
    STREET_DEALT_EARLY = "street-dealt-early"
    HAND_NOT_FINISHED = "hand-not-finished"
    # amounts
    CHECK_FACING_BET = "check-facing-bet"
    BET_FACING_BET = "bet-facing-bet"
    RAISE_WITHOUT_BET = "raise-without-bet"
    CALL_WRONG_AMOUNT = "call-wrong-amount"
    BET_BELOW_MINIMUM = "bet-below-minimum"
    RAISE_BELOW_MINIMUM = "raise-below-minimum"
    BET_ABOVE_POT_LIMIT = "bet-above-pot-limit"
    RAISE_ABOVE_POT_LIMIT = "raise-above-pot-limit"
    WRONG_LIMIT_SIZE = "wrong-limit-size"
    RAISE_CAP_EXCEEDED = "raise-cap-exceeded"
    RAISE_NOT_REOPENED = "raise-not-reopened"
    UNCALLABLE_RAISE = "uncallable-raise"
    IDLE_CHECK = "idle-check"
    EXCEEDS_STACK = "exceeds-stack"
    ALL_IN_FLAG_MISMATCH = "all-in-flag-mismatch"
    # result
    PAYOUT_MISMATCH = "payout-mismatch"
    POT_MISMATCH = "pot-mismatch"
    RAKE_MISMATCH = "rake-mismatch"
    CHIPS_NOT_CONSERVED = "chips-not-conserved"
    UNCALLED_BET_MISMATCH = "uncalled-bet-mismatch"
    UNCLAIMED_POT = "unclaimed-pot"
    SHOWDOWN_ORDER = "showdown-order"

    @property
    def severity(self) -> Severity:
        """Return how much a violation of this code matters."""
        return _SEVERITY.get(self, Severity.ERROR)

    @property
    def rule(self) -> str:
        """Return the RULES.md rule id this code enforces by default."""
        return _RULE[self]


_SEVERITY: dict[Code, Severity] = {
    Code.SHOWDOWN_ORDER: Severity.WARNING,
    # no chip moves wrongly: the excess of a raise nobody can call comes back uncalled,
    # and a "check" by a player with nothing to decide (all-in, or alone able to bet) does
    # nothing
    Code.UNCALLABLE_RAISE: Severity.WARNING,
    Code.IDLE_CHECK: Severity.WARNING,
    Code.ALL_IN_FLAG_MISMATCH: Severity.WARNING,
}

_RULE: dict[Code, str] = {
    Code.TOO_FEW_PLAYERS: "R1.players",
    Code.TOO_MANY_PLAYERS: "R1.players",
    Code.DUPLICATE_SEAT: "R1.players",
    Code.DUPLICATE_PLAYER: "R1.players",
    Code.UNKNOWN_SEAT: "R1.players",
    Code.BUTTON_NOT_SEATED: "R1.button",
    Code.BAD_STAKES: "R2.blind-sizes",
    Code.DUPLICATE_CARD: "R1.deck",
    Code.WRONG_HOLE_CARD_COUNT: "R3.hole-cards",
    Code.WRONG_BOARD_SIZE: "R3.board",
    Code.DEAL_ORDER_MISMATCH: "R3.deck-order",
    Code.SHOWN_CARDS_NOT_DEALT: "R8.best-hand",
    Code.BLIND_WRONG_SEAT: "R2.blinds",
    Code.BLIND_WRONG_AMOUNT: "R2.blind-sizes",
    Code.MISSING_BLIND: "R2.blinds",
    Code.ANTE_WRONG_AMOUNT: "R2.antes",
    Code.STRADDLE_WRONG_SEAT: "R2.straddle",
    Code.ACTION_OUT_OF_TURN: "R4.preflop-order",
    Code.ACTION_AFTER_HAND_END: "R4.round-end",
    Code.STREET_DEALT_EARLY: "R4.round-end",
    Code.HAND_NOT_FINISHED: "R4.round-end",
    Code.CHECK_FACING_BET: "R4.actions",
    Code.BET_FACING_BET: "R4.actions",
    Code.RAISE_WITHOUT_BET: "R4.actions",
    Code.CALL_WRONG_AMOUNT: "R4.actions",
    Code.BET_BELOW_MINIMUM: "R5.pl-min",
    Code.RAISE_BELOW_MINIMUM: "R5.pl-min",
    Code.BET_ABOVE_POT_LIMIT: "R5.pl-max",
    Code.RAISE_ABOVE_POT_LIMIT: "R5.pl-max",
    Code.WRONG_LIMIT_SIZE: "R5.limit-size",
    Code.RAISE_CAP_EXCEEDED: "R5.limit-cap",
    Code.RAISE_NOT_REOPENED: "R5.reopen",
    Code.UNCALLABLE_RAISE: "R4.uncalled",
    # a seat all-in, or left alone able to bet, is no longer "able to act" in the round
    Code.IDLE_CHECK: "R4.round-end",
    Code.EXCEEDS_STACK: "R9.conservation",
    # the log's flag disagrees with its own amounts: a player is all-in exactly when the
    # stack reaches zero units, which the amounts decide (a stack bookkeeping code, as
    # exceeds-stack)
    Code.ALL_IN_FLAG_MISMATCH: "R9.exact",
    Code.PAYOUT_MISMATCH: "R8.best-hand",
    Code.POT_MISMATCH: "R8.side-pots",
    Code.RAKE_MISMATCH: "R9.conservation",
    Code.CHIPS_NOT_CONSERVED: "R9.conservation",
    Code.UNCALLED_BET_MISMATCH: "R4.uncalled",
    Code.UNCLAIMED_POT: "R8.best-hand",
    Code.SHOWDOWN_ORDER: "R8.showdown-order",
}


class RejectCode(StrEnum):
    """Why a piece of input could not become a hand. The value is the stable slug."""

    MALFORMED_JSON = "malformed-json"
    SCHEMA_VIOLATION = "schema-violation"
    BAD_CARD = "bad-card"
    BAD_AMOUNT = "bad-amount"
    BAD_TIMESTAMP = "bad-timestamp"
    UNSUPPORTED_GAME = "unsupported-game"
    TRUNCATED_HAND = "truncated-hand"
    LINE_TOO_LONG = "line-too-long"
    BAD_ENCODING = "bad-encoding"
    MALFORMED_HAND = "malformed-hand"


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule a hand broke, at one action (``seq``) or at hand level (``seq`` is ``None``).

    ``expected`` and ``actual`` are display text (amounts already formatted in the
    hand's currency); ``rule`` defaults to the code's rule id.
    """

    code: Code
    message: str
    seq: int | None = None
    seat: int | None = None
    expected: str | None = None
    actual: str | None = None
    rule: str = ""

    def __post_init__(self) -> None:
        if not self.rule:
            object.__setattr__(self, "rule", self.code.rule)

    @property
    def severity(self) -> Severity:
        """Return the severity of this violation's code."""
        return self.code.severity


@dataclass(frozen=True, slots=True)
class Reject:
    """Input that could not become a hand: where it was, why, and a short excerpt.

    ``line`` is the 1-based line number where the rejected input starts; ``field`` names
    the offending field (a JSON path such as ``$.actions[3].amount``) when one is known.
    """

    source: str
    line: int
    code: RejectCode
    message: str
    excerpt: str = ""
    field: str | None = None
    hand_id: str | None = None
