"""Open Hand History (OHH): PokerTracker's JSON hand-history standard, read.

A file holds hand objects ``{"ohh": {…}}`` separated by blank lines (so the file as a
whole is not JSON); one object, or a JSON array of them, is accepted too. Each hand is
parsed on its own: a broken one is one reject (``malformed-json``; ``truncated-hand`` for
an unfinished last one) and the reader carries on with the next object, found where a
blank line is followed by ``{"ohh":`` (a hand cut short runs on into the next one as
JSON, so the next hand may start before the place the JSON error names) or, failing
that, by any ``{`` or ``[`` after the error. A hand with an object naming a key twice is
a ``schema-violation`` reject naming the key (JSON would keep the last value only). It
never raises on bad data. Notes on the standard: ``/work/shared/formats/ohh.md``. This
module reads a whole text (:func:`parse_ohh`); files are read as streams by
:func:`pipeline.formats.ohh_stream.read_ohh`, which yields the same.

**Games.** ``game_type`` ``Omaha`` and ``OmahaHiLo`` are read; the number of hole cards
(4, 5 or 6) is the most cards any player is dealt or shows (OHH has no field for it).
Any other game type (``Holdem``, ``Stud``, ``Draw`` …) is an ``unsupported-game``
reject naming it. ``bet_limit.bet_type`` ``NL``/``PL``/``FL`` gives the betting; OHH
has no small or big bet, so fixed limit takes the usual structure: the small bet is the
big blind, the big bet twice that (RULES.md ``R5.limit-size``). A ``bet_cap`` is noted,
not enforced.

**Seats.** ``players[].seat`` numbers the seats, ``dealer_seat`` is the button,
``hero_player_id`` the hero; ``is_sitting_out`` players are seated but not dealt in. A
player's name is ``name``, else ``display``; a player with neither is refused.

**Actions**, round by round (a round's ``cards`` are board cards dealt before its
actions): ``Post SB``/``Post BB``/``Post Ante``/``Straddle``/``Post Dead`` become posts
(small, big, ante, straddle, dead); ``Post Extra Blind`` is a live big-blind post to
enter. ``Dealt Cards``, ``Shows Cards``, ``Mucks Cards`` deal, show and muck (cards on
any other action are refused, as chips on a fold are). ``Fold``,
``Check``, ``Call`` (``amount``: chips added), ``Bet`` (chips) and ``Raise``. The
standard is ambiguous about a raise's ``amount``: the raiser's street total ("raise to"),
or the chips this action adds (an older page); they differ only when the raiser already
had chips in on the street. The reader plays the hand both ways and keeps the reading
whose calls match what was owed and whose chips add up to the recorded pots; a tie (both
fit) is read as the total. Uncalled bets are returned where the betting closes (OHH does
not record the return). ``Added Chips``, ``Sits Down``, ``Stands Up`` and ``Player
Adjustment`` happen outside the hand: they are ignored (their amounts unread: an
adjustment may be negative) and listed in the hand's ``_ohh_ignored`` extra. ``Add to
Pot`` is money the site adds (``result.added``, in a hand without ``pots[]`` too).

**Run it twice.** With the ``Run_It_Twice`` flag, the board rounds after the last
betting are runouts: a street that does not follow the one before starts the next
runout.

**Result.** ``pots[]`` (``number`` 0 main, 1.. side) give ``result.collected`` (one per
``player_wins`` entry and pot), the rake (sum of pot rakes), the total pot (sum of
amounts, rake included, less money the site added, which the main pot's amount holds) and
each pot after its rake and jackpot (the standard's ``amount = Σ win_amount + rake +
jackpot``); the jackpots are a ``jackpot`` fee, ``cashout_amount``/``cashout_fee`` a
cash-out (a fee without a cash-out is refused; a player's cash-outs from several pots
are one cash-out, their sum). ``bonus_amount`` (paid beside the pot)
and bounties (``player_bounty``, ``tournament_bounties``) are not read: they are listed in
the ``_ohh_ignored`` extra.

**Required values.** A missing stack, blind, pot amount, win amount or amount of a post,
call, bet or raise is a ``schema-violation`` reject, never read as 0; so is a value of the
wrong type (``is_allin: "yes"``, ``flags: 7``, a ``tournament_info`` that is not an
object), a hand without its ``game_number`` (none is made up), two pots with one
``number`` and pots not numbered 0, 1, 2 … without a gap. ``flags`` written as text
(the standard's examples write ``""``) is read.

**Money** is read as decimals, never binary floats; the unit is the finest number of
decimals written (``0.80`` has two). ``currency`` ``""`` (tournaments) becomes ``CHIPS``.

**Tournaments.** A hand with ``tournament: true`` or a ``tournament_info`` is a tournament
hand, of the tournament ``tournament_info.tournament_number`` (else its ``name``); one
that names neither is refused (none is made up).

Reject codes: ``malformed-json``, ``truncated-hand``, ``schema-violation``, ``bad-card``,
``bad-amount``, ``bad-timestamp``, ``unsupported-game``, ``malformed-hand``,
``bad-encoding``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal

from msgspec.structs import replace

from pipeline.formats.json_keys import REPEATS, Duplicated, find_repeated, object_pairs
from pipeline.formats.limits import NOT_UTF8_HINT, is_utf16, utf16_reject, vet
from pipeline.formats.ohh_fields import Money as _Money
from pipeline.formats.ohh_fields import Number
from pipeline.formats.ohh_fields import Problem as _Problem
from pipeline.formats.ohh_fields import cards as _cards
from pipeline.formats.ohh_fields import flag as _flag
from pipeline.formats.ohh_fields import integer as _int
from pipeline.formats.ohh_fields import items as _list
from pipeline.formats.ohh_fields import read_pots as _read_pots
from pipeline.formats.ohh_fields import schema as _schema
from pipeline.formats.ohh_fields import table as _table
from pipeline.formats.ohh_fields import text as _text
from pipeline.formats.ohh_fields import units as _units
from pipeline.formats.phh import ActionTracker
from pipeline.model import (
    ActionType,
    Betting,
    Blind,
    GameSpec,
    HandRecord,
    RecordedResult,
    Seat,
    Tournament,
    Variant,
)
from pipeline.violations import Reject, RejectCode

__all__ = ["looks_like_ohh", "parse_ohh", "parse_ohh_bytes"]

EXCERPT_CHARS = 160

_GAMES = {"Omaha": Variant.OMAHA, "OmahaHiLo": Variant.OMAHA_HILO}
_BETTING = {"NL": Betting.NO_LIMIT, "PL": Betting.POT_LIMIT, "FL": Betting.FIXED_LIMIT}
_POSTS = {
    "Post SB": Blind.SMALL,
    "Post BB": Blind.BIG,
    "Post Ante": Blind.ANTE,
    "Straddle": Blind.STRADDLE,
    "Post Dead": Blind.DEAD,
    "Post Extra Blind": Blind.BIG,
}
_WAGERS = {
    "Fold": ActionType.FOLD,
    "Check": ActionType.CHECK,
    "Call": ActionType.CALL,
    "Bet": ActionType.BET,
    "Raise": ActionType.RAISE,
}
_IGNORED = {"Added Chips", "Sits Down", "Stands Up", "Player Adjustment"}
_ADDED = {"Add to Pot", "Added To Pot"}
_BOARD_STREETS = {"Flop": 1, "Turn": 2, "River": 3}
_CURRENCY_RE = re.compile(r"[A-Z0-9]{1,12}")
_SNIFF_RE = re.compile(rb'^\s*\[?\s*\{\s*"ohh"\s*:')
_BLANK_RE = re.compile(r"\n[ \t\r]*\n\s*(?=[\[{])")
_HAND_START_RE = re.compile(r'\{\s*"ohh"\s*:')
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


_DECODER = json.JSONDecoder(
    parse_float=Decimal, parse_constant=lambda text: Decimal("NaN"), object_pairs_hook=object_pairs
)


# ------------------------------------------------------------------------ one hand


class _Event:
    """One action of the log, amounts still decimal; ``seat`` as OHH numbers it."""

    __slots__ = ("all_in", "amount", "cards", "field", "kind", "player", "run", "what")

    def __init__(self, kind: str, field: str) -> None:
        self.kind = kind  # post, deal, show, muck, wager, board, added, ignored
        self.field = field
        self.what = ""
        self.player = -1
        self.amount: Number | None = None
        self.cards: tuple[int, ...] = ()
        self.all_in: bool | None = None
        self.run: int | None = None


def _events(ohh: dict[str, object], money: _Money, ids: dict[int, int]) -> list[_Event]:
    """Flatten the rounds into events: each round's board cards, then its actions."""
    rounds = [
        _table(r, f"$.ohh.rounds[{k}]")
        for k, r in enumerate(_list(ohh.get("rounds"), "$.ohh.rounds"))
    ]
    events: list[_Event] = []
    for k, round_ in enumerate(rounds):
        at = f"$.ohh.rounds[{k}]"
        cards = _cards(round_.get("cards"), f"{at}.cards")
        if cards:
            board = _Event("board", f"{at}.cards")
            board.cards = cards
            board.what = str(round_.get("street") or "")
            events.append(board)
        for j, raw in enumerate(_list(round_.get("actions"), f"{at}.actions")):
            events.append(
                _event(_table(raw, f"{at}.actions[{j}]"), f"{at}.actions[{j}]", money, ids)
            )
    return events


