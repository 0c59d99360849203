"""``kill -9`` in the middle of hands: ``qipai serve`` as a real process, on SQLite and on
PostgreSQL.

Players finish a first hand (settled, or voided if it stalled), then sit at the first
decision of a later hand, so that every table has a hand in play, and the process is killed
with SIGKILL.  Started again on the same database, the hall voids those hands before
anything else (status ``voided`` in the players' history, no coins moved, no record), the
settled ones stand, and ``qipai audit`` finds the ledger clean.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from process_kit import audit_cli, kill, serving
from websockets.exceptions import ConnectionClosed
from wire_kit import Frame, Player, fresh_postgres, guests, my_turn

from qipai.client.connection import HallClient
from qipai.store import Store
from qipai.store.audit import audit

ROOMS = """
[[room]]
id = "crash-ddz"
name = "斗地主"
game = "doudizhu"
rules = "yifa"
coefficient = 1
bot_wait = 0.2
decision_seconds = 600

[[room]]
id = "crash-zhengtu"
name = "斗地主 征途"
game = "doudizhu"
rules = "zhengtu"
coefficient = 1
bot_wait = 0.2
decision_seconds = 600

[[room]]
id = "crash-zjh"
name = "扎金花"
game = "zhajinhua"
rules = "yifa"
seats = 3
base = 1
bot_wait = 0.2
decision_seconds = 600

[[room]]
id = "crash-sh"
name = "梭哈"
game = "showhand"
rules = "yifa"
seats = 2
base = 1
bot_wait = 0.2
decision_seconds = 600
"""
PLAYERS = ("crash-ddz", "crash-zhengtu", "crash-zjh", "crash-sh")
"""The room of each player: one player a room, so that nobody waits on anybody else.  A
turn's time is ten minutes: a player who sits at a hand's first decision is not played
for (托管) while the others reach theirs (on a loaded machine that took longer than the
shipped 15 s)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'hall.db'}"
        return
    with fresh_postgres("crash") as url:
        yield url


def test_hands_interrupted_by_kill_9_are_voided_at_the_next_start(
    db_url: str, tmp_path: Path
) -> None:
    config = tmp_path / "rooms.toml"
    config.write_text(ROOMS, encoding="utf-8")
    with serving(db_url, config, tmp_path / "first.log") as (process, url):
        played = asyncio.run(_play_then_hold(url, lambda: kill(process)))
    interrupted = {p.held for p in played}
    assert len(interrupted) == len(PLAYERS)
    with Store.open(db_url) as store:  # what the crash left: hands still in play
        left = audit(store)
    assert sorted(problem.code for problem in left) == ["unfinished"] * len(interrupted)
    second = tmp_path / "second.log"
    with serving(db_url, config, second) as (process, url):
        asyncio.run(_check_after_restart(url, played))
        process.send_signal(signal.SIGTERM)  # a clean stop (uvicorn re-raises the signal)
        assert process.wait(30) in (0, -signal.SIGTERM)
    assert "Application shutdown complete" in second.read_text(errors="replace")
    audited = audit_cli(db_url)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert audited.stdout.startswith("ok:")
    assert f"{len(interrupted)} voided" in audited.stdout


@dataclass(frozen=True)
class Played:
    """One player's story before the crash, from every frame his client read."""

    token: str
    ended: list[tuple[str, str, int]]
    """Each hand over before the kill, its status in his history and his net: his first,
    and any that ended before one asked him to decide (a hand stalled, such as a Dou
    Dizhu hand nobody bid for, ends voided)."""
    held: str
    """The id of the hand he sat in when the hall was killed."""
    table: int
    """The number of the table of that hand."""
    last: dict[str, int]
    """The last event number his client had of each table."""

    @classmethod
    def of(cls, player: Player) -> Played:
        """The story his frames tell: the hands that ended (his seat at each from the
        snapshot before it: a cash room may seat him elsewhere for the next hand), and
        the last one begun."""
        ended: list[tuple[str, str, int]] = []
        seat = -1
        for frame in player.frames:
            if frame["type"] == "snapshot":
                seat = frame["seat"]
            elif frame["type"] == "hand_over":
                status = "voided" if frame["voided"] else "settled"
                ended.append((frame["hand"], status, frame["result"][seat]))
        start = [f for f in player.frames if f["type"] == "hand_start"][-1]
        assert start["hand"] not in {hand for hand, _, _ in ended}, "no hand in play"
        return cls(player.conn.token, ended, start["hand"], start["table"], dict(player.conn.last))


