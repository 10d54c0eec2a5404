# C types for the compiled engine (see setup.py); finish.py stays the source of truth.
cimport cython

cdef object _UNCALLED, _SHOWDOWN
