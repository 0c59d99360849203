"""Alembic's environment for the store: migrate on the connection the store hands over.

:func:`qipai.store.database.migrate` puts an open connection (inside a transaction) in
``config.attributes["connection"]`` and runs ``alembic upgrade``; this file runs the
migrations on that connection.  Without one (the ``alembic`` command line with a
``sqlalchemy.url``) it connects by itself.  Importing this module outside of Alembic (the
doctest collector does) runs nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, engine_from_config, pool

from qipai.store.schema import metadata


def _alembic_is_running() -> bool:
    """Whether Alembic is executing this file: ``context.config`` exists only during a run."""
    return hasattr(context, "config")


def _run_on(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    """Upgrade (or downgrade) on the given connection, or on ``sqlalchemy.url``."""
    given = context.config.attributes.get("connection")
    if isinstance(given, Connection):
        _run_on(given)
        return
    section = context.config.get_section(context.config.config_ini_section, {})
    engine = engine_from_config(section, prefix="sqlalchemy.", poolclass=pool.NullPool)
    with engine.connect() as connection:
        _run_on(connection)


if _alembic_is_running():
    run_migrations()
