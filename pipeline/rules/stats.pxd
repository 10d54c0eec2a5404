# C types for the compiled engine (see setup.py); stats.py stays the source of truth.
cimport cython
from pipeline.rules.context cimport Step

@cython.locals(step=Step, n=Py_ssize_t, raises=Py_ssize_t, open_pot=cython.bint,
               first=cython.bint, aggressive=cython.bint, flop_dealt=cython.bint)
cpdef list seat_flags(object judged, list positions)
