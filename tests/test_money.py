"""Money: decimal text and integer minor units."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.money import (
    MAX_SCALE,
    AmountError,
    format_amount,
    format_unit,
    parse_amount,
    scale_of_unit,
)
from tests.strategies import scales


@pytest.mark.parametrize(
    ("text", "scale", "units"),
    [
        ("0", 2, 0),
        ("0.01", 2, 1),
        ("3.52", 2, 352),
        ("3.5", 2, 350),
        ("12", 2, 1200),
        ("1500", 0, 1500),
        ("1.500", 2, 150),
        ("0.00000001", 8, 1),
        ("007", 0, 7),
    ],
)
def test_parse_amount(text: str, scale: int, units: int) -> None:
    assert parse_amount(text, scale) == units


@pytest.mark.parametrize(
    ("text", "scale", "reason"),
    [
        ("0.005", 2, "more decimals"),
        ("1.5", 0, "more decimals"),
        ("-1", 2, "negative"),
        ("", 2, "not a decimal"),
        (".5", 2, "not a decimal"),
        ("5.", 2, "not a decimal"),
        ("1e3", 2, "not a decimal"),
        ("1,000", 2, "not a decimal"),
        (" 1", 2, "not a decimal"),
        ("+1", 2, "not a decimal"),
        ("١٢", 2, "not a decimal"),  # Arabic-Indic digits: isdigit() but not ASCII
        ("1" * 31, 0, "too large"),
        ("NaN", 2, "not a decimal"),
    ],
)
def test_bad_amounts_are_errors_never_rounded(text: str, scale: int, reason: str) -> None:
    with pytest.raises(AmountError, match=reason):
        parse_amount(text, scale)


def test_signed_amounts_only_when_asked() -> None:
    assert parse_amount("-0.25", 2, signed=True) == -25
    with pytest.raises(AmountError):
        parse_amount("-0.25", 2)


@pytest.mark.parametrize(("unit", "scale"), [("1", 0), ("0.1", 1), ("0.01", 2), ("0.00000001", 8)])
def test_units_and_scales(unit: str, scale: int) -> None:
    assert scale_of_unit(unit) == scale
    assert format_unit(scale) == unit


@pytest.mark.parametrize("unit", ["0.05", "10", "0.010", "0", "1.0", "0.000000001", "", "0.0"])
def test_units_must_be_powers_of_ten_up_to_one(unit: str) -> None:
    with pytest.raises(AmountError):
        scale_of_unit(unit)


def test_format_unit_refuses_bad_scales() -> None:
    with pytest.raises(ValueError, match="scale"):
        format_unit(MAX_SCALE + 1)


@given(st.integers(min_value=-(10**20), max_value=10**20), scales)
def test_amounts_round_trip(units: int, scale: int) -> None:
    text = format_amount(units, scale)
    assert parse_amount(text, scale, signed=True) == units
    assert text.count(".") == (1 if scale else 0)
    if scale:
        assert len(text.partition(".")[2]) == scale


@given(st.integers(min_value=0, max_value=10**12), scales, scales)
def test_finer_text_parses_at_coarser_scale_only_when_exact(
    units: int, fine: int, coarse: int
) -> None:
    text = format_amount(units, fine)
    if coarse >= fine:
        assert parse_amount(text, coarse) == units * 10 ** (coarse - fine)
    elif units % 10 ** (fine - coarse) == 0:
        assert parse_amount(text, coarse) == units // 10 ** (fine - coarse)
    else:
        with pytest.raises(AmountError):
            parse_amount(text, coarse)
