"""The lake's tables: one Arrow schema each, the single declaration of every column.

Money is ``int64`` minor units beside the hand's ``scale`` (``amount / 10**scale`` is the
decimal value); closed vocabularies are dictionary-encoded strings; timestamps are UTC.
Each column carries its description in the field metadata, which the schema snapshots in
``schemas/lake/`` and the README's table reference are made from.
"""

from __future__ import annotations

import json

import pyarrow as pa

__all__ = ["PARTITIONED", "TABLES", "describe", "snapshot"]

_ENUM = pa.dictionary(pa.int8(), pa.string())
_LABEL = pa.dictionary(pa.int32(), pa.string())
"""Open vocabularies (sites, currencies): a chunk may hold more than an int8 index counts."""
_MONEY = pa.int64()


def _f(name: str, kind: pa.DataType, doc: str, nullable: bool = True) -> pa.Field:
    return pa.field(name, kind, nullable=nullable, metadata={"doc": doc})


_KEY = [
    _f("site", _LABEL, "The site or room that dealt the hand.", False),
    _f(
        "hand_id",
        pa.string(),
        "The site's hand number; (site, hand_id) is unique in the lake.",
        False,
    ),
]

_STAT_DOCS: dict[str, str] = {
    "vpip": "Put money in voluntarily pre-flop (call, bet or raise; not a blind).",
    "vpip_opp": "Had a pre-flop decision (not a walk, not an all-in blind).",
    "pfr": "Raised pre-flop.",
    "three_bet": "Re-raised pre-flop facing exactly one raise.",
    "three_bet_opp": "Faced exactly one raise pre-flop and was allowed to raise.",
    "fold_to_three_bet": "Folded to a re-raise after raising first pre-flop.",
    "fold_to_three_bet_opp": "Raised first pre-flop and then faced a re-raise.",
    "steal": "Raised first in from the cutoff, button or small blind.",
    "steal_opp": "Pre-flop, folded to the player in the cutoff, button or small blind.",
    "cbet_flop": "The pre-flop last raiser bet the flop.",
    "cbet_flop_opp": "Was the pre-flop last raiser, saw the flop, nobody bet before them.",
    "cbet_turn": "Bet the turn after c-betting the flop.",
    "cbet_turn_opp": "C-bet the flop, saw the turn, nobody bet before them.",
    "cbet_river": "Bet the river after c-betting the turn.",
    "cbet_river_opp": "C-bet the turn, saw the river, nobody bet before them.",
    "fold_to_cbet_flop": "Folded to a flop c-bet.",
    "fold_to_cbet_flop_opp": "Faced a flop c-bet.",
    "fold_to_cbet_turn": "Folded to a turn c-bet.",
    "fold_to_cbet_turn_opp": "Faced a turn c-bet.",
    "fold_to_cbet_river": "Folded to a river c-bet.",
    "fold_to_cbet_river_opp": "Faced a river c-bet.",
    "postflop_aggressive": "Post-flop bets and raises (AF and AFq numerator).",
    "postflop_calls": "Post-flop calls (AF denominator).",
    "postflop_folds": "Post-flop folds (with bets, raises and calls: AFq denominator).",
    "saw_flop": "Saw the flop.",
    "went_to_showdown": "Saw the flop and went to showdown (WTSD).",
    "pots_won": "Pots (per runout) the seat won any part of.",
    "scoops": "Of those, pots won whole and alone (both halves, or hi/lo without a low).",
    "high_only": "Hi/lo pots, not scooped, where the seat won high but none of the low.",
    "low_only": "Hi/lo pots where the seat won the whole low but none of the high.",
    "quartered": "Hi/lo pots where the seat won a shared low but none of the high.",
}
_COUNTS = {"postflop_aggressive", "postflop_calls", "postflop_folds", "pots_won", "scoops"}
_COUNTS |= {"high_only", "low_only", "quartered"}
_STAT_FIELDS = [
    _f(name, pa.int16() if name in _COUNTS else pa.bool_(), doc, False)
    for name, doc in _STAT_DOCS.items()
]

