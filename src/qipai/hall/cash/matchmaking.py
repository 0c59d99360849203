"""Matchmaking and regrouping (自动撮合, 分组规则): who sits at which table.

A :class:`Lobby` holds one room's queue.  It is sans-I/O: the time ``now`` is a number
the caller passes in (seconds on any clock), randomness is a :class:`random.Random` the
caller passes in, and nothing here reads a clock, sleeps or does I/O.

One call of :meth:`Lobby.match` seats the waiting players.  It chooses, in this order of
priority (see ``docs/hall.md`` for the full statement):

1. **As many full tables as the queue holds**: with *n* players waiting and *k* seats,
   ``n // k`` tables of humans; the ``n % k`` others keep waiting.
2. **No repeated companions** (分组规则): two players *conflict* when either one's last
   table (the last one he was seated at) held the other.  If some choice of the tables of
   step 1 seats no two conflicting players together, the matcher returns one (exactly, as
   long as the search stays within its node budget); otherwise it builds the tables
   greedily, adding at each seat the waiting player who brings the fewest conflicts.
3. **Fairness**: players are ranked by the time they (re)joined the queue, earliest first,
   ties at random.  Among the conflict-free choices the one kept leaves out the players
   ranked last: of two candidate sets of left-out players, the better is the one that does
   not contain the best-ranked player in which they differ.
4. **Bots**: in a room that allows them, the players left over once a leftover has waited
   longer than the room's bot wait are seated too, in as few conflict-free tables as a
   greedy pass in rank order makes, every table started by an overdue player; bots fill
   the empty seats.

Seats are then shuffled with the generator passed in, except in a room that keeps its
tables (:attr:`Seating.regroup` false): there seat 0 goes to the player who entered
the table first, the best-ranked of its players (he waited longest), and the other seats
are shuffled.  After a hand, :meth:`Lobby.plays_on` says whether the table plays its next
hand with the same players (a room that keeps its tables, nobody leaving); otherwise the
table's players go back to the queue with :meth:`Lobby.finish` and are regrouped by the
next ``match``.

>>> import random
>>> lobby = Lobby(Seating(seats=3))
>>> for number in range(9):
...     lobby.join(f"p{number}", now=float(number))
>>> first = lobby.match(now=9.0, rng=random.Random(1))
>>> [sorted(table.humans) for table in first]
[['p0', 'p1', 'p2'], ['p3', 'p4', 'p5'], ['p6', 'p7', 'p8']]
>>> for table in first:
...     lobby.finish(table, now=60.0)
>>> second = lobby.match(now=60.0, rng=random.Random(2))
>>> any(len(set(t.humans) & set(f.humans)) > 1 for t in second for f in first)
False
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.registry import game_type

PlayerId = str
"""A player's identifier (the account's user id); opaque here."""


DEFAULT_BOT_WAIT = 5.0
"""Seconds a lone player waits before bots fill his table, where the room allows bots."""

DEFAULT_SEARCH_BUDGET = 20_000
"""Tables the exact grouping search may try in one :meth:`Lobby.match` call."""

_NOBODY: frozenset[PlayerId] = frozenset()


@dataclass(frozen=True)
class Seating:
    """How one room seats its players.

    :raises InvalidActionError: ``invalid_seats`` for fewer than 2 or more than 6 seats,
        ``invalid_bot_wait`` for a negative bot wait.
    """

    seats: int
    """Seats at every table of the room."""
    bots: bool = False
    """Whether bots may fill the empty seats of a player who waited too long."""
    bot_wait: float = DEFAULT_BOT_WAIT
    """Seconds a player waits before bots fill his table (when :attr:`bots` is true)."""
    regroup: bool = True
    """Whether every table ends after each hand and its players are regrouped (分组规则);
    ``False``: a table plays hand after hand while all its players stay, its seat 0
    being the player who entered it first."""

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= 6:
            raise InvalidActionError("invalid_seats", f"a table has 2 to 6 seats, not {self.seats}")
        if self.bot_wait < 0:
            raise InvalidActionError("invalid_bot_wait", "the bot wait cannot be negative")

    @classmethod
    def for_game(
        cls,
        game: str,
        *,
        seats: int | None = None,
        bots: bool = False,
        bot_wait: float = DEFAULT_BOT_WAIT,
        regroup: bool = True,
    ) -> Seating:
        """The seating of a room of ``game``, checking the size against the game's range
        (:attr:`~qipai.registry.GameType.seats`; ``seats`` ``None``: its default).

        :raises InvalidActionError: ``unknown_game`` for a game the registry lacks,
            ``invalid_seats`` for a size outside the game's range.
        """
        kind = game_type(game)
        fewest, most = kind.seats
        size = kind.default_seats if seats is None else seats
        if not fewest <= size <= most:
            message = f"{game} tables have {fewest} to {most} seats, not {size}"
            raise InvalidActionError("invalid_seats", message)
        return cls(seats=size, bots=bots, bot_wait=bot_wait, regroup=regroup)


@dataclass(frozen=True)
class MatchedTable:
    """A table formed by :meth:`Lobby.match`: who sits in which seat."""

    number: int
    """The lobby's serial number of the table, unique within the lobby."""
    seats: tuple[PlayerId | None, ...]
    """The player in each seat, ``None`` for a bot."""

    @property
    def humans(self) -> tuple[PlayerId, ...]:
        """The players seated, in seat order."""
        return tuple(player for player in self.seats if player is not None)

    @property
    def bots(self) -> int:
        """How many seats bots fill."""
        return self.seats.count(None)


