# C types for the compiled engine (see setup.py); finish.py stays the source of truth.
cimport cython

cdef object _UNCALLED, _SHOWDOWN
from pipeline.records cimport Action as ActionC, HandRecord as HandC
from pipeline.rules.context cimport Run

@cython.locals(hand=HandC, action=ActionC)
cpdef bint _return_implied(Run run) except -1
