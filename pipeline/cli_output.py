"""How the ``croupier`` commands show their results: rich tables on the terminal, JSON and
CSV text for pipes, the progress bar on stderr.

Only the command line imports rich (STYLE.md); the reports return data and this module
draws it. Every string from a log is escaped before rich reads it as markup.
"""

from __future__ import annotations

import base64
import csv
import dataclasses
import io
import json
import math
import os
import shlex
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from datetime import time as clock
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from pipeline.check import CheckSummary, Duplicate, Judged, violation_record
from pipeline.formats.limits import clean_text
from pipeline.lake.query import QueryResult
from pipeline.model import HandRecord, Status
from pipeline.reports.audit import Audit
from pipeline.reports.audit_render import sections
from pipeline.reports.stats import StatsFilter
from pipeline.run import RunReport
from pipeline.violations import Reject

__all__ = [
    "STATS_TABLE",
    "emit",
    "is_stdout",
    "no_players",
    "output_in_lake",
    "print_audit",
    "print_check_summary",
    "print_duplicate",
    "print_judged",
    "print_reject",
    "print_report",
    "print_stats",
    "print_table",
    "progress",
    "reject_record",
    "render",
    "report_dict",
    "report_rejects",
    "same_file",
    "say_environment_error",
    "stderr",
    "stdout_console",
    "steps",
    "write_rejects",
]

stderr = Console(stderr=True, highlight=False)
"""Progress, summaries and errors: never mixed with the results on stdout."""


def say_environment_error(error: OSError, args: list[str]) -> None:
    """Say in one line on stderr what failed in the environment (``--debug``: raise it)."""
    if "--debug" in args:
        raise error
    target = f": {error.filename}" if error.filename else ""
    text = escape(f"{error.strerror or error}{target}")
    stderr.print(f"[bold red]error:[/] {text}", soft_wrap=True)


def emit(text: str, output: Path | None) -> None:
    """Write a command's text result to ``output``, or to stdout when there is none or it
    is ``-`` (as ``convert`` and ``generate`` take it)."""
    if output is not None and not is_stdout(output):
        output.write_text(text, encoding="utf-8")
    else:
        typer.echo(text, nl=False)


def is_stdout(output: Path) -> bool:
    """Tell whether an ``--output`` path is ``-``: standard output, not a file of that name."""
    return str(output) == "-"


def same_file(a: Path, b: Path) -> bool:
    """Tell whether two output paths name one file (through links; neither need exist)."""
    return not is_stdout(a) and not is_stdout(b) and os.path.realpath(a) == os.path.realpath(b)


def output_in_lake(lake: Path, outputs: dict[str, Path | None]) -> str | None:
    """Say which output (by its option) would be written inside the lake folder, or ``None``.

    A result written there could replace the lake's own files (its manifest, a table's
    Parquet), so commands refuse it. Paths are compared resolved: relative paths, ``..``
    and symbolic links lead where they lead.
    """
    root = lake.resolve()
    for option, output in outputs.items():
        if output is None or is_stdout(output):
            continue
        target = output.resolve()
        if target == root or root in target.parents:
            return f"{option} {output} is inside the lake folder {lake}; write it elsewhere"
    return None


def stdout_console(width: int) -> Console:
    """Return a console for results on stdout, at least ``width`` wide when not a terminal
    (so a table piped to a file or a test is not folded to 80 columns)."""
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=max(console.width, width))
    return console


def reject_record(r: Reject) -> dict[str, object]:
    return {
        "kind": "reject",
        "source": r.source,
        "line": r.line,
        "code": r.code.value,
        "message": r.message,
        "field": r.field,
        "hand_id": r.hand_id,
    }


def write_rejects(rejects: list[Reject], path: Path) -> None:
    """Write each reject as one JSON line (``convert --rejects``)."""
    with path.open("w", encoding="utf-8") as out:
        for r in rejects:
            row = {k: v for k, v in reject_record(r).items() if k != "kind"}
            row["excerpt"] = r.excerpt
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def report_rejects(rejects: list[Reject], shown: int = 10) -> None:
    """List the first ``shown`` rejects on stderr, then how many more there are."""
    for r in rejects[:shown]:
        where = escape(f"{r.source}:{r.line}")
        stderr.print(
            f"[yellow]rejected[/] {where} [bold]{r.code}[/] {escape(r.message)}", soft_wrap=True
        )
    if len(rejects) > shown:
        stderr.print(f"… and {len(rejects) - shown} more rejects")


