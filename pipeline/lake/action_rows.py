"""The rows of ``actions``: one per action of the log, from its replay's step.

:class:`~pipeline.lake.rows.ChunkRows` gathers a batch's rows of every other table and
flushes these with them. A step's values are written into typed columns while the step is
at hand; an action the replay did not reach (it stopped at a fatal violation) gets a row
of the log's own values.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np
import pyarrow as pa

from pipeline.lake.columns import ABSENT, Columns, card_text, text_array
from pipeline.model import Action, ActionType, HandRecord
from pipeline.rules import Replay, context
from pipeline.rules.context import NO_CHIPS, STEP_FIELDS, Step, StepValues
from pipeline.rules.state import Street

__all__ = ["ACTION_INTS", "ActionRows", "add_action_rows", "stopped_early"]

ACTION_INTS = (
    *("to_amount" if name == "to" else name for name in STEP_FIELDS if name != "codes"),
    "runout",
    "player",
)
"""The actions' columns kept as integers, in :func:`_add_step_rows`' order: a step's
fields (``to`` as ``to_amount``), ``street`` and ``type`` as their codes in
:data:`_STREET_LABELS` and :data:`_TYPE_LABELS`, ``all_in`` as 0 or 1; then the action's
``runout``, and the player as their place in :attr:`ActionRows.names`."""
_AS_CODES = {
    "street": pa.field("street", pa.int8()),
    "type": pa.field("type", pa.int8()),
    "all_in": pa.field("all_in", pa.int8()),
    "player": pa.field("player", pa.int64()),
}
"""The actions' columns gathered as integers, then made dictionaries, flags or names
(:meth:`ActionRows.columns`)."""

_STREET_LABELS = pa.array([street.label for street in sorted(Street)], pa.string())
_TYPE_LABELS = pa.array([kind.value for kind in ActionType], pa.string())

_TYPE_CODES = {kind: code for code, kind in enumerate(ActionType)}
"""Each action type's code in the actions' ``type`` column (a dictionary of every type's
name: :meth:`ActionRows.columns`)."""

_Unreplayed = tuple[
    int,
    None,
    int | None,
    ActionType,
    int | None,
    int | None,
    None,
    None,
    None,
    None,
    None,
    None,
    tuple[()],
]
"""A row of ``actions`` for an action the replay did not reach, in :class:`Step`'s order."""


def stopped_early(judged: Replay, hand: HandRecord) -> bool:
    """Tell whether the replay stopped (at a fatal violation) before the log's last action:
    then some actions have no step."""
    return len(judged.steps) < len(hand.actions)


