# C types for the compiled engine (see setup.py); finish.py stays the source of truth.
cimport cython

cdef object _UNCALLED, _SHOWDOWN
from pipeline.records cimport Action as ActionC, HandRecord as HandC
from pipeline.rules.context cimport Run
from pipeline.rules.betting cimport collect_uncalled
from pipeline.rules.deal cimport check_deck_order
from pipeline.rules.forced cimport close_posts

@cython.locals(hand=HandC, action=ActionC)
cpdef bint _return_implied(Run run) except -1

from pipeline.records cimport GameSpec as GameC
from pipeline.rules.state cimport BettingState

@cython.locals(hand=HandC, state=BettingState, complete=cython.bint)
cpdef finish(Run run)

@cython.locals(per_player=Py_ssize_t, hole=Py_ssize_t, board=Py_ssize_t, dealt=tuple,
               game=GameC)
cpdef _check_cards_drawn(Run run)

@cython.locals(state=BettingState, shown=Py_ssize_t)
cpdef _check_showdown_order(Run run)
