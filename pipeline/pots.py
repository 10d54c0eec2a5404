"""The arithmetic of pots: main and side pots from the chips put in, even splits, rake.

Plain functions of integers (minor units) and indices, used by settlement
(:mod:`pipeline.settle`); RULES.md ``R8.side-pots``, ``R8.odd-chips`` and
``R8.rake-allocation`` say what they compute. Also the records a settlement is made of:
each :class:`Pot` and each :class:`Award` (a share of a pot, per runout and half).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from msgspec import Struct

__all__ = ["Award", "Half", "Pot", "allocate_rake", "build_pots", "listed_shares", "split_evenly"]


class Half(StrEnum):
    """Which part of a pot an award is: all of it, or its high or low half."""

    WHOLE = "whole"
    HIGH = "high"
    LOW = "low"


class Pot(Struct, frozen=True, gc=False):
    """One pot: its chips before rake, who may win it (seats), and what the site took
    from it (rake, other fees such as a jackpot drop) or added to it (STP, "add to pot")."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    rake: int = 0
    fees: int = 0
    added: int = 0

    @property
    def net(self) -> int:
        """Return the chips the pot pays out: less rake and fees, plus money added."""
        return self.amount - self.rake - self.fees + self.added


class Award(Struct, frozen=True, gc=False):
    """A share of a pot (per runout and half) paid to a seat, with the rules it applied."""

    pot: int
    runout: int
    half: Half
    seat: int
    amount: int
    description: str = ""
    cards_used: tuple[int, ...] = ()
    rules: tuple[str, ...] = ()


