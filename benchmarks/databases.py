"""Fresh databases for the hall's benchmarks: a new SQLite file or a new PostgreSQL database."""

from __future__ import annotations

import os
from pathlib import Path

import psycopg

POSTGRES = os.environ.get("QIPAI_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
"""The PostgreSQL server the benchmarks create their databases on."""


def fresh_database(kind: str, folder: Path, name: str) -> str:
    """The URL of a new, empty database called ``name`` (``sqlite`` or ``postgresql``)."""
    if kind == "sqlite":
        return f"sqlite:///{folder / f'{name}.db'}"
    database = f"qipai_bench_{os.getpid()}_{name}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{database}"')
    return POSTGRES.rsplit("/", 1)[0] + f"/{database}"
