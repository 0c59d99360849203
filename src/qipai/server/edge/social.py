"""Friends 好友 and lasting accounts at the edge (``docs/hall.md``, "Friends"; the rules
of who sees what: ``docs/security.md``, "Friends and accounts").

- ``GET /api/me/account``, ``POST /api/me/account`` (a new name, an avatar, whether
  friends see where he is), ``POST /api/me/bind`` (a guest keeps his play under a name and
  a password), ``POST /api/me/password`` (every other session of the account ends, and its
  open connections are cut);
- ``GET /api/friends``, ``POST /api/friends/{name}`` (ask, or accept his request),
  ``DELETE /api/friends/{name}`` (remove, withdraw or decline), ``POST
  /api/friends/{name}/invite`` (an ``invite`` frame to a friend online, to the private
  table the inviter sits at);
- ``GET /api/players/{name}``: a player's card 名片.

Where a friend is, an invitation and the connections a new password closes reach every
node of a hall of several (:mod:`.socialnodes`).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.levels import level_for
from qipai.jsontypes import Json
from qipai.server.api.answers import (
    Account,
    FriendAnswer,
    Friendship,
    JsonAnswer,
    LevelAnswer,
    Ok,
    PlayerCard,
    Where,
)
from qipai.store import friends
from qipai.store.friends import Card

from . import socialnodes
from .auth import check_name, check_password, sign_in_names, token_hash
from .endpoints import (
    Live,
    Services,
    api,
    bearer_token,
    client_address,
    maybe_signed_in,
    read_body,
    signed_in,
)
from .limits import Limiter, Rate, RateLimitedError

INVITES = Rate(5, 60.0)
"""Invitations one player may send: 5 at once, then one every 12 seconds."""
ASKS = Rate(20, 600.0)
"""Friend requests one player may send: 20 at once, then one every 30 seconds."""


def social_routes(live: Live) -> list[Route]:
    """The routes of friends and accounts, over the running hall's services."""
    return [*_account_routes(live), *_friend_routes(live)]


