"""Typed access to the fields of an OHH hand, and its recorded pots (see :mod:`ohh`).

Every accessor names the field it reads (``$.ohh.players[2].starting_stack``) in the
reject it raises (:class:`Problem`): a value of the wrong type is refused, never passed
over. Money is read as decimals and kept so until the hand's scale is known (:class:`Money`).
"""

from __future__ import annotations

from decimal import Decimal

from pipeline.cards import CardError, parse_cards
from pipeline.formats.limits import ReadProblem
from pipeline.model import CashOut, Collection, Fee, RecordedResult
from pipeline.money import MAX_DIGITS, MAX_SCALE
from pipeline.violations import RejectCode

__all__ = [
    "Money",
    "Number",
    "Pots",
    "Problem",
    "cards",
    "flag",
    "integer",
    "items",
    "read_pots",
    "schema",
    "table",
    "text",
    "units",
]

Number = int | Decimal


Problem = ReadProblem
"""Input that cannot become a hand; becomes a Reject."""


def schema(field: str, message: str) -> Problem:
    return Problem(RejectCode.SCHEMA_VIOLATION, f"{field}: {message}", field)


# ------------------------------------------------------------------------ typed access


def table(value: object, field: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise schema(field, "not an object")
    return value


def items(value: object, field: str) -> list[object]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise schema(field, "not a list")
    return value


def text(table: dict[str, object], key: str, field: str) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise schema(f"{field}.{key}", "not text")
    return str(value)


def integer(table: dict[str, object], key: str, field: str) -> int | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise schema(f"{field}.{key}", "not an integer")
    return value


def flag(table: dict[str, object], key: str, field: str) -> bool | None:
    """Read a true/false field (``None`` when absent); any other value is refused."""
    value = table.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise schema(f"{field}.{key}", f"not true or false: {value!r}")


def _decimals(value: Number) -> int:
    """Return how many decimals an amount is written with (``2.50``: 2)."""
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        if isinstance(exponent, int):
            return max(0, -exponent)
    return 0


class Money:
    """Every amount read, kept as decimals until the hand's scale is known."""

    def __init__(self) -> None:
        self.seen: list[Number] = []

    def read(self, table: dict[str, object], key: str, field: str) -> Number | None:
        value = table.get(key)
        if value is None:
            return None
        at = f"{field}.{key}"
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise Problem(RejectCode.BAD_AMOUNT, f"{at}: not an amount: {value!r}", at)
        if isinstance(value, Decimal) and not value.is_finite():
            raise Problem(RejectCode.BAD_AMOUNT, f"{at}: not a finite amount", at)
        if value < 0:
            raise Problem(RejectCode.BAD_AMOUNT, f"{at}: negative amount {value}", at)
        if value >= 10**MAX_DIGITS:
            raise Problem(RejectCode.BAD_AMOUNT, f"{at}: amount too large", at)
        self.seen.append(value)
        return value

    def need(self, table: dict[str, object], key: str, field: str) -> Number:
        """Read an amount the hand cannot do without: a missing one is refused, not 0."""
        value = self.read(table, key, field)
        if value is None:
            raise schema(f"{field}.{key}", "missing")
        return value

    def scale(self) -> int:
        scale = max(map(_decimals, self.seen), default=0)
        if scale > MAX_SCALE:
            written = next(v for v in self.seen if _decimals(v) == scale)
            message = (
                f"an amount written with {scale} decimals ({written}); at most {MAX_SCALE} are read"
            )
            raise Problem(RejectCode.BAD_AMOUNT, message)
        return scale


def units(value: Number | None, scale: int) -> int:
    return 0 if value is None else int(value * 10**scale)


def cards(value: object, field: str) -> tuple[int, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, list) and all(isinstance(card, str) for card in value):
        text = "".join(str(card) for card in value)
    elif isinstance(value, str):
        text = value
    else:
        raise schema(field, "not cards")
    try:
        return parse_cards(text)
    except CardError as error:
        raise Problem(RejectCode.BAD_CARD, f"{field}: {error}", field) from None


class Pots:
    """The recorded pots, amounts still decimal."""

    def __init__(self) -> None:
        self.amounts: list[Number] = []
        self.rakes: list[Number] = []
        self.jackpots: list[Number] = []
        self.wins: list[tuple[int, int, Number]] = []  # seat, pot, amount
        self.cash_outs: list[tuple[int, Number, Number | None]] = []
        self.unread: list[str] = []  # what the hand does not count, said in its extras

    def result(self, scale: int, added: int) -> RecordedResult:
        """The recorded result: each pot after rake and jackpot (OHH: amount = wins + rake
        + jackpot); the total pot is the players' chips, without the money the site added
        (which the main pot's amount holds)."""
        nets = [
            units(a, scale) - units(r, scale) - units(j, scale)
            for a, r, j in zip(self.amounts, self.rakes, self.jackpots, strict=True)
        ]
        jackpot = sum(units(j, scale) for j in self.jackpots)
        return RecordedResult(
            rake=sum(units(r, scale) for r in self.rakes),
            total_pot=sum(units(a, scale) for a in self.amounts) - added,
            pots=tuple(nets),
            collected=tuple(Collection(s, units(a, scale), pot=p) for s, p, a in self.wins),
            fees=(Fee("jackpot", jackpot),) if jackpot else (),
            added=added,
            cash_outs=self._cash_outs(scale),
        )

    def _cash_outs(self, scale: int) -> tuple[CashOut, ...]:
        """One cash-out per player, in seat order: OHH writes one on each ``player_wins``
        entry, so a player who cashed out of a main and a side pot has two, paid both."""
        paid: dict[int, tuple[int, int]] = {}
        for seat, amount, fee in self.cash_outs:
            before, fees = paid.get(seat, (0, 0))
            paid[seat] = (before + units(amount, scale), fees + units(fee, scale))
        return tuple(CashOut(seat, a, f) for seat, (a, f) in sorted(paid.items()))


def read_pots(pots: list[dict[str, object]], money: Money, ids: dict[int, int]) -> Pots:
    read = Pots()
    ordered = []
    for k, pot in enumerate(pots):
        at = f"$.ohh.pots[{k}]"
        number = integer(pot, "number", at)
        ordered.append((k if number is None else number, k, pot))
    numbers = [number for number, _, _ in ordered]
    for number in numbers:
        if numbers.count(number) > 1:
            raise schema("$.ohh.pots", f"pot number {number} appears {numbers.count(number)} times")
    if sorted(numbers) != list(range(len(numbers))):
        listed = ", ".join(map(str, sorted(numbers)))
        message = (
            f"pots numbered {listed}: they must be numbered 0 (the main pot), then 1, 2 ... "
            "(the side pots), with no gap, for each win to be checked against its pot"
        )
        raise schema("$.ohh.pots", message)
    for number, k, pot in sorted(ordered, key=lambda row: row[:2]):
        at = f"$.ohh.pots[{k}]"
        read.amounts.append(money.need(pot, "amount", at))
        read.rakes.append(money.read(pot, "rake", at) or 0)
        read.jackpots.append(money.read(pot, "jackpot", at) or 0)
        for j, raw in enumerate(items(pot.get("player_wins"), f"{at}.player_wins")):
            field = f"{at}.player_wins[{j}]"
            win = table(raw, field)
            pid = integer(win, "player_id", field)
            if pid is None or pid not in ids:
                raise Problem(RejectCode.MALFORMED_HAND, f"{field}: no player {pid!r}", field)
            read.wins.append((ids[pid], number, money.need(win, "win_amount", field)))
            cash = money.read(win, "cashout_amount", field)
            fee = money.read(win, "cashout_fee", field)
            if cash:
                read.cash_outs.append((ids[pid], cash, fee))
            elif fee:
                raise schema(f"{field}.cashout_fee", "a cash-out fee without a cashout_amount")
            bonus = money.read(win, "bonus_amount", field)
            if bonus:
                read.unread.append(
                    f"bonus_amount {bonus} to player {pid}, paid beside the pot ({field})"
                )
    return read