HANDS = pa.schema(
    [
        *_KEY,
        _f("source", pa.string(), "The input file the hand was read from.", False),
        _f("line", pa.int64(), "The line (first line) of the hand in its input file.", False),
        _f("table_name", pa.string(), "The table's name."),
        _f("started_at", pa.timestamp("us", tz="UTC"), "When the hand started (UTC)."),
        _f(
            "month",
            pa.string(),
            "Month of play in UTC, YYYY-MM, or unknown without a start time (the partition key).",
            False,
        ),
        _f("variant", _ENUM, "omaha, omaha-hilo, courchevel or courchevel-hilo.", False),
        _f("hole_cards", pa.int8(), "Hole cards per player: 4, 5 or 6.", False),
        _f("betting", _ENUM, "fixed-limit, pot-limit, no-limit or pl-preflop-nl-postflop.", False),
        _f("hi_lo", pa.bool_(), "Whether pots are split high/low (eight or better).", False),
        _f("mixed", _LABEL, "The mixed game the hand belongs to, as the log names it."),
        _f("currency", _LABEL, "ISO currency, or CHIPS for tournament chips.", False),
        _f(
            "scale", pa.int8(), "Decimals of the money unit: amount / 10^scale is the value.", False
        ),
        _f("small_blind", _MONEY, "Small blind, minor units.", False),
        _f("big_blind", _MONEY, "Big blind, minor units.", False),
        _f("ante", _MONEY, "Ante, minor units (0: none).", False),
        _f("small_bet", _MONEY, "The small bet as the log gives it (fixed limit: pre-flop, flop)."),
        _f("big_bet", _MONEY, "The big bet as the log gives it (fixed limit: turn, river)."),
        _f("button_seat", pa.int16(), "The button's seat number.", False),
        _f("n_players", pa.int16(), "Players dealt in.", False),
        _f(
            "boards",
            pa.list_(pa.string()),
            "The board of each runout, e.g. ['AhKd7c2s9h']; empty when none was dealt.",
            False,
        ),
        _f(
            "deck",
            pa.string(),
            "The deck order from the top, burns included, where the log records it.",
        ),
        _f("total_pot", _MONEY, "Every chip put in, uncalled bets returned, before rake.", False),
        _f("rake", _MONEY, "Rake as recorded by the site.", False),
        _f("fees", _MONEY, "Other money the site took (jackpot drop, fees), minor units."),
        _f("added", _MONEY, "Money the site added to the pot, minor units."),
        _f("status", _ENUM, "ok, violations, invalid, void or partial.", False),
        _f("n_violations", pa.int32(), "Violations found (errors and warnings).", False),
        _f(
            "n_errors",
            pa.int32(),
            "Violations of severity error (0 in a void hand: what it lacks fails nothing).",
            False,
        ),
        _f("payouts_match", pa.bool_(), "Every payout equals the log's; null: nothing to compare."),
        _f(
            "settled",
            pa.bool_(),
            "The rules awarded every pot; false: a void or stopped hand, a showdown they "
            "could not judge (a card dealt twice, a board short of five cards), or a pot "
            "no eligible player showed a hand for. Null in a lake from before the column.",
            False,
        ),
        _f("tournament", pa.bool_(), "A tournament hand.", False),
        _f("tournament_id", pa.string(), "The tournament's id."),
        _f("cash_out", pa.bool_(), "A player cashed out the hand.", False),
        _f("converted", pa.bool_(), "The log was rewritten by a third-party tool.", False),
        _f(
            "extras",
            pa.string(),
            "What the log holds that Croupier keeps without reading it, as one JSON object: "
            "a hand log's own fields starting with _, a PHH file's other fields (_phh_author "
            "…), what an OHH file gives that is not read (_ohh_ignored). Null: nothing.",
        ),
        _f("rules", _ENUM, "The rule set that judged the hand, name-version.", False),
        _f("run_id", pa.string(), "The run that ingested the hand.", False),
    ]
)

