"""Run every benchmark: ``python -m bench`` (``make bench``).

Each benchmark measures Croupier beside a reference in the same run and reports ratios;
reports are written to ``bench/results/``. Arguments are passed to each benchmark.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = ("bench.evaluate", "bench.replay", "bench.run")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks in turn; return the worst exit code."""
    args = sys.argv[1:] if argv is None else argv
    worst = 0
    for name in BENCHMARKS:
        print(f"== {name}", flush=True)
        module = importlib.import_module(name)
        worst = max(worst, int(module.main(list(args))))
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
