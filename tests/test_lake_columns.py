"""Rows into Arrow columns (pipeline.lake.columns): the same arrays as ``pa.array`` makes.

Each test runs on the installed form (compiled, as a rule) and on the source itself, each
with its one pass over the rows and with ``pa.array`` by column.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pipeline.lake.columns
from pipeline.cards import format_cards
from pipeline.lake.columns import (
    ABSENT,
    BOOL,
    INT,
    OTHER,
    Columns,
    int_array,
    kind_of,
    table_columns,
)

_spec = importlib.util.spec_from_file_location(
    "columns_source", Path(pipeline.lake.columns.__file__).with_name("columns.py")
)
assert _spec is not None and _spec.loader is not None
SOURCE = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(SOURCE)
FORMS = [
    functools.partial(pipeline.lake.columns.to_arrays, one_pass=True),
    functools.partial(pipeline.lake.columns.to_arrays, one_pass=False),
    functools.partial(SOURCE.to_arrays, one_pass=True),
    functools.partial(SOURCE.to_arrays, one_pass=False),
]

TYPES = (pa.int64(), pa.int16(), pa.int8(), pa.bool_(), pa.string(), pa.list_(pa.int16()))


def _reference(rows: list[tuple[Any, ...]], types: tuple[pa.DataType, ...]) -> list[pa.Array]:
    return [
        pa.array(list(column), t) for column, t in zip(zip(*rows, strict=True), types, strict=True)
    ]


ToArrays = Callable[..., list[Any]]
form = pytest.mark.parametrize(
    "to_arrays",
    FORMS,
    ids=["installed-one-pass", "installed-by-column", "source-one-pass", "source-by-column"],
)


def _arrays(
    to_arrays: ToArrays, rows: list[tuple[Any, ...]], types: tuple[pa.DataType, ...]
) -> list[pa.Array]:
    gathered = to_arrays(rows, [kind_of(t) for t in types], types)
    return [
        c if isinstance(c, pa.Array) else pa.array(c, t)
        for c, t in zip(gathered, types, strict=True)
    ]


ROW = st.tuples(
    st.none() | st.integers(-(2**63), 2**63 - 1),
    st.none() | st.integers(-(2**15), 2**15 - 1),
    st.none() | st.integers(-128, 127),
    st.none() | st.booleans(),
    st.none() | st.text(max_size=5),
    st.none() | st.lists(st.integers(0, 10), max_size=3),
)


@form
@given(rows=st.lists(ROW, min_size=1, max_size=40))
def test_the_arrays_are_pa_arrays(to_arrays: ToArrays, rows: list[tuple[Any, ...]]) -> None:
    ours, theirs = _arrays(to_arrays, rows, TYPES), _reference(rows, TYPES)
    for a, b in zip(ours, theirs, strict=True):
        assert a.type == b.type
        assert a.equals(b)
        assert a.null_count == b.null_count


def test_kinds() -> None:
    assert [kind_of(t) for t in TYPES] == [INT, INT, INT, BOOL, OTHER, OTHER]
    assert kind_of(pa.timestamp("us", tz="UTC")) == OTHER
    assert kind_of(pa.dictionary(pa.int8(), pa.string())) == OTHER


class Pair(NamedTuple):
    a: int | None
    b: bool


@form
def test_named_tuples_and_int_enums_are_read_as_their_values(to_arrays: ToArrays) -> None:
    import enum

    class Code(enum.IntEnum):
        ONE = 1

    ints, flags = to_arrays(
        [Pair(Code.ONE, True), Pair(None, False)], [INT, BOOL], [pa.int8(), pa.bool_()]
    )
    assert isinstance(ints, pa.Array) and isinstance(flags, pa.Array)
    assert ints.to_pylist() == [1, None] and flags.to_pylist() == [True, False]


@form
@pytest.mark.parametrize(
    ("value", "type_", "error"),
    [
        (2**15, pa.int16(), pa.ArrowInvalid),  # beyond the column's type: refused, not wrapped
        (2**63, pa.int64(), OverflowError),  # beyond 64 bits
        (1, pa.bool_(), pa.ArrowInvalid),  # a flag is True, False or None
    ],
)
def test_a_value_the_column_cannot_hold_raises(
    to_arrays: ToArrays, value: object, type_: pa.DataType, error: type[Exception]
) -> None:
    with pytest.raises(error):
        to_arrays([(value,)], [kind_of(type_)], [type_])


@form
@pytest.mark.parametrize("row", [(1,), (1, 2, 3)], ids=["short", "long"])
def test_a_row_of_another_width_than_the_columns_raises(
    to_arrays: ToArrays, row: tuple[int, ...]
) -> None:
    """Compiled, the one pass reads a row's values unchecked: its width is checked first."""
    rows = [(1, 2), row]
    with pytest.raises(ValueError, match=r"[13] values, not 2|shorter|longer"):
        to_arrays(rows, [INT, INT], [pa.int64(), pa.int64()])


