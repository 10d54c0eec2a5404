# C types for the compiled engine (see setup.py); replay.py stays the source of truth.
cimport cython
from pipeline.records cimport Action as ActionC, GameSpec as GameC, HandRecord as HandC
from pipeline.rules.betting cimport bet
from pipeline.rules.board cimport board, board_street, deal, show
from pipeline.rules.finish cimport finish
from pipeline.rules.forced cimport check_setup, close_posts, dealt_seats, post, seating
from pipeline.rules.context cimport Run, make_step, raw_chips

cdef long long _NO_CHIPS
from pipeline.rules.state cimport BettingState

@cython.locals(run=Run, state=BettingState, seq=Py_ssize_t, fatal=cython.bint, action=ActionC,
               game=GameC)
cpdef object _replay(HandC hand, object rules)

@cython.locals(state=BettingState, pot_before=cython.longlong, all_in=cython.bint)
cpdef _step(Run run, Py_ssize_t seq, ActionC action)

@cython.locals(state=BettingState, errors=cython.bint, hand=HandC)
cpdef object _result(Run run, bint fatal)

cdef object _POST, _DEAL, _BOARD, _UNCALLED, _ERROR, _SHOWDOWN
cdef object _OK, _VIOLATIONS, _INVALID, _VOID, _PARTIAL
cdef frozenset _BETTING
