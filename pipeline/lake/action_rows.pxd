# C types for the compiled form (see setup.py); action_rows.py stays the source of truth.
cimport cython
from pipeline.lake.columns cimport Columns, card_text
from pipeline.records cimport Action as ActionC, HandRecord as HandC, Seat as SeatC
from pipeline.rules.context cimport Step
from pipeline.judged_view cimport Replay as ReplayC

cpdef bint stopped_early(ReplayC judged, HandC hand) except -1

cpdef Py_ssize_t add_action_rows(object out, HandC hand, ReplayC judged) except -1

@cython.locals(first=Py_ssize_t, places=dict, s=SeatC)
cpdef dict _add_players(list names, HandC hand)

@cython.locals(n=Py_ssize_t, i=Py_ssize_t, row=Py_ssize_t, step=Step, action=ActionC,
               view=cython.longlong[:, ::1], cards_col=list, type_codes=dict, codes=tuple)
cpdef Py_ssize_t _add_step_rows(
    Columns out, dict notes, tuple steps, tuple actions, dict players
) except -1

@cython.locals(n=Py_ssize_t, row=Py_ssize_t, action=ActionC, view=cython.longlong[:, ::1],
               cards_col=list, type_codes=dict)
cpdef Py_ssize_t _add_value_rows(
    Columns out, dict notes, list rows, tuple actions, dict players
) except -1

cdef int _add_action_part(
    long long[:, ::1] view, list cards_col, dict notes, Py_ssize_t row, ActionC action,
    object place, object codes
) except -1

cdef long long _ABSENT, _NO_CHIPS
