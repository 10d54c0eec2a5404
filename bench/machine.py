"""The machine's speed on the day of a benchmark, for reading hands/s across reports.

The project's machines are shared, and their speed varies from day to day by several times
(the same compiled engine replayed 28,848 hands/s on 2026-12-01 and about 3,300 on
2026-12-05). Ratios measured side by side in one run hold; a hands/s figure says little
without the day's speed beside it. :func:`loop_seconds` times a fixed pure-Python loop,
which every report records: two reports compare in hands/s only where it is close.
"""

from __future__ import annotations

import time

__all__ = ["LOOP", "loop_seconds"]

LOOP = 10_000_000
"""Integers summed by the loop (``sum(range(LOOP))``)."""


def loop_seconds(repeat: int = 5) -> float:
    """Return the best of ``repeat`` timings of ``sum(range(LOOP))``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        sum(range(LOOP))
        best = min(best, time.perf_counter() - start)
    return round(best, 3)
