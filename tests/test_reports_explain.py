"""croupier explain: the dispute view of one hand, as data, in four formats, and from the CLI.

Hand-made hands (``tests.handbuilder``) pin the data: a violation at its action, a tied pot
with an odd chip, a quartered hi/lo pot, a side pot, a payout that differs from the log.
Golden files (``tests/golden/explain/<name>.<ext>``) pin the rendering of real corpus hands;
they are compared on every run and rewritten only when ``CROUPIER_REGENERATE_GOLDEN=1`` (or
``CROUPIER_UPDATE_GOLDEN=1``); the corpus tests skip, saying why, when it is absent.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import shutil
from dataclasses import fields
from decimal import Decimal
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.formats import read_hands
from pipeline.lake.query import connect
from pipeline.model import HandRecord
from pipeline.reports.explain import (
    ExplainError,
    Explanation,
    explain,
    find_in_file,
    locate,
    money_text,
)
from pipeline.reports.explain_render import render, to_html, to_json, to_markdown, to_text
from pipeline.reports.explain_source import source_lines
from pipeline.reports.rule_text import RULE_TEXT, rules_from_markdown
from pipeline.rules import STANDARD
from pipeline.run import run_lake
from pipeline.violations import Code
from tests.handbuilder import (
    bet,
    blinds,
    board,
    build,
    call,
    check,
    checked_streets,
    collected,
    deal,
    fold,
    post,
    raise_to,
    show,
    uncalled,
    with_result,
)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "sample"
GOLDEN = Path(__file__).resolve().parent / "golden" / "explain"
REGENERATE = "1" in (
    os.environ.get("CROUPIER_REGENERATE_GOLDEN"),
    os.environ.get("CROUPIER_UPDATE_GOLDEN"),
)
runner = CliRunner()


def corpus_root() -> Path:
    """Return the corpus folder (``$CROUPIER_CORPUS`` overrides ``../shared/corpus``)."""
    base = os.environ.get("CROUPIER_CORPUS")
    return Path(base) if base else ROOT.parent / "shared" / "corpus"


CORPUS = corpus_root()


# ----------------------------------------------------------------------------- hands


def _tied_pot() -> HandRecord:
    """Seats 2 and 3 tie with the same full house; the pot of 2.25 cannot split evenly."""
    return build(
        [
            post(1, "small", "0.25"),
            post(2, "big", "1.00"),
            deal(1, "9c9hTsJs"),
            deal(2, "AsAc5d6d"),
            deal(3, "AhAd7s8s"),
            call(3, "1.00"),
            fold(1),
            check(2),
            *checked_streets([2, 3], ("KsKdKh", "2c", "3d")),
            show(2, "AsAc5d6d"),
            show(3, "AhAd7s8s"),
        ],
        small_blind="0.25",
    )


def _quartered() -> HandRecord:
    """Omaha hi/lo: seat 1 scoops the high with quads, seats 2 and 3 tie for the low."""
    return build(
        [
            *blinds(),
            deal(1, "KhKc9s9d"),
            deal(2, "As4sQcQd"),
            deal(3, "Ac4cJhJd"),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3], ("2c3d7h", "Kd", "Ks")),
            show(1, "KhKc9s9d"),
            show(2, "As4sQcQd"),
            show(3, "Ac4cJhJd"),
        ],
        variant="omaha-hilo",
    )


def _side_pot() -> HandRecord:
    """Seat 1 is all-in for 5.00 and wins the main pot; seat 2 wins the side pot."""
    return build(
        [
            *blinds(),
            deal(1, "AsAdKsKd"),
            deal(2, "QsQdJsJd"),
            deal(3, "9c8c7h6h"),
            raise_to(3, "10.00"),
            call(1, "4.50", all_in=True),
            call(2, "9.00"),
            *checked_streets([2, 3], ("Ah2c3d", "Qh", "4s")),
            show(1, "AsAdKsKd"),
            show(2, "QsQdJsJd"),
            show(3, "9c8c7h6h"),
        ],
        stacks=["5.00", "100.00", "100.00"],
        betting="no-limit",
    )


def _over_the_pot() -> HandRecord:
    """Seat 3 raises to 10.00 where the pot limit is 3.50."""
    return build(
        [
            *blinds(),
            raise_to(3, "10.00"),
            fold(1),
            fold(2),
            {"type": "uncalled", "seat": 3, "amount": "9.00"},
        ]
    )


# ----------------------------------------------------------------------------- data


def test_a_violation_is_marked_at_its_action_with_its_rule_quoted() -> None:
    e = explain(_over_the_pot(), STANDARD)
    raise_row = e.actions[2]
    assert (raise_row.player, raise_row.type, raise_row.to_amount) == ("p3", "raise", 1000)
    assert (raise_row.to_call, raise_row.min_to, raise_row.max_to) == (100, 200, 350)
    assert raise_row.pot_before == 150
    assert raise_row.legal == "fold, call $1.00 or raise to between $2.00 and $3.50"
    assert [p.code for p in raise_row.problems] == [Code.RAISE_ABOVE_POT_LIMIT.value]
    problem = raise_row.problems[0]
    assert problem.rule.id == "R5.pl-max"
    assert problem.rule.text.startswith("Maximum: the size of the pot")
    assert (problem.expected, problem.actual) == ("3.50", "10.00")
    assert all(not row.problems for row in e.actions if row.seq != 2)
    assert e.status == "violations"
    assert "R5.pl-max" in {q.id for q in e.rules_cited}


def test_a_tied_pot_gives_the_odd_chip_to_the_first_seat_left_of_the_button() -> None:
    hand = with_result(
        _tied_pot(),
        {"rake": "0", "collected": [collected(2, "1.13"), collected(3, "1.12")]},
    )
    e = explain(hand, STANDARD)
    (pot,) = e.pots
    assert (pot.amount, pot.eligible) == (225, (2, 3))
    assert [(s.seat, s.half, s.amount) for s in pot.shares] == [
        (2, "whole", 113),
        (3, "whole", 112),
    ]
    assert all(s.hand == "full house, Kings full of Aces" for s in pot.shares)
    assert all("R8.odd-chips" in {q.id for q in s.rules} for s in pot.shares)
    (note,) = [n for n in pot.notes if n.rule is not None and n.rule.id == "R8.odd-chips"]
    assert "p2" in note.text and "$1.13" in note.text
    assert {(h.seat, h.high) for h in e.showdown} == {
        (2, "full house, Kings full of Aces"),
        (3, "full house, Kings full of Aces"),
    }
    assert e.payouts_match is True
    assert all(p.matches for p in e.players if p.won_recorded is not None)


def test_a_quartered_hi_lo_pot_shows_each_half_and_the_shared_low() -> None:
    e = explain(_quartered(), STANDARD)
    (pot,) = e.pots
    assert [(s.seat, s.half, s.amount) for s in pot.shares] == [
        (1, "high", 150),
        (2, "low", 75),
        (3, "low", 75),
    ]
    high = pot.shares[0]
    assert high.hand == "four of a kind, Kings"
    assert sorted(high.cards_used.split()) == sorted(["Kh", "Kc", "Kd", "Ks", "7h"])
    texts = [n.text for n in pot.notes]
    assert "split high/low: high $1.50, low $1.50" in texts
    assert "the low half is tied between p2 and p3: $0.75 each" in texts
    lows = {h.seat: (h.low, h.low_cards) for h in e.showdown}
    assert lows[1] == ("no low", "")
    assert lows[2][0] == lows[3][0] == "7-4-3-2-A low"


@pytest.mark.parametrize(
    ("stack", "odd"),
    [
        ("100.00", " (the 2 odd chips go one each to the first 2 boards)"),  # 200.00 / 3
        ("100.50", ""),  # 201.00 / 3: no odd chip
        ("100.001", " (the odd chip goes to the first board)"),  # 200.002 / 3
    ],
)
def test_a_board_run_three_times_says_where_the_odd_chips_go(stack: str, odd: str) -> None:
    """R8.run-it-twice: heads-up all-in, the board run three times."""
    hole = {1: "AhAdKcKs", 2: "7c8c9hTh"}
    runs = (("2s3dQc", "Jd", "4h"), ("6s5cJh", "2d", "9s"), ("Ts9c2c", "3h", "Qs"))
    hand = build(
        [
            post(2, "small", "0.50"),
            post(1, "big", "1.00"),
            *[deal(seat, cards) for seat, cards in hole.items()],
            raise_to(2, stack, all_in=True),
            call(1, f"{Decimal(stack) - 1:f}", all_in=True),
            *[board(cards, run=run) for run, street in enumerate(runs, 1) for cards in street],
            show(2, hole[2]),
            show(1, hole[1]),
        ],
        seats=2,
        betting="no-limit",
        stacks=[stack, stack],
        unit="0.001" if len(stack) > 6 else "0.01",
    )
    (pot,) = explain(hand, STANDARD).pots
    (text,) = [n.text for n in pot.notes if n.text.startswith("divided between 3 boards")]
    assert text.endswith(odd) if odd else "odd" not in text, text


def test_a_side_pot_lists_who_could_win_it() -> None:
    e = explain(_side_pot(), STANDARD)
    main, side = e.pots
    assert (main.amount, main.eligible) == (1500, (1, 2, 3))
    assert (side.amount, side.eligible, side.eligible_players) == (1000, (2, 3), ("p2", "p3"))
    assert [(s.seat, s.amount) for s in main.shares] == [(1, 1500)]
    assert [(s.seat, s.amount) for s in side.shares] == [(2, 1000)]
    assert "R8.side-pots" in {q.id for q in side.shares[0].rules}
    assert side.notes[0].text == (
        "only p2 and p3 can win this side pot: the players still in with enough put in to match it"
    )
    assert side.notes[1].text == (
        "p1 is all-in for less and can win only the main pot, the chips they matched"
    )
    assert e.actions[6].description == "calls $4.50 and is all-in"
    money = {p.seat: (p.invested, p.won, p.final_stack) for p in e.players}
    assert money == {1: (500, 1500, 1500), 2: (1000, 1000, 10000), 3: (1000, 0, 9000)}


def _side_pot_with_a_fold() -> HandRecord:
    """Seat 1 is all-in for 5.00; seats 2 and 3 put 10.00 each in the side pot, and seat 2
    folds on the flop: seat 3 alone can win the side pot, at a showdown with seat 1."""
    return build(
        [
            *blinds(),
            deal(1, "AsAdKsKd"),
            deal(2, "QsQdJsJd"),
            deal(3, "9c8c7h6h"),
            raise_to(3, "10.00"),
            call(1, "4.50", all_in=True),
            call(2, "9.00"),
            board("Ah2c3d"),
            check(2),
            bet(3, "20.00"),
            fold(2),
            uncalled(3, "20.00"),
            board("Qh"),
            board("4s"),
            show(1, "AsAdKsKd"),
            show(3, "9c8c7h6h"),
        ],
        stacks=["5.00", "100.00", "100.00"],
        betting="no-limit",
    )


def test_a_side_pot_names_who_can_win_it_who_folded_and_who_is_all_in_for_less() -> None:
    """R8.side-pots: a player who paid into the side pot and folded is not said to have put
    in too little; the pot went to a showdown, so its share is not "(no showdown)"."""
    e = explain(_side_pot_with_a_fold(), STANDARD)
    _, side = e.pots
    assert (side.amount, side.eligible) == (1000, (3,))
    texts = [(n.text, n.rule.id if n.rule else None) for n in side.notes]
    assert texts == [
        (
            "only p3 can win this side pot: the one player still in with enough put in to match it",
            "R8.side-pots",
        ),
        ("p2 also put chips in it but folded, and so cannot win it", "R8.best-hand"),
        (
            "p1 is all-in for less and can win only the main pot, the chips they matched",
            "R8.side-pots",
        ),
    ]
    text = to_text(e)
    assert "(no showdown" not in text
    assert "(not compared: nobody else could win this pot)" in text
    assert "R8.best-hand" in {q.id for q in e.rules_cited}


def test_no_low_is_judged_among_the_hands_that_can_win_that_pot() -> None:
    """R8.hi-lo: the side pot's note speaks of the hands eligible for it, not of the short
    all-in player's low, which wins half the main pot."""
    hand = build(
        [
            *blinds(),
            deal(1, "As2d9c9h"),
            deal(2, "QsQdJsJd"),
            deal(3, "TcTdJhJc"),
            raise_to(3, "10.00"),
            call(1, "4.50", all_in=True),
            call(2, "9.00"),
            *checked_streets([2, 3], ("3c4d7h", "Kd", "Ks")),
            show(1, "As2d9c9h"),
            show(2, "QsQdJsJd"),
            show(3, "TcTdJhJc"),
        ],
        stacks=["5.00", "100.00", "100.00"],
        betting="no-limit",
        variant="omaha-hilo",
    )
    e = explain(hand, STANDARD)
    main, side = e.pots
    assert {s.half for s in main.shares} == {"high", "low"}
    assert [s.seat for s in main.shares if s.half == "low"] == [1]
    texts = [n.text for n in side.notes]
    assert (
        "no hand that can win this pot has a qualifying low: the best high takes the whole pot"
    ) in texts
    assert not any(t.startswith("no qualifying low") for t in texts)


