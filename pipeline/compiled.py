"""Which form of the hot modules runs: compiled by Cython, or the pure-Python sources.

The modules in :data:`COMPILED` (the rules engine, and the decoding and settlement around it
that every hand goes through) are plain Python, and where a C compiler was
available at install time they were also compiled (``setup.py``; the engine's C types are in
the ``.pxd`` files beside its modules). Both forms give the same results; the compiled one is
faster. A compiled module is a file beside its source, so an edit to the source after the
build would otherwise go unnoticed: ``setup.py`` records the SHA-256 of the sources it
compiled (:data:`RECORD`), and :func:`check_fresh` says when a compiled module is not built
from its source as it is now. Importing ``pipeline`` runs :func:`refuse_stale`: from then on,
a compiled module of a stale build refuses to load (:class:`StaleBuild`), saying how to
rebuild it, rather than run code that is no longer the source.

This file is loaded on its own by ``setup.py`` (before the package's dependencies are
installed) and run by ``make`` (``python pipeline/compiled.py`` prints the sources the build
depends on): it imports nothing but the standard library.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = [
    "COMPILED",
    "ENGINE",
    "RECORD",
    "SHARED",
    "StaleBuild",
    "built_form",
    "check_fresh",
    "compiled_file",
    "module_name",
    "refuse_stale",
    "source_digests",
    "sources",
    "stale_modules",
    "stray_modules",
]

COMPILED = (
    "records",
    "rules/state",
    "rules/context",
    "rules/betting",
    "rules/forced",
    "rules/board",
    "rules/deal",
    "rules/finish",
    "rules/replay",
    "rules/stats",
    "formats/wire_view",
    "formats/jsonl",
    "formats/limits",
    "lake/columns",
    "lake/settlement_view",
    "lake/action_rows",
    "lake/rows",
    "pots",
    "reconcile",
    "settle",
    "judged_view",
)
"""The modules ``setup.py`` compiles (same list, same order), as paths in the package
without their suffix; the engine's (``rules/``) each have a ``.pxd`` of C types."""

SHARED = ("model.py", "formats/jsonl_wire.py")
"""Sources the compiled modules depend on besides their own: the layout of the hand's
records, which ``records.pxd`` declares (see :mod:`pipeline.records`), and of the JSON Lines
wire structs, which ``formats/wire_view.pxd`` declares (see :mod:`pipeline.formats.wire_view`)."""

_HERE = Path(__file__).resolve().parent
RECORD = "compiled.json"
"""In the package folder: the SHA-256 of each source ``setup.py`` compiled."""


class StaleBuild(ImportError):
    """A compiled module is not built from its source as it is: it would run other code."""

    stale_build = True  # how the console script knows it (pipeline.entry) before it loads


def module_name(name: str, package: str = "pipeline") -> str:
    """Return the import name of a compiled module (``rules/state``: ``pipeline.rules.state``)."""
    return package + "." + name.replace("/", ".")


