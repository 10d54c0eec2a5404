"""OHH: the official examples (Hold'em, so clear rejects), hand-made Omaha fixtures, robustness.

The fixtures in ``tests/fixtures/ohh/`` were written from ``shared/formats/ohh.md``: pot
limit Omaha with a side pot and a re-raise by the big blind, a raise nobody calls, fixed
limit Omaha hi/lo split high and low, a walk, a re-raise written as the chips it adds
(the older reading of ``Raise.amount``), and a board run twice.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest

from pipeline.formats import read_hands
from pipeline.formats.limits import vet
from pipeline.formats.ohh import looks_like_ohh, parse_ohh, parse_ohh_bytes
from pipeline.formats.ohh_stream import ohh_frames, parse_ohh_stream, read_ohh, read_ohh_frames
from pipeline.model import ActionType, Betting, Blind, HandRecord, Variant
from pipeline.rules import replay
from pipeline.settle import Half, settle
from pipeline.violations import Reject, RejectCode
from tests.strategies import hands_and_peak

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CROUPIER_CORPUS", ROOT.parent / "shared" / "corpus"))
EXAMPLES = CORPUS / "ohh"
FIXTURES = Path(__file__).parent / "fixtures" / "ohh"

needs_corpus = pytest.mark.skipif(
    not EXAMPLES.is_dir(), reason=f"OHH examples not found at {EXAMPLES} (set CROUPIER_CORPUS)"
)


def _hands(path: Path) -> dict[str, HandRecord]:
    items = list(read_ohh(path))
    hands = {h.hand_id: h for h in items if isinstance(h, HandRecord)}
    assert len(hands) == len(items), [i for i in items if isinstance(i, Reject)]
    return hands


def _fixture_hands() -> Iterator[HandRecord]:
    for path in sorted(FIXTURES.glob("*.ohh")):
        yield from _hands(path).values()


# ---------------------------------------------------------------------------- the examples


@needs_corpus
def test_official_examples_are_unsupported_game_rejects() -> None:
    files = sorted(EXAMPLES.glob("*.json"))
    assert len(files) == 3
    for path in files:
        assert looks_like_ohh(path.read_bytes()[:64])
        items = list(read_ohh(path))
        assert len(items) == 1
        reject = items[0]
        assert isinstance(reject, Reject)
        assert reject.code is RejectCode.UNSUPPORTED_GAME
        assert "Holdem" in reject.message and reject.field == "$.ohh.game_type"
        assert reject.hand_id and reject.line == 1 and reject.source == str(path)


@needs_corpus
def test_examples_relabelled_omaha_reconstruct_the_betting() -> None:
    """As Omaha, the Hold'em examples replay with only the two-card deals wrong."""
    for path in sorted(EXAMPLES.glob("*.json")):
        text = path.read_text().replace('"Holdem"', '"Omaha"')
        hand = next(iter(parse_ohh(text, path.name)))
        assert isinstance(hand, HandRecord)
        codes = {v.code.value for v in replay(hand).errors}
        assert codes == {"wrong-hole-card-count"}, codes
        assert hand.hero is not None  # hero_player_id 0 included


# ---------------------------------------------------------------------------- fixtures


def test_every_fixture_hand_replays_and_settles_cleanly() -> None:
    hands = list(_fixture_hands())
    assert len(hands) == 6
    for hand in hands:
        judged = replay(hand)
        assert judged.errors == (), (hand.hand_id, judged.errors)
        settled = settle(judged)
        assert settled.errors == (), (hand.hand_id, settled.errors)
        assert settled.payouts_match is True, hand.hand_id


def test_pot_limit_side_pot_hand() -> None:
    hand = _hands(FIXTURES / "omaha_pl.ohh")["CF-PLO-1"]
    game = hand.game
    assert (game.variant, game.betting, game.hole_cards) == (Variant.OMAHA, Betting.POT_LIMIT, 4)
    assert (game.small_blind, game.big_blind, game.scale, game.currency) == (5, 10, 2, "USD")
    assert (hand.button, hand.hero, hand.table, hand.site) == (
        3,
        1,
        "Fixture PLO",
        "Croupier Fixtures",
    )
    assert hand.started_at == datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
    raises = [(a.seat, a.to) for a in hand.actions if a.type is ActionType.RAISE]
    assert raises == [(6, 35), (5, 120)]  # the big blind's "Raise 1.20" is a raise to 1.20
    assert hand.extras == (
        ("_ohh_ignored", b'["Added Chips ignored ($.ohh.rounds[0].actions[0])"]'),
    )
    assert hand.result is not None
    assert (hand.result.rake, hand.result.total_pot, hand.result.pots) == (60, 1495, (725, 710))
    settled = settle(replay(hand))
    assert [(p.amount, p.eligible) for p in settled.pots] == [(755, (5, 6, 1)), (740, (5, 1))]
    assert settled.final_stacks[5] == 1000 - 620 + 1435


def test_uncalled_raise_is_returned() -> None:
    hand = _hands(FIXTURES / "omaha_pl.ohh")["CF-PLO-2"]
    tail = [(a.type, a.seat, a.amount) for a in hand.actions[-2:]]
    assert tail == [(ActionType.UNCALLED, 1, 25), (ActionType.MUCK, 1, None)]
    assert settle(replay(hand)).final_stacks[1] == 1000 + 15


