"""PHH: the WSOP corpus hands, our writer against PokerKit's loader, round trips, robustness.

The done-when of the real-world input issue: for the 11 hands of the 2023 WSOP $50K Poker
Players Championship final table (``../shared/corpus/phh``, or ``$CROUPIER_CORPUS``),
the recomputed final stacks equal the recorded ``finishing_stacks``. Where our engine or
settlement disagrees with the record, RULES.md decides, PokerKit (which plays the same
files) is a second witness.
"""

from __future__ import annotations

import dataclasses
import io
import os
import pickle
import random
import re
import warnings
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import msgspec
import pytest
from pokerkit import HandHistory

from pipeline.cards import parse_cards
from pipeline.convert import phh_text
from pipeline.formats.jsonl import read_jsonl
from pipeline.formats.limits import vet
from pipeline.formats.phh import (
    MAX_HAND_BYTES,
    UnwritableHand,
    parse_variant_code,
    variant_code,
    write_phh,
)
from pipeline.formats.phh_stream import (
    looks_like_phh,
    parse_phh,
    phh_frames,
    read_phh,
    read_phh_frames,
    read_phh_stream,
)
from pipeline.generate import GameChoice, RakePolicy, generate_hands
from pipeline.model import (
    ActionType,
    Betting,
    Blind,
    CashOut,
    Fee,
    GameSpec,
    HandRecord,
    RecordedResult,
    Seat,
    SeatAmount,
    Tournament,
    Variant,
)
from pipeline.rules import replay
from pipeline.settle import settle
from pipeline.violations import Reject, RejectCode
from tests.pokerkit_bridge import play_in_pokerkit, pokerkit_can_play

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CROUPIER_CORPUS", ROOT.parent / "shared" / "corpus"))
WSOP = CORPUS / "phh" / "wsop-2023-43-5"
FIXTURES = Path(__file__).parent / "fixtures" / "phh"
LIMIT_HANDS = ("12", "13", "14", "15", "16", "17", "18")
POT_LIMIT_HANDS = ("27", "28", "29", "30")
PLO = GameChoice(variant=Variant.OMAHA, hole_cards=4, betting=Betting.POT_LIMIT)

needs_corpus = pytest.mark.skipif(
    not WSOP.is_dir(), reason=f"PHH corpus not found at {WSOP} (set CROUPIER_CORPUS)"
)
# The pot-limit hands have a big-blind ante (antes = [0, A, 0, …]): the big blind antes for
# the table, dead money for the main pot (R2.antes). PokerKit plays them to the same stacks.


def _only(items: list[HandRecord | Reject]) -> HandRecord:
    assert len(items) == 1
    item = items[0]
    assert isinstance(item, HandRecord), item
    return item


def _wsop(stem: str) -> HandRecord:
    return _only(list(read_phh(WSOP / f"{stem}.phh")))


def _same_record(ours: HandRecord, back: HandRecord) -> bool:
    return (
        msgspec.structs.replace(back, source=ours.source, line=ours.line, extras=ours.extras)
        == ours
    )


# ---------------------------------------------------------------------------- the corpus


@needs_corpus
def test_every_corpus_file_reads_as_one_hand() -> None:
    files = sorted(WSOP.glob("*.phh"))
    assert [f.stem for f in files] == sorted(LIMIT_HANDS + POT_LIMIT_HANDS)
    for path in files:
        hand = _only(list(read_phh(path)))
        assert hand.hand_id == path.stem
        assert hand.site.startswith("2023 World Series of Poker Event #43")
        assert [s.seat for s in hand.seats] == [1, 2, 3, 4, 5]
        assert hand.button == 5  # PHH lists players from the small blind, the button last
        assert hand.result is not None and len(hand.result.final_stacks) == 5


@needs_corpus
def test_corpus_games_map_to_our_games() -> None:
    limit = _wsop("12")
    assert (limit.game.variant, limit.game.betting) == (Variant.OMAHA_HILO, Betting.FIXED_LIMIT)
    assert (limit.game.small_bet, limit.game.big_bet) == (200_000, 400_000)
    assert (limit.game.small_blind, limit.game.big_blind, limit.game.scale) == (100_000, 200_000, 0)
    pot = _wsop("27")
    assert (pot.game.variant, pot.game.betting) == (Variant.OMAHA, Betting.POT_LIMIT)
    assert (pot.game.big_blind, pot.game.ante) == (100_000, 0)
    first = pot.actions[0]
    assert (first.type, first.seat, first.blind, first.amount) == (
        ActionType.POST,
        2,
        Blind.ANTE,
        100_000,
    )


@needs_corpus
@pytest.mark.parametrize("stem", [*LIMIT_HANDS, *POT_LIMIT_HANDS])
def test_wsop_hand_replays_without_errors(stem: str) -> None:
    judged = replay(_wsop(stem))
    assert judged.errors == ()
    assert not settle(judged).errors


@needs_corpus
@pytest.mark.parametrize(
    "stem",
    [*LIMIT_HANDS, "27", "28", "29", pytest.param("30")],
)
def test_wsop_final_stacks_equal_finishing_stacks(stem: str) -> None:
    hand = _wsop(stem)
    assert hand.result is not None
    finishing = {s.seat: s.amount for s in hand.result.final_stacks}
    assert settle(replay(hand)).final_stacks == finishing


@needs_corpus
@pytest.mark.parametrize("stem", LIMIT_HANDS + POT_LIMIT_HANDS)
def test_pokerkit_plays_the_file_and_our_rewrite_to_finishing_stacks(stem: str) -> None:
    hand = _wsop(stem)
    assert hand.result is not None
    finishing = [s.amount for s in hand.result.final_stacks]
    for text in ((WSOP / f"{stem}.phh").read_text(), write_phh(hand)):
        assert _pokerkit_stacks(text, lambda raw: int(raw)) == finishing


@needs_corpus
def test_wsop_rewrite_reads_back_identically() -> None:
    for path in sorted(WSOP.glob("*.phh")):
        hand = _only(list(read_phh(path)))
        assert _same_record(hand, _only(list(parse_phh(write_phh(hand), path.name))))


# ---------------------------------------------------------------------------- the writer


