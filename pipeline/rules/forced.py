"""Seats, stakes and forced bets: who must post what before the cards are played."""

from __future__ import annotations

from typing import TypeVar

from pipeline.model import (
    COURCHEVEL_VARIANTS,
    Action,
    Betting,
    Blind,
    GameSpec,
    HandRecord,
    Seat,
)
from pipeline.rules.betting import after_action
from pipeline.rules.context import Run, check_all_in_flag, seat_index
from pipeline.violations import Code

T = TypeVar("T")

# Enum members compared at every post, bound once (C constants in the compiled engine).
_SMALL, _BIG, _BOTH, _DEAD, _ANTE = Blind.SMALL, Blind.BIG, Blind.BOTH, Blind.DEAD, Blind.ANTE
_STRADDLE = Blind.STRADDLE


def seating(hand: HandRecord) -> list[int]:
    """Return dealt-in seat numbers clockwise from the first seat left of the button."""
    numbers = sorted({s.seat for s in hand.seats if not s.sitting_out})
    after = [number for number in numbers if number > hand.button]
    before = [number for number in numbers if number <= hand.button]
    return after + before


def dealt_seats(hand: HandRecord, order: list[int]) -> list[Seat]:
    by_number: dict[int, Seat] = {}
    for s in hand.seats:
        if not s.sitting_out and s.seat not in by_number:
            by_number[s.seat] = s
    return [by_number[number] for number in order]


def check_setup(run: Run) -> None:
    hand = run.hand
    numbers = [s.seat for s in hand.seats]
    if len(numbers) != len(set(numbers)):
        dup = _first_repeated(numbers)
        run.flag(Code.DUPLICATE_SEAT, f"seat {dup} is listed twice", seat=dup)
    players = [s.player for s in hand.seats]
    if len(players) != len(set(players)):
        run.flag(Code.DUPLICATE_PLAYER, f"player {_first_repeated(players)!r} sits in two seats")
    n = len(run.seats)
    if n < 2:
        run.flag(
            Code.TOO_FEW_PLAYERS,
            f"{n} player dealt in; a hand needs 2 to 10",
            expected="2-10",
            actual=str(n),
        )
    if n > 10:
        run.flag(
            Code.TOO_MANY_PLAYERS,
            f"{n} players dealt in; at most 10",
            expected="2-10",
            actual=str(n),
        )
    if hand.button not in numbers:
        run.flag(
            Code.BUTTON_NOT_SEATED,
            f"the button is on seat {hand.button}, where nobody sits",
            seat=hand.button,
        )
    _check_stakes(run, hand.game)
    button_dealt = run.seats[-1] == hand.button
    if n == 2 and button_dealt:
        run.sb_index, run.bb_index = 1, 0  # heads-up: the button posts the small blind
    else:
        run.sb_index, run.bb_index = 0, 1 % n


def _first_repeated(values: list[T]) -> T:
    """Return the first of ``values`` that is listed more than once (one is)."""
    return next(value for value in values if values.count(value) > 1)


def _check_stakes(run: Run, game: GameSpec) -> None:
    problems = []
    if game.big_blind <= 0:
        problems.append("the big blind must be more than zero")
    if game.small_blind > game.big_blind:
        problems.append("the small blind is larger than the big blind")
    limit = game.betting is Betting.FIXED_LIMIT
    if limit and (not game.small_bet or not game.big_bet or game.big_bet < game.small_bet):
        problems.append("fixed limit needs a small bet and a big bet at least as large")
    for problem in problems:
        run.flag(Code.BAD_STAKES, problem)
    small, big = game.small_bet or 0, game.big_bet or 0
    if limit and 0 < small <= big and big != 2 * small:
        run.flag(
            Code.BAD_STAKES,
            f"the big bet {run.money(big)} is not twice the small bet {run.money(small)}",
            expected=run.money(2 * small),
            actual=run.money(big),
            rule="R5.limit-size",
        )


# ---------------------------------------------------------------------------- the walk