def _hand_row(kind: str, hand: HandRecord) -> dict[str, object]:
    """The fields that say which hand a line of ``check --format json`` is about."""
    return {
        "kind": kind,
        "hand_id": hand.hand_id,
        "site": hand.site,
        "source": hand.source,
        "line": hand.line,
    }


def print_reject(item: Reject, fmt: str) -> None:
    if fmt == "json":
        typer.echo(json.dumps(reject_record(item), ensure_ascii=False))
        return
    typer.echo(f"{item.source}:{item.line} rejected {item.code.value}: {item.message}")


def print_duplicate(item: Duplicate, fmt: str) -> None:
    hand = item.hand
    if fmt == "json":
        typer.echo(json.dumps(_hand_row("duplicate", hand), ensure_ascii=False))
        return
    typer.echo(
        f"{hand.source}:{hand.line} {hand.hand_id} duplicate: a hand of {hand.site} with this "
        "id was read before; not judged again"
    )


def print_judged(item: Judged, fmt: str, show_all: bool) -> None:
    judged = item.replay
    violations = item.violations
    if not violations and not show_all:
        return
    hand = item.hand
    if fmt == "json":
        row = {
            **_hand_row("hand", hand),
            "status": item.status.value,
            "rules": judged.rules.label,
            "payouts_match": item.settlement.payouts_match,
            "violations": [violation_record(v) for v in violations],
        }
        typer.echo(json.dumps(row, ensure_ascii=False))
        return
    void = item.status is Status.VOID
    note = " (cancelled by the site: what it lacks fails nothing)" if void else ""
    typer.echo(f"{hand.source}:{hand.line} {hand.hand_id} {item.status.value}{note}")
    for v in violations:
        where = f"action {v.seq}" if v.seq is not None else "hand"
        seat = f" seat {v.seat}" if v.seat is not None else ""
        detail = ""
        if v.expected is not None or v.actual is not None:
            detail = f" (expected {v.expected or '-'}, found {v.actual or '-'})"
        typer.echo(
            f"  {v.severity.value} {v.code.value} at {where}{seat}: {v.message}{detail} [{v.rule}]"
        )


def report_dict(report: RunReport) -> dict[str, object]:
    return {
        "run_id": report.run_id,
        "lake": report.lake,
        "executor": report.executor,
        "hands": report.hands,
        "rejects": report.rejects,
        "duplicates": report.duplicates,
        "completed_partials": report.completed,
        "gone_by_replace": report.gone,
        "staging_leftovers": dict(report.leftovers),
        "skipped": [clean_text(path) for path in report.skipped],
        "statuses": dict(report.statuses),
        "violations": dict(report.codes),
        "payouts_match": dict(report.payouts),
        "files": report.files,
        "retired": report.retired,
        "seconds": round(report.seconds, 3),
        "inputs": [
            {
                "path": clean_text(i.path),  # a file name's undecodable bytes: U+FFFD
                "sha256": i.sha256,
                "size": i.size,
                "read": i.read,
                "hands": i.hands,
                "rejects": i.rejects,
                "duplicates": i.duplicates,
                "skipped": i.skipped,
            }
            for i in report.inputs
        ],
    }