class ActionRows:
    """A batch's rows of ``actions``: their values in typed columns (:data:`ACTION_INTS`,
    and the cards as text), each hand's players once (:attr:`names`), and the joined
    codes of the rows with a violation, by row (:attr:`notes`: most rows have none)."""

    def __init__(self, capacity: int = 1024) -> None:
        self.values = Columns(ACTION_INTS, ("cards",), capacity=capacity)
        self.names: list[str] = []
        self.notes: dict[int, str] = {}

    def empty(self) -> ActionRows:
        """Return a new buffer, with room for a quarter more rows than this one's."""
        return ActionRows(self.values.n + self.values.n // 4)

    def columns(self, schema: pa.Schema) -> dict[str, pa.Array]:
        """Return the columns filled (but the keys): ``street`` and ``type`` as
        dictionaries of every street's and type's name, ``all_in`` as flags, ``player``
        taken from the names, ``violation`` from the notes."""
        n = self.values.n
        columns = self.values.columns({f.name: f for f in schema} | _AS_CODES)
        columns["street"] = pa.DictionaryArray.from_arrays(columns["street"], _STREET_LABELS)
        columns["type"] = pa.DictionaryArray.from_arrays(columns["type"], _TYPE_LABELS)
        columns["all_in"] = columns["all_in"].cast(pa.bool_())
        columns["player"] = text_array(self.names, pa.string()).take(columns["player"])
        if not self.notes:
            columns["violation"] = pa.nulls(n, pa.string())
            return columns
        joined: list[str | None] = [None] * n
        for row, text in self.notes.items():
            joined[row] = text
        columns["violation"] = text_array(joined, pa.string())
        return columns


def add_action_rows(out: ActionRows, hand: HandRecord, judged: Replay) -> int:
    """Add a row to ``out`` per action of the log; return how many.

    Every action of the log has a row: one the replay did not reach (it stopped at a
    fatal violation) has the log's own values and none of the rules' (street, pot …), and
    then every row of the hand is added from values (:func:`_with_unreplayed`).
    """
    players = _add_players(out.names, hand)
    if stopped_early(judged, hand):
        rows = _with_unreplayed(judged, hand)
        return _add_value_rows(out.values, out.notes, rows, hand.actions, players)
    return _add_step_rows(out.values, out.notes, judged.steps, hand.actions, players)


def _add_players(names: list[str], hand: HandRecord) -> dict[int | None, int]:
    """Add the name of each seat's player to ``names``; return each seat's place there."""
    first = len(names)
    places: dict[int | None, int] = {}
    for s in hand.seats:
        places[s.seat] = first + len(places)
        names.append(s.player)
    return places


def _add_step_rows(
    out: Columns,
    notes: dict[int, str],
    steps: tuple[Step, ...],
    actions: tuple[Action, ...],
    players: dict[int | None, int],
) -> int:
    """Add a row per step (compiled, read from its C fields), with its action's cards and
    runout and its player's place in the names, and the codes of a step that has any to
    ``notes``; return how many."""
    n = len(steps)
    out.reserve(n)
    view = out.view
    row = out.n
    cards_col = out.text[0]
    type_codes = _TYPE_CODES
    for i in range(n):
        step = steps[i]
        action = actions[step.seq]
        view[0, row] = step.seq
        view[1, row] = step.street
        view[2, row] = _ABSENT if step.seat is None else step.seat
        view[3, row] = type_codes[step.type]
        # the chips as the step keeps them (C integers when compiled), NO_CHIPS for none
        view[4, row] = _ABSENT if step._amount == _NO_CHIPS else step._amount
        view[5, row] = _ABSENT if step._to == _NO_CHIPS else step._to  # to_amount
        view[6, row] = step.pot_before
        view[7, row] = _ABSENT if step._stack_before == _NO_CHIPS else step._stack_before
        view[8, row] = _ABSENT if step._to_call == _NO_CHIPS else step._to_call
        view[9, row] = _ABSENT if step._min_to == _NO_CHIPS else step._min_to
        view[10, row] = _ABSENT if step._max_to == _NO_CHIPS else step._max_to
        view[11, row] = step.all_in
        _add_action_part(view, cards_col, notes, row, action, players.get(step.seat), step.codes)
        row += 1
    out.n = row
    return n


def _add_value_rows(
    out: Columns,
    notes: dict[int, str],
    rows: list[StepValues | _Unreplayed],
    actions: tuple[Action, ...],
    players: dict[int | None, int],
) -> int:
    """Add a row per step's values (:meth:`Step.values`, or an action the replay did not
    reach: None where the rules' values would be), as :func:`_add_step_rows` adds steps;
    return how many."""
    n = len(rows)
    out.reserve(n)
    view = out.view
    row = out.n
    cards_col = out.text[0]
    type_codes = _TYPE_CODES
    for values in rows:
        seq, street, seat, kind, amount, to, pot, stack, to_call, min_to, max_to, all_in, codes = (
            values
        )
        action = actions[seq]
        view[0, row] = seq
        view[1, row] = _ABSENT if street is None else street
        view[2, row] = _ABSENT if seat is None else seat
        view[3, row] = type_codes[kind]
        view[4, row] = _ABSENT if amount is None else amount
        view[5, row] = _ABSENT if to is None else to
        view[6, row] = _ABSENT if pot is None else pot
        view[7, row] = _ABSENT if stack is None else stack
        view[8, row] = _ABSENT if to_call is None else to_call
        view[9, row] = _ABSENT if min_to is None else min_to
        view[10, row] = _ABSENT if max_to is None else max_to
        view[11, row] = _ABSENT if all_in is None else all_in
        _add_action_part(view, cards_col, notes, row, action, players.get(seat), codes)
        row += 1
    out.n = row
    return n


def _add_action_part(
    view: np.ndarray,
    cards_col: list[object],
    notes: dict[int, str],
    row: int,
    action: Action,
    place: int | None,
    codes: tuple[str, ...],
) -> int:
    """Write the part of an action's row that :func:`_add_step_rows` and
    :func:`_add_value_rows` both take from the action, not from the step or its values:
    the runout, the player's place in the names, the cards, and the codes found at it
    (joined, into ``notes``). Returns 0 (compiled, a C function: -1 says it raised)."""
    view[12, row] = _ABSENT if action.run is None else action.run  # runout
    view[13, row] = _ABSENT if place is None else place  # player
    dealt = action.cards
    cards_col.append(None if dealt is None else card_text(dealt))
    if codes:
        notes[row] = ",".join(codes)
    return 0


_ABSENT = ABSENT  # a C constant in the compiled form
_NO_CHIPS = NO_CHIPS  # a C constant in the compiled form


def _with_unreplayed(judged: Replay, hand: HandRecord) -> list[StepValues | _Unreplayed]:
    """Return the steps' values (:meth:`Step.values`) with a row added, in order, for each
    action the replay did not reach: its seat, type, and amount and raise total as the log
    records them."""
    steps = judged.steps
    reached = {step.seq for step in steps}
    rows: list[StepValues | _Unreplayed] = list(context.step_values(steps))
    for seq, a in enumerate(hand.actions):
        if seq not in reached:
            none = None  # what the rules compute: pot, stack, call, range, all-in
            rows.append(
                (seq, None, a.seat, a.type, a.amount, a.to, none, none, none, none, none, none, ())
            )
    rows.sort(key=itemgetter(0))
    return rows