def test_fixed_limit_hi_lo_split() -> None:
    hands = _hands(FIXTURES / "omaha_hilo_fl.ohh")
    hand = hands["CF-O8-1"]
    game = hand.game
    assert (game.variant, game.betting) == (Variant.OMAHA_HILO, Betting.FIXED_LIMIT)
    assert (game.small_bet, game.big_bet) == (200, 400)  # small bet = big blind, big bet twice
    assert [a.to for a in hand.actions if a.type is ActionType.RAISE] == [400, 600, 400]
    awards = {(a.half, a.seat): a.amount for a in settle(replay(hand)).awards}
    assert awards == {(Half.HIGH, 7): 2500, (Half.LOW, 2): 2500}
    walk = hands["CF-O8-2"]
    assert [(a.type, a.seat, a.amount) for a in walk.actions[-1:]] == [
        (ActionType.UNCALLED, 7, 100)
    ]


def test_raise_written_as_chips_added_is_read_that_way() -> None:
    hand = _hands(FIXTURES / "omaha_raise_added.ohh")["CF-PLO-INC-1"]
    raises = [(a.seat, a.to) for a in hand.actions if a.type is ActionType.RAISE]
    assert raises == [(1, 300), (3, 900)]  # "Raise 8.00" over the 1.00 blind: to 9.00


def test_raise_to_and_raise_by_agree_when_nothing_was_in() -> None:
    text = (FIXTURES / "omaha_raise_added.ohh").read_text()
    # Read as totals, the big blind's raise of 8.00 makes a call of 5.00 and a pot of 16.50.
    text = text.replace('"amount": 6.00', '"amount": 5.00').replace("18.50", "16.50")
    text = text.replace('"win_amount": 18.00', '"win_amount": 16.00')
    hand = next(iter(parse_ohh(text, "totals.ohh")))
    assert isinstance(hand, HandRecord)
    assert [a.to for a in hand.actions if a.type is ActionType.RAISE] == [300, 800]
    assert replay(hand).errors == () and settle(replay(hand)).payouts_match is True


def test_run_it_twice_marks_the_runouts() -> None:
    hand = _hands(FIXTURES / "omaha_run_twice.ohh")["CF-PLO-RIT-1"]
    boards = [(a.run, len(a.cards or ())) for a in hand.actions if a.type is ActionType.BOARD]
    assert boards == [(None, 3), (1, 1), (1, 1), (2, 1), (2, 1)]
    awards = [(a.runout, a.seat, a.amount) for a in settle(replay(hand)).awards]
    assert sorted(awards) == [(1, 1, 10_000), (2, 2, 10_000)]


# ---------------------------------------------------------------------------- containers


def _one_hand_object() -> dict[str, object]:
    text = (FIXTURES / "omaha_raise_added.ohh").read_text()
    value = json.loads(text)
    assert isinstance(value, dict)
    return value


def _read_changed(change: Callable[[dict[str, Any]], None]) -> HandRecord | Reject:
    """Read the fixture hand after ``change`` edits its ``ohh`` object."""
    hand = _one_hand_object()
    change(cast(dict[str, Any], hand["ohh"]))
    (item,) = parse_ohh(json.dumps(hand), "one.ohh")
    return item


def _post_ante(ohh: dict[str, Any]) -> None:
    del ohh["ante_amount"]
    ante = {"action_number": 0, "player_id": 0, "action": "Post Ante", "amount": 0.1}
    ohh["rounds"][0]["actions"].insert(0, ante)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda o: o["rounds"][0]["actions"][4].update(amount=7.77), "rounds[0].actions[4].amount"),
        (_post_ante, "ante_amount"),
        (lambda o: o.update(tournament="true"), "tournament"),
        (
            lambda o: o.update(tournament_info={"buyin_amount": "ten"}),
            "tournament_info.buyin_amount",
        ),
        (lambda o: o.update(tournament_info={"currency": "eur"}), "tournament_info.currency"),
    ],
    ids=["fold-with-chips", "antes-without-ante-amount", "text-flag", "text-buyin", "currency"],
)
def test_a_value_the_hand_contradicts_or_of_the_wrong_type_is_a_reject(
    change: Callable[[dict[str, Any]], None], field: str
) -> None:
    reject = _read_changed(change)
    assert isinstance(reject, Reject), reject
    assert reject.field == f"$.ohh.{field}", reject
    assert reject.code in (RejectCode.SCHEMA_VIOLATION, RejectCode.BAD_AMOUNT)


def test_a_start_date_without_a_time_gives_no_time_and_says_so() -> None:
    hand = _read_changed(lambda o: o.update(start_date_utc="2024-03-10"))
    assert isinstance(hand, HandRecord) and hand.started_at is None
    notes = json.loads(dict(hand.extras)["_ohh_ignored"])
    assert "start_date_utc 2024-03-10 has no time: not read ($.ohh.start_date_utc)" in notes


