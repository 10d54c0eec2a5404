"""The compiled reader's view of the JSON Lines wire structs, and its check.

In the compiled form, :mod:`pipeline.formats.jsonl` reads a decoded line's objects (the
structs of :mod:`pipeline.formats.jsonl_wire`) through C types (``wire_view.pxd``): a field
straight from the object's memory instead of a look-up of its name through the class, some
150 fields a hand. As with the hand's records (:mod:`pipeline.records`), the view has to be
the structs' own layout to the field: :func:`layout_problems` builds each struct with a
distinct value in every field and reads them back through the view, and importing this
module refuses to go on when the view is wrong. In the pure-Python form the reads are
attribute lookups, and the check passes by construction.
"""

from __future__ import annotations

from collections.abc import Callable

from pipeline.formats import jsonl_wire as wire
from pipeline.records import layout_problems as view_problems

__all__ = ["WireViewError", "layout_problems"]


class WireViewError(ImportError):
    """The compiled form's view of a wire struct is not the struct's layout."""


def _deal(w: wire.DealW) -> tuple[object, ...]:
    return (w.cards, w.seat)


def _call(w: wire.CallW) -> tuple[object, ...]:
    return (w.all_in, w.amount, w.seat)


def _fold(w: wire.FoldW) -> tuple[object, ...]:
    return (w.seat,)


def _check(w: wire.CheckW) -> tuple[object, ...]:
    return (w.seat,)


def _raise(w: wire.RaiseW) -> tuple[object, ...]:
    return (w.all_in, w.seat, w.to)


def _bet(w: wire.BetW) -> tuple[object, ...]:
    return (w.all_in, w.amount, w.seat)


def _post(w: wire.PostW) -> tuple[object, ...]:
    return (w.all_in, w.amount, w.blind, w.seat)


def _board(w: wire.BoardW) -> tuple[object, ...]:
    return (w.burn, w.cards, w.run)


def _show(w: wire.ShowW) -> tuple[object, ...]:
    return (w.cards, w.seat)


def _muck(w: wire.MuckW) -> tuple[object, ...]:
    return (w.cards, w.seat)


def _uncalled(w: wire.UncalledW) -> tuple[object, ...]:
    return (w.amount, w.seat)


def _seat(w: wire.SeatW) -> tuple[object, ...]:
    return (w.bounty, w.player, w.seat, w.sitting_out, w.stack)


def _hand(w: wire.HandW) -> tuple[object, ...]:
    return (
        *(w.actions, w.button, w.cancelled, w.converted, w.deck, w.game, w.hand_id, w.hero),
        *(w.partial, w.result, w.seats, w.site, w.started_at, w.table, w.tournament),
    )


def _result(w: wire.ResultW) -> tuple[object, ...]:
    return (
        *(w.added, w.bounties, w.cash_outs, w.collected, w.fees, w.final_stacks, w.pots),
        *(w.rake, w.total_pot),
    )


def _seat_amount(w: wire.SeatAmountW) -> tuple[object, ...]:
    return (w.amount, w.seat)


def _collection(w: wire.CollectionW) -> tuple[object, ...]:
    return (w.amount, w.pot, w.run, w.seat)


_VIEWS: tuple[tuple[type, Callable[..., tuple[object, ...]]], ...] = (
    (wire.DealW, _deal),
    (wire.CallW, _call),
    (wire.FoldW, _fold),
    (wire.CheckW, _check),
    (wire.RaiseW, _raise),
    (wire.BetW, _bet),
    (wire.PostW, _post),
    (wire.BoardW, _board),
    (wire.ShowW, _show),
    (wire.MuckW, _muck),
    (wire.UncalledW, _uncalled),
    (wire.SeatW, _seat),
    (wire.HandW, _hand),
    (wire.ResultW, _result),
    (wire.SeatAmountW, _seat_amount),
    (wire.CollectionW, _collection),
)
"""Each wire struct with the view's reading of all its fields, in the order of their sorted
names (the order of the slots of the struct's class)."""


def layout_problems() -> list[str]:
    """Return how the view of each wire struct differs from the struct (empty: it is right),
    checked as the records' view is (:func:`pipeline.records.layout_problems`).

    >>> layout_problems()
    []
    """
    return view_problems(_VIEWS)


_PROBLEMS = layout_problems()
if _PROBLEMS:
    raise WireViewError(
        "croupier's compiled form does not see the JSON Lines wire structs as "
        f"pipeline/formats/jsonl_wire.py defines them ({'; '.join(_PROBLEMS)}): update "
        "pipeline/formats/wire_view.pxd and pipeline/formats/wire_view.py to the structs' "
        "fields, then run `make install`"
    )
