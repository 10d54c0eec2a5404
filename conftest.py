"""Collection rules for the whole project (pytest reads this before the test folders).

The compiled rules engine's modules are extension files beside their ``.py`` sources; pytest's
doctest collector would import those sources a second time and refuse the mismatch. They are
skipped here; ``tests/test_engine.py`` runs their doctests on the sources instead.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.rules.engine import COMPILED, compiled_file

_RULES = Path(__file__).resolve().parent / "pipeline" / "rules"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Skip a compiled engine module's source (its doctests run in tests/test_engine.py)."""
    if collection_path.parent == _RULES and collection_path.suffix == ".py":
        name = collection_path.stem
        if name in COMPILED and compiled_file(name) is not None:
            return True
    return None
