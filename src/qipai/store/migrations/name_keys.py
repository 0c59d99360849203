"""Giving every existing user the keys of his name: what revisions ``0002`` (which made
the table ``name_keys``) and ``0007`` (which recomputed the keys under new rules) share.

The keys are those of the current :func:`qipai.store.names.name_keys`; users are taken
oldest first, and a key already held by an older user is not given to a younger one: two
existing names that the rules now call the same (``"Bob"`` and ``"bob"``, ``"BOB"`` and
``"b0b"``, ``"张三"`` and ``"張三"``) both stay, as they are how their players sign in, and
each such pair is logged as a WARNING on the logger ``qipai.store.migrations`` for the
operator to look at.  From then on no new name may meet any key.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa

from qipai.store.names import name_keys

log = logging.getLogger("qipai.store.migrations")


def fill_name_keys(connection: sa.Connection, key_length: int) -> None:
    """Insert every user's keys (cut to ``key_length``) into an empty ``name_keys``."""
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String))
    keys = sa.table("name_keys", sa.column("key", sa.String), sa.column("user_id", sa.Integer))
    holders: dict[str, tuple[int, str]] = {}
    rows = []
    for user_id, name in connection.execute(
        sa.select(users.c.id, users.c.name).order_by(users.c.id)
    ):
        alike = set()
        for key in sorted({key[:key_length] for key in name_keys(name)}):
            if key in holders:
                alike.add(holders[key])
            else:
                holders[key] = (user_id, name)
                rows.append({"key": key, "user_id": user_id})
        for older, older_name in sorted(alike):
            log.warning(
                "user %d %r looks like user %d %r: both keep their names",
                user_id, name, older, older_name,
            )  # fmt: skip
    if rows:
        connection.execute(sa.insert(keys), rows)