@dataclass(frozen=True)
class Waiting:
    """One player in the queue and the time he (re)joined it."""

    player: PlayerId
    """Who waits."""
    since: float
    """The ``now`` of his :meth:`Lobby.join` or :meth:`Lobby.finish`."""


Conflicts = Mapping[PlayerId, Collection[PlayerId]]
"""For each player, the players he must not sit with (a symmetric relation)."""


class _Budget:
    """A countdown of search steps shared by one grouping search."""

    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self) -> bool:
        """Use one step; false once none was left."""
        self.left -= 1
        return self.left >= 0


def plan_tables(
    ranked: Sequence[PlayerId], size: int, conflicts: Conflicts, *, budget: int
) -> tuple[tuple[PlayerId, ...], ...]:
    """Group the first-ranked players into ``len(ranked) // size`` tables of ``size``.

    ``ranked`` is in fairness order, best first.  The result seats no two conflicting
    players together whenever such a grouping exists and the search finds it within
    ``budget`` tried tables; among those, it leaves out the worst-ranked players (see the
    module docstring).  Otherwise it leaves out the last-ranked players and groups the
    others greedily, with few conflicts.

    >>> plan_tables(["a", "b", "c", "d"], 2, {"a": {"b"}, "b": {"a"}}, budget=100)
    (('a', 'c'), ('b', 'd'))
    """
    count, spare = divmod(len(ranked), size)
    if count == 0:
        return ()
    steps = _Budget(budget)
    for left_out in _left_out_sets(len(ranked), spare):
        seated = [player for i, player in enumerate(ranked) if i not in left_out]
        groups = _exact_cover(seated, size, conflicts, steps)
        if groups is not None:
            return groups
        if steps.left < 0:
            break
    return _greedy(ranked[: count * size], size, conflicts)


def _left_out_sets(count: int, spare: int) -> Iterator[frozenset[int]]:
    """Every ``spare``-subset of ``range(count)``, the fairest (latest positions) first."""
    if spare == 0:
        yield frozenset()
        return
    for first in range(count - spare, -1, -1):
        for rest in _left_out_sets(count - first - 1, spare - 1):
            yield frozenset({first, *(first + 1 + i for i in rest)})


def _exact_cover(
    players: Sequence[PlayerId], size: int, conflicts: Conflicts, steps: _Budget
) -> tuple[tuple[PlayerId, ...], ...] | None:
    """Split all ``players`` into conflict-free tables of ``size``, or ``None``.

    A depth-first search, most-conflicted players first, with an explicit stack (a queue
    of thousands of players must not hit the recursion limit).  ``None`` also when the
    budget runs out.
    """
    inside = set(players)
    order = {player: i for i, player in enumerate(players)}

    def load(player: PlayerId) -> tuple[int, int]:
        return -len(inside.intersection(conflicts.get(player, _NOBODY))), order[player]

    free = sorted(players, key=load)
    stack = [(free, _tables_led_by(free, size, conflicts))]
    chosen: list[tuple[PlayerId, ...]] = []
    while stack:
        free, options = stack[-1]
        table = next(options, None)
        if table is None:
            stack.pop()
            if chosen:
                chosen.pop()
            continue
        if not steps.spend():
            return None
        rest = [player for player in free if player not in table]
        if not rest:
            return (*chosen, table)
        chosen.append(table)
        stack.append((rest, _tables_led_by(rest, size, conflicts)))
    return None


