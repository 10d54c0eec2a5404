"""Benchmarks: run one with ``.venv/bin/python -m bench.<name>``."""

import pipeline  # noqa: F401 - before pyarrow, as in the croupier command (pipeline/__init__.py)
