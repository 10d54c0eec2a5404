"""Poker Hand History (PHH): PokerKit's TOML hand-history standard, read and written.

A ``.phh`` file is one hand: TOML keys such as ``variant``, ``antes``,
``blinds_or_straddles``, ``starting_stacks`` and ``actions``. A ``.phhs`` file holds
several, each under a table header (``[1]``, ``[2]`` …); keys above the first header
belong to no hand and are one reject. :func:`decode_hand` turns one
hand's text into a record or a reject and never raises on bad data;
:mod:`pipeline.formats.phh_stream` reads a file as a stream of hands, each decoded on its
own, so one broken hand is one reject and the next hand is still read.

**Players and seats.** PHH lists players by position, clockwise from the small blind,
the button last (heads-up: p1 is the big blind, p2 the button and small blind). Player
``pN`` sits at ``seats[N-1]`` when the file has ``seats`` (they must run clockwise from
the small blind: a rotation of ascending order ending at the button), else at seat ``N``;
``HandRecord.button`` is the last player's seat. ``players`` gives the names (``pN``
where empty or missing).

**Posts.** PHH has no post actions: ``antes`` and ``blinds_or_straddles`` say who posts
what, by position (index 0 the small blind, 1 the big blind, 2.. straddles; heads-up the
two entries swap players, as the spec says). The reader turns them into ``post``
actions (antes first, then blinds and straddles), each capped at the poster's stack (a
short stack posts all it has, all-in). ``GameSpec``: small and big blind from
``blinds_or_straddles[0:2]`` (the big blind from ``min_bet`` where that is 0), the ante
when every player antes the same (a big-blind or button ante is posted as an ``ante``
but leaves ``GameSpec.ante`` at 0), ``small_bet``/``big_bet`` for fixed limit.

**Actions.** ``d dh pN cards`` deals, ``d db cards`` adds board cards, ``pN f`` folds,
``pN cc`` checks (nothing owed) or calls what is owed (at most the stack), ``pN cbr X``
bets (nobody has bet on the street) or raises to ``X`` (a street total), ``pN sm cards``
shows, ``pN sm -`` shows the cards dealt, ``pN sm`` mucks. PHH returns an uncalled bet
without saying so, so the reader adds the ``uncalled`` action where the betting closes.
It also leaves out the one check PokerKit asks for when the round is already closed (the
only player left able to act has not acted in the round, owes nothing, and everyone else
still in went all-in in it; RULES.md gives that player no turn). Any other action after a
round closed is read as written, for the engine to flag (never dropped). Commentary after
``#`` is ignored except for the extension tokens below.

**Money.** Amounts are TOML integers or decimals (never read as binary floats). The unit
is ``1`` unless an amount is written with decimals; then the hand's scale is the largest
number of decimals written (``0.50`` has two). ``finishing_stacks`` become
``result.final_stacks`` (by seat number, as ``seats`` are); ``winnings`` become
``result.collected`` (one per player, pot 0: PHH does not split winnings by pot).
Without ``winnings``, what each player collected is derived from ``finishing_stacks``
(finishing stack less the stack left after the betting and uncalled returns): PHH has no
rake, so the finishing stacks fix it. Not when a player cashed out (``_croupier_cash_outs``):
that seat finishes with its cash-out, not what it won (R9.cash-out), so the finishing stacks
alone are the result. Site
(``event``, then ``venue``, else ``"PHH"``), table, date and time (``year``/``month``/
``day``/``time`` in ``time_zone``, else UTC) and hand id (``hand``, else the file name)
are read where present. A date that does not exist (``day = 32``) is a ``bad-timestamp``
reject; a date with no ``time`` leaves ``started_at`` empty (the model has no field for a
day alone, and a time is never invented).

**Variants.** PHH's Omaha codes are ``PO`` (pot-limit Omaha) and ``FO/8`` (fixed-limit
Omaha hi/lo). Croupier extends the same pattern to every game it plays: betting ``F``/
``P``/``N`` (fixed, pot, no limit) or ``PN`` (pot-limit pre-flop, no-limit after), game
``O`` (Omaha) or ``C`` (Courchevel, 5 cards, its first flop card dealt before the
betting as a ``d db`` of one card), ``5``/``6`` for 5- or 6-card Omaha, ``/8`` for hi/lo:
``NO``, ``PO/8``, ``PO5``, ``FO6/8``, ``PC``, ``PC/8``, ``PNO`` … Other PHH games (hold'em,
stud, draw, badugi) are ``unsupported-game`` rejects. See ``docs/phh-extensions.md``.

**Croupier's extensions** (all documented in ``docs/phh-extensions.md``; user-defined
fields start with ``_``, as PHH asks, and other tools ignore them). ``write_phh`` writes
one only where the standard fields cannot say the same, so that ``read_phh(write_phh(h))``
gives ``h`` back: ``_croupier_posts`` (every post in order, ``"pN kind amount"``, when the
position arrays cannot say what was posted: dead or missed blinds, posts to enter, a
misplaced blind), ``_croupier_small_blind``/``_big_blind``/``_ante`` (stakes the arrays do
not show), ``_croupier_uncalled`` (``"pN amount at K"``: returns that differ from the ones
PHH implies), ``_croupier_collected`` (``"pN pot K [run R] amount"``),
``_croupier_rake``/``_total_pot``/``_pots``, ``_croupier_fees`` (``"kind amount"``),
``_croupier_added``, ``_croupier_cash_outs`` (``"pN amount [fee F]"``),
``_croupier_button``, ``_croupier_hand_id`` (with a ``table``, an id not ``table/hand``),
``_tournament``, ``_level``, ``_buyin``, ``_tournament_currency``, ``_tournament_scale``,
``_croupier_bounties`` and ``_bounties_won`` (``"pN amount"`` in the tournament's money),
``_croupier_sitting_out`` (inline tables ``{seat, player, stack, bounty}``), ``_hero``,
``_deck``, ``_flags``, ``_mixed``, ``_croupier_extras`` (a table of the record's ``_``
fields, each its raw JSON text); and commentary tokens (``;`` between them): ``run N`` and
``burn C`` on ``d db``, ``muck CARDS`` on ``pN sm``, ``as check``/``as call X``/
``as bet``/``as raise`` and ``all-in``/``not all-in`` on a wager whose record differs from what
PHH implies. ``croupier convert --to phh`` reads each text back and leaves out, naming what
would be lost, a hand that does not come back whole (see
:func:`pipeline.convert.phh_text`).

Reject codes: ``malformed-hand`` (not TOML, not a PHH action, a player that does not
exist), ``truncated-hand`` (a last hand cut off), ``schema-violation``, ``bad-card``,
``bad-amount``, ``bad-timestamp``, ``unsupported-game``, ``bad-encoding``,
``line-too-long``.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from datetime import UTC, date, datetime
from datetime import time as clock
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from msgspec.structs import replace

from pipeline.formats.limits import NOT_UTF8_HINT
from pipeline.formats.phh_track import (
    _CURRENCY_RE,
    _OTHER_GAMES,
    _SURROGATE_RE,
    EXCERPT_CHARS,
    MAX_HAND_BYTES,
    ActionTracker,
    BettingBook,
    Number,
    UnwritableHand,
    _Aside,
    _cards,
    _collected,
    _decimals,
    _extra_posts,
    _extras,
    _Fields,
    _implied_posts,
    _is_int,
    _money,
    _opening,
    _Problem,
    _stated_uncalled,
    _units,
    parse_variant_code,
    variant_code,
)
from pipeline.formats.phh_write import write_phh
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Collection,
    GameSpec,
    HandRecord,
    RecordedResult,
    Seat,
    SeatAmount,
    Tournament,
    Variant,
)
from pipeline.money import MAX_SCALE, format_amount
from pipeline.violations import Reject, RejectCode

__all__ = [
    "MAX_HAND_BYTES",
    "ActionTracker",
    "BettingBook",
    "UnwritableHand",
    "decode_hand",
    "parse_variant_code",
    "variant_code",
    "write_phh",
]


class _Move:
    """One parsed entry of ``actions`` (amounts still decimal)."""

    __slots__ = (
        "all_in",
        "amount",
        "burn",
        "cards",
        "force",
        "force_amount",
        "kind",
        "player",
        "run",
    )

    def __init__(self, kind: str, player: int = -1) -> None:
        self.kind = kind
        self.player = player
        self.cards: tuple[int, ...] | None = None
        self.amount: Decimal | None = None
        self.run: int | None = None
        self.burn: tuple[int, ...] | None = None
        self.force: str | None = None
        self.force_amount: Decimal | None = None
        self.all_in: bool | None = None


def _parse_move(fields: _Fields, text: object, k: int, n: int) -> _Move:
    field = f"actions[{k}]"
    if not isinstance(text, str):
        raise _Problem(RejectCode.SCHEMA_VIOLATION, f"{field}: not a string", field)
    body, _, comment = text.partition("#")
    move = _parse_words(fields, body.split(), field, n)
    for token in comment.split(";"):
        _apply_token(fields, move, token.split(), field)
    return move


def _parse_words(fields: _Fields, words: list[str], field: str, n: int) -> _Move:
    match words:
        case []:
            return _Move("noop")
        case ["d", "dh", who, cards]:
            move = _Move("deal", fields.player(who, n, field))
            move.cards = _cards(cards, field)
        case ["d", "db", cards]:
            move = _Move("board")
            move.cards = _cards(cards, field)
        case [who, "f"]:
            move = _Move("fold", fields.player(who, n, field))
        case [who, "cc"]:
            move = _Move("cc", fields.player(who, n, field))
        case [who, "cbr", amount]:
            move = _Move("cbr", fields.player(who, n, field))
            move.amount = fields.decimal(amount, field)
        case [who, "sm"]:
            move = _Move("muck", fields.player(who, n, field))
        case [who, "sm", "-"]:
            move = _Move("show", fields.player(who, n, field))
        case [who, "sm", cards]:
            move = _Move("show", fields.player(who, n, field))
            move.cards = _cards(cards, field)
        case [_, "pb" | "sd", *_]:
            message = f"{field}: a stud or draw action in an Omaha hand"
            raise _Problem(RejectCode.MALFORMED_HAND, message, field)
        case _:
            shown = " ".join(words)[:60]
            raise _Problem(
                RejectCode.MALFORMED_HAND, f"{field}: not a PHH action: {shown!r}", field
            )
    return move


def _apply_token(fields: _Fields, move: _Move, token: list[str], field: str) -> None:
    """Read one Croupier commentary token; anything else is commentary and ignored."""
    betting = move.kind in ("cc", "cbr")
    match token:
        case ["run", run] if move.kind == "board" and run in ("1", "2", "3"):
            move.run = int(run)
        case ["run", run] if move.kind == "board" and run.isascii() and run.isdigit():
            # a runout number, not commentary: read as one of the first three, its cards
            # would go to another board
            message = f"{field}: run {run}: a board is run at most three times (run 1 to 3)"
            raise _Problem(RejectCode.MALFORMED_HAND, message, field)
        case ["burn", cards] if move.kind == "board":
            move.burn = _cards(cards, field)
        case ["muck", cards] if move.kind == "muck":
            move.cards = _cards(cards, field)
        case ["as", "check"] if move.kind == "cc":
            move.force = "check"
        case ["as", "call", amount] if move.kind == "cc":
            move.force = "call"
            move.force_amount = fields.decimal(amount, field)
        case ["as", "bet" | "raise" as kind] if move.kind == "cbr":
            move.force = kind
        case ["all-in"] if betting:
            move.all_in = True
        case ["not", "all-in"] if betting:
            move.all_in = False


def _game(fields: _Fields) -> tuple[Variant, int, Betting]:
    code = fields.text("variant")
    if code is None:
        raise _Problem(RejectCode.SCHEMA_VIOLATION, "missing field 'variant'", "variant")
    game = parse_variant_code(code)
    if game is None:
        name = _OTHER_GAMES.get(code)
        what = f"{name} (PHH {code!r})" if name else f"unknown PHH variant {code!r}"
        raise _Problem(RejectCode.UNSUPPORTED_GAME, f"unsupported game: {what}", "variant")
    return game


def _seat_numbers(fields: _Fields, n: int) -> list[int]:
    value = fields.get("seats")
    if value is None:
        return list(range(1, n + 1))
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(_is_int(s) and s > 0 for s in value)
        or len(set(value)) != n
    ):
        raise _Problem(
            RejectCode.SCHEMA_VIOLATION, f"seats: not {n} distinct seat numbers", "seats"
        )
    seats = [int(s) for s in value]
    ordered = sorted(seats)
    clockwise = [s for s in ordered if s > seats[-1]] + [s for s in ordered if s <= seats[-1]]
    if clockwise != seats:
        message = "seats: not clockwise from the small blind with the button last"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "seats")
    return seats


def _as_int(value: object) -> int | None:
    return value if _is_int(value) else None


_DATE_FIELDS = ("year", "month", "day")
_WHEN_FIELDS = (*_DATE_FIELDS, "time", "time_zone")
"""What says when a hand was played: kept as extras when it gives no ``started_at``."""


def _date(fields: _Fields) -> date | None:
    """Check ``year``/``month``/``day``: each an integer, together a day of the calendar
    (``bad-timestamp`` otherwise); return the date when all three are given."""
    parts = {k: fields.get(k) for k in _DATE_FIELDS}
    given = {k: v for k, v in parts.items() if v is not None}
    for key, value in given.items():
        if not _is_int(value):
            shown = value if isinstance(value, Decimal) else repr(value)  # 1.0, not Decimal()
            raise _Problem(RejectCode.BAD_TIMESTAMP, f"{key}: not a whole number: {shown}", key)
    year, month, day = (_as_int(given.get(k)) for k in ("year", "month", "day"))
    try:
        if year is not None and month is not None and day is not None:
            return date(year, month, day)
        date(2000 if year is None else year, month or 1, day or 1)  # what is given is possible
    except (ValueError, OverflowError) as error:
        shown = "-".join(str(parts[k]) for k in ("year", "month", "day") if k in given)
        # the field of the whole timestamp when there is one, as for a bad time
        key = "time" if fields.get("time") is not None else next(iter(given))
        raise _Problem(RejectCode.BAD_TIMESTAMP, f"date {shown}: {error}", key) from None
    return None


def _started_at(fields: _Fields) -> datetime | None:
    """Return when the hand started, in UTC; ``None`` when the file cannot say.

    The date is always checked (:func:`_date`). A date with no ``time`` stays ``None``:
    :class:`~pipeline.model.HandRecord` has only ``started_at``, an instant, and no field
    for a day alone, and a time of day is never invented (so such a hand has no month in
    the lake). ``time`` is a TOML time or date-time (``bad-timestamp`` otherwise, and when
    its date is not ``year``/``month``/``day``'s); a local one is in ``time_zone``, which
    must name a zone, and the time must have happened there (a time the clocks skipped is
    ``bad-timestamp``; one they showed twice is ``None``). Without ``time_zone``, a local
    time with a zone abbreviation (not ``UTC``), a city, a region or a country is a place's
    local time whose zone cannot be looked up: ``None``.
    """
    moment, zone = fields.get("time"), fields.get("time_zone")
    day = _date(fields)
    if zone is not None and not isinstance(zone, str):
        raise _Problem(RejectCode.BAD_TIMESTAMP, f"time_zone: not text: {zone!r}", "time_zone")
    abbreviation = fields.table.get("time_zone_abbreviation")  # looked at, kept as extras
    if moment is None:
        return None
    if not isinstance(moment, datetime | clock):
        message = f"time: not a TOML time or date-time: {moment!r}"
        raise _Problem(RejectCode.BAD_TIMESTAMP, message, "time")
    if isinstance(moment, datetime):
        if day is not None and moment.date() != day:
            message = f"time {moment.isoformat()} is not on year/month/day {day.isoformat()}"
            raise _Problem(RejectCode.BAD_TIMESTAMP, message, "time")
        if moment.tzinfo is not None:
            return moment.astimezone(UTC)
        when = moment
    elif day is None:
        return None
    else:
        when = datetime.combine(day, moment)
    if isinstance(zone, str):
        return _in_zone(when, zone)
    if isinstance(abbreviation, str) and abbreviation.upper() not in ("UTC", "GMT", "Z"):
        return None  # EDT, CET …: a zone by its abbreviation, which names no one offset
    if any(fields.table.get(k) is not None for k in ("city", "region", "country")):
        return None  # the local time of a place whose zone we cannot look up
    try:
        return when.replace(tzinfo=UTC)
    except (ValueError, OverflowError) as error:
        raise _Problem(RejectCode.BAD_TIMESTAMP, f"time: {error}", "time") from None


def _in_zone(when: datetime, zone: str) -> datetime | None:
    """Return the local time ``when`` of ``zone`` in UTC; ``None`` when the clocks showed it
    twice (a change back from summer time: which one is unknown, so none is invented).

    A time the clocks skipped (a change to summer time) never happened: ``bad-timestamp``.
    """
    try:
        place = ZoneInfo(zone)
        local = when.replace(tzinfo=place)
        instant = local.astimezone(UTC)
    except (ValueError, OverflowError, ZoneInfoNotFoundError) as error:
        message = f"time_zone: not a time zone: {zone!r} ({error})"
        raise _Problem(RejectCode.BAD_TIMESTAMP, message, "time_zone") from None
    if instant.astimezone(place).replace(tzinfo=None) != when:
        message = f"time {when.isoformat()} did not happen in {zone} (the clocks skipped it)"
        raise _Problem(RejectCode.BAD_TIMESTAMP, message, "time")
    if local.utcoffset() != local.replace(fold=1 - local.fold).utcoffset():
        return None  # shown twice by the clocks of the zone
    return instant


_FLAGS = frozenset({"cancelled", "partial", "converted"})
"""The flags ``_croupier_flags`` holds (a hand's ``cancelled``, ``partial``, ``converted``)."""
_TRIMMING = "ante_trimming_status"
"""PokerKit's choice of how antes make pots: the posts say what each player put in, so the
reader does not use it, but keeps it (as an extra) unless it is what a writer implies."""


def _required(values: list[Number] | None, key: str) -> list[Number]:
    """Return a list the standard requires of every hand; missing, it is a reject, not 0s."""
    if values is None:
        message = f"missing field {key!r} (the standard requires it: write 0 for none)"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, key)
    return values


def _record(fields: _Fields, source: str, line: int, hand_id: str) -> HandRecord:
    """Build the hand from one PHH table (players as indices until the end)."""
    raw_stacks = fields.get("starting_stacks")
    if not isinstance(raw_stacks, list) or not raw_stacks:
        message = "missing or empty field 'starting_stacks'"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "starting_stacks")
    n = len(raw_stacks)
    variant, hole_cards, betting = _game(fields)
    start = fields.numbers("starting_stacks", n) or []
    antes = _required(fields.numbers("antes", n), "antes")
    blinds = _required(fields.numbers("blinds_or_straddles", n), "blinds_or_straddles")
    finishing = fields.numbers("finishing_stacks", n)
    winnings = fields.numbers("winnings", n)
    keys = ("min_bet", "small_bet", "big_bet", "_croupier_small_blind", "_croupier_big_blind")
    stakes = {k: fields.number(k) for k in (*keys, "_croupier_ante", "_croupier_rake")}
    stakes["_croupier_total_pot"] = fields.number("_croupier_total_pot")
    pots = fields.get("_croupier_pots")
    listed = [_money(v, "_croupier_pots") for v in pots] if isinstance(pots, list) else []
    fields.amounts.extend(listed)
    raw_actions = fields.get("actions")
    if not isinstance(raw_actions, list):
        raise _Problem(RejectCode.SCHEMA_VIOLATION, "missing field 'actions'", "actions")
    moves = [_parse_move(fields, text, k, n) for k, text in enumerate(raw_actions)]
    extra_posts = _extra_posts(fields, n)
    stated = _stated_uncalled(fields, n)
    collected = _collected(fields, n)
    aside = _Aside(fields, n)
    scale = max((_decimals(a) for a in fields.amounts), default=0)
    if scale > MAX_SCALE:
        raise _Problem(RejectCode.BAD_AMOUNT, f"amounts written with {scale} decimals", None)

    def units(value: Number | None) -> int | None:
        return None if value is None else _units(value, scale)

    stacks = [_units(v, scale) for v in start]
    ante_units = [_units(v, scale) for v in antes]
    if len(set(ante_units)) == 1 and ante_units[0] > 0 and fields.table.get(_TRIMMING) is True:
        fields.get(_TRIMMING)  # what a writer implies for a uniform ante; otherwise kept
    blind_units = [_units(v, scale) for v in blinds]
    game = _game_spec(
        fields, (variant, hole_cards, betting), stakes, ante_units, blind_units, scale
    )
    tracker = ActionTracker(game, stacks, _opening(game, blind_units), implied=stated is None)
    if extra_posts is None:
        for i, kind, amount in _implied_posts(ante_units, blind_units, stacks):
            tracker.post(i, kind, amount)
    else:
        for i, kind, value in extra_posts:
            tracker.post(i, kind, _units(value, scale))
    _play(tracker, moves, scale, [(k, i, _units(a, scale)) for k, i, a in stated or ()])
    numbers = _seat_numbers(fields, n)
    names = fields.strings("players") or [""] * n
    if len(names) != n:
        message = f"players: {len(names)} names for {n} players"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "players")
    result = _result(
        finishing=None if finishing is None else [_units(v, scale) for v in finishing],
        winnings=None if winnings is None else [_units(v, scale) for v in winnings],
        collected=[(i, pot, run, _units(a, scale)) for i, pot, run, a in collected],
        rake=units(stakes["_croupier_rake"]),
        total_pot=units(stakes["_croupier_total_pot"]),
        pots=tuple(_units(v, scale) for v in listed),
        left=tracker.book.stack,
        numbers=numbers,
        cashed_out=bool(aside.cash_outs),
    )
    dealt = [
        Seat(numbers[i], names[i] or f"p{i + 1}", stacks[i], bounty=aside.heads.get(i))
        for i in range(n)
    ]
    flags = set(fields.strings("_croupier_flags") or ())
    if flags - _FLAGS:
        unknown = ", ".join(sorted(flags - _FLAGS))
        message = f"_croupier_flags: not a flag: {unknown} (flags: {', '.join(sorted(_FLAGS))})"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "_croupier_flags")
    hero = fields.text("_croupier_hero")
    deck = fields.text("_croupier_deck")
    button = fields.get("_croupier_button")
    if button is not None and not (_is_int(button) and button > 0):
        message = f"_croupier_button: not a seat number: {button!r}"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "_croupier_button")
    started_at = _started_at(fields)
    return HandRecord(
        hand_id=hand_id,
        site=fields.text("event") or fields.text("venue") or "PHH",
        game=game,
        button=numbers[-1] if button is None else int(button),
        seats=aside.seats(dealt, scale),
        actions=tuple(_seated(a, numbers) for a in tracker.out),
        table=fields.text("table"),
        started_at=started_at,
        result=aside.result(result, scale, numbers),
        tournament=_tournament(fields, aside.bounty_scale),
        deck=None if deck is None else _cards(deck, "_croupier_deck"),
        hero=None if hero is None else numbers[fields.player(hero, n, "_croupier_hero")],
        cancelled="cancelled" in flags,
        partial="partial" in flags,
        converted="converted" in flags,
        source=source,
        line=line,
        # a date without a time (or a place's local time) is no started_at: kept as extras
        extras=_extras(fields, keep=() if started_at is not None else _WHEN_FIELDS),
    )


