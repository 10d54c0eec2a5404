# C types for the compiled engine (see setup.py); stats.py stays the source of truth.
cimport cython
from pipeline.records cimport Action as ActionC, HandRecord as HandC
from pipeline.rules.context cimport Step

@cython.locals(step=Step, n=Py_ssize_t, i=Py_ssize_t, r=Py_ssize_t, raises=Py_ssize_t,
               first_raiser=Py_ssize_t, last_raiser=Py_ssize_t, cbettor=Py_ssize_t,
               k=Py_ssize_t, open_pot=cython.bint, first_decision=cython.bint,
               aggressive=cython.bint, preflop=cython.bint, flop_dealt=cython.bint,
               showdown=cython.bint, seats=tuple, index=dict, by_street=list, codes=tuple,
               folded=tuple)
cpdef fill_flags(object judged, list positions, cython.longlong[:, ::1] rows, Py_ssize_t first)

@cython.locals(made=Py_ssize_t, bet_seen=cython.bint, r=Py_ssize_t, cbet_opp=Py_ssize_t,
               cbet=Py_ssize_t, fold_opp=Py_ssize_t, fold=Py_ssize_t)
cpdef Py_ssize_t _continuation(list decisions, tuple at, Py_ssize_t cbettor,
                               cython.longlong[:, ::1] rows, Py_ssize_t first,
                               Py_ssize_t n) except -2

cdef frozenset _STEAL_POSITIONS, _NO_TURN
cdef object _FOLD, _CALL, _BET, _RAISE, _CHECK, _PREFLOP, _FLOP, _TURN, _RIVER
cdef tuple _CBET_AT
cdef Py_ssize_t _WIDTH, _MARKS, _OUT, _FOLDED_EARLY, _FOLDED_PREFLOP, _FACED
cdef Py_ssize_t _VPIP, _VPIP_OPP, _PFR, _THREE_BET, _THREE_BET_OPP, _FOLD_TO_THREE_BET
cdef Py_ssize_t _FOLD_TO_THREE_BET_OPP, _STEAL, _STEAL_OPP, _AGGRESSIVE_COUNT, _CALLS, _FOLDS
cdef Py_ssize_t _SAW_FLOP, _SHOWDOWN
cdef long long _NO_CHIPS

cdef object _POST, _DEAL, _SMALL, _BIG

@cython.locals(action=ActionC)
cpdef list hand_positions(HandC hand, object seats)
