"""Judge hand logs without writing a lake: read, replay, and report every violation.

The same records the lake stores, for one command-line run: each input hand is either a
:class:`Judged` hand (with its replay) or a :class:`~pipeline.violations.Reject`.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.formats import HAND_LOG_SUFFIXES, read_hands
from pipeline.formats.jsonl import read_jsonl_stream
from pipeline.model import HandRecord
from pipeline.rules import STANDARD, Replay, RuleSet, replay
from pipeline.violations import Reject, Severity, Violation

__all__ = ["CheckSummary", "Judged", "check_paths", "discover", "violation_record"]


@dataclass(frozen=True, slots=True)
class Judged:
    """One hand and its replay."""

    hand: HandRecord
    replay: Replay

    @property
    def has_errors(self) -> bool:
        """Tell whether any violation of this hand is an error."""
        return any(v.severity is Severity.ERROR for v in self.replay.violations)


@dataclass(slots=True)
class CheckSummary:
    """Counts over a check run."""

    hands: int = 0
    rejects: int = 0
    hands_with_errors: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    by_code: Counter[str] = field(default_factory=Counter)

    def add(self, item: Judged | Reject) -> None:
        """Count one judged hand or reject."""
        if isinstance(item, Reject):
            self.rejects += 1
            self.by_code[item.code.value] += 1
            return
        self.hands += 1
        self.by_status[item.replay.status.value] += 1
        self.hands_with_errors += item.has_errors
        for v in item.replay.violations:
            self.by_code[v.code.value] += 1


def discover(inputs: Iterable[str]) -> Iterator[str]:
    """Expand inputs: a directory gives its hand logs (recursively, sorted); ``-`` is stdin.

    A file named explicitly is read whatever its name; in a directory only files with a
    hand-log suffix (``.jsonl``, ``.ndjson``) are.
    """
    for name in inputs:
        path = Path(name)
        if name != "-" and path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file())
            yield from (str(p) for p in found if p.suffix.lower() in HAND_LOG_SUFFIXES)
        else:
            yield name


def check_paths(
    inputs: Iterable[str],
    *,
    rules: RuleSet = STANDARD,
    input_format: str | None = None,
    on_item: Callable[[Judged | Reject], None] | None = None,
) -> Iterator[Judged | Reject]:
    """Read every hand of the inputs, replay it under ``rules``, and yield the verdicts."""
    for name in discover(inputs):
        items = (
            read_jsonl_stream(sys.stdin.buffer, "<stdin>")
            if name == "-"
            else read_hands(name, input_format=input_format)
        )
        for item in items:
            verdict: Judged | Reject = (
                item if isinstance(item, Reject) else Judged(item, replay(item, rules))
            )
            if on_item is not None:
                on_item(verdict)
            yield verdict


def violation_record(v: Violation) -> dict[str, object]:
    """Return a violation as a plain dict (the JSON form ``check --format json`` prints)."""
    return {
        "code": v.code.value,
        "severity": v.severity.value,
        "rule": v.rule,
        "seq": v.seq,
        "seat": v.seat,
        "message": v.message,
        "expected": v.expected,
        "actual": v.actual,
    }