def test_a_hand_with_a_card_dealt_twice_says_why_its_pots_are_not_awarded() -> None:
    """The showdown is not said to have not happened, the recorded collections are shown
    and said to be unchecked, and the note names the duplicate card, not unknown hands."""
    hand = build(
        [
            *blinds(),
            deal(1, "AcKd5s5h"),
            deal(2, "AsTc6h6d"),
            deal(3, "AdTh7c7s"),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3], ("KdQcJh", "3s", "2d")),
            show(1, "AcKd5s5h"),
            show(2, "AsTc6h6d"),
            show(3, "AdTh7c7s"),
        ]
    )
    hand = with_result(
        hand, {"rake": "0", "collected": [collected(2, "1.50"), collected(3, "1.50")]}
    )
    e = explain(hand, STANDARD)
    assert e.unsettled is not None
    assert "Kd appears twice" in e.unsettled and "duplicate-card" in e.unsettled
    text = to_text(e)
    assert "the hand ended before the cards were compared" not in text
    assert "there is no recorded payout to compare" not in text
    assert "a hand at showdown is not fully known" not in text
    assert "The hands reached a showdown, but a card is dealt twice" in text
    assert "The log records these collections, unchecked: p2 $1.50, p3 $1.50." in text
    assert "not awarded" in text
    (note,) = [n for n in e.notes if "could not be awarded" in n.text]
    assert note.rule is not None and note.rule.id == "R1.deck"


