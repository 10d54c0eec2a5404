"""Per-seat statistic flags: what each player did, and could have done, in one hand.

Every statistic of ``STATS.md`` is a ratio ``done / opportunities`` over hands; this module
gives each player of a replayed hand the flags (and, for aggression, the counts) whose sums in
SQL are those statistics. Flags come from the replay's steps, so they follow the actions the
engine judged: a posted blind is not a decision, a big blind who only checks did not put money
in voluntarily, a walk gives the big blind no decision at all.

:func:`seat_flags` gives each player's flags as a plain tuple in :data:`FLAG_NAMES` order (what
the lake stores); :func:`seat_stats` gives the same values as named :class:`SeatStats`. It runs
once per hand, so the flags are set by position in one list per player, in one pass over the
steps, and no record is built until the end.
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline.model import ActionType
from pipeline.rules.replay import Replay
from pipeline.rules.state import Street
from pipeline.violations import Code

__all__ = ["FLAG_NAMES", "Flags", "SeatStats", "seat_flags", "seat_stats"]

_BETTING = frozenset(
    {ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET, ActionType.RAISE}
)
_AGGRESSIVE = frozenset({ActionType.BET, ActionType.RAISE})
_VOLUNTARY = (ActionType.CALL, ActionType.BET, ActionType.RAISE)
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

_CLEAR: Flags = tuple(SeatStats())  # a player who did nothing
_at = FLAG_NAMES.index  # a flag's position in a player's list
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
_CBET_AT = {
    street: (
        _at(f"cbet_{street.label}_opp"),
        _at(f"cbet_{street.label}"),
        _at(f"fold_to_cbet_{street.label}_opp"),
        _at(f"fold_to_cbet_{street.label}"),
    )
    for street in _POSTFLOP
}
"""Per post-flop street: the positions of its c-bet and fold-to-c-bet flags (opportunity first)."""

_new_tuple = tuple.__new__  # a named tuple from its values, without its Python ``__new__``
_FLOP, _TURN, _RIVER = _POSTFLOP

# One judged post-flop decision: its action and the player's index.
_Decision = tuple[ActionType, int]


def seat_flags(judged: Replay, positions: list[str]) -> list[Flags]:
    """Return each player's flags as a tuple in :data:`FLAG_NAMES` order (indexed like seats).

    A decision is a judged betting action (fold, check, call, bet, raise) by a player dealt
    in, on a turn the rules gave them (see :data:`_NO_TURN`); ``positions`` names each
    index's position (``SB``, ``BTN`` …). The pre-flop flags and the post-flop counts are
    set as the steps go; the c-bet flags need the previous street's outcome, so each
    post-flop street's decisions are kept for the end.
    """
    seats = judged.seats
    n = len(seats)
    rows = [list(_CLEAR) for _ in range(n)]
    index: dict[int | None, int] = {seat: i for i, seat in enumerate(seats)}
    preflop: list[_Decision] = []  # only its identity is used: pre-flop is handled at once
    by_street = {_PREFLOP: preflop, _FLOP: [], _TURN: [], _RIVER: []}
    folded_early: set[int | None] = set()  # seats with any pre-flop fold, judged or not
    folded_preflop: set[int] = set()  # players who folded as a pre-flop decision
    out: set[int | None] = set()  # seats that folded or went all-in, so far
    # The pre-flop betting so far.
    raises = 0  # raises beyond the big blind (or, with none, beyond the opening bet)
    first_raiser: int | None = None
    last_raiser: int | None = None
    open_pot = True  # everyone so far folded
    for step in judged.steps:
        kind = step.type
        if kind not in _BETTING:
            continue
        street = step.street
        seat = step.seat
        if kind is _FOLD and street is _PREFLOP:
            folded_early.add(seat)
        if seat in out:
            continue  # folded or all-in before: the replay applies nothing they do
        if kind is _FOLD or step.all_in:
            out.add(seat)
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
        i = index.get(seat)  # None: not a player dealt in
        decisions = by_street.get(street)
        if i is None or decisions is None:
            continue
        row = rows[i]
        if decisions is not preflop:
            decisions.append((kind, i))
            if kind in _AGGRESSIVE:
                row[_AGGRESSIVE_COUNT] += 1
            elif kind is _CALL:
                row[_CALLS] += 1
            elif kind is _FOLD:
                row[_FOLDS] += 1
            continue
        first = not row[_VPIP_OPP]  # the player's first pre-flop decision
        row[_VPIP_OPP] = True
        aggressive = kind in _AGGRESSIVE
        if kind in _VOLUNTARY:
            row[_VPIP] = True
        if aggressive:
            row[_PFR] = True
        if first and positions[i] in _STEAL_POSITIONS and open_pot:
            row[_STEAL_OPP] = True
            row[_STEAL] = aggressive
        if (
            raises == 1
            and step.max_to is not None
            and not row[_THREE_BET_OPP]
            and i != first_raiser
        ):
            row[_THREE_BET_OPP] = True
            row[_THREE_BET] = aggressive
        if i == first_raiser and raises >= 2 and not row[_FOLD_TO_THREE_BET_OPP]:
            row[_FOLD_TO_THREE_BET_OPP] = True
            row[_FOLD_TO_THREE_BET] = kind is _FOLD
        if kind is _FOLD:
            folded_preflop.add(i)
        else:
            open_pot = False
        if aggressive:
            last_raiser = i
            if kind is _RAISE:  # a pre-flop bet (no big blind: antes only) is the bet itself
                raises += 1
                if first_raiser is None:
                    first_raiser = i
    flop_dealt = False
    for board in judged.boards:
        if len(board) >= 3:
            flop_dealt = True
            break
    if flop_dealt:
        folded = judged.folded
        showdown = judged.showdown
        for i in range(n):
            if i not in folded_preflop and not (folded[i] and seats[i] in folded_early):
                row = rows[i]
                row[_SAW_FLOP] = True
                if showdown and not folded[i]:
                    row[_SHOWDOWN] = True
    cbettor = last_raiser  # the pre-flop aggressor may c-bet the flop
    for street in _POSTFLOP:
        if cbettor is None:
            break  # no c-bet on this street, so none on a later one
        cbettor = _continuation(by_street[street], _CBET_AT[street], cbettor, rows)
    return list(map(tuple, rows))


def seat_stats(judged: Replay, positions: list[str]) -> list[SeatStats]:
    """Return each player's flags as named records (indexed like ``judged.seats``)."""
    return [_new_tuple(SeatStats, flags) for flags in seat_flags(judged, positions)]


def _continuation(
    decisions: list[_Decision],
    at: tuple[int, int, int, int],
    cbettor: int,
    rows: list[list[bool | int]],
) -> int | None:
    """Set one street's c-bet flags (at the positions ``at``); return who c-bet (or ``None``)."""
    if not decisions:
        return None
    cbet_opp, cbet, fold_opp, fold = at
    made = None
    bet_seen = False
    faced: set[int] = set()
    for kind, i in decisions:
        if i == cbettor and not bet_seen and made is None:
            rows[i][cbet_opp] = True
            if kind is _BET:
                rows[i][cbet] = True
                made = i
        elif made is not None and i != made and i not in faced:
            faced.add(i)
            rows[i][fold_opp] = True
            rows[i][fold] = kind is _FOLD
        if kind in _AGGRESSIVE:
            bet_seen = True
            if made is not None and i != made:
                break  # a raise over the c-bet: who acts after it faces the raise, not the c-bet
    return made
