"""The ``croupier`` console script: load the commands, or say in one line why they cannot.

Loading the commands loads the compiled modules, which refuse to load when they were not
built from their sources as they are (:mod:`pipeline.compiled`); that refusal is an
environment error (exit 3, one line on stderr), not a traceback.
"""

from __future__ import annotations

import os
import sys

BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "1")
"""Set (unless already set) before NumPy loads: Croupier calls no BLAS routine, and NumPy's
OpenBLAS otherwise starts a thread per core that spins for about 0.1 s of CPU as it loads,
in the command's process and in every worker it starts (they inherit the environment)."""


def main() -> int:
    """Run the command line; return its exit code (the console script exits with it)."""
    os.environ.setdefault(*BLAS_THREADS)
    try:
        from pipeline.cli import main as commands
    except ImportError as error:
        if not getattr(error, "stale_build", False):
            raise
        print(f"croupier: {error}", file=sys.stderr)
        return 3
    return commands()
