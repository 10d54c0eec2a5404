"""The hand log: reading, writing, rejecting, and agreement with the JSON Schema."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.cards import UNKNOWN, format_cards
from pipeline.formats import jsonl
from pipeline.formats.jsonl import (
    decode_line,
    encode_hand,
    read_jsonl,
    read_jsonl_stream,
    write_jsonl,
)
from pipeline.generate.play import generate_hands
from pipeline.model import HandRecord
from pipeline.money import AmountError, parse_amount
from pipeline.violations import Reject, RejectCode
from tests.strategies import hands

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schemas" / "hand.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SAMPLES = sorted((ROOT / "data" / "sample").glob("*.jsonl"))

GOOD: dict[str, Any] = {
    "hand_id": "G-1",
    "site": "Test",
    "table": "T1",
    "started_at": "2026-01-02T03:04:05Z",
    "game": {
        "variant": "omaha",
        "hole_cards": 4,
        "betting": "pot-limit",
        "small_blind": "0.50",
        "big_blind": "1.00",
        "currency": "USD",
        "unit": "0.01",
    },
    "button": 1,
    "seats": [
        {"seat": 1, "player": "Ann", "stack": "100.00"},
        {"seat": 2, "player": "Bob", "stack": "100.00"},
    ],
    "actions": [
        {"type": "post", "seat": 1, "blind": "small", "amount": "0.50"},
        {"type": "post", "seat": 2, "blind": "big", "amount": "1.00"},
        {"type": "fold", "seat": 1},
        {"type": "uncalled", "seat": 2, "amount": "0.50"},
    ],
    "result": {"rake": "0", "collected": [{"seat": 2, "amount": "1.00"}]},
}


def mutated(path: str, value: Any) -> dict[str, Any]:
    """Return a deep copy of GOOD with the value at a dotted path replaced (``...`` deletes)."""
    hand: dict[str, Any] = json.loads(json.dumps(GOOD))
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    target: Any = hand
    for key in keys[:-1]:
        target = target[key]
    if value is ...:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return hand


# Lines that break the schema, each with the reject code the reader must give.
SCHEMA_BREAKERS: list[tuple[str, dict[str, Any] | list[Any], RejectCode]] = [
    ("missing hand_id", mutated("hand_id", ...), RejectCode.SCHEMA_VIOLATION),
    ("empty hand_id", mutated("hand_id", ""), RejectCode.SCHEMA_VIOLATION),
    ("hand_id a number", mutated("hand_id", 17), RejectCode.SCHEMA_VIOLATION),
    ("missing game", mutated("game", ...), RejectCode.SCHEMA_VIOLATION),
    ("unknown top-level field", {**GOOD, "flavour": "x"}, RejectCode.SCHEMA_VIOLATION),
    ("top level is an array", [GOOD], RejectCode.SCHEMA_VIOLATION),
    ("no seats", mutated("seats", []), RejectCode.SCHEMA_VIOLATION),
    ("seat zero", mutated("seats.0.seat", 0), RejectCode.SCHEMA_VIOLATION),
    ("seat as text", mutated("seats.0.seat", "1"), RejectCode.SCHEMA_VIOLATION),
    ("unknown seat field", mutated("seats.0.hat", "red"), RejectCode.SCHEMA_VIOLATION),
    ("stack as a number", mutated("seats.0.stack", 100.0), RejectCode.SCHEMA_VIOLATION),
    ("negative stack", mutated("seats.0.stack", "-5.00"), RejectCode.BAD_AMOUNT),
    ("amount with exponent", mutated("actions.0.amount", "5e-1"), RejectCode.BAD_AMOUNT),
    ("unknown action type", mutated("actions.2.type", "dance"), RejectCode.SCHEMA_VIOLATION),
    ("unknown blind", mutated("actions.0.blind", "huge"), RejectCode.SCHEMA_VIOLATION),
    (
        "raise without to",
        {**GOOD, "actions": [{"type": "raise", "seat": 1}]},
        RejectCode.SCHEMA_VIOLATION,
    ),
    (
        "raise with amount",
        {**GOOD, "actions": [{"type": "raise", "seat": 1, "to": "3", "amount": "2"}]},
        RejectCode.SCHEMA_VIOLATION,
    ),
    (
        "board run 4",
        {**GOOD, "actions": [{"type": "board", "cards": "Ah", "run": 4}]},
        RejectCode.SCHEMA_VIOLATION,
    ),
    (
        "bad card",
        {**GOOD, "actions": [{"type": "deal", "seat": 1, "cards": "AhKdQx2s"}]},
        RejectCode.BAD_CARD,
    ),
    (
        "lowercase rank",
        {**GOOD, "actions": [{"type": "deal", "seat": 1, "cards": "ahKd"}]},
        RejectCode.BAD_CARD,
    ),
    ("bad deck", {**GOOD, "deck": "1c2c"}, RejectCode.BAD_CARD),
    ("unknown variant", mutated("game.variant", "holdem"), RejectCode.UNSUPPORTED_GAME),
    ("unknown betting", mutated("game.betting", "spread-limit"), RejectCode.UNSUPPORTED_GAME),
    ("seven hole cards", mutated("game.hole_cards", 7), RejectCode.UNSUPPORTED_GAME),
    (
        "courchevel with four cards",
        mutated("game.variant", "courchevel"),
        RejectCode.UNSUPPORTED_GAME,
    ),
    (
        "limit without bet sizes",
        mutated("game.betting", "fixed-limit"),
        RejectCode.SCHEMA_VIOLATION,
    ),
    ("unit of five cents", mutated("game.unit", "0.05"), RejectCode.BAD_AMOUNT),
    ("lowercase currency", mutated("game.currency", "usd"), RejectCode.SCHEMA_VIOLATION),
    ("naive timestamp", mutated("started_at", "2026-01-02T03:04:05"), RejectCode.BAD_TIMESTAMP),
    ("date only", mutated("started_at", "2026-01-02"), RejectCode.BAD_TIMESTAMP),
    (  # the writer's form, but a digit that is not ASCII: the form's check reads 0-9 only
        "a full-width digit",
        mutated("started_at", "\uff12026-01-02T03:04:05Z"),
        RejectCode.BAD_TIMESTAMP,
    ),
    ("unknown result field", mutated("result.winner", 2), RejectCode.SCHEMA_VIOLATION),
    (
        "collection without seat",
        mutated("result.collected", [{"amount": "1.00"}]),
        RejectCode.SCHEMA_VIOLATION,
    ),
    ("boolean as text", mutated("seats.0.sitting_out", "yes"), RejectCode.SCHEMA_VIOLATION),
]

# null for an optional field: the schema allows a value or nothing, and null is neither; read
# as "absent" it would be a repair (a null ante become no ante, a null result no result).
_TOURNAMENT = {"id": "T-1", "level": "I", "buyin": "$5", "currency": "USD", "unit": "0.01"}
_BOARD = {"type": "board", "cards": "Ah2c3d", "run": 1, "burn": "4s"}
NULLS: list[tuple[str, dict[str, Any]]] = [
    *((name, mutated(name, None)) for name in ["table", "started_at", "result"]),
    *((name, {**GOOD, name: None}) for name in ["tournament", "deck", "hero"]),
    *(
        (f"game.{name}", mutated(f"game.{name}", None))
        for name in ["small_bet", "big_bet", "ante", "max_seats", "mixed"]
    ),
    ("seats.0.bounty", mutated("seats.0.bounty", None)),
    *((f"result.{name}", mutated(f"result.{name}", None)) for name in ["rake", "total_pot"]),
    ("result.added", mutated("result.added", None)),
    ("result.collected.0.run", mutated("result.collected.0.run", None)),
    (
        "result.cash_outs.0.fee",
        mutated("result.cash_outs", [{"seat": 2, "amount": "1", "fee": None}]),
    ),
    *(
        (f"tournament.{name}", {**GOOD, "tournament": {**_TOURNAMENT, name: None}})
        for name in ["level", "buyin", "currency", "unit"]
    ),
    *((f"board.{name}", {**GOOD, "actions": [{**_BOARD, name: None}]}) for name in ["run", "burn"]),
    ("muck.cards", {**GOOD, "actions": [{"type": "muck", "seat": 1, "cards": None}]}),
]


@pytest.mark.parametrize(("name", "obj"), NULLS, ids=[n for n, _ in NULLS])
def test_null_for_an_optional_field_is_rejected_by_both_schema_and_reader(
    name: str, obj: dict[str, Any]
) -> None:
    assert not VALIDATOR.is_valid(obj), f"the schema accepts null for {name}"
    [item] = _items(_line(obj))
    assert isinstance(item, Reject), f"the reader reads null for {name} as absent"
    assert item.code is RejectCode.SCHEMA_VIOLATION, item.message


# Lines the schema accepts but the reader must refuse: what JSON Schema cannot express.
BEYOND_SCHEMA: list[tuple[str, dict[str, Any], RejectCode]] = [
    ("more decimals than the unit", mutated("seats.0.stack", "100.005"), RejectCode.BAD_AMOUNT),
    ("impossible date", mutated("started_at", "2026-02-30T00:00:00Z"), RejectCode.BAD_TIMESTAMP),
    (  # in UTC this is the year 0, which no date holds: a reject, not an OverflowError
        "before the first year in UTC",
        mutated("started_at", "0001-01-01T00:30:00+01:00"),
        RejectCode.BAD_TIMESTAMP,
    ),
    (
        "after the last year in UTC",
        mutated("started_at", "9999-12-31T23:30:00-01:00"),
        RejectCode.BAD_TIMESTAMP,
    ),
    ("a leap second", mutated("started_at", "2016-12-31T23:59:60Z"), RejectCode.BAD_TIMESTAMP),
    ("an hour past 23", mutated("started_at", "2026-01-02T24:00:00Z"), RejectCode.BAD_TIMESTAMP),
    (
        "a seat cashing out twice",  # one cash-out a seat (R9.cash-out): which would count?
        mutated(
            "result.cash_outs",
            [{"seat": 2, "amount": "1.00"}, {"seat": 2, "amount": "2.00", "fee": "0.10"}],
        ),
        RejectCode.SCHEMA_VIOLATION,
    ),
]


def _line(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode()


def _items(data: bytes) -> list[HandRecord | Reject]:
    return list(read_jsonl_stream(io.BytesIO(data), "mem"))


def test_a_good_line_reads_as_a_hand_with_exact_money() -> None:
    [hand] = _items(_line(GOOD) + b"\n")
    assert isinstance(hand, HandRecord)
    assert hand.game.scale == 2
    assert hand.game.big_blind == 100
    assert [s.stack for s in hand.seats] == [10000, 10000]
    assert hand.result is not None and hand.result.collected[0].amount == 100
    assert hand.started_at is not None and hand.started_at.utcoffset() is not None
    assert hand.source == "mem" and hand.line == 1


def test_offsets_are_converted_to_utc() -> None:
    [hand] = _items(_line(mutated("started_at", "2026-01-02T03:04:05+02:00")))
    assert isinstance(hand, HandRecord)
    assert encode_hand(hand).count(b'"started_at":"2026-01-02T01:04:05Z"') == 1


@pytest.mark.parametrize(
    ("name", "obj", "code"), SCHEMA_BREAKERS, ids=[c[0] for c in SCHEMA_BREAKERS]
)
def test_schema_breakers_are_rejected_by_both_schema_and_reader(
    name: str, obj: object, code: RejectCode
) -> None:
    assert not VALIDATOR.is_valid(obj), f"the schema accepts {name}"
    [item] = _items(_line(obj))
    assert isinstance(item, Reject), f"the reader accepts {name}"
    assert item.code is code, item.message


@pytest.mark.parametrize(("name", "obj", "code"), BEYOND_SCHEMA, ids=[c[0] for c in BEYOND_SCHEMA])
def test_what_the_schema_cannot_say_the_reader_still_rejects(
    name: str, obj: dict[str, Any], code: RejectCode
) -> None:
    assert VALIDATOR.is_valid(obj)
    [item] = _items(_line(obj))
    assert isinstance(item, Reject) and item.code is code, name


class _Refuses:
    """A decoder that reads nothing: stands in for the one-decode reading to turn it off."""

    def decode(self, raw: bytes) -> object:
        raise msgspec.DecodeError("turned off")


_EVERY_LINE = [
    _line(GOOD),
    *(_line(obj) for _, obj, _ in SCHEMA_BREAKERS),
    *(_line(obj) for _, obj in NULLS),
    *(_line(obj) for _, obj, _ in BEYOND_SCHEMA),
    _line({**GOOD, "_note": {"a": 1}}),
    _line({**GOOD, "_note": "x", "flavour": 1}),
    _line(GOOD).replace(b'"table"', b'"\\u005fnote": 1, "table"'),  # "_note", escaped
    _line(GOOD).replace(b'"table"', b'"hand_id": "G-2", "table"'),  # hand_id twice
    _line(mutated("table", "_under")),  # '"_' in a value, not a key
    _line(GOOD)[:-9],  # cut short
    b"[]",
    b"{",
]


@pytest.mark.parametrize("complete", [True, False])
def test_one_decode_reads_every_line_as_the_full_reading_does(
    complete: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a line with no extra field is read in one decode; any other takes the full reading,
    # which names unknown fields and keeps the extras: the two must never disagree
    lines = [*_EVERY_LINE, *(encode_hand(h) for h in generate_hands(40, seed=5, faults=0.3))]
    fast = [decode_line(raw, "mem", 1, complete=complete) for raw in lines]
    monkeypatch.setattr(jsonl, "_HAND_ONLY_DECODER", _Refuses())
    full = [decode_line(raw, "mem", 1, complete=complete) for raw in lines]
    assert fast == full
    assert sum(isinstance(item, HandRecord) for item in full) >= 40


def _read_both(
    raw: bytes, monkeypatch: pytest.MonkeyPatch, complete: bool = True
) -> tuple[HandRecord | Reject, HandRecord | Reject]:
    """Return a line read with the writer's form first, and read by the decoder only."""
    monkeypatch.setattr(jsonl, "WRITERS_FORM", True)
    first = decode_line(raw, "mem", 1, complete=complete)
    monkeypatch.setattr(jsonl, "WRITERS_FORM", False)
    return first, decode_line(raw, "mem", 1, complete=complete)


