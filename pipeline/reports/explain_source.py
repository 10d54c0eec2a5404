"""Find a hand again for :mod:`pipeline.reports.explain`: in the lake or in a file, and
the line of each of its actions in its source file.

:func:`locate` finds a hand in a lake by Croupier's id (``SITE:HAND_ID``) or by the site's
hand number, and reads it again from its source file; :func:`find_in_file` finds one in a
hand-log file. Both raise :class:`ExplainError` (one line) when the hand cannot be found.
:func:`source_lines` finds each action's line (PokerStars text and PHH: by reading the
hand again; JSON Lines: the hand's line) and the local time the log printed;
:func:`lines_note` says which actions it could not place.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from pipeline.files import sha256_of
from pipeline.formats import detect_format, read_hands
from pipeline.formats.jsonl import decode_line, iter_lines
from pipeline.formats.pokerstars import (
    _Chunk,
    _chunks,
    _decode_hand,
    _raw_lines,
    _Undecodable,
)
from pipeline.formats.pokerstars_header import DATE_RE
from pipeline.lake.manifest import InputEntry, load_manifest
from pipeline.lake.query import LakeError, read_lake
from pipeline.model import Action, ActionType, Blind, HandRecord
from pipeline.violations import Reject

__all__ = ["ExplainError", "Located", "find_in_file", "lines_note", "locate", "source_lines"]


class ExplainError(Exception):
    """A hand that cannot be found or read again: the message is one line for the user."""


# ------------------------------------------------------------------------------ source lines

_QUOTED_RE = re.compile(r"'[^']*'|\"[^\"]*\"")
_PHH_KINDS = {
    "dh": (ActionType.DEAL,),
    "db": (ActionType.BOARD,),
    "f": (ActionType.FOLD,),
    "cc": (ActionType.CHECK, ActionType.CALL),
    "cbr": (ActionType.BET, ActionType.RAISE),
    "sm": (ActionType.SHOW, ActionType.MUCK),
}


def source_lines(hand: HandRecord, path: Path) -> tuple[list[int | None], str | None]:
    """Return the line of each action in ``path`` (``None`` where unknown) and the local
    time the log printed (``None`` when it printed none, or the file is not at hand)."""
    unknown: list[int | None] = [None] * len(hand.actions)
    if not hand.line or not path.is_file():
        return unknown, None
    try:
        fmt = detect_format(path)
        if fmt == "jsonl":
            return [hand.line] * len(hand.actions), None
        if fmt not in ("pokerstars", "phh"):
            return unknown, None
        block = list(_block(path, hand.line, fmt))
    except (OSError, UnicodeError):
        return unknown, None
    if not block:
        return unknown, None
    if fmt == "pokerstars":
        times = [m.group(0).strip() for m in DATE_RE.finditer(block[0][1])]
        return _pokerstars_lines(hand, block), (" / ".join(times) or None)
    return _phh_lines(hand, block), _phh_time(block)


def lines_note(hand: HandRecord, lines: Sequence[int | None]) -> str | None:
    """Say which actions :func:`source_lines` found no line for (``None``: it found all)."""
    unplaced = sum(1 for line in lines if line is None)
    if unplaced == len(lines):
        return (
            f"The line of each action is not known; the hand starts at line {hand.line} "
            f"of {hand.source}."
        )
    if unplaced:
        return (
            f"{unplaced} action(s) have no line of their own: the log implies them without "
            "writing them (an uncalled bet returned, say)."
        )
    return None


def _block(path: Path, first: int, fmt: str) -> Iterator[tuple[int, str]]:
    """Yield the numbered lines of the hand starting at line ``first``, to the next hand,
    decoded as the reader decoded them (nothing when the reader could not)."""
    if fmt == "pokerstars":
        yield from _pokerstars_block(path, first)
        return
    # PHH: UTF-8 (a byte-order mark aside); a byte that is not makes its hand a reject
    text = path.read_bytes().decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number in range(first, len(lines) + 1):
        line = lines[number - 1].rstrip()
        if number > first and re.match(r"^\s*\[[^\]]*\]\s*$", line):
            return
        yield number, line


def _pokerstars_block(path: Path, first: int) -> Iterator[tuple[int, str]]:
    """Yield the lines of the PokerStars hand at line ``first``, decoded as the reader
    decodes it (:func:`~pipeline.formats.pokerstars._decode_hand`)."""
    wanted: _Chunk | None = None
    with path.open("rb") as stream:
        for chunk in _chunks(_raw_lines(stream)):
            if chunk.begin <= first <= chunk.end:
                wanted = chunk
                break
    if wanted is None or wanted.dropped:
        return
    text = _decode_hand(b"\n".join(wanted.lines), wanted.begin)
    if isinstance(text, _Undecodable):
        return  # the reader rejected this hand: bad-encoding
    for number, line in enumerate(text.split("\n"), start=wanted.begin):
        if number >= first:
            yield number, line.rstrip()


def _matcher(action: Action, name: str) -> tuple[str, ...]:
    """Return the line starts that record ``action`` by ``name`` in PokerStars text."""
    kind = action.type
    if kind is ActionType.POST:
        return (f"{name}: posts ",)
    if kind is ActionType.DEAL:
        return (f"Dealt to {name} [",)
    if kind is ActionType.FOLD:
        return (f"{name}: folds",)
    if kind is ActionType.CHECK:
        return (f"{name}: checks",)
    if kind is ActionType.CALL:
        return (f"{name}: calls ",)
    if kind is ActionType.BET:
        return (f"{name}: bets ",)
    if kind is ActionType.RAISE:
        return (f"{name}: raises ",)
    if kind is ActionType.SHOW:
        return (f"{name}: shows [", f"{name} shows [")
    if kind is ActionType.MUCK:
        return (f"{name}: mucks", f"{name} mucks")
    return ()


def _pokerstars_line_fits(action: Action, name: str, text: str) -> bool:
    kind = action.type
    if kind is ActionType.BOARD:
        return text.startswith("*** ") and any(
            f"{street} ***" in text for street in ("FLOP", "TURN", "RIVER", "PRE-FLOP")
        )
    if kind is ActionType.UNCALLED:
        return text.startswith("Uncalled bet (") and text.endswith(f" returned to {name}")
    if text.startswith(_matcher(action, name)):
        return True
    if kind in (ActionType.SHOW, ActionType.MUCK) and text.startswith("Seat "):
        verb = "showed [" if kind is ActionType.SHOW else "mucked ["
        return text.split(": ", 1)[-1].startswith(name) and verb in text
    return False


def _pokerstars_lines(hand: HandRecord, block: list[tuple[int, str]]) -> list[int | None]:
    """Find each action's line: the next line, in order, that records it."""
    names = {s.seat: s.player for s in hand.seats}
    found: list[int | None] = []
    cursor = 0
    for action in hand.actions:
        name = names.get(action.seat, "") if action.seat is not None else ""
        line = None
        for k in range(cursor, len(block)):
            if _pokerstars_line_fits(action, name, block[k][1]):
                line, cursor = block[k][0], k + 1
                break
        found.append(line)
    return found