def _game_spec(
    fields: _Fields,
    game: tuple[Variant, int, Betting],
    stakes: dict[str, Number | None],
    antes: list[int],
    blinds: list[int],
    scale: int,
) -> GameSpec:
    variant, hole_cards, betting = game

    def units(key: str) -> int | None:
        value = stakes[key]
        return None if value is None else _units(value, scale)

    limit = betting is Betting.FIXED_LIMIT
    small_bet, big_bet, min_bet = units("small_bet"), units("big_bet"), units("min_bet")
    if limit and (small_bet is None or big_bet is None):
        message = "fixed limit needs small_bet and big_bet"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "small_bet")
    big_blind = units("_croupier_big_blind")
    if big_blind is None:
        big_blind = blinds[1] if len(blinds) > 1 and blinds[1] else (min_bet or small_bet or 0)
    if not limit and min_bet is not None and big_blind and min_bet != big_blind:
        message = (
            f"min_bet {stakes['min_bet']} is not the big blind "
            f"{format_amount(big_blind, scale)}: the rules take the big blind as the smallest "
            "bet (R5.pl-min, R5.nl-limits)"
        )
        raise _Problem(RejectCode.UNSUPPORTED_GAME, message, "min_bet")
    small_blind = units("_croupier_small_blind")
    ante = units("_croupier_ante")
    currency = fields.text("currency")
    if currency is not None and _CURRENCY_RE.fullmatch(currency) is None:
        message = f"currency: not a currency code (ISO 4217, capitals): {currency!r}"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "currency")
    seat_count = fields.get("seat_count")
    if seat_count is not None and not (_is_int(seat_count) and seat_count > 1):
        message = f"seat_count: not a number of seats: {seat_count!r}"
        raise _Problem(RejectCode.SCHEMA_VIOLATION, message, "seat_count")
    return GameSpec(
        variant=variant,
        hole_cards=hole_cards,
        betting=betting,
        small_blind=blinds[0] if small_blind is None else small_blind,
        big_blind=big_blind,
        currency=currency or "CHIPS",
        scale=scale,
        small_bet=small_bet if limit else None,
        big_bet=big_bet if limit else None,
        ante=(antes[0] if len(set(antes)) == 1 else 0) if ante is None else ante,
        max_seats=seat_count if _is_int(seat_count) else None,
        mixed=fields.text("_croupier_mixed"),
    )


