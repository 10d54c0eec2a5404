"""Write hands as PHH (``croupier convert --to phh``): text PokerKit can load.

See :mod:`pipeline.formats.phh` for the mapping and Croupier's extension codes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, date

import msgspec

from pipeline.cards import format_cards
from pipeline.formats.phh_track import (
    _AS_JSON,
    _KINDS,
    ActionTracker,
    UnwritableHand,
    _implied_posts,
    _opening,
    variant_code,
)
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Blind,
    HandRecord,
)
from pipeline.money import format_amount

__all__ = ["write_phh"]


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _seating(hand: HandRecord) -> list[int]:
    numbers = sorted({s.seat for s in hand.seats if not s.sitting_out})
    return [s for s in numbers if s > hand.button] + [s for s in numbers if s <= hand.button]


class _Writer:
    """Build the PHH lines of one hand; players are ``p1``.. in position order."""

    def __init__(self, hand: HandRecord) -> None:
        self.hand = hand
        self.order = _seating(hand)
        if not self.order:
            raise UnwritableHand(f"hand {hand.hand_id}: nobody is dealt in")
        self.index = {seat: i for i, seat in enumerate(self.order)}
        self.lines: list[str] = []

    def who(self, seat: int | None) -> int:
        if seat is None or seat not in self.index:
            raise UnwritableHand(f"hand {self.hand.hand_id}: seat {seat} is not dealt in")
        return self.index[seat]

    def money(self, amount: int) -> str:
        return format_amount(amount, self.hand.game.scale)

    def field(self, key: str, value: str) -> None:
        self.lines.append(f"{key} = {value}")

    def amounts(self, key: str, values: Sequence[int]) -> None:
        self.field(key, "[" + ", ".join(self.money(v) for v in values) + "]")

    def texts(self, key: str, values: Sequence[str]) -> None:
        self.field(key, "[" + ", ".join(_toml_string(v) for v in values) + "]")


def _position_arrays(w: _Writer, posts: list[Action]) -> tuple[list[int], list[int]]:
    """Fill ``antes`` and ``blinds_or_straddles`` from the posts (nominal for short all-ins)."""
    game = w.hand.game
    n = len(w.order)
    antes, blinds = [0] * n, [0] * n
    for post in posts:
        i = w.who(post.seat)
        p = 1 - i if n == 2 else i
        amount = post.amount or 0
        if post.blind is Blind.ANTE:
            antes[p] += max(amount, game.ante) if post.all_in else amount
        elif post.blind is Blind.SMALL:
            blinds[p] = max(amount, game.small_blind) if post.all_in else amount
        elif post.blind is Blind.BIG and (p == 1 or n == 2):
            blinds[p] = max(amount, game.big_blind) if post.all_in else amount
        elif post.blind in (Blind.BIG, Blind.STRADDLE):
            blinds[p] = amount
    return antes, blinds


def _write_moves(w: _Writer, tracker: ActionTracker) -> tuple[list[str], list[str]]:
    """Return the ``actions`` entries (with Croupier tokens where PHH would imply otherwise)
    and the uncalled returns as ``_croupier_uncalled`` would state them."""
    hand = w.hand
    out: list[str] = []
    returns: list[str] = []
    for action in hand.actions:
        kind = action.type
        tokens: list[str] = []
        cards = format_cards(action.cards or ())
        if kind is ActionType.UNCALLED:
            i, amount = w.who(action.seat), action.amount or 0
            returns.append(f"p{i + 1} {w.money(amount)} at {len(out)}")
            if not tracker.implied:
                tracker.give_back(i, amount)
            continue
        if kind is ActionType.POST:
            continue
        if kind is ActionType.DEAL:
            text = f"d dh p{w.who(action.seat) + 1} {cards}"
            tracker.deal(w.who(action.seat), action.cards or ())
        elif kind is ActionType.BOARD:
            text = f"d db {cards}"
            tokens += [f"run {action.run}"] if action.run is not None else []
            tokens += [f"burn {format_cards(action.burn)}"] if action.burn else []
            tracker.deal_board(action.cards or (), action.run, action.burn)
        elif kind in (ActionType.SHOW, ActionType.MUCK):
            tracker.reveal(w.who(action.seat), kind, action.cards)
            player = f"p{w.who(action.seat) + 1}"
            if kind is ActionType.SHOW:
                text = f"{player} sm {cards or '-'}"
            else:
                text = f"{player} sm"
                tokens += [f"muck {cards}"] if cards else []
        else:
            i = w.who(action.seat)
            tracker.open_preflop()
            text, tokens, chips = _write_wager(w, tracker, action, i)
            tracker.wager(i, kind, chips, action.all_in)
        out.append(text + (" # " + "; ".join(tokens) if tokens else ""))
    return out, returns


def _write_wager(
    w: _Writer, tracker: ActionTracker, action: Action, i: int
) -> tuple[str, list[str], int]:
    """Return the text, tokens and chips (call: moved; bet/raise: the total) of a wager."""
    book = tracker.book
    kind = action.type
    player = f"p{i + 1}"
    stack, mine, owed = book.stack[i], book.bet[i], book.owed(i)
    tokens: list[str] = []
    if kind is ActionType.FOLD:
        return f"{player} f", tokens, 0
    if kind in (ActionType.CHECK, ActionType.CALL):
        chips = 0 if kind is ActionType.CHECK else action.amount or 0
        if kind is ActionType.CHECK and (owed or tracker.is_idle_check(i)):
            tokens.append("as check")
        elif kind is ActionType.CALL and (chips != owed or owed == 0):
            tokens.append(f"as call {w.money(chips)}")
        implied_all_in = kind is ActionType.CALL and chips >= stack
    else:
        chips = mine + (action.amount or 0) if kind is ActionType.BET else action.to or 0
        if (kind is ActionType.BET) != (book.current == 0):
            tokens.append("as bet" if kind is ActionType.BET else "as raise")
        implied_all_in = chips - mine >= stack
    if kind is not ActionType.CHECK and action.all_in != implied_all_in:
        tokens.append("all-in" if action.all_in else "not all-in")
    verb = "cc" if kind in (ActionType.CHECK, ActionType.CALL) else f"cbr {w.money(chips)}"
    return f"{player} {verb}", tokens, chips


def write_phh(hand: HandRecord) -> str:
    """Return one hand as PHH text (TOML), ending in a newline.

    PokerKit loads it for ``PO`` and ``FO/8``; other games get Croupier's codes. Posts,
    stakes, results, tournament data, bounties, cash-outs, fees, seats sitting out,
    ``extras`` and commentary tokens the standard fields cannot carry go in ``_croupier_``
    fields (see :mod:`pipeline.formats.phh`), so that reading the text gives the record
    back. Raises :class:`UnwritableHand` (a ``ValueError``) for a hand PHH cannot express
    (an action by a seat not dealt in); :func:`pipeline.convert.phh_text` also checks the
    text reads back whole.
    """
    w = _Writer(hand)
    game = hand.game
    n = len(w.order)
    seat_of = {s.seat: s for s in hand.seats}
    stacks = [seat_of[s].stack for s in w.order]
    posts = [a for a in hand.actions if a.type is ActionType.POST]
    antes, blinds = _position_arrays(w, posts)
    w.field("variant", _toml_string(variant_code(game)))
    split, lines = _extras_split(hand)  # the extras that go back as PHH fields
    kept = _trimming(hand, split)
    trimming = kept
    if trimming is None and len(set(antes)) == 1 and antes[0] > 0:
        trimming = "true"  # a uniform ante; other values a file had are kept as extras
    if trimming is not None:
        w.field("ante_trimming_status", trimming)
    w.amounts("antes", antes)
    w.amounts("blinds_or_straddles", blinds)
    if game.betting is Betting.FIXED_LIMIT:
        small_bet = game.small_bet or game.big_blind
        w.field("small_bet", w.money(small_bet))
        w.field("big_bet", w.money(game.big_bet or 2 * small_bet))
    else:
        w.field("min_bet", w.money(game.big_blind))
    w.amounts("starting_stacks", stacks)
    recorded = [(w.who(p.seat), p.blind or Blind.BIG, p.amount or 0) for p in posts]
    implied = _implied_posts(antes, blinds, stacks)
    moves: list[str] = []
    for implied_returns in (True, False):
        tracker = ActionTracker(game, stacks, _opening(game, blinds), implied=implied_returns)
        for i, kind, amount in recorded:
            tracker.post(i, kind, amount)
        moves, returns = _write_moves(w, tracker)
        if _returns(tracker.out, lambda seat: seat) == _returns(hand.actions, w.who):
            break
    w.texts("actions", moves)
    if not tracker.implied:
        w.texts("_croupier_uncalled", returns)
    _write_about(w, hand, split - (kept is not None), lines)  # a kept trimming is written
    _write_result(w, hand)
    if recorded != implied:
        names = {blind: name for name, blind in _KINDS.items()}
        w.texts("_croupier_posts", [f"p{i + 1} {names[k]} {w.money(a)}" for i, k, a in recorded])
    derived_big = blinds[1] if n > 1 and blinds[1] else game.big_blind
    derived_ante = antes[0] if len(set(antes)) == 1 else 0
    for key, ours, derived in (
        ("_croupier_small_blind", game.small_blind, blinds[0]),
        ("_croupier_big_blind", game.big_blind, derived_big),
        ("_croupier_ante", game.ante, derived_ante),
    ):
        if ours != derived:
            w.field(key, w.money(ours))
    return "\n".join(w.lines) + "\n"


def _returns(
    actions: Sequence[Action], player: Callable[[int | None], int | None]
) -> list[tuple[int, int | None, int | None]]:
    """Return the uncalled returns: (position in the action list, player, chips)."""
    return [
        (k, player(a.seat), a.amount)
        for k, a in enumerate(actions)
        if a.type is ActionType.UNCALLED
    ]


def _write_about(w: _Writer, hand: HandRecord, split: int, lines: list[str | None]) -> None:
    """Write the hand's identity, table, time, players and Croupier's extra facts (the
    extras as :func:`_extras_split` splits them, less a kept ``ante_trimming_status``)."""
    number, own_id = hand.hand_id, False
    if hand.table is not None:  # a reader takes table/hand: write the number, or the id
        prefix = f"{hand.table}/"
        if number.startswith(prefix) and len(number) > len(prefix):
            number = number[len(prefix) :]
        else:
            own_id = True
    # PHH's hand is an integer: a number written as one (not one with leading zeros, or
    # past TOML's 64 bits), any other id as text
    plain = number.isascii() and number.isdigit() and str(int(number)) == number
    w.field("hand", number if plain and int(number) < 2**63 else _toml_string(number))
    # the reader takes the site from event, else venue: a venue it kept beside an event
    # goes back as itself, so the site was the event
    kept_venue = any(
        name == "_phh_venue" and line is not None
        for (name, _), line in zip(hand.extras[split:], lines[split:], strict=True)
    )
    w.field("event" if kept_venue else "venue", _toml_string(hand.site))
    if hand.table is not None:
        w.field("table", _toml_string(hand.table))
    if own_id:
        w.field("_croupier_hand_id", _toml_string(hand.hand_id))
    if hand.started_at is not None:
        moment = hand.started_at.astimezone(UTC)
        w.field("year", str(moment.year))
        w.field("month", str(moment.month))
        w.field("day", str(moment.day))
        w.field("time", moment.time().isoformat())
        w.field("time_zone", '"UTC"')
    w.field("seats", "[" + ", ".join(str(s) for s in w.order) + "]")
    if hand.game.max_seats is not None:
        w.field("seat_count", str(hand.game.max_seats))
    seat_of = {s.seat: s for s in hand.seats}
    w.texts("players", [seat_of[s].player for s in w.order])
    if hand.game.currency != "CHIPS":
        w.field("currency", _toml_string(hand.game.currency))
    if hand.button != w.order[-1]:
        w.field("_croupier_button", str(hand.button))
    if hand.game.mixed is not None:
        w.field("_croupier_mixed", _toml_string(hand.game.mixed))
    _write_tournament(w, hand)
    if hand.hero is not None and hand.hero in w.index:
        w.field("_croupier_hero", _toml_string(f"p{w.index[hand.hero] + 1}"))
    if hand.deck is not None:
        w.field("_croupier_deck", _toml_string(format_cards(hand.deck)))
    flags = [f for f in ("cancelled", "partial", "converted") if getattr(hand, f)]
    if flags:
        w.texts("_croupier_flags", flags)
    _write_seats_aside(w, hand)
    if hand.extras:
        _write_extras(w, hand, split, lines)


def _bounty_scale(hand: HandRecord) -> int:
    """Return the scale of bounties: the tournament's money (2 when there is none)."""
    return 2 if hand.tournament is None else hand.tournament.scale


