"""Per-seat statistic flags: what each player did, and could have done, in one hand.

Every statistic of ``STATS.md`` is a ratio ``done / opportunities`` over hands; this module
gives each player of a replayed hand the flags (and, for aggression, the counts) whose sums in
SQL are those statistics. Flags come from the replay's steps, so they follow the actions the
engine judged: a posted blind is not a decision, a big blind who only checks did not put money
in voluntarily, a walk gives the big blind no decision at all.

:func:`flag_table` gives every player's flags as a row of integers in :data:`FLAG_NAMES` order
(the lake takes its columns as they are); :func:`seat_flags` gives each row as a plain tuple
of flags and counts, :func:`seat_stats` as a named :class:`SeatStats`. It runs once per hand,
so the flags are set by column in one table, in one pass over the steps, and no record is
built. :func:`positions` and :func:`hand_positions` name the players' positions (SB, BB,
UTG … BTN) that the flags and the lake's seats use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from pipeline.model import ActionType, Blind, HandRecord
from pipeline.rules.context import NO_CHIPS
from pipeline.rules.replay import Replay
from pipeline.rules.state import Street
from pipeline.violations import Code

__all__ = [
    "FLAG_COLUMNS",
    "FLAG_NAMES",
    "Flags",
    "SeatStats",
    "fill_flags",
    "flag_table",
    "hand_positions",
    "positions",
    "seat_flags",
    "seat_stats",
]

_FOLD, _CALL, _BET = ActionType.FOLD, ActionType.CALL, ActionType.BET
_RAISE, _CHECK = ActionType.RAISE, ActionType.CHECK
_STEAL_POSITIONS = frozenset({"CO", "BTN", "SB"})
_NO_TURN = frozenset({Code.IDLE_CHECK, Code.ACTION_AFTER_HAND_END, Code.UNKNOWN_SEAT})
"""Codes of an action that is no decision: a check by a player with nothing left to decide,
an action after the hand ended, one by nobody dealt in. An action flagged for its turn or
size or the log's bookkeeping (out of turn, a raise above the pot limit, a call of the
wrong amount) is still the player's decision, as the replay applies it: the players after
it face it."""
_JUDGED_AS: dict[Code, ActionType] = {
    Code.RAISE_WITHOUT_BET: ActionType.BET,
    Code.BET_FACING_BET: ActionType.RAISE,
}
"""A bet the log calls a raise is a bet (a c-bet, say), and the other way round, as the
replay applies it. A flagged raise that puts in no more than the call is a call (a "raise"
to the bet made), and a flagged call of nothing a check."""
_PREFLOP = Street.PREFLOP
_NO_CHIPS = NO_CHIPS  # a C constant in the compiled form
_POSTFLOP = (Street.FLOP, Street.TURN, Street.RIVER)


class SeatStats(NamedTuple):
    """One player's flags in one hand (``*_opp``: had the opportunity).

    (A named tuple: it is built once per player and hand, and equals its :func:`seat_flags`
    tuple.)
    """

    vpip: bool = False
    vpip_opp: bool = False
    pfr: bool = False
    three_bet: bool = False
    three_bet_opp: bool = False
    fold_to_three_bet: bool = False
    fold_to_three_bet_opp: bool = False
    steal: bool = False
    steal_opp: bool = False
    cbet_flop: bool = False
    cbet_flop_opp: bool = False
    cbet_turn: bool = False
    cbet_turn_opp: bool = False
    cbet_river: bool = False
    cbet_river_opp: bool = False
    fold_to_cbet_flop: bool = False
    fold_to_cbet_flop_opp: bool = False
    fold_to_cbet_turn: bool = False
    fold_to_cbet_turn_opp: bool = False
    fold_to_cbet_river: bool = False
    fold_to_cbet_river_opp: bool = False
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    postflop_folds: int = 0
    saw_flop: bool = False
    went_to_showdown: bool = False


FLAG_NAMES: tuple[str, ...] = SeatStats._fields
"""The flag columns, in order."""

Flags = tuple[bool | int, ...]
"""One player's flags, in :data:`FLAG_NAMES` order."""