def _event(action: dict[str, object], at: str, money: _Money, ids: dict[int, int]) -> _Event:
    what = _text(action, "action", at)
    if what is None:
        raise _schema(f"{at}.action", "missing")
    if what in _POSTS:
        kind = "post"
    elif what in _WAGERS:
        kind = "wager"
    elif what in _ADDED:
        kind = "added"
    elif what in _IGNORED:
        kind = "ignored"
    elif what in ("Dealt Cards", "Shows Cards", "Mucks Cards"):
        kind = {"Dealt Cards": "deal", "Shows Cards": "show", "Mucks Cards": "muck"}[what]
    else:
        raise _Problem(RejectCode.MALFORMED_HAND, f"{at}.action: unknown OHH action {what!r}", at)
    event = _Event(kind, at)
    event.what = what
    player_id = _int(action, "player_id", at)
    if kind not in ("added", "ignored"):
        if player_id is None or player_id not in ids:
            raise _Problem(
                RejectCode.MALFORMED_HAND, f"{at}.player_id: no player {player_id!r}", at
            )
        event.player = ids[player_id]
    needs_amount = kind in ("post", "added") or what in ("Call", "Bet", "Raise")
    if kind != "ignored":  # an adjustment outside the hand may be negative: not read
        event.amount = (money.need if needs_amount else money.read)(action, "amount", at)
    if not needs_amount and event.amount:  # 0, or none, is what these actions move
        message = f"a {what} moves no chips; the log gives it {event.amount}"
        raise _schema(f"{at}.amount", message)
    event.cards = _cards(action.get("cards"), f"{at}.cards")
    if event.cards and kind in ("post", "wager", "added"):  # they would be dropped unread
        message = f"a {what} deals or shows no cards; the log gives it {len(event.cards)}"
        raise _schema(f"{at}.cards", message)
    event.all_in = _flag(action, "is_allin", at)
    return event


