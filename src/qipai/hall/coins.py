"""Coins per hand: a finished hand's returns, settled into coins by the room's preset.

Pure integer arithmetic on top of :mod:`qipai.games.doudizhu.settlement`.  :func:`settle`
takes the game's ``returns()`` (Dou Dizhu points; Zha Jin Hua and Showhand chips, which
are coins already: their stakes are the room's numbers) and each seat's balance before the
hand, and gives a :class:`Settlement`: what each balance changes by (``net``), and what
the house takes from each seat as rake and fees.  The coins of a hand always add up:
``sum(net) + sum(rake) + sum(fees) == 0``, and no balance goes below zero.

========  =============================================================================
room      coins
========  =============================================================================
yifa      points × N, within the balances; rake ``room.rake_percent`` (5) of each winner
caishen   points × N (the 金币场 room base), within the balances; no rake
huanle    :func:`~qipai.games.doudizhu.settlement.settle_huanle`: losers down to 0,
          winners capped by their own balance, fee A (``room.fee``) each
zhengtu   points only (积分, the leaderboard's): every coin amount is 0
jj        points × N with 积分最小化, the balances as the table scores
ZJH       the chip returns; the engine raked the winner (``room.rake_percent`` of his
          gain, rounded down) and the rake is reported here
Showhand  the chip returns, rake ``room.rake_percent`` (0 by default) of the winner's gain
========  =============================================================================

"Within the balances" (yifa, caishen) is the hall's guard for its ledger, where no
balance may go negative: the amounts are held as huanle's are (a loser pays at most what
he holds, a winner gains at most what he brought and only what the losers paid).  In a
yifa room it never binds while every seat holds the room's minimum N × 96, the largest
yifa loss; caishen has no cap on its multiplier, so there it may.  Rakes are rounded down
per winner, in the players' favour.

Escapes: the Dou Dizhu engine prices them (``State.escape``; ``returns()`` then gives
:func:`~qipai.games.doudizhu.scoring.escape_points`), and the points settle like any
others: caishen's penalty × N, huanle's with the escaper as the one seat facing the
others, zhengtu's as points only.  yifa and jj have no escape model: the table plays the
escaper's seat in 托管 to the end (jj's 托管 liability is then his penalty).  In Zha Jin
Hua and Showhand an escaper folds: he loses what he has bet.

>>> from qipai.hall.rooms import load_rooms
>>> [yifa] = load_rooms(
...     '[[room]]\\nid="y"\\nname="y"\\ngame="doudizhu"\\nrules="yifa"\\ncoefficient=10'
... )
>>> s = settle(yifa, (12, -6, -6), (10_000, 10_000, 10_000))
>>> s.net, s.rake, s.stakes
((114, -60, -60), (6, 0, 0), (120, -60, -60))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from qipai.errors import InvalidActionError
from qipai.games.doudizhu import settlement as ddz
from qipai.hall.rooms import Room


@dataclass(frozen=True, slots=True)
class Settlement:
    """One hand in coins, per seat.  ``sum(net) + sum(rake) + sum(fees) == 0``."""

    net: tuple[int, ...]
    """What each seat's balance changes by: its stake less its rake and fees."""
    rake: tuple[int, ...]
    """Coins the house takes from each seat's gain (≥ 0; winners only)."""
    fees: tuple[int, ...]
    """Fixed fees the house takes from each seat (≥ 0; huanle)."""
    points: tuple[int, ...]
    """The game's ``returns()``: Dou Dizhu points (before the room's coefficient), or
    the chips of Zha Jin Hua (after the engine's rake) and Showhand."""

    @property
    def stakes(self) -> tuple[int, ...]:
        """Won (+) or lost (−) against the other seats, before rake and fees."""
        return tuple(n + r + f for n, r, f in zip(self.net, self.rake, self.fees, strict=True))

    @property
    def house(self) -> int:
        """What the house keeps: every rake and fee."""
        return sum(self.rake) + sum(self.fees)

    @classmethod
    def nothing(cls, seats: int) -> Settlement:
        """A hand that moves no coin and no point (a voided hand)."""
        zeros = (0,) * seats
        return cls(zeros, zeros, zeros, zeros)


