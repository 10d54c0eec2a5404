"""The ``croupier`` command: thin Typer adapters over the library, rich output on stderr.

Exit codes: 0 done; 1 violations found; 2 usage; 3 input or environment error (one clear
line on stderr; ``--debug`` shows the traceback); 141 stdout closed early (a broken pipe,
quietly).
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Annotated

import duckdb
import typer
from rich.markup import escape
from typer.core import TyperCommand

from pipeline import __version__
from pipeline.check import CheckSummary, Duplicate, check_paths, paused_gc
from pipeline.cli_options import (
    Executor,
    FailOnViolation,
    InputFormat,
    Output,
    Replace,
    Rules,
    Scheduler,
    Staging,
    Workers,
    check_game,
    check_input_format,
    check_run_options,
    check_stakes,
    check_summary_format,
    check_writable,
    fail,
    outside_lake,
    player_range,
    rule_set_named,
)
from pipeline.cli_output import (
    counter,
    emit,
    is_stdout,
    no_players,
    print_audit,
    print_check_summary,
    print_duplicate,
    print_judged,
    print_reject,
    print_report,
    print_stats,
    print_table,
    progress,
    reject_record,
    render,
    report_dict,
    report_rejects,
    same_file,
    say_environment_error,
    stderr,
    steps,
    write_rejects,
)
from pipeline.cli_shell import (
    EXIT_ENVIRONMENT,
    EXIT_OK,
    EXIT_USAGE,
    EXIT_VIOLATIONS,
    HelpCommand,
    HelpGroup,
    end_on_broken_pipe,
    reflowed,
    stdout_closed,
    usage_error,
)
from pipeline.convert import OUTPUT_FORMATS, convert
from pipeline.files import replaced
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import GameChoice, RakePolicy, generate_hands
from pipeline.lake.manifest import ManifestError
from pipeline.lake.query import LakeError, NotReadOnly, damage_named_by, run_query
from pipeline.lake.store import LakeLocked
from pipeline.model import Betting, HandRecord, Variant
from pipeline.reports.audit import Audit, audit
from pipeline.reports.audit_render import (
    render_csv,
    render_html,
    render_json,
    render_markdown,
)
from pipeline.reports.explain import ExplainError, explain, find_in_file, locate
from pipeline.reports.explain_render import FORMATS as EXPLAIN_FORMATS
from pipeline.reports.explain_render import render as render_explanation
from pipeline.reports.stats import GROUPS, StatsFilter, player_stats
from pipeline.rules import ENGINE, UnknownRuleSet, get_rule_set
from pipeline.run import run_lake
from pipeline.violations import Reject

__all__ = ["app", "main"]

app = typer.Typer(
    name="croupier",
    cls=HelpGroup,
    help="Croupier: replay, judge and settle Omaha hand histories, and write a Parquet lake.",
    epilog="Exit codes: 0 done; 1 violations found (check, run --fail-on-violation, audit "
    "--fail-on-findings); 2 usage "
    "error; 3 input or environment error; 130 interrupted; 141 stdout closed.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
_state = {"debug": False}
_EXIT_ABORTED = 130
"""Ctrl-C: 128 + SIGINT, the status a shell gives a process the signal ended."""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"croupier {__version__} ({ENGINE})")  # compiled, or python
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks of errors.")] = False,
) -> None:
    """Croupier: replay, judge and settle Omaha hand histories, and write a Parquet lake."""
    _state["debug"] = debug


@app.command("convert")
def convert_command(
    input_path: Annotated[
        str, typer.Argument(metavar="INPUT", help="A hand-log file, or - for stdin.")
    ],
    output: Annotated[str, typer.Option("--output", "-o", help="Where to write; - for stdout.")],
    to: Annotated[
        str, typer.Option("--to", help=f"Output format: {', '.join(OUTPUT_FORMATS)}.")
    ] = "jsonl",
    input_format: InputFormat = None,
    rejects: Annotated[
        Path | None,
        typer.Option("--rejects", help="Write every rejected input as a JSON line to this file."),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option("--format", help="Summary: text on stderr, or json (one object on stdout)."),
    ] = "text",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Normalize a hand log: canonical field order, amounts and cards.

    Hands that cannot be read are reported on stderr (and written to --rejects) and left
    out; every other hand is written. The output appears whole or not at all.

    Example: [bold]croupier convert data/sample/plo.jsonl --to jsonl -o plo.canonical.jsonl[/]
    """
    if to not in OUTPUT_FORMATS:
        raise typer.BadParameter(
            f"unknown format {to!r}; choose from {', '.join(OUTPUT_FORMATS)}", param_hint="--to"
        )
    check_summary_format(fmt, output)
    check_input_format(input_format)
    if rejects is not None:  # before the output is written: a failed command writes nothing
        check_writable(rejects, "--rejects")
    with steps("converting", quiet=quiet) as step:
        report = convert(
            input_path,
            output,
            to=to,
            input_format=input_format,
            on_hand=counter(step, "hands"),
        )
    if rejects is not None:
        write_rejects(report.rejects, rejects)
    if fmt == "json":
        summary = {
            "hands": report.hands,
            "rejected": len(report.rejects),
            "not_written": [{"hand_id": h, "why": why} for h, why in report.unwritable],
            "rejects": [reject_record(r) for r in report.rejects],
            "output": output,
            "to": to,
        }
        typer.echo(json.dumps(summary, ensure_ascii=False))
    elif not quiet:
        report_rejects(report.rejects)
        for hand_id, why in report.unwritable:
            stderr.print(f"[yellow]not written[/] {escape(hand_id)}: {escape(why)}", soft_wrap=True)
        left_out = f", not written {len(report.unwritable)}" if report.unwritable else ""
        stderr.print(f"converted {report.hands} hands, rejected {len(report.rejects)}{left_out}")


