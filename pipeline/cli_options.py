"""The command line's shared options and their checks: each refuses a bad value as a usage
error (exit 2) naming the option, before any work starts."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from pipeline.cli_output import output_in_lake, stderr
from pipeline.cli_shell import EXIT_ENVIRONMENT, EXIT_USAGE
from pipeline.executors import EXECUTORS, MAX_WORKERS
from pipeline.formats import INPUT_FORMATS
from pipeline.model import Betting, Variant
from pipeline.rules import RULE_SETS, RuleSet, UnknownRuleSet, get_rule_set
from pipeline.run import STDIN_REPLACE

__all__ = [
    "RULE_NAMES",
    "Executor",
    "FailOnViolation",
    "InputFormat",
    "Output",
    "Replace",
    "Rules",
    "Scheduler",
    "Staging",
    "Workers",
    "check_game",
    "check_input_format",
    "check_run_options",
    "check_stakes",
    "fail",
    "outside_lake",
    "player_range",
    "rule_set_named",
]

InputFormat = Annotated[
    str | None,
    typer.Option("--input-format", help=f"Force the input format: {', '.join(INPUT_FORMATS)}."),
]
RULE_NAMES = f"{', '.join(list(RULE_SETS)[:-1])} or {list(RULE_SETS)[-1]}"  # standard or …
Rules = Annotated[str, typer.Option("--rules", help=f"Rule set: {RULE_NAMES}.")]
Output = Annotated[Path | None, typer.Option("--output", "-o", help="Write here; - for stdout.")]

# croupier run's own options (its checks: check_run_options).
Workers = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        max=MAX_WORKERS,
        help="Processes, or with --executor dask the local cluster's workers "
        f"(1 to {MAX_WORKERS}; default: every core; a remote cluster uses its own "
        "workers).",
    ),
]
Replace = Annotated[
    bool,
    typer.Option(
        "--replace",
        help="Ingest inputs again, retiring the rows earlier runs took from them (and from "
        "earlier versions of the same file, e.g. a session file that has grown). Files "
        "only, not - (stdin).",
    ),
]
FailOnViolation = Annotated[
    bool,
    typer.Option(
        "--fail-on-violation",
        help="Exit 1 when any hand written has an error (status violations or invalid), "
        "as check does; the lake is committed all the same.",
    ),
]
Executor = Annotated[
    str,
    typer.Option(
        "--executor",
        help="Where chunks run: local (processes on this machine) or dask (a Dask "
        "cluster; needs pip install 'croupier\\[dask]').",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDR",
        help="With --executor dask: a running scheduler (tcp://HOST:8786) instead of a "
        "local cluster. Its workers write to the lake themselves: --out must be the same "
        "path on a filesystem they all share (or use --staging).",
    ),
]
Staging = Annotated[
    str | None,
    typer.Option(
        "--staging",
        metavar="URL",
        help="Stage the chunks' files at an fsspec URL (s3://bucket/path, file://…) "
        "instead of the lake's folder, for workers that do not share it; the run "
        "fetches them into the lake. Needs pip install 'croupier\\[fsspec]'.",
    ),
]


def check_run_options(
    fmt: str,
    executor: str,
    scheduler: str | None,
    staging: str | None,
    *,
    replace: bool,
    inputs: list[str],
) -> None:
    """Refuse (exit 2) a bad combination of croupier run's options: a summary format other
    than table or json, an unknown executor, --scheduler without dask, --staging that is not
    a URL, --replace of standard input."""
    if fmt not in ("table", "json"):
        raise typer.BadParameter(
            f"unknown format {fmt!r}; choose table or json", param_hint="--format"
        )
    if executor not in EXECUTORS:
        raise typer.BadParameter(
            f"unknown executor {executor!r}; choose local or dask", param_hint="--executor"
        )
    if scheduler is not None and executor != "dask":
        raise typer.BadParameter("--scheduler needs --executor dask", param_hint="--scheduler")
    if staging is not None and "://" not in staging:
        raise typer.BadParameter(
            f"--staging {staging!r} is not a URL (scheme://path)", param_hint="--staging"
        )
    if replace and "-" in inputs:
        raise typer.BadParameter(STDIN_REPLACE, param_hint="--replace")


def check_input_format(value: str | None) -> None:
    """Refuse (exit 2) an --input-format Croupier does not read."""
    if value is not None and value not in INPUT_FORMATS:
        known = ", ".join(INPUT_FORMATS)
        raise typer.BadParameter(
            f"unknown input format {value!r}; choose from {known}", param_hint="--input-format"
        )


def check_summary_format(fmt: str, output: str) -> None:
    """Refuse (exit 2) a ``--format`` other than text or json, and json with ``-o -``: the
    summary goes to stdout, where the hands would go."""
    if fmt not in ("text", "json"):
        raise typer.BadParameter(
            f"unknown format {fmt!r}; choose text or json", param_hint="--format"
        )
    if fmt == "json" and output == "-":
        raise typer.BadParameter(
            "json writes the summary to stdout, and -o - writes the hands there: "
            "name an output file",
            param_hint="--format",
        )


def fail(message: str, code: int = EXIT_ENVIRONMENT) -> typer.Exit:
    """Say one error line on stderr; return the exit to raise with ``code``."""
    stderr.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def check_writable(path: Path, option: str) -> None:
    """Fail (exit 3, one line naming ``option``) unless a file can be written at ``path``."""
    if path.is_dir():
        raise fail(f"{option} {path} is a folder: name a file")
    if not path.parent.is_dir():
        raise fail(f"{option} {path}: no folder {path.parent} to write it in")
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        raise fail(f"{option} {path} cannot be written: permission denied")


def outside_lake(lake: Path, **outputs: Path | None) -> None:
    """Refuse (exit 2, nothing written) an output that would land inside the lake folder."""
    inside = output_in_lake(lake, {f"--{o.replace('_', '-')}": p for o, p in outputs.items()})
    if inside is not None:
        raise fail(inside, EXIT_USAGE)


def rule_set_named(name: str) -> RuleSet:
    """Return the rule set ``--rules`` names, or refuse (exit 2) listing the names known."""
    try:
        return get_rule_set(name)
    except UnknownRuleSet:  # the names --help lists, not the versioned labels also taken
        raise typer.BadParameter(
            f"--rules: unknown rule set {name!r}; choose {RULE_NAMES}"
        ) from None


def check_game(variant: str | None, betting: str | None) -> None:
    """Refuse (exit 2) a --variant or --betting Croupier does not know, listing those it does."""
    for name, value, choices in (
        ("variant", variant, [v.value for v in Variant]),
        ("betting", betting, [b.value for b in Betting]),
    ):
        if value is not None and value not in choices:
            message = f"unknown {name} {value!r}; choose from {', '.join(choices)}"
            raise typer.BadParameter(message, param_hint=f"--{name}")


def check_stakes(text: str | None) -> None:
    """Refuse (exit 2) a ``--stakes`` that is no big blind as decimal text: ASCII digits
    with at most one point, below 10^29, and at most 9 decimals (trailing zeros aside),
    what the lake's SQL compares exactly.

    >>> check_stakes("0.10"), check_stakes("2"), check_stakes("1.000000000000")
    (None, None, None)
    """
    if text is None:
        return
    match = _STAKES_RE.fullmatch(text)
    whole, decimals = (match.group(1), match.group(2) or "") if match else ("", "")
    if match and len(whole.lstrip("0")) <= 29 and len(decimals.rstrip("0")) <= 9:
        return
    message = f"--stakes takes a big blind such as 0.10, not {text!r}"
    raise typer.BadParameter(message, param_hint="--stakes")


_STAKES_RE = re.compile(r"(?=\.?[0-9])([0-9]*)(?:\.([0-9]*))?")


def player_range(text: str) -> tuple[int, int]:
    """Read ``--players`` N or N-M (2 to 10 players); refuse (exit 2) anything else."""
    low, _, high = text.partition("-")
    try:
        lo, hi = int(low), int(high or low)
    except ValueError:
        raise typer.BadParameter(
            f"players must be N or N-M, not {text!r}", param_hint="--players"
        ) from None
    if lo > hi:
        raise typer.BadParameter(f"players N-M needs N <= M, not {text!r}", param_hint="--players")
    if not 2 <= lo <= hi <= 10:
        raise typer.BadParameter(
            f"players must be between 2 and 10, not {text!r}", param_hint="--players"
        )
    return lo, hi