def _layers(amounts: Sequence[int], folded: Sequence[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """Cut contributions into pots at the levels of the players still in.

    With ``S(x)`` the sum of ``min(c, x)`` over every contribution ``c``, the pot between
    two levels holds ``S(level) - S(below)`` (``below`` starts at 0); each ``S`` is one
    plain loop, the one before carried over.
    """
    n = len(amounts)
    if len(folded) != n:
        raise ValueError(f"{n} contributions but {len(folded)} folded flags")
    levels: set[int] = set()
    live: list[int] = []  # the players still in
    previous = 0  # S(0): only a negative contribution counts below level 0
    for i in range(n):  # by index, not zip: the compiled form reads C integers
        c = amounts[i]
        if not folded[i]:
            levels.add(c)
            live.append(i)
        if c < 0:
            previous += c
    pots: list[tuple[int, tuple[int, ...]]] = []
    below = 0
    for level in sorted(levels):
        total = 0
        for c in amounts:
            total += c if c < level else level
        if total != previous:
            eligible = []
            for i in live:
                c = amounts[i]  # a C integer, compared with the level as one
                if c >= level:
                    eligible.append(i)
            pots.append((total - previous, tuple(eligible)))
        previous = total
        below = level
    rest = 0
    for c in amounts:
        if c > below:
            rest += c - below
    if rest:
        if pots:
            amount, eligible_seats = pots[-1]
            pots[-1] = (amount + rest, eligible_seats)
        else:
            pots.append((rest, tuple(live)))
    return pots


def build_pots(
    invested: Sequence[int],
    folded: Sequence[bool],
    dead: Sequence[int] = (),
    antes: Sequence[int] = (),
) -> list[tuple[int, tuple[int, ...]]]:
    """Split the chips put in into a main pot and side pots: ``(amount, eligible indices)``.

    Live chips (``invested`` less ``dead``) are cut at the levels the players still in
    reached; each pot holds every player's chips between two levels, and only players in
    for the upper level may win it. Antes (``antes[i]``, part of ``dead[i]``) are cut the
    same way on their own, so a player all-in on part of an ante wins only what they
    matched. Other dead money (a dead small blind) belongs to the main pot, which a player
    all-in on dead money alone may win too (with no live chips, that pot is the dead money
    alone). Pots open to the same players are one pot.

    >>> build_pots([50, 100, 100, 30], [False, False, False, True])
    [(180, (0, 1, 2)), (100, (1, 2))]
    >>> build_pots([150, 100], [False, False], dead=[50, 0])
    [(250, (0, 1))]
    >>> build_pots([10, 110, 110], [False, False, False], dead=[10, 10, 10], antes=[10, 10, 10])
    [(30, (0, 1, 2)), (200, (1, 2))]
    >>> build_pots([5, 10, 10], [False, False, False], dead=[5, 10, 10], antes=[5, 10, 10])
    [(15, (0, 1, 2)), (10, (1, 2))]
    >>> build_pots([10, 10, 10, 5], [False, False, False, False], dead=[0, 0, 0, 5])
    [(5, (0, 1, 2, 3)), (30, (0, 1, 2))]
    """
    n = len(invested)
    dead = dead or [0] * n
    antes = antes or [0] * n
    if len(dead) == n and not any(dead):  # no dead money (the common case): all chips live
        live: Sequence[int] = invested
    else:
        live = [c - d for c, d in zip(invested, dead, strict=True)]
    other_dead = sum(dead) - sum(antes)
    if not any(antes):
        pots = _layers(live, folded)
    else:
        pots = _layers(antes, folded)
        for amount, eligible in _layers(live, folded):
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
    if other_dead:
        everyone = tuple([i for i in range(n) if not folded[i]])
        if pots and pots[0][1] == everyone:
            pots[0] = (pots[0][0] + other_dead, everyone)
        else:  # a player all-in on dead money alone matched no live chips: a pot of its own
            pots.insert(0, (other_dead, everyone))
    return pots


def split_evenly(amount: int, parts: int) -> list[int]:
    """Split ``amount`` into ``parts`` shares differing by at most one unit, larger first.

    >>> split_evenly(7, 3)
    [3, 2, 2]
    """
    share, odd = divmod(amount, parts)
    if not odd:
        return [share] * parts
    return [share + 1] * odd + [share] * (parts - odd)


def listed_shares(amounts: Sequence[int], listed: Sequence[int], taken: int) -> list[int] | None:
    """Return what a log that lists each pot after what the site takes takes from each
    pot, when the listing adds up to ``taken``; ``None`` when it lists none or does not.

    >>> listed_shares([600, 400], [590, 397], 13), listed_shares([600, 400], [590, 390], 13)
    ([10, 3], None)
    """
    if not listed or len(listed) != len(amounts):
        return None
    shares = [a - net for a, net in zip(amounts, listed, strict=True)]
    if min(shares) < 0 or sum(shares) != taken:
        return None
    return shares


def allocate_rake(
    amounts: Sequence[int], rake: int, *, listed: Sequence[int] = (), policy: str = "proportional"
) -> list[int]:
    """Spread the recorded rake over the pots (``R8.rake-allocation``).

    When the log lists each pot after rake (as PokerStars does) and the listing adds up,
    the listing decides. Otherwise ``proportional`` (the remainder to the main pot) or
    ``main-pot-first``.

    >>> allocate_rake([600, 300, 100], 30)
    [18, 9, 3]
    >>> allocate_rake([100, 50], 7, policy="main-pot-first")
    [7, 0]
    """
    if rake == 0:  # every way of sharing nothing gives nothing to each pot
        return [0] * len(amounts)
    total = sum(amounts)
    shares = listed_shares(amounts, listed, rake)
    if shares is not None:
        return shares
    if not amounts:
        return []
    if policy == "main-pot-first":
        shares, left = [], rake
        for a in amounts:
            take = min(a, left)
            shares.append(take)
            left -= take
        shares[0] += left
        return shares
    shares = [rake * a // total if total else 0 for a in amounts]
    left = rake - sum(shares)  # the remainder: to the main pot, and on where it is full
    for k, a in enumerate(amounts):
        take = min(left, a - shares[k]) if k + 1 < len(amounts) else left
        shares[k] += take
        left -= take
    return shares
