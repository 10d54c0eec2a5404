"""The main job: read hand logs, judge and settle every hand, and commit Parquet tables.

``run_lake(inputs, lake)`` discovers the input files, skips those already ingested
(unless ``replace``), cuts each into chunks of lines (JSON Lines) or of hands' text (the
other formats, see :func:`pipeline.formats.framer`), and has each chunk processed by
:func:`pipeline.task.process_chunk` (read → replay → settle a batch at a time → rows →
Parquet files in the run's staging area) by an executor (:mod:`pipeline.executors`:
``workers`` local processes, or a Dask cluster whose workers share the lake's filesystem).
The driver takes the chunks' results in input order, drops hands already in the lake (same
site and hand id) or seen earlier in the run, moves the files into place, and commits the
run's manifest entry last. A crash at any point before that leaves the lake as it was; the
next run cleans up.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import IO, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline import __version__
from pipeline.check import discover
from pipeline.executors import (
    EXECUTORS,
    MAX_WORKERS,
    ChunkExecutor,
    ExecutorError,
    check_workers,
    open_executor,
    start_forkserver,
)
from pipeline.files import sha256_of
from pipeline.formats import (
    INPUT_FORMATS,
    detect_format,
    frame_bytes,
    framer,
    open_stream,
)
from pipeline.formats.jsonl import iter_lines
from pipeline.formats.limits import READ_BUFFER, Readable
from pipeline.lake.compact import compact, without_inputs
from pipeline.lake.manifest import (
    MANIFEST,
    FileEntry,
    InputEntry,
    Manifest,
    RunEntry,
    load_manifest,
    write_manifest,
)
from pipeline.lake.seen import (
    Seen,
    Tally,
    drop_hands,
    existing_keys,
    existing_rejects,
    hold_cut_hands,
    rejected_before,
    repeated_rejects,
    retired_keys,
)
from pipeline.lake.staged import fetch, has_fsspec, is_url, remove, write_parquet
from pipeline.lake.store import (
    LOCK,
    LakeDamaged,
    check_committed,
    clean_orphans,
    lake_lock,
    note_remote,
    publish,
    staging_dir,
)
from pipeline.rules import STANDARD, RuleSet
from pipeline.task import ChunkResult, ChunkTask, process_chunk
from pipeline.violations import Reject

__all__ = ["STDIN_REPLACE", "ChunkResult", "ChunkTask", "RunReport", "process_chunk", "run_lake"]

CHUNK_HANDS = 5000
"""Hands per task: large enough for few files, small enough for flat memory."""
TASK_BYTES = 32 << 20
"""The most input text a task carries (past it, one line or hand more): a chunk of hands
far larger than usual (a hand is some 2 KB) is cut sooner, so that memory stays flat
whatever the hands' sizes, not only whatever their number."""
Progress = Callable[[str, int], None]


# ------------------------------------------------------------------------------- driver


@dataclass(slots=True)
class RunReport:
    """What a run did, for the summary and ``--format json``."""

    run_id: str
    lake: str
    executor: str = "local"
    inputs: list[InputEntry] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    payouts: Counter[str] = field(default_factory=Counter)
    files: int = 0
    retired: int = 0
    seconds: float = 0.0
    committed: bool = False
    completed: int = 0
    """Duplicates the lake holds as ``partial`` that this run read whole (a grown file)."""
    gone: int = 0
    """Hands the rows ``--replace`` retired held that the lake no longer holds after it."""
    leftovers: dict[str, str] = field(default_factory=dict)
    """Staging folders at URLs that runs killed before their end left, which this run could
    not remove, each with why (a later run tries again)."""

    @property
    def hands(self) -> int:
        """Return the hands written."""
        return sum(i.hands for i in self.inputs)

    @property
    def rejects(self) -> int:
        """Return the inputs rejected."""
        return sum(i.rejects for i in self.inputs)

    @property
    def duplicates(self) -> int:
        """Return the hands already in the lake or read twice."""
        return sum(i.duplicates for i in self.inputs)

    @property
    def skipped(self) -> list[str]:
        """Return the inputs skipped because the lake already has them."""
        return [i.path for i in self.inputs if i.skipped]


