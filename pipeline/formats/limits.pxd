# C types for the compiled form (see setup.py); limits.py stays the source of truth.
import cython

from pipeline.records cimport Action as ActionC
from pipeline.records cimport GameSpec as GameC, HandRecord as HandC
from pipeline.records cimport RecordedResult as ResultC, Seat as SeatC

cdef long long _SEAT_LIMIT, _AMOUNT_LIMIT, _MONEY_LIMIT

cpdef object vet(object item)
cpdef object _problem(HandC hand)
cpdef bint _within(HandC hand) except -1

@cython.locals(total=cython.longlong, game=GameC, s=SeatC, a=ActionC, result=ResultC)
cpdef bint _in_range(HandC hand) except? -1

cdef inline bint _seat_out(long long seat) except? -1

cdef inline long long _added(long long total, long long amount) except? -2
