"""The compiled settlement's and rows' view of the judged hand's structs, and its check.

In the compiled form, :mod:`pipeline.settle`, :mod:`pipeline.reconcile` and
:mod:`pipeline.lake.rows` read a judged hand (its :class:`~pipeline.rules.replay.Replay`, and
the :class:`~pipeline.pots.Pot` and :class:`~pipeline.pots.Award` structs of its settlement)
through C types (``judged_view.pxd``): a field straight from the object's memory instead of a
look-up of its name through the class, some hundred fields a hand. As with the hand's records
(:mod:`pipeline.records`), the view has to be the structs' own layout to the field:
:func:`layout_problems` builds each struct with a distinct value in every field and reads them
back through the view, and importing this module refuses to go on when the view is wrong
(settle and reconcile import it first). In the pure-Python form the reads are attribute
lookups, and the check passes by construction. The :class:`~pipeline.settle.Settlement` itself
has its view in :mod:`pipeline.lake.settlement_view`.
"""

from __future__ import annotations

from collections.abc import Callable

from pipeline.pots import Award, Pot
from pipeline.records import layout_problems as view_problems
from pipeline.rules.replay import Replay

__all__ = ["JudgedViewError", "layout_problems"]


class JudgedViewError(ImportError):
    """The compiled form's view of a judged hand's struct is not the struct's layout."""


def _replay(r: Replay) -> tuple[object, ...]:
    return (
        *(r.all_in, r.antes, r.boards, r.dead, r.folded, r.hand, r.hole_cards, r.invested),
        *(r.rules, r.seats, r.showdown, r.stacks, r.status, r.steps, r.street, r.uncalled),
        r.violations,
    )


def _pot(p: Pot) -> tuple[object, ...]:
    return (p.added, p.amount, p.eligible, p.fees, p.index, p.rake)


def _award(a: Award) -> tuple[object, ...]:
    return (a.amount, a.cards_used, a.description, a.half, a.pot, a.rules, a.runout, a.seat)


_VIEWS: tuple[tuple[type, Callable[..., tuple[object, ...]]], ...] = (
    (Replay, _replay),
    (Pot, _pot),
    (Award, _award),
)
"""Each struct with the view's reading of all its fields, in the order of their sorted names
(the order of the slots of the struct's class)."""


def layout_problems() -> list[str]:
    """Return how the view of each judged hand's struct differs from the struct (empty: it is
    right), checked as the records' view is (:func:`pipeline.records.layout_problems`).

    >>> layout_problems()
    []
    """
    return view_problems(_VIEWS)


_PROBLEMS = layout_problems()
if _PROBLEMS:
    raise JudgedViewError(
        "croupier's compiled form does not see the judged hand's structs as "
        "pipeline/rules/replay.py and pipeline/pots.py define them "
        f"({'; '.join(_PROBLEMS)}): update pipeline/judged_view.pxd and "
        "pipeline/judged_view.py to the structs' fields, then run `make install`"
    )