def _mark_runs(events: list[_Event]) -> None:
    """Number the runouts: board rounds after the last betting, a street repeated starts one."""
    last_bet = max((k for k, e in enumerate(events) if e.kind == "wager"), default=-1)
    boards = [e for e in events[last_bet + 1 :] if e.kind == "board"]
    runs: list[list[_Event]] = []
    previous = 0
    for board in boards:
        street = _BOARD_STREETS.get(board.what, 0)
        if not runs or 0 < street <= previous:
            runs.append([board])
        else:
            runs[-1].append(board)
        previous = street
    if len(runs) > 1:
        for number, run in enumerate(runs, start=1):
            for board in run:
                board.run = number


class _Play:
    """One reading of the hand's wagers: the actions it makes and how well they fit."""

    def __init__(self, game: GameSpec, stacks: list[int]) -> None:
        self.tracker = ActionTracker(game, stacks, game.big_blind)
        self.misfits = 0
        self.ambiguous = False
        self.added = 0


def _play(events: list[_Event], game: GameSpec, stacks: list[int], *, raise_to: bool) -> _Play:
    """Turn events into actions (players as indices), reading raises as totals or not."""
    play = _Play(game, stacks)
    tracker = play.tracker
    for event in events:
        i = event.player
        amount = _units(event.amount, game.scale)
        if event.kind == "post":
            blind = _POSTS[event.what]
            if blind is Blind.STRADDLE:
                tracker.opening = max(tracker.opening, amount)
            tracker.post(i, blind, amount, event.all_in)
        elif event.kind == "deal" and event.cards:
            tracker.deal(i, event.cards)
        elif event.kind in ("show", "muck"):
            kind = ActionType.SHOW if event.kind == "show" else ActionType.MUCK
            tracker.reveal(i, kind, event.cards or None)
        elif event.kind == "board":
            tracker.deal_board(event.cards, event.run, None)
        elif event.kind == "added":
            play.added += amount
        elif event.kind == "wager":
            _wager(play, event, i, amount, raise_to=raise_to)
    return play