def test_an_uncalled_bet_the_log_returns_late_is_already_out_of_the_pot() -> None:
    """R4.uncalled: the excess of an all-in call for less goes back when the round closes;
    the log's return line after the showdown does not put it back into 'Pot before'."""
    hand = build(
        [
            *blinds(),
            raise_to(3, "10.00"),
            call(1, "4.50", all_in=True),
            fold(2),
            board("2c3d4h"),
            board("9s"),
            board("Kd"),
            show(1, "AsAdKsKh"),
            show(3, "9c8c7h6h"),
            uncalled(3, "5.00"),
        ],
        stacks=["5.00", "100.00", "100.00"],
        betting="no-limit",
    )
    e = explain(hand, STANDARD)
    *before, late = e.actions
    assert late.type == "uncalled"
    assert [a.pot_before for a in before[-5:]] == [1100] * 5
    assert late.pot_before == 1100
    assert late.description.endswith("it left the pot when its betting round closed")


def test_html_draws_suit_symbols_for_cards_never_for_names() -> None:
    """A player named like two cards keeps the name, in tables and sentences alike."""
    page = to_html(explain(_side_pot_with_a_fold(), STANDARD))
    renamed = build(
        [
            *blinds(),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3], ("2c3d4h", "9s", "Kc")),
            show(1, "QsQdJsJd"),
            show(2, "TcTd8c8d"),
            show(3, "5c5d6c6d"),
        ],
        players=["Ah Kd", "Bo", "Cy"],
    )
    named = to_html(explain(renamed, STANDARD))
    assert 'title="Ah"' not in named and 'title="Kd"' not in named
    assert "<td>Ah Kd</td>" in named
    assert "Players who could win it: Ah Kd, Bo, Cy." in named
    assert 'title="Ah"' in page  # cards still get their symbols


def test_a_void_hand_lists_its_problems_without_counting_them() -> None:
    """R3.misdeal: a cancelled hand fails nothing; its problems are information, its
    unreplayed post is put in and goes back, and every rule cited is quoted."""
    hand = build([post(1, "small", "0.50")], seats=1, cancelled=True)
    e = explain(hand, STANDARD)
    assert e.status == "void"
    text = to_text(e)
    assert "!!" not in text and "Error" not in text
    assert "Not counted (void hand) at the hand as a whole" in text
    assert "what it lacks is why" not in text
    assert "after the stop" not in text
    assert e.actions[0].street == "not replayed"
    (money,) = e.players
    assert (money.invested, money.final_stack) == (50, 10000)
    cited = {q.id for q in e.rules_cited}
    assert {"R3.misdeal", "R1.players"} <= cited
    rules_section = text[text.index("RULES APPLIED") :]
    assert "R3.misdeal  Misdeal: the hand is void" in rules_section


def test_a_void_hand_without_problems_still_quotes_the_rule_its_note_cites() -> None:
    hand = build([*blinds(), deal(1, "AcKd5s5h")], cancelled=True)
    text = to_text(explain(hand, STANDARD))
    assert "No rule was cited." not in text
    assert "[R3.misdeal]" in text
    assert "R3.misdeal  Misdeal:" in text[text.index("RULES APPLIED") :]


