# C types for the compiled engine (see setup.py); forced.py stays the source of truth.
cimport cython

cdef object _SMALL, _BIG, _BOTH, _DEAD, _ANTE, _STRADDLE

from pipeline.records cimport Action as ActionC, GameSpec as GameC, HandRecord as HandC, Seat as SeatC
from pipeline.rules.betting cimport after_action
from pipeline.rules.context cimport Run, check_all_in_flag, seat_index
from pipeline.rules.state cimport BettingState

@cython.locals(i=Py_ssize_t, state=BettingState, all_in=cython.bint, live=cython.bint, blind_seat=cython.bint, swapped=cython.bint, game=GameC)
cpdef post(Run run, Py_ssize_t seq, ActionC action)

@cython.locals(s=SeatC)
cpdef list seating(HandC hand)

@cython.locals(s=SeatC)
cpdef list dealt_seats(HandC hand, list order)

@cython.locals(hand=HandC, s=SeatC, numbers=list, players=list, n=Py_ssize_t)
cpdef check_setup(Run run)

cpdef _check_stakes(Run run, GameC game)

cpdef _check_post_amount(Run run, Py_ssize_t seq, ActionC action, object expected, bint all_in, object code, object rule)

cpdef object _big_blind_post(Run run, Py_ssize_t index)

@cython.locals(i=Py_ssize_t)
cpdef Py_ssize_t _big_blind_index(Run run) except -1

@cython.locals(state=BettingState)
cpdef close_posts(Run run, Py_ssize_t seq)

@cython.locals(n=Py_ssize_t, i=Py_ssize_t, want=Py_ssize_t)
cpdef _check_seat_posts(Run run, Py_ssize_t bb)
