# C types for the compiled form (see setup.py); jsonl.py stays the source of truth.
import cython

cdef bytes _RANK_TIMES_4
cdef bytes _SUIT

@cython.locals(n=Py_ssize_t, i=Py_ssize_t, c=cython.long, value=cython.longlong,
               digits=Py_ssize_t, decimals=Py_ssize_t)
cpdef long long _plain_units(str text, Py_ssize_t scale)

@cython.locals(n=Py_ssize_t, i=Py_ssize_t, rank=cython.long, suit=cython.long, card=Py_ssize_t,
               cards=list)
cpdef tuple _cards_together(str text)