def _pokerkit_stacks(text: str, units: Callable[[str], int]) -> list[int]:
    """Play PHH text through PokerKit (amounts in integer units); return its final stacks."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        history = HandHistory.loads(text, parse_value=units)
        history = dataclasses.replace(history, parse_value=units)
        *_, state = history  # the state after the last action
    assert not state.status, "PokerKit did not finish the hand"
    return [int(stack) for stack in state.stacks]


def test_pokerkit_loads_and_plays_our_pot_limit_omaha() -> None:
    played = 0
    for hand in generate_hands(160, seed=43, choice=PLO, rake=RakePolicy(basis_points=0)):
        if not pokerkit_can_play(hand):
            continue
        scale = hand.game.scale

        def units(raw: str, scale: int = scale) -> int:
            return int(Decimal(raw) * 10**scale)

        text = write_phh(hand)
        assert _pokerkit_stacks(text, units) == list(play_in_pokerkit(hand).final_stacks)
        played += 1
    assert played >= 100


@pytest.mark.parametrize(
    ("choice", "faults"),
    [(PLO, 0.0), (GameChoice(), 0.0), (GameChoice(), 0.5)],
    ids=["plo", "every-game", "every-game-with-faults"],
)
def test_round_trip_keeps_the_hand_and_its_betting(
    choice: GameChoice, faults: float, tmp_path: Path
) -> None:
    """``read_phh`` of a ``.phhs`` file of ``write_phh`` texts gives every hand back."""
    hands: list[HandRecord] = []
    texts: list[str] = []
    for hand in generate_hands(250, seed=5, choice=choice, faults=faults):
        try:
            texts.append(write_phh(hand))
        except UnwritableHand:
            assert faults  # only a faulty hand acts from a seat that is not dealt in
            continue
        hands.append(hand)
    assert len(hands) >= 200
    path = tmp_path / "round-trip.phhs"
    path.write_text("\n".join(f"[{k}]\n{text}" for k, text in enumerate(texts, start=1)))
    back = list(read_phh(path))
    assert len(back) == len(hands)
    for hand, again in zip(hands, back, strict=True):
        assert isinstance(again, HandRecord), again
        assert _same_record(hand, again)
        ours, theirs = replay(hand), replay(again)
        assert theirs.steps == ours.steps
        assert settle(theirs).final_stacks == settle(ours).final_stacks


def test_written_text_is_pokerkit_style_toml() -> None:
    hand = next(generate_hands(1, seed=3, choice=PLO))
    text = write_phh(hand)
    assert text.startswith('variant = "PO"\n') and text.endswith("\n")
    assert looks_like_phh(text.encode())
    assert "min_bet = " in text and "actions = [" in text


def test_write_refuses_an_action_from_a_seat_not_dealt_in() -> None:
    hand = next(generate_hands(1, seed=3, choice=PLO))
    fold = msgspec.structs.replace(hand.actions[-1], type=ActionType.FOLD, seat=99)
    with pytest.raises(UnwritableHand, match="seat 99"):
        write_phh(msgspec.structs.replace(hand, actions=(*hand.actions, fold)))


# ---------------------------------------------------------------------------- variants


@pytest.mark.parametrize(
    ("code", "game"),
    [
        ("PO", (Variant.OMAHA, 4, Betting.POT_LIMIT)),
        ("FO/8", (Variant.OMAHA_HILO, 4, Betting.FIXED_LIMIT)),
        ("NO", (Variant.OMAHA, 4, Betting.NO_LIMIT)),
        ("PO/8", (Variant.OMAHA_HILO, 4, Betting.POT_LIMIT)),
        ("FO", (Variant.OMAHA, 4, Betting.FIXED_LIMIT)),
        ("PO5", (Variant.OMAHA, 5, Betting.POT_LIMIT)),
        ("NO6/8", (Variant.OMAHA_HILO, 6, Betting.NO_LIMIT)),
        ("PC", (Variant.COURCHEVEL, 5, Betting.POT_LIMIT)),
        ("PC/8", (Variant.COURCHEVEL_HILO, 5, Betting.POT_LIMIT)),
        ("PNO", (Variant.OMAHA, 4, Betting.PL_PREFLOP_NL_POSTFLOP)),
    ],
)
def test_variant_codes_both_ways(code: str, game: tuple[Variant, int, Betting]) -> None:
    assert parse_variant_code(code) == game
    variant, hole_cards, betting = game
    spec = GameSpec(variant, hole_cards, betting, 1, 2, "USD", 2)
    assert variant_code(spec) == code


@pytest.mark.parametrize(
    ("code", "named"),
    [("NT", "no-limit Texas hold'em"), ("F7S", "seven card stud"), ("PC5", "unknown"), ("X", "")],
)
def test_other_games_are_unsupported(code: str, named: str) -> None:
    text = f"variant = '{code}'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
    text += "starting_stacks = [100, 100]\nactions = []\n"
    reject = next(parse_phh(text, "other.phh"))
    assert isinstance(reject, Reject)
    assert reject.code is RejectCode.UNSUPPORTED_GAME
    assert named in reject.message and code in reject.message


# ---------------------------------------------------------------------------- reading


HEADS_UP = """\
variant = 'PO'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 150]
seats = [3, 8]
players = ['Ada', '']
actions = [
  'd dh p1 AhKhQhJh',  # the big blind: heads-up, p1
  'd dh p2 2c3d4s5c',
  'p2 cbr 6',
  'p1 cc',
  'd db 9h9c2d',
  'p1 cbr 10 # a small bet',
  'p2 f',
]
finishing_stacks = [206, 144]
"""


def test_hole_cards_dealt_in_parts_are_one_deal_and_shown_whole() -> None:
    head, _, _ = HEADS_UP.partition("actions = [")
    text = head + (
        "actions = ['d dh p1 AhKh', 'd dh p2 2c3d4s5c', 'd dh p1 QhJh', 'p2 cc', 'p1 cc',\n"
        "  'd db 9h9c2d', 'p1 cc', 'p2 cc', 'd db 3s', 'p1 cc', 'p2 cc', 'd db 4d',\n"
        "  'p1 cc', 'p2 cc', 'p1 sm -', 'p2 sm -']\n"
    )
    hand = _only(list(parse_phh(text, "parts.phh")))
    deals = [(a.seat, a.cards) for a in hand.actions if a.type is ActionType.DEAL]
    assert deals == [(3, parse_cards("AhKhQhJh")), (8, parse_cards("2c3d4s5c"))]
    shown = [(a.seat, a.cards) for a in hand.actions if a.type is ActionType.SHOW]
    assert shown[0] == (3, parse_cards("AhKhQhJh"))  # sm -: every part dealt
    assert replay(hand).violations == ()


def test_toml_errors_name_the_file_s_line_and_a_hand_cut_at_a_line_end_is_truncated() -> None:
    broken = "variant = 'PO'\nnot toml at all\nantes = [0, 0]\n"
    text = f"[1]\n{HEADS_UP}[2]\n{broken}[3]\n{HEADS_UP}"
    items = list(parse_phh(text, "session.phhs"))
    bad = items[1]
    assert isinstance(bad, Reject) and bad.code is RejectCode.MALFORMED_HAND
    lines = text.splitlines()
    where = re.search(r"at line (\d+)", bad.message)
    assert where is not None and lines[int(where[1]) - 1] == "not toml at all", bad.message
    cut = HEADS_UP[: HEADS_UP.index("  'p2 f',")]  # stops at a line's end, inside actions
    (reject,) = parse_phh(cut, "cut.phh")
    assert isinstance(reject, Reject) and reject.code is RejectCode.TRUNCATED_HAND


def test_heads_up_players_seats_and_blinds() -> None:
    hand = _only(list(parse_phh(HEADS_UP, "hu.phh")))
    assert hand.button == 8 and [s.seat for s in hand.seats] == [3, 8]
    assert [s.player for s in hand.seats] == ["Ada", "p2"]
    posts = [(a.seat, a.blind, a.amount) for a in hand.actions if a.type is ActionType.POST]
    assert posts == [(8, Blind.SMALL, 1), (3, Blind.BIG, 2)]
    kinds = [(a.type, a.seat) for a in hand.actions if a.type is not ActionType.DEAL]
    assert kinds[2:] == [
        (ActionType.RAISE, 8),
        (ActionType.CALL, 3),
        (ActionType.BOARD, None),
        (ActionType.BET, 3),
        (ActionType.FOLD, 8),
        (ActionType.UNCALLED, 3),
    ]
    assert hand.result is not None
    assert [(c.seat, c.amount) for c in hand.result.collected] == [(3, 12)]
    judged = replay(hand)
    assert judged.errors == ()
    settled = settle(judged)
    assert settled.payouts_match is True and settled.final_stacks == {3: 206, 8: 144}


def test_pokerkit_idle_check_is_dropped() -> None:
    """PokerKit asks the big blind to check when the only other player is all-in for less."""
    text = """\
