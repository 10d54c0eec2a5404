"""Money as integer minor units: decimal text in, decimal text out, never a float.

A hand's smallest unit is written as decimal text (``"0.01"`` for cents, ``"1"`` for
tournament chips) and must be a power of ten; its **scale** is the number of decimals
(2 for cents, 0 for chips). An amount is stored as an ``int`` of units, so
``amount / 10**scale`` is its decimal value. Text with more precision than the unit is an
error, never rounded.

>>> scale_of_unit("0.01")
2
>>> parse_amount("3.5", 2)
350
>>> format_amount(350, 2)
'3.50'
>>> parse_amount("0.005", 2)
Traceback (most recent call last):
...
pipeline.money.AmountError: more decimals than the unit allows (2): '0.005'
"""

from __future__ import annotations

__all__ = [
    "MAX_SCALE",
    "AmountError",
    "format_amount",
    "format_unit",
    "parse_amount",
    "scale_of_unit",
]

MAX_SCALE = 8
"""The finest unit accepted: 10**-8 (a satoshi)."""

MAX_DIGITS = 30
"""Longest run of integer digits accepted; anything longer is not money but an attack."""

_DIGITS = frozenset("0123456789")


class AmountError(ValueError):
    """Decimal text that is not an amount in the given unit (reject code ``bad-amount``)."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{reason}: {text!r}")
        self.text = text
        self.reason = reason


def _is_digits(text: str) -> bool:
    return bool(text) and text.isascii() and text.isdigit()


def scale_of_unit(unit: str) -> int:
    """Return the scale (number of decimals) of a unit such as ``"0.01"`` or ``"1"``.

    The unit must be ``1`` or ``0.0…01``: a power of ten no larger than one.

    >>> scale_of_unit("1"), scale_of_unit("0.001")
    (0, 3)
    >>> scale_of_unit("0.05")
    Traceback (most recent call last):
    ...
    pipeline.money.AmountError: unit must be 1 or 0.0…01: '0.05'
    """
    if unit == "1":
        return 0
    whole, dot, frac = unit.partition(".")
    if (
        whole == "0"
        and dot
        and 0 < len(frac) <= MAX_SCALE
        and frac.endswith("1")
        and set(frac[:-1]) <= {"0"}
    ):
        return len(frac)
    raise AmountError(unit, "unit must be 1 or 0.0…01")


def format_unit(scale: int) -> str:
    """Return the unit text of a scale: the inverse of :func:`scale_of_unit`.

    >>> format_unit(2), format_unit(0)
    ('0.01', '1')
    """
    if not 0 <= scale <= MAX_SCALE:
        raise ValueError(f"scale out of range: {scale}")
    return "1" if scale == 0 else "0." + "0" * (scale - 1) + "1"


def parse_amount(text: str, scale: int, *, signed: bool = False) -> int:
    """Parse decimal text (``"12"``, ``"0.5"``, ``"1.50"``) to integer units of ``10**-scale``.

    Accepts ASCII digits with at most one ``.`` and digits on both sides of it; a leading
    ``-`` only when ``signed``. Trailing zeros beyond the scale are allowed (``"1.500"`` at
    scale 2), other extra precision is an :class:`AmountError`, as are exponents, spaces,
    thousands separators and empty text.

    >>> parse_amount("1.500", 2), parse_amount("7", 0)
    (150, 7)
    >>> parse_amount("-2.25", 2, signed=True)
    -225
    """
    body = text
    negative = False
    if body[:1] == "-":
        if not signed:
            raise AmountError(text, "negative amount")
        negative = True
        body = body[1:]
    whole, dot, frac = body.partition(".")
    if not _is_digits(whole) or (dot and not _is_digits(frac)):
        raise AmountError(text, "not a decimal amount")
    if len(whole) > MAX_DIGITS:
        raise AmountError(text, "amount too large")
    if len(frac) > scale:
        extra = frac[scale:]
        if extra.strip("0"):
            raise AmountError(text, f"more decimals than the unit allows ({scale})")
        frac = frac[:scale]
    value = int(whole + frac.ljust(scale, "0")) if scale else int(whole)
    return -value if negative else value


def format_amount(amount: int, scale: int) -> str:
    """Format integer units as canonical decimal text with exactly ``scale`` decimals.

    >>> format_amount(5, 2), format_amount(1234, 0), format_amount(-105, 2)
    ('0.05', '1234', '-1.05')
    """
    if scale == 0:
        return str(amount)
    sign = "-" if amount < 0 else ""
    digits = str(abs(amount)).rjust(scale + 1, "0")
    return f"{sign}{digits[:-scale]}.{digits[-scale:]}"