async def _play_then_hold(url: str, kill: Callable[[], None]) -> list[Played]:
    """Everybody plays a hand, then sits at a later one's first decision; ``kill`` while
    they all sit there (connected: a player who left would be played in 托管 to the end of
    his hand), each client reading every frame up to the kill (one that stopped reading
    would stop answering the hall's pings and be dropped)."""
    async with HallClient(url) as client, guests(client, len(PLAYERS)) as players:
        deciding = [asyncio.Event() for _ in players]
        readers = [
            asyncio.create_task(_one(player, room, at))
            for player, room, at in zip(players, PLAYERS, deciding, strict=True)
        ]
        all_deciding = asyncio.create_task(_all_set(deciding))
        await asyncio.wait([all_deciding, *readers], return_when=asyncio.FIRST_COMPLETED)
        for reader in readers:  # a reader done before the kill failed: its error
            if reader.done():
                all_deciding.cancel()
                reader.result()
        kill()
        for player in players:  # the hall is gone: no closing handshake to wait for
            player.conn.socket.transport.abort()
        await asyncio.gather(*readers)
        return [Played.of(player) for player in players]


async def _all_set(events: list[asyncio.Event]) -> None:
    for event in events:
        await event.wait()


async def _one(player: Player, room: str, deciding: asyncio.Event) -> None:
    """Play a hand to its end, then sit at the first decision of a later one without
    acting (the others may end a hand before it asks him); read on until the connection
    drops."""
    await player.conn.send({"type": "join", "room": room})
    await player.play_out()
    while not deciding.is_set():
        asked = await player.until(lambda f: my_turn(f) or f["type"] == "hand_over")
        if asked["type"] != "hand_over":
            deciding.set()
    with contextlib.suppress(ConnectionClosed):
        while True:
            player.frames.append(await player.conn.recv())


async def _check_after_restart(url: str, played: list[Played]) -> None:
    async with HallClient(url) as client:
        for story in played:
            rows = await client.request("GET", "/api/history", story.token)
            assert [(row["hand_id"], row["status"], row["net"]) for row in rows] == [
                (story.held, "voided", 0),
                *reversed(story.ended),
            ]
            me = await client.me(story.token)
            assert me["coins"] == 10_000 + sum(net for _, _, net in story.ended)  # none moved
            assert me["hands"] == sum(status == "settled" for _, status, _ in story.ended)
            with pytest.raises(Exception, match="unknown_hand"):
                await client.request("GET", f"/api/hands/{story.held}")
            await _told_of_the_void(client, story)


async def _told_of_the_void(client: HallClient, story: Played) -> None:
    """Back with his last event numbers, a player is told that his hand was voided
    (本局游戏将自动取消，输赢结果无效), once, not merely welcomed."""
    assert str(story.table) in story.last
    for times in (1, 0):
        async with client.connect(story.token, last=story.last) as conn:
            frames: list[Frame] = []  # after the welcome: what the hall kept for him
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.5):
                    while True:
                        frames.append(await conn.recv())
        told = [f for f in frames if f.get("type") == "hand_voided"]
        expected = {"type": "hand_voided", "hand": story.held, "table": story.table}
        assert [dict(f, reason=None) for f in told] == [dict(expected, reason=None)] * times
        assert all(f["reason"] == "restart" for f in told)