def print_report(report: RunReport) -> None:
    from rich.table import Table

    table = Table(title=f"run {report.run_id} → {report.lake}", title_justify="left")
    table.add_column("what")
    table.add_column("count", justify="right")
    rate = report.hands / report.seconds if report.seconds else 0.0
    rows = [
        ("hands written", report.hands),
        ("rejects (input that is not a hand)", report.rejects),
        ("duplicates", report.duplicates),
    ]
    # a skipped input whose bytes another input of this run reads was named twice (or is a
    # copy): saying "already ingested" of it would be wrong in a new lake
    read_here = {i.sha256 for i in report.inputs if not i.skipped}
    repeated = sum(1 for i in report.inputs if i.skipped and i.sha256 in read_here)
    rows.append(("files skipped (already ingested)", len(report.skipped) - repeated))
    if repeated:
        rows.append(("files skipped (named twice, or a copy)", repeated))
    if report.completed:
        rows.append(("  of the duplicates, cut in the lake and whole here", report.completed))
    rows += [(f"status {name}", n) for name, n in sorted(report.statuses.items())]
    rows += [(f"payouts match: {k}", n) for k, n in sorted(report.payouts.items())]
    rows += [(f"violation {code}", n) for code, n in report.codes.most_common()]
    for what, n in rows:
        table.add_row(escape(what), f"{n:,}")
    table.add_row("time", f"{report.seconds:.1f} s ({rate:,.0f} hands/s)")
    stderr.print(table)
    if report.completed:  # a session file that grew: its cut hand is whole now
        stderr.print(
            f"{report.completed:,} {'hand' if report.completed == 1 else 'hands'} the lake "
            f"holds as cut (partial, or its line a reject) "
            f"{'is' if report.completed == 1 else 'are'} whole in these inputs; "
            "the lake keeps its first copy. To take the whole ones, run again with --replace "
            "on the files that have them, followed by the files the cut copies came from if "
            "they are others (the hands table's source column names them): --replace takes "
            "again what earlier runs read from the files it is given, earlier versions "
            "included, in the order given.",
            soft_wrap=True,
        )
    if report.gone:  # --replace took away hands other inputs were counted against
        many = report.gone != 1
        stderr.print(
            f"{report.gone:,} {'hands' if many else 'hand'} the lake held {'are' if many else 'is'}"
            " no longer in it: the files --replace read again do not have "
            f"{'them' if many else 'it'}. If other files you ran held {'them' if many else 'it'} "
            "too (counted there as duplicates), run those again with --replace.",
            soft_wrap=True,
        )
    for url, why in report.leftovers.items():  # a killed run's files at --staging
        stderr.print(
            f"[yellow]not removed[/] {escape(url)}, left at the staging URL by a run killed "
            f"before its end ({escape(why)}); the lake never read it, and the next run "
            "tries again",
            soft_wrap=True,
        )
    if report.rejects:  # where they are, in a command to copy
        sql = f"SELECT source, line, code, message FROM rejects WHERE run_id = '{report.run_id}'"
        stderr.print(
            escape(f'the rejects: croupier query "{sql}" --lake {shlex.quote(report.lake)}'),
            soft_wrap=True,
        )


@contextmanager
def progress(quiet: bool) -> Iterator[Callable[[str, int], None]]:
    if quiet or not stderr.is_terminal:
        yield lambda event, n: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    counts = {"file": 0, "hands": 0, "skipped": 0}
    started = time.perf_counter()
    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=stderr
    ) as bar:
        task = bar.add_task("starting")

        def update(event: str, n: int) -> None:
            counts[event] = counts.get(event, 0) + n
            rate = counts["hands"] / max(time.perf_counter() - started, 1e-9)
            bar.update(
                task,
                description=f"files {counts['file']} (skipped {counts['skipped']}), "
                f"hands {counts['hands']:,} ({rate:,.0f}/s)",
            )

        yield update


def print_check_summary(summary: CheckSummary, rules: str) -> None:
    """Say on stderr what ``check`` read and found, under the rule set ``rules``."""
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(summary.by_status.items()))
    repeated = f", {summary.duplicates} duplicates" if summary.duplicates else ""
    stderr.print(
        f"checked {summary.hands} hands ({statuses or 'none'}), {summary.rejects} rejected"
        f"{repeated}; {summary.hands_with_errors} with errors \\[rules {rules}]",
        soft_wrap=True,
    )


@contextmanager
def steps(doing: str, *, quiet: bool = False) -> Iterator[Callable[[str], None]]:
    """Show on stderr, when it is a terminal, what a long command is doing now (a spinner,
    ``doing``, the step and the time so far); yield the callback that names each step.
    ``quiet`` shows nothing."""
    if quiet or not stderr.is_terminal:
        yield lambda step: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=stderr,
        transient=True,  # gone when done: the command's own summary follows
    ) as bar:
        task = bar.add_task(doing)
        yield lambda step: bar.update(task, description=f"{doing}: {step}")