@pytest.mark.parametrize("day", ["20240310", "2024-W10-7", "2024W107"])
def test_a_start_date_in_another_iso_form_is_still_a_date_without_a_time(day: str) -> None:
    """ISO 8601's basic and week dates have no time either: none is made up
    (they were read as midnight UTC)."""
    hand = _read_changed(lambda o: o.update(start_date_utc=day))
    assert isinstance(hand, HandRecord) and hand.started_at is None, hand
    notes = json.loads(dict(hand.extras)["_ohh_ignored"])
    assert f"start_date_utc {day} has no time: not read ($.ohh.start_date_utc)" in notes


def test_a_player_without_a_name_is_refused_not_named_by_the_reader() -> None:
    """A player with neither ``name`` nor ``display`` was called "player <id>": a name the
    log never gave, which then counts the players of every such hand with one id as one
    player in the statistics. The standard requires the name: the hand is refused."""

    def nameless(ohh: dict[str, Any]) -> None:
        ohh["players"][1].pop("name", None)
        ohh["players"][1].pop("display", None)

    reject = _read_changed(nameless)
    assert isinstance(reject, Reject), reject
    assert reject.code is RejectCode.SCHEMA_VIOLATION
    assert reject.field == "$.ohh.players[1].name", reject
    only_display = _read_changed(lambda o: o["players"][1].pop("name"))
    assert isinstance(only_display, HandRecord)
    assert only_display.seats[1].player == "Gina"


@pytest.mark.parametrize("k", [0, 4, 5], ids=["post", "fold", "raise"])
def test_cards_on_an_action_that_deals_or_shows_none_are_refused_not_dropped(k: int) -> None:
    """Only Dealt Cards, Shows Cards and Mucks Cards carry cards; cards on a post, fold or
    raise were dropped without a word (so never checked for a card dealt twice). As with
    chips on a fold, the hand is refused, naming the field."""
    reject = _read_changed(lambda o: o["rounds"][0]["actions"][k].update(cards=["2h", "3h"]))
    assert isinstance(reject, Reject), reject
    assert reject.code is RejectCode.SCHEMA_VIOLATION
    assert reject.field == f"$.ohh.rounds[0].actions[{k}].cards", reject
    empty = _read_changed(lambda o: o["rounds"][0]["actions"][4].update(cards=[]))
    assert isinstance(empty, HandRecord)


@pytest.mark.parametrize("size", [-3, 0, 1, 1_000_001])
def test_a_table_size_no_table_has_is_refused(size: int) -> None:
    """table_size -3 was taken as the table's seat count, so ``croupier convert`` wrote a
    hand log its own reader rejects (``game.max_seats`` is 2 or more)."""
    reject = _read_changed(lambda o: o.update(table_size=size))
    assert isinstance(reject, Reject), reject
    assert reject.code is RejectCode.SCHEMA_VIOLATION and reject.field == "$.ohh.table_size"
    hand = _read_changed(lambda o: o.update(table_size=9))
    assert isinstance(hand, HandRecord) and hand.game.max_seats == 9


@pytest.mark.parametrize(
    "info", [None, {"buyin_amount": 1.0}, {"name": "", "tournament_number": ""}], ids=str
)
def test_a_tournament_hand_without_its_tournament_is_refused(info: object) -> None:
    """A tournament hand whose tournament_info names no tournament took the hand's own
    number as the tournament's (each hand its own tournament) or, failing that, "OHH"
    (every such hand one tournament): none is made up, the hand is refused."""

    def tournament(ohh: dict[str, Any]) -> None:
        ohh["tournament"] = True
        if info is not None:
            ohh["tournament_info"] = info

    reject = _read_changed(tournament)
    assert isinstance(reject, Reject), reject
    assert reject.code is RejectCode.SCHEMA_VIOLATION
    assert reject.field == "$.ohh.tournament_info.tournament_number", reject
    named = _read_changed(lambda o: o.update(tournament_info={"tournament_number": "T-9"}))
    assert isinstance(named, HandRecord) and named.tournament is not None
    assert named.tournament.id == "T-9"


def test_two_players_given_one_seat_keep_their_own_stacks() -> None:
    def same_seat(ohh: dict[str, Any]) -> None:
        ohh["players"][1]["seat"] = ohh["players"][0]["seat"]
        ohh["players"][1]["starting_stack"] = 40.0

    hand = _read_changed(same_seat)
    assert isinstance(hand, HandRecord)
    stacks = {s.player: s.stack for s in hand.seats}
    unit = 10**hand.game.scale
    assert (stacks["Hero"], stacks["Gina"]) == (100 * unit, 40 * unit)


def test_one_object_an_array_or_blank_line_separated_read_alike() -> None:
    hand = _one_hand_object()
    single = json.dumps(hand)
    array = json.dumps([hand, hand], indent=1)
    stream = f"{single}\n\n{json.dumps(hand, indent=2)}\n"
    for text, count in ((single, 1), (array, 2), (stream, 2)):
        items = list(parse_ohh(text, "c.ohh"))
        assert len(items) == count
        assert all(isinstance(i, HandRecord) and i.hand_id == "CF-PLO-INC-1" for i in items)
    lines = [i.line for i in parse_ohh(stream, "c.ohh")]
    assert lines == [1, 3]


