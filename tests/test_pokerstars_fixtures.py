"""The PokerStars reader on hand-made fixtures and small texts: what the corpus lacks.

The fixtures in ``tests/fixtures/pokerstars/`` were written for these tests from
``shared/formats/pokerstars.md``; every figure was worked out by hand from RULES.md (in
the comments of each test) and the logs record exactly those figures, so a clean replay
and ``payouts_match`` prove the reader gave the engine the hand as written. Amounts are
integer units of the hand (cents, or chips).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pipeline.cards import parse_cards
from pipeline.formats.pokerstars import (
    looks_like_pokerstars,
    parse_pokerstars,
    parse_pokerstars_bytes,
    read_pokerstars,
)
from pipeline.model import ActionType, Betting, Blind, HandRecord, Status, Variant
from pipeline.rules import get_rule_set, replay
from pipeline.settle import hand_status, settle
from pipeline.violations import Code, Reject, RejectCode

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pokerstars"


def hands_of(name: str) -> list[HandRecord | Reject]:
    return list(read_pokerstars(FIXTURES / name, source=name))


def only_hand(text: str) -> HandRecord:
    items = list(parse_pokerstars(text, "test"))
    assert len(items) == 1
    item = items[0]
    assert isinstance(item, HandRecord), item
    return item


def only_reject(text: str) -> Reject:
    items = list(parse_pokerstars(text, "test"))
    assert len(items) == 1
    item = items[0]
    assert isinstance(item, Reject), item
    return item


def judged(hand: HandRecord) -> tuple[Status, bool | None, dict[int, int]]:
    """Return status, payouts_match and each seat's award, after checking no error."""
    replayed = replay(hand)
    settled = settle(replayed)
    errors = list(replayed.errors + settled.errors)
    assert errors == [], errors
    return hand_status(replayed, settled), settled.payouts_match, dict(settled.won)


def collected(hand: HandRecord) -> list[tuple[int, int, int, int | None]]:
    assert hand.result is not None
    return [(c.seat, c.amount, c.pot, c.run) for c in hand.result.collected]


# --------------------------------------------------------------------------- fixtures


def test_limit_hilo_capped() -> None:
    """R5.limit-cap: $0.10/$0.20, the big blind is the bet, three raises cap it at $0.40
    ("Betting is capped"). Pot: 4 x 0.40 + 3 x 0.10 + 3 x 0.20 + 2 x 0.40 = 3.30, rake
    0.15, 3.15 to share. R8.hi-lo: Chen's aces and kings take the high half, Bruno's
    6-4-3-2-A the low; R8.odd-chips: the odd cent to the high half, 1.58 / 1.57."""
    (hand,) = hands_of("limit-hilo-capped.txt")
    assert isinstance(hand, HandRecord)
    game = hand.game
    assert (game.variant, game.betting) == (Variant.OMAHA_HILO, Betting.FIXED_LIMIT)
    assert (game.small_blind, game.big_blind, game.small_bet, game.big_bet) == (5, 10, 10, 20)
    raises = [a.to for a in hand.actions if a.type is ActionType.RAISE]
    assert raises == [20, 30, 40, 40]
    assert hand.hero == 4
    assert hand.started_at == datetime(2024, 1, 16, 1, 30, tzinfo=UTC)  # 20:30 EST
    assert collected(hand) == [(3, 158, 0, None), (2, 157, 0, None)]
    assert judged(hand) == (Status.OK, True, {3: 158, 2: 157})


def test_mixed_game_headers() -> None:
    """The sub-game in parentheses is the one dealt: an 8-Game limit Omaha Hi/Lo hand
    ($2/$4: blinds $1/$2), a Mixed Omaha H/L pot-limit hand, a Mixed NLH/PLO Hold'em hand
    (rejected: not Omaha) and its Omaha hand. Each pot is won uncontested: $9 - $0.40 rake
    = $8.60; $1.60 - $0.05 = $1.55; $0.20 (the big blind's uncalled $0.15 returned)."""
    first, second, holdem, omaha = hands_of("mixed-games.txt")
    assert isinstance(first, HandRecord)
    assert isinstance(second, HandRecord)
    assert isinstance(omaha, HandRecord)
    assert (first.game.mixed, first.game.betting, first.game.variant) == (
        "8-Game",
        Betting.FIXED_LIMIT,
        Variant.OMAHA_HILO,
    )
    assert (first.game.small_blind, first.game.big_blind, first.game.big_bet) == (100, 200, 400)
    assert (second.game.mixed, second.game.betting) == ("Mixed Omaha H/L", Betting.POT_LIMIT)
    assert (second.game.small_blind, second.game.big_blind) == (10, 25)
    assert (omaha.game.mixed, omaha.game.variant) == ("Mixed NLH/PLO", Variant.OMAHA)
    assert isinstance(holdem, Reject)
    assert holdem.code is RejectCode.UNSUPPORTED_GAME
    assert holdem.hand_id == "200000000013"
    assert "Hold'em" in holdem.message
    assert first.started_at == datetime(2024, 1, 15, 20, 0, tzinfo=UTC)  # the ET time
    assert judged(first) == (Status.OK, True, {1: 860})
    assert judged(second) == (Status.OK, True, {2: 155})
    assert judged(omaha) == (Status.OK, True, {2: 20})