def _write_tournament(w: _Writer, hand: HandRecord) -> None:
    """Write the tournament's id, level, buy-in, currency and money scale."""
    tournament = hand.tournament
    if tournament is None:
        return
    w.field("_croupier_tournament", _toml_string(tournament.id))
    if tournament.level is not None:
        w.field("_croupier_level", _toml_string(tournament.level))
    if tournament.buyin is not None:
        w.field("_croupier_buyin", _toml_string(tournament.buyin))
    if tournament.currency is not None:
        w.field("_croupier_tournament_currency", _toml_string(tournament.currency))
    if tournament.scale != 2:
        w.field("_croupier_tournament_scale", str(tournament.scale))


def _write_seats_aside(w: _Writer, hand: HandRecord) -> None:
    """Write the bounties on the players' heads and the seats that sit out the hand."""
    scale = _bounty_scale(hand)
    heads = [
        f"p{w.index[s.seat] + 1} {format_amount(s.bounty, scale)}"
        for s in sorted(hand.seats, key=lambda s: w.index.get(s.seat, -1))
        if s.bounty is not None and s.seat in w.index
    ]
    if heads:
        w.texts("_croupier_bounties", heads)
    away = []
    for seat in hand.seats:
        if seat.seat in w.index:
            continue
        parts = [
            f"seat = {seat.seat}",
            f"player = {_toml_string(seat.player)}",
            f"stack = {w.money(seat.stack)}",
        ]
        if seat.bounty is not None:
            parts.append(f"bounty = {_toml_string(format_amount(seat.bounty, scale))}")
        away.append("{ " + ", ".join(parts) + " }")
    if away:
        w.field("_croupier_sitting_out", "[" + ", ".join(away) + "]")


