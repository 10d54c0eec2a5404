"""Rule sets: named, versioned bundles of the options RULES.md leaves to the card room.

A rule set's ``name`` and ``version`` travel with every result, so a later change of
rules never silently rewrites history. Site profiles start from the standard set and
override only what the site does differently.

>>> rules = get_rule_set("standard")
>>> rules.label, rules.cap_heads_up
('standard-2026.1', 'capped')
>>> get_rule_set("pokerstars").label
'pokerstars-2026.1'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

__all__ = [
    "RULE_SETS",
    "STANDARD",
    "RuleSet",
    "UnknownRuleSet",
    "get_rule_set",
]

CapHeadsUp = Literal["capped", "uncapped-if-two-at-round-start", "uncapped-when-two-remain"]
OddChips = Literal["high-first-then-left-of-button", "left-of-button"]
ShowdownOrder = Literal["river-aggressor-else-button", "last-aggressor-any-street"]
RakeAllocation = Literal["proportional", "main-pot-first"]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The options of RULES.md with their documented defaults (rule ids in comments)."""

    name: str = "standard"
    version: str = "2026.1"
    # R5.limit-cap-heads-up
    cap_heads_up: CapHeadsUp = "capped"
    # R5.limit-short-all-in: an all-in of at least half the limit counts as a full bet/raise
    limit_half_bet_reopens: bool = True
    # R5.limit-cap: one bet and this many raises per round
    limit_raises: int = 3
    # R2.straddle: a straddle is this many big blinds (no- and pot-limit: at least this many;
    # a site that allows bigger straddles records them)
    straddle_multiple: int = 2
    # R8.odd-chips
    odd_chips: OddChips = "high-first-then-left-of-button"
    # R8.showdown-order
    showdown_order: ShowdownOrder = "river-aggressor-else-button"
    # R8.rake-allocation
    rake_allocation: RakeAllocation = "proportional"

    @property
    def label(self) -> str:
        """Return ``name-version``, the form stored with every judged hand."""
        return f"{self.name}-{self.version}"

    def options(self) -> dict[str, object]:
        """Return the options (everything but name and version) as a plain dict."""
        return {
            f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("name", "version")
        }


STANDARD = RuleSet()

RULE_SETS: dict[str, RuleSet] = {
    "standard": STANDARD,
    # PokerStars keeps the cap heads-up (the default) and lists each pot after rake, which
    # settles rake allocation from the log itself.
    "pokerstars": replace(STANDARD, name="pokerstars"),
}


class UnknownRuleSet(ValueError):
    """A rule-set name that is not registered."""


def get_rule_set(name: str) -> RuleSet:
    """Return a rule set by ``name`` or ``name-version`` (e.g. ``standard-2026.1``)."""
    rules = RULE_SETS.get(name)
    if rules is None:
        for candidate in RULE_SETS.values():
            if candidate.label == name:
                return candidate
        known = ", ".join(sorted(r.label for r in RULE_SETS.values()))
        raise UnknownRuleSet(f"unknown rule set {name!r}; known: {known}")
    return rules