def test_two_odd_chips_go_to_the_first_two_tied_players() -> None:
    """R8.odd-chips: 5.00 three ways is 1.67, 1.67, 1.66."""
    hand = build(
        [
            *blinds(),
            deal(1, "AcTd5s5h"),
            deal(2, "AsTc6h6d"),
            deal(3, "AdTh7c7s"),
            deal(4, "9c9d8s8h"),
            deal(5, "4c4d5c5d"),
            call(3, "1.00"),
            call(4, "1.00"),
            call(5, "1.00"),
            call(1, "0.50"),
            check(2),
            *checked_streets([1, 2, 3, 4, 5], ("KdQcJh", "3s", "2d")),
            *[show(seat, cards) for seat, cards in ((1, "AcTd5s5h"), (2, "AsTc6h6d"))],
            *[show(seat, cards) for seat, cards in ((3, "AdTh7c7s"), (4, "9c9d8s8h"))],
            show(5, "4c4d5c5d"),
        ],
        seats=5,
    )
    (pot,) = explain(hand, STANDARD).pots
    assert [(s.seat, s.amount) for s in pot.shares] == [(1, 167), (2, 167), (3, 166)]
    (note,) = [n for n in pot.notes if n.rule is not None and n.rule.id == "R8.odd-chips"]
    assert "the first two clockwise from the button" in note.text


def test_one_chip_is_singular_and_a_mixed_structure_follows_the_game_name() -> None:
    assert money_text(1, 0, "CHIPS") == "1 chip"
    assert money_text(2, 0, "CHIPS") == "2 chips"
    hand = build([*blinds(), fold(3), fold(1)], betting="pl-preflop-nl-postflop")
    assert explain(hand, STANDARD).game == "Omaha (Pot-Limit pre-flop, No-Limit after)"


def test_a_payout_that_differs_from_the_log_is_marked() -> None:
    hand = with_result(
        _side_pot(),
        {"rake": "0", "collected": [collected(1, "15.00"), collected(3, "10.00", pot=1)]},
    )
    e = explain(hand, STANDARD)
    assert e.payouts_match is False
    assert e.status == "violations"
    rows = {p.seat: p for p in e.players}
    assert (rows[2].won, rows[2].won_recorded, rows[2].matches) == (1000, 0, False)
    assert (rows[3].won, rows[3].won_recorded, rows[3].matches) == (0, 1000, False)
    assert rows[1].matches is True
    mismatches = [p for p in e.problems if p.code == "payout-mismatch"]
    assert {p.seat for p in mismatches} == {2, 3}
    assert all(p.seq is None and p.rule.text for p in mismatches)
    page = to_html(e)
    assert page.count('<tr class="differs">') == 2
    text = to_text(e)
    assert "DIFFERS: the log pays $10.00 less" in text  # seat 2, paid nothing
    assert "DIFFERS: the log pays $10.00 more" in text  # seat 3, paid the side pot


def test_a_log_that_pays_the_uncalled_bet_in_the_collection_is_said_to_match() -> None:
    """A walk as some converters write it: no uncalled-bet line, the big blind collects the
    whole 1.50 of a 1.50 total pot. Settlement accepts that bookkeeping (the chips are the
    same); the money table said DIFFERS (the log pays $0.50 more) beside "no problems"."""
    hand = with_result(
        build([*blinds(), fold(3), fold(1)]),
        {"rake": "0", "total_pot": "1.50", "collected": [collected(2, "1.50")]},
    )
    e = explain(hand, STANDARD)
    assert e.payouts_match is True
    assert e.problems == ()
    seat = {p.seat: p for p in e.players}[2]
    assert (seat.won, seat.won_recorded, seat.returned_in_collection) == (100, 150, 50)
    assert seat.matches is True
    text = to_text(e)
    assert "DIFFERS:" not in text
    assert "matches (the log's collection counts the $0.50 uncalled bet returned)" in text
    assert "the log's total pot: $1.50 (the same, counting the $0.50 uncalled bet returned)" in text
    assert "DIFFERENT" not in text
    paid_apart = with_result(
        build([*blinds(), fold(3), fold(1), uncalled(2, "0.50")]),
        {"rake": "0", "total_pot": "1.00", "collected": [collected(2, "1.00")]},
    )
    seat = {p.seat: p for p in explain(paid_apart, STANDARD).players}[2]
    assert (seat.won_recorded, seat.returned_in_collection, seat.matches) == (100, 0, True)


def test_allowed_says_all_in_when_the_largest_raise_is_the_whole_stack() -> None:
    """Seat 3 ($3.00) may raise to at most $3.00, all it has (a pot raise would be $3.50):
    'Allowed' says all-in; seat 1's largest raise is a pot raise, not its stack."""
    hand = build(
        [*blinds(), raise_to(3, "3.00", all_in=True), call(1, "2.50"), fold(2)],
        stacks=["100.00", "100.00", "3.00"],
        partial=True,
    )
    rows = {row.seq: row for row in explain(hand, STANDARD).actions}
    assert rows[2].legal == "fold, call $1.00 or raise to between $2.00 and $3.00 all-in"
    assert rows[3].legal == "fold, call $2.50 or raise to between $5.00 and $10.00"


def test_actions_the_replay_did_not_reach_have_no_pot_before() -> None:
    """After an action by a seat not in the hand the replay stops; the actions after it
    showed the pot of the last replayed one ($3.00) as their 'pot before', though the bet
    and calls between them move chips. The lake leaves it empty; so does the explanation."""
    hand = build(
        [
            *blinds(),
            deal(1, "9c9hTsJs"),
            deal(2, "AsAc5d6d"),
            deal(3, "AhAd7s8s"),
            call(3, "1.00"),
            call(1, "0.50"),
            check(2),
            board("KsKdKh"),
            check(7),  # seat 7 is not in the hand: the replay stops here
            bet(1, "3.00"),
            call(2, "3.00"),
            call(3, "3.00"),
            board("2c"),
        ]
    )
    e = explain(hand, STANDARD)
    assert e.status == "invalid"
    assert [a.pot_before for a in e.actions[8:]] == [300, 300, None, None, None, None]
    rows = [line for line in to_text(e).splitlines() if "calls $3.00" in line]
    assert len(rows) == 2 and all("$3.00" not in row.replace("calls $3.00", "") for row in rows)


