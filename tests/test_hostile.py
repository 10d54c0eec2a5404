"""Hostile values, through the readers and through ``croupier run``.

Each case checks the reject code and message a reader gives, and that a run over the same
input rejects that hand, ingests the others and commits. Environment problems (an input
that cannot be opened, or vanishes) stop a run with exit 3 and leave the lake as it was;
what a directory search cannot use (a symbolic-link loop, a broken link, a FIFO) is
reported and passed over. CI runs as root, so nothing here relies on file modes.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import pipeline.run
from pipeline.check import check_paths, discover
from pipeline.cli import app, main
from pipeline.formats import limits, read_hands
from pipeline.formats.jsonl import decode_line, read_jsonl, read_jsonl_stream
from pipeline.formats.limits import (
    MAX_ACTIONS,
    MAX_AMOUNT,
    MAX_HAND_MONEY,
    MAX_LINE_BYTES,
    MAX_SEAT,
    MAX_SEATS,
)
from pipeline.lake.manifest import load_manifest
from pipeline.model import CashOut, Collection, HandRecord, SeatAmount, Status
from pipeline.violations import Code, Reject, RejectCode
from tests.strategies import hands
from tests.test_fuzz_readers import time_limit

FIXTURES = Path(__file__).resolve().parent / "fixtures"
runner = CliRunner()

HAND: dict[str, Any] = {
    "hand_id": "H-1",
    "site": "Croupier",
    "table": "Alpha",
    "started_at": "2026-01-05T20:00:00Z",
    "game": {
        "variant": "omaha",
        "hole_cards": 4,
        "betting": "no-limit",
        "small_blind": "1",
        "big_blind": "2",
        "currency": "CHIPS",
        "unit": "1",
    },
    "button": 1,
    "seats": [
        {"seat": 1, "player": "Ann", "stack": "1000000"},
        {"seat": 2, "player": "Bob", "stack": "1000000"},
    ],
    "actions": [
        {"type": "post", "seat": 1, "blind": "small", "amount": "1"},
        {"type": "post", "seat": 2, "blind": "big", "amount": "2"},
        {"type": "raise", "seat": 1, "to": "6"},
        {"type": "fold", "seat": 2},
        {"type": "uncalled", "seat": 1, "amount": "4"},
    ],
    "result": {"rake": "0", "collected": [{"seat": 1, "amount": "4"}]},
}
"""A heads-up hand that settles cleanly: Ann raises, Bob folds."""


def hand(hand_id: str = "H-1", **changes: Any) -> dict[str, Any]:
    """Return a copy of :data:`HAND` with another id and top-level fields replaced."""
    record = copy.deepcopy(HAND)
    record["hand_id"] = hand_id
    record.update(changes)
    return record


def jsonl(*records: dict[str, Any] | bytes) -> bytes:
    """Return JSON Lines: dicts are encoded, bytes kept as one line each."""
    lines = [r if isinstance(r, bytes) else json.dumps(r).encode() for r in records]
    return b"\n".join(lines) + b"\n"


def read(data: bytes) -> list[HandRecord | Reject]:
    return list(read_jsonl_stream(io.BytesIO(data), "hostile.jsonl"))


def only_reject(items: list[HandRecord | Reject]) -> Reject:
    rejects = [item for item in items if isinstance(item, Reject)]
    assert len(rejects) == 1, items
    return rejects[0]


def lake_run(*args: str, lake: Path) -> dict[str, Any]:
    """Run ``croupier run`` in-process on one worker; return its JSON summary."""
    result = runner.invoke(
        app, ["run", *args, "--out", str(lake), "--workers", "1", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.stdout)
    return summary


def lake_rejects(lake: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for relative in load_manifest(lake).files_of("rejects"):
        rows += pq.read_table(lake / relative).to_pylist()
    return rows


def lake_hand_ids(lake: Path) -> list[str]:
    ids: list[str] = []
    for relative in load_manifest(lake).files_of("hands"):
        ids += pq.read_table(lake / relative, columns=["hand_id"])["hand_id"].to_pylist()
    return sorted(ids)


def committed(lake: Path) -> tuple[bytes, list[str]]:
    """Return what a reader of the lake sees: the manifest and the table files."""
    manifest = lake / "_manifest.json"
    files = sorted(
        str(p.relative_to(lake)) for p in lake.rglob("*.parquet") if "_staging" not in p.parts
    )
    return (manifest.read_bytes() if manifest.exists() else b""), files


def test_the_base_hand_is_good() -> None:
    [item] = read(jsonl(hand()))
    assert isinstance(item, HandRecord)
    [verdict] = check_paths_of([item])
    assert verdict.status is Status.OK


def check_paths_of(items: list[HandRecord | Reject]) -> list[Any]:
    from pipeline.check import _judge
    from pipeline.rules import STANDARD

    return list(_judge(items, STANDARD))


# ---------------------------------------------------------------- huge numbers


@pytest.mark.parametrize(
    ("path", "value", "field", "words"),
    [
        (("seats", 0, "stack"), "9" * 25, "$.seats[0].stack", "beyond the limit"),
        (("seats", 0, "stack"), "9" * 31, "$.seats[0].stack", "amount too large"),
        (("actions", 2, "to"), "99999999999999999999", "$.actions[2].to", "beyond the limit"),
        (
            ("result", "collected", 0, "amount"),
            "1" + "0" * 18,
            "$.result.collected[0].amount",
            "beyond",
        ),
        (("game", "big_blind"), "9223372036854775808", "$.game.big_blind", "beyond the limit"),
    ],
)
def test_amounts_beyond_int64_are_bad_amount(
    path: tuple[Any, ...], value: str, field: str, words: str, tmp_path: Path
) -> None:
    record = hand("BIG")
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    data = jsonl(hand("OK-1"), record, hand("OK-2"))
    reject = only_reject(read(data))
    assert reject.code is RejectCode.BAD_AMOUNT
    assert reject.field == field
    assert words in reject.message
    assert reject.hand_id == "BIG"
    (tmp_path / "big.jsonl").write_bytes(data)
    summary = lake_run(str(tmp_path / "big.jsonl"), lake=tmp_path / "lake")
    assert (summary["hands"], summary["rejects"]) == (2, 1)
    [row] = lake_rejects(tmp_path / "lake")
    assert (row["code"], row["line"], row["field"]) == ("bad-amount", 2, field)


def test_amounts_adding_up_beyond_the_hand_limit_are_bad_amount() -> None:
    seats = [{"seat": n, "player": f"P{n}", "stack": "1000000000000000"} for n in range(1, 101)]
    [item] = read(jsonl(hand("SUM", seats=seats)))
    assert isinstance(item, Reject)
    assert item.code is RejectCode.BAD_AMOUNT
    assert item.field == "$"
    total = 100 * 10**15 + (1 + 2) * 2 + 6 + 4 + 4  # stacks, stakes and posts, raise, uncalled, won
    assert item.message == (
        f"the hand's amounts add up to {total} units, beyond the limit of {10**17}"
    )


@pytest.mark.parametrize(
    ("fmt", "name", "pattern"),
    [
        ("pokerstars", "pokerstars/zoom.txt", rb"(?<=Seat 1: Alice \(\$)10(?= in chips)"),
        ("phh", "phh/extensions.phhs", rb"(?<=starting_stacks = \[)13\.88"),
        ("ohh", "ohh/omaha_pl.ohh", rb'(?<="starting_stack": )10\.00'),
    ],
)
def test_huge_stacks_in_other_formats_are_bad_amount(
    fmt: str, name: str, pattern: bytes, tmp_path: Path
) -> None:
    original = (FIXTURES / name).read_bytes()
    damaged, n = re.subn(pattern, b"9" * 25, original, count=1)
    assert n == 1
    path = tmp_path / Path(name).name
    path.write_bytes(damaged)
    before = list(read_hands(FIXTURES / name, input_format=fmt))
    after = list(read_hands(path, input_format=fmt))
    assert len(after) == len(before)
    reject = only_reject(after)
    assert reject.code is RejectCode.BAD_AMOUNT
    assert "beyond the limit" in reject.message
    summary = lake_run(str(path), "--input-format", fmt, lake=tmp_path / "lake")
    assert summary["rejects"] == 1
    assert summary["hands"] == len(before) - 1


# ----------------------------------------------------------- negative amounts


@pytest.mark.parametrize(
    ("path", "field"),
    [
        (("seats", 1, "stack"), "$.seats[1].stack"),
        (("actions", 2, "to"), "$.actions[2].to"),
        (("result", "rake"), "$.result.rake"),
    ],
)
def test_negative_amounts_are_bad_amount(path: tuple[Any, ...], field: str) -> None:
    record = hand("NEG")
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "-5"
    reject = only_reject(read(jsonl(record, hand("OK"))))
    assert reject.code is RejectCode.BAD_AMOUNT
    assert reject.field == field
    assert reject.message == f"{field}: negative amount: '-5'"


def test_negative_amounts_in_phh_and_ohh_are_bad_amount(tmp_path: Path) -> None:
    phh = (FIXTURES / "phh" / "extensions.phhs").read_bytes()
    phh = phh.replace(b"starting_stacks = [13.88", b"starting_stacks = [-13.88", 1)
    ohh = (FIXTURES / "ohh" / "omaha_pl.ohh").read_bytes()
    ohh = ohh.replace(b'"starting_stack": 10.00', b'"starting_stack": -10.00', 1)
    for fmt, data in (("phh", phh), ("ohh", ohh)):
        path = tmp_path / f"negative.{fmt}"
        path.write_bytes(data)
        reject = only_reject(list(read_hands(path, input_format=fmt)))
        assert reject.code is RejectCode.BAD_AMOUNT
        assert "negative amount" in reject.message


def test_an_amount_too_large_in_ohh_says_whose_it_is(tmp_path: Path) -> None:
    ohh = (FIXTURES / "ohh" / "omaha_pl.ohh").read_bytes()
    ohh = ohh.replace(b'"starting_stack": 10.00', b'"starting_stack": 1e16', 1)
    path = tmp_path / "huge.ohh"
    path.write_bytes(ohh)
    reject = only_reject(list(read_hands(path)))
    assert reject.code is RejectCode.BAD_AMOUNT
    assert reject.message.startswith("$.seats[0].stack (seat 1, 'Hero': stack): amount of ")


# ------------------------------------------------------ 10,000 actions, 1,000 seats


def raising_war(hand_id: str, raises: int) -> dict[str, Any]:
    """A no-limit hand of min-raises back and forth, ended by a fold: legal throughout."""
    actions: list[dict[str, Any]] = copy.deepcopy(HAND["actions"][:2])
    to, seat = 2, 1
    for _ in range(raises):
        to += 2
        actions.append({"type": "raise", "seat": seat, "to": str(to)})
        seat = 3 - seat
    actions.append({"type": "fold", "seat": seat})
    actions.append({"type": "uncalled", "seat": 3 - seat, "amount": "2"})
    won = {"seat": 3 - seat, "amount": str(2 * (to - 2))}
    return hand(hand_id, actions=actions, result={"rake": "0", "collected": [won]})


def test_ten_thousand_actions_are_judged_quickly_and_one_more_is_rejected(
    tmp_path: Path,
) -> None:
    longest = raising_war("LONG", MAX_ACTIONS - 4)
    assert len(longest["actions"]) == MAX_ACTIONS
    too_long = raising_war("TOO-LONG", MAX_ACTIONS - 3)
    data = jsonl(longest, too_long, hand("OK"))
    started = time.perf_counter()
    items = read(data)
    [verdict, _, _] = check_paths_of(items)
    assert verdict.status is Status.OK, verdict.violations[:3]
    reject = only_reject(items)
    assert (reject.code, reject.field, reject.line) == (RejectCode.SCHEMA_VIOLATION, "$.actions", 2)
    assert reject.message == f"{MAX_ACTIONS + 1} actions; a hand may hold at most {MAX_ACTIONS}"
    (tmp_path / "long.jsonl").write_bytes(data)
    summary = lake_run(str(tmp_path / "long.jsonl"), lake=tmp_path / "lake")
    assert (summary["hands"], summary["rejects"]) == (2, 1)
    assert summary["statuses"] == {"ok": 2}
    assert time.perf_counter() - started < 60


def test_a_thousand_seats_are_rejected_and_eleven_are_a_violation(tmp_path: Path) -> None:
    crowd = [{"seat": n, "player": f"P{n}", "stack": "100"} for n in range(1, 1001)]
    eleven = [{"seat": n, "player": f"P{n}", "stack": "1000000"} for n in range(1, 12)]
    data = jsonl(hand("CROWD", seats=crowd), hand("ELEVEN", seats=eleven), hand("OK"))
    items = read(data)
    reject = only_reject(items)
    assert (reject.code, reject.field) == (RejectCode.SCHEMA_VIOLATION, "$.seats")
    assert reject.message == f"1000 seats listed; a hand may list at most {MAX_SEATS}"
    verdicts = check_paths_of(items)
    assert Code.TOO_MANY_PLAYERS in {v.code for v in verdicts[1].violations}
    (tmp_path / "crowd.jsonl").write_bytes(data)
    summary = lake_run(str(tmp_path / "crowd.jsonl"), lake=tmp_path / "lake")
    assert (summary["hands"], summary["rejects"]) == (2, 1)
    assert summary["violations"]["too-many-players"] == 1


def test_a_seat_number_beyond_the_limit_is_rejected() -> None:
    seats = [
        {"seat": 1, "player": "Ann", "stack": "100"},
        {"seat": 5000, "player": "B", "stack": "1"},
    ]
    reject = only_reject(read(jsonl(hand("FAR", seats=seats))))
    assert reject.code is RejectCode.SCHEMA_VIOLATION
    assert reject.message == "$.seats[1].seat: seat 5000 is outside 1-1000"


_POISON = [-1, 0, 1, 1000, 1001, MAX_AMOUNT, MAX_AMOUNT + 1, 2**63 - 1, 2**63, 10**30]


def _within_by_lists(hand: HandRecord) -> bool:
    """What ``limits._within`` tells, said plainly: every seat number from 1 to MAX_SEAT,
    every collected pot's index from 0, every amount from 0 to MAX_AMOUNT, and the sum
    of them all at most MAX_HAND_MONEY."""
    game, result = hand.game, hand.result
    seats = [hand.button, *([] if hand.hero is None else [hand.hero])]
    seats += [s.seat for s in hand.seats] + [a.seat for a in hand.actions if a.seat is not None]
    amounts = [game.small_blind, game.big_blind, game.ante]
    amounts += [x for x in (game.small_bet, game.big_bet) if x is not None]
    amounts += [s.stack for s in hand.seats]
    amounts += [s.bounty for s in hand.seats if s.bounty is not None]
    amounts += [x for a in hand.actions for x in (a.amount, a.to) if x is not None]
    if result is not None:
        entries: list[Collection | CashOut | SeatAmount] = [*result.collected, *result.cash_outs]
        entries += [*result.final_stacks, *result.bounties]
        seats += [e.seat for e in entries]
        amounts += [e.amount for e in entries] + [c.fee for c in result.cash_outs]
        amounts += [f.amount for f in result.fees] + list(result.pots)
        amounts += [result.rake or 0, result.total_pot or 0, result.added]
        if any(not 0 <= c.pot <= MAX_SEAT for c in result.collected):
            return False
    return (
        all(1 <= seat <= MAX_SEAT for seat in seats)
        and all(0 <= amount <= MAX_AMOUNT for amount in amounts)
        and sum(amounts) <= MAX_HAND_MONEY
    )


@st.composite
def _poisoned(draw: st.DrawFn) -> HandRecord:
    """A hand with perhaps one of its seat numbers, pot indexes or amounts made extreme."""
    hand = draw(hands())
    value = draw(st.sampled_from(_POISON))
    replace = msgspec.structs.replace
    where = draw(st.sampled_from(["none", "button", "seat", "stack", "action", "result"]))
    if where == "button":
        return replace(hand, button=value)
    if where in ("seat", "stack") and hand.seats:
        seats = list(hand.seats)
        i = draw(st.integers(0, len(seats) - 1))
        seats[i] = replace(seats[i], **{where if where == "seat" else "stack": value})
        return replace(hand, seats=tuple(seats))
    if where == "action" and hand.actions:
        actions = list(hand.actions)
        i = draw(st.integers(0, len(actions) - 1))
        field = draw(st.sampled_from(["seat", "amount", "to"]))
        actions[i] = replace(actions[i], **{field: value})
        return replace(hand, actions=tuple(actions))
    if where == "result" and hand.result is not None:
        result = hand.result
        field = draw(st.sampled_from(["rake", "added", "pots", "collected"]))
        if field == "pots":
            return replace(hand, result=replace(result, pots=(*result.pots, value)))
        if field == "collected" and result.collected:
            first = replace(
                result.collected[0], **{draw(st.sampled_from(["seat", "pot", "amount"])): value}
            )
            return replace(hand, result=replace(result, collected=(first, *result.collected[1:])))
        return replace(
            hand, result=replace(result, **{field if field != "collected" else "rake": value})
        )
    return hand


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_poisoned())
def test_the_quick_limits_check_agrees_with_the_plain_one(hand: HandRecord) -> None:
    # compiled, it runs on C integers: values beyond 64 bits must still read as out of range
    assert limits._within(hand) == _within_by_lists(hand)
    assert (limits._problem(hand) is None) == _within_by_lists(hand)


# ------------------------------------------------------------ duplicate hand ids


def test_duplicate_hand_ids_in_one_file_and_across_files_are_duplicates(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(jsonl(hand("D-1"), hand("D-1"), hand("D-2")))
    (tmp_path / "b.jsonl").write_bytes(jsonl(hand("D-2"), hand("D-3")))
    summary = lake_run(str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), lake=tmp_path / "lake")
    assert (summary["hands"], summary["duplicates"], summary["rejects"]) == (3, 2, 0)
    per_input = [(i["read"], i["hands"], i["duplicates"]) for i in summary["inputs"]]
    assert per_input == [(3, 2, 1), (2, 1, 1)]
    assert lake_hand_ids(tmp_path / "lake") == ["D-1", "D-2", "D-3"]


# ----------------------------------------------------------- deeply nested JSON


def test_deeply_nested_json_is_rejected_and_reading_goes_on(tmp_path: Path) -> None:
    arrays = b"[" * 100_000
    nested = b'{"hand_id": "DEEP", "_x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    data = jsonl(arrays, nested, hand("OK"))
    first, second, third = read(data)
    assert isinstance(first, Reject)
    assert (first.code, first.message) == (
        RejectCode.SCHEMA_VIOLATION,
        "Expected `object`, got `array`",
    )
    assert isinstance(second, Reject)
    assert (second.code, second.message) == (RejectCode.MALFORMED_JSON, "nested too deeply to read")
    assert isinstance(third, HandRecord)
    (tmp_path / "deep.jsonl").write_bytes(data)
    summary = lake_run(str(tmp_path / "deep.jsonl"), lake=tmp_path / "lake")
    assert (summary["hands"], summary["rejects"]) == (1, 2)


def test_deep_nesting_in_ohh_and_phh_is_one_reject(tmp_path: Path) -> None:
    ohh = tmp_path / "deep.ohh"
    good = (FIXTURES / "ohh" / "omaha_pl.ohh").read_text()
    ohh.write_text('{"ohh": {"x": ' + "[" * 100_000 + "\n\n" + good)
    first, *rest = read_hands(ohh, input_format="ohh")
    assert isinstance(first, Reject)
    assert (first.code, first.message) == (RejectCode.MALFORMED_JSON, "nested too deeply to read")
    assert len(rest) == len(list(read_hands(FIXTURES / "ohh" / "omaha_pl.ohh")))
    assert all(isinstance(item, HandRecord) for item in rest)
    phh = tmp_path / "deep.phh"
    phh.write_text("variant = 'PO'\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    [item] = read_hands(phh, input_format="phh")
    assert isinstance(item, Reject)
    assert item.code is RejectCode.MALFORMED_HAND


# ---------------------------------------------------------------- over-long line


def test_an_over_long_line_is_rejected_and_reading_goes_on(tmp_path: Path) -> None:
    long_line = b'{"hand_id": "LONG", "_pad": "' + b"x" * 5000 + b'"}'
    path = tmp_path / "long.jsonl"
    path.write_bytes(jsonl(hand("OK-1"), long_line, hand("OK-2")))
    items = list(read_jsonl(path, max_line_bytes=1000))
    assert [type(i).__name__ for i in items] == ["HandRecord", "Reject", "HandRecord"]
    reject = only_reject(items)
    assert (reject.code, reject.line) == (RejectCode.LINE_TOO_LONG, 2)
    assert reject.message == f"line of {len(long_line) + 1} bytes is longer than the limit of 1000"
    assert reject.excerpt.startswith('{"hand_id": "LONG"')


def test_run_rejects_a_line_over_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pipeline.formats.jsonl.MAX_LINE_BYTES", 1000)
    long_line = b'{"hand_id": "LONG", "_pad": "' + b"x" * 5000 + b'"}'
    (tmp_path / "long.jsonl").write_bytes(jsonl(hand("OK-1"), long_line, hand("OK-2")))
    summary = lake_run(str(tmp_path / "long.jsonl"), lake=tmp_path / "lake")
    assert (summary["hands"], summary["rejects"]) == (2, 1)
    [row] = lake_rejects(tmp_path / "lake")
    assert (row["code"], row["line"]) == ("line-too-long", 2)


def test_pokerstars_line_over_the_cap_is_one_reject(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pipeline.formats.pokerstars.MAX_LINE_BYTES", 200)
    data = (FIXTURES / "pokerstars" / "zoom.txt").read_bytes()
    damaged = data.replace(b"Seat 1: Alice", b"Seat 1: " + b"A" * 300, 1)
    reference = list(read_hands(FIXTURES / "pokerstars" / "zoom.txt", input_format="pokerstars"))
    from pipeline.formats.pokerstars import parse_pokerstars_bytes

    items = list(parse_pokerstars_bytes(damaged, "zoom.txt"))
    assert len(items) == len(reference)
    reject = only_reject(items)
    assert reject.code is RejectCode.LINE_TOO_LONG
    assert "longer than the limit of 200" in reject.message


def write_huge_line(path: Path, size: int) -> None:
    """Write a JSON line of ``size`` bytes of padding, then a good hand."""
    with path.open("wb") as out:
        out.write(b'{"hand_id": "HUGE", "_pad": "')
        for _ in range(size // (1 << 20)):
            out.write(b"x" * (1 << 20))
        out.write(b'"}\n')
        out.write(jsonl(hand("AFTER")))


def peak_of_reading(path: Path, cap: int | None = None) -> tuple[list[HandRecord | Reject], int]:
    tracemalloc.start()
    try:
        items = list(read_jsonl(path, max_line_bytes=cap))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return items, peak


def test_a_17_mib_line_is_skipped_without_being_held(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    write_huge_line(path, 17 << 20)
    items, peak = peak_of_reading(path, cap=1 << 20)
    first, second = items
    assert isinstance(first, Reject)
    assert first.code is RejectCode.LINE_TOO_LONG
    assert first.message.startswith(f"line of {(17 << 20) + 32} bytes")
    assert isinstance(second, HandRecord)
    assert second.line == 2
    assert peak < 4 << 20  # a few MiB for a 17 MiB line: never held whole


def test_a_real_17_mib_line_is_over_the_default_cap(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    write_huge_line(path, 17 << 20)
    items, peak = peak_of_reading(path)
    first, second = items
    assert isinstance(first, Reject)
    assert first.code is RejectCode.LINE_TOO_LONG
    assert f"longer than the limit of {MAX_LINE_BYTES}" in first.message
    assert isinstance(second, HandRecord)
    assert peak < 2 * MAX_LINE_BYTES + (4 << 20)  # readline's copy of the capped read


@pytest.mark.long
def test_a_line_of_any_length_costs_the_same_memory(tmp_path: Path) -> None:
    path = tmp_path / "huger.jsonl"
    write_huge_line(path, 96 << 20)
    items, peak = peak_of_reading(path)
    assert [type(item) for item in items] == [Reject, HandRecord]
    assert peak < 2 * MAX_LINE_BYTES + (4 << 20)


# --------------------------------------------------------------- NUL bytes


def test_nul_bytes(tmp_path: Path) -> None:
    raw_nul = json.dumps(hand("NUL")).encode().replace(b'"Ann"', b'"A\x00nn"')
    escaped = hand("ESCAPED")
    escaped["seats"][0]["player"] = "A\x00nn"  # json.dumps writes \\u0000: valid JSON
    data = jsonl(raw_nul, b"\x00" * 40, escaped)
    first, second, third = read(data)
    assert isinstance(first, Reject)
    assert first.code is RejectCode.MALFORMED_JSON
    assert first.hand_id is None or first.hand_id == "NUL"
    assert isinstance(second, Reject)
    assert second.code is RejectCode.MALFORMED_JSON
    assert isinstance(third, HandRecord)
    assert third.seats[0].player == "A\x00nn"
    (tmp_path / "nul.jsonl").write_bytes(data)
    summary = lake_run(str(tmp_path / "nul.jsonl"), lake=tmp_path / "lake")
    assert (summary["hands"], summary["rejects"]) == (1, 2)


# ------------------------------------------------------------- wrong encodings


def test_latin1_line_is_bad_encoding_and_the_rest_is_read(tmp_path: Path) -> None:
    latin = json.dumps(hand("LATIN"), ensure_ascii=False).replace("Ann", "José").encode("latin-1")
    data = jsonl(latin, hand("OK"))
    first, second = read(data)
    assert isinstance(first, Reject)
    assert first.code is RejectCode.BAD_ENCODING
    assert re.match(r"not UTF-8: invalid continuation byte at byte \d+; ", first.message)
    assert "iconv -f latin1 -t utf-8" in first.message  # says what to do about it
    assert isinstance(second, HandRecord)


@pytest.mark.parametrize(("codec", "mark"), [("utf-16", "FF FE"), ("utf-16-be", "FE FF")])
def test_utf16_file_is_one_clear_reject(codec: str, mark: str, tmp_path: Path) -> None:
    text = jsonl(hand("U-1"), hand("U-2")).decode()
    body = text.encode(codec)
    if codec == "utf-16-be":
        body = b"\xfe\xff" + body
    path = tmp_path / "utf16.jsonl"
    path.write_bytes(body)
    [reject] = read_hands(path)
    assert isinstance(reject, Reject)
    assert reject.code is RejectCode.BAD_ENCODING
    assert f"byte-order mark {mark}" in reject.message
    assert "iconv -f UTF-16 -t UTF-8" in reject.message
    assert reject.excerpt.startswith('{"hand_id"')
    summary = lake_run(str(path), lake=tmp_path / "lake")
    assert (summary["hands"], summary["rejects"]) == (0, 1)


@pytest.mark.parametrize(
    ("fmt", "name"),
    [
        ("pokerstars", "pokerstars/zoom.txt"),
        ("phh", "phh/extensions.phhs"),
        ("ohh", "ohh/omaha_pl.ohh"),
    ],
)
def test_utf16_in_other_formats_is_one_clear_reject(fmt: str, name: str, tmp_path: Path) -> None:
    path = tmp_path / Path(name).name
    path.write_bytes((FIXTURES / name).read_text(encoding="utf-8").encode("utf-16"))
    [reject] = read_hands(path, input_format=fmt)
    assert isinstance(reject, Reject)
    assert reject.code is RejectCode.BAD_ENCODING
    assert "UTF-16" in reject.message


@pytest.mark.parametrize(("codec", "order"), [("utf-16-le", "little"), ("utf-16-be", "big")])
@pytest.mark.parametrize(
    "name", ["jsonl", "pokerstars/zoom.txt", "phh/extensions.phhs", "ohh/omaha_pl.ohh"]
)
@pytest.mark.parametrize("blank", ["", "\n", "\r\n \n"])  # a first line too short to tell
def test_utf16_without_a_byte_order_mark_is_one_clear_reject_too(
    name: str, codec: str, order: str, blank: str, tmp_path: Path
) -> None:
    if name == "jsonl":
        text = jsonl(hand("U-1"), hand("U-2")).decode()
    else:
        text = (FIXTURES / name).read_text(encoding="utf-8")
    text = blank + text
    path = tmp_path / f"utf16-{Path(name).name}"
    path.write_bytes(text.encode(codec))  # no mark: the every-other NUL tells it
    [reject] = read_hands(path)  # detected, whatever the format
    assert isinstance(reject, Reject)
    assert reject.code is RejectCode.BAD_ENCODING
    assert f"{order}-endian, without a byte-order mark" in reject.message
    assert f"iconv -f {codec.upper().replace('-16-', '-16')} -t UTF-8" in reject.message
    assert reject.excerpt and text.startswith(reject.excerpt)


# --------------------------------------------------- directories and unreadable inputs


@pytest.fixture
def messy(tmp_path: Path) -> Path:
    """A folder with one good log and everything a search must pass over."""
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "good.jsonl").write_bytes(jsonl(hand("GOOD-1"), hand("GOOD-2")))
    (root / "sub" / "up").symlink_to("..")  # a loop back to the top
    (root / "loop-a.jsonl").symlink_to("loop-b.jsonl")
    (root / "loop-b.jsonl").symlink_to("loop-a.jsonl")
    (root / "broken.jsonl").symlink_to("nowhere.jsonl")
    (root / "named-like-a-log.jsonl").mkdir()
    (root / "named-like-a-log.jsonl" / "inner.ndjson").write_bytes(jsonl(hand("INNER")))
    os.mkfifo(root / "pipe.jsonl")
    return root


def test_discover_passes_over_loops_links_and_fifos(messy: Path) -> None:
    skipped: list[tuple[str, str]] = []
    with time_limit(10):
        found = list(discover([str(messy)], on_skip=lambda p, why: skipped.append((p, why))))
    assert found == [
        str(messy / "named-like-a-log.jsonl" / "inner.ndjson"),
        str(messy / "sub" / "good.jsonl"),
    ]
    reasons = {Path(p).name: why for p, why in skipped}
    assert reasons == {
        "broken.jsonl": "a broken symbolic link",
        "loop-a.jsonl": "a symbolic-link loop",
        "loop-b.jsonl": "a symbolic-link loop",
        "pipe.jsonl": "not a regular file (a FIFO, socket or device)",
        "up": "already searched (a symbolic-link loop, or a second link to it)",
    }


def test_hand_logs_passed_over_for_their_names_are_reported_in_one_line(
    tmp_path: Path,
) -> None:
    (tmp_path / "deep").mkdir()
    good = jsonl(hand("GOOD-1"))
    (tmp_path / "deep" / "good.jsonl").write_bytes(good)
    ohh = (FIXTURES / "ohh" / "omaha_pl.ohh").read_bytes()
    stars = next((FIXTURES / "pokerstars").glob("*.txt")).read_bytes()
    for name, data in [
        ("README.md", b"# hands\n"),  # not a hand log: passed over without a word
        ("notes.json", b'{"a": 1}\n'),
        ("hand.json", ohh),
        ("deep/session.log", stars),
        ("export", good),
        ("more.json", ohh),
    ]:
        (tmp_path / name).write_bytes(data)
    skipped: list[tuple[str, str]] = []
    found = list(discover([str(tmp_path)], on_skip=lambda p, why: skipped.append((p, why))))
    assert found == [str(tmp_path / "deep" / "good.jsonl")]
    [(path, why)] = skipped
    assert path == str(tmp_path)
    assert why.startswith("4 files that look like hand logs but are not named as such (.jsonl ")
    assert why.endswith(  # named from the folder searched: deep/session.log is findable
        "passed over: deep/session.log, export, hand.json, …; name a file to read it whatever "
        "its name"
    )
    one: list[tuple[str, str]] = []
    list(discover([str(tmp_path / "deep")], on_skip=lambda p, why: one.append((p, why))))
    assert one == [
        (
            str(tmp_path / "deep"),
            "a file that looks like a hand log but is not named as one (.jsonl .ndjson .txt "
            ".phh .phhs .ohh), passed over: session.log; name a file to read it whatever its "
            "name",
        )
    ]


def test_a_folder_with_no_hand_logs_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "README.md").write_bytes(b"# notes\n")
    skipped: list[tuple[str, str]] = []
    found = list(
        discover(
            [str(tmp_path / "empty"), str(tmp_path / "docs")],
            on_skip=lambda p, w: skipped.append((p, w)),
        )
    )
    assert found == []
    why = "no hand logs in it (files named .jsonl .ndjson .txt .phh .phhs .ohh)"
    assert skipped == [(str(tmp_path / "empty"), why), (str(tmp_path / "docs"), why)]


def test_a_quoted_glob_stands_for_the_files_it_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, hand_id in [("a/one.jsonl", "G-1"), ("a/two.log", "G-2"), ("b/c/three.jsonl", "G-3")]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(jsonl(hand(hand_id)))
    assert list(discover([f"{tmp_path}/*/*.jsonl"])) == [str(tmp_path / "a" / "one.jsonl")]
    assert list(discover([f"{tmp_path}/**/*.jsonl"])) == [
        str(tmp_path / "a" / "one.jsonl"),
        str(tmp_path / "b" / "c" / "three.jsonl"),
    ]
    assert list(discover([f"{tmp_path}/a/t*"])) == [str(tmp_path / "a" / "two.log")]
    assert list(discover([f"{tmp_path}/[ab]"])) == [  # folders matched are searched
        str(tmp_path / "a" / "one.jsonl"),
        str(tmp_path / "b" / "c" / "three.jsonl"),
    ]
    with pytest.raises(FileNotFoundError, match="no file matches the pattern"):
        list(discover([f"{tmp_path}/*.phh"]))
    lake = str(tmp_path / "lake")
    done = runner.invoke(app, ["run", f"{tmp_path}/**/*.jsonl", "--out", lake, "--format", "json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["hands"] == 2
    capsys.readouterr()
    assert main(["run", f"{tmp_path}/*.phh", "--out", lake, "-q"]) == 3
    assert capsys.readouterr().err.strip() == (
        f"error: no file matches the pattern: {tmp_path}/*.phh"
    )


def test_run_over_a_messy_folder_reports_and_goes_on(messy: Path, tmp_path: Path) -> None:
    with time_limit(60):
        result = runner.invoke(
            app,
            [
                "run",
                str(messy),
                "--out",
                str(tmp_path / "lake"),
                "--workers",
                "1",
                "--format",
                "json",
            ],
        )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["hands"], summary["rejects"]) == (3, 0)
    assert f"skipped {messy / 'loop-a.jsonl'}: a symbolic-link loop" in result.stderr
    assert f"skipped {messy / 'pipe.jsonl'}: not a regular file" in result.stderr


def test_a_pipe_needs_its_format_named_as_detection_would_eat_its_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipe = tmp_path / "hands.jsonl"
    os.mkfifo(pipe)
    with time_limit(10):
        assert main(["check", str(pipe)]) == 3  # refused at once: no read that would block
    assert capsys.readouterr().err.strip() == (
        "error: not a regular file, so its format cannot be detected (name it with "
        f"--input-format, or give it on stdin as -): {pipe}"
    )


def test_a_fifo_named_explicitly_is_refused_where_inputs_are_read_twice(messy: Path) -> None:
    with pytest.raises(OSError, match="not a regular file"):
        list(discover([str(messy / "pipe.jsonl")], regular_only=True))
    assert list(discover([str(messy / "absent.jsonl")], regular_only=True)) == [
        str(messy / "absent.jsonl")
    ]


@pytest.fixture
def lake_with_a_run(tmp_path: Path) -> Path:
    lake = tmp_path / "lake"
    (tmp_path / "first.jsonl").write_bytes(jsonl(hand("FIRST")))
    lake_run(str(tmp_path / "first.jsonl"), lake=lake)
    return lake


def test_a_broken_link_named_explicitly_stops_the_run_with_exit_3(
    lake_with_a_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "good.jsonl").write_bytes(jsonl(hand("GOOD")))
    (tmp_path / "broken.jsonl").symlink_to("nowhere.jsonl")
    before = committed(lake_with_a_run)
    args = [str(tmp_path / "good.jsonl"), str(tmp_path / "broken.jsonl")]
    code = main(["run", *args, "--out", str(lake_with_a_run), "--workers", "1", "-q"])
    assert code == 3
    err = capsys.readouterr().err
    assert "No such file or directory" in err
    assert "broken.jsonl" in err
    assert len(err.strip().splitlines()) == 1
    assert committed(lake_with_a_run) == before


def test_an_input_that_vanishes_stops_the_run_with_exit_3(
    lake_with_a_run: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(jsonl(hand("A")))
    (folder / "b.jsonl").write_bytes(jsonl(hand("B")))

    def vanishing(inputs: Any, **options: Any) -> Iterator[str]:
        names = list(discover(inputs, **options))
        (folder / "b.jsonl").unlink()  # gone between the search and the read
        yield from names

    monkeypatch.setattr(pipeline.run, "discover", vanishing)
    before = committed(lake_with_a_run)
    code = main(["run", str(folder), "--out", str(lake_with_a_run), "--workers", "1", "-q"])
    assert code == 3
    assert "No such file or directory" in capsys.readouterr().err
    assert committed(lake_with_a_run) == before
    assert lake_hand_ids(lake_with_a_run) == ["FIRST"]


def test_a_directory_named_like_a_log_is_searched_not_read(messy: Path) -> None:
    inner = messy / "named-like-a-log.jsonl"
    verdicts = list(check_paths([str(inner)]))
    assert [v.hand.hand_id for v in verdicts if not isinstance(v, Reject)] == ["INNER"]


def test_a_hand_at_the_limits_is_still_a_hand() -> None:
    seats = [{"seat": n, "player": f"P{n}", "stack": "1000000"} for n in range(1, MAX_SEATS + 1)]
    seats[-1]["seat"] = 1000
    record = hand("EDGE", seats=seats)
    item = decode_line(json.dumps(record).encode(), "edge.jsonl", 1)
    assert isinstance(item, HandRecord)


def test_a_phh_hand_of_endless_lines_is_rejected_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.formats.phh_stream.MAX_HAND_BYTES", 10_000)
    path = tmp_path / "endless.phh"
    with path.open("w") as out:
        out.write("variant = 'PO'\n")
        for n in range(200_000):
            out.write(f"_x{n} = {n}\n")
    tracemalloc.start()
    try:
        [item] = read_hands(path, input_format="phh")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(item, Reject)
    assert item.code is RejectCode.MALFORMED_HAND
    assert item.message == "a hand longer than the limit of 10000 characters"
    assert peak < 1 << 20  # the file is 2.6 MB; only the first 10 kB are kept


def test_a_file_name_that_is_not_utf8_is_stored_readably(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    name = os.fsdecode(b"caf\xe9.jsonl")  # a Latin-1 name: a lone surrogate in Python
    (folder / name).write_bytes(jsonl(hand("NAMED"), b"not json"))
    lake = tmp_path / "lake"
    result = runner.invoke(app, ["run", str(folder), "--out", str(lake), "--workers", "1", "-q"])
    assert result.exit_code == 0, result.output
    [row] = lake_rejects(lake)
    assert row["source"] == str(folder / "caf\ufffd.jsonl")
    assert lake_hand_ids(lake) == ["NAMED"]


def test_an_ohh_array_cut_short_is_a_truncation_reject() -> None:
    """Found by fuzzing: '[' alone (or hands then no ']') used to yield nothing at all."""
    from pipeline.formats.ohh import parse_ohh

    assert [type(i).__name__ for i in parse_ohh("[", "cut.ohh")] == ["Reject"]
    (only,) = parse_ohh("[\n", "cut.ohh")
    assert isinstance(only, Reject)
    assert only.code is RejectCode.TRUNCATED_HAND
    assert "not closed" in only.message
    assert list(parse_ohh("[ ]", "empty.ohh")) == []


@pytest.mark.parametrize("fmt", ["pokerstars", "jsonl", "phh", "ohh"])
def test_two_stray_bytes_like_a_utf16_mark_do_not_make_a_file_utf16(fmt: str) -> None:
    """Found by fuzzing at length: b'\\xff\\xfe' before 8-bit text rejected the whole file as
    UTF-16; only a mark followed by UTF-16 text (NULs every other byte) is."""
    from tests.strategies import read_bytes

    seeds = {
        "pokerstars": Path(__file__).parent / "fixtures" / "pokerstars" / "mixed-games.txt",
        "jsonl": Path(__file__).parents[1] / "data" / "sample" / "plo.jsonl",
        "phh": Path(__file__).parent / "fixtures" / "phh" / "extensions.phhs",
        "ohh": Path(__file__).parent / "fixtures" / "ohh" / "omaha_pl.ohh",
    }
    data = seeds[fmt].read_bytes()
    clean = read_bytes(fmt, data)
    damaged = read_bytes(fmt, b"\xff\xfe" + data)
    if fmt in ("pokerstars", "jsonl"):  # hands start at line starts: the rest still reads
        assert len(damaged) >= len(clean) > 1
    else:  # a damaged first object may swallow the file, but it is accounted for
        assert damaged
    assert not any(isinstance(item, Reject) and "UTF-16" in item.message for item in damaged)
    utf16 = read_bytes(fmt, data.decode("utf-8").encode("utf-16"))
    assert len(utf16) == 1 and isinstance(utf16[0], Reject)
    assert utf16[0].code is RejectCode.BAD_ENCODING
