"""Benchmark ``croupier run`` end to end against PokerKit and the I/O floor, in one run.

The input is generated once: half pot-limit Omaha (4 hole cards) and half pot-limit Omaha
hi/lo, interleaved, written to one temporary JSON Lines file. On it, in this one run and in
this order:

- peak memory (resident set high-water mark) of a one-worker run in a child process
  (``getrusage(RUSAGE_CHILDREN)``), on ``--memory-hands`` hands (default ``--hands``). The
  child samples its resident set after every chunk; when fewer than 1,000,000 hands were
  measured, the report adds the growth per hand between chunks, times the hands missing, to
  the peak measured, as an estimate at 1,000,000;
- ``croupier run``, one worker: :func:`pipeline.run.run_lake` into a fresh temporary lake,
  in this process (after an untimed warm-up run on a few hands), timed from input to commit;
- ``croupier run``, two workers: the same into another fresh lake (the time includes
  starting the worker processes, as a real run's does); the ratio to one worker. The two
  take turns, ``--repeat`` times each (one worker, two workers, one worker, two workers
  …), and the fastest run of each is kept: each side is timed at the same moments of the
  machine's drifting speed, and a moment when another process takes a core costs one run,
  not the ratio;
- the floor: reading the same input (every line decoded with ``decode_line``) and writing the
  same rows (the Parquet files of the one-worker run, read back untimed and rewritten with
  the same compression, file by file) without replaying or settling anything. It takes its
  turn after each round of the two runs, and its fastest is kept, as theirs are;
- PokerKit replaying the same hands through ``tests.pokerkit_bridge`` (deal, every action,
  showdown and payout): a sample of ``--pokerkit-hands`` of the input's hands it can
  represent, in the input's mix, half PLO and half PLO8 (the bridge plays hi/lo as
  PokerKit's pot-limit Omaha with its eight-or-better low as a second hand type). It plays
  the sample once in each round too, after the floor, and its fastest pass is kept, as the
  runs' fastest are; the report gives each variant's rate in that pass too;
- ``croupier run --executor dask``: the same on a local Dask cluster of two single-threaded
  worker processes, once starting the cluster (as ``croupier run`` does) and once on a
  cluster already up (what a long-lived cluster costs per run); their ratios to the two
  local processes, and whether the lake has the same rows (skipped without Dask).

The targets' measurements come first and one after the other, so that each ratio's two
sides are taken within a minute or two of each other: this shared machine's speed drifts
within a run (``python_loop_seconds`` at its start and end say by how much), and sides
taken minutes apart compare two speeds as much as two programs.

Prints a table of hands per second, the ratios, and the issue's targets (>= 100x PokerKit,
>= 0.25x the floor, two workers >= 1.7x one, < 1 GB peak on 1,000,000 hands), each marked
met or NOT met; the exit code does not depend on them. Writes a JSON report, by default to
``bench/results/run.json``, with the load average at start and end (other processes on the
machine skew the ratios, the two-worker one most). Run with
``.venv/bin/python -m bench.run [--hands N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import islice
from pathlib import Path

import pyarrow.parquet as pq

from bench.machine import loop_seconds
from pipeline.executors import ChunkExecutor, ExecutorError, open_executor
from pipeline.formats.jsonl import decode_line, iter_lines, read_jsonl, write_jsonl
from pipeline.formats.limits import READ_BUFFER
from pipeline.generate.play import GameChoice, generate_hands
from pipeline.lake.manifest import load_manifest
from pipeline.model import Betting, HandRecord, Variant
from pipeline.rules import ENGINE
from pipeline.run import CHUNK_HANDS, run_lake
from pipeline.violations import Reject

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results" / "run.json"
PLO = GameChoice(variant=Variant.OMAHA, hole_cards=4, betting=Betting.POT_LIMIT)
PLO8 = GameChoice(variant=Variant.OMAHA_HILO, hole_cards=4, betting=Betting.POT_LIMIT)
WARM_UP_HANDS = 500
MIN_SAMPLES = 8
"""Chunks the memory run needs before its growth per hand is extrapolated."""

TARGET_VS_POKERKIT = 100.0
"""croupier run must be at least this many times faster than PokerKit's replay."""
TARGET_VS_FLOOR = 0.25
"""croupier run must reach at least this fraction of the floor's throughput."""
TARGET_TWO_WORKERS = 1.7
"""Two workers must be at least this many times faster than one."""
TARGET_MEMORY_MB = 1024.0
TARGET_MEMORY_HANDS = 1_000_000
"""Peak resident memory of a one-worker run must stay under 1 GB on this many hands."""


