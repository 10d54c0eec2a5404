"""Hand evaluation for Omaha: exact high and eight-or-better low, in numpy batches.

Ranks are ints, larger is better: a high rank is 1..7,462 (7-5-4-3-2 offsuit up to the royal
flush), a low rank 1..56 (8-7-6-5-4 up to the wheel) and 0 (:data:`NO_LOW`) when the cards make
no qualifying low. Every hand uses exactly two hole cards and three board cards; high and low
may use different ones.

>>> from pipeline.cards import format_cards, parse_cards
>>> high = best_high(parse_cards("AdKd3s2s"), parse_cards("Jd4d3cQd5h"))
>>> high.description, format_cards(high.cards_used), format_cards(high.hole_used)
('flush, Ace high', 'AdKdQdJd4d', 'AdKd')
>>> low = best_low8(parse_cards("AdKd3s2s"), parse_cards("Jd4d3cQd5h"))
>>> low is not None and (low.description, format_cards(low.hole_used))
('5-4-3-2-A low', 'Ad2s')

Tables for all 2,598,960 five-card hands live in the user's cache directory (see
:mod:`pipeline.evaluate.cache`); they are built with numpy on first use.
"""

from pipeline.evaluate.cache import (
    LoadedTables,
    TableSource,
    cache_dir,
    default_tables,
    load_tables,
)
from pipeline.evaluate.classes import HIGH_CLASS_COUNT, LOW_CLASS_COUNT, Category
from pipeline.evaluate.describe import (
    NO_LOW,
    category_of,
    describe_high,
    describe_low,
    high_rank_of,
    low_rank_of,
)
from pipeline.evaluate.omaha import (
    BatchResult,
    HandValue,
    best_high,
    best_low8,
    combo_count,
    evaluate_batch,
    evaluate_five,
)
from pipeline.evaluate.tables import HAND_COUNT, RankTables, build_tables, colex_index

__all__ = [
    "HAND_COUNT",
    "HIGH_CLASS_COUNT",
    "LOW_CLASS_COUNT",
    "NO_LOW",
    "BatchResult",
    "Category",
    "HandValue",
    "LoadedTables",
    "RankTables",
    "TableSource",
    "best_high",
    "best_low8",
    "build_tables",
    "cache_dir",
    "category_of",
    "colex_index",
    "combo_count",
    "default_tables",
    "describe_high",
    "describe_low",
    "evaluate_batch",
    "evaluate_five",
    "high_rank_of",
    "load_tables",
    "low_rank_of",
]
