"""DuckDB over the lake: one view per table over exactly the committed files, plus views.sql.

Croupier's readers never list folders: they read the files that committed runs list in the
manifest, so a crashed run's leftovers are invisible. SQL parameters are bound with ``?``,
never formatted into the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from pipeline.lake.manifest import MANIFEST, load_manifest
from pipeline.lake.schema import TABLES

__all__ = ["NoLake", "QueryResult", "connect", "run_query", "views_sql"]

VIEWS_SQL = Path(__file__).resolve().parents[2] / "schemas" / "views.sql"


class NoLake(FileNotFoundError):
    """The folder holds no lake (no committed run)."""


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Column names and rows of a query."""

    columns: list[str]
    rows: list[tuple[Any, ...]]


def views_sql() -> str:
    """Return the text of ``schemas/views.sql`` (the derived views and macros)."""
    return VIEWS_SQL.read_text(encoding="utf-8")


def connect(lake: str | Path) -> duckdb.DuckDBPyConnection:
    """Open an in-memory DuckDB with a view per lake table and the views of views.sql."""
    root = Path(lake)
    if not (root / MANIFEST).exists():
        raise NoLake(f"no lake at {root} (no {MANIFEST}); make one with 'croupier run'")
    manifest = load_manifest(root)
    con = duckdb.connect(":memory:")
    for name, schema in TABLES.items():
        files = [str(root / path) for path in manifest.files_of(name)]
        if files:
            # union_by_name: files of an older release lack the newer columns (read as NULL)
            relation = con.read_parquet(files, union_by_name=True)
            missing = [f for f in schema if f.name not in relation.columns]
            if missing:  # no file has them yet: NULL of the right type, so views still bind
                extra = ", ".join(f"NULL::{_duck_type(f.type)} AS {f.name}" for f in missing)
                relation = relation.project(f"*, {extra}")
            relation.create_view(name, replace=True)
        else:
            con.from_arrow(schema.empty_table()).create(name)
    con.execute(views_sql())
    return con


def _duck_type(kind: pa.DataType) -> str:
    """Return the DuckDB type of a lake column added by a later release (flags, counts)."""
    if pa.types.is_boolean(kind):
        return "BOOLEAN"
    if pa.types.is_integer(kind):
        return "BIGINT"
    return "VARCHAR"


def run_query(lake: str | Path, sql: str, params: list[object] | None = None) -> QueryResult:
    """Run one SQL statement over the lake with bound parameters; return its rows."""
    con = connect(lake)
    try:
        cursor = con.execute(sql, params or [])
        columns = [d[0] for d in cursor.description or []]
        return QueryResult(columns, cursor.fetchall())
    finally:
        con.close()
