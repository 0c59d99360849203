"""Zha Jin Hua actions: a closed set of frozen values, each with ``parse`` and ``str``.

>>> Action.parse("raise 5")
Raise(to=5)
>>> [str(a) for a in (Look(), Call(), Raise(5), Fold(), Compare(2), AutoCall(True))]
['look', 'call', 'raise 5', 'fold', 'compare 2', 'autocall on']
>>> Action.parse("compare x")
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_action: compare needs a number, got 'x'

Who acts is not part of an action: :meth:`.State.apply` takes the seat.  Whether an
action is allowed now is the state machine's business (:mod:`.state`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qipai.errors import InvalidActionError
from qipai.games.actiontext import no_argument, parse_action, with_number


class Action:
    """Base of every Zha Jin Hua action (never instantiated itself)."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text form (``"look"``, ``"call"``, ``"raise 5"``, ``"compare 2"``...).

        :raises InvalidActionError: ``bad_action`` if the text is no action (or not a ``cls``).
        """
        return parse_action(text, _PARSERS, cls, "Zha Jin Hua")


@dataclass(frozen=True, slots=True)
class Look(Action):
    """看牌: look at one's cards (free; the turn goes on)."""

    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """跟: pay the stake (blind 1×, seen 2×)."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """加: raise the stake 单注 to ``to`` and pay it (blind 1×, seen 2×)."""

    to: int
    """The new stake (one of the rule set's levels, at most the top bet)."""

    def __post_init__(self) -> None:
        if isinstance(self.to, bool) or not isinstance(self.to, int) or self.to < 1:
            raise InvalidActionError("bad_action", f"raise to a positive stake, not {self.to!r}")

    def __str__(self) -> str:
        return f"raise {self.to}"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    """弃: give up the hand."""

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class Compare(Action):
    """比牌: pay double a call and compare hands with ``target``; the loser is out."""

    target: int
    """The opponent's seat."""

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 0:
            raise InvalidActionError("bad_action", f"compare with a seat, not {self.target!r}")

    def __str__(self) -> str:
        return f"compare {self.target}"


@dataclass(frozen=True, slots=True)
class AutoCall(Action):
    """自动跟注 on, or 取消跟注 off (any time, not only on one's turn)."""

    on: bool
    """Whether the system now calls for the seat."""

    def __str__(self) -> str:
        return "autocall on" if self.on else "autocall off"


ACTION_TYPES: tuple[type[Action], ...] = (Look, Call, Raise, Fold, Compare, AutoCall)
"""The closed set of Zha Jin Hua actions."""


def _parse_auto(rest: str) -> Action:
    if rest not in ("on", "off"):
        raise InvalidActionError("bad_action", f"autocall on or off, not {rest!r}")
    return AutoCall(rest == "on")


_PARSERS: dict[str, Callable[[str], Action]] = {
    "look": no_argument(Look()),
    "call": no_argument(Call()),
    "fold": no_argument(Fold()),
    "raise": with_number(Raise, "raise"),
    "compare": with_number(Compare, "compare"),
    "autocall": _parse_auto,
}