def _new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


class _HashingReader:
    """A binary stream that hashes what is read from it (for stdin)."""

    def __init__(self, stream: Readable) -> None:
        self.stream = stream
        self.digest = hashlib.sha256()
        self.size = 0

    def read(self, size: int, /) -> bytes:
        """Read up to ``size`` bytes, and hash them."""
        data = self.stream.read(size)
        self.digest.update(data)
        self.size += len(data)
        return data

    def finish(self) -> None:
        """Read (and hash) what a reader left unread, to the end of the stream."""
        while self.read(_DRAIN_BYTES):
            pass


_DRAIN_BYTES = 1 << 16


T = TypeVar("T")


def _batches(items: Iterable[T], size: int, weight: Callable[[T], int]) -> Iterator[list[T]]:
    """Cut items into lists of ``size``, or fewer once their ``weight`` (the text they
    hold) reaches :data:`TASK_BYTES`."""
    batch: list[T] = []
    held = 0
    for item in items:
        batch.append(item)
        held += weight(item)
        if len(batch) >= size or held >= TASK_BYTES:
            yield batch
            batch, held = [], 0
    if batch:
        yield batch


def _line_bytes(item: tuple[int, bytes, bool] | Reject) -> int:
    return 0 if isinstance(item, Reject) else len(item[1])


STDIN_REPLACE = (
    "--replace takes the rows of inputs the lake holds by their content, and stdin's is "
    "known only once it is read: save it to a file and run --replace on that"
)


