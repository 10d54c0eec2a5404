"""Cards: ints, text, masks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.cards import (
    DECK,
    UNKNOWN,
    CardError,
    cards_from_mask,
    format_card,
    format_cards,
    has_unknown,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from tests.strategies import cards, cards_or_unknown


def test_every_card_has_a_distinct_two_character_text() -> None:
    texts = {format_card(card) for card in DECK}
    assert len(texts) == 52
    assert all(len(text) == 2 for text in texts)


def test_encoding_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("As") == 51
    assert rank_of(parse_card("Td")) == 8
    assert suit_of(parse_card("Td")) == 1


@pytest.mark.parametrize(
    "text", ["Ah Kd 3c 2s", "AhKd3c2s", "[Ah Kd 3c 2s]", "Ah,Kd,3c,2s", "ah kD 3C 2s"]
)
def test_card_runs_in_every_spelling_parse_alike(text: str) -> None:
    assert parse_cards(text) == (50, 45, 4, 3)


def test_ten_may_be_written_10() -> None:
    assert parse_cards("10h Th") == (parse_card("Th"), parse_card("Th"))


def test_unknown_cards() -> None:
    assert parse_cards("????Ah") == (UNKNOWN, UNKNOWN, 50)
    assert has_unknown(parse_cards("Ah ??"))
    assert not has_unknown(parse_cards("Ah Kd"))
    assert format_cards((UNKNOWN, 50), sep=" ") == "?? Ah"


@pytest.mark.parametrize("text", ["A", "Ahk", "1h", "Ax", "Zh", "Ah K", "ÄH", "Ah\x00", "11h"])
def test_bad_card_text_raises_card_error_naming_the_text(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    assert caught.value.text == text


def test_format_card_refuses_out_of_range_ints() -> None:
    with pytest.raises(ValueError, match="out of range"):
        format_card(52)


@given(st.lists(cards_or_unknown, max_size=52), st.sampled_from(["", " "]))
def test_cards_round_trip_through_text(run: list[int], sep: str) -> None:
    assert parse_cards(format_cards(run, sep=sep)) == tuple(run)


@given(st.sets(cards))
def test_masks_round_trip(card_set: set[int]) -> None:
    mask = mask_of(card_set)
    assert cards_from_mask(mask) == tuple(sorted(card_set))
    assert mask.bit_count() == len(card_set)


def test_mask_ignores_unknown_cards() -> None:
    assert mask_of([UNKNOWN, 0]) == 1


@pytest.mark.parametrize(("text", "where"), [("AhKx", 2), ("AhKd2z", 4), ("Zh", 0)])
def test_a_bad_card_in_an_even_run_is_named_by_position(text: str, where: int) -> None:
    # the quick path for two-character cards must still say where the run breaks
    with pytest.raises(CardError, match=f"position {where}"):
        parse_cards(text)


def test_format_cards_refuses_out_of_range_ints_among_good_ones() -> None:
    with pytest.raises(ValueError, match="out of range: 60"):
        format_cards([50, 60, 45])
    with pytest.raises(ValueError, match="out of range: -2"):
        format_cards([-2])