def _wager(play: _Play, event: _Event, i: int, amount: int, *, raise_to: bool) -> None:
    """Apply one wager, counting what does not fit this reading of raises."""
    tracker = play.tracker
    book = tracker.book
    tracker.open_preflop()
    stack, mine = book.stack[i], book.bet[i]
    kind = _WAGERS[event.what]
    chips = amount
    if kind is ActionType.CHECK:
        play.misfits += book.owed(i) != 0
    elif kind is ActionType.CALL:
        play.misfits += amount != book.owed(i)
    elif kind is ActionType.BET:
        chips = mine + amount
    elif kind is ActionType.RAISE:
        play.ambiguous |= mine > 0
        chips = amount if raise_to else mine + amount
    if kind in (ActionType.BET, ActionType.RAISE):
        play.misfits += chips <= book.current or chips - mine > stack
    else:
        play.misfits += kind is ActionType.CALL and amount > stack
    tracker.wager(i, kind, chips, event.all_in)


def _hand(value: object, source: str, line: int) -> HandRecord:
    top = _table(value, "$")
    if "ohh" not in top:
        raise _schema("$", "not an OHH hand (no 'ohh' object)")
    ohh = _table(top["ohh"], "$.ohh")
    at = "$.ohh"
    game_type = _text(ohh, "game_type", at)
    if game_type not in _GAMES:
        shown = "none" if game_type is None else game_type
        message = f"unsupported game: {shown} (OHH game_type); Croupier reads Omaha and OmahaHiLo"
        raise _Problem(RejectCode.UNSUPPORTED_GAME, message, f"{at}.game_type")
    limit = _table(ohh.get("bet_limit"), f"{at}.bet_limit")
    bet_type = _text(limit, "bet_type", f"{at}.bet_limit")
    if bet_type not in _BETTING:
        message = f"unsupported betting: bet_type {bet_type!r}"
        raise _Problem(RejectCode.UNSUPPORTED_GAME, message, f"{at}.bet_limit.bet_type")
    betting = _BETTING[bet_type]
    money = _Money()
    small = money.need(ohh, "small_blind_amount", at)
    big = money.need(ohh, "big_blind_amount", at)
    ante = money.read(ohh, "ante_amount", at)
    cap = money.read(limit, "bet_cap", f"{at}.bet_limit")
    ids, seats = _players(ohh, money)
    events = _events(ohh, money, ids)
    if ante is None and any(e.what == "Post Ante" for e in events):
        raise _schema(f"{at}.ante_amount", "missing, and the hand posts antes")
    pots = [
        _table(p, f"{at}.pots[{k}]") for k, p in enumerate(_list(ohh.get("pots"), f"{at}.pots"))
    ]
    result_rows = _read_pots(pots, money, ids)
    scale = money.scale()
    button = _int(ohh, "dealer_seat", at)
    if button is None:
        raise _schema(f"{at}.dealer_seat", "missing")
    flags = ohh.get("flags")
    if isinstance(flags, str):  # the standard's own examples write "flags": ""
        flags = flags.split()
    flag_list = _list(flags, f"{at}.flags")
    if "Run_It_Twice" in flag_list:
        _mark_runs(events)
    hole = max((len(e.cards) for e in events if e.kind in ("deal", "show", "muck")), default=4)
    game = GameSpec(
        variant=_GAMES[game_type],
        hole_cards=hole if hole in (5, 6) else 4,
        betting=betting,
        small_blind=_units(small, scale),
        big_blind=_units(big, scale),
        currency=_currency(ohh),
        scale=scale,
        small_bet=_units(big, scale) if betting is Betting.FIXED_LIMIT else None,
        big_bet=2 * _units(big, scale) if betting is Betting.FIXED_LIMIT else None,
        ante=_units(ante, scale),
        max_seats=_table_size(ohh),
    )
    order = _seating([s for s, _, _, out in seats if not out], button)
    index = {seat: i for i, seat in enumerate(order)}
    stack_of = {s: _units(v, scale) for s, _, v, _ in seats}
    for event in events:
        if event.player >= 0 and event.player not in index:
            raise _Problem(
                RejectCode.MALFORMED_HAND,
                f"{event.field}: seat {event.player} acts but sits out",
                event.field,
            )
        event.player = index.get(event.player, -1)
    stacks = [stack_of[s] for s in order]
    play = _play(events, game, stacks, raise_to=True)
    if play.ambiguous:
        other = _play(events, game, stacks, raise_to=False)
        total = sum(_units(money_, scale) for money_ in result_rows.amounts)
        if _fit(other, stacks, total) < _fit(play, stacks, total):
            play = other
    hero = _int(ohh, "hero_player_id", at)
    if hero is not None and hero not in ids:
        raise _Problem(
            RejectCode.MALFORMED_HAND,
            f"{at}.hero_player_id: no player {hero}",
            f"{at}.hero_player_id",
        )
    notes = [f"{e.what} ignored ({e.field})" for e in events if e.kind == "ignored"]
    day = _text(ohh, "start_date_utc", at)
    if day is not None and _is_date_only(day):
        notes.append(f"start_date_utc {day} has no time: not read ($.ohh.start_date_utc)")
    notes += result_rows.unread + _bounties(ohh)
    if cap:
        notes.append(f"bet_cap {cap} not enforced")
    return HandRecord(
        hand_id=_hand_id(ohh),
        site=_text(ohh, "site_name", at) or _text(ohh, "network_name", at) or "OHH",
        game=game,
        button=button,
        seats=tuple(
            Seat(seat=s, player=name, stack=_units(stack, scale), sitting_out=out)
            for s, name, stack, out in sorted(seats, key=lambda row: row[0])
        ),
        actions=tuple(
            a if a.seat is None else replace(a, seat=order[a.seat]) for a in play.tracker.out
        ),
        table=_text(ohh, "table_name", at),
        started_at=_started_at(ohh),
        result=(
            result_rows.result(scale, play.added)
            if pots
            else RecordedResult(added=play.added)
            if play.added
            else None
        ),
        tournament=_tournament(ohh),
        hero=None if hero is None else ids.get(hero),
        source=source,
        line=line,
        extras=(("_ohh_ignored", json.dumps(notes).encode()),) if notes else (),
    )