def run_lake(
    inputs: Iterable[str],
    lake: str | Path,
    *,
    workers: int | None = None,
    rules: RuleSet = STANDARD,
    replace: bool = False,
    input_format: str | None = None,
    chunk_hands: int = CHUNK_HANDS,
    on_progress: Progress | None = None,
    executor: str | ChunkExecutor = "local",
    scheduler: str | None = None,
    executor_logs: bool = False,
    staging_url: str | None = None,
) -> RunReport:
    """Ingest the inputs into the lake and commit the run; return what it did.

    ``executor`` is ``local`` (``workers`` processes, default every core; 1: this
    process), ``dask`` (a local Dask cluster of ``workers`` processes, or the cluster of
    ``scheduler``, whose workers must see the lake at the same path), or an open
    :class:`~pipeline.executors.ChunkExecutor` (the caller closes it). An executor named
    here is opened only when there is something to ingest and closed before returning;
    ``executor_logs`` lets Dask's log messages through. Whichever runs the tasks, the
    driver commits the same lake. ``staging_url`` (an fsspec URL) has the tasks write
    their files there, under the run's id, instead of the lake's staging folder, for
    workers that do not share the lake's filesystem; the driver fetches them.

    Raises :class:`~pipeline.lake.store.LakeLocked` when another run holds the lake,
    :class:`~pipeline.lake.store.LakeDamaged` (before writing anything) when a file its
    manifest lists is missing or unreadable,
    :class:`~pipeline.executors.ExecutorError` when the executor cannot be opened or a
    task fails for good, and ``OSError`` for unreadable inputs or a full disk; in every
    case nothing is committed.
    """
    if input_format is not None and input_format not in INPUT_FORMATS:
        known = ", ".join(INPUT_FORMATS)
        raise ValueError(f"unknown input format {input_format!r}; known: {known}")
    if isinstance(executor, str) and executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; choose from {', '.join(EXECUTORS)}")
    if scheduler is not None and executor != "dask":
        raise ValueError("a scheduler address needs the dask executor")
    if workers is not None:
        check_workers(workers)
    if staging_url is not None and not is_url(staging_url):
        raise ValueError(f"the staging location {staging_url!r} is not a URL (scheme://path)")
    if staging_url is not None and not has_fsspec():
        raise ExecutorError("staging at a URL needs fsspec: pip install 'croupier[fsspec]'")
    root = Path(lake)
    started = time.perf_counter()
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    kind = executor if isinstance(executor, str) else type(executor).__name__
    report = RunReport(run_id=_new_run_id(), lake=str(root), executor=kind)
    progress = on_progress or (lambda event, n: None)
    given = list(inputs)
    if replace and "-" in given:
        raise ValueError(STDIN_REPLACE)
    names = list(discover(given, regular_only=True))
    if not names:  # folders with no hand log in them: nothing to run, no lake to make
        raise FileNotFoundError(errno.ENOENT, "no hand log to read in", " ".join(given))
    made = _Made(root)  # before the lock, which makes the folder
    count = workers if workers is not None else min(os.cpu_count() or 1, MAX_WORKERS)
    hashing = ThreadPoolExecutor(1, thread_name_prefix="croupier-sha256")
    with (
        made.removed_if_emptied(),
        lake_lock(root),
        made.emptied_on_failure(),
        _shut_on_exit(hashing),
    ):
        manifest = load_manifest(root)
        ingested = manifest.ingested()
        sizes = _Sizes.of(names, manifest, ingested)
        if executor == "local" and count > 1 and (replace or sizes.any_new()):
            start_forkserver()  # its imports overlap the checks and the hashing below
        check_committed(root, manifest)  # before anything is written or cleaned
        report.leftovers = clean_orphans(root, manifest)[1]
        staging = staging_dir(root, report.run_id)
        remote = f"{staging_url.rstrip('/')}/{report.run_id}" if staging_url else None
        if remote is not None:  # before any task stages there: a killed run's next run
            note_remote(staging, remote)  # removes what it left at the URL
        versions = manifest.versions()
        paths_of: dict[str, set[str]] = {}  # per input sha256, the paths it was read from
        for path, shas in versions.items():
            for sha in shas:
                paths_of.setdefault(sha, set()).add(path)
        live = manifest.live_files()
        plan: list[tuple[str, str, int]] = []
        replaced: set[str] = set()  # the inputs --replace takes the rows of
        planned: set[str] = set()
        hashes: dict[str, Future[tuple[str, int]]] = {}  # of inputs hashed as they are read
        unlike = {} if replace else sizes.unlike()
        for name in names:
            if name == "-":
                plan.append((name, "", 0))
                continue
            if name in unlike:  # new: its hash is taken alongside the reading, not before
                hashes[name] = hashing.submit(sha256_of, name)
                plan.append((name, "", unlike[name]))
                continue
            sha, size = sha256_of(name)
            if sha in planned or (sha in ingested and not replace):  # planned: named twice
                report.inputs.append(
                    InputEntry(name, sha, size, skipped=True, resolved=os.path.realpath(name))
                )
                progress("skipped", 1)
                continue
            if replace:  # this input, and what earlier versions of it at this path gave
                replaced |= {sha} | versions.get(os.path.realpath(name), set())
            plan.append((name, sha, size))
            planned.add(sha)
        retire = {p for p, f in live.items() if any(s in replaced for s, _ in f.inputs())}
        added = _rows_kept(root, staging, [live[p] for p in sorted(retire)], replaced, report)
        held = [(p, f) for p, f in live.items() if p not in retire]
        held += [(os.path.abspath(staging / f.path), f) for f in added]  # absolute: staged
        keys_seen, partial_seen = existing_keys(root, (p for p, f in held if f.table == "hands"))
        read_now = {os.path.realpath(name) for name, _, _ in plan if name != "-"}
        rejects_held = existing_rejects(
            root, ((p, f.inputs()) for p, f in held if f.table == "rejects"), paths_of, read_now
        )
        if partial_seen:  # a reject of a hand held cut, at its line, is that hand again
            hands_held = ((p, f.inputs()) for p, f in held if f.table == "hands")
            hold_cut_hands(rejects_held, root, hands_held, paths_of, read_now)
        seen = Seen(keys_seen, partial_seen, rejects_held)
        pool: ChunkExecutor | None = None
        if not isinstance(executor, str):
            pool = executor
        elif plan:
            pool = open_executor(executor, workers=count, scheduler=scheduler, logs=executor_logs)
        try:
            task_id = 0
            for name, sha, size in plan:
                resolved = None if name == "-" else os.path.realpath(name)  # links followed
                entry = InputEntry(path=name, sha256=sha, size=size, resolved=resolved)
                report.inputs.append(entry)
                progress("file", 1)
                first_file = len(added)
                cut = _Cut(
                    report.run_id,
                    rules,
                    remote or str(staging),
                    _chunk_size(chunk_hands, size, pool.slots if pool else count),
                    task_id,
                )
                tasks = _tasks_of(name, sha, cut, entry, input_format)
                assert pool is not None  # opened whenever there is a plan
                converted = False  # a hand of a file one tool wrote is marked converted
                for result in pool.map(process_chunk, tasks):
                    converted = converted or result.converted
                    task_id = max(task_id, result.task_id + 1)
                    if remote is not None:
                        for _, relative, _ in result.files:
                            fetch(remote, relative, staging)
                    _account(result, entry, report, seen, staging, added)
                    progress("hands", result.read)
                if converted:  # so all its hands are (see pipeline.formats.FILE_MARKED)
                    _mark_converted(staging, added[first_file:])
                if name in hashes:
                    entry.sha256, entry.size = hashes[name].result()
                for f in added[first_file:]:
                    f.input = entry.sha256  # known only now for stdin and new files
                if name == "-" and (entry.sha256 in ingested or entry.sha256 in planned):
                    _drop_rejects(staging, added, first_file, entry)  # the same bytes again
                planned.add(entry.sha256)
        finally:
            if isinstance(executor, str) and pool is not None:
                pool.close()
            if remote is not None:
                with contextlib.suppress(OSError):  # leftovers named for the run, harmless
                    remove(remote)
        added = compact(staging, added, report.run_id)
        if retire:  # hands only the retired rows held: the new versions lack them
            retired = retired_keys(root, (p for p in retire if live[p].table == "hands"))
            report.gone = len(retired - seen.keys.present(list(retired)))
        publish(root, staging, [f.path for f in added])
        run = RunEntry(
            run_id=report.run_id,
            started_at=started_at,
            finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
            rules=rules.label,
            version=__version__,
            inputs=report.inputs,
            added=added,
            retired=sorted(retire),
            seconds={"total": round(time.perf_counter() - started, 3)},
        )
        manifest.runs.append(run)
        write_manifest(root, manifest)
        report.committed = True
        for path in retire:
            (root / path).unlink(missing_ok=True)
        clean_orphans(root, manifest)
    report.files = len(added)
    report.retired = len(retire)
    report.seconds = time.perf_counter() - started
    return report


