"""Coins of a match run (比赛): every posting of its money, as :mod:`qipai.hall.coins` is
for a cash hand's.

Pure: what moves between which accounts, and why, for each of a run's transactions; the
store (:mod:`qipai.store.matches`) locks the run, checks its state, reads the accounts and
the escrow's balance, then writes exactly what it is given here (the ledger keeps its own
checks: each transaction balanced, no user balance below zero, each key at most once).

A run holds its entry fees in its own escrow account ``match:<run id>`` and ends with the
escrow at exactly zero.  Its postings, one ledger transaction each:

=====================  ================  ====================================================
posting                kind              moves (reason; the registration's number as seat)
=====================  ================  ====================================================
:func:`fee_held`       ``match_entry``   the fee from the user into the escrow (``entry``)
:func:`fee_refunded`   ``match_refund``  a withdrawal: the fee back to its user (``refund``)
:func:`run_cancelled`  ``match_refund``  a cancelled run (too few players, ``start_failed``,
                                         a hall that stopped): every current registration's
                                         fee back (``refund``)
:func:`prizes_paid`    ``match_prize``   ``house:matches`` pays what the escrow lacks
                                         (``guarantee``), each prize from the escrow to its
                                         user (``prize``), the house takes what is left
                                         (``surplus``)
=====================  ================  ====================================================

A free run (no fee) still records its ``match_entry`` and ``match_refund`` transactions,
with no move; amounts of zero are never moved.  The keys (each posting's reference) are
``match_entry:<run>:<number>``, ``match_refund:<run>:<number>``, ``match_cancel:<run>``
and ``match_payout:<run>``.

So a run's coins are conserved: what the escrow held equals what it refunded plus what it
paid into the prizes, and the prizes are that plus the house's guarantee less its surplus.

>>> escrow = Escrow("daily#1", account=9, entry_fee=200)
>>> held = [fee_held(escrow, Entrant(n, account=n)) for n in (1, 2, 3)]
>>> paid = prizes_paid(escrow, house=7, pool=600, prizes=[(Entrant(1, 1), 500),
...                                                       (Entrant(2, 2), 300)])
>>> [(m.account, m.amount, m.reason) for m in paid.moves][:2]
[(7, -200, 'guarantee'), (9, 200, 'guarantee')]
>>> sum(flow(p, 9) for p in [*held, paid])
0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from qipai.hall.coins import minimise_scores

__all__ = [
    "Entrant",
    "Escrow",
    "MatchPosting",
    "Move",
    "cancel_key",
    "entry_key",
    "fee_held",
    "fee_refunded",
    "flow",
    "match_points",
    "payout_key",
    "prizes_paid",
    "refund_key",
    "run_cancelled",
]

MatchReason = Literal["entry", "refund", "prize", "guarantee", "surplus"]
"""Why one move of a run's money happens (a ledger entry's ``reason``)."""
MatchKind = Literal["match_entry", "match_refund", "match_prize"]
"""The kind of a run's transaction in the ledger."""


@dataclass(frozen=True, slots=True)
class Move:
    """Coins into (+) or out of (−) one account: a ledger entry of a run."""

    account: int
    """The ledger account's id."""
    amount: int
    """Coins, never zero."""
    reason: MatchReason
    number: int | None = None
    """The registration it concerns (its number in the run), ``None`` for the house's."""


@dataclass(frozen=True, slots=True)
class MatchPosting:
    """One transaction of a run: its reference (the unique key), kind and moves."""

    key: str
    kind: MatchKind
    run_id: str
    moves: tuple[Move, ...]
    """Summing to zero; none for a free run's fee or refund."""


@dataclass(frozen=True, slots=True)
class Escrow:
    """A run's escrow: the account holding its fees, and the fee each registration pays."""

    run_id: str
    account: int
    entry_fee: int


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registration: its number in the run (from 1, never reused), its user's account."""

    number: int
    account: int


def entry_key(run_id: str, number: int) -> str:
    """The key of registration ``number``'s entry fee (kind ``match_entry``)."""
    return f"match_entry:{run_id}:{number}"


def refund_key(run_id: str, number: int) -> str:
    """The key of the refund of a withdrawn registration (kind ``match_refund``)."""
    return f"match_refund:{run_id}:{number}"


def payout_key(run_id: str) -> str:
    """The key of a finished run's prizes (kind ``match_prize``)."""
    return f"match_payout:{run_id}"


