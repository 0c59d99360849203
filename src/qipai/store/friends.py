"""Friends 好友 and what a player chooses of himself: binding a guest, a new name, a new
password, an avatar, whether his friends see where he is.

A friendship is one row per pair of players (``friendships``, the lower id first): a
request while ``accepted_at`` is NULL, friends once the other accepted.  Asking someone who
has already asked you accepts his request.  A player has at most :data:`MAX_FRIENDS`
friends and open requests together.

A new name follows the rules of registration: its keys (:func:`qipai.store.names.name_keys`)
replace the old ones in ``name_keys``, so a look-alike of anyone else's name is refused
(``name_taken``) while a player may change the case of his own.

Every function works on a connection inside a transaction the caller opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, RowMapping, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.store import names
from qipai.store.models import check_aware, check_text
from qipai.store.schema import friendships, name_keys, sessions, users

MAX_FRIENDS = 200
"""The most friends and open requests (asked or asking) one player has at a time."""
AVATARS = 12
"""How many looks the browser's avatar set holds (``avatar`` is ``0 .. AVATARS - 1``)."""

FRIENDS = "friends"
"""A friendship's state: both agreed."""
ASKED = "asked"
"""A friendship's state: I asked him, he has not answered."""
ASKING = "asking"
"""A friendship's state: he asked me, I have not answered."""


@dataclass(frozen=True)
class Card:
    """What anyone may see of a player (his 名片)."""

    id: int
    name: str
    avatar: int | None
    """The look he chose (``None``: drawn from his name)."""
    hands: int
    wins: int
    guest: bool
    show_where: bool
    """Whether his friends see where he is."""


@dataclass(frozen=True)
class Friend:
    """One row of a player's friends list."""

    card: Card
    state: str
    """:data:`FRIENDS`, :data:`ASKED` or :data:`ASKING`."""


_CARD = (
    users.c.id, users.c.name, users.c.avatar, users.c.hands, users.c.wins,
    users.c.password_hash, users.c.show_where,
)  # fmt: skip


def _card(values: RowMapping) -> Card:
    return Card(
        int(values["id"]), values["name"], values["avatar"], int(values["hands"]),
        int(values["wins"]), not values["password_hash"], bool(values["show_where"]),
    )  # fmt: skip


def card(connection: Connection, user_id: int) -> Card:
    """The card of ``user_id``.

    :raises InvalidActionError: ``unknown_user``.
    """
    row = connection.execute(select(*_CARD).where(users.c.id == user_id)).first()
    if row is None:
        raise InvalidActionError("unknown_user", f"no user {user_id}")
    return _card(row._mapping)


def card_by_name(connection: Connection, name: str) -> Card | None:
    """The card of the player called ``name``, if any."""
    row = connection.execute(select(*_CARD).where(users.c.name == name)).first()
    return None if row is None else _card(row._mapping)


def password_hash(connection: Connection, user_id: int) -> str:
    """The user's password hash (``""``: a guest).

    :raises InvalidActionError: ``unknown_user``.
    """
    found = connection.execute(
        select(users.c.password_hash).where(users.c.id == user_id)
    ).scalar_one_or_none()
    if found is None:
        raise InvalidActionError("unknown_user", f"no user {user_id}")
    return str(found)


def rename(connection: Connection, user_id: int, name: str) -> None:
    """Give ``user_id`` the name ``name`` (already checked and in NFKC form by the server).

    :raises IllegalActionError: ``name_taken`` (another player's name or a look-alike).
    :raises InvalidActionError: ``bad_name``, ``unknown_user``.
    """
    check_text(name, "name", "bad_name")
    card(connection, user_id)
    keys = sorted(names.name_keys(name))
    for key in keys:
        check_text(key, "the key of a name", "bad_name", limit=names.KEY_LENGTH)
    taken = connection.execute(
        select(users.c.id).where(users.c.name == name, users.c.id != user_id)
    ).first()
    alike = connection.execute(
        select(name_keys.c.key).where(name_keys.c.key.in_(keys), name_keys.c.user_id != user_id)
    ).first()
    if taken is not None or alike is not None:
        raise IllegalActionError(
            "name_taken", f"the name {name!r} is taken, or looks like a name already taken"
        )
    try:
        connection.execute(delete(name_keys).where(name_keys.c.user_id == user_id))
        connection.execute(insert(name_keys), [{"key": key, "user_id": user_id} for key in keys])
        connection.execute(update(users).where(users.c.id == user_id).values(name=name))
    except IntegrityError as error:  # another player took a like name in between
        raise IllegalActionError("name_taken", f"the name {name!r} is taken") from error


def bind(
    connection: Connection, user_id: int, name: str, encoded: str, *, keep: str | None
) -> None:
    """Make the guest ``user_id`` an account: the name ``name`` and the password hash
    ``encoded``; his id, and with it his coins, hands, level and friends, stay.  Every
    session but the one whose token hash is ``keep`` (the binding one) ends.

    :raises IllegalActionError: ``not_guest`` (he has a password already), ``name_taken``.
    :raises InvalidActionError: ``bad_name``, ``bad_password`` (an empty hash),
        ``unknown_user``.
    """
    if not encoded:
        raise InvalidActionError("bad_password", "an account has a password")
    if password_hash(connection, user_id):
        raise IllegalActionError("not_guest", "only a guest binds his play to a name")
    rename(connection, user_id, name)
    set_password(connection, user_id, encoded, keep=keep)