@dataclass(frozen=True, slots=True)
class _Sizes:
    """The inputs' sizes (``None``: standard input, or a size that cannot be read), in
    the order named (a file named twice is there twice), and the sizes of the inputs the
    lake holds: read once, before any input is hashed."""

    named: list[tuple[str, int | None]]
    held: set[int]

    @classmethod
    def of(cls, names: list[str], manifest: Manifest, ingested: dict[str, str]) -> _Sizes:
        """Read the sizes of ``names`` and of the inputs the lake holds (``ingested``:
        :meth:`Manifest.ingested`)."""
        named: list[tuple[str, int | None]] = []
        for name in names:
            try:
                named.append((name, None if name == "-" else os.path.getsize(name)))
            except OSError:  # hashing it will say what is wrong
                named.append((name, None))
        held = {e.size for run in manifest.runs for e in run.inputs if e.sha256 in ingested}
        return cls(named, held)

    def any_new(self) -> bool:
        """Tell whether an input is sure to be read: standard input, one of a size no
        input the lake holds had, or one whose size cannot be read. (A re-run on inputs
        already ingested then starts no worker processes at all.)"""
        return any(size is None or size not in self.held for _, size in self.named)

    def unlike(self) -> dict[str, int]:
        """Return the inputs (with their sizes) of a size that no input the lake holds had
        and no other input of the run has: new, and unlike each other, whatever their
        hash. Their hashes can be taken as they are read rather than before (in a thread:
        hashing lets other threads run), for the manifest. An input whose size cannot be
        read is left to be hashed first, which says what is wrong."""
        count = Counter(size for _, size in self.named if size is not None)
        return {
            name: size
            for name, size in self.named
            if size is not None and size not in self.held and count[size] == 1
        }