def test_a_post_to_enter_that_raises_and_is_not_called_is_not_a_walk() -> None:
    """Seat 4 posts a big blind to enter, raises, and everyone folds, the big blind too:
    that is a pot won uncontested (R4.round-end), not "everyone folded to the big blind"
    (R2.walk), which the explanation said because seat 4's post is a big blind."""
    hand = build(
        [
            *blinds(),
            post(4, "big", "1.00"),
            deal(1, "9c9hTsJs"),
            deal(2, "AsAc5d6d"),
            deal(3, "AhAd7s8s"),
            deal(4, "KhKd7c8c"),
            deal(5, "2h3h4c5c"),
            fold(3),
            raise_to(4, "3.50"),
            fold(5),
            fold(1),
            fold(2),
            uncalled(4, "2.50"),
        ],
        seats=5,
    )
    e = explain(hand, STANDARD)
    assert e.problems == ()
    (pot,) = e.pots
    assert [(n.text, n.rule.id if n.rule else None) for n in pot.notes] == [
        ("everyone else folded: p4 wins the pot without a showdown", "R4.round-end")
    ]
    assert "R2.walk" not in {q.id for q in e.rules_cited}


def test_a_partial_hand_says_its_log_is_incomplete_not_that_everything_follows_the_rules() -> None:
    hand = build([post(1, "small", "0.50"), post(2, "big", "1.00"), call(3, "1.00")], partial=True)
    e = explain(hand, STANDARD)
    assert e.status == "partial"
    text = to_text(e)
    assert "The log is incomplete: it stops before the hand ends" in text
    assert "None in the actions the log records; the payouts cannot be checked" in text
    assert "every payout follows the rules" not in text
    assert "Why:" not in text  # the reader gave no reason
    why = msgspec.structs.replace(hand, extras=(("_partial_reason", b'"line 9: cut short"'),))
    assert "Why: line 9: cut short." in to_text(explain(why, STANDARD))


def test_a_returned_bet_of_the_wrong_amount_is_one_error_and_the_verdict_says_so() -> None:
    """R4.uncalled: seat 3 raises to 3.00 and both blinds fold; the rules return 2.00 and
    the log 1.90. One error at the line (not a second one for a return 'the log does not'
    make); the pot before it still holds the 2.00; the verdict does not say every payout
    matches."""
    hand = build(
        [*blinds(), raise_to(3, "3.00"), fold(1), fold(2), uncalled(3, "1.90")],
    )
    hand = with_result(hand, {"rake": "0", "collected": [collected(3, "2.50")]})
    e = explain(hand, STANDARD)
    assert [(p.code, p.seq) for p in e.problems] == [("uncalled-bet-mismatch", 5)]
    assert e.actions[5].pot_before == 450  # 0.50 + 1.00 + 3.00, before anything goes back
    text = to_text(e)
    assert "every collection matches the log, but a returned bet does not" in text


def test_explanation_fields_are_plain_data() -> None:
    e = explain(_quartered(), STANDARD)
    assert e.croupier_id == "test:T-1"
    assert (e.scale, e.currency, e.small_blind, e.big_blind) == (2, "USD", 50, 100)
    assert [s.position for s in e.seats] == ["SB", "BB", "BTN"]
    assert e.game == "Pot-Limit Omaha Hi/Lo"
    assert e.boards[0].cards == "2c 3d 7h Kd Ks"
    streets = [a.street for a in e.actions if a.type == "board"]
    assert streets == ["flop", "turn", "river"]


# ----------------------------------------------------------------------------- rendering


def test_html_escapes_every_string_from_the_log_and_fetches_nothing() -> None:
    evil = '<script>alert("x")</script>'
    hand = build(
        [*blinds(), fold(3), fold(1)],
        players=[evil, "a&b", "Tom | Jerry"],
    )
    page = to_html(explain(hand, STANDARD))
    assert evil not in page and "<script" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "a&amp;b" in page
    assert not re.search(r"(?:src|href)\s*=|https?://|@import|url\(", page)
    markdown = to_markdown(explain(hand, STANDARD))
    assert "Tom \\| Jerry" in markdown and "\\<script\\>" in markdown


def test_html_shows_every_card_with_suit_symbols_in_tables_and_text_alike() -> None:
    """The seats' hole cards and the cards inside action text ("is dealt …", "board: …",
    "shows …") use one notation; a player named "As" keeps the name as written."""
    hand = build([*blinds(), fold(3), fold(1)], players=["As", "Bo", "Cy"])
    page = to_html(explain(_quartered(), STANDARD))
    body = re.sub(r"<[^>]+>", "", page[page.index("<body>") :])
    assert not re.search(r"(?<!\w)[2-9TJQKA][shdc](?!\w)", html.unescape(body))
    assert re.search(
        r"board: (?:<span class=\"card [a-z]+\" title=\"\w\w\">[^<]+</span> ?){3}<", page
    )
    named = to_html(explain(hand, STANDARD))
    assert "<td>As</td>" in named


def test_json_has_a_stable_order_and_money_in_units_and_text() -> None:
    e = explain(_side_pot(), STANDARD)
    document = json.loads(to_json(e))
    assert list(document) == [f.name for f in fields(Explanation)] + ["rules_cited"]
    assert document["big_blind"] == {"units": 100, "text": "1.00"}
    side = document["pots"][1]
    assert side["amount"] == {"units": 1000, "text": "10.00"}
    assert side["shares"][0]["amount"] == {"units": 1000, "text": "10.00"}
    assert document["actions"][5]["to_amount"] == {"units": 1000, "text": "10.00"}
    assert document["actions"][5]["max_to"] == {"units": 10000, "text": "100.00"}
    assert to_json(e) == to_json(explain(_side_pot(), STANDARD))


def test_every_format_renders_and_an_unknown_one_is_refused() -> None:
    e = explain(_tied_pot(), STANDARD)
    for fmt in ("text", "markdown", "json", "html"):
        assert "test:T-1" in render(e, fmt)
    with pytest.raises(ValueError, match="unknown format"):
        render(e, "pdf")