def test_zoom_header_and_names_with_spaces_brackets_and_symbols() -> None:
    """Zoom omits the ISO code ($ is USD). Names are matched longest first ("Alice B"
    before "Alice"). Pot: 4 x 0.35 + 2 x 1.40 + 2 x 8.25 = 20.70, rake 1: DaddyCa$h's
    king-high straight beats the queen-high one and takes 19.70."""
    (hand,) = hands_of("zoom.txt")
    assert isinstance(hand, HandRecord)
    assert (hand.site, hand.table, hand.game.currency, hand.game.max_seats) == (
        "PokerStars",
        "Diotima",
        "USD",
        6,
    )
    names = {s.seat: s.player for s in hand.seats}
    assert names == {
        1: "Alice",
        2: "Alice B",
        3: "Mr NoNo! Srb",
        4: "[AI] Bot",
        5: "DaddyCa$h",
        6: "Player (2)",
    }
    assert hand.hero == 2
    movers = [(a.type.value, a.seat) for a in hand.actions if a.seat is not None][:9]
    assert movers == [
        ("post", 2),
        ("post", 3),
        ("deal", 2),
        ("fold", 4),
        ("raise", 5),
        ("call", 6),
        ("fold", 1),
        ("call", 2),
        ("call", 3),
    ]
    assert hand.started_at == datetime(2024, 7, 4, 16, 0, tzinfo=UTC)  # 12:00 EDT
    assert hand.extras == (("_zoom", b"true"),)
    assert judged(hand) == (Status.OK, True, {5: 1970})


def test_home_game_play_money_and_dead_blinds() -> None:
    """A Home Game club hand in play money (unit 1). Ben missed the blinds and posts both:
    20 live, 10 dead (R2.dead-blind), so his pot-size raise is to 20 + (60 + 0) = 80
    (R5.pl-max counts the dead blind). Pot 10 + 10 + 80 + 80 + 2 x 180 = 540, no rake."""
    (hand,) = hands_of("home-game-dead-blinds.txt")
    assert isinstance(hand, HandRecord)
    assert (hand.game.currency, hand.game.scale) == ("PLAY", 0)
    assert (hand.table, hand.button) == ("Fixture Club Table", 3)
    assert hand.extras == (("_club", b'"Fixture Club 42"'),)  # no model field for the club
    posts = [(a.seat, a.blind, a.amount) for a in hand.actions if a.type is ActionType.POST]
    assert posts == [(4, Blind.SMALL, 10), (5, Blind.BIG, 20), (2, Blind.BOTH, 30)]
    assert judged(hand) == (Status.OK, True, {5: 540})


def test_clone_straddle() -> None:
    """SupremaPoker: Di posts a $4 straddle left of the big blind (R2.straddle); Ed, left
    of the straddler, acts first and Di checks her option. Pot 16 + 80 + 192 + 20 = 308,
    rake 3: Ed's tens full take 305."""
    (hand,) = hands_of("straddle-clone.txt")
    assert isinstance(hand, HandRecord)
    assert hand.site == "SupremaPoker"
    straddle = [a for a in hand.actions if a.blind is Blind.STRADDLE]
    assert [(a.seat, a.amount) for a in straddle] == [(4, 400)]
    assert hand.started_at == datetime(2024, 5, 1, 10, 0, tzinfo=UTC)  # stated UTC
    assert judged(hand) == (Status.OK, True, {5: 30500})


def test_run_three_times() -> None:
    """R8.run-it-twice: $120 - $1 rake = $119 divided between three runouts, the odd cent
    to the first: 39.67 / 39.67 / 39.66. Hero's aces win run 1; Villain's trip queens and
    queen-high straight win runs 2 and 3 (79.33)."""
    (hand,) = hands_of("run-three-times.txt")
    assert isinstance(hand, HandRecord)
    boards = [(a.run, a.cards) for a in hand.actions if a.type is ActionType.BOARD]
    assert [run for run, _ in boards] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert boards[6] == (3, parse_cards("Kc8d3c"))
    assert collected(hand) == [(1, 3967, 0, 1), (2, 3967, 0, 2), (2, 3966, 0, 3)]
    shows = [a for a in hand.actions if a.type is ActionType.SHOW]
    assert len(shows) == 2  # shown once each, not again at every showdown
    assert judged(hand) == (Status.OK, True, {1: 3967, 2: 7933})


def test_knockout_tournament_with_antes_and_an_unnumbered_side_pot() -> None:
    """Antes are dead posts (R2.antes): main pot 4 x 10 + 3 x 840 = 2560, side pot
    2 x 1200 = 2400 ("side pot" alone is side pot 1). Cat's trip kings win both and the
    $10 bounty for Ben, in the tournament's dollars (unit 0.01)."""
    (hand,) = hands_of("knockout-antes.txt")
    assert isinstance(hand, HandRecord)
    assert (hand.game.ante, hand.game.currency, hand.game.scale) == (10, "CHIPS", 0)
    antes = [a.seat for a in hand.actions if a.blind is Blind.ANTE]
    assert antes == [1, 2, 3, 4]
    assert hand.tournament is not None
    assert (hand.tournament.id, hand.tournament.level, hand.tournament.currency) == (
        "3000000001",
        "V",
        "USD",
    )
    assert [s.bounty for s in hand.seats] == [1000, 1000, 1500, 1000]
    assert hand.result is not None
    assert hand.result.pots == (2560, 2400)
    assert [(b.seat, b.amount) for b in hand.result.bounties] == [(3, 1000)]
    assert collected(hand) == [(3, 2400, 1, None), (3, 2560, 0, None)]
    assert judged(hand) == (Status.OK, True, {3: 4960})


# --------------------------------------------------------------------------- framing


