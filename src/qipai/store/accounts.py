"""Players: registration with the starting grant, sign-in sessions, profiles, leaderboards.

Every function works on a connection inside a transaction the caller opened; the server
hashes passwords and session tokens (the store keeps only hashes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy import BigInteger, Column, Connection, Integer, delete, insert, select
from sqlalchemy.exc import IntegrityError

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.store import ledger, names
from qipai.store.bulk import update_rows
from qipai.store.ledger import Entry, Posting, SystemAccounts
from qipai.store.models import (
    LEADERBOARDS,
    TOKEN_LENGTH,
    LeaderRow,
    Profile,
    User,
    check_aware,
    check_text,
)
from qipai.store.schema import accounts, name_keys, sessions, users

MAX_LIMIT = 1000
"""The most rows one history or leaderboard call returns."""


def check_limit(limit: int) -> None:
    """:raises InvalidActionError: ``bad_limit`` unless ``1 <= limit <= MAX_LIMIT``."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidActionError("bad_limit", f"limit must be 1..{MAX_LIMIT}, not {limit}")


def register(
    connection: Connection,
    system: SystemAccounts,
    name: str,
    password_hash: str,
    *,
    grant: int,
    now: datetime,
) -> int:
    """Create the user, his account and the grant ``grant:signup:<id>``; returns the id.

    The name is stored as given (the server checks its characters and puts it in NFKC
    form first); its keys (:func:`qipai.store.names.name_keys`) go into ``name_keys``, whose
    primary key refuses a name that is, or looks like, one already taken.

    :raises IllegalActionError: ``name_taken`` (the same name, the same but for case, or a
        look-alike).
    :raises InvalidActionError: ``bad_name`` (empty or too long), ``bad_amount`` (negative grant),
        ``naive_datetime``.
    """
    check_text(name, "name", "bad_name")
    if grant < 0:
        raise InvalidActionError("bad_amount", f"a grant is never negative: {grant}")
    check_aware(now, "now")
    keys = sorted(names.name_keys(name))
    for key in keys:
        check_text(key, "the key of a name", "bad_name", limit=names.KEY_LENGTH)
    _check_name_free(connection, name, keys)
    try:
        user_id: int = connection.execute(
            insert(users)
            .values(name=name, password_hash=password_hash, created_at=now)
            .returning(users.c.id)
        ).scalar_one()
        connection.execute(insert(name_keys), [{"key": key, "user_id": user_id} for key in keys])
    except IntegrityError as error:  # another registration of a like name got in between
        raise IllegalActionError("name_taken", f"the name {name!r} is taken") from error
    connection.execute(
        insert(accounts).values(name=ledger.user_account_name(user_id), user_id=user_id, balance=0)
    )
    if grant:
        give(connection, system, user_id, grant, f"signup:{user_id}", now=now)
    return user_id


def _check_name_free(connection: Connection, name: str, keys: Sequence[str]) -> None:
    """Tell a taken name from a look-alike (the insert's constraint is what guarantees it).

    :raises IllegalActionError: ``name_taken``.
    """
    if connection.execute(select(users.c.id).where(users.c.name == name)).first() is not None:
        raise IllegalActionError("name_taken", f"the name {name!r} is taken")
    if connection.execute(select(name_keys.c.key).where(name_keys.c.key.in_(keys))).first():
        raise IllegalActionError(
            "name_taken",
            f"the name {name!r} looks like a name already taken (the same letters in another "
            "case, or characters that look alike)",
        )


def give(
    connection: Connection,
    system: SystemAccounts,
    user_id: int,
    amount: int,
    key: str,
    *,
    now: datetime,
) -> bool:
    """Grant coins from ``system:grants`` once per ``key`` (stored as ``grant:<key>``).

    :raises InvalidActionError: ``bad_amount`` (not positive), ``bad_key`` (empty or too long),
        ``unknown_user``.
    """
    if amount <= 0:
        raise InvalidActionError("bad_amount", f"a grant is a positive amount, not {amount}")
    check_text(key, "key", "bad_key", limit=TOKEN_LENGTH - len("grant:"))
    check_aware(now, "now")
    account = account_of(connection, user_id)
    moves = (Entry(system.grants, -amount, "grant"), Entry(account, amount, "grant"))
    return ledger.post(connection, [Posting(f"grant:{key}", "grant", moves, now)])[0]


def account_of(connection: Connection, user_id: int) -> int:
    """The id of the user's ledger account.

    :raises InvalidActionError: ``unknown_user``.
    """
    return _account_column(connection, accounts.c.id, user_id)


def user_by_name(connection: Connection, name: str) -> User | None:
    """The user of that name, if any."""
    row = connection.execute(
        select(users.c.id, users.c.name, users.c.password_hash, users.c.created_at).where(
            users.c.name == name
        )
    ).first()
    return None if row is None else User(row.id, row.name, row.password_hash, row.created_at)


