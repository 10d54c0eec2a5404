"""The compiled modules' view of the hand's records, and its check.

In the compiled form, a variable typed as one of the records of :mod:`pipeline.model`
(``records.pxd``) reads a field straight from the record's memory instead of looking the
name up through the record's class, a few times quicker, at every action of every hand.
That view has to be the records' own layout to the field: :func:`layout_problems` builds
each record with a distinct value in every field and reads them back through the view.
Importing this module runs it and refuses to go on when the view is wrong (the compiled
modules that read records import it first), so a record changed without its view is an
error saying what to do, never a wrong field read. In the pure-Python form the reads are
attribute lookups, and the check passes by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline import model

__all__ = ["RecordViewError", "layout_problems"]


class RecordViewError(ImportError):
    """The compiled form's view of a record is not the record's layout."""


def _action(a: model.Action) -> tuple[object, ...]:
    return (a.all_in, a.amount, a.blind, a.burn, a.cards, a.run, a.seat, a.to, a.type)


def _seat(s: model.Seat) -> tuple[object, ...]:
    return (s.bounty, s.player, s.seat, s.sitting_out, s.stack)


def _game(g: model.GameSpec) -> tuple[object, ...]:
    return (
        *(g.ante, g.betting, g.big_bet, g.big_blind, g.currency, g.hole_cards, g.max_seats),
        *(g.mixed, g.scale, g.small_bet, g.small_blind, g.variant),
    )


def _result(r: model.RecordedResult) -> tuple[object, ...]:
    return (
        *(r.added, r.bounties, r.cash_outs, r.collected, r.fees, r.final_stacks, r.pots),
        *(r.rake, r.total_pot),
    )


def _hand(h: model.HandRecord) -> tuple[object, ...]:
    return (
        *(h.actions, h.button, h.cancelled, h.converted, h.deck, h.extras, h.game, h.hand_id),
        *(h.hero, h.line, h.partial, h.result, h.seats, h.site, h.source, h.started_at),
        *(h.table, h.tournament),
    )


_VIEWS: tuple[tuple[type, Callable[..., tuple[object, ...]]], ...] = (
    (model.Action, _action),
    (model.Seat, _seat),
    (model.GameSpec, _game),
    (model.RecordedResult, _result),
    (model.HandRecord, _hand),
)
"""Each record with the view's reading of all its fields, in the order of their sorted
names (the order of the slots of the record's class)."""


def layout_problems(
    views: Sequence[tuple[type, Callable[..., tuple[object, ...]]]] | None = None,
) -> list[str]:
    """Return how the view of each record differs from the record (empty: it is right).

    ``views`` pairs msgspec structs with a compiled view's reading of all their fields, in
    the order of their sorted names; by default, the records' (:mod:`pipeline.formats.wire_view`
    passes the JSON Lines wire structs').

    >>> layout_problems()
    []
    """
    problems = []
    for record_type, read in _VIEWS if views is None else views:
        names = sorted(record_type.__struct_fields__)  # type: ignore[attr-defined]
        values = [object() for _ in names]  # a struct's constructor checks no type
        try:
            read_back = read(record_type(**dict(zip(names, values, strict=True))))
        except TypeError as error:  # a record whose layout is another size than its view
            problems.append(f"{record_type.__name__}: {error}")
            continue
        wrong = [
            name
            for name, value, got in zip(names, values, read_back, strict=False)
            if got is not value
        ]
        if len(read_back) != len(names) or wrong:
            problems.append(
                f"{record_type.__name__}: the view reads {len(read_back)} fields of "
                f"{len(names)}, and the wrong value for {', '.join(wrong) or 'none'}"
            )
    return problems


_PROBLEMS = layout_problems()
if _PROBLEMS:
    raise RecordViewError(
        "croupier's compiled form does not see the hand's records as pipeline/model.py "
        f"defines them ({'; '.join(_PROBLEMS)}): update pipeline/records.pxd and "
        "pipeline/records.py to the records' fields, then run `make install`"
    )