def test_hands_separated_by_banners_blank_lines_crlf_and_a_bom() -> None:
    text = (FIXTURES / "mixed-games.txt").read_text(encoding="utf-8")
    hands = text.strip().split("\n\n\n\n")
    assert len(hands) == 4
    glued = "\ufeff" + "\n\n*********** # 2 **************\n\n".join(hands) + "\n\n\n\n\n"
    items = list(parse_pokerstars(glued.replace("\n", "\r\n"), "glued"))
    plain = hands_of("mixed-games.txt")
    assert [type(i) for i in items] == [type(i) for i in plain]
    for mine, theirs in zip(items, plain, strict=True):
        if isinstance(mine, HandRecord) and isinstance(theirs, HandRecord):
            assert mine.actions == theirs.actions
            assert mine.result == theirs.result


def test_cp1252_and_utf8_give_the_same_hand() -> None:
    """A euro table written as cp1252 (old files) and as UTF-8 read the same."""
    text = (FIXTURES / "zoom.txt").read_text(encoding="utf-8").replace("$", "€")
    text = text.replace("($0.05/$0.10)", "(€0.05/€0.10 EUR)")
    from_utf8 = list(parse_pokerstars_bytes(text.encode("utf-8"), "u"))
    from_cp1252 = list(parse_pokerstars_bytes(text.encode("cp1252"), "c"))
    assert len(from_utf8) == len(from_cp1252) == 1
    a, b = from_utf8[0], from_cp1252[0]
    assert isinstance(a, HandRecord) and isinstance(b, HandRecord)
    assert a.game.currency == "EUR"
    assert (a.seats, a.actions, a.result) == (b.seats, b.actions, b.result)


def test_a_corrupt_hand_does_not_garble_the_others() -> None:
    """Bytes neither UTF-8 nor cp1252 (0x81) reject that hand only; the euro sign of the
    other hands still reads as UTF-8."""
    text = (FIXTURES / "mixed-games.txt").read_text(encoding="utf-8")
    text = text.replace("$", "€").replace(" USD", " EUR")
    data = text.encode("utf-8").replace(b"Bruno: folds", b"Bruno: f\x81lds", 1)
    items = list(parse_pokerstars_bytes(data, "mixed"))
    assert [i.code for i in items if isinstance(i, Reject)] == [
        RejectCode.BAD_ENCODING,
        RejectCode.UNSUPPORTED_GAME,
    ]
    assert [i.game.currency for i in items if isinstance(i, HandRecord)] == ["EUR", "EUR"]


def test_text_outside_any_hand_is_one_truncated_hand_reject() -> None:
    """A log that starts mid-hand: the stray lines cannot become a hand."""
    text = (FIXTURES / "straddle-clone.txt").read_text(encoding="utf-8")
    cut = "Di: calls $30\n*** TURN *** [Th 6c 6d] [Qs]\n\n" + text
    items = list(parse_pokerstars(cut, "cut"))
    assert isinstance(items[0], Reject)
    assert (items[0].code, items[0].line) == (RejectCode.TRUNCATED_HAND, 1)
    assert isinstance(items[1], HandRecord) and items[1].line == 4


@pytest.mark.parametrize(
    ("cut_after", "last_type", "board"),
    [
        ("Di: checks\n", ActionType.CHECK, 0),
        ("*** FLOP *** [Th 6c", ActionType.CHECK, 0),  # the flop line itself is cut
        ("Ed: bets $96\n", ActionType.BET, 4),
        ("Ed collected $3", ActionType.SHOW, 5),
    ],
)
def test_a_hand_cut_off_is_partial_and_keeps_only_whole_lines(
    cut_after: str, last_type: ActionType, board: int
) -> None:
    text = (FIXTURES / "straddle-clone.txt").read_text(encoding="utf-8")
    hand = only_hand(text[: text.index(cut_after) + len(cut_after)])
    assert hand.partial
    assert hand.actions[-1].type is last_type
    assert sum(len(a.cards or ()) for a in hand.actions if a.type is ActionType.BOARD) == board
    assert replay(hand).status is Status.PARTIAL


# --------------------------------------------------------------------------- headers


HAND = (FIXTURES / "straddle-clone.txt").read_text(encoding="utf-8")


def with_header(header: str) -> str:
    return header + "\n" + HAND.split("\n", 1)[1]


@pytest.mark.parametrize(
    ("header", "started_at"),
    [
        # old wording, ET in parentheses, a dash before the time
        (
            "PokerStars Game #27853346034:  Omaha Pot Limit ($1/$2) - 2008/08/17 - 01:14:43 (ET)",
            datetime(2008, 8, 17, 5, 14, 43, tzinfo=UTC),
        ),
        # local time first, ET in brackets: the ET one counts
        (
            "PokerStars Hand #1:  Omaha Pot Limit ($1/$2 USD) - 2013/05/03 14:08:57 CET "
            "[2013/05/03 8:08:57 ET]",
            datetime(2013, 5, 3, 12, 8, 57, tzinfo=UTC),
        ),
        # only a European time: CET/CEST is Europe/Paris (summer time in July)
        (
            "PokerStars Hand #1:  Omaha Pot Limit ($1/$2 USD) - 2013/07/03 14:08:57 CEST",
            datetime(2013, 7, 3, 12, 8, 57, tzinfo=UTC),
        ),
        # no zone at all: read as ET, as FPDB does (and a converter's sign)
        (
            "PokerStars Hand #1:  Omaha Pot Limit ($1/$2 USD) - 2013/01/03 14:08:57",
            datetime(2013, 1, 3, 19, 8, 57, tzinfo=UTC),
        ),
        # Run It Once: no seconds, UTC stated
        (
            "Run It Once Poker Hand #1: Omaha Pot Limit ($1/$2) - 2019/08/14 17:55 UTC "
            "[2019/08/14 18:55 CET]",
            datetime(2019, 8, 14, 17, 55, tzinfo=UTC),
        ),
        # 1:30 ET happened twice that night (clocks went back): the CET time says which
        (
            "PokerStars Hand #1:  Omaha Pot Limit ($1/$2 USD) - 2020/11/01 7:30:00 CET "
            "[2020/11/01 1:30:00 ET]",
            datetime(2020, 11, 1, 6, 30, tzinfo=UTC),
        ),
        (
            "PokerStars Hand #1:  Omaha Pot Limit ($1/$2 USD) - 2020/11/01 6:30:00 CET "
            "[2020/11/01 1:30:00 ET]",
            datetime(2020, 11, 1, 5, 30, tzinfo=UTC),
        ),
    ],
)
def test_header_times_become_utc(header: str, started_at: datetime) -> None:
    hand = only_hand(with_header(header))
    assert hand.started_at == started_at
    assert hand.converted is (header.endswith("14:08:57"))


