"""The hand log's wire records: the JSON shape of ``schemas/hand.schema.json``, for msgspec.

msgspec decodes a line straight into these (types, required fields and value ranges checked
in C); :mod:`pipeline.formats.jsonl` turns them into the model's records and back. Amounts
stay text here (their meaning depends on the hand's unit), cards too. An optional field
left out is ``UNSET``: ``null`` is not a value the schema allows for any field, so it is
a ``schema-violation`` here, never read as "absent".
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, UnsetType

__all__ = [
    "ActionW",
    "BetW",
    "BoardW",
    "CallW",
    "CashOutW",
    "CheckW",
    "CollectionW",
    "DealW",
    "FeeW",
    "FoldW",
    "GameW",
    "HandOnlyW",
    "HandW",
    "MuckW",
    "PostW",
    "RaiseW",
    "ResultW",
    "SeatAmountW",
    "SeatW",
    "ShowW",
    "TournamentW",
    "UncalledW",
]


SeatNo = Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]
NonEmpty = Annotated[str, msgspec.Meta(min_length=1)]
Run = Literal[1, 2, 3]


class _Wire(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, kw_only=True, gc=False):
    """A part of a decoded line. ``gc=False``: decoded from JSON, the wire objects hold text,
    numbers and one another, never a cycle, so the garbage collector need not track them
    (msgspec then makes them quicker: some 10% of a line's decode)."""


class GameW(_Wire, kw_only=True):
    variant: str
    hole_cards: int
    betting: str
    small_blind: str
    big_blind: str
    small_bet: str | UnsetType = UNSET
    big_bet: str | UnsetType = UNSET
    ante: str | UnsetType = UNSET
    currency: Annotated[str, msgspec.Meta(pattern="^[A-Z0-9]{1,12}$")]
    unit: str
    max_seats: Annotated[int, msgspec.Meta(ge=2, le=1_000_000)] | UnsetType = UNSET
    mixed: str | UnsetType = UNSET


class SeatW(_Wire):
    seat: SeatNo
    player: NonEmpty
    stack: str
    sitting_out: bool = False
    bounty: str | UnsetType = UNSET


class _ActionW(_Wire, tag_field="type"):
    pass


class PostW(_ActionW, tag="post"):
    seat: SeatNo
    blind: Literal["small", "big", "both", "dead", "ante", "straddle"]
    amount: str
    all_in: bool = False


class DealW(_ActionW, tag="deal"):
    seat: SeatNo
    cards: str


class FoldW(_ActionW, tag="fold"):
    seat: SeatNo


class CheckW(_ActionW, tag="check"):
    seat: SeatNo


class CallW(_ActionW, tag="call"):
    seat: SeatNo
    amount: str
    all_in: bool = False


class BetW(_ActionW, tag="bet"):
    seat: SeatNo
    amount: str
    all_in: bool = False


class RaiseW(_ActionW, tag="raise"):
    seat: SeatNo
    to: str
    all_in: bool = False


class BoardW(_ActionW, tag="board"):
    cards: str
    run: Run | UnsetType = UNSET
    burn: str | UnsetType = UNSET


class ShowW(_ActionW, tag="show"):
    seat: SeatNo
    cards: str


class MuckW(_ActionW, tag="muck"):
    seat: SeatNo
    cards: str | UnsetType = UNSET


class UncalledW(_ActionW, tag="uncalled"):
    seat: SeatNo
    amount: str


ActionW = (
    PostW | DealW | FoldW | CheckW | CallW | BetW | RaiseW | BoardW | ShowW | MuckW | UncalledW
)


class CollectionW(_Wire):
    seat: SeatNo
    amount: str
    pot: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0
    run: Run | UnsetType = UNSET


class FeeW(_Wire):
    kind: NonEmpty
    amount: str


class CashOutW(_Wire):
    seat: SeatNo
    amount: str
    fee: str | UnsetType = UNSET


class SeatAmountW(_Wire):
    seat: SeatNo
    amount: str


class ResultW(_Wire):
    rake: str | UnsetType = UNSET
    total_pot: str | UnsetType = UNSET
    pots: list[str] = []
    collected: list[CollectionW] = []
    fees: list[FeeW] = []
    added: str | UnsetType = UNSET
    cash_outs: list[CashOutW] = []
    final_stacks: list[SeatAmountW] = []
    bounties: list[SeatAmountW] = []


class TournamentW(_Wire):
    id: NonEmpty
    level: str | UnsetType = UNSET
    buyin: str | UnsetType = UNSET
    currency: Annotated[str, msgspec.Meta(pattern="^[A-Z0-9]{1,12}$")] | UnsetType = UNSET
    unit: str | UnsetType = UNSET


class HandW(msgspec.Struct, omit_defaults=True, kw_only=True, gc=False):
    hand_id: NonEmpty
    site: NonEmpty
    table: str | UnsetType = UNSET
    started_at: str | UnsetType = UNSET
    game: GameW
    button: SeatNo
    seats: Annotated[list[SeatW], msgspec.Meta(min_length=1)]
    actions: list[ActionW]
    result: ResultW | UnsetType = UNSET
    tournament: TournamentW | UnsetType = UNSET
    deck: str | UnsetType = UNSET
    hero: SeatNo | UnsetType = UNSET
    cancelled: bool = False
    partial: bool = False
    converted: bool = False


class HandOnlyW(HandW, forbid_unknown_fields=True):
    """A hand with no field but the schema's (no ``_`` extras): one decode reads it whole."""
