"""What the lake already holds, so that a run takes every input line once.

A run reads the keys of the hands the lake holds (and which are ``partial``) and its
rejects; each chunk's staged files are then checked against them (:class:`Seen`): a hand
already in the lake, a reject already in it (the same bad text in the same file), or a
hand the lake holds as a reject of that file (cut while the file was written) is dropped
from the staged files (:func:`drop_hands`, :func:`repeated_rejects`) and counted as a
duplicate.
"""

from __future__ import annotations

import re
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
    "HeldRejects",
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
class HeldRejects:
    """The rejects the lake holds of one input file, as a line read again is matched
    against them: by its text as far as the lake kept it (the excerpt, the line's first
    characters) and its code, not by its number, which lines inserted above would change.
    ``texts`` counts them by (excerpt, code); each one matched is taken off, so a bad
    line the file has once more is a reject of its own. The hand ids they name, and the
    excerpts of those that name none by line, say which hands they were (:meth:`names`)."""

    texts: Counter[tuple[str | None, str]] = field(default_factory=Counter)
    ids: set[str] = field(default_factory=set)
    unnamed: dict[int, list[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.texts)

    def hold(self, line: int, excerpt: str | None, code: str, hand_id: str | None) -> None:
        """Add a reject the lake holds."""
        self.texts[excerpt, code] += 1
        if hand_id is not None:
            self.ids.add(hand_id)
        elif excerpt:
            self.unnamed.setdefault(line, []).append(excerpt)

    def take(self, excerpt: str | None, code: str) -> bool:
        """Tell whether a reject read again is one held (and take it off, if so)."""
        key = (excerpt, code)
        if self.texts[key] <= 0:
            return False
        self.texts[key] -= 1
        return True

    def names(self, hand_id: str, line: int) -> bool:
        """Tell whether a reject held was this hand, read at ``line``: one that names its
        id, or one at the same line that names none (a line cut short is no hand to read
        an id from) and whose excerpt shows the id as a word of its own.

        >>> held = HeldRejects()
        >>> held.hold(4, '{"hand_id":"H-7","si', "truncated-hand", None)
        >>> held.hold(9, "{", "malformed-json", "H8")
        >>> [held.names(h, 4) for h in ("H-7", "H8", "H", "7")], held.names("H-7", 5)
        ([True, True, False, False], False)
        """
        if hand_id in self.ids:
            return True
        excerpts = self.unnamed.get(line)
        if not excerpts:
            return False
        shown = re.compile(rf"(?<![\w-]){re.escape(hand_id)}(?![\w-])")
        return any(shown.search(excerpt) for excerpt in excerpts)


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
        table = pq.read_table(lake / relative, columns=["line", "code", "excerpt", "hand_id"])
        rows_held = list(
            zip(
                table["line"].to_pylist(),
                table["excerpt"].to_pylist(),
                table["code"].cast(pa.string()).to_pylist(),
                table["hand_id"].to_pylist(),
                strict=True,
            )
        )
        start = 0
        for sha, rows in inputs:
            for path in paths_of.get(sha, ()):
                held = known.files.setdefault(path, HeldRejects())
                for line, excerpt, code, hand_id in rows_held[start : start + rows]:
                    held.hold(line, excerpt, code, hand_id)
            start += rows
    return known


def repeated_rejects(
    staging: Path, files: list[tuple[str, str, int]], held: HeldRejects
) -> tuple[list[tuple[str, str, int]], int]:
    """Drop from a chunk's staged rejects those the lake holds (``held``, of the chunk's
    file: :meth:`HeldRejects.take`). Returns the new file list and how many were dropped."""
    kept: list[tuple[str, str, int]] = []
    dropped = 0
    for table_name, relative, rows in files:
        if table_name != "rejects":
            kept.append((table_name, relative, rows))
            continue
        path = staging / relative
        table = pq.read_table(path)
        again = [
            held.take(excerpt, code)
            for excerpt, code in zip(
                table["excerpt"].to_pylist(),
                table["code"].cast(pa.string()).to_pylist(),
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
    """Return the keys of a chunk's hands the lake holds as a reject of the same file (a
    hand cut while the file was being written, whole now; or a line since edited):
    :meth:`HeldRejects.names`."""
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
        found.update((site, hand) for site, hand, line in rows if held.names(hand, line))
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
