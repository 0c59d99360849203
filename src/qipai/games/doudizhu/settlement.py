"""Dou Dizhu settlement: points per seat (from :mod:`.scoring`) to coins, per preset.

Pure integer arithmetic; the hall calls these functions and writes the ledger.

========  =====================================================================
preset    function
========  =====================================================================
yifa      :func:`settle_yifa`: coins = points × N, 5 % rake on each winner's gain
caishen   :func:`settle_caishen` (金币场: coins = room base × points); 积分场: points
huanle    :func:`settle_huanle`: balances limit every seat, fixed fee A per player
zhengtu   points only (leaderboard): nothing to do
jj        :func:`minimise_scores`: 积分最小化 on the players' table scores
========  =====================================================================

**Rounding and splitting choices**

- Rake: ``floor(gain × rate)`` per winner, in the players' favour.  Two winning farmers
  are raked separately, so the house may take one coin less than ``floor(total × rate)``.
- Limits (huanle balances, jj table scores): a seat never moves by more than its limit in
  one hand — a loser pays at most what he holds (stops at 0), a winner gains at most what
  he brought into the hand — and what the winners receive is exactly what the losers pay
  (nothing is burnt).  With three seats, one side of a hand is a single seat (the
  landlord, or the escaper); it is the *centre*, and each other seat deals only with it:
  (1) each other seat's amount is ``min(due, its own limit)``; (2) the centre's total is
  ``min(sum of those, the centre's limit)``; (3) when (2) binds, the total is shared in
  proportion to the amounts of (1), rounded down, and the coins left by rounding go one
  each to the largest fractional parts, ties to the first seat in play order after the
  centre.  No seat ever gets more than its amount of (1).
- jj 积分最小化 is this with table scores as limits: every payment is at most the
  winner's table score, the loser's table score and the amount due, as the JJ page says,
  and a landlord facing two farmers is also held to his table score *in total* (he can
  neither pay nor win more than he has on the table).
- huanle fee: ``min(A, balance after the hand)`` per player, so no balance goes below 0.

>>> settle_yifa((12, -6, -6), coefficient=10).net
(114, -60, -60)
>>> s = settle_huanle((12, -6, -6), (10**6,) * 3, coefficient=1000, fee=50)
>>> s.stakes, s.fees, s.net
((12000, -6000, -6000), (50, 50, 50), (11950, -6050, -6050))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from qipai.errors import InvalidActionError

YIFA_RAKE = Fraction(5, 100)
"""yifa: the house takes 5 % of each winner's gain (rounded down)."""


@dataclass(frozen=True, slots=True)
class Settlement:
    """Coins per seat for one hand, in ledger terms.

    ``sum(net) + house == sum(stakes)``, and ``sum(stakes) == 0`` for zero-sum points.
    """

    stakes: tuple[int, ...]
    """Won (+) or lost (−) against the other seats, before rake and fees."""
    rake: tuple[int, ...]
    """Rake taken from each seat (≥ 0; only winners pay it)."""
    fees: tuple[int, ...]
    """Fixed fee taken from each seat (≥ 0)."""

    @property
    def net(self) -> tuple[int, ...]:
        """Each seat's balance change: stake − rake − fee."""
        return tuple(s - r - f for s, r, f in zip(self.stakes, self.rake, self.fees, strict=True))

    @property
    def house(self) -> int:
        """What the house keeps: all rake plus all fees."""
        return sum(self.rake) + sum(self.fees)


def _bad(code: str, message: str) -> InvalidActionError:
    return InvalidActionError(code, message)


def _non_negative(value: int | Fraction, what: str) -> None:
    if value < 0:
        raise _bad("bad_settlement", f"{what} must not be negative, not {value}")


def to_coins(points: Sequence[int], coefficient: int) -> tuple[int, ...]:
    """Points times the room coefficient (or room base).

    :raises InvalidActionError: ``bad_settlement`` for a negative coefficient.
    """
    _non_negative(coefficient, "the coefficient")
    return tuple(p * coefficient for p in points)


