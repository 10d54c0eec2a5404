"""Fuzzing the readers: damaged and random input never raises, hangs or loses a hand.

Seeds are the corpus files (when present), the samples and the fixtures; hypothesis
damages them (:func:`tests.strategies.mutated`) or makes up bytes and text. For every
reader and every input: reading returns only hands and rejects, within a time limit (a
``SIGALRM`` turns a hang into a failure); a non-blank input gives at least one of them;
a JSON Lines input gives exactly one per non-blank line; a PokerStars input at least one
per hand header. What a reader yields must also make it through replay, settlement and
the lake's rows (int64 money, int16 seats, UTF-8 text). Crashes found by fuzzing are kept
below as regression tests.

``CROUPIER_FUZZ_EXAMPLES`` sets the examples per property (default 200); the ``long``
test runs ten times as many. ``CROUPIER_FUZZ_RANDOM=1`` draws new examples every run.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.check import Judged, check_paths
from pipeline.formats.limits import vet
from pipeline.lake.rows import ChunkRows
from pipeline.model import HandRecord
from pipeline.rules import STANDARD
from pipeline.violations import Reject, RejectCode
from tests.strategies import (
    READ_FORMATS,
    is_significant,
    jsonl_lines,
    mutated,
    read_bytes,
    seed_bytes,
)

EXAMPLES = int(os.environ.get("CROUPIER_FUZZ_EXAMPLES", "200"))
SECONDS = 10
"""The longest one read may take before it counts as a hang."""

SEEDS = {fmt: seed_bytes(fmt) for fmt in READ_FORMATS}
HEADER = re.compile(
    r"^(?i:PokerStars|Run It Once Poker|Run It Once|PokerMaster|SupremaPoker|Suprema Poker"
    r"|PokerBros|Full Tilt Poker|Full Tilt)(?i: Zoom| Home Game)? (?i:Game|Hand) #"
    r"[0-9A-Za-z_-]+: ?(?!Table )",
    re.MULTILINE,
)

RANDOM = os.environ.get("CROUPIER_FUZZ_RANDOM") == "1"
"""Explore new inputs each run (a search); by default the examples are the same every run,
so CI is repeatable and what exploration finds becomes a regression test here."""

fast = settings(
    max_examples=EXAMPLES,
    deadline=5000,
    derandomize=not RANDOM,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
thorough = settings(fast, max_examples=EXAMPLES * 10)


class Hang(Exception):
    """A read that ran past its time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the block when it runs longer than ``seconds``."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still reading after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def storable(text: str | None) -> bool:
    """Tell whether text can be written as UTF-8 (no lone surrogates)."""
    if text is None:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def read_checked(fmt: str, data: bytes) -> list[HandRecord | Reject]:
    """Read ``data`` as ``fmt`` under a time limit and check what every read promises."""
    with time_limit(SECONDS):
        items = read_bytes(fmt, data)
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
    for item in items:
        assert isinstance(item, HandRecord | Reject)
        assert 1 <= item.line <= lines, item
        if isinstance(item, Reject):
            assert isinstance(item.code, RejectCode)
            assert item.message
            texts = (item.source, item.message, item.excerpt, item.field, item.hand_id)
            assert all(storable(text) for text in texts), item
        else:
            assert vet(item) is item, "a hand beyond the readers' limits"
            assert storable(item.source)
    if is_significant(fmt, data):
        assert items, "a non-blank input gave neither a hand nor a reject"
    if fmt == "jsonl":
        assert len(items) == jsonl_lines(data)
    if fmt == "pokerstars":
        text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
        assert len(items) >= len(HEADER.findall(text.removeprefix("\ufeff")))
    return items


def through_the_lake(items: list[HandRecord | Reject]) -> None:
    """Replay, settle and turn into lake rows whatever a reader yielded."""
    rows = ChunkRows("fuzz")
    for verdict in _judge(items):
        if isinstance(verdict, Reject):
            rows.add_reject(verdict)
        else:
            rows.add_hand(verdict.hand, verdict.replay, verdict.settlement)
    rows.tables()


def _judge(items: list[HandRecord | Reject]) -> Iterator[Judged | Reject]:
    from pipeline.check import _judge as judge_chunk

    for verdict in judge_chunk(items, STANDARD):  # no key set: no duplicates
        assert isinstance(verdict, Judged | Reject)
        yield verdict


# ------------------------------------------------------------------- properties


@pytest.mark.parametrize("fmt", READ_FORMATS)
@fast
@given(data=st.data())
def test_damaged_seeds_are_read_whole(fmt: str, data: st.DataObject) -> None:
    read_checked(fmt, data.draw(mutated(SEEDS[fmt])))


@pytest.mark.parametrize("fmt", READ_FORMATS)
@fast
@given(raw=st.binary(max_size=2000))
def test_random_bytes_are_read_whole(fmt: str, raw: bytes) -> None:
    read_checked(fmt, raw)


