"""Coins per hand: the only place where a hand's points or chips turn into coins.

Pure integer arithmetic.  A game's ``returns()`` are points, or chips that are coins
already (their stakes are the room's numbers), and no engine rakes: :func:`settle` takes
the returns and each seat's balance before the hand, and gives a :class:`Settlement`:
what each balance changes by (``net``), and what the house takes from each seat as rake
and fees.  The coins of a hand always add up: ``sum(net) + sum(rake) + sum(fees) == 0``,
and no balance goes below zero.

How a room's hands settle is data, not the game's name: its preset's :class:`Payout`
(``room.payout``, from the game registry, :meth:`~qipai.registry.GameType.payout`), with
the room's numbers as its parameters: the coefficient N, ``rake_percent`` and the fee A.
Which preset uses which payout, and why, is said by each game's registry module
(``qipai/registry/<game>.py``) and ``docs/hall.md``.

===================  ===================================================================
payout               coins
===================  ===================================================================
``WITHIN_BALANCES``  points × N, held within the balances (:func:`limit_transfers`); the
                     room's rake of each winner's gain
``LOSERS_TO_ZERO``   :func:`settle_losers_to_zero`: losers down to 0, winners capped by
                     their own balance, fee A (``room.fee``) each
``POINTS_ONLY``      points only (积分, the leaderboard's): every coin amount is 0
``MINIMISED``        points × N with 积分最小化 (:func:`minimise_scores`), the balances as
                     the table scores
``CHIPS``            the chip returns, zero-sum (the winner takes the whole pot); the
                     room's rake of each winner's gain
===================  ===================================================================

**Rounding and splitting choices**

- Rake: ``floor(gain × rate)`` per winner, in the players' favour.  Two winners are raked
  separately, so the house may take one coin less than ``floor(total × rate)``.
- Limits (balances, table scores): a seat never moves by more than its limit in one hand
  — a loser pays at most what he holds (stops at 0), a winner gains at most what he
  brought into the hand — and what the winners receive is exactly what the losers pay
  (nothing is burnt).  When one side of a hand is a single seat (a landlord, an escaper)
  it is the *centre*, and each other seat deals only with it: (1) each other seat's
  amount is ``min(due, its own limit)``; (2) the centre's total is ``min(sum of those,
  the centre's limit)``; (3) when (2) binds, the total is shared in proportion to the
  amounts of (1), rounded down, and the coins left by rounding go one each to the largest
  fractional parts, ties to the first seat in play order after the centre.  No seat ever
  gets more than its amount of (1).
- "Within the balances" is the hall's guard for its ledger, where no balance may go
  negative: the amounts are held as ``LOSERS_TO_ZERO`` holds them.  It never binds while
  every seat holds more than the largest loss a preset allows.
- 积分最小化 (:func:`minimise_scores`) takes the table scores as they stood when the hand
  ended: each *payment* (between the single seat and each other seat) is the least of the
  winner's table score, the loser's table score and the amount due.  So a landlord who
  holds 30 and beats two farmers is paid 30 by each (60 in all); a landlord who loses pays
  his two payments from what he holds: together at most his table score, shared as in (3)
  when they would exceed it.  Where a room with this payout rakes, the house's part is
  taken from the winner's gain: the loser's payment includes it ("包括平台费用").
- The fee: ``min(A, balance after the hand)`` per player, so no balance goes below 0.

Escapes are priced by the engines (their ``returns()`` then give the penalty), and settle
like any other points.

A match run's coins (entry fees held, refunds, prizes and the house's guarantee) are built
beside this module, by :mod:`qipai.hall.match.coins`.

>>> s = settle_raked((12, -6, -6), coefficient=10, rake=Fraction(5, 100))
>>> s.net, s.rake, s.stakes
((114, -60, -60), (6, 0, 0), (120, -60, -60))
>>> s = settle_losers_to_zero((12, -6, -6), (10**6,) * 3, coefficient=1000, fee=50)
>>> s.stakes, s.fees, s.net
((12000, -6000, -6000), (50, 50, 50), (11950, -6050, -6050))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from qipai.errors import InvalidActionError
from qipai.hall.rooms import Room
from qipai.registry import Payout

__all__ = [
    "Payout",
    "Settlement",
    "limit_transfers",
    "minimise_scores",
    "rake_on",
    "settle",
    "settle_losers_to_zero",
    "settle_raked",
    "share_in_proportion",
    "to_coins",
]


@dataclass(frozen=True, slots=True)
class Settlement:
    """One hand in coins, per seat.  ``sum(net) + sum(rake) + sum(fees) == 0``."""

    net: tuple[int, ...]
    """What each seat's balance changes by: its stake less its rake and fees."""
    rake: tuple[int, ...]
    """Coins the house takes from each seat's gain (≥ 0; winners only)."""
    fees: tuple[int, ...]
    """Fixed fees the house takes from each seat (≥ 0)."""
    points: tuple[int, ...]
    """The game's ``returns()``: points (before the room's coefficient), or chips (before
    the rake)."""

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

    @classmethod
    def of(
        cls,
        stakes: Sequence[int],
        points: Sequence[int],
        *,
        rake: Sequence[int] | None = None,
        fees: Sequence[int] | None = None,
    ) -> Settlement:
        """The settlement of ``stakes`` less ``rake`` and ``fees`` (none by default).

        >>> Settlement.of((120, -60, -60), (12, -6, -6), rake=(6, 0, 0)).net
        (114, -60, -60)
        """
        zeros = (0,) * len(stakes)
        rake = zeros if rake is None else tuple(rake)
        fees = zeros if fees is None else tuple(fees)
        net = tuple(s - r - f for s, r, f in zip(stakes, rake, fees, strict=True))
        return cls(net, tuple(rake), tuple(fees), tuple(points))