@contextlib.contextmanager
def _shut_on_exit(pool: ThreadPoolExecutor) -> Iterator[None]:
    """Stop ``pool`` on leaving: its tasks left unstarted are cancelled."""
    try:
        yield
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _cleaned_on_failure(lake: Path) -> Iterator[None]:
    """Remove what a run stopped by its environment leaves (staged files, files moved
    but not committed): a full disk, an unreadable input, a task that failed for good.

    The lake reads the same either way (the manifest lists none of them); this spares the
    disk and keeps the folder as it was. Errors while cleaning never hide the first. After
    anything else (a bug, an interrupt, a kill) the leftovers wait for the next run.
    """
    try:
        yield
    except LakeDamaged:  # refused before anything was written: the lake is left as it is
        raise
    except (OSError, ExecutorError):
        with contextlib.suppress(Exception):
            clean_orphans(lake, load_manifest(lake))
        raise


class _Made:
    """The folders a run makes for a new lake, and their removal when the run fails.

    ``croupier run missing.jsonl --out new/lake`` fails (exit 3) and leaves neither
    ``new`` nor ``new/lake``. A lake that existed before the run is never touched; one
    this run made is emptied only while the run holds its lock and only when no run has
    committed to it, and its folders are removed after the lock is let go only if empty
    (a run that came in meanwhile keeps them). A run refused the lock removes nothing.
    """

    def __init__(self, lake: Path) -> None:
        self.lake = lake
        top: Path | None = None
        folder = lake
        while not os.path.lexists(folder):
            top, folder = folder, folder.parent
            if folder == top:
                break
        self.top = top  # the first folder of the path that did not exist (None: all did)
        self.emptied = False

    @contextlib.contextmanager
    def emptied_on_failure(self) -> Iterator[None]:
        """Inside the lock: on failure, empty a lake this run made (all but the lock)."""
        with _cleaned_on_failure(self.lake):
            try:
                yield
            except BaseException:
                if self.top is not None and not (self.lake / MANIFEST).exists():
                    with contextlib.suppress(OSError):  # never hides the run's own error
                        for entry in self.lake.iterdir():
                            if entry.name == LOCK:
                                continue
                            if entry.is_dir() and not entry.is_symlink():
                                shutil.rmtree(entry, ignore_errors=True)
                            else:
                                entry.unlink(missing_ok=True)
                        self.emptied = True
                raise

    @contextlib.contextmanager
    def removed_if_emptied(self) -> Iterator[None]:
        """Outside the lock: remove the emptied lake and the folders made for it, if empty."""
        try:
            yield
        except BaseException:
            if self.emptied and self.top is not None:
                folder = self.lake
                with contextlib.suppress(OSError):
                    while True:
                        folder.rmdir()  # only an empty folder
                        if folder == self.top:
                            break
                        folder = folder.parent
            raise


BYTES_PER_HAND = 2000
"""A JSON Lines hand's typical size, to guess how many hands a file holds."""


