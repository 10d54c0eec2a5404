# C types for the compiled engine (see setup.py); stats.py stays the source of truth.
cimport cython
from pipeline.rules.context cimport Step

@cython.locals(step=Step, n=Py_ssize_t, raises=Py_ssize_t, open_pot=cython.bint,
               first=cython.bint, aggressive=cython.bint, flop_dealt=cython.bint,
               seats=tuple, rows=list, index=dict, preflop=list, by_street=dict,
               folded_early=set, folded_preflop=set, out=set, codes=tuple, decisions=list,
               row=list, folded=tuple, k=Py_ssize_t)
cpdef list seat_flags(object judged, list positions)

@cython.locals(made=object, bet_seen=cython.bint, faced=set)
cpdef object _continuation(list decisions, tuple at, object cbettor, list rows)

cdef frozenset _BETTING, _AGGRESSIVE, _STEAL_POSITIONS, _NO_TURN
cdef tuple _VOLUNTARY
cdef object _FOLD, _CALL, _BET, _RAISE, _CHECK, _PREFLOP, _FLOP, _TURN, _RIVER