_IS_FLAG = tuple(type(value) is bool for value in SeatStats())
"""Per column: a flag (else a count)."""
_WIDTH = len(FLAG_NAMES)
_at = FLAG_NAMES.index  # a flag's column
_VPIP, _VPIP_OPP, _PFR = _at("vpip"), _at("vpip_opp"), _at("pfr")
_THREE_BET, _THREE_BET_OPP = _at("three_bet"), _at("three_bet_opp")
_FOLD_TO_THREE_BET, _FOLD_TO_THREE_BET_OPP = _at("fold_to_three_bet"), _at("fold_to_three_bet_opp")
_STEAL, _STEAL_OPP = _at("steal"), _at("steal_opp")
_AGGRESSIVE_COUNT, _CALLS, _FOLDS = (
    _at("postflop_aggressive"),
    _at("postflop_calls"),
    _at("postflop_folds"),
)
_SAW_FLOP, _SHOWDOWN = _at("saw_flop"), _at("went_to_showdown")
_CBET_AT = tuple(
    (
        _at(f"cbet_{street.label}_opp"),
        _at(f"cbet_{street.label}"),
        _at(f"fold_to_cbet_{street.label}_opp"),
        _at(f"fold_to_cbet_{street.label}"),
    )
    for street in _POSTFLOP
)
"""Per post-flop street, in order: the columns of its c-bet and fold-to-c-bet flags
(opportunity first)."""
_MARKS = 4
_OUT, _FOLDED_EARLY, _FOLDED_PREFLOP, _FACED = range(_WIDTH, _WIDTH + _MARKS)
"""Columns past the flags that :func:`fill_flags` keeps per player as it goes (and drops):
folded or all-in so far; folded pre-flop at all, judged or not; folded as a pre-flop
decision; faced this street's c-bet (:func:`_continuation`)."""
FLAG_COLUMNS = _WIDTH + _MARKS
"""The columns :func:`fill_flags` writes: the flags, then its own marks."""

_new_tuple = tuple.__new__  # a named tuple from its values, without its Python ``__new__``
_FLOP, _TURN, _RIVER = _POSTFLOP

# One judged post-flop decision: its action and the player's index.
_Decision = tuple[ActionType, int]


def seat_flags(judged: Replay, positions: list[str]) -> list[Flags]:
    """Return each player's flags as a tuple in :data:`FLAG_NAMES` order (indexed like seats):
    the rows of :func:`flag_table`, each flag a ``bool`` and each count an ``int``."""
    return [
        tuple([bool(v) if flag else v for v, flag in zip(row, _IS_FLAG, strict=True)])
        for row in flag_table(judged, positions).tolist()
    ]


def flag_table(judged: Replay, positions: list[str]) -> np.ndarray:
    """Return every player's flags as a row of integers (indexed like seats), in
    :data:`FLAG_NAMES` order: 1 or 0 for a flag, the number for a count
    (:func:`fill_flags` into a table of the hand's own)."""
    table = np.zeros((_WIDTH + _MARKS, len(judged.seats)), np.int64)
    fill_flags(judged, positions, table, 0)
    return table[:_WIDTH].T