variant = 'PO'
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [15, 500, 500]
actions = ['d dh p1 AsAdKsKd', 'd dh p2 7c6c5d4d', 'd dh p3 QhJhTh9h', 'p3 f', 'p1 cc',
           'p2 cc', 'd db 2s3s4h', 'd db 8c', 'd db 9d', 'p1 sm -', 'p2 sm -']
"""
    hand = _only(list(parse_phh(text, "idle.phh")))
    wagers = [a for a in hand.actions if a.type in (ActionType.CALL, ActionType.CHECK)]
    assert [(a.type, a.seat, a.amount) for a in wagers] == [(ActionType.CALL, 1, 5)]
    assert [a.cards is not None for a in hand.actions if a.type is ActionType.SHOW] == [True] * 2
    assert replay(hand).errors == ()


def test_seats_must_run_clockwise_with_the_button_last() -> None:
    text = HEADS_UP.replace("seats = [3, 8]", "seats = [8, 3, 5]")
    reject = next(parse_phh(text, "bad.phh"))
    assert isinstance(reject, Reject) and reject.code is RejectCode.SCHEMA_VIOLATION
    three = HEADS_UP.replace("[0, 0]", "[0, 0, 0]").replace("[1, 2]", "[1, 2, 0]")
    three = three.replace("[200, 150]", "[200, 150, 90]").replace("['Ada', '']", "['A', 'B', 'C']")
    three = three.replace("finishing_stacks = [206, 144]\n", "")
    reject = next(parse_phh(three.replace("seats = [3, 8]", "seats = [3, 8, 5]"), "bad.phh"))
    assert isinstance(reject, Reject) and "clockwise" in reject.message
    hand = _only(list(parse_phh(three.replace("seats = [3, 8]", "seats = [8, 1, 3]"), "ok.phh")))
    assert hand.button == 3


def test_hand_ids_tell_tables_and_files_apart_and_one_hand_read_twice_is_one() -> None:
    """PHH numbers hands per table or event, and a hand may have no number: the id is
    table/hand, the number within an event or venue, else a digest of the hand's fields
    (with the number, if any): the same hand in any file, any line ends, is one."""
    numbered = HEADS_UP.replace("finishing_stacks", "hand = 12\nfinishing_stacks")
    ids = [_only(list(parse_phh(numbered + f"table = '{t}'\n", "h.phh"))).hand_id for t in "12"]
    assert ids == ["1/12", "2/12"]
    assert _only(list(parse_phh(numbered + "event = 'WSOP'\n", "h.phh"))).hand_id == "12"
    unnamed = [
        _only(list(parse_phh(text, "h.phh"))).hand_id
        for text in (numbered, numbered.replace("[200, 150]", "[200, 160]"))
    ]
    assert unnamed[0] != unnamed[1] and all(re.fullmatch("12-[0-9a-f]{16}", i) for i in unnamed)
    other = HEADS_UP.replace("[200, 150]", "[200, 160]")
    texts = {
        "a/h1.phh": HEADS_UP,
        "b/other.phh": HEADS_UP.replace("\n", "\r\n") + "\n\n# a comment\n",
        "c/s.phhs": f"[1]\n{other}\n[2]\n{HEADS_UP}",
        "d/h1.phh": other,
    }
    read = {
        name: [h.hand_id if isinstance(h, HandRecord) else h.code.value for h in parse_phh(t, name)]
        for name, t in texts.items()
    }
    same, other_id = read["a/h1.phh"][0], read["d/h1.phh"][0]
    assert re.fullmatch("phh-[0-9a-f]{16}", same) and same != other_id
    assert read == {
        "a/h1.phh": [same],
        "b/other.phh": [same],
        "c/s.phhs": [other_id, same],
        "d/h1.phh": [other_id],
    }


def test_decimal_amounts_set_the_scale() -> None:
    text = HEADS_UP.replace("[1, 2]", "[0.50, 1.00]").replace("min_bet = 2", "min_bet = 1.00")
    text = text.replace("finishing_stacks = [206, 144]\n", "")
    hand = _only(list(parse_phh(text, "cents.phh")))
    assert hand.game.scale == 2
    assert (hand.game.small_blind, hand.game.big_blind) == (50, 100)
    assert hand.seats[0].stack == 20_000


def test_keys_above_the_first_hand_table_are_one_reject_and_the_hands_are_read() -> None:
    text = f"# a session\ntitle = 'Friday'\nvenue = 'home'\n\n[1]\n{HEADS_UP}\n[2]\n{HEADS_UP}"
    first, *hands = parse_phh(text, "session.phhs")
    assert isinstance(first, Reject)
    assert (first.line, first.code) == (1, RejectCode.SCHEMA_VIOLATION)
    assert first.message.startswith("lines 1-3 are outside any hand")
    assert "title = 'Friday'" in first.excerpt
    assert [type(h) for h in hands] == [HandRecord, HandRecord]
    assert [h.line for h in hands if isinstance(h, HandRecord)] == [
        5,
        text.count("\n", 0, text.index("[2]")) + 1,
    ]


def test_a_hand_with_a_table_of_its_own_is_still_one_hand() -> None:
    for name in ("notes", "2023"):  # only [1] starts the hands of a file of several
        [hand] = parse_phh(f"{HEADS_UP}\n[{name}]\nby = 'dealer'\n", "h.phh")
        assert isinstance(hand, HandRecord)


def test_phhs_holds_several_hands_and_one_bad_hand_is_one_reject() -> None:
    good = HEADS_UP.replace("finishing_stacks", "hand = 'named'\nfinishing_stacks")
    text = f"[1]\n{HEADS_UP}\n[2]\nvariant = 'PO'\nactions = [\n\n[3]\n{good}"
    items = list(parse_phh(text, "session.phhs"))
    assert [type(i).__name__ for i in items] == ["HandRecord", "Reject", "HandRecord"]
    first, bad, third = items
    assert isinstance(first, HandRecord) and first.line == 1
    assert re.fullmatch("phh-[0-9a-f]{16}", first.hand_id)  # no hand: a digest of the hand
    assert isinstance(bad, Reject) and bad.code is RejectCode.MALFORMED_HAND
    assert bad.line == text.splitlines().index("[2]") + 1
    assert isinstance(third, HandRecord) and third.hand_id.startswith("named-")  # no event


def test_a_runout_beyond_the_third_is_a_reject_not_commentary() -> None:
    """``# run 2`` on a board card says which runout it is dealt to; ``# run 4`` was
    ignored as commentary, so the fourth runout's cards were read as the first board's."""
    sample = ROOT / "data" / "sample" / "special.jsonl"
    hand = next(
        h for h in read_jsonl(sample) if isinstance(h, HandRecord) and h.hand_id == "SAMPLE-0012"
    )
    text = phh_text(hand)
    assert "# run 2" in text
    items = list(parse_phh(text.replace("# run 2", "# run 4"), "four.phh"))
    assert len(items) == 1 and isinstance(items[0], Reject)
    assert items[0].code is RejectCode.MALFORMED_HAND
    assert "run 4: a board is run at most three times" in items[0].message
    kept = _only(list(parse_phh(text.replace("# run 2", "# run 2; run twice, nice"), "x.phh")))
    assert kept == _only(list(parse_phh(text, "x.phh")))  # other words are commentary


def test_unfinished_last_hand_is_truncated() -> None:
    items = list(parse_phh(HEADS_UP[:200], "cut.phh"))
    assert len(items) == 1 and isinstance(items[0], Reject)
    assert items[0].code is RejectCode.TRUNCATED_HAND


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (("'p2 f'", "'p7 f'"), RejectCode.MALFORMED_HAND),
        (("'p2 f'", "'p2 sd'"), RejectCode.MALFORMED_HAND),
        (("'p2 f'", "'p2 cbr lots'"), RejectCode.BAD_AMOUNT),
        (("AhKhQhJh", "AhKhQhJx"), RejectCode.BAD_CARD),
        (("[200, 150]", "[200, -150]"), RejectCode.BAD_AMOUNT),
        (("[200, 150]", "[200, inf]"), RejectCode.BAD_AMOUNT),
        (("[200, 150]", "[200, 1e40]"), RejectCode.BAD_AMOUNT),
        (("[200, 150]", "[200]"), RejectCode.SCHEMA_VIOLATION),
        (("variant = 'PO'\n", ""), RejectCode.SCHEMA_VIOLATION),
    ],
)
def test_bad_hands_are_rejects(change: tuple[str, str], code: RejectCode) -> None:
    items = list(parse_phh(HEADS_UP.replace(*change), "bad.phh"))
    assert len(items) == 1 and isinstance(items[0], Reject)
    assert items[0].code is code, items[0].message


def test_not_utf8_is_bad_encoding() -> None:
    data = HEADS_UP.replace("Ada", "Ad\udcff").encode("utf-8", "surrogateescape")
    items = list(read_phh_stream(io.BytesIO(data), "latin.phh"))
    assert len(items) == 1 and isinstance(items[0], Reject)
    assert items[0].code is RejectCode.BAD_ENCODING


def test_looks_like_phh() -> None:
    assert looks_like_phh(HEADS_UP.encode())
    assert looks_like_phh(b"\xef\xbb\xbf# a comment\n[1]\nvariant = 'PO'\n")
    assert not looks_like_phh(b'{"hand_id": "x"}\n')
    assert not looks_like_phh(b'{\n  "ohh": {}}')
    assert not looks_like_phh(b"PokerStars Hand #1: Omaha Pot Limit ($0.01/$0.02)")


def test_extension_fixture_reads_replays_and_writes_back_byte_for_byte() -> None:
    path = FIXTURES / "extensions.phhs"
    text = path.read_text()
    hands = list(read_phh(path))
    assert [type(h).__name__ for h in hands] == ["HandRecord"] * 3
    games = []
    for hand in hands:
        assert isinstance(hand, HandRecord)
        games.append(variant_code(hand.game))
        judged = replay(hand)
        assert judged.errors == ()
        assert settle(judged).payouts_match is True
    assert games == ["PO/8", "PC", "NO5"]
    chunks = text.split("\n[")
    for hand, chunk in zip(hands, chunks, strict=True):
        assert isinstance(hand, HandRecord)
        assert chunk.split("]\n", 1)[1].rstrip("\n") == write_phh(hand).rstrip("\n")


# ---------------------------------------------------------------------------- robustness


def _mutations(data: bytes, rng: random.Random) -> Iterator[bytes]:
    lines = data.split(b"\n")
    for _ in range(6):
        kept = list(lines)
        for _ in range(rng.randint(1, 3)):
            if len(kept) > 1:
                del kept[rng.randrange(len(kept))]
        yield b"\n".join(kept)
        yield data[: rng.randrange(len(data) + 1)]
        spoiled = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            spoiled[rng.randrange(len(spoiled))] = rng.randrange(256)
        yield bytes(spoiled)


@needs_corpus
def test_readers_never_raise_on_mutated_corpus_files(tmp_path: Path) -> None:
    rng = random.Random(2023)
    sources = sorted(WSOP.glob("*.phh")) + sorted(FIXTURES.glob("*.phhs"))
    seen: dict[str, int] = {}
    for source in sources:
        data = source.read_bytes()
        for k, mutated in enumerate(_mutations(data, rng)):
            path = tmp_path / f"{source.stem}-{k}{source.suffix}"
            path.write_bytes(b"[1]\n" + mutated + b"\n[2]\n" + data if k % 4 == 0 else mutated)
            items = list(read_phh(path))
            assert items, path
            for item in items:
                assert isinstance(item, HandRecord | Reject)
                name = "hand" if isinstance(item, HandRecord) else item.code.value
                seen[name] = seen.get(name, 0) + 1
                if isinstance(item, HandRecord):
                    replay(item)
    assert seen.get("hand", 0) > 0 and len(seen) >= 4, seen


def test_an_oversized_line_is_skipped() -> None:
    data = HEADS_UP.encode() + b"# " + b"x" * (MAX_HAND_BYTES + 10) + b"\n"
    items = list(read_phh_stream(io.BytesIO(data), "big.phh"))
    assert [type(i).__name__ for i in items] == ["Reject", "HandRecord"]
    assert isinstance(items[0], Reject) and items[0].code is RejectCode.LINE_TOO_LONG
    assert f"line of {MAX_HAND_BYTES + 13} bytes" in items[0].message
    assert items[0].excerpt.startswith("# xxx") and len(items[0].excerpt) <= 160


# ---------------------------------------------------------------------------- items of review


def _aside(hand: HandRecord) -> HandRecord:
    """The hand with everything PHH's standard fields cannot hold: bounties, a seat sitting
    out, fees, added money, a cash-out, a tournament's buy-in and money, ``_`` extras."""
    seats = [msgspec.structs.replace(s, bounty=250 + k) for k, s in enumerate(hand.seats)]
    free = max(s.seat for s in seats) + 1
    seats.append(Seat(free, "Away Ada", 1234, sitting_out=True, bounty=500))
    first, second = hand.seats[0].seat, hand.seats[1].seat
    result = msgspec.structs.replace(
        hand.result or RecordedResult(),
        fees=(Fee("jackpot", 3), Fee("bad beat", 2)),
        added=7,
        cash_outs=(CashOut(first, 99, 1),),
        bounties=(SeatAmount(second, 1250),),
    )
    tournament = Tournament("T-1", level="IV", buyin="$12.30+$12.25+$2.45 USD", currency="USD")
    return msgspec.structs.replace(
        hand,
        seats=tuple(seats),
        result=result,
        tournament=msgspec.structs.replace(tournament, scale=3),
        extras=(("_note", b'{"a": [1, 2.50]}'), ("_zoom", b"true")),
    )


