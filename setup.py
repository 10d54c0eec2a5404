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

import ast
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
RULES = HERE / "pipeline" / "rules"


def _engine_modules() -> list[str]:
    """Return the names of the compiled modules: ``COMPILED`` in ``pipeline/rules/engine.py``.

    Read, not imported: importing it would check the very build this script is making.
    """
    tree = ast.parse((RULES / "engine.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            return list(ast.literal_eval(node.value))
    raise RuntimeError("pipeline/rules/engine.py defines no COMPILED")


COMPILED = _engine_modules()


def _fallback(error: BaseException) -> None:
    """Say the engine stays pure Python, and remove compiled files an older build left."""
    for name in COMPILED:
        for old in RULES.glob(f"{name}.*.so"):
            old.unlink()
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
            _fallback(error)


def _extensions() -> list[object]:
    if os.environ.get("CROUPIER_PURE_PYTHON"):
        print("croupier: CROUPIER_PURE_PYTHON is set: pure-Python engine", file=sys.stderr)
        _fallback(RuntimeError("CROUPIER_PURE_PYTHON is set"))
        return []
    try:
        from Cython.Build import cythonize
    except ImportError as error:
        _fallback(error)
        return []
    try:
        return list(
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


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