@form
def test_no_rows_give_empty_columns(to_arrays: ToArrays) -> None:
    arrays = to_arrays([], [INT, BOOL, OTHER], [pa.int32(), pa.bool_(), pa.string()])
    assert [len(a) for a in arrays] == [0, 0, 0]
    assert isinstance(arrays[0], pa.Array) and arrays[0].type == pa.int32()


def test_the_one_pass_is_taken_where_the_module_is_compiled() -> None:
    compiled = not pipeline.lake.columns.__file__.endswith(".py")
    assert pipeline.lake.columns.ONE_PASS is compiled
    assert SOURCE.ONE_PASS is False


CARD_TEXTS = [pipeline.lake.columns.card_text, SOURCE.card_text]
card_form = pytest.mark.parametrize("card_text", CARD_TEXTS, ids=["installed", "source"])


@card_form
@given(st.lists(st.integers(-1, 51), max_size=60))
def test_card_text_is_format_cards(card_text: Callable[[Any], str], cards: list[int]) -> None:
    # hole cards, boards and the deck (52 cards), with unknown cards ("??") among them
    assert card_text(tuple(cards)) == format_cards(cards)
    assert card_text(cards) == format_cards(cards)


@card_form
@pytest.mark.parametrize("cards", [(0, 52), (-2,), (1 << 40, 3)])
def test_card_text_of_a_number_that_is_no_card_raises(
    card_text: Callable[[Any], str], cards: tuple[int, ...]
) -> None:
    with pytest.raises(ValueError, match="card int out of range"):
        card_text(cards)


INT_TYPES = (pa.int8(), pa.int16(), pa.int32(), pa.int64())


@given(
    st.sampled_from(INT_TYPES),
    st.lists(st.none() | st.integers(-(2**63) + 1, 2**63 - 1) | st.integers(-200, 200)),
)
def test_int_arrays_are_pa_arrays_cast(type_: pa.DataType, values: list[int | None]) -> None:
    # narrowed by NumPy where every value fits, else Arrow's checked cast and its error
    written = np.array([ABSENT if v is None else v for v in values], np.int64)
    try:
        expected = pa.array(values, pa.int64()).cast(type_)
    except pa.ArrowInvalid:
        with pytest.raises(pa.ArrowInvalid):
            int_array(written, type_)
        return
    made = int_array(written, type_)
    assert made.type == type_
    assert made.equals(expected)


TEXT_FORMS = [
    functools.partial(pipeline.lake.columns.text_array, one_pass=True),
    functools.partial(SOURCE.text_array, one_pass=True),
]
text_form = pytest.mark.parametrize("text_array", TEXT_FORMS, ids=["installed", "source"])


@text_form
@given(st.lists(st.none() | st.text(max_size=6) | st.text("AKh2 ", max_size=6), max_size=40))
def test_text_arrays_are_pa_arrays(text_array: Callable[..., pa.Array], values: list[Any]) -> None:
    # ASCII text is laid out in one pass; text beyond it (and surrogates) is pa.array's
    try:
        expected = pa.array(values, pa.string())
    except Exception as error:
        with pytest.raises(type(error)):
            text_array(values, pa.string())
        return
    made = text_array(values, pa.string())
    made.validate(full=True)
    assert made.equals(expected)
    assert made.null_count == values.count(None)


@text_form
@pytest.mark.parametrize("values", [["a", 1], ["a", 2.5, None], [b"a", "b"]], ids=str)
def test_values_not_text_are_read_by_pa_array(
    text_array: Callable[..., pa.Array], values: list[Any]
) -> None:
    # numbers raise pa.array's error; bytes are its to read (as UTF-8)
    if not isinstance(values[0], bytes):
        with pytest.raises(pa.ArrowException) as expected:
            pa.array(values, pa.string())
        with pytest.raises(type(expected.value)):
            text_array(values, pa.string())
        return
    assert text_array(values, pa.string()).equals(pa.array(values, pa.string()))