def test_a_header_without_a_time_says_so_among_the_converter_signs() -> None:
    hand = only_hand(with_header("PokerStars Hand #1:  Omaha Pot Limit ($1/$2 USD)"))
    assert hand.started_at is None and hand.converted
    assert b"the header has no time" in dict(hand.extras)["_converter_signs"]


def test_a_time_the_clock_skipped_is_a_bad_timestamp() -> None:
    header = "PokerStars Hand #1:  Omaha Pot Limit ($1/$2 USD) - 2020/03/08 2:30:00 ET"
    (reject,) = parse_pokerstars(with_header(header), "x")
    assert isinstance(reject, Reject) and reject.code is RejectCode.BAD_TIMESTAMP
    assert "2020/03/08 02:30:00 never happened in ET" in reject.message


@pytest.mark.parametrize(
    ("game", "variant", "hole", "betting"),
    [
        ("Omaha Pot Limit", Variant.OMAHA, 4, Betting.POT_LIMIT),
        ("Omaha Hi/Lo No Limit", Variant.OMAHA_HILO, 4, Betting.NO_LIMIT),
        ("5 Card Omaha Pot Limit", Variant.OMAHA, 5, Betting.POT_LIMIT),
        ("5 Card Omaha Hi/Lo Pot Limit", Variant.OMAHA_HILO, 5, Betting.POT_LIMIT),
        ("6 Card Omaha Pot Limit", Variant.OMAHA, 6, Betting.POT_LIMIT),
        ("6 Card Omaha Hi/Lo Pot Limit", Variant.OMAHA_HILO, 6, Betting.POT_LIMIT),
        ("Omaha 5 Cards Pot Limit", Variant.OMAHA, 5, Betting.POT_LIMIT),
        ("Courchevel Pot Limit", Variant.COURCHEVEL, 5, Betting.POT_LIMIT),
        ("Courchevel Hi/Lo Pot Limit", Variant.COURCHEVEL_HILO, 5, Betting.POT_LIMIT),
        ("Omaha Hi/Lo Fixed Limit", Variant.OMAHA_HILO, 4, Betting.FIXED_LIMIT),
        (
            "Omaha Pot Limit Pre-Flop, No Limit Post-Flop",
            Variant.OMAHA,
            4,
            Betting.PL_PREFLOP_NL_POSTFLOP,
        ),
        ("HORSE (Omaha Hi/Lo Limit)", Variant.OMAHA_HILO, 4, Betting.FIXED_LIMIT),
    ],
)
def test_every_omaha_game_name(game: str, variant: Variant, hole: int, betting: Betting) -> None:
    header = f"PokerStars Hand #1:  {game} ($1/$2 USD) - 2020/01/01 12:00:00 ET"
    hand = only_hand(with_header(header))
    assert (hand.game.variant, hand.game.hole_cards, hand.game.betting) == (
        variant,
        hole,
        betting,
    )


@pytest.mark.parametrize(
    "game",
    ["Hold'em No Limit", "7 Card Stud Limit", "Razz Limit", "Triple Draw 2-7 Lowball Limit"],
)
def test_games_other_than_omaha_are_unsupported(game: str) -> None:
    header = f"PokerStars Hand #77:  {game} ($1/$2 USD) - 2020/01/01 12:00:00 ET"
    reject = only_reject(with_header(header))
    assert (reject.code, reject.hand_id, reject.line) == (RejectCode.UNSUPPORTED_GAME, "77", 1)
    assert reject.message.startswith("line 1: not an Omaha game")


@pytest.mark.parametrize(
    ("stakes", "message"),
    [
        ("($1/$2 USD CAD)", "line 1: cannot read the stakes '$1/$2 USD CAD'"),
        ("($1/$2 USD) ($1/$2 USD)", "line 1: stakes written twice: '$1/$2 USD', '$1/$2 USD'"),
        ("($1/$2) ($2/$4)", "line 1: stakes written twice: '$1/$2', '$2/$4'"),
    ],
)
def test_stakes_that_cannot_be_read_are_named_as_the_fault(stakes: str, message: str) -> None:
    """A header's stakes that do not read are a malformed hand that says so, not an unknown
    or unsupported game."""
    header = f"PokerStars Hand #78:  Omaha Pot Limit {stakes} - 2020/01/01 12:00:00 ET"
    reject = only_reject(with_header(header))
    assert (reject.code, reject.message) == (RejectCode.MALFORMED_HAND, message)