@dataclass(frozen=True, slots=True)
class Row:
    """One measurement: something that processed ``hands`` hands in ``seconds``."""

    name: str
    hand_set: str
    hands: int
    seconds: float
    hands_per_second: float


@dataclass(frozen=True, slots=True)
class Target:
    """One of the issue's targets, what was measured, and whether it is met."""

    name: str
    goal: str
    measured: str
    value: float | None
    met: bool | None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Memory:
    """The peak resident memory of a one-worker run in a child process."""

    hands: int
    seconds: float
    peak_mb: float
    child_self_peak_mb: float
    samples: int
    growth_kb_per_1000_hands: float | None
    estimate_mb_at_target: float | None


# ------------------------------------------------------------------------------ input


def _mixed(count: int, seed: int) -> Iterator[HandRecord]:
    """Yield ``count`` hands, PLO and PLO8 alternately (half each), from two seeds."""
    plo = generate_hands(count - count // 2, seed=seed, choice=PLO)
    plo8 = generate_hands(count // 2, seed=seed + 1, choice=PLO8)
    for high in plo:
        yield high
        low = next(plo8, None)
        if low is not None:
            yield low


def write_input(path: Path, count: int, seed: int) -> int:
    """Generate the mixed hands into a JSON Lines file; return how many were written."""
    with open(path, "wb") as stream:
        return write_jsonl(_mixed(count, seed), stream)


def copy_head(source: Path, target: Path, lines: int) -> None:
    """Write the first ``lines`` lines of one file to another."""
    with open(source, "rb") as inp, open(target, "wb") as out:
        out.writelines(islice(inp, lines))


# ------------------------------------------------------------------------- measures


def time_run(
    path: Path,
    lake: Path,
    workers: int,
    chunk_hands: int,
    repeat: int = 1,
    executor: str | ChunkExecutor = "local",
) -> tuple[float, int]:
    """Run ``croupier run`` on one input into fresh lakes ``repeat`` times.

    Returns the fastest run's seconds and its hands; the last run's lake is kept at
    ``lake`` (the others are removed). ``executor`` is passed to ``run_lake``.
    """
    best = float("inf")
    hands = 0
    for attempt in range(repeat):
        if attempt:
            shutil.rmtree(lake)
        start = time.perf_counter()
        report = run_lake(
            [str(path)], lake, workers=workers, chunk_hands=chunk_hands, executor=executor
        )
        best = min(best, time.perf_counter() - start)
        if not report.committed:
            raise RuntimeError(f"the run into {lake} did not commit")
        hands = report.hands
    return best, hands


def time_in_turns(
    path: Path,
    lakes: dict[int, Path],
    chunk_hands: int,
    repeat: int,
    after_round: Callable[[], None] | None = None,
) -> dict[int, tuple[float, int]]:
    """Time ``croupier run`` with each number of workers of ``lakes`` in turn, ``repeat``
    rounds; return each one's fastest seconds and its hands (each keeps its last lake).
    ``after_round`` runs at the end of each round (the floor's turn)."""
    best: dict[int, tuple[float, int]] = {}
    for attempt in range(repeat):
        for workers, lake in lakes.items():
            print(f"croupier run, {workers} worker{'s' if workers > 1 else ''}", flush=True)
            if attempt:
                shutil.rmtree(lake)
            timed = time_run(path, lake, workers, chunk_hands)
            best[workers] = min(best.get(workers, timed), timed)
        if after_round is not None:
            after_round()
    return best


def rows_per_table(lake: Path) -> dict[str, int]:
    """Return the rows of every table of a lake, from its manifest."""
    counts: dict[str, int] = {}
    for entry in load_manifest(lake).live_files().values():
        counts[entry.table] = counts.get(entry.table, 0) + entry.rows
    return counts


def time_floor(path: Path, lake: Path, out: Path) -> tuple[float, float, int, int]:
    """Decode every line of the input, then rewrite every data file of ``lake`` into ``out``.

    Only decoding and writing are timed (reading the lake's files back is not). Returns the
    decode seconds, the write seconds, the hands decoded and the rows written.
    """
    name = str(path)
    start = time.perf_counter()
    hands = 0
    with open(path, "rb", buffering=READ_BUFFER) as stream:  # as croupier run reads it
        for item in iter_lines(stream, name):
            if isinstance(item, Reject):
                continue
            number, body, complete = item
            if not isinstance(decode_line(body, name, number, complete=complete), Reject):
                hands += 1
    decode_seconds = time.perf_counter() - start
    write_seconds = 0.0
    rows = 0
    for relative in load_manifest(lake).live_files():
        table = pq.read_table(lake / relative)
        target = out / relative
        start = time.perf_counter()
        target.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, target, compression="zstd")
        write_seconds += time.perf_counter() - start
        rows += table.num_rows
    return decode_seconds, write_seconds, hands, rows


@dataclass(frozen=True, slots=True)
class PokerKitSample:
    """The hands PokerKit replays, and how many of each variant were looked at to find them
    and could be played."""

    hands: list[HandRecord]
    looked: dict[str, int]
    playable: dict[str, int]


def pokerkit_sample(path: Path, count: int) -> PokerKitSample:
    """Return ``count`` hands of the input PokerKit can play, in file order, half of them
    PLO and half PLO8 (PLO gets the odd one) as the input has them, or fewer where the
    input has too few."""
    from tests.pokerkit_bridge import pokerkit_can_play

    wanted = {Variant.OMAHA: count - count // 2, Variant.OMAHA_HILO: count // 2}
    looked = dict.fromkeys(wanted, 0)
    playable = dict.fromkeys(wanted, 0)
    hands: list[HandRecord] = []
    for item in read_jsonl(path):
        if isinstance(item, Reject) or item.game.variant not in wanted:
            continue
        variant = item.game.variant
        if playable[variant] >= wanted[variant]:
            if playable == wanted:
                break
            continue
        looked[variant] += 1
        if pokerkit_can_play(item):
            playable[variant] += 1
            hands.append(item)
    return PokerKitSample(
        hands=hands,
        looked={v.value: n for v, n in looked.items()},
        playable={v.value: n for v, n in playable.items()},
    )


def time_pokerkit(
    hands: Sequence[HandRecord], warm_up: bool = True
) -> tuple[dict[str, float], int]:
    """Play the hands in PokerKit once (after a short warm-up, unless told); return the
    seconds spent on each variant's hands and how many hands PokerKit finished."""
    from tests.pokerkit_bridge import play_in_pokerkit

    if warm_up:
        for hand in hands[:20]:
            play_in_pokerkit(hand)
    seconds: dict[str, float] = {}
    finished = 0
    for hand in hands:
        start = time.perf_counter()
        play = play_in_pokerkit(hand)
        took = time.perf_counter() - start
        variant = hand.game.variant.value
        seconds[variant] = seconds.get(variant, 0.0) + took
        finished += play.refused is None and play.finished
    return seconds, finished


def measure_memory(path: Path, lake: Path, chunk_hands: int) -> Memory:
    """Run a one-worker ``croupier run`` in a child process; return its peak memory."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    command = [sys.executable, "-m", "bench.run", "--child-run", str(path), str(lake)]
    command += ["--chunk-hands", str(chunk_hands)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the memory child failed:\n{done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    child = json.loads(done.stdout.strip().splitlines()[-1])
    if after <= before:  # an earlier child reached higher: trust the child's own figure
        after = int(child["maxrss_kib"])
    samples: list[list[int]] = child["samples"]
    hands = int(child["hands"])
    slope = _growth_kib_per_hand(samples)
    peak_kib = float(after)
    estimate = None
    if slope is not None:
        estimate = (peak_kib + slope * max(TARGET_MEMORY_HANDS - hands, 0)) / 1024
    return Memory(
        hands=hands,
        seconds=float(child["seconds"]),
        peak_mb=peak_kib / 1024,
        child_self_peak_mb=int(child["maxrss_kib"]) / 1024,
        samples=len(samples),
        growth_kb_per_1000_hands=None if slope is None else slope * 1000,
        estimate_mb_at_target=estimate,
    )


def _growth_kib_per_hand(samples: Sequence[Sequence[int]]) -> float | None:
    """Return how the resident set between chunks grows per hand (KiB), ``None`` if unknown.

    The least-squares slope of the resident set sampled after each chunk but the first
    (when the chunk's rows are freed, so what remains is what the run keeps), from
    :data:`MIN_SAMPLES` chunks on: with fewer, chunk-to-chunk noise swamps the slope. The
    high-water mark itself is a poor basis: it steps up with the largest chunk so far.
    """
    points = [(h, m) for h, m in samples[1:] if m > 0]
    if len(samples) < MIN_SAMPLES or len(points) < 2 or points[-1][0] == points[0][0]:
        return None
    mean_h = sum(h for h, _ in points) / len(points)
    mean_m = sum(m for _, m in points) / len(points)
    spread = sum((h - mean_h) ** 2 for h, _ in points)
    slope = sum((h - mean_h) * (m - mean_m) for h, m in points) / spread
    return max(slope, 0.0)


def _resident_kib() -> int:
    """Return this process's resident set now (KiB; 0 where ``/proc`` is missing)."""
    try:
        with open("/proc/self/statm") as stream:
            pages = int(stream.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def child_run(path: str, lake: str, chunk_hands: int) -> int:
    """Body of the memory child: one-worker run, resident set sampled after every chunk."""
    samples: list[tuple[int, int]] = []
    read = 0

    def progress(event: str, n: int) -> None:
        nonlocal read
        if event == "hands":
            read += n
            samples.append((read, _resident_kib()))

    start = time.perf_counter()
    report = run_lake([path], lake, workers=1, chunk_hands=chunk_hands, on_progress=progress)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = {"hands": report.hands, "seconds": seconds, "maxrss_kib": peak, "samples": samples}
    print(json.dumps(out))
    return 0


# --------------------------------------------------------------------------- report


def measure_dask(
    source: Path,
    work: Path,
    args: argparse.Namespace,
    rows: dict[str, Row],
    tables: dict[str, int],
) -> dict[str, object]:
    """Time two-worker runs on a local Dask cluster (into ``rows``); return the checks."""
    print("croupier run --executor dask, 2 workers (cluster started by the run)", flush=True)
    try:
        seconds, hands = time_run(
            source, work / "lake-dask", 2, args.chunk_hands, args.repeat, executor="dask"
        )
    except ExecutorError as error:  # Dask is an optional extra
        return {"dask": str(error)}
    rows["dask2"] = _row("dask, 2 workers (starts cluster)", "PLO + PLO8", hands, seconds)
    checks: dict[str, object] = {"dask_same_rows": rows_per_table(work / "lake-dask") == tables}
    print("croupier run --executor dask, 2 workers (cluster already up)", flush=True)
    cluster = open_executor("dask", workers=2)
    try:
        seconds, hands = time_run(
            source, work / "lake-dask-up", 2, args.chunk_hands, args.repeat, executor=cluster
        )
    finally:
        cluster.close()
    rows["dask2_up"] = _row("dask, 2 workers (cluster up)", "PLO + PLO8", hands, seconds)
    processes = rows["run2"].hands_per_second
    for key in ("dask2", "dask2_up"):
        checks[f"{key}_vs_2_processes"] = round(rows[key].hands_per_second / processes, 3)
    return checks


def _row(name: str, hand_set: str, hands: int, seconds: float) -> Row:
    return Row(name, hand_set, hands, seconds, hands / seconds if seconds > 0 else 0.0)


def _ratio_target(name: str, goal: float, value: float | None, note: str = "") -> Target:
    if value is None:
        return Target(name, f">= {goal:g}x", "not measured", None, None, note)
    return Target(name, f">= {goal:g}x", f"{value:,.2f}x", value, value >= goal, note)


def targets(rows: dict[str, Row], memory: Memory) -> list[Target]:
    """Return the issue's targets with what was measured."""
    ours = rows["run1"].hands_per_second
    kit = rows.get("pokerkit")
    vs_kit = ours / kit.hands_per_second if kit and kit.hands_per_second else None
    floor = rows["floor"].hands_per_second
    two = rows["run2"].hands_per_second / ours
    cores = os.cpu_count() or 1
    estimate = memory.estimate_mb_at_target
    extrapolated = memory.hands < TARGET_MEMORY_HANDS and estimate is not None
    peak = estimate if extrapolated and estimate is not None else memory.peak_mb
    measured = f"{memory.peak_mb:,.0f} MB on {memory.hands:,} hands"
    if extrapolated:
        measured += f"; ~{estimate:,.0f} MB at {TARGET_MEMORY_HANDS:,} (est.)"
    if memory.hands < TARGET_MEMORY_HANDS:
        how = (
            "estimated: the peak measured plus the resident growth per hand between chunks"
            if extrapolated
            else f"fewer than {MIN_SAMPLES} chunks: judged on the figure measured, not extrapolated"
        )
    else:
        how = "measured"
    return [
        _ratio_target(
            "croupier run / PokerKit",
            TARGET_VS_POKERKIT,
            vs_kit,
            "PokerKit replays a sample of the same PLO+PLO8 mix (replay, showdown, payout); "
            "croupier run is the whole pipeline, reading to Parquet, on every hand",
        ),
        _ratio_target("croupier run / floor", TARGET_VS_FLOOR, ours / floor if floor else None),
        _ratio_target(
            "2 workers / 1 worker",
            TARGET_TWO_WORKERS,
            two,
            f"{cores} cores; the driver shares them with the workers",
        ),
        Target(
            "peak memory, 1 worker",
            f"< {TARGET_MEMORY_MB / 1024:g} GB on {TARGET_MEMORY_HANDS:,} hands",
            measured,
            peak,
            peak < TARGET_MEMORY_MB,
            how,
        ),
    ]


def render(rows: Sequence[Row], goals: Sequence[Target]) -> str:
    """Return the measurements and the targets as text tables."""
    lines = [f"{'measurement':<34} {'hands':<22} {'count':>9} {'seconds':>9} {'hands/s':>10}"]
    for r in rows:
        lines.append(
            f"{r.name:<34} {r.hand_set:<22} {r.hands:>9,} {r.seconds:>9.2f} "
            f"{r.hands_per_second:>10,.0f}"
        )
    lines.append("")
    lines.append(f"{'target':<24} {'goal':<32} {'status':<8} measured")
    for t in goals:
        status = "n/a" if t.met is None else "met" if t.met else "NOT met"
        if t.name.startswith("peak") and t.note != "measured":
            status += "*"
        lines.append(f"{t.name:<24} {t.goal:<32} {status:<8} {t.measured}")
    if goals and goals[-1].note != "measured":
        lines.append(
            "* not measured on 1,000,000 hands (run --memory-hands 1000000 for that): "
            + goals[-1].note
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------- main


def measure(args: argparse.Namespace, work: Path) -> dict[str, object]:
    """Take every measurement in ``work``; print the table; return the JSON report."""
    source = work / "hands.jsonl"
    start = time.perf_counter()
    written = write_input(source, args.hands, args.seed)
    print(f"generated {written:,} hands in {time.perf_counter() - start:.1f} s", flush=True)
    checks: dict[str, object] = {"generated": written, "input_bytes": source.stat().st_size}
    checks["load_average_at_start"] = [round(x, 2) for x in os.getloadavg()]
    checks["python_loop_seconds_at_start"] = loop_seconds()  # the day's speed (bench.machine)

    memory_input = source
    if args.memory_hands != args.hands:
        memory_input = work / "memory.jsonl"
        if args.memory_hands < args.hands:
            copy_head(source, memory_input, args.memory_hands)
        else:
            write_input(memory_input, args.memory_hands, args.seed)
    print(f"memory: one-worker run on {args.memory_hands:,} hands in a child", flush=True)
    memory = measure_memory(memory_input, work / "lake-memory", args.chunk_hands)
    if memory_input != source:
        memory_input.unlink()

    warm = work / "warm.jsonl"
    copy_head(source, warm, WARM_UP_HANDS)
    time_run(warm, work / "lake-warm", 1, args.chunk_hands)

    rows: dict[str, Row] = {}
    lakes = {1: work / "lake-1", 2: work / "lake-2"}
    floors: list[tuple[float, float, int, int]] = []  # each turn's time_floor

    sample: PokerKitSample | None = None
    try:
        sample = pokerkit_sample(source, args.pokerkit_hands)  # chosen untimed, played below
    except ImportError:  # PokerKit is a dev/bench extra
        checks["pokerkit"] = "not installed"
    kit_passes: list[tuple[dict[str, float], int]] = []  # each round's PokerKit pass

    def after_round() -> None:  # the floor, on the one-worker run's lake, then PokerKit
        shutil.rmtree(work / "floor", ignore_errors=True)
        print("floor: decode + write the same rows", flush=True)
        floors.append(time_floor(source, lakes[1], work / "floor"))
        if sample is not None and sample.hands:
            print(f"PokerKit on {len(sample.hands):,} PLO + PLO8 hands", flush=True)
            kit_passes.append(time_pokerkit(sample.hands, warm_up=not kit_passes))

    timed = time_in_turns(source, lakes, args.chunk_hands, args.repeat, after_round=after_round)
    seconds, hands = timed[1]
    rows["run1"] = _row("croupier run, 1 worker", "PLO + PLO8", hands, seconds)
    checks["hands_in_lake"] = hands
    tables = rows_per_table(lakes[1])
    checks["rows_per_table"] = tables
    seconds, hands2 = timed[2]
    rows["run2"] = _row("croupier run, 2 workers", "PLO + PLO8", hands2, seconds)
    checks["two_workers_same_rows"] = rows_per_table(lakes[2]) == tables

    decoding, writing, decoded, rewritten = min(floors, key=lambda f: f[0] + f[1])  # fastest
    rows["floor"] = _row("floor: decode + write rows", "PLO + PLO8", decoded, decoding + writing)
    rows["floor_decode"] = _row("  of which decode", "PLO + PLO8", decoded, decoding)
    rows["floor_write"] = _row("  of which write rows", "PLO + PLO8", decoded, writing)
    checks["floor_rows_written"] = rewritten
    checks["floor_rows_match"] = rewritten == sum(tables.values())

    if sample is not None:
        checks["pokerkit_hands_looked_at"] = sample.looked
        checks["pokerkit_playable"] = sample.playable
        if kit_passes:
            spent, finished = min(kit_passes, key=lambda p: sum(p[0].values()))  # fastest
            rows["pokerkit"] = _row(
                "PokerKit replay via bridge",
                "PLO + PLO8 (sample)",
                len(sample.hands),
                sum(spent.values()),
            )
            for variant, label in ((Variant.OMAHA, "PLO"), (Variant.OMAHA_HILO, "PLO8")):
                played = sample.playable[variant.value]  # every playable hand is in the sample
                if played:
                    rows[f"pokerkit_{label.lower()}"] = _row(
                        f"  of which {label}", f"{label} (sample)", played, spent[variant.value]
                    )
            checks["pokerkit_finished"] = f"{finished} of {len(sample.hands)} hands"
            kit = rows["pokerkit"].hands_per_second
            if kit:  # what reading and writing alone reach against PokerKit
                checks["floor_vs_pokerkit"] = round(rows["floor"].hands_per_second / kit, 1)
            plo = rows.get("pokerkit_plo")
            if plo and plo.hands_per_second:  # the ratio of reports before PLO8 was played
                run = rows["run1"].hands_per_second
                checks["run_vs_pokerkit_plo_only"] = round(run / plo.hands_per_second, 1)

    checks.update(measure_dask(source, work, args, rows, tables))

    checks["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    checks["python_loop_seconds_at_end"] = loop_seconds()
    goals = targets(rows, memory)
    print()
    print(render(list(rows.values()), goals))
    for name, value in checks.items():
        print(f"{name}: {value}")
    return {
        "benchmark": "run",
        "python": platform.python_version(),
        "rules_engine": ENGINE,
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "seed": args.seed,
        "hands": args.hands,
        "chunk_hands": args.chunk_hands,
        "repeat": args.repeat,
        "rows": {key: asdict(r) for key, r in rows.items()},
        "targets": [asdict(t) for t in goals],
        "memory": asdict(memory),
        "checks": checks,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the tables, write the JSON report; return 0."""
    parser = argparse.ArgumentParser(prog="bench.run", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--hands", type=int, default=100_000, help="PLO + PLO8 hands to generate")
    parser.add_argument(
        "--memory-hands",
        type=int,
        default=None,
        help="hands of the peak-memory run (default: --hands)",
    )
    parser.add_argument(
        "--pokerkit-hands",
        type=int,
        default=2_000,
        help="PokerKit-playable hands PokerKit replays (half PLO, half PLO8)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=2,
        help="rounds of timed runs: croupier run with one and two workers, the floor and"
        " PokerKit's pass over its sample, in turn (the fastest of each kept)",
    )
    parser.add_argument("--chunk-hands", type=int, default=CHUNK_HANDS, help="hands per chunk")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--child-run", nargs=2, metavar=("INPUT", "LAKE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_run:
        return child_run(args.child_run[0], args.child_run[1], args.chunk_hands)
    if args.hands < 2 * WARM_UP_HANDS:
        parser.error(f"--hands must be at least {2 * WARM_UP_HANDS}")
    if args.memory_hands is None:
        args.memory_hands = args.hands

    with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
        report = measure(args, Path(tmp))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    print(f"report: {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