def _writers_lines() -> list[bytes]:
    """Lines as the writer writes them: every game, violations, the samples' hands."""
    played = [*generate_hands(60, seed=11, faults=0.3), *generate_hands(30, seed=12)]
    samples = [item for path in SAMPLES for item in read_jsonl(path)]
    return [encode_hand(h) for h in played + samples if isinstance(h, HandRecord)]


@pytest.mark.parametrize("complete", [True, False])
def test_the_writers_form_reads_every_line_as_the_decoder_does(
    complete: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the writer's lines (and the samples as written by hand, "pot":0 and all) are read
    # without the decoder, as it would read them; any other line is left to it
    written = _writers_lines()
    by_hand = [line for path in SAMPLES for line in path.read_bytes().split(b"\n") if line]
    for raw in [*_EVERY_LINE, *written, *by_hand]:
        first, decoded = _read_both(raw, monkeypatch, complete)
        assert first == decoded
    for raw in written + by_hand:
        hand = jsonl._writers_record(raw, "mem", 1)
        left = b'"bount' in raw or b'"cash_outs"' in raw or b',"_' in raw or b"\\" in raw
        assert isinstance(hand, HandRecord) or left
    assert sum(jsonl._writers_record(raw, "mem", 1) is not None for raw in written) > 60


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_the_writers_form_of_any_hand_reads_as_the_decoder_reads_it(hand: HandRecord) -> None:
    line = encode_hand(hand)
    first = jsonl._writers_record(line, "mem", 1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonl, "WRITERS_FORM", False)
        decoded = decode_line(line, "mem", 1)
    assert first is None or first == decoded
    left = b'"bount' in line or b'"cash_outs"' in line or b"\\" in line  # to the decoder
    if not hand.extras and not left:
        assert first is not None  # the writer's own line is read without the decoder


_DAMAGE = b'"\\{}[],: 0129.-eftnuAh?\x00\x1f\x7f\x80\xc3\xff'
"""Bytes put in a line by the damage test: JSON's own, digits, letters, controls, and bytes
that are not UTF-8 or start a sequence."""


def test_a_damaged_line_is_read_as_the_decoder_reads_it_or_left_to_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # whatever a byte changed, put in or taken out makes of a line in the writer's form,
    # the reading without the decoder agrees with the decoder, or leaves the line to it
    rng = random.Random(3)
    lines = [encode_hand(h) for h in generate_hands(40, seed=13, faults=0.2)]
    read = left = 0
    for line in lines:
        for _ in range(60):
            data = bytearray(line)
            at = rng.randrange(len(data))
            what = rng.randrange(3)
            if what == 0:
                data[at] = rng.choice(_DAMAGE)
            elif what == 1:
                data.insert(at, rng.choice(_DAMAGE))
            else:
                del data[at]
            raw = bytes(data)
            first = jsonl._writers_record(raw, "mem", 1)
            if first is None:
                left += 1
                continue
            monkeypatch.setattr(jsonl, "WRITERS_FORM", False)
            assert first == decode_line(raw, "mem", 1), raw
            read += 1
    assert read > 100 and left > 100  # both ways were taken


@pytest.mark.parametrize(
    ("old", "new", "read"),
    [
        (b'"pot":1}', b'"pot":1,"pot":2}', False),  # a repeated key
        (b'"seat":1,"player"', b'"seat":1,"seat":2,"player"', False),
        (b'{"seat":2,"amount"', b'{"seat":2,"seat":2,"amount"', False),
        (b'"player":"Ann"', b'"player":"A\\u006en"', False),  # an escape
        (b'"player":"Ann"', b'"player": "Ann"', False),  # a blank
        (b'"Ann","stack":"100.00"', b'"Ann","stack":"100.000"', False),  # not plainly
        (b'"Ann","stack":"100.00"', b'"Ann","stack":"100"', True),
        (b'"button":1', b'"button":1.0', False),
        (b'"button":1', b'"button":01', False),
        (b'"button":1', b'"button":1000001', False),
        (b'"type":"fold","seat":1}', b'"type":"fold","seat":1,"all_in":false}', False),
        (b'"amount":"1.00"}', b'"amount":"1.00","all_in":false}', True),  # a default
        (b'"pot":1}', b'"pot":0}', True),
        (b'"blind":"small"', b'"blind":"smal"', False),
        (b'"cards":"AhKdQc2s"', b'"cards":"AhKdQc2"', False),
        (b'"cards":"AhKdQc2s"', b'"cards":"Ah Kd Qc 2s"', False),
        (b'"cards":"AhKdQc2s"', b'"cards":"??????2s"', True),
        (b'"table":"T1"', b'"table":""', True),
        (b'"hand_id":"G-1"', b'"hand_id":""', False),
    ],
)
def test_the_writers_form_is_read_exactly_as_it_is_written(
    old: bytes, new: bytes, read: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = {
        **GOOD,
        "actions": [
            *GOOD["actions"][:2],
            {"type": "deal", "seat": 1, "cards": "AhKdQc2s"},
            *GOOD["actions"][2:],
        ],
        "result": {"collected": [{"seat": 2, "amount": "1.50", "pot": 1}]},
    }
    line = msgspec.json.encode(msgspec.json.decode(_line(good)))  # no blanks
    assert jsonl._writers_record(line, "mem", 1) is not None
    assert line.count(old) == 1
    changed = line.replace(old, new)
    hand = jsonl._writers_record(changed, "mem", 1)
    assert (hand is not None) is read
    first, decoded = _read_both(changed, monkeypatch)
    assert first == decoded


@given(
    st.lists(st.sampled_from([*range(52), UNKNOWN]), max_size=60),
    st.booleans(),
    st.integers(0, 60),
)
def test_cards_written_together_read_back_whatever_their_number(
    cards: list[int], spaced: bool, at: int
) -> None:
    text = format_cards(cards, " " if spaced else "")
    assert jsonl._cards(text, "$.deck") == tuple(cards)
    together = format_cards(cards, "")
    cut = 2 * min(at, len(cards))  # not a card at any place of the run
    wrong = [together[:cut] + odd + together[cut:] for odd in ("1c", "Kx", "?c", "c?")]
    for bad in (text + "A", text + "Ax", "1c" + text, "\u0100c" + text, "?c" + text, *wrong):
        # a card too many, or not a card
        with pytest.raises(jsonl._FieldError):
            jsonl._cards(bad, "$.deck")


def test_rejects_name_the_field() -> None:
    [item] = _items(_line(mutated("seats.0.stack", "100.005")))
    assert isinstance(item, Reject)
    assert item.field == "$.seats[0].stack"
    assert "$.seats[0].stack" in item.message
    assert item.hand_id == "G-1"
    [item] = _items(_line(mutated("seats.0.seat", "1")))
    assert isinstance(item, Reject) and item.field == "$.seats[0].seat"


def test_the_garbage_file_is_accounted_for_line_by_line(tmp_path: Path) -> None:
    big = {**GOOD, "table": "x" * (10 * 1024 * 1024)}
    lines: list[tuple[bytes, RejectCode | None]] = [
        (b"\xef\xbb\xbf" + _line(GOOD), None),  # a BOM before the first hand
        (b"", None),  # blank lines are skipped
        (b"   ", None),
        (_line(mutated("hand_id", "G-2")), None),
        (b'{"hand_id": "G-3", "site": "Te', RejectCode.MALFORMED_JSON),  # truncated mid-file
        (b"[1, 2, 3]", RejectCode.SCHEMA_VIOLATION),
        (b"null", RejectCode.SCHEMA_VIOLATION),
        (b"\xff\xfe{not utf-8}", RejectCode.BAD_ENCODING),
        (
            _line(mutated("hand_id", "caf\u00e9")).replace("é".encode(), b"\xe9"),
            RejectCode.BAD_ENCODING,
        ),
        (_line(big), None),  # a 10 MB line is long but legal
        (b"{}", RejectCode.SCHEMA_VIOLATION),
        (b"\x00\x00\x00", RejectCode.MALFORMED_JSON),
    ]
    lines += [(_line(obj), code) for _, obj, code in SCHEMA_BREAKERS]
    lines += [(_line(obj), code) for _, obj, code in BEYOND_SCHEMA]
    lines.append((b'{"hand_id": "G-9", "site": "T", "game": {', RejectCode.TRUNCATED_HAND))
    data = b"\n".join(line for line, _ in lines)  # the last line has no newline: cut off
    path = tmp_path / "garbage.jsonl"
    path.write_bytes(data)

    items = list(read_jsonl(path))
    expected = [
        (number, code)
        for number, (line, code) in enumerate(lines, start=1)
        if line.strip() and line.strip() != b"\xef\xbb\xbf"
    ]
    got = [(item.line, item.code if isinstance(item, Reject) else None) for item in items]
    assert got == expected
    assert all(item.source == str(path) for item in items)
    hands = [item for item in items if isinstance(item, HandRecord)]
    assert [h.hand_id for h in hands] == ["G-1", "G-2", "G-1"]
    assert len(hands[2].table or "") == 10 * 1024 * 1024


def test_an_over_long_line_is_rejected_without_stopping(tmp_path: Path) -> None:
    data = _line(GOOD) + b"\n" + b"x" * 5000 + b"\n" + _line(mutated("hand_id", "after"))
    items = list(read_jsonl_stream(io.BytesIO(data), "mem", max_line_bytes=1000))
    assert [type(i).__name__ for i in items] == ["HandRecord", "Reject", "HandRecord"]
    reject = items[1]
    assert isinstance(reject, Reject)
    assert reject.code is RejectCode.LINE_TOO_LONG and reject.line == 2
    assert "5001 bytes" in reject.message
    assert len(reject.excerpt) <= 160


def test_a_byte_order_mark_does_not_count_toward_the_line_limit() -> None:
    line = _line(GOOD)
    data = b"\xef\xbb\xbf" + line + b"\n" + line + b"\n"
    items = list(read_jsonl_stream(io.BytesIO(data), "mem", max_line_bytes=len(line)))
    assert [(type(i).__name__, getattr(i, "line", None)) for i in items] == [
        ("HandRecord", 1),
        ("HandRecord", 2),
    ]


def test_underscore_fields_are_kept_and_written_back() -> None:
    injected = {**GOOD, "_injected": {"code": "call-wrong-amount", "seq": 3}, "_note": "hi"}
    [hand] = _items(_line(injected))
    assert isinstance(hand, HandRecord)
    assert dict(hand.extras) == {
        "_injected": b'{"code": "call-wrong-amount", "seq": 3}',
        "_note": b'"hi"',
    }
    encoded = json.loads(encode_hand(hand))
    assert encoded["_injected"] == {"code": "call-wrong-amount", "seq": 3}
    assert encoded["_note"] == "hi"


@pytest.mark.parametrize(
    "value",
    [
        b'"caf\xe9"',  # latin-1 text in a field the reader does not interpret
        b'{"note": "\xc3"}',  # a UTF-8 sequence cut short, nested
    ],
)
def test_an_underscore_field_that_is_not_utf8_is_a_bad_encoding_reject(value: bytes) -> None:
    # kept, it could not be written back (the writer failed) nor stored as it was read
    line = _line(GOOD)[:-1] + b', "_note": ' + value + b"}"
    [item] = _items(line + b"\n")
    assert isinstance(item, Reject), "bytes that are not UTF-8 were kept as a hand's extra"
    assert item.code is RejectCode.BAD_ENCODING and item.field == "$._note"
    assert item.hand_id == "G-1"


@pytest.mark.parametrize(
    "value",
    [
        b"123456789012345678901234567890",  # beyond int64 and uint64
        b"0.1000000000000000055511151231257827",  # more digits than a float holds
        b"1e400",  # beyond a float
        b"2.50",
        b'{"a":1,"a":2}',  # a repeated name: both kept, as written
        rb'"\u00e9\n"',  # escapes stay escapes
    ],
)
def test_underscore_fields_are_written_back_as_they_were_read(value: bytes) -> None:
    # '_' fields are kept and never interpreted: the writer gives back their text (compact)
    [hand] = _items(_line(GOOD)[:-1] + b', "_note": ' + value + b"}")
    assert isinstance(hand, HandRecord)
    line = encode_hand(hand)
    assert line.endswith(b',"_note":' + value + b"}")
    assert decode_line(line, "mem", 1) == hand


@pytest.mark.parametrize("extra", [b"", b', "_note": {"a": 1}'])
@pytest.mark.parametrize(
    ("old", "new", "field", "values"),
    [
        (
            b'"big", "amount": "1.00"}',
            b'"big", "amount": "1.00", "amount": "9.00"}',
            "$.actions[1].amount",
            '"1.00", "9.00"',
        ),
        (b'"seat": 1, "player"', b'"seat": 1, "seat": 3, "player"', "$.seats[0].seat", "1, 3"),
        (b'"table": "T1"', b'"table": "T1", "table": "T2"', "$.table", "T1"),
        (
            b'"variant": "omaha"',
            b'"variant": "omaha", "variant": "omaha"',
            "$.game.variant",
            "omaha",
        ),
    ],
)
def test_a_repeated_key_is_a_schema_violation_naming_it(
    old: bytes, new: bytes, field: str, values: str, extra: bytes
) -> None:
    # msgspec keeps the last value and says nothing: the line is refused, not read either way
    line = _line(GOOD)[:-1] + extra + b"}"
    assert line.count(old) == 1
    [item] = _items(line.replace(old, new) + b"\n")
    assert isinstance(item, Reject)
    assert item.code is RejectCode.SCHEMA_VIOLATION and item.field == field
    assert "times (values " in item.message and values in item.message
    assert item.hand_id == "G-1"


def test_a_repeated_hand_id_or_extra_field_is_refused_too() -> None:
    line = _line(GOOD)[:-1] + b', "_note": 1, "_note": 2}'
    [item] = _items(line + b"\n")
    assert isinstance(item, Reject) and item.field == "$._note" and item.hand_id == "G-1"
    line = _line(GOOD).replace(b'"hand_id": "G-1"', b'"hand_id": "G-1", "hand_id": "G-2"')
    [item] = _items(line + b"\n")
    assert isinstance(item, Reject) and item.field == "$.hand_id"
    assert item.hand_id is None  # which of the two is the hand's cannot be told


def test_a_repeated_key_is_found_in_any_form_of_the_line() -> None:
    # in the writer's own form (where the line's quick check, encoding it again, differs
    # from it), spaced out, or with the key's letters escaped
    canonical = encode_hand(next(iter(generate_hands(1, seed=4))))
    assert canonical.count(b'"player":') >= 2
    for line in (
        canonical.replace(b'"player":', b'"player":"X","player":', 1),
        canonical.replace(b'"player":', b'"player" : "X" , "player" :', 1),
        canonical.replace(b'"player":', b'"player":"X","pl\\u0061yer":', 1),
    ):
        [item] = _items(line + b"\n")
        assert isinstance(item, Reject) and item.code is RejectCode.SCHEMA_VIOLATION
        assert item.field == "$.seats[0].player"
    assert isinstance(decode_line(canonical, "mem", 1), HandRecord)


def test_lines_written_otherwise_than_the_writer_read_as_its_own() -> None:
    # the repeated-key check reads again only what the writer would not have written so
    hands = generate_hands(20, seed=9)
    for hand in hands:
        canonical = encode_hand(hand)
        spaced = json.dumps(json.loads(canonical), indent=1).replace("\n", " ").encode()
        assert spaced != canonical
        assert decode_line(spaced, "mem", 1) == decode_line(canonical, "mem", 1)


def test_the_writer_drops_only_the_blanks_between_an_underscore_fields_tokens() -> None:
    raw = b'{ "a" : [1, 2.50],\t"b c": "x , y \\" z" }'
    [hand] = _items(_line(GOOD)[:-1] + b', "_note": ' + raw + b"}")
    assert isinstance(hand, HandRecord)
    assert encode_hand(hand).endswith(b',"_note":{"a":[1,2.50],"b c":"x , y \\" z"}}')


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_hands_round_trip_through_the_canonical_line(hand: HandRecord) -> None:
    line = encode_hand(hand)
    back = decode_line(line, "test", 1)
    assert back == hand
    assert isinstance(back, HandRecord)
    assert encode_hand(back) == line


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_everything_the_writer_writes_the_schema_accepts(hand: HandRecord) -> None:
    obj = json.loads(encode_hand(hand))
    errors = list(VALIDATOR.iter_errors(obj))
    # The one rule a random record may break: Courchevel deals five cards (strategy keeps it).
    assert errors == []


def test_write_jsonl_writes_one_line_per_hand() -> None:
    [hand] = _items(_line(GOOD))
    assert isinstance(hand, HandRecord)
    out = io.BytesIO()
    assert write_jsonl([hand, hand], out) == 2
    assert out.getvalue().count(b"\n") == 2


def test_amounts_parsed_once_are_read_again_at_their_own_scale() -> None:
    # the decoder keeps amounts it has parsed; the same text at another unit is another amount
    cents = decode_line(json.dumps(GOOD).encode(), "t", 1)
    whole_units = mutated("game.unit", "1")
    for field, value in (("small_blind", "1"), ("big_blind", "2")):
        whole_units["game"][field] = value
    whole_units["seats"][0]["stack"] = whole_units["seats"][1]["stack"] = "100"
    whole_units["actions"][0]["amount"], whole_units["actions"][1]["amount"] = "1", "2"
    whole_units["actions"][3]["amount"] = "1"
    whole_units["result"]["collected"][0]["amount"] = "2"
    chips = decode_line(json.dumps(whole_units).encode(), "t", 2)
    assert isinstance(cents, HandRecord) and isinstance(chips, HandRecord)
    assert cents.seats[0].stack == 10_000 and chips.seats[0].stack == 100
    # a bad amount is rejected however many good ones came before it
    for _ in range(2):
        bad = decode_line(json.dumps(mutated("seats.0.stack", "100.005")).encode(), "t", 3)
        assert isinstance(bad, Reject) and bad.code is RejectCode.BAD_AMOUNT


_AMOUNT_TEXT = st.one_of(
    st.text(alphabet="0123456789.-", max_size=24),  # mostly digits and points
    st.builds(lambda whole, frac: f"{whole}.{frac}", st.integers(0, 10**20), st.integers(0, 10**9)),
    st.integers(0, 10**21).map(str),
    st.text(max_size=6),  # anything at all: spaces, signs, other digits
)


@settings(max_examples=1000)
@given(_AMOUNT_TEXT, st.integers(0, 8))
def test_amounts_read_as_parse_amount_reads_them(text: str, scale: int) -> None:
    """The loop for plainly written amounts gives parse_amount's value, and leaves every
    other text to it (which says what is wrong)."""
    try:
        expected: int | None = parse_amount(text, scale)
    except AmountError:
        expected = None
    plain = jsonl._plain_units(text, scale)
    assert plain == -1 or plain == expected
    if expected is None:
        with pytest.raises(jsonl._FieldError, match=r"^\$\.x: "):
            jsonl._amount(text, scale, "$.x")
    else:
        assert jsonl._amount(text, scale, "$.x") == expected


@pytest.mark.parametrize(
    ("text", "scale", "units"),
    [
        ("0", 2, 0),
        ("12.5", 2, 1250),
        ("7", 0, 7),
        ("0.01", 2, 1),
        ("999999999999999999", 0, 10**18 - 1),
    ],
)
def test_plain_amounts_take_the_fast_path(text: str, scale: int, units: int) -> None:
    assert jsonl._plain_units(text, scale) == units


@pytest.mark.parametrize(
    ("text", "scale"),
    [
        ("1.500", 2),
        ("0.005", 2),
        ("12.", 2),
        (".5", 2),
        ("1..2", 2),
        ("-1", 2),
        ("1000000000000000000", 0),
        ("9223372036854775808", 0),  # beyond 64 bits
        ("9999999999999999999", 0),
        ("10000000000000000", 2),
        ("", 0),
    ],
)
def test_other_amounts_are_left_to_parse_amount(text: str, scale: int) -> None:
    assert jsonl._plain_units(text, scale) == -1


def test_a_line_that_is_not_a_json_object_asks_whether_the_file_is_a_hand_log() -> None:
    notes = decode_line(b"notes for Tuesday", "notes.txt", 1)
    assert isinstance(notes, Reject) and notes.code is RejectCode.MALFORMED_JSON
    assert notes.message.endswith("; a hand log line is one JSON object (is this file a hand log?)")
    broken = decode_line(b'{"hand_id": "1",, }', "hands.jsonl", 2)
    assert isinstance(broken, Reject) and broken.code is RejectCode.MALFORMED_JSON
    assert "hand log?" not in broken.message  # a broken hand, not another kind of file


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("0999-06-01T12:00:00Z", "0999-06-01T12:00:00Z"),
        ("1000-01-01T00:30:00+01:00", "0999-12-31T23:30:00Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
    ],
)
def test_a_year_before_1000_is_written_with_four_digits(written: str, canonical: str) -> None:
    (hand,) = _items(_line(mutated("started_at", written)))
    assert isinstance(hand, HandRecord)
    line = encode_hand(hand)
    assert json.loads(line)["started_at"] == canonical
    (again,) = _items(line)  # read back: the same hand, not a bad-timestamp reject
    assert isinstance(again, HandRecord) and again.started_at == hand.started_at