def _players(
    ohh: dict[str, object], money: _Money
) -> tuple[dict[int, int], list[tuple[int, str, Number | None, bool]]]:
    """Read the players: ``{player id: seat}`` and ``(seat, name, stack, sitting out)``."""
    at = "$.ohh.players"
    players = [_table(p, f"{at}[{k}]") for k, p in enumerate(_list(ohh.get("players"), at))]
    if not players:
        raise _schema(at, "no players")
    ids: dict[int, int] = {}
    seats: list[tuple[int, str, Number | None, bool]] = []
    for k, player in enumerate(players):
        field = f"{at}[{k}]"
        pid, seat = _int(player, "id", field), _int(player, "seat", field)
        if pid is None or seat is None or seat < 1 or pid in ids:
            raise _schema(field, "needs a unique id and a seat number")
        ids[pid] = seat
        name = _text(player, "name", field) or _text(player, "display", field)
        if not name:  # none is made up: "player 3" would be one player in every hand
            raise _schema(f"{field}.name", "missing (and no display name): a player needs one")
        out = _flag(player, "is_sitting_out", field) is True
        seats.append((seat, name, money.need(player, "starting_stack", field), out))
    return ids, seats


def _fit(play: _Play, stacks: list[int], pot_total: int) -> int:
    """Count what does not fit in one reading: misfit actions, and a pot that does not add up."""
    put_in = sum(stacks) - sum(play.tracker.book.stack)
    return play.misfits + (pot_total > 0 and put_in + play.added != pot_total)


