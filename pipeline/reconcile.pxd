# C types for the compiled form (see setup.py); reconcile.py stays the source of truth.
cimport cython
from pipeline.records cimport Action as ActionC, HandRecord as HandC
from pipeline.records cimport RecordedResult as ResultC
from pipeline.judged_view cimport Award as AwardC, Replay as ReplayC

@cython.locals(result=ResultC, recorded=dict, returned=dict, before=Py_ssize_t, judged=ReplayC)
cpdef object reconcile(
    object book, tuple pots, object total, list nets, dict won, dict finals, object rake,
    object fees
)

@cython.locals(hand=HandC, result=ResultC, action=ActionC)
cpdef bint returns_in_collections(ReplayC judged, object pot) except -1

@cython.locals(result=ResultC, ours=dict, theirs=dict, a=AwardC)
cpdef _reconcile_pots(object book, tuple pots, dict returned)