PROGRESS_EVERY = 1000
"""Hands between two updates of a long command's progress line."""


def counter(step: Callable[[str], None], what: str) -> Callable[[int], None]:
    """Return a callback that, given how many so far, names the step ``"1,000 what"``
    every :data:`PROGRESS_EVERY` (a line redrawn for every hand would cost more than it)."""

    def count(n: int) -> None:
        if n % PROGRESS_EVERY == 0:
            step(f"{n:,} {what}")

    return count


def render(result: QueryResult, fmt: str) -> str:
    """Return a result as strict JSON (an array of objects) or as CSV with a header.

    JSON objects need distinct keys: a column named like an earlier one (``h.hole_cards,
    s.hole_cards``) is given a suffix, as DuckDB names them in a subquery (``hole_cards_1``).
    """
    if fmt == "json":
        names = _unique_names(result.columns)
        rows = [
            {name: _json_value(value) for name, value in zip(names, row, strict=True)}
            for row in result.rows
        ]
        return _json_text(rows, indent=1) + "\n"
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(result.columns)
    writer.writerows([[_csv_cell(value) for value in row] for row in result.rows])
    return buffer.getvalue()


def _unique_names(columns: list[str]) -> list[str]:
    """Return the column names with a suffix on each repeat (``_1``, ``_2`` …), skipping
    suffixed names that are taken.

    >>> _unique_names(["a", "b", "a", "a_1", "a"])
    ['a', 'b', 'a_2', 'a_1', 'a_3']
    """
    taken = set(columns)
    seen: set[str] = set()
    out = []
    for name in columns:
        if name in seen:
            k = 1
            while f"{name}_{k}" in taken:
                k += 1
            name = f"{name}_{k}"
            taken.add(name)
        seen.add(name)
        out.append(name)
    return out


def _json_text(value: object, indent: int | None = None) -> str:
    """Return strict JSON (no NaN): decimals and other values JSON lacks as their text."""
    return json.dumps(value, default=str, ensure_ascii=False, allow_nan=False, indent=indent)


def _json_value(value: object) -> object:
    """Return a SQL value as JSON can hold it: NaN and infinities as null, times in ISO 8601
    (``2026-03-08T20:47:13+00:00``), intervals as ISO 8601 durations (``P3DT0H0M0S``),
    blobs in base64, lists and structs (maps too) item by item."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, datetime | date | clock):
        return value.isoformat()
    if isinstance(value, timedelta):
        return _duration(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, list | tuple):
        return [_json_value(item) for item in value]
    if isinstance(value, dict):
        return {_json_key(key): _json_value(item) for key, item in value.items()}
    return value


def _duration(value: timedelta) -> str:
    """Return an interval as an ISO 8601 duration.

    >>> _duration(timedelta(days=3)), _duration(timedelta(hours=-1, microseconds=-500))
    ('P3DT0H0M0S', '-P0DT1H0M0.0005S')
    """
    micros = value // timedelta(microseconds=1)
    sign, micros = ("-" if micros < 0 else ""), abs(micros)
    days, micros = divmod(micros, 86_400_000_000)
    hours, micros = divmod(micros, 3_600_000_000)
    minutes, micros = divmod(micros, 60_000_000)
    seconds, micros = divmod(micros, 1_000_000)
    fraction = f".{micros:06d}".rstrip("0") if micros else ""
    return f"{sign}P{days}DT{hours}H{minutes}M{seconds}{fraction}S"


def _json_key(key: object) -> str:
    value = _json_value(key)
    return value if isinstance(value, str) else _json_text(value)


def _csv_cell(value: object) -> object:
    """Write a boolean as SQL and DuckDB's own CSV do (``true``), not as Python (``True``),
    and a list or struct as JSON text (``["Kh9s4d"]``), not as a Python repr."""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, list | tuple | dict):
        return _json_text(_json_value(value))
    return value


def print_table(result: QueryResult) -> None:
    """Print a query's result as a table, or, when a table would not fit the console, one
    record per block (``column  value`` lines), as ``psql``'s expanded display does."""
    from rich.table import Table

    console = stdout_console(160)
    cells = [["" if v is None else str(v) for v in row] for row in result.rows]
    widths = [len(name) for name in result.columns]
    for row in cells:
        widths = [max(w, len(text)) for w, text in zip(widths, row, strict=True)]
    if sum(widths) + 3 * len(widths) + 1 > console.width and len(result.columns) > 1:
        name_width = max(len(name) for name in result.columns)
        for k, row in enumerate(cells, 1):
            console.print(f"[dim]── record {k} ──[/]")
            for name, text in zip(result.columns, row, strict=True):
                console.print(f"{escape(name):<{name_width}}  {escape(text)}", soft_wrap=True)
        if not cells:
            console.print(f"[dim](no rows; columns: {escape(', '.join(result.columns))})[/]")
        return
    table = Table(*result.columns)
    for row in cells:
        table.add_row(*(escape(text) for text in row))
    console.print(table)


