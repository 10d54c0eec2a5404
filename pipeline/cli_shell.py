"""The shell around the ``croupier`` commands: exit codes, help layout, a closed stdout.

What every command shares and none of them is about: the exit codes, the help's layout
(docstrings reflowed, on/off flags shown without a type) and how a broken pipe on stdout
ends the process.
"""

from __future__ import annotations

import inspect
import os
import select
import signal
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from typer.core import TyperCommand, TyperGroup, TyperOption

if TYPE_CHECKING:  # Typer's own click, for the types of the help methods Typer calls
    from typer._click import Context as ClickContext
    from typer._click import HelpFormatter

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_ENVIRONMENT",
    "EXIT_OK",
    "EXIT_USAGE",
    "EXIT_VIOLATIONS",
    "HelpCommand",
    "HelpGroup",
    "end_on_broken_pipe",
    "reflowed",
    "stdout_closed",
    "usage_error",
]

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
"""A broken pipe (``croupier … | head``): 141, the status of a process SIGPIPE ended."""


def _hide_flag_types(params: Iterable[object]) -> None:
    """Show no type for an on/off flag in help (``--quiet``, not ``--quiet <bool>``).

    Typer shows every option's type, a flag's too, as if it took a value; an empty metavar
    leaves the help's type column blank. A flag takes no value, so nothing else reads it.
    """
    for param in params:
        if isinstance(param, TyperOption) and param.is_bool_flag and param.metavar is None:
            param.metavar = ""


class HelpCommand(TyperCommand):
    """A command whose help shows no type for its flags."""

    def format_help(self, ctx: ClickContext, formatter: HelpFormatter) -> None:
        _hide_flag_types(self.get_params(ctx))
        super().format_help(ctx, formatter)


class HelpGroup(TyperGroup):
    """The ``croupier`` group, whose help shows no type for its flags."""

    def format_help(self, ctx: ClickContext, formatter: HelpFormatter) -> None:
        _hide_flag_types(self.get_params(ctx))
        super().format_help(ctx, formatter)


def stdout_closed() -> bool:
    """Tell whether the process's standard output is a pipe whose reader has gone (the
    kernel reports an error condition on its write end)."""
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else -1
        if fd < 0:
            return False
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
        return False


def end_on_broken_pipe() -> int:
    """Point stdout at devnull, so nothing is flushed into the closed pipe at exit; return 141.

    As the Python docs advise (signal module, "Note on SIGPIPE"). Typer may have wrapped
    stdout, so its file descriptor is replaced, not the object.
    """
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture): nothing to do
        return EXIT_BROKEN_PIPE
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
    return EXIT_BROKEN_PIPE


def reflowed(doc: str) -> str:
    """Return a docstring with each paragraph on one line.

    Rich markup mode keeps single line breaks, so text wrapped in the source would be
    wrapped twice (ragged) in a terminal narrower than the source lines.
    """
    return "\n\n".join(" ".join(part.split()) for part in inspect.cleandoc(doc).split("\n\n"))


def usage_error(error: Exception) -> int:
    """Show a usage error (Click's own message) on stderr; return its exit code (2)."""
    show = getattr(error, "show", None)
    if callable(show):
        show(file=sys.stderr)
    code = getattr(error, "exit_code", EXIT_USAGE)
    return int(code) if isinstance(code, int) else EXIT_USAGE