def _tables_led_by(
    free: Sequence[PlayerId], size: int, conflicts: Conflicts
) -> Iterator[tuple[PlayerId, ...]]:
    """The conflict-free tables of ``free[0]`` and ``size - 1`` of the others, in order."""
    head = free[0]
    mates = [player for player in free[1:] if player not in conflicts.get(head, _NOBODY)]
    for others in _cliques(mates, size - 1, conflicts):
        yield (head, *others)


def _cliques(
    candidates: Sequence[PlayerId], size: int, conflicts: Conflicts
) -> Iterator[tuple[PlayerId, ...]]:
    """Every ``size``-subset of ``candidates`` without a conflict, in lexicographic order."""
    if size == 0:
        yield ()
        return
    for i in range(len(candidates) - size + 1):
        player = candidates[i]
        avoid = conflicts.get(player, _NOBODY)
        later = [other for other in candidates[i + 1 :] if other not in avoid]
        for rest in _cliques(later, size - 1, conflicts):
            yield (player, *rest)


def _greedy(
    players: Sequence[PlayerId], size: int, conflicts: Conflicts
) -> tuple[tuple[PlayerId, ...], ...]:
    """Tables in rank order, each seat taken by the free player adding fewest conflicts."""
    free = list(players)
    tables: list[tuple[PlayerId, ...]] = []
    while free:
        table = [free.pop(0)]
        while len(table) < size:
            costs = [_clashes(player, table, conflicts) for player in free]
            table.append(free.pop(costs.index(min(costs))))
        tables.append(tuple(table))
    return tuple(tables)


def _clashes(player: PlayerId, table: Iterable[PlayerId], conflicts: Conflicts) -> int:
    """How many of ``table`` conflict with ``player``."""
    avoid = conflicts.get(player, _NOBODY)
    return sum(other in avoid for other in table)