def test_stakes_beyond_the_blinds_are_kept_as_an_extra() -> None:
    """The header's amounts after the blinds (no PokerStars file has them; the posts say
    what each player put in) are kept as the hand's ``_stakes`` extra, not dropped."""
    header = "PokerStars Hand #79:  Omaha Pot Limit ($1/$2/$4 USD) - 2020/01/01 12:00:00 ET"
    hand = only_hand(with_header(header))
    assert (hand.game.small_blind, hand.game.big_blind) == (100, 200)
    assert dict(hand.extras)["_stakes"] == b'"$1/$2/$4 USD"'
    plain = only_hand(with_header(header.replace("/$4", "")))
    assert "_stakes" not in dict(plain.extras)


def test_a_cap_table_is_an_unsupported_game_that_says_so() -> None:
    """A Cap table (no player puts more than the cap in a hand) changes who may still act:
    the reject says that, not that the Omaha game is unknown."""
    header = (
        "PokerStars Game #78:  Omaha Pot Limit ($0.25/$0.50 - $10 Cap -  USD) - "
        "2010/11/01 12:20:00 CET [2010/11/01 7:20:00 ET]"
    )
    reject = only_reject(with_header(header))
    assert (reject.code, reject.hand_id, reject.line) == (RejectCode.UNSUPPORTED_GAME, "78", 1)
    assert "Cap games are not supported (a $10 cap" in reject.message


def test_pokermaster_plain_omaha_with_five_cards_is_five_card_omaha() -> None:
    text = with_header("PokerMaster Hand #5:  Omaha Pot Limit ($1/$2) - 2020/01/01 12:00:00 ET")
    text = text.replace("Dealt to Ana [Ac Ad 2c 3c]", "Dealt to Ana [Ac Ad 2c 3c 4c]")
    text = text.replace("[Tc Td 9s 8s]", "[Tc Td 9s 8s 7c]")
    text = text.replace("[6h 5h Ah Kh]", "[6h 5h Ah Kh 2s]")
    hand = only_hand(text)
    assert (hand.site, hand.game.hole_cards) == ("PokerMaster", 5)


def test_finer_units_thousands_separators_and_converter_signs() -> None:
    """An amount with three decimals makes the unit 0.001; separators are read and flag
    the hand as converted."""
    text = HAND.replace("($200 in chips)", "($1,200.005 in chips)", 1)
    hand = only_hand(text)
    assert hand.game.scale == 3
    assert hand.seats[0].stack == 1_200_005
    assert hand.game.big_blind == 2000
    assert hand.converted


# --------------------------------------------------------------------------- rejects


@pytest.mark.parametrize(
    ("old", "new", "code", "line"),
    [
        ("Dealt to Ana [Ac Ad 2c 3c]", "Dealt to Ana [Ac Xd 2c 3c]", RejectCode.BAD_CARD, 12),
        ("Ed: calls $4", "Ed: calls $4,5", RejectCode.BAD_AMOUNT, 13),
        ("Ana: folds", "Ana: dances", RejectCode.MALFORMED_HAND, 14),
        ("Ana: folds", "Nobody: folds", RejectCode.MALFORMED_HAND, 14),
        ("*** FLOP *** [Th 6c 6d]", "*** FLOP *** [Th 6c 6d", RejectCode.MALFORMED_HAND, 18),
        ("[Th 6c 6d] [Qs]", "[Th 6c 7d] [Qs]", RejectCode.MALFORMED_HAND, 26),
        ("2024/05/01 10:00:00", "2024/13/01 10:00:00", RejectCode.BAD_TIMESTAMP, 1),
        ("Table 'Suprema Fixture'", "Tabel 'Suprema Fixture'", RejectCode.MALFORMED_HAND, 2),
    ],
)
def test_a_hand_that_cannot_be_read_is_one_precise_reject(
    old: str, new: str, code: RejectCode, line: int
) -> None:
    assert old in HAND
    reject = only_reject(HAND.replace(old, new, 1))
    assert (reject.code, reject.line, reject.hand_id) == (code, 1, "200000000041")
    assert reject.message.startswith(f"line {line}:")


@pytest.mark.parametrize(("cut", "line"), [("Seat 3: Cy", 4), ("Seat 3: Cy ($2", 5), ("Table", 1)])
def test_a_hand_cut_before_its_seat_list_ends_is_truncated(cut: str, line: int) -> None:
    """Nobody can tell whether more seats followed: no record is made."""
    text = HAND[: HAND.index(cut) + (len(cut) if "$" in cut else 0)]
    reject = only_reject(text)
    assert (reject.code, reject.hand_id) == (RejectCode.TRUNCATED_HAND, "200000000041")
    assert reject.message.startswith(f"line {line}: the hand ends")


