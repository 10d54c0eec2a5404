"""Board cards against the cards left: the expected counts, calibration on fair deals whose
streets are dealt or not by the cards already seen, a rigged flop, and the sample rule."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterable
from pathlib import Path

import msgspec
import pytest

from pipeline.cards import UNKNOWN, rank_of
from pipeline.formats.jsonl import write_jsonl
from pipeline.generate import generate_hands
from pipeline.model import ActionType, HandRecord
from pipeline.reports.audit import audit
from pipeline.reports.audit_render import render_html, render_markdown
from pipeline.reports.fairness_board import board_card_tests, board_draws
from pipeline.run import run_lake

ACE = 12  # rank_of an ace
BIASED = "evidence of bias at 1% after Holm"
BOARD_RANKS = "boards: ranks from the cards left"
BOARD_CARDS = "boards: cards from the cards left"
Deal = tuple[list[int], list[int]]


def test_each_board_card_expects_its_share_of_the_cards_left() -> None:
    hole = list(range(24))  # 2c..7s held
    draws = board_draws([(hole, [24, 25, 26])])  # 8c 8d 8h
    assert draws.hands == 1 and draws.cards == 3
    assert sum(draws.expected) == pytest.approx(3.0)  # one card each time
    assert draws.expected[:24] == (0.0,) * 24
    assert draws.expected[51] == pytest.approx(1 / 28 + 1 / 27 + 1 / 26)
    assert draws.expected[24] == pytest.approx(1 / 28)  # 8c, seen once dealt
    assert draws.expected[25] == pytest.approx(1 / 28 + 1 / 27)  # 8d, dealt second
    # the eights' rank: 4/28, then 3/27, then 2/26
    assert draws.rank_squares[6] == pytest.approx((4 / 28) ** 2 + (3 / 27) ** 2 + (2 / 26) ** 2)
    assert board_draws([(hole, [0, 30])]).hands == 0  # a card twice: left out
    assert board_card_tests(board_draws([])) == []


def test_with_equal_chances_the_test_is_pearsons() -> None:
    rng = random.Random(4)
    deals: list[Deal] = [([], [rng.randrange(52)]) for _ in range(2000)]  # one card, no hole
    ranks, cards = board_card_tests(board_draws(deals))
    assert ranks.correction == pytest.approx(1.0) and cards.correction == pytest.approx(1.0)
    assert cards.expected == pytest.approx([2000 / 52] * 52)
    assert (ranks.df, cards.df, ranks.n) == (12, 51, 2000)


def _played(rng: random.Random, hands: int, ace_flop: float = 0.0) -> list[Deal]:
    """Deal mixed tables every seat known, and a board whose streets are dealt or not as
    play might: more often when the first player holds aces, the turn less often after an
    ace on the flop. With ``ace_flop``, that share of flops gets an ace from the deck."""
    deals = []
    for _ in range(hands):
        hole_cards = rng.choice((4, 4, 4, 5, 6))
        n = rng.randint(2, {4: 10, 5: 9, 6: 8}[hole_cards])
        deck = rng.sample(range(52), 52)
        hole, rest = deck[: n * hole_cards], deck[n * hole_cards + 1 :]  # a burn
        if ace_flop and rng.random() < ace_flop:
            aces = [k for k in range(3, len(rest)) if rank_of(rest[k]) == ACE]
            if aces and rank_of(rest[0]) != ACE:
                k = rng.choice(aces)
                rest[0], rest[k] = rest[k], rest[0]
        held = sum(rank_of(c) == ACE for c in hole[:hole_cards])
        if rng.random() > 0.3 + 0.3 * held:
            continue  # no flop: not in the sample
        board = rest[:3]
        if not any(rank_of(c) == ACE for c in board) or rng.random() < 0.3:
            board += rest[4:5] + (rest[6:7] if rng.random() < 0.7 else [])
        deals.append((hole, board))
    return deals


def test_the_corrected_statistics_are_chi_square_on_fair_deals() -> None:
    """Each board card comes from the cards left, whichever streets play deals: over 200
    fair samples each statistic averages its degrees of freedom, with 10% of p-values
    below 0.1; c is a little below 1 (the cards left differ from hand to hand)."""
    rng = random.Random(20260612)
    results: dict[str, list[tuple[float, float]]] = {"ranks": [], "cards": []}
    for _ in range(200):
        for test in board_card_tests(board_draws(_played(rng, 500))):
            assert test.statistic is not None and test.p_value is not None
            assert 0.9 < test.correction < 1.0
            results[test.kind].append((test.statistic, test.p_value))
    for kind, df in (("ranks", 12), ("cards", 51)):
        statistic = statistics.mean(s for s, _ in results[kind])
        assert statistic == pytest.approx(df, abs=3 * (2 * df / 200) ** 0.5)
        assert 6 <= sum(p < 0.1 for _, p in results[kind]) <= 36


def test_an_ace_slipped_into_the_flop_fails() -> None:
    rng = random.Random(8)
    ranks, _ = board_card_tests(board_draws(_played(rng, 5000, ace_flop=0.2)))
    assert ranks.p_value is not None and ranks.p_value < 1e-6
    top = max(range(13), key=lambda r: ranks.observed[r] - ranks.expected[r])
    assert ranks.labels[top] == "A"
    fair, _ = board_card_tests(board_draws(_played(rng, 5000)))
    assert fair.p_value is not None and fair.p_value > 1e-3


# ----------------------------------------------------------------------- lakes on disk


def lake_of(root: Path, name: str, hands: Iterable[HandRecord], workers: int = 1) -> Path:
    """Write ``hands`` to ``root/name.jsonl`` and run it into the lake ``root/name``."""
    log = root / f"{name}.jsonl"
    with log.open("wb") as out:
        write_jsonl(hands, out)
    run_lake([str(log)], root / name, workers=workers)
    return root / name


def _one_seat_hidden(hand: HandRecord) -> HandRecord:
    """The hand with its last dealt seat's hole cards unknown ('??') and no deck."""
    last = [a.seat for a in hand.actions if a.type is ActionType.DEAL][-1]
    actions = tuple(
        msgspec.structs.replace(a, cards=(UNKNOWN,) * len(a.cards))
        if a.type is ActionType.DEAL and a.seat == last and a.cards
        else a
        for a in hand.actions
    )
    return msgspec.structs.replace(hand, deck=None, actions=actions)


