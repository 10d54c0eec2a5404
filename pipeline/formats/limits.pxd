# C types for the compiled form (see setup.py); limits.py stays the source of truth.
import cython

@cython.locals(total=cython.longlong)
cpdef bint _in_range(hand) except? -1

cdef inline bint _seat_out(long long seat) except? -1

cdef inline long long _added(long long total, long long amount) except? -2