def fill_flags(judged: Replay, positions: list[str], rows: np.ndarray, first: int) -> None:
    """Write every player's flags into the columns ``rows`` from row ``first`` on (a row
    per player, indexed like seats; a column per flag in :data:`FLAG_NAMES` order, then
    :data:`FLAG_COLUMNS` - :data:`_WIDTH` more it uses as it goes), which hold zeros
    there: 1 or 0 for a flag, the number for a count.

    A decision is a judged betting action (fold, check, call, bet, raise) by a player dealt
    in, on a turn the rules gave them (see :data:`_NO_TURN`); ``positions`` names each
    player's position (``SB``, ``BTN`` …). The pre-flop flags and the post-flop counts are
    set as the steps go; the c-bet flags need the previous street's outcome, so each
    post-flop street's decisions are kept for the end. (The lake writes a batch's players
    into one such table, which the compiled form fills as a C array: ``lake/rows.py``.)
    """
    seats = judged.seats
    n = len(seats)
    index: dict[int | None, int] = {seat: first + i for i, seat in enumerate(seats)}
    by_street: list[list[_Decision]] = [[], [], []]  # flop, turn, river
    # The pre-flop betting so far (players by their row).
    raises = 0  # raises beyond the big blind (or, with none, beyond the opening bet)
    first_raiser = -1  # the first raiser's row (-1: none yet)
    last_raiser = -1  # the last pre-flop aggressor's
    open_pot = True  # everyone so far folded
    for step in judged.steps:
        kind = step.type
        if not (kind is _FOLD or kind is _CHECK or kind is _CALL or kind is _BET or kind is _RAISE):
            continue  # not a betting action
        found = index.get(step.seat)
        if found is None:
            continue  # not a player dealt in: nothing they do is a decision of the hand
        r = found
        street = step.street
        preflop = street is _PREFLOP
        if kind is _FOLD and preflop:
            rows[_FOLDED_EARLY, r] = 1
        if rows[_OUT, r]:
            continue  # folded or all-in before: the replay applies nothing they do
        if kind is _FOLD or step.all_in:
            rows[_OUT, r] = 1
        codes = step.codes
        if codes:
            if not _NO_TURN.isdisjoint(codes):
                continue
            for code in codes:  # the first code that says how the replay applied it
                if code in _JUDGED_AS:
                    kind = _JUDGED_AS[code]
                    break
            if (kind is _RAISE or kind is _CALL) and (step.amount or 0) <= (step.to_call or 0):
                kind = _CALL if step.amount else _CHECK  # a "raise" to the bet; a "call" of 0
        aggressive = kind is _BET or kind is _RAISE
        if not preflop:
            if street is _FLOP:
                by_street[0].append((kind, r))
            elif street is _TURN:
                by_street[1].append((kind, r))
            elif street is _RIVER:
                by_street[2].append((kind, r))
            else:
                continue  # no street's decision (a showdown's, say)
            if aggressive:
                rows[_AGGRESSIVE_COUNT, r] += 1
            elif kind is _CALL:
                rows[_CALLS, r] += 1
            elif kind is _FOLD:
                rows[_FOLDS, r] += 1
            continue
        first_decision = not rows[_VPIP_OPP, r]  # the player's first pre-flop decision
        rows[_VPIP_OPP, r] = 1
        if kind is _CALL or aggressive:
            rows[_VPIP, r] = 1
        if aggressive:
            rows[_PFR, r] = 1
        if first_decision and open_pot and positions[r - first] in _STEAL_POSITIONS:
            rows[_STEAL_OPP, r] = 1
            rows[_STEAL, r] = aggressive
        if (
            raises == 1
            and step._max_to != _NO_CHIPS  # could raise (max_to not None): read as kept
            and not rows[_THREE_BET_OPP, r]
            and r != first_raiser
        ):
            rows[_THREE_BET_OPP, r] = 1
            rows[_THREE_BET, r] = aggressive
        if r == first_raiser and raises >= 2 and not rows[_FOLD_TO_THREE_BET_OPP, r]:
            rows[_FOLD_TO_THREE_BET_OPP, r] = 1
            rows[_FOLD_TO_THREE_BET, r] = kind is _FOLD
        if kind is _FOLD:
            rows[_FOLDED_PREFLOP, r] = 1
        else:
            open_pot = False
        if aggressive:
            last_raiser = r
            if kind is _RAISE:  # a pre-flop bet (no big blind: antes only) is the bet itself
                raises += 1
                if first_raiser < 0:
                    first_raiser = r
    flop_dealt = False
    for board in judged.boards:
        if len(board) >= 3:
            flop_dealt = True
            break
    if flop_dealt:
        folded = judged.folded
        showdown = judged.showdown
        for i in range(n):
            r = first + i
            if not rows[_FOLDED_PREFLOP, r] and not (folded[i] and rows[_FOLDED_EARLY, r]):
                rows[_SAW_FLOP, r] = 1
                if showdown and not folded[i]:
                    rows[_SHOWDOWN, r] = 1
    cbettor = last_raiser  # the pre-flop aggressor may c-bet the flop
    for k in range(3):
        if cbettor < 0:
            break  # no c-bet on this street, so none on a later one
        cbettor = _continuation(by_street[k], _CBET_AT[k], cbettor, rows, first, n)


