"""Private tables 好友房 through the real hall: three people create and join by code, get
ready and play a 6-hand points table of huanle to its end; the scoreboard after each hand,
kept after the close (``GET /api/private/{code}``, 战绩); a full table offers to watch;
codes cannot be tried without limit."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from server_kit import RunningHall, fast_config, running_hall

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient, HallError
from qipai.client.privateload import PrivateLoad, run_private
from qipai.hall.private.options import PrivateOptions
from qipai.server.api.protocol import PrivateCreate
from qipai.server.edge.limits import Limits, Rate
from qipai.store import Store
from qipai.store.audit import audit


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """One hall (SQLite) whose code tries are limited per account (3 a minute)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('hall') / 'hall.db'}"
    limits = Limits(None, None, None, None, None, None, None, Rate(3, 60.0))
    with running_hall(fast_config(url, limits=limits)) as running:
        yield running


def _bidder(legal: list[str]) -> str:
    """Bid and play rather than pass (a hand all pass is dealt again)."""
    return next((a for a in legal if "pass" not in a), legal[0])


async def _until(conn: Any, kind: str) -> dict[str, Any]:
    """The last ``kind`` frame read while waiting for an answer, else the next one."""
    seen = [f for f in SEEN.pop(id(conn), []) if f["type"] == kind]
    if seen:
        return seen[-1]
    async with asyncio.timeout(10):
        async for frame in conn:
            if frame["type"] == kind:
                return dict(frame)
    raise AssertionError("unreachable")


SEEN: dict[int, list[dict[str, Any]]] = {}
"""The frames each connection read while waiting for an answer, by ``id(conn)``."""