def post(run: Run, seq: int, action: Action) -> None:
    i = seat_index(run, seq, action)
    state = run.state
    game = run.hand.game
    amount = action.amount or 0
    seat = action.seat
    if not run.posts_open:
        run.flag(
            Code.ACTION_OUT_OF_TURN,
            "a post after the betting began",
            seq=seq,
            seat=seat,
            rule="R2.blinds",
        )
    if amount > state.stack[i]:
        run.flag(
            Code.EXCEEDS_STACK,
            f"posts {run.money(amount)} with {run.money(state.stack[i])} behind",
            seq=seq,
            seat=seat,
            expected=run.money(state.stack[i]),
            actual=run.money(amount),
        )
    all_in = amount == state.stack[i]
    blind = action.blind or _BIG
    expected: int
    live = True
    if blind is _SMALL:
        expected = game.small_blind
        if i != run.sb_index or run.small_posted:
            run.flag(
                Code.BLIND_WRONG_SEAT,
                f"small blind posted by seat {seat}",
                seq=seq,
                seat=seat,
                expected=f"seat {run.seats[run.sb_index]}",
                actual=f"seat {seat}",
            )
        run.small_posted = True
    elif blind is _BIG:
        expected = game.big_blind
        swapped = i == run.sb_index and run.small_posted and state.bet[i] == 0
        blind_seat = (i == run.sb_index and run.small_posted) or _big_blind_post(run, i) is not None
        if swapped:  # another seat posted this seat's small blind: the blinds are swapped
            run.flag(
                Code.BLIND_WRONG_SEAT,
                f"big blind posted by seat {seat}, the small blind's seat",
                seq=seq,
                seat=seat,
                expected=f"seat {run.seats[run.bb_index]}",
                actual=f"seat {seat}",
            )
        elif blind_seat:
            run.flag(
                Code.BLIND_WRONG_SEAT,
                f"seat {seat} already posted a blind and may not post a big blind to enter",
                seq=seq,
                seat=seat,
                rule="R2.post-to-enter",
            )
        run.big_posts.append((seq, i))
    elif blind is _BOTH:
        expected = game.small_blind + game.big_blind
        run.seat_posts.append((seq, i, blind))  # its seat is judged when the posts close
        live_part = min(amount, game.big_blind)
        state.post(i, live_part)
        state.post(i, amount - live_part, live=False)
        _check_post_amount(
            run, seq, action, expected, all_in, Code.BLIND_WRONG_AMOUNT, "R2.dead-blind"
        )
        return
    elif blind is _DEAD:
        expected = game.small_blind
        live = False
        run.seat_posts.append((seq, i, blind))
    elif blind is _ANTE:
        expected = game.ante
        live = False
        if game.ante == 0 and i == run.bb_index and not run.antes:
            # a big-blind ante: the big blind antes for the table; dead money for the main pot
            run.antes.add(i)
            state.post(i, amount, live=False)
            check_all_in_flag(run, seq, action, all_in)
            return
        if i in run.antes:
            run.flag(Code.ANTE_WRONG_AMOUNT, f"seat {seat} posts a second ante", seq=seq, seat=seat)
        run.antes.add(i)
        state.post(i, amount, live=False, ante=True)
        _check_post_amount(run, seq, action, expected, all_in, Code.ANTE_WRONG_AMOUNT, "R2.antes")
        return
    else:  # straddle
        expected = run.rules.straddle_multiple * game.big_blind
        if amount > expected and game.betting is not Betting.FIXED_LIMIT:
            expected = amount  # a bigger straddle, as the site records it (R2.straddle)
        run.seat_posts.append((seq, i, blind))
        run.straddle_index = i
    state.post(i, amount, live=live)
    _check_post_amount(run, seq, action, expected, all_in, Code.BLIND_WRONG_AMOUNT, "")


