"""The lake: Parquet tables with a manifest as the commit point, and DuckDB views over it."""

from pipeline.lake.manifest import Manifest, load_manifest
from pipeline.lake.schema import PARTITIONED, TABLES
from pipeline.lake.store import LakeLocked

__all__ = ["PARTITIONED", "TABLES", "LakeLocked", "Manifest", "load_manifest"]
