# C types for the compiled form (see setup.py); jsonl.py stays the source of truth.
import cython

from pipeline.formats.limits cimport vet

cdef bytes _RANK_TIMES_4
cdef bytes _SUIT

cpdef long long _plain_units(str text, Py_ssize_t scale)

@cython.locals(i=Py_ssize_t, c=cython.long, value=cython.longlong, digits=Py_ssize_t,
               decimals=Py_ssize_t)
cpdef long long _units_in(bytes raw, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t scale)

@cython.locals(n=Py_ssize_t, i=Py_ssize_t, card=Py_ssize_t, a=Py_ssize_t, b=Py_ssize_t,
               c=Py_ssize_t, d=Py_ssize_t, cards=list)
cpdef tuple _cards_together(str text)

cdef Py_ssize_t _NOT_A_CARD
cdef str _UTC_FORM

@cython.locals(i=Py_ssize_t, c=cython.long, want=cython.long)
cdef bint _in_utc_form(str text) except -1

@cython.locals(rank=cython.long, suit=cython.long)
cdef inline Py_ssize_t _card_at(str text, Py_ssize_t i) except? -3

@cython.locals(card=Py_ssize_t)
cdef inline Py_ssize_t _card_of(Py_ssize_t rank, Py_ssize_t suit) except? -3

cpdef object _amount(str text, Py_ssize_t scale, str field)
cpdef object _opt_amount(object text, Py_ssize_t scale, str field)
cpdef tuple _cards(str text, str field)

from pipeline.formats.wire_view cimport (
    BetW as BetC, BoardW as BoardC, CallW as CallC, CheckW as CheckC,
    CollectionW as CollectionC, DealW as DealC, FoldW as FoldC, HandW as HandC,
    MuckW as MuckC, PostW as PostC, RaiseW as RaiseC, ResultW as ResultC,
    SeatAmountW as SeatAmountC, SeatW as SeatC, ShowW as ShowC, UncalledW as UncalledC,
)

# the wire objects, read through their C view (wire_view.pxd)
@cython.locals(out=list, deal=DealC, call=CallC, fold=FoldC, check=CheckC, raised=RaiseC,
               bet=BetC, post=PostC, board=BoardC, show=ShowC, uncalled=UncalledC,
               muck=MuckC)
cpdef tuple _actions(object wires, Py_ssize_t scale)

@cython.locals(out=list, s=SeatC)
cpdef tuple _seats(list wires, Py_ssize_t scale, Py_ssize_t bounty_scale)

cpdef object _collection(CollectionC c, Py_ssize_t scale)
cpdef object _seat_amount(SeatAmountC f, Py_ssize_t scale)

@cython.locals(cashed=set)
cpdef object _result(ResultC w, Py_ssize_t scale, Py_ssize_t bounty_scale)

cpdef object _record(HandC w, tuple extras, object source, object line)

@cython.locals(out=list)
cpdef tuple _each(object wires, object convert, object scale, str path)

@cython.locals(buffer=bytearray)
cpdef bint _in_writers_form(object only, bytes raw) except -1

# the writer's form, read without the decoder
cdef long _QUOTE
cdef tuple _BLIND_TEXT
cdef dict _GAMES_BY_TEXT

cdef class _Reader:
    cdef bytes raw
    cdef Py_ssize_t pos, end

    cdef object fail(self)
    cdef int literal(self, bytes text) except -1

    @cython.locals(raw=cython.p_uchar, want=cython.p_uchar, pos=Py_ssize_t, n=Py_ssize_t,
                   j=Py_ssize_t)
    cdef bint has(self, bytes text) except -1

    cdef bint flag(self, bytes key) except -1

    @cython.locals(start=Py_ssize_t)
    cdef bint field(self, bytes key) except -1

    @cython.locals(raw=cython.p_uchar, pos=Py_ssize_t)
    cdef bint more(self) except -1

    @cython.locals(raw=cython.p_uchar, end=Py_ssize_t, start=Py_ssize_t, i=Py_ssize_t, c=cython.long)
    cdef str text(self, bint nonempty)

    @cython.locals(raw=cython.p_uchar, end=Py_ssize_t, pos=Py_ssize_t, c=cython.long, value=cython.long)
    cdef Py_ssize_t seat(self) except -1

    @cython.locals(raw=cython.p_uchar, end=Py_ssize_t, start=Py_ssize_t, i=Py_ssize_t,
                   units=cython.longlong)
    cdef long long amount(self, Py_ssize_t scale) except -1

    @cython.locals(raw=cython.p_uchar, end=Py_ssize_t, start=Py_ssize_t, i=Py_ssize_t, n=Py_ssize_t,
                   k=Py_ssize_t, a=Py_ssize_t, b=Py_ssize_t, c=Py_ssize_t, d=Py_ssize_t,
                   card=Py_ssize_t, cards=list)
    cdef tuple cards(self)

    @cython.locals(raw=cython.p_uchar, end=Py_ssize_t, start=Py_ssize_t, i=Py_ssize_t,
                   depth=Py_ssize_t, within=bint, c=cython.long)
    cdef bytes value(self)

    @cython.locals(out=list, seat=Py_ssize_t, stack=cython.longlong, sitting_out=bint)
    cdef tuple seats(self, Py_ssize_t scale)

    @cython.locals(out=list, seat=Py_ssize_t, amount=cython.longlong, to=cython.longlong,
                   all_in=bint, more=bint)
    cdef tuple actions(self, Py_ssize_t scale)

    cdef object result(self, Py_ssize_t scale)

    @cython.locals(out=list, more=bint)
    cdef tuple pot_amounts(self, Py_ssize_t scale)

    @cython.locals(out=list, seat=Py_ssize_t, amount=cython.longlong, pot=Py_ssize_t, more=bint)
    cdef tuple collected(self, Py_ssize_t scale)

    @cython.locals(out=list, more=bint)
    cdef tuple fees(self, Py_ssize_t scale)

    @cython.locals(out=list, seat=Py_ssize_t, more=bint)
    cdef tuple seat_amounts(self, Py_ssize_t scale)

    @cython.locals(raw=cython.p_uchar, end=Py_ssize_t, pos=Py_ssize_t, value=Py_ssize_t)
    cdef Py_ssize_t pot(self) except -1

    cdef object blind(self)

    @cython.locals(pos=Py_ssize_t)
    cdef Py_ssize_t run(self) except -1

cpdef object _decoded(object decoder, bytes text)
cpdef object _game_written(bytes text)

@cython.locals(r=_Reader, scale=Py_ssize_t)
cpdef object _writers_record(bytes raw, object source, object line)
