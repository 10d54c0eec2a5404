"""Benchmark the rules engine's replay against PokerKit playing the same pot-limit Omaha hands.

The hands are generated once (4 hole cards, pot limit) and are already ``HandRecord``s, so
parsing is not timed. croupier's ``replay(hand)`` is timed over every generated hand and
over the hands PokerKit can represent; PokerKit plays those same hands through
``tests.pokerkit_bridge`` (state creation, deal, every action, showdown and payout). Both
run in this one process, on one core (pure Python, one thread): each timing is the best of
``--repeat`` runs after an untimed warm-up run. The issue's target is 25,000 hands per
second per core for the replay: the report says whether it is met; the exit code does not
depend on it.

Prints a table of hands per second with the ratio, and writes a JSON report, by default to
``bench/results/replay.json``. Run with ``.venv/bin/python -m bench.replay [--hands N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar

from bench.machine import loop_seconds
from pipeline.generate.play import GameChoice, generate_hands
from pipeline.model import Betting, HandRecord, Variant
from pipeline.rules import ENGINE, replay

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results" / "replay.json"
TARGET = 25_000
"""Hands per second per core the issue asks of ``replay``."""
CHOICE = GameChoice(variant=Variant.OMAHA, hole_cards=4, betting=Betting.POT_LIMIT)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Row:
    """One measurement: an engine replaying ``hands`` hands of a named set."""

    engine: str
    hand_set: str
    hands: int
    seconds: float
    hands_per_second: float
    target: int | None = None
    croupier_speedup: float | None = None


def best_time(run: Callable[[], T], repeat: int) -> tuple[float, T]:
    """Return the fastest of ``repeat`` timed runs (after one untimed warm-up), and a result."""
    result = run()
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def replay_all(hands: Sequence[HandRecord]) -> int:
    """Replay every hand with croupier's engine; return how many had no violations."""
    return sum(1 for hand in hands if not replay(hand).violations)


def measure(args: argparse.Namespace) -> tuple[list[Row], dict[str, object]]:
    """Time both engines on the same hands; return the rows and the agreement checks."""
    hands = list(generate_hands(args.hands, seed=args.seed, choice=CHOICE))
    seconds, clean = best_time(lambda: replay_all(hands), args.repeat)
    rows = [_row("croupier replay", "all generated", len(hands), seconds, target=TARGET)]
    checks: dict[str, object] = {"generated": len(hands), "croupier_without_violations": clean}
    checks["python_loop_seconds"] = loop_seconds()  # the day's speed (bench.machine)
    try:
        from tests.pokerkit_bridge import play_in_pokerkit, pokerkit_can_play
    except ImportError:  # PokerKit is a dev/bench extra
        checks["pokerkit"] = "not installed"
        return rows, checks
    playable = [hand for hand in hands if pokerkit_can_play(hand)]
    shared = playable[: args.pokerkit_hands] if args.pokerkit_hands > 0 else playable
    checks["pokerkit_playable"] = len(playable)

    def play_all() -> int:
        plays = (play_in_pokerkit(hand) for hand in shared)
        return sum(1 for play in plays if play.accepted and play.finished)

    ours, _ = best_time(lambda: replay_all(shared), args.repeat)
    theirs, accepted = best_time(play_all, args.repeat)
    rows.append(_row("croupier replay", "PokerKit-playable", len(shared), ours, target=TARGET))
    rows.append(
        _row("pokerkit via bridge", "PokerKit-playable", len(shared), theirs, speedup=theirs / ours)
    )
    checks["pokerkit_accepted_every_action"] = f"{accepted} of {len(shared)} hands"
    return rows, checks


def _row(
    engine: str,
    hand_set: str,
    hands: int,
    seconds: float,
    *,
    target: int | None = None,
    speedup: float | None = None,
) -> Row:
    return Row(
        engine=engine,
        hand_set=hand_set,
        hands=hands,
        seconds=seconds,
        hands_per_second=hands / seconds,
        target=target,
        croupier_speedup=speedup,
    )


def render(rows: Sequence[Row]) -> str:
    """Return the rows as a text table."""
    lines = [
        f"{'engine':<22} {'hands':<18} {'count':>7} {'seconds':>9} {'hands/s':>10} "
        f"{'croupier is':>12} {'target':>14}"
    ]
    for r in rows:
        ratio = f"{r.croupier_speedup:,.1f}x faster" if r.croupier_speedup else ""
        target = ""
        if r.target is not None:
            target = ("met " if r.hands_per_second >= r.target else "NOT met ") + f"{r.target:,}"
        lines.append(
            f"{r.engine:<22} {r.hand_set:<18} {r.hands:>7,} {r.seconds:>9.3f} "
            f"{r.hands_per_second:>10,.0f} {ratio:>12} {target:>14}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table, write the JSON report; return 0."""
    parser = argparse.ArgumentParser(
        prog="bench.replay", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--hands", type=int, default=5_000, help="PLO hands to generate")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per engine (best kept)")
    parser.add_argument(
        "--pokerkit-hands",
        type=int,
        default=1_000,
        help="PokerKit-playable hands both engines replay side by side (0: all of them)",
    )
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    rows, checks = measure(args)
    print(render(rows))
    ours = rows[0].hands_per_second
    met = "met" if ours >= TARGET else "NOT met"
    print(f"target: {TARGET:,} hands/s/core for replay; {ours:,.0f} hands/s: {met}")
    print(f"form: {ENGINE} (see setup.py)")
    for name, value in checks.items():
        print(f"{name}: {value}")
    report = {
        "benchmark": "replay",
        "python": platform.python_version(),
        "rules_engine": ENGINE,
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "seed": args.seed,
        "repeat": args.repeat,
        "target_hands_per_second": TARGET,
        "target_met": ours >= TARGET,
        "checks": checks,
        "rows": [asdict(r) for r in rows],
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    print(f"report: {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
