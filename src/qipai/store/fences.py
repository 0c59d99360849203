"""Fencing tokens: a settlement made under a lease that was lost is refused.

Several hall processes share one database; each table (and each match run) is owned by
one of them through a lease with a *fencing token*, a number that grows with every new
lease of the resource.  A hand settled under a lease carries its
:class:`~qipai.store.models.Fence`; in the settlement's own transaction :func:`check`
records the token for the resource, unless a newer one is recorded already: then it
raises and the whole settlement rolls back.  A process paused past its lease (or cut off
from the lease store) and come back can therefore never settle a hand the resource's new
owner may be playing.  The check is one ``INSERT … ON CONFLICT DO UPDATE … WHERE …
RETURNING`` statement (no row back: refused), in SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection
from sqlalchemy.dialects import postgresql, sqlite

from qipai.errors import IllegalActionError
from qipai.store.models import Fence
from qipai.store.schema import fences


def check(connection: Connection, fence: Fence) -> None:
    """Record ``fence``'s token for its resource, in the caller's transaction.

    :raises IllegalActionError: ``stale_lease`` when a newer token was recorded for the
        resource (the caller's transaction must roll back: nothing of it may stand).
    """
    insert = (postgresql if connection.dialect.name == "postgresql" else sqlite).insert
    statement = insert(fences).values(resource=fence.resource, token=fence.token)
    statement = statement.on_conflict_do_update(
        index_elements=["resource"],
        set_={"token": statement.excluded.token},
        where=fences.c.token <= statement.excluded.token,
    )
    if connection.execute(statement.returning(fences.c.token)).first() is None:
        raise IllegalActionError(
            "stale_lease",
            f"{fence.resource}: token {fence.token} is older than the one recorded",
        )


def check_all(connection: Connection, proofs: Iterable[Fence | None]) -> None:
    """:func:`check` each fence given (oldest token first, each once).

    :raises IllegalActionError: ``stale_lease``.
    """
    for fence in sorted({p for p in proofs if p is not None}, key=lambda p: (p.token, p.resource)):
        check(connection, fence)


def recorded(connection: Connection, resource: str) -> int | None:
    """The newest token recorded for ``resource``, if any."""
    row = connection.execute(
        fences.select().with_only_columns(fences.c.token).where(fences.c.resource == resource)
    ).first()
    return None if row is None else int(row[0])
