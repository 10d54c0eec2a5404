"""The ``croupier`` console script: load the commands, or say in one line why they cannot.

Loading the commands loads the compiled modules, which refuse to load when they were not
built from their sources as they are (:mod:`pipeline.compiled`); that refusal is an
environment error (exit 3, one line on stderr), not a traceback.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run the command line; return its exit code (the console script exits with it)."""
    try:
        from pipeline.cli import main as commands
    except ImportError as error:
        if not getattr(error, "stale_build", False):
            raise
        print(f"croupier: {error}", file=sys.stderr)
        return 3
    return commands()