def test_hands_with_a_seat_unknown_give_no_board_sample(tmp_path: Path) -> None:
    hands = list(generate_hands(600, seed=29))
    whole = audit(lake_of(tmp_path, "whole", hands)).fairness
    tested = {t.name: t for t in whole.tests if t.sample == "boards"}
    assert tested[BOARD_RANKS].result == "pass" and tested[BOARD_CARDS].n == whole.board.cards
    partial = audit(lake_of(tmp_path, "partial", map(_one_seat_hidden, hands))).fairness
    assert partial.board.cards == 0
    assert not [t for t in partial.tests if t.sample == "boards"]


def test_later_runouts_add_the_cards_they_dealt_to_the_sample(tmp_path: Path) -> None:
    """A board run twice or three times adds each later runout's new cards: the sample holds
    every card a hand dealt to its boards, once."""
    hands = list(generate_hands(600, seed=31))
    dealt = [
        {c for a in h.actions if a.type is ActionType.BOARD for c in a.cards or ()} for h in hands
    ]
    runs = sum(1 for h in hands if any((a.run or 0) >= 2 for a in h.actions))
    assert runs >= 5  # the sample has hands run more than once
    fairness = audit(lake_of(tmp_path, "runs", hands)).fairness
    assert fairness.board.hands == sum(1 for cards in dealt if cards)
    assert fairness.board.cards == sum(len(cards) for cards in dealt)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_fair_generated_boards_pass(tmp_path: Path, seed: int) -> None:
    fairness = audit(lake_of(tmp_path, "fair", generate_hands(2000, seed=seed))).fairness
    for name in (BOARD_RANKS, BOARD_CARDS):
        test = next(t for t in fairness.tests if t.name == name)
        assert test.result == "pass" and test.p_value is not None and test.p_value > 1e-3


def _without_deck(hand: HandRecord) -> HandRecord:
    actions = tuple(msgspec.structs.replace(a, burn=None) for a in hand.actions)
    return msgspec.structs.replace(hand, deck=None, actions=actions)


@pytest.mark.long
def test_a_flop_rigged_with_aces_fails_against_the_cards_left(tmp_path: Path) -> None:
    """One hand in twenty gets an ace from the undealt deck in its flop: the board-pairing
    test does not see it, the board's ranks against the cards left do."""
    rigged = [_without_deck(h) for h in generate_hands(20_000, seed=5, board_bias=0.05)]
    report = audit(lake_of(tmp_path, "rigged", rigged, workers=2))
    fairness = report.fairness
    assert fairness.verdict == BIASED
    failed = {t.name for t in fairness.tests if t.result == "fail"}
    assert BOARD_RANKS in failed and failed <= {BOARD_RANKS, BOARD_CARDS}
    assert "A: " in next(r for r in render_markdown(report).splitlines() if BOARD_RANKS in r)
    assert f'aria-label="{BOARD_CARDS}"' in render_html(report)  # its heat map
