"""The RULES.md rules the engine cites, each with its text in plain words.

Violations and awards name the RULES.md rule they apply (``R5.pl-max``); an explanation
quotes it, whole: a dispute turns on the sentence that decides it ("ties split their half,
so a shared low wins a quarter"), which is often not the first. RULES.md is not shipped
with the package, so every rule's text is kept here as :func:`rules_from_markdown` reads
it from RULES.md, source references such as ``[000, std]`` and markdown marks removed. A
test checks that every rule id the code cites is here and, where RULES.md is at hand,
that the texts still match it.

>>> rule_title("R8.odd-chips")[:40]
'Odd chips: when a pot cannot be halved e'
>>> rule_title("R99.unknown")
''
"""

from __future__ import annotations

import re

__all__ = ["RULE_TEXT", "rule_title", "rules_from_markdown"]

_RULE_RE = re.compile(r"^- `(R[0-9]+\.[a-z0-9-]+)` (.*?)(?=^- |^#|\Z)", re.MULTILINE | re.DOTALL)
_SOURCES_RE = re.compile(r"\s*\[(?:[0-9]{3}|std)(?:[^\[\]]|\[[^\]]*\])*\]")


def _plain(text: str) -> str:
    """Remove source references, markdown marks and line breaks from a rule's text."""
    text = _SOURCES_RE.sub("", " ".join(text.split()))
    return text.replace("**", "").replace("`", "")


def rules_from_markdown(markdown: str) -> dict[str, str]:
    """Return each rule id of RULES.md with its whole text, in plain words.

    >>> rules_from_markdown("- `R4.rounds` Four rounds [000]. Pre-flop, flop, turn, river.\\n")
    {'R4.rounds': 'Four rounds. Pre-flop, flop, turn, river.'}
    """
    return {rule_id: _plain(body) for rule_id, body in _RULE_RE.findall(markdown)}


def rule_title(rule_id: str) -> str:
    """Return the text of a rule by id, or ``""`` for an id RULES.md does not have."""
    return RULE_TEXT.get(rule_id, "")


