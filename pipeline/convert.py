"""Convert hand logs between formats: read every hand, write it in the target format.

Only hands are written; every input that could not become a hand is returned as a
:class:`~pipeline.violations.Reject` so the caller can report and keep it.

Nothing is lost without a word: a PHH text is read back before it is written, and a hand
whose text does not give the same record back (source and line aside) is not written but
listed in ``ConvertReport.unwritable`` with the fields PHH could not carry.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO

from msgspec import Struct
from msgspec.structs import replace

from pipeline.files import replaced
from pipeline.formats import read_hands, read_stream
from pipeline.formats.jsonl import encode_hand
from pipeline.formats.phh import decode_hand
from pipeline.formats.phh_track import UnwritableHand
from pipeline.formats.phh_write import write_phh
from pipeline.model import HandRecord
from pipeline.violations import Reject

__all__ = ["OUTPUT_FORMATS", "ConvertReport", "convert", "phh_text"]

OUTPUT_FORMATS = ("jsonl", "phh")

Progress = Callable[[int], None]


@dataclass(slots=True)
class ConvertReport:
    """What a conversion did: hands written and the inputs rejected, in input order."""

    hands: int = 0
    rejects: list[Reject] = field(default_factory=list)
    unwritable: list[tuple[str, str]] = field(default_factory=list)  # hand id, why


def phh_text(hand: HandRecord) -> str:
    """Return the PHH text of ``hand``, checked to read back as the same record.

    Raises :class:`UnwritableHand` naming what would be lost: the fields of the record
    (``result.final_stacks``, ``seats`` …) that the text read back does not give again.
    """
    text = write_phh(hand)
    back = decode_hand(text, hand.source, hand.line, complete=True)
    if isinstance(back, Reject):
        raise UnwritableHand(
            f"hand {hand.hand_id}: its PHH text does not read back ({back.code}: {back.message})"
        )
    lost = _differences(hand, replace(back, source=hand.source, line=hand.line))
    if lost:
        raise UnwritableHand(f"hand {hand.hand_id}: PHH cannot carry {', '.join(lost)}")
    return text


def _differences(ours: Struct, back: Struct, path: str = "") -> list[str]:
    """Return the dotted names of the fields where two records differ (nested records
    are compared field by field)."""
    names: list[str] = []
    for name in ours.__struct_fields__:
        mine, theirs = getattr(ours, name), getattr(back, name)
        if mine == theirs:
            continue
        if isinstance(mine, Struct) and type(mine) is type(theirs):
            names += _differences(mine, theirs, f"{path}{name}.")
        else:
            names.append(f"{path}{name}")
    return names


@contextmanager
def _output(path: str) -> Iterator[IO[bytes]]:
    """Open the output: stdout for ``-``, else a temporary file renamed into place on success."""
    if path == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    with replaced(path) as stream:
        yield stream


def _records(input_path: str, input_format: str | None) -> Iterator[HandRecord | Reject]:
    """Read the input: a file, or stdin for ``-``, of the given (or detected) format."""
    if input_path == "-":
        yield from read_stream(sys.stdin.buffer, "<stdin>", input_format=input_format)
    else:
        yield from read_hands(input_path, input_format=input_format)


def convert(
    input_path: str,
    output_path: str,
    *,
    to: str = "jsonl",
    input_format: str | None = None,
    on_hand: Progress | None = None,
) -> ConvertReport:
    """Convert the hands of ``input_path`` (``-`` for stdin) to ``to`` at ``output_path``.

    ``jsonl`` writes the canonical hand log; ``phh`` writes a ``.phhs`` file (one TOML
    table per hand, ``[1]``, ``[2]`` …) that PokerKit loads; a hand PHH cannot express
    whole (see :func:`phh_text`) is listed in ``unwritable``, with why, and left out.

    The output appears whole or not at all (written to a temporary file, then renamed);
    ``-`` writes to stdout. ``on_hand`` is called with the running count of hands written.
    """
    if to not in OUTPUT_FORMATS:
        raise ValueError(f"unknown output format {to!r}; known: {', '.join(OUTPUT_FORMATS)}")
    report = ConvertReport()
    with _output(output_path) as stream:
        for item in _records(input_path, input_format):
            if isinstance(item, Reject):
                report.rejects.append(item)
                continue
            if to == "phh":
                try:
                    text = phh_text(item)
                except UnwritableHand as error:
                    report.unwritable.append((item.hand_id, str(error)))
                    continue
                stream.write(f"[{report.hands + 1}]\n{text}\n".encode())
            else:
                stream.write(encode_hand(item))
                stream.write(b"\n")
            report.hands += 1
            if on_hand is not None:
                on_hand(report.hands)
    return report