def test_round_trip_carries_cash_outs_bounties_fees_seats_out_tournament_and_extras() -> None:
    """``read_phh(write_phh(h))`` is ``h`` itself, extras included (source and line aside)."""
    for hand in generate_hands(20, seed=11, choice=PLO):
        ours = _aside(hand)
        text = write_phh(ours)
        assert "_croupier_cash_outs = [" in text and "_croupier_sitting_out = [{ seat = " in text
        back = _only(list(parse_phh(text, "aside.phh")))
        assert msgspec.structs.replace(back, source=ours.source, line=ours.line) == ours


def test_finishing_stacks_without_winnings_and_a_cash_out_are_read_as_they_are() -> None:
    """Without ``winnings``, collections come from the finishing stacks; a seat that cashed
    out finishes with its cash-out (R9.cash-out), which is no collection. A file that says
    so is read with no collections, and its finishing stacks match the rules."""
    for hand in generate_hands(40, seed=23, choice=PLO):
        settled = settle(replay(hand))
        winner = next((seat for seat, won in settled.won.items() if won > 1), None)
        if winner is None or settled.payouts_match is not True:
            continue
        share = settled.won[winner]
        finals = dict(settled.final_stacks)
        finals[winner] += share // 2 - share  # paid half its share in a cash-out instead
        assert hand.result is not None
        result = msgspec.structs.replace(
            hand.result,
            cash_outs=(CashOut(winner, share // 2, 0),),
            final_stacks=tuple(SeatAmount(seat, a) for seat, a in sorted(finals.items())),
        )
        text = write_phh(msgspec.structs.replace(hand, result=result))
        text = re.sub(r"(?m)^(winnings|_croupier_collected) = .*\n", "", text)
        back = _only(list(parse_phh(text, "cashed.phh")))
        assert back.result is not None and back.result.collected == ()
        again = settle(replay(back))
        assert again.violations == () and again.payouts_match is True
        return
    pytest.fail("no generated hand with a winner")


def test_croupier_fields_that_are_not_what_they_say_are_rejects() -> None:
    text = write_phh(_aside(next(generate_hands(1, seed=11, choice=PLO))))
    schema, amount = RejectCode.SCHEMA_VIOLATION, RejectCode.BAD_AMOUNT
    for old, new, code in (
        ('_croupier_cash_outs = ["p', '_croupier_cash_outs = ["p99', RejectCode.MALFORMED_HAND),
        ("_croupier_tournament_scale = 3", "_croupier_tournament_scale = 30", schema),
        ('cash_outs = ["p7 0.99 fee 0.01"', 'cash_outs = ["p7 1", "p7 2"', schema),
        ('"_zoom" = "true"', '"_zoom" = "tru"', schema),
        ('_croupier_bounties_won = ["p8 1.250', '_croupier_bounties_won = ["p8 1.2505', amount),
        ('_croupier_fees = ["jackpot ', '_croupier_fees = ["jackpot', schema),
    ):
        assert old in text, old
        reject = next(parse_phh(text.replace(old, new, 1), "bad.phh"))
        assert isinstance(reject, Reject) and reject.code is code, (new, reject)


@needs_corpus
def test_checks_after_a_round_closed_reach_the_engine() -> None:
    """Only PokerKit's one idle check is left out; checks after a closed round are kept,
    and the engine flags each at its own step."""
    text = (WSOP / "12.phh").read_text()
    closed = "'p3 cbr 200000', 'p2 cc', "  # the flop's betting closes with this call
    assert text.count(closed) == 1
    text = text.replace(closed, closed + "'p3 cc', 'p2 cc', 'p3 cc', ")
    hand = _only(list(parse_phh(text, "12.phh")))
    bet = next(k for k, a in enumerate(hand.actions) if a.type is ActionType.BET)
    assert (hand.actions[bet + 1].type, hand.actions[bet + 1].seat) == (ActionType.CALL, 2)
    added = range(bet + 2, bet + 5)
    assert [(hand.actions[k].type, hand.actions[k].seat) for k in added] == [
        (ActionType.CHECK, 3),
        (ActionType.CHECK, 2),
        (ActionType.CHECK, 3),
    ]
    assert [v.seq for v in replay(hand).violations] == list(added)


def test_only_the_first_idle_check_is_left_out() -> None:
    text = """\
variant = 'PO'
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [15, 500, 500]
actions = ['d dh p1 AsAdKsKd', 'd dh p2 7c6c5d4d', 'd dh p3 QhJhTh9h', 'p3 f', 'p1 cc',
           'p2 cc', 'p2 cc', 'd db 2s3s4h', 'd db 8c', 'd db 9d', 'p1 sm -', 'p2 sm -']
"""
    hand = _only(list(parse_phh(text, "idle.phh")))
    wagers = [
        (a.type, a.seat) for a in hand.actions if a.type in (ActionType.CALL, ActionType.CHECK)
    ]
    assert wagers == [(ActionType.CALL, 1), (ActionType.CHECK, 2)]
    assert [v.code.value for v in replay(hand).violations] == ["idle-check"]


def test_the_check_pokerkit_asks_after_an_all_in_on_the_ante_is_left_out() -> None:
    """Seat 3 is all-in on its ante (no bet), seat 1 folds: PokerKit asks the big blind for
    a check it owes nothing for; RULES.md gives it no turn, so the check is no action."""
    text = """\
variant = 'PO'
antes = [1, 1, 1]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [8, 8, 1]
actions = ['d dh p1 Td5hTs4c', 'd dh p2 4hTc3c9d', 'd dh p3 9h3d2d3h', 'p1 f', 'p2 cc',
           'd db 9s4sAc', 'd db 2s', 'd db Qs', 'p3 sm 9h3d2d3h', 'p2 sm 4hTc3c9d']
"""
    hand = _only(list(parse_phh(text, "ante.phh")))
    assert ActionType.CHECK not in {a.type for a in hand.actions}
    assert replay(hand).violations == ()


@pytest.mark.parametrize(
    ("date", "field"),
    [
        ("year = 2023\nmonth = 6\nday = 32\n", "year"),
        ("year = 2023\nmonth = 2\nday = 29\ntime = 10:00:00\n", "time"),
        ("year = 2023\nmonth = 13\n", "year"),
        ("year = 2023\nmonth = 'June'\nday = 1\n", "month"),
        ("year = 2023\nmonth = 6\nday = 1\ntime = 10:00:00\ntime_zone = 5\n", "time_zone"),
        (
            "year = 2023\nmonth = 6\nday = 1\ntime = 10:00:00\ntime_zone = 'Mars/Olympus'\n",
            "time_zone",
        ),
        ("time = '20:30'\n", "time"),  # text, not a TOML time
        ("year = 2025\nmonth = 4\nday = 11\ntime = 2024-03-10T20:30:00\n", "time"),
        ("year = 2023\nmonth = 6\nday = 1.0\n", "day"),
    ],
)
def test_an_impossible_date_is_a_bad_timestamp(date: str, field: str) -> None:
    reject = next(parse_phh(HEADS_UP + date, "date.phh"))
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_TIMESTAMP
    assert reject.field == field


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda t: t + "currency = 'eur'\n", "currency"),
        (lambda t: t + "seat_count = '9'\n", "seat_count"),
        (lambda t: t.replace("antes = [0, 0]\n", ""), "antes"),
        (lambda t: t.replace("blinds_or_straddles = [1, 2]\n", ""), "blinds_or_straddles"),
        (lambda t: t.replace("min_bet = 2", "min_bet = 10"), "min_bet"),
    ],
    ids=["currency", "seat-count", "no-antes", "no-blinds", "min-bet-not-the-big-blind"],
)
def test_a_field_of_the_wrong_kind_or_missing_is_a_reject_not_a_default(
    change: Callable[[str], str], field: str
) -> None:
    reject = next(parse_phh(change(HEADS_UP), "f.phh"))
    assert isinstance(reject, Reject), reject
    assert reject.field == field, reject
    assert reject.code is (
        RejectCode.UNSUPPORTED_GAME if field == "min_bet" else RejectCode.SCHEMA_VIOLATION
    )


