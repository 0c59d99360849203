"""The wire forms of the games: views, events and actions as plain JSON-able values.

Pure and generic: any frozen dataclass of a game (a view, an event) becomes a ``dict`` of
its fields, recursively, with these atoms:

- a :class:`~qipai.cards.Card` is its notation (``"3s"``, ``"BJ"``, ``"W"``);
- a dataclass with a ``wire_text()`` method is what it returns (a game's value whose
  text needs more than its ``__str__``: a move with its reading when its cards have
  several, exactly what its action text holds);
- any other dataclass with its own ``__str__`` (every game's actions) is that text;
- an enum is its name in lower case (``Phase.BID`` → ``"bid"``);
- tuples and lists are lists; ``None``, booleans, ints and strings stay as they are.

An event also says which class it is: ``{"kind": "Played", "seat": 1, ...}``.
Actions travel as text (:func:`action_text`) and come back with :func:`parse_action` (the
game's :meth:`~qipai.registry.GameType.parse`).  Importing this module loads no game.

>>> from qipai.cards import Card, Suit
>>> to_json((Card("3", Suit.SPADES), Card("R"), None, [1, True]))
['3s', 'RJ', None, [1, True]]
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Hashable
from functools import cache, lru_cache
from typing import Protocol

from qipai.cards import Card
from qipai.errors import InvalidActionError
from qipai.jsontypes import Json
from qipai.registry import game_type

MAX_ACTION_TEXT = 200
"""The longest action text :func:`parse_action` reads (longer input is ``bad_action``)."""
TEXT_CACHE = 1 << 16
"""Action and move texts remembered (a play's text may need its readings: the same
plays recur in every turn frame)."""


def parse_action(game: str, text: object) -> object:
    """The ``game``'s action written ``text`` (the text form of ``str(action)``).

    Every malformed input — not a string, longer than :data:`MAX_ACTION_TEXT`, no action
    of the game, bad cards or numbers — is ``bad_action`` (the message says what is wrong).

    :raises InvalidActionError: ``bad_action``, or ``unknown_game``.
    """
    kind = game_type(game)
    if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
        raise InvalidActionError("bad_action", f"an action is a short text, not {text!r:.60}")
    try:
        return kind.parse(text)
    except InvalidActionError as error:
        raise InvalidActionError("bad_action", error.message) from None


@lru_cache(maxsize=TEXT_CACHE)
def _text(action: Hashable) -> str:
    return str(action)


def action_text(action: object) -> str:
    """The text form of any game's action (``"play 33344"``, ``"raise 5"``, ``"swap"``).

    Actions are frozen values: their texts are remembered (:data:`TEXT_CACHE`).
    """
    return _text(action)


class _WireText(Protocol):
    """A value whose wire form is its ``wire_text()`` (a move with its reading)."""

    def wire_text(self) -> str:
        """The value's text on the wire."""
        ...


@lru_cache(maxsize=TEXT_CACHE)
def _wire_text(value: _WireText) -> str:
    """``value.wire_text()``, remembered (the same moves recur in every turn frame)."""
    return str(value.wire_text())


def _is_record(value: object) -> bool:
    """A dataclass instance (a view, an event, an action, a move)."""
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


@cache
def _fields(kind: type) -> tuple[dataclasses.Field[object], ...]:
    """The fields of a dataclass (looked up once per class)."""
    return dataclasses.fields(kind)


def _has_text_form(kind: type) -> bool:
    own: object = kind.__str__
    return own is not object.__str__


def to_json(value: object) -> Json:
    """``value`` as JSON-able data (module docstring); refuses what it does not know.

    :raises InvalidActionError: ``bad_value`` for a value of another type (a set, a float).
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name.lower()
    if isinstance(value, (tuple, list)):
        return [to_json(item) for item in value]
    kind: type = type(value)
    if _is_record(value):
        if hasattr(kind, "wire_text"):
            return _wire_text(value)
        if _has_text_form(kind):
            return action_text(value)
        return {f.name: to_json(getattr(value, f.name)) for f in _fields(kind)}
    raise InvalidActionError("bad_value", f"no JSON form for a {kind.__name__}")


def view_json(game: str, view: object) -> dict[str, Json]:
    """A seat's view of ``game`` as a JSON object (every field of the view).

    :raises InvalidActionError: ``unknown_game``; ``bad_value`` if ``view`` is no view.
    """
    game_type(game)
    data = to_json(view)
    if not isinstance(data, dict):
        raise InvalidActionError("bad_value", f"not a view: {type(view).__name__}")
    return data


def spectator_view_json(game: str, state: object) -> dict[str, Json]:
    """What a spectator may see of ``game``'s ``state`` as a JSON object: the game's view
    for :data:`~qipai.registry.SPECTATOR` (:meth:`~qipai.registry.GameType.spectator_view`),
    whose ``seat`` is ``-1``, ``legal_actions`` empty, and no card a player holds unseen.

    :raises InvalidActionError: ``unknown_game``.
    """
    return view_json(game, game_type(game).spectator_view(state))


def reveal_json(game: str, state: object) -> dict[str, Json]:
    """Every seat's cards of ``game``'s ``state`` as JSON
    (:meth:`~qipai.registry.GameType.reveal`): for a finished hand or a replay only.

    :raises InvalidActionError: ``unknown_game``.
    """
    return {name: to_json(value) for name, value in game_type(game).reveal(state).items()}


def event_json(event: object) -> dict[str, Json]:
    """An event as a JSON object: ``{"kind": class name, **fields}``.

    :raises InvalidActionError: ``bad_value`` if ``event`` is no event.
    """
    data = to_json(event)
    if not isinstance(data, dict):
        raise InvalidActionError("bad_value", f"not an event: {type(event).__name__}")
    return {"kind": type(event).__name__, **data}
