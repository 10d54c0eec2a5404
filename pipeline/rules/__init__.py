"""The rules engine: replay every recorded action and judge it by the rules of Omaha.

``replay(hand, rules)`` returns a :class:`Replay`; ``legal_actions(state)`` answers "what is
legal now?" without applying anything. Rule sets are named and versioned.

``ENGINE`` says which form runs: ``"compiled"`` (Cython, the default where a C compiler was
available at install) or ``"python"``; see :mod:`pipeline.compiled`.
"""

from pipeline.compiled import ENGINE
from pipeline.rules.replay import Replay, Step, replay
from pipeline.rules.rulesets import RULE_SETS, STANDARD, RuleSet, UnknownRuleSet, get_rule_set
from pipeline.rules.state import BettingState, Legal, Street, legal_actions

__all__ = [
    "ENGINE",
    "RULE_SETS",
    "STANDARD",
    "BettingState",
    "Legal",
    "Replay",
    "RuleSet",
    "Step",
    "Street",
    "UnknownRuleSet",
    "get_rule_set",
    "legal_actions",
    "replay",
]
