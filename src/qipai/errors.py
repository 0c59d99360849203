"""Domain errors shared by every game engine.

Errors are split by cause, as in python-chess: :class:`InvalidActionError` for input that
is malformed (cannot be parsed, names a card that does not exist), and
:class:`IllegalActionError` for a well-formed action that the rules forbid now (not your
turn, does not beat the table, a bid too low).  Both carry a stable machine-readable
``code`` that the server forwards to clients unchanged, and both subclass
:class:`ValueError`.  An engine that raises one of them has changed nothing.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base class of every engine error.

    :param code: a stable identifier such as ``"not_your_turn"``; clients match on it.
    :param message: a human explanation; it never reveals hidden cards.
    """

    code: str
    """Stable machine-readable error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class InvalidActionError(GameError):
    """The input is malformed: it cannot be parsed or names impossible cards."""


class IllegalActionError(GameError):
    """The input is well formed but the rules do not allow it in this state."""
