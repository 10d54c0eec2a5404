"""Load: millions of generated hands streamed through ``croupier run -`` with flat memory.

``python -m bench.load --hands 5000000`` runs ``croupier generate … -o - | croupier run -``
(no input file is written), samples the memory of the run's whole process tree every
second, then times DuckDB queries and ``croupier stats`` on the lake. It checks the free
disk first and scales the number of hands down, saying so, when the disk is short.
Writes ``bench/results/load.json`` and prints a summary.

The generator is slower than a run with two workers, so streamed from it a run waits on
its input and a worker may meet its first chunk (and its working memory) anywhere in the
run. ``--pregenerate`` writes the hands to a file first and streams that instead: the run
alone on the cores, every worker busy from the first chunks (the memory test uses it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
BYTES_PER_HAND = 1200
"""Lake bytes per generated hand (measured: about 1 KB), with room to spare."""
INPUT_BYTES_PER_HAND = 2400
"""Bytes per generated hand as JSON Lines (measured: about 2 KB), with room to spare."""
_SAMPLES_PER_SECOND = 5
"""How often the run's memory is sampled: a short run (seconds, in the tests) rises until
it ends, so its peak is the last samples', and one a second missed much of it."""
HEADROOM = 2 * 1024**3
"""Free disk left untouched by the run."""

QUERIES = {
    "hands by variant": "SELECT * FROM hands_by_variant",
    "violations by code": "SELECT * FROM violations_by_code",
    "biggest pots": "SELECT hand_id, total_pot FROM hands ORDER BY total_pot DESC LIMIT 10",
    "net by position": "SELECT position, sum(net) FROM seats GROUP BY position",
}


def _tree(root: int) -> list[int]:
    """Return ``root`` and every process descended from it (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _rss(pid: int) -> int:
    """Return a process's resident memory in bytes (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def plan(hands: int, folder: Path, per_hand: int = BYTES_PER_HAND) -> tuple[int, str | None]:
    """Return the hands the free disk allows (at most ``hands``) and why fewer, if fewer."""
    free = shutil.disk_usage(folder).free - HEADROOM
    fits = max(0, free // per_hand)
    if fits >= hands:
        return hands, None
    return int(fits), (
        f"only {free / 1e9:.1f} GB free beside {folder}: running {fits:,} hands, not {hands:,}"
    )


def run(
    hands: int, lake: Path, workers: int, seed: int, pregenerated: Path | None = None
) -> dict[str, object]:
    """Stream ``hands`` generated hands into ``lake``; return the measurements.

    With ``pregenerated`` (a file path), the hands are generated into that file first and
    the run streams the file."""
    croupier = [sys.executable, "-m", "pipeline.cli"]
    generating = [*croupier, "generate", "--hands", str(hands), "--seed", str(seed), "-o"]
    if pregenerated is not None:
        subprocess.run([*generating, str(pregenerated)], check=True, stdout=subprocess.DEVNULL)
        feed = subprocess.Popen(["cat", str(pregenerated)], stdout=subprocess.PIPE)
    else:
        feed = subprocess.Popen([*generating, "-"], stdout=subprocess.PIPE)
    assert feed.stdout is not None
    began = time.perf_counter()
    ingest = subprocess.Popen(
        [
            *croupier,
            "run",
            "-",
            "--out",
            str(lake),
            "-q",
            "--format",
            "json",
            "--workers",
            str(workers),
        ],
        stdin=feed.stdout,
        stdout=subprocess.PIPE,
    )
    feed.stdout.close()
    samples: list[tuple[float, int]] = []
    while ingest.poll() is None:
        samples.append((time.perf_counter() - began, sum(map(_rss, _tree(ingest.pid)))))
        if len(samples) % (60 * _SAMPLES_PER_SECOND) == 0:
            print(f"  {samples[-1][0] / 60:.0f} min: {samples[-1][1] / 2**20:.0f} MB", flush=True)
        time.sleep(1 / _SAMPLES_PER_SECOND)
    seconds = time.perf_counter() - began
    out = ingest.stdout.read() if ingest.stdout else b""
    if feed.wait() != 0 or ingest.returncode != 0:
        raise SystemExit(f"the run failed (input {feed.returncode}, run {ingest.returncode})")
    summary = json.loads(out)
    rss = [r for _, r in samples if r] or [0]
    tenths = [max(rss[k * len(rss) // 10 : (k + 1) * len(rss) // 10] or [0]) for k in range(10)]
    timings: dict[str, float] = {}
    for name, sql in QUERIES.items():
        start = time.perf_counter()
        subprocess.run(
            [*croupier, "query", sql, "--lake", str(lake), "--format", "csv"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        timings[name] = round(time.perf_counter() - start, 2)
    start = time.perf_counter()
    subprocess.run(
        [*croupier, "stats", "--lake", str(lake), "--by", "variant", "--format", "csv"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    timings["croupier stats --by variant"] = round(time.perf_counter() - start, 2)
    size = sum(p.stat().st_size for p in lake.rglob("*") if p.is_file())
    return {
        "hands": hands,
        "workers": workers,
        "seconds": round(seconds, 1),
        "hands_per_second": round(hands / seconds),
        "summary": summary,
        "peak_rss_mb": round(max(rss, default=0) / 2**20),
        "rss_mb_by_tenth": [round(r / 2**20) for r in tenths],
        "rss_mb_every_minute": [
            round(r / 2**20)
            for k, (_, r) in enumerate(samples)
            if k % (60 * _SAMPLES_PER_SECOND) == 0
        ],
        "lake_gb": round(size / 1e9, 2),
        "query_seconds": timings,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the load benchmark; return 0."""
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument("--hands", type=int, default=5_000_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--lake", type=Path, default=None, help="Keep the lake here.")
    parser.add_argument("--report", type=Path, default=RESULTS / "load.json")
    parser.add_argument(
        "--pregenerate",
        action="store_true",
        help="Generate the hands into a file first and stream the file (the run alone).",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="croupier-load-") as scratch:
        lake = args.lake or Path(scratch) / "lake"
        lake.parent.mkdir(parents=True, exist_ok=True)
        per_hand = BYTES_PER_HAND + (INPUT_BYTES_PER_HAND if args.pregenerate else 0)
        hands, why = plan(args.hands, lake.parent, per_hand)
        if why:
            print(why, flush=True)
        if hands < 1000:
            print("not enough free disk for a load test", file=sys.stderr)
            return 3
        # the input beside the lake: on the filesystem whose free space plan() counted
        with tempfile.TemporaryDirectory(prefix="croupier-load-input-", dir=lake.parent) as put:
            pregenerated = Path(put) / "hands.jsonl" if args.pregenerate else None
            report = run(hands, lake, args.workers, args.seed, pregenerated)
        report["scaled_down"] = why
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(
        f"{report['hands']:,} hands in {report['seconds']} s ({report['hands_per_second']:,}"
        f" hands/s, {args.workers} workers); peak memory {report['peak_rss_mb']} MB,"
        f" by tenth of the run {report['rss_mb_by_tenth']} MB; lake {report['lake_gb']} GB"
    )
    for name, seconds in dict(report["query_seconds"]).items():  # type: ignore[call-overload]
        print(f"  {name}: {seconds} s")
    print(f"report: {args.report}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
