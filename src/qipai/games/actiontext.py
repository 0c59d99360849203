"""The text form of actions, shared by every engine: a word, then maybe an argument.

Each game keeps its own closed set of action classes and a table from word to parser
(``{"call": no_argument(Call()), "raise": with_number(Raise, "raise"), …}``); this module
reads the text with that table and supplies the parsers every game needs.

>>> table = {"pass": no_argument("PASS"), "bid": with_number(lambda n: f"BID{n}", "bid")}
>>> parse_action(" bid 2 ", table, str, "toy")
'BID2'
>>> parse_action("bid x", table, str, "toy")
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_action: bid needs a number, got 'x'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from qipai.errors import InvalidActionError

A = TypeVar("A")


def parse_action(
    text: str, parsers: Mapping[str, Callable[[str], object]], expected: type[A], game: str
) -> A:
    """The action ``text`` names, read with ``parsers``; it must be an ``expected``.

    :raises InvalidActionError: ``bad_action`` if the first word is no action of ``game``
        or the action is not an ``expected``; the parsers' own errors otherwise.
    """
    word, _, rest = text.strip().partition(" ")
    parser = parsers.get(word.lower())
    if parser is None:
        raise InvalidActionError("bad_action", f"not a {game} action: {text!r}")
    action = parser(rest.strip())
    if not isinstance(action, expected):
        raise InvalidActionError("bad_action", f"{text!r} is not a {expected.__name__}")
    return action


def no_argument(action: A) -> Callable[[str], A]:
    """A parser for a word that takes no argument and always means ``action``."""

    def parse(rest: str) -> A:
        if rest:
            raise InvalidActionError("bad_action", f"{action} takes no argument: {rest!r}")
        return action

    return parse


def integer(text: str, what: str) -> int:
    """``text`` as an int.

    :raises InvalidActionError: ``bad_action`` (``"<what> needs a number"``).
    """
    try:
        return int(text)
    except ValueError:
        raise InvalidActionError("bad_action", f"{what} needs a number, got {text!r}") from None


def with_number(make: Callable[[int], A], what: str) -> Callable[[str], A]:
    """A parser for a word followed by a number: ``make(number)``."""

    def parse(rest: str) -> A:
        return make(integer(rest, what))

    return parse