def _bad(code: str, message: str) -> InvalidActionError:
    return InvalidActionError(code, message)


def _non_negative(value: int | Fraction, what: str) -> None:
    if value < 0:
        raise _bad("bad_settlement", f"{what} must not be negative, not {value}")


# --- the arithmetic ---------------------------------------------------------------------


def to_coins(points: Sequence[int], coefficient: int) -> tuple[int, ...]:
    """Points times the room coefficient (or room base).

    :raises InvalidActionError: ``bad_settlement`` for a negative coefficient.
    """
    _non_negative(coefficient, "the coefficient")
    return tuple(p * coefficient for p in points)


def rake_on(gain: int, rate: Fraction) -> int:
    """The rake on one seat's gain: ``floor(gain × rate)``, 0 for a loss.

    >>> five = Fraction(5, 100)
    >>> rake_on(120, five), rake_on(119, five), rake_on(-60, five)
    (6, 5, 0)

    :raises InvalidActionError: ``bad_settlement`` for a rate outside 0..1.
    """
    if not 0 <= rate <= 1:
        raise _bad("bad_settlement", f"a rake rate is within 0..1, not {rate}")
    return max(gain, 0) * rate.numerator // rate.denominator


def _raked(stakes: Sequence[int], rate: Fraction, points: Sequence[int]) -> Settlement:
    return Settlement.of(stakes, points, rake=[rake_on(s, rate) for s in stakes])


def settle_raked(points: Sequence[int], *, coefficient: int, rake: Fraction) -> Settlement:
    """Coins = points × N; the house rakes each winner's gain (rounded down).

    No balance limits (:func:`settle` also holds the coins within the balances, the
    hall's guard).

    :raises InvalidActionError: ``bad_settlement`` for a negative coefficient or a rate
        outside 0..1.
    """
    return _raked(to_coins(points, coefficient), rake, points)


def _centre(amounts: Sequence[int]) -> int | None:
    """The seat alone on its side (the payer if both sides are single); ``None`` if all 0."""
    payers = [i for i, a in enumerate(amounts) if a < 0]
    takers = [i for i, a in enumerate(amounts) if a > 0]
    for side in (payers, takers):
        if len(side) == 1:
            return side[0]
    if payers or takers:
        raise _bad("bad_points", f"no single seat faces the others in {tuple(amounts)}")
    return None


def share_in_proportion(total: int, weights: Sequence[int]) -> list[int]:
    """Share ``0 ≤ total ≤ sum(weights)`` in proportion to ``weights`` (largest remainder).

    Each share is rounded down; the coins left go one each to the largest remainders,
    ties to the earlier weight.  No share exceeds its weight.

    >>> share_in_proportion(100, [200, 10]), share_in_proportion(5, [3, 3])
    ([95, 5], [3, 2])
    """
    whole = sum(weights)
    if whole == 0:
        return [0] * len(weights)
    shares = [total * w // whole for w in weights]
    left = total - sum(shares)
    by_remainder = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % whole), i))
    for i in by_remainder[:left]:
        shares[i] += 1
    return shares


