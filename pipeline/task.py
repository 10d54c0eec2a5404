"""One chunk task: read, replay, settle and write one chunk of an input, in a worker.

:func:`process_chunk` is the unit of work every executor runs (:mod:`pipeline.executors`):
a plain function of its :class:`ChunkTask`, returning a :class:`ChunkResult` (counts, the
hands' keys and their digests, and the Parquet files it staged). :mod:`pipeline.run` is the
driver that cuts the inputs into tasks and commits what they return.
"""

from __future__ import annotations

import errno
import itertools
import os
import socket
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.check import paused_gc
from pipeline.formats import FILE_MARKED, read_frames
from pipeline.formats.jsonl import decode_line
from pipeline.formats.limits import vet
from pipeline.lake.keys import digests
from pipeline.lake.rows import ChunkRows
from pipeline.lake.schema import PARTITIONED
from pipeline.lake.staged import is_url, write_staged
from pipeline.model import HandRecord, Status
from pipeline.rules import RuleSet, replay
from pipeline.settle import settle_each
from pipeline.violations import Code, Reject

__all__ = ["BATCH_HANDS", "ChunkResult", "ChunkTask", "process_chunk"]

_PARTIAL = Status.PARTIAL

BATCH_HANDS = 1000
"""Hands a task judges at once (one evaluator batch), then turns into Arrow columns: a
judged hand's Python objects take tens of kilobytes, so a whole chunk of them was most of
a worker's memory."""


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """One chunk of one input, and where to write.

    A JSON Lines chunk carries raw ``lines`` (number, bytes, complete), decoded by the
    task itself; a chunk of another format carries its hands' ``frames``, cut by the
    format's framer (:func:`pipeline.formats.framer`) and read by the task, as
    ``frame_format`` reads them. ``rejects`` are inputs rejected before the task
    (over-long lines).
    """

    task_id: int
    source: str
    input_sha: str
    lines: list[tuple[int, bytes, bool]]
    rejects: list[Reject]
    run_id: str
    rules: RuleSet
    staging: str
    frames: list[object] = field(default_factory=list)
    frame_format: str = ""


@dataclass(slots=True)
class ChunkResult:
    """What a chunk produced: counts, the hands' keys, and the staged files per table."""

    task_id: int
    input_sha: str
    read: int = 0
    hands: int = 0
    rejects: int = 0
    duplicates: int = 0
    keys: list[tuple[str, str]] = field(default_factory=list)
    digests: bytes = b""
    """The keys' digests, in the same order (:func:`pipeline.lake.keys.digests`)."""
    partial: set[tuple[str, str]] = field(default_factory=set)  # keys of partial hands
    whole_again: set[tuple[str, str]] = field(default_factory=set)
    """Keys of hands read again in the chunk, whole (not partial), after a first copy."""
    files: list[tuple[str, str, int]] = field(default_factory=list)  # table, relative, rows
    statuses: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    payouts: Counter[str] = field(default_factory=Counter)
    converted: bool = False
    """Whether a hand read is marked ``converted`` and its format marks a whole file so
    (:data:`pipeline.formats.FILE_MARKED`): the driver then marks the file's other hands."""


def _write_table(
    result: ChunkResult, task: ChunkTask, name: str, table: pa.Table, months: set[str]
) -> None:
    """Write a table's rows, a file per month of play for a partitioned one: ``months`` are
    those of the chunk's hands (of every row of such a table), so with one month there is
    no need to look through the table's own."""
    if table.num_rows == 0:
        return
    part = f"part-{task.run_id}-{task.task_id:06d}.parquet"
    groups: list[tuple[str, pa.Table]]
    if name in PARTITIONED:
        if len(months) != 1:
            months = set(pc.unique(table["month"]).to_pylist())
        if len(months) == 1:  # the common case: the whole table, not a filtered copy
            groups = [(f"{name}/month={next(iter(months))}/{part}", table)]
        else:
            groups = [
                (f"{name}/month={month}/{part}", table.filter(pc.equal(table["month"], month)))
                for month in sorted(months)
            ]
    else:
        groups = [(f"{name}/{part}", table)]
    for relative, rows in groups:
        write_staged(rows, task.staging, relative)
        result.files.append((name, relative, rows.num_rows))


