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
from pipeline.formats import INPUT_FORMATS
from pipeline.model import Betting, Variant
from pipeline.rules import RULE_SETS, RuleSet, UnknownRuleSet, get_rule_set

__all__ = [
    "RULE_NAMES",
    "InputFormat",
    "Output",
    "Rules",
    "check_game",
    "check_input_format",
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