def test_a_broken_hand_is_one_reject_and_reading_goes_on() -> None:
    good = json.dumps(_one_hand_object(), indent=2)
    text = f"{good}\n\n{good[:300]}\n\n{good}\n\n{good[:500]}"
    items = list(parse_ohh(text, "session.ohh"))
    kinds = [i.code.value if isinstance(i, Reject) else "hand" for i in items]
    assert kinds == ["hand", "malformed-json", "hand", "truncated-hand"]


@pytest.mark.parametrize("name", ["session.ohh", "SESSION.OHH"])
def test_a_file_whose_first_hand_is_broken_is_still_read_as_ohh_by_its_name(
    tmp_path: Path, name: str
) -> None:
    """The content does not say OHH (the first hand lacks the colon after "ohh"), the
    name does: one reject for that hand, and the next one read."""
    good = json.dumps(_one_hand_object(), indent=2)
    broken = good.replace('"ohh":', '"ohh"', 1)
    path = tmp_path / name
    path.write_text(f"{broken}\n\n{good}\n", encoding="utf-8")
    kinds = [i.code.value if isinstance(i, Reject) else "hand" for i in read_hands(path)]
    assert kinds == ["malformed-json", "hand"]


def _relabelled(hand_id: str) -> str:
    """The fixture hand, pretty-printed as a site writes it, under another hand id."""
    hand = _one_hand_object()
    ohh = hand["ohh"]
    assert isinstance(ohh, dict)
    ohh["game_number"] = hand_id
    return json.dumps(hand, indent=4)


@pytest.mark.parametrize(
    "cut_after", ['"action": "Fold",', '"action": ', '"players": [', '"action": "Fo']
)
def test_a_hand_cut_mid_file_does_not_swallow_the_next_one(cut_after: str) -> None:
    # The cut hand runs on, as JSON, into the next one, and the decoder fails inside
    # that one (or later): reading resumes where the next hand starts, not past the error.
    first, cut, last = _relabelled("H-1"), _relabelled("H-2"), _relabelled("H-3")
    cut = cut[: cut.index(cut_after) + len(cut_after)] + "\n    "
    text = f"{first}\n\n{cut}\n\n{last}\n"
    for items in (
        list(parse_ohh(text, "cut.ohh")),
        list(parse_ohh_stream(io.BytesIO(text.encode()), "cut.ohh")),
    ):
        kinds = [i.code.value if isinstance(i, Reject) else i.hand_id for i in items]
        assert kinds == ["H-1", "malformed-json", "H-3"]
        reject, hand = items[1], items[2]
        assert isinstance(reject, Reject) and isinstance(hand, HandRecord)
        assert reject.line == first.count("\n") + 3
        assert hand.line == reject.line + cut.count("\n") + 2
        assert f"the next hand starts, after a blank line, at line {hand.line}" in reject.message


def test_a_blank_line_inside_a_broken_hand_does_not_split_it() -> None:
    # only a blank line before {"ohh": … (or past the error) starts the next hand
    broken = _relabelled("H-2").replace('"players": [', '"players": [\n\n', 1)
    broken = broken.replace('"seat": 1', '"seat": 1,,', 1)
    text = f"{broken}\n\n{_relabelled('H-3')}\n"
    items = list(parse_ohh(text, "x.ohh"))
    assert [i.code.value if isinstance(i, Reject) else i.hand_id for i in items] == [
        "malformed-json",
        "H-3",
    ]
    assert list(parse_ohh_stream(io.BytesIO(text.encode()), "x.ohh")) == items