_PLAIN_FIELDS = (
    "venue",  # beside an event, which names the site
    "author",
    "url",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "currency_symbol",
)
"""PHH's fields of text that the reader keeps as ``_phh_`` extras, never interprets."""
_DATE_PARTS = ("year", "month", "day")


def _as_phh_field(hand: HandRecord, name: str, raw: bytes) -> str | None:
    """Return the TOML line that writes extra ``name`` back as the PHH field it was read
    from (``_phh_author`` as ``author``), or ``None`` where the field would not read back
    as the same extra (not a PHH field; a date part beside a ``started_at``, which writes
    its own date; a value not as the reader keeps it)."""
    key = name.removeprefix("_phh_")
    when = hand.started_at is None and key in (*_DATE_PARTS, "time_zone")
    if key == name or not (key in _PLAIN_FIELDS or when):
        return None
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return None
    if key in _DATE_PARTS:
        if not (isinstance(value, int) and not isinstance(value, bool)):
            return None
        return f"{key} = {value}"
    if not isinstance(value, str) or _AS_JSON.encode(value) != raw:
        return None
    return f"{key} = {_toml_string(value)}"


def _date_parts_valid(fields: dict[str, str]) -> bool:
    """Tell whether the date parts written back are a possible date (the reader checks)."""
    parts = {k: int(fields[k].partition(" = ")[2]) for k in _DATE_PARTS if k in fields}
    try:
        date(parts.get("year", 2000), parts.get("month", 1), parts.get("day", 1))
    except (ValueError, OverflowError):
        return False
    return True