def _play(
    tracker: ActionTracker, moves: list[_Move], scale: int, stated: list[tuple[int, int, int]]
) -> None:
    """Apply the parsed moves in order, and the uncalled returns the file states."""
    dealt: dict[int, tuple[int, ...]] = {}
    for k, move in enumerate(moves):
        for at, who, amount in stated:
            if at == k:
                tracker.give_back(who, amount)
        kind, i = move.kind, move.player
        if kind == "deal":
            dealt[i] = dealt.get(i, ()) + (move.cards or ())  # in parts: every part
            tracker.deal(i, move.cards or ())
        elif kind == "board":
            tracker.deal_board(move.cards or (), move.run, move.burn)
        elif kind == "show":
            tracker.reveal(i, ActionType.SHOW, move.cards or dealt.get(i))
        elif kind == "muck":
            tracker.reveal(i, ActionType.MUCK, move.cards)
        elif kind == "fold":
            tracker.wager(i, ActionType.FOLD, 0, None)
        elif kind == "cc":
            tracker.open_preflop()
            owed = tracker.book.owed(i)
            if move.force is None and tracker.is_idle_check(i):
                tracker.skip_idle_check(i)  # PokerKit's turn for a player with no choice
                continue
            if move.force == "check" or (move.force is None and owed == 0):
                tracker.wager(i, ActionType.CHECK, 0, move.all_in)
            else:
                chips = owed if move.force_amount is None else _units(move.force_amount, scale)
                tracker.wager(i, ActionType.CALL, chips, move.all_in)
        elif kind == "cbr":
            tracker.open_preflop()
            to = _units(move.amount or 0, scale)
            is_bet = move.force == "bet" or (move.force is None and tracker.book.current == 0)
            tracker.wager(i, ActionType.BET if is_bet else ActionType.RAISE, to, move.all_in)
    for at, who, amount in stated:
        if at >= len(moves):
            tracker.give_back(who, amount)


