"""Replay a recorded hand through the rules and judge every action.

:func:`replay` walks the actions once. Before each betting action it asks the betting
state what is legal (:meth:`~pipeline.rules.state.BettingState.legal`) and judges the
action by that answer; then it applies the action as recorded. It never repairs the
record and never invents an action: a broken rule becomes a
:class:`~pipeline.violations.Violation` citing its RULES.md rule. The replay stops at a
violation that makes the rest meaningless (an action by a seat not in the hand, chips a
player does not have, an action after the hand is over) and the hand is ``invalid``;
after any other error it goes on, and the hand has status ``violations``.
"""

from __future__ import annotations

from msgspec import Struct

from pipeline.model import (
    Action,
    ActionType,
    HandRecord,
    Status,
)
from pipeline.rules.betting import bet, uncalled
from pipeline.rules.board import board, board_street, boards_of, deal, show
from pipeline.rules.context import NO_CHIPS, Run, Step, Stop, make_step, raw_chips, with_codes
from pipeline.rules.finish import finish
from pipeline.rules.forced import check_setup, close_posts, dealt_seats, post, seating
from pipeline.rules.rulesets import STANDARD, RuleSet
from pipeline.rules.state import BettingState, Street
from pipeline.violations import Code, Severity, Violation

__all__ = ["Replay", "Step", "replay"]

_BETTING = frozenset(
    {ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET, ActionType.RAISE}
)

# Enum members compared at every action, bound once (C constants in the compiled engine).
_POST, _DEAL, _BOARD = ActionType.POST, ActionType.DEAL, ActionType.BOARD
_UNCALLED, _ERROR = ActionType.UNCALLED, Severity.ERROR
_SHOWDOWN = Street.SHOWDOWN
_NO_CHIPS = NO_CHIPS  # a C constant in the compiled form
_OK, _VIOLATIONS, _INVALID = Status.OK, Status.VIOLATIONS, Status.INVALID
_VOID, _PARTIAL = Status.VOID, Status.PARTIAL


