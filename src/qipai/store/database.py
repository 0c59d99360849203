"""Connecting to the database and bringing its schema to the newest revision.

SQLite is the embedded default (a file ``qipai.db`` in the user's data folder); a
``postgresql://`` URL runs on PostgreSQL through psycopg 3.  Every SQLite connection gets
foreign keys on, WAL journaling, ``synchronous=FULL`` and a busy timeout, and its
transactions are begun by the store itself: ``BEGIN IMMEDIATE`` for writes (so two writers
queue for the lock instead of failing half-way) and a plain ``BEGIN`` for reads.

>>> normalize_url("postgresql://hall@db.example/qipai")
'postgresql+psycopg://hall@db.example/qipai'
>>> normalize_url("sqlite:///hall.db")
'sqlite:///hall.db'
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from sqlite3 import Connection as SqliteConnection

import platformdirs
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.pool import StaticPool

from qipai.errors import InvalidActionError

SCRIPT_LOCATION = "qipai.store:migrations"
"""Alembic's script directory, as a package resource (works from a wheel as from source)."""
WRITE = "qipai_write"
"""Execution option that makes an SQLite transaction ``BEGIN IMMEDIATE``."""
BUSY_TIMEOUT_S = 30.0
"""How long an SQLite connection waits for another writer's lock before failing."""
MIGRATION_LOCK = 0x71697061
"""PostgreSQL advisory lock held while migrating, so two processes starting at once queue."""

_DRIVERS = {"postgresql": "postgresql+psycopg", "postgres": "postgresql+psycopg"}


def default_url() -> str:
    """``sqlite:///…/qipai.db`` in :func:`platformdirs.user_data_dir` (the folder is created)."""
    folder = Path(platformdirs.user_data_dir("qipai"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'qipai.db'}"


def normalize_url(url: str) -> str:
    """The URL with its driver made explicit: ``postgresql://`` runs on psycopg 3.

    :raises InvalidActionError: ``bad_database_url`` for anything but SQLite or PostgreSQL.
    """
    try:
        parsed = make_url(url)
    except Exception as error:
        raise InvalidActionError("bad_database_url", f"not a database URL: {url!r}") from error
    if parsed.drivername in _DRIVERS:
        parsed = parsed.set(drivername=_DRIVERS[parsed.drivername])
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise InvalidActionError("bad_database_url", f"neither SQLite nor PostgreSQL: {url!r}")
    return parsed.render_as_string(hide_password=False)


def display(url: str) -> str:
    """The URL with any password hidden, for logs.

    >>> display("postgresql+psycopg://hall:secret@db/qipai")
    'postgresql+psycopg://hall:***@db/qipai'
    """
    return make_url(url).render_as_string(hide_password=True)


def is_memory(url: str) -> bool:
    """Whether the URL is an in-memory SQLite database (one shared connection: tests only)."""
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (``None`` for PostgreSQL or an in-memory database)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or is_memory(url):
        return None
    return Path(str(parsed.database))


def create(url: str) -> Engine:
    """An engine for a normalized URL, with the SQLite settings described above."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    options: dict[str, object] = {"connect_args": {"timeout": BUSY_TIMEOUT_S}}
    if is_memory(url):
        options = {
            "connect_args": {"check_same_thread": False},
            "poolclass": StaticPool,
        }
    engine = create_engine(url, **options)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: SqliteConnection, _record: object) -> None:
    dbapi_connection.isolation_level = None  # the "begin" listener emits BEGIN itself
    cursor = dbapi_connection.cursor()
    for pragma in ("foreign_keys=ON", "journal_mode=WAL", "synchronous=FULL"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    write = connection.get_execution_options().get(WRITE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def writer(engine: Engine) -> Engine:
    """The same engine whose transactions take SQLite's write lock from the start."""
    return engine.execution_options(**{WRITE: True})


def snapshot(engine: Engine) -> Engine:
    """The same engine whose transactions see one snapshot (PostgreSQL ``REPEATABLE READ``)."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="REPEATABLE READ")
    return engine


def alembic_config() -> Config:
    """Alembic's configuration for the store's migrations, without any ``alembic.ini``."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


def head_revision() -> str | None:
    """The newest revision the package ships."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None``: never migrated)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` in one transaction (created if empty)."""
    config = alembic_config()
    with migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


@contextmanager
def migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in the one write transaction of a migration (upgrade or downgrade).

    PostgreSQL: it holds the advisory lock :data:`MIGRATION_LOCK`, so two processes
    migrate one after the other.  SQLite: foreign keys are off inside it, as SQLite's
    procedure for rebuilding a table that others refer to asks (Alembic's batch mode
    drops and renames tables), and every foreign key is checked before the commit; they
    are back on afterwards.  ``PRAGMA foreign_keys`` does nothing inside a transaction, so
    it is set on the bare connection before ``BEGIN``.

    :raises RuntimeError: if a foreign key is broken at the end (rolled back).
    """
    with writer(engine).connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            _outside_transaction(connection, "PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                if not sqlite:
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                yield connection
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite and not connection.invalidated:
                _outside_transaction(connection, "PRAGMA foreign_keys=ON")


def _outside_transaction(connection: Connection, pragma: str) -> None:
    """Run a PRAGMA on the SQLite connection itself, without SQLAlchemy beginning a
    transaction first."""
    connection.connection.driver_connection.execute(pragma)  # type: ignore[union-attr]
