"""Which form of the rules engine runs: compiled by Cython, or the pure-Python sources.

The modules in :data:`COMPILED` are plain Python, and where a C compiler was available at
install time they were also compiled (``setup.py``; their C types are in the ``.pxd`` files
beside them). Both forms give the same results; the compiled one is several times faster.
A compiled module is a file beside its source, so an edit to the source after the build
would otherwise go unnoticed: :func:`check_fresh` refuses to run an engine older than its
sources and says how to rebuild it; importing this module (``pipeline.rules`` does it first)
runs that check.
"""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

__all__ = [
    "COMPILED",
    "ENGINE",
    "StaleBuild",
    "built_form",
    "check_fresh",
    "compiled_file",
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
)
"""The modules of ``pipeline.rules`` that ``setup.py`` compiles (same list, same order)."""

_HERE = Path(__file__).resolve().parent


class StaleBuild(ImportError):
    """A compiled module is older than its source: it would run code that is not there."""

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


def stale_modules(folder: Path = _HERE) -> list[str]:
    """Return the engine modules whose ``.py`` or ``.pxd`` changed after they were compiled."""
    stale = []
    for name in COMPILED:
        built = compiled_file(name, folder)
        if built is None:
            continue
        built_at = built.stat().st_mtime
        for source in (folder / f"{name}.py", folder / f"{name}.pxd"):
            if source.exists() and source.stat().st_mtime > built_at:
                stale.append(source.name)
    return stale


def check_fresh(folder: Path = _HERE) -> None:
    """Raise :class:`StaleBuild` when a compiled module is older than its source."""
    stale = stale_modules(folder)
    if stale:
        raise StaleBuild(
            f"the compiled rules engine is older than {', '.join(stale)} in {folder}: "
            "run `make install` to rebuild it (or delete the compiled files, "
            f"{folder}/*.so, to run the pure-Python engine)"
        )


check_fresh()  # on import, before any compiled module loads
ENGINE = built_form()
"""``"compiled"`` or ``"python"``: the form of the engine this process runs."""
