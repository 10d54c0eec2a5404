"""Omaha evaluation: the rules' cases, descriptions, batches against brute force, the cache."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipeline.evaluate.cache as cache_module
import pipeline.evaluate.kernel as kernel
from pipeline.cards import format_cards, parse_cards
from pipeline.evaluate import (
    NO_LOW,
    Category,
    HandValue,
    RankTables,
    TableSource,
    best_high,
    best_low8,
    cache_dir,
    combo_count,
    default_tables,
    describe_high,
    describe_low,
    evaluate_batch,
    evaluate_five,
    high_rank_of,
    load_tables,
    low_rank_of,
)
from pipeline.evaluate.cache import TABLE_FILE
from pipeline.evaluate.tables import sorted_colex_index


@pytest.fixture(autouse=True, scope="module")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROUPIER_CACHE_DIR", str(tmp_path_factory.mktemp("croupier-cache")))
        yield


def high(hole: str, board: str) -> HandValue:
    return best_high(parse_cards(hole), parse_cards(board))


def low(hole: str, board: str) -> HandValue | None:
    return best_low8(parse_cards(hole), parse_cards(board))


# --- RULES.md sections 6-7 and the seeds -------------------------------------------------


def test_seed_000_example_hand() -> None:
    """AdKd3s2s on Jd4d3cQd5h: ace-high flush with AdKd (no ten, so no straight flush);
    the wheel with Ad2s."""
    best = high("AdKd3s2s", "Jd4d3cQd5h")
    assert best.category is Category.FLUSH
    assert best.description == "flush, Ace high"
    assert format_cards(best.cards_used) == "AdKdQdJd4d"
    assert format_cards(best.hole_used) == "AdKd"
    assert format_cards(best.board_used) == "QdJd4d"
    wheel = low("AdKd3s2s", "Jd4d3cQd5h")
    assert wheel is not None
    assert wheel.description == "5-4-3-2-A low"
    assert format_cards(wheel.hole_used) == "Ad2s"
    assert format_cards(wheel.cards_used) == "5h4d3c2sAd"
    assert wheel.rank == 56


def test_four_flush_on_board_plus_one_hole_card_is_no_flush() -> None:
    assert high("Qh9c5d4s", "AhKh7h2hJc").category is Category.HIGH_CARD
    assert high("Qh9h5d4s", "AhKh7h2hJc").description == "flush, Ace high"


def test_four_to_a_straight_on_board_plus_one_hole_card_is_no_straight() -> None:
    best = high("9cKdKs2h", "5h6d7c8sJh")
    assert best.category is Category.ONE_PAIR
    assert best.description == "one pair, Kings"
    assert high("9cTdKs2h", "5h6d7c8sJh").description == "straight, Jack high"


def test_four_queens_in_the_hand_are_one_pair() -> None:
    best = high("QcQdQhQs", "2c5d8hJs3s")
    assert best.category is Category.ONE_PAIR
    assert best.description == "one pair, Queens"
    assert format_cards(best.cards_used) == "QdQcJs8h5d"  # ties go to the first hole pair


def test_four_of_a_kind_on_the_board_plays_as_three() -> None:
    assert high("AcAd2h3s", "7d7h7s7cKd").description == "full house, Sevens full of Aces"


def test_high_and_low_may_use_different_hole_cards() -> None:
    best_hi = high("AsAh2c3d", "AdKs8c7h4h")
    best_lo = low("AsAh2c3d", "AdKs8c7h4h")
    assert best_hi.description == "three of a kind, Aces"
    assert best_lo is not None
    assert best_lo.description == "7-4-3-2-A low"
    assert set(best_hi.hole_used) != set(best_lo.hole_used)


SEED_LOWS_WEAKEST_FIRST = (
    "8-7-6-5-4",
    "8-7-6-5-3",
    "8-6-4-2-A",
    "8-4-3-2-A",
    "7-6-5-4-2",
    "7-6-5-2-A",
    "7-5-4-3-2",
    "6-5-4-3-2",
    "6-4-3-2-A",
    "5-4-3-2-A",
)


def test_seed_low_ranking_list_in_order() -> None:
    suits = "cdhsc"
    ranks: list[int] = []
    for text in SEED_LOWS_WEAKEST_FIRST:
        faces = text.split("-")
        cards = "".join(face + suit for face, suit in zip(faces, suits, strict=True))
        hole = cards[:4] + "KhKs"  # two of the low cards, two that cannot help a low
        board = cards[4:] + "QdJh"
        value = low(hole, board)
        assert value is not None
        assert value.description == f"{text} low"
        assert value.rank == low_rank_of(cards)
        ranks.append(value.rank)
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks)
    assert describe_low(ranks[2], short=True) == "8642A"


def test_no_low_with_fewer_than_three_low_board_cards() -> None:
    assert low("As2s3s4s", "5c9dTcJhKd") is None
    assert low("As2s3s4s", "5c4d9cJhKd") is None  # 4 pairs a hole card: still only two ranks


def test_low_needs_two_hole_cards_unpaired_with_the_board() -> None:
    assert low("AsAc9dTd", "2c3d4hKsQs") is None  # one low rank in the hand
    assert low("As2c9dTd", "2d3d4hKsQs") is None  # the deuce pairs the board's deuce
    value = low("As5c9dTd", "2d3d4hKsQs")
    assert value is not None
    assert value.description == "5-4-3-2-A low"


def test_straights_and_flushes_do_not_spoil_a_low() -> None:
    value = low("Ah2h9s9c", "3h4h5hKdKc")
    assert value is not None
    assert value.rank == 56
    assert high("Ah2h9s9c", "3h4h5hKdKc").description == "straight flush, Five high"


def test_ace_is_high_and_low_in_straights() -> None:
    assert high("AcKd2s2h", "QhJsTc3d3c").description == "straight, Ace high"
    assert high("Ac2d9s9h", "3h4s5cKdKc").description == "straight, Five high"
    assert high("KcAdJsTh", "2h3s4c8d7c").description == "high card, Ace"  # no K-A-2-3-4


# --- descriptions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        ("AsKsQsJsTs", "straight flush, Ace high (royal flush)"),
        ("9h8h7h6h5h", "straight flush, Nine high"),
        ("AdAcAhAs2c", "four of a kind, Aces"),
        ("AcAdAhKsKd", "full house, Aces full of Kings"),
        ("2c2d2hAsAd", "full house, Deuces full of Aces"),
        ("Kc9c7c4c2c", "flush, King high"),
        ("Tc9d8h7s6c", "straight, Ten high"),
        ("6c6d6h9sKd", "three of a kind, Sixes"),
        ("JcJd7h7s2d", "two pair, Jacks and Sevens"),
        ("3c3dAhKs9d", "one pair, Threes"),
        ("Ac9d7h5s3d", "high card, Ace"),
    ],
)
def test_describe_high(cards: str, text: str) -> None:
    assert describe_high(high_rank_of(cards)) == text


def test_describe_low_forms() -> None:
    rank = low_rank_of("8c6d4h2sAd")
    assert describe_low(rank) == "8-6-4-2-A low"
    assert describe_low(rank, short=True) == "8642A"
    assert describe_low(NO_LOW) == "no low"
    with pytest.raises(ValueError, match="not a qualifying low rank"):
        describe_low(57)
    with pytest.raises(ValueError, match="not a high rank"):
        describe_high(0)


# --- batches against brute force over the five-card tables -------------------------------


def random_deals(
    count: int, hole_size: int, board_size: int, seed: int
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    order = np.argsort(np.random.default_rng(seed).random((count, 52)), axis=1)
    dealt = order[:, : hole_size + board_size].astype(np.int8)
    return dealt[:, :hole_size], dealt[:, hole_size:]


def brute_force(
    holes: npt.NDArray[np.int8], boards: npt.NDArray[np.int8], tables: RankTables
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """Best high and low per player: every two-plus-three hand looked up in the 5-card table."""
    hands = np.array(
        [
            np.concatenate((holes[:, list(pair)], boards[:, list(triple)]), axis=1)
            for pair in combinations(range(holes.shape[1]), 2)
            for triple in combinations(range(boards.shape[1]), 3)
        ]
    )
    index = sorted_colex_index(hands)
    return tables.high[index].max(axis=0), tables.low[index].max(axis=0)


@pytest.mark.parametrize("board_size", [5, 4, 3])
@pytest.mark.parametrize("hole_size", [4, 5, 6])
def test_batch_equals_brute_force(hole_size: int, board_size: int) -> None:
    tables = default_tables()
    holes, boards = random_deals(20_000, hole_size, board_size, seed=hole_size * 10 + board_size)
    result = evaluate_batch(holes, boards)
    assert result.low is not None
    expected_high, expected_low = brute_force(holes, boards, tables)
    assert np.array_equal(result.high, expected_high)
    assert np.array_equal(result.low, expected_low)
    # The recovered cards make the reported ranks, with their hole pair from the hand.
    used_high, _ = evaluate_five(result.high_cards())
    assert np.array_equal(used_high, result.high)
    has_low = result.low > 0
    assert np.array_equal(evaluate_five(result.low_cards()[has_low])[1], result.low[has_low])
    assert np.all(result.low_cards()[~has_low] == -1)
    assert np.all(np.isin(result.high_hole(), holes).reshape(-1, 2).all(axis=1))
    assert np.array_equal(result.high_cards()[:, :2], result.high_hole())


def test_batch_flush_heavy_deals() -> None:
    """Deals from two suits only, so that most hands hold flush chances."""
    tables = default_tables()
    rng = np.random.default_rng(11)
    deck = np.array([card for card in range(52) if card % 4 in (1, 2)])
    order = np.argsort(rng.random((5_000, deck.size)), axis=1)[:, :11]
    dealt = deck[order].astype(np.int8)
    for hole_size in (4, 5, 6):
        holes, boards = dealt[:, :hole_size], dealt[:, 6:]
        result = evaluate_batch(holes, boards)
        expected_high, expected_low = brute_force(holes, boards, tables)
        assert np.array_equal(result.high, expected_high)
        assert result.low is not None
        assert np.array_equal(result.low, expected_low)


def test_blocks_and_chunks_do_not_change_results(monkeypatch: pytest.MonkeyPatch) -> None:
    holes, boards = random_deals(5_000, 6, 5, seed=21)
    whole = evaluate_batch(holes, boards)
    monkeypatch.setattr(kernel, "_BLOCK_ROWS", 777)
    monkeypatch.setattr(kernel, "_CHUNK_ROWS", 100)
    pieces = evaluate_batch(holes, boards)
    for name in ("high", "high_combo", "low", "low_combo"):
        assert np.array_equal(getattr(pieces, name), getattr(whole, name)), name


def test_empty_batch() -> None:
    result = evaluate_batch(np.zeros((0, 4), dtype=np.int8), np.zeros((0, 5), dtype=np.int8))
    assert len(result) == 0
    assert result.high_cards().shape == (0, 5)


def test_one_board_for_all_players_and_high_only() -> None:
    holes = np.array([parse_cards("AdKd3s2s"), parse_cards("QcQsTh9h")])
    board = np.array(parse_cards("Jd4d3cQd5h"))
    result = evaluate_batch(holes, board, low=False)
    assert result.low is None
    assert result.low_combo is None
    assert [describe_high(int(rank)) for rank in result.high] == [
        "flush, Ace high",
        "three of a kind, Queens",
    ]
    with pytest.raises(ValueError, match="lows were not evaluated"):
        result.low_cards()
    assert len(result) == 2


def test_batch_values_match_scalar_values() -> None:
    holes, boards = random_deals(200, 5, 5, seed=3)
    result = evaluate_batch(holes, boards)
    for player in range(200):
        hole, board = holes[player].tolist(), boards[player].tolist()
        assert result.high_value(player) == best_high(hole, board)
        assert result.low_value(player) == best_low8(hole, board)


@settings(max_examples=300, deadline=None)
@given(
    deck=st.permutations(range(52)),
    hole_size=st.sampled_from([4, 5, 6]),
)
def test_scalar_best_hands_by_python_brute_force(deck: list[int], hole_size: int) -> None:
    hole, board = deck[:hole_size], deck[hole_size : hole_size + 5]
    hands = [
        format_cards(pair + triple)
        for pair in combinations(hole, 2)
        for triple in combinations(board, 3)
    ]
    assert len(hands) == combo_count(hole_size)
    best = best_high(hole, board)
    assert best.rank == max(high_rank_of(hand) for hand in hands)
    assert high_rank_of(format_cards(best.cards_used)) == best.rank
    assert set(best.hole_used) <= set(hole)
    assert len(best.hole_used) == 2
    assert len(set(best.board_used) & set(board)) == 3
    best_low = best_low8(hole, board)
    low_rank = max(low_rank_of(hand) for hand in hands)
    assert (best_low.rank if best_low else NO_LOW) == low_rank


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        best_high(parse_cards("AdKd3s2s"), parse_cards("AdQd4d5h6h"))
    with pytest.raises(ValueError, match=r"outside 0\.\.51"):
        best_high([-1, 2, 3, 4], [5, 6, 7, 8, 9])
    with pytest.raises(ValueError, match="shape"):
        best_high([1, 2, 3], [5, 6, 7, 8, 9])
    with pytest.raises(ValueError, match="shape"):
        best_high([1, 2, 3, 4], [5, 6])
    with pytest.raises(ValueError, match="board rows"):
        evaluate_batch(np.zeros((3, 4), dtype=np.int8), np.zeros((2, 5), dtype=np.int8))
    with pytest.raises(ValueError, match="twice"):
        evaluate_five([[1, 2, 3, 4, 4]])


# --- the cache ----------------------------------------------------------------------------


def test_cache_dir_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CROUPIER_CACHE_DIR", str(tmp_path / "explicit"))
    assert cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("CROUPIER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "croupier"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "croupier"


def test_cache_is_built_once_then_loaded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    first = load_tables(tmp_path)
    assert first.source is TableSource.BUILT
    assert [path.name for path in tmp_path.iterdir()] == [TABLE_FILE]

    def no_build() -> RankTables:
        raise AssertionError("a valid cache file must not be rebuilt")

    monkeypatch.setattr(cache_module, "build_tables", no_build)
    second = load_tables(tmp_path)
    assert second.source is TableSource.LOADED
    assert np.array_equal(second.tables.high, first.tables.high)
    assert np.array_equal(second.tables.low, first.tables.low)
    assert not second.tables.high.flags.writeable


def corrupt_payload(data: bytearray) -> None:
    data[1_000_000] ^= 0x01


def truncate(data: bytearray) -> None:
    del data[-10:]


def stale_version(data: bytearray) -> None:
    struct.pack_into("<I", data, 8, cache_module.TABLE_VERSION + 1)


def other_magic(data: bytearray) -> None:
    data[:8] = b"NOTRANKS"


@pytest.mark.parametrize("damage", [corrupt_payload, truncate, stale_version, other_magic])
def test_corrupt_or_stale_cache_is_rebuilt(tmp_path: Path, damage: object) -> None:
    assert callable(damage)
    reference = load_tables(tmp_path).tables
    path = tmp_path / TABLE_FILE
    data = bytearray(path.read_bytes())
    damage(data)
    path.write_bytes(bytes(data))
    rebuilt = load_tables(tmp_path)
    assert rebuilt.source is TableSource.BUILT
    assert np.array_equal(rebuilt.tables.high, reference.high)
    assert np.array_equal(rebuilt.tables.low, reference.low)
    assert load_tables(tmp_path).source is TableSource.LOADED
    assert [entry.name for entry in tmp_path.iterdir()] == [TABLE_FILE]


def test_unwritable_cache_dir_builds_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    loaded = load_tables(blocker / "cache")
    assert loaded.source is TableSource.BUILT_UNSAVED
    assert loaded.tables.high.shape == (2_598_960,)
    result = evaluate_batch(
        [parse_cards("AdKd3s2s")], [parse_cards("Jd4d3cQd5h")], tables=loaded.tables
    )
    assert describe_high(int(result.high[0])) == "flush, Ace high"
