cimport cython
from pipeline.rules.state cimport BettingState, Legal
from pipeline.records cimport Action as ActionC
from pipeline.rules.context cimport Run, make_step, seat_index

cdef long long _NO_CHIPS

@cython.locals(state=BettingState, legal=Legal, i=Py_ssize_t, skipped=Py_ssize_t, turn=Py_ssize_t, pot_before=cython.longlong, stack_before=cython.longlong, to=cython.longlong)
cpdef bet(Run run, Py_ssize_t seq, ActionC action)
@cython.locals(state=BettingState, stack=cython.longlong, mine=cython.longlong, amount=cython.longlong, to=cython.longlong, chips=cython.longlong, all_in=cython.bint, is_bet=cython.bint)
cpdef long long _judge(Run run, Py_ssize_t seq, ActionC action, Legal legal, Py_ssize_t i) except? -1
@cython.locals(state=BettingState, left=cython.longlong, moved=cython.longlong, sized=cython.bint)
cpdef _record_bet_step(Run run, Py_ssize_t seq, ActionC action, Py_ssize_t i, Legal legal, long long pot_before, long long stack_before, long long to)
@cython.locals(state=BettingState, i=Py_ssize_t)
cpdef after_action(Run run, Py_ssize_t seq)
cpdef collect_uncalled(Run run, Py_ssize_t seq)

cdef object _FOLD, _CHECK, _CALL, _BET, _RIVER, _SHOWDOWN