def rake_on(gain: int, rate: Fraction) -> int:
    """The rake on one seat's gain: ``floor(gain × rate)``, 0 for a loss.

    >>> rake_on(120, YIFA_RAKE), rake_on(119, YIFA_RAKE), rake_on(-60, YIFA_RAKE)
    (6, 5, 0)

    :raises InvalidActionError: ``bad_settlement`` for a rate outside 0..1.
    """
    if not 0 <= rate <= 1:
        raise _bad("bad_settlement", f"a rake rate is within 0..1, not {rate}")
    return max(gain, 0) * rate.numerator // rate.denominator


def _raked(stakes: tuple[int, ...], rate: Fraction) -> Settlement:
    rake = tuple(rake_on(s, rate) for s in stakes)
    return Settlement(stakes, rake, (0,) * len(stakes))


def settle_yifa(
    points: Sequence[int], *, coefficient: int, rake: Fraction = YIFA_RAKE
) -> Settlement:
    """yifa: coins = points × N; the house rakes each winner's gain (rounded down).

    No balance limits: the room's entry minimum (N × 96) covers the largest loss, 96
    points (a landlord losing two pairs of base 3 × multiplier 16).

    :raises InvalidActionError: ``bad_settlement`` for a negative coefficient or a rate
        outside 0..1.
    """
    return _raked(to_coins(points, coefficient), rake)


def settle_caishen(points: Sequence[int], *, room_base: int) -> Settlement:
    """caishen 金币场: coins = room base × points, no rake (积分场 keeps the points).

    :raises InvalidActionError: ``bad_settlement`` for a negative room base.
    """
    return _raked(to_coins(points, room_base), Fraction(0))


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

    >>> limit_transfers((200, -200, 0), (30, 1000, 500))    # the JJ page's example 1
    (30, -30, 0)
    >>> limit_transfers((-300, 150, 150), (100, 10**6, 20))
    (-100, 88, 12)

    :raises InvalidActionError: ``bad_points`` if the amounts do not sum to zero or no
        single seat faces the others; ``bad_settlement`` for a negative limit or
        mismatched lengths.
    """
    if len(amounts) != len(limits):
        raise _bad("bad_settlement", "one limit per seat")
    for limit in limits:
        _non_negative(limit, "a limit")
    if sum(amounts) != 0:
        raise _bad("bad_points", f"points must sum to zero: {tuple(amounts)}")
    centre = _centre(amounts)
    if centre is None:
        return tuple(amounts)
    n = len(amounts)
    order = [(centre + k) % n for k in range(1, n)]
    due = [min(abs(amounts[s]), limits[s]) for s in order]
    total = min(sum(due), limits[centre])
    result = [0] * n
    for seat, share in zip(order, share_in_proportion(total, due), strict=True):
        result[seat] = share if amounts[seat] > 0 else -share
    result[centre] = -sum(result)
    return tuple(result)


def settle_huanle(
    points: Sequence[int],
    balances: Sequence[int],
    *,
    coefficient: int,
    fee: int,
    cap_winners: bool = True,
) -> Settlement:
    """huanle (欢乐豆): points × N, held within each player's balance, then fee A each.

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
    fees = tuple(min(fee, b + s) for b, s in zip(balances, stakes, strict=True))
    return Settlement(stakes, (0,) * len(stakes), fees)


def minimise_scores(points: Sequence[int], table_scores: Sequence[int]) -> tuple[int, ...]:
    """jj 积分最小化: the points actually moved, given each player's table score.

    >>> minimise_scores((-140, 140, 0), (120, 1000, 500))   # the JJ page's example 2
    (-120, 120, 0)

    :raises InvalidActionError: as :func:`limit_transfers`.
    """
    return limit_transfers(points, table_scores)