# ----------------------------------------------------------------------------- rule texts


def _rule_ids_in_code() -> set[str]:
    ids = {code.rule for code in Code}
    for path in (ROOT / "pipeline").rglob("*.py"):
        if path.name == "rule_text.py":
            continue
        ids |= set(re.findall(r"[\"'](R[0-9]+\.[a-z0-9-]+)[\"']", path.read_text("utf-8")))
    return ids


def test_every_rule_the_code_cites_has_its_text() -> None:
    ids = _rule_ids_in_code()
    assert {"R5.pl-max", "R8.odd-chips", "R8.hi-lo", "R8.side-pots"} <= ids
    missing = sorted(ids - set(RULE_TEXT))
    assert not missing, f"rules cited by the code but not in rule_text.py: {missing}"
    assert all(RULE_TEXT[rule_id] for rule_id in ids)


def test_rule_texts_match_rules_md() -> None:
    rules_md = ROOT.parent / "shared" / "RULES.md"
    if not rules_md.is_file():
        pytest.skip(f"RULES.md is not at {rules_md}")
    assert rules_from_markdown(rules_md.read_text(encoding="utf-8")) == RULE_TEXT


# ----------------------------------------------------------------------------- finding hands


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("explain") / "lake"
    run_lake([str(SAMPLES)], root, workers=1)
    return root


def test_locate_by_site_number_and_by_croupier_id(lake: Path) -> None:
    by_number = locate(lake, "SAMPLE-0006")
    by_id = locate(lake, "SampleRoom:SAMPLE-0006")
    assert by_number.hand == by_id.hand
    assert (by_id.hand.site, by_id.hand.hand_id) == ("SampleRoom", "SAMPLE-0006")
    assert by_id.rules == STANDARD.label
    assert by_id.hand.source == str(SAMPLES / "hilo.jsonl")
    assert locate(lake, "sampleroom:SAMPLE-0006").hand == by_id.hand  # the site in any case
    with pytest.raises(ExplainError, match="no hand 'SAMPLE-9999'"):
        locate(lake, "SAMPLE-9999")
    with pytest.raises(ExplainError, match="no hand 'Other:SAMPLE-0006'"):
        locate(lake, "Other:SAMPLE-0006")


def test_the_total_pot_of_a_hand_without_pots_is_the_lakes(lake: Path) -> None:
    """A void (or stopped) hand has no pots, but chips went in: the lake's total_pot counts
    them (SAMPLE-0015: the blinds, 1.50); the explanation said 0."""
    found = locate(lake, "SAMPLE-0015")
    e = explain(found.hand, STANDARD)
    con = connect(lake)
    try:
        row = con.execute(
            "SELECT total_pot FROM hands WHERE hand_id = ?", ["SAMPLE-0015"]
        ).fetchone()
    finally:
        con.close()
    assert e.status == "void" and e.pots == ()
    assert row is not None and e.total_pot == int(row[0]) == 150
    assert json.loads(to_json(e))["total_pot"]["units"] == 150


def _copy_with_site(line: bytes, site: str) -> bytes:
    data = json.loads(line)
    data["site"] = site
    return json.dumps(data).encode()


def test_a_number_at_two_sites_must_be_named_and_moved_files_are_reported(
    tmp_path: Path,
) -> None:
    first = (SAMPLES / "plo.jsonl").read_bytes().splitlines()[0]
    log = tmp_path / "two.jsonl"
    log.write_bytes(first + b"\n" + _copy_with_site(first, "OtherRoom") + b"\n")
    run_lake([str(log)], tmp_path / "lake", workers=1)
    with pytest.raises(ExplainError) as ambiguous:
        locate(tmp_path / "lake", "SAMPLE-0001")
    assert "OtherRoom:SAMPLE-0001, SampleRoom:SAMPLE-0001" in str(ambiguous.value)
    assert locate(tmp_path / "lake", "OtherRoom:SAMPLE-0001").hand.line == 2
    with pytest.raises(ExplainError, match="at more than one site"):
        find_in_file(log, "SAMPLE-0001")
    assert find_in_file(log, "SampleRoom:SAMPLE-0001").line == 1
    log.write_bytes(first + b"\n")
    with pytest.raises(ExplainError, match="has changed since it was ingested"):
        locate(tmp_path / "lake", "OtherRoom:SAMPLE-0001")
    log.unlink()
    with pytest.raises(ExplainError, match="is not there any more"):
        locate(tmp_path / "lake", "SampleRoom:SAMPLE-0001")
    with pytest.raises(ExplainError, match="no lake"):
        locate(tmp_path / "nowhere", "SAMPLE-0001")


def test_an_edited_source_is_refused_a_grown_one_read_and_another_folder_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = (SAMPLES / "plo.jsonl").read_bytes().splitlines(keepends=True)
    (tmp_path / "logs").mkdir()
    log = tmp_path / "logs" / "session.jsonl"
    log.write_bytes(b"".join(lines[:2]))
    monkeypatch.chdir(tmp_path)
    run_lake(["logs/session.jsonl"], tmp_path / "lake", workers=1)  # named relative
    monkeypatch.chdir(tmp_path / "logs")  # elsewhere: found at the path the run recorded
    assert locate(tmp_path / "lake", "SAMPLE-0002").hand.line == 2
    log.write_bytes(b"".join(lines[:3]))  # the session went on: the hands read are unchanged
    assert locate(tmp_path / "lake", "SAMPLE-0002").hand.line == 2
    edited = lines[1].replace(b'"SampleRoom"', b'"SampleRoom" ')  # same hand, bytes changed
    log.write_bytes(lines[0] + edited + lines[2])
    with pytest.raises(ExplainError, match="has changed since it was ingested"):
        locate(tmp_path / "lake", "SAMPLE-0001")  # even a hand on a line that did not change


def test_a_hand_read_from_stdin_cannot_be_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (SAMPLES / "plo.jsonl").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    run_lake(["-"], tmp_path / "lake", workers=1)
    with pytest.raises(ExplainError, match="was read from standard input"):
        locate(tmp_path / "lake", "SAMPLE-0001")


