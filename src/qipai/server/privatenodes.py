"""Private tables 好友房 on a hall of several nodes: one code for the whole hall, and the
table reached from any node.

A private table is open on one node, the one it was created on (or the one that took it
over: below).  Its code is the hall's, not the node's: before a table is created, its
code is drawn here and its lease (``private:<code>``, :func:`.cluster.private_resource`)
taken in Redis; a code another node holds is drawn again.  The node keeps the lease of
each table open there, renewed with its others at every beat, so the lease's holder names
the table's node to every other node: a ``private_join`` or a ``spectate`` by code is
carried to it (the connection linked there, as a ``join`` is to its room's node:
:meth:`.gateway.Gateway.at_private`), and ``GET /api/private/{code}`` is asked of it.
"""

from __future__ import annotations

import secrets

from qipai.errors import IllegalActionError

from .hall import HallService

CODE_TRIES = 20
"""Codes drawn, at most, before a creation is refused (each one a Redis round trip; a
million codes, so one is almost always enough)."""


async def reserve_code(hall: HallService) -> str | None:
    """A new table's code, its lease taken for this node (``None``: a hall alone, where
    the core draws it).  Give it back with :meth:`.cluster.ClusterNode.unreserve` once
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
