"""The hall's database: accounts, sessions, the exact coin ledger, hands, match runs, the audit.

SQLAlchemy Core (synchronous: the server calls it from a worker thread) with Alembic
migrations shipped in the package; SQLite by default, PostgreSQL for real deployments.
The audit is :mod:`qipai.store.audit` (not re-exported here, so that the module keeps
its name).  See ``docs/ledger.md``.
"""

from qipai.store.models import (
    Fence,
    HandSettlement,
    HandStart,
    HistoryRow,
    LeaderRow,
    MatchResultRow,
    MatchRunRow,
    Profile,
    User,
)
from qipai.store.store import Store

__all__ = [
    "Fence",
    "HandSettlement",
    "HandStart",
    "HistoryRow",
    "LeaderRow",
    "MatchResultRow",
    "MatchRunRow",
    "Profile",
    "Store",
    "User",
]
