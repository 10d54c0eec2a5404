"""Differential tests against phevaluator, whose Omaha ranks are ours in reverse (1 = royal).

phevaluator is an optional (``bench``) dependency: without it these tests are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import numpy as np
import pytest

from pipeline.evaluate import HIGH_CLASS_COUNT, evaluate_batch, evaluate_five

phevaluator = pytest.importorskip("phevaluator")


@pytest.fixture(autouse=True, scope="module")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROUPIER_CACHE_DIR", str(tmp_path_factory.mktemp("croupier-cache")))
        yield


@pytest.mark.parametrize(("hole_size", "count"), [(4, 100_000), (5, 20_000), (6, 10_000)])
def test_same_high_ranks_as_phevaluator(hole_size: int, count: int) -> None:
    """Exact ranks, not just order; 5 and 6 cards take phevaluator's best 4-card subset."""
    order = np.argsort(np.random.default_rng(hole_size).random((count, 52)), axis=1)
    holes, boards = order[:, :hole_size], order[:, hole_size : hole_size + 5]
    subsets = list(combinations(range(hole_size), 4))
    theirs = [
        min(
            phevaluator.evaluate_omaha_cards(*board, *(hole[i] for i in subset))
            for subset in subsets
        )
        for hole, board in zip(holes.tolist(), boards.tolist(), strict=True)
    ]
    ours = evaluate_batch(holes, boards, low=False).high
    assert np.array_equal(ours, HIGH_CLASS_COUNT + 1 - np.array(theirs))


def test_same_five_card_ranks_as_phevaluator() -> None:
    hands = np.argsort(np.random.default_rng(5).random((100_000, 52)), axis=1)[:, :5]
    theirs = [phevaluator.evaluate_cards(*hand) for hand in hands.tolist()]
    high, _ = evaluate_five(hands)
    assert np.array_equal(high, HIGH_CLASS_COUNT + 1 - np.array(theirs))