STATS_TABLE = (
    ("VPIP", "vpip"),
    ("PFR", "pfr"),
    ("3-bet", "three_bet"),
    ("F3B", "fold_to_three_bet"),
    ("steal", "steal"),
    ("c-bet flop", "cbet_flop"),
    ("fold c-bet", "fold_to_cbet_flop"),
    ("WTSD", "wtsd"),
    ("W$SD", "wsd"),
    ("W$WSF", "wwsf"),
)


def print_audit(report: Audit) -> None:
    from rich.table import Table

    console = stdout_console(160)
    for section in sections(report):
        if not section.rows:
            console.print(f"[bold]{escape(section.title)}[/]: {escape(section.note)}")
            continue
        table = Table(*section.columns, title=escape(section.title), title_justify="left")
        for row in section.rows:
            table.add_row(*(escape(cell) for cell in row))
        console.print(table)
        if section.note:
            console.print(escape(section.note))


def no_players(spec: StatsFilter) -> str:
    """Say that no player matched, naming the options that filtered (``None``: not given)."""
    given = [
        f"--{f.name.replace('_', '-')} {getattr(spec, f.name)}"
        for f in dataclasses.fields(spec)
        if f.name != "by" and getattr(spec, f.name) != f.default
    ]
    if not given:
        return (
            "no player: the lake holds no hand that statistics count (void, invalid and partial "
            "hands are left out, and hands whose pots the rules could not award)"
        )
    return f"no player matches {', '.join(given)}"


def percent(done: int, opportunities: int) -> str:
    """Return ``done / opportunities`` as a whole percentage, never 0% or 100% unless exact.

    >>> percent(1, 8), percent(199, 200), percent(1, 200), percent(1, 20_000), percent(2, 2)
    ('12%', '99.5%', '0.5%', '<0.1%', '100%')
    """
    value = 100 * done / opportunities
    text = f"{value:.0f}"
    if text in ("0", "100") and 0 < done < opportunities:
        text = f"{value:.1f}"
        if text in ("0.0", "100.0"):
            return "<0.1%" if text == "0.0" else ">99.9%"
    return f"{text}%"


def print_stats(result: QueryResult, groups: tuple[str, ...]) -> None:
    from rich.table import Table

    index = {name: k for k, name in enumerate(result.columns)}
    keys = ["player", *[g for g in groups if g != "currency"], "currency"]
    labels = (label for label, _ in STATS_TABLE)
    table = Table(*keys, "hands", *labels, "AF", "net", "net bb", "bb/100")
    for row in result.rows:
        cells = [escape(str(row[index[k]])) for k in keys]
        cells.append(str(row[index["hands"]]))
        for _, name in STATS_TABLE:
            done, opp = row[index[name]], row[index[f"{name}_opp"]]
            cells.append(f"{percent(done, opp)} ({done}/{opp})" if opp else "-")
        aggressive, calls = row[index["postflop_aggressive"]], row[index["postflop_calls"]]
        # AF is a ratio, not a percentage, but shown with its counts all the same (STATS.md)
        cells.append(f"{aggressive / calls:.1f} ({aggressive}/{calls})" if calls else "-")
        cells.append(str(row[index["net_won"]]))
        cells.append(str(row[index["net_bb"]]))
        cells.append(str(row[index["bb_per_100"]]))
        table.add_row(*cells)
    console = stdout_console(200)
    console.print(table)
