"""The ``croupier`` command: thin Typer adapters over the library, rich output on stderr.

Exit codes: 0 done; 1 violations found; 2 usage; 3 input or environment error (one clear
line on stderr; ``--debug`` shows the traceback).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline import __version__
from pipeline.convert import OUTPUT_FORMATS, convert
from pipeline.formats import INPUT_FORMATS
from pipeline.violations import Reject

__all__ = ["app", "main"]

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3

app = typer.Typer(
    name="croupier",
    help="Croupier: replay, judge and settle Omaha hand histories, and write a Parquet lake.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
stderr = Console(stderr=True, highlight=False)
_state = {"debug": False}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"croupier {__version__}")
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


def _fail(message: str, code: int = EXIT_ENVIRONMENT) -> typer.Exit:
    stderr.print(f"[bold red]error:[/] {message}", soft_wrap=True)
    return typer.Exit(code)


def _write_rejects(rejects: list[Reject], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for r in rejects:
            row = {
                "source": r.source,
                "line": r.line,
                "code": r.code.value,
                "message": r.message,
                "field": r.field,
                "hand_id": r.hand_id,
                "excerpt": r.excerpt,
            }
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def _report_rejects(rejects: list[Reject], shown: int = 10) -> None:
    for r in rejects[:shown]:
        where = f"{r.source}:{r.line}"
        stderr.print(f"[yellow]rejected[/] {where} [bold]{r.code}[/] {r.message}", soft_wrap=True)
    if len(rejects) > shown:
        stderr.print(f"… and {len(rejects) - shown} more rejects")


@app.command("convert")
def convert_command(
    input_path: Annotated[
        str, typer.Argument(metavar="INPUT", help="A hand-log file, or - for stdin.")
    ],
    output: Annotated[str, typer.Option("--output", "-o", help="Where to write; - for stdout.")],
    to: Annotated[
        str, typer.Option("--to", help=f"Output format: {', '.join(OUTPUT_FORMATS)}.")
    ] = "jsonl",
    input_format: Annotated[
        str | None,
        typer.Option("--input-format", help=f"Force the input format: {', '.join(INPUT_FORMATS)}."),
    ] = None,
    rejects: Annotated[
        Path | None,
        typer.Option("--rejects", help="Write every rejected input as a JSON line to this file."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Normalize a hand log: canonical field order, amounts and cards.

    Hands that cannot be read are reported on stderr (and written to --rejects) and left
    out; every other hand is written. The output appears whole or not at all.

    Example: [bold]croupier convert data/sample/plo.jsonl --to jsonl -o plo.canonical.jsonl[/]
    """
    if to not in OUTPUT_FORMATS:
        raise typer.BadParameter(f"unknown format {to!r}; choose from {', '.join(OUTPUT_FORMATS)}")
    if input_format is not None and input_format not in INPUT_FORMATS:
        raise typer.BadParameter(
            f"unknown input format {input_format!r}; choose from {', '.join(INPUT_FORMATS)}"
        )
    report = convert(input_path, output, to=to, input_format=input_format)
    if rejects is not None:
        _write_rejects(report.rejects, rejects)
    if not quiet:
        _report_rejects(report.rejects)
        stderr.print(f"converted {report.hands} hands, rejected {len(report.rejects)}")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (for tests and the console script)."""
    args = sys.argv[1:] if argv is None else argv
    try:
        app(args=args, prog_name="croupier", standalone_mode=False)
    except typer.Exit as done:
        return done.exit_code
    except typer.Abort:
        stderr.print("aborted")
        return 130
    except OSError as error:
        if "--debug" in args:
            raise
        target = f": {error.filename}" if error.filename else ""
        stderr.print(f"[bold red]error:[/] {error.strerror or error}{target}", soft_wrap=True)
        return EXIT_ENVIRONMENT
    except Exception as error:  # the environment or a bug: one clear line, the rest on --debug
        if getattr(error, "exit_code", None) is not None:
            return _usage_error(error)
        if "--debug" in args:
            raise
        stderr.print(f"[bold red]error:[/] {type(error).__name__}: {error}", soft_wrap=True)
        return EXIT_ENVIRONMENT
    return EXIT_OK


def _usage_error(error: Exception) -> int:
    show = getattr(error, "show", None)
    if callable(show):
        show(file=sys.stderr)
    code = getattr(error, "exit_code", EXIT_USAGE)
    return int(code) if isinstance(code, int) else EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
