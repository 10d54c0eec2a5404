"""Per-seat statistic flags (STATS.md), on hand-made hands whose answers are known."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pipeline.formats.jsonl import read_jsonl
from pipeline.lake.query import run_query
from pipeline.lake.rows import _pot_kinds
from pipeline.pots import Award, Half
from pipeline.rules import Replay, replay
from pipeline.rules.stats import (
    FLAG_NAMES,
    SeatStats,
    hand_positions,
    positions,
    seat_flags,
    seat_stats,
)
from pipeline.run import run_lake
from pipeline.settle import Settlement
from pipeline.violations import Reject
from tests.handbuilder import (
    bet,
    board,
    call,
    check,
    checked_streets,
    fold,
    play,
    post,
    raise_to,
    uncalled,
)
from tests.test_lake import SAMPLES

# Six seats: 1..6, button 6 (SB 1, BB 2, UTG 3, HJ 4, CO 5, BTN 6).


def _stats(judged: Replay) -> dict[int, SeatStats]:
    assert judged.errors == (), judged.errors
    flags = seat_stats(judged, positions(len(judged.seats)))
    return dict(zip(judged.seats, flags, strict=True))


def _blinds() -> list[dict[str, object]]:
    return [post(1, "small", "0.50"), post(2, "big", "1.00")]


def test_a_big_blind_who_only_checks_did_not_put_money_in_voluntarily() -> None:
    hand = [
        *_blinds(),
        call(3, "1.00"),
        fold(4),
        fold(5),
        fold(6),
        call(1, "0.50"),
        check(2),
        *checked_streets([1, 2, 3]),
    ]
    stats = _stats(play(hand, seats=6))
    assert (stats[2].vpip_opp, stats[2].vpip) == (True, False)
    assert (stats[1].vpip, stats[3].vpip) == (True, True)
    assert not any(stats[s].vpip for s in (4, 5, 6))
    assert all(stats[s].vpip_opp for s in range(1, 7))
    assert not any(stats[s].pfr for s in range(1, 7))
    assert not stats[5].steal_opp  # the under-the-gun limp means the pot was not folded to CO
    assert all(stats[s].saw_flop for s in (1, 2, 3))
    assert all(stats[s].went_to_showdown for s in (1, 2, 3))
    assert not stats[4].saw_flop


def test_steal_three_bet_and_fold_to_three_bet() -> None:
    hand = [
        *_blinds(),
        fold(3),
        fold(4),
        raise_to(5, "3.50"),
        raise_to(6, "11.00"),
        fold(1),
        fold(2),
        fold(5),
        uncalled(6, "7.50"),
    ]
    stats = _stats(play(hand, seats=6))
    assert (stats[5].steal_opp, stats[5].steal, stats[5].pfr) == (True, True, True)
    assert (stats[6].three_bet_opp, stats[6].three_bet) == (True, True)
    assert not stats[6].steal_opp  # the CO had raised: not folded to the button
    assert (stats[5].fold_to_three_bet_opp, stats[5].fold_to_three_bet) == (True, True)
    assert not stats[1].three_bet_opp  # two raises in front of the small blind
    assert not stats[3].steal_opp  # UTG is not a stealing seat
    assert (stats[3].vpip_opp, stats[3].vpip) == (True, False)


def test_continuation_bets_fold_to_them_and_aggression_counts() -> None:
    hand = [
        post(1, "small", "0.50"),
        post(2, "big", "1.00"),
        raise_to(3, "3.00"),
        fold(1),
        call(2, "2.00"),
        board("2c7d9h"),
        check(2),
        bet(3, "4.00"),
        call(2, "4.00"),
        board("Ks"),
        check(2),
        bet(3, "8.00"),
        fold(2),
        uncalled(3, "8.00"),
    ]
    stats = _stats(play(hand))
    btn, bb = stats[3], stats[2]
    assert (btn.steal_opp, btn.steal) == (True, True)
    assert (btn.cbet_flop_opp, btn.cbet_flop, btn.cbet_turn_opp, btn.cbet_turn) == (
        True,
        True,
        True,
        True,
    )
    assert not btn.cbet_river_opp
    assert (bb.fold_to_cbet_flop_opp, bb.fold_to_cbet_flop) == (True, False)
    assert (bb.fold_to_cbet_turn_opp, bb.fold_to_cbet_turn) == (True, True)
    assert (btn.postflop_aggressive, btn.postflop_calls, btn.postflop_folds) == (2, 0, 0)
    assert (bb.postflop_aggressive, bb.postflop_calls, bb.postflop_folds) == (0, 1, 1)
    assert bb.three_bet_opp and not bb.three_bet
    assert btn.saw_flop and bb.saw_flop and not stats[1].saw_flop
    assert not btn.went_to_showdown


def test_no_continuation_bet_opportunity_when_someone_bets_first() -> None:
    hand = [
        post(1, "small", "0.50"),
        post(2, "big", "1.00"),
        raise_to(3, "3.00"),
        fold(1),
        call(2, "2.00"),
        board("2c7d9h"),
        bet(2, "3.00"),
        fold(3),
        uncalled(2, "3.00"),
    ]
    stats = _stats(play(hand))
    assert not stats[3].cbet_flop_opp
    assert not stats[2].fold_to_cbet_flop_opp


def test_a_walk_gives_the_big_blind_no_decision() -> None:
    stats = _stats(play([*_blinds(), fold(3), fold(1), uncalled(2, "0.50")]))
    assert not stats[2].vpip_opp
    assert (stats[3].steal_opp, stats[3].steal) == (True, False)
    assert (stats[1].steal_opp, stats[1].steal) == (True, False)


def test_hi_lo_pot_kinds_in_the_lake(tmp_path: Path) -> None:
    """Scoop, high only, low only and quartered, counted per seat from the awards."""
    lake = tmp_path / "lake"
    logs = [str(SAMPLES / f"{name}.jsonl") for name in ("hilo", "courchevel", "limit")]
    run_lake(logs, lake, workers=1)
    rows = run_query(
        lake,
        "SELECT hand_id, seat, pots_won, scoops, high_only, low_only, quartered FROM seats "
        "WHERE pots_won > 0 ORDER BY hand_id, seat",
    ).rows
    assert ("SAMPLE-0006", 3, 1, 0, 0, 1, 0) in rows  # the low half alone
    assert ("SAMPLE-0006", 4, 1, 0, 1, 0, 0) in rows  # the high half alone
    assert ("SAMPLE-0007", 1, 1, 0, 0, 0, 1) in rows  # a quarter: the shared low
    assert ("SAMPLE-0007", 5, 1, 0, 0, 0, 1) in rows
    assert ("SAMPLE-0008", 4, 1, 1, 0, 0, 0) in rows  # no low qualifies: a scoop, not high only
    assert ("SAMPLE-0010", 3, 1, 1, 0, 0, 0) in rows  # both halves: a scoop
    # each pot won counts in one kind at most (STATS.md: the share of pots won, by kind)
    assert all(won >= scoop + high + low + quarter for _, _, won, scoop, high, low, quarter in rows)
    vpip = run_query(lake, "SELECT sum(vpip::INT), sum(vpip_opp::INT) FROM seats").rows[0]
    assert 0 < vpip[0] <= vpip[1]


def test_a_raise_over_the_pot_limit_is_still_the_players_raise() -> None:
    """A raise flagged for its size is what the player did: VPIP, PFR, and the next raise
    is a 3-bet (SB 1, BB 2, BTN 3; the pot limit for the button is 3.50)."""
    hand = [*_blinds(), raise_to(3, "3.51"), raise_to(1, "11.00"), fold(2), fold(3)]
    hand.append(uncalled(1, "7.49"))
    judged = play(hand)
    assert [code for _, code in found_codes(judged)] == ["raise-above-pot-limit"]
    stats = dict(zip(judged.seats, seat_stats(judged, positions(3)), strict=True))
    assert (stats[3].vpip, stats[3].pfr, stats[3].steal_opp, stats[3].steal) == (True,) * 4
    assert (stats[3].fold_to_three_bet_opp, stats[3].fold_to_three_bet) == (True, True)
    assert (stats[1].three_bet_opp, stats[1].three_bet, stats[1].steal_opp) == (True, True, False)
    assert not stats[2].three_bet_opp  # the big blind faced two raises


def test_four_handed_the_seat_before_the_button_is_the_cutoff_and_may_steal() -> None:
    assert positions(4) == ["SB", "BB", "CO", "BTN"]
    hand = [*_blinds(), raise_to(3, "3.50"), fold(4), fold(1), fold(2), uncalled(3, "2.50")]
    stats = _stats(play(hand, seats=4))
    assert (stats[3].steal_opp, stats[3].steal) == (True, True)


def test_with_no_small_blind_the_first_seat_after_the_button_is_the_big_blind() -> None:
    """R2.no-small-blind: seat 2 (empty) would have been the small blind; seat 3 posts the
    big blind, and the four players are named as at a table of five."""
    hand = [post(3, "big", "1.00"), fold(4), fold(5), fold(1), uncalled(3, "1.00")]
    judged = play(hand, seats=[1, 3, 4, 5], button=1)
    assert judged.errors == (), judged.errors
    names = hand_positions(judged.hand, judged.seats)
    assert dict(zip(judged.seats, names, strict=True)) == {3: "BB", 4: "HJ", 5: "CO", 1: "BTN"}
    stats = dict(zip(judged.seats, seat_stats(judged, names), strict=True))
    assert [stats[s].steal_opp for s in (4, 5, 1)] == [False, True, True]  # HJ is no steal


def test_a_small_blind_posted_keeps_the_usual_names() -> None:
    hand = [*_blinds(), fold(3), fold(4), fold(1), uncalled(2, "0.50")]
    judged = play(hand, seats=4)
    assert hand_positions(judged.hand, judged.seats) == positions(4)


def test_a_raise_out_of_turn_is_the_players_raise_and_the_others_face_it() -> None:
    """Button 1, blinds 2 and 3: seat 1 raises before seat 4 (out of turn); the replay
    applies the raise, so seat 4 folds facing it, and every later seat could 3-bet."""
    hand = [post(2, "small", "0.50"), post(3, "big", "1.00"), raise_to(1, "3.00"), fold(4)]
    hand += [fold(2), fold(3), uncalled(1, "2.00")]
    judged = play(hand, seats=4, button=1)
    assert [code for _, code in found_codes(judged)] == ["action-out-of-turn"]
    stats = dict(zip(judged.seats, seat_stats(judged, positions(4)), strict=True))
    assert (stats[1].vpip_opp, stats[1].vpip, stats[1].pfr) == (True, True, True)
    assert all(stats[s].three_bet_opp and not stats[s].three_bet for s in (2, 3, 4))
    assert not any(stats[s].steal_opp for s in (2, 4))  # a raise came before them


def test_a_raise_to_the_bet_is_a_call_and_a_call_of_nothing_a_check() -> None:
    """Button 1 'raises' to the big blind (raise-below-minimum): a limp, as applied; the
    big blind 'calls' 0 (call-wrong-amount): a check. Nobody raised before the flop."""
    hand = [*_blinds(), raise_to(3, "1.00"), call(1, "0.50"), call(2, "0")]
    hand += [board("2h6s9c"), check(1), check(2), bet(3, "3.00"), fold(1), fold(2)]
    hand.append(uncalled(3, "3.00"))
    judged = play(hand)
    codes = [code for _, code in found_codes(judged)]
    assert codes == ["raise-below-minimum", "call-wrong-amount"], codes
    stats = dict(zip(judged.seats, seat_stats(judged, positions(3)), strict=True))
    assert (stats[3].vpip, stats[3].pfr, stats[3].steal) == (True, False, False)
    assert not any(stats[s].three_bet_opp for s in (1, 2, 3))
    assert (stats[2].vpip_opp, stats[2].vpip) == (True, False)  # the big blind checked
    assert not stats[3].cbet_flop_opp  # no pre-flop raiser, no c-bet


def test_an_action_by_a_player_who_folded_is_no_decision() -> None:
    """Seat 4 folds pre-flop, then 'bets' the flop out of turn: the replay applies nothing,
    so seat 3's bet is still the c-bet and seat 2 folds to it; seat 3's 'call' after its
    own fold does not close the pot the button may steal."""
    hand = [*_blinds(), raise_to(3, "3.00"), fold(4), fold(1), call(2, "2.00")]
    hand += [board("2c3d4h"), check(2), bet(4, "1.00"), bet(3, "3.00"), fold(2)]
    hand.append(uncalled(3, "3.00"))
    judged = play(hand, seats=4)
    assert [code for _, code in found_codes(judged)] == ["action-out-of-turn"]
    stats = dict(zip(judged.seats, seat_stats(judged, positions(4)), strict=True))
    assert stats[4].postflop_aggressive == 0
    assert (stats[3].cbet_flop_opp, stats[3].cbet_flop) == (True, True)
    assert (stats[2].fold_to_cbet_flop_opp, stats[2].fold_to_cbet_flop) == (True, True)
    steal = [*_blinds(), fold(3), call(3, "1.00"), raise_to(4, "3.00"), fold(1), fold(2)]
    steal.append(uncalled(4, "2.00"))
    judged = play(steal, seats=4)
    stats = dict(zip(judged.seats, seat_stats(judged, positions(4)), strict=True))
    assert (stats[4].steal_opp, stats[4].steal) == (True, True)


def found_codes(judged: Replay) -> list[tuple[int | None, str]]:
    return [(v.seq, v.code.value) for v in judged.violations]


def test_a_straddle_is_a_blind_so_the_first_raise_over_it_opens_and_the_next_three_bets() -> None:
    """Seat 3 straddles 2.00; seat 4's raise is the first raise (not a 3-bet), seat 5's
    re-raise the 3-bet, and seat 4 folding to it is a fold to a 3-bet (as PokerTracker)."""
    hand = [
        *_blinds(),
        post(3, "straddle", "2.00"),
        raise_to(4, "6.00"),
        raise_to(5, "18.00"),
        fold(6),
        fold(1),
        fold(2),
        fold(3),
        fold(4),
        uncalled(5, "12.00"),
    ]
    stats = _stats(play(hand, seats=6))
    assert (stats[4].pfr, stats[4].three_bet_opp) == (True, False)
    assert (stats[5].three_bet_opp, stats[5].three_bet) == (True, True)
    assert (stats[4].fold_to_three_bet_opp, stats[4].fold_to_three_bet) == (True, True)
    assert not stats[3].fold_to_three_bet_opp  # the straddle is a post, not a raise


def test_fold_to_three_bet_is_the_first_raisers_answer_only() -> None:
    """Seat 5 opens, seat 6 3-bets, seat 5 4-bets, seat 6 folds: seat 5 faced the 3-bet (and
    did not fold); seat 6, facing a 4-bet, has no fold-to-3-bet opportunity."""
    hand = [
        *_blinds(),
        fold(3),
        fold(4),
        raise_to(5, "3.50"),
        raise_to(6, "11.00"),
        fold(1),
        fold(2),
        raise_to(5, "30.00"),
        fold(6),
        uncalled(5, "19.00"),
    ]
    stats = _stats(play(hand, seats=6))
    assert (stats[5].fold_to_three_bet_opp, stats[5].fold_to_three_bet) == (True, False)
    assert not stats[6].fold_to_three_bet_opp


def test_a_flop_bet_the_log_calls_a_raise_is_a_c_bet_as_the_rules_apply_it() -> None:
    hand = [*_blinds(), fold(3), fold(4), fold(5), raise_to(6, "3.00"), fold(1), call(2, "2.00")]
    hand += [board("Kh9s4d"), check(2), raise_to(6, "4.00"), fold(2), uncalled(6, "4.00")]
    judged = play(hand, seats=6)
    assert [v.code.value for v in judged.violations] == ["raise-without-bet"]
    stats = dict(zip(judged.seats, seat_stats(judged, positions(6)), strict=True))
    assert (stats[6].cbet_flop_opp, stats[6].cbet_flop) == (True, True)
    assert (stats[2].fold_to_cbet_flop_opp, stats[2].fold_to_cbet_flop) == (True, True)
    assert stats[6].postflop_aggressive == 1


def test_with_antes_only_the_opening_bet_is_the_bet_and_the_raise_over_it_no_three_bet() -> None:
    """No big blind (antes only): the first pre-flop bet is the bet, as the big blind would be.
    Seat 1 raises it (facing no raise: no 3-bet opportunity), seat 2 re-raises facing one
    raise (a 3-bet); seat 3 only bet, so it faced no re-raise of a raise of its own, and seat
    1, the first raiser, folds to the 3-bet."""
    antes = [post(seat, "ante", "1.00") for seat in (1, 2, 3)]
    hand = [*antes, bet(3, "2.00"), raise_to(1, "6.00"), raise_to(2, "18.00"), fold(3), fold(1)]
    hand.append(uncalled(2, "12.00"))
    judged = play(hand, small_blind="0", big_blind="0", ante="1.00")
    stats = dict(zip(judged.seats, seat_stats(judged, positions(3)), strict=True))
    assert (stats[1].three_bet_opp, stats[1].three_bet) == (False, False)
    assert (stats[2].three_bet_opp, stats[2].three_bet) == (True, True)
    assert not stats[3].fold_to_three_bet_opp
    assert (stats[1].fold_to_three_bet_opp, stats[1].fold_to_three_bet) == (True, True)
    assert (stats[3].vpip, stats[3].pfr, stats[3].steal_opp, stats[3].steal) == (True,) * 4


def _pot_kinds_by_definition(
    awards: list[Award], hilo: bool
) -> dict[int, tuple[int, int, int, int, int]]:
    """STATS.md's pot kinds, per (pot, runout), spelled out with sets."""
    halves: dict[tuple[int, int], tuple[set[int], set[int]]] = {}
    for a in awards:
        high, low = halves.setdefault((a.pot, a.runout), (set(), set()))
        (low if a.half is Half.LOW else high).add(a.seat)
    out: dict[int, list[int]] = {}
    for high, low in halves.values():
        for seat in high | low:
            counts = out.setdefault(seat, [0, 0, 0, 0, 0])
            counts[0] += 1
            if high == {seat} and (low == {seat} or not low):
                counts[1] += 1  # scoop
            elif hilo and seat not in low:
                counts[2] += 1  # high only
            elif hilo and seat not in high:
                counts[3 if len(low) == 1 else 4] += 1  # low only, or quartered
    return {seat: (c[0], c[1], c[2], c[3], c[4]) for seat, c in out.items()}