def _chunk_size(most: int, size: int, workers: int) -> int:
    """Return the hands per chunk: at most ``most``, but small enough that a file of
    ``size`` bytes gives every worker several chunks (an even share of the work).

    >>> _chunk_size(5000, 40_000_000, 2), _chunk_size(5000, 10**10, 2), _chunk_size(5000, 0, 2)
    (2500, 5000, 5000)
    """
    if workers <= 1 or size <= 0:
        return most
    share = size // BYTES_PER_HAND // (4 * workers)
    return max(min(most, share), min(most, 500))


@dataclass(frozen=True, slots=True)
class _Cut:
    """How one input is cut into tasks: the run, its rules and staging, ``size`` lines or
    frames a task, task ids from ``first_id``."""

    run_id: str
    rules: RuleSet
    staging: str
    size: int
    first_id: int

    def task(
        self,
        task_id: int,
        source: str,
        sha: str,
        *,
        lines: list[tuple[int, bytes, bool]] | None = None,
        rejects: list[Reject] | None = None,
        frames: list[object] | None = None,
        frame_format: str = "",
    ) -> ChunkTask:
        """Return the task of one chunk of an input: raw lines (and the rejects found
        cutting them), or frames of ``frame_format``."""
        return ChunkTask(
            task_id,
            source,
            sha,
            lines or [],
            rejects or [],
            self.run_id,
            self.rules,
            self.staging,
            frames or [],
            frame_format,
        )


def _tasks_of(
    name: str, sha: str, cut: _Cut, entry: InputEntry, input_format: str | None
) -> Iterator[ChunkTask]:
    """Cut one input into chunk tasks, reading it once (stdin is hashed as it is read).

    JSON Lines is cut into raw lines that the tasks decode, the other formats into their
    hands' frames (:func:`pipeline.formats.framer`) that the tasks read. Stdin's format is
    ``input_format`` or told from its first bytes, as a file's is.
    """
    if name == "-":
        yield from _stdin_tasks(cut, entry, input_format)
        return
    fmt = input_format or detect_format(name)
    with open(name, "rb", buffering=READ_BUFFER) as stream:
        yield from _stream_tasks(stream, fmt, name, sha, cut)


def _stdin_tasks(cut: _Cut, entry: InputEntry, input_format: str | None) -> Iterator[ChunkTask]:
    """Cut stdin into chunk tasks as :func:`_tasks_of` cuts a file; once it is read to its
    end, ``entry`` gets the sha256 and size of every byte of it."""
    reader = _HashingReader(sys.stdin.buffer)
    fmt, stream = open_stream(reader, input_format)
    yield from _stream_tasks(stream, fmt, "<stdin>", "stdin", cut)
    reader.finish()
    entry.sha256 = reader.digest.hexdigest()
    entry.size = reader.size


def _stream_tasks(
    stream: IO[bytes], fmt: str, source: str, sha: str, cut: _Cut
) -> Iterator[ChunkTask]:
    """Cut a stream of ``fmt`` into tasks of ``cut.size`` raw lines (JSON Lines) or frames,
    or fewer when they hold more than :data:`TASK_BYTES`."""
    cutter = framer(fmt)
    if cutter is None:
        chunks = _batches(iter_lines(stream, source), cut.size, _line_bytes)
        for task_id, chunk in enumerate(chunks, start=cut.first_id):
            lines = [item for item in chunk if not isinstance(item, Reject)]
            rejects = [item for item in chunk if isinstance(item, Reject)]
            yield cut.task(task_id, source, sha, lines=lines, rejects=rejects)
        return
    frames = _batches(cutter(stream, source), cut.size, partial(frame_bytes, fmt))
    for task_id, batch in enumerate(frames, start=cut.first_id):
        yield cut.task(task_id, source, sha, frames=batch, frame_format=fmt)


def _rows_kept(
    root: Path, staging: Path, retired: list[FileEntry], replaced: set[str], report: RunReport
) -> list[FileEntry]:
    """Write again the rows that retired merged files hold of inputs not replaced."""
    kept = []
    for k, entry in enumerate(retired):
        again = without_inputs(root, staging, entry, replaced, f"{report.run_id}-k{k:05d}")
        if again is not None:
            kept.append(again)
    return kept


