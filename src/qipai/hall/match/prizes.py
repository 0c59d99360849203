"""A match run's prizes: the prize table as configured, scaled to the run's field.

A match lists its prizes by final rank (``[[match.prize]]``: ``ranks`` and ``coins``):
what a full field is paid.  A regular match (常规赛) always starts full, so it pays its
table as listed (its configuration is refused when the table costs more than its fees and
the operator's ``guarantee``).  A scheduled match (锦标赛) starts with whoever registered,
from its minimum up, so its table scales with the field:

- **places**: at most one entrant in :data:`PAID_SHARE` wins a prize (the first
  ``entrants // 3`` ranks, at least one), never more ranks than the table lists;
- **pool**: those places' listed prizes are paid in full when the run's entry fees plus
  the operator's guarantee (保底) cover them; otherwise every one is scaled down in
  proportion to what they cover (rounded down, the odd coins to the house), so the house
  never adds more than its guarantee.

Every entrant counts as paying the fee: a bot's place is the house's (the house pays its
fee and keeps its prize).

>>> table = (Prize(1, 1, 20000), Prize(2, 3, 8000), Prize(4, 10, 2000))
>>> paid_prizes(table, entrants=3000, entry_fee=200, guarantee=0, scaled=True)[10]
2000
>>> paid_prizes(table, entrants=7, entry_fee=200, guarantee=5000, scaled=True)
{1: 4571, 2: 1828}
>>> house_cost(table, entrants=7, entry_fee=200, guarantee=5000, scaled=True)
4999
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PAID_SHARE = 3
"""A scheduled run pays at most one entrant in this many (a third of the field)."""


@dataclass(frozen=True, slots=True)
class Prize:
    """Coins paid to each of the ranks ``first``…``last`` (a full field's)."""

    first: int
    last: int
    coins: int


def listed_prizes(table: Sequence[Prize]) -> dict[int, int]:
    """Coins by rank, as the table lists them."""
    return {rank: p.coins for p in table for rank in range(p.first, p.last + 1)}


def paid_prizes(
    table: Sequence[Prize], *, entrants: int, entry_fee: int, guarantee: int, scaled: bool
) -> dict[int, int]:
    """Coins by rank for a run of ``entrants`` (module docstring); ``scaled``: the
    scheduled match's rules (places and pool follow the field), else the table as listed
    for the ranks the field has."""
    listed = listed_prizes(table)
    places = max(1, entrants // PAID_SHARE) if scaled else entrants
    paid = {rank: coins for rank, coins in listed.items() if rank <= min(places, entrants)}
    pool, total = entrants * entry_fee + guarantee, sum(paid.values())
    if not scaled or total <= pool:
        return paid
    shares = {rank: coins * pool // total for rank, coins in paid.items()}
    return {rank: coins for rank, coins in shares.items() if coins > 0}


def house_cost(
    table: Sequence[Prize], *, entrants: int, entry_fee: int, guarantee: int, scaled: bool
) -> int:
    """What the house adds to the fees of a run of ``entrants`` to pay its prizes (0 when
    the fees cover them)."""
    prizes = paid_prizes(
        table, entrants=entrants, entry_fee=entry_fee, guarantee=guarantee, scaled=scaled
    )
    return max(0, sum(prizes.values()) - entrants * entry_fee)