def process_chunk(task: ChunkTask) -> ChunkResult:
    """Read, replay, settle and write one chunk: the unit of work of every executor.

    A plain function of its task (no shared state), so processes or a cluster can run it.
    Hands repeated within the chunk are counted as duplicates (the first is kept). Each
    file is named for the run, the chunk and the table (and month), written under a
    temporary name and renamed: a task run again (its worker died) replaces its own files
    only, and the driver publishes only the files its result lists. Raises
    ``FileNotFoundError`` when the run's staging folder is not visible here (a cluster
    worker that does not share the lake's filesystem). ``task.staging`` may be an fsspec
    URL (see :mod:`pipeline.lake.staged`).
    """
    _use_system_allocator()
    with paused_gc():  # a chunk's objects die by reference counting
        return _process(task)


def _use_system_allocator() -> None:
    """Have Arrow allocate with the C library's ``malloc`` (unless ``ARROW_DEFAULT_MEMORY_POOL``
    says otherwise). Its default, mimalloc, hands the memory of each batch's columns back
    to the system and faults it in again for the next: measured on 20,000 hands, a run
    took some 3% longer with it, and its peak memory was 15% higher.

    This sets pyarrow's pool, which its functions use. Arrow's C++ code (the Parquet
    writer's pages and compression among it) takes the variable's pool, read as pyarrow
    loads: importing :mod:`pipeline` first sets it to ``system`` (unless set), as the
    ``croupier`` command does; measured on 20,000 hands, a run took some 3% less time."""
    if os.environ.get("ARROW_DEFAULT_MEMORY_POOL", "system") == "system":
        pa.set_memory_pool(pa.system_memory_pool())


def _vetted(task: ChunkTask, result: ChunkResult) -> Iterator[HandRecord | Reject]:
    """Read the task's frames, vetted; note in ``result`` a hand whose converter's signs
    mark its whole file (before its limits may make it a reject)."""
    marks_file = task.frame_format in FILE_MARKED
    for item in read_frames(task.frame_format, task.frames, task.source):
        if marks_file and isinstance(item, HandRecord) and item.converted:
            result.converted = True
        yield vet(item)


def _process(task: ChunkTask) -> ChunkResult:
    if not is_url(task.staging) and not os.path.isdir(task.staging):
        raise FileNotFoundError(
            errno.ENOENT,
            f"the run's staging folder is not visible on {socket.gethostname()} "
            "(the lake must be on a filesystem every worker shares)",
            task.staging,
        )
    result = ChunkResult(task.task_id, task.input_sha)
    rows = ChunkRows(task.run_id)
    seen: set[tuple[str, str]] = set()
    whole_again = result.whole_again
    for reject in task.rejects:
        rows.add_reject(reject)
    result.read = len(task.rejects)
    result.rejects = len(task.rejects)
    statuses: list[Status] = []
    codes: Counter[Code] = Counter()
    payouts: list[bool | None] = []
    decoded = (decode_line(body, task.source, n, complete=c) for n, body, c in task.lines)
    framed = _vetted(task, result) if task.frames else ()
    items = itertools.chain(decoded, framed)
    while batch := list(itertools.islice(items, BATCH_HANDS)):
        hands: list[HandRecord] = []
        for item in batch:
            result.read += 1
            if isinstance(item, Reject):
                rows.add_reject(item)
                result.rejects += 1
                continue
            key = (item.site, item.hand_id)
            if key in seen:
                result.duplicates += 1
                if not item.partial or item.cancelled:  # not the replay's partial status
                    whole_again.add(key)
                continue
            seen.add(key)
            hands.append(item)
        del batch
        replays = [replay(hand, task.rules) for hand in hands]
        result.hands += len(hands)
        del hands  # each replay holds its hand: settle_each frees both as it goes
        add_hand = rows.add_hand
        for judged, settled in settle_each(replays, task.rules):
            hand = judged.hand
            status = add_hand(hand, judged, settled)
            statuses.append(status)
            if status is _PARTIAL:
                result.partial.add((hand.site, hand.hand_id))
            if judged.violations or settled.violations:
                codes.update([v.code for v in judged.violations + settled.violations])
            payouts.append(settled.payouts_match)
        rows.flush()
        del replays  # emptied; before the next batch is decoded
    # counted by member (cheap per hand), reported by the names the manifest uses
    result.statuses = Counter({status.value: n for status, n in Counter(statuses).items()})
    result.codes = Counter({code.value: n for code, n in codes.items()})
    result.payouts = Counter({str(match).lower(): n for match, n in Counter(payouts).items()})
    result.keys = rows.keys()
    result.digests = digests(result.keys)  # here, not in the driver every worker waits on
    tables = rows.tables()
    months = set(pc.unique(tables["hands"]["month"]).to_pylist())  # a row a hand
    for name, table in tables.items():
        _write_table(result, task, name, table, months)
    return result
