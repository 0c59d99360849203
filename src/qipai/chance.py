"""The hand's source of chance: a documented, versioned stream every engine draws from.

Two versions, named in every hand record (``chance``, ``docs/records.md``):

- ``v2`` (:class:`DealStream`), the default: a counter-mode stream on SHA-256, simple
  enough to re-implement anywhere (the browser's ``js/deal.js`` is its twin).  Block ``i``
  (``i = 0, 1, 2, …``) is ``SHA-256("qipai-deal-v2:" + seed + ":" + i)``, the seed and ``i``
  in decimal ASCII; each block gives eight 32-bit words, big-endian, in order.
  :meth:`~DealStream.randbelow` takes words until one is below the largest multiple of
  ``n`` not above ``2**32`` (no modulo bias) and returns it modulo ``n``;
  :meth:`~DealStream.shuffle` is Fisher-Yates from the last position down: for
  ``i = len - 1 … 1``, ``j = randbelow(i + 1)``, swap positions ``i`` and ``j``.
- ``v1`` (:class:`LegacyChance`): Python's ``random.Random(seed)`` (``randrange`` and
  ``shuffle``), what the hands of ``qipai-hand/1`` records were dealt with.  Python does not
  promise it stays the same across versions; it is kept to verify old records.

>>> stream = DealStream(42)
>>> [stream.randbelow(10) for _ in range(8)]
[6, 7, 4, 9, 5, 1, 4, 2]
>>> cards = list("ABCDE")
>>> DealStream(42).shuffle(cards)
>>> "".join(cards)
'ACDEB'
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import MutableSequence
from typing import Protocol, TypeVar

from qipai.errors import InvalidActionError

V1 = "v1"
"""``random.Random(seed)``: the chance of ``qipai-hand/1`` records."""
V2 = "v2"
"""The SHA-256 counter stream (:class:`DealStream`), the default."""
VERSIONS = (V1, V2)
"""Every chance version, oldest first."""
PREFIX = "qipai-deal-v2:"
"""What precedes the seed's decimal digits in every v2 block's hashed bytes."""
WORD_SPACE = 1 << 32
"""A v2 word is below this (32 bits)."""
_WORDS = struct.Struct(">8I")

T = TypeVar("T")
"""Whatever a deck holds."""


class Chance(Protocol):
    """What an engine draws from: a number below ``n``, a shuffle, an independent copy."""

    version: str
    """:data:`V1` or :data:`V2`."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        ...

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place."""
        ...

    def clone(self) -> Chance:
        """A copy that will draw what this one would draw next."""
        ...


class DealStream:
    """Version ``v2``: the SHA-256 counter-mode stream of one seed (module docstring)."""

    __slots__ = ("_block", "_next", "_prefix", "_words")

    version = V2

    def __init__(self, seed: int, *, prefix: str = PREFIX) -> None:
        """The stream of ``seed``; another ``prefix`` than the deal's (:data:`PREFIX`) gives
        another stream of the same seed, for a draw that must not move the deal's."""
        self._prefix = f"{prefix}{seed}:".encode("ascii")
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._next = 0

    def word(self) -> int:
        """The stream's next 32-bit word."""
        if self._next == len(self._words):
            digest = hashlib.sha256(self._prefix + str(self._block).encode("ascii")).digest()
            self._words = _WORDS.unpack(digest)
            self._block += 1
            self._next = 0
        word = self._words[self._next]
        self._next += 1
        return word

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling (1 <= n <= 2**32).

        :raises ValueError: for ``n`` out of range.
        """
        if not 1 <= n <= WORD_SPACE:
            raise ValueError(f"randbelow needs 1 <= n <= 2**32, not {n}")
        limit = WORD_SPACE - WORD_SPACE % n
        while True:
            word = self.word()
            if word < limit:
                return word % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, from the last position down to the second."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def __eq__(self, other: object) -> bool:
        """Same seed, same point of the stream: both will draw the same."""
        if not isinstance(other, DealStream):
            return NotImplemented
        return (self._prefix, self._block, self._next) == (other._prefix, other._block, other._next)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def clone(self) -> DealStream:
        """A copy at the same point of the stream."""
        other = DealStream.__new__(DealStream)
        other._prefix, other._block = self._prefix, self._block
        other._words, other._next = self._words, self._next
        return other


class LegacyChance:
    """Version ``v1``: ``random.Random(seed)``, for replaying ``qipai-hand/1`` records."""

    __slots__ = ("rng",)

    version = V1

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        """The generator itself (Showhand's v1 shuffle draws ``rng.random()`` keys)."""

    def randbelow(self, n: int) -> int:
        """``rng.randrange(n)``."""
        return self.rng.randrange(n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """``rng.shuffle(items)``."""
        self.rng.shuffle(items)

    def __eq__(self, other: object) -> bool:
        """Same generator state: both will draw the same."""
        if not isinstance(other, LegacyChance):
            return NotImplemented
        return bool(self.rng.getstate() == other.rng.getstate())

    __hash__ = None  # type: ignore[assignment]  # mutable

    def clone(self) -> LegacyChance:
        """A copy with the generator's state."""
        other = LegacyChance.__new__(LegacyChance)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other


def chance_for(seed: int, version: str = V2) -> DealStream | LegacyChance:
    """The source of chance of a hand dealt from ``seed`` under chance ``version``.

    :raises InvalidActionError: ``bad_chance`` for an unknown version.
    """
    if version == V2:
        return DealStream(seed)
    if version == V1:
        return LegacyChance(seed)
    raise InvalidActionError("bad_chance", f"chance is one of {', '.join(VERSIONS)}: {version!r}")
