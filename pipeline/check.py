"""Judge hand logs without writing a lake: read, replay, and report every violation.

The same records the lake stores, for one command-line run: each input hand is either a
:class:`Judged` hand (with its replay), a :class:`~pipeline.violations.Reject`, or a
:class:`Duplicate` of a hand read before.
"""

from __future__ import annotations

import errno
import gc
import glob
import os
import re
import stat
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.formats import HAND_LOG_SUFFIXES, looks_like_hand_log, read_hands, read_stream
from pipeline.lake.keys import KeySet
from pipeline.model import HandRecord, Status
from pipeline.rules import STANDARD, Replay, RuleSet, replay
from pipeline.settle import Settlement, error_count, hand_status, settle_many
from pipeline.violations import Reject, Violation

__all__ = [
    "CheckSummary",
    "Duplicate",
    "Judged",
    "check_paths",
    "discover",
    "violation_record",
]


@dataclass(frozen=True, slots=True)
class Judged:
    """One hand, its replay and its settlement."""

    hand: HandRecord
    replay: Replay
    settlement: Settlement

    @property
    def violations(self) -> tuple[Violation, ...]:
        """Return every violation: the replay's, then the settlement's."""
        return self.replay.violations + self.settlement.violations

    @property
    def status(self) -> Status:
        """Return the hand's status, counting settlement errors too."""
        return hand_status(self.replay, self.settlement)

    @property
    def has_errors(self) -> bool:
        """Tell whether any violation of this hand is an error (a void hand, cancelled by
        the site, fails nothing: what it lacks is why it was cancelled)."""
        return error_count(self.status, self.violations) > 0


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A hand whose ``(site, hand_id)`` an earlier hand of the same check had: not judged
    again (``croupier run`` counts it as a duplicate and does not ingest it)."""

    hand: HandRecord


Verdict = Judged | Reject | Duplicate
"""What a check says of each input hand."""


@dataclass(slots=True)
class CheckSummary:
    """Counts over a check run."""

    hands: int = 0
    rejects: int = 0
    duplicates: int = 0
    hands_with_errors: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    by_code: Counter[str] = field(default_factory=Counter)

    @property
    def read(self) -> int:
        """Return the inputs counted: hands, rejects and duplicates."""
        return self.hands + self.rejects + self.duplicates

    def add(self, item: Verdict) -> None:
        """Count one judged hand, reject or duplicate."""
        if isinstance(item, Reject):
            self.rejects += 1
            self.by_code[item.code.value] += 1
            return
        if isinstance(item, Duplicate):
            self.duplicates += 1
            return
        self.hands += 1
        self.by_status[item.status.value] += 1
        self.hands_with_errors += item.has_errors
        for v in item.violations:
            self.by_code[v.code.value] += 1


Skip = Callable[[str, str], None]
"""Told ``(path, reason)`` for each thing a directory search passes over."""


def discover(
    inputs: Iterable[str], *, on_skip: Skip | None = None, regular_only: bool = False
) -> Iterator[str]:
    """Expand inputs: a directory gives its hand logs (recursively, sorted); ``-`` is stdin.

    An input that is not a path but a glob pattern (``hands/*.txt``, ``logs/**/*.jsonl``:
    quoted, so the shell left it alone) stands for the paths it matches, sorted; a pattern
    that matches nothing raises ``FileNotFoundError``. A file named explicitly (or by a
    pattern) is read whatever its name; in a directory only regular files
    with a hand-log suffix are (see ``HAND_LOG_SUFFIXES``). Symbolic links are followed,
    each folder searched once and each file found once. What a search cannot use, a
    symbolic-link loop, a broken link or a FIFO with a hand-log name, a folder it may not
    list, is passed to ``on_skip(path, reason)`` (default: a line on stderr) and the
    search goes on; so are, in one call naming the folder searched, the files it passed
    over for their names that look like hand logs (see ``looks_like_hand_log``).
    With ``regular_only`` (for inputs read twice, to hash and to ingest), an input named
    explicitly that exists but is not a regular file (a FIFO, a device) raises
    ``OSError``; a missing one is left for its reader to report.
    """
    skip = on_skip or _warn_skipped
    for name in inputs:
        if name != "-" and not os.path.lexists(name) and _GLOB.search(name):
            matches = sorted(glob.glob(name, recursive=True))
            if not matches:
                raise FileNotFoundError(errno.ENOENT, "no file matches the pattern", name)
        else:
            matches = [name]
        for match in matches:
            if match == "-":
                yield match
            elif os.path.isdir(match):
                yield from (str(p) for p in _search(Path(match), skip))
            else:
                if regular_only:
                    _require_regular(match)
                yield match


_GLOB = re.compile(r"[*?\[]")
"""The characters of a glob pattern (``*``, ``?``, ``[``), matched by :func:`glob.glob`."""


def _warn_skipped(path: str, reason: str) -> None:
    sys.stderr.write(f"skipped {path}: {reason}\n")


def _require_regular(name: str) -> None:
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file (give a pipe as - on stdin)", name)


def _search(root: Path, skip: Skip) -> list[Path]:
    """Return the hand logs under ``root``, sorted; report what cannot be used."""
    folders: set[tuple[int, int]] = set()
    files: dict[tuple[int, int], Path] = {}
    others: list[str] = []  # files that look like hand logs, passed over for their names
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            info = folder.stat()
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as error:
            skip(str(folder), _reason(error))
            continue
        key = (info.st_dev, info.st_ino)
        if key in folders:
            skip(str(folder), "already searched (a symbolic-link loop, or a second link to it)")
            continue
        folders.add(key)
        for entry in entries:
            path = Path(entry.path)
            wanted = path.suffix.lower() in HAND_LOG_SUFFIXES
            try:
                found = os.stat(path)
            except OSError as error:
                if error.errno == errno.ELOOP:
                    skip(str(path), "a symbolic-link loop")
                elif wanted and entry.is_symlink():
                    skip(str(path), "a broken symbolic link")
                elif wanted and error.errno != errno.ENOENT:
                    skip(str(path), _reason(error))
                continue  # anything else vanished since the folder was listed
            if stat.S_ISDIR(found.st_mode):
                pending.append(path)
            elif not wanted:
                if stat.S_ISREG(found.st_mode) and looks_like_hand_log(path):
                    others.append(str(path.relative_to(root)))  # where it is, from the folder
                continue
            elif not stat.S_ISREG(found.st_mode):
                skip(str(path), "not a regular file (a FIFO, socket or device)")
            else:
                files.setdefault((found.st_dev, found.st_ino), path)
    if others:  # one line for them all
        names = ", ".join(sorted(others)[:3]) + (", …" if len(others) > 3 else "")
        suffixes = " ".join(HAND_LOG_SUFFIXES)
        if len(others) == 1:
            what = f"a file that looks like a hand log but is not named as one ({suffixes})"
        else:
            what = f"{len(others)} files that look like hand logs but are not named as such"
            what += f" ({suffixes})"
        skip(str(root), f"{what}, passed over: {names}; name a file to read it whatever its name")
    elif not files:
        skip(str(root), f"no hand logs in it (files named {' '.join(HAND_LOG_SUFFIXES)})")
    return sorted(files.values())


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def check_paths(
    inputs: Iterable[str],
    *,
    rules: RuleSet = STANDARD,
    input_format: str | None = None,
    chunk: int = 512,
) -> Iterator[Verdict]:
    """Read every hand of the inputs, replay and settle it under ``rules``, yield verdicts.

    Verdicts come in input order; hands are settled ``chunk`` at a time so that their
    showdowns are evaluated in one batch. ``input_format`` names the format of every
    input; without it each file's, and stdin's (``-``), is told from its first bytes. A
    hand whose ``(site, hand_id)`` was read before, in any of the inputs, is a
    :class:`Duplicate` and is not judged again. Inputs that hold no hand log raise
    ``FileNotFoundError``.
    """
    seen = KeySet()
    pending: list[HandRecord | Reject] = []
    given = list(inputs)
    names = list(discover(given))
    if not names:  # folders with no hand log in them: nothing was checked, which is no pass
        raise FileNotFoundError(errno.ENOENT, "no hand log to read in", " ".join(given))
    for name in names:
        items = (
            read_stream(sys.stdin.buffer, "<stdin>", input_format=input_format)
            if name == "-"
            else read_hands(name, input_format=input_format)
        )
        for item in items:
            pending.append(item)
            if len(pending) >= chunk:
                yield from _judge(pending, rules, seen)
                pending = []
    yield from _judge(pending, rules, seen)


def _judge(
    items: list[HandRecord | Reject], rules: RuleSet, seen: KeySet | None = None
) -> Iterator[Verdict]:
    """Judge a batch in order; with ``seen``, hands whose keys it holds (or that an earlier
    hand of the batch has) are duplicates, and the new keys are added to it."""
    hands = [item for item in items if isinstance(item, HandRecord)]
    repeats: set[int] = set()  # the ids of the hands that are duplicates
    if seen is not None:
        keys = [(hand.site, hand.hand_id) for hand in hands]
        earlier = seen.present(keys)
        batch: set[tuple[str, str]] = set()
        for hand, key in zip(hands, keys, strict=True):
            if key in earlier or key in batch:
                repeats.add(id(hand))
            batch.add(key)
        seen.update(batch - earlier)
        hands = [hand for hand in hands if id(hand) not in repeats]
    replays = [replay(hand, rules) for hand in hands]
    settled = iter(zip(hands, replays, settle_many(replays, rules), strict=True))
    for item in items:
        if isinstance(item, Reject):
            yield item
        elif id(item) in repeats:
            yield Duplicate(item)
        else:
            hand, judged, settlement = next(settled)
            yield Judged(hand, judged, settlement)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: hands and their verdicts die by reference
    counting, and collecting while millions of them are made took a fifth of the time."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


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
