"""Showhand actions: a closed set of frozen values, each with ``parse`` and ``str``.

Every input to a hand is one of the classes in :data:`ACTION_TYPES`.  Text forms round-trip
through :meth:`Action.parse`:

>>> Action.parse("bet 5")
Bet(amount=5)
>>> str(Action.parse("raise 8"))
'raise 8'
>>> [str(a) for a in (Check(), Call(), Fold(), ShowHand(), Open(), Swap(), Keep())]
['check', 'call', 'fold', 'showhand', 'open', 'swap', 'keep']
>>> Action.parse("bet x")
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_action: bet needs a number, got 'x'

Amounts are *raise-to* amounts within the betting round: ``bet 5`` makes the round's bet
5 chips, ``raise 8`` raises it to 8 (the acting player then has 8 chips in this round).
Who acts is not part of an action: :meth:`.State.apply` takes the seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qipai.errors import InvalidActionError
from qipai.games.actiontext import no_argument, parse_action, with_number


class Action:
    """Base of every Showhand action (never instantiated itself)."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text form of an action (``"bet 5"``, ``"call"``, ``"swap"`` ...).

        Called on a subclass, the text must name that subclass.

        :raises InvalidActionError: ``bad_action`` if the text is no action (or not one of
            ``cls``), or an amount is not a positive whole number.
        """
        return parse_action(text, _PARSERS, cls, "Showhand")


def _checkwith_number(amount: object) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise InvalidActionError("bad_action", f"an amount is a whole number >= 1: {amount!r}")


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """加 with nothing to call: make the round's bet ``amount`` chips."""

    amount: int
    """The round's bet after this action (raise-to), in chips."""

    def __post_init__(self) -> None:
        _checkwith_number(self.amount)

    def __str__(self) -> str:
        return f"bet {self.amount}"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """加 over a bet: raise the round's bet to ``amount`` chips."""

    amount: int
    """The round's bet after this action (raise-to), in chips."""

    def __post_init__(self) -> None:
        _checkwith_number(self.amount)

    def __str__(self) -> str:
        return f"raise {self.amount}"


@dataclass(frozen=True, slots=True)
class Check(Action):
    """过: stay in without betting (only when there is nothing to call)."""

    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """跟: put in as much as the round's bet."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    """弃: give up the hand and the chips already bet."""

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class ShowHand(Action):
    """梭: bet up to the most allowed in the hand (the smallest stack, at most the cap)."""

    def __str__(self) -> str:
        return "showhand"


@dataclass(frozen=True, slots=True)
class Open(Action):
    """开: the player showing the best up cards goes straight to the showdown."""

    def __str__(self) -> str:
        return "open"


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """换牌: the new face-down card becomes the hole card; the old hole card is turned up."""

    def __str__(self) -> str:
        return "swap"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """不换: keep the hole card; the new face-down card is turned up."""

    def __str__(self) -> str:
        return "keep"


ACTION_TYPES: tuple[type[Action], ...] = (Bet, Raise, Check, Call, Fold, ShowHand, Open, Swap, Keep)
"""The closed set of Showhand actions."""
BETTING_TYPES: tuple[type[Action], ...] = (Bet, Raise, Check, Call, Fold, ShowHand, Open)
"""Actions of a betting round."""
SWAP_TYPES: tuple[type[Action], ...] = (Swap, Keep)
"""Actions of the 换牌 decision."""


_PARSERS: dict[str, Callable[[str], Action]] = {
    "bet": with_number(Bet, "bet"),
    "raise": with_number(Raise, "raise"),
    **{
        str(a): no_argument(a)
        for a in (Check(), Call(), Fold(), ShowHand(), Open(), Swap(), Keep())
    },
}
