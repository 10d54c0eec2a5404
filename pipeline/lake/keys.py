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

__all__ = ["KeySet", "digest", "digests"]

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


def digests(keys: Iterable[tuple[str, str]]) -> bytes:
    """Return the digests of many keys, one after the other (16 bytes each).

    A chunk's task sends its hands' digests with its result, so the run's driver, which
    every worker waits on, does not hash them.

    >>> digests([("a", "1"), ("a", "2")])[16:] == digest("a", "2")
    True
    """
    return b"".join([digest(site, hand_id) for site, hand_id in keys])


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
        self.add_digests(digests(keys))

    def add_digests(self, blob: bytes) -> None:
        """Add the keys of some digests (:func:`digests`)."""
        self._recent.update(_split(blob))
        if len(self._recent) >= max(_MERGE_AT, len(self._high) // 64):
            self._merge()

    def _merge(self) -> None:
        if not self._recent:
            return
        high, low = _halves(b"".join(self._recent))
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
        return {asked[i] for i in self.held(digests(asked))}

    def held(self, blob: bytes) -> list[int]:
        """Return the positions, in order, of the digests (:func:`digests`) the set holds.

        >>> KeySet([("a", "2")]).held(digests([("a", "1"), ("a", "2")]))
        [1]
        """
        if not blob:
            return []
        hits = self._lookup(*_halves(blob))
        recent = self._recent
        if recent:  # a digest may be in both (added again after it was merged)
            hits |= np.fromiter((d in recent for d in _split(blob)), bool, len(hits))
        found: list[int] = np.flatnonzero(hits).tolist()
        return found


def _split(blob: bytes) -> list[bytes]:
    """Return the digests one after the other in ``blob``, each on its own."""
    if len(blob) % 16:
        raise ValueError(f"digests take 16 bytes each; got {len(blob)} bytes")
    return [blob[i : i + 16] for i in range(0, len(blob), 16)]


def _halves(blob: bytes) -> tuple[U64, U64]:
    """Return the high and low 64-bit halves of the digests in ``blob`` as two arrays."""
    pairs = np.frombuffer(blob, dtype="<u8").reshape(-1, 2)
    return pairs[:, 0].astype(np.uint64), pairs[:, 1].astype(np.uint64)
