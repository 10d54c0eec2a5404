"""What the lake already holds, so that a run takes every input line once.

A run reads the keys of the hands the lake holds (and which are ``partial``) and its
rejects; each chunk's staged files are then checked against them (:class:`Seen`): a hand
already in the lake, a reject already in it, or a hand whose line the lake holds as a cut
hand is dropped from the staged files (:func:`drop_hands`, :func:`repeated_rejects`) and
counted as a duplicate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.lake.keys import KeySet
from pipeline.lake.staged import write_parquet
from pipeline.model import Status

__all__ = [
    "Rejects",
    "Seen",
    "Tally",
    "drop_hands",
    "existing_keys",
    "existing_rejects",
    "rejected_before",
    "repeated_rejects",
    "retired_keys",
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


@dataclass(slots=True)
class Rejects:
    """The input lines the lake holds as rejects, per input file by its absolute path, so
    that a line read again from the same file (a session file that grew) is one reject,
    counted once. (Within a run a file is read once, so its own lines never meet again.)
    Standard input has no path: its lines are never matched (a stream read again whole is
    found by its sha256)."""

    lines: dict[str, set[int]] = field(default_factory=dict)

    def held(self, resolved: str | None) -> set[int]:
        """Return the lines of the file at ``resolved`` held as rejects (stdin: none)."""
        return self.lines.get(resolved, set()) if resolved is not None else set()


def existing_rejects(
    lake: Path,
    files: Iterable[tuple[str, list[tuple[str, int]]]],
    paths_of: dict[str, set[str]],
) -> Rejects:
    """Return the lines the lake's committed ``rejects`` files hold, per input path.

    ``files`` are ``(relative path, inputs)``, the inputs each an input's sha256 and its
    rows, in the file's order (one, but for a merged file); ``paths_of`` gives the
    absolute paths each input was read from (see
    :meth:`~pipeline.lake.manifest.Manifest.versions`).
    """
    known = Rejects()
    for relative, inputs in files:
        if not any(paths_of.get(sha) for sha, _ in inputs):
            continue  # standard input: no path to read it again from
        lines = pq.read_table(lake / relative, columns=["line"])["line"].to_pylist()
        start = 0
        for sha, rows in inputs:
            for path in paths_of.get(sha, ()):
                known.lines.setdefault(path, set()).update(lines[start : start + rows])
            start += rows
    return known


def repeated_rejects(
    staging: Path, files: list[tuple[str, str, int]], held: set[int]
) -> tuple[list[tuple[str, str, int]], int]:
    """Drop from a chunk's staged rejects the lines the lake holds as rejects (``held``,
    of the chunk's file). Returns the new file list and how many were dropped."""
    kept: list[tuple[str, str, int]] = []
    dropped = 0
    for table_name, relative, rows in files:
        if table_name != "rejects":
            kept.append((table_name, relative, rows))
            continue
        path = staging / relative
        table = pq.read_table(path)
        lines = table["line"].to_pylist()
        new = table.filter(pa.array([line not in held for line in lines], pa.bool_()))
        dropped += table.num_rows - new.num_rows
        if new.num_rows == 0:
            path.unlink()
            continue
        if new.num_rows != table.num_rows:
            write_parquet(new, path)
        kept.append((table_name, relative, new.num_rows))
    return kept, dropped


def rejected_before(
    staging: Path, files: list[tuple[str, str, int]], held: set[int]
) -> set[tuple[str, str]]:
    """Return the keys of a chunk's hands whose line the lake holds as a reject (a hand cut
    while the file was being written, whole now; or a line since edited)."""
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
        found.update((site, hand) for site, hand, line in rows if line in held)
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
