# C types for the compiled engine (see setup.py); board.py stays the source of truth.
cimport cython
from pipeline.records cimport Action as ActionC
from pipeline.rules.betting cimport after_action, collect_uncalled
from pipeline.rules.context cimport Run, seat_index
from pipeline.rules.state cimport BettingState

@cython.locals(i=Py_ssize_t, want=Py_ssize_t)
cpdef deal(Run run, Py_ssize_t seq, ActionC action)

@cython.locals(card=cython.longlong, bit=cython.ulonglong)
cpdef _see_cards(Run run, Py_ssize_t seq, object cards, object seat)

@cython.locals(state=BettingState)
cpdef board(Run run, Py_ssize_t seq, ActionC action)

@cython.locals(state=BettingState)
cpdef _advance(Run run, Py_ssize_t seq)

cpdef object _street_of(Py_ssize_t size)

cpdef object board_street(Run run, ActionC action)

cpdef _run_board(Run run, Py_ssize_t seq, ActionC action)

cpdef show(Run run, Py_ssize_t seq, ActionC action)

cdef object _SHOW, _SHOWDOWN
cdef long long _CARDS
