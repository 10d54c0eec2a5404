"""Merge a run's small data files, so that many small inputs do not make many tiny files.

Every chunk of every input writes its own file per table (and month), so a folder of
single-hand ``.phh`` files would make five files per hand. Before a run commits,
:func:`compact` packs the files of one table and partition that are smaller than
:data:`MERGE_BELOW_BYTES` into files of up to :data:`MERGED_ROWS` rows, in order; a
merged file lists the inputs whose rows it holds (:attr:`FileEntry.parts
<pipeline.lake.manifest.FileEntry.parts>`). ``--replace`` of one of those inputs
retires the merged file and :func:`without_inputs` writes the other inputs' rows again,
so no input's rows are lost with another's.

Files are read back whole, a batch at a time: memory stays bounded by
:data:`MERGED_ROWS` rows of one table.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.lake.manifest import FileEntry
from pipeline.lake.staged import write_staged

__all__ = ["MERGED_ROWS", "MERGE_BELOW_BYTES", "compact", "without_inputs"]

MERGE_BELOW_BYTES = 64 << 10
"""A staged file smaller than this (64 KiB) is merged with its table's other small ones: a
chunk of whole size makes files bigger than that (but of a table it has few rows of)."""
MERGED_ROWS = 100_000
"""The most rows a merged file is given (a batch is read into memory whole)."""


def compact(staging: Path, added: list[FileEntry], run_id: str) -> list[FileEntry]:
    """Merge the small staged files of a run, per table and partition; return the files to
    publish (the others as they were, in their order, then the merged ones)."""
    kept: list[FileEntry] = []
    batches: dict[str, list[FileEntry]] = {}
    rows: dict[str, int] = {}  # per folder, the rows of its batch
    merged: list[FileEntry] = []
    for entry in added:
        if (staging / entry.path).stat().st_size >= MERGE_BELOW_BYTES:
            kept.append(entry)
            continue
        folder = os.path.dirname(entry.path)  # the table, and the month of a partitioned one
        batch = batches.setdefault(folder, [])
        total = rows.get(folder, 0)
        if batch and total + entry.rows > MERGED_ROWS:
            merged += _merge(staging, batch, f"{run_id}-m{len(merged):05d}")
            batch, total = [], 0
            batches[folder] = batch
        batch.append(entry)
        rows[folder] = total + entry.rows
    for batch in batches.values():
        merged += _merge(staging, batch, f"{run_id}-m{len(merged):05d}")
    return kept + merged


def without_inputs(
    lake: Path, staging: Path, entry: FileEntry, dropped: set[str], name: str
) -> FileEntry | None:
    """Write a merged file again without the rows of the ``dropped`` inputs, into the
    staging folder under the same table and partition; ``None`` if no rows are left."""
    left = [(sha, rows) for sha, rows in entry.inputs() if sha not in dropped]
    if not left:
        return None
    table = pq.read_table(lake / entry.path)
    pieces, start = [], 0
    for sha, rows in entry.inputs():
        if sha not in dropped:
            pieces.append(table.slice(start, rows))
        start += rows
    relative = f"{os.path.dirname(entry.path)}/part-{name}.parquet"
    kept = pa.concat_tables(pieces)
    write_staged(kept, str(staging), relative)
    return _entry(relative, entry.table, left)


def _merge(staging: Path, batch: list[FileEntry], name: str) -> list[FileEntry]:
    if len(batch) < 2:
        return batch
    table = pa.concat_tables([pq.read_table(staging / f.path) for f in batch])
    relative = f"{os.path.dirname(batch[0].path)}/part-{name}.parquet"
    write_staged(table, str(staging), relative)
    for f in batch:
        (staging / f.path).unlink()
    parts: list[tuple[str, int]] = []
    for f in batch:
        for sha, rows in f.inputs():
            if parts and parts[-1][0] == sha:
                parts[-1] = (sha, parts[-1][1] + rows)
            else:
                parts.append((sha, rows))
    return [_entry(relative, batch[0].table, parts)]


def _entry(relative: str, table: str, parts: list[tuple[str, int]]) -> FileEntry:
    rows = sum(n for _, n in parts)
    one = len(parts) == 1
    return FileEntry(relative, table, rows, parts[0][0], None if one else parts)
