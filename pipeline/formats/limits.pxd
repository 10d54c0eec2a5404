# C types for the compiled form (see setup.py); limits.py stays the source of truth.
import cython

@cython.locals(seat=cython.longlong, amount=cython.longlong, total=cython.longlong,
               max_seat=cython.longlong, max_amount=cython.longlong)
cpdef bint _in_range(hand) except? -1
