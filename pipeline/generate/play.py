"""Play synthetic hands with random policies over the legal ranges the engine gives.

Every hand is dealt from a shuffled deck (recorded, burns included), posts its blinds
(now and then a straddle, a dead blind, a post to enter, antes, a missing small blind,
short all-in blinds), and is played by asking the betting state what is legal and
choosing among fold, check, call, minimum and pot-size raises and all-ins. Boards are run
twice or three times now and then after an all-in. Everything is reproducible from the
seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pipeline.cards import DECK, rank_of
from pipeline.generate.faults import (
    CARD_FAULTS,
    FALLBACKS,
    FaultPlan,
    apply_card_fault,
    betting_fault,
    choose_fault,
    mark,
)
from pipeline.generate.results import PAYOUT_FAULTS, RakePolicy, record_results
from pipeline.model import (
    Action,
    ActionType,
    Betting,
    Blind,
    GameSpec,
    HandRecord,
    Seat,
    Tournament,
    Variant,
)
from pipeline.rules import STANDARD, BettingState, Legal, RuleSet, Street
from pipeline.rules.deal import deal_order
from pipeline.violations import Code

__all__ = ["GameChoice", "generate_hands", "play_hand"]

CASH_STAKES = ((1, 2), (2, 5), (5, 10), (10, 20), (25, 50), (50, 100), (100, 200))
TOURNAMENT_STAKES = ((10, 20), (25, 50), (50, 100), (100, 200), (200, 400))
START = datetime(2026, 1, 1, tzinfo=UTC)
ACE = 12
DEFAULT_RAKE = RakePolicy()
MAX_PLAYERS = {4: 10, 5: 8, 6: 7}
"""The most players one deck can deal with three burns and a full board."""
NAMES = (
    "Ada",
    "Basil",
    "Cleo",
    "Dmitri",
    "Esme",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kaito",
    "Lena",
    "Mateo",
    "Nia",
    "Oskar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sven",
    "Tariq",
    "Uma",
    "Viktor",
    "Wren",
    "Ximena",
    "Yusuf",
    "Zora",
)


@dataclass(frozen=True, slots=True)
class GameChoice:
    """What to generate: ``None`` for a field means any value, chosen per hand."""

    variant: Variant | None = None
    hole_cards: int | None = None
    betting: Betting | None = None
    min_players: int = 2
    max_players: int = 10


def generate_hands(
    count: int,
    *,
    seed: int = 0,
    choice: GameChoice = GameChoice(),
    rules: RuleSet = STANDARD,
    faults: float = 0.0,
    rake: RakePolicy = DEFAULT_RAKE,
    chunk: int = 256,
    deck_bias: float = 0.0,
    seat_bias: float = 0.0,
    board_bias: float = 0.0,
) -> Iterator[HandRecord]:
    """Yield ``count`` hands played from ``seed`` (the same seed gives the same hands).

    Each hand records its result (collections per pot and half, rake by ``rake``). A
    fraction ``faults`` of them carries exactly one injected violation, recorded in the
    hand's ``_injected`` field (see :mod:`pipeline.generate.faults`): most break a rule of
    play, some the payout. Hands are settled ``chunk`` at a time, in one evaluator batch.

    ``deck_bias``, ``seat_bias`` and ``board_bias`` are for testing the fairness audit
    only: with that probability per hand the shuffled deck is rigged so that the first card
    dealt is an ace (``deck_bias``); so that the first player dealt (the SB) holds an ace
    another player would have held, the two swapping the cards at the same index of their
    hole cards (``seat_bias``); so that an ace not dealt to a player replaces a card of the
    flop (``board_bias``). Play follows the rigged deck. At 0 (the default) the generator
    draws nothing for them, so its output is unchanged.
    """
    rng = random.Random(seed)
    hands: list[HandRecord] = []
    payouts: list[str | None] = []
    for k in range(count):
        faulty = faults > 0 and rng.random() < faults
        payout = rng.choice(PAYOUT_FAULTS) if faulty and rng.random() < 0.2 else None
        hands.append(
            play_hand(
                rng,
                k,
                choice=choice,
                rules=rules,
                id_prefix=f"GEN-{seed}",
                faulty=faulty and payout is None,
                deck_bias=deck_bias,
                seat_bias=seat_bias,
                board_bias=board_bias,
            )
        )
        payouts.append(payout)
        if len(hands) == chunk or k == count - 1:
            yield from record_results(hands, payouts, rng, rules=rules, rake=rake)
            hands, payouts = [], []


def _game(rng: random.Random, choice: GameChoice, tournament: bool) -> GameSpec:
    variant = choice.variant or rng.choice(list(Variant))
    hole = 5 if variant.is_courchevel else choice.hole_cards or rng.choice((4, 4, 4, 5, 6))
    betting = choice.betting or rng.choice(list(Betting))
    sb, bb = rng.choice(TOURNAMENT_STAKES if tournament else CASH_STAKES)
    limit = betting is Betting.FIXED_LIMIT
    return GameSpec(
        variant=variant,
        hole_cards=hole,
        betting=betting,
        small_blind=sb,
        big_blind=bb,
        currency="CHIPS" if tournament else "USD",
        scale=0 if tournament else 2,
        small_bet=bb if limit else None,
        big_bet=2 * bb if limit else None,
        ante=max(bb // 10, 1) if tournament and rng.random() < 0.7 else 0,
        max_seats=None,
    )


def _stacks(rng: random.Random, n: int, bb: int, ante: int) -> list[int]:
    stacks = []
    for _ in range(n):
        r = rng.random()
        if r < 0.04:
            stacks.append(rng.randint(ante + 1, max(bb - 1, ante + 1)))  # short of a big blind
        elif r < 0.25:
            stacks.append(rng.randint(bb, 20 * bb))
        else:
            stacks.append(rng.randint(20 * bb, 300 * bb))
    return stacks


class _Deal:
    """The deck and the actions recorded so far."""

    def __init__(self, deck: list[int], start: int) -> None:
        self.deck = deck
        self.pointer = start
        self.board: list[int] = []

    def take(
        self, count: int, *, burn: bool = True
    ) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        burned = None
        if burn:
            burned = (self.deck[self.pointer],)
            self.pointer += 1
        cards = tuple(self.deck[self.pointer : self.pointer + count])
        self.pointer += count
        return cards, burned


def play_hand(
    rng: random.Random,
    k: int,
    *,
    choice: GameChoice = GameChoice(),
    rules: RuleSet = STANDARD,
    id_prefix: str = "GEN",
    faulty: bool = False,
    deck_bias: float = 0.0,
    seat_bias: float = 0.0,
    board_bias: float = 0.0,
) -> HandRecord:
    """Play one hand with ``rng``; ``k`` numbers it (hand id, table, time).

    A ``faulty`` hand carries exactly one injected violation (see ``faults``);
    ``deck_bias``, ``seat_bias`` and ``board_bias`` rig the deck now and then (see
    :func:`generate_hands`).
    """
    tournament = rng.random() < 0.1
    game = _game(rng, choice, tournament)
    plan = FaultPlan(choose_fault(rng, game.betting)) if faulty else None
    most = min(choice.max_players, MAX_PLAYERS[game.hole_cards])
    n = rng.randint(min(max(choice.min_players, 2), most), most)
    max_seats = max(n, rng.choice((6, 9, 10)))
    numbers = sorted(rng.sample(range(1, max_seats + 1), n))
    button = rng.choice(numbers)
    order = [s for s in numbers if s > button] + [s for s in numbers if s <= button]
    names = rng.sample(NAMES, n)
    stacks = _stacks(rng, n, game.big_blind, game.ante)
    seats = tuple(
        Seat(seat=number, player=names[i], stack=stacks[order.index(number)])
        for i, number in enumerate(numbers)
    )
    state = BettingState(
        stacks,
        game.betting,
        big_blind=game.big_blind,
        small_bet=game.small_bet,
        big_bet=game.big_bet,
        rules=rules,
    )
    actions: list[Action] = []
    first = _post_blinds(rng, state, game, order, actions, rules, plan)
    deck = list(DECK)
    rng.shuffle(deck)
    dealing = deal_order(n, game.hole_cards)
    if deck_bias > 0 and rng.random() < deck_bias:
        _rig_ace(deck, dealing[0][0])
    if seat_bias > 0 and rng.random() < seat_bias:
        _rig_seat(rng, deck, dealing)
    if board_bias > 0 and rng.random() < board_bias:
        _rig_flop(rng, deck, n * game.hole_cards)
    for i, positions in enumerate(dealing):
        actions.append(
            Action(ActionType.DEAL, seat=order[i], cards=tuple(deck[p] for p in positions))
        )
    deal = _Deal(deck, n * game.hole_cards)
    if game.variant.is_courchevel:
        cards, burned = deal.take(1)
        deal.board.extend(cards)
        actions.append(Action(ActionType.BOARD, cards=cards, burn=burned))
    state.start_preflop(first=first[0], opening_bet=first[1])
    _play(rng, state, game, order, actions, deal, plan)
    hand = HandRecord(
        hand_id=f"{id_prefix}-{k}",
        site="Croupier Generator",
        table=f"Table {k % 50 + 1}",
        started_at=START + timedelta(seconds=90 * k),
        game=GameSpec(
            variant=game.variant,
            hole_cards=game.hole_cards,
            betting=game.betting,
            small_blind=game.small_blind,
            big_blind=game.big_blind,
            currency=game.currency,
            scale=game.scale,
            small_bet=game.small_bet,
            big_bet=game.big_bet,
            ante=game.ante,
            max_seats=max_seats,
        ),
        button=button,
        seats=seats,
        actions=tuple(actions),
        tournament=Tournament(id=f"T-{k // 500}", level="I") if tournament else None,
        deck=tuple(deck),
        hero=order[0],
    )
    if plan is None:
        return hand
    return _with_fault(rng, hand, plan)


def _rig_ace(deck: list[int], position: int) -> None:
    """Swap the deck's first ace into ``position`` unless an ace is there (a biased deal).

    >>> deck = list(range(52))
    >>> _rig_ace(deck, 0)
    >>> deck[0], deck[48]
    (48, 0)
    """
    if rank_of(deck[position]) == ACE:
        return
    ace = next(k for k in range(len(deck)) if rank_of(deck[k]) == ACE)
    deck[position], deck[ace] = deck[ace], deck[position]


def _rig_seat(rng: random.Random, deck: list[int], dealing: list[list[int]]) -> None:
    """Give the first player dealt an ace another player holds, unless they hold one: the
    two swap the cards at the ace's index in the hand, so each index keeps its cards.

    >>> deck = list(range(52))
    >>> deck[5], deck[48] = 48, 5  # the third player's second card is the ace of clubs
    >>> _rig_seat(random.Random(1), deck, [[0, 3], [1, 4], [2, 5]])
    >>> deck[:6]  # the first player's second card and the ace swap
    [0, 1, 2, 48, 4, 3]
    """
    if any(rank_of(deck[p]) == ACE for p in dealing[0]):
        return
    aces = [
        (i, p) for others in dealing[1:] for i, p in enumerate(others) if rank_of(deck[p]) == ACE
    ]
    if aces:
        i, p = rng.choice(aces)
        deck[dealing[0][i]], deck[p] = deck[p], deck[dealing[0][i]]


def _rig_flop(rng: random.Random, deck: list[int], dealt: int) -> None:
    """Swap an ace not yet dealt (past the flop) into a flop card that is no ace; the flop
    is the three cards after the first burn, ``dealt`` the hole cards dealt before it
    (Courchevel's exposed card is the flop's first).

    >>> deck = list(range(52))
    >>> _rig_flop(random.Random(1), deck, 4)  # 4 hole cards, a burn, the flop 5 6 7
    >>> [rank_of(card) == ACE for card in deck[5:8]].count(True)
    1
    """
    flop = [p for p in range(dealt + 1, dealt + 4) if rank_of(deck[p]) != ACE]
    aces = [p for p in range(dealt + 4, len(deck)) if rank_of(deck[p]) == ACE]
    if flop and aces:
        a, b = rng.choice(flop), rng.choice(aces)
        deck[a], deck[b] = deck[b], deck[a]


def _with_fault(rng: random.Random, hand: HandRecord, plan: FaultPlan) -> HandRecord:
    """Mark the hand with its fault, making a card fault now if none could be made in play."""
    if not plan.done and plan.code in CARD_FAULTS:
        changed = apply_card_fault(plan, rng, hand)
        if changed is not None:
            return mark(changed, plan)
    if plan.done:
        return mark(hand, plan)
    for code in FALLBACKS:
        plan.code = code
        changed = apply_card_fault(plan, rng, hand)
        if changed is not None:
            return mark(changed, plan)
    return hand


def _post(
    state: BettingState,
    actions: list[Action],
    order: list[int],
    i: int,
    amount: int,
    blind: Blind,
    *,
    live: bool = True,
) -> None:
    amount = min(amount, state.stack[i])
    if blind is Blind.BOTH:
        live_part = min(amount, state.big_blind)
        state.post(i, live_part)
        state.post(i, amount - live_part, live=False)
    else:
        state.post(i, amount, live=live, ante=blind is Blind.ANTE)
    actions.append(
        Action(
            ActionType.POST, seat=order[i], amount=amount, blind=blind, all_in=state.stack[i] == 0
        )
    )


def _post_blinds(
    rng: random.Random,
    state: BettingState,
    game: GameSpec,
    order: list[int],
    actions: list[Action],
    rules: RuleSet,
    plan: FaultPlan | None,
) -> tuple[int, int]:
    """Post antes and blinds; return (index of the first to act pre-flop, the bet to call).

    A blind fault of the plan is made here when the table allows it.
    """
    n = len(order)
    fault = plan.code if plan is not None and not plan.done else None
    if game.ante:
        wrong = rng.randrange(n) if fault is Code.ANTE_WRONG_AMOUNT else -1
        for i in range(n):
            amount = game.ante
            if i == wrong and state.stack[i] > game.ante + 1 + game.big_blind:
                amount += 1
                _mark_post(plan, actions)
            _post(state, actions, order, i, amount, Blind.ANTE, live=False)
    sb, bb = (1, 0) if n == 2 else (0, 1)
    small = game.small_blind
    if n == 2 or rng.random() > 0.04:
        seat_sb = sb
        if fault is Code.BLIND_WRONG_SEAT and n >= 3:
            seat_sb = 2
            _mark_post(plan, actions)
        elif fault is Code.BLIND_WRONG_AMOUNT and state.stack[sb] > small + 1:
            small += 1
            _mark_post(plan, actions)
        _post(state, actions, order, seat_sb, small, Blind.SMALL)
    if fault is Code.MISSING_BLIND and plan is not None:
        plan.place(None)
    else:
        _post(state, actions, order, bb, game.big_blind, Blind.BIG)
    last, opening = bb, game.big_blind
    straddle = n >= 3 and game.betting is not Betting.FIXED_LIMIT and rng.random() < 0.05
    if fault is Code.STRADDLE_WRONG_SEAT and n >= 4 and game.betting is not Betting.FIXED_LIMIT:
        straddle = True
    if straddle:
        i = (bb + 1) % n
        if fault is Code.STRADDLE_WRONG_SEAT and n >= 4:
            i = (bb + 2) % n
        if state.stack[i] > rules.straddle_multiple * game.big_blind:
            if i != (bb + 1) % n:
                _mark_post(plan, actions)
            opening = rules.straddle_multiple * game.big_blind
            _post(state, actions, order, i, opening, Blind.STRADDLE)
            last = i
    if n >= 4 and rng.random() < 0.06:
        i = rng.randrange(2, n)
        posted = {a.seat for a in actions if a.blind is not Blind.ANTE}
        if i != last and order[i] not in posted and state.stack[i] > small + game.big_blind:
            if rng.random() < 0.5:
                _post(state, actions, order, i, game.small_blind + game.big_blind, Blind.BOTH)
            else:
                _post(state, actions, order, i, game.big_blind, Blind.BIG)
    return (last + 1) % n, opening


def _mark_post(plan: FaultPlan | None, actions: list[Action]) -> None:
    """The post about to be appended is the fault."""
    if plan is not None:
        plan.place(len(actions))


def _choose(rng: random.Random, legal: Legal, state: BettingState) -> tuple[ActionType, int]:
    """Pick an action: (type, chips for a call, or the street total for a bet/raise)."""
    aggressive = legal.can_raise and rng.random() < (0.3 if legal.can_check else 0.22)
    if aggressive:
        low = min(legal.min_to, legal.all_in_to)
        high = max(min(legal.max_to, legal.all_in_to), low)
        r = rng.random()
        if state.betting is Betting.FIXED_LIMIT or r < 0.4:
            to = low
        elif r < 0.7:
            to = high
        elif r < 0.85:
            to = rng.randint(low, high)
        else:
            to = high if state.pot_limit else legal.all_in_to
        to = min(to, legal.all_in_to)
        if to > state.current_bet:
            return (ActionType.BET if legal.can_bet else ActionType.RAISE), to
    if legal.can_check:
        return ActionType.CHECK, 0
    if rng.random() < 0.32 and legal.call != 0:
        return ActionType.FOLD, 0
    return ActionType.CALL, legal.call


def _play(
    rng: random.Random,
    state: BettingState,
    game: GameSpec,
    order: list[int],
    actions: list[Action],
    deal: _Deal,
    plan: FaultPlan | None,
) -> None:
    river_aggressor: int | None = None
    while True:
        legal = state.legal()
        if legal is not None:
            i = legal.actor
            faulty = betting_fault(plan, rng, legal, state) if plan is not None else None
            flag: bool | None = None
            if faulty is not None and plan is not None:
                kind, value, i, flag = faulty
                plan.place(len(actions))
            else:
                kind, value = _choose(rng, legal, state)
            seat = order[i]
            if plan is not None and plan.stop:
                actions.append(Action(kind, seat=seat, amount=value, all_in=True))
                return
            if kind is ActionType.FOLD:
                state.fold(i)
                actions.append(Action(kind, seat=seat))
            elif kind is ActionType.CHECK:
                state.check(i)
                actions.append(Action(kind, seat=seat))
            elif kind is ActionType.CALL:
                state.call(i, value)
                all_in = state.stack[i] == 0 if flag is None else flag
                actions.append(Action(kind, seat=seat, amount=value, all_in=all_in))
            else:
                before = state.bet[i]
                state.raise_to(i, value)
                if state.street is Street.RIVER:
                    river_aggressor = i
                all_in = state.stack[i] == 0
                if kind is ActionType.BET:
                    actions.append(Action(kind, seat=seat, amount=value - before, all_in=all_in))
                else:
                    actions.append(Action(kind, seat=seat, to=value, all_in=all_in))
            continue
        back = state.uncalled()
        if back is not None:
            state.return_uncalled(*back)
            actions.append(Action(ActionType.UNCALLED, seat=order[back[0]], amount=back[1]))
        if state.hand_over:
            return
        if len(deal.board) >= 5:
            _showdown(state, order, actions, river_aggressor, all_in=False)
            return
        betting_over = sum(1 for j in range(state.n) if state.can_act(j)) <= 1
        if betting_over and rng.random() < 0.2 and _run_out(rng, deal, game, actions):
            _showdown(state, order, actions, None, all_in=True)
            return
        size = _street_size(len(deal.board), game.variant.is_courchevel)
        cards, burned = deal.take(
            size, burn=not (game.variant.is_courchevel and len(deal.board) == 1)
        )
        deal.board.extend(cards)
        actions.append(Action(ActionType.BOARD, cards=cards, burn=burned))
        state.start_street(Street(len(deal.board) - 2))


def _street_size(size: int, courchevel: bool) -> int:
    if courchevel and size == 1:
        return 2
    return 3 if size == 0 else 1


def _run_out(rng: random.Random, deal: _Deal, game: GameSpec, actions: list[Action]) -> bool:
    """Deal the rest of the board two or three times, if the deck has the cards."""
    shared = len(deal.board)
    per_run = {0: 8, 1: 7, 3: 4, 4: 2}[shared] - (
        1 if game.variant.is_courchevel and shared == 1 else 0
    )
    left = len(deal.deck) - deal.pointer
    runs = 3 if rng.random() < 0.2 else 2
    while runs > 1 and runs * per_run > left:
        runs -= 1
    if runs < 2:
        return False
    for run in range(1, runs + 1):
        size = shared
        while size < 5:
            count = _street_size(size, game.variant.is_courchevel)
            cards, burned = deal.take(count, burn=not (game.variant.is_courchevel and size == 1))
            actions.append(Action(ActionType.BOARD, cards=cards, burn=burned, run=run))
            size += count
    return True


def _showdown(
    state: BettingState,
    order: list[int],
    actions: list[Action],
    river_aggressor: int | None,
    *,
    all_in: bool,
) -> None:
    """Everyone left shows: the river's last aggressor first, then clockwise."""
    live = [i for i in range(state.n) if not state.folded[i]]
    first = river_aggressor if river_aggressor is not None and not all_in else live[0]
    start = live.index(first)
    hole = {a.seat: a.cards for a in actions if a.type is ActionType.DEAL}
    for i in live[start:] + live[:start]:
        actions.append(Action(ActionType.SHOW, seat=order[i], cards=hole[order[i]]))
