"""The PokerStars reader on damaged input: it never raises and accounts for every hand.

Corpus files and fixtures are copied to a temporary folder and damaged with a seeded
:class:`random.Random` (lines dropped, the file cut, amounts swapped, bytes corrupted,
lines shuffled) and re-encoded (cp1252, a UTF-8 byte-order mark, ``\\r\\n``). Every hand
header of the damaged file must give exactly one record or reject, located at that line;
anything else read is a reject for text outside any hand (or that cannot be decoded).
"""

from __future__ import annotations

import io
import json
import os
import pickle
import random
import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from pipeline.formats.limits import vet
from pipeline.formats.pokerstars import (
    parse_pokerstars,
    parse_pokerstars_bytes,
    pokerstars_frames,
    read_pokerstars,
    read_pokerstars_frames,
    read_pokerstars_stream,
)
from pipeline.model import ActionType, HandRecord
from pipeline.violations import Reject, RejectCode
from tests.strategies import hands_and_peak
from tests.test_pokerstars import FILES

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pokerstars"
SOURCES = [*FILES, *sorted(FIXTURES.glob("*.txt"))]
SEED = 20_240_601
VARIANTS = 20
HEADER = re.compile(
    rb"^(?i:PokerStars|Run It Once Poker|Run It Once|PokerMaster|SupremaPoker|Suprema Poker"
    rb"|PokerBros|Full Tilt Poker|Full Tilt)(?i: Zoom| Home Game)? (?i:Game|Hand) #"
    rb"[0-9A-Za-z_-]+:"
)
AMOUNT = re.compile(rb"[$\x80]?[0-9]+(?:\.[0-9]+)?")
BOMS = re.compile(rb"^(?:\xef\xbb\xbf)+")
STRAY = {RejectCode.TRUNCATED_HAND, RejectCode.BAD_ENCODING}


def header_lines(data: bytes) -> list[int]:
    """Return the 1-based numbers of the lines that start a hand (after any byte-order
    marks: a line may start with one, as in files joined together)."""
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    return [n for n, line in enumerate(lines, start=1) if HEADER.match(BOMS.sub(b"", line))]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def drop_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    for _ in range(rng.randint(1, 5)):
        if len(lines) > 1:
            del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def swap_amounts(data: bytes, rng: random.Random) -> bytes:
    spans = [m.span() for m in AMOUNT.finditer(data)]
    if len(spans) < 2:
        return data
    (a, b), (c, d) = sorted(rng.sample(spans, 2))
    return data[:a] + data[c:d] + data[b:c] + data[a:b] + data[d:]


def corrupt_bytes(data: bytes, rng: random.Random) -> bytes:
    damaged = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        if damaged:
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
    return bytes(damaged)


def shuffle_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    lines.insert(rng.randrange(len(lines) + 1), lines[rng.randrange(len(lines))])
    return b"\n".join(lines)


def as_cp1252(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "replace").replace("$", rng.choice(["€", "£", "$"]))
    return drop_lines(text.encode("cp1252", "replace"), rng)


def with_bom_and_crlf(data: bytes, rng: random.Random) -> bytes:
    data = data.replace(b"\n", rng.choice([b"\r\n", b"\r", b"\n"]))
    bom = b"" if data.startswith(b"\xef\xbb\xbf") else b"\xef\xbb\xbf"
    return bom + corrupt_bytes(data, rng)


def everything(data: bytes, rng: random.Random) -> bytes:
    for mutate in (drop_lines, swap_amounts, shuffle_lines, corrupt_bytes):
        if rng.random() < 0.6:
            data = mutate(data, rng)
    return data


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "drop": drop_lines,
    "truncate": truncate,
    "swap": swap_amounts,
    "corrupt": corrupt_bytes,
    "shuffle": shuffle_lines,
    "cp1252": as_cp1252,
    "bom-crlf": with_bom_and_crlf,
    "everything": everything,
}


def check_accounting(data: bytes, path: Path) -> tuple[int, int]:
    """Read a damaged file; check one item per header; return (hands, rejects)."""
    path.write_bytes(data)
    items = list(read_pokerstars(path))
    headers = header_lines(data)
    at_header = sorted(item.line for item in items if item.line in set(headers))
    assert at_header == headers
    for item in items:
        if item.line not in headers:
            assert isinstance(item, Reject), item
            assert item.code in STRAY, item
    hands = sum(isinstance(item, HandRecord) for item in items)
    return hands, len(items) - hands


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_damaged_files_never_raise_and_every_hand_is_accounted_for(
    kind: str, tmp_path: Path
) -> None:
    mutate = MUTATIONS[kind]
    seen = [0, 0]
    for source in SOURCES:
        original = source.read_bytes()
        for variant in range(VARIANTS):
            rng = random.Random(f"{SEED}:{source.name}:{kind}:{variant}")
            hands, rejects = check_accounting(mutate(original, rng), tmp_path / source.name)
            seen[0] += hands
            seen[1] += rejects
    assert seen[0] > 0


