"""Betting actions judged against the legal range, and uncalled bets returned."""

from __future__ import annotations

from pipeline.model import (
    Action,
    ActionType,
    Betting,
)
from pipeline.rules.context import Run, Step, check_all_in_flag, seat_index
from pipeline.rules.state import Legal, Street
from pipeline.violations import Code


def bet(run: Run, seq: int, action: Action) -> None:
    """Judge one fold, check, call, bet or raise by the legal range, then apply it."""
    state = run.state
    i = run.index.get(action.seat)  # type: ignore[arg-type]
    if i is None:
        i = seat_index(run, seq, action)
    seat = run.seats[i]
    kind = action.type
    pot_before = state.pot_before_round + state.street_total
    stack_before = state.stack[i]
    if (
        kind is ActionType.CHECK
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
        _record_bet_step(run, seq, action, state.legal_for(i), pot_before, stack_before, None)
        return
    if state.live <= 1 or state.street is Street.SHOWDOWN:
        run.flag(Code.ACTION_AFTER_HAND_END, f"{kind} after the hand was over", seq=seq, seat=seat)
    legal = state.legal()
    if legal is None or legal.actor != i:
        who = "nobody" if legal is None else f"seat {run.seats[legal.actor]}"
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
        _record_bet_step(run, seq, action, legal, pot_before, stack_before, None)
        return
    to = _judge(run, seq, action, legal, i)
    if kind is ActionType.FOLD:
        state.fold(i)
    elif kind is ActionType.CHECK:
        state.check(i)
    elif kind is ActionType.CALL:
        state.call(i, action.amount or 0)
    elif to is not None:
        state.raise_to(i, to)
        if state.street is Street.RIVER:
            run.river_aggressor = i
        run.last_aggressor = i
    if kind is not ActionType.FOLD and kind is not ActionType.CHECK:
        all_in = state.stack[i] == 0
        if action.all_in is not all_in:
            check_all_in_flag(run, seq, action, all_in)
    _record_bet_step(run, seq, action, legal, pot_before, stack_before, to)
    after_action(run, seq)


def _judge(run: Run, seq: int, action: Action, legal: Legal, i: int) -> int | None:
    """Judge one betting action against the legal range; return the street total it makes."""
    state = run.state
    seat = run.seats[i]
    kind = action.type
    money = run.money
    if kind is ActionType.FOLD:
        return None
    if kind is ActionType.CHECK:
        if not legal.can_check:
            run.flag(
                Code.CHECK_FACING_BET,
                f"checks facing {money(legal.call)} to call",
                seq=seq,
                seat=seat,
                expected=f"call {money(legal.call)} or fold",
                actual="check",
            )
        return None
    if kind is ActionType.CALL:
        amount = action.amount or 0
        if amount > state.stack[i]:
            run.flag(
                Code.EXCEEDS_STACK,
                f"calls {money(amount)} with {money(state.stack[i])} behind",
                seq=seq,
                seat=seat,
                expected=money(state.stack[i]),
                actual=money(amount),
            )
        if amount != legal.call or legal.call == 0:
            expected = "a check" if legal.call == 0 else money(legal.call)
            run.flag(
                Code.CALL_WRONG_AMOUNT,
                f"calls {money(amount)}; the call is {expected}",
                seq=seq,
                seat=seat,
                expected=expected,
                actual=money(amount),
            )
        return state.bet[i] + amount
    mine = state.bet[i]
    if kind is ActionType.BET:
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
    if chips > state.stack[i]:
        run.flag(
            Code.EXCEEDS_STACK,
            f"puts in {money(chips)} with {money(state.stack[i])} behind",
            seq=seq,
            seat=seat,
            expected=money(state.stack[i]),
            actual=money(chips),
        )
    all_in = chips == state.stack[i]
    is_bet = legal.can_bet
    verb = "bets" if is_bet else "raises"
    below = Code.BET_BELOW_MINIMUM if is_bet else Code.RAISE_BELOW_MINIMUM
    if to <= state.current_bet:
        run.flag(
            below,
            f"a raise to {money(to)} does not raise the bet of {money(state.current_bet)}",
            seq=seq,
            seat=seat,
            expected=f"more than {money(state.current_bet)}",
            actual=money(to),
        )
        return to
    if not legal.can_raise:
        code = legal.closed_by or Code.RAISE_NOT_REOPENED
        why = {
            Code.RAISE_CAP_EXCEEDED: "the betting is capped",
            Code.UNCALLABLE_RAISE: "nobody left could call more; the excess comes back uncalled",
        }.get(code, "the betting was not reopened to this player")
        run.flag(code, f"raises to {money(to)} but {why}", seq=seq, seat=seat, actual=money(to))
        return to
    if state.betting is Betting.FIXED_LIMIT:
        if to != legal.min_to and not (all_in and to < legal.min_to):
            run.flag(
                Code.WRONG_LIMIT_SIZE,
                f"{verb} to {money(to)}; the limit makes it {money(legal.min_to)}",
                seq=seq,
                seat=seat,
                expected=money(legal.min_to),
                actual=money(to),
            )
        return to
    if to < legal.min_to and not all_in:
        run.flag(
            below,
            f"{verb} to {money(to)}; the minimum is {money(legal.min_to)}",
            seq=seq,
            seat=seat,
            expected=money(legal.min_to),
            actual=money(to),
            rule="R5.pl-min" if state.pot_limit else "R5.nl-limits",
        )
    elif to > legal.max_to:
        above = Code.BET_ABOVE_POT_LIMIT if is_bet else Code.RAISE_ABOVE_POT_LIMIT
        run.flag(
            above,
            f"{verb} to {money(to)}; the pot limit is {money(legal.max_to)}",
            seq=seq,
            seat=seat,
            expected=money(legal.max_to),
            actual=money(to),
        )
    return to


def _record_bet_step(
    run: Run,
    seq: int,
    action: Action,
    legal: Legal,
    pot_before: int,
    stack_before: int,
    to: int | None,
) -> None:
    state = run.state
    i = run.index[action.seat or 0]
    moved = stack_before - state.stack[i]
    sized = legal.can_raise
    run.steps.append(
        Step(
            seq,
            state.street,
            action.seat,
            action.type,
            moved if moved else None,
            to,
            pot_before,
            stack_before,
            legal.call,
            legal.min_to if sized else None,
            legal.max_to if sized else None,
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
        if state.street is Street.RIVER and len(run.shared_board) >= 5:
            state.start_street(Street.SHOWDOWN)
        if state.able <= 1 and not run.all_in_showdown:
            all_in, folded = state.all_in, state.folded
            run.all_in_showdown = any(all_in[i] and not folded[i] for i in range(state.n))


def collect_uncalled(run: Run, seq: int) -> None:
    back = run.state.uncalled()
    if back is None:
        return
    i, amount = back
    run.state.return_uncalled(i, amount)
    run.expected_uncalled.append((seq, i, amount))
    run.returned.append((run.seats[i], amount))


def uncalled(run: Run, seq: int, action: Action) -> None:
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
        return
    run.expected_uncalled.pop(match)
