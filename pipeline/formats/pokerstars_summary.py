"""PokerStars text: the ``*** SUMMARY ***`` block of one hand, and what it must agree with.

:func:`read_summary_line` reads one line of the summary into the hand's state (the
``Total pot`` line: total, pots, rake, fees, added money; a ``Seat N:`` line: what the seat
won and the cards it showed or mucked); :func:`summary_collections` gives the winners
the summary names without a ``collected`` line; :func:`is_whole_last_line` tells whether
a last line with no line end after it is whole.

The summary repeats what the body of the hand says, and :func:`check_summary` holds it to
that: a summary seat line whose ``won (X)``/``collected (X)`` is not what the seat's
``collected … from pot`` lines add up to is a ``bad-amount`` reject, and one whose
``showed [..]`` or ``mucked [..]`` cards are not the ones the seat showed or mucked at the
showdown is a ``bad-card`` reject; each message quotes both lines. A seat the summary says
won, with no collection line of its own where other seats have theirs, and no cash-out,
is a ``bad-amount`` reject too (the summary pays someone the body does not), and so is a
``Board [..]`` line (``FIRST Board`` …) that is not the board dealt (a plain one, in a
hand run more than once, neither its shared cards nor a run's board: ``bad-card``), a
``Hand was run twice`` line when the board was run another number of times, a second
``Total pot`` line, a pot line part that is no pot (``Side pot-0``) nor the rake, STP
(money the site added) or a jackpot fee, a pot line that
names the rake or a pot twice, or a line no summary holds (text
right after a summary with no blank line between is read as part of it: another hand, a
note; ``malformed-hand``). The real logs agree,
hi/lo halves, runs of a board run twice and cash-outs included: a split pot's summary
sums the seat's collections (``won ($0.29)`` for ``$0.20`` and ``$0.09``), and a seat that
cashed out has no collection line for its summary amount to be held to.

Amounts are in the fine units of :class:`~pipeline.formats.pokerstars_header.MoneyReader`.
Reject codes raised: ``malformed-hand``, ``bad-amount``, ``bad-card``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pipeline.cards import format_card
from pipeline.formats.pokerstars_header import AMOUNT, HandError, parse_cards_text
from pipeline.model import ActionType, Collection, Fee
from pipeline.violations import RejectCode

if TYPE_CHECKING:
    from pipeline.formats.pokerstars_body import _State

__all__ = [
    "SUMMARY_SEAT_RE",
    "check_summary",
    "is_whole_last_line",
    "read_summary_line",
    "summary_collections",
]

_A = f"({AMOUNT})"
_TOTAL_RE = re.compile(rf"^Total pot {_A}(?P<rest>.*)$")
_POT_PART_RE = re.compile(rf"(?P<label>Main pot|Side pot(?:[- ]?(?P<n>[0-9]+))?) {_A}\.?")
_LABELLED_RE = re.compile(rf"^(?P<label>[A-Za-z][A-Za-z .'/-]*?):? {_A}\.?$")
_BOARD_LINE_RE = re.compile(r"^(?:(?P<run>FIRST|SECOND|THIRD) )?Board \[(?P<cards>[^\]]*)\]$")
_RUNS = {"FIRST": 1, "SECOND": 2, "THIRD": 3}
_RUN_AGAIN_RE = re.compile(r"^Hand was run (?P<runs>twice|three times)$")
_NO_TEXT = " \t\x00\x1a"
"""A line of only these is none: the NUL or Ctrl-Z (``copy a+b``) that may end a file."""
SUMMARY_SEAT_RE = re.compile(r"^Seat (?P<seat>[0-9]+): (?P<rest>.*)$")
_POSITION_RE = re.compile(r"^(?: \((?:button|small blind|big blind|dealer)\))*")
_WON_RE = re.compile(rf"\b(?:won|collected) \(?{_A}\)?")
_CLOSED_SEAT_END_RE = re.compile(
    rf"folded (?:before Flop|on the (?:Flop|Turn|River))(?: \(didn't bet\))?"
    rf"|collected \({AMOUNT}\)|mucked \[[^\]]*\]"
)
_RESULT_RE = re.compile(rf"\b(?:won \({AMOUNT}\)|lost\b)")
_SHOWDOWN_SEAT_END_RE = re.compile(
    rf"(?:showed \[[^\]]*\] and (?:won \({AMOUNT}\)|lost)|mucked \[[^\]]*\] and lost)(?: .*)?"
)


def _error(line: int, message: str, code: RejectCode = RejectCode.MALFORMED_HAND) -> HandError:
    return HandError(code, line, f"line {line}: {message}")


# ------------------------------------------------------------------------------ reading


def read_summary_line(state: _State, line: int, text: str) -> None:
    """Read one line of the summary; any other line is a ``malformed-hand`` reject (a
    summary says nothing else, so such a line is no part of it: never passed over)."""
    if match := _TOTAL_RE.match(text):
        _total_line(state, match, line)
    elif match := SUMMARY_SEAT_RE.match(text):
        _summary_seat(state, match, line)
    elif match := _BOARD_LINE_RE.match(text):
        _summary_board(state, match, line)
    elif match := _RUN_AGAIN_RE.match(text):
        runs = 2 if match.group("runs") == "twice" else 3
        if runs != len(state.run_boards):
            dealt = len(state.run_boards)
            message = f"{text!r}, but the board was run {dealt or 'once'}"
            raise _error(line, message + (" times" if dealt else ""))
    elif text.strip(_NO_TEXT):
        raise _error(line, f"not a line of a summary: {text[:80]!r}")


def _summary_board(state: _State, match: re.Match[str], line: int) -> None:
    """Hold ``Board [..]`` (``FIRST Board [..]`` …) to the board the body dealt."""
    run = _RUNS.get(match.group("run") or "")
    cards = parse_cards_text(match.group("cards"), line)
    if run is None and state.run_boards:  # run more than once: the shared cards, or a run
        boards = [state.shared_board + runout for runout in state.run_boards.values()]
        if any(tuple(board) == cards for board in [state.shared_board, *boards]):
            return
        board = state.shared_board
    else:
        board = state.shared_board + (state.run_boards.get(run, []) if run else [])
    if tuple(board) != cards:
        dealt = " ".join(format_card(c) for c in board) or "none"
        message = f"the summary's board is not the one dealt ({dealt}): {match.group(0)!r}"
        raise _error(line, message, RejectCode.BAD_CARD)


def _total_line(state: _State, match: re.Match[str], line: int) -> None:
    money = state.money
    if state.total is not None:
        raise _error(line, f"a second Total pot line: {match.group(0)!r}")
    state.total = money.parse(match.group(1), line)
    parts = match.group("rest").split("|")
    for part in _POT_PART_RE.finditer(parts[0]):
        state.pots.append(_pot_entry(state, part, line))
    left = _POT_PART_RE.sub("", parts[0]).strip()
    if left:
        raise _error(line, f"unrecognised part of the pot line: {left!r}")
    for chunk in parts[1:]:
        text = chunk.strip()
        if not text:
            continue
        labelled = _LABELLED_RE.match(text)
        if labelled is None:
            raise _error(line, f"unrecognised part of the pot line: {text!r}")
        label = labelled.group("label").strip()
        pot_part = _POT_PART_RE.fullmatch(text)
        if pot_part is not None:
            state.pots.append(_pot_entry(state, pot_part, line))
            state.pots_before_rake = True  # Run It Once lists its pots before rake
        elif label.lower() == "rake":
            if state.rake is not None:  # which is the hand's would be a guess
                raise _error(line, f"the pot line names {label!r} twice: {match.group(0)!r}")
            state.rake = money.parse(labelled.group(2), line)
        elif label.upper() == "STP":
            state.added += money.parse(labelled.group(2), line)
        elif "jackpot" not in label.lower():  # a fee the site took, or money it added?
            message = (
                f"unrecognised part of the pot line: {text!r} (not a pot, the rake, STP or a "
                "jackpot fee; whether the site took it or added it would be a guess)"
            )
            raise _error(line, message)
        else:
            kind = "-".join(label.lower().split())
            state.fees.append(Fee(kind, money.parse(labelled.group(2), line)))


def _pot_entry(state: _State, part: re.Match[str], line: int) -> tuple[int, int]:
    label = part.group("label")
    index = 0 if label.startswith("Main") else int(part.group("n") or 1)
    if index == 0 and not label.startswith("Main"):  # pot 0 is the main pot
        raise _error(line, f"side pots are numbered from 1: {label!r}")
    if any(index == listed for listed, _ in state.pots):  # which is the pot would be a guess
        pot = repr(label) if index == 0 else f"side pot {index} ({label!r})"
        raise _error(line, f"the pot line names {pot} twice")
    return index, state.money.parse(part.group(3), line)


def _summary_seat(state: _State, match: re.Match[str], line: int) -> None:
    seat = int(match.group("seat"))
    info = next((s for s in state.seats if s.seat == seat), None)
    if info is None:
        raise _error(line, f"summary line for a seat not in the seat list: {match.group(0)!r}")
    if not _names(match.group("rest"), info.name):
        message = f"the summary line for seat {seat} does not name {info.name!r}, seated there"
        raise _error(line, f"{message}: {match.group(0)!r}")
    rest = _POSITION_RE.sub("", match.group("rest")[len(info.name) :]).strip()
    state.summary_seats.add(seat)
    state.said.setdefault(("summary", seat), []).append(line)
    won = 0
    for amount in _WON_RE.finditer(rest):
        won += state.money.parse(amount.group(1), line)
    if won:
        state.summary_won[seat] = won
    for verb, kind in (("showed", ActionType.SHOW), ("mucked", ActionType.MUCK)):
        shown = re.match(rf"^{verb} \[(?P<cards>[^\]]*)\]", rest)
        if shown:
            state.summary_cards[seat] = (kind, parse_cards_text(shown.group("cards"), line))


def _names(rest: str, name: str) -> bool:
    """Tell whether a summary seat line's text (after ``Seat N: ``) starts with ``name``
    as a whole name (``Cy (big blind) …``, not ``CyX …``)."""
    return rest == name or rest.startswith(name + " ")


def summary_collections(state: _State) -> list[Collection]:
    """Winners the summary names but no collection line does (cash-outs; old exports)."""
    collected = {c.seat for c in state.collections}
    missing = {s: a for s, a in state.summary_won.items() if s not in collected and a > 0}
    if not missing:
        return []
    listed = [amount for _, amount in sorted(state.pots)]
    if (
        not state.collections
        and len(missing) == 1
        and len(listed) > 1
        and not state.pots_before_rake
        and sum(listed) == next(iter(missing.values()))
    ):
        seat = next(iter(missing))  # the only winner of the hand won every pot listed
        return [Collection(seat, amount, pot=k) for k, (_, amount) in enumerate(sorted(state.pots))]
    return [Collection(seat, amount) for seat, amount in sorted(missing.items())]


def is_whole_last_line(state: _State, text: str) -> bool:
    """Tell whether a last line with no line end after it is whole beyond doubt.

    Only a summary seat line can tell: one after which no seat that took part is left
    without its line (the summary lists every seat; Run It Once, out of order), whose every
    amount and card group is closed (``collected ($0.31)``, ``showed [..] and won ($0.39)
    …``) and after which nothing the record reads can follow (a hand description only). A
    hand run more than once is so when the line has a result for every board; a bare
    ``mucked`` never is (cards may follow). Any other line, in the summary or
    not, is treated as cut.
    """
    match = SUMMARY_SEAT_RE.match(text) if state.in_summary else None
    if match is None:
        return False
    seat = int(match.group("seat"))
    info = next((s for s in state.seats if s.seat == seat), None)
    if info is None or not _names(match.group("rest"), info.name):
        return False
    if state.acting - state.summary_seats - {seat}:
        return False  # a seat that played has no line yet: one may follow this one
    rest = _POSITION_RE.sub("", match.group("rest")[len(info.name) :]).strip()
    if _CLOSED_SEAT_END_RE.fullmatch(rest):
        return True
    if _SHOWDOWN_SEAT_END_RE.fullmatch(rest) is None:
        return False
    runs = max(len(state.run_boards), 1 if state.show_run is None else state.show_run)
    if runs == 1:
        return True
    # run more than once: one result per board (hi/lo too: "won ($X) with HI: …; LO: …");
    # with every result there, what the record reads is whole
    return len(_RESULT_RE.findall(rest)) >= runs


# ------------------------------------------------------------------------------ agreeing


def check_summary(state: _State, lines: Sequence[tuple[int, str]]) -> None:
    """Hold each summary seat line to the body of the hand (see the module docstring).

    Raises :class:`HandError` (``bad-amount``, ``bad-card``) naming the summary line and
    quoting it with the body lines it contradicts. ``lines`` are the hand's lines.
    """
    for seat in sorted(state.summary_seats):
        won = state.summary_won.get(seat, 0)
        rows = [c.amount for c in state.collections if c.seat == seat]
        if rows and sum(rows) != won:
            _contradiction(
                state,
                lines,
                seat,
                "collect",
                RejectCode.BAD_AMOUNT,
                "the summary's amount won is not what the seat collected",
            )
    if state.collections:  # a winner without a line of its own must have cashed out
        paid = {c.seat for c in state.collections} | {c.seat for c in state.cash_outs}
        for seat in sorted(state.summary_seats - paid):
            if state.summary_won.get(seat, 0) > 0:
                _unpaid(state, lines, seat)
    for seat, (kind, cards) in sorted(state.summary_cards.items()):
        if kind is ActionType.SHOW:
            body = [c for s, c in state.shown if s == seat]
            what = "show"
        else:
            index = state.mucks.get(seat)
            mucked = None if index is None else state.actions[index].cards
            body = [mucked] if mucked else []
            what = "muck"
        if cards and body and all(set(cards) != set(c) for c in body):
            _contradiction(
                state,
                lines,
                seat,
                what,
                RejectCode.BAD_CARD,
                f"the summary's cards are not the ones the seat {what}s at the showdown",
            )


def _unpaid(state: _State, lines: Sequence[tuple[int, str]], seat: int) -> None:
    text = dict(lines)
    summary = state.said[("summary", seat)][0]
    others = sorted(n for (what, _), said in state.said.items() if what == "collect" for n in said)
    quoted = "; ".join(f"line {n}: {text.get(n, '')!r}" for n in others)
    message = (
        f"the summary says the seat won: {text.get(summary, '')!r}, but no line collects it "
        f"or cashes it out, and the hand's collections are {quoted}"
    )
    raise _error(summary, message, RejectCode.BAD_AMOUNT)


def _contradiction(
    state: _State,
    lines: Sequence[tuple[int, str]],
    seat: int,
    what: str,
    code: RejectCode,
    message: str,
) -> None:
    text = dict(lines)
    summary = state.said[("summary", seat)][0]
    quoted = "; ".join(f"line {n}: {text.get(n, '')!r}" for n in state.said.get((what, seat), []))
    raise _error(summary, f"{message}: {text.get(summary, '')!r}, but {quoted}", code)
