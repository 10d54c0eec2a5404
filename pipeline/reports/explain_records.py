"""The records of an explanation: plain data that :mod:`pipeline.reports.explain` fills
and :mod:`pipeline.reports.explain_render` renders (money as ``int`` units of the hand's
``scale``, cards as text)."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.reports.rule_text import rule_title

__all__ = [
    "CASH_OUT_RULE",
    "ActionRow",
    "Board",
    "Explanation",
    "Note",
    "PlayerMoney",
    "PotRow",
    "Problem",
    "RuleQuote",
    "SeatRow",
    "Share",
    "ShownHand",
]

CASH_OUT_RULE = "R9.cash-out"
"""The rule a cash-out is paid by: the cash-out amount instead of the player's share."""


@dataclass(frozen=True, slots=True)
class RuleQuote:
    """A RULES.md rule: its id and its text (empty for an id RULES.md lacks)."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class Problem:
    """A violation, where it was found (``seq``: the action, ``None``: the whole hand)."""

    code: str
    severity: str
    seq: int | None
    seat: int | None
    player: str | None
    message: str
    expected: str | None
    actual: str | None
    rule: RuleQuote


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat at the start of the hand; ``position`` is empty for a seat not dealt in."""

    seat: int
    player: str
    position: str
    stack: int
    dealt_in: bool
    hole_cards: str


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One recorded action, with the state before it and the range it was judged by.

    ``amount`` is the chips the action moved, ``to_amount`` the street total after a bet
    or raise; ``to_call``, ``min_to`` and ``max_to`` are set for betting actions
    (``min_to``/``max_to`` only when a bet or raise was allowed); ``legal`` says the same
    in words. ``line`` is the action's line in ``source`` (``None``: not known).
    ``pot_before`` is ``None`` for an action the replay did not reach (it stopped before).
    """

    seq: int
    street: str
    seat: int | None
    player: str | None
    type: str
    description: str
    amount: int | None
    to_amount: int | None
    cards: str
    all_in: bool
    pot_before: int | None
    stack_before: int | None
    to_call: int | None
    min_to: int | None
    max_to: int | None
    legal: str
    problems: tuple[Problem, ...]
    line: int | None


@dataclass(frozen=True, slots=True)
class Board:
    """The board of one runout (``runout`` 1 unless the board was run more than once)."""

    runout: int
    cards: str


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand at showdown on one runout: its best high (and low) and the five cards used."""

    runout: int
    seat: int
    player: str
    hole_cards: str
    high: str
    high_cards: str
    low: str
    low_cards: str


@dataclass(frozen=True, slots=True)
class Share:
    """A part of a pot paid to a player (per runout and half), with the rules applied."""

    runout: int
    half: str
    seat: int
    player: str
    amount: int
    hand: str
    cards_used: str
    rules: tuple[RuleQuote, ...]


@dataclass(frozen=True, slots=True)
class Note:
    """A sentence about the hand or about how a pot was divided, and the rule it follows."""

    text: str
    rule: RuleQuote | None


@dataclass(frozen=True, slots=True)
class PotRow:
    """One pot: chips before rake, what the site took or added, who could win, who won."""

    index: int
    name: str
    amount: int
    rake: int
    fees: int
    added: int
    net: int
    eligible: tuple[int, ...]
    eligible_players: tuple[str, ...]
    shares: tuple[Share, ...]
    notes: tuple[Note, ...]


@dataclass(frozen=True, slots=True)
class PlayerMoney:
    """One player's money: recomputed by the rules beside what the log recorded.

    ``won_recorded``/``final_recorded`` are ``None`` when the log records none;
    ``matches`` is ``None`` when there is nothing to compare. A player who cashed out
    is paid ``cash_out`` instead of ``won`` (R9.cash-out), which ``final_stack`` counts;
    ``cash_out_fee`` is what the site kept, already taken off ``cash_out``.
    """

    seat: int
    player: str
    invested: int
    won: int
    won_recorded: int | None
    final_stack: int
    final_recorded: int | None
    cash_out: int | None
    matches: bool | None
    cash_out_fee: int | None = None
    returned_in_collection: int = 0
    """An uncalled bet the log pays as part of the seat's collection, with no line of its
    own (some converters): the collection is compared with ``won`` plus it."""


@dataclass(frozen=True, slots=True)
class Explanation:
    """The dispute view of one hand (see the module docstring)."""

    croupier_id: str
    hand_id: str
    site: str
    table: str | None
    game: str
    variant: str
    betting: str
    hole_cards: int
    currency: str
    scale: int
    small_blind: int
    big_blind: int
    ante: int
    small_bet: int | None
    big_bet: int | None
    button: int
    started_at: str | None
    local_time: str | None
    tournament: str | None
    source: str
    line: int
    rules: str
    status: str
    payouts_match: bool | None
    flags: tuple[str, ...]
    seats: tuple[SeatRow, ...]
    actions: tuple[ActionRow, ...]
    boards: tuple[Board, ...]
    showdown: tuple[ShownHand, ...]
    pots: tuple[PotRow, ...]
    players: tuple[PlayerMoney, ...]
    total_pot: int
    """The pots' total; for a hand without pots (void, or stopped), the chips put in (as
    the lake's ``hands.total_pot``)."""
    total_pot_recorded: int | None
    rake: int
    problems: tuple[Problem, ...]
    notes: tuple[Note, ...]
    unsettled: str | None
    """Why the rules could not award the pots of a hand that reached a showdown (a card
    dealt twice, say); ``None`` when they could, or when the hand is void, partial or
    stopped (its status says why)."""
    returned_in_collections: int = 0
    """Uncalled bets the log counts in its total pot and pays in its collections, with no
    line of their own (some converters): its total is compared with ``total_pot`` plus them."""

    @property
    def rules_cited(self) -> tuple[RuleQuote, ...]:
        """Return every rule the explanation cites, once each, in order of first citation."""
        seen: dict[str, RuleQuote] = {}
        for note in self.notes:
            if note.rule is not None:
                seen.setdefault(note.rule.id, note.rule)
        for problem in self.problems:
            seen.setdefault(problem.rule.id, problem.rule)
        for pot in self.pots:
            for note in pot.notes:
                if note.rule is not None:
                    seen.setdefault(note.rule.id, note.rule)
            for share in pot.shares:
                for quote in share.rules:
                    seen.setdefault(quote.id, quote)
        if any(p.cash_out is not None for p in self.players):
            seen.setdefault(CASH_OUT_RULE, RuleQuote(CASH_OUT_RULE, rule_title(CASH_OUT_RULE)))
        return tuple(seen.values())
