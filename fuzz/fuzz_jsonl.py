"""Fuzz the jsonl reader with atheris (see harness.py for the flags)."""

from harness import run

if __name__ == "__main__":
    run("jsonl")