@pytest.mark.parametrize(
    ("change", "code", "named"),
    [
        (('"game_type": "Omaha"', '"game_type": "Stud"'), RejectCode.UNSUPPORTED_GAME, "Stud"),
        (('"game_type": "Omaha"', '"game_type": "Draw"'), RejectCode.UNSUPPORTED_GAME, "Draw"),
        (('"bet_type": "PL"', '"bet_type": "XL"'), RejectCode.UNSUPPORTED_GAME, "XL"),
        (('"action": "Fold"', '"action": "Dance"'), RejectCode.MALFORMED_HAND, "Dance"),
        (('"player_id": 1,', '"player_id": 9,'), RejectCode.MALFORMED_HAND, "player"),
        (('"Qh",', '"Qx",'), RejectCode.BAD_CARD, "Qx"),
        (('"amount": 3.00', '"amount": -3.00'), RejectCode.BAD_AMOUNT, "negative"),
        (('"amount": 3.00', '"amount": NaN'), RejectCode.BAD_AMOUNT, "finite"),
        (('"amount": 3.00', '"amount": 1e99'), RejectCode.BAD_AMOUNT, "large"),
        (('"2026-03-03T09:30:00Z"', '"yesterday"'), RejectCode.BAD_TIMESTAMP, "yesterday"),
        (('"dealer_seat": 1,', ""), RejectCode.SCHEMA_VIOLATION, "dealer_seat"),
        (('"currency": "USD"', '"currency": "$"'), RejectCode.SCHEMA_VIOLATION, "currency"),
        # an amount the hand cannot do without is refused, never read as 0
        (('"starting_stack": 100.00,', ""), RejectCode.SCHEMA_VIOLATION, "starting_stack"),
        (('"win_amount": 18.00,', ""), RejectCode.SCHEMA_VIOLATION, "win_amount: missing"),
        (('"amount": 18.50,', ""), RejectCode.SCHEMA_VIOLATION, "pots[0].amount: missing"),
        (('"amount": 0.50,', ""), RejectCode.SCHEMA_VIOLATION, "actions[0].amount: missing"),
        (('"small_blind_amount": 0.50,', ""), RejectCode.SCHEMA_VIOLATION, "small_blind"),
        # a value of the wrong type is refused, not passed over
        (('"is_allin": false', '"is_allin": "yes"'), RejectCode.SCHEMA_VIOLATION, "'yes'"),
        (('"name": "Gina",', '"is_sitting_out": "true",'), RejectCode.SCHEMA_VIOLATION, "out"),
        (('"flags": [],', '"flags": 7,'), RejectCode.SCHEMA_VIOLATION, "flags: not a list"),
        (('"currency": "USD",', '"tournament_info": "x",'), RejectCode.SCHEMA_VIOLATION, "info"),
        (('"hero_player_id": 0', '"hero_player_id": 42'), RejectCode.MALFORMED_HAND, "42"),
        (
            ('"contributed_rake": 0.50', '"cashout_fee": 0.10'),
            RejectCode.SCHEMA_VIOLATION,
            "without a cashout_amount",
        ),
        (('"amount": 18.50', '"amount": 18.500000000'), RejectCode.BAD_AMOUNT, "at most 8"),
    ],
)
def test_bad_hands_are_rejects(change: tuple[str, str], code: RejectCode, named: str) -> None:
    text = (FIXTURES / "omaha_raise_added.ohh").read_text()
    assert change[0] in text
    items = list(parse_ohh(text.replace(*change, 1), "bad.ohh"))
    assert len(items) == 1 and isinstance(items[0], Reject)
    assert items[0].code is code, items[0].message
    assert named in items[0].message
    assert items[0].hand_id == "CF-PLO-INC-1"


def _money_hand(pots: list[dict[str, object]], extra: list[dict[str, object]]) -> HandRecord:
    """The fixture hand (18.50 in the pot, rake 0.50) with other pots and actions first."""
    hand = _one_hand_object()
    ohh = hand["ohh"]
    assert isinstance(ohh, dict)
    ohh["pots"] = pots
    rounds = ohh["rounds"]
    assert isinstance(rounds, list)
    rounds[0]["actions"] = extra + rounds[0]["actions"]
    (item,) = parse_ohh(json.dumps(hand, default=str), "m.ohh")
    assert isinstance(item, HandRecord), item
    return item


def _win(amount: float, **more: float) -> dict[str, object]:
    return {"player_id": 2, "win_amount": amount, **more}


def test_a_player_who_cashed_out_of_two_pots_is_paid_both_cash_outs() -> None:
    """OHH writes a cash-out on each ``player_wins`` entry, so a player who wins a main and
    a side pot has two; the hand's cash-out is one per player (what they were paid
    instead of their share), and reading both as two left only the last one counted."""
    text = (FIXTURES / "omaha_pl.ohh").read_text()
    hand, _ = json.JSONDecoder().raw_decode(text)
    wins = [pot["player_wins"][0] for pot in hand["ohh"]["pots"]]
    assert [w["player_id"] for w in wins] == [5, 5]  # Elio wins both pots
    wins[0].update(cashout_amount=5.00)
    wins[1].update(cashout_amount=6.00, cashout_fee=0.06)
    (item,) = parse_ohh(json.dumps(hand), "c.ohh")
    assert isinstance(item, HandRecord) and item.result is not None, item
    assert [(c.seat, c.amount, c.fee) for c in item.result.cash_outs] == [(5, 1100, 6)]
    settled = settle(replay(item))
    assert settled.payouts_match is True
    assert settled.final_stacks[5] == 1000 - 620 + 1100


def test_jackpot_and_money_added_reconcile_as_the_standard_counts_them() -> None:
    """OHH: a pot's amount = wins + rake + jackpot, and holds money the site added. A
    jackpot made a rake-mismatch, and added money could never reconcile."""
    jackpot = _money_hand(
        [{"number": 0, "amount": 18.5, "rake": 0.3, "jackpot": 0.2, "player_wins": [_win(18.0)]}],
        [],
    )
    added = _money_hand(
        [{"number": 0, "amount": 19.5, "rake": 0.5, "player_wins": [_win(19.0)]}],
        [{"action_number": 0, "player_id": None, "action": "Add to Pot", "amount": 1.0}],
    )
    for hand in (jackpot, added):
        settled = settle(replay(hand))
        assert settled.violations == (), hand.hand_id
        assert settled.payouts_match is True
    assert added.game.scale == 1  # amounts written with one decimal
    assert added.result is not None and added.result.total_pot == 185  # the players' chips