def test_a_date_without_a_time_leaves_started_at_empty() -> None:
    """The model has no field for a day alone, and a time of day is never invented."""
    hand = _only(list(parse_phh(HEADS_UP + "year = 2023\nmonth = 6\nday = 22\n", "d.phh")))
    assert hand.started_at is None
    timed = HEADS_UP + "year = 2023\nmonth = 6\nday = 22\ntime = 10:00:00\n"
    assert _only(list(parse_phh(timed, "t.phh"))).started_at == datetime(
        2023, 6, 22, 10, tzinfo=UTC
    )


@pytest.mark.parametrize(
    ("when", "utc"),
    [
        ("time = 2024-03-10T20:30:00\ntime_zone = 'America/Los_Angeles'\n", (2024, 3, 11, 3, 30)),
        (
            "year = 2024\nmonth = 3\nday = 10\ntime = 20:30:00\ntime_zone = 'America/New_York'\n",
            (2024, 3, 11, 0, 30),
        ),
        ("time = 2024-03-10T20:30:00-04:00\n", (2024, 3, 11, 0, 30)),
        ("time = 2024-03-10T20:30:00\ntime_zone_abbreviation = 'UTC'\n", (2024, 3, 10, 20, 30)),
        ("time = 2024-03-10T20:30:00\ntime_zone_abbreviation = 'EDT'\n", None),
    ],
)
def test_a_local_time_is_read_in_its_zone_and_an_abbreviation_alone_names_none(
    when: str, utc: tuple[int, int, int, int, int] | None
) -> None:
    hand = _only(list(parse_phh(HEADS_UP + when, "t.phh")))
    assert hand.started_at == (None if utc is None else datetime(*utc, tzinfo=UTC))
    if "abbreviation" in when:  # looked at, and kept
        assert "_phh_time_zone_abbreviation" in dict(hand.extras)


