"""Private tables 好友房 on a hall of several nodes: one code for the whole hall, and the
table reached from any node.

A private table is open on one node, the one it was created on (or the one that took it
over: below).  Its code is the hall's, not the node's: before a table is created, its
code is drawn here and its lease (``private:<code>``, :func:`.node.private_resource`)
taken in Redis; a code another node holds is drawn again.  The node keeps the lease of
each table open there, renewed with its others at every beat, so the lease's holder names
the table's node to every other node: a ``private_join`` or a ``spectate`` by code is
carried to it (the connection linked there, as a ``join`` is to its room's node:
:meth:`qipai.server.edge.gateway.Gateway.at_private`), and ``GET /api/private/{code}`` is
asked of it.

Each open table is kept in the store as it is after every change (``SavePrivate``:
:class:`PrivateSaves`, one writer per table, each write the table as it is then) in
``open_private_tables``, under its node's id.  The node that takes a stopped node over
(:meth:`.hall.HallService.recover`), or a node started again under its own id, adopts
that node's rows in one statement and opens each table again (:func:`reopen`): its lease
and its people's claims taken here, their coins read, ``RestorePrivate`` to the core.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import UTC, datetime
from typing import Protocol

import msgspec
from redis.exceptions import RedisError

from qipai.errors import GameError, IllegalActionError
from qipai.hall import commands as c
from qipai.hall.core import HallCore
from qipai.hall.frames import OutFrame
from qipai.hall.private.saves import SavedPrivate, decode_saved, encode_saved

from .database import Database
from .node import ClusterNode, private_resource

log = logging.getLogger(__name__)


class Runs(Protocol):
    """What carries a command out: the running hall's :class:`~.executor.Executor`."""

    def run(self, command: c.Command) -> tuple[OutFrame, ...]:
        """Handle ``command`` now and carry out its effects; the frames it answers with."""
        ...


class PrivateHall(Protocol):
    """What the private tables of a node need of the running hall
    (:class:`~.hall.HallService`, which imports this module: so a protocol, not an import).
    """

    @property
    def cluster(self) -> ClusterNode | None:
        """This process as a node (``None``: a hall alone)."""
        ...

    @property
    def core(self) -> HallCore:
        """The live hall's core."""
        ...

    @property
    def db(self) -> Database:
        """The store, on its threads."""
        ...

    @property
    def executor(self) -> Runs:
        """The one effect executor."""
        ...


ALONE = ""
"""The node id of a hall alone in ``open_private_tables``."""

CODE_TRIES = 20
"""Codes drawn, at most, before a creation is refused (each one a Redis round trip; a
million codes, so one is almost always enough)."""


async def reserve_code(hall: PrivateHall) -> str | None:
    """A new table's code, its lease taken for this node (``None``: a hall alone, where
    the core draws it).  Give it back with :meth:`.node.ClusterNode.unreserve` once
    the table was created or refused.

    :raises IllegalActionError: ``cluster_unavailable`` (Redis does not answer, or no
        free code was found).
    """
    cluster = hall.cluster
    if cluster is None:
        return None
    for _ in range(CODE_TRIES):
        code = f"{secrets.randbelow(1_000_000):06d}"
        if hall.core.private.is_free(code) and await cluster.reserve(code):
            return code
    raise IllegalActionError("cluster_unavailable", "no free code: try again")


