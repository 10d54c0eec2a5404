# C types for the compiled form (see setup.py); rows.py stays the source of truth.
cimport cython
from pipeline.lake.columns cimport Columns, card_text, known_card_text, text_array
from pipeline.lake.action_rows cimport add_action_rows, stopped_early
from pipeline.records cimport Action as ActionC, HandRecord as HandC, Seat as SeatC
from pipeline.records cimport GameSpec as GameC, RecordedResult as ResultC
from pipeline.rules.context cimport Step
from pipeline.rules.stats cimport fill_flags, hand_positions
from pipeline.judged_view cimport Award as AwardC, Pot as PotC, Replay as ReplayC
from pipeline.lake.settlement_view cimport Settlement as SettlementC

cdef object _SHOW, _LOW
cdef tuple _NOBODY, _SCOOP

cdef dict _VARIANT_CODES, _BETTING_CODES, _STATUS_CODES
cdef long long _ABSENT

@cython.locals(game=GameC, result=ResultC, view=cython.longlong[:, ::1], row=Py_ssize_t,
               boards=list, source=list, table=list, started=list, mixed=list, currency=list,
               deck=list, tournament=list, extras=list, rules=list, run=list)
cpdef _add_hand_row(
    Columns out, HandC hand, ReplayC judged, SettlementC settled, object status,
    tuple violations, object run_id
)

@cython.locals(
    seats=tuple, names=list, recorded=dict, cashed=dict, shown=set, players=dict, won_of=dict,
    finals=dict, hole=dict, highs=dict, lows=dict, pots=dict, stacks=tuple,
    invested=tuple, i=Py_ssize_t, n=Py_ssize_t, row=Py_ssize_t, result=ResultC, player=SeatC,
    s=SeatC, view=cython.longlong[:, ::1], start=cython.longlong, end=cython.longlong,
    counts=tuple, player_col=list, position_col=list, hole_col=list, high_col=list,
    low_col=list,
)
cpdef Py_ssize_t _add_seat_rows(
    Columns out, Columns flags, HandC hand, ReplayC judged, SettlementC settled
) except -1

@cython.locals(step=Step, shown=set, a=ActionC)
cpdef set _shown(ReplayC judged, HandC hand)

@cython.locals(halves=dict, out=dict, high=set, low=set, counts=list, alone=cython.bint,
               awards=tuple, a=AwardC)
cpdef dict _pot_kinds(SettlementC settled, bint hilo)

@cython.locals(winners=dict, seats=list, parts=list, runs=Py_ssize_t, row=Py_ssize_t,
               n_pots=Py_ssize_t, awarded=tuple, view=cython.longlong[:, ::1], halves=list,
               descriptions=list, used_cards=list, rules=list, rules_ends=list, eligible=list,
               high=list, low=list, eligible_ends=list, high_ends=list, low_ends=list,
               runout=Py_ssize_t, a=AwardC, pot=PotC)
cpdef tuple _add_pot_rows(Columns pots, Columns awards, SettlementC settled)