def _account_routes(live: Live) -> list[Route]:
    """``/api/me/account``, ``/api/me/bind``, ``/api/me/password``."""

    async def account(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        if request.method == "POST":
            body = await read_body(request)
            await _change_account(services, user.id, body)
        return await _account(services, user.id)

    async def bind(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        await services.gate.register(client_address(request))
        body = await read_body(request)
        name, password = check_name(body.get("name")), check_password(body.get("password"))
        encoded = await services.accounts.hashing.run(services.accounts.passwords.hash, password)
        keep = token_hash(bearer_token(request))
        await services.db.run(services.db.store.bind, user.id, name, encoded, keep=keep)
        _renamed(services, user.id, name)
        return await _account(services, user.id)

    async def password(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        await services.gate.sign_in(client_address(request))
        body = await read_body(request)
        old, new = body.get("password"), check_password(body.get("new_password"))
        store, hashing = services.db.store, services.accounts.hashing
        passwords = services.accounts.passwords
        encoded = await services.db.run(store.password_hash, user.id)
        if not encoded:
            raise IllegalActionError("not_bound", "a guest has no password: bind first")
        if not isinstance(old, str) or not await hashing.run(passwords.verify, encoded, old):
            raise IllegalActionError("bad_credentials", "wrong password")
        keep = token_hash(bearer_token(request))
        encoded = await hashing.run(passwords.hash, new)
        await services.db.run(store.set_password, user.id, encoded, keep=keep)
        socialnodes.cut(services.hall, services.gateway, user.id, keep)
        return JsonAnswer(Ok(ok=True))

    return [
        api("/api/me/account", account, ["GET", "POST"]),
        api("/api/me/bind", bind, ["POST"]),
        api("/api/me/password", password, ["POST"]),
    ]


def _friend_routes(live: Live) -> list[Route]:
    """``/api/friends…`` and ``/api/players/{name}``."""
    invites, asks = Limiter(INVITES), Limiter(ASKS)

    async def friend_list(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        rows = await services.db.run(services.db.store.friend_list, user.id)
        ids = [row.card.id for row in rows if row.state == friends.FRIENDS]
        seen = await socialnodes.presence(services.hall, services.gateway, ids)
        return JsonAnswer([_friend(row, seen.get(row.card.id)) for row in rows])

    async def ask(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        _spend(asks, str(user.id), "friend requests")
        other = await _player(services, request, user.id)
        now = datetime.now(UTC)
        state = await services.db.run(services.db.store.ask_friend, user.id, other.id, now=now)
        return JsonAnswer(Friendship(name=other.name, state=state))

    async def remove(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        other = await _player(services, request, user.id)
        await services.db.run(services.db.store.remove_friend, user.id, other.id)
        return JsonAnswer(Ok(ok=True))

    async def invite(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        other = await _player(services, request, user.id)
        state = await services.db.run(services.db.store.friend_state, user.id, other.id)
        if state != friends.FRIENDS:
            raise IllegalActionError("not_friends", f"{other.name} is not your friend")
        hall, gateway = services.hall, services.gateway
        frame = await socialnodes.invite_of(hall, gateway, user.id, user.name)
        if frame is None:
            raise IllegalActionError("not_at_private", "invite from a private table you sit at")
        if other.id not in await socialnodes.presence(hall, gateway, [other.id]):
            raise IllegalActionError("not_online", f"{other.name} is not online")
        _spend(invites, str(user.id), "invitations")
        socialnodes.send_invite(hall, gateway, other.id, frame)
        return JsonAnswer(Ok(ok=True))

    async def player(request: Request) -> Response:
        services = live()
        asker = await maybe_signed_in(services, request)
        card = await _player(services, request, None)
        state = None
        if asker is not None and asker.id != card.id:
            state = await services.db.run(services.db.store.friend_state, asker.id, card.id)
        level = level_for(card.wins)
        rank = LevelAnswer(title=level.title, rank=level.rank, next_wins=level.next_wins)
        return JsonAnswer(
            PlayerCard(
                name=card.name, avatar=card.avatar, guest=card.guest, level=rank,
                hands=card.hands, wins=card.wins, friend=state,
            )
        )  # fmt: skip

    return [
        api("/api/friends", friend_list, ["GET"]),
        api("/api/friends/{name}", ask, ["POST"]),
        api("/api/friends/{name}", remove, ["DELETE"]),
        api("/api/friends/{name}/invite", invite, ["POST"]),
        api("/api/players/{name}", player, ["GET"]),
    ]


async def _account(services: Services, user: int) -> Response:
    """The answer of ``/api/me/account`` and of every change to it."""
    card = await services.db.run(services.db.store.card, user)
    account = Account(
        id=card.id, name=card.name, guest=card.guest, avatar=card.avatar,
        show_where=card.show_where,
    )  # fmt: skip
    return JsonAnswer(account)


async def _change_account(services: Services, user: int, body: dict[str, Json]) -> None:
    """A new name (a guest binds instead: ``bind_first``), avatar, ``show_where``.

    :raises InvalidActionError: ``bad_avatar``, ``bad_setting``, ``bad_name``.
    :raises IllegalActionError: ``bind_first``, ``name_taken``.
    """
    avatar, show = body.get("avatar"), body.get("show_where")
    if avatar is not None and (not isinstance(avatar, int) or isinstance(avatar, bool)):
        raise InvalidActionError("bad_avatar", "an avatar is a number")
    if show is not None and not isinstance(show, bool):
        raise InvalidActionError("bad_setting", "show_where is true or false")
    store = services.db.store
    if "name" in body:
        name = check_name(body["name"])
        if (await services.db.run(store.card, user)).guest:
            raise IllegalActionError("bind_first", "a guest chooses his name by binding")
        await services.db.run(store.rename, user, name)
        _renamed(services, user, name)
    await services.db.run(store.set_looks, user, avatar=avatar, show_where=show)


def _renamed(services: Services, user: int, name: str) -> None:
    """The hall's record of ``user``, if it holds him, takes his new name (watching him by
    his name finds him under it; a table seats him under it from its next hand)."""
    player = services.hall.players.get(user)
    if player is not None:
        player.name = name


def _spend(limiter: Limiter, key: str, what: str) -> None:
    """:raises RateLimitedError: ``rate_limited``."""
    wait = limiter.take(key, now=time.monotonic())
    if wait:
        raise RateLimitedError("rate_limited", f"too many {what}: wait", wait)


async def _player(services: Services, request: Request, me: int | None) -> Card:
    """The player the path names (as typed, then in NFKC form); looking names up is
    limited per address and account like watching by a name.

    :raises IllegalActionError: ``unknown_player``, ``not_yourself`` (``me`` himself),
        ``too_many_tries``.
    """
    name = request.path_params["name"]
    if me is not None:
        await services.gate.name_try(client_address(request), me)
    for candidate in sign_in_names(name):
        card = await services.db.run(services.db.store.card_by_name, candidate)
        if card is not None:
            if card.id == me:
                raise IllegalActionError("not_yourself", "that is you")
            return card
    raise IllegalActionError("unknown_player", f"no player {name!r}")


def _friend(row: friends.Friend, seen: socialnodes.Presence | None) -> FriendAnswer:
    """A row of the friends list: online, where and watchable only for a friend
    (``seen``: where he is, if connected), and ``where`` only if he lets his friends see it."""
    card = row.card
    where = None if seen is None else Where(kind=seen.kind, room=seen.room)
    shown = card.show_where and row.state == friends.FRIENDS
    return FriendAnswer(
        name=card.name, avatar=card.avatar, state=row.state, online=seen is not None,
        where=where if shown else None, watchable=shown and seen is not None and seen.watchable,
    )  # fmt: skip