@pytest.mark.parametrize("text", ["NaN", "[1, -Infinity]", "{a: 1}", "1 2"])
def test_croupier_extras_that_are_not_strict_json_are_a_schema_violation(text: str) -> None:
    """``_croupier_extras`` carries JSON text for the lake's ``extras``: Python's ``NaN`` and
    ``Infinity`` (which no other JSON reader takes, DuckDB's included) are not JSON."""
    extras = f"_croupier_extras = {{ _odds = '{text}' }}\n"  # a TOML literal string
    (item,) = parse_phh(HEADS_UP + extras, "x.phh")
    assert isinstance(item, Reject)
    assert item.code is RejectCode.SCHEMA_VIOLATION
    assert item.field == "_croupier_extras"


def test_fields_the_reader_does_not_interpret_are_kept_as_extras() -> None:
    """Nothing is dropped: ``author`` and a place become ``_phh_`` extras, a file's own
    ``_note`` stays itself, and a date without a time (no ``started_at``) is kept too; the
    PHH text written from the record reads back as the same record."""
    text = HEADS_UP + (
        "author = 'Juho Kim'\ncity = 'Las Vegas'\nyear = 2023\nmonth = 6\nday = 22\n"
        "_note = { by = 'hand', stake = 0.50, odds = [inf, nan] }\n"
    )
    hand = _only(list(parse_phh(text, "meta.phh")))
    assert hand.started_at is None
    assert dict(hand.extras) == {
        "_phh_author": b'"Juho Kim"',
        "_phh_city": b'"Las Vegas"',
        "_phh_year": b"2023",
        "_phh_month": b"6",
        "_phh_day": b"22",
        "_note": b'{"by":"hand","stake":0.50,"odds":["inf","nan"]}',  # decimals as written
    }
    back = _only(list(parse_phh(phh_text(hand), "meta.phh")))
    assert back == hand
    local = _only(list(parse_phh(text + "time = 12:30:00\n", "local.phh")))
    assert local.started_at is None  # Las Vegas time, no zone named: kept, not guessed
    assert dict(local.extras)["_phh_time"] == b'"12:30:00"'
    timed = text.replace("city = 'Las Vegas'\n", "") + "time = 12:30:00\n"
    utc = _only(list(parse_phh(timed, "timed.phh")))
    assert utc.started_at == datetime(2023, 6, 22, 12, 30, tzinfo=UTC)
    assert not any(name in dict(utc.extras) for name in ("_phh_year", "_phh_time"))


