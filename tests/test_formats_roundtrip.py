"""Real logs converted to the hand log and run again give the same lake as the originals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.convert import convert
from pipeline.formats import detect_format
from pipeline.lake.query import run_query
from pipeline.lake.schema import TABLES
from pipeline.run import run_lake

CORPUS = Path(
    os.environ.get("CROUPIER_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus")
)
POKERSTARS = sorted((CORPUS / "pokerstars").rglob("*.txt")) if CORPUS.exists() else []
PROVENANCE = {"run_id", "source", "line"}


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