def _result(
    *,
    finishing: list[int] | None,
    winnings: list[int] | None,
    collected: list[tuple[int, int, int | None, int]],
    rake: int | None,
    total_pot: int | None,
    pots: tuple[int, ...],
    left: list[int],
    numbers: list[int],
    cashed_out: bool = False,
) -> RecordedResult | None:
    """Build the recorded result: finishing stacks, and what each player collected."""
    rows: tuple[Collection, ...]
    if collected:
        rows = tuple(Collection(numbers[i], a, pot=p, run=r) for i, p, r, a in collected)
    elif winnings is not None:
        rows = tuple(Collection(numbers[i], a) for i, a in enumerate(winnings) if a)
    elif (
        finishing is not None
        and not cashed_out
        and all(f >= s for f, s in zip(finishing, left, strict=True))
    ):
        pairs = zip(finishing, left, strict=True)
        rows = tuple(Collection(numbers[i], f - s) for i, (f, s) in enumerate(pairs) if f > s)
    else:
        rows = ()
    if finishing is None and not rows and rake is None and total_pot is None:
        return None
    by_seat = sorted(zip(numbers, finishing or (), strict=False))  # as the seats are
    finals = tuple(SeatAmount(seat, a) for seat, a in by_seat)
    return RecordedResult(
        rake=rake, total_pot=total_pot, pots=pots, collected=rows, final_stacks=finals
    )


