"""The hands a lake holds, as a compact set of 128-bit key digests (16 bytes a hand).

A run must know every ``(site, hand_id)`` already in the lake or already read, to count
repeats as duplicates. Python tuples of strings cost some 200 bytes a hand, which over
millions of hands is most of a run's memory; two arrays of 64-bit halves of a BLAKE2b-128
digest cost 16, and two different keys share a digest with a probability of about
n² / 2¹²⁹ (below 10⁻²⁰ for a billion hands).
"""

from __future__ import annotations

from collections.abc import Iterable
from hashlib import blake2b

import numpy as np
import numpy.typing as npt

__all__ = ["KeySet", "digest"]

_MERGE_AT = 65_536
"""Digests kept in a plain set before they are merged into the sorted arrays (or a 64th of
the arrays' length, whichever is more: merges copy the arrays, so they grow geometrically,
while the set, at some 90 bytes a digest, stays a small part of the memory)."""

U64 = npt.NDArray[np.uint64]


def digest(site: str, hand_id: str) -> bytes:
    """Return the 16-byte digest of a hand's key.

    >>> digest("a", "bc") == digest("ab", "c"), len(digest("a", "1"))
    (False, 16)
    """
    return blake2b(f"{site}\x00{hand_id}".encode(), digest_size=16).digest()


class KeySet:
    """A set of hand keys: digests sorted by their high half, plus a set of recent ones."""

    __slots__ = ("_high", "_low", "_recent")

    def __init__(self, keys: Iterable[tuple[str, str]] = ()) -> None:
        self._high: U64 = np.empty(0, dtype=np.uint64)
        self._low: U64 = np.empty(0, dtype=np.uint64)
        self._recent: set[bytes] = set()
        self.update(keys)

    def __len__(self) -> int:
        self._merge()
        return len(self._high)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        return bool(self.present([key]))

    def update(self, keys: Iterable[tuple[str, str]]) -> None:
        """Add keys."""
        self._recent.update(digest(site, hand_id) for site, hand_id in keys)
        if len(self._recent) >= max(_MERGE_AT, len(self._high) // 64):
            self._merge()

    def _merge(self) -> None:
        if not self._recent:
            return
        high, low = _halves(list(self._recent))
        self._recent = set()
        new = ~self._lookup(high, low)
        high, low = high[new], low[new]
        order = np.argsort(high, kind="stable")
        high, low = high[order], low[order]
        at = np.searchsorted(self._high, high)
        self._high = np.insert(self._high, at, high)
        self._low = np.insert(self._low, at, low)

    def _lookup(self, high: U64, low: U64) -> npt.NDArray[np.bool_]:
        """Whether the sorted arrays hold each digest."""
        if not len(self._high):
            return np.zeros(len(high), dtype=bool)
        left = np.searchsorted(self._high, high, "left")
        right = np.searchsorted(self._high, high, "right")
        single = right - left == 1
        hits = single & (self._low[np.where(single, left, 0)] == low)
        for i in np.flatnonzero(right - left > 1).tolist():  # equal high halves: rare
            hits[i] = bool((self._low[left[i] : right[i]] == low[i]).any())
        return np.asarray(hits, dtype=bool)

    def present(self, keys: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """Return those of ``keys`` that the set holds.

        >>> s = KeySet([("a", "1"), ("a", "2")])
        >>> sorted(s.present([("a", "2"), ("b", "1")]))
        [('a', '2')]
        """
        asked = list(keys)
        if not asked:
            return set()
        values = [digest(site, hand_id) for site, hand_id in asked]
        found = {k for k, d in zip(asked, values, strict=True) if d in self._recent}
        hits = self._lookup(*_halves(values))
        found.update(asked[i] for i in np.flatnonzero(hits).tolist())
        return found


def _halves(values: list[bytes]) -> tuple[U64, U64]:
    """Return the digests' high and low 64-bit halves as two arrays."""
    pairs = np.frombuffer(b"".join(values), dtype="<u8").reshape(-1, 2)
    return pairs[:, 0].astype(np.uint64), pairs[:, 1].astype(np.uint64)
