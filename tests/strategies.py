"""Hypothesis strategies for the vocabulary and the hand log, shared by the tests."""

from __future__ import annotations

import io
import os
import re
import tracemalloc
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import strategies as st

from pipeline.cards import UNKNOWN
from pipeline.formats.jsonl import read_jsonl_stream
from pipeline.formats.limits import is_utf16
from pipeline.formats.ohh_stream import parse_ohh_stream
from pipeline.formats.phh_stream import read_phh_stream
from pipeline.formats.pokerstars import parse_pokerstars_bytes
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Blind,
    CashOut,
    Collection,
    Fee,
    GameSpec,
    HandRecord,
    RecordedResult,
    Seat,
    SeatAmount,
    Tournament,
    Variant,
)
from pipeline.violations import Reject

cards = st.integers(min_value=0, max_value=51)
cards_or_unknown = st.one_of(cards, st.just(UNKNOWN))
scales = st.integers(min_value=0, max_value=8)
amounts = st.integers(min_value=0, max_value=10**15)
seat_numbers = st.integers(min_value=1, max_value=10)
names = st.text(
    alphabet=st.characters(categories=["L", "N", "P", "S", "Zs"]),
    min_size=1,
    max_size=20,
)
card_runs = st.lists(cards_or_unknown, max_size=6).map(tuple)
times = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


@st.composite
def games(draw: st.DrawFn) -> GameSpec:
    variant = draw(st.sampled_from(Variant))
    betting = draw(st.sampled_from(Betting))
    limit = betting is Betting.FIXED_LIMIT
    return GameSpec(
        variant=variant,
        hole_cards=5 if variant.is_courchevel else draw(st.sampled_from([4, 5, 6])),
        betting=betting,
        small_blind=draw(amounts),
        big_blind=draw(amounts),
        currency=draw(st.sampled_from(["USD", "EUR", "CHIPS", "GBP"])),
        scale=draw(scales),
        small_bet=draw(amounts) if limit else None,
        big_bet=draw(amounts) if limit else None,
        ante=draw(amounts),
        max_seats=draw(st.none() | st.integers(min_value=2, max_value=10)),
        mixed=draw(st.none() | st.sampled_from(["8-Game", "Mixed Omaha H/L"])),
    )


@st.composite
def actions(draw: st.DrawFn) -> Action:
    kind = draw(st.sampled_from(ActionType))
    seat = draw(seat_numbers)
    if kind is ActionType.POST:
        return Action(
            kind,
            seat=seat,
            amount=draw(amounts),
            blind=draw(st.sampled_from(Blind)),
            all_in=draw(st.booleans()),
        )
    if kind in (ActionType.CALL, ActionType.BET):
        return Action(kind, seat=seat, amount=draw(amounts), all_in=draw(st.booleans()))
    if kind is ActionType.RAISE:
        return Action(kind, seat=seat, to=draw(amounts), all_in=draw(st.booleans()))
    if kind is ActionType.UNCALLED:
        return Action(kind, seat=seat, amount=draw(amounts))
    if kind in (ActionType.DEAL, ActionType.SHOW):
        return Action(kind, seat=seat, cards=draw(card_runs))
    if kind is ActionType.MUCK:
        return Action(kind, seat=seat, cards=draw(st.none() | card_runs))
    if kind is ActionType.BOARD:
        return Action(
            kind,
            cards=draw(card_runs),
            run=draw(st.none() | st.sampled_from([1, 2, 3])),
            burn=draw(st.none() | card_runs),
        )
    return Action(kind, seat=seat)


