"""What one replay carries from action to action: the steps, the violations, the state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from pipeline.model import (
    Action,
    ActionType,
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


class Step(NamedTuple):
    """One recorded action with the state before it and the legal range it was judged by.

    ``pot_before`` counts every chip in the middle; ``to_call``, ``min_to`` and
    ``max_to`` are set for betting actions (totals for the street). ``codes`` lists
    the violations found at this action. (A named tuple: one is made per action.)
    """

    seq: int
    street: Street
    seat: int | None
    type: ActionType
    amount: int | None
    to: int | None
    pot_before: int
    stack_before: int | None
    to_call: int | None = None
    min_to: int | None = None
    max_to: int | None = None
    all_in: bool = False
    codes: tuple[Code, ...] = ()


class Stop(Exception):
    """Raised inside the replay after a fatal violation was recorded."""


@dataclass(slots=True)
class Run:
    """Mutable bookkeeping of one replay."""

    hand: HandRecord
    rules: RuleSet
    seats: list[int]
    index: dict[int, int]
    state: BettingState
    violations: list[Violation] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    posts_open: bool = True
    sb_index: int = 0
    bb_index: int = 1
    small_posted: bool = False
    big_posts: list[tuple[int, int]] = field(default_factory=list)  # (seq, index)
    straddle_index: int | None = None
    antes: set[int] = field(default_factory=set)
    hole: dict[int, tuple[int, ...]] = field(default_factory=dict)
    dealt: dict[int, tuple[int, ...]] = field(default_factory=dict)
    seen: int = 0
    shared_board: list[int] = field(default_factory=list)
    run_boards: dict[int, list[int]] = field(default_factory=dict)
    exposed: bool = False
    expected_uncalled: list[tuple[int, int, int]] = field(default_factory=list)  # seq, i, amt
    logged_uncalled: list[tuple[int, int, int]] = field(default_factory=list)
    returned: list[tuple[int, int]] = field(default_factory=list)
    shows: list[tuple[int, int]] = field(default_factory=list)  # (seq, index)
    river_aggressor: int | None = None
    last_aggressor: int | None = None
    all_in_showdown: bool = False

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