def limit_transfers(amounts: Sequence[int], limits: Sequence[int]) -> tuple[int, ...]:
    """Zero-sum ``amounts`` after holding each seat within ``limits`` (module docstring).

    >>> limit_transfers((200, -200, 0), (30, 1000, 500))
    (30, -30, 0)
    >>> limit_transfers((-300, 150, 150), (100, 10**6, 20))
    (-100, 88, 12)

    :raises InvalidActionError: ``bad_points`` if the amounts do not sum to zero or no
        single seat faces the others; ``bad_settlement`` for a negative limit or
        mismatched lengths.
    """
    facing = _facing(amounts, limits)
    if facing is None:
        return tuple(amounts)
    centre, order = facing
    due = [min(abs(amounts[s]), limits[s]) for s in order]
    total = min(sum(due), limits[centre])
    return _moved(amounts, centre, order, share_in_proportion(total, due))


def _facing(amounts: Sequence[int], limits: Sequence[int]) -> tuple[int, list[int]] | None:
    """The single seat facing the others and the others in play order after it, once
    ``amounts`` and ``limits`` are checked; ``None`` when nothing moves.

    :raises InvalidActionError: as :func:`limit_transfers`.
    """
    if len(amounts) != len(limits):
        raise _bad("bad_settlement", "one limit per seat")
    for limit in limits:
        _non_negative(limit, "a limit")
    if sum(amounts) != 0:
        raise _bad("bad_points", f"points must sum to zero: {tuple(amounts)}")
    centre = _centre(amounts)
    if centre is None:
        return None
    n = len(amounts)
    return centre, [(centre + k) % n for k in range(1, n)]


def _moved(
    amounts: Sequence[int], centre: int, order: Sequence[int], payments: Sequence[int]
) -> tuple[int, ...]:
    """Each other seat's ``payments`` with its side's sign, the centre the balance."""
    result = [0] * len(amounts)
    for seat, payment in zip(order, payments, strict=True):
        result[seat] = payment if amounts[seat] > 0 else -payment
    result[centre] = -sum(result)
    return tuple(result)


def settle_losers_to_zero(
    points: Sequence[int],
    balances: Sequence[int],
    *,
    coefficient: int,
    fee: int,
    cap_winners: bool = True,
) -> Settlement:
    """Points × N, held within each player's balance, then fee A each.

    A loser pays at most his balance (never below 0); a winner gains at most the balance
    he started the hand with (the rules' reading; ``cap_winners=False`` lifts that cap)
    and receives only what the losers paid; then each player pays the fixed fee
    ``min(A, balance after the hand)``.  Escapes settle the same way (the escaper is the
    centre).

    :raises InvalidActionError: ``bad_points`` if the points do not sum to zero;
        ``bad_settlement`` for negative balances, coefficient or fee.
    """
    _non_negative(fee, "the fee")
    coins = to_coins(points, coefficient)
    limits = [
        b if cap_winners or c < 0 else max(b, c) for b, c in zip(balances, coins, strict=True)
    ]
    stakes = limit_transfers(coins, limits)
    fees = [min(fee, b + s) for b, s in zip(balances, stakes, strict=True)]
    return Settlement.of(stakes, points, fees=fees)


def minimise_scores(points: Sequence[int], table_scores: Sequence[int]) -> tuple[int, ...]:
    """积分最小化: the points actually moved, given each player's table score when the hand
    ended: each payment between the single seat and another is the least of the winner's
    score, the loser's score and what is owed; a single seat that loses pays at most his
    score in all (shared in proportion, as :func:`share_in_proportion`).

    >>> minimise_scores((-140, 140, 0), (120, 1000, 500))  # the loser holds 120
    (-120, 120, 0)
    >>> minimise_scores((400, -200, -200), (30, 1000, 1000))  # the winner holds 30: 30 each
    (60, -30, -30)
    >>> minimise_scores((-400, 200, 200), (300, 1000, 1000))  # he pays what he holds
    (-300, 150, 150)

    :raises InvalidActionError: as :func:`limit_transfers`.
    """
    facing = _facing(points, table_scores)
    if facing is None:
        return tuple(points)
    centre, order = facing
    held = table_scores[centre]
    payments = [min(abs(points[s]), table_scores[s], held) for s in order]
    if points[centre] < 0:  # he makes every payment: from what he holds
        payments = share_in_proportion(min(sum(payments), held), payments)
    return _moved(points, centre, order, payments)


# --- the payouts --------------------------------------------------------------------------


def _rate(room: Room) -> Fraction:
    return Fraction(room.rake_percent, 100)


