"""Betting actions judged against the legal range, and uncalled bets returned."""

from __future__ import annotations

from pipeline.model import (
    Action,
    ActionType,
)
from pipeline.rules.context import (
    NO_CHIPS,
    Run,
    check_all_in_flag,
    make_step,
    seat_index,
)
from pipeline.rules.state import Legal, Street
from pipeline.violations import Code

# Enum members compared at every action, bound once (C constants in the compiled engine).
_FOLD, _CHECK, _CALL, _BET = ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET
_RIVER, _SHOWDOWN = Street.RIVER, Street.SHOWDOWN
_NO_CHIPS = NO_CHIPS  # a C constant in the compiled form


def bet(run: Run, seq: int, action: Action) -> None:
    """Judge one fold, check, call, bet or raise by the legal range, then apply it."""
    state = run.state
    i = seat_index(run, seq, action)
    seat = run.seats[i]
    kind = action.type
    pot_before = state.pot_before_round + state.street_total
    stack_before = state.stack[i]
    if (
        kind is _CHECK
        and not state.folded[i]
        and state.live > 1
        and (state.all_in[i] or state.next_actor() is None)
    ):
        run.flag(
            Code.IDLE_CHECK,
            f"seat {seat} has nothing to decide (all-in, or nobody left to bet against); "
            "the log says it checked",
            seq=seq,
            seat=seat,
        )
        _record_bet_step(
            run, seq, action, i, state.legal_for(i), pot_before, stack_before, _NO_CHIPS
        )
        return
    if state.live <= 1 or state.street is _SHOWDOWN:
        run.flag(Code.ACTION_AFTER_HAND_END, f"{kind} after the hand was over", seq=seq, seat=seat)
    legal = state.legal()
    skipped = run.skipped  # whose turn an earlier action out of turn went before, or -1
    if skipped >= 0 and (state.folded[skipped] or not state.needs[skipped]):
        skipped = run.skipped = -1  # they no longer owe an action
    if (legal is None or legal.actor != i) and skipped == i:
        legal = state.legal_for(i)  # the player skipped acts now: in turn
        run.skipped = -1
    elif legal is None or legal.actor != i:
        turn = skipped if skipped >= 0 else (-1 if legal is None else legal.actor)
        who = "nobody" if turn < 0 else f"seat {run.seats[turn]}"
        if skipped < 0 and legal is not None:
            run.skipped = legal.actor  # they may still act next without being out of turn
        run.flag(
            Code.ACTION_OUT_OF_TURN,
            f"seat {seat} acted; it was {who}'s turn",
            seq=seq,
            seat=seat,
            expected=who,
            actual=f"seat {seat}",
            rule="R4.preflop-order" if state.street is Street.PREFLOP else "R4.postflop-order",
        )
        legal = state.legal_for(i)
    if state.folded[i] or state.all_in[i]:
        _record_bet_step(run, seq, action, i, legal, pot_before, stack_before, _NO_CHIPS)
        return
    to = _judge(run, seq, action, legal, i)
    if kind is _FOLD:
        state.fold(i)
    elif kind is _CHECK:
        state.check(i)
    elif kind is _CALL:
        state.call(i, action.amount or 0)
    elif to != _NO_CHIPS:  # always, for a bet or a raise
        state.raise_to(i, to)
        if state.street is _RIVER:
            run.river_aggressor = i
        run.last_aggressor = i
    if kind is not _FOLD and kind is not _CHECK:
        all_in = state.stack[i] == 0
        if action.all_in is not all_in:
            check_all_in_flag(run, seq, action, all_in)
    _record_bet_step(run, seq, action, i, legal, pot_before, stack_before, to)
    after_action(run, seq)


