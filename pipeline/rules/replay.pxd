# C types for the compiled engine (see setup.py); replay.py stays the source of truth.
cimport cython
from pipeline.rules.betting cimport bet
from pipeline.rules.board cimport board, board_street, deal
from pipeline.rules.context cimport Run, make_step
from pipeline.rules.state cimport BettingState

@cython.locals(run=Run, state=BettingState, seq=Py_ssize_t, fatal=cython.bint)
cpdef object _replay(object hand, object rules)

@cython.locals(state=BettingState, pot_before=cython.longlong, all_in=cython.bint)
cpdef _step(Run run, Py_ssize_t seq, object action)

@cython.locals(state=BettingState, errors=cython.bint)
cpdef object _result(Run run, bint fatal)

cdef object _POST, _DEAL, _BOARD, _UNCALLED, _ERROR, _SHOWDOWN
cdef object _OK, _VIOLATIONS, _INVALID, _VOID, _PARTIAL
cdef frozenset _BETTING