def _seating(numbers: list[int], button: int) -> list[int]:
    ordered = sorted(numbers)
    return [s for s in ordered if s > button] + [s for s in ordered if s <= button]


_TABLE_SIZES = range(2, 1_000_001)
"""The seat counts a hand log's ``game.max_seats`` takes (``jsonl_wire.GameW``)."""


def _table_size(ohh: dict[str, object]) -> int | None:
    """Return the table's seat count (``None``: not given); one no table has is refused,
    so that a converted hand reads back."""
    size = _int(ohh, "table_size", "$.ohh")
    if size is not None and size not in _TABLE_SIZES:
        raise _schema("$.ohh.table_size", f"{size} seats: not a table's size (2 to 1000000)")
    return size


def _currency(ohh: dict[str, object]) -> str:
    currency = _text(ohh, "currency", "$.ohh") or ""
    if not currency:
        return "CHIPS"
    if _CURRENCY_RE.fullmatch(currency) is None:
        raise _schema("$.ohh.currency", f"not a currency code: {currency!r}")
    return currency


def _started_at(ohh: dict[str, object]) -> datetime | None:
    """Return the start time; ``None`` without one, or with a date and no time (none is
    made up: the hand is noted in ``_ohh_ignored``)."""
    text = _text(ohh, "start_date_utc", "$.ohh")
    if text is None or _is_date_only(text):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        message = f"$.ohh.start_date_utc: not an ISO-8601 time: {text!r}"
        raise _Problem(RejectCode.BAD_TIMESTAMP, message, "$.ohh.start_date_utc") from None
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _is_date_only(text: str) -> bool:
    """Tell whether a start date is a date with no time, in any ISO 8601 form Python reads
    (``2024-03-10``, ``20240310``, ``2024-W10-7``): the hand's time is not known then, and
    none is made up (``datetime.fromisoformat`` would read it as midnight).

    >>> _is_date_only("20240310"), _is_date_only("2024-03-10T18:00:00Z")
    (True, False)
    """
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _hand_id(ohh: dict[str, object]) -> str:
    """Return the hand's number: a hand without one is refused (none is made up for it)."""
    number = _text(ohh, "game_number", "$.ohh")
    if not number:
        raise _schema("$.ohh.game_number", "missing: a hand needs its number")
    return number


def _bounties(ohh: dict[str, object]) -> list[str]:
    """Say which bounty fields the hand has: Croupier does not read OHH's bounties."""
    said = []
    if _list(ohh.get("tournament_bounties"), "$.ohh.tournament_bounties"):
        said.append("tournament_bounties not read ($.ohh.tournament_bounties)")
    for k, player in enumerate(_list(ohh.get("players"), "$.ohh.players")):
        if isinstance(player, dict) and player.get("player_bounty") not in (None, 0):
            said.append(f"player_bounty not read ($.ohh.players[{k}].player_bounty)")
    return said


