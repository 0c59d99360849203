"""Friends 好友 and lasting accounts through the real hall: a guest binds his play to a
name and signs in elsewhere with his coins; a password change ends the other sessions and
cuts their connections; friends ask and accept, see each other online and where (unless
hidden); an invitation to a private table reaches the friend as an ``invite`` frame whose
code joins; a player's card; every refusal with its code."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from server_kit import RunningHall, fast_config, running_hall
from websockets.exceptions import ConnectionClosed
from wire_kit import of_type, until

from qipai.client.connection import ClientSession, HallClient, HallError
from qipai.server.edge.social import INVITES

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """One hall (SQLite) for the module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('friends') / 'hall.db'}"
    with running_hall(fast_config(url)) as running:
        yield running


async def _befriended(
    client: HallClient, first: str, second: str
) -> tuple[ClientSession, ClientSession]:
    """Two new accounts, friends (the first asked, the second accepted)."""
    one, two = [await client.register(name, PASSWORD) for name in (first, second)]
    await client.request("POST", f"/api/friends/{second}", one.token)
    await client.request("POST", f"/api/friends/{first}", two.token)
    return one, two


async def _refused(call: Any) -> str:
    with pytest.raises(HallError) as refusal:
        await call
    return refusal.value.code


def test_a_bound_guest_signs_in_elsewhere_with_his_coins(hall: RunningHall) -> None:
    async def scenario() -> None:
        async with HallClient(hall.url) as client:
            guest = await client.guest()
            coins = (await client.me(guest.token))["coins"]
            taken = await client.register("taken-name", PASSWORD)
            bind = "/api/me/bind"
            body = {"name": "Taken-Name", "password": PASSWORD}
            assert (
                await _refused(client.request("POST", bind, guest.token, json=body)) == "name_taken"
            )
            body = {"name": "游客abc", "password": PASSWORD}
            assert (
                await _refused(client.request("POST", bind, guest.token, json=body)) == "bad_name"
            )
            body = {"name": "lasting", "password": "short"}
            assert (
                await _refused(client.request("POST", bind, guest.token, json=body))
                == "bad_password"
            )
            body = {"name": "lasting", "password": PASSWORD}
            account = await client.request("POST", bind, guest.token, json=body)
            assert account == {
                "id": guest.user, "name": "lasting", "guest": False, "avatar": None,
                "show_where": True,
            }  # fmt: skip
            assert (await client.me(guest.token))["name"] == "lasting"  # his session goes on
            elsewhere = await client.login("lasting", PASSWORD)
            assert elsewhere.user == guest.user and elsewhere.coins == coins
            again = {"name": "lasting2", "password": PASSWORD}
            refused = client.request("POST", bind, guest.token, json=again)
            assert await _refused(refused) == "not_guest"
            refused = client.request("POST", bind, taken.token, json=again)
            assert await _refused(refused) == "not_guest"

    asyncio.run(scenario())


def test_a_new_password_ends_the_other_sessions_and_cuts_them(hall: RunningHall) -> None:
    async def scenario() -> None:
        async with HallClient(hall.url) as client:
            first = await client.register("changer", PASSWORD)
            second = await client.login("changer", PASSWORD)
            path = "/api/me/password"
            wrong = {"password": "not it", "new_password": "new secret"}
            assert await _refused(client.request("POST", path, first.token, json=wrong)) == (
                "bad_credentials"
            )
            async with client.connect(second.token) as other:
                body = {"password": PASSWORD, "new_password": "new secret"}
                assert await client.request("POST", path, first.token, json=body) == {"ok": True}
                with pytest.raises(ConnectionClosed):  # cut: its session is gone
                    await until(other, lambda frame: False)
            assert (await client.me(first.token))["name"] == "changer"
            assert await _refused(client.me(second.token)) == "bad_token"
            assert await _refused(client.login("changer", PASSWORD)) == "bad_credentials"
            assert (await client.login("changer", "new secret")).user == first.user
            guest = await client.guest()
            assert await _refused(client.request("POST", path, guest.token, json=body)) == (
                "not_bound"
            )

    asyncio.run(scenario())


