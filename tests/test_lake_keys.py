"""The lake's compact key set behaves as a set of (site, hand_id) keys."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lake import keys as keys_module
from pipeline.lake.keys import KeySet

KEY = st.tuples(st.sampled_from(["PokerStars", "PartyPoker", ""]), st.text(max_size=6))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(KEY, max_size=30), max_size=12), st.lists(KEY, max_size=30))
def test_keyset_equals_a_python_set(
    batches: list[list[tuple[str, str]]], probe: list[tuple[str, str]]
) -> None:
    keys_module._MERGE_AT = 7  # merge often, so the sorted arrays are exercised
    try:
        compact, plain = KeySet(), set[tuple[str, str]]()
        for batch in batches:
            assert compact.present(batch) == {k for k in batch if k in plain}
            compact.update(batch)
            plain.update(batch)
        assert compact.present(probe) == {k for k in probe if k in plain}
        assert all((k in compact) == (k in plain) for k in probe)
        assert len(compact) == len(plain)
    finally:
        keys_module._MERGE_AT = 65_536


def test_equal_high_halves_are_told_apart_by_the_low_half(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Digests that share their first 64 bits (made so here) are still distinct keys."""
    monkeypatch.setattr(keys_module, "_MERGE_AT", 1)
    monkeypatch.setattr(
        keys_module,
        "digest",
        lambda site, hand_id: b"\x01" * 8 + hand_id.encode().ljust(8, b"\x00")[:8],
    )
    s = KeySet([("x", "a"), ("x", "b"), ("x", "c")])
    assert s.present([("x", "a"), ("x", "c"), ("x", "d")]) == {("x", "a"), ("x", "c")}
    assert len(s) == 3


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(KEY, max_size=30), max_size=12), st.lists(KEY, max_size=30))
def test_digests_held_are_the_positions_of_keys_held(
    batches: list[list[tuple[str, str]]], probe: list[tuple[str, str]]
) -> None:
    """What a run's driver does with a chunk's digests: ask which are held, then add them."""
    keys_module._MERGE_AT = 5  # both the sorted arrays and the recent set hold some
    try:
        compact, plain = KeySet(), set[tuple[str, str]]()
        for batch in [*batches, probe]:
            blob = keys_module.digests(batch)
            assert len(blob) == 16 * len(batch)
            held = [i for i, key in enumerate(batch) if key in plain]
            assert compact.held(blob) == held
            compact.add_digests(blob)
            plain.update(batch)
        assert len(compact) == len(plain)
    finally:
        keys_module._MERGE_AT = 65_536


def test_digests_of_a_broken_length_are_refused() -> None:
    with pytest.raises(ValueError, match="16 bytes each; got 17"):
        KeySet().add_digests(bytes(17))
