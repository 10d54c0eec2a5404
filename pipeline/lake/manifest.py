"""The manifest, the lake's commit point: which runs committed which files.

``_manifest.json`` lists every run: its id, times, rule set, software version, its inputs
(with sha256, size and the counts in and out of each), and the files it added and
retired. A file is part of the lake exactly when a committed run added it and no
committed run retired it; anything else under the lake's folder is invisible to
Croupier's readers (a crashed run's leftovers) and is removed by the next run. The
manifest is replaced whole, by writing a temporary file and renaming it over the old one,
so a reader sees either the old manifest or the new one, never a mix.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pipeline.files import fsync_dir, replaced

__all__ = [
    "MANIFEST",
    "FileEntry",
    "InputEntry",
    "Manifest",
    "ManifestError",
    "RunEntry",
    "load_manifest",
    "write_manifest",
]

MANIFEST = "_manifest.json"
FORMAT = 1
MERGED_FORMAT = 2
"""The format of a manifest that lists a merged file (``parts``): a version of Croupier from
before merged files says it does not know the format rather than that the lake is damaged."""


@dataclass(slots=True)
class FileEntry:
    """One data file: its path relative to the lake, its table, rows, and input (sha256).

    A file that merges the small files of several inputs (see
    :mod:`pipeline.lake.compact`) lists ``parts``: each input's sha256 and its rows, in
    the file's row order (``input`` is then the first one's).
    """

    path: str
    table: str
    rows: int
    input: str
    parts: list[tuple[str, int]] | None = None

    def inputs(self) -> list[tuple[str, int]]:
        """Return the inputs whose rows the file holds, with their rows, in order."""
        return self.parts if self.parts is not None else [(self.input, self.rows)]


@dataclass(slots=True)
class InputEntry:
    """One input of a run and what became of every hand in it.

    ``read`` = ``hands`` + ``rejects`` + ``duplicates``: every hand read is in exactly one
    of the ``hands`` table, the ``rejects`` table, or the duplicates count. ``path`` is the
    input as named (the ``source`` of its rows); ``resolved`` the file it was then, as an
    absolute path with symbolic links followed (``None``: standard input, or a lake
    written before it was recorded).
    """

    path: str
    sha256: str
    size: int
    read: int = 0
    hands: int = 0
    rejects: int = 0
    duplicates: int = 0
    skipped: bool = False
    resolved: str | None = None


@dataclass(slots=True)
class RunEntry:
    """One committed run."""

    run_id: str
    started_at: str
    finished_at: str
    rules: str
    version: str
    inputs: list[InputEntry] = field(default_factory=list)
    added: list[FileEntry] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass(slots=True)
class Manifest:
    """Every committed run, oldest first."""

    runs: list[RunEntry] = field(default_factory=list)

    def live_files(self) -> dict[str, FileEntry]:
        """Return the files in the lake now: added by a run and not retired since."""
        live: dict[str, FileEntry] = {}
        for run in self.runs:
            for entry in run.added:
                live[entry.path] = entry
            for path in run.retired:
                live.pop(path, None)
        return live

    def files_of(self, table: str) -> list[str]:
        """Return the live files of one table, relative to the lake, in commit order."""
        return [f.path for f in self.live_files().values() if f.table == table]

    def versions(self) -> dict[str, set[str]]:
        """Return, per absolute input path, the sha256 of every version of it a committed
        run has read (a session file read again after it grew has two)."""
        out: dict[str, set[str]] = {}
        for run in self.runs:
            for entry in run.inputs:
                if not entry.skipped and entry.resolved is not None:
                    out.setdefault(entry.resolved, set()).add(entry.sha256)
        return out

    def ingested(self) -> dict[str, str]:
        """Return the sha256 of every input a committed run has read, with that run's id.

        An input whose rows a later run retired (``--replace`` of a new version of its
        file, or of other bytes at its path) without writing them again is no longer
        ingested: the lake does not hold what it gave, so the same bytes read again (the
        old version put back, a copy elsewhere) are read, not skipped.
        """
        seen: dict[str, str] = {}
        files: dict[str, FileEntry] = {}
        for run in self.runs:
            taken = {
                sha for path in run.retired if path in files for sha, _ in files[path].inputs()
            }
            kept = {sha for added in run.added for sha, _ in added.inputs()}
            for sha in taken - kept:
                seen.pop(sha, None)
            for entry in run.inputs:
                if not entry.skipped:
                    seen[entry.sha256] = run.run_id
            for path in run.retired:
                files.pop(path, None)
            for added in run.added:
                files[added.path] = added
        return seen


def load_manifest(lake: Path) -> Manifest:
    """Read the lake's manifest (an empty one when the lake is new)."""
    path = lake / MANIFEST
    if not path.exists():
        return Manifest()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ManifestError(path, f"not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, MERGED_FORMAT):
        found = data.get("format") if isinstance(data, dict) else None
        raise ManifestError(path, f"unknown manifest format {found!r}")
    try:
        runs = [
            RunEntry(
                run_id=raw["run_id"],
                started_at=raw["started_at"],
                finished_at=raw["finished_at"],
                rules=raw["rules"],
                version=raw["version"],
                inputs=[InputEntry(**i) for i in raw["inputs"]],
                added=[_file_entry(f) for f in raw["added"]],
                retired=list(raw["retired"]),
                seconds=dict(raw.get("seconds", {})),
            )
            for raw in data["runs"]
        ]
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise ManifestError(
            path, f"a run entry is malformed ({type(error).__name__}: {error})"
        ) from None
    return Manifest(runs)


def _file_entry(raw: dict[str, object]) -> FileEntry:
    entry = FileEntry(**raw)  # type: ignore[arg-type]
    if entry.parts is not None:
        entry.parts = [(str(sha), int(rows)) for sha, rows in entry.parts]
    return entry


def _file_dict(entry: FileEntry) -> dict[str, object]:
    """A file's entry as written: ``parts`` only for a merged file, so that a lake with
    none reads as it did before files were merged."""
    out = asdict(entry)
    if entry.parts is None:
        del out["parts"]
    return out


class ManifestError(ValueError):
    """The lake's manifest cannot be read: the lake's record of what it holds is damaged."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(
            f"the lake's manifest {path} cannot be read ({why}); it is the record of what the "
            "lake holds, so nothing is guessed: restore it from a backup, or move the lake "
            "aside and run again"
        )


def write_manifest(lake: Path, manifest: Manifest) -> None:
    """Commit a manifest: write it to a temporary file, flush it to disk, rename it."""
    runs = [{**asdict(run), "added": [_file_dict(f) for f in run.added]} for run in manifest.runs]
    merged = any(f.parts is not None for run in manifest.runs for f in run.added)
    text = json.dumps({"format": MERGED_FORMAT if merged else FORMAT, "runs": runs}, indent=1)
    body = text.encode()
    with replaced(lake / MANIFEST, durable=True) as out:
        out.write(body)
    fsync_dir(lake)
