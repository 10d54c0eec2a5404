# The C layout of the judged hand's structs (the replay, and the pots and awards of its
# settlement: msgspec structs of pipeline.rules.replay and pipeline.pots) for the compiled
# settlement and rows (settle.py, reconcile.py, lake/rows.py), as records.pxd is the
# hand's records': typed as one of these, a field is read straight from its slot instead of
# through Python's attribute lookup. Each struct lists its fields in the order of their
# sorted names (the order of its class's slots); judged_view.py checks every field's place
# when settle loads, and the tests. The structs' modules are compiled too: an edit to one of
# them makes the build stale. (The settlement's own view is lake/settlement_view.pxd: settle
# defines it, so it cannot read it through a view it loads.)

cdef extern from *:
    """
    typedef struct {
        PyObject_HEAD
        PyObject *all_in; PyObject *antes; PyObject *boards; PyObject *dead;
        PyObject *folded; PyObject *hand; PyObject *hole_cards; PyObject *invested;
        PyObject *rules; PyObject *seats; PyObject *showdown; PyObject *stacks;
        PyObject *status; PyObject *steps; PyObject *street; PyObject *uncalled;
        PyObject *violations;
    } CroupierReplayV;
    typedef struct {
        PyObject_HEAD
        PyObject *added; PyObject *amount; PyObject *eligible; PyObject *fees;
        PyObject *index; PyObject *rake;
    } CroupierPotV;
    typedef struct {
        PyObject_HEAD
        PyObject *amount; PyObject *cards_used; PyObject *description; PyObject *half;
        PyObject *pot; PyObject *rules; PyObject *runout; PyObject *seat;
    } CroupierAwardV;
    """

    ctypedef class pipeline.rules.replay.Replay [object CroupierReplayV, check_size error]:
        cdef object all_in, antes, boards, dead, folded, hand, hole_cards, invested, rules
        cdef object seats, showdown, stacks, status, steps, street, uncalled, violations

    ctypedef class pipeline.pots.Pot [object CroupierPotV, check_size error]:
        cdef object added, amount, eligible, fees, index, rake

    ctypedef class pipeline.pots.Award [object CroupierAwardV, check_size error]:
        cdef object amount, cards_used, description, half, pot, rules, runout, seat

# judged_view.py: the view's reading of every field of each struct, for its check.
cpdef tuple _replay(Replay r)
cpdef tuple _pot(Pot p)
cpdef tuple _award(Award a)
