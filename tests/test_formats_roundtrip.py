"""Real logs converted to the hand log and run again give the same lake as the originals;
a log read as a stream (stdin) reads as the same log named as a file."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.convert import convert
from pipeline.formats import SNIFF_BYTES, detect_format, open_stream, read_hands, read_stream
from pipeline.formats.jsonl import encode_hand
from pipeline.lake.query import run_query
from pipeline.lake.schema import TABLES
from pipeline.model import HandRecord
from pipeline.run import run_lake

CORPUS = Path(
    os.environ.get("CROUPIER_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus")
)
POKERSTARS = sorted((CORPUS / "pokerstars").rglob("*.txt")) if CORPUS.exists() else []
PROVENANCE = {"run_id", "source", "line"}
ROOT = Path(__file__).resolve().parent.parent
LOGS = [*sorted((ROOT / "tests" / "fixtures").rglob("*.*")), ROOT / "data/sample/plo.jsonl"]


def _rows(lake: Path, table: str) -> list[tuple[object, ...]]:
    columns = [c for c in TABLES[table].names if c not in PROVENANCE]
    return run_query(lake, f"SELECT {', '.join(columns)} FROM {table} ORDER BY ALL").rows


@pytest.mark.skipif(not POKERSTARS, reason=f"the corpus is absent ({CORPUS}); set CROUPIER_CORPUS")
def test_pokerstars_corpus_converted_to_jsonl_gives_the_same_lake(tmp_path: Path) -> None:
    originals, converted = tmp_path / "a", tmp_path / "b"
    copies = tmp_path / "jsonl"
    copies.mkdir()
    for k, path in enumerate(POKERSTARS):
        assert detect_format(path) == "pokerstars"
        report = convert(str(path), str(copies / f"{k:02d}-{path.stem}.jsonl"))
        assert report.rejects == []
    first = run_lake([str(p) for p in POKERSTARS], originals, workers=1)
    second = run_lake([str(copies)], converted, workers=1)
    assert first.hands == second.hands == 42
    for table in TABLES:
        assert _rows(originals, table) == _rows(converted, table), table


class _Trickle:
    """A stream that gives at most ``most`` bytes per read, as a pipe or raw stream may."""

    def __init__(self, data: bytes, most: int) -> None:
        self.data = data
        self.most = most
        self.position = 0

    def read(self, size: int, /) -> bytes:
        """Return the next bytes, at most ``most`` of them."""
        end = self.position + min(size, self.most)
        block, self.position = self.data[self.position : end], min(end, len(self.data))
        return block


@pytest.mark.parametrize("most", [1, 7, 1 << 16])
@pytest.mark.parametrize("path", LOGS, ids=lambda path: path.name)
def test_a_stream_reads_as_its_file_whatever_the_reads(path: Path, most: int) -> None:
    assert path.stat().st_size > 0
    fmt = detect_format(path)
    expected = list(read_hands(path, source="<stdin>"))
    stream = _Trickle(path.read_bytes(), most)
    assert list(read_stream(stream, "<stdin>")) == expected  # detected, as for the file
    stream = _Trickle(path.read_bytes(), most)
    assert list(read_stream(stream, "<stdin>", input_format=fmt)) == expected


def test_a_stream_is_given_back_whole_after_its_head_is_sniffed() -> None:
    data = (ROOT / "data/sample/plo.jsonl").read_bytes() * 3
    assert len(data) > 2 * SNIFF_BYTES
    fmt, opened = open_stream(_Trickle(data, 5))
    assert (fmt, opened.read()) == ("jsonl", data)
    named = _Trickle(data, 5)
    fmt, opened = open_stream(named, "pokerstars")  # named: nothing is read ahead
    assert (fmt, named.position) == ("pokerstars", 0)
    assert opened.readline() == data[: data.index(b"\n") + 1]


def test_a_stream_of_an_unknown_format_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="unknown input format 'csv'"):
        open_stream(_Trickle(b"", 1), "csv")


# ---------------------------------------------------------------------------- to PHH and back


def _without_place(hand: HandRecord) -> HandRecord:
    return msgspec.structs.replace(hand, source="", line=0)


PHH_SOURCES = [*POKERSTARS, *(sorted((CORPUS / "phh").rglob("*.phh")) if CORPUS.exists() else [])]


@pytest.mark.skipif(not POKERSTARS, reason=f"the corpus is absent ({CORPUS}); set CROUPIER_CORPUS")
@pytest.mark.parametrize("path", [*PHH_SOURCES, *LOGS], ids=lambda path: path.name)
def test_every_hand_converted_to_phh_reads_back_whole(path: Path, tmp_path: Path) -> None:
    """Cash-outs, bounties, a tournament's buy-in and currency, fees, seats sitting out and
    ``_`` extras survive ``convert --to phh``: the hands read back are the hands read."""
    hands = [h for h in read_hands(path) if isinstance(h, HandRecord)]
    target = tmp_path / "out.phhs"
    report = convert(str(path), str(target), to="phh")
    assert report.unwritable == [] and report.hands == len(hands)
    back = [h for h in read_hands(target) if isinstance(h, HandRecord)]
    assert [_without_place(h) for h in back] == [_without_place(h) for h in hands]


def test_convert_to_phh_names_what_it_cannot_carry(tmp_path: Path) -> None:
    """A hand PHH cannot give back whole is not written, and the report says what is lost."""
    (hand,) = [h for h in read_hands(ROOT / "data/sample/plo.jsonl") if h.hand_id == "SAMPLE-0001"]
    assert isinstance(hand, HandRecord) and hand.result is not None
    some = msgspec.structs.replace(hand.result, final_stacks=hand.result.final_stacks[:2])
    source = tmp_path / "some.jsonl"
    source.write_bytes(encode_hand(msgspec.structs.replace(hand, result=some)) + b"\n")
    report = convert(str(source), str(tmp_path / "out.phhs"), to="phh")
    assert report.hands == 0
    assert report.unwritable == [
        ("SAMPLE-0001", "hand SAMPLE-0001: PHH cannot carry result.final_stacks")
    ]
    done = CliRunner().invoke(app, ["convert", str(source), "--to", "phh", "-o", "-"])
    assert "not written SAMPLE-0001: hand SAMPLE-0001: PHH cannot carry" in done.output
    assert "converted 0 hands, rejected 0, not written 1" in done.output