class Lobby:
    """The queue of one room, and the tables it has formed that are still playing.

    :param seating: the room's table size and bot policy.
    :param search_budget: tables the exact grouping search may try per :meth:`match`.
    """

    def __init__(self, seating: Seating, *, search_budget: int = DEFAULT_SEARCH_BUDGET) -> None:
        self.seating = seating
        """The room's table size and bot policy."""
        self.search_budget = search_budget
        """Tables the exact grouping search may try per :meth:`match` call."""
        self._queue: dict[PlayerId, float] = {}
        self._playing: dict[int, MatchedTable] = {}
        self._seated: dict[PlayerId, int] = {}
        self._last: dict[PlayerId, frozenset[PlayerId]] = {}
        self._tables_formed = 0

    @property
    def queue(self) -> tuple[Waiting, ...]:
        """The waiting players, by the time they (re)joined, then by arrival."""
        waiting = [Waiting(player, since) for player, since in self._queue.items()]
        return tuple(sorted(waiting, key=lambda entry: entry.since))

    @property
    def tables(self) -> tuple[MatchedTable, ...]:
        """The tables formed and not yet finished, oldest first."""
        return tuple(self._playing.values())

    @property
    def headcount(self) -> int:
        """The players in the room now: waiting in its queue plus seated at its tables that
        have not finished (bots are not players, and are not counted)."""
        return len(self._queue) + len(self._seated)

    def is_queued(self, player: PlayerId) -> bool:
        """Whether ``player`` waits in the queue."""
        return player in self._queue

    def is_seated(self, player: PlayerId) -> bool:
        """Whether ``player`` sits at a table that has not finished."""
        return player in self._seated

    def last_companions(self, player: PlayerId) -> frozenset[PlayerId]:
        """The other players at ``player``'s last table (empty if he never sat)."""
        return self._last.get(player, _NOBODY)

    def join(self, player: PlayerId, now: float) -> None:
        """Put ``player`` in the queue, waiting since ``now``.

        :raises IllegalActionError: ``already_queued`` if he waits already,
            ``already_seated`` if he sits at a table that has not finished.
        """
        if player in self._queue:
            raise IllegalActionError("already_queued", f"{player} is already waiting")
        if player in self._seated:
            raise IllegalActionError("already_seated", f"{player} is at a table")
        self._queue[player] = now

    def leave(self, player: PlayerId) -> None:
        """Take ``player`` out of the queue.  His last companions are still remembered.

        :raises IllegalActionError: ``not_queued`` if he is not waiting.
        """
        if player not in self._queue:
            raise IllegalActionError("not_queued", f"{player} is not waiting")
        del self._queue[player]

    def match(self, now: float, rng: random.Random) -> list[MatchedTable]:
        """Seat the waiting players at new tables (see the module docstring for how).

        The players seated leave the queue and count as seated until :meth:`finish`.
        """
        ranked = self._ranked(rng)
        conflicts = self._conflicts(ranked)
        size = self.seating.seats
        groups = list(plan_tables(ranked, size, conflicts, budget=self.search_budget))
        seated = {player for group in groups for player in group}
        leftovers = [player for player in ranked if player not in seated]
        groups += self._bot_groups(leftovers, conflicts, now)
        if not self.seating.regroup:  # seat 0: the first to enter, the best-ranked
            rank = {player: i for i, player in enumerate(ranked)}
            groups = [tuple(sorted(group, key=rank.__getitem__)) for group in groups]
        return [self._seat(group, rng) for group in groups]

    def plays_on(self, table: MatchedTable, *, leaving: Iterable[PlayerId] = ()) -> bool:
        """Whether ``table``, whose hand is over, plays its next hand with the same seats:
        the room keeps its tables (:attr:`Seating.regroup` false) and none of its players
        is ``leaving``.  Otherwise end it with :meth:`finish`.  A table whose humans all
        leave never plays on: bots alone keep no table.

        :raises IllegalActionError: ``unknown_table``, ``not_at_table`` (as :meth:`finish`).
        """
        gone = self._check_finish(table, leaving)
        return not self.seating.regroup and not gone

    def finish(self, table: MatchedTable, now: float, *, leaving: Iterable[PlayerId] = ()) -> None:
        """End ``table``: its players go back to the queue since ``now``, but ``leaving``.

        :raises IllegalActionError: ``unknown_table`` if the table is not one this lobby
            formed and has not finished yet, ``not_at_table`` if ``leaving`` names a
            player not seated there.  Nothing changes then.
        """
        gone = self._check_finish(table, leaving)
        del self._playing[table.number]
        for player in table.humans:
            del self._seated[player]
            if player not in gone:
                self._queue[player] = now

    def _check_finish(self, table: MatchedTable, leaving: Iterable[PlayerId]) -> set[PlayerId]:
        """The players ``leaving`` ``table``, which must be playing here and seat them."""
        if self._playing.get(table.number) != table:
            raise IllegalActionError("unknown_table", f"table {table.number} is not playing")
        gone = set(leaving)
        strangers = gone.difference(table.humans)
        if strangers:
            names = ", ".join(sorted(strangers))
            raise IllegalActionError("not_at_table", f"not at table {table.number}: {names}")
        return gone

    def _ranked(self, rng: random.Random) -> list[PlayerId]:
        """The waiting players in fairness order: earliest ``since`` first, ties at random."""
        players = list(self._queue)
        rng.shuffle(players)
        players.sort(key=self._queue.__getitem__)
        return players

    def _conflicts(self, players: Collection[PlayerId]) -> dict[PlayerId, set[PlayerId]]:
        """The conflict relation among ``players``: either sat with the other last time."""
        conflicts: dict[PlayerId, set[PlayerId]] = {player: set() for player in players}
        for player in players:
            for other in self.last_companions(player):
                if other in conflicts:
                    conflicts[player].add(other)
                    conflicts[other].add(player)
        return conflicts

    def _bot_groups(
        self, leftovers: Sequence[PlayerId], conflicts: Conflicts, now: float
    ) -> list[tuple[PlayerId, ...]]:
        """Conflict-free groups of the leftovers, each led by one who waited too long."""
        if not self.seating.bots:
            return []
        groups: list[list[PlayerId]] = []
        placed: set[PlayerId] = set()
        for lead in leftovers:
            if lead in placed or now - self._queue[lead] <= self.seating.bot_wait:
                continue
            group = [lead]
            for other in leftovers:
                if other not in placed and other != lead and not _clashes(other, group, conflicts):
                    group.append(other)
            placed.update(group)
            groups.append(group)
        return [tuple(group) for group in groups]

    def _seat(self, group: Sequence[PlayerId], rng: random.Random) -> MatchedTable:
        """Form a table of ``group`` (bots in the empty seats), seats shuffled; in a room
        that keeps its tables seat 0 stays ``group[0]``'s (the best-ranked player)."""
        seats: list[PlayerId | None] = [*group, *[None] * (self.seating.seats - len(group))]
        first = 0 if self.seating.regroup else 1
        rest = seats[first:]
        rng.shuffle(rest)
        seats[first:] = rest
        self._tables_formed += 1
        table = MatchedTable(number=self._tables_formed, seats=tuple(seats))
        self._playing[table.number] = table
        for player in group:
            del self._queue[player]
            self._seated[player] = table.number
            self._last[player] = frozenset(group).difference({player})
        return table
