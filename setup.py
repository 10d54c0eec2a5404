"""Build the hot modules' compiled form: the same Python sources, compiled by Cython.

Everything else about the package is in ``pyproject.toml``. The modules named in
``pipeline/compiled.py`` (the rules engine, and the decoding and settlement every hand goes
through) are plain Python, the source of truth, read and type-checked as such; a
``.pxd`` file beside each engine module gives Cython the C types of its hot attributes and
locals. Compiled, the engine replays hands several times faster, and the rest runs faster
too, with the same results (the test suite runs against whichever form is installed, and
compares the two).

The compiled form is optional: with ``CROUPIER_PURE_PYTHON=1`` in the environment, or where
Cython or the C compiler fails, the package installs as pure Python and says so on stderr.
``pipeline.compiled.ENGINE`` (and ``croupier --version``) tells which form runs.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "pipeline"


def _compiled() -> ModuleType:
    """Load ``pipeline/compiled.py`` on its own (the package's dependencies may not be
    installed yet): the list of compiled modules and how their sources are recorded."""
    spec = importlib.util.spec_from_file_location("_croupier_compiled", PACKAGE / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _compiled()
COMPILED: list[str] = list(BUILD.COMPILED)


def _fallback(error: BaseException, *folders: Path) -> None:
    """Say the package stays pure Python, and remove every compiled module (and the record
    of its sources) from the source tree and the given build folders: a mix of compiled and
    pure modules does not load."""
    for folder in (PACKAGE, *(Path(f) / "pipeline" for f in folders)):
        for name in COMPILED:
            for suffix in EXTENSION_SUFFIXES:
                (folder / f"{name}{suffix}").unlink(missing_ok=True)
        (folder / BUILD.RECORD).unlink(missing_ok=True)
    print(
        f"croupier: the compiled modules were not built ({error}); "
        "installing the pure-Python form (same results, slower)",
        file=sys.stderr,
    )


class OptionalBuildExt(build_ext):
    """Build every extension, or none: any failure falls back to pure Python."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:  # one compiler per core: the install is that much quicker
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any build failure means "stay pure Python"
            _fallback(error, self.build_lib)


def _remove_strays() -> None:
    """Remove the compiled files of modules this version does not compile (a build of
    another version of the list left them; see ``stray_modules``): the package refuses
    to load them, and each build, compiled or pure Python, clears them."""
    for name in BUILD.stray_modules(PACKAGE):
        for suffix in EXTENSION_SUFFIXES:
            (PACKAGE / f"{name}{suffix}").unlink(missing_ok=True)


def _extensions() -> list[object]:
    _remove_strays()
    if os.environ.get("CROUPIER_PURE_PYTHON"):
        _fallback(RuntimeError("CROUPIER_PURE_PYTHON is set"))
        return []
    try:
        from Cython.Build import cythonize
    except ImportError as error:
        _fallback(error)
        return []
    try:
        extensions = list(
            cythonize(
                [f"pipeline/{name}.py" for name in COMPILED],
                language_level=3,
                compiler_directives={
                    "annotation_typing": False,  # the .pxd files give the C types
                    "overflowcheck": True,  # C integer arithmetic raises, never wraps
                    "nonecheck": True,  # a field of a typed None raises, never crashes
                    "binding": True,  # signatures and docstrings kept for help and doctests
                    "embedsignature": True,
                },
                quiet=True,
                force=True,  # the directives here are inputs too; Cython only compares times
            )
        )
    except Exception as error:  # a Cython error means "stay pure Python"
        _fallback(error)
        return []
    record = json.dumps(BUILD.source_digests(PACKAGE), indent=1, sort_keys=True)
    (PACKAGE / BUILD.RECORD).write_text(record + "\n", encoding="utf-8")
    return extensions


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
