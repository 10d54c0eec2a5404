"""Collection rules for the whole project (pytest reads this before the test folders).

The compiled modules are extension files beside their ``.py`` sources; pytest's doctest
collector would import those sources a second time and refuse the mismatch. They are skipped
here; ``tests/test_engine.py`` runs their doctests on the sources instead.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.compiled import COMPILED, compiled_file

_PACKAGE = Path(__file__).resolve().parent / "pipeline"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Skip a compiled module's source (its doctests run in tests/test_engine.py)."""
    if collection_path.suffix == ".py" and collection_path.is_relative_to(_PACKAGE):
        name = collection_path.relative_to(_PACKAGE).with_suffix("").as_posix()
        if name in COMPILED and compiled_file(name) is not None:
            return True
    return None