def test_money_added_to_a_hand_without_pots_is_kept() -> None:
    """A hand with no ``pots[]`` records no result, but the money the site added (``Add to
    Pot``) was in the pot: it is kept as the result's added money (which settlement pays
    out with the pot), not dropped with the missing result."""
    added: list[dict[str, object]] = [
        {"action_number": 0, "player_id": None, "action": "Add to Pot", "amount": 1.0}
    ]
    hand = _money_hand([], added)
    assert hand.result is not None and hand.result.added == 10  # one decimal: 1.0
    assert hand.result.collected == () and hand.result.total_pot is None
    settled = settle(replay(hand))
    assert sum(p.net for p in settled.pots) == 185 + 10  # the players' chips and the added
    assert settled.violations == () and settled.payouts_match is None  # nothing to compare
    plain = _money_hand([], [])
    assert plain.result is None


def test_a_bonus_and_bounties_are_said_in_the_extras_not_dropped() -> None:
    hand = _money_hand(
        [{"number": 0, "amount": 18.5, "rake": 0.5, "player_wins": [_win(18.0, bonus_amount=2.5)]}],
        [],
    )
    notes = json.loads(dict(hand.extras)["_ohh_ignored"])
    assert any("bonus_amount 2.5 to player 2" in note for note in notes)


def test_a_file_cut_inside_a_string_is_a_cut_hand() -> None:
    text = json.dumps(_one_hand_object(), indent=2)
    cut = text[: text.index('"Fixture PLO 3"') + 5]
    (item,) = parse_ohh(cut, "cut.ohh")
    assert isinstance(item, Reject) and item.code is RejectCode.TRUNCATED_HAND, item


def test_a_hand_without_its_number_or_with_a_pot_number_twice_is_refused() -> None:
    text = (FIXTURES / "omaha_raise_added.ohh").read_text()
    (item,) = parse_ohh(text.replace('"game_number": "CF-PLO-INC-1",', ""), "n.ohh")
    assert isinstance(item, Reject) and "game_number: missing" in item.message  # not n-1
    hand = _one_hand_object()
    ohh = hand["ohh"]
    assert isinstance(ohh, dict) and isinstance(ohh["pots"], list)
    ohh["pots"] = ohh["pots"] * 2
    (item,) = parse_ohh(json.dumps(hand, default=str), "p.ohh")
    assert isinstance(item, Reject) and "pot number 0 appears 2 times" in item.message


@pytest.mark.parametrize("numbers", [[1], [1, 2], [0, 2]], ids=["from-1", "both-from-1", "gap"])
def test_pots_not_numbered_from_0_without_a_gap_are_refused(numbers: list[int]) -> None:
    """OHH numbers the main pot 0 and the side pots 1, 2 ...; a pot numbered otherwise was
    read as given, so its wins were checked against another pot (or one that does not
    exist) and the hand was judged a payout mismatch the log does not show."""

    def renumber(ohh: dict[str, Any]) -> None:
        pot = ohh["pots"][0]
        ohh["pots"] = [dict(pot, number=n) for n in numbers]

    reject = _read_changed(renumber)
    assert isinstance(reject, Reject), reject
    assert reject.code is RejectCode.SCHEMA_VIOLATION and reject.field == "$.ohh.pots"
    assert "numbered 0 (the main pot)" in reject.message, reject.message


def test_a_negative_player_adjustment_is_ignored_as_the_others_are() -> None:
    """ohh.md: Player Adjustment is money outside the pot and can be negative; it rejected
    the whole hand as a negative amount."""
    adjust = {"action_number": 0, "player_id": 1, "action": "Player Adjustment", "amount": -5}
    hand = _money_hand(
        [{"number": 0, "amount": 18.5, "rake": 0.5, "player_wins": [_win(18.0)]}], [adjust]
    )
    notes = json.loads(dict(hand.extras)["_ohh_ignored"])
    assert notes == ["Player Adjustment ignored ($.ohh.rounds[0].actions[0])"]


def test_flags_written_as_text_are_read() -> None:
    """The standard's own examples write "flags": "" (a list is the schema's type)."""
    hand = _one_hand_object()
    ohh = hand["ohh"]
    assert isinstance(ohh, dict)
    ohh["flags"] = ""
    (item,) = parse_ohh(json.dumps(hand), "f.ohh")
    assert isinstance(item, HandRecord)


def test_not_an_ohh_object_and_not_utf8() -> None:
    items = list(parse_ohh('{"hand_id": 1}\n\n[1, 2]', "x.ohh"))
    assert [i.code for i in items if isinstance(i, Reject)] == [RejectCode.SCHEMA_VIOLATION] * 2
    text = (FIXTURES / "omaha_raise_added.ohh").read_text().replace("Gina", "Gi\udcffna")
    items = list(parse_ohh(text, "latin.ohh"))
    assert len(items) == 1 and isinstance(items[0], Reject)
    assert items[0].code is RejectCode.BAD_ENCODING


def test_posts_sitting_out_and_ignored_events() -> None:
    value = _one_hand_object()
    ohh = value["ohh"]
    assert isinstance(ohh, dict)
    ohh["players"].append(
        {"id": 7, "seat": 7, "name": "Away", "starting_stack": 50, "is_sitting_out": True}
    )
    ohh["rounds"][0]["actions"].insert(
        0, {"action_number": 0, "player_id": 7, "action": "Sits Down", "amount": 0}
    )
    hand = next(iter(parse_ohh(json.dumps(value), "posts.ohh")))
    assert isinstance(hand, HandRecord)
    assert [s.seat for s in hand.seats if s.sitting_out] == [7]
    posts = [(a.seat, a.blind) for a in hand.actions if a.type is ActionType.POST]
    assert posts == [(2, Blind.SMALL), (3, Blind.BIG)]
    assert b"Sits Down ignored" in dict(hand.extras)["_ohh_ignored"]
    assert replay(hand).errors == ()