_KEPT_TRIMMING = "_phh_ante_trimming_status"


def _extras_split(hand: HandRecord) -> tuple[int, list[str | None]]:
    """Return where the record's extras that go back as PHH fields start, and their lines.

    The reader keeps ``_croupier_extras`` first, then the fields it did not read in the
    file's order, so only a run at the end goes back as fields, in order (with a kept
    ``ante_trimming_status``, written near the top, just before that run).
    """
    lines = [_as_phh_field(hand, name, raw) for name, raw in hand.extras]
    split = len(lines)
    while split and lines[split - 1] is not None:
        split -= 1
    plain = {
        name.removeprefix("_phh_"): line
        for (name, _), line in zip(hand.extras[split:], lines[split:], strict=True)
        if line is not None
    }
    if not _date_parts_valid(plain):
        split = len(lines)
    return split, lines


def _trimming(hand: HandRecord, split: int) -> str | None:
    """Return the ``ante_trimming_status`` a file had and the reader kept (``true`` or
    ``false``), where it can go back as that field (``split``: see :func:`_extras_split`)."""
    if split == 0 or hand.extras[split - 1][0] != _KEPT_TRIMMING:
        return None
    raw = hand.extras[split - 1][1]
    return raw.decode() if raw in (b"true", b"false") else None