def seat_stats(judged: Replay, positions: list[str]) -> list[SeatStats]:
    """Return each player's flags as named records (indexed like ``judged.seats``)."""
    return [_new_tuple(SeatStats, flags) for flags in seat_flags(judged, positions)]


def _continuation(
    decisions: list[_Decision],
    at: tuple[int, int, int, int],
    cbettor: int,
    rows: np.ndarray,
    first: int,
    n: int,
) -> int:
    """Set one street's c-bet flags (at the columns ``at``) of the ``n`` players from row
    ``first``; return the row of who c-bet (-1: nobody)."""
    cbet_opp, cbet, fold_opp, fold = at
    made = -1
    bet_seen = False
    for kind, r in decisions:
        if r == cbettor and not bet_seen and made < 0:
            rows[cbet_opp, r] = 1
            if kind is _BET:
                rows[cbet, r] = 1
                made = r
        elif made >= 0 and r != made and not rows[_FACED, r]:
            rows[_FACED, r] = 1
            rows[fold_opp, r] = 1
            rows[fold, r] = kind is _FOLD
        if kind is _BET or kind is _RAISE:
            bet_seen = True
            if made >= 0 and r != made:
                break  # a raise over the c-bet: who acts after it faces the raise, not the c-bet
    if made >= 0:
        for r in range(first, first + n):  # for the next street
            rows[_FACED, r] = 0
    return made


_BACK = ("CO", "HJ", "MP")
_POST, _DEAL = ActionType.POST, ActionType.DEAL
_SMALL, _BIG = Blind.SMALL, Blind.BIG


def positions(n: int) -> list[str]:
    """Return position names by index (0 = first seat left of the button).

    Between the big blind and the button, seats are named back from the button (CO, HJ,
    MP) and forward from the big blind (UTG, UTG+1 …); from six players on, the first of
    them is UTG (STATS.md).

    >>> positions(2), positions(4), positions(5)
    (['BB', 'BTN'], ['SB', 'BB', 'CO', 'BTN'], ['SB', 'BB', 'HJ', 'CO', 'BTN'])
    >>> positions(6), positions(7)[2:6]
    (['SB', 'BB', 'UTG', 'HJ', 'CO', 'BTN'], ['UTG', 'MP', 'HJ', 'CO'])
    >>> positions(10)[2:9]
    ['UTG', 'UTG+1', 'UTG+2', 'UTG+3', 'MP', 'HJ', 'CO']
    """
    known = _POSITIONS.get(n)
    if known is None:  # named once per table size (a fresh list each call: callers own it)
        known = _POSITIONS[n] = tuple(_named(n))
    return list(known)


_POSITIONS: dict[int, tuple[str, ...]] = {}


def _named(n: int) -> list[str]:
    if n <= 2:
        return ["BB", "BTN"][-n:] if n else []
    middle = n - 3
    back = list(_BACK[: middle if middle <= 2 else min(middle - 1, len(_BACK))])[::-1]
    ahead = middle - len(back)
    front = ["UTG"] + [f"UTG+{k}" for k in range(1, ahead)] if ahead else []
    return ["SB", "BB", *front, *back, "BTN"]


def hand_positions(hand: HandRecord, seats: Sequence[int]) -> list[str]:
    """Return the position names of the players dealt in (``seats``, from left of the button).

    :func:`positions`, but for a hand with no small blind (R2.no-small-blind: nobody posts
    one and the big blind is the first seat after the button): its players are named as
    at a table of one more, the small blind's seat empty.
    """
    n = len(seats)
    if n < 3:
        return positions(n)
    big: int | None = None
    for action in hand.actions:
        if action.type is _POST:
            if action.blind is _SMALL:
                return positions(n)
            if action.blind is _BIG and big is None:
                big = action.seat
        elif action.type is not _DEAL:  # the betting began: every blind is posted
            break
    return positions(n + 1)[1:] if big == seats[0] else positions(n)