def _judge(run: Run, seq: int, action: Action, legal: Legal, i: int) -> int:
    """Judge one betting action against the legal range; return the street total it makes,
    :data:`~pipeline.rules.context.NO_CHIPS` for a fold or a check. (The chips are C
    integers when compiled, ``betting.pxd``: no int object is made to compare them.)"""
    state = run.state
    seat = run.seats[i]
    kind = action.type
    if kind is _FOLD:
        return _NO_CHIPS
    if kind is _CHECK:
        if not legal.can_check:
            run.flag(
                Code.CHECK_FACING_BET,
                f"checks facing {run.money(legal.call)} to call",
                seq=seq,
                seat=seat,
                expected=f"call {run.money(legal.call)} or fold",
                actual="check",
            )
        return _NO_CHIPS
    stack = state.stack[i]
    mine = state.bet[i]
    if kind is _CALL:
        amount = action.amount or 0
        if amount > stack:
            run.flag(
                Code.EXCEEDS_STACK,
                f"calls {run.money(amount)} with {run.money(stack)} behind",
                seq=seq,
                seat=seat,
                expected=run.money(stack),
                actual=run.money(amount),
            )
        if amount != legal.call or legal.call == 0:
            expected = "a check" if legal.call == 0 else run.money(legal.call)
            run.flag(
                Code.CALL_WRONG_AMOUNT,
                f"calls {run.money(amount)}; the call is {expected}",
                seq=seq,
                seat=seat,
                expected=expected,
                actual=run.money(amount),
            )
        return mine + amount
    if kind is _BET:
        to = mine + (action.amount or 0)
        if not legal.can_bet:
            run.flag(
                Code.BET_FACING_BET,
                "bets where there is already a bet; that is a raise",
                seq=seq,
                seat=seat,
                expected="raise",
                actual="bet",
            )
    else:
        to = action.to or 0
        if legal.can_bet:
            run.flag(
                Code.RAISE_WITHOUT_BET,
                "raises where nobody has bet; that is a bet",
                seq=seq,
                seat=seat,
                expected="bet",
                actual="raise",
            )
    chips = to - mine
    if chips > stack:
        run.flag(
            Code.EXCEEDS_STACK,
            f"puts in {run.money(chips)} with {run.money(stack)} behind",
            seq=seq,
            seat=seat,
            expected=run.money(stack),
            actual=run.money(chips),
        )
    all_in = chips == stack
    is_bet = legal.can_bet
    verb = "bets" if is_bet else "raises to"  # a bet is its amount, a raise its new total
    below = Code.BET_BELOW_MINIMUM if is_bet else Code.RAISE_BELOW_MINIMUM
    if to <= state.current_bet:
        run.flag(
            below,
            f"a raise to {run.money(to)} does not raise the bet of {run.money(state.current_bet)}",
            seq=seq,
            seat=seat,
            expected=f"more than {run.money(state.current_bet)}",
            actual=run.money(to),
        )
        return to
    if not legal.can_raise:
        code = legal.closed_by or Code.RAISE_NOT_REOPENED
        why = {
            Code.RAISE_CAP_EXCEEDED: "the betting is capped",
            Code.UNCALLABLE_RAISE: "nobody left could call more; the excess comes back uncalled",
        }.get(code, "the betting was not reopened to this player")
        what = f"bets {run.money(to - mine)}" if is_bet else f"raises to {run.money(to)}"
        run.flag(code, f"{what} but {why}", seq=seq, seat=seat, actual=run.money(to))
        return to
    if state.is_limit:
        if to != legal.min_to and not (all_in and to < legal.min_to):
            run.flag(
                Code.WRONG_LIMIT_SIZE,
                f"{verb} {run.money(to)}; the limit makes it {run.money(legal.min_to)}",
                seq=seq,
                seat=seat,
                expected=run.money(legal.min_to),
                actual=run.money(to),
            )
        return to
    if to < legal.min_to and not all_in:
        run.flag(
            below,
            f"{verb} {run.money(to)}; the minimum is {run.money(legal.min_to)}",
            seq=seq,
            seat=seat,
            expected=run.money(legal.min_to),
            actual=run.money(to),
            rule=(
                "R5.min-raise-after-all-in"
                if state.short_raise and not is_bet
                else "R5.pl-min"
                if state.pot_limit
                else "R5.nl-limits"
            ),
        )
    elif to > legal.max_to:
        above = Code.BET_ABOVE_POT_LIMIT if is_bet else Code.RAISE_ABOVE_POT_LIMIT
        run.flag(
            above,
            f"{verb} {run.money(to)}; the pot limit is {run.money(legal.max_to)}",
            seq=seq,
            seat=seat,
            expected=run.money(legal.max_to),
            actual=run.money(to),
        )
    return to


def _record_bet_step(
    run: Run,
    seq: int,
    action: Action,
    i: int,
    legal: Legal,
    pot_before: int,
    stack_before: int,
    to: int,
) -> None:
    state = run.state
    left = state.stack[i]  # a C integer (betting.pxd): no int made to subtract
    moved = stack_before - left
    sized = legal.can_raise
    run.steps.append(
        make_step(
            seq,
            state.street if state.street is not _SHOWDOWN else _RIVER,  # after the river
            action.seat,
            action.type,
            moved if moved else _NO_CHIPS,
            to,
            pot_before,
            stack_before,
            legal.call,
            legal.min_to if sized else _NO_CHIPS,
            legal.max_to if sized else _NO_CHIPS,
            state.all_in[i],
        )
    )


def after_action(run: Run, seq: int) -> None:
    """Return an uncalled bet when the round or hand just ended; move to showdown."""
    state = run.state
    if state.live > 1 and state.next_actor() is not None:
        return
    collect_uncalled(run, seq)
    if state.live > 1:
        if state.street is _RIVER and len(run.shared_board) >= 5:
            state.start_street(Street.SHOWDOWN)
        if state.able <= 1 and not run.all_in_showdown:
            all_in, folded = state.all_in, state.folded
            for i in range(state.n):
                if all_in[i] and not folded[i]:
                    run.all_in_showdown = True
                    break


def collect_uncalled(run: Run, seq: int) -> None:
    back = run.state.uncalled()
    if back is None:
        return
    i, amount = back
    run.state.return_uncalled(i, amount)
    run.expected_uncalled.append((seq, i, amount))
    run.returned.append((run.seats[i], amount))


def uncalled(run: Run, seq: int, action: Action) -> int:
    """Judge an uncalled-bet line against the return the rules make; return the chips of
    that return taken from the middle before this line (the rules return a bet when its
    round closes), which the pot before the line still holds: 0 if it is made here."""
    i = seat_index(run, seq, action)
    collect_uncalled(run, seq)
    amount = action.amount or 0
    match = next(
        (k for k, (_, j, amt) in enumerate(run.expected_uncalled) if j == i and amt == amount), None
    )
    if match is None:
        owed = [(run.seats[j], amt) for _, j, amt in run.expected_uncalled]
        expected = ", ".join(f"{run.money(a)} to seat {s}" for s, a in owed) or "none"
        run.flag(
            Code.UNCALLED_BET_MISMATCH,
            f"the log returns {run.money(amount)} to seat {action.seat}; "
            f"the rules return {expected}",
            seq=seq,
            seat=action.seat,
            expected=expected,
            actual=run.money(amount),
        )
        # the line is this seat's return with a wrong amount: one error, not a second one
        # at the end for a return the log "does not" make
        match = next((k for k, (_, j, _a) in enumerate(run.expected_uncalled) if j == i), None)
        if match is None:
            return 0
    made, _, returned = run.expected_uncalled.pop(match)
    return returned if made != seq else 0
