"""Run the benchmarks: ``python -m bench [evaluate|replay|run] [ARGS]`` (``make bench``).

Each benchmark measures Croupier beside a reference in the same run and reports ratios;
reports are written to ``bench/results/``. A benchmark's name first runs only that one
(``python -m bench run --hands 20000``); without one, every benchmark runs in turn. The
other arguments are passed to each benchmark.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = ("bench.evaluate", "bench.replay", "bench.run")


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmark, or all of them in turn; return the worst exit code."""
    args = sys.argv[1:] if argv is None else argv
    chosen: tuple[str, ...] = BENCHMARKS
    if args and f"bench.{args[0]}" in BENCHMARKS:
        chosen, args = (f"bench.{args[0]}",), args[1:]
    worst = 0
    for name in chosen:
        print(f"== {name}", flush=True)
        module = importlib.import_module(name)
        worst = max(worst, int(module.main(list(args))))
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
