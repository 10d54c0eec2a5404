# C types for the compiled engine (see setup.py); deal.py stays the source of truth.
cimport cython
from pipeline.records cimport Action as ActionC, HandRecord as HandC

@cython.locals(end=Py_ssize_t, size=Py_ssize_t, j=Py_ssize_t, card=Py_ssize_t,
               dealt=Py_ssize_t)
cpdef bint _deals(tuple cards, tuple deck, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t step) except -1

@cython.locals(deck=tuple, n=Py_ssize_t, k=Py_ssize_t, seq=Py_ssize_t, first=Py_ssize_t,
               pointer=Py_ssize_t, board_cards=Py_ssize_t, shared_end=Py_ssize_t,
               start=Py_ssize_t, size=Py_ssize_t, take=Py_ssize_t, end=Py_ssize_t,
               courchevel=cython.bint, burn=cython.bint, wrong=cython.bint, actions=tuple,
               action=ActionC)
cpdef list check_deck_order(HandC hand, list seats, object seqs=*)

cdef object _DEAL, _BOARD
