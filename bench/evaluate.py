"""Benchmark Omaha hand evaluation: croupier's numpy batches against phevaluator and PokerKit.

Every evaluator gets the same random deals (one player and one board per hand) in the same
run, on one core. croupier evaluates whole batches; phevaluator (a C extension that ships a
4-card Omaha evaluator only) and PokerKit (pure Python) are called once per hand. For 5- and
6-card Omaha phevaluator takes the best of its 4-card evaluator over every 4-card subset of the
hand (5 and 15 calls), which is exact because any hole pair lies in some 4-card subset.

Prints a table of hands per second with ratios and writes a JSON report, by default to
``bench/results/evaluate.json``. Run with ``.venv/bin/python -m bench.evaluate``.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipeline.cards import format_cards
from pipeline.evaluate import best_high, evaluate_batch, load_tables

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results" / "evaluate.json"
TARGETS = {  # hands per second per core, from the issue
    ("high", 4): 400_000,
    ("high+low", 4): 250_000,
    ("high", 5): 200_000,
    ("high", 6): 150_000,
}

CardArray = npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True)
class Row:
    """One measurement: an evaluator on ``hands`` deals of ``hole_size`` hole cards."""

    evaluator: str
    what: str
    hole_size: int
    hands: int
    seconds: float
    hands_per_second: float
    target: int | None
    ratio_to_croupier: float | None = None


def deal(count: int, hole_size: int, seed: int) -> tuple[CardArray, CardArray]:
    """Return ``count`` random hands: holes ``(count, hole_size)`` and boards ``(count, 5)``."""
    order = np.argsort(np.random.default_rng(seed).random((count, 52)), axis=1)
    dealt = order[:, : hole_size + 5].astype(np.int8)
    return dealt[:, :hole_size], dealt[:, hole_size:]


def best_time(run: Callable[[], object], repeat: int) -> float:
    """Return the fastest of ``repeat`` timed runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def phevaluator_runner(holes: CardArray, boards: CardArray) -> Callable[[], list[int]] | None:
    """Return a call that ranks every hand with phevaluator, or None if it is not installed."""
    try:
        from phevaluator import evaluate_omaha_cards
    except ImportError:
        return None
    hole_lists = holes.tolist()
    board_lists = boards.tolist()
    if holes.shape[1] == 4:
        return lambda: [
            evaluate_omaha_cards(*board, *hole)
            for hole, board in zip(hole_lists, board_lists, strict=True)
        ]
    subsets = list(combinations(range(holes.shape[1]), 4))

    def run() -> list[int]:
        return [
            min(evaluate_omaha_cards(*board, *(hole[i] for i in subset)) for subset in subsets)
            for hole, board in zip(hole_lists, board_lists, strict=True)
        ]

    return run


def pokerkit_runner(
    holes: CardArray, boards: CardArray, with_low: bool
) -> Callable[[], list[object]] | None:
    """Return a call that evaluates every hand with PokerKit, or None if it is not installed."""
    try:
        from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand
    except ImportError:
        return None
    texts = [
        (format_cards(hole), format_cards(board))
        for hole, board in zip(holes.tolist(), boards.tolist(), strict=True)
    ]

    def run() -> list[object]:
        hands: list[object] = []
        for hole, board in texts:
            hands.append(OmahaHoldemHand.from_game(hole, board))
            if with_low:
                hands.append(OmahaEightOrBetterLowHand.from_game_or_none(hole, board))
        return hands

    return run


def _scalar_highs(holes: list[list[int]], boards: list[list[int]]) -> list[int]:
    """Evaluate hands one call at a time with the scalar API."""
    return [best_high(hole, board).rank for hole, board in zip(holes, boards, strict=True)]