def test_undamaged_variants_read_the_same(tmp_path: Path) -> None:
    """A BOM, \\r\\n line ends or any number of blank lines change nothing."""
    for source in SOURCES:
        original = source.read_bytes()
        plain = list(read_pokerstars(source))
        for variant in (
            b"\xef\xbb\xbf" + original,
            original.replace(b"\n", b"\r\n"),
            original.replace(b"\n\n", b"\n\n\n\n\n"),
        ):
            target = tmp_path / "variant.txt"
            target.write_bytes(variant)
            items = list(read_pokerstars(target))
            assert [type(i) for i in items] == [type(i) for i in plain]
            for mine, theirs in zip(items, plain, strict=True):
                if isinstance(mine, HandRecord) and isinstance(theirs, HandRecord):
                    assert (mine.actions, mine.result, mine.seats) == (
                        theirs.actions,
                        theirs.result,
                        theirs.seats,
                    )


# --------------------------------------------------------------------------- streaming

ZOOM = (FIXTURES / "zoom.txt").read_bytes()


def many_hands(count: int, sign_at: int | None = None) -> bytes:
    """Return ``count`` copies of the zoom hand, numbered apart; one with a converter's sign."""
    hands = []
    for k in range(count):
        hand = ZOOM.replace(b"#200000000021", f"#{300000000000 + k}".encode(), 1)
        if k == sign_at:  # a thousands separator is a converter's sign
            hand = hand.replace(b"Seat 1: Alice ($10 in chips)", b"Seat 1: Alice ($1,010 in chips)")
        hands.append(hand.rstrip(b"\n"))
    return b"\n\n\n".join(hands) + b"\n"


