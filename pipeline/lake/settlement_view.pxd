# The C layout of a hand's settlement (pipeline.settle.Settlement, a msgspec struct) for the
# compiled rows (pipeline/lake/rows.py), as judged_view.pxd is the replay's, pots' and
# awards': typed as one, a field is read straight from its slot instead of through Python's
# attribute lookup. The fields are in the order of their sorted names (the order of its
# class's slots); settlement_view.py checks every field's place when rows loads, and the
# tests. settle.py is compiled too: an edit to it makes the build stale.

cdef extern from *:
    """
    typedef struct {
        PyObject_HEAD
        PyObject *awards; PyObject *complete; PyObject *final_stacks; PyObject *high_hands;
        PyObject *low_hands; PyObject *payouts_match; PyObject *pots; PyObject *rake;
        PyObject *runouts; PyObject *violations; PyObject *won;
    } CroupierSettlementV;
    """

    ctypedef class pipeline.settle.Settlement [object CroupierSettlementV, check_size error]:
        cdef object awards, complete, final_stacks, high_hands, low_hands, payouts_match
        cdef object pots, rake, runouts, violations, won

# settlement_view.py: the view's reading of every field, for its check.
cpdef tuple _settlement(Settlement s)