def compiled_file(name: str, root: Path = _HERE) -> Path | None:
    """Return the compiled file of module ``name`` under the package folder ``root``, if any."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = root / f"{name}{suffix}"
        if candidate.exists():
            return candidate
    return None


def built_form(root: Path = _HERE) -> str:
    """Return ``"compiled"`` when every module of :data:`COMPILED` has a compiled file, else
    ``"python"`` (``"partly compiled"`` when only some have: an interrupted or failed build).
    """
    found = sum(1 for name in COMPILED if compiled_file(name, root) is not None)
    if found == len(COMPILED):
        return "compiled"
    return "python" if found == 0 else "partly compiled"


def sources(root: Path = _HERE) -> list[Path]:
    """Return every source the compiled form is built from (each ``.py``, and its ``.pxd``,
    then the :data:`SHARED` ones)."""
    found = []
    for name in COMPILED:
        found.append(root / f"{name}.py")
        types = root / f"{name}.pxd"
        if types.exists():
            found.append(types)
    found.extend(root / name for name in SHARED)
    return found


def source_digests(root: Path = _HERE) -> dict[str, str]:
    """Return the SHA-256 of every source, by its path in the package (``rules/state.py``)."""
    return {
        source.relative_to(root).as_posix(): hashlib.sha256(source.read_bytes()).hexdigest()
        for source in sources(root)
        if source.exists()
    }


def stale_modules(root: Path = _HERE) -> list[str]:
    """Return the sources that differ from the ones compiled (none if nothing is compiled).

    ``setup.py`` records the digests of the sources it compiled in :data:`RECORD`; a
    source changed since (or a build without that record) makes the build stale. File
    times are not used: an installer sets them when it unpacks, in any order.
    """
    if not any(compiled_file(name, root) is not None for name in COMPILED):
        return []
    record = root / RECORD
    try:
        compiled = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [RECORD]
    now = source_digests(root)
    return [name for name, digest in now.items() if compiled.get(name) != digest]


def stray_modules(root: Path = _HERE) -> list[str]:
    """Return the modules under ``root`` that have a compiled file but are not in
    :data:`COMPILED`, by their paths in the package (``formats/ohh``).

    A build of another version of the list leaves them: say, one made at a later commit,
    before a checkout of an earlier one (compiled files are not tracked, so a checkout
    keeps them). An extension module is imported before its source beside it, so it would
    run code that no source of this version says.
    """
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found: set[str] = set()
    for folder, _, files in os.walk(root):
        for file in files:
            suffix = next((s for s in suffixes if file.endswith(s)), None)
            if suffix is not None:
                name = (Path(folder) / file[: -len(suffix)]).relative_to(root).as_posix()
                if name not in COMPILED:
                    found.add(name)
    return sorted(found)


def check_fresh(root: Path = _HERE) -> None:
    """Raise :class:`StaleBuild` when a compiled module is not what its source says, only
    some modules are compiled (the engine's share C types: a mix does not load), or a
    module is compiled that this version does not compile (:func:`stray_modules`)."""
    missing = [name for name in COMPILED if compiled_file(name, root) is None]
    if 0 < len(missing) < len(COMPILED):
        raise _refusal(f"is incomplete ({', '.join(missing)} not compiled)", root)
    strays = stray_modules(root)
    if strays:
        names = ", ".join(strays)
        raise _refusal(f"has compiled modules this version does not compile ({names})", root)
    stale = stale_modules(root)
    if stale:
        raise _refusal(f"was not built from {', '.join(stale)} as it is now,", root)


def _refusal(problem: str, root: Path) -> StaleBuild:
    return StaleBuild(
        f"the compiled form of croupier {problem} in {root}: run `make install` to rebuild "
        f"it (or delete the compiled files, {root}/**/*.so, to run the pure-Python form)"
    )


class _Refuse(importlib.abc.MetaPathFinder):
    """Refuse to load the compiled modules of a stale build (first on ``sys.meta_path``)."""

    def __init__(self, names: Sequence[str], error: StaleBuild) -> None:
        self.names = frozenset(names)
        self.error = error

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in self.names:
            raise self.error
        return None


def refuse_stale(root: Path = _HERE, package: str = "pipeline") -> StaleBuild | None:
    """Check the build under ``root``; when it is stale, make each of its compiled modules
    refuse to load, and return the refusal (``None``: nothing stale).

    Importing the package never fails (``pipeline.entry`` must load to say the error in
    one line); importing a compiled module of a stale build does, with the reason.
    """
    try:
        check_fresh(root)
    except StaleBuild as error:
        names = [*COMPILED, *stray_modules(root)]
        sys.meta_path.insert(0, _Refuse([module_name(n, package) for n in names], error))
        return error
    return None


ENGINE = built_form()
"""``"compiled"`` or ``"python"``: the form this process runs."""

if __name__ == "__main__":  # make: the files the compiled build depends on
    print(" ".join(os.path.relpath(path) for path in sources()))
