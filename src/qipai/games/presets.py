"""A game's rule set by name: the same look-up for every game.

>>> lookup({"yifa": 1}, "yifa", "toy")
1
>>> lookup({"yifa": 1}, "nope", "toy")
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: unknown_rules: unknown toy rule set 'nope'; known: yifa
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from qipai.errors import InvalidActionError

R = TypeVar("R")


def lookup(presets: Mapping[str, R], rules: str | R, game: str) -> R:
    """The preset named ``rules``, or ``rules`` itself if it is already a rule set.

    :raises InvalidActionError: ``unknown_rules`` for a name ``presets`` lacks.
    """
    if not isinstance(rules, str):
        return rules
    try:
        return presets[rules]
    except KeyError:
        known = ", ".join(presets)
        raise InvalidActionError(
            "unknown_rules", f"unknown {game} rule set {rules!r}; known: {known}"
        ) from None