@app.command("check")
def check_command(
    inputs: Annotated[
        list[str],
        typer.Argument(metavar="INPUT...", help="Hand-log files or directories; - for stdin."),
    ],
    fmt: Annotated[
        str, typer.Option("--format", help="Output: text, or json (one object per line).")
    ] = "text",
    rules: Rules = "standard",
    input_format: InputFormat = None,
    show_all: Annotated[bool, typer.Option("--all", help="List clean hands too.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary on stderr.")] = False,
) -> None:
    """Replay every hand and print its violations; exit 1 when any hand breaks a rule.

    Every action is judged by the rules engine (turn order, blinds, bet and raise sizes,
    cards, uncalled bets …). Warnings (such as the order hands were shown in) are listed
    but do not fail the check. Unreadable input is listed as a reject and also fails it.
    A hand whose site and id were read before is listed as a duplicate, not judged again.

    Example: [bold]croupier check data/sample --format json[/]
    """
    if fmt not in ("text", "json"):
        raise typer.BadParameter(
            f"unknown format {fmt!r}; choose text or json", param_hint="--format"
        )
    check_input_format(input_format)
    rule_set = rule_set_named(rules)
    summary = CheckSummary()
    with paused_gc(), steps("checking") as step:
        count = counter(step, "read")
        for item in check_paths(inputs, rules=rule_set, input_format=input_format):
            summary.add(item)
            count(summary.read)
            if isinstance(item, Reject):
                print_reject(item, fmt)
            elif isinstance(item, Duplicate):
                print_duplicate(item, fmt)
            else:
                print_judged(item, fmt, show_all)
    if not quiet:
        print_check_summary(summary, rule_set.label)
    if summary.hands_with_errors or summary.rejects:
        raise typer.Exit(EXIT_VIOLATIONS)