def _phh_lines(hand: HandRecord, block: list[tuple[int, str]]) -> list[int | None]:
    """Find each action's line: posts on their key's line, the rest in ``actions``."""
    keys: dict[str, int] = {}
    entries: list[tuple[int, str]] = []
    inside = False
    for number, text in block:
        key = text.split("=", 1)[0].strip() if "=" in text and not inside else ""
        if key:
            keys.setdefault(key, number)
        if key == "actions":
            inside = True
            text = text.split("=", 1)[1]
        if inside:  # a "#" inside a quoted action is commentary of that action, not TOML's
            entries += [(number, q[1:-1]) for q in _QUOTED_RE.findall(text)]
            if "]" in _QUOTED_RE.sub("", text).split("#", 1)[0]:
                inside = False
    found: list[int | None] = []
    cursor = 0
    for action in hand.actions:
        if action.type is ActionType.POST:
            key = "antes" if action.blind is Blind.ANTE else "blinds_or_straddles"
            found.append(keys.get("_croupier_posts", keys.get(key)))
            continue
        line = None
        for k in range(cursor, len(entries)):
            words = entries[k][1].split()
            op = words[1] if len(words) > 1 else ""
            if action.type in _PHH_KINDS.get(op, ()):
                line, cursor = entries[k][0], k + 1
                break
        found.append(line)
    return found


