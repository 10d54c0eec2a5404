# C types for the compiled engine (see setup.py); state.py stays the source of truth.
cimport cython

cdef object _PREFLOP, _FLOP, _SHOWDOWN, _FIXED_LIMIT, _POT_LIMIT
cdef tuple _POT_LIMIT_PREFLOP

cdef class Legal:
    cdef readonly Py_ssize_t actor
    cdef readonly long long call, min_to, max_to, all_in_to
    cdef readonly bint can_check, can_bet, can_raise
    cdef readonly object closed_by

cdef int _set_legal(
    Legal legal, Py_ssize_t actor, long long call, bint can_check, bint can_bet, bint can_raise,
    long long min_to, long long max_to, long long all_in_to
) except -1

@cython.locals(legal=Legal)
cdef Legal _legal(
    Py_ssize_t actor, long long call, bint can_check, bint can_bet, bint can_raise,
    long long min_to, long long max_to, long long all_in_to, object closed_by
)

cdef class BettingState:
    cdef public Py_ssize_t able
    cdef public list acted_level
    cdef public Py_ssize_t aggressor
    cdef public list all_in, antes, bet, dead, folded, invested, needs, stack
    cdef public object betting, rules, street
    cdef public long long big_bet, big_blind, current_bet, last_full_raise, full_level, limit_size, pot_before_round, small_bet, street_total
    cdef public bint is_limit, pot_limit, short_raise
    cdef public Py_ssize_t last_actor, live, n, raises, round_start_players

    @cython.locals(i=Py_ssize_t, n=Py_ssize_t)
    cpdef object next_actor(self)
    cpdef bint _capped(self)
    cpdef Legal legal(self)
    @cython.locals(stack=cython.longlong, mine=cython.longlong, current=cython.longlong, owed=cython.longlong, call=cython.longlong, all_in_to=cython.longlong, min_to=cython.longlong, max_to=cython.longlong, acted=cython.longlong, can_bet=cython.bint, can_raise=cython.bint)
    cpdef Legal legal_for(self, Py_ssize_t i)
    @cython.locals(j=Py_ssize_t, current=cython.longlong, behind=cython.longlong,
                   put=cython.longlong, folded=list,
                   all_in=list, stack=list, bet=list)
    cpdef bint _someone_can_call_a_raise(self, Py_ssize_t i)
    cpdef _went_all_in(self, Py_ssize_t i)
    @cython.locals(left=cython.longlong, put=cython.longlong)
    cpdef _put(self, Py_ssize_t i, long long amount)
    cpdef _acted(self, Py_ssize_t i)
    @cython.locals(i=Py_ssize_t, j=Py_ssize_t, top=cython.longlong)
    cpdef _settle_lone_player(self)

    cpdef fold(self, Py_ssize_t i)
    cpdef check(self, Py_ssize_t i)
    cpdef call(self, Py_ssize_t i, long long amount)
    @cython.locals(j=Py_ssize_t, over_full=cython.longlong, increase=cython.longlong)
    cpdef raise_to(self, Py_ssize_t i, long long to)
    @cython.locals(top=cython.longlong, second=cython.longlong, b=cython.longlong, j=Py_ssize_t, leader=Py_ssize_t)
    cpdef object uncalled(self)
    cpdef return_uncalled(self, Py_ssize_t i, long long amount)
    @cython.locals(i=Py_ssize_t, n=Py_ssize_t)
    cpdef _open_round(self, Py_ssize_t first)
    cpdef start_street(self, object street)