SEATS = pa.schema(
    [
        *_KEY,
        _f("month", pa.string(), "Month of play (partition key).", False),
        _f("seat", pa.int16(), "Seat number as the site numbers it.", False),
        _f("player", pa.string(), "Player name.", False),
        _f("position", _ENUM, "BTN, SB, BB, UTG, UTG+1, …, MP, HJ, CO.", False),
        _f("scale", pa.int8(), "Decimals of the money unit.", False),
        _f("stack_start", _MONEY, "Stack at the start of the hand.", False),
        _f("stack_end", _MONEY, "Stack after the hand, by the rules.", False),
        _f(
            "hole_cards",
            pa.string(),
            "Hole cards as far as the log shows them ('??' for each card it does not); "
            "null when it shows none.",
        ),
        _f("invested", _MONEY, "Chips put in, uncalled bets returned.", False),
        _f("won", _MONEY, "Chips awarded by the rules.", False),
        _f(
            "won_recorded",
            _MONEY,
            "Chips the log says the seat collected; null when the log records no collections.",
        ),
        _f(
            "net",
            _MONEY,
            "stack_end - stack_start: won - invested, except that a cash-out pays the cash-out "
            "(its fee already taken off) instead of won, and a void hand returns everything.",
            False,
        ),
        _f(
            "cash_out_paid",
            _MONEY,
            "What the seat was paid for cashing out the hand, its fee already taken off "
            "(R9.cash-out); null when it did not cash out.",
        ),
        _f(
            "cash_out_fee",
            _MONEY,
            "The site's fee for that cash-out (0 when none is recorded); null when the seat "
            "did not cash out.",
        ),
        _f("showed", pa.bool_(), "The seat showed its cards.", False),
        _f("high_hand", pa.string(), "Best high at showdown (first board), described."),
        _f(
            "low_hand",
            pa.string(),
            "Best qualifying low at showdown (first board), described; hi/lo games only.",
        ),
        *_STAT_FIELDS,
    ]
)

ACTIONS = pa.schema(
    [
        *_KEY,
        _f("month", pa.string(), "Month of play (partition key).", False),
        _f(
            "seq",
            pa.int32(),
            "Index of the action in the hand's action list. Every action the log records "
            "has a row; where the replay stopped early (a fatal violation, named in "
            "violations), the actions it did not reach have the log's seat, type, amount "
            "and to_amount, and null in street, pot_before, all_in and the other columns "
            "the rules compute.",
            False,
        ),
        _f(
            "street",
            _ENUM,
            "preflop, flop, turn, river or showdown. Board cards are the street they open "
            "(on their own board when run more than once); a card shown after every "
            "board is dealt is the showdown's. Null for an action the replay did not reach.",
        ),
        _f("seat", pa.int16(), "Acting seat (null for board cards)."),
        _f("player", pa.string(), "Acting player."),
        _f(
            "type",
            _ENUM,
            "post, deal, fold, check, call, bet, raise, board, show, muck, uncalled.",
            False,
        ),
        _f("scale", pa.int8(), "Decimals of the money unit.", False),
        _f("amount", _MONEY, "Chips this action moved."),
        _f("to_amount", _MONEY, "The player's street total after a bet, raise or call."),
        _f(
            "pot_before",
            _MONEY,
            "Every chip in the middle before the action (null: the replay did not reach it).",
        ),
        _f(
            "to_call",
            _MONEY,
            "What the player could call before acting: what they owed, or their whole stack "
            "when that was less (betting actions).",
        ),
        _f(
            "min_to",
            _MONEY,
            "Smallest legal full bet/raise total (when a raise was allowed); an all-in "
            "for less (up to max_to, which may be below it) is legal too.",
        ),
        _f("max_to", _MONEY, "Largest legal bet/raise total (when a raise was allowed)."),
        _f("stack_before", _MONEY, "The player's stack before acting (betting actions)."),
        _f(
            "all_in",
            pa.bool_(),
            "The player was all-in after the action (null: the replay did not reach it).",
        ),
        _f("cards", pa.string(), "Cards of a deal, board, show or muck."),
        _f(
            "runout",
            pa.int8(),
            "The board (1, 2, 3) a board card is dealt to when the board is run more than "
            "once; null for the cards every board shares, and for other actions.",
        ),
        _f(
            "violation",
            pa.string(),
            "Codes of the violations found at this action, comma-separated.",
        ),
    ]
)