# --------------------------------------------------------------------------- sniffing


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.txt")))
def test_sniffing_recognises_every_fixture(name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    assert looks_like_pokerstars(data[:4096])
    assert looks_like_pokerstars(b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")[:4096])


@pytest.mark.parametrize(
    "head",
    [
        b'{"hand_id": "SAMPLE-0001", "site": "SampleRoom"}\n',
        b"Full Tilt Poker Game #1234: Table Foo (6 max) - $1/$2 - Pot Limit Omaha - 2010/01/01\n",
        b"variant = 'PO'\nantes = [0, 0]\n",
        b"",
    ],
)
def test_sniffing_ignores_other_formats(head: bytes) -> None:
    assert not looks_like_pokerstars(head)


def test_sniffing_finds_a_header_after_a_partial_first_hand() -> None:
    data = b"Player1: folds\n*** SUMMARY ***\n\n" + (FIXTURES / "zoom.txt").read_bytes()
    assert looks_like_pokerstars(data[:4096])


# --------------------------------------------------------------------------- tournaments


KNOCKOUT = (FIXTURES / "knockout-antes.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("part", "buyin", "currency", "level"),
    [
        ("Tournament #9, Freeroll Omaha Pot Limit - Level V (50/100)", "Freeroll", None, "V"),
        ("Tournament #9, 2000+110 Omaha Pot Limit - Level V (50/100)", "2000+110", None, "V"),
        (
            "Zoom Tournament #9, $5.00+$0.50 USD Omaha Pot Limit - Level V (50/100)",
            "$5.00+$0.50 USD",
            "USD",
            "V",
        ),
        (
            "Tournament #9, ₹136.50+₹13.50 INR Omaha Pot Limit - Match Round I, Level V (50/100)",
            "₹136.50+₹13.50 INR",
            "INR",
            "V",
        ),
        (
            "Tournament #9, €10+€1 EUR HORSE (Omaha Hi/Lo Limit) - Level XII (50/100)",
            "€10+€1 EUR",
            "EUR",
            "XII",
        ),
        # no buy-in (a 2006 shoot-out): the first word is the game's, not a buy-in
        ("Tournament #9, Omaha Pot Limit - Match Round I, Level I (50/100)", None, None, "I"),
        ("Tournament #9, 5 Card Omaha Pot Limit - Level I (50/100)", None, None, "I"),
    ],
)
def test_tournament_headers(part: str, buyin: str | None, currency: str | None, level: str) -> None:
    header = f"PokerStars Hand #200000000061: {part} - 2024/06/01 20:00:00 ET"
    hand = only_hand(KNOCKOUT.replace(KNOCKOUT.split("\n", 1)[0], header))
    assert hand.tournament is not None
    assert (hand.tournament.id, hand.tournament.buyin) == ("9", buyin)
    assert (hand.tournament.currency, hand.tournament.level) == (currency, level)
    # a limit header names the bets: its big blind is the small bet (50), whatever is posted
    big_blind = 50 if "Hi/Lo Limit" in part else 100
    assert (hand.game.currency, hand.game.scale, hand.game.big_blind) == ("CHIPS", 0, big_blind)


def test_a_limit_big_blind_is_the_small_bet_so_a_wrong_post_is_flagged() -> None:
    text = (
        "PokerStars Hand #300:  Omaha Hi/Lo Limit ($0.10/$0.20 USD) - 2020/01/01 10:00:00 ET\n"
        "Table 'T' 6-max Seat #1 is the button\n"
        "Seat 1: Alice ($2 in chips)\nSeat 2: Bob ($2 in chips)\nSeat 3: Carl ($2 in chips)\n"
        "Bob: posts small blind $0.05\nCarl: posts big blind $0.07\n*** HOLE CARDS ***\n"
        "Alice: raises $0.10 to $0.17\nBob: folds\nCarl: folds\n"
        "Uncalled bet ($0.10) returned to Alice\nAlice collected $0.19 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.19 | Rake $0\n"
        "Seat 1: Alice (button) collected ($0.19)\n"
        "Seat 2: Bob (small blind) folded before Flop\n"
        "Seat 3: Carl (big blind) folded before Flop\n"
    )
    hand = only_hand(text)
    assert (hand.game.small_blind, hand.game.big_blind) == (5, 10)
    codes = {v.code for v in replay(hand, get_rule_set("standard")).violations}
    assert Code.BLIND_WRONG_AMOUNT in codes


def test_a_bounty_split_between_players_is_kept_as_written_not_shared_out() -> None:
    text = KNOCKOUT.replace(
        "Cat wins the $10 bounty for eliminating Ben",
        "Cat, Ann split the $10.01 bounty for eliminating Ben",
    )
    hand = only_hand(text)
    assert hand.result is not None and hand.result.bounties == ()
    split = [{"by": "Cat, Ann", "amount": "10.01", "eliminated": "Ben"}]
    assert dict(hand.extras)["_split_bounties"] == json.dumps(split).encode()


def test_a_progressive_knockout_split_is_read_in_tournament_money() -> None:
    text = KNOCKOUT.replace(
        "Cat wins the $10 bounty for eliminating Ben",
        "Cat wins $4.60 for splitting the elimination of Ben and their own bounty increases "
        "by $4.59 to $41.32",
    )
    hand = only_hand(text)
    assert hand.result is not None
    assert [(b.seat, b.amount) for b in hand.result.bounties] == [(3, 460)]
    assert hand.tournament is not None and hand.tournament.scale == 2


# --------------------------------------------------------------------------- summaries


@pytest.mark.parametrize(
    ("line", "pots", "rake", "added", "fees"),
    [
        ("Total pot $308 | Rake $3", (), 300, 0, ()),
        (
            "Total pot $308 Main pot $200. Side pot-1 $80. Side pot-2 $25. | Rake $3",
            (20000, 8000, 2500),
            300,
            0,
            (),
        ),
        ("Total pot $308 | Rake $2 | Jackpot $1", (), 200, 0, (("jackpot", 100),)),
        # Run It Once lists its pots before rake and takes the rake from the main pot first
        (
            "Total pot $308 | Main pot $300 | Side pot $8 | STP $5 | Rake $3",
            (29700, 800),
            300,
            500,
            (),
        ),
    ],
)
def test_summary_pot_lines(
    line: str,
    pots: tuple[int, ...],
    rake: int,
    added: int,
    fees: tuple[tuple[str, int], ...],
) -> None:
    hand = only_hand(HAND.replace("Total pot $308 | Rake $3", line))
    result = hand.result
    assert result is not None
    assert (result.total_pot, result.pots, result.rake, result.added) == (30800, pots, rake, added)
    assert [(f.kind, f.amount) for f in result.fees] == list(fees)


def test_summary_cards_complete_a_showdown_muck() -> None:
    """``mucks hand`` at showdown gets the cards the summary prints, where it stands."""
    text = HAND.replace("Di: shows [6h 5h Ah Kh] (three of a kind, Sixes)", "Di: mucks hand")
    text = text.replace("Di showed [6h 5h Ah Kh] and lost with", "Di mucked [6h 5h Ah Kh] and lost")
    hand = only_hand(text)
    last = hand.actions[-1]
    assert (last.type, last.seat, last.cards) == (ActionType.MUCK, 4, parse_cards("6h5hAhKh"))


def test_a_converter_sign_in_one_hand_flags_the_whole_file() -> None:
    text = (FIXTURES / "mixed-games.txt").read_text(encoding="utf-8")
    text = text.replace("Seat 1: Alice ($150 in chips)", "Seat 1: Alice ($1,150 in chips)")
    flags = [i.converted for i in parse_pokerstars(text, "x") if isinstance(i, HandRecord)]
    assert flags == [True, True, True]
    assert not any(i.converted for i in hands_of("mixed-games.txt") if isinstance(i, HandRecord))


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("Ed collected $305 from pot", "Ed collected $305 from side pot-0", 37),
        ("Total pot $308 | Rake $3", "Total pot $308 Main pot $300. Side pot-0 $5. | Rake $3", 39),
    ],
)
def test_a_side_pot_numbered_0_is_not_read_as_the_main_pot(old: str, new: str, line: int) -> None:
    """Side pots are numbered from 1; pot 0 is the main pot, so ``side pot-0`` names no pot."""
    assert old in HAND
    reject = only_reject(HAND.replace(old, new))
    assert (reject.code, reject.line) == (RejectCode.MALFORMED_HAND, 1)
    assert reject.message.startswith(f"line {line}: ")
    assert "side pot-0" in reject.message.lower()


