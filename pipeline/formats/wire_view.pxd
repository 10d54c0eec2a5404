# The C layout of the JSON Lines wire structs (pipeline.formats.jsonl_wire) for the compiled
# reader, as records.pxd is the hand's records': typed as one of these, a wire object's
# field is read straight from its slot instead of through Python's attribute lookup.
# Each struct lists its fields in the order of their sorted names (the order of its class's
# slots); wire_view.py checks every field's place when the reader loads, and the tests.
# jsonl_wire.py is a source of the compiled form: an edit to it makes the build stale.

cdef extern from *:
    """
    typedef struct { PyObject_HEAD PyObject *cards; PyObject *seat; } CroupierDealW;
    typedef struct {
        PyObject_HEAD
        PyObject *all_in; PyObject *amount; PyObject *seat;
    } CroupierCallW;
    typedef struct { PyObject_HEAD PyObject *seat; } CroupierFoldW;
    typedef struct { PyObject_HEAD PyObject *seat; } CroupierCheckW;
    typedef struct {
        PyObject_HEAD
        PyObject *all_in; PyObject *seat; PyObject *to;
    } CroupierRaiseW;
    typedef struct {
        PyObject_HEAD
        PyObject *all_in; PyObject *amount; PyObject *seat;
    } CroupierBetW;
    typedef struct {
        PyObject_HEAD
        PyObject *all_in; PyObject *amount; PyObject *blind; PyObject *seat;
    } CroupierPostW;
    typedef struct {
        PyObject_HEAD
        PyObject *burn; PyObject *cards; PyObject *run;
    } CroupierBoardW;
    typedef struct { PyObject_HEAD PyObject *cards; PyObject *seat; } CroupierShowW;
    typedef struct { PyObject_HEAD PyObject *cards; PyObject *seat; } CroupierMuckW;
    typedef struct { PyObject_HEAD PyObject *amount; PyObject *seat; } CroupierUncalledW;
    typedef struct {
        PyObject_HEAD
        PyObject *bounty; PyObject *player; PyObject *seat; PyObject *sitting_out;
        PyObject *stack;
    } CroupierSeatW;
    typedef struct {
        PyObject_HEAD
        PyObject *actions; PyObject *button; PyObject *cancelled; PyObject *converted;
        PyObject *deck; PyObject *game; PyObject *hand_id; PyObject *hero; PyObject *partial;
        PyObject *result; PyObject *seats; PyObject *site; PyObject *started_at;
        PyObject *table; PyObject *tournament;
    } CroupierHandW;
    typedef struct {
        PyObject_HEAD
        PyObject *added; PyObject *bounties; PyObject *cash_outs; PyObject *collected;
        PyObject *fees; PyObject *final_stacks; PyObject *pots; PyObject *rake;
        PyObject *total_pot;
    } CroupierResultW;
    typedef struct { PyObject_HEAD PyObject *amount; PyObject *seat; } CroupierSeatAmountW;
    typedef struct {
        PyObject_HEAD
        PyObject *amount; PyObject *pot; PyObject *run; PyObject *seat;
    } CroupierCollectionW;
    """

    ctypedef class pipeline.formats.jsonl_wire.DealW [object CroupierDealW, check_size error]:
        cdef object cards, seat

    ctypedef class pipeline.formats.jsonl_wire.CallW [object CroupierCallW, check_size error]:
        cdef object all_in, amount, seat

    ctypedef class pipeline.formats.jsonl_wire.FoldW [object CroupierFoldW, check_size error]:
        cdef object seat

    ctypedef class pipeline.formats.jsonl_wire.CheckW [object CroupierCheckW, check_size error]:
        cdef object seat

    ctypedef class pipeline.formats.jsonl_wire.RaiseW [object CroupierRaiseW, check_size error]:
        cdef object all_in, seat, to

    ctypedef class pipeline.formats.jsonl_wire.BetW [object CroupierBetW, check_size error]:
        cdef object all_in, amount, seat

    ctypedef class pipeline.formats.jsonl_wire.PostW [object CroupierPostW, check_size error]:
        cdef object all_in, amount, blind, seat

    ctypedef class pipeline.formats.jsonl_wire.BoardW [object CroupierBoardW, check_size error]:
        cdef object burn, cards, run

    ctypedef class pipeline.formats.jsonl_wire.ShowW [object CroupierShowW, check_size error]:
        cdef object cards, seat

    ctypedef class pipeline.formats.jsonl_wire.MuckW [object CroupierMuckW, check_size error]:
        cdef object cards, seat

    ctypedef class pipeline.formats.jsonl_wire.UncalledW [
        object CroupierUncalledW, check_size error
    ]:
        cdef object amount, seat

    ctypedef class pipeline.formats.jsonl_wire.SeatW [object CroupierSeatW, check_size error]:
        cdef object bounty, player, seat, sitting_out, stack

    ctypedef class pipeline.formats.jsonl_wire.HandW [object CroupierHandW, check_size error]:
        cdef object actions, button, cancelled, converted, deck, game, hand_id, hero, partial
        cdef object result, seats, site, started_at, table, tournament

    ctypedef class pipeline.formats.jsonl_wire.ResultW [
        object CroupierResultW, check_size error
    ]:
        cdef object added, bounties, cash_outs, collected, fees, final_stacks, pots, rake
        cdef object total_pot

    ctypedef class pipeline.formats.jsonl_wire.SeatAmountW [
        object CroupierSeatAmountW, check_size error
    ]:
        cdef object amount, seat

    ctypedef class pipeline.formats.jsonl_wire.CollectionW [
        object CroupierCollectionW, check_size error
    ]:
        cdef object amount, pot, run, seat

# wire_view.py: the view's reading of every field of each struct, for its check.
cpdef tuple _deal(DealW w)
cpdef tuple _call(CallW w)
cpdef tuple _fold(FoldW w)
cpdef tuple _check(CheckW w)
cpdef tuple _raise(RaiseW w)
cpdef tuple _bet(BetW w)
cpdef tuple _post(PostW w)
cpdef tuple _board(BoardW w)
cpdef tuple _show(ShowW w)
cpdef tuple _muck(MuckW w)
cpdef tuple _uncalled(UncalledW w)
cpdef tuple _seat(SeatW w)
cpdef tuple _hand(HandW w)
cpdef tuple _result(ResultW w)
cpdef tuple _seat_amount(SeatAmountW w)
cpdef tuple _collection(CollectionW w)