@app.command("generate")
def generate_command(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="How many hands.")],
    output: Annotated[str, typer.Option("--output", "-o", help="Where to write; - for stdout.")],
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant", help=f"Game: {', '.join(v.value for v in Variant)} (default: mixed)."
        ),
    ] = None,
    hole_cards: Annotated[
        int | None, typer.Option("--hole-cards", min=4, max=6, help="4, 5 or 6 (Courchevel: 5).")
    ] = None,
    betting: Annotated[
        str | None,
        typer.Option(
            "--betting", help=f"Structure: {', '.join(b.value for b in Betting)} (default: mixed)."
        ),
    ] = None,
    players: Annotated[str, typer.Option("--players", help="Players per hand: N or N-M.")] = "2-10",
    seed: Annotated[
        int, typer.Option("--seed", help="Random seed: the same seed, the same hands.")
    ] = 0,
    faults: Annotated[
        float,
        typer.Option(
            "--faults",
            min=0.0,
            max=1.0,
            help="Chance per hand of exactly one injected violation (a hand that can take "
            "none stays clean).",
        ),
    ] = 0.0,
    rake_percent: Annotated[
        float,
        typer.Option("--rake-percent", min=0.0, max=100.0, help="Rake of cash pots, in percent."),
    ] = 5.0,
    rake_cap: Annotated[
        int, typer.Option("--rake-cap", min=0, help="Most rake per pot, in big blinds.")
    ] = 3,
    fmt: Annotated[
        str,
        typer.Option("--format", help="Summary: text on stderr, or json (one object on stdout)."),
    ] = "text",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Write realistic, reproducible synthetic hands in the hand-log format.

    Hands are played by random policies over the legal ranges the engine computes:
    folds, calls, minimum and pot-size raises, all-ins, side pots, heads-up and full ring,
    short stacks, straddles and dead blinds now and then, boards run twice now and then.
    With --faults, that fraction of hands carries one injected rule violation, recorded in
    the hand as "_injected": {"code": …, "seq": …}. Each hand records its result as a
    site would (collections per pot and half, rake with --rake-percent and --rake-cap,
    none without a flop or in tournaments).

    Example: [bold]croupier generate --hands 1000 --variant omaha --seed 7 -o plo.jsonl[/]
    """
    check_summary_format(fmt, output)
    check_game(variant or None, betting or None)
    game = Variant(variant) if variant else None
    structure = Betting(betting) if betting else None
    if game is not None and game.is_courchevel and hole_cards not in (None, 5):
        raise typer.BadParameter("Courchevel deals 5 hole cards", param_hint="--hole-cards")
    lo, hi = player_range(players)
    choice = GameChoice(
        variant=game, hole_cards=hole_cards, betting=structure, min_players=lo, max_players=hi
    )
    points = round(rake_percent * 100)
    if abs(points - rake_percent * 100) > 1e-6:
        raise typer.BadParameter(
            "the rake percent may have at most two decimals", param_hint="--rake-percent"
        )
    rake = RakePolicy(basis_points=points, cap_big_blinds=rake_cap)
    stream = generate_hands(hands, seed=seed, choice=choice, faults=faults, rake=rake)
    with steps("generating", quiet=quiet) as step:
        counted = _counted(stream, counter(step, f"of {hands:,} hands"))
        if output == "-":
            written = write_jsonl(counted, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        else:
            with replaced(output) as out:
                written = write_jsonl(counted, out)
    if fmt == "json":
        summary = {"hands": written, "seed": seed, "faults": faults, "output": output}
        typer.echo(json.dumps(summary, ensure_ascii=False))
    elif not quiet:
        stderr.print(f"generated {written} hands (seed {seed}, faults {faults:g})")


def _counted(hands: Iterator[HandRecord], count: Callable[[int], None]) -> Iterator[HandRecord]:
    """Yield ``hands``, calling ``count`` with how many so far after each."""
    for n, hand in enumerate(hands, 1):
        yield hand
        count(n)


@app.command("run")
def run_command(
    inputs: Annotated[
        list[str],
        typer.Argument(metavar="INPUT...", help="Hand-log files or directories; - for stdin."),
    ],
    out: Annotated[Path, typer.Option("--out", help="The lake folder.")] = Path("lake"),
    workers: Workers = None,
    rules: Rules = "standard",
    replace: Replace = False,
    input_format: InputFormat = None,
    fmt: Annotated[str, typer.Option("--format", help="Summary: table or json.")] = "table",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")] = False,
    fail_on_violation: FailOnViolation = False,
    executor: Executor = "local",
    scheduler: Scheduler = None,
    staging: Staging = None,
) -> None:
    """Judge and settle every hand of the inputs and commit them to the Parquet lake.

    Writes the tables hands, seats, actions, pots, awards, violations and rejects (see the
    README), partitioned by month of play. The run's manifest entry is the commit point: a
    crashed or interrupted run leaves the lake as it was. Inputs already ingested are
    skipped (unless --replace); hands already in the lake are counted as duplicates (a hand
    the lake holds as partial and an input has whole is said: take it with --replace).
    With --executor dask the chunks run on a Dask cluster and the lake is the same.

    Example: [bold]croupier run data/sample --out lake[/]

    Example: [bold]croupier run hands/ --out /shared/lake --executor dask --scheduler
    tcp://head:8786[/]
    """
    from pipeline.executors import ExecutorError

    check_run_options(fmt, executor, scheduler, staging, replace=replace, inputs=inputs)
    check_input_format(input_format)
    rule_set = rule_set_named(rules)
    try:
        with progress(quiet) as on_progress:
            report = run_lake(
                inputs,
                out,
                workers=workers,
                rules=rule_set,
                replace=replace,
                input_format=input_format,
                on_progress=on_progress,
                executor=executor,
                scheduler=scheduler,
                executor_logs=bool(_state["debug"]),
                staging_url=staging,
            )
    except (LakeLocked, ExecutorError) as error:
        raise fail(str(error)) from None
    if fmt == "json":
        typer.echo(json.dumps(report_dict(report), ensure_ascii=False))
    elif not quiet:
        print_report(report)
    if fail_on_violation and any(report.statuses.get(s) for s in ("violations", "invalid")):
        raise typer.Exit(EXIT_VIOLATIONS)


@app.command("query")
def query_command(
    sql: Annotated[str, typer.Argument(metavar="SQL", help="One SQL statement.")],
    lake: Annotated[Path, typer.Option("--lake", help="The lake folder.")] = Path("lake"),
    params: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            "-p",
            help="A value for each ? in the SQL, bound as text: cast it where a number is "
            "meant, e.g. CAST(? AS INTEGER).",
        ),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="table, csv or json.")] = "table",
    output: Output = None,
    allow_external: Annotated[
        bool,
        typer.Option(
            "--allow-external",
            help="Allow statements other than SELECT and files outside the lake "
            "(COPY … TO, ATTACH, INSTALL).",
        ),
    ] = False,
) -> None:
    """Run SQL over the lake with DuckDB: one view per table, plus the views of views.sql.

    Views: hands, seats, actions, pots, awards, violations, rejects, and hands_money,
    seats_money, hands_by_variant, violations_by_code, player_stats; macros
    money_text(amount, scale) and money(amount, scale). Values for ? placeholders come
    from --param, bound as text, never pasted into the SQL: cast one where a number is
    meant (CAST(? AS BIGINT)). JSON output is strict (NaN and infinities as null).

    Read-only: one SELECT statement, and DuckDB may open only the lake's committed files;
    --allow-external lifts that (e.g. to COPY a result to a file of your own).

    Example: [bold]croupier query "SELECT * FROM hands_by_variant"[/]

    Example: [bold]croupier query "SELECT hand_id, total_pot FROM hands WHERE site = ? AND
    total_pot >= CAST(? AS BIGINT) * big_blind" -p SampleRoom -p 20[/]
    """
    if fmt not in ("table", "csv", "json"):
        raise typer.BadParameter(
            f"unknown format {fmt!r}; choose table, csv or json", param_hint="--format"
        )
    outside_lake(lake, output=output)
    try:
        result = run_query(lake, sql, list(params or []), allow_external=allow_external)
    except LakeError as error:
        raise fail(str(error)) from None
    except NotReadOnly as error:
        raise fail(f"SQL: {error}", EXIT_USAGE) from None
    except duckdb.Error as error:
        damage = damage_named_by(error)
        if damage is not None:  # a committed file cannot be read: not the SQL's fault
            raise fail(str(damage)) from None
        first = str(error).strip().splitlines()[0]
        if "count mismatch" in first or "not provided" in first:  # say what was given
            first += f" (one --param per ?: {len(params or [])} given)"
        elif params and isinstance(error, duckdb.BinderException | duckdb.ConversionException):
            first += " (--param values are text: cast them, e.g. CAST(? AS INTEGER))"
        raise fail(f"SQL: {first}", EXIT_USAGE) from None
    if fmt == "table" and output is None:
        print_table(result)
    else:  # a table written to a file is CSV
        emit(render(result, fmt), output)


_AUDIT_FORMATS = ("table", "json", "csv", "markdown", "html")


@app.command("audit")
def audit_command(
    lake: Annotated[Path, typer.Option("--lake", help="The lake folder.")] = Path("lake"),
    fmt: Annotated[
        str,
        typer.Option("--format", help="table, json, csv (the findings), markdown or html."),
    ] = "table",
    output: Output = None,
    html_file: Annotated[
        Path | None,
        typer.Option(
            "--html", help="Also write the report as one HTML file (-: to stdout, alone)."
        ),
    ] = None,
    examples: Annotated[
        int, typer.Option("--examples", min=0, help="Example hand ids per violation group.")
    ] = 5,
    limit: Annotated[
        int, typer.Option("--limit", min=0, help="Findings listed per kind (0: all).")
    ] = 100,
    fail_on_findings: Annotated[
        bool,
        typer.Option(
            "--fail-on-findings",
            help="Exit 1 when any hand has an error, any finding is listed, or the deal "
            "fails the fairness tests.",
        ),
    ] = False,
) -> None:
    """Audit the lake for compliance: statuses, violations, money, continuity, fairness.

    Hands by status; violations by code, site, table and month with example hand ids;
    payout mismatches and chip conservation with amounts; duplicate hands; players seated
    twice; continuity per table (gaps in hand numbers, button moves, stacks carried over);
    and chi-square tests of the deal (hole cards known at the deal, by position in the hand
    and by table position; recorded deck orders; boards against the cards left where every
    seat's hole cards are known) with Holm's correction and a plain verdict. Findings are
    the report: the exit code is 0 unless --fail-on-findings. With -o, the table format
    writes Markdown; --html writes one self-contained page with charts, beside any other
    format (--html - writes it to stdout in place of the table).

    Example: [bold]croupier audit --lake lake --html audit.html[/]
    """
    if fmt not in _AUDIT_FORMATS:
        raise typer.BadParameter(
            f"unknown format {fmt!r}; choose {', '.join(_AUDIT_FORMATS)}", param_hint="--format"
        )
    outside_lake(lake, output=output, html=html_file)
    html_out = html_file is not None and is_stdout(html_file)
    if html_out and (is_stdout(output) if output is not None else fmt != "table"):
        message = f"--html - and the {fmt} report would both go to standard output; "
        raise fail(message + "write one of them to a file", EXIT_USAGE)
    if html_file is not None and output is not None and same_file(html_file, output):
        message = f"--html and -o both name {output}: the report would overwrite the page; "
        raise fail(message + "give them different files", EXIT_USAGE)
    try:
        with steps("auditing") as step:
            report = audit(lake, examples=examples, limit=limit or None, on_step=step)
    except LakeError as error:
        raise fail(str(error)) from None
    if html_file is not None:
        emit(render_html(report), html_file)
    renderers = {
        "json": render_json,
        "csv": render_csv,
        "markdown": render_markdown,
        "html": render_html,
    }
    if html_out and output is None:
        pass  # the HTML is the result on standard output
    elif fmt in renderers or output is not None:  # the table format written to -o is Markdown
        emit(renderers.get(fmt, render_markdown)(report), output)
    else:
        print_audit(report)
    if fail_on_findings and _has_findings(report):
        raise typer.Exit(EXIT_VIOLATIONS)


def _has_findings(report: Audit) -> bool:
    errors = any(g.errors for g in report.violations.get("code", ()))
    biased = any(t.result == "fail" for t in report.fairness.tests)
    return errors or biased or any(report.finding_counts.values())


@app.command("stats")
def stats_command(
    lake: Annotated[Path, typer.Option("--lake", help="The lake folder.")] = Path("lake"),
    player: Annotated[str | None, typer.Option("--player", help="One player.")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="One game variant.")] = None,
    betting: Annotated[str | None, typer.Option("--betting", help="One structure.")] = None,
    stakes: Annotated[
        str | None, typer.Option("--stakes", help="One big blind, as decimal text (0.02).")
    ] = None,
    site: Annotated[str | None, typer.Option("--site", help="One site.")] = None,
    position: Annotated[str | None, typer.Option("--position", help="BTN, SB, BB, UTG …")] = None,
    since: Annotated[
        datetime | None, typer.Option("--since", formats=["%Y-%m-%d"], help="First day.")
    ] = None,
    until: Annotated[
        datetime | None, typer.Option("--until", formats=["%Y-%m-%d"], help="Last day.")
    ] = None,
    min_hands: Annotated[int, typer.Option("--min-hands", min=1, help="Fewest hands.")] = 1,
    by: Annotated[
        str, typer.Option("--by", help=f"Group by any of: {', '.join(GROUPS)} (comma-separated).")
    ] = "",
    fmt: Annotated[str, typer.Option("--format", help="table, csv, json or parquet.")] = "table",
    output: Output = None,
) -> None:
    """Player statistics from the lake: VPIP, PFR, 3-bet, c-bets, AF, WTSD, bb/100 …

    Each statistic is reported with its counts (done / opportunities). Money is never added
    across currencies. The table shows the common statistics; csv, json and parquet carry
    every column: each ratio's counts, post-flop aggression counts (AF = aggressive /
    calls, AFq = aggressive / (aggressive + calls + folds)), net won and bb/100, and the
    hi/lo pot kinds (pots won, scoops, high only, low only, quartered). With -o, the table
    format writes CSV.

    Example: [bold]croupier stats --lake lake --by variant,position --min-hands 2[/]
    """
    if fmt not in ("table", "csv", "json", "parquet"):
        raise typer.BadParameter(
            f"unknown format {fmt!r}; choose table, csv, json or parquet", param_hint="--format"
        )
    if fmt == "parquet" and output is None:
        raise typer.BadParameter("--format parquet needs --output FILE", param_hint="--output")
    outside_lake(lake, output=output)
    check_game(variant, betting)
    check_stakes(stakes)
    groups = tuple(g.strip() for g in by.split(",") if g.strip())
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise typer.BadParameter(
            f"unknown grouping {unknown[0]!r}; choose from {', '.join(GROUPS)}"
        )
    spec = StatsFilter(
        player=player,
        variant=variant,
        betting=betting,
        stakes=stakes,
        site=site,
        position=position.upper() if position else None,  # BTN, UTG+1 …: given in any case
        since=since.date() if since else None,
        until=until.date() if until else None,
        min_hands=min_hands,
        by=groups,
    )
    try:
        with steps("computing player statistics"):
            result = player_stats(lake, spec)
    except LakeError as error:
        raise fail(str(error)) from None
    if fmt == "parquet":
        assert output is not None
        import pyarrow as pa
        import pyarrow.parquet as pq

        data = {name: [row[k] for row in result.rows] for k, name in enumerate(result.columns)}
        pq.write_table(pa.table(data), sys.stdout.buffer if is_stdout(output) else output)
        return
    if fmt != "table" or output is not None:  # a table written to a file is CSV, as in query
        emit(render(result, "csv" if fmt == "table" else fmt), output)
        return
    if not result.rows:  # no empty table: say which filters left nobody
        stderr.print(escape(no_players(spec)), soft_wrap=True)
        return
    print_stats(result, groups)


@app.command("explain")
def explain_command(
    hand: Annotated[
        str,
        typer.Argument(
            metavar="HAND_ID", help="Croupier's id (SITE:HAND_ID) or the site's hand number."
        ),
    ],
    lake: Annotated[
        Path | None, typer.Option("--lake", help="The lake folder (default: ./lake).")
    ] = None,
    input_path: Annotated[
        Path | None,
        typer.Option("--input", help="Read the hand from this hand-log file, not a lake."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text, markdown, json or html.")] = "text",
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Rule set (default: the one that judged the hand in the lake, else standard).",
        ),
    ] = None,
    input_format: InputFormat = None,
    output: Output = None,
) -> None:
    """Explain one hand for a dispute, action by action, with the rule behind every payout.

    Shows the table, seats, stacks, button and blinds; every action with the pot before
    it, the amount to call, what was allowed and any violation where it happened; the
    boards; each showdown hand with its five cards; each pot with who could win it and how
    it was split (high/low, ties, odd chips, rake); the money by the rules against the
    log's record, differences marked; and the RULES.md rule of every payout and violation.
    The hand is found in the lake (which names its source file, read again) or in --input.

    Example: [bold]croupier explain SampleRoom:SAMPLE-0006 --lake lake --format html -o hand.html[/]
    """
    if fmt not in EXPLAIN_FORMATS:
        raise typer.BadParameter(
            f"unknown format {fmt!r}; choose from {', '.join(EXPLAIN_FORMATS)}"
        )
    if lake is not None and input_path is not None:
        raise typer.BadParameter("give --lake or --input, not both")
    if input_path is None:
        outside_lake(lake or Path("lake"), output=output)
    elif str(input_path) == "-":  # the file is opened to detect its format, then to read it
        raise typer.BadParameter(
            "- (standard input) cannot be explained: save the hand log to a file and name it",
            param_hint="--input",
        )
    elif input_path.exists() and not input_path.is_file() and not input_path.is_dir():
        raise typer.BadParameter(
            f"{input_path} is not a regular file (a pipe or a device): save the hand log "
            "to a file and name it",
            param_hint="--input",
        )
    check_input_format(input_format)
    judged_by: str | None = None
    try:
        if input_path is not None:
            record = find_in_file(input_path, hand, input_format=input_format)
        else:
            found = locate(lake if lake is not None else Path("lake"), hand)
            record, judged_by = found.hand, found.rules
    except ExplainError as error:
        raise fail(str(error)) from None
    if rules is None and judged_by is not None:
        try:
            rule_set = get_rule_set(judged_by)
        except UnknownRuleSet:
            raise fail(
                f"the lake judged this hand with rule set {judged_by}, which this version does "
                "not know; choose one with --rules"
            ) from None
    else:
        rule_set = rule_set_named(rules or "standard")
    emit(render_explanation(explain(record, rule_set), fmt), output)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (for tests and the console script).

    A broken pipe (``croupier … | head -1``: the reader closed stdout early) ends any
    command quietly with 141, as SIGPIPE ends a C program: not 1, which says violations.
    """
    args = sys.argv[1:] if argv is None else argv
    try:
        code = _run(args)
        sys.stdout.flush()  # what is still buffered fails here, not at interpreter exit
    except BrokenPipeError as error:
        if stdout_closed():
            return end_on_broken_pipe()
        say_environment_error(error, args)  # another pipe (a worker's): say so
        return EXIT_ENVIRONMENT
    except SystemExit as done:  # rich ends on a broken pipe of its console with status 1
        if isinstance(done.__context__, BrokenPipeError):  # (having put devnull in its place)
            return end_on_broken_pipe()
        raise
    return code