def _tournament(ohh: dict[str, object]) -> Tournament | None:
    info = ohh.get("tournament_info")
    if info is not None and not isinstance(info, dict):
        raise _schema("$.ohh.tournament_info", "not an object")
    if _flag(ohh, "tournament", "$.ohh") is not True and not isinstance(info, dict):
        return None
    info = info if isinstance(info, dict) else {}
    at = "$.ohh.tournament_info"
    name = _text(info, "tournament_number", at) or _text(info, "name", at)
    money = _Money()  # the buy-in is text in the record, as the site wrote it
    buyin, fee = money.read(info, "buyin_amount", at), money.read(info, "fee_amount", at)
    currency = _text(info, "currency", at)
    if currency and _CURRENCY_RE.fullmatch(currency) is None:
        raise _schema(f"{at}.currency", f"not a currency code: {currency!r}")
    if not name:  # none is made up: the hand's own number, or "OHH", is no tournament's
        message = "missing (and no name): a tournament hand needs its tournament"
        raise _schema(f"{at}.tournament_number", message)
    return Tournament(
        id=name,
        buyin=None if buyin is None else f"{buyin}+{fee}" if fee is not None else str(buyin),
        currency=currency or None,
    )


# ------------------------------------------------------------------------ files


def _excerpt(text: str) -> str:
    return " ".join(text[: EXCERPT_CHARS * 4].split())[:EXCERPT_CHARS]


def _decode(
    text: str, start: int, source: str, line: int, base: tuple[int, int, int] = (0, 0, 0)
) -> tuple[HandRecord | Reject, int]:
    """Decode the hand object at ``start`` (on ``line``); return it and where the next
    one may start. ``base`` places ``text`` in its file when it is a window of it: the
    characters, line ends and characters on its first line before it (for the positions
    a JSON error names)."""
    repeats = REPEATS[0]
    try:
        value, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as error:
        resume = _resume_after(text, start, error.pos)
        end = len(text) if resume is None else resume.end()
        # cut at the end, or inside a string that runs to the end (an unfinished string's
        # error is placed where it starts)
        cut = error.pos >= len(text.rstrip()) or (
            error.msg.startswith("Unterminated string") and '"' not in text[error.pos + 1 :]
        )
        code = RejectCode.TRUNCATED_HAND if cut else RejectCode.MALFORMED_JSON
        chars, lines, column = base
        where = (
            f"line {lines + error.lineno} column "
            f"{error.colno + (column if error.lineno == 1 else 0)} (char {chars + error.pos})"
        )
        message = f"not JSON: {error.msg}: {where}"
        if resume is not None and (
            resume.start() < error.pos or not text[error.pos : resume.start()].strip()
        ):
            # The decoder ran on into the next hand (where it failed says nothing of
            # this one, and a stream's window may end sooner), or failed where this one
            # stops, at the blank line before the next: name where this one stops.
            code = RejectCode.MALFORMED_JSON
            next_line = lines + text.count("\n", 0, resume.end()) + 1
            message = (
                "not JSON: the hand is not finished where the next hand starts, after a "
                f"blank line, at line {next_line} (the hand looks cut short)"
            )
        return Reject(source, line, code, message, _excerpt(text[start:end])), end
    except (RecursionError, ValueError, ArithmeticError) as error:
        # nesting deeper than Python's stack, or a number int() or Decimal cannot hold
        resume = _BLANK_RE.search(text, start + 1)
        end = len(text) if resume is None else resume.end()
        message = (
            "nested too deeply to read"
            if isinstance(error, RecursionError)
            else "a number too long or too large to read"
        )
        return Reject(
            source, line, RejectCode.MALFORMED_JSON, message, _excerpt(text[start:end])
        ), end
    return _judge(value, text[start:end], source, line, repeats=REPEATS[0] != repeats), end


def _resume_after(text: str, start: int, stop: int) -> re.Match[str] | None:
    """Find where reading resumes after the broken hand object at ``start``, whose JSON
    error is at ``stop``: the first blank line before a ``{`` or ``[`` that either starts
    a hand (``{"ohh":``) or lies past the error; ``None`` if there is none.

    A hand cut short runs on, as JSON, into the next one, so the error is often inside
    the next hand: resuming after the error would lose that hand. A blank line and a
    ``{`` inside the broken hand (before the error) is passed over unless an ``"ohh"``
    key follows it, so a hand with blank lines in it is still one reject.

    >>> text = '{"ohh": {"a": \\n\\n{"ohh": {}}\\n\\n{"ohh": {}}'
    >>> _resume_after(text, 0, len(text)).end()
    16
    """
    for found in _BLANK_RE.finditer(text, start + 1):
        if found.start() >= stop or _HAND_START_RE.match(text, found.end()):
            return found
    return None