@pytest.mark.parametrize(
    ("line", "twice"),
    [
        ("Total pot $308 | Rake $3 | Rake $1", "'Rake'"),
        ("Total pot $308 Main pot $200. Main pot $105. | Rake $3", "'Main pot'"),
        ("Total pot $308 Main pot $200. Side pot $50. Side pot-1 $55. | Rake $3", "side pot 1"),
        ("Total pot $308 | Main pot $300 | Main pot $5 | Rake $3", "'Main pot'"),
    ],
)
def test_a_pot_line_naming_the_rake_or_a_pot_twice_is_rejected(line: str, twice: str) -> None:
    """Which of two rakes (or two main pots) is the hand's would be a guess: neither is kept."""
    reject = only_reject(HAND.replace("Total pot $308 | Rake $3", line))
    assert (reject.code, reject.line) == (RejectCode.MALFORMED_HAND, 1)
    assert reject.message.startswith("line 39: ")
    assert "twice" in reject.message and twice in reject.message


@pytest.mark.parametrize(
    ("part", "fees"),
    [
        ("Jackpot $1", (("jackpot", 100),)),
        ("Bad Beat Jackpot $1", (("bad-beat-jackpot", 100),)),
        ("Cash Drop to Pot $1", None),  # money the site put in, not a fee it took
        ("Bonus $1", None),
    ],
)
def test_only_a_jackpot_in_the_pot_line_is_read_as_a_fee(
    part: str, fees: tuple[tuple[str, int], ...] | None
) -> None:
    """A fee is money the site took: a part of the pot line that does not say so (site
    money added, a promotion) is not taken for one."""
    text = HAND.replace("Total pot $308 | Rake $3", f"Total pot $308 | Rake $2 | {part}")
    if fees is not None:
        result = only_hand(text).result
        assert result is not None
        assert [(f.kind, f.amount) for f in result.fees] == list(fees)
        return
    reject = only_reject(text)
    assert (reject.code, reject.line) == (RejectCode.MALFORMED_HAND, 1)
    assert reject.message.startswith("line 39: ") and repr(part) in reject.message


@pytest.mark.parametrize(
    ("fold", "whole"),
    [
        ("Ana: folds [Ac Ad 2c 3c]", True),
        ("Ana: folds [3c]", True),  # shows one of them
        ("Ana: folds [Ac Ad 2c 4c]", False),
        ("Ana: folds [Kd]", False),
    ],
)
def test_cards_shown_on_a_fold_must_be_the_ones_dealt(fold: str, whole: bool) -> None:
    """``Dealt to Ana [Ac Ad 2c 3c]`` then ``Ana: folds [..]``: other cards contradict it."""
    text = HAND.replace("Ana: folds", fold)
    if whole:
        hand = only_hand(text)
        assert [a.type for a in hand.actions if a.seat == 1] == [ActionType.DEAL, ActionType.FOLD]
        return
    reject = only_reject(text)
    assert (reject.code, reject.line) == (RejectCode.BAD_CARD, 1)
    assert reject.message.startswith("line 14: ")
    assert "Ac Ad 2c 3c" in reject.message and "line 12" in reject.message


@pytest.mark.parametrize("name", ["CyX", "Cy(big blind)"])
def test_a_summary_line_naming_another_player_than_the_seat_is_rejected(name: str) -> None:
    """``Seat 3: CyX …`` is not Cy's line because it starts with ``Cy``."""
    old = "Seat 3: Cy (big blind) folded on the Flop"
    reject = only_reject(HAND.replace(old, old.replace("Cy (big blind)", name, 1)))
    assert (reject.code, reject.line) == (RejectCode.MALFORMED_HAND, 1)
    assert reject.message.startswith("line 43: ") and "'Cy'" in reject.message