# ----------------------------------------------------------------------------- the CLI


def test_cli_by_input_and_by_lake_give_the_same_explanation(lake: Path) -> None:
    by_input = runner.invoke(
        app,
        ["explain", "SAMPLE-0011", "--input", str(SAMPLES / "special.jsonl"), "--format", "json"],
    )
    assert by_input.exit_code == 0, by_input.stderr
    by_lake = runner.invoke(
        app, ["explain", "SampleRoom:SAMPLE-0011", "--lake", str(lake), "--format", "json"]
    )
    assert by_lake.exit_code == 0, by_lake.stderr
    assert json.loads(by_input.stdout) == json.loads(by_lake.stdout)
    document = json.loads(by_lake.stdout)
    assert document["croupier_id"] == "SampleRoom:SAMPLE-0011"
    assert [p["index"] for p in document["pots"]] == [0, 1, 2]


def test_sample_hands_cite_the_rule_each_sentence_follows(lake: Path) -> None:
    """SAMPLE-0007: the odd chip of a hi/lo split by R8.odd-chips; SAMPLE-0003: a walk by
    R2.walk; SAMPLE-0015 (void): the note's R3.misdeal is quoted in the rules applied."""
    odd = explain(locate(lake, "SAMPLE-0007").hand, STANDARD)
    notes = [(n.text, n.rule.id if n.rule else None) for n in odd.pots[0].notes]
    assert ("split high/low: high $10.22, low $10.21", "R8.hi-lo") in notes
    assert (
        "the odd chip goes to the high half: $20.43 cannot be halved",
        "R8.odd-chips",
    ) in notes
    walk = explain(locate(lake, "SAMPLE-0003").hand, STANDARD)
    assert [n.rule.id for n in walk.pots[0].notes if n.rule] == ["R2.walk"]
    void = explain(locate(lake, "SAMPLE-0015").hand, STANDARD)
    assert "R3.misdeal" in {q.id for q in void.rules_cited}


