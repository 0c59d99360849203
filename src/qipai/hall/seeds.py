"""A hand's seed: its commitment, the players' entropy, and the seed it is dealt from.

The hall draws a hand's house seed from :mod:`secrets` at the edge (``SEED_BITS`` bits)
and publishes :func:`commitment` of it before the hand; each player may send entropy
(:func:`entropy_value`), mixed with the house seed into the seed the hand is dealt from
(:func:`deal_seed`).  The formats are in ``docs/records.md``.

>>> commitment(42)
'c9d22b644ef92d561cdb5f26bb3ded1b569123bee1a0bf7b9fc9151d52fdb254'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from qipai.errors import InvalidActionError

COMMITMENT_PREFIX = "qipai-seed-v1:"
"""What precedes the seed's decimal digits in the committed bytes."""
SEED_BITS = 128
"""How many random bits the hall draws for a seed (``secrets.randbits(SEED_BITS)``)."""
MIX_PREFIX = "qipai-mix-v1:"
"""What precedes the house seed's decimal digits in the bytes hashed into the deal seed."""
ENTROPY_BYTES = (16, 64)
"""The fewest and the most bytes of one player's contribution (sent as hex digits)."""
Entropy = tuple[str | None, ...]
"""Each seat's contribution, in seat order: lowercase hex digits, or ``None`` (a bot, an
absent player, a contribution that did not come in time)."""


def commitment(seed: int) -> str:
    """SHA-256, in lowercase hex, of ``"qipai-seed-v1:<seed in decimal>"`` (ASCII, no newline).

    Check it by hand: ``printf 'qipai-seed-v1:%s' SEED | sha256sum``.  The seed's own
    ``SEED_BITS`` random bits are what make the commitment impossible to invert; a small
    seed (tests) could be found by trying them all.

    >>> commitment(0) == commitment(00) != commitment(1)
    True

    :raises InvalidActionError: ``bad_seed`` for a negative or non-integer seed.
    """
    check_seed(seed)
    return hashlib.sha256(f"{COMMITMENT_PREFIX}{seed}".encode("ascii")).hexdigest()


def check_seed(seed: object) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidActionError("bad_seed", f"a seed is an integer >= 0, not {seed!r}")


# --- the players' entropy ---------------------------------------------------------------

_HEX = frozenset("0123456789abcdef")


def entropy_value(value: object) -> str:
    """One player's contribution as recorded: ``value``, hex digits of
    :data:`ENTROPY_BYTES` bytes (either case), in lowercase.

    >>> entropy_value("00112233445566778899AABBCCDDEEFF")
    '00112233445566778899aabbccddeeff'

    :raises InvalidActionError: ``bad_entropy`` for anything else (not a string, an odd
        number of digits, too few or too many bytes, a character that is not a hex digit).
    """
    fewest, most = ENTROPY_BYTES
    if not isinstance(value, str):
        raise InvalidActionError("bad_entropy", "entropy is a string of hex digits")
    digits = value.lower()
    if not 2 * fewest <= len(digits) <= 2 * most or len(digits) % 2:
        raise InvalidActionError(
            "bad_entropy", f"entropy is {fewest} to {most} bytes: an even 32-128 hex digits"
        )
    if not set(digits) <= _HEX:
        raise InvalidActionError("bad_entropy", "entropy holds only hex digits 0-9, a-f")
    return digits


def entropy_problem(entropy: Sequence[object], seats: int) -> str | None:
    """Why ``entropy`` is not a record's contributions for ``seats`` seats, or ``None``."""
    if len(entropy) != seats:
        return f"entropy has {len(entropy)} entries for {seats} seats"
    for seat, value in enumerate(entropy):
        if value is None:
            continue
        try:
            recorded = entropy_value(value)
        except InvalidActionError as error:
            return f"seat {seat}: {error.message}"
        if recorded != value:
            return f"seat {seat}: entropy is recorded in lowercase"
    return None


def deal_seed(seed: int, entropy: Sequence[str | None]) -> int:
    """The seed a hand is dealt from: the house ``seed`` mixed with each seat's ``entropy``.

    SHA-256 of the ASCII bytes ``qipai-mix-v1:`` + the house seed in decimal, then for
    each seat in order ``:`` + its contribution (lowercase hex, nothing for ``None``); the
    64 hex digits of the digest read as one number (``docs/records.md``, "The mix").

    :raises InvalidActionError: ``bad_seed``; ``bad_entropy`` for a contribution that is
        not lowercase hex of :data:`ENTROPY_BYTES` bytes.
    """
    check_seed(seed)
    for value in entropy:
        if value is not None and entropy_value(value) != value:
            raise InvalidActionError("bad_entropy", "entropy is recorded in lowercase")
    mixed = MIX_PREFIX + str(seed) + "".join(f":{value or ''}" for value in entropy)
    return int(hashlib.sha256(mixed.encode("ascii")).hexdigest(), 16)
