"""A node paused past its beat (SIGSTOP, then SIGCONT) cannot settle the hand it was playing.

Two ``qipai serve --redis`` processes on one PostgreSQL.  A player sits at a table of the
node that owns his room and holds his first decision; the node is paused.  The other node
sees it stop, takes it over (the hand is voided: stakes back) and takes its room.  The
paused node is let go on: its table plays the hand to its end (the player acts) and tries
to settle it, which the database refuses; it finds it was taken over and drops its work,
cutting its connections (1012).  The hand stays voided, no coin moved, ``qipai audit`` is
clean, and the node, back in the hall, plays a new hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path
from typing import Any

import pytest
from nodes_kit import Cluster, cluster
from process_kit import audit_cli
from server_kit import play_hand
from sqlalchemy import select

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient
from qipai.store import Store
from qipai.store.schema import hands

pytestmark = pytest.mark.postgres

ROOMS = """
[[room]]
id = "p-ddz"
name = "斗地主"
game = "doudizhu"
rules = "yifa"
bot_wait = 0.2
decision_seconds = 60
"""


def test_a_paused_node_taken_over_cannot_settle(tmp_path: Path) -> None:
    with cluster(["n1", "n2"], ROOMS, tmp_path, "partition") as hall:
        paused = hall.owner("p-ddz")
        assert paused is not None
        other = next(name for name in hall.nodes if name != paused)
        hand = asyncio.run(_pause_in_hand(hall, paused, other))
        _hand_voided_and_unsettled(hall.db_url, hand)
        log = hall.nodes[paused].log.read_text(errors="replace")
        assert "was taken over while away" in log
        _, over = asyncio.run(_new_hand(hall.nodes[paused].url))  # back in the hall
        assert over["type"] == "hand_over"
        result = audit_cli(hall.db_url)
        assert result.returncode == 0, result.stdout + result.stderr


async def _pause_in_hand(hall: Cluster, paused: str, other: str) -> str:
    """A player holds his first decision at ``paused``'s table; the node is paused until
    ``other`` has taken it over and its room, then let go on while he plays on; the hand's
    id.  (The room is checked while the node is away: once back, it is the room's preferred
    node again and the room may be moving back to it.)"""
    node = hall.nodes[paused]
    async with HallClient(node.url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            await conn.send({"type": "join", "room": "p-ddz"})
            player = AutoPlayer(lambda legal: legal[0])
            hand, turn = await _first_decision(conn, player)
            node.process.send_signal(signal.SIGSTOP)
            try:
                hall.wait("the node taken over", lambda: paused not in hall.listed())
                hall.wait("its room taken", lambda: hall.owner("p-ddz") == other)
            finally:
                node.process.send_signal(signal.SIGCONT)
            await _play_on(conn, player, turn)
    return hand


async def _first_decision(conn: Any, player: AutoPlayer) -> tuple[str, dict[str, Any]]:
    hand = ""
    async with asyncio.timeout(60):
        async for frame in conn:
            if frame["type"] == "hand_start":
                hand = frame["hand"]
            if frame["type"] == "turn" and frame.get("legal"):
                return hand, frame
            reply = player.on_frame(frame)
            if reply is not None:
                await conn.send(reply)
    raise AssertionError("unreachable")


async def _play_on(conn: Any, player: AutoPlayer, turn: dict[str, Any]) -> None:
    """Act on ``turn`` and every turn after it until the hand ends or the node cuts the
    connection (having found itself taken over)."""
    frame: dict[str, Any] | None = turn
    with contextlib.suppress(Exception):  # the cut connection ends the play
        async with asyncio.timeout(30):
            while frame is not None and frame["type"] != "hand_over":
                reply = player.on_frame(frame)
                if reply is not None:
                    await conn.send(reply)
                frame = await conn.recv()


def _hand_voided_and_unsettled(db_url: str, hand: str) -> None:
    with Store.open(db_url) as store, store.read() as connection:
        status = connection.execute(select(hands.c.status).where(hands.c.id == hand)).scalar()
        assert status == "voided"
        assert store.hand_record(hand) is None  # never settled: no record, no coin


async def _new_hand(url: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            return await play_hand(conn, "p-ddz")