@pytest.mark.parametrize("sign_at", [None, 1, 38])
def test_a_long_file_is_read_twice_and_still_from_one_tool(
    sign_at: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.formats.pokerstars.BUFFERED_HANDS", 5)
    path = tmp_path / "long.txt"
    path.write_bytes(many_hands(40, sign_at))
    items = list(read_pokerstars(path))
    assert [type(i) for i in items] == [HandRecord] * 40
    assert {i.converted for i in items if isinstance(i, HandRecord)} == {sign_at is not None}
    assert [i.line for i in items] == [1 + k * (ZOOM.count(b"\n") + 2) for k in range(40)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_frames_read_apart_give_the_file_s_hands(path: Path) -> None:
    # croupier run cuts a file into frames where it reads it and has its workers read them
    # (pickled on the way), each hand marked on its own signs and then vetted; the file's
    # mark is then put on every hand: the same hands and rejects as the file read whole
    rng = random.Random(SEED)
    for data in (
        path.read_bytes(),
        everything(path.read_bytes(), rng),
        truncate(path.read_bytes(), rng),
    ):
        whole = list(parse_pokerstars_bytes(data, "x"))
        frames = [pickle.loads(pickle.dumps(f)) for f in pokerstars_frames(io.BytesIO(data), "x")]
        read = [item for f in frames for item in read_pokerstars_frames([f], "x")]
        marked = any(isinstance(item, HandRecord) and item.converted for item in read)
        apart = [vet(item) for item in read]
        if marked:
            apart = [replace(i, converted=True) if isinstance(i, HandRecord) else i for i in apart]
        assert apart == whole


def test_a_long_file_is_read_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.formats.pokerstars.BUFFERED_HANDS", 50)
    path = tmp_path / "long.txt"
    path.write_bytes(many_hands(1_000))  # 1.5 MB, tens of MB as hands
    hands, peak = hands_and_peak(read_pokerstars(path))  # lazily: it reads while traced
    assert hands == 1_000
    assert peak < 2 << 20  # reading the file whole alone would take 3 MB


@settings(max_examples=300, derandomize=True)
@given(st.binary(max_size=60).map(lambda b: bytes(b"ab\r\n"[x % 4] for x in b)), st.integers(1, 9))
def test_lines_split_alike_whatever_the_reads(data: bytes, read: int) -> None:
    # "\r\n", "\r" and "\n" end lines, also when a read ends between "\r" and "\n"
    import io

    from pipeline.formats import pokerstars

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pokerstars, "_READ_BYTES", read)
        lines = list(pokerstars._raw_lines(io.BytesIO(data)))
    expected = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    assert [line for line, _ in lines] == expected
    assert [length for _, length in lines] == [len(line) for line in expected]


def test_an_over_long_line_is_cut_not_held_and_named_with_its_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.formats.pokerstars.MAX_LINE_BYTES", 1_000)
    monkeypatch.setattr("pipeline.formats.pokerstars._READ_BYTES", 4_096)
    long_line = b"Seat 9: " + b"Z" * 200_000
    damaged = ZOOM.replace(b"Seat 2: Alice B", long_line + b"\nSeat 2: Alice B", 1)
    path = tmp_path / "long-line.txt"
    path.write_bytes(damaged + b"\n" + ZOOM)
    first, second = list(read_pokerstars(path))
    assert isinstance(first, Reject) and first.code is RejectCode.LINE_TOO_LONG
    assert f"a line of {len(long_line)} bytes is longer than the limit of 1000" in first.message
    assert isinstance(second, HandRecord)


def test_a_stretch_too_long_to_be_a_hand_is_one_reject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kept up to the limit, then counted: the hand and the noise after it are one reject
    monkeypatch.setattr("pipeline.formats.pokerstars.MAX_CHUNK_BYTES", 5_000)
    noise = b"".join(b"chat line %d\n\n" % k for k in range(2_000))
    path = tmp_path / "noisy.txt"
    path.write_bytes(ZOOM + noise + ZOOM)
    stretch, last = list(read_pokerstars(path))
    assert isinstance(stretch, Reject) and stretch.code is RejectCode.MALFORMED_HAND
    end = ZOOM.count(b"\n") + 4_000
    assert stretch.message == (
        f"lines 1-{end}: more than 5000 bytes or 100000 lines between two hand headers "
        "(a hand is a few kilobytes); not read"
    )
    assert isinstance(last, HandRecord) and last.line == end + 1


def test_a_stretch_of_too_many_lines_is_one_reject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.formats.pokerstars.MAX_CHUNK_LINES", 500)
    path = tmp_path / "lines.txt"
    path.write_bytes(ZOOM + b"x\n" * 1_000 + ZOOM)
    stretch, last = list(read_pokerstars(path))
    assert isinstance(stretch, Reject) and "or 500 lines between" in stretch.message
    assert isinstance(last, HandRecord)


@pytest.mark.parametrize("sign_at", [None, 38])
def test_a_long_file_through_a_pipe_is_read_once_and_whole(
    sign_at: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a pipe cannot be read twice: its hands are held, and all of them are read
    monkeypatch.setattr("pipeline.formats.pokerstars.BUFFERED_HANDS", 5)
    data = many_hands(40, sign_at)
    read_end, write_end = os.pipe()

    def feed() -> None:
        with os.fdopen(write_end, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        items = list(read_pokerstars(f"/dev/fd/{read_end}"))
    finally:
        writer.join()
        os.close(read_end)
    assert [type(i) for i in items] == [HandRecord] * 40
    assert {i.converted for i in items if isinstance(i, HandRecord)} == {sign_at is not None}


class _Once:
    """A binary stream that can be read once only (stdin): no seek, no tell."""

    def __init__(self, data: bytes) -> None:
        self._stream = io.BytesIO(data)

    def read(self, size: int, /) -> bytes:
        """Return the next bytes."""
        return self._stream.read(size)


@pytest.mark.parametrize("sign_at", [None, 1, 38])
def test_a_long_stream_read_once_is_still_from_one_tool(
    sign_at: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pipeline.formats.pokerstars.BUFFERED_HANDS", 5)
    monkeypatch.setattr("pipeline.formats.pokerstars.SPOOL_MEMORY_BYTES", 4_096)  # to disk
    items = list(read_pokerstars_stream(_Once(many_hands(40, sign_at)), "<stdin>"))
    assert [type(i) for i in items] == [HandRecord] * 40
    assert {i.converted for i in items if isinstance(i, HandRecord)} == {sign_at is not None}
    assert [i.line for i in items] == [1 + k * (ZOOM.count(b"\n") + 2) for k in range(40)]
    assert {i.source for i in items} == {"<stdin>"}


def test_a_long_stream_read_once_is_read_in_bounded_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("pipeline.formats.pokerstars.BUFFERED_HANDS", 50)
    monkeypatch.setattr("pipeline.formats.pokerstars.SPOOL_MEMORY_BYTES", 1 << 16)
    stream = _Once(many_hands(1_000))  # 1.5 MB, tens of MB as hands
    hands, peak = hands_and_peak(read_pokerstars_stream(stream, "<stdin>"))
    assert hands == 1_000
    assert peak < 2 << 20  # holding its hands, or its bytes, would take more


def test_a_line_cut_at_the_limit_leaves_the_other_hands_text_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cut inside a two-byte character, the rest of the chunk still decodes as UTF-8
    monkeypatch.setattr("pipeline.formats.pokerstars.MAX_LINE_BYTES", 1_000)  # cut at 1,001
    named = ZOOM.replace(b"Alice", "José".encode())  # both Alices, everywhere
    path = tmp_path / "cut.txt"
    path.write_bytes(named + b"\n" + "é".encode() * 2_000 + b"\n\n" + ZOOM)
    items = list(read_pokerstars(path))
    assert isinstance(items[0], HandRecord)
    assert items[0].seats[0].player == "José"
    assert isinstance(items[1], Reject) and items[1].code is RejectCode.TRUNCATED_HAND  # stray
    assert isinstance(items[-1], HandRecord)


# ------------------------------------------------------------- the file's last line


def _zoom_cut_after(text: bytes) -> bytes:
    """The zoom hand up to the end of ``text``, with no line end after it."""
    return ZOOM[: ZOOM.index(text) + len(text)]


@pytest.mark.parametrize(
    ("cut", "last_type", "total_pot"),
    [
        (b"DaddyCa$h: raises $0.25 to $0", ActionType.FOLD, None),  # was "to $0.35"
        (b"Mr NoNo! Srb: bets $1", ActionType.CHECK, None),  # was "bets $1.40"
        (b"Total pot $2", ActionType.SHOW, None),  # was "$20.70"
        (b"Seat 5: DaddyCa$h showed [Kd Qd 5s 5h] and won ($19.7", ActionType.SHOW, 2070),
    ],
)
def test_a_last_line_with_no_line_end_may_be_cut_so_the_hand_is_partial(
    cut: bytes, last_type: ActionType, total_pot: int | None, tmp_path: Path
) -> None:
    # the line is not read at all: "$0" for "$0.35" would be a real amount
    path = tmp_path / "cut.txt"
    path.write_bytes(_zoom_cut_after(cut))
    (hand,) = read_pokerstars(path)
    assert isinstance(hand, HandRecord) and hand.partial
    assert hand.actions[-1].type is last_type
    assert (hand.result.total_pot if hand.result else None) == total_pot
    (from_text,) = parse_pokerstars(_zoom_cut_after(cut).decode(), str(path))
    assert from_text == hand  # a decoded text whose last line has no line end: the same


def test_a_whole_hand_whose_last_line_has_no_line_end_stays_complete(tmp_path: Path) -> None:
    # the last seat's summary line, closed: nothing the record reads can follow it
    path = tmp_path / "whole.txt"
    path.write_bytes(ZOOM.rstrip(b"\n"))
    (hand,) = read_pokerstars(path)
    (with_end,) = read_pokerstars(FIXTURES / "zoom.txt", source=str(path))
    assert isinstance(hand, HandRecord) and not hand.partial
    assert hand == with_end


SEAT_3_SUMMARY = (
    b"Seat 3: Mr NoNo! Srb (big blind) showed [Qc 8c Ah Ad] and lost with a straight, "
    b"Eight to Queen"
)


@pytest.mark.parametrize(
    ("last", "missing"),
    [
        (b"Total pot $20.70 | Rake $1", "1, 2, 3, 4, 5, 6"),
        (b"Board [Jc Tc 4d 2s 9h]", "1, 2, 3, 4, 5, 6"),
        (SEAT_3_SUMMARY, "4, 5, 6"),
        (
            b"Seat 5: DaddyCa$h showed [Kd Qd 5s 5h] and won ($19.70) with a straight, Nine to "
            b"King",
            "6",
        ),
    ],
)
@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\n\x1a"])
def test_a_summary_the_file_ends_in_must_list_every_seat_that_played(
    last: bytes, missing: str, end: bytes, tmp_path: Path
) -> None:
    # cut exactly at a line end: every line read is whole, but the hand may not be
    path = tmp_path / "cut.txt"
    path.write_bytes(_zoom_cut_after(last).replace(b"\n", end.rstrip(b"\x1a")) + end)
    (hand,) = [item for item in read_pokerstars(path) if isinstance(item, HandRecord)]
    (whole,) = read_pokerstars(FIXTURES / "zoom.txt", source=str(path))
    assert isinstance(whole, HandRecord) and hand.partial and not whole.partial
    reason = dict(hand.extras)["_partial_reason"].decode()
    assert f"no line for seat {missing} though it took part" in reason
    assert hand.actions == whole.actions  # the money read is the same: only the status
    (from_text,) = parse_pokerstars(path.read_bytes().decode(), str(path))
    assert from_text == hand


def test_a_last_line_whose_cards_are_closed_but_no_cards_is_a_reject_not_a_cut() -> None:
    old = "Seat 6: Player (2) folded on the Flop"
    text = _zoom_text()
    assert text.rstrip("\n").endswith(old)
    (reject,) = parse_pokerstars(text.replace(old, "Seat 6: Player (2) mucked [Xx Qs 9d 9c]"), "x")
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_CARD
    assert "not a card: 'Xx'" in reject.message


def test_a_summary_followed_by_a_blank_line_or_another_hand_is_not_cut(tmp_path: Path) -> None:
    # seats left out of a summary the hand's log closed are the log's (read as not dealt)
    short = _zoom_cut_after(SEAT_3_SUMMARY) + b"\n"
    path = tmp_path / "short.txt"
    for data in (short + b"\n", short + b"\n\n" + ZOOM):
        path.write_bytes(data)
        first = next(iter(read_pokerstars(path)))
        assert isinstance(first, HandRecord) and not first.partial


@pytest.mark.parametrize(
    "where", ["after the summary", "inside the summary", "json lines after the summary"]
)
def test_a_line_that_is_no_line_of_a_summary_is_a_reject_not_passed_over(
    where: str, tmp_path: Path
) -> None:
    """Text in or right after a summary (no blank line between) that a summary never holds
    was passed over: the hand read as whole, and whatever the text was (other hands) gone."""
    lines = ZOOM.decode().rstrip("\n").split("\n")
    junk = '{"hand_id": "J-1", "site": "Test"}' if where.startswith("json") else "not a hand"
    if where == "inside the summary":
        at = lines.index("*** SUMMARY ***") + 1
        lines.insert(at, junk)
    else:
        at = len(lines)
        lines += [junk, junk]
    path = tmp_path / "junk.txt"
    path.write_text("\n".join(lines) + "\n")
    (item,) = read_pokerstars(path)
    assert isinstance(item, Reject) and item.code is RejectCode.MALFORMED_HAND
    assert item.message == f"line {at + 1}: not a line of a summary: {junk!r}"


@pytest.mark.parametrize("tail", [b"\x1a", b"\x00", b"\x1a\r\n"])
def test_a_ctrl_z_or_nul_after_the_last_line_end_is_no_line(tail: bytes, tmp_path: Path) -> None:
    # Windows' "copy a+b" ends a joined file with Ctrl-Z: the hand before it is whole
    path = tmp_path / "joined.txt"
    path.write_bytes(ZOOM + tail)
    (hand,) = [item for item in read_pokerstars(path) if isinstance(item, HandRecord)]
    assert not hand.partial


def test_a_hand_run_more_than_once_whose_last_line_has_every_result_is_whole(
    tmp_path: Path,
) -> None:
    # one result per board on the last seat's summary line: nothing the record reads is cut
    text = (FIXTURES / "run-three-times.txt").read_bytes()
    path = tmp_path / "whole.txt"
    path.write_bytes(text.rstrip(b"\r\n"))
    (hand,) = read_pokerstars(path)
    (with_end,) = read_pokerstars(FIXTURES / "run-three-times.txt", source=str(path))
    assert isinstance(hand, HandRecord) and not hand.partial
    assert hand == with_end
    last = text.rstrip(b"\r\n").rsplit(b"\n", 1)[1]
    cut = last[: last.rindex(b", and ")]  # one board's result short
    path.write_bytes(text.rstrip(b"\r\n")[: -len(last)] + cut)
    (short,) = read_pokerstars(path)
    assert isinstance(short, HandRecord) and short.partial


@pytest.mark.parametrize(
    "last",
    [
        b"Seat 5: DaddyCa$h showed [Kd Qd 5s 5h] and won ($19.70) with a straight, Nine to King",
        b"Seat 3: Mr NoNo! Srb (big blind) showed [Qc 8c Ah Ad] and lost with a straight",
    ],
)
def test_a_whole_summary_line_of_a_seat_before_the_last_is_still_a_cut(
    last: bytes, tmp_path: Path
) -> None:
    # the seat lines after it are missing: the file was cut at that line's end
    path = tmp_path / "cut.txt"
    path.write_bytes(_zoom_cut_after(last))
    (hand,) = read_pokerstars(path)
    assert isinstance(hand, HandRecord) and hand.partial


# ------------------------------------------------------------------ encodings, marks

UTF8_NAMES = ZOOM.replace(b"Alice B", "Müller€".encode()).replace(b"#200000000021", b"#7")
CHAT = 'Player (2) said, "café"\n'.encode("latin-1")


def _with_chat(hand: bytes) -> bytes:
    """The hand with a Latin-1 chat line (one byte UTF-8 refuses) after its flop."""
    return hand.replace(b"*** FLOP *** [Jc Tc 4d]\n", b"*** FLOP *** [Jc Tc 4d]\n" + CHAT, 1)


def test_a_stray_latin1_byte_rejects_its_hand_instead_of_garbling_utf8_names(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mixed.txt"
    path.write_bytes(UTF8_NAMES + b"\n" + _with_chat(UTF8_NAMES))
    first, second = read_pokerstars(path)
    assert isinstance(first, HandRecord) and first.seats[1].player == "Müller€"
    assert isinstance(second, Reject) and second.code is RejectCode.BAD_ENCODING
    chat_line = ZOOM.count(b"\n") + 2 + ZOOM[: ZOOM.index(b"*** FLOP")].count(b"\n") + 1
    assert second.message.startswith(
        f"line {chat_line}: byte 0xE9 is not UTF-8, in a hand of UTF-8 text ("
    )
    assert second.line == ZOOM.count(b"\n") + 2 and second.hand_id == "7"


@pytest.mark.parametrize("buffered", [5_000, 2])
def test_each_hand_is_decoded_on_its_own_bytes(
    buffered: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Files joined from both encodings read whole: a cp1252 hand, a UTF-8 hand, a UTF-8
    hand with a stray Latin-1 byte (rejected: read as cp1252 it would garble), and a cp1252
    hand whose chat happens to hold one UTF-8 sequence (É… is C9 85) among cp1252 bytes."""
    monkeypatch.setattr("pipeline.formats.pokerstars.BUFFERED_HANDS", buffered)
    legacy = ZOOM.replace(b"Alice B", "Jörg".encode("cp1252"))
    chance = legacy.replace(
        b"*** FLOP *** [Jc Tc 4d]\n",
        b'*** FLOP *** [Jc Tc 4d]\nZo\xeb said, "BIEN JOU\xc9\x85"\n',
        1,
    )
    data = legacy + b"\n" + UTF8_NAMES + b"\n" + _with_chat(UTF8_NAMES) + b"\n" + chance
    path = tmp_path / "joined.txt"
    path.write_bytes(data)
    for items in (
        list(parse_pokerstars_bytes(data, "x")),
        list(read_pokerstars_stream(_Once(data), "x")),
        list(read_pokerstars(path)),
    ):
        kinds = [i.code.value if isinstance(i, Reject) else "hand" for i in items]
        assert kinds == ["hand", "hand", "bad-encoding", "hand"]
        names = [i.seats[1].player for i in items if isinstance(i, HandRecord)]
        assert names == ["Jörg", "Müller€", "Jörg"]


def test_a_whole_cp1252_file_is_still_read_as_cp1252() -> None:
    data = _with_chat(ZOOM.replace(b"Alice B", "Jörg".encode("cp1252")))
    (hand,) = parse_pokerstars_bytes(data, "old")
    assert isinstance(hand, HandRecord) and hand.seats[1].player == "Jörg"
    (reject,) = parse_pokerstars_bytes(data.replace(b"J\xf6rg", b"J\x81rg"), "old")
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_ENCODING
    assert reject.message.startswith("line 4: byte 0x81 is neither UTF-8 nor cp1252")


def test_a_byte_order_mark_at_a_later_hand_is_taken_off(tmp_path: Path) -> None:
    # files joined, each saved with a mark: the second hand is a hand, not stray text
    data = b"\xef\xbb\xbf" + ZOOM + b"\n\xef\xbb\xbf" + ZOOM
    path = tmp_path / "joined.txt"
    path.write_bytes(data)
    second_line = ZOOM.count(b"\n") + 2
    for items in (
        list(read_pokerstars(path)),
        list(parse_pokerstars(data.decode("utf-8"), str(path))),
    ):
        assert [type(i) for i in items] == [HandRecord, HandRecord]
        assert [i.line for i in items] == [1, second_line]


# --------------------------------------------------------------------- times, raises


def _zoom_text() -> str:
    return ZOOM.decode("utf-8")


def test_an_unknown_time_zone_is_not_read_as_et() -> None:
    text = _zoom_text().replace("2024/07/04 12:00:00 ET", "2024/07/04 06:00:00 HST", 1)
    (reject,) = parse_pokerstars(text, "x")
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_TIMESTAMP
    assert reject.message.startswith(
        "line 1: unknown time zone 'HST' in '2024/07/04 06:00:00 HST', and no time in a known "
        "zone (known: ACST, "
    )


def test_an_unknown_time_zone_beside_an_et_time_uses_the_et_time() -> None:
    text = _zoom_text().replace(
        "2024/07/04 12:00:00 ET", "2024/07/04 06:00:00 HST [2024/07/04 12:00:00 ET]", 1
    )
    (hand,) = parse_pokerstars(text, "x")
    assert isinstance(hand, HandRecord) and not hand.converted
    assert hand.started_at == datetime(2024, 7, 4, 16, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            "DaddyCa$h: raises $5.00 to $0.35",
            "'raises $5.00 to $0.35': the bet it raises is $0.10, so a raise to $0.35 is by "
            "$0.25 and a raise by $5.00 is to $5.10; the two amounts disagree",
        ),
        (
            "DaddyCa$h: raises $0.35 to $0.35",
            "'raises $0.35 to $0.35': the bet it raises is $0.10, so a raise to $0.35 is by "
            "$0.25 and a raise by $0.35 is to $0.45; the two amounts disagree",
        ),
    ],
)
def test_a_raise_whose_by_and_to_disagree_is_rejected(line: str, said: str) -> None:
    text = _zoom_text().replace("DaddyCa$h: raises $0.25 to $0.35", line, 1)
    (reject,) = parse_pokerstars(text, "x")
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_AMOUNT
    assert reject.message == f"line 14: {said}"
    assert reject.excerpt == line


def test_a_raise_over_a_big_blind_posted_all_in_short_counts_the_full_blind() -> None:
    text = _zoom_text().replace(
        "Mr NoNo! Srb: posts big blind $0.10", "Mr NoNo! Srb: posts big blind $0.04 and is all-in"
    )
    (hand,) = parse_pokerstars(text, "x")
    assert isinstance(hand, HandRecord)


def test_a_clone_raise_by_more_than_its_total_is_rejected() -> None:
    # a clone may write the total as the chips added, so only "by <= to" is checked there
    text = (FIXTURES / "straddle-clone.txt").read_text(encoding="utf-8")
    (hand,) = parse_pokerstars(text, "x")
    assert isinstance(hand, HandRecord)
    (reject,) = parse_pokerstars(text.replace("raises $30 to $40", "raises $50 to $40"), "x")
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_AMOUNT
    assert "a raise by more than the total it raises to" in reject.message


def test_no_raise_of_the_corpus_or_the_fixtures_is_rejected() -> None:
    for source in SOURCES:
        for item in read_pokerstars(source):
            assert not (isinstance(item, Reject) and "amounts disagree" in item.message), item


# ------------------------------------------------------------ the summary against the body


def _numbered(text: str, start: str) -> tuple[int, str]:
    """Return the number and text of the only line that starts with ``start``."""
    (found,) = [(n, t) for n, t in enumerate(text.split("\n"), start=1) if t.startswith(start)]
    return found


_WINNER = "Seat 5: DaddyCa$h showed"
_LOSER = "Seat 3: Mr NoNo! Srb (big blind) showed"


@pytest.mark.parametrize(
    ("old", "new", "code", "lines"),
    [
        ("won ($19.70)", "won ($19.90)", RejectCode.BAD_AMOUNT, (_WINNER, "DaddyCa$h collected")),
        ("[Kd Qd 5s 5h] and", "[Kd Qd 5s 5c] and", RejectCode.BAD_CARD, (_WINNER, "DaddyCa$h: s")),
        (
            "[Qc 8c Ah Ad] and",
            "[Qc 8c Ah As] and",
            RejectCode.BAD_CARD,
            (_LOSER, "Mr NoNo! Srb: s"),
        ),
        ("and won ($19.70)", "and lost", RejectCode.BAD_AMOUNT, (_WINNER, "DaddyCa$h collected")),
    ],
)
def test_a_summary_that_contradicts_the_hand_is_rejected_quoting_both_lines(
    old: str, new: str, code: RejectCode, lines: tuple[str, str]
) -> None:
    text = _zoom_text()
    assert text.count(old) == 1
    text = text.replace(old, new)
    (reject,) = parse_pokerstars(text, "x")
    assert isinstance(reject, Reject) and reject.code is code
    (summary, summary_text), (body, body_text) = (_numbered(text, start) for start in lines)
    assert reject.message.startswith(f"line {summary}: the summary's ")
    assert reject.message.endswith(f"{summary_text!r}, but line {body}: {body_text!r}")
    assert reject.excerpt == summary_text


def test_a_summary_winner_the_body_does_not_pay_is_rejected_quoting_the_collections() -> None:
    old = "Seat 2: Alice B (small blind) folded on the Flop"
    text = _zoom_text()
    assert text.count(old) == 1
    text = text.replace(old, "Seat 2: Alice B (small blind) collected ($19.70)")
    (reject,) = parse_pokerstars(text, "x")
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_AMOUNT
    (summary, summary_text), (body, body_text) = (
        _numbered(text, start) for start in ("Seat 2: Alice B (small", "DaddyCa$h collected")
    )
    assert reject.message.startswith(f"line {summary}: the summary says the seat won: ")
    assert repr(summary_text) in reject.message
    assert reject.message.endswith(f"line {body}: {body_text!r}")


@pytest.mark.parametrize(
    ("old", "new", "code", "message"),
    [
        (
            "Board [Jc Tc 4d 2s 9h]",
            "Board [Jc Tc 4d 2s 9d]",
            RejectCode.BAD_CARD,
            "the summary's board is not the one dealt (Jc Tc 4d 2s 9h): 'Board [Jc Tc 4d 2s 9d]'",
        ),
        (
            "Total pot $20.70 | Rake $1",
            "Total pot $20.70 Main pot $10.70. Sde pot $10. | Rake $1",
            RejectCode.MALFORMED_HAND,
            "unrecognised part of the pot line: 'Sde pot $10.'",
        ),
        (
            "Total pot $20.70 | Rake $1",
            "Total pot $20.70 | Rake $1\nTotal pot $20.70 | Rake $2",
            RejectCode.MALFORMED_HAND,
            "a second Total pot line: 'Total pot $20.70 | Rake $2'",
        ),
    ],
)
def test_a_summary_board_or_pot_line_the_hand_cannot_hold_is_rejected(
    old: str, new: str, code: RejectCode, message: str
) -> None:
    text = _zoom_text()
    assert text.count(old) == 1
    (reject,) = parse_pokerstars(text.replace(old, new), "x")
    assert isinstance(reject, Reject) and reject.code is code
    assert reject.message.endswith(message)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("Player (2): calls $0.35", "Player (2): calls €0.35", "'€0.35' is in €, the amounts"),
        ("($0.05/$0.10)", "($0.05/€0.10)", "'€0.10' is in €, the amounts before it in $"),
        ("($0.05/$0.10)", "($0.05/$0.10 EUR)", "amounts in $ in a game in EUR"),
    ],
)
def test_amounts_in_two_currencies_are_rejected(old: str, new: str, message: str) -> None:
    text = _zoom_text()
    assert text.count(old) == 1
    (reject,) = parse_pokerstars(text.replace(old, new), "x")
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_AMOUNT
    assert message in reject.message


@pytest.mark.parametrize(
    ("old", "new", "code", "message"),
    [
        ("Seat 6: Player (2)", "Seat 6: Alice", RejectCode.MALFORMED_HAND, "seats 1 and 6 are"),
        ("*** FLOP *** [Jc Tc 4d]", "*** FLOP *** []", RejectCode.MALFORMED_HAND, "no cards"),
        ("Alice: folds", "Alice: folds [Zz Qq]", RejectCode.BAD_CARD, "not a card: 'Zz'"),
        ("Seat 1: Alice (", "Seat 1: Alice  (", RejectCode.MALFORMED_HAND, "'Alice ' ends in a"),
        (
            "Player (2): calls $0.35",
            "Player (2): calls $0.35 is disconnected",
            RejectCode.MALFORMED_HAND,
            "unrecognised line 'Player (2): calls $0.35 is disconnected'",
        ),
    ],
)
def test_a_body_the_hand_cannot_be_read_from_is_rejected(
    old: str, new: str, code: RejectCode, message: str
) -> None:
    text = _zoom_text()
    assert text.count(old) >= 1
    (reject,) = parse_pokerstars(text.replace(old, new), "x")
    assert isinstance(reject, Reject) and reject.code is code
    assert message in reject.message


def test_a_summary_that_sums_a_split_pot_or_shows_cards_in_another_order_agrees() -> None:
    text = _zoom_text().replace(
        "DaddyCa$h collected $19.70 from pot",
        "DaddyCa$h collected $9.70 from pot\nDaddyCa$h collected $10 from pot",
    )
    text = text.replace("showed [Kd Qd 5s 5h] and", "showed [5h 5s Qd Kd] and")
    (hand,) = parse_pokerstars(text, "x")
    assert isinstance(hand, HandRecord) and not hand.partial


def test_no_summary_of_the_corpus_or_the_fixtures_contradicts_its_hand() -> None:
    for source in SOURCES:
        for item in read_pokerstars(source):
            assert not (isinstance(item, Reject) and "the summary's" in item.message), item


# ------------------------------------------------------------ why a hand is partial


def _reason(hand: HandRecord | Reject) -> str:
    assert isinstance(hand, HandRecord) and hand.partial
    reason = json.loads(dict(hand.extras)["_partial_reason"])
    assert isinstance(reason, str)
    return reason


def test_a_blank_line_ends_the_hand_and_the_partial_hand_says_where_it_stops() -> None:
    """PokerStars ends a hand at a blank line: the lines after it are text outside a hand."""
    text = _zoom_text().replace("*** FLOP ***", "\n*** FLOP ***", 1)
    hand, rest = parse_pokerstars(text, "x")
    reason = _reason(hand)
    assert reason.startswith("line 19 is the hand's last line and no *** SUMMARY *** came")
    assert "a blank line" in reason
    assert isinstance(rest, Reject) and rest.code is RejectCode.TRUNCATED_HAND
    assert rest.line == 21


def test_a_summary_without_its_total_says_so() -> None:
    text = _zoom_text().replace("Total pot $20.70 | Rake $1\n", "", 1)
    (hand,) = parse_pokerstars(text, "x")
    assert "no 'Total pot' line" in _reason(hand)


def test_a_last_summary_line_that_cannot_be_read_is_named() -> None:
    text = _zoom_text().rstrip("\n") + "\nSeat 9: nobody folded before Flop\n"
    (hand,) = parse_pokerstars(text, "x")
    last = text.rstrip("\n").count("\n") + 1
    assert _reason(hand) == (
        f"line {last}: summary line for a seat not in the seat list: 'Seat 9: nobody folded "
        "before Flop'; as the hand's last line, it is taken to be cut short and is not read"
    )


def test_a_whole_hand_has_no_partial_reason() -> None:
    (hand,) = parse_pokerstars(_zoom_text(), "x")
    assert isinstance(hand, HandRecord) and not hand.partial
    assert "_partial_reason" not in dict(hand.extras)