@text_form
def test_other_types_are_pa_arrays(text_array: Callable[..., pa.Array]) -> None:
    label = pa.dictionary(pa.int8(), pa.string())
    assert text_array(["BTN", "SB", "BTN"], label).equals(pa.array(["BTN", "SB", "BTN"], label))
    assert text_array([[1, 2], None], pa.list_(pa.int16())).to_pylist() == [[1, 2], None]
    assert text_array(("a", None), pa.string()).to_pylist() == ["a", None]  # not a list


KNOWN_CARD_TEXTS = [pipeline.lake.columns.known_card_text, SOURCE.known_card_text]


@pytest.mark.parametrize("known_card_text", KNOWN_CARD_TEXTS, ids=["installed", "source"])
@given(st.one_of(st.none(), st.lists(st.integers(-1, 51), max_size=6).map(tuple)))
def test_known_card_text_is_none_without_a_known_card(
    known_card_text: Callable[[Any], str | None], cards: tuple[int, ...] | None
) -> None:
    # a player's hole cards: none dealt, all hidden ("????"), or some known
    known = cards is not None and any(card != -1 for card in cards)
    assert known_card_text(cards) == (format_cards(cards) if known and cards else None)


def test_integer_tables_become_flag_and_count_columns() -> None:
    """The statistic flags' table (a row per flag, a value per player, then rows it does not
    take): a flag column's non-zero values are true, a count column keeps its numbers, and
    one too large for its type raises rather than wraps."""
    fields = [pa.field("flag", pa.bool_()), pa.field("count", pa.int16())]
    table = np.array([[1, 0, 2, 1, 0], [3, 0, 40, 7, 1], [9, 9, 9, 9, 9]], np.int64)
    flags, counts = table_columns(table, fields)
    assert flags.to_pylist() == [True, False, True, True, False]
    assert counts.type == pa.int16() and counts.to_pylist() == [3, 0, 40, 7, 1]
    assert [c.to_pylist() for c in table_columns(table[:, :0], fields)] == [[], []]
    with pytest.raises(pa.ArrowInvalid):
        table_columns(np.array([[0], [1 << 15]], np.int64), fields)


def test_typed_columns_grow_and_keep_nulls_flags_text_and_lists() -> None:
    """The seats', pots' and awards' buffer (:class:`~pipeline.lake.columns.Columns`): rows
    written past its first capacity are all kept, ``ABSENT`` reads as null, a flag as a
    boolean, and each row's list as its own items (empty lists too)."""
    columns = Columns(("a", "b", "flag"), ("name",), ("seats",))
    rows = [
        (
            k,
            None if k % 3 == 0 else -k * 1000,
            k % 2,
            None if k % 5 == 0 else f"p{k}",
            (k,) * (k % 3),
        )
        for k in range(40)  # more than the first capacity
    ]
    for a, b, flag, name, seats in rows:
        columns.reserve(1)
        at = columns.n
        columns.ints[0, at] = a
        columns.ints[1, at] = ABSENT if b is None else b
        columns.ints[2, at] = flag
        columns.text[0].append(name)
        columns.items[0].extend(seats)
        columns.ends[0].append(len(columns.items[0]))
        columns.n = at + 1
    fields = {
        "a": pa.field("a", pa.int16()),
        "b": pa.field("b", pa.int64()),
        "flag": pa.field("flag", pa.bool_()),
        "name": pa.field("name", pa.string()),
        "seats": pa.field("seats", pa.list_(pa.int16())),
    }
    out = columns.columns(fields)
    assert {name: array.type for name, array in out.items()} == {
        name: f.type for name, f in fields.items()
    }
    assert out["a"].to_pylist() == [row[0] for row in rows]
    assert out["b"].to_pylist() == [row[1] for row in rows]
    assert out["flag"].to_pylist() == [bool(row[2]) for row in rows]
    assert out["name"].to_pylist() == [row[3] for row in rows]
    assert out["seats"].to_pylist() == [list(row[4]) for row in rows]
    fresh = columns.empty()
    assert fresh.n == 0 and fresh.ints.shape[1] >= 50 and fresh.text == [[]]
