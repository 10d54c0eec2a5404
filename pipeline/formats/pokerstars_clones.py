"""How the clones of PokerStars' grammar differ from it, where their logs show it.

Run It Once lists its pots before rake (taking the rake from the main pot first) and
writes a re-raise as the chips it adds; these helpers turn such records into what the
model means, deciding by the log's own totals, never by guesswork.
"""

from __future__ import annotations

from msgspec.structs import replace

from pipeline.model import Action, ActionType, Blind

__all__ = ["after_main_pot_first_rake", "raises_as_the_log_counts_them"]


def after_main_pot_first_rake(pots: tuple[int, ...], rake: int) -> tuple[int, ...]:
    """Turn pots listed before rake into pots after it, the rake taken from the main pot first.

    >>> after_main_pot_first_rake((6260, 2098), 200)
    (6060, 2098)
    """
    out = []
    for amount in pots:
        take = min(amount, rake)
        out.append(amount - take)
        rake -= take
    return tuple(out)


def _chips_put_in(actions: list[Action]) -> int:
    """Return the chips a list of actions puts in the middle (uncalled returns not taken off)."""
    total = 0
    street: dict[int, int] = {}
    for a in actions:
        seat = a.seat or 0
        if a.type is ActionType.BOARD and a.run is None:
            street = {}
        elif a.type is ActionType.POST:
            amount = a.amount or 0
            total += amount
            if a.blind not in (Blind.ANTE, Blind.DEAD):
                street[seat] = street.get(seat, 0) + amount
        elif a.type in (ActionType.CALL, ActionType.BET):
            total += a.amount or 0
            street[seat] = street.get(seat, 0) + (a.amount or 0)
        elif a.type is ActionType.RAISE:
            to = a.to or 0
            total += to - street.get(seat, 0)
            street[seat] = to
    return total


def raises_as_the_log_counts_them(
    actions: list[Action], total: int | None, site: str
) -> list[Action]:
    """Read ``raises X to Y`` the way the log's own totals count it.

    PokerStars writes Y as the raiser's total for the street. Run It Once writes, for a
    player who already had chips in on the street, the chips the raise adds; its
    uncalled-bet line and total pot then only add up that way. Both readings are tried;
    the log's total pot plus its uncalled returns decides, and the PokerStars reading is
    kept whenever it fits (or nothing can tell).
    """
    if total is None or site == "PokerStars":
        return actions
    returned = sum(a.amount or 0 for a in actions if a.type is ActionType.UNCALLED)
    target = total + returned
    if _chips_put_in(actions) == target:
        return actions
    other: list[Action] = []
    street: dict[int, int] = {}
    for a in actions:
        seat = a.seat or 0
        if a.type is ActionType.BOARD and a.run is None:
            street = {}
        elif (a.type is ActionType.POST and a.blind not in (Blind.ANTE, Blind.DEAD)) or a.type in (
            ActionType.CALL,
            ActionType.BET,
        ):
            street[seat] = street.get(seat, 0) + (a.amount or 0)
        elif a.type is ActionType.RAISE:
            before = street.get(seat, 0)
            if before and before < (a.to or 0) + before:
                a = replace(a, to=before + (a.to or 0))
            street[seat] = a.to or 0
        other.append(a)
    return other if _chips_put_in(other) == target else actions
