"""Benchmarks: run one with ``.venv/bin/python -m bench.<name>``."""