AWARD = st.builds(
    Award,
    pot=st.integers(0, 2),
    runout=st.integers(1, 2),
    half=st.sampled_from(list(Half)),
    seat=st.integers(1, 4),
    amount=st.integers(1, 100),
)


@given(awards=st.lists(AWARD, max_size=10), hilo=st.booleans())
def test_pot_kinds_are_the_definitions(awards: list[Award], hilo: bool) -> None:
    settled = Settlement((), tuple(awards), {}, {}, 0, (), None)
    assert _pot_kinds(settled, hilo) == _pot_kinds_by_definition(awards, hilo)


def test_the_lakes_flag_columns_are_seat_flags(tmp_path: Path) -> None:
    """Every seat's flags and counts in the lake, column by column, are those of
    :func:`seat_flags` for its hand (the flags reach the lake as one table per hand)."""
    lake = tmp_path / "lake"
    logs = sorted(SAMPLES.glob("*.jsonl"))
    run_lake([str(p) for p in logs], lake, workers=1)
    columns = ", ".join(FLAG_NAMES)
    stored = {
        (hand_id, seat): tuple(values)
        for hand_id, seat, *values in run_query(
            lake, f"SELECT hand_id, seat, {columns} FROM seats"
        ).rows
    }
    expected = {}
    for path in logs:
        for hand in read_jsonl(path):
            if isinstance(hand, Reject):
                continue
            judged = replay(hand)
            names = hand_positions(hand, judged.seats)
            for seat, flags in zip(judged.seats, seat_flags(judged, names), strict=True):
                expected[(hand.hand_id, seat)] = flags
    assert expected and stored == expected
    assert any(any(flags) for flags in expected.values())  # not all zeros