def test_friends_see_each_other_and_invite_to_a_private_table(hall: RunningHall) -> None:
    async def scenario() -> None:
        async with HallClient(hall.url) as client:
            ann = await client.register("ann-f", PASSWORD)
            bob = await client.register("bob-f", PASSWORD)
            ask = client.request("POST", "/api/friends/bob-f", ann.token)
            assert await ask == {"name": "bob-f", "state": "asked"}
            assert await _refused(client.request("POST", "/api/friends/ann-f", ann.token)) == (
                "not_yourself"
            )
            assert await _refused(client.request("POST", "/api/friends/nobody", ann.token)) == (
                "unknown_player"
            )
            listed = await client.request("GET", "/api/friends", bob.token)
            assert [(f["name"], f["state"], f["where"]) for f in listed] == [
                ("ann-f", "asking", None)
            ]
            accept = client.request("POST", "/api/friends/ann-f", bob.token)
            assert await accept == {"name": "ann-f", "state": "friends"}
            assert await _refused(client.request("POST", "/api/friends/ann-f", bob.token)) == (
                "already_friends"
            )
            offline = await client.request("GET", "/api/friends", ann.token)
            assert [(f["online"], f["where"]) for f in offline] == [(False, None)]
            async with client.connect(ann.token) as a, client.connect(bob.token) as b:
                await b.send({"type": "ping"})  # answered once his link is open
                await until(b, of_type("pong"))
                (friend,) = await client.request("GET", "/api/friends", ann.token)
                assert (friend["online"], friend["where"]) == (
                    True,
                    {"kind": "lobby", "room": None},
                )
                refused = client.request("POST", "/api/friends/bob-f/invite", ann.token)
                assert await _refused(refused) == "not_at_private"
                create = {"type": "private_create", "game": "doudizhu", "rules": "huanle"}
                await a.request(create)
                table = await until(a, of_type("private_table"))
                invite = client.request("POST", "/api/friends/bob-f/invite", ann.token)
                assert await invite == {"ok": True}
                frame = await until(b, of_type("invite"))
                assert frame == {
                    "type": "invite", "name": "ann-f", "code": table["code"],
                    "game": "doudizhu", "title": "斗地主",
                }  # fmt: skip
                path = "/api/friends/bob-f/invite"
                for _ in range(INVITES.count - 1):  # not a spam tool: 5 at once, then wait
                    assert await client.request("POST", path, ann.token) == {"ok": True}
                assert await _refused(client.request("POST", path, ann.token)) == "rate_limited"
                await b.request({"type": "private_join", "code": frame["code"]})
                assert (await until(b, of_type("private_table")))["you"] == 1
                (friend,) = await client.request("GET", "/api/friends", bob.token)
                assert friend["where"] == {"kind": "private", "room": None}
                # hidden: online, not where
                hide = {"show_where": False, "avatar": 4}
                mine = await client.request("POST", "/api/me/account", ann.token, json=hide)
                assert (mine["avatar"], mine["show_where"]) == (4, False)
                (friend,) = await client.request("GET", "/api/friends", bob.token)
                assert (friend["online"], friend["where"], friend["avatar"]) == (True, None, 4)
            await client.register("carol-f", PASSWORD)
            refused = client.request("POST", "/api/friends/carol-f/invite", ann.token)
            assert await _refused(refused) == "not_friends"
            refused = client.request("POST", "/api/friends/bob-f/invite", ann.token)
            assert await _refused(refused) == "not_online"  # (ann's seat stays: she is away)

    asyncio.run(scenario())


def test_a_card_and_a_friendship_removed(hall: RunningHall) -> None:
    async def scenario() -> None:
        async with HallClient(hall.url) as client:
            ann, bob = await _befriended(client, "fay-c", "gus-c")
            carol = await client.register("hal-c", PASSWORD)
            card = await client.request("GET", "/api/players/fay-c", carol.token)
            assert card["name"] == "fay-c" and card["friend"] is None and not card["guest"]
            assert set(card) == {"name", "avatar", "guest", "level", "hands", "wins", "friend"}
            assert (await client.request("GET", "/api/players/fay-c", bob.token))["friend"] == (
                "friends"
            )
            assert await client.request("DELETE", "/api/friends/fay-c", bob.token) == {"ok": True}
            refused = client.request("DELETE", "/api/friends/fay-c", bob.token)
            assert await _refused(refused) == "not_friends"
            assert await client.request("GET", "/api/friends", ann.token) == []

    asyncio.run(scenario())


def test_account_changes_keep_the_name_rules(hall: RunningHall) -> None:
    async def scenario() -> None:
        async with HallClient(hall.url) as client:
            dee = await client.register("dee-r", PASSWORD)
            await client.register("eve-r", PASSWORD)
            path = "/api/me/account"
            assert await _refused(
                client.request("POST", path, dee.token, json={"name": "EVE-r"})
            ) == ("name_taken")
            assert await _refused(client.request("POST", path, dee.token, json={"avatar": 99})) == (
                "bad_avatar"
            )
            async with client.connect(dee.token) as conn:
                await conn.send({"type": "ping"})  # answered once the hall holds him
                await until(conn, of_type("pong"))
                renamed = await client.request("POST", path, dee.token, json={"name": "Dee-R"})
                assert renamed["name"] == "Dee-R"
                assert hall.hall.players[dee.user].name == "Dee-R"  # watched by his new name
            guest = await client.guest()
            refused = client.request("POST", path, guest.token, json={"name": "newname"})
            assert await _refused(refused) == "bind_first"
            assert (await client.request("GET", path, guest.token))["guest"] is True

    asyncio.run(scenario())


def test_a_friend_at_a_table_is_shown_there_and_watched_by_his_name(hall: RunningHall) -> None:
    async def scenario() -> None:
        async with HallClient(hall.url) as client:
            ivy, jon = await _befriended(client, "ivy-w", "jon-w")
            async with client.connect(ivy.token) as watcher, client.connect(jon.token) as player:
                await player.send({"type": "join", "room": "doudizhu-yifa"})
                await until(player, of_type("snapshot"))  # seated (bots fill the table)
                (friend,) = await client.request("GET", "/api/friends", ivy.token)
                assert friend["where"] == {"kind": "room", "room": "doudizhu-yifa"}
                assert friend["watchable"] is True
                await watcher.request({"type": "spectate", "player": "jon-w"})
                snapshot = await until(watcher, of_type("snapshot"))
                assert snapshot["seat"] is None  # a spectator's view
                hide = {"show_where": False}
                await client.request("POST", "/api/me/account", jon.token, json=hide)
                (friend,) = await client.request("GET", "/api/friends", ivy.token)
                assert (friend["online"], friend["where"], friend["watchable"]) == (
                    True,
                    None,
                    False,
                )

    asyncio.run(scenario())
