"""A game's rule set by name, and a custom one derived from it: the same for every game.

>>> lookup({"yifa": 1}, "yifa", "toy")
1
>>> lookup({"yifa": 1}, "nope", "toy")
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: unknown_rules: unknown toy rule set 'nope'; known: yifa
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

from qipai.errors import InvalidActionError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

R = TypeVar("R")
D = TypeVar("D", bound="DataclassInstance")


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


def derive_rules(rules: D, name: str, changes: Mapping[str, object]) -> D:
    """A custom rule set: ``rules`` (a frozen dataclass with a ``name``) with ``changes``
    applied and the new ``name``; its own checks run as it is made.

    :raises InvalidActionError: ``bad_rules`` if a change names no field.
    """
    try:
        return dataclasses.replace(rules, name=name, **changes)
    except TypeError as error:
        raise InvalidActionError("bad_rules", str(error)) from None