def measure(args: argparse.Namespace) -> tuple[list[Row], dict[str, object]]:
    """Time every evaluator on the same deals; return the rows and the agreement checks."""
    rows: list[Row] = []
    checks: dict[str, object] = {}
    for hole_size in (4, 5, 6):
        holes, boards = deal(args.hands, hole_size, seed=args.seed + hole_size)
        evaluate_batch(holes[:1000], boards[:1000])  # warm up
        croupier: dict[str, float] = {}
        for what, with_low in (("high", False), ("high+low", True)):
            seconds = best_time(
                functools.partial(evaluate_batch, holes, boards, low=with_low), args.repeat
            )
            croupier[what] = args.hands / seconds
            rows.append(
                Row(
                    evaluator="croupier batch",
                    what=what,
                    hole_size=hole_size,
                    hands=args.hands,
                    seconds=seconds,
                    hands_per_second=args.hands / seconds,
                    target=TARGETS.get((what, hole_size)),
                )
            )
        small = min(args.scalar_hands, args.hands)
        hole_lists, board_lists = holes[:small].tolist(), boards[:small].tolist()
        seconds = best_time(functools.partial(_scalar_highs, hole_lists, board_lists), 1)
        rows.append(
            _other("croupier scalar best_high", "high", hole_size, small, seconds, croupier)
        )

        phe_count = min(args.phevaluator_hands, args.hands)
        phe = phevaluator_runner(holes[:phe_count], boards[:phe_count])
        if phe is not None:
            seconds = best_time(phe, 1)
            label = "phevaluator" if hole_size == 4 else "phevaluator (4-card subsets)"
            rows.append(_other(label, "high", hole_size, phe_count, seconds, croupier))
            ours = evaluate_batch(holes[:phe_count], boards[:phe_count], low=False).high
            checks[f"phevaluator_agrees_{hole_size}"] = bool(
                np.array_equal(ours, 7463 - np.array(phe()))
            )
        for what, with_low in (("high", False), ("high+low", True)):
            kit_count = min(args.pokerkit_hands, args.hands)
            kit = pokerkit_runner(holes[:kit_count], boards[:kit_count], with_low)
            if kit is not None:
                seconds = best_time(kit, 1)
                rows.append(_other("pokerkit", what, hole_size, kit_count, seconds, croupier))
    return rows, checks


def _other(
    evaluator: str,
    what: str,
    hole_size: int,
    hands: int,
    seconds: float,
    croupier: dict[str, float],
) -> Row:
    """Return a row for a per-hand evaluator, with croupier's batch speed relative to it."""
    speed = hands / seconds
    return Row(
        evaluator=evaluator,
        what=what,
        hole_size=hole_size,
        hands=hands,
        seconds=seconds,
        hands_per_second=speed,
        target=None,
        ratio_to_croupier=croupier[what] / speed,
    )


def render(rows: Sequence[Row]) -> str:
    """Return the rows as a text table."""
    lines = [
        f"{'evaluator':<30} {'what':<9} {'cards':>5} {'hands':>8} {'hands/s':>12} "
        f"{'croupier is':>12} {'target':>9}"
    ]
    for row in rows:
        ratio = f"{row.ratio_to_croupier:,.1f}x" if row.ratio_to_croupier else ""
        target = ""
        if row.target is not None:
            target = ("ok " if row.hands_per_second >= row.target else "LOW ") + f"{row.target:,}"
        lines.append(
            f"{row.evaluator:<30} {row.what:<9} {row.hole_size:>5} {row.hands:>8,} "
            f"{row.hands_per_second:>12,.0f} {ratio:>12} {target:>9}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table, write the JSON report; return 0."""
    parser = argparse.ArgumentParser(
        prog="bench.evaluate", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--hands", type=int, default=100_000, help="batch size for croupier")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per batch (best kept)")
    parser.add_argument("--phevaluator-hands", type=int, default=100_000)
    parser.add_argument("--pokerkit-hands", type=int, default=1_000)
    parser.add_argument("--scalar-hands", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    loaded = load_tables()
    load_ms = (time.perf_counter() - start) * 1000
    rows, checks = measure(args)
    print(f"tables: {loaded.source} in {load_ms:.1f} ms from {loaded.path}")
    print(render(rows))
    for name, agrees in checks.items():
        print(f"{name}: {agrees}")
    report = {
        "benchmark": "evaluate",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "tables": {"source": str(loaded.source), "load_ms": load_ms},
        "checks": checks,
        "rows": [asdict(row) for row in rows],
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    print(f"report: {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
