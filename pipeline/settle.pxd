# C types for the compiled form (see setup.py); settle.py stays the source of truth.
cimport cython
from pipeline.records cimport HandRecord as HandC, RecordedResult as ResultC, Seat as SeatC
from pipeline.judged_view cimport Award as AwardC, Pot as PotC, Replay as ReplayC
from pipeline.pots cimport build_pots
from pipeline.reconcile cimport reconcile

cdef object _OK, _VIOLATIONS, _INVALID, _VOID, _PARTIAL, _WHOLE, _HIGH, _LOW, _ERROR

@cython.locals(batches=dict, out=list, seats=list, holes=list, folded=tuple, hole_cards=dict,
               i=Py_ssize_t, k=Py_ssize_t, judged=ReplayC)
cpdef list _evaluate(object replays)

@cython.locals(high=list, high_cards=list, low=list, low_cards=list, row=Py_ssize_t,
               seats=tuple, high_r=dict, high_cards_r=dict, low_r=dict, low_cards_r=dict)
cpdef _distribute(object result, list groups)

@cython.locals(awards=list, seats=tuple, amounts=list, raw=list, pot_list=list, nets=list,
               won=dict, finals=dict, stacks=tuple, k=Py_ssize_t, contested=cython.bint,
               complete=cython.bint, runs=Py_ssize_t, hand=HandC, result=ResultC, pot=PotC,
               award=AwardC)
cpdef object _settle_one(ReplayC judged, object show, object rules)

@cython.locals(s=SeatC)
cpdef dict _starting(HandC hand)

@cython.locals(parts=list, eligible=tuple, high_r=dict, low_r=dict, highs=dict, lows=dict,
               r=Py_ssize_t)
cpdef _award_pot(object book, PotC pot, object net, object show, Py_ssize_t runs, bint hilo)

@cython.locals(winners=list, shares=list, cards=dict, k=Py_ssize_t)
cpdef _pay(object book, PotC pot, Py_ssize_t runout, object half, object amount, dict ranks,
           object show, tuple rules)

cdef dict _HIGH_TEXTS, _LOW_TEXTS
cpdef str _described(dict texts, object describe, object rank)