def _write_extras(w: _Writer, hand: HandRecord, split: int, lines: list[str | None]) -> None:
    """Write the record's ``_`` fields: the last ones that are PHH fields the reader kept
    (``_phh_author`` …) as those fields, the others in ``_croupier_extras``, each its raw
    JSON text (``split`` and ``lines``: see :func:`_extras_split`)."""
    if split:
        _write_croupier_extras(w, hand, hand.extras[:split])
    for line in lines[split:]:
        if line is not None:
            w.lines.append(line)


def _write_croupier_extras(
    w: _Writer, hand: HandRecord, extras: Sequence[tuple[str, bytes]]
) -> None:
    """Write extras in ``_croupier_extras``, each its raw JSON text, in order."""
    pairs = []
    for name, raw in extras:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UnwritableHand(f"hand {hand.hand_id}: extra {name!r} is not UTF-8") from None
        pairs.append(f"{_toml_string(name)} = {_toml_string(text)}")
    w.field("_croupier_extras", "{ " + ", ".join(pairs) + " }")


def _write_result(w: _Writer, hand: HandRecord) -> None:
    """Write finishing stacks, winnings, and the per-pot collections PHH cannot hold."""
    result = hand.result
    if result is None:
        return
    n = len(w.order)
    finals = {s.seat: s.amount for s in result.final_stacks}
    if finals and all(seat in finals for seat in w.order):
        w.amounts("finishing_stacks", [finals[seat] for seat in w.order])
    won = [0] * n
    rows = [(w.who(c.seat), c.pot, c.run, c.amount) for c in result.collected]
    for i, _, _, amount in rows:
        won[i] += amount
    if rows or finals:
        w.amounts("winnings", won)
    implied = [(i, 0, None, amount) for i, amount in enumerate(won) if amount]
    if rows != implied:
        w.texts(
            "_croupier_collected",
            [
                f"p{i + 1} pot {pot}" + (f" run {run}" if run else "") + f" {w.money(amount)}"
                for i, pot, run, amount in rows
            ],
        )
    if result.rake is not None:
        w.field("_croupier_rake", w.money(result.rake))
    if result.total_pot is not None:
        w.field("_croupier_total_pot", w.money(result.total_pot))
    if result.pots:
        w.amounts("_croupier_pots", result.pots)
    if result.fees:
        w.texts("_croupier_fees", [f"{f.kind} {w.money(f.amount)}" for f in result.fees])
    if result.added:
        w.field("_croupier_added", w.money(result.added))
    if result.cash_outs:
        w.texts(
            "_croupier_cash_outs",
            [
                f"p{w.who(c.seat) + 1} {w.money(c.amount)}"
                + (f" fee {w.money(c.fee)}" if c.fee else "")
                for c in result.cash_outs
            ],
        )
    if result.bounties:
        scale = _bounty_scale(hand)
        w.texts(
            "_croupier_bounties_won",
            [f"p{w.who(b.seat) + 1} {format_amount(b.amount, scale)}" for b in result.bounties],
        )