def _phh_time(block: list[tuple[int, str]]) -> str | None:
    text = "\n".join(t for _, t in block if not re.match(r"^\s*\[[^\]]*\]\s*$", t))
    try:
        fields = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    day = [fields.get(k) for k in ("year", "month", "day")]
    if not all(isinstance(v, int) for v in day):
        return None
    when = f"{day[0]:04d}-{day[1]:02d}-{day[2]:02d}"
    if "time" in fields:
        when += f" {fields['time']}"
    zone = fields.get("time_zone")
    return f"{when} {zone}" if isinstance(zone, str) else when


# ------------------------------------------------------------------------------ finding


@dataclass(frozen=True, slots=True)
class Located:
    """A hand found again, and the rule set that judged it in the lake (if any)."""

    hand: HandRecord
    rules: str | None


def _wanted(ref: str) -> set[str]:
    """Return the hand numbers ``ref`` may name: all of it, or what follows a colon."""
    return {ref} | {ref[k + 1 :] for k, c in enumerate(ref) if c == ":"}


def _pick(keys: Sequence[tuple[str, str]], ref: str) -> list[int]:
    """Return the indices of ``keys`` (site, hand id) that ``ref`` names: Croupier's ids
    first (the site in any case: ``pokerstars:1`` is ``PokerStars:1``), else the site's
    hand numbers."""
    exact = [
        k
        for k, (site, hand_id) in enumerate(keys)
        if ref.endswith(f":{hand_id}") and ref[: -len(hand_id) - 1].casefold() == site.casefold()
    ]
    return exact or [k for k, (_, hand_id) in enumerate(keys) if hand_id == ref]


def _ambiguous(ref: str, keys: Iterable[tuple[str, str]]) -> ExplainError:
    ids = ", ".join(sorted(f"{site}:{hand_id}" for site, hand_id in keys))
    return ExplainError(f"hand {ref!r} is at more than one site ({ids}): name one as SITE:HAND_ID")


def locate(lake: str | Path, ref: str) -> Located:
    """Find hand ``ref`` (``SITE:HAND_ID`` or the site's number) in the lake, read it again.

    The lake's ``hands`` table says which file and line the hand came from; that file is
    read again and the hand at that line returned, with the rule set that judged it. The
    file is found where it was named, else at the absolute path the run recorded (for a
    lake used from another folder), and must still begin with the bytes that were ingested
    (the manifest's sha256 of them): a file edited since is refused, one that has only
    grown is read.
    """
    wanted = sorted(_wanted(ref))
    marks = ", ".join("?" for _ in wanted)

    def read(con: duckdb.DuckDBPyConnection) -> list[tuple[Any, ...]]:
        return con.execute(
            "SELECT site::VARCHAR, hand_id, source, line, rules::VARCHAR, run_id FROM hands "
            f"WHERE hand_id IN ({marks}) ORDER BY site, hand_id",
            wanted,
        ).fetchall()

    try:
        rows = read_lake(lake, read)
    except LakeError as error:
        raise ExplainError(str(error)) from None
    picked = [rows[k] for k in _pick([(r[0], r[1]) for r in rows], ref)]
    if not picked:
        raise ExplainError(f"no hand {ref!r} in the lake at {lake}")
    if len(picked) > 1:
        raise _ambiguous(ref, [(r[0], r[1]) for r in picked])
    site, hand_id, source, line, rules, run_id = picked[0]
    entry = _input_entry(Path(lake), run_id, source)
    if entry is not None and entry.path == "-":
        raise ExplainError(
            f"{site}:{hand_id} was read from standard input, which cannot be read again; "
            "explain it from a file with --input FILE"
        )
    path = Path(source)
    if not path.is_file() and entry is not None and entry.resolved is not None:
        path = Path(entry.resolved)
    if not path.is_file():
        raise ExplainError(
            f"the source of {site}:{hand_id}, {source}, is not there any more (moved or "
            "deleted?); explain it from the file with --input FILE"
        )
    if entry is not None and sha256_of(path, entry.size)[0] != entry.sha256:
        raise ExplainError(
            f"{path} has changed since it was ingested (its first {entry.size} bytes are not "
            "the ones read then); explain it from the file with --input FILE"
        )
    for item in _read_at(path, line):
        if (
            isinstance(item, HandRecord)
            and item.line == line
            and (item.site, item.hand_id) == (site, hand_id)
        ):
            return Located(item, rules)
    raise ExplainError(
        f"{source} has changed since it was ingested: hand {site}:{hand_id} is no longer at "
        f"line {line}; explain it from the file with --input FILE"
    )


