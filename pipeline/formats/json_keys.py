"""JSON objects that name a key more than once, for the readers of JSON hand logs.

JSON does not say what a repeated key means (RFC 8259, section 4: names "SHOULD be
unique"), and decoders keep one of the values, most the last, without a word. A hand log
in which an object repeats a key is therefore not read: which value is meant cannot be
told. Decoding with :func:`object_pairs` as the object hook marks each such object
(:class:`Duplicated`, counted in :data:`REPEATS`), and :func:`find_repeated` finds the
first of them in file order, with its path.

>>> import json
>>> before = REPEATS[0]
>>> value = json.loads('{"seats": [{"seat": 1, "seat": 2}]}', object_pairs_hook=object_pairs)
>>> REPEATS[0] - before
1
>>> found = find_repeated(value)
>>> found.field
'$.seats[0].seat'
>>> found.message.split(";")[0]
"$.seats[0]: the key 'seat' appears 2 times (values 1, 2)"
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import NamedTuple

__all__ = ["REPEATS", "Duplicated", "RepeatedKey", "find_repeated", "object_pairs"]


class Duplicated(dict[str, object]):
    """A JSON object that names ``key`` more than once (its values in order: ``repeated``)."""

    __slots__ = ("key", "repeated")
    key: str
    repeated: list[object]


REPEATS = [0]
"""Objects decoded with a repeated key so far: a decoded value need only be searched
(:func:`find_repeated`) when this grew while it was decoded."""


def object_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """Build a JSON object (an ``object_pairs_hook``); one that repeats a key is a
    :class:`Duplicated`."""
    table = dict(pairs)
    if len(table) == len(pairs):
        return table
    names = [name for name, _ in pairs]
    REPEATS[0] += 1
    duplicated = Duplicated(table)
    duplicated.key = next(name for k, name in enumerate(names) if name in names[:k])
    duplicated.repeated = [value for name, value in pairs if name == duplicated.key]
    return duplicated


class RepeatedKey(NamedTuple):
    """The first object of a decoded value that repeats a key: where, which, its values."""

    path: str
    key: str
    repeated: list[object]

    @property
    def field(self) -> str:
        """Return the repeated key's path (``$.seats[0].seat``)."""
        return f"{self.path}.{self.key}"

    @property
    def message(self) -> str:
        """Return what a reject says: the object, the key, how often, with which values."""
        values = ", ".join(
            str(v) if isinstance(v, int | Decimal) else json.dumps(v, default=str)[:40]
            for v in self.repeated
        )
        return (
            f"{self.path}: the key {self.key!r} appears {len(self.repeated)} times (values "
            f"{values}); which one is meant cannot be told, so the hand is not read"
        )


def find_repeated(value: object) -> RepeatedKey | None:
    """Return the first object (in file order) of ``value``, decoded with
    :func:`object_pairs`, that repeats a key, or ``None`` when none does."""
    stack: list[tuple[str, object]] = [("$", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, Duplicated):
            return RepeatedKey(path, node.key, node.repeated)
        if isinstance(node, dict):
            stack.extend((f"{path}.{k}", v) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((f"{path}[{k}]", v) for k, v in reversed(list(enumerate(node))))
    return None