def _tournament(fields: _Fields, scale: int) -> Tournament | None:
    name = fields.text("_croupier_tournament")
    level = fields.text("_croupier_level") or fields.text("level")
    if name is None and level is None:
        return None
    return Tournament(
        id=name or fields.text("event") or "PHH",
        level=level,
        buyin=fields.text("_croupier_buyin"),
        currency=fields.text("_croupier_tournament_currency"),
        scale=scale,
    )


def _seated(action: Action, numbers: list[int]) -> Action:
    if action.seat is None:
        return action
    return replace(action, seat=numbers[action.seat])


def _excerpt(text: str) -> str:
    return text.strip()[:EXCERPT_CHARS]


_AT_LINE_RE = re.compile(r"at line (\d+)")


def _hand_id(fields: _Fields) -> str:
    """Return a hand's id: unique across tables and files, the same for the same hand.

    PHH numbers hands per event or table (``hand`` "typically counts from 1"): with a
    ``table``, the id is ``table/hand``; with neither a table nor an ``event`` or ``venue``
    to number it in, ``hand`` and a digest of the hand. Without ``hand``, it is ``phh-``
    and the digest: the first 16 hex digits of the SHA-256 of the hand's fields as JSON
    (sorted, so line ends, comments, blank lines and the file it is in do not change it),
    so the same hand read twice is one and two hands are two. ``_croupier_hand_id``
    (Croupier's own writer) is the id as it is.
    """
    number = fields.text("hand")  # read either way: a field read is not kept as an extra
    own = fields.text("_croupier_hand_id")
    if own:
        return own
    table = fields.text("table")
    if number and table:
        return f"{table}/{number}"
    named = any(fields.table.get(k) is not None for k in ("event", "venue"))
    if number and named:
        return number
    canonical = json.dumps(
        fields.table, sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=False
    )
    digest = hashlib.sha256(canonical.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return f"{number}-{digest}" if number else f"phh-{digest}"


def decode_hand(
    text: str,
    source: str,
    line: int,
    *,
    complete: bool,
    last: bool = False,
    text_line: int = 1,
) -> HandRecord | Reject:
    """Parse one hand's TOML text into a hand or a reject; never raises on bad data.

    ``complete`` is false for a last hand with no final newline: TOML that does not parse
    is ``truncated-hand``. So is the last hand's TOML that stops at the end of the text
    (``last``: a file cut at a line's end). ``text_line`` is the file's line of the text's
    first line: a TOML error names the file's line, not the hand's.
    """
    hand_id: str | None = None
    try:
        if _SURROGATE_RE.search(text):
            raise _Problem(RejectCode.BAD_ENCODING, f"not UTF-8 text; {NOT_UTF8_HINT}", None)
        try:
            table = tomllib.loads(text, parse_float=Decimal)
        except tomllib.TOMLDecodeError as error:
            said = str(error)
            cut = not complete or (last and "at end of document" in said)
            code = RejectCode.TRUNCATED_HAND if cut else RejectCode.MALFORMED_HAND
            if text_line != 1:
                said = _AT_LINE_RE.sub(lambda m: f"at line {int(m[1]) + text_line - 1}", said)
            raise _Problem(code, f"not valid TOML: {said}", None) from None
        except (ValueError, ArithmeticError):
            # a number int() or Decimal cannot hold (over 4300 digits, a huge exponent)
            message = "a number too long or too large to read"
            raise _Problem(RejectCode.MALFORMED_HAND, message, None) from None
        fields = _Fields(table)
        hand_id = _hand_id(fields)
        return _record(fields, source, line, hand_id)
    except _Problem as problem:
        return Reject(
            source, line, problem.code, problem.message, _excerpt(text), problem.field, hand_id
        )
    except RecursionError:
        message = "nested too deeply to read"
        return Reject(source, line, RejectCode.MALFORMED_HAND, message, _excerpt(text))
