"""Croupier: a validating hand-history pipeline for Omaha poker."""

import os
from importlib.metadata import PackageNotFoundError, version

from pipeline.compiled import refuse_stale

# Arrow's C++ code takes its allocator from this variable when pyarrow loads: the C library's
# malloc, unless the environment chose another (pipeline.task._use_system_allocator says why).
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")

refuse_stale()  # first: a compiled module not built from its source as it is will not load

try:
    __version__ = version("croupier")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
