"""Cards as small ints, card masks, and their text forms.

A card is an ``int`` from 0 to 51: ``rank * 4 + suit``, where ``rank`` counts from
0 (deuce) to 12 (ace) and ``suit`` is 0..3 for clubs, diamonds, hearts, spades.
An unknown card (a face-down card in a log, written ``"??"``) is :data:`UNKNOWN`.
A set of known cards is a 52-bit mask: bit ``card`` is set when the card is in it.

>>> parse_card("Ah")
50
>>> format_card(0)
'2c'
>>> parse_cards("AhKd3c2s") == parse_cards("Ah Kd 3c 2s")
True
>>> format_cards(parse_cards("[Qh 6c ?? 9c]"), sep=" ")
'Qh 6c ?? 9c'
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "DECK",
    "RANKS",
    "SUITS",
    "UNKNOWN",
    "CardError",
    "cards_from_mask",
    "format_card",
    "format_cards",
    "has_unknown",
    "mask_of",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
UNKNOWN = -1
"""The int of a card whose face the log does not show (text ``"??"``)."""

DECK: tuple[int, ...] = tuple(range(52))

_TEXT = tuple(r + s for r in RANKS for s in SUITS)
_PARSE: dict[str, int] = {}
for _index, _text in enumerate(_TEXT):
    for _rank in {_text[0], _text[0].lower()}:
        for _suit in {_text[1], _text[1].upper()}:
            _PARSE[_rank + _suit] = _index
_PARSE["??"] = UNKNOWN
for _suit_char in SUITS:  # "10h" is common in hand-typed logs; it still means a ten
    _PARSE["10" + _suit_char] = _PARSE["T" + _suit_char]
    _PARSE["10" + _suit_char.upper()] = _PARSE["T" + _suit_char]
_SEPARATORS = str.maketrans("", "", " ,[]")
_FORMAT: dict[int, str] = {**dict(enumerate(_TEXT)), UNKNOWN: "??"}


class CardError(ValueError):
    """Card text that is not a card; ``text`` holds it (reject code ``bad-card``)."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{reason}: {text!r}")
        self.text = text
        self.reason = reason


def parse_card(text: str) -> int:
    """Parse one card such as ``"Ah"``, ``"td"`` or ``"??"`` (unknown) to its int.

    >>> parse_card("2c"), parse_card("??")
    (0, -1)
    """
    try:
        return _PARSE[text]
    except KeyError:
        raise CardError(text, "not a card") from None


def format_card(card: int) -> str:
    """Format a card int as two characters, ``"??"`` for :data:`UNKNOWN`.

    >>> format_card(51), format_card(UNKNOWN)
    ('As', '??')
    """
    if card == UNKNOWN:
        return "??"
    if not 0 <= card < 52:
        raise ValueError(f"card int out of range: {card}")
    return _TEXT[card]


def parse_cards(text: str) -> tuple[int, ...]:
    """Parse a run of cards: ``"AhKd3c2s"``, ``"Ah Kd 3c 2s"``, ``"[Ah Kd]"``, ``"Ah,Kd"``.

    Spaces, commas and brackets between cards are ignored; the run must otherwise be a
    sequence of two-character cards (or ``10`` plus a suit). Raises :class:`CardError`.

    >>> parse_cards("")
    ()
    >>> parse_cards("Ah 10d")
    (50, 33)
    """
    compact = text.translate(_SEPARATORS)
    n = len(compact)
    if not n % 2 and "1" not in compact:  # the common case: two characters a card, no "10"
        try:
            return tuple([_PARSE[compact[i : i + 2]] for i in range(0, n, 2)])
        except KeyError:
            pass  # the loop below says where
    cards: list[int] = []
    i = 0
    while i < n:
        two = compact[i : i + 2]
        if two == "10" and i + 2 < n:
            card = _PARSE.get(compact[i : i + 3])
            step = 3
        else:
            card = _PARSE.get(two) if len(two) == 2 else None
            step = 2
        if card is None:
            raise CardError(text, f"not a card at position {i} ({compact[i : i + step]!r})")
        cards.append(card)
        i += step
    return tuple(cards)


def format_cards(cards: Iterable[int], sep: str = "") -> str:
    """Format cards as text, joined by ``sep`` (``""`` gives ``"AhKd"``).

    >>> format_cards([50, 45], sep=" ")
    'Ah Kd'
    """
    try:
        return sep.join([_FORMAT[card] for card in cards])
    except KeyError:  # not a card: format_card says which
        return sep.join(format_card(card) for card in cards)


def rank_of(card: int) -> int:
    """Return the rank of a known card: 0 for a deuce up to 12 for an ace."""
    return card >> 2


def suit_of(card: int) -> int:
    """Return the suit of a known card: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def has_unknown(cards: Iterable[int]) -> bool:
    """Tell whether any of the cards is :data:`UNKNOWN`."""
    return any(card == UNKNOWN for card in cards)


def mask_of(cards: Iterable[int]) -> int:
    """Return the 52-bit mask of the known cards (unknown cards are left out).

    >>> bin(mask_of([0, 1, UNKNOWN]))
    '0b11'
    """
    mask = 0
    for card in cards:
        if card != UNKNOWN:
            mask |= 1 << card
    return mask


def cards_from_mask(mask: int) -> tuple[int, ...]:
    """Return the cards of a mask in ascending order.

    >>> cards_from_mask(0b101)
    (0, 2)
    """
    cards: list[int] = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return tuple(cards)