async def _answer(conn: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message``; its ``ack`` or ``error`` (the frames before it are read: kept in
    :data:`SEEN`)."""
    answer = await conn.request(message)
    async with asyncio.timeout(10):
        while not answer.done():
            SEEN.setdefault(id(conn), []).append(dict(await conn.recv()))
    return dict(answer.result())


async def _play(conn: Any) -> list[dict[str, Any]]:
    """Play until the final scoreboard; every scoreboard frame."""
    player = AutoPlayer(_bidder)
    boards = []
    async with asyncio.timeout(120):
        async for frame in conn:
            if frame["type"] == "scoreboard":
                boards.append(dict(frame))
                if frame["over"]:
                    return boards
            reply = player.on_frame(frame)
            if reply is not None and reply["type"] == "act":
                await conn.act(reply["action"], reply.get("table"))
            elif reply is not None:
                await conn.send(reply)
    raise AssertionError("unreachable")


def test_three_people_play_a_points_table_by_code_to_its_end(hall: RunningHall) -> None:
    asyncio.run(_three_play(hall))


async def _three_play(hall: RunningHall) -> None:
    async with HallClient(hall.url) as client:
        owner, second, third = [await client.guest() for _ in range(3)]
        async with (
            client.connect(owner.token) as a,
            client.connect(second.token) as b,
            client.connect(third.token) as c,
        ):
            create = {"type": "private_create", "game": "doudizhu", "rules": "huanle"}
            assert (await _answer(a, create))["type"] == "ack"
            table = await _until(a, "private_table")
            code = table["code"]
            assert table["hands"] == 6 and table["stakes"] == "points" and table["you"] == 0
            for conn in (b, c):
                assert (await _answer(conn, {"type": "private_join", "code": code}))[
                    "type"
                ] == "ack"
            assert (await _until(c, "private_table"))["you"] == 2
            for conn in (a, b, c):
                assert (await _answer(conn, {"type": "ready"}))["type"] == "ack"
            boards = await asyncio.gather(_play(a), _play(b), _play(c))
        assert boards[0] == boards[1] == boards[2]
        final = boards[0][-1]
        assert [len(board["rows"]) for board in boards[0]] == [1, 2, 3, 4, 5, 6]
        assert final["names"] == [owner.name, second.name, third.name]
        assert final["totals"] == [sum(r["points"][s] for r in final["rows"]) for s in range(3)]
        assert all(sum(r["points"]) == 0 for r in final["rows"])
        for session in (owner, second, third):
            assert (await client.me(session.token))["coins"] == session.coins  # points only
        kept = await _eventually(client, f"/api/private/{code}")
        assert kept["state"] == "closed" and kept["scoreboard"] == final and kept["played"] == 6
        mine = await client.request("GET", "/api/me/private", third.token)
        assert mine[0]["code"] == code and mine[0]["scoreboard"] == final
        history = await client.request("GET", "/api/history", owner.token)
        assert {h["hand_id"] for h in history} >= {r["hand"] for r in final["rows"]}
        assert all(h["room_id"] == table["room"] for h in history)  # its opaque id


async def _eventually(client: HallClient, path: str) -> Any:
    """``GET path`` once the store holds what it asks (it is written just after the
    close)."""
    for _ in range(50):
        try:
            return await client.request("GET", path)
        except HallError as error:
            assert error.code == "unknown_code"
            await asyncio.sleep(0.1)
    raise AssertionError(f"{path} never answered")


def test_a_full_table_offers_to_watch_and_codes_are_limited(hall: RunningHall) -> None:
    asyncio.run(_full_and_limited(hall))


async def _full_and_limited(hall: RunningHall) -> None:
    async with HallClient(hall.url) as client:
        sessions = [await client.guest() for _ in range(4)]
        conns = [client.connect(s.token) for s in sessions]
        async with conns[0] as a, conns[1] as b, conns[2] as c, conns[3] as d:
            create = {"type": "private_create", "game": "doudizhu", "rules": "huanle", "hands": 0}
            await _answer(a, create)
            code = (await _until(a, "private_table"))["code"]
            for conn in (b, c):
                await _answer(conn, {"type": "private_join", "code": code})
            full = await _answer(d, {"type": "private_join", "code": code})
            assert full["code"] == "table_full" and full["watch"] is True
            live = await client.request("GET", f"/api/private/{code}")
            assert (
                live["state"] == "waiting" and live["full"] is True and live["scoreboard"] is None
            )
            assert live["seats"] == [s.name for s in sessions[:3]]
            unknown = await _answer(d, {"type": "private_join", "code": "999999x"})
            assert unknown["code"] == "unknown_code"
            await _answer(d, {"type": "private_join", "code": "999999y"})
            limited = await _answer(d, {"type": "private_join", "code": code})
            assert limited["code"] == "too_many_tries" and limited["retry_after"] > 0
            with pytest.raises(HallError) as refused:
                await client.request("GET", "/api/private/000000", sessions[3].token)
            assert refused.value.code == "too_many_tries"
            watching = await _answer(d, {"type": "spectate", "code": code})  # a try as well
            assert watching["code"] == "too_many_tries" and watching["retry_after"] > 0
            closed = await _answer(a, {"type": "private_close"})
            assert closed["type"] == "ack"


def test_the_private_load_plays_tables_and_counts_their_hands(hall: RunningHall) -> None:
    load = PrivateLoad(hall.url, tables=2, duration=2.0, spectators=2)
    summary = asyncio.run(run_private(load))
    assert summary["errors"] == [] and summary["tables"] == 2
    assert isinstance(summary["hands"], int) and summary["hands"] >= 2
    assert isinstance(summary["hands_per_s"], float) and summary["hands_per_s"] > 0
    watched = summary["frames_per_spectator_hand"]
    assert isinstance(watched, dict) and watched["median"] > 0
    assert watched["max"] >= watched["median"] and summary["spectator_frames"] > 0


def test_a_coins_table_settles_through_the_ledger_and_the_audit_is_clean(
    hall: RunningHall,
) -> None:
    asyncio.run(_coins_table(hall))
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []


async def _coins_table(hall: RunningHall) -> None:
    async with HallClient(hall.url) as client:
        owner, friend = [await client.guest() for _ in range(2)]
        async with client.connect(owner.token) as a, client.connect(friend.token) as b:
            create = {
                "type": "private_create", "game": "doudizhu", "rules": "yifa",
                "stakes": "coins", "base": 10,
            }  # fmt: skip
            assert (await _answer(a, create))["type"] == "ack"
            code = (await _until(a, "private_table"))["code"]
            assert (await _answer(b, {"type": "private_join", "code": code}))["type"] == "ack"
            for conn in (a, b):
                await _answer(conn, {"type": "ready"})
            assert (await _answer(a, {"type": "private_start"}))["type"] == "ack"
            boards = await asyncio.gather(_play(a), _play(b))
        final = boards[0][-1]
        assert len(final["rows"]) == 6
        for seat, session in enumerate((owner, friend)):
            me = await client.me(session.token)
            assert me["coins"] == session.coins + final["totals"][seat]
        kept = await _eventually(client, f"/api/private/{code}")
        assert kept["state"] == "closed" and kept["base"] == 10  # the stake is kept


def test_a_waiting_table_is_watched_by_code_until_it_closes(hall: RunningHall) -> None:
    asyncio.run(_watch_waiting(hall))


async def _watch_waiting(hall: RunningHall) -> None:
    async with HallClient(hall.url) as client:
        owner, watcher = [await client.guest() for _ in range(2)]
        async with client.connect(owner.token) as a, client.connect(watcher.token) as w:
            create = {"type": "private_create", "game": "doudizhu", "rules": "huanle"}
            await _answer(a, create)
            code = (await _until(a, "private_table"))["code"]
            assert (await _answer(w, {"type": "spectate", "code": code}))["type"] == "ack"
            table = await _until(w, "private_table")
            assert table["you"] is None and table["state"] == "waiting"
            info = await client.request("GET", f"/api/private/{code}", owner.token)
            assert info["watchers"] == 1
            assert (await _answer(a, {"type": "private_close"}))["type"] == "ack"
            ended = await _until(w, "spectate_ended")
            assert ended == {"type": "spectate_ended", "table": None, "reason": "table_closed"}


def test_the_create_message_carries_exactly_the_options() -> None:
    """``private_create``'s fields (but its id) are :class:`PrivateOptions`' own, so the
    edge hands them over as they are."""
    sent = {field.name for field in msgspec.structs.fields(PrivateCreate)}
    assert sent - {"id"} == {field.name for field in dataclasses.fields(PrivateOptions)}