@st.composite
def results(draw: st.DrawFn) -> RecordedResult:
    pairs = st.builds(SeatAmount, seat=seat_numbers, amount=amounts)
    return RecordedResult(
        rake=draw(st.none() | amounts),
        total_pot=draw(st.none() | amounts),
        pots=tuple(draw(st.lists(amounts, max_size=3))),
        collected=tuple(
            draw(
                st.lists(
                    st.builds(
                        Collection,
                        seat=seat_numbers,
                        amount=amounts,
                        pot=st.integers(min_value=0, max_value=5),
                        run=st.none() | st.sampled_from([1, 2, 3]),
                    ),
                    max_size=4,
                )
            )
        ),
        fees=tuple(draw(st.lists(st.builds(Fee, kind=names, amount=amounts), max_size=2))),
        added=draw(amounts),
        cash_outs=tuple(
            draw(
                st.lists(
                    st.builds(CashOut, seat=seat_numbers, amount=amounts, fee=amounts), max_size=1
                )
            )
        ),
        final_stacks=tuple(draw(st.lists(pairs, max_size=3))),
        bounties=tuple(draw(st.lists(pairs, max_size=2))),
    )


@st.composite
def hands(draw: st.DrawFn) -> HandRecord:
    tournament = draw(
        st.none()
        | st.builds(
            Tournament,
            id=names,
            level=st.none() | names,
            buyin=st.none() | names,
            currency=st.none() | st.sampled_from(["USD", "EUR"]),
            scale=scales,
        )
    )
    extras = draw(
        st.lists(
            st.tuples(
                st.text(alphabet="abcdefghij_", min_size=1, max_size=8).map(lambda s: "_" + s),
                st.sampled_from([b'{"code":"call-wrong-amount","seq":3}', b"1", b'"x"', b"[1,2]"]),
            ),
            max_size=2,
            unique_by=lambda kv: kv[0],
        )
    )
    return HandRecord(
        hand_id=draw(names),
        site=draw(names),
        table=draw(st.none() | names),
        started_at=draw(st.none() | times),
        game=draw(games()),
        button=draw(seat_numbers),
        seats=tuple(
            draw(
                st.lists(
                    st.builds(
                        Seat,
                        seat=seat_numbers,
                        player=names,
                        stack=amounts,
                        sitting_out=st.booleans(),
                        bounty=st.none() | amounts,
                    ),
                    min_size=1,
                    max_size=10,
                )
            )
        ),
        actions=tuple(draw(st.lists(actions(), max_size=30))),
        result=draw(st.none() | results()),
        tournament=tournament,
        deck=draw(st.none() | st.lists(cards, max_size=52).map(tuple)),
        hero=draw(st.none() | seat_numbers),
        cancelled=draw(st.booleans()),
        partial=draw(st.booleans()),
        converted=draw(st.booleans()),
        source="test",
        line=1,
        extras=tuple(sorted(extras)),
    )


# ---------------------------------------------------------------------------------------
# Hostile input for the readers: seed files mutated the way damaged logs are.

READ_FORMATS = ("jsonl", "pokerstars", "phh", "ohh")
"""The readers that take raw bytes, by input format."""

HOSTILE_TOKENS = (
    b"99999999999999999999999",
    b"9" * 5000,
    b"1e99999999999999999999",
    b"-5",
    b"-0.01",
    b"0.0000000001",
    b"NaN",
    b"\x00",
    b"\xff\xfe",
    b"[" * 3000,
    b'{"a":' * 1000,
    b"\r",
    b"\xef\xbb\xbf",
)
"""Values that break naive readers: huge and negative numbers, NUL, bad UTF-8, nesting."""


_BANNER_RE = re.compile(r"\*{3,}\s*#\s*[0-9]+\s*\*{3,}")


def _corpus_root() -> Path:
    default = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    return Path(os.environ.get("CROUPIER_CORPUS", default))


def seed_files(fmt: str) -> list[Path]:
    """Return the seed inputs of a format: the corpus (when present), samples, fixtures."""
    root = Path(__file__).resolve().parents[1]
    corpus = _corpus_root()
    found: list[Path] = []
    if fmt == "jsonl":
        found += sorted((root / "data" / "sample").glob("*.jsonl"))
    elif fmt == "pokerstars":
        found += sorted((root / "tests" / "fixtures" / "pokerstars").glob("*.txt"))
        found += sorted((corpus / "pokerstars").rglob("*.txt"))
    elif fmt == "phh":
        found += sorted((root / "tests" / "fixtures" / "phh").glob("*.phh*"))
        found += sorted((corpus / "phh").rglob("*.phh*"))
    else:
        found += sorted((root / "tests" / "fixtures" / "ohh").glob("*.ohh"))
        found += sorted((corpus / "ohh").rglob("*.json"))
    return [path for path in found if path.is_file()]