class PrivateSaves:
    """Keeps the open private tables of one hall process in the store: one writer per
    table, each write the table as it is then (a burst of changes costs one or two
    writes), its row dropped once it closed."""

    def __init__(self, core: HallCore, db: Database, node: str) -> None:
        self.core = core
        self.db = db
        self.node = node
        """This process's id in the rows (:data:`ALONE` for a hall alone)."""
        self._writers: dict[str, asyncio.Task[None]] = {}
        self._unsaved: set[str] = set()

    def save(self, code: str) -> None:
        """Keep table ``code`` as it is (or forget it, closed) soon."""
        self._unsaved.add(code)
        writer = self._writers.get(code)
        if writer is None or writer.done():
            self._writers[code] = asyncio.get_running_loop().create_task(self._write(code))

    async def stop(self) -> None:
        """Let the writes under way land."""
        await asyncio.gather(*self._writers.values(), return_exceptions=True)

    async def _write(self, code: str) -> None:
        db = self.db
        while code in self._unsaved:
            self._unsaved.discard(code)
            saved = self.core.private.saved(code)
            try:
                if saved is None:
                    await db.run(db.store.drop_open_private, code, self.node)
                else:
                    text, now = encode_saved(saved), datetime.now(UTC)
                    if not await db.run(db.store.save_open_private, code, self.node, text, now):
                        log.warning("private table %s is kept by another node", code)
            except Exception as error:  # its next change saves it again
                log.warning("private table %s not saved: %r", code, error)
        self._writers.pop(code, None)


async def reopen(hall: PrivateHall, gone: str) -> list[str]:
    """Open here the private tables node ``gone`` kept open (another node that stopped,
    or this node's id before it started again); their codes.  A table that cannot be
    opened again (its room gone from the rooms file, its lease held elsewhere) is logged
    and dropped from the store; one that Redis failed is logged and kept (this node's
    own now: it opens it at its next start)."""
    cluster, db = hall.cluster, hall.db
    node = ALONE if cluster is None else cluster.node_id
    codes = []
    for code, text in await db.run(db.store.adopt_open_privates, gone, node):
        try:
            await _reopen_one(hall, cluster, gone, text)
        except (GameError, ValueError) as error:
            log.error("private table %s of node %r not opened again: %r", code, gone, error)
            if not _unavailable(error):  # it cannot be: closed in the store
                await db.run(db.store.drop_open_private, code, node)
            continue  # (Redis failed: kept, this node's now, opened at its next start)
        except (OSError, RedisError) as error:
            log.error("private table %s of node %r not opened again: %r", code, gone, error)
            continue
        codes.append(code)
    if codes:
        log.warning("opened again %d private tables of node %r", len(codes), gone or "alone")
    return codes


def _unavailable(error: Exception) -> bool:
    return isinstance(error, GameError) and error.code == "cluster_unavailable"


async def _reopen_one(hall: PrivateHall, cluster: ClusterNode | None, gone: str, text: str) -> None:
    """One kept table opened here: its lease and its people's claims taken (several
    nodes), their coins read, then the core's ``RestorePrivate``.

    :raises GameError: refused (its lease held by another node, the core's refusal),
        ``cluster_unavailable``.
    :raises ValueError: not a kept table this code reads.
    """
    saved = decode_saved(text)
    try:
        if cluster is not None:
            saved = await _take(cluster, gone, saved)
        users = [user for user in saved.seats if user is not None]
        balances = await hall.db.run(_balances, hall.db, users)
        hall.executor.run(c.RestorePrivate(saved, tuple(balances.items())))
    finally:
        if cluster is not None:
            cluster.unreserve(saved.code)


async def _take(cluster: ClusterNode, gone: str, saved: SavedPrivate) -> SavedPrivate:
    """The lease of table ``saved`` taken from node ``gone`` for this one, and its
    people's claims; the table with the seats of those another node holds freed.

    :raises IllegalActionError: ``code_taken`` (another node holds its lease),
        ``cluster_unavailable``.
    """
    await cluster.guarded(cluster.leases.clear(private_resource(saved.code), gone))
    if not await cluster.reserve(saved.code):
        raise IllegalActionError("code_taken", "its lease is held by another node")
    seats = list(saved.seats)
    for seat, user in enumerate(seats):
        if user is not None and not await cluster.guarded(
            cluster.players.move(user, gone, cluster.node_id)
        ):
            seats[seat] = None  # held by a third node meanwhile: his seat is free
    return msgspec.structs.replace(saved, seats=seats)


def _balances(db: Database, users: list[int]) -> dict[int, int]:
    return {user: db.store.balance(user) for user in users}
