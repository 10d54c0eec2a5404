# C types for the compiled form (see setup.py); columns.py stays the source of truth.
import cython

@cython.locals(
    n=Py_ssize_t, width=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, kind=cython.longlong,
    n_ints=Py_ssize_t, n_flags=Py_ssize_t, lists=list, column=list,
    int_kind=cython.longlong, bool_kind=cython.longlong,
    kind_view=cython.longlong[::1], code_view=cython.longlong[::1],
    int_view=cython.longlong[:, ::1], flag_view=cython.uchar[:, ::1],
    null_view=cython.uchar[:, ::1], row=tuple,
)
cpdef list to_arrays(rows, kinds, types, bint one_pass=*)

cdef Py_ssize_t _MAX_OFFSET

@cython.locals(
    items=list, n=Py_ssize_t, i=Py_ssize_t, total=Py_ssize_t,
    nulls=Py_ssize_t, offset_view=cython.int[::1], valid_view=cython.uchar[::1], present=list,
    joined=str,
)
cpdef object text_array(object values, object type_, bint one_pass=*)

cdef tuple _CARD_TEXT, _PAIR_TEXT
cdef Py_ssize_t _LOWEST, _SPAN

@cython.locals(n=Py_ssize_t, k=Py_ssize_t, card=Py_ssize_t, other=Py_ssize_t, parts=list,
               items=tuple, text=str, pair=str, single=str)
cpdef str card_text(cards)

@cython.locals(card=Py_ssize_t)
cpdef object known_card_text(object cards)

cdef class Columns:
    cdef public tuple names
    cdef public Py_ssize_t n, capacity
    cdef public object ints
    cdef long long[:, ::1] view
    cdef public list text, items, ends
    cpdef reserve(self, Py_ssize_t more)
