"""Frames kept for players who were away when they happened, until they come back.

How a hand ended (a snapshot and ``hand_over``) for a player who was away then, that his
hand was voided (``hand_voided``), that his match was cancelled: kept, and sent when he
returns, once.  A hall alone keeps them in memory (:class:`KeptHere`); the nodes of a
cluster in Redis (:class:`KeptInRedis`), so that he finds them on whichever node his
socket reaches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from redis.exceptions import RedisError

from qipai.cluster.players import MISSED_FRAMES, Players
from qipai.hall.frames import HandOver, OutFrame, from_json, to_json

log = logging.getLogger(__name__)

MISSED_KEPT = 2_000
"""Players whose frames a hall alone keeps: one entry each, the oldest dropped first; a
hand's ending is 10-16 KiB (``benchmarks/replays.py``)."""
MISSED_SECONDS = 1800.0
"""How long they are kept (half an hour; a hand is in his history anyway)."""


class MissedFrames(Protocol):
    """Where frames wait for their absent player."""

    def keep(self, user: int, frames: list[OutFrame]) -> None:
        """Keep ``frames`` for ``user``, after those kept already."""
        ...

    async def take(self, user: int) -> list[OutFrame]:
        """What was kept for ``user``, oldest first, forgotten now."""
        ...

    async def flush(self) -> None:
        """Return once everything kept so far is stored."""
        ...


class KeptHere:
    """In this process's memory: at most :data:`MISSED_KEPT` players, the newest
    :data:`~qipai.cluster.players.MISSED_FRAMES` frames each, none older than
    :data:`MISSED_SECONDS` (``clock``: seconds)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._kept: OrderedDict[int, tuple[float, list[OutFrame]]] = OrderedDict()

    def keep(self, user: int, frames: list[OutFrame]) -> None:
        """Keep ``frames`` for ``user`` (he becomes the newest entry)."""
        now = self._clock()
        _, kept = self._kept.pop(user, (now, []))
        self._kept[user] = (now, [*kept, *frames][-MISSED_FRAMES:])
        while self._kept and (
            len(self._kept) > MISSED_KEPT or self._oldest() < now - MISSED_SECONDS
        ):
            self._kept.popitem(last=False)

    async def take(self, user: int) -> list[OutFrame]:
        """What was kept for ``user`` (nothing once :data:`MISSED_SECONDS` old)."""
        kept_at, frames = self._kept.pop(user, (0.0, []))
        return frames if kept_at >= self._clock() - MISSED_SECONDS else []

    async def flush(self) -> None:
        """Nothing to wait for: kept at once."""

    def _oldest(self) -> float:
        return next(iter(self._kept.values()))[0]


class RecentEndings:
    """How the last hand of each player ended, kept whether he was connected then or not:
    a connection can be dead before anybody knows (a half-open TCP connection; a node of a
    cluster, his socket's, killed), and the frames kept for a player away may still be on
    their way to Redis when he comes back; his client, come back with event numbers short
    of the hand's end, must still be told how it ended (once).  At most :data:`MISSED_KEPT` players,
    the oldest dropped first.
    """

    def __init__(self) -> None:
        self._endings: OrderedDict[int, tuple[str, int, list[OutFrame]]] = OrderedDict()

    def note(self, user: int, ending: list[OutFrame]) -> None:
        """``ending`` (a snapshot and ``hand_over``) is how ``user``'s last hand ended."""
        over = ending[-1]
        assert isinstance(over, HandOver)  # Table.ending's last frame
        self._endings.pop(user, None)
        self._endings[user] = (str(over.table), over.n, ending)
        if len(self._endings) > MISSED_KEPT:
            self._endings.popitem(last=False)

    def forget_if_in(self, user: int, frames: list[OutFrame]) -> None:
        """Forget ``user``'s last ending if ``frames`` (what was kept for him, sent now)
        hold its ``hand_over``."""
        table, n, _ = self._endings.get(user, ("", 0, []))
        if any(isinstance(f, HandOver) and str(f.table) == table and f.n == n for f in frames):
            del self._endings[user]

    def unseen(self, user: int, last: dict[str, int]) -> list[OutFrame]:
        """The ending of ``user``'s last hand if ``last`` (his client's event numbers)
        shows that he did not get it; forgotten then."""
        table, n, ending = self._endings.get(user, ("", 0, []))
        if table not in last or last[table] >= n:
            return []
        del self._endings[user]
        return ending


class KeptInRedis:
    """In the cluster's Redis (:class:`qipai.cluster.players.Players`); a frame that
    Redis refuses is lost, and logged (the hand is in the player's history)."""

    def __init__(self, players: Players) -> None:
        self._players = players
        self._writing: set[asyncio.Task[None]] = set()

    def keep(self, user: int, frames: list[OutFrame]) -> None:
        """Keep ``frames`` for ``user`` (written in a task of its own)."""
        task = asyncio.get_running_loop().create_task(self._keep(user, frames))
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def _keep(self, user: int, frames: list[OutFrame]) -> None:
        try:
            await self._players.keep(user, [dict(to_json(frame)) for frame in frames])
        except (OSError, RedisError) as error:
            log.warning("could not keep %d frames for %d: %s", len(frames), user, error)

    async def flush(self) -> None:
        """Wait for the writes under way."""
        if self._writing:
            await asyncio.gather(*self._writing, return_exceptions=True)

    async def take(self, user: int) -> list[OutFrame]:
        """What was kept for ``user`` (after the writes under way)."""
        await self.flush()
        try:
            return [from_json(value) for value in await self._players.take(user)]
        except (OSError, RedisError) as error:
            log.warning("could not read the frames kept for %d: %s", user, error)
            return []