def _bad(message: str) -> InvalidActionError:
    return InvalidActionError("bad_settlement", message)


def _rate(room: Room) -> Fraction:
    return Fraction(room.rake_percent, 100)


def _raked(stakes: Sequence[int], rate: Fraction, points: Sequence[int]) -> Settlement:
    rake = tuple(ddz.rake_on(s, rate) for s in stakes)
    net = tuple(s - r for s, r in zip(stakes, rake, strict=True))
    return Settlement(net, rake, (0,) * len(stakes), tuple(points))


def _limited(room: Room, points: Sequence[int], balances: Sequence[int]) -> tuple[int, ...]:
    """Points × N, held within the balances (:func:`~.settlement.limit_transfers`)."""
    return ddz.limit_transfers(ddz.to_coins(points, room.coefficient), balances)


def _yifa(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    return _raked(_limited(room, points, balances), _rate(room), points)


def _caishen(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    return _raked(_limited(room, points, balances), Fraction(0), points)


def _huanle(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    coins = ddz.settle_huanle(points, balances, coefficient=room.coefficient, fee=room.fee)
    return Settlement(coins.net, coins.rake, coins.fees, tuple(points))


def _zhengtu(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    del room, balances
    zeros = (0,) * len(points)
    return Settlement(zeros, zeros, zeros, tuple(points))


def _jj(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    stakes = ddz.minimise_scores(ddz.to_coins(points, room.coefficient), balances)
    return _raked(stakes, Fraction(0), points)


def _zhajinhua(room: Room, chips: Sequence[int], balances: Sequence[int]) -> Settlement:
    """The engine's returns are after its rake: give the rake back to find the stakes."""
    del balances
    taken = -sum(chips)
    winners = [seat for seat, c in enumerate(chips) if c > 0]
    if len(winners) > 1 or taken < 0 or (taken and not winners):
        raise _bad(f"a Zha Jin Hua hand has one winner and a rake >= 0: {tuple(chips)}")
    stakes = list(chips)
    if winners:
        stakes[winners[0]] += taken
    settled = _raked(stakes, _rate(room), chips)
    if settled.house != taken:
        raise _bad(f"the engine raked {taken}, the room's {room.rake_percent}% is {settled.house}")
    return settled


def _showhand(room: Room, chips: Sequence[int], balances: Sequence[int]) -> Settlement:
    del balances
    if sum(chips) != 0:
        raise _bad(f"Showhand chips sum to zero: {tuple(chips)}")
    return _raked(chips, _rate(room), chips)


_Rule = Callable[[Room, Sequence[int], Sequence[int]], Settlement]

_RULES: Mapping[tuple[str, str], _Rule] = {
    ("doudizhu", "yifa"): _yifa,
    ("doudizhu", "caishen"): _caishen,
    ("doudizhu", "huanle"): _huanle,
    ("doudizhu", "zhengtu"): _zhengtu,
    ("doudizhu", "jj"): _jj,
}
_GAME_RULES: Mapping[str, _Rule] = {"zhajinhua": _zhajinhua, "showhand": _showhand}


def settle(room: Room, returns: Sequence[int], balances: Sequence[int]) -> Settlement:
    """Settle one finished hand of ``room`` (the table in the module docstring).

    :param returns: the game's ``returns()`` for the hand, one per seat.
    :param balances: each seat's coins before the hand (the limits of huanle and jj).
    :raises InvalidActionError: ``bad_settlement`` for lengths that differ from the
        room's seats, a negative balance, returns that no hand gives, or a result that
        would take a balance below zero; ``bad_points`` for points that do not sum to zero.
    """
    if not len(returns) == len(balances) == room.seats:
        raise _bad(f"{room.seats} returns and balances expected")
    if any(b < 0 for b in balances):
        raise _bad(f"balances may not be negative: {tuple(balances)}")
    rule = _GAME_RULES.get(room.game) or _RULES.get((room.game, room.rules))
    if rule is None:
        raise _bad(f"no settlement for {room.game}/{room.rules}")
    settled = rule(room, tuple(returns), tuple(balances))
    if any(b + n < 0 for b, n in zip(balances, settled.net, strict=True)):
        raise _bad(f"{settled.net} would take a balance of {tuple(balances)} below zero")
    return settled
