"""Build the rules engine's compiled form: the same Python sources, compiled by Cython.

Everything else about the package is in ``pyproject.toml``. The modules named in
``pipeline/rules/engine.py`` are plain Python, the source of truth, read and type-checked as
such; a ``.pxd`` file beside each gives Cython the C types of its hot attributes and locals.
Compiled, the engine replays hands several times faster with the same results (the test
suite runs against whichever form is installed, and compares the two).

The compiled form is optional: with ``CROUPIER_PURE_PYTHON=1`` in the environment, or where
Cython or the C compiler fails, the package installs as pure Python and says so on stderr.
``pipeline.rules.ENGINE`` (and ``croupier --version``) tells which form runs.
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
RULES = HERE / "pipeline" / "rules"


def _engine() -> ModuleType:
    """Load ``pipeline/rules/engine.py`` on its own (the package's dependencies may not be
    installed yet): the list of compiled modules and how their sources are recorded."""
    spec = importlib.util.spec_from_file_location("_croupier_engine", RULES / "engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENGINE = _engine()
COMPILED: list[str] = list(ENGINE.COMPILED)


def _fallback(error: BaseException, *folders: Path) -> None:
    """Say the engine stays pure Python, and remove every compiled engine module (and the
    record of its sources) from the source tree and the given build folders: a mix of
    compiled and pure modules does not load."""
    for folder in (RULES, *(Path(f) / "pipeline" / "rules" for f in folders)):
        for name in COMPILED:
            for suffix in EXTENSION_SUFFIXES:
                (folder / f"{name}{suffix}").unlink(missing_ok=True)
        (folder / ENGINE.RECORD).unlink(missing_ok=True)
    print(
        f"croupier: the compiled rules engine was not built ({error}); "
        "installing the pure-Python engine (same results, slower)",
        file=sys.stderr,
    )


class OptionalBuildExt(build_ext):
    """Build every extension, or none: any failure falls back to pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any build failure means "stay pure Python"
            _fallback(error, self.build_lib)


def _extensions() -> list[object]:
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
                [f"pipeline/rules/{name}.py" for name in COMPILED],
                language_level=3,
                compiler_directives={
                    "annotation_typing": False,  # the .pxd files give the C types
                    "overflowcheck": True,  # C integer arithmetic raises, never wraps
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
    record = json.dumps(ENGINE.source_digests(RULES), indent=1, sort_keys=True)
    (RULES / ENGINE.RECORD).write_text(record + "\n", encoding="utf-8")
    return extensions


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