def test_a_local_time_the_clocks_skip_is_a_bad_timestamp() -> None:
    # 02:30 on 2024-03-10 never happened in New York (clocks went from 02:00 to 03:00)
    when = "time = 2024-03-10T02:30:00\ntime_zone = 'America/New_York'\n"
    items = list(parse_phh(HEADS_UP + when, "t.phh"))
    assert len(items) == 1 and isinstance(items[0], Reject), items
    assert items[0].code is RejectCode.BAD_TIMESTAMP
    assert items[0].field == "time" and "America/New_York" in items[0].message


def test_a_local_time_the_clocks_repeat_gives_no_started_at_and_is_kept() -> None:
    # 01:30 on 2024-11-03 happened twice in New York (EDT, then EST): which one is unknown
    when = "year = 2024\nmonth = 11\nday = 3\ntime = 01:30:00\ntime_zone = 'America/New_York'\n"
    hand = _only(list(parse_phh(HEADS_UP + when, "t.phh")))
    assert hand.started_at is None
    extras = dict(hand.extras)
    assert extras["_phh_time"] == b'"01:30:00"'
    assert extras["_phh_time_zone"] == b'"America/New_York"'


def test_with_no_big_blind_posted_a_cc_owes_nothing_before_the_flop() -> None:
    # antes only: PHH's (and PokerKit's) cc calls the largest bet in front, here none, so
    # the first cc is a check and the first cbr a bet, not a call and raise of min_bet
    text = """\
variant = 'PO'
antes = [1, 1, 1]
blinds_or_straddles = [0, 0, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKsQsJs', 'd dh p2 AhKhQhJh', 'd dh p3 AdKdQdJd',
  'p1 cc', 'p2 cc', 'p3 cbr 2', 'p1 f', 'p2 f']
finishing_stacks = [99, 99, 102]
"""
    hand = _only(list(parse_phh(text, "antes.phh")))
    wagers = [
        (a.type, a.seat, a.amount)
        for a in hand.actions
        if a.type in (ActionType.CHECK, ActionType.CALL, ActionType.BET, ActionType.RAISE)
    ]
    assert wagers == [
        (ActionType.CHECK, 1, None),
        (ActionType.CHECK, 2, None),
        (ActionType.BET, 3, 2),
    ]
    assert hand.result is not None
    assert [(c.seat, c.amount) for c in hand.result.collected] == [(3, 3)]
    assert phh_text(hand)  # and it reads back whole


def test_standard_fields_kept_as_extras_are_written_back_as_themselves() -> None:
    """``author``, a place and a date without a time are PHH fields: ``convert --to phh``
    writes them as such (PokerKit reads them), not hidden in ``_croupier_extras``."""
    text = HEADS_UP + (
        "author = 'Juho Kim'\ncity = 'Las Vegas'\ncountry = 'United States of America'\n"
        "day = 22\nmonth = 6\nyear = 2023\ncurrency_symbol = '$'\n"
    )
    hand = _only(list(parse_phh(text, "meta.phh")))
    written = phh_text(hand)
    assert "_croupier_extras" not in written
    loaded = HandHistory.loads(written)
    assert (loaded.author, loaded.city, loaded.country) == (
        "Juho Kim",
        "Las Vegas",
        "United States of America",
    )
    assert (loaded.year, loaded.month, loaded.day) == (2023, 6, 22)
    assert loaded.currency_symbol == "$"
    assert _only(list(parse_phh(written, "meta.phh"))) == hand
    # an extra of the record that is not a PHH field, or not as PHH writes it, stays ours
    odd = msgspec.structs.replace(
        hand, extras=(("_note", b'"x"'), *hand.extras, ("_phh_url", b'"a\\u0062"'))
    )
    assert _only(list(parse_phh(phh_text(odd), "odd.phh"))).extras == odd.extras
    no_day = msgspec.structs.replace(hand, extras=(("_phh_day", b"32"),))  # as day, a reject
    assert _only(list(parse_phh(phh_text(no_day), "day.phh"))).extras == no_day.extras


def test_an_event_and_a_venue_are_written_back_as_themselves() -> None:
    """The site is the event where a file has one; its venue is kept beside it. Written
    back, the event is the event and the venue the venue, not the event as the venue and
    the venue hidden in ``_croupier_extras``."""
    text = HEADS_UP + "event = 'WSOP 2023 #43'\nvenue = 'Horseshoe Las Vegas'\n"
    hand = _only(list(parse_phh(text, "event.phh")))
    assert hand.site == "WSOP 2023 #43"
    written = phh_text(hand)
    assert "_croupier_extras" not in written
    loaded = HandHistory.loads(written)
    assert (loaded.event, loaded.venue) == ("WSOP 2023 #43", "Horseshoe Las Vegas")
    assert _only(list(parse_phh(written, "event.phh"))) == hand
    online = _only(list(parse_phh(HEADS_UP + "venue = 'PokerStars'\n", "venue.phh")))
    assert HandHistory.loads(phh_text(online)).venue == "PokerStars"  # a venue alone stays