class Replay(Struct, frozen=True, gc=False):
    """The judged hand: status, violations, every step, and the chips when betting ended.

    Per-player tuples are indexed like :attr:`seats` (index 0: first seat left of the
    button). ``invested`` is each player's chips in the pot after uncalled bets went back,
    ``dead`` the part of it that was dead money (antes, dead blinds), ``antes`` the antes;
    ``stacks`` what they hold before the pot is awarded. ``boards`` has one entry per
    runout (one unless the board was run more than once). ``hole_cards`` maps a seat to
    the cards the log shows for it (``UNKNOWN`` where hidden).
    """

    hand: HandRecord
    rules: RuleSet
    status: Status
    violations: tuple[Violation, ...]
    steps: tuple[Step, ...]
    seats: tuple[int, ...]
    invested: tuple[int, ...]
    dead: tuple[int, ...]
    antes: tuple[int, ...]
    stacks: tuple[int, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    boards: tuple[tuple[int, ...], ...]
    hole_cards: dict[int, tuple[int, ...]]
    uncalled: tuple[tuple[int, int], ...]
    street: Street
    showdown: bool

    @property
    def errors(self) -> tuple[Violation, ...]:
        """Return the violations of severity ``error``."""
        return tuple(v for v in self.violations if v.severity is _ERROR)

    @property
    def pot(self) -> int:
        """Return the chips in the pot when betting ended (uncalled bets returned)."""
        return sum(self.invested)


def replay(hand: HandRecord, rules: RuleSet = STANDARD) -> Replay:
    """Replay ``hand`` under ``rules`` and judge every action.

    Emits every code of :class:`~pipeline.violations.Code` except the settlement ones
    (payouts, rake, conservation, unclaimed pots), which :mod:`pipeline.settle` adds.
    Raises ``ValueError`` for an amount the compiled engine cannot hold (2**63 units or
    more; the readers refuse any amount over 10**15 units, see
    :mod:`pipeline.formats.limits`).
    """
    try:
        return _replay(hand, rules)
    except OverflowError as error:
        raise ValueError(
            f"hand {hand.hand_id}: an amount of 2**63 units or more, beyond what the "
            "engine holds (hand logs are read with amounts up to 10**15 units)"
        ) from error


def _replay(hand: HandRecord, rules: RuleSet) -> Replay:
    seats = seating(hand)
    game = hand.game
    state = BettingState(
        [hand_seat.stack for hand_seat in dealt_seats(hand, seats)],
        game.betting,
        big_blind=game.big_blind,
        small_bet=game.small_bet,
        big_bet=game.big_bet,
        rules=rules,
    )
    run = Run(hand, rules, seats, {s: i for i, s in enumerate(seats)}, state)
    fatal = False
    try:
        check_setup(run)
        for seq, action in enumerate(hand.actions):
            if action.type in _BETTING and not run.posts_open:
                bet(run, seq, action)  # the common case, without the dispatch below
            else:
                _step(run, seq, action)
        finish(run)
    except Stop:
        fatal = True
        _flush_step(run)
    return _result(run, fatal)


# ---------------------------------------------------------------------------- setup


def _step(run: Run, seq: int, action: Action) -> None:
    kind = action.type
    state = run.state
    pot_before = state.pot_before_round + state.street_total
    street = None  # the state's after the action, unless said otherwise
    all_in = False
    if kind is _POST:
        post(run, seq, action)
        poster = None if action.seat is None else run.index.get(action.seat)
        all_in = poster is not None and state.all_in[poster]  # a post of the whole stack
    elif kind is _DEAL:
        run.deck_seqs.append(seq)
        deal(run, seq, action)
    elif kind in _BETTING:
        if run.posts_open:
            close_posts(run, seq)
        bet(run, seq, action)
        return  # bet records its own step
    elif kind is _BOARD:
        run.deck_seqs.append(seq)
        board(run, seq, action)
        street = board_street(run, action)
    else:
        if run.posts_open:
            close_posts(run, seq)
        if kind is _UNCALLED:  # the pot before the line still holds what it returns
            pot_before += uncalled(run, seq, action)
        else:
            show(run, seq, action)
        if run.run_boards:  # after the runouts, the hands are shown (the betting state
            street = _SHOWDOWN  # stays at the all-in's street)
    if street is None:
        street = state.street
    run.steps.append(
        make_step(
            seq,
            street,
            action.seat,
            kind,
            raw_chips(action.amount),
            raw_chips(action.to),
            pot_before,
            _NO_CHIPS,  # no stack, nor a legal range: not a betting action
            _NO_CHIPS,
            _NO_CHIPS,
            _NO_CHIPS,
            all_in,
        )
    )


def _flush_step(run: Run) -> None:
    """After a fatal violation, record the action that caused it."""
    seq = run.violations[-1].seq if run.violations else None
    if seq is None or any(step.seq == seq for step in run.steps):
        return
    action = run.hand.actions[seq]
    state = run.state
    street = state.street
    if street is _SHOWDOWN and action.type in _BETTING:
        street = Street.RIVER  # a bet after the river closed: the river's, as checks are
    run.steps.append(
        make_step(
            seq,
            street,
            action.seat,
            action.type,
            raw_chips(action.amount),
            raw_chips(action.to),
            state.pot,
            _NO_CHIPS,
        )
    )


def _result(run: Run, fatal: bool) -> Replay:
    hand = run.hand
    state = run.state
    errors = False
    for violation in run.violations:
        if violation.severity is _ERROR:
            errors = True
            break
    if hand.cancelled:
        status = _VOID
    elif hand.partial:
        status = _PARTIAL
    elif fatal:
        status = _INVALID
    elif errors:
        status = _VIOLATIONS
    else:
        status = _OK
    steps = _attach_codes(run)
    return Replay(
        hand=hand,
        rules=run.rules,
        status=status,
        violations=tuple(run.violations),
        steps=steps,
        seats=tuple(run.seats),
        invested=tuple(state.invested),
        dead=tuple(state.dead),
        antes=tuple(state.antes),
        stacks=tuple(state.stack),
        folded=tuple(state.folded),
        all_in=tuple(state.all_in),
        boards=tuple(boards_of(run)),
        hole_cards=dict(run.hole),
        uncalled=tuple(run.returned),
        street=state.street,
        showdown=state.street is _SHOWDOWN and not state.hand_over,
    )


def _attach_codes(run: Run) -> tuple[Step, ...]:
    """Make each step list every violation found at its action (end checks included)."""
    steps = run.steps
    if not run.violations:
        return tuple(steps)
    by_seq: dict[int, list[Code]] = {}
    for v in run.violations:
        if v.seq is not None:
            by_seq.setdefault(v.seq, []).append(v.code)
    return tuple(
        with_codes(step, tuple(by_seq[step.seq])) if step.seq in by_seq else step
        for step in sorted(steps, key=lambda s: s.seq)
    )
