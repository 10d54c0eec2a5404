"""What the lake already holds, so that a run takes every input line once.

A run reads the keys of the hands the lake holds (and which are ``partial``) and its
rejects; each chunk's staged files are then checked against them (:class:`Seen`): a hand
already in the lake, a reject already in it (the same line of the same file, as it was or
grown), or a hand the lake holds as a reject of that line (cut while the file was written)
is dropped from the staged files (:func:`drop_hands`, :func:`repeated_rejects`) and counted
as a duplicate.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.lake.keys import KeySet
from pipeline.lake.staged import write_parquet
from pipeline.model import Status
from pipeline.violations import RejectCode

__all__ = [
    "HeldRejects",
    "Rejects",
    "Seen",
    "Tally",
    "drop_hands",
    "existing_keys",
    "existing_rejects",
    "hold_cut_hands",
    "rejected_before",
    "repeated_rejects",
    "retired_keys",
    "shown_id",
]


def existing_keys(lake: Path, files: Iterable[str]) -> tuple[KeySet, set[tuple[str, str]]]:
    """Return the keys of the hands the lake's committed ``hands`` files hold, and the
    keys of those that are ``partial``."""
    keys = KeySet()
    partial: set[tuple[str, str]] = set()
    for relative in files:
        table = pq.read_table(lake / relative, columns=["site", "hand_id", "status"])
        sites = table["site"].cast(pa.string()).to_pylist()
        keys.update(zip(sites, table["hand_id"].to_pylist(), strict=True))
        cut = table.filter(pc.equal(table["status"].cast(pa.string()), Status.PARTIAL.value))
        if cut.num_rows:
            partial.update(
                zip(
                    cut["site"].cast(pa.string()).to_pylist(),
                    cut["hand_id"].to_pylist(),
                    strict=True,
                )
            )
    return keys, partial


_SHOWN_ID = (
    re.compile(r'"hand_id"\s*:\s*"([^"\\]*)"'),  # a JSON Lines hand (OHH's id comes too late)
    re.compile(r"(?:Hand|Game) #(\d+)(?=[:\s])"),  # a PokerStars hand's first line, id whole
)
"""Where a reject's excerpt (the first characters of its line) shows the id of the hand the
line holds, as the readers write it."""


def shown_id(excerpt: str | None) -> str | None:
    """Return the hand id an excerpt shows in its place (JSON Lines' ``hand_id`` field, a
    PokerStars hand's ``Hand #`` or ``Game #``), or ``None`` when it shows none whole.

    >>> shown_id('{"hand_id":"GEN-4-3","site":"G'), shown_id('{"hand_id":"GEN-4'), shown_id(None)
    ('GEN-4-3', None, None)
    >>> shown_id("PokerStars Hand #254093871203: Omaha Pot Limit ($0.01/$0.02 USD) - 20")
    '254093871203'
    >>> shown_id("PokerStars Game #3587") is None  # cut within the id: not shown whole
    True
    """
    if excerpt:
        for pattern in _SHOWN_ID:
            found = pattern.search(excerpt)
            if found is not None:
                return found.group(1)
    return None


def _hand_of(excerpt: str, hand_id: str | None) -> str | None:
    """Return the hand id a reject names, else the one its excerpt shows (if any)."""
    return hand_id if hand_id is not None else shown_id(excerpt)


_CUT = RejectCode.TRUNCATED_HAND.value


@dataclass(slots=True)
class HeldRejects:
    """The rejects the lake holds of one input file, by line, as each line read again is
    matched against them (:meth:`repeats`, :meth:`completes`). A line is known by its number
    and, as far as the lake kept it, by the hand id its reject names or its excerpt (its
    first characters) shows, else by the excerpt itself: another line at the same number
    (lines inserted above, or the file rewritten) is a line of its own."""

    lines: dict[int, list[tuple[str, str | None, str]]] = field(default_factory=dict)
    """Each line's rejects held: excerpt, hand id (named, or shown), code."""
    cut: dict[int, set[str]] = field(default_factory=dict)
    """The hands the lake holds cut (``partial``) from the file, by line: a reject naming
    one at its line is that hand read again, cut elsewhere."""

    def __bool__(self) -> bool:
        return bool(self.lines) or bool(self.cut)

    def hold(self, line: int, excerpt: str | None, hand_id: str | None, code: str) -> None:
        """Add a reject the lake holds."""
        text = excerpt or ""
        self.lines.setdefault(line, []).append((text, _hand_of(text, hand_id), code))

    def repeats(self, line: int, excerpt: str | None, hand_id: str | None) -> bool:
        """Tell whether a reject read at ``line`` is one the lake holds: the same line, the
        same hand when both show one (a hand cut while its file was being written, read
        again and still cut, fails at another of its lines), else as it was or grown (its
        excerpt begins as the held one's).

        >>> held = HeldRejects()
        >>> held.hold(2, '{"hand_id":"GEN-1-1","s', None, "truncated-hand")
        >>> held.hold(5, "{oo", None, "malformed-json")
        >>> held.repeats(2, '{"hand_id":"GEN-1-1","site":"G', None), held.repeats(3, "{", None)
        (True, False)
        >>> held.repeats(2, "Seat 3: Hero", "GEN-1-1"), held.repeats(2, "[1, 2", None)
        (True, False)
        >>> held.repeats(5, "{oops", None), held.repeats(5, '{"hand_id":"H9"}x', None)
        (True, False)
        >>> held.cut[7] = {"H7"}  # a hand held partial, from line 7
        >>> held.repeats(7, "Seat 3: Hero", "H7"), held.repeats(7, "Seat 3: Hero", "H8")
        (True, False)
        """
        text = excerpt or ""
        hand = _hand_of(text, hand_id)
        if hand is not None and hand in self.cut.get(line, ()):
            return True  # the lake holds this hand cut, from this line
        held = self.lines.get(line)
        if not held:
            return False
        for before, was, _ in held:
            if was is not None and hand is not None:
                if was == hand:
                    return True
            elif text.startswith(before):
                return True
        return False

    def completes(self, line: int, hand_id: str) -> bool:
        """Tell whether a hand read at ``line`` is one the lake holds as a reject of that
        line: the hand its reject names or its excerpt shows (:func:`shown_id`: a hand cut
        while its file was being written, whole now, or a line since edited), or, where
        none is shown, the cut last line the reject was.

        >>> held = HeldRejects()
        >>> held.hold(4, '{"hand_id":"GEN-4-3","site":"G', None, "truncated-hand")
        >>> held.hold(9, '{"hand_id":"GEN', None, "truncated-hand")
        >>> held.hold(11, "{oops", None, "malformed-json")
        >>> held.completes(4, "GEN-4-3"), held.completes(4, "GEN-4-4"), held.completes(9, "X")
        (True, False, True)
        >>> held.completes(5, "GEN-4-3"), held.completes(11, "X")
        (False, False)
        """
        for _, was, code in self.lines.get(line, ()):
            if was is not None:
                if was == hand_id:
                    return True
            elif code == _CUT:
                return True
        return False


@dataclass(slots=True)
class Rejects:
    """The rejects the lake holds, per input file by its absolute path, so that a line
    read again from the same file (a session file that grew) is one reject, counted once.
    (Within a run a file is read once, so its own lines never meet again.) Standard input
    has no path: its lines are never matched (a stream read again whole is found by its
    sha256)."""

    files: dict[str, HeldRejects] = field(default_factory=dict)

    def held(self, resolved: str | None) -> HeldRejects:
        """Return the rejects held of the file at ``resolved`` (stdin: none)."""
        found = self.files.get(resolved) if resolved is not None else None
        return found if found is not None else HeldRejects()


def existing_rejects(
    lake: Path,
    files: Iterable[tuple[str, list[tuple[str, int]]]],
    paths_of: dict[str, set[str]],
    wanted: set[str],
) -> Rejects:
    """Return the rejects the lake's committed ``rejects`` files hold, per input path.

    ``files`` are ``(relative path, inputs)``, the inputs each an input's sha256 and its
    rows, in the file's order (one, but for a merged file); ``paths_of`` gives the
    absolute paths each input was read from (see
    :meth:`~pipeline.lake.manifest.Manifest.versions`); only those of the ``wanted`` paths
    (the files a run reads) are kept.
    """
    known = Rejects()
    columns = ["line", "excerpt", "hand_id", "code"]
    for path, rows in _rows_by_path(lake, files, paths_of, wanted, columns):
        held = known.files.setdefault(path, HeldRejects())
        for line, excerpt, hand_id, code in rows:
            held.hold(line, excerpt, hand_id, code)
    return known


def hold_cut_hands(
    known: Rejects,
    lake: Path,
    files: Iterable[tuple[str, list[tuple[str, int]]]],
    paths_of: dict[str, set[str]],
    wanted: set[str],
) -> None:
    """Add to ``known`` the hands the lake's committed ``hands`` files hold cut
    (``partial``), by line, for each of the ``wanted`` paths they were read from (the
    arguments as :func:`existing_rejects` takes them)."""
    cut = Status.PARTIAL.value
    columns = ["line", "hand_id", "status"]
    for path, rows in _rows_by_path(lake, files, paths_of, wanted, columns):
        held = known.files.setdefault(path, HeldRejects())
        for line, hand_id, status in rows:
            if status == cut:
                held.cut.setdefault(line, set()).add(hand_id)


def _rows_by_path(
    lake: Path,
    files: Iterable[tuple[str, list[tuple[str, int]]]],
    paths_of: dict[str, set[str]],
    wanted: set[str],
    columns: list[str],
) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """Yield each ``wanted`` path with the rows (``columns``, as Python values: a
    dictionary column's as its values) a committed file holds of an input read from it.
    Standard input has no path, and a file a run does not read none it wants."""
    for relative, inputs in files:
        paths = [paths_of.get(sha, set()) & wanted for sha, _ in inputs]
        if not any(paths):
            continue
        table = pq.read_table(lake / relative, columns=columns)
        values = []
        for name in columns:
            column = table[name]
            if pa.types.is_dictionary(column.type):
                column = column.cast(column.type.value_type)
            values.append(column.to_pylist())
        rows = list(zip(*values, strict=True))
        start = 0
        for (_, count), found in zip(inputs, paths, strict=True):
            for path in found:
                yield path, rows[start : start + count]
            start += count


def repeated_rejects(
    staging: Path, files: list[tuple[str, str, int]], held: HeldRejects
) -> tuple[list[tuple[str, str, int]], int]:
    """Drop from a chunk's staged rejects those the lake holds (``held``, of the chunk's
    file: :meth:`HeldRejects.repeats`). Returns the new file list and how many were
    dropped."""
    kept: list[tuple[str, str, int]] = []
    dropped = 0
    for table_name, relative, rows in files:
        if table_name != "rejects":
            kept.append((table_name, relative, rows))
            continue
        path = staging / relative
        table = pq.read_table(path)
        again = [
            held.repeats(line, excerpt, hand_id)
            for line, excerpt, hand_id in zip(
                table["line"].to_pylist(),
                table["excerpt"].to_pylist(),
                table["hand_id"].to_pylist(),
                strict=True,
            )
        ]
        new = table.filter(pc.invert(pa.array(again, pa.bool_())))
        dropped += table.num_rows - new.num_rows
        if new.num_rows == 0:
            path.unlink()
            continue
        if new.num_rows != table.num_rows:
            write_parquet(new, path)
        kept.append((table_name, relative, new.num_rows))
    return kept, dropped


def rejected_before(
    staging: Path, files: list[tuple[str, str, int]], held: HeldRejects
) -> set[tuple[str, str]]:
    """Return the keys of a chunk's hands the lake holds as a reject of the same line of
    the file (a hand cut while the file was being written, whole now; or a line since
    edited): :meth:`HeldRejects.completes`."""
    found: set[tuple[str, str]] = set()
    for table_name, relative, _ in files:
        if table_name != "hands":
            continue
        table = pq.read_table(staging / relative, columns=["site", "hand_id", "line"])
        rows = zip(
            table["site"].cast(pa.string()).to_pylist(),
            table["hand_id"].to_pylist(),
            table["line"].to_pylist(),
            strict=True,
        )
        found.update((site, hand) for site, hand, line in rows if held.completes(line, hand))
    return found


def drop_hands(
    staging: Path, files: list[tuple[str, str, int]], drop: set[tuple[str, str]], dropped: Tally
) -> list[tuple[str, str, int]]:
    """Rewrite a chunk's staged files without the given hands; return the new file list.

    The statuses, violation codes and payout checks of the hands dropped are counted in
    ``dropped`` (for the caller to take off the chunk's counts).
    """
    kept: list[tuple[str, str, int]] = []
    marks = pa.array(sorted(f"{site}\x00{hand}" for site, hand in drop))
    for table_name, relative, _ in files:
        path = staging / relative
        table = pq.read_table(path)
        if "site" in table.column_names:
            keys = pc.binary_join_element_wise(
                table["site"].cast(pa.string()), table["hand_id"], "\x00"
            )
            hit = pc.is_in(keys, value_set=marks)
            _count_dropped(table_name, table.filter(hit), dropped)
            table = table.filter(pc.invert(hit))
        if table.num_rows == 0:
            path.unlink()
            continue
        write_parquet(table, path)
        kept.append((table_name, relative, table.num_rows))
    return kept


@dataclass(slots=True)
class Tally:
    """Statuses, violation codes and payout checks of some hands."""

    statuses: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    payouts: Counter[str] = field(default_factory=Counter)


def _count_dropped(name: str, rows: pa.Table, dropped: Tally) -> None:
    if name == "hands":
        dropped.statuses.update(str(v) for v in rows["status"].to_pylist())
        dropped.payouts.update(str(v).lower() for v in rows["payouts_match"].to_pylist())
    elif name == "violations":
        dropped.codes.update(str(v) for v in rows["code"].to_pylist())


@dataclass(frozen=True, slots=True)
class Seen:
    """What the lake holds (and this run has taken so far): hands, partial ones, rejects;
    and the cut hands this run has read whole."""

    keys: KeySet
    partial: set[tuple[str, str]] = field(default_factory=set)
    rejects: Rejects = field(default_factory=Rejects)
    completed: set[tuple[str, str]] = field(default_factory=set)
    """Hands held cut (partial, or a reject's line) that this run has read whole."""


def retired_keys(lake: Path, files: Iterable[str]) -> set[tuple[str, str]]:
    """Return the keys of the hands some committed ``hands`` files hold (files a run with
    ``--replace`` retires: the hands it may leave the lake without)."""
    keys: set[tuple[str, str]] = set()
    for relative in files:
        table = pq.read_table(lake / relative, columns=["site", "hand_id"])
        sites = table["site"].cast(pa.string()).to_pylist()
        keys.update(zip(sites, table["hand_id"].to_pylist(), strict=True))
    return keys