@needs_corpus
def test_the_wsop_hands_keep_their_standard_fields_through_convert() -> None:
    for path in sorted(WSOP.glob("*.phh")):
        hand = _only(list(read_phh(path)))
        loaded = HandHistory.loads(phh_text(hand))
        original = HandHistory.loads(path.read_text())
        for name in ("author", "city", "region", "country", "year", "month", "day"):
            assert getattr(loaded, name) == getattr(original, name), (path.name, name)


@pytest.mark.parametrize(
    ("number", "written"),
    [("12", "hand = 12"), ("007", 'hand = "007"'), ("PS-5", 'hand = "PS-5"')],
)
def test_a_hand_number_is_written_as_the_integer_phh_has(number: str, written: str) -> None:
    hand = _only(list(parse_phh(HEADS_UP + "table = 'T'\n" + f"hand = {number!r}\n", "n.phh")))
    assert hand.hand_id == f"T/{number}"
    text = phh_text(hand)
    assert written in text.splitlines()
    if number.isdigit() and str(int(number)) == number:
        assert HandHistory.loads(text).hand == int(number)


@pytest.mark.parametrize(
    ("antes", "status", "kept"),
    [
        ("[0, 0]", "true", True),  # no antes: what it says is not what a writer implies
        ("[1, 1]", "false", True),
        ("[0, 1]", "false", True),
        ("[1, 1]", "true", False),  # what write_phh writes for a uniform ante
    ],
)
def test_ante_trimming_status_is_kept_and_written_back_as_it_was(
    antes: str, status: str, kept: bool
) -> None:
    text = HEADS_UP.replace("antes = [0, 0]", f"antes = {antes}\nante_trimming_status = {status}")
    text = text.replace("finishing_stacks = [206, 144]\n", "")
    hand = _only(list(parse_phh(text, "ats.phh")))
    assert ("_phh_ante_trimming_status" in dict(hand.extras)) is kept
    written = phh_text(hand)
    assert f"ante_trimming_status = {status}" in written.splitlines()
    assert HandHistory.loads(written).ante_trimming_status is (status == "true")
    # behind an extra that must stay Croupier's, it is still kept (in _croupier_extras)
    odd = msgspec.structs.replace(hand, extras=(*hand.extras, ("_note", b"1")))
    assert _only(list(parse_phh(phh_text(odd), "odd.phh"))).extras == odd.extras


def test_a_line_like_a_table_header_inside_a_string_or_an_array_is_not_a_new_hand() -> None:
    """Only a header at the top level starts a hand: ``[2]`` in a multi-line string, or an
    array's last element on a line of its own, is part of the hand (TOML says so)."""
    one = HEADS_UP + "notes = '''\nsee\n[2]\nabove\n'''\n" + 'also = """\n[3] \\"""\n[4]\n"""\n'
    one += "_grid = [\n  [1, 2],\n  [3]\n]\n"
    text = "[1]\n" + one + "\n[2]\n" + HEADS_UP.replace("AhKhQhJh", "AsKsQsJs")
    items = list(parse_phh(text, "m.phhs"))
    assert [type(item) for item in items] == [HandRecord, HandRecord], items
    first = items[0]
    assert isinstance(first, HandRecord)
    assert dict(first.extras)["_phh_notes"] == b'"see\\n[2]\\nabove\\n"'
    assert dict(first.extras)["_grid"] == b"[[1,2],[3]]"


@pytest.mark.parametrize("broken", ["notes = '''\nnever closed\n", "_grid = [\n  [1, 2],\n"])
def test_a_string_or_array_never_closed_is_one_broken_hand_and_the_next_are_read(
    broken: str,
) -> None:
    second = HEADS_UP.replace("AhKhQhJh", "AsKsQsJs")
    text = "[1]\n" + HEADS_UP + broken + "\n[2]\n" + second + "\n[3]\n" + second
    items = list(parse_phh(text, "b.phhs"))
    assert [type(item) for item in items] == [Reject, HandRecord, HandRecord], items
    assert isinstance(items[0], Reject) and items[0].line == 1


def test_frames_read_apart_give_what_the_stream_reader_gives() -> None:
    # croupier run cuts a file into frames where it reads it and has its workers read them
    # (pickled on the way): the same hands and rejects, in order, with the same lines
    second = HEADS_UP.replace("AhKhQhJh", "AsKsQsJs")
    text = f"# a session\ntitle = 'x'\n\n[1]\n{HEADS_UP}notes = '''\n[9]\n'''\n\n[2]\n"
    text += f"variant = 'PO'\nactions = [\n\n[3]\n{second}\n[4]\n{second}"
    for data in (text.encode(), text.encode()[:-9], (FIXTURES / "extensions.phhs").read_bytes()):
        whole = list(read_phh_stream(io.BytesIO(data), "s.phhs"))
        frames = [pickle.loads(pickle.dumps(f)) for f in phh_frames(io.BytesIO(data), "s.phhs")]
        apart = [vet(item) for f in frames for item in read_phh_frames([f], "s.phhs")]
        assert apart == whole
        assert len(frames) == len(whole) > 1


@pytest.mark.parametrize("value", ["0", "-3", "'3'", "3.0", "true"])
def test_a_croupier_button_that_is_not_a_seat_number_is_a_reject(value: str) -> None:
    item = next(parse_phh(HEADS_UP + f"_croupier_button = {value}\n", "b.phh"))
    assert isinstance(item, Reject), item  # never the last player's seat instead
    assert item.code is RejectCode.SCHEMA_VIOLATION and item.field == "_croupier_button"


def test_a_croupier_flag_that_is_not_one_is_a_reject() -> None:
    ok = _only(list(parse_phh(HEADS_UP + "_croupier_flags = ['partial']\n", "f.phh")))
    assert ok.partial and not ok.cancelled
    item = next(parse_phh(HEADS_UP + "_croupier_flags = ['canceled']\n", "f.phh"))
    assert isinstance(item, Reject), item  # a misspelt flag is never dropped
    assert item.code is RejectCode.SCHEMA_VIOLATION and item.field == "_croupier_flags"
    assert "canceled" in item.message