def set_password(connection: Connection, user_id: int, encoded: str, *, keep: str | None) -> int:
    """Store a new password hash and end every session of the user but the one whose
    token hash is ``keep``; returns how many ended."""
    connection.execute(update(users).where(users.c.id == user_id).values(password_hash=encoded))
    ended = delete(sessions).where(sessions.c.user_id == user_id)
    if keep is not None:
        ended = ended.where(sessions.c.token_hash != keep)
    return int(connection.execute(ended).rowcount)


def set_looks(
    connection: Connection, user_id: int, *, avatar: int | None, show_where: bool | None
) -> None:
    """Set the avatar (``-1``: back to the one drawn from the name) and whether friends see
    where he is; ``None`` leaves either as it is.

    :raises InvalidActionError: ``bad_avatar``, ``unknown_user``.
    """
    card(connection, user_id)
    values: dict[str, object] = {}
    if avatar is not None:
        if not -1 <= avatar < AVATARS:
            raise InvalidActionError("bad_avatar", f"an avatar is 0 to {AVATARS - 1}, or -1")
        values["avatar"] = None if avatar == -1 else avatar
    if show_where is not None:
        values["show_where"] = show_where
    if values:
        connection.execute(update(users).where(users.c.id == user_id).values(**values))


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _row_of(connection: Connection, a: int, b: int) -> tuple[int, datetime | None] | None:
    low, high = _pair(a, b)
    row = connection.execute(
        select(friendships.c.asker_id, friendships.c.accepted_at).where(
            friendships.c.low_id == low, friendships.c.high_id == high
        )
    ).first()
    return None if row is None else (int(row.asker_id), row.accepted_at)


def state(connection: Connection, me: int, other: int) -> str | None:
    """How ``me`` stands with ``other``: :data:`FRIENDS`, :data:`ASKED`, :data:`ASKING`,
    or ``None``."""
    if me == other:
        return None
    row = _row_of(connection, me, other)
    if row is None:
        return None
    asker, accepted = row
    return FRIENDS if accepted is not None else ASKED if asker == me else ASKING


def _count(connection: Connection, user_id: int) -> int:
    found = connection.execute(
        select(func.count())
        .select_from(friendships)
        .where(or_(friendships.c.low_id == user_id, friendships.c.high_id == user_id))
    ).scalar_one()
    return int(found)


def ask(connection: Connection, me: int, other: int, *, now: datetime) -> str:
    """``me`` asks ``other`` to be friends, or accepts his request; the state after
    (:data:`ASKED` or :data:`FRIENDS`).  Asking again is no error.

    :raises IllegalActionError: ``not_yourself``, ``already_friends``, ``too_many_friends``
        (either has :data:`MAX_FRIENDS` already).
    :raises InvalidActionError: ``unknown_user``, ``naive_datetime``.
    """
    check_aware(now, "now")
    if me == other:
        raise IllegalActionError("not_yourself", "you are your own friend already")
    card(connection, other)
    now_state = state(connection, me, other)
    if now_state == FRIENDS:
        raise IllegalActionError("already_friends", "you are friends already")
    if now_state == ASKED:
        return ASKED
    low, high = _pair(me, other)
    key = and_(friendships.c.low_id == low, friendships.c.high_id == high)
    if now_state == ASKING:
        connection.execute(update(friendships).where(key).values(accepted_at=now))
        return FRIENDS
    for user in (me, other):
        if _count(connection, user) >= MAX_FRIENDS:
            who = "you have" if user == me else "he has"
            raise IllegalActionError(
                "too_many_friends", f"{who} {MAX_FRIENDS} friends and requests already"
            )
    connection.execute(
        insert(friendships).values(low_id=low, high_id=high, asker_id=me, asked_at=now)
    )
    return ASKED


def remove(connection: Connection, me: int, other: int) -> None:
    """End a friendship, withdraw a request or decline one.

    :raises IllegalActionError: ``not_friends`` (no friendship and no request).
    """
    low, high = _pair(me, other)
    result = connection.execute(
        delete(friendships).where(friendships.c.low_id == low, friendships.c.high_id == high)
    )
    if not result.rowcount:
        raise IllegalActionError("not_friends", "you are not friends, and nobody asked")


def friends(connection: Connection, me: int) -> list[Friend]:
    """``me``'s friends and open requests (asked and asking), by name."""
    other = friendships.c.low_id + friendships.c.high_id - me  # the one who is not me
    rows = connection.execute(
        select(*_CARD, friendships.c.asker_id, friendships.c.accepted_at)
        .join_from(friendships, users, users.c.id == other)
        .where(or_(friendships.c.low_id == me, friendships.c.high_id == me))
        .order_by(users.c.name)
    ).all()
    listed = []
    for row in rows:
        kind = FRIENDS if row.accepted_at is not None else ASKED if row.asker_id == me else ASKING
        listed.append(Friend(_card(row._mapping), kind))
    return listed
