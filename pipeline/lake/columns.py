# cython: boundscheck=False, wraparound=False
# (Compiled, indexes here are not checked: each is below its sequence's length by construction,
# none is negative; a row's length is checked once instead of each of its values.)
"""Rows (tuples) into Arrow columns, the integer and boolean ones through NumPy in one pass.

``pa.array`` converts a list of Python values at some fifty nanoseconds a value; most of
the lake's values are integers and flags, which this module's one pass over the rows
(compiled: see ``setup.py``) writes into NumPy arrays at a few nanoseconds each, and Arrow
then takes those arrays as they are. Other columns (text, lists) are gathered as lists for
``pa.array``. The types, nulls and errors are ``pa.array``'s: a value too large for the
column's integer type raises, as does anything but ``True``, ``False`` or ``None`` in a
boolean column.

:class:`Columns` skips the rows: a table's integers are written into NumPy as they come
(``None`` as :data:`ABSENT`, read back as null by :func:`int_array`), its other values
gathered by column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.cards import UNKNOWN, format_card, format_cards

__all__ = [
    "ABSENT",
    "BOOL",
    "INT",
    "OTHER",
    "Columns",
    "card_text",
    "int_array",
    "kind_of",
    "known_card_text",
    "table_columns",
    "text_array",
    "to_arrays",
]

OTHER, INT, BOOL = 0, 1, 2
"""How a column is gathered: as a list for ``pa.array``, or as integers or flags."""

ONE_PASS = not __file__.endswith(".py")
"""Whether :func:`to_arrays` fills NumPy arrays in one pass: when this module runs compiled.
Interpreted (an install without a C compiler), that pass is slower than ``pa.array``, and
the columns are converted by ``pa.array`` instead."""


_LOWEST = UNKNOWN  # the lowest card int
_CARD_TEXT = tuple(format_card(card) for card in range(_LOWEST, 52))
"""Each card's text, at the card's int minus :data:`_LOWEST` (``"??"`` first)."""
_SPAN = len(_CARD_TEXT)
_PAIR_TEXT = tuple(first + second for first in _CARD_TEXT for second in _CARD_TEXT)
"""The text of each two cards, at the first's place in :data:`_CARD_TEXT` times
:data:`_SPAN` plus the second's."""