POTS = pa.schema(
    [
        *_KEY,
        _f("month", pa.string(), "Month of play (partition key).", False),
        _f("pot_index", pa.int16(), "0 = main pot, 1.. = side pots.", False),
        _f(
            "runout",
            pa.int8(),
            "The board (1, 2, 3) this row's part of the pot is played on: a pot has a row "
            "per board when the board was run more than once, else one (1).",
            False,
        ),
        _f("scale", pa.int8(), "Decimals of the money unit.", False),
        _f(
            "amount",
            _MONEY,
            "Chips in the pot before rake. With several boards, this board's part: what it "
            "pays out, its rake and fees, less money added (each split between the boards "
            "as settlement splits the pot: evenly, odd chips to the first).",
            False,
        ),
        _f("rake_share", _MONEY, "Rake taken from this pot (or runout's part).", False),
        _f("eligible_seats", pa.list_(pa.int16()), "Seats that could win the pot.", False),
        _f("high_winners", pa.list_(pa.int16()), "Seats awarded the high (or whole) pot.", False),
        _f("low_winners", pa.list_(pa.int16()), "Seats awarded the low half.", False),
    ]
)

AWARDS = pa.schema(
    [
        *_KEY,
        _f("month", pa.string(), "Month of play (partition key).", False),
        _f("pot_index", pa.int16(), "0 = main pot, 1.. = side pots.", False),
        _f(
            "runout",
            pa.int8(),
            "The board this share is from (1 unless run more than once).",
            False,
        ),
        _f("half", _ENUM, "whole, high or low.", False),
        _f("seat", pa.int16(), "The seat paid.", False),
        _f("scale", pa.int8(), "Decimals of the money unit.", False),
        _f("amount", _MONEY, "Chips paid.", False),
        _f("hand_description", pa.string(), "The winning hand, e.g. 'flush, Ace high'."),
        _f("cards_used", pa.string(), "The five cards of the winning hand."),
        _f("rules", pa.list_(pa.string()), "RULES.md rule ids applied to this award.", False),
    ]
)

VIOLATIONS = pa.schema(
    [
        *_KEY,
        _f("month", pa.string(), "Month of play (partition key).", False),
        _f("seq", pa.int32(), "The action it was found at (null: the whole hand)."),
        _f("seat", pa.int16(), "The seat concerned."),
        _f("code", _ENUM, "The violation's stable code.", False),
        _f("severity", _ENUM, "error, warning or info.", False),
        _f("rule", _ENUM, "The RULES.md rule id it applies.", False),
        _f("message", pa.string(), "What was wrong, in words.", False),
        _f("expected", pa.string(), "What the rules expected."),
        _f("actual", pa.string(), "What the log recorded."),
    ]
)

REJECTS = pa.schema(
    [
        _f("source", pa.string(), "The input file.", False),
        _f("line", pa.int64(), "The line the rejected input starts at.", False),
        _f("code", _ENUM, "The reject's stable code.", False),
        _f("message", pa.string(), "What was wrong, naming the field.", False),
        _f("field", pa.string(), "The offending field, as a JSON path."),
        _f("hand_id", pa.string(), "The hand id, when it could be read."),
        _f("excerpt", pa.string(), "The start of the rejected input.", False),
        _f("run_id", pa.string(), "The run that read it.", False),
    ]
)

TABLES: dict[str, pa.Schema] = {
    "hands": HANDS,
    "seats": SEATS,
    "actions": ACTIONS,
    "pots": POTS,
    "awards": AWARDS,
    "violations": VIOLATIONS,
    "rejects": REJECTS,
}
"""Every table of the lake, by name."""

PARTITIONED = frozenset({"hands", "seats", "actions", "pots", "awards", "violations"})
"""Tables partitioned by month of play (``month=YYYY-MM``); rejects are not."""


def snapshot(schema: pa.Schema) -> str:
    """Return a table's schema as stable JSON text: names, types, nullability, docs."""
    columns = [
        {
            "name": f.name,
            "type": str(f.type),
            "nullable": f.nullable,
            "doc": (f.metadata or {}).get(b"doc", b"").decode(),
        }
        for f in schema
    ]
    return json.dumps(columns, indent=2, ensure_ascii=False) + "\n"


def describe() -> str:
    """Return the Markdown reference of every table and column (the README's section)."""
    parts = []
    for name, schema in TABLES.items():
        parts.append(f"#### `{name}`\n\n| column | type | meaning |\n|---|---|---|")
        for f in schema:
            doc = (f.metadata or {}).get(b"doc", b"").decode().replace("|", "\\|")
            kind = "enum" if pa.types.is_dictionary(f.type) else str(f.type)
            parts.append(f"| `{f.name}` | {kind} | {doc} |")
        parts.append("")
    return "\n".join(parts)