RULE_TEXT: dict[str, str] = {
    "R1.players": "2 to 10 players at one table. Every player plays for themself.",
    "R1.button": "The dealer button moves one seat clockwise after every hand.",
    "R1.deck": "Standard 52-card deck, no jokers; suits are all equal.",
    "R2.blinds": "Small blind: first seat clockwise from the button; big blind: the next one.",
    "R2.heads-up": (
        "Heads-up (two players): the button posts the small blind and acts first before the "
        "flop and last after it."
    ),
    "R2.blind-sizes": (
        "Blind sizes are table parameters: the small blind is usually half the big blind but "
        "not always (limit $15/$30: blinds $10/$15)."
    ),
    "R2.live-blinds": (
        "Blinds are live bets: they count toward the poster's bet in the first round; the "
        "blinds may fold, check, call or raise when their turn comes. If nobody raises, the "
        'big blind has the option to raise ("live blind").'
    ),
    "R2.dead-blind": (
        "A player who missed the blinds posts both to be dealt in: the big-blind amount is "
        "live (part of their bet), the small-blind amount is dead (goes straight to the pot). "
        "A new player may post a big blind to be dealt in at once."
    ),
    "R2.short-blind": "A player with fewer chips than a blind posts all they have and is all-in.",
    "R2.antes": "Antes, where used, are dead money in the pot.",
    "R2.straddle": (
        "Straddle: an optional voluntary blind, usually twice the big blind, posted by the "
        "player left of the big blind before the deal; it is a live bet, that player acts last "
        "pre-flop, and the first to act is the player left of the straddler. Sites that allow "
        "other straddles record them."
    ),
    "R2.post-to-enter": (
        "Posting to enter (a new player, or one who missed a blind) is allowed from any seat "
        "except the two blinds; such a post is live and its poster may check if not raised."
    ),
    "R2.no-small-blind": (
        'A hand may have no small blind (a player busted; the "dead button" rule) when the '
        "site's log says so; the big blind and the action order are then taken from the log."
    ),
    "R2.walk": "If everyone folds to the big blind, the big blind wins the pot.",
    "R3.hole-cards": (
        "Hole cards: 4 per player (5 in Five-Card Omaha and Courchevel, 6 in Six-Card Omaha), "
        "dealt one at a time clockwise starting with the first seat left of the button (the "
        "small blind; heads-up, where the button is the small blind, the big blind gets the "
        "first card)."
    ),
    "R3.burns": "One card is burned before the flop, the turn and the river.",
    "R3.board": "Board: flop 3 cards, turn 1, river 1.",
    "R3.courchevel": (
        "Courchevel: 5 hole cards; the first flop card is dealt face up before the first "
        "betting round; the flop then adds two more."
    ),
    "R3.misdeal": (
        "Misdeal: the hand is void and redealt. Standard practice limits this to the first or "
        "second card dealt being exposed, or two or more exposed cards; online, a void hand is "
        "what the site records as cancelled."
    ),
    "R3.deck-order": (
        "Where a log records the deck order (or burn cards), the dealt cards must follow it "
        "exactly."
    ),
    "R4.rounds": "Four rounds: pre-flop, flop, turn, river.",
    "R4.preflop-order": (
        'Pre-flop the first to act is the player left of the big blind ("under the gun").'
    ),
    "R4.postflop-order": (
        "After the flop the first to act is the first active player left of the button."
    ),
    "R4.actions": (
        "Actions: fold; check (only when there is nothing to call); call; bet (when nobody has "
        "bet in the round); raise."
    ),
    "R4.round-end": (
        "A round ends when every player still able to act has acted and all have put in the "
        "same amount (or are all-in), or when only one player is left. A hand won uncontested "
        "ends at once: no more cards are dealt."
    ),
    "R4.uncalled": "An unmatched bet or raise is returned to its maker (the uncalled part).",
    "R5.limit-size": (
        "Bets and raises are exactly the small bet on pre-flop and flop, and the big bet "
        "(twice the small bet) on turn and river. In a $2/$4 game: blinds $1/$2, small bet $2, "
        "big bet $4."
    ),
    "R5.limit-cap": (
        "At most one bet and three raises per round (bet, raise, re-raise, cap). Pre-flop the "
        "big blind counts as the bet: at $2/$4, $2 → $4 → $6 → $8 is capped."
    ),
    "R5.limit-cap-heads-up": (
        "option cap_heads_up: capped (default; PokerStars keeps the cap in heads-up limit "
        "games), uncapped-if-two-at-round-start, uncapped-when-two-remain."
    ),
    "R5.limit-short-all-in": (
        "An all-in bet or raise for less than the full size: the next player may call the "
        "all-in amount or complete it to the full size. option limit_half_bet_reopens "
        "(default: yes): an all-in of at least half the limit counts as a full bet/raise (it "
        "reopens the betting and counts toward the cap); less than half does neither."
    ),
    "R5.pl-min": (
        "Minimum bet: the big blind. Minimum raise: at least the size of the previous bet or "
        "raise in the same round."
    ),
    "R5.pl-max": (
        "Maximum: the size of the pot, which is the pot from earlier rounds, plus all bets on "
        "the table, plus the amount the player must call first. As a formula, the largest "
        "legal raise-to is highest_bet + (pot_before_round + sum_of_bets_on_table + to_call). "
        "Example: pot $100, a player bets $100; the next may fold, call $100, or raise to at "
        "most $400 (call $100 making the pot $300, then raise $300). Pre-flop at $1/$2 the "
        "first player may raise to at most $7. Dead blinds and antes are part of the pot."
    ),
    "R5.pl-no-cap": "No cap on the number of raises.",
    "R5.nl-limits": (
        "Minimum bet: the big blind; minimum raise: at least the previous bet or raise in the "
        "round; maximum: all the player's chips. No cap on raises."
    ),
    "R5.all-in": "A player may always go all-in for less than a call or a full raise.",
    "R5.reopen": (
        "Pot limit and no limit: a player who has already acted in the round may raise again "
        "only if, when the action returns to them, the total increase they face since their "
        "last action is at least a full raise. Several short all-ins that together add up to a "
        "full raise therefore reopen the betting; one short all-in alone does not (they may "
        "only call or fold)."
    ),
    "R5.min-raise-after-all-in": (
        "The minimum raise is measured from the last full raise: bet 100, short all-in to 150, "
        "the next legal raise is to at least 250."
    ),
    "R5.short-big-blind": (
        "A big blind all-in for less than the full blind: the others still call the full big blind."
    ),
    "R5.mixed": (
        "Mixed Omaha Hi/Lo alternates limit and pot-limit rounds of hands, with blinds raised "
        "when the game changes to limit. Each hand carries its own structure; the engine "
        "checks each hand by its own structure."
    ),
    "R6.two-plus-three": (
        "Every hand, high or low, uses exactly two hole cards and exactly three board cards. "
        "Four of one suit on the board plus one in the hand is no flush; four to a straight on "
        "the board plus one hole card is no straight; four queens in the hand are one pair of "
        "queens."
    ),
    "R6.hi-lo-separate": (
        "High and low may use different pairs of hole cards and different board cards."
    ),
    "R7.high": (
        "High: royal flush, straight flush, four of a kind, full house, flush, straight, three "
        "of a kind, two pair, one pair, high card; ace high or low in straights (A-2-3-4-5 is "
        "the lowest straight, 10-J-Q-K-A the highest)."
    ),
    "R7.low": (
        'Low, eight or better, ace-to-five ("California"): five cards of different ranks, none '
        "above 8, aces low; straights and flushes do not count against a low. Lows compare "
        "from the highest card down: 6-4-3-2-A beats 6-5-4-3-2; 5-4-3-2-A (the wheel) is the "
        "best. The seeds' ranking list, weakest to best: 8-7-6-5-4, 8-7-6-5-3, 8-6-4-2-A, "
        "8-4-3-2-A, 7-6-5-4-2, 7-6-5-2-A, 7-5-4-3-2, 6-5-4-3-2, 6-4-3-2-A, 5-4-3-2-A."
    ),
    "R8.showdown-order": (
        "With two or more players left after the river, the hands are shown. The last player "
        "to bet or raise on the river shows first; with no bet on the river, the first active "
        "player left of the button. Others show or muck in turn, clockwise. option "
        "showdown_order: river-aggressor-else-button (default) or last-aggressor-any-street "
        "(seed 000's description). When all but one are all-in, every hand is turned up at "
        "once and order does not apply. A deviation is a warning, never an error: the cards "
        "decide, not the order."
    ),
    "R8.best-hand": (
        "Online, the software awards the pot to the best hand that reached showdown, whatever "
        "the player chose to show. A hand whose cards are unknown cannot win."
    ),
    "R8.high-split": "High only: the best high hand wins; equal hands split the pot equally.",
    "R8.hi-lo": (
        "Hi/Lo: each pot is split in half between the best high and the best qualifying low. "
        "If no hand eligible for that pot has a qualifying low, the best high takes the whole "
        'pot. One player may win both halves ("scoop"). Ties split their half, so a shared low '
        "wins a quarter."
    ),
    "R8.side-pots": (
        "Side pots: an all-in player can win only the chips they matched; the excess forms "
        "side pots that only players who matched them can win. Every pot is awarded "
        "separately, and in hi/lo each pot is split hi/lo among the players eligible for it."
    ),
    "R8.odd-chips": (
        "Odd chips: when a pot cannot be halved exactly, the high half gets the odd chip; when "
        "a half or a pot is shared by tied players, the odd chips go one each to the tied "
        "players in seat order starting from the first seat left of the button. option "
        "odd_chips per site."
    ),
    "R8.rake-allocation": (
        "Rake spread over several pots: option rake_allocation: proportional (default, "
        "remainder to the main pot) or main-pot-first; when the log lists each pot's size "
        "after rake (PokerStars does), that listing decides."
    ),
    "R8.run-it-twice": (
        "Run it twice: after an all-in the rest of the board may be dealt two (or three) "
        "times; each pot is divided evenly between the runouts (odd chips to the first runout) "
        "and each runout's share is awarded as above."
    ),
    "R9.conservation": (
        "Chips never appear or vanish: at the end of a hand, the sum of starting stacks minus "
        "the sum of final stacks equals rake + recorded fees (jackpot drops, cash-out fees) − "
        'money the site added (PokerStars/Run It Once "STP", OHH "Add to Pot"). Rake is '
        "recorded by the site, not derived."
    ),
    "R9.cash-out": (
        "Cash-out (all-in insurance offered by some sites): the pot is settled as usual to "
        'find the winner the cards give (the log\'s "would have won" amount must match it); '
        "the player who cashed out is paid the recorded cash-out amount instead of their "
        "share, and the site covers the difference. Reconciliation checks the would-have-won "
        "figure and reports the cash-out amount and fee; it does not flag the difference as a "
        "mismatch."
    ),
    "R9.exact": (
        "Amounts are exact: the smallest unit of the game (a cent, a tournament chip) is "
        "indivisible."
    ),
}
"""Rule id to its whole text, as :func:`rules_from_markdown` reads RULES.md."""