def test_cli_writes_text_to_a_file(lake: Path, tmp_path: Path) -> None:
    out = tmp_path / "hand.html"
    result = runner.invoke(
        app, ["explain", "SAMPLE-0007", "--lake", str(lake), "--format", "html", "-o", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    text = runner.invoke(app, ["explain", "SAMPLE-0007", "--lake", str(lake)])
    assert text.exit_code == 0
    assert "Hand SampleRoom:SAMPLE-0007" in text.stdout
    assert "MONEY: THE RULES AGAINST THE LOG" in text.stdout


def test_cli_unknown_hand_is_one_line_and_exit_3(lake: Path) -> None:
    result = runner.invoke(app, ["explain", "NOPE-1", "--lake", str(lake)])
    assert result.exit_code == 3
    assert result.stderr.strip().splitlines() == [f"error: no hand 'NOPE-1' in the lake at {lake}"]
    missing = runner.invoke(app, ["explain", "X", "--input", "/nonexistent/hands.jsonl"])
    assert missing.exit_code == 3
    assert len(missing.stderr.strip().splitlines()) == 1


def test_cli_input_that_is_a_folder_is_said_to_be_one() -> None:
    """--input names one file; given the samples' folder, the error said "no such file",
    though the path is there."""
    result = runner.invoke(app, ["explain", "SAMPLE-0001", "--input", str(SAMPLES)])
    assert result.exit_code == 3
    assert result.stderr.strip().splitlines() == [
        f"error: {SAMPLES} is a folder: --input takes one hand-log file"
    ]


def test_cli_refuses_both_a_lake_and_an_input(lake: Path) -> None:
    result = runner.invoke(
        app, ["explain", "X", "--lake", str(lake), "--input", str(SAMPLES / "plo.jsonl")]
    )
    assert result.exit_code == 2
    assert "not both" in result.stderr


# ----------------------------------------------------------------------------- golden files

GOLDEN_HANDS = (
    (
        "ps-plo-side-pots",
        "pokerstars/fpdb/cash/Stars/Flop/PLO-FR-USD-0.01-0.02-201006.sidepots.txt",
        "22865231671",
        ("txt", "md", "json"),
    ),
    (
        "ps-hilo-quartered",
        "pokerstars/fpdb/tour/Stars/Flop/PLO8-9max-USD-STT-5.00-200505.hero.quartered.txt",
        "1676150046",
        ("txt", "md", "json", "html"),
    ),
    (
        "ps-courchevel-hilo-run-twice",
        "pokerstars/fpdb/cash/Stars/Flop/PL-Courchevel-HL-6max-USD-1.00-2.00-201303.Run.It.Twice.txt",
        "97007286518",
        ("txt", "md", "json"),
    ),
    (
        "ps-rio-warnings",
        "pokerstars/fpdb/cash/Stars/Flop/PLO-6max-EUR-0.10-0.20-201904.RIO.Side.Pots.txt",
        "34011543",
        ("txt", "md", "json"),
    ),
    ("phh-wsop-fo8", "phh/wsop-2023-43-5/12.phh", "12", ("txt", "md", "json")),
    (
        "ps-cash-out",
        "pokerstars/fpdb/cash/Stars/Flop/6-Card-PLO-6max-USD-0.05-0.10-202111.cash.out.txt",
        "231645858339",
        ("txt", "json"),
    ),
    (
        "ps-cancelled",
        "pokerstars/fpdb/cash/Stars/Flop/LO8-6max-USD-0.05-0.10-20090315.Hand-cancelled.txt",
        "25979907808",
        ("txt",),
    ),
)
"""Each golden case: its name, the corpus file, the hand, and the formats pinned."""

_RENDER = {"txt": to_text, "md": to_markdown, "json": to_json, "html": to_html}


def _golden_params() -> list[object]:
    return [
        pytest.param(name, path, hand_id, ext, id=f"{name}.{ext}")
        for name, path, hand_id, exts in GOLDEN_HANDS
        for ext in exts
    ]


@pytest.mark.parametrize(("name", "relative", "hand_id", "ext"), _golden_params())
def test_golden_explanation(name: str, relative: str, hand_id: str, ext: str) -> None:
    """The explanation of each corpus hand equals its reviewed golden file."""
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"the corpus file {relative} is not in {CORPUS} (set CROUPIER_CORPUS)")
    hands = [h for h in read_hands(path, source=relative) if isinstance(h, HandRecord)]
    (hand,) = [h for h in hands if h.hand_id == hand_id]
    text = _RENDER[ext](explain(hand, STANDARD, source=path))
    target = GOLDEN / f"{name}.{ext}"
    if REGENERATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    assert target.is_file(), f"no golden file {target.name}: run with CROUPIER_REGENERATE_GOLDEN=1"
    assert text == target.read_text(encoding="utf-8")


def test_golden_hands_have_action_lines_from_their_source() -> None:
    """PokerStars and PHH actions carry their own line in the file, not the hand's first."""
    path = CORPUS / GOLDEN_HANDS[0][1]
    if not path.is_file():
        pytest.skip(f"the corpus is not in {CORPUS} (set CROUPIER_CORPUS)")
    (hand,) = [
        h for h in read_hands(path) if isinstance(h, HandRecord) and h.hand_id == "22865231671"
    ]
    e = explain(hand, STANDARD)
    lines = path.read_text(encoding="utf-8").splitlines()
    for row in e.actions:
        assert row.line is not None
        text = lines[row.line - 1]
        if row.player and row.type not in ("show", "muck"):
            assert row.player in text, (row, text)
    assert e.local_time == "2010/06/07 20:14:17 WET / 2010/06/07 15:14:17 ET"


def test_phh_actions_are_found_on_their_lines_even_with_commentary() -> None:
    """Each PHH action's line holds its quoted action; posts are on the blinds' line."""
    path = ROOT / "tests" / "fixtures" / "phh" / "extensions.phhs"
    hands = [h for h in read_hands(path) if isinstance(h, HandRecord)]
    text = path.read_text(encoding="utf-8").splitlines()
    for hand in hands:
        e = explain(hand, STANDARD)
        assert e.local_time is not None and e.local_time.startswith("2026-")
        for row in e.actions:
            if row.type == "uncalled":
                continue  # PHH implies the return without writing it
            assert row.line is not None, (hand.hand_id, row)
            line = text[row.line - 1]
            if row.type == "post":
                assert line.startswith(("blinds_or_straddles", "antes", "_croupier_posts"))
            elif row.type == "board":
                assert "d db" in line
            elif row.type == "deal":
                assert "d dh" in line


def test_explain_reads_a_moved_hand_from_its_text_when_asked(tmp_path: Path) -> None:
    """A JSON Lines hand copied elsewhere still explains; its lines are its own line."""
    source = tmp_path / "one.jsonl"
    shutil.copy(SAMPLES / "hilo.jsonl", source)
    hand = find_in_file(source, "SAMPLE-0007")
    e = explain(hand, STANDARD)
    assert {row.line for row in e.actions} == {2}
    assert e.source == str(source)


def test_the_source_is_decoded_as_the_reader_decoded_it(tmp_path: Path) -> None:
    """A UTF-8 hand beside a cp1252 one (a Latin-1 chat line): each is decoded as the reader
    decodes it, so the source lines of the UTF-8 hand keep their UTF-8 names."""
    zoom = (ROOT / "tests" / "fixtures" / "pokerstars" / "zoom.txt").read_bytes()
    named = zoom.replace(b"Alice B", "Müller€".encode())
    stray = zoom.replace(b"#200000000021", b"#7").replace(
        b"*** FLOP *** [Jc Tc 4d]\n",
        b"*** FLOP *** [Jc Tc 4d]\n" + 'Player (2) said, "café"\n'.encode("latin-1"),
    )
    path = tmp_path / "mixed.txt"
    path.write_bytes(named + b"\n" + stray)
    hand, other = [h for h in read_hands(path) if isinstance(h, HandRecord)]
    assert (hand.seats[1].player, other.hand_id) == ("Müller€", "7")
    lines, local_time = source_lines(hand, path)
    text = path.read_bytes().decode("utf-8", "replace").split("\n")
    assert local_time == "2024/07/04 12:00:00 ET"
    theirs = [k for k, a in enumerate(hand.actions) if a.seat == 2]
    assert theirs and all(lines[k] is not None for k in theirs)
    assert all("Müller€" in text[(lines[k] or 0) - 1] for k in theirs)


def test_the_local_time_of_an_old_style_header_is_the_one_it_prints(tmp_path: Path) -> None:
    """A 2008 header writes ``2008/08/17 - 01:14:43 (ET)``: that is its local time (the
    explanation said the log gave UTC only)."""
    zoom = (ROOT / "tests" / "fixtures" / "pokerstars" / "zoom.txt").read_text(encoding="utf-8")
    header = zoom.split("\n", 1)[0]
    old = header.rsplit(" - ", 1)[0] + " - 2008/08/17 - 01:14:43 (ET)"
    path = tmp_path / "old.txt"
    path.write_text(zoom.replace(header, old), encoding="utf-8")
    (hand,) = [h for h in read_hands(path) if isinstance(h, HandRecord)]
    assert source_lines(hand, path)[1] == "2008/08/17 - 01:14:43 (ET)"


def test_a_hand_the_reader_rejected_is_said_to_be_rejected_with_why(tmp_path: Path) -> None:
    """explain --input on a hand that is a reject says so and why, not 'no hand'."""
    line = (SAMPLES / "plo.jsonl").read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "bad.jsonl"
    path.write_text(line.replace('"stack":"200.00"', '"stack":"-5"', 1) + "\n", encoding="utf-8")
    with pytest.raises(ExplainError, match=r"'SAMPLE-0001' in .* was rejected \(bad-amount\): "):
        find_in_file(path, "SAMPLE-0001")
    with pytest.raises(ExplainError, match="no hand 'SAMPLE-0002'"):
        find_in_file(path, "SAMPLE-0002")
