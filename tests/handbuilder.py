"""Build small hand logs for the engine tests: JSON dicts in, decoded HandRecords out.

Each action helper returns the JSON object of one action exactly as the hand log
(``schemas/hand.schema.json``) writes it; :func:`build` wraps them in a hand and decodes
it with the real reader, so every test hand is a valid log line. Amounts are decimal
text in the hand's currency (unit ``0.01`` unless told otherwise); the engine counts
integer cents, and :func:`legal_at` turns a step's legal range back into exact text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TypedDict, Unpack

from pipeline.formats.jsonl import decode_line, encode_hand
from pipeline.model import HandRecord
from pipeline.rules import STANDARD, Replay, RuleSet, Step, replay
from pipeline.violations import Severity

Json = dict[str, object]

BOARD = ("2c3d4h", "9s", "Kd")
"""A flop, turn and river used when the cards do not matter."""


# ---------------------------------------------------------------------------- actions


def post(seat: int, blind: str, amount: str, *, all_in: bool = False) -> Json:
    """Return a post (``small``, ``big``, ``both``, ``dead``, ``ante`` or ``straddle``)."""
    action: Json = {"type": "post", "seat": seat, "blind": blind, "amount": amount}
    if all_in:
        action["all_in"] = True
    return action


def deal(seat: int, cards: str) -> Json:
    """Return hole cards dealt to ``seat``."""
    return {"type": "deal", "seat": seat, "cards": cards}


def fold(seat: int) -> Json:
    """Return a fold."""
    return {"type": "fold", "seat": seat}


def check(seat: int) -> Json:
    """Return a check."""
    return {"type": "check", "seat": seat}


def call(seat: int, amount: str, *, all_in: bool = False) -> Json:
    """Return a call adding ``amount``."""
    action: Json = {"type": "call", "seat": seat, "amount": amount}
    if all_in:
        action["all_in"] = True
    return action


def bet(seat: int, amount: str, *, all_in: bool = False) -> Json:
    """Return a bet of ``amount``."""
    action: Json = {"type": "bet", "seat": seat, "amount": amount}
    if all_in:
        action["all_in"] = True
    return action


def raise_to(seat: int, to: str, *, all_in: bool = False) -> Json:
    """Return a raise to a street total of ``to``."""
    action: Json = {"type": "raise", "seat": seat, "to": to}
    if all_in:
        action["all_in"] = True
    return action


def board(cards: str, *, burn: str | None = None, run: int | None = None) -> Json:
    """Return new board cards (optionally with the burn card and the runout number)."""
    action: Json = {"type": "board", "cards": cards}
    if burn is not None:
        action["burn"] = burn
    if run is not None:
        action["run"] = run
    return action


def show(seat: int, cards: str) -> Json:
    """Return a show at showdown."""
    return {"type": "show", "seat": seat, "cards": cards}


def muck(seat: int, cards: str | None = None) -> Json:
    """Return a muck (with the cards when the site reveals them)."""
    action: Json = {"type": "muck", "seat": seat}
    if cards is not None:
        action["cards"] = cards
    return action


def uncalled(seat: int, amount: str) -> Json:
    """Return an uncalled bet of ``amount`` returned to ``seat``."""
    return {"type": "uncalled", "seat": seat, "amount": amount}


def checked_streets(order: Sequence[int], cards: Sequence[str] = BOARD) -> list[Json]:
    """Return the remaining streets dealt from ``cards`` with every seat in ``order`` checking."""
    actions: list[Json] = []
    for street in cards:
        actions.append(board(street))
        actions.extend(check(seat) for seat in order)
    return actions


# ---------------------------------------------------------------------------- hands


class HandOptions(TypedDict, total=False):
    """The table of a test hand; every key has a default (see :func:`build`)."""

    seats: int | Sequence[int]
    stacks: str | Sequence[str]
    players: Sequence[str]
    button: int
    betting: str
    small_blind: str
    big_blind: str
    small_bet: str
    big_bet: str
    ante: str
    variant: str
    hole_cards: int
    unit: str
    deck: str
    cancelled: bool
    partial: bool


def build(actions: Iterable[Json], **options: Unpack[HandOptions]) -> HandRecord:
    """Return a decoded hand at a pot-limit $0.50/$1 table, 3 seats of $100 unless told.

    ``seats`` is a count (seats 1..n) or the seat numbers; ``stacks`` one stack for all
    or one per seat; ``players`` the names (``p<seat>`` by default). ``button`` defaults
    to the last seat, so seat numbers run clockwise from the small blind. Fixed limit
    defaults to small bet = big blind, big bet twice that. ``deck``, ``cancelled`` and
    ``partial`` become top-level fields.
    """
    seats = options.get("seats", 3)
    numbers = list(range(1, seats + 1)) if isinstance(seats, int) else list(seats)
    stacks = options.get("stacks", "100.00")
    chips = [stacks] * len(numbers) if isinstance(stacks, str) else list(stacks)
    names = list(options.get("players", [f"p{number}" for number in numbers]))
    variant = options.get("variant", "omaha")
    betting = options.get("betting", "pot-limit")
    big_blind = options.get("big_blind", "1.00")
    game: Json = {
        "variant": variant,
        "hole_cards": options.get("hole_cards", 5 if variant.startswith("courchevel") else 4),
        "betting": betting,
        "small_blind": options.get("small_blind", "0.50"),
        "big_blind": big_blind,
        "currency": "USD",
        "unit": options.get("unit", "0.01"),
    }
    if betting == "fixed-limit":
        small_bet = options.get("small_bet", big_blind)
        game["small_bet"] = small_bet
        game["big_bet"] = options.get("big_bet", f"{2 * Decimal(small_bet):f}")
    if "ante" in options:
        game["ante"] = options["ante"]
    data: Json = {
        "hand_id": "T-1",
        "site": "test",
        "game": game,
        "button": options.get("button", numbers[-1]),
        "seats": [
            {"seat": number, "player": name, "stack": stack}
            for number, name, stack in zip(numbers, names, chips, strict=True)
        ],
        "actions": list(actions),
    }
    for key in ("deck", "cancelled", "partial"):
        if key in options:
            data[key] = options[key]
    record = decode_line(json.dumps(data).encode(), "test", 1)
    assert isinstance(record, HandRecord), record
    return record


def play(
    actions: Iterable[Json], rules: RuleSet = STANDARD, **options: Unpack[HandOptions]
) -> Replay:
    """Build a hand (see :func:`build`) and replay it under ``rules``."""
    return replay(build(actions, **options), rules)


# ---------------------------------------------------------------------------- reading results


def found(result: Replay) -> list[tuple[str, int | None]]:
    """Return ``(code, seq)`` of every violation, in the order found."""
    return [(str(v.code), v.seq) for v in result.violations]


def errors(result: Replay) -> list[tuple[str, int | None]]:
    """Return ``(code, seq)`` of every violation of severity ``error``."""
    return [(str(v.code), v.seq) for v in result.violations if v.severity is Severity.ERROR]


def step(result: Replay, seq: int) -> Step:
    """Return the step recorded for the action at ``seq``."""
    for candidate in result.steps:
        if candidate.seq == seq:
            return candidate
    raise AssertionError(f"no step at seq {seq}")


@dataclass(frozen=True, slots=True)
class Legal:
    """The legal range recorded at one step, as decimal text (``None`` where unset)."""

    to_call: str | None
    min_to: str | None
    max_to: str | None


def legal_at(result: Replay, seq: int) -> Legal:
    """Return the to-call / min / max raise-to at ``seq`` as decimal text in dollars."""
    s = step(result, seq)
    return Legal(_text(s.to_call), _text(s.min_to), _text(s.max_to))


def _text(units: int | None) -> str | None:
    return None if units is None else f"{Decimal(units) / 100:.2f}"


def blinds(small: int = 1, big: int = 2, *, sb: str = "0.50", bb: str = "1.00") -> list[Json]:
    """Return the small blind by ``small`` and the big blind by ``big``."""
    return [post(small, "small", sb), post(big, "big", bb)]


DECK = tuple(rank + suit for suit in "shdc" for rank in "AKQJT98765432")
"""A deck order from the top (As Ks … 2c), for hands that record the deck."""


def from_deck(*positions: int, deck: Sequence[str] = DECK) -> str:
    """Return the cards at ``positions`` of ``deck``, written together."""
    return "".join(deck[p] for p in positions)


def hole_from_deck(index: int, players: int, hole_cards: int = 4) -> str:
    """Return the hole cards the deck order deals to player ``index`` (0: left of the button)."""
    return from_deck(*(r * players + index for r in range(hole_cards)))


def minus(a: str, b: str) -> str:
    """Return ``a - b`` exactly, as decimal text with two places (cents)."""
    return f"{Decimal(a) - Decimal(b):.2f}"


def plus(a: str, b: str) -> str:
    """Return ``a + b`` exactly, as decimal text with two places (cents)."""
    return f"{Decimal(a) + Decimal(b):.2f}"


# ---------------------------------------------------------------------------- recorded results


def with_result(hand: HandRecord, result: Mapping[str, object]) -> HandRecord:
    """Return ``hand`` with the log's ``result`` object (amounts as decimal text), re-read.

    The hand is written back to its log line, given ``result`` and decoded again by the
    real reader, so a test's recorded result is exactly what a log line would carry.
    """
    data = json.loads(encode_hand(hand))
    data["result"] = dict(result)
    record = decode_line(json.dumps(data).encode(), "test", 1)
    assert isinstance(record, HandRecord), record
    return record


def collected(seat: int, amount: str, *, pot: int = 0, run: int | None = None) -> Json:
    """Return one ``result.collected`` entry: ``seat`` collected ``amount`` from ``pot``."""
    entry: Json = {"seat": seat, "amount": amount, "pot": pot}
    if run is not None:
        entry["run"] = run
    return entry
