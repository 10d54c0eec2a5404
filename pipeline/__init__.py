"""Croupier: a validating hand-history pipeline for Omaha poker."""

from importlib.metadata import PackageNotFoundError, version

from pipeline.compiled import refuse_stale

refuse_stale()  # first: a compiled module not built from its source as it is will not load

try:
    __version__ = version("croupier")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