def _check_keys(value: object) -> None:
    """Refuse a hand with an object that repeats a key (``schema-violation`` naming the
    first, in file order): JSON keeps the last value and loses the others without a word."""
    found = find_repeated(value)
    if found is not None:
        raise _Problem(RejectCode.SCHEMA_VIOLATION, found.message, found.field)


def _judge(
    value: object, raw: str, source: str, line: int, *, repeats: bool
) -> HandRecord | Reject:
    """Read a decoded hand object, or say why not (``repeats``: an object in it repeats a
    key, see :data:`~pipeline.formats.json_keys.REPEATS`)."""
    hand_id = None
    if isinstance(value, dict) and isinstance(value.get("ohh"), dict):
        number = value["ohh"].get("game_number")
        hand_id = str(number) if isinstance(number, str | int) else None
        if isinstance(value["ohh"], Duplicated) and value["ohh"].key == "game_number":
            hand_id = None  # which of the numbers is the hand's cannot be told
    try:
        if _SURROGATE_RE.search(raw):
            raise _Problem(RejectCode.BAD_ENCODING, f"not UTF-8 text; {NOT_UTF8_HINT}")
        if repeats:
            _check_keys(value)
        return _hand(value, source, line)
    except _Problem as problem:
        return Reject(
            source, line, problem.code, problem.message, _excerpt(raw), problem.field, hand_id
        )


def parse_ohh(text: str, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand object in OHH text.

    The objects may be separated by blank lines (the storage format), or the text may be
    one object or a JSON array of them.
    """
    body = text.removeprefix("\ufeff")
    position = len(body) - len(body.lstrip())
    in_array = body[position : position + 1] == "["
    if in_array:
        position = _skip(body, position + 1)
    line, counted = 1, 0  # lines are counted as the reading goes (no quadratic recount)
    while position < len(body):
        if in_array and body[position] == "]":
            position = _skip(body, position + 1)
            in_array = False
            continue
        line += body.count("\n", counted, position)
        counted = position
        item, position = _decode(body, position, source, line)
        yield vet(item)
        position = _skip(body, position, comma=in_array)
    if in_array:  # '[' never closed: the file was cut, perhaps in the middle of a hand
        line += body.count("\n", counted, len(body))
        tail = body[max(0, len(body) - 200) :]
        message = "the JSON array of hands is not closed with ']': the file looks cut short"
        yield vet(Reject(source, line, RejectCode.TRUNCATED_HAND, message, _excerpt(tail)))


def _skip(text: str, position: int, *, comma: bool = False) -> int:
    while position < len(text) and (text[position].isspace() or (comma and text[position] == ",")):
        position += 1
    return position


def parse_ohh_bytes(data: bytes, source: str) -> Iterator[HandRecord | Reject]:
    """Yield a hand or a reject for every hand object of an OHH file's bytes.

    Bytes that are not UTF-8 make their hand a ``bad-encoding`` reject; a file in UTF-16
    (it starts with a UTF-16 byte-order mark) is one ``bad-encoding`` reject.
    """
    if is_utf16(data):
        yield utf16_reject(source, data)
        return
    yield from parse_ohh(data.decode("utf-8", "surrogateescape"), source)


def looks_like_ohh(head: bytes) -> bool:
    """Tell whether the first bytes of a file look like OHH (a ``{"ohh"`` object).

    >>> looks_like_ohh(b'{\\n  "ohh": {"spec_version": "1.4.6"}}'), looks_like_ohh(b"{}")
    (True, False)
    """
    return _SNIFF_RE.match(head.removeprefix(b"\xef\xbb\xbf")) is not None