def _mark_converted(staging: Path, files: list[FileEntry]) -> None:
    """Mark every hand of the staged ``hands`` files ``converted``: their file's tasks
    read its hands apart, each marked on its own signs, and one of them showed a
    converter's (a file comes from one tool)."""
    for f in files:
        if f.table != "hands":
            continue
        path = staging / f.path
        table = pq.read_table(path)
        if pc.all(table["converted"]).as_py():
            continue
        column = table.schema.get_field_index("converted")
        marked = pa.array(np.ones(table.num_rows, np.bool_))
        table = table.set_column(column, table.schema.field(column), marked)
        write_parquet(table, path)


def _drop_rejects(staging: Path, added: list[FileEntry], first: int, entry: InputEntry) -> None:
    """Take back the rejects of an input read before (stdin's bytes, known by their sha256
    once read): each is a duplicate of the one the lake holds."""
    for f in [f for f in added[first:] if f.table == "rejects"]:
        (staging / f.path).unlink()
        added.remove(f)
        entry.rejects -= f.rows
        entry.duplicates += f.rows


def _account(
    result: ChunkResult,
    entry: InputEntry,
    report: RunReport,
    seen: Seen,
    staging: Path,
    added: list[FileEntry],
) -> None:
    """Count a chunk's hands, drop those already seen, and list its files to publish.

    A hand the lake holds (the same site and hand id) is a duplicate, and so is a bad line
    of the same file (by its absolute path) that the lake holds as a reject (the same line,
    as it was or grown: :class:`~pipeline.lake.seen.HeldRejects`). A hand the lake holds as
    ``partial``, or as a reject of its line (a hand cut while the file was being written),
    that this chunk has whole is a duplicate counted in
    ``report.completed`` (once a hand), and so is one this run took cut from an earlier
    chunk or input, or earlier in this chunk: the lake keeps the first copy until a run
    with ``--replace``.
    """
    files = result.files
    again = 0  # rejects the lake holds already
    whole_now: set[tuple[str, str]] = set()  # hands the lake holds as a reject of their line
    held = seen.rejects.held(entry.resolved)
    if held:  # staged files are read again only for a file the lake holds rejects of
        if result.rejects:
            files, again = repeated_rejects(staging, files, held)
        whole_now = rejected_before(staging, files, held)
    keys = result.keys
    in_lake = {keys[i] for i in seen.keys.held(result.digests)}
    whole_now -= in_lake - seen.partial  # held whole already: a duplicate, not a completion
    repeats = in_lake | whole_now
    statuses, codes, payouts = result.statuses, result.codes, result.payouts
    cut_here = result.partial - repeats  # kept, cut: a later copy may be whole
    if repeats:
        dropped = Tally()
        files = drop_hands(staging, files, repeats, dropped)
        cut_before = repeats & (seen.partial | whole_now)  # the copy kept before is cut
        seen.completed.update(cut_before - result.partial)  # and this chunk's copy whole
        cut_here |= cut_before
        statuses, codes = statuses - dropped.statuses, codes - dropped.codes
        payouts = payouts - dropped.payouts
    seen.completed.update(result.whole_again & cut_here)  # whole after a cut first copy
    seen.partial.update(result.partial - repeats)
    report.completed = len(seen.completed)
    seen.keys.add_digests(result.digests)
    entry.read += result.read
    entry.rejects += result.rejects - again
    entry.duplicates += result.duplicates + len(repeats) + again
    entry.hands += result.hands - len(repeats)
    report.statuses.update(statuses)
    report.codes.update(codes)
    report.payouts.update(payouts)
    sha = entry.sha256 or "stdin"
    added.extend(
        FileEntry(path=relative, table=table, rows=rows, input=sha)
        for table, relative, rows in files
    )