def card_text(cards: Sequence[int]) -> str:
    """Return cards as the lake writes them (``"AhKd"``): :func:`~pipeline.cards.format_cards`,
    made of texts of two cards (:data:`_PAIR_TEXT`): a card's text is itself, a hand's
    four cards two texts put together (a hand's cards are written some twenty times:
    hole cards, boards, the deck, the cards each award used).

    >>> card_text((50, 45, -1)), card_text((50,)), card_text(())
    ('AhKd??', 'Ah', '')
    """
    items = tuple(cards)  # itself if a tuple: read unchecked when compiled
    n = len(items)
    parts = [""] * (n // 2 + n % 2) if n > 4 else None  # else put together as they come
    text = ""
    for k in range(n // 2):
        card = items[2 * k]
        other = items[2 * k + 1]
        if card < _LOWEST or card > 51 or other < _LOWEST or other > 51:
            return format_cards(cards)  # not a card: it says which
        pair = _PAIR_TEXT[(card - _LOWEST) * _SPAN + other - _LOWEST]
        if parts is None:
            text = pair if k == 0 else text + pair
        else:
            parts[k] = pair
    if n % 2:
        card = items[n - 1]
        if card < _LOWEST or card > 51:
            return format_cards(cards)
        single = _CARD_TEXT[card - _LOWEST]
        if parts is None:
            text = single if n == 1 else text + single
        else:
            parts[n // 2] = single
    return text if parts is None else "".join(parts)


def known_card_text(cards: Sequence[int] | None) -> str | None:
    """Return cards as :func:`card_text` does, or ``None`` when none of them is known (no
    cards, or every one hidden): a player's hole cards as the lake shows them.

    >>> known_card_text((50, 45)), known_card_text((-1, -1)), known_card_text(None)
    ('AhKd', None, None)
    """
    if not cards:
        return None
    for card in cards:
        if card != _LOWEST:
            return card_text(cards)
    return None


def kind_of(type_: pa.DataType) -> int:
    """Return how a column of ``type_`` is gathered (:data:`INT`, :data:`BOOL` or
    :data:`OTHER`).

    >>> kind_of(pa.int16()), kind_of(pa.bool_()), kind_of(pa.string())
    (1, 2, 0)
    """
    if pa.types.is_integer(type_):
        return INT
    if pa.types.is_boolean(type_):
        return BOOL
    return OTHER


def to_arrays(
    rows: Sequence[tuple[Any, ...]],
    kinds: Sequence[int],
    types: Sequence[pa.DataType],
    one_pass: bool = ONE_PASS,
) -> list[pa.Array | list[Any]]:
    """Return the rows' columns: an Arrow array of each integer and boolean column (of its
    type in ``types``), a list of the values of every other column. ``one_pass``: fill
    NumPy arrays in one pass over the rows (:data:`ONE_PASS`), else ``pa.array`` each
    column; the arrays are the same.

    >>> ints, flags, text = to_arrays([(1, True, "a"), (None, False, "b")], (1, 2, 0),
    ...                               (pa.int8(), pa.bool_(), pa.string()))
    >>> ints.to_pylist(), flags.to_pylist(), text
    ([1, None], [True, False], ['a', 'b'])
    """
    n = len(rows)
    width = len(kinds)
    if not one_pass:
        columns = list(zip(*rows, strict=True)) if n else [()] * width
        return [
            list(c) if kind == OTHER else pa.array(c, t)
            for c, kind, t in zip(columns, kinds, types, strict=True)
        ]
    code = np.zeros(width, np.int64)  # per column: its row in ints or flags, or its list
    lists: list[list[Any]] = []
    n_ints = n_flags = 0
    for j in range(width):
        if kinds[j] == INT:
            code[j] = n_ints
            n_ints += 1
        elif kinds[j] == BOOL:
            code[j] = n_flags
            n_flags += 1
        else:
            code[j] = len(lists)
            lists.append([None] * n)
    ints = np.zeros((n_ints, n), np.int64)
    flags = np.zeros((n_flags, n), np.uint8)
    missing = np.zeros((width, n), np.uint8)  # 1: null
    kind_view = np.array(kinds, np.int64)
    code_view = code
    int_view = ints
    flag_view = flags
    null_view = missing
    int_kind, bool_kind = INT, BOOL
    for i in range(n):
        row = rows[i][:]  # itself if a tuple; a named tuple's items are slow to reach
        if len(row) != width:  # the loop below reads the row unchecked when compiled
            raise ValueError(f"row {i} has {len(row)} values, not {width}")
        for j in range(width):
            value = row[j]
            kind = kind_view[j]
            if value is None:
                null_view[j, i] = 1
            elif kind == int_kind:
                int_view[code_view[j], i] = value
            elif kind == bool_kind:
                if value is True:
                    flag_view[code_view[j], i] = 1
                elif value is not False:
                    raise pa.ArrowInvalid(f"could not convert {value!r} to boolean (column {j})")
            else:
                column = lists[code_view[j]]
                column[i] = value
    out: list[pa.Array | list[Any]] = []
    for j in range(width):
        kind = kinds[j]
        if kind == OTHER:
            out.append(lists[code_view[j]])
            continue
        nulls = missing[j].view(np.bool_)
        mask = nulls if nulls.any() else None
        if kind == INT:
            values = pa.array(ints[code_view[j]], pa.int64(), mask=mask)
            out.append(values if types[j] == pa.int64() else values.cast(types[j]))
        else:
            out.append(pa.array(flags[code_view[j]].view(np.bool_), pa.bool_(), mask=mask))
    return out


_MAX_OFFSET = 2**31 - 1
"""The most bytes a ``string`` column's values may take together (its offsets are int32)."""


def text_array(values: list[Any], type_: pa.DataType, one_pass: bool = ONE_PASS) -> pa.Array:
    """Return values as an Arrow array of ``type_``, as ``pa.array`` does; compiled, a
    ``string`` column of text or ``None`` whose text is all ASCII (most of the lake's:
    cards, ids, names) has its buffers laid out here in one pass.

    ``pa.array`` asks of every value whether it is an Arrow scalar before reading it: some
    15 to 30 nanoseconds a value, and a batch has tens of thousands. Here the values'
    lengths make the offsets, and the text is joined and encoded at once (ASCII text is
    as many bytes as characters): 6 to 14 nanoseconds a value. Anything else (other types,
    dictionaries among them, values not text, text beyond ASCII, over 2 GiB in all) is
    ``pa.array``'s, with its errors. ``one_pass``: take this way (:data:`ONE_PASS`), else
    ``pa.array`` all.

    >>> text_array(["Ah", None, "Kd7c"], pa.string()).to_pylist()
    ['Ah', None, 'Kd7c']
    """
    if not one_pass or type_ != pa.string() or not isinstance(values, list):
        return pa.array(values, type_)
    items: list[Any] = values
    n = len(items)
    offsets = np.empty(n + 1, np.int32)
    valid = np.ones(n, np.uint8)
    offset_view = offsets
    valid_view = valid
    present: list[str] = []
    total = 0
    nulls = 0
    offset_view[0] = 0
    for i in range(n):
        value = items[i]
        if value is None:
            valid_view[i] = 0
            nulls += 1
        elif isinstance(value, str):
            present.append(value)
            total += len(value)
            if total > _MAX_OFFSET:
                return pa.array(values, type_)
        else:
            return pa.array(values, type_)  # its error, or its reading of the value
        offset_view[i + 1] = total
    joined = "".join(present)
    if not joined.isascii():
        return pa.array(values, type_)
    bitmap = None
    if nulls:
        bitmap = pa.py_buffer(np.packbits(valid.view(np.bool_), bitorder="little"))
    data = pa.py_buffer(joined.encode("ascii"))
    return pa.Array.from_buffers(
        pa.string(), n, [bitmap, pa.py_buffer(offsets), data], null_count=nulls
    )


ABSENT = -(2**63)
"""Written for an integer that is None, then masked (:func:`int_array`): no value is near
it (money stays within the readers' limits, seats and counts are small)."""


def int_array(values: np.ndarray, type_: pa.DataType) -> pa.Array:
    """Return int64 values as an Arrow array of ``type_``, :data:`ABSENT` as null (every value
    must fit the type: else Arrow's cast says which does not).

    One pass finds the least value (:data:`ABSENT` is the least of all: a null among them)
    and, for a narrower type, one the greatest; values that fit are narrowed by NumPy, which
    takes half the time of Arrow's checked cast on a batch's columns (12 against 6 us on
    1,000 values, 41 against 14 on 31,000).

    >>> int_array(np.array([3, ABSENT], np.int64), pa.int8()).to_pylist()
    [3, None]
    >>> int_array(np.array([3, 300], np.int64), pa.int16()).type
    DataType(int16)
    """
    lowest = values.min() if len(values) else ABSENT
    if lowest != ABSENT:  # no null
        if type_ == pa.int64():
            return pa.array(values, pa.int64())
        narrow = _NARROW.get(type_)
        if narrow is not None and narrow[1] <= lowest and values.max() <= narrow[2]:
            return pa.array(values.astype(narrow[0]), type_)
    absent = values == ABSENT
    array = pa.array(values, pa.int64(), mask=absent if absent.any() else None)
    return array if type_ == pa.int64() else array.cast(type_)


_NARROW = {
    t: (
        np.dtype(t.to_pandas_dtype()),
        np.iinfo(t.to_pandas_dtype()).min,
        np.iinfo(t.to_pandas_dtype()).max,
    )
    for t in (pa.int8(), pa.int16(), pa.int32())
}
"""The NumPy type of each narrower integer column, with the least and greatest value it holds."""


def table_columns(table: np.ndarray, fields: list[pa.Field]) -> list[pa.Array]:
    """Return the first rows of an integer table (a column each, its values along the row)
    as columns of the ``fields``: a flag field's as booleans (non-zero: true), any other's
    cast to its type (which checks that every value fits), as :class:`Columns` gives its
    own."""
    return [_typed(table[k], f.type) for k, f in enumerate(fields)]


def _typed(values: np.ndarray, type_: pa.DataType) -> pa.Array:
    """Return int64 values as a column of ``type_``: a boolean's non-zero values true, an
    integer's as :func:`int_array` gives them."""
    if pa.types.is_boolean(type_):
        return pa.array(values != 0, pa.bool_())
    return int_array(values, type_)


class Columns:
    """One table's columns for a batch, filled row by row (the lake's seats, pots and awards:
    :mod:`pipeline.lake.rows`).

    The integer columns are the rows of one NumPy array (a column each, a table row per
    item), which the compiled form writes as a C array: no tuple per row to build, read
    back and free. ``None`` is written as :data:`ABSENT` and masked. Other values are
    gathered in a list per column (``text``, for ``pa.array``), and a list column's as its
    items end to end (``items``), with the count so far at each row's end (``ends``).
    """

    def __init__(
        self,
        ints: tuple[str, ...],
        text: tuple[str, ...] = (),
        lists: tuple[str, ...] = (),
        capacity: int = 1024,
    ) -> None:
        self.names = (ints, text, lists)
        self.n = 0
        self.capacity = max(capacity, 16)  # rows the arrays hold (read by each reserve)
        self.ints = np.zeros((len(ints), self.capacity), np.int64)
        self.view = self.ints
        self.text: list[list[object]] = [[] for _ in text]
        self.items: list[list[object]] = [[] for _ in lists]
        self.ends: list[list[int]] = [[] for _ in lists]

    def empty(self) -> Columns:
        """Return a new buffer for the same columns, with room for a quarter more rows than
        this one's (the next batch's, most likely, without growing)."""
        ints, text, lists = self.names
        return Columns(ints, text, lists, self.n + self.n // 4)

    def reserve(self, more: int) -> None:
        """Make room for ``more`` rows past the :attr:`n` filled."""
        if self.n + more <= self.capacity:
            return
        self.capacity = max(2 * self.capacity, self.n + more)
        wider = np.zeros((self.ints.shape[0], self.capacity), np.int64)
        wider[:, : self.n] = self.ints[:, : self.n]
        self.ints = wider
        self.view = wider

    def columns(self, fields: dict[str, pa.Field]) -> dict[str, pa.Array]:
        """Return the columns filled, as Arrow arrays of the ``fields``' types (by name)."""
        n = self.n
        ints, text, lists = self.names
        out: dict[str, pa.Array] = {}
        for k, name in enumerate(ints):
            out[name] = _typed(self.ints[k, :n], fields[name].type)
        for name, gathered in zip(text, self.text, strict=True):
            out[name] = text_array(gathered, fields[name].type)
        for name, items, ends in zip(lists, self.items, self.ends, strict=True):
            type_ = fields[name].type
            offsets = np.zeros(n + 1, np.int32)
            offsets[1:] = ends
            values = text_array(items, type_.value_type)
            out[name] = pa.ListArray.from_arrays(pa.array(offsets), values, type=type_)
        return out
