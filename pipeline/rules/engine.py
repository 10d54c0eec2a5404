"""Which form of the rules engine runs: compiled by Cython, or the pure-Python sources.

The modules in :data:`COMPILED` are plain Python, and where a C compiler was available at
install time they were also compiled (``setup.py``; their C types are in the ``.pxd`` files
beside them). Both forms give the same results; the compiled one is several times faster.
A compiled module is a file beside its source, so an edit to the source after the build
would otherwise go unnoticed: ``setup.py`` records the SHA-256 of the sources it compiled
(:data:`RECORD`), and :func:`check_fresh` refuses to run a compiled engine whose sources
differ, saying how to rebuild it; importing this module (``pipeline.rules`` does it first)
runs that check.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
from pathlib import Path

__all__ = [
    "COMPILED",
    "ENGINE",
    "RECORD",
    "StaleBuild",
    "built_form",
    "check_fresh",
    "compiled_file",
    "source_digests",
    "stale_modules",
]

COMPILED = (
    "state",
    "context",
    "betting",
    "forced",
    "board",
    "deal",
    "finish",
    "replay",
    "stats",
)
"""The modules of ``pipeline.rules`` that ``setup.py`` compiles (same list, same order)."""

_HERE = Path(__file__).resolve().parent
RECORD = "compiled.json"
"""Beside the engine: the SHA-256 of each source ``setup.py`` compiled."""


class StaleBuild(ImportError):
    """A compiled module is not built from its source as it is: it would run other code."""

    stale_build = True  # how the console script knows it (pipeline.entry) before it loads


def compiled_file(name: str, folder: Path = _HERE) -> Path | None:
    """Return the compiled file of engine module ``name`` in ``folder``, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = folder / f"{name}{suffix}"
        if candidate.exists():
            return candidate
    return None


def built_form(folder: Path = _HERE) -> str:
    """Return ``"compiled"`` when every engine module has a compiled file, else ``"python"``.

    (``"partly compiled"`` when only some have: an interrupted or failed build.)
    """
    found = sum(1 for name in COMPILED if compiled_file(name, folder) is not None)
    if found == len(COMPILED):
        return "compiled"
    return "python" if found == 0 else "partly compiled"


def source_digests(folder: Path = _HERE) -> dict[str, str]:
    """Return the SHA-256 of every engine source (``.py`` and ``.pxd``) in ``folder``."""
    digests = {}
    for name in COMPILED:
        for source in (folder / f"{name}.py", folder / f"{name}.pxd"):
            if source.exists():
                digests[source.name] = hashlib.sha256(source.read_bytes()).hexdigest()
    return digests


def stale_modules(folder: Path = _HERE) -> list[str]:
    """Return the engine sources that differ from the ones compiled (none if nothing is).

    ``setup.py`` records the digests of the sources it compiled in :data:`RECORD`; a
    source changed since (or a build without that record) makes the build stale. File
    times are not used: an installer sets them when it unpacks, in any order.
    """
    if not any(compiled_file(name, folder) is not None for name in COMPILED):
        return []
    record = folder / RECORD
    try:
        compiled = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [RECORD]
    now = source_digests(folder)
    return [name for name, digest in now.items() if compiled.get(name) != digest]


def check_fresh(folder: Path = _HERE) -> None:
    """Raise :class:`StaleBuild` when a compiled module is not what its source says, or
    only some modules are compiled (they share C types: a mix does not load)."""
    missing = [name for name in COMPILED if compiled_file(name, folder) is None]
    if 0 < len(missing) < len(COMPILED):
        raise _refusal(f"is incomplete ({', '.join(missing)} not compiled)", folder)
    stale = stale_modules(folder)
    if stale:
        raise _refusal(f"was not built from {', '.join(stale)} as it is now,", folder)


def _refusal(problem: str, folder: Path) -> StaleBuild:
    return StaleBuild(
        f"the compiled rules engine {problem} in {folder}: run `make install` to rebuild it "
        f"(or delete the compiled files, {folder}/*.so, to run the pure-Python engine)"
    )


if __name__ == "pipeline.rules.engine":  # not when setup.py loads this file to build
    check_fresh()  # on import, before any compiled module loads
ENGINE = built_form()
"""``"compiled"`` or ``"python"``: the form of the engine this process runs."""