def _within_balances(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    stakes = limit_transfers(to_coins(points, room.coefficient), balances)
    return _raked(stakes, _rate(room), points)


def _losers_to_zero(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    return settle_losers_to_zero(points, balances, coefficient=room.coefficient, fee=room.fee)


def _points_only(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    del room, balances
    return Settlement.of((0,) * len(points), points)


def _minimised(room: Room, points: Sequence[int], balances: Sequence[int]) -> Settlement:
    stakes = minimise_scores(to_coins(points, room.coefficient), balances)
    return _raked(stakes, _rate(room), points)


def _chips(room: Room, chips: Sequence[int], balances: Sequence[int]) -> Settlement:
    del balances
    if sum(chips) != 0:
        raise _bad("bad_settlement", f"chips sum to zero: {tuple(chips)}")
    return _raked(chips, _rate(room), chips)


_PAYOUTS: Mapping[Payout, Callable[[Room, Sequence[int], Sequence[int]], Settlement]] = {
    Payout.WITHIN_BALANCES: _within_balances,
    Payout.LOSERS_TO_ZERO: _losers_to_zero,
    Payout.POINTS_ONLY: _points_only,
    Payout.MINIMISED: _minimised,
    Payout.CHIPS: _chips,
}
"""The arithmetic of each :class:`Payout` (the table in the module docstring)."""


_HELD_WITHIN = frozenset({Payout.WITHIN_BALANCES, Payout.LOSERS_TO_ZERO, Payout.MINIMISED})
"""The payouts that turn points into coins (× N) and hold them within limits."""


def coins_of(room: Room, points: int, payout: Payout | None = None) -> int:
    """What ``points`` of one seat (chips in a chip game) are in coins, before any limit:
    × N where the payout turns points into coins, the chips themselves, 0 in points only.

    >>> from qipai.hall.rooms import default_rooms
    >>> [coins_of(room, 3) for room in default_rooms()[:1]]
    [3]
    """
    payout = room.payout if payout is None else payout
    if payout is Payout.CHIPS:
        return points
    return 0 if payout is Payout.POINTS_ONLY else points * room.coefficient


def loss_of(room: Room, points: int, balance: int, payout: Payout | None = None) -> int:
    """All a seat that loses ``points`` (chips in a chip game) pays in one hand, from its
    own ``balance`` alone: its stake (:func:`coins_of`, at most the balance), then the fee
    its payout takes from every seat (``LOSERS_TO_ZERO``: A, at most what is left), as
    :func:`settle` would take them.  The others' balances may lower the stake, never raise
    it: this is the most the seat pays.  With N = 1 and A = 1, a loss of 10 points costs a
    seat holding 10,000 coins 11, one holding 10 coins 10, one holding 5 coins 5.
    """
    payout = room.payout if payout is None else payout
    stake = min(coins_of(room, points, payout), balance)
    fee = room.fee if payout is Payout.LOSERS_TO_ZERO else 0
    return stake + min(fee, balance - stake)


def limited(room: Room, settlement: Settlement, payout: Payout | None = None) -> tuple[int, ...]:
    """What the limits (each balance; 积分最小化) changed each seat's stake by: the
    stake less ``points × N``, for the result panel to name (0 for payouts without
    limits: chips, points only).
    """
    if (room.payout if payout is None else payout) not in _HELD_WITHIN:
        return (0,) * len(settlement.points)
    coins = to_coins(settlement.points, room.coefficient)
    return tuple(stake - coin for stake, coin in zip(settlement.stakes, coins, strict=True))


def settle(
    room: Room,
    returns: Sequence[int],
    balances: Sequence[int],
    payout: Payout | None = None,
) -> Settlement:
    """Settle one finished hand of ``room`` (the table in the module docstring).

    :param returns: the game's ``returns()`` for the hand, one per seat.
    :param balances: each seat's coins before the hand (the limits of the payouts that
        hold the coins within them).
    :param payout: how the hand settles; default ``room.payout``, its preset's.
    :raises InvalidActionError: ``bad_settlement`` for lengths that differ from the
        room's seats, a negative balance, returns that no hand gives (chips that do not
        sum to zero), or a result that would take a balance below zero; ``bad_points``
        for points that do not sum to zero.

    """
    if not len(returns) == len(balances) == room.seats:
        raise _bad("bad_settlement", f"{room.seats} returns and balances expected")
    if any(b < 0 for b in balances):
        raise _bad("bad_settlement", f"balances may not be negative: {tuple(balances)}")
    model = _PAYOUTS[room.payout if payout is None else payout]
    settled = model(room, tuple(returns), tuple(balances))
    if any(b + n < 0 for b, n in zip(balances, settled.net, strict=True)):
        raise _bad(
            "bad_settlement", f"{settled.net} would take a balance of {tuple(balances)} below zero"
        )
    return settled