@pytest.mark.parametrize("fmt", READ_FORMATS)
@fast
@given(text=st.text(max_size=500))
def test_random_text_is_read_whole(fmt: str, text: str) -> None:
    read_checked(fmt, text.encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("fmt", READ_FORMATS)
@settings(fast, max_examples=max(EXAMPLES // 4, 10))
@given(data=st.data())
def test_what_readers_yield_goes_through_to_the_lake_rows(fmt: str, data: st.DataObject) -> None:
    through_the_lake(read_checked(fmt, data.draw(mutated(SEEDS[fmt]))))


@pytest.mark.long
@pytest.mark.parametrize("fmt", READ_FORMATS)
@thorough
@given(data=st.data())
def test_damaged_seeds_at_length(fmt: str, data: st.DataObject) -> None:
    through_the_lake(read_checked(fmt, data.draw(mutated(SEEDS[fmt]))))


def test_every_reader_has_seeds() -> None:
    assert all(SEEDS[fmt] for fmt in READ_FORMATS)


def _spin() -> None:
    while True:
        pass


def test_a_hang_is_caught() -> None:
    with time_limit(0.05), pytest.raises(Hang):
        _spin()


# ------------------------------------------------------- crashes found by fuzzing


def test_phh_year_beyond_a_c_long_is_a_bad_timestamp() -> None:
    text = (
        "variant = 'PO'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\nactions = ['p1 f']\n"
        "year = 99999999999999999999\nmonth = 1\nday = 1\ntime = 10:00:00\n"
    )
    [item] = read_checked("phh", text.encode())
    assert isinstance(item, Reject)
    assert item.code is RejectCode.BAD_TIMESTAMP
    assert item.field == "time"


@pytest.mark.parametrize(
    "number", ["1" * 5000, "1.5e99999999999999999999999400", "1e99999999999999999999999400"]
)
def test_ohh_number_python_cannot_hold_is_one_reject(number: str) -> None:
    data = (
        '{"ohh": {"game_number": "1", "small_blind_amount": ' + number + "}}\n\n"
        '{"ohh": {"game_number": "2"}}\n'
    ).encode()
    first, second = read_checked("ohh", data)
    assert isinstance(first, Reject)
    assert first.code is RejectCode.MALFORMED_JSON
    assert first.message == "a number too long or too large to read"
    assert isinstance(second, Reject)
    assert second.line == 3  # the next hand is still read, at its own line


@pytest.mark.parametrize("number", ["1" * 5000, "1e99999999999999999999999400"])
def test_phh_number_python_cannot_hold_is_malformed(number: str) -> None:
    data = f"variant = 'PO'\nmin_bet = {number}\n".encode()
    [item] = read_checked("phh", data)
    assert isinstance(item, Reject)
    assert item.code is RejectCode.MALFORMED_HAND
    assert "too long or too large" in item.message


@pytest.mark.parametrize(
    ("fmt", "data"),
    [
        ("ohh", b'{"ohh": {"game_number": "\xe9t\xe9", "x": [}\n'),
        ("phh", b"variant = 'PO'\nplayers = ['caf\xe9']\n"),
        ("phh", b"[1]\nvariant = 'P\xff'\n"),
    ],
)
def test_rejects_of_undecodable_bytes_hold_storable_text(fmt: str, data: bytes) -> None:
    items = read_checked(fmt, data)
    assert all(isinstance(item, Reject) for item in items)
    through_the_lake(items)  # the rejects table takes the excerpt as UTF-8


def test_a_phh_comment_with_a_carriage_return_is_still_a_comment() -> None:
    assert read_checked("phh", b"#v\r\x00") == []  # found by atheris: the helper was wrong


def test_deep_nesting_in_a_jsonl_extra_field_is_malformed_json() -> None:
    line = b'{"hand_id": "D-1", "_deep": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    [item] = read_checked("jsonl", line)
    assert isinstance(item, Reject)
    assert item.code is RejectCode.MALFORMED_JSON
    assert item.message == "nested too deeply to read"


def test_many_ohh_hands_are_read_in_linear_time() -> None:
    hand = b'{"ohh": {"game_number": "1", "game_type": "Holdem"}}\n\n'
    items = read_checked("ohh", hand * 20_000)  # a recount from the top each hand: minutes
    assert len(items) == 20_000
    assert items[-1].line == 2 * 20_000 - 1
    assert {item.code for item in items if isinstance(item, Reject)} == {
        RejectCode.UNSUPPORTED_GAME
    }


def test_check_paths_reads_every_format_of_a_damaged_file(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    for fmt, suffix in (("pokerstars", ".txt"), ("phh", ".phhs"), ("ohh", ".ohh")):
        seed = SEEDS[fmt][0]
        path = tmp_path / f"damaged{suffix}"
        path.write_bytes(seed[: len(seed) // 2] + b"\x00\xff" + seed[len(seed) // 2 :])
        with time_limit(SECONDS):
            verdicts = list(check_paths([str(path)], input_format=fmt))
        assert verdicts
