"""Record each generated hand's result as a site would: rake, pots after rake, collections.

The result is what the settlement of the hand's own replay pays, so a clean generated
hand reconciles to the unit. Rake is a percentage of the pot with a cap, taken only when
a flop was dealt ("no flop, no drop"); tournaments pay none. Payout faults (a wrong
winner, a missing odd chip, a side pot paid to a player not in it, wrong rake) are made
here, on the recorded result, after the hand is settled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from msgspec.structs import replace

from pipeline.generate.faults import FaultPlan, mark
from pipeline.model import ActionType, Collection, HandRecord, RecordedResult, Status
from pipeline.rules import Replay, RuleSet, replay
from pipeline.settle import Settlement, settle_many
from pipeline.violations import Code

__all__ = ["PAYOUT_FAULTS", "RakePolicy", "record_results"]

PAYOUT_FAULTS: tuple[str, ...] = (
    "wrong-winner",
    "missing-odd-chip",
    "ineligible-side-pot",
    "wrong-rake",
)
"""The kinds of payout fault: the first three are payout-mismatch, the last rake-mismatch."""


@dataclass(frozen=True, slots=True)
class RakePolicy:
    """Rake as a cash game takes it: ``basis_points`` of the pot (500 = 5%), at most
    ``cap_big_blinds`` big blinds, and nothing when no flop was dealt."""

    basis_points: int = 500
    cap_big_blinds: int = 3

    def rake(self, hand: HandRecord, pot: int) -> int:
        """Return the rake of a pot of ``pot`` units in ``hand``."""
        if hand.tournament is not None or self.basis_points <= 0:
            return 0
        if not any(a.type is ActionType.BOARD and len(a.cards or ()) >= 2 for a in hand.actions):
            return 0
        return min(pot * self.basis_points // 10_000, self.cap_big_blinds * hand.game.big_blind)


def _result(settlement: Settlement) -> RecordedResult:
    several = _runs(settlement) > 1
    collected = tuple(
        Collection(seat=a.seat, amount=a.amount, pot=a.pot, run=a.runout if several else None)
        for a in sorted(settlement.awards, key=lambda a: (-a.pot, a.runout))
    )
    return RecordedResult(
        rake=settlement.rake,
        total_pot=sum(p.amount for p in settlement.pots),
        pots=tuple(p.net for p in settlement.pots),
        collected=collected,
    )


def _runs(settlement: Settlement) -> int:
    return max((a.runout for a in settlement.awards), default=1)


def record_results(
    hands: Sequence[HandRecord],
    payout_faults: Sequence[str | None],
    rng: random.Random,
    *,
    rules: RuleSet,
    rake: RakePolicy,
) -> list[HandRecord]:
    """Give each hand its recorded result; make the payout fault asked for, if any.

    Hands whose replay stops (a fatal fault) or cannot be settled (a broken board) get no
    result, as a site's log of such a hand would not be trusted either.
    """
    judged: list[Replay] = []
    for hand in hands:
        first = replay(hand, rules)
        cut = RakePolicy.rake(rake, hand, sum(first.invested))
        with_rake = replace(hand, result=RecordedResult(rake=cut))
        judged.append(replace(first, hand=with_rake))
    settled = settle_many(judged, rules)
    out: list[HandRecord] = []
    for hand, j, s, payout in zip(hands, judged, settled, payout_faults, strict=True):
        if j.status is Status.INVALID or not s.complete:
            out.append(hand)
            continue
        result = _result(s)
        recorded = replace(hand, result=result)
        if payout is not None:
            recorded = _payout_fault(payout, rng, recorded, s) or recorded
        out.append(recorded)
    return out


def _payout_fault(
    kind: str, rng: random.Random, hand: HandRecord, s: Settlement
) -> HandRecord | None:
    result = hand.result
    if result is None or not result.collected:
        return None
    collected = list(result.collected)
    code = Code.PAYOUT_MISMATCH
    if kind == "wrong-rake":
        if not result.rake:
            return None
        changed = replace(result, rake=result.rake + rng.choice((-1, 1)))
        return mark(replace(hand, result=changed), FaultPlan(Code.RAKE_MISMATCH, done=True))
    if kind == "missing-odd-chip":
        k = max(range(len(collected)), key=lambda n: collected[n].amount)
        if collected[k].amount < 2:
            return None
        collected[k] = replace(collected[k], amount=collected[k].amount - 1)
    elif kind == "ineligible-side-pot":
        side = [k for k, c in enumerate(collected) if c.pot > 0]
        if not side:
            return None
        k = side[0]
        pot = s.pots[collected[k].pot]
        outsiders = [seat for seat in _in_hand(hand) if seat not in pot.eligible]
        if not outsiders:
            return None
        collected[k] = replace(collected[k], seat=rng.choice(outsiders))
    else:  # wrong winner
        k = rng.randrange(len(collected))
        others = [seat for seat in _in_hand(hand) if seat != collected[k].seat]
        if not others:
            return None
        collected[k] = replace(collected[k], seat=rng.choice(others))
    changed = replace(result, collected=tuple(collected))
    return mark(replace(hand, result=changed), FaultPlan(code, done=True))


def _in_hand(hand: HandRecord) -> list[int]:
    return [s.seat for s in hand.seats if not s.sitting_out]
