"""Where chunk tasks run: in this process, on local processes, or on a Dask cluster.

An executor runs one plain function over a stream of tasks and yields the results **in
task order**, with a bounded number of tasks in flight (twice its slots), so memory stays
flat whatever the input's size and the driver's de-duplication (the first hand read wins)
is the same whichever executor ran the tasks. The engine knows nothing of executors;
:func:`pipeline.task.process_chunk` is the one task function of them all.

Dask is an optional extra (``pip install 'croupier[dask]'``), imported only when the
``dask`` executor is opened. Its workers write their files to the run's staging area
themselves, so they must see the lake's folder at the same path (a shared filesystem), or
stage at an fsspec URL that the driver fetches from (:mod:`pipeline.lake.staged`).
"""

from __future__ import annotations

import importlib
import logging
import os
import secrets
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import forkserver, get_context
from multiprocessing.context import BaseContext
from typing import Any, Protocol, TypeVar

__all__ = [
    "ALLOWED_FAILURES",
    "EXECUTORS",
    "MAX_WORKERS",
    "ChunkExecutor",
    "DaskExecutor",
    "ExecutorError",
    "ProcessExecutor",
    "SerialExecutor",
    "check_workers",
    "open_executor",
    "start_forkserver",
]

EXECUTORS = ("local", "dask")
MAX_WORKERS = 256
"""The most worker processes a run starts on this machine (``--workers``): each is a whole
process with the engine and its tables loaded, and a run keeps twice as many chunks in
flight, so a count far beyond the cores is a typo, not a wish (a larger cluster is a Dask
scheduler's, whose workers are its own)."""
ALLOWED_FAILURES = 3
"""Workers that may die running one task before the Dask executor fails the run."""
CONNECT_SECONDS = 10
"""How long to wait for a remote scheduler to answer, and for its first worker."""
DIE_ONCE = "CROUPIER_TEST_DIE_ONCE"
"""Test hook: a marker file's path; the first Dask task to create it kills its worker,
after writing its files and before returning its result."""
DIE_ALWAYS = "CROUPIER_TEST_DIE_ALWAYS"
"""Test hook: when set, every Dask task kills its worker (a poison task)."""

T = TypeVar("T")
R = TypeVar("R")


class ExecutorError(RuntimeError):
    """An executor cannot be opened, or a task failed for good (one line for the user)."""


class ChunkExecutor(Protocol):
    """Runs a function over tasks, results in task order; ``slots`` tasks at once."""

    @property
    def slots(self) -> int:
        """Return how many tasks run at once (worker processes or threads)."""
        ...

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, in task order."""
        ...

    def close(self) -> None:
        """Release the workers (cancelling what is still queued)."""
        ...


class SerialExecutor:
    """Runs every task in this process, one after the other."""

    slots = 1

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, in task order."""
        for task in tasks:
            yield fn(task)

    def close(self) -> None:
        """Do nothing: there is nothing to release."""


class ProcessExecutor:
    """Runs tasks on a pool of local processes (forkserver: no state inherited by fork)."""

    def __init__(self, workers: int) -> None:
        self.slots = workers
        context = start_forkserver()
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_watch_driver,
            initargs=(os.getpid(),),
        )

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, in task order, twice the slots in flight."""
        pending: deque[Future[R]] = deque()
        try:
            for task in tasks:
                pending.append(self._pool.submit(fn, task))
                if len(pending) >= 2 * self.slots:
                    yield _result(pending.popleft())
            while pending:
                yield _result(pending.popleft())
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        """Shut the pool down, cancelling queued tasks."""
        self._pool.shutdown(cancel_futures=True)


def start_forkserver() -> BaseContext:
    """Start the server local workers fork from, if it is not running; return its context.

    The server imports the chunk task's modules (numpy, pyarrow, the engine) once, and each
    worker forks from it ready: a worker does not spend its first half second importing,
    which on a small input was most of the run. Starting it returns at once (the imports
    go on in the server's own process), so a run starts it before it hashes its inputs and
    the two overlap.
    """
    context = get_context("forkserver")
    context.set_forkserver_preload(["pipeline.run"])  # read when the server starts
    forkserver.ensure_running()
    return context


def _result(future: Future[R]) -> R:
    """Return a local task's result; a worker process that died is an ExecutorError."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise ExecutorError(
            "a worker process died (killed, or out of memory?) before its chunk was done; "
            "nothing was committed"
        ) from None