def test_looks_like_ohh() -> None:
    assert looks_like_ohh(b'\xef\xbb\xbf{\n  "ohh": {')
    assert looks_like_ohh(b'[\n {"ohh": {')
    assert not looks_like_ohh(b'{"hand_id": "x", "ohh": 1}')
    assert not looks_like_ohh(b"variant = 'PO'\n")


# ---------------------------------------------------------------------------- robustness


def _mutations(data: bytes, rng: random.Random) -> Iterator[bytes]:
    lines = data.split(b"\n")
    for _ in range(8):
        kept = list(lines)
        for _ in range(rng.randint(1, 4)):
            if len(kept) > 1:
                del kept[rng.randrange(len(kept))]
        yield b"\n".join(kept)
        yield data[: rng.randrange(len(data) + 1)]
        spoiled = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            spoiled[rng.randrange(len(spoiled))] = rng.randrange(256)
        yield bytes(spoiled)


def test_reader_never_raises_on_mutated_files(tmp_path: Path) -> None:
    rng = random.Random(2026)
    sources = sorted(FIXTURES.glob("*.ohh"))
    if EXAMPLES.is_dir():
        sources += sorted(EXAMPLES.glob("*.json"))
    seen: dict[str, int] = {}
    for source in sources:
        for k, mutated in enumerate(_mutations(source.read_bytes(), rng)):
            path = tmp_path / f"{source.stem}-{k}.ohh"
            path.write_bytes(mutated)
            for item in read_ohh(path):
                assert isinstance(item, HandRecord | Reject)
                name = "hand" if isinstance(item, HandRecord) else item.code.value
                seen[name] = seen.get(name, 0) + 1
                if isinstance(item, HandRecord):
                    settle(replay(item))
    assert seen.get("hand", 0) > 0 and len(seen) >= 4, seen


# --------------------------------------------------------------------------- streaming


def _ohh_seeds() -> list[bytes]:
    sources = sorted(FIXTURES.glob("*.ohh"))
    if EXAMPLES.is_dir():
        sources += sorted(EXAMPLES.glob("*.json"))
    return [source.read_bytes() for source in sources]


def _storage_and_array(seeds: list[bytes]) -> Iterator[bytes]:
    """Every seed, then the seeds as one file: objects apart by blank lines, and an array."""
    yield from seeds
    hands = [seed.strip() for seed in seeds if seed.strip().startswith(b"{")]
    yield b"\n\n".join(hands) + b"\n"
    yield b"[\n" + b",\n".join(hands) + b"\n]\n"
    yield b"[\n" + b",\n".join(hands)  # never closed