def create_session(
    connection: Connection,
    user_id: int,
    token_hash: str,
    expires_at: datetime,
    address: str | None = None,
) -> None:
    """Remember a session token's hash until ``expires_at``.

    :raises InvalidActionError: ``unknown_user``, ``bad_token`` (empty or too long),
        ``naive_datetime``.
    :raises IllegalActionError: ``session_exists`` (the same hash twice).
    """
    check_aware(expires_at, "expires_at")
    check_text(token_hash, "token_hash", "bad_token", limit=TOKEN_LENGTH)
    account_of(connection, user_id)
    try:
        connection.execute(
            insert(sessions).values(
                token_hash=token_hash,
                user_id=user_id,
                expires_at=expires_at,
                address=None if address is None else address[:64],
            )
        )
    except IntegrityError as error:
        raise IllegalActionError("session_exists", "that token is already in use") from error


def session_user(connection: Connection, token_hash: str, now: datetime) -> int | None:
    """The user whose session this is, or ``None`` if unknown or expired at ``now``."""
    check_aware(now, "now")
    found = connection.execute(
        select(sessions.c.user_id).where(
            sessions.c.token_hash == token_hash, sessions.c.expires_at > now
        )
    ).scalar_one_or_none()
    return None if found is None else int(found)


def delete_session(connection: Connection, token_hash: str) -> None:
    """Forget a session (signing out); an unknown one is no error."""
    connection.execute(delete(sessions).where(sessions.c.token_hash == token_hash))


def delete_expired_sessions(connection: Connection, now: datetime) -> int:
    """Forget every session expired at ``now``; returns how many."""
    check_aware(now, "now")
    result = connection.execute(delete(sessions).where(sessions.c.expires_at <= now))
    return int(result.rowcount)


def profile(connection: Connection, user_id: int) -> Profile:
    """The player's name, coins, points, hands and wins.

    :raises InvalidActionError: ``unknown_user``.
    """
    row = connection.execute(
        select(
            users.c.id,
            users.c.name,
            accounts.c.balance,
            users.c.points,
            users.c.hands,
            users.c.wins,
        )
        .join_from(users, accounts, accounts.c.user_id == users.c.id)
        .where(users.c.id == user_id)
    ).first()
    if row is None:
        raise InvalidActionError("unknown_user", f"no user {user_id}")
    return Profile(row.id, row.name, row.balance, row.points, row.hands, row.wins)


def balance(connection: Connection, user_id: int) -> int:
    """The user's coins.

    :raises InvalidActionError: ``unknown_user``.
    """
    return _account_column(connection, accounts.c.balance, user_id)


def _account_column(connection: Connection, column: Column[int], user_id: int) -> int:
    """One integer column of the user's account row.

    :raises InvalidActionError: ``unknown_user``.
    """
    found = connection.execute(
        select(column).where(accounts.c.user_id == user_id)
    ).scalar_one_or_none()
    if found is None:
        raise InvalidActionError("unknown_user", f"no user {user_id}")
    return int(found)


def leaderboard(connection: Connection, by: str, *, limit: int) -> list[LeaderRow]:
    """The best players by coins, wins or points (ties: the older account first); deleted
    accounts (``已注销<id>``) are left out.

    :raises InvalidActionError: ``bad_leaderboard``, ``bad_limit``.
    """
    if by not in LEADERBOARDS:
        raise InvalidActionError("bad_leaderboard", f"rank by one of {LEADERBOARDS}, not {by!r}")
    check_limit(limit)
    value = {"coins": accounts.c.balance, "wins": users.c.wins, "points": users.c.points}[by]
    rows = connection.execute(
        select(users.c.id, users.c.name, value)
        .join_from(users, accounts, accounts.c.user_id == users.c.id)
        .where(users.c.name.not_like(f"{names.DELETED_PREFIX}%"))
        .order_by(value.desc(), users.c.id)
        .limit(limit)
    )
    return [LeaderRow(rank, user, name, int(v)) for rank, (user, name, v) in enumerate(rows, 1)]


def add_play(connection: Connection, stats: Sequence[Mapping[str, int]]) -> None:
    """Add to users' counters: rows of ``b_user``, ``b_hands``, ``b_wins`` and ``b_points``."""
    counters = ("hands", "wins", "points")
    update_rows(
        connection, users,
        {"b_user": Integer(), **{f"b_{name}": BigInteger() for name in counters}}, stats,
        match=lambda row: [users.c.id == row["b_user"]],
        changes=lambda row: {name: users.c[name] + row[f"b_{name}"] for name in counters},
        lock=(users.c.id, "b_user"),
    )  # fmt: skip
