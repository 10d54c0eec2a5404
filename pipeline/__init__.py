"""Croupier: a validating hand-history pipeline for Omaha poker."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("croupier")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
