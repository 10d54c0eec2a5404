# C types for the compiled form (see setup.py); pots.py stays the source of truth.
cimport cython

@cython.locals(levels=set, live=list, pots=list, eligible=list, i=Py_ssize_t, n=Py_ssize_t,
               c=cython.longlong, previous=cython.longlong, below=cython.longlong,
               level=cython.longlong, total=cython.longlong, rest=cython.longlong)
cpdef list _layers(object amounts, object folded)

@cython.locals(n=Py_ssize_t)
cpdef list build_pots(object invested, object folded, object dead=*, object antes=*)