@pytest.mark.parametrize("read", [97, 1 << 16])
def test_the_stream_reads_what_the_whole_text_holds(
    read: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same hands, rejects, lines and excerpts, however the file arrives in reads
    monkeypatch.setattr("pipeline.formats.ohh_stream._READ_BYTES", read)
    rng = random.Random(7)
    inputs = list(_storage_and_array(_ohh_seeds()))
    for data in list(inputs):
        inputs.extend(_mutations(data, rng))
    for data in inputs:
        whole = list(parse_ohh_bytes(data, "x.ohh"))
        streamed = list(parse_ohh_stream(io.BytesIO(data), "x.ohh"))
        assert streamed == whole
        # croupier run cuts the stream where it reads it and its workers read the frames
        frames = [pickle.loads(pickle.dumps(f)) for f in ohh_frames(io.BytesIO(data), "x.ohh")]
        assert [vet(item) for f in frames for item in read_ohh_frames([f], "x.ohh")] == whole


def _over_the_limit(monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes]:
    """Set a 5,000-character hand limit and 256-byte reads; return a hand under the limit
    and the same hand padded over it."""
    monkeypatch.setattr("pipeline.formats.ohh_stream.MAX_HAND_BYTES", 5_000)
    monkeypatch.setattr("pipeline.formats.ohh_stream._READ_BYTES", 256)
    good = next(seed for seed in _ohh_seeds() if seed.count(b'"ohh"') == 1 and len(seed) < 5_000)
    good = good.strip()
    return good, good.replace(b'"ohh"', b'"_pad": "' + b"x" * 8_000 + b'", "ohh"', 1)


def test_a_hand_over_the_limit_is_one_reject_and_the_next_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    good, padded = _over_the_limit(monkeypatch)
    data = good + b"\n\n" + padded + b"\n\n" + good + b"\n"
    first, long, last = parse_ohh_stream(io.BytesIO(data), "x.ohh")
    assert isinstance(first, HandRecord) and isinstance(last, HandRecord)
    assert isinstance(long, Reject) and long.code is RejectCode.MALFORMED_HAND
    assert long.message == "a hand longer than the limit of 5000 characters"
    assert long.line == good.count(b"\n") + 3
    assert last.line == long.line + padded.count(b"\n") + 2


def test_many_hands_are_read_in_bounded_memory(tmp_path: Path) -> None:
    good = next(seed for seed in _ohh_seeds() if seed.count(b'"ohh"') == 1).strip()
    path = tmp_path / "many.ohh"
    path.write_bytes(b"\n\n".join([good] * 1_000) + b"\n")
    count, peak = hands_and_peak(read_ohh(path))  # lazily: the reader runs while traced
    assert count == 1_000
    assert peak < path.stat().st_size // 4  # the file is never held whole


@pytest.mark.parametrize("read", [1, 2, 3, 5])
def test_tiny_reads_split_marks_numbers_and_blank_lines_alike(
    read: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a byte-order mark, a number or a blank line cut by a read reads as the whole text does
    monkeypatch.setattr("pipeline.formats.ohh_stream._READ_BYTES", read)
    good = next(seed for seed in _ohh_seeds() if seed.count(b'"ohh"') == 1).strip()
    for data in (
        b"\xef\xbb\xbf" + good + b"\n",
        b"  1.5\n",
        b"[1.5, 2e3, true]\n",
        good + b"\n \t\n   \n\n" + good + b"\n",
    ):
        assert list(parse_ohh_stream(io.BytesIO(data), "x.ohh")) == list(
            parse_ohh_bytes(data, "x.ohh")
        )


def test_blank_text_between_hands_is_not_held(tmp_path: Path) -> None:
    good = next(seed for seed in _ohh_seeds() if seed.count(b'"ohh"') == 1).strip()
    path = tmp_path / "spaced.ohh"
    with path.open("wb") as out:
        out.write(good + b"\n")
        for _ in range(16):
            out.write(b" " * (1 << 20))
        out.write(b"\n\n" + good + b"\n")
    count, peak = hands_and_peak(read_ohh(path))
    assert count == 2
    assert peak < 4 << 20  # 16 MiB of spaces, read and let go of


def test_the_hand_after_an_over_long_one_is_found_across_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    good, padded = _over_the_limit(monkeypatch)
    data = padded + b"\n\n" + b" " * 700 + good + b"\n"
    long, last = parse_ohh_stream(io.BytesIO(data), "x.ohh")
    assert isinstance(long, Reject) and long.code is RejectCode.MALFORMED_HAND
    assert isinstance(last, HandRecord)


def test_a_long_hand_is_decoded_a_few_times_not_once_per_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # reading on doubles what is held, so a 2 MiB hand read in 64 KiB blocks is tried as
    # JSON about log2(2 MiB / 64 KiB) times, not 32 times over ever longer text
    attempts = 0

    class Counting(json.JSONDecoder):
        def raw_decode(self, s: str, idx: int = 0) -> tuple[object, int]:
            nonlocal attempts
            attempts += 1
            return super().raw_decode(s, idx)

    monkeypatch.setattr("pipeline.formats.ohh_stream._DECODER", Counting())
    monkeypatch.setattr("pipeline.formats.ohh_stream._READ_BYTES", 1 << 16)
    good = next(seed for seed in _ohh_seeds() if seed.count(b'"ohh"') == 1).strip()
    long = good.replace(b'"ohh"', b'"_pad": "' + b"x" * (2 << 20) + b'", "ohh"', 1)
    first, second = parse_ohh_stream(io.BytesIO(long + b"\n\n" + good + b"\n"), "x.ohh")
    assert isinstance(first, HandRecord) and isinstance(second, HandRecord)
    assert attempts <= 8


# ---------------------------------------------------------------------------- duplicate keys


@pytest.mark.parametrize(
    ("change", "path", "shown"),
    [
        (
            (
                '"game_number": "CF-PLO-INC-1",',
                '"game_number": "CF-PLO-INC-1", "game_number": "2",',
            ),
            "$.ohh.game_number",
            '"CF-PLO-INC-1", "2"',
        ),
        (('"seat": 1', '"seat": 1, "seat": 4'), "$.ohh.players[0].seat", "1, 4"),
    ],
)
def test_a_key_named_twice_is_a_schema_violation_naming_it(
    change: tuple[str, str], path: str, shown: str
) -> None:
    """JSON keeps the last of two values of a key; the hand is refused instead."""
    text = (FIXTURES / "omaha_raise_added.ohh").read_text()
    assert change[0] in text
    text = text.replace(*change, 1)
    for items in (
        list(parse_ohh(text, "dup.ohh")),
        list(parse_ohh_stream(io.BytesIO(text.encode()), "dup.ohh")),
    ):
        (reject,) = items
        assert isinstance(reject, Reject) and reject.code is RejectCode.SCHEMA_VIOLATION
        assert reject.field == path
        key = path.rsplit(".", 1)[1]
        assert f"the key {key!r} appears 2 times (values {shown})" in reject.message
    good = (FIXTURES / "omaha_raise_added.ohh").read_text()
    after = list(parse_ohh(f"{text}\n\n{good}", "dup.ohh"))
    assert [type(i) for i in after] == [Reject, HandRecord]  # the next hand is still read
