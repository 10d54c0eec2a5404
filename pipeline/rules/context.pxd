# C types for the compiled engine (see setup.py); context.py stays the source of truth.
cimport cython
from pipeline.records cimport Action as ActionC, HandRecord as HandC
from pipeline.rules.state cimport BettingState

@cython.no_gc
@cython.freelist(64)
cdef class Step:
    cdef readonly Py_ssize_t seq
    cdef readonly object street, seat, type
    cdef readonly long long pot_before
    cdef long long _amount, _to, _stack_before, _to_call, _min_to, _max_to
    cdef readonly bint all_in
    cdef readonly tuple codes

    cpdef tuple values(self)

cdef long long _NO_CHIPS
cpdef long long raw_chips(object value) except? -1
cdef object _chips(long long raw)

cdef class Run:
    cdef public HandC hand
    cdef public object rules, straddle_index, river_aggressor, last_aggressor
    cdef public unsigned long long seen
    cdef public list seats, violations, steps, big_posts, shared_board, expected_uncalled
    cdef public list seat_posts, deck_seqs
    cdef public list returned, shows
    cdef public dict index, hole, dealt, run_boards
    cdef public set antes
    cdef public BettingState state
    cdef public bint posts_open, small_posted, exposed, all_in_showdown
    cdef public Py_ssize_t sb_index, bb_index, skipped

cpdef Py_ssize_t seat_index(Run run, Py_ssize_t seq, ActionC action) except -1
@cython.locals(step=Step)
cpdef Step make_step(
    Py_ssize_t seq, object street, object seat, object kind, long long amount, long long to,
    long long pot_before, long long stack_before, long long to_call=*, long long min_to=*,
    long long max_to=*, bint all_in=*)
cpdef check_all_in_flag(Run run, Py_ssize_t seq, ActionC action, bint all_in)
cpdef Step with_codes(Step step, tuple codes)
@cython.locals(step=Step)
cpdef list step_values(tuple steps)