def seed_bytes(fmt: str) -> list[bytes]:
    """Return the contents of a format's seed files."""
    return [path.read_bytes() for path in seed_files(fmt)]


def read_bytes(fmt: str, data: bytes, source: str = "fuzz") -> list[HandRecord | Reject]:
    """Read a whole input of the given format from bytes, as its file reader would."""
    if fmt == "jsonl":
        return list(read_jsonl_stream(io.BytesIO(data), source))
    if fmt == "pokerstars":
        return list(parse_pokerstars_bytes(data, source))
    if fmt == "phh":
        return list(read_phh_stream(io.BytesIO(data), source + ".phhs"))
    return list(parse_ohh_stream(io.BytesIO(data), source))


def hands_and_peak(items: Iterable[HandRecord | Reject]) -> tuple[int, int]:
    """Consume a reader's items; return how many were hands and the peak of memory traced
    (by :mod:`tracemalloc`) meanwhile."""
    tracemalloc.start()
    try:
        hands = sum(1 for item in items if isinstance(item, HandRecord))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return hands, peak


def is_significant(fmt: str, data: bytes) -> bool:
    """Tell whether an input holds anything a reader must account for: more than white
    space and a byte-order mark, PHH comments (``#``) or PokerStars banners."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252" if fmt == "pokerstars" else "utf-8", "replace")
        except UnicodeDecodeError:
            return bool(data.strip())
    text = text.removeprefix("\ufeff")
    if fmt == "pokerstars":
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.strip() for line in text.split("\n")]  # as the readers split them
    if fmt == "phh":
        return any(line and not line.startswith("#") for line in lines)
    if fmt == "ohh" and "".join(text.split()) == "[]":
        return False  # an empty array of hands: nothing to account for
    if fmt == "pokerstars":
        return any(line and not _BANNER_RE.fullmatch(line) for line in lines)
    return any(lines)


def jsonl_lines(data: bytes) -> int:
    """Count the lines the JSON Lines reader must account for (non-blank, BOM dropped);
    a UTF-16 file is one reject, whatever its lines."""
    if is_utf16(data):
        return 1
    lines = data.split(b"\n")
    if lines and lines[0].startswith(b"\xef\xbb\xbf"):
        lines[0] = lines[0][3:]
    return sum(1 for line in lines if line.strip())


@st.composite
def mutated(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """Draw a seed and damage it 1-4 times: byte flips, cuts, lines duplicated, deleted
    or swapped, a splice of another seed, random text or a hostile token inserted."""
    pool = list(seeds) or [b""]
    data = bytearray(draw(st.sampled_from(pool)))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        op = draw(
            st.sampled_from(["flip", "cut", "dup", "drop", "swap", "splice", "text", "token"])
        )
        at = draw(st.integers(min_value=0, max_value=max(len(data), 1) - 1)) if data else 0
        lines = bytes(data).split(b"\n")
        k = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        if op == "flip" and data:
            data[at] ^= draw(st.integers(min_value=1, max_value=255))
        elif op == "cut":
            data = data[:at]
        elif op == "dup":
            lines.insert(k, lines[draw(st.integers(min_value=0, max_value=len(lines) - 1))])
            data = bytearray(b"\n".join(lines))
        elif op == "drop" and len(lines) > 1:
            del lines[k]
            data = bytearray(b"\n".join(lines))
        elif op == "swap":
            j = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
            data = bytearray(b"\n".join(lines))
        elif op == "splice":
            other = draw(st.sampled_from(pool))
            start = draw(st.integers(min_value=0, max_value=len(other)))
            data[at:at] = other[start : start + draw(st.integers(min_value=1, max_value=400))]
        elif op == "text":
            data[at:at] = draw(st.text(max_size=20)).encode("utf-8", "surrogatepass")
        elif op == "token":
            data[at:at] = draw(st.sampled_from(HOSTILE_TOKENS))
    return bytes(data)
