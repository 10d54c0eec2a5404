"""PokerStars text: the record of one hand, made from what its lines said.

:func:`build_record` turns the reader's state (:mod:`pipeline.formats.pokerstars_body`)
into a :class:`~pipeline.model.HandRecord`: the blinds the game is judged by, the hole
cards per player, amounts in the hand's unit, the recorded result, and the ``_`` extras
for what the model has no field for.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

from msgspec.structs import replace

from pipeline.formats.pokerstars_clones import (
    after_main_pot_first_rake,
    raises_as_the_log_counts_them,
)
from pipeline.formats.pokerstars_header import FINE_SCALE
from pipeline.formats.pokerstars_summary import summary_collections
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Blind,
    CashOut,
    Fee,
    GameSpec,
    HandRecord,
    RecordedResult,
    Seat,
    SeatAmount,
    Tournament,
)
from pipeline.money import format_amount

if TYPE_CHECKING:
    from pipeline.formats.pokerstars_body import _SeatInfo, _State

__all__ = ["build_record", "genuine"]


def genuine(state: _State) -> bool:
    """Tell whether the header names PokerStars itself, whose number style is known."""
    return state.header.site == "PokerStars"


def _blinds(state: _State) -> tuple[int, int, int]:
    """Return small blind, big blind and ante (fine units) from the header and the posts."""
    header = state.header
    posts: dict[Blind, Counter[int]] = {}
    for action in state.actions:
        if action.type is ActionType.POST and action.blind is not None and not action.all_in:
            posts.setdefault(action.blind, Counter())[action.amount or 0] += 1
    antes = posts.get(Blind.ANTE)
    ante = antes.most_common(1)[0][0] if antes else 0
    if header.betting is not Betting.FIXED_LIMIT:
        return header.low_stake, header.high_stake, ante
    # A limit header names the bets: the big blind is the small bet (R5.limit-size), so a
    # wrong post is judged by it. The small blind is not always half (R2.blind-sizes):
    # the posts tell it.
    smalls = posts.get(Blind.SMALL)
    small = smalls.most_common(1)[0][0] if smalls else header.low_stake // 2
    return small, header.low_stake, ante


def _hole_cards(state: _State) -> int:
    """PokerMaster writes plain ``Omaha`` for a five-card game: trust the cards seen."""
    header = state.header
    if header.site == "PokerStars" or header.hole_cards != 4:
        return header.hole_cards
    counts = {len(c) for c in state.dealt.values()}
    counts |= {len(a.cards) for a in state.actions if a.type is ActionType.SHOW and a.cards}
    bigger = {n for n in counts if n > 4}
    return bigger.pop() if len(bigger) == 1 and bigger <= {5, 6} else header.hole_cards


def build_record(state: _State, table: tuple[str, int | None, int], partial: bool) -> HandRecord:
    """Make the hand's record from what was read (its cards already finished)."""
    header = state.header
    collections = state.collections + summary_collections(state)
    if header.zone_missing:
        missing = "time has no time zone" if header.started_at is not None else "has no time"
        state.signs.append(f"the header {missing}")
    if state.money.thousands:
        state.signs.append(f"thousands separators (line {state.money.thousands[0]})")
    if state.money.zero_cents and genuine(state):
        state.signs.append(f"an amount written with .00 (line {state.money.zero_cents[0]})")
    base = 2 if header.real_money else 0
    scale = max(base, state.money.decimals)
    div = 10 ** (FINE_SCALE - scale)
    small, big, ante = _blinds(state)
    limit = header.betting is Betting.FIXED_LIMIT
    game = GameSpec(
        variant=header.variant,
        hole_cards=_hole_cards(state),
        betting=header.betting,
        small_blind=small // div,
        big_blind=big // div,
        currency=header.currency,
        scale=scale,
        small_bet=header.low_stake // div if limit else None,
        big_bet=header.high_stake // div if limit else None,
        ante=ante // div,
        max_seats=table[1],
        mixed=header.mixed,
    )
    bounty_scale = max(2, state.bounty_money.decimals)
    bounty_div = 10 ** (FINE_SCALE - bounty_scale)
    seats = tuple(
        Seat(
            seat=s.seat,
            player=s.name,
            stack=s.stack // div,
            sitting_out=_sitting_out(state, s, partial),
            bounty=None if s.bounty is None else s.bounty // bounty_div,
        )
        for s in state.seats
    )
    read = raises_as_the_log_counts_them(state.actions, state.total, state.header.site)
    actions = tuple(_rescale(a, div) for a in read)
    result = None
    if state.total is not None or collections or state.cash_outs:
        pots = tuple(a // div for _, a in sorted(state.pots))
        if state.pots_before_rake:  # Run It Once: before rake, the rake from the main pot first
            pots = after_main_pot_first_rake(pots, (state.rake or 0) // div)
        result = RecordedResult(
            rake=None if state.rake is None else state.rake // div,
            total_pot=None if state.total is None else state.total // div,
            pots=pots,
            collected=tuple(replace(c, amount=c.amount // div) for c in collections),
            fees=tuple(Fee(f.kind, f.amount // div) for f in state.fees),
            added=state.added // div,
            cash_outs=tuple(
                CashOut(c.seat, c.amount // div, c.fee // div) for c in state.cash_outs
            ),
            bounties=tuple(SeatAmount(b.seat, b.amount // bounty_div) for b in state.bounties),
        )
    tournament = None
    if header.tournament_id is not None:
        tournament = Tournament(
            id=header.tournament_id,
            level=header.level,
            buyin=header.buyin,
            currency=header.tournament_currency,
            scale=bounty_scale,
        )
    dealt = sorted(state.dealt)
    return HandRecord(
        hand_id=header.hand_id,
        site=header.site,
        game=game,
        button=table[2],
        seats=seats,
        actions=actions,
        table=table[0],
        started_at=header.started_at,
        result=result,
        tournament=tournament,
        hero=dealt[0] if len(dealt) == 1 else None,
        cancelled=state.cancelled,
        partial=partial and not state.cancelled,
        converted=bool(state.signs),
        extras=_extras(state, scale),
    )


def _extras(state: _State, scale: int) -> tuple[tuple[str, bytes], ...]:
    """Keep what the model has no field for as ``_`` fields (raw JSON, in name order)."""
    extras: dict[str, object] = {}
    if state.header.club is not None:
        extras["_club"] = state.header.club
    if state.signs:
        extras["_converter_signs"] = state.signs
    if state.pots_before_rake:
        div = 10 ** (FINE_SCALE - scale)
        extras["_pots_before_rake"] = [format_amount(a // div, scale) for _, a in state.pots]
    if state.header.zoom:
        extras["_zoom"] = True
    if state.header.stakes is not None:
        extras["_stakes"] = state.header.stakes
    if state.split_bounties:
        bounty_scale = max(2, state.bounty_money.decimals)
        div = 10 ** (FINE_SCALE - bounty_scale)
        extras["_split_bounties"] = [
            {"by": by, "amount": format_amount(amount // div, bounty_scale), "eliminated": out}
            for by, amount, out in state.split_bounties
        ]
    if state.partial_reason is not None:
        extras["_partial_reason"] = state.partial_reason
    return tuple((key, json.dumps(value).encode()) for key, value in sorted(extras.items()))


def _sitting_out(state: _State, seat: _SeatInfo, partial: bool) -> bool:
    """A seat is not dealt in when it never takes part and the log says it sits out (or,
    in a complete hand, the summary leaves it out)."""
    if seat.seat in state.acting or seat.seat in state.summary_seats:
        return False
    if any(c.seat == seat.seat for c in state.collections):
        return False
    return seat.out or (state.in_summary and not partial and bool(state.summary_seats))


def _rescale(action: Action, div: int) -> Action:
    if action.amount is None and action.to is None:
        return action
    return replace(
        action,
        amount=None if action.amount is None else action.amount // div,
        to=None if action.to is None else action.to // div,
    )
