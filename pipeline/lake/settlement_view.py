"""The compiled rows' view of a hand's settlement, and its check.

In the compiled form, :mod:`pipeline.lake.rows` reads a :class:`~pipeline.settle.Settlement`
through a C type (``settlement_view.pxd``), as it and :mod:`pipeline.settle` read the replay,
pots and awards (:mod:`pipeline.judged_view`, which says why and how the view is checked).
Importing this module checks it, and refuses to go on when the view is wrong (rows imports it
first). The settlement has a view of its own because :mod:`pipeline.settle` defines it: the
settlement cannot load a view of its own class.
"""

from __future__ import annotations

from pipeline.records import layout_problems as view_problems
from pipeline.settle import Settlement

__all__ = ["SettlementViewError", "layout_problems"]


class SettlementViewError(ImportError):
    """The compiled form's view of a settlement is not the struct's layout."""


def _settlement(s: Settlement) -> tuple[object, ...]:
    return (
        *(s.awards, s.complete, s.final_stacks, s.high_hands, s.low_hands, s.payouts_match),
        *(s.pots, s.rake, s.runouts, s.violations, s.won),
    )


def layout_problems() -> list[str]:
    """Return how the view of a settlement differs from the struct (empty: it is right),
    checked as the records' view is (:func:`pipeline.records.layout_problems`).

    >>> layout_problems()
    []
    """
    return view_problems(((Settlement, _settlement),))


_PROBLEMS = layout_problems()
if _PROBLEMS:
    raise SettlementViewError(
        "croupier's compiled form does not see a settlement as pipeline/settle.py defines it "
        f"({'; '.join(_PROBLEMS)}): update pipeline/lake/settlement_view.pxd and "
        "pipeline/lake/settlement_view.py to its fields, then run `make install`"
    )