def _watch_driver(driver: int, every: float = 1.0) -> None:
    """In a pool worker: exit as soon as the driver process is gone (``kill -9``).

    Without this, workers of a killed run go on with their queued chunks, writing into a
    staging folder nobody will commit, until their pipe breaks.
    """

    def watch() -> None:
        while True:
            time.sleep(every)
            try:
                os.kill(driver, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # pragma: no cover - the pid was reused by another user
                os._exit(1)

    threading.Thread(target=watch, name="croupier-watch-driver", daemon=True).start()


def _run_task(fn: Callable[[T], R], task: T) -> R:
    """Run one task on a Dask worker (honouring the test hooks that kill the worker)."""
    if os.environ.get(DIE_ALWAYS):
        os._exit(1)
    result = fn(task)
    marker = os.environ.get(DIE_ONCE)
    if marker:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            pass
        else:  # the task's files are written, its result is lost with the worker
            os._exit(1)
    return result


class DaskExecutor:
    """Runs tasks on a Dask cluster: a local one, or a remote scheduler's.

    A task whose worker dies is run again on another worker (by Dask); it writes the same
    file names, so a retry replaces its own files only. A task that kills
    ``ALLOWED_FAILURES`` + 1 workers (on a local cluster; a remote scheduler uses its own
    ``distributed.scheduler.allowed-failures``), or raises, fails the run.
    """

    def __init__(self, *, workers: int, scheduler: str | None = None, logs: bool = False) -> None:
        try:  # imported by name: optional, and only partly typed
            dask: Any = importlib.import_module("dask")
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ExecutorError(
                "the dask executor needs Dask: pip install 'croupier[dask]'"
            ) from None
        if not logs:
            for name in ("distributed", "tornado"):
                logging.getLogger(name).setLevel(logging.ERROR)
        self._logs = logs
        self._killed: type[Exception] = distributed.KilledWorker
        self._cluster: Any = None
        self._client: Any
        if scheduler is None:
            with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}):
                self._cluster = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address="127.0.0.1:0",  # no fixed port to collide on
                    silence_logs=logging.WARNING if logs else logging.ERROR,
                )
            self._client = distributed.Client(self._cluster)
        else:
            try:
                self._client = distributed.Client(scheduler, timeout=f"{CONNECT_SECONDS}s")
            except OSError as error:
                raise ExecutorError(
                    f"cannot reach the Dask scheduler {scheduler}: {error}"
                ) from None
            try:
                self._client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            except TimeoutError:
                self._client.close()
                raise ExecutorError(
                    f"the Dask scheduler {scheduler} has no workers "
                    f"(waited {CONNECT_SECONDS} s for one)"
                ) from None
        self.slots: int = max(sum(self._client.nthreads().values()), 1)

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, in task order, twice the slots in flight."""
        prefix = f"croupier-chunk-{secrets.token_hex(4)}"
        pending: deque[tuple[int, Any]] = deque()
        try:
            for index, task in enumerate(tasks):
                with warnings.catch_warnings():
                    if not self._logs:
                        # A chunk travels in its task (about 10 MB of lines), and Dask warns
                        # of a large graph, advising to scatter the data first. Scattered
                        # data dies with its worker, though, and a task whose worker dies
                        # must run again on another: the chunk stays in the task.
                        warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
                    future = self._client.submit(
                        _run_task, fn, task, key=f"{prefix}-{index}", pure=False
                    )
                pending.append((index, future))
                if len(pending) >= 2 * self.slots:
                    yield self._result(*pending.popleft())
            while pending:
                yield self._result(*pending.popleft())
        finally:
            for _, future in pending:
                future.cancel()

    def _result(self, index: int, future: Any) -> Any:
        try:
            return future.result()
        except self._killed:
            raise ExecutorError(
                f"chunk task {index} failed: every Dask worker that ran it died "
                "(see the workers' logs); nothing was committed"
            ) from None

    def close(self) -> None:
        """Disconnect, and stop the local cluster if this executor started one."""
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def open_executor(
    kind: str, *, workers: int, scheduler: str | None = None, logs: bool = False
) -> ChunkExecutor:
    """Open an executor: ``local`` (``workers`` processes; 1: this process) or ``dask``.

    ``dask`` starts a local cluster of ``workers`` single-threaded worker processes, or,
    given a ``scheduler`` address (``tcp://host:8786``), uses that cluster's workers.
    ``logs`` lets Dask's own log messages through to stderr. Raises :class:`ExecutorError`
    when Dask is not installed or the scheduler cannot be reached, ``ValueError`` for an
    unknown kind, a scheduler given to the local executor, or ``workers`` out of range
    (1 to :data:`MAX_WORKERS`).
    """
    if kind not in EXECUTORS:
        raise ValueError(f"unknown executor {kind!r}; choose from {', '.join(EXECUTORS)}")
    check_workers(workers)
    if kind == "local":
        if scheduler is not None:
            raise ValueError("a scheduler address needs the dask executor")
        return SerialExecutor() if workers <= 1 else ProcessExecutor(workers)
    return DaskExecutor(workers=workers, scheduler=scheduler, logs=logs)


def check_workers(workers: int) -> None:
    """Raise ``ValueError`` unless ``workers`` is from 1 to :data:`MAX_WORKERS`."""
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be from 1 to {MAX_WORKERS} (got {workers})")