def _check_seat_posts(run: Run, bb: int) -> None:
    """Judge the seats of the straddle and of missed-blind posts once every post is known
    (the big blind may be listed after them): a straddle is left of the big blind; missed
    blinds are posted from no blind's seat (with no small blind, the big blind's alone)."""
    n = len(run.seats)
    for seq, i, blind in run.seat_posts:
        seat = run.seats[i]
        if blind is _STRADDLE:
            want = (bb + 1) % n
            if i != want or n < 3:
                run.flag(
                    Code.STRADDLE_WRONG_SEAT,
                    f"straddle posted by seat {seat}",
                    seq=seq,
                    seat=seat,
                    expected=f"seat {run.seats[want]}",
                    actual=f"seat {seat}",
                )
        elif i == bb or (i == run.sb_index and bb == run.bb_index):
            what = "posts both blinds" if blind is _BOTH else "posts a dead blind"
            run.flag(
                Code.BLIND_WRONG_SEAT,
                f"seat {seat} {what} from a blind seat",
                seq=seq,
                seat=seat,
                rule="R2.post-to-enter",
            )


_POST_NAMES = {
    Blind.SMALL: "the small blind is",
    Blind.BIG: "the big blind is",
    Blind.BOTH: "missed blinds (a dead small and a live big) come to",
    Blind.DEAD: "a dead blind is the small blind,",
    Blind.ANTE: "the ante is",
    Blind.STRADDLE: "the straddle is",
}
"""What each kind of post must be, for a message: "posts 0.40; the small blind is 0.50"."""


def _check_post_amount(
    run: Run, seq: int, action: Action, expected: int, all_in: bool, code: Code, rule: str
) -> None:
    amount = action.amount or 0
    short_all_in = all_in and amount < expected
    if amount != expected and not short_all_in:
        run.flag(
            code,
            f"posts {run.money(amount)}; {_POST_NAMES[action.blind or _BIG]} {run.money(expected)}",
            seq=seq,
            seat=action.seat,
            expected=run.money(expected),
            actual=run.money(amount),
            rule=rule,
        )
    check_all_in_flag(run, seq, action, all_in)


def _big_blind_index(run: Run) -> int:
    """Return the index of the big blind, as the posts so far show it.

    The seat after the small blind's; but with no small blind posted (R2.no-small-blind:
    the big blind is taken from the log), the first of the two seats after the button to
    post a big blind, so the seat after the button when it posts the big blind itself.
    """
    if not run.small_posted:
        for _, i in run.big_posts:
            if i == run.sb_index or i == run.bb_index:
                return i
    return run.bb_index


def _big_blind_post(run: Run, index: int) -> int | None:
    """Return ``index`` if that player posted a big blind, else ``None``."""
    for _, i in run.big_posts:
        if i == index:
            return index
    return None


def close_posts(run: Run, seq: int) -> None:
    """Settle who the big blind is, check missing blinds and antes, and open pre-flop."""
    run.posts_open = False
    game = run.hand.game
    state = run.state
    bb = _big_blind_post(run, _big_blind_index(run))  # R2.no-small-blind: from the log
    if bb is None and state.all_in[run.bb_index]:
        bb = run.bb_index  # R2.short-blind: all-in on its ante, it has no chips left to post
    if bb is None:
        run.flag(
            Code.MISSING_BLIND,
            f"no big blind posted by seat {run.seats[run.bb_index]}",
            seat=run.seats[run.bb_index],
            expected=run.money(game.big_blind),
            actual="none",
        )
        bb = run.bb_index
    _check_seat_posts(run, bb)
    if game.ante > 0:
        for i, seat in enumerate(run.seats):
            if i not in run.antes:
                run.flag(
                    Code.ANTE_WRONG_AMOUNT,
                    f"seat {seat} posted no ante",
                    seat=seat,
                    expected=run.money(game.ante),
                    actual="none",
                )
    if not run.exposed and game.variant in COURCHEVEL_VARIANTS:
        run.flag(
            Code.WRONG_BOARD_SIZE,
            "Courchevel: no flop card was exposed before the betting",
            seq=seq,
            expected="1 card",
            actual="none",
            rule="R3.courchevel",
        )
    last_blind = run.straddle_index if run.straddle_index is not None else bb
    opening = game.big_blind
    if run.straddle_index is not None:  # the straddle, or more when the site allows it
        posted = state.bet[run.straddle_index]  # (in fixed limit more is flagged, and still
        opening = max(run.rules.straddle_multiple * game.big_blind, posted)  # the bet)
    state.start_preflop(first=(last_blind + 1) % len(run.seats), opening_bet=opening)
    after_action(run, seq)
