"""Opening the store: URLs, the default file, the Alembic migrations, SQLite's settings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import platformdirs
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect
from store_kit import NOW, players

from qipai.errors import InvalidActionError
from qipai.store import Store, database
from qipai.store.schema import metadata


@pytest.mark.parametrize(
    ("given", "normalized"),
    [
        ("postgresql://u:pw@db:5432/hall", "postgresql+psycopg://u:pw@db:5432/hall"),
        ("postgres://u@db/hall", "postgresql+psycopg://u@db/hall"),
        ("postgresql+psycopg://u@db/hall", "postgresql+psycopg://u@db/hall"),
        ("sqlite:////var/lib/qipai/hall.db", "sqlite:////var/lib/qipai/hall.db"),
        ("sqlite://", "sqlite://"),
    ],
)
def test_urls_are_normalized(given: str, normalized: str) -> None:
    assert database.normalize_url(given) == normalized


@pytest.mark.parametrize("url", ["mysql://db/hall", "not a url", ""])
def test_other_databases_are_refused(url: str) -> None:
    with pytest.raises(InvalidActionError, match="bad_database_url"):
        database.normalize_url(url)


def test_the_default_is_a_file_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data" / "qipai"
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(folder))
    with Store.open() as store:
        assert store.url == f"sqlite:///{folder / 'qipai.db'}"
        players(store, 1)
    assert (folder / "qipai.db").is_file()


def test_the_password_is_hidden_from_display() -> None:
    assert database.display("postgresql+psycopg://hall:secret@db/qipai") == (
        "postgresql+psycopg://hall:***@db/qipai"
    )
    with Store.open("sqlite://") as store:
        assert store.display_url == "sqlite://"


def _engine(url: str) -> Engine:
    return database.create(database.normalize_url(url))


def test_migrations_build_exactly_the_schema(new_database: Callable[[], str]) -> None:
    migrated, built = _engine(new_database()), _engine(new_database())
    database.migrate(migrated)
    metadata.create_all(built)
    with migrated.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
    assert _names(migrated) == _names(built)
    assert database.current_revision(migrated) == database.head_revision() == "0013"


def _names(engine: Engine) -> dict[str, tuple[list[str], ...]]:
    """Per table: the names of its check, unique and foreign-key constraints and indexes."""
    inspector = inspect(engine)
    found = {}
    for table in metadata.tables:
        found[table] = tuple(
            sorted(str(item["name"]) for item in items)
            for items in (
                inspector.get_check_constraints(table),
                inspector.get_unique_constraints(table),
                inspector.get_foreign_keys(table),
                inspector.get_indexes(table),
            )
        )
    return found


def test_opening_again_keeps_the_data_and_downgrade_upgrade_round_trips(db_url: str) -> None:
    with Store.open(db_url) as store:
        players(store, 2)
    with Store.open(db_url) as store:
        assert [store.profile(user).coins for user in (1, 2)] == [1_000_000, 1_000_000]
    engine = _engine(db_url)
    config = database.alembic_config()
    with database.migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert database.current_revision(engine) is None
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    database.migrate(engine)
    engine.dispose()
    with Store.open(db_url) as store:
        assert store.register("ann", "h", grant=1, now=NOW) == 1


def test_an_unmigrated_database_is_not_opened_without_migrating(db_url: str) -> None:
    with pytest.raises(InvalidActionError, match="not_migrated"):
        Store.open(db_url, migrate=False)
    Store.open(db_url).close()
    Store.open(db_url, migrate=False).close()


def test_sqlite_connections_enforce_foreign_keys_in_wal_mode(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'q.db'}") as store, store.read() as connection:
        pragmas = [
            connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("foreign_keys", "journal_mode", "synchronous")
        ]
    assert pragmas == [1, "wal", 2]


def test_the_alembic_command_line_path_migrates_by_url(db_url: str) -> None:
    config = database.alembic_config()  # as `alembic upgrade head` with sqlalchemy.url set
    config.set_main_option("sqlalchemy.url", database.normalize_url(db_url).replace("%", "%%"))
    command.upgrade(config, "head")
    Store.open(db_url, migrate=False).close()
