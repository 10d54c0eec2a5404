"""Per-seat statistic flags: what each player did, and could have done, in one hand.

Every statistic of ``STATS.md`` is a ratio ``done / opportunities`` over hands; this module
gives each player of a replayed hand the flags (and, for aggression, the counts) whose sums in
SQL are those statistics. Flags come from the replay's steps, so they follow the actions the
engine judged: a posted blind is not a decision, a big blind who only checks did not put money
in voluntarily, a walk gives the big blind no decision at all.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from pipeline.model import ActionType
from pipeline.rules.context import Step
from pipeline.rules.replay import Replay
from pipeline.rules.state import Street

__all__ = ["FLAG_NAMES", "SeatStats", "seat_stats"]

_BETTING = frozenset(
    {ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET, ActionType.RAISE}
)
_AGGRESSIVE = frozenset({ActionType.BET, ActionType.RAISE})
_STEAL_POSITIONS = frozenset({"CO", "BTN", "SB"})
_POSTFLOP = (Street.FLOP, Street.TURN, Street.RIVER)


@dataclass(slots=True)
class SeatStats:
    """One player's flags in one hand (``*_opp``: had the opportunity)."""

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


FLAG_NAMES: tuple[str, ...] = tuple(f.name for f in fields(SeatStats))
"""The flag columns, in order."""


def _decisions(steps: tuple[Step, ...], index: dict[int, int]) -> list[tuple[Step, int]]:
    return [
        (s, index[s.seat])
        for s in steps
        if s.type in _BETTING and s.seat is not None and s.seat in index and not s.codes
    ]


def seat_stats(judged: Replay, positions: list[str]) -> list[SeatStats]:
    """Return each player's flags (indexed like ``judged.seats``)."""
    n = len(judged.seats)
    out = [SeatStats() for _ in range(n)]
    index = {seat: i for i, seat in enumerate(judged.seats)}
    decisions = _decisions(judged.steps, index)
    by_street: dict[Street, list[tuple[Step, int]]] = {}
    for step, i in decisions:
        by_street.setdefault(step.street, []).append((step, i))
    last_raiser = _preflop(by_street.get(Street.PREFLOP, []), out, positions)
    folded_preflop = {i for s, i in by_street.get(Street.PREFLOP, []) if s.type is ActionType.FOLD}
    flop_dealt = any(len(board) >= 3 for board in judged.boards)
    if flop_dealt:
        for i in range(n):
            if i not in folded_preflop and not _folded_before_flop(judged, i):
                out[i].saw_flop = True
    cbettor = last_raiser
    for street in _POSTFLOP:
        steps = by_street.get(street, [])
        cbettor = _continuation(steps, street, cbettor, out)
        for step, i in steps:
            stats = out[i]
            if step.type in _AGGRESSIVE:
                stats.postflop_aggressive += 1
            elif step.type is ActionType.CALL:
                stats.postflop_calls += 1
            elif step.type is ActionType.FOLD:
                stats.postflop_folds += 1
    if judged.showdown:
        for i in range(n):
            if not judged.folded[i] and out[i].saw_flop:
                out[i].went_to_showdown = True
    return out


def _folded_before_flop(judged: Replay, i: int) -> bool:
    """Tell whether player ``i`` folded pre-flop (by the replay's final state and steps)."""
    if not judged.folded[i]:
        return False
    seat = judged.seats[i]
    return any(
        s.seat == seat and s.type is ActionType.FOLD and s.street is Street.PREFLOP
        for s in judged.steps
    )


def _preflop(
    steps: list[tuple[Step, int]], out: list[SeatStats], positions: list[str]
) -> int | None:
    """Set the pre-flop flags; return the index of the last pre-flop raiser."""
    raises = 0  # raises beyond the big blind so far
    first_raiser: int | None = None
    last_raiser: int | None = None
    open_pot = True  # everyone so far folded
    acted: set[int] = set()
    three_bet_seen: set[int] = set()
    for step, i in steps:
        stats = out[i]
        stats.vpip_opp = True
        kind = step.type
        if kind in (ActionType.CALL, ActionType.BET, ActionType.RAISE):
            stats.vpip = True
        if kind in _AGGRESSIVE:
            stats.pfr = True
        if i not in acted and positions[i] in _STEAL_POSITIONS and open_pot:
            stats.steal_opp = True
            stats.steal = kind in _AGGRESSIVE
        if (
            raises == 1
            and step.max_to is not None
            and i not in three_bet_seen
            and i != first_raiser
        ):
            three_bet_seen.add(i)
            stats.three_bet_opp = True
            stats.three_bet = kind in _AGGRESSIVE
        if i == first_raiser and raises >= 2 and not stats.fold_to_three_bet_opp:
            stats.fold_to_three_bet_opp = True
            stats.fold_to_three_bet = kind is ActionType.FOLD
        if kind is not ActionType.FOLD:
            open_pot = False
        if kind in _AGGRESSIVE:
            raises += 1
            last_raiser = i
            if first_raiser is None:
                first_raiser = i
        acted.add(i)
    return last_raiser


def _continuation(
    steps: list[tuple[Step, int]], street: Street, cbettor: int | None, out: list[SeatStats]
) -> int | None:
    """Set one street's c-bet flags; return who c-bet it (``None``: nobody)."""
    if cbettor is None or not steps:
        return None
    name = street.label
    made = None
    bet_seen = False
    faced: set[int] = set()
    for step, i in steps:
        if i == cbettor and not bet_seen and made is None:
            setattr(out[i], f"cbet_{name}_opp", True)
            if step.type is ActionType.BET:
                setattr(out[i], f"cbet_{name}", True)
                made = i
        elif made is not None and i != made and i not in faced:
            faced.add(i)
            setattr(out[i], f"fold_to_cbet_{name}_opp", True)
            setattr(out[i], f"fold_to_cbet_{name}", step.type is ActionType.FOLD)
        if step.type in _AGGRESSIVE:
            bet_seen = True
            if made is not None and i != made:
                break  # a raise over the c-bet: who acts after it faces the raise, not the c-bet
    return made