def _input_entry(lake: Path, run_id: str, source: str) -> InputEntry | None:
    """Return the manifest's record of the input a hand came from (``None``: not found)."""
    named = "-" if source == _STDIN else source
    for run in load_manifest(lake).runs:
        if run.run_id == run_id:
            return next((e for e in run.inputs if e.path == named and not e.skipped), None)
    return None


_STDIN = "<stdin>"
"""The ``source`` of hands read from standard input."""


def _read_at(path: Path, line: int) -> Iterator[HandRecord | Reject]:
    """Read the hands of ``path``; of a JSON Lines file, only the one at ``line``."""
    if detect_format(path) != "jsonl":
        yield from read_hands(path)
        return
    with path.open("rb") as stream:
        for item in iter_lines(stream, str(path)):
            if not isinstance(item, Reject) and item[0] == line:
                yield decode_line(item[1], str(path), line, complete=item[2])
                return


def _read_named(path: Path, ref: str, input_format: str | None) -> Iterator[HandRecord | Reject]:
    """Read the hands of ``path``; of a JSON Lines file, only lines that may name ``ref``."""
    if (input_format or detect_format(path)) != "jsonl":
        yield from read_hands(path, input_format=input_format)
        return
    marks = {
        json.dumps(hand_id, ensure_ascii=ascii)[1:-1].encode()
        for hand_id in _wanted(ref)
        for ascii in (True, False)
    }
    with path.open("rb") as stream:
        for item in iter_lines(stream, str(path)):
            if not isinstance(item, Reject) and any(mark in item[1] for mark in marks):
                yield decode_line(item[1], str(path), item[0], complete=item[2])


def find_in_file(path: str | Path, ref: str, *, input_format: str | None = None) -> HandRecord:
    """Find hand ``ref`` (``SITE:HAND_ID`` or the site's number) in a hand-log file."""
    if Path(path).is_dir():
        raise ExplainError(f"{path} is a folder: --input takes one hand-log file")
    if not Path(path).is_file():
        raise ExplainError(f"no such file: {path}")
    hands: list[HandRecord] = []
    rejects: list[Reject] = []
    wanted = _wanted(ref)
    for item in _read_named(Path(path), ref, input_format):
        if isinstance(item, HandRecord):
            hands.append(item)
        elif item.hand_id is not None and item.hand_id in wanted:
            rejects.append(item)
    picked = [hands[k] for k in _pick([(h.site, h.hand_id) for h in hands], ref)]
    if not picked and rejects:  # the reader could not make it a hand: say why
        first = rejects[0]
        raise ExplainError(
            f"hand {ref!r} in {path} was rejected ({first.code.value}): {first.message}"
        )
    if not picked:
        raise ExplainError(f"no hand {ref!r} in {path}")
    if len({(h.site, h.hand_id) for h in picked}) > 1:  # a repeat of one hand: the first counts
        raise _ambiguous(ref, [(h.site, h.hand_id) for h in picked])
    return picked[0]
