"""Hypothesis strategies for the vocabulary and the hand log, shared by the tests."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import strategies as st

from pipeline.cards import UNKNOWN
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Blind,
    CashOut,
    Collection,
    Fee,
    GameSpec,
    HandRecord,
    RecordedResult,
    Seat,
    SeatAmount,
    Tournament,
    Variant,
)

cards = st.integers(min_value=0, max_value=51)
cards_or_unknown = st.one_of(cards, st.just(UNKNOWN))
scales = st.integers(min_value=0, max_value=8)
amounts = st.integers(min_value=0, max_value=10**15)
seat_numbers = st.integers(min_value=1, max_value=10)
names = st.text(
    alphabet=st.characters(categories=["L", "N", "P", "S", "Zs"]),
    min_size=1,
    max_size=20,
)
card_runs = st.lists(cards_or_unknown, max_size=6).map(tuple)
times = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


@st.composite
def games(draw: st.DrawFn) -> GameSpec:
    variant = draw(st.sampled_from(Variant))
    betting = draw(st.sampled_from(Betting))
    limit = betting is Betting.FIXED_LIMIT
    return GameSpec(
        variant=variant,
        hole_cards=5 if variant.is_courchevel else draw(st.sampled_from([4, 5, 6])),
        betting=betting,
        small_blind=draw(amounts),
        big_blind=draw(amounts),
        currency=draw(st.sampled_from(["USD", "EUR", "CHIPS", "GBP"])),
        scale=draw(scales),
        small_bet=draw(amounts) if limit else None,
        big_bet=draw(amounts) if limit else None,
        ante=draw(amounts),
        max_seats=draw(st.none() | st.integers(min_value=2, max_value=10)),
        mixed=draw(st.none() | st.sampled_from(["8-Game", "Mixed Omaha H/L"])),
    )


@st.composite
def actions(draw: st.DrawFn) -> Action:
    kind = draw(st.sampled_from(ActionType))
    seat = draw(seat_numbers)
    if kind is ActionType.POST:
        return Action(
            kind,
            seat=seat,
            amount=draw(amounts),
            blind=draw(st.sampled_from(Blind)),
            all_in=draw(st.booleans()),
        )
    if kind in (ActionType.CALL, ActionType.BET):
        return Action(kind, seat=seat, amount=draw(amounts), all_in=draw(st.booleans()))
    if kind is ActionType.RAISE:
        return Action(kind, seat=seat, to=draw(amounts), all_in=draw(st.booleans()))
    if kind is ActionType.UNCALLED:
        return Action(kind, seat=seat, amount=draw(amounts))
    if kind in (ActionType.DEAL, ActionType.SHOW):
        return Action(kind, seat=seat, cards=draw(card_runs))
    if kind is ActionType.MUCK:
        return Action(kind, seat=seat, cards=draw(st.none() | card_runs))
    if kind is ActionType.BOARD:
        return Action(
            kind,
            cards=draw(card_runs),
            run=draw(st.none() | st.sampled_from([1, 2, 3])),
            burn=draw(st.none() | card_runs),
        )
    return Action(kind, seat=seat)


@st.composite
def results(draw: st.DrawFn) -> RecordedResult:
    pairs = st.builds(SeatAmount, seat=seat_numbers, amount=amounts)
    return RecordedResult(
        rake=draw(st.none() | amounts),
        total_pot=draw(st.none() | amounts),
        pots=tuple(draw(st.lists(amounts, max_size=3))),
        collected=tuple(
            draw(
                st.lists(
                    st.builds(
                        Collection,
                        seat=seat_numbers,
                        amount=amounts,
                        pot=st.integers(min_value=0, max_value=5),
                        run=st.none() | st.sampled_from([1, 2, 3]),
                    ),
                    max_size=4,
                )
            )
        ),
        fees=tuple(draw(st.lists(st.builds(Fee, kind=names, amount=amounts), max_size=2))),
        added=draw(amounts),
        cash_outs=tuple(
            draw(
                st.lists(
                    st.builds(CashOut, seat=seat_numbers, amount=amounts, fee=amounts), max_size=1
                )
            )
        ),
        final_stacks=tuple(draw(st.lists(pairs, max_size=3))),
        bounties=tuple(draw(st.lists(pairs, max_size=2))),
    )


@st.composite
def hands(draw: st.DrawFn) -> HandRecord:
    tournament = draw(
        st.none()
        | st.builds(
            Tournament,
            id=names,
            level=st.none() | names,
            buyin=st.none() | names,
            currency=st.none() | st.sampled_from(["USD", "EUR"]),
            scale=scales,
        )
    )
    extras = draw(
        st.lists(
            st.tuples(
                st.text(alphabet="abcdefghij_", min_size=1, max_size=8).map(lambda s: "_" + s),
                st.sampled_from([b'{"code":"call-wrong-amount","seq":3}', b"1", b'"x"', b"[1,2]"]),
            ),
            max_size=2,
            unique_by=lambda kv: kv[0],
        )
    )
    return HandRecord(
        hand_id=draw(names),
        site=draw(names),
        table=draw(st.none() | names),
        started_at=draw(st.none() | times),
        game=draw(games()),
        button=draw(seat_numbers),
        seats=tuple(
            draw(
                st.lists(
                    st.builds(
                        Seat,
                        seat=seat_numbers,
                        player=names,
                        stack=amounts,
                        sitting_out=st.booleans(),
                        bounty=st.none() | amounts,
                    ),
                    min_size=1,
                    max_size=10,
                )
            )
        ),
        actions=tuple(draw(st.lists(actions(), max_size=30))),
        result=draw(st.none() | results()),
        tournament=tournament,
        deck=draw(st.none() | st.lists(cards, max_size=52).map(tuple)),
        hero=draw(st.none() | seat_numbers),
        cancelled=draw(st.booleans()),
        partial=draw(st.booleans()),
        converted=draw(st.booleans()),
        source="test",
        line=1,
        extras=tuple(sorted(extras)),
    )
