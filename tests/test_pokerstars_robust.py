"""The PokerStars reader on damaged input: it never raises and accounts for every hand.

Corpus files and fixtures are copied to a temporary folder and damaged with a seeded
:class:`random.Random` (lines dropped, the file cut, amounts swapped, bytes corrupted,
lines shuffled) and re-encoded (cp1252, a UTF-8 byte-order mark, ``\\r\\n``). Every hand
header of the damaged file must give exactly one record or reject, located at that line;
anything else read is a reject for text outside any hand (or that cannot be decoded).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.formats.pokerstars import read_pokerstars
from pipeline.model import HandRecord
from pipeline.violations import Reject, RejectCode
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
STRAY = {RejectCode.TRUNCATED_HAND, RejectCode.BAD_ENCODING}


def header_lines(data: bytes) -> list[int]:
    """Return the 1-based numbers of the lines that start a hand."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    return [n for n, line in enumerate(lines, start=1) if HEADER.match(line)]


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
