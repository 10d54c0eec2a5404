"""DuckDB over the lake: one view per table over exactly the committed files, plus views.sql.

Croupier's readers never list folders: they read the files that committed runs list in the
manifest, so a crashed run's leftovers are invisible. A reader reads one snapshot, the files
of one manifest: when a run commits meanwhile and deletes files it retired (``--replace``)
from under it, :func:`read_lake` starts the reading again on the new manifest. SQL
parameters are bound with ``?``, never formatted into the text.

Queries are read-only by default: one ``SELECT`` (or ``EXPLAIN``) statement, over a
connection that may open only the lake's committed files (DuckDB's ``allowed_paths`` with
external access disabled and the configuration locked), so SQL cannot write to the lake,
read other files, ``COPY``, ``ATTACH``, ``INSTALL`` or ``LOAD``. ``allow_external=True``
lifts both limits for a user who asks for it (``croupier query --allow-external``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import pyarrow as pa

from pipeline.lake.manifest import MANIFEST, ManifestError, load_manifest
from pipeline.lake.schema import TABLES
from pipeline.lake.store import LakeDamaged, LakeError, NoLake, check_committed

__all__ = [
    "LakeDamaged",
    "LakeError",
    "NoLake",
    "NotReadOnly",
    "QueryResult",
    "connect",
    "damage_named_by",
    "read_lake",
    "read_only_check",
    "run_query",
    "views_sql",
]

VIEWS_SQL = Path(__file__).resolve().parent / "views.sql"
"""The derived views and macros: package data (``schemas/views.sql`` in the source tree
links to it), so an installed package has it too."""


SNAPSHOT_TRIES = 3
"""How many times :func:`read_lake` reads, when runs keep committing while it reads."""
T = TypeVar("T")

_PARQUET_PATH = re.compile(r"""(['"])([^'"]+?\.parquet)\1""")


def damage_named_by(error: Exception) -> LakeDamaged | None:
    """Return the lake damage a DuckDB error reports, or None when it names no lake file.

    A committed Parquet file that DuckDB cannot read (truncated, overwritten, not Parquet)
    is the lake's problem, not the SQL's: the error names the file, and the folder above it
    that holds a manifest is the lake.
    """
    message = str(error).strip()
    for match in _PARQUET_PATH.finditer(message):
        path = Path(match.group(2))
        if not path.is_file():  # a pattern or a file of the user's, not one of the lake's
            continue
        path = path.resolve()
        root = next((p for p in path.parents if (p / MANIFEST).is_file()), None)
        if root is None or not _is_committed(root, path):
            continue
        first = message.splitlines()[0] if message else type(error).__name__
        reason = " ".join(first.replace(match.group(0), "").split())
        return LakeDamaged(
            f"the lake at {root} is damaged: {path.relative_to(root).as_posix()}, a file "
            f"its manifest lists, cannot be read ({reason}); restore it from a backup, or "
            "run the inputs again into a new lake"
        )
    return None


def _is_committed(root: Path, path: Path) -> bool:
    """Tell whether ``path`` is a file the manifest of the lake at ``root`` lists."""
    try:
        manifest = load_manifest(root)
    except (ManifestError, OSError):  # a manifest that cannot be read names no file
        return False
    listed = {(root / name).resolve() for table in TABLES for name in manifest.files_of(table)}
    return path in listed


class NotReadOnly(ValueError):
    """The SQL is not one read-only statement (and external access was not allowed)."""


_READ_ONLY = frozenset({duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN})


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Column names and rows of a query."""

    columns: list[str]
    rows: list[tuple[Any, ...]]


def views_sql() -> str:
    """Return the text of ``views.sql`` (the derived views and macros)."""
    return VIEWS_SQL.read_text(encoding="utf-8")


def connect(lake: str | Path, *, allow_external: bool = False) -> duckdb.DuckDBPyConnection:
    """Open an in-memory DuckDB with a view per lake table and the views of views.sql.

    Unless ``allow_external``, the connection can open no file but the lake's committed
    files, cannot load extensions, and its configuration is locked. Its time zone is UTC,
    whatever the machine's: the lake's times are UTC, and so are its ``month`` and the
    days of ``croupier stats --since``. Raises :class:`NoLake`, or :class:`LakeDamaged`
    when a committed file is missing, cannot be read or holds other rows than the
    manifest lists (each file's footer is read).
    """
    root = Path(lake).resolve()
    if not (root / MANIFEST).exists():
        raise NoLake(f"no lake at {lake} (no {MANIFEST}); make one with 'croupier run'")
    manifest = load_manifest(root)
    config: dict[str, str | bool | int | float | list[str]] = {
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
    }
    check_committed(Path(lake), manifest)  # every file there, readable, with its rows
    files_of = {name: [str(root / path) for path in manifest.files_of(name)] for name in TABLES}
    con = duckdb.connect(":memory:", config=config)
    con.execute("SET TimeZone = 'UTC'")
    readable: list[str] = []
    for name, schema in TABLES.items():
        files = files_of[name]
        readable += files
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
    if not allow_external:
        if readable:
            con.execute("SET allowed_paths = ?", [readable])
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    return con


def read_lake(
    lake: str | Path,
    read: Callable[[duckdb.DuckDBPyConnection], T],
    *,
    allow_external: bool = False,
) -> T:
    """Return what ``read`` makes of a connection to the lake (:func:`connect`), on one
    snapshot of it.

    A run that commits while ``read`` runs may delete files the connection reads: the ones
    its ``--replace`` retired. The reading then fails on a missing file although the lake
    is whole. So when the reading fails and the manifest is no longer the one it started
    from, it starts again on the new one (up to :data:`SNAPSHOT_TRIES` readings in all); a
    failure with the manifest unchanged (bad SQL, a damaged file) is raised as it is.
    """
    root = Path(lake).resolve()
    attempt = 1
    while True:
        before = _manifest_stamp(root)
        try:
            con = connect(lake, allow_external=allow_external)
            try:
                return read(con)
            finally:
                con.close()
        except (LakeDamaged, duckdb.Error):
            if attempt >= SNAPSHOT_TRIES or _manifest_stamp(root) == before:
                raise
        attempt += 1


def _manifest_stamp(root: Path) -> tuple[int, int, int] | None:
    """Return what tells one manifest from the next: each commit renames a new file over
    it (another inode, time and mostly size); ``None`` where there is none."""
    try:
        found = os.stat(root / MANIFEST)
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


def read_only_check(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Raise :class:`NotReadOnly` unless ``sql`` is exactly one SELECT or EXPLAIN statement."""
    statements = con.extract_statements(sql)
    if len(statements) != 1:
        raise NotReadOnly(f"give exactly one SQL statement (found {len(statements)})")
    kind = statements[0].type
    if kind not in _READ_ONLY:
        raise NotReadOnly(
            f"only SELECT queries are allowed (found {kind.name}); "
            "--allow-external permits COPY, ATTACH, INSTALL and other statements"
        )


def _duck_type(kind: pa.DataType) -> str:
    """Return the DuckDB type of a lake column added by a later release (flags, counts)."""
    if pa.types.is_boolean(kind):
        return "BOOLEAN"
    if pa.types.is_integer(kind):
        return "BIGINT"
    return "VARCHAR"


def run_query(
    lake: str | Path,
    sql: str,
    params: list[object] | None = None,
    *,
    allow_external: bool = False,
) -> QueryResult:
    """Run one SQL statement over the lake with bound parameters; return its rows.

    Read-only unless ``allow_external`` (see the module's documentation). Reads one
    snapshot of the lake (:func:`read_lake`).
    """

    def read(con: duckdb.DuckDBPyConnection) -> QueryResult:
        if not allow_external:
            read_only_check(con, sql)
        cursor = con.execute(sql, params or [])
        columns = [d[0] for d in cursor.description or []]
        return QueryResult(columns, cursor.fetchall())

    return read_lake(lake, read, allow_external=allow_external)