def _run(args: list[str]) -> int:
    """Run the command line with these arguments; return the exit code.

    Ctrl-C says "aborted" and ends with 130. Typer turns it into ``Exit(130)``, which it
    returns as the command's result when not in standalone mode: no exception reaches here.
    """
    try:
        code = app(args=args, prog_name="croupier", standalone_mode=False)
    except typer.Exit as done:
        code = done.exit_code
    except (typer.Abort, KeyboardInterrupt):  # end of input at a prompt; Ctrl-C outside Typer
        code = _EXIT_ABORTED
    except BrokenPipeError:
        raise  # main ends quietly
    except OSError as error:
        say_environment_error(error, args)
        return EXIT_ENVIRONMENT
    except ManifestError as error:  # a damaged lake: its own message says what to do
        stderr.print(f"[bold red]error:[/] {escape(str(error))}", soft_wrap=True)
        return EXIT_ENVIRONMENT
    except Exception as error:  # the environment or a bug: one clear line, the rest on --debug
        if getattr(error, "exit_code", None) is not None:
            return usage_error(error)
        if "--debug" in args:
            raise
        damage = damage_named_by(error) if isinstance(error, duckdb.Error) else None
        if damage is not None:  # stats, audit, explain: a committed file cannot be read
            stderr.print(f"[bold red]error:[/] {escape(str(damage))}", soft_wrap=True)
            return EXIT_ENVIRONMENT
        text = escape(f"{type(error).__name__}: {error}")
        stderr.print(f"[bold red]error:[/] {text}", soft_wrap=True)
        return EXIT_ENVIRONMENT
    if code == _EXIT_ABORTED:
        stderr.print("aborted")
    return code if isinstance(code, int) else EXIT_OK


for _command in app.registered_commands:
    _command.help = reflowed(inspect.getdoc(_command.callback) or "")
    if _command.cls in (None, TyperCommand):  # Typer's default: show flags without a type
        _command.cls = HelpCommand


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
