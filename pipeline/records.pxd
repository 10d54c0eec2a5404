# The C layout of the hand's records (pipeline.model's msgspec structs), for the compiled
# modules: typed as one of these, a record's field is read straight from its slot instead
# of through Python's attribute lookup (a type lookup and a descriptor call, each read).
#
# A struct keeps its fields as the slots of its class, which CPython lays out after the
# object's header in the order of their sorted names; each struct below lists them so.
# The declarations must match pipeline/model.py exactly: Cython checks each size when a
# module loads (check_size error), and pipeline/records.py checks every field's place
# (``layout_problems``, run when the compiled modules load and by the tests).
# model.py is one of the compiled form's sources: an edit to it makes the build stale.
# Only the records the compiled modules read at every hand are here, each with all its
# fields (a record not here is read through attribute lookup, as in Python).

cdef extern from *:
    """
    typedef struct {
        PyObject_HEAD
        PyObject *all_in; PyObject *amount; PyObject *blind; PyObject *burn;
        PyObject *cards; PyObject *run; PyObject *seat; PyObject *to; PyObject *type;
    } CroupierAction;
    typedef struct {
        PyObject_HEAD
        PyObject *bounty; PyObject *player; PyObject *seat; PyObject *sitting_out;
        PyObject *stack;
    } CroupierSeat;
    typedef struct {
        PyObject_HEAD
        PyObject *ante; PyObject *betting; PyObject *big_bet; PyObject *big_blind;
        PyObject *currency; PyObject *hole_cards; PyObject *max_seats; PyObject *mixed;
        PyObject *scale; PyObject *small_bet; PyObject *small_blind; PyObject *variant;
    } CroupierGameSpec;
    typedef struct {
        PyObject_HEAD
        PyObject *added; PyObject *bounties; PyObject *cash_outs; PyObject *collected;
        PyObject *fees; PyObject *final_stacks; PyObject *pots; PyObject *rake;
        PyObject *total_pot;
    } CroupierRecordedResult;
    typedef struct {
        PyObject_HEAD
        PyObject *actions; PyObject *button; PyObject *cancelled; PyObject *converted;
        PyObject *deck; PyObject *extras; PyObject *game; PyObject *hand_id; PyObject *hero;
        PyObject *line; PyObject *partial; PyObject *result; PyObject *seats; PyObject *site;
        PyObject *source; PyObject *started_at; PyObject *table; PyObject *tournament;
    } CroupierHandRecord;
    """

    ctypedef class pipeline.model.Action [object CroupierAction, check_size error]:
        cdef object all_in, amount, blind, burn, cards, run, seat, to, type

    ctypedef class pipeline.model.Seat [object CroupierSeat, check_size error]:
        cdef object bounty, player, seat, sitting_out, stack

    ctypedef class pipeline.model.GameSpec [object CroupierGameSpec, check_size error]:
        cdef object ante, betting, big_bet, big_blind, currency, hole_cards, max_seats
        cdef object mixed, scale, small_bet, small_blind, variant

    ctypedef class pipeline.model.RecordedResult [
        object CroupierRecordedResult, check_size error
    ]:
        cdef object added, bounties, cash_outs, collected, fees, final_stacks, pots, rake
        cdef object total_pot

    ctypedef class pipeline.model.HandRecord [object CroupierHandRecord, check_size error]:
        cdef object actions, button, cancelled, converted, deck, extras, game, hand_id, hero
        cdef object line, partial, result, seats, site, source, started_at, table, tournament

# records.py: the view's reading of every field of each record, for its check.
cpdef tuple _action(Action a)
cpdef tuple _seat(Seat s)
cpdef tuple _game(GameSpec g)
cpdef tuple _result(RecordedResult r)
cpdef tuple _hand(HandRecord h)