def cancel_key(run_id: str) -> str:
    """The key of a cancelled run's refunds (kind ``match_refund``)."""
    return f"match_cancel:{run_id}"


def _transfer(
    source: int, target: int, coins: int, reason: MatchReason, number: int | None = None
) -> tuple[Move, ...]:
    """``coins`` from ``source`` to ``target`` (nothing for 0)."""
    if not coins:
        return ()
    return Move(source, -coins, reason, number), Move(target, coins, reason, number)


def fee_held(escrow: Escrow, entrant: Entrant) -> MatchPosting:
    """A registration: its fee from the user into the escrow."""
    moves = _transfer(entrant.account, escrow.account, escrow.entry_fee, "entry", entrant.number)
    return MatchPosting(entry_key(escrow.run_id, entrant.number), "match_entry", escrow.run_id,
                        moves)  # fmt: skip


def _refunds(escrow: Escrow, entrants: Iterable[Entrant]) -> tuple[Move, ...]:
    """Each registration's fee from the escrow back to its user."""
    moves: tuple[Move, ...] = ()
    for entrant in entrants:
        fee = escrow.entry_fee
        moves += _transfer(escrow.account, entrant.account, fee, "refund", entrant.number)
    return moves


def fee_refunded(escrow: Escrow, entrant: Entrant) -> MatchPosting:
    """A withdrawal: the registration's fee back to its user."""
    key = refund_key(escrow.run_id, entrant.number)
    return MatchPosting(key, "match_refund", escrow.run_id, _refunds(escrow, [entrant]))


def run_cancelled(escrow: Escrow, entrants: Sequence[Entrant]) -> MatchPosting:
    """A cancelled run: every current registration's fee back, in the order given."""
    key = cancel_key(escrow.run_id)
    return MatchPosting(key, "match_refund", escrow.run_id, _refunds(escrow, entrants))


def prizes_paid(
    escrow: Escrow, *, house: int, pool: int, prizes: Sequence[tuple[Entrant, int]]
) -> MatchPosting:
    """A finished run: the guarantee, the prizes in registration order, the surplus.

    :param house: the account of ``house:matches``, which pays what the escrow lacks and
        keeps what is left over.
    :param pool: the escrow's balance now (the fees it holds).
    :param prizes: each winner's registration and coins (positive: the store checks).
    """
    total = sum(coins for _, coins in prizes)
    moves = _transfer(house, escrow.account, total - pool, "guarantee") if total > pool else ()
    for entrant, coins in sorted(prizes, key=lambda prize: prize[0].number):
        moves += _transfer(escrow.account, entrant.account, coins, "prize", entrant.number)
    if pool > total:
        moves += _transfer(escrow.account, house, pool - total, "surplus")
    return MatchPosting(payout_key(escrow.run_id), "match_prize", escrow.run_id, moves)


def flow(posting: MatchPosting, account: int, reason: MatchReason | None = None) -> int:
    """What ``posting`` moves into (+) or out of (−) ``account`` (of one ``reason``, if
    given): the sums the conservation of a run's coins is stated in."""
    return sum(
        m.amount
        for m in posting.moves
        if m.account == account and (reason is None or m.reason == reason)
    )


def match_points(
    points: Sequence[int], base: int, scores: Sequence[int], *, minimise: bool
) -> tuple[int, ...]:
    """A hand's match points per seat: its ``points`` × ``base`` (农民得分 = 胜负参数 × 基数 ×
    倍数, the landlord the farmers' sum), held by 积分最小化 against the seats' ``scores``
    when ``minimise``: each payment is the least of the winner's score, the loser's score
    and what is owed (a score below zero counts as zero;
    :func:`~qipai.hall.coins.minimise_scores`).  A match takes no platform fee from a hand
    (its house's share is in the entry fees), so the payment is whole.

    >>> match_points((-2, 1, 1), 100, (1000, 30, 5000), minimise=True)  # a winner holds 30
    (-130, 30, 100)
    >>> match_points((-14, 7, 7), 10, (120, 1000, 1000), minimise=True)  # the loser holds 120
    (-120, 60, 60)
    >>> match_points((20, -10, -10), 20, (30, 1000, 1000), minimise=True)  # 30 from each
    (60, -30, -30)

    :raises InvalidActionError: ``bad_points`` for points that do not sum to zero.
    """
    amounts = tuple(p * base for p in points)
    if not minimise:
        return amounts
    return minimise_scores(amounts, [max(score, 0) for score in scores])
