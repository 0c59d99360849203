"""Fixtures of the store tests: every test that takes ``db_url`` runs on SQLite and PostgreSQL.

SQLite: a file in ``tmp_path``.  PostgreSQL: the server at ``QIPAI_TEST_POSTGRES``
(default ``postgresql://postgres@127.0.0.1:5432/test``, as on the developers' machines and
in CI).  The session creates its own database there and drops it at the end; each test
gets a fresh schema in it (the URL's ``search_path``).  A PostgreSQL that cannot be
reached fails the tests: the ledger must be proven on both databases.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from sqlalchemy import make_url

from qipai.store import Store

POSTGRES = os.environ.get("QIPAI_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
"""Where the PostgreSQL tests connect to create their database."""

_schemas = itertools.count(1)


def _conninfo(url: str) -> str:
    """A libpq connection string for psycopg from an SQLAlchemy-style URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A database of its own for this test session (dropped at the end); its URL."""
    name = f"qipai_store_test_{os.getpid()}"
    try:
        admin = psycopg.connect(_conninfo(POSTGRES), autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        problem = str(error)
    else:
        problem = ""
    if problem:
        pytest.fail(
            f"the store tests need PostgreSQL at {POSTGRES} (set QIPAI_TEST_POSTGRES to "
            f"another server; CI starts one): {problem}",
            pytrace=False,
        )
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    with admin:
        admin.execute(drop)  # left over by a killed run with the same process id
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
        finally:
            admin.execute(drop)


@pytest.fixture(params=["sqlite", "postgresql"])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Makes fresh, empty databases: SQLite files, or new schemas in the session's database."""
    if request.param == "sqlite":
        files = itertools.count(1)
        yield lambda: f"sqlite:///{tmp_path / f'qipai{next(files)}.db'}"
        return
    database: str = request.getfixturevalue("postgres_database")
    made: list[str] = []
    with psycopg.connect(_conninfo(database), autocommit=True) as connection:

        def make() -> str:
            schema = f"t{next(_schemas)}"
            connection.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
            made.append(schema)
            url = make_url(database).update_query_dict({"options": f"-csearch_path={schema}"})
            return url.render_as_string(hide_password=False)

        try:
            yield make
        finally:
            for schema in made:
                connection.execute(
                    sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema))
                )


@pytest.fixture
def db_url(new_database: Callable[[], str]) -> str:
    """A fresh, empty database (each test runs once on SQLite, once on PostgreSQL)."""
    return new_database()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A store on a fresh database, migrated."""
    with Store.open(db_url) as opened:
        yield opened
