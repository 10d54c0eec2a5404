"""The hand-written sample hands: valid, readable, and judged clean by the engine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from pipeline.formats.jsonl import decode_line
from pipeline.model import HandRecord, Status
from pipeline.rules import replay
from tests.test_jsonl import SAMPLES, VALIDATOR


def _sample_lines() -> Iterator[tuple[Path, int, bytes]]:
    for path in SAMPLES:
        for number, line in enumerate(path.read_bytes().splitlines(), start=1):
            if line.strip():
                yield path, number, line


def _sample_hands() -> list[HandRecord]:
    hands = []
    for path, number, line in _sample_lines():
        item = decode_line(line, path.name, number)
        assert isinstance(item, HandRecord), f"{path.name}:{number}: {item}"
        hands.append(item)
    return hands


def test_there_are_a_dozen_samples_covering_every_game_and_structure() -> None:
    hands = _sample_hands()
    assert len(hands) >= 12
    assert {h.game.variant for h in hands} == {
        "omaha",
        "omaha-hilo",
        "courchevel",
        "courchevel-hilo",
    }
    assert {h.game.hole_cards for h in hands} == {4, 5, 6}
    assert {h.game.betting for h in hands} == {
        "fixed-limit",
        "pot-limit",
        "no-limit",
        "pl-preflop-nl-postflop",
    }
    assert all(h.result is not None for h in hands)


def test_every_sample_validates_and_reads_as_a_hand() -> None:
    for path, number, line in _sample_lines():
        errors = [e.message for e in VALIDATOR.iter_errors(json.loads(line))]
        assert errors == [], f"{path.name}:{number}: {errors}"
    assert len(_sample_hands()) == len(list(_sample_lines()))


def test_every_sample_replays_without_a_violation() -> None:
    for hand in _sample_hands():
        judged = replay(hand)
        assert judged.violations == (), (hand.hand_id, judged.violations)
        assert judged.status is (Status.VOID if hand.cancelled else Status.OK)