@pytest.mark.parametrize(
    ("old", "new", "line", "said"),
    [
        ("Seat 5: Ed ", "Seat 7: Ed ", 7, "seat 7"),
        ("6-max Seat #1 is", "6-max Seat #8 is", 2, "button seat 8"),
    ],
)
def test_a_seat_beyond_the_table_size_is_rejected(old: str, new: str, line: int, said: str) -> None:
    """``6-max`` has seats 1-6: a seat (or button) numbered beyond it contradicts the table
    line, and which of the two is wrong would be a guess."""
    assert old in HAND
    reject = only_reject(HAND.replace(old, new))
    assert (reject.code, reject.line) == (RejectCode.MALFORMED_HAND, 1)
    assert reject.message.startswith(f"line {line}: ") and "6-max" in reject.message
    assert said in reject.message


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_joined_after_a_utf8_one_is_a_bad_encoding_reject(codec: str) -> None:
    """Files joined together: the UTF-8 hand is read, the UTF-16 one after it (its NUL
    bytes) is one ``bad-encoding`` reject that says so, not text outside any hand."""
    hand = HAND.replace("Ana", "Anaïs")  # text beyond ASCII: decided on the hand's own bytes
    data = hand.encode() + b"\n\n" + HAND.encode(codec)
    first, second = parse_pokerstars_bytes(data, "joined")
    assert isinstance(first, HandRecord)
    assert first.seats[0].player == "Anaïs"
    assert isinstance(second, Reject)
    assert (second.code, second.line) == (RejectCode.BAD_ENCODING, 48)
    assert "UTF-16" in second.message


THRICE = (FIXTURES / "run-three-times.txt").read_text(encoding="utf-8")
TWICE = "".join(
    line
    for line in THRICE.splitlines(keepends=True)
    if not line.startswith(("*** THIRD FLOP", "*** THIRD TURN", "*** THIRD RIVER", "THIRD Board"))
).replace("Hand was run three times", "Hand was run twice")
TWICE = TWICE[: TWICE.index("*** THIRD SHOW DOWN")] + TWICE[TWICE.index("*** SUMMARY") :]


@pytest.mark.parametrize(
    ("text", "line", "code"),
    [
        (THRICE.replace("Hand was run three times", "Hand was run twice"), 37, "malformed-hand"),
        (TWICE.replace("Hand was run twice", "Hand was run three times"), 30, "malformed-hand"),
        (
            THRICE.replace("Hand was run three times\n", "Board [As Ks Qs Js Ts]\n"),
            37,
            "bad-card",
        ),
        (TWICE.replace("*** SECOND SHOW DOWN", "*** THIRD SHOW DOWN"), 24, "malformed-hand"),
    ],
)
def test_a_board_run_more_than_once_is_held_to_the_runs_dealt(
    text: str, line: int, code: str
) -> None:
    """The summary's run count and its boards, and each showdown's run, are the runs dealt."""
    reject = only_reject(text)
    assert (reject.code, reject.line) == (RejectCode(code), 1)
    assert reject.message.startswith(f"line {line}: ")


def test_the_plain_board_of_a_hand_run_twice_may_be_its_shared_cards_or_a_run() -> None:
    for board in ("2c 7h 9d 3s 4h", "Qh 8c 5d 6s Tc"):
        text = THRICE.replace("Hand was run three times\n", f"Board [{board}]\n")
        assert only_hand(text).result is not None


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("*** HOLE CARDS ***", "*** HOLE CARDS *** [Ks]", 11),
        ("*** SHOW DOWN ***", "*** SHOW DOWN *** [Ks]", 34),
        ("*** SUMMARY ***", "*** SUMMARY *** [Ks]", 38),
        ("Dealt to Ana [Ac Ad 2c 3c]", "Dealt to Ana []", 12),
    ],
)
def test_cards_written_where_none_are_read_are_rejected(old: str, new: str, line: int) -> None:
    """Cards on a line that deals none (or a deal of no cards) are not passed over."""
    assert old in HAND
    reject = only_reject(HAND.replace(old, new))
    assert (reject.code, reject.line) == (RejectCode.MALFORMED_HAND, 1)
    assert reject.message.startswith(f"line {line}: ")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Omaha Pot Limit (10/20)", "Omaha Pot Limit ($10/$20 USD)"),
        ("Omaha Pot Limit (10/20)", "Omaha Pot Limit (10/20 EUR)"),
    ],
)
def test_a_play_money_table_in_a_real_currency_is_rejected(old: str, new: str) -> None:
    """The header names a currency and the table line says play money: which is the hand's
    money would be a guess."""
    text = (FIXTURES / "home-game-dead-blinds.txt").read_text(encoding="utf-8")
    assert old in text
    reject = only_reject(text.replace(old, new))
    assert (reject.code, reject.line) == (RejectCode.BAD_AMOUNT, 1)
    assert reject.message.startswith("line 2: ") and "Play Money" in reject.message


@pytest.mark.parametrize("amount", ["$0,250", "$0,004", "$00,250"])
def test_a_comma_after_a_leading_zero_is_no_thousands_separator(amount: str) -> None:
    """``$0,250`` is a decimal comma (0.25) or nothing: never two hundred and fifty."""
    reject = only_reject(HAND.replace("Ed: calls $4", f"Ed: calls {amount}"))
    assert (reject.code, reject.line) == (RejectCode.BAD_AMOUNT, 1)
    assert reject.message.startswith("line 13: ") and repr(amount) in reject.message
