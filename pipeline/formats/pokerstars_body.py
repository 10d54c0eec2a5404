"""PokerStars text: one hand's lines in, a :class:`~pipeline.model.HandRecord` out.

:func:`parse_hand` reads the lines of one hand (header to the end of ``*** SUMMARY ***``)
in order, the way ``shared/formats/pokerstars.md`` describes them, and raises
:class:`~pipeline.formats.pokerstars_header.HandError` for a hand that cannot become a
record. Player names are matched against the seat list, longest first, and a line is
accepted only when the rest of it parses, so names with spaces, brackets and symbols
(``Mr NoNo! Srb``, ``DaddyCa$h``) are read right. The record is made from what was read
by :mod:`pipeline.formats.pokerstars_record`.

What the record holds, and what it never invents:

- Only the hero's hole cards are dealt (``Dealt to X [..]``); anyone else's cards are known
  only from ``shows``, from a showdown ``mucks hand`` whose cards the summary prints, or a
  summary ``mucked [..]``. Several ``Dealt to`` lines (observed or converted hands) are
  all recorded as deals, with no hero. Cards shown as a dealt player folds (``folds [..]``)
  must be among the ones dealt (``bad-card`` otherwise).
- Collections are the ``collected … from pot`` lines, untagged (hi/lo halves are just
  rows), with ``pot`` 0 for the main pot and N for side pot N (an unnumbered single
  ``side pot`` is 1) and ``run`` from ``*** FIRST/SECOND/THIRD SHOW DOWN ***``. A seat that
  the summary says won (or would have won, after a cash-out) without a collection line
  is recorded from the summary, as FPDB does.
- A hand whose log ends before its summary is ``partial``: the actions up to the last
  complete line are kept, and a last line cut in the middle is dropped. So is a hand whose
  last line, in its summary, is cut (a seat line that names nobody seated, say), and one
  whose summary has no ``Total pot`` line; its ``_partial_reason`` extra says which line
  and why. A blank line ends a hand (as in every PokerStars file): lines after one that
  are not a new hand are text outside any hand, a reject of their own. The
  file's last line, when no line end follows it, may be cut and still parse (``raises
  $0.04 to $0`` for ``… to $0.06``, ``Total pot $0``): it is dropped and the hand is
  ``partial``, unless it is a closed summary seat line after which no seat that took part
  lacks its line (then the hand is whole; a hand run more than once needs a result for
  every board on it). A hand the file ends in, with no blank line after it, may also be
  cut at a line end: its summary must have a line for every seat that took part
  (PokerStars lists every seat; Run It Once, out of order), or the hand is ``partial``.
- ``raises X to Y`` is checked: PokerStars writes X as the raise over the street's bet and
  Y as the new total, so Y - X must be that bet; when they disagree neither is picked and
  the hand is a ``bad-amount`` reject quoting the line (the clones only need X <= Y).
- ``converted`` is set on a converter's signs: a thousands separator (genuine PokerStars
  amounts never have one), a header time without any time zone and, in a hand headed
  PokerStars (the clones write numbers their own way), an integer amount written with
  ``.00`` in an action or summary line (PokerStars writes ``$5``) or the summary showing
  the cards of a player who folded. The signs found are kept in ``_converter_signs``.
- The summary is read by :mod:`pipeline.formats.pokerstars_summary`, and must agree with
  the body: a seat's amount won with its ``collected`` lines, its cards shown or mucked
  with the showdown's (``bad-amount``/``bad-card`` rejects quoting both lines).
- What the model has no field for is kept as ``_`` extras: ``_club`` (a Home Game club),
  ``_zoom``, ``_pots_before_rake`` (Run It Once lists its pots before rake, which
  ``RecordedResult.pots``, "after rake", cannot hold), ``_converter_signs`` and
  ``_partial_reason`` (why a ``partial`` hand is not whole), ``_split_bounties`` (a bounty
  split between players, ``by`` as written: the log gives no one's share), ``_stakes`` (the
  header's stakes as written, when they have amounts beyond the blinds read).

A seat or button numbered beyond the table line's ``N-max`` is a ``malformed-hand`` reject.

Reject codes raised: ``malformed-hand``, ``truncated-hand``, ``bad-amount``, ``bad-card``,
``bad-timestamp``, ``unsupported-game``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from msgspec.structs import replace

from pipeline.cards import format_card
from pipeline.formats.pokerstars_header import (
    AMOUNT,
    HandError,
    Header,
    MoneyReader,
    big_blind,
    check_raise,
    parse_cards_text,
    parse_header,
    parse_table_line,
)
from pipeline.formats.pokerstars_record import build_record, genuine
from pipeline.formats.pokerstars_summary import (
    check_summary,
    is_whole_last_line,
    read_summary_line,
)
from pipeline.model import (
    Action,
    ActionType,
    Blind,
    CashOut,
    Collection,
    Fee,
    HandRecord,
    SeatAmount,
)
from pipeline.violations import RejectCode

__all__ = ["parse_hand"]

Line = tuple[int, str]
"""A line of the file: its 1-based number and its text (right-stripped)."""

_A = f"({AMOUNT})"
_ALL_IN = " and is all-in"
_SEAT_RE = re.compile(
    rf"^Seat (?P<seat>[0-9]+): (?P<name>.+) \((?P<stack>{AMOUNT}) in chips"
    rf"(?:, (?P<bounty>{AMOUNT}) bounty)?\)(?P<rest>.*)$"
)
_STREET_RE = re.compile(
    r"^\*\*\* (?:(?P<run>FIRST|SECOND|THIRD) )?(?P<name>HOLE CARDS|PRE-FLOP|FLOP|TURN|RIVER"
    r"|SHOW ?DOWN|SUMMARY) \*\*\*(?P<cards>(?: \[[^\]]*\])*)$"
)
_GROUP_RE = re.compile(r"\[([^\]]*)\]")
_RUNS = {"FIRST": 1, "SECOND": 2, "THIRD": 3}
_POST_RE = re.compile(
    rf"^posts (?P<kind>small & big blinds|small blind|big blind|the ante|ante|straddle"
    rf"|dead small blind|a dead small blind|dead blind) {_A}(?P<all_in>{_ALL_IN})?$"
)
_POSTS = {
    "small & big blinds": Blind.BOTH,
    "small blind": Blind.SMALL,
    "big blind": Blind.BIG,
    "the ante": Blind.ANTE,
    "ante": Blind.ANTE,
    "straddle": Blind.STRADDLE,
    "dead small blind": Blind.DEAD,
    "a dead small blind": Blind.DEAD,
    "dead blind": Blind.DEAD,
}
_CAP = rf" and has reached the {AMOUNT} cap"
_CALL_RE = re.compile(rf"^calls {_A}(?P<all_in>{_ALL_IN})?$")
_BET_RE = re.compile(rf"^bets {_A}(?P<all_in>{_ALL_IN})?(?:{_CAP})?$")
_RAISE_RE = re.compile(rf"^raises {_A} to {_A}(?P<all_in>{_ALL_IN})?(?:{_CAP})?$")
_FOLD_RE = re.compile(
    r"^folds(?: \[(?P<cards>[^\]]*)\])?(?: \((?:disconnect|timeout|timed out)\))?$"
)
_SHOW_RE = re.compile(r"^shows \[(?P<cards>[^\]]*)\](?: \(.*\)| for .*)?$")
_MUCK_RE = re.compile(r"^mucks(?: hand)?(?: \[(?P<cards>[^\]]*)\])?$")
_COLLECT_RE = re.compile(
    rf"^collected {_A} from (?P<pot>pot|main pot|side pot(?:[- ]?(?P<n>[0-9]+))?)$"
)
_CASHOUT_RE = re.compile(rf"^cashed out the hand for {_A}(?: \| Cash Out Fee {_A})?$")
_BOUNTY_RE = re.compile(
    rf"^wins (?:the {_A} bounty for eliminating .+|{_A} for (?:eliminating|splitting the "
    r"elimination of) .+)$"
)
_COLON_INFO_RE = re.compile(
    r"^(?:sits out|is sitting out|sitting out|leaves the table|is away|is back|returns"
    r"|doesn't show hand|is disconnected|is connected|has timed out)$"
)
_INFO = (
    r"said, \".*\"|joins the table at seat #[0-9]+|leaves the table|will be allowed to play"
    r" after the button|has timed out(?: while (?:being )?disconnected)?|is disconnected"
    r"|is connected|has reconnected|has returned|is sitting out|sits out|was removed from the"
    r" table.*|finished the tournament.*|wins the tournament.*|re-buys.*|takes the add-on.*"
    r"|is feeling .*|has been disconnected"
)
_INFO_RE = re.compile(rf"^(?:{_INFO})$")
_SPLIT_BOUNTY_RE = re.compile(rf"^(?P<by>.+?) split the {_A} bounty for eliminating (?P<out>.+)$")
_ANY_INFO_RE = re.compile(rf"^.+?(?:: (?:sits out|is sitting out|leaves the table)| (?:{_INFO}))$")
_NO_NAME_INFO = frozenset(
    {
        "Betting is capped",
        "No low hand qualified",
        "Players agree to Run It Twice",
        "Players agree to Run It Three Times",
    }
)
_UNCALLED_RE = re.compile(rf"^Uncalled bet \({_A}\) returned to (?P<name>.+)$")


@dataclass(slots=True)
class _SeatInfo:
    seat: int
    name: str
    stack: int
    bounty: int | None
    out: bool


@dataclass(slots=True)
class _State:
    """Everything read so far from one hand (amounts in fine units)."""

    header: Header
    money: MoneyReader
    bounty_money: MoneyReader
    seats: list[_SeatInfo] = field(default_factory=list)
    names: list[tuple[str, int]] = field(default_factory=list)  # longest first
    actions: list[Action] = field(default_factory=list)
    collections: list[Collection] = field(default_factory=list)
    cash_outs: list[CashOut] = field(default_factory=list)
    bounties: list[SeatAmount] = field(default_factory=list)
    split_bounties: list[tuple[str, int, str]] = field(default_factory=list)  # by, amount, out
    fees: list[Fee] = field(default_factory=list)
    pots: list[tuple[int, int]] = field(default_factory=list)  # (index, amount)
    pots_before_rake: bool = False
    added: int = 0
    total: int | None = None
    rake: int | None = None
    shared_board: list[int] = field(default_factory=list)
    run_boards: dict[int, list[int]] = field(default_factory=dict)
    show_run: int | None = None
    in_summary: bool = False
    cancelled: bool = False
    dealt: dict[int, tuple[int, ...]] = field(default_factory=dict)
    shown: set[tuple[int, tuple[int, ...]]] = field(default_factory=set)
    mucks: dict[int, int] = field(default_factory=dict)  # seat -> action index
    folded: set[int] = field(default_factory=set)
    acting: set[int] = field(default_factory=set)
    summary_seats: set[int] = field(default_factory=set)
    summary_won: dict[int, int] = field(default_factory=dict)
    summary_cards: dict[int, tuple[ActionType, tuple[int, ...]]] = field(default_factory=dict)
    said: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # (what, seat): lines
    partial_reason: str | None = None
    signs: list[str] = field(default_factory=list)
    small_posted: bool = False
    street: dict[int, int] = field(default_factory=dict)  # seat -> live chips in this street
    preflop: bool = True

    def seat_of(self, name: str) -> int | None:
        for candidate, seat in self.names:
            if candidate == name:
                return seat
        return None


def _error(line: int, message: str, code: RejectCode = RejectCode.MALFORMED_HAND) -> HandError:
    return HandError(code, line, f"line {line}: {message}")


# ------------------------------------------------------------------------------ seats


def _read_seats(state: _State, lines: Sequence[Line], start: int) -> int:
    """Read the seat list from ``lines[start]``; return the index of the first other line."""
    i = start
    while i < len(lines):
        number, text = lines[i]
        match = _SEAT_RE.match(text)
        if match is None:
            break
        seat = int(match.group("seat"))
        if match.group("name") != match.group("name").rstrip():
            message = f"the name {match.group('name')!r} ends in a space, which lines lose"
            raise _error(number, message)
        bounty_text = match.group("bounty")
        rest = match.group("rest").strip().lower()
        state.seats.append(
            _SeatInfo(
                seat=seat,
                name=match.group("name"),
                stack=state.money.parse(match.group("stack"), number),
                bounty=None
                if bounty_text is None
                else state.bounty_money.parse(bounty_text, number, body=False),
                out="sitting out" in rest or "out of hand" in rest,
            )
        )
        i += 1
    if not state.seats:
        if i >= len(lines):
            raise _error(
                lines[-1][0], "the hand ends before its seat list", RejectCode.TRUNCATED_HAND
            )
        raise _error(lines[i][0], f"expected a seat line, found {lines[i][1]!r}")
    names = sorted(((s.name, s.seat) for s in state.seats), key=lambda p: -len(p[0]))
    for (name, first), (other, seat) in itertools.pairwise(sorted(names)):
        if name == other:  # the actions name players: whose would be a guess
            message = f"seats {first} and {seat} are both {name!r}: the actions cannot say whose"
            raise _error(lines[0][0], message, RejectCode.MALFORMED_HAND)
    state.names = names
    return i


# ------------------------------------------------------------------------------ lines


def _cards(text: str, line: int) -> tuple[int, ...]:
    return parse_cards_text(text, line)


def _street(state: _State, match: re.Match[str], line: int) -> None:
    name = match.group("name")
    run = _RUNS.get(match.group("run") or "")
    if match.group("cards") and (name in ("HOLE CARDS", "SUMMARY") or name.startswith("SHOW")):
        # no board is dealt there: the cards would be lost
        raise _error(line, f"cards on a line that deals none: {match.group(0)!r}")
    if name == "SUMMARY":
        state.in_summary = True
        return
    if name.startswith("SHOW"):
        if run is not None and run not in state.run_boards:
            runs = len(state.run_boards)
            dealt = f"run {runs} times" if runs else "run once"
            raise _error(line, f"{match.group(0)!r}, but the board was {dealt}")
        state.show_run = run
        return
    if name == "HOLE CARDS":
        return
    groups = [_cards(g, line) for g in _GROUP_RE.findall(match.group("cards"))]
    if not groups or not all(groups):
        raise _error(line, f"no cards on the {name.lower()} line")
    if name != "PRE-FLOP":  # Courchevel's first flop card comes before the preflop betting
        state.street, state.preflop = {}, False
    board = state.shared_board + (state.run_boards.get(run, []) if run else [])
    if len(groups) == 1:
        cards = groups[0]
        if board and tuple(board) == cards[: len(board)] and len(cards) > len(board):
            new = cards[len(board) :]  # Courchevel cash: [7h 5d 3s] after [7h]
        elif not board:
            new = cards
        else:
            raise _error(line, f"the {name.lower()} does not continue the board")
    else:
        before = tuple(c for g in groups[:-1] for c in g)
        if before != tuple(board):
            raise _error(line, f"the {name.lower()} does not continue the board")
        new = groups[-1]
    if run is None:
        state.shared_board.extend(new)
    else:
        state.run_boards.setdefault(run, []).extend(new)
    state.actions.append(Action(ActionType.BOARD, cards=new, run=run))


def _show(
    state: _State, seat: int, cards: tuple[int, ...], kind: ActionType, line: int | None = None
) -> None:
    """Record a show or muck (``line``: the body line that says so, for messages)."""
    if line is not None:
        state.said.setdefault((kind.value, seat), []).append(line)
    if kind is ActionType.SHOW:
        if (seat, cards) in state.shown:
            return  # shown again (a second showdown of a run-twice hand, RIO's repeats)
        state.shown.add((seat, cards))
    state.actions.append(Action(kind, seat=seat, cards=cards or None))


def _folded_cards(state: _State, seat: int, cards: tuple[int, ...], line: int) -> None:
    """Hold ``folds [..]`` to the cards dealt to the seat (the hero's, shown as it folds):
    a card not among them is a ``bad-card`` reject naming the ``Dealt to`` line."""
    dealt = state.dealt.get(seat)
    if dealt is None or set(cards) <= set(dealt):
        return
    held = " ".join(format_card(c) for c in dealt)
    dealt_at = ", ".join(str(n) for n in state.said.get(("deal", seat), []))
    message = f"the cards folded are not among those dealt to the seat ({held}, line {dealt_at})"
    raise _error(line, message, RejectCode.BAD_CARD)


def _colon_action(state: _State, seat: int, rest: str, line: int) -> bool:
    """Read ``posts …``, ``folds``, ``raises X to Y`` … after ``name: ``; False if none."""
    money = state.money
    if _COLON_INFO_RE.match(rest):
        return True
    if rest == "checks":
        state.actions.append(Action(ActionType.CHECK, seat=seat))
    elif match := _FOLD_RE.match(rest):
        if match.group("cards") is not None:
            _folded_cards(state, seat, _cards(match.group("cards"), line), line)
        state.actions.append(Action(ActionType.FOLD, seat=seat))
        state.folded.add(seat)
    elif match := _CALL_RE.match(rest):
        amount = money.parse(match.group(1), line)
        state.street[seat] = state.street.get(seat, 0) + amount
        state.actions.append(
            Action(ActionType.CALL, seat=seat, amount=amount, all_in=bool(match.group("all_in")))
        )
    elif match := _BET_RE.match(rest):
        amount = money.parse(match.group(1), line)
        state.street[seat] = state.street.get(seat, 0) + amount
        state.actions.append(
            Action(ActionType.BET, seat=seat, amount=amount, all_in=bool(match.group("all_in")))
        )
    elif match := _RAISE_RE.match(rest):
        by = money.parse(match.group(1), line)
        to = money.parse(match.group(2), line)
        level = max(state.street.values(), default=0)
        said = (match.group(1), match.group(2))
        check_raise(state.header, said, (by, to), level=level, preflop=state.preflop, line=line)
        state.street[seat] = to
        state.actions.append(
            Action(ActionType.RAISE, seat=seat, to=to, all_in=bool(match.group("all_in")))
        )
    elif match := _POST_RE.match(rest):
        blind = _POSTS[match.group("kind")]
        if blind is Blind.SMALL:
            if state.small_posted:
                blind = Blind.DEAD  # a second small blind is a dead one (missed blind)
            state.small_posted = True
        amount = money.parse(match.group(2), line)
        if blind is Blind.BOTH:  # the big blind live, the small one dead
            amount_live = min(amount, big_blind(state.header))
        else:
            amount_live = 0 if blind in (Blind.ANTE, Blind.DEAD) else amount
        state.street[seat] = state.street.get(seat, 0) + amount_live
        state.actions.append(
            Action(
                ActionType.POST,
                seat=seat,
                amount=amount,
                blind=blind,
                all_in=bool(match.group("all_in")),
            )
        )
    elif match := _SHOW_RE.match(rest):
        _show(state, seat, _cards(match.group("cards"), line), ActionType.SHOW, line)
    elif match := _MUCK_RE.match(rest):
        cards = match.group("cards")
        state.mucks[seat] = len(state.actions)
        _show(state, seat, _cards(cards, line) if cards else (), ActionType.MUCK, line)
    else:
        return False
    state.acting.add(seat)
    return True


def _spaced_action(state: _State, seat: int, rest: str, line: int) -> bool:
    """Read ``collected …``, ``shows …`` (RIO), cash-outs and bounties after ``name ``."""
    money = state.money
    if _INFO_RE.match(rest):
        return True
    if match := _COLLECT_RE.match(rest):
        pot = 0
        if match.group("pot").startswith("side"):
            pot = int(match.group("n") or 1)
            if pot == 0:  # pot 0 is the main pot: reading it so would be a guess
                raise _error(line, f"side pots are numbered from 1: {match.group('pot')!r}")
        state.collections.append(
            Collection(seat, money.parse(match.group(1), line), pot=pot, run=state.show_run)
        )
        state.said.setdefault(("collect", seat), []).append(line)
    elif match := _SHOW_RE.match(rest):
        _show(state, seat, _cards(match.group("cards"), line), ActionType.SHOW, line)
    elif match := _CASHOUT_RE.match(rest):
        fee = match.group(2)
        state.cash_outs.append(
            CashOut(
                seat,
                money.parse(match.group(1), line),
                money.parse(fee, line) if fee else 0,
            )
        )
    elif match := _BOUNTY_RE.match(rest):
        amount = match.group(1) or match.group(2)
        state.bounties.append(SeatAmount(seat, state.bounty_money.parse(amount, line, body=False)))
        return True
    else:
        return False
    state.acting.add(seat)
    return True


def _named(state: _State, text: str, line: int) -> bool:
    """Read a line that starts with a seated player's name (longest names first)."""
    for name, seat in state.names:
        if not text.startswith(name):
            continue
        rest = text[len(name) :]
        if rest.startswith(": ") and _colon_action(state, seat, rest[2:], line):
            return True
        if rest.startswith(" ") and _spaced_action(state, seat, rest[1:], line):
            return True
    return False


def _dealt(state: _State, rest: str, line: int) -> bool:
    """Read ``Dealt to NAME [cards]``; False if no seated name fits."""
    for name, seat in state.names:
        if not rest.startswith(name + " [") or not rest.endswith("]"):
            continue
        groups = _GROUP_RE.findall(rest[len(name) :])
        cards = tuple(c for g in groups for c in _cards(g, line))
        if not cards:
            raise _error(line, f"a deal of no cards: 'Dealt to {rest}'")
        state.dealt[seat] = state.dealt.get(seat, ()) + cards
        state.said.setdefault(("deal", seat), []).append(line)
        state.actions.append(Action(ActionType.DEAL, seat=seat, cards=cards))
        state.acting.add(seat)
        return True
    return False


def _body_line(state: _State, line: int, text: str) -> None:
    if text.startswith("***"):
        match = _STREET_RE.match(text)
        if match is None:
            raise _error(line, f"unrecognised street line {text!r}")
        _street(state, match, line)
        return
    if text == "Hand cancelled":
        state.cancelled = True
        return
    if text.startswith("Dealt to ") and _dealt(state, text[len("Dealt to ") :], line):
        return
    match = _UNCALLED_RE.match(text)
    if match is not None and (seat := state.seat_of(match.group("name"))) is not None:
        amount = state.money.parse(match.group(1), line)
        state.actions.append(Action(ActionType.UNCALLED, seat=seat, amount=amount))
        return
    # who gets what share, the log does not say (the words first: the pattern's lazy
    # name would try every place in every line)
    if " split the " in text and (match := _SPLIT_BOUNTY_RE.match(text)):
        amount = state.bounty_money.parse(match.group(2), line, body=False)
        state.split_bounties.append((match.group("by"), amount, match.group("out")))
        return
    if text in _NO_NAME_INFO or _named(state, text, line):
        return
    acting = any(text.startswith(name + ": ") for name, _ in state.names)
    if _ANY_INFO_RE.match(text) and not acting:  # no seated player's action read as news
        return
    raise _error(line, f"unrecognised line {text!r}")


# ------------------------------------------------------------------------------ building


def _finish_cards(state: _State) -> None:
    """Give a showdown muck its summary cards; add summary-only shows and mucks."""
    folded: list[int] = []
    for seat, (kind, cards) in sorted(state.summary_cards.items()):
        if not cards:
            continue
        index = state.mucks.get(seat)
        seen = (kind is ActionType.SHOW and any(s == seat for s, _ in state.shown)) or (
            kind is ActionType.MUCK and state.dealt.get(seat) == cards
        )
        if index is not None:
            state.actions[index] = replace(state.actions[index], cards=cards)
        elif not seen:
            if kind is ActionType.MUCK and seat in state.folded and genuine(state):
                folded.append(seat)
            _show(state, seat, cards, kind)
    if folded:
        seats = ", ".join(str(seat) for seat in folded)
        state.signs.append(f"the summary shows the cards of players who folded (seats {seats})")


# ------------------------------------------------------------------------------ entry


def parse_hand(
    lines: Sequence[Line], *, open_line: int | None = None, file_end: int | None = None
) -> tuple[HandRecord, list[str]]:
    """Parse one hand's lines (the first is its header) into a record.

    Returns the record and the converter signs found (empty for a genuine log). Raises
    :class:`HandError` for a hand that cannot become a record. ``open_line`` is the number
    of the file's last line when no line end follows it: that line may be cut short
    (``raises $0.04 to $0`` for ``… to $0.06``), so unless it is whole beyond doubt (see
    :func:`~pipeline.formats.pokerstars_summary.is_whole_last_line`) it is not read and
    the hand is ``partial``. ``file_end`` is the number of the file's last line of text
    when no blank line follows it: a hand that runs to it may have been cut at a line end,
    so its summary must list every seat that took part (a PokerStars summary lists every
    seat), or the hand is ``partial``. A partial hand says why in its ``_partial_reason``
    extra.
    """
    header_line, header_text = lines[0]
    money = MoneyReader()
    header = parse_header(header_text, header_line, money)
    state = _State(header=header, money=money, bounty_money=MoneyReader())
    truncated = RejectCode.TRUNCATED_HAND
    if len(lines) < 2:
        raise _error(header_line, "the hand ends after its header", truncated)
    table = parse_table_line(lines[1][1], lines[1][0])
    if table is None:
        if len(lines) == 2:
            raise _error(lines[1][0], "the hand ends in its table line", truncated)
        raise _error(lines[1][0], f"expected the table line, found {lines[1][1]!r}")
    if table.play_money and header.real_money:  # which is the hand's money would be a guess
        message = f"a (Play Money) table in a game in {header.currency}: {lines[1][1]!r}"
        raise _error(lines[1][0], message, RejectCode.BAD_AMOUNT)
    start = _read_seats(state, lines, 2)
    _check_table_size(state, table.max_seats, table.button, lines)
    if start >= len(lines):
        raise _error(lines[-1][0], "the hand ends in its seat list", truncated)
    last = len(lines) - 1
    cut = False
    for index in range(start, len(lines)):
        number, text = lines[index]
        if number == open_line and not is_whole_last_line(state, text):
            if index == start and text.startswith("Seat "):
                raise _error(number, "the hand ends in its seat list", truncated)
            cut = True  # the file ends in this line, with no line end: maybe cut short
            state.partial_reason = (
                f"line {number}: the file ends in this line, with no line end after it, so "
                "it may be cut short; it is not read"
            )
            break
        try:
            if state.in_summary:
                read_summary_line(state, number, text)
            else:
                _body_line(state, number, text)
        except HandError as error:
            if index != last or (_complete(state) and not state.in_summary):
                raise
            if error.code is RejectCode.BAD_CARD and text.endswith("]"):
                raise  # its cards are closed: not cut short, but not cards
            if index == start and text.startswith("Seat "):
                raise _error(number, "the hand ends in its seat list", truncated) from None
            cut = True  # the log was cut in the middle of its last line: keep what came before
            state.partial_reason = (
                f"{error.message}; as the hand's last line, it is taken to be cut short and "
                "is not read"
            )
            break
    check_summary(state, lines)
    partial = cut or not _complete(state)
    if not partial and file_end is not None and lines[-1][0] >= file_end:
        partial = _summary_cut(state, file_end)
    if partial and state.partial_reason is None and not state.cancelled:
        state.partial_reason = _why_unfinished(state, lines[-1][0])
    if table.play_money:
        header.currency, header.real_money = "PLAY", False
    _finish_cards(state)
    record = build_record(state, (table.table, table.max_seats, table.button), partial)
    return record, state.signs


def _check_table_size(state: _State, size: int | None, button: int, lines: Sequence[Line]) -> None:
    """Raise ``malformed-hand`` for a seat, or the button, numbered beyond ``N-max``
    (the table line's size): which of the two is wrong would be a guess."""
    if size is None:
        return
    for info, (number, _) in zip(state.seats, lines[2:], strict=False):
        if info.seat > size:
            raise _error(number, f"seat {info.seat} at a {size}-max table (seats 1-{size})")
    if button > size:
        message = f"button seat {button} at a {size}-max table (seats 1-{size})"
        raise _error(lines[1][0], message)


def _why_unfinished(state: _State, last: int) -> str:
    """Say why a hand whose every line was read is not whole."""
    if state.in_summary:
        return "the summary has no 'Total pot' line (the hand's money cannot be told whole)"
    return (
        f"line {last} is the hand's last line and no *** SUMMARY *** came before it: the log "
        "stops there (the file ends, or a blank line or the next hand's header follows: a "
        "blank line ends a PokerStars hand)"
    )


def _summary_cut(state: _State, last: int) -> bool:
    """Tell whether a summary the file ends in leaves out a seat that took part (then
    the file may have been cut at a line end, and the hand is partial: say why)."""
    if state.cancelled or not state.in_summary:
        return False
    missing = sorted(state.acting - state.summary_seats)
    if not missing:
        return False
    seats = ", ".join(str(seat) for seat in missing)
    state.partial_reason = (
        f"the file ends at line {last}, in the summary, which has no line for seat {seats} "
        "though it took part (a summary lists every seat): the file may be cut short there"
    )
    return True


def _complete(state: _State) -> bool:
    return state.cancelled or (state.in_summary and state.total is not None)
