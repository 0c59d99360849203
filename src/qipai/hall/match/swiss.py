"""瑞士移位 Swiss seating: players ranked by score, seated a table at a time, with as few
repeated meetings as the field allows.

Before each round of a Swiss stage the players are ranked (by score, then the tie rules)
and seated at tables of ``seats``.  A *repeat* is a pair of players at one table who have
met before in the stage.  :func:`swiss_tables` gives, of all the ways to seat the field,

1. one with the **fewest repeats** possible, and
2. among those, the one **nearest the ranking**: the best-ranked player not yet seated
   heads each next table, and his partners are the best-ranked players that still allow
   (1) — compared table by table from the top (lexicographically on ranks).

So with no repeat possible to avoid (one table; or two tables whose players all met),
the tables are exactly the ranking's threes; and a round never repeats a meeting the
field could have avoided.  The seating is found by a depth-first search over the ranking,
with iterative deepening on the number of repeats allowed (0, then 1, …): the first
seating found at the smallest number that has one is the answer.  The search stops after
:data:`SEARCH_LIMIT` steps (never reached by the property test's fields, up to 60 players
and 5 rounds); past it, tables are filled greedily (each head with the two best-ranked
partners adding the fewest repeats), and (1) is no longer guaranteed.

>>> order = ["a", "b", "c", "d", "e", "f"]
>>> met = {frozenset(p) for p in (("a", "b"), ("a", "c"), ("b", "c"))}
>>> swiss_tables(order, met, 3)  # a, b and c met: one repeat at least, nearest ranking
[('a', 'b', 'd'), ('c', 'e', 'f')]
>>> swiss_tables(order, set(), 3)
[('a', 'b', 'c'), ('d', 'e', 'f')]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations

SEARCH_LIMIT = 200_000
"""Steps (tables tried) of one seating's search before it falls back to greedy tables."""


class _TooLongError(Exception):
    """The search used up its steps."""


def swiss_tables(
    order: Sequence[str], met: Collection[frozenset[str]], seats: int
) -> list[tuple[str, ...]]:
    """The round's tables for ``order`` (ranked, best first; its length a multiple of
    ``seats``), given the pairs that ``met`` before (module docstring)."""
    n = len(order)
    index = {player: i for i, player in enumerate(order)}
    clashes = [0] * n  # bit j of clashes[i]: i and j met before
    for pair in met:
        a, b = (index.get(p) for p in pair)
        if a is not None and b is not None:
            clashes[a] |= 1 << b
            clashes[b] |= 1 << a
    search = _Search(clashes, seats)
    try:
        for allowed in range(n * seats):
            found = search.seat(allowed)
            if found is not None:
                return [tuple(order[i] for i in table) for table in found]
    except _TooLongError:
        pass
    return [tuple(order[i] for i in table) for table in search.greedy()]


class _Search:
    """The depth-first search of :func:`swiss_tables` over player indices (0 = best)."""

    def __init__(self, clashes: list[int], seats: int) -> None:
        self.clashes = clashes
        self.seats = seats
        self.steps = 0

    def repeats(self, table: Sequence[int]) -> int:
        """Pairs at ``table`` who met before."""
        return sum(1 for a, b in combinations(table, 2) if self.clashes[a] >> b & 1)

    def seat(self, allowed: int) -> list[tuple[int, ...]] | None:
        """The first seating (in ranking order) with at most ``allowed`` repeats, if any.

        :raises _TooLongError: past :data:`SEARCH_LIMIT` steps.
        """
        return self._fill(list(range(len(self.clashes))), allowed)

    def _fill(self, free: list[int], allowed: int) -> list[tuple[int, ...]] | None:
        if not free:
            return []
        head, rest = free[0], free[1:]
        for partners in combinations(rest, self.seats - 1):
            self.steps += 1
            if self.steps > SEARCH_LIMIT:
                raise _TooLongError
            table = (head, *partners)
            cost = self.repeats(table)
            if cost > allowed:
                continue
            left = [p for p in rest if p not in partners]
            tail = self._fill(left, allowed - cost)
            if tail is not None:
                return [table, *tail]
        return None

    def greedy(self) -> list[tuple[int, ...]]:
        """Each head with the best-ranked partners that add the fewest repeats."""
        free = list(range(len(self.clashes)))
        tables = []
        while free:
            head, rest = free[0], free[1:]
            partners = min(
                combinations(rest, self.seats - 1), key=lambda ps: self.repeats((head, *ps))
            )
            tables.append((head, *partners))
            free = [p for p in rest if p not in partners]
        return tables
