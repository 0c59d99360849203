"""``qipai loadtest --private``: private tables 好友房 under load.

Each of N owners signs in as a guest, creates a private table (``hands`` 0: until he
closes it), gets ready and starts it with bots in the other seats, then plays every
decision (a legal action, as :class:`~qipai.client.autoplay.AutoPlayer` chooses) until
the duration ends, when he closes it and waits for its final ``scoreboard``.  With
``spectators`` N, N more guests watch each table by its code once it has started
(:mod:`qipai.client.watchload`) until it closes.  The summary counts the hands scored (the
scoreboards' rows) and frames received: hands per second, frames per player (the owner) per
hand, frames per spectator per hand (median and max over the spectators), and any
spectator frame that showed a hidden card (an error).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import Connection, HallClient, JsonFrame
from qipai.client.watchload import WatchStats, hidden_event, shown_but_hidden, summary, watch
from qipai.jsontypes import json_array


@dataclass(frozen=True, slots=True)
class PrivateLoad:
    """What ``qipai loadtest --private`` runs."""

    url: str
    tables: int
    duration: float
    game: str = "doudizhu"
    rules: str = "huanle"
    seed: int = 0
    spectators: int = 0
    """Spectators per table."""


@dataclass
class TableStats:
    """One owner's table."""

    code: str = ""
    hands: int = 0
    """Rows of its final scoreboard."""
    frames: int = 0
    hidden: set[tuple[int, int]] = field(default_factory=set)
    """The events the owner got as ``hidden``: (table, n)."""
    watchers: list[WatchStats] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def run_private(load: PrivateLoad) -> dict[str, object]:
    """Run the load; its summary (one JSON object)."""
    started = time.monotonic()
    async with HallClient(load.url) as hall:
        results = await asyncio.gather(
            *(_one_table(hall, load, random.Random(load.seed + n)) for n in range(load.tables))
        )
    seconds = time.monotonic() - started
    hands = sum(r.hands for r in results)
    frames = sum(r.frames for r in results)
    watchers = [w for r in results for w in r.watchers]
    leaked = sum(shown_but_hidden(r.watchers, r.hidden) for r in results)
    errors = [error for r in results for error in r.errors]
    errors += [error for w in watchers for error in w.errors]
    if leaked:
        errors.append(f"{leaked} events hidden from the owner were shown to spectators")
    return {
        "mode": "private",
        "tables": load.tables,
        "spectators": load.spectators,
        "seconds": round(seconds, 2),
        "hands": hands,
        "hands_per_s": round(hands / seconds, 2) if seconds > 0 else 0.0,
        "frames_per_hand": round(frames / hands, 1) if hands else None,
        "frames_per_spectator_hand": summary(watchers) if load.spectators else None,
        "spectator_frames": sum(w.frames for w in watchers),
        "errors": errors,
    }


async def _one_table(hall: HallClient, load: PrivateLoad, rng: random.Random) -> TableStats:
    stats = TableStats()
    session = await hall.guest()
    async with hall.connect(session.token) as conn:
        opening: list[JsonFrame] = [
            {"type": "private_create", "game": load.game, "rules": load.rules, "hands": 0},
            {"type": "ready"},
            {"type": "private_start"},
        ]
        for message in opening:
            answer = await _answer(conn, message, stats)
            if answer.get("type") == "error":
                stats.errors.append(f"{message['type']}: {answer.get('code')}")
                return stats
        watching = [
            asyncio.create_task(watch(hall, stats.code, load.duration + 120))
            for _ in range(load.spectators)
        ]
        try:
            await _play(conn, load, rng, stats)
        finally:
            done = await asyncio.gather(*watching, return_exceptions=True)
            stats.watchers = [_watched(w) for w in done]
    return stats


def _watched(outcome: WatchStats | BaseException) -> WatchStats:
    """A spectator's stats, or his failure as one."""
    if isinstance(outcome, WatchStats):
        return outcome
    return WatchStats(errors=[f"spectator: {outcome!r}"])


async def _answer(conn: Connection, message: JsonFrame, stats: TableStats) -> JsonFrame:
    """Send ``message``; its ``ack`` or ``error`` (the frames read meanwhile counted)."""
    answer = await conn.request(message)
    async with asyncio.timeout(30):
        while not answer.done():
            _count(await conn.recv(), stats)
    return dict(answer.result())


def _count(frame: JsonFrame, stats: TableStats) -> None:
    stats.frames += 1
    if frame.get("type") == "private_table":
        stats.code = str(frame["code"])
    hidden = hidden_event(frame)
    if hidden is not None:
        stats.hidden.add(hidden)


async def _play(conn: Connection, load: PrivateLoad, rng: random.Random, stats: TableStats) -> None:
    """Play until the duration ends, then close and read the final scoreboard."""
    player = AutoPlayer(rng.choice)
    closing_at = time.monotonic() + load.duration
    closing = False
    async with asyncio.timeout(load.duration + 120):
        async for frame in conn:
            _count(frame, stats)
            if frame["type"] == "scoreboard" and frame["over"]:
                stats.hands = len(json_array(frame["rows"]))
                return
            if not closing and time.monotonic() >= closing_at:
                closing = True
                await conn.send({"type": "private_close", "id": 0})
            reply = player.on_frame(frame)
            if reply is not None and reply["type"] == "act":
                await conn.request(reply)  # the act message of AutoPlayer, for its table
            elif reply is not None:
                await conn.send(reply)


def main(load: PrivateLoad) -> int:
    """Run it and print the summary; 1 on any error."""
    summary = asyncio.run(run_private(load))
    print(json.dumps(summary, ensure_ascii=False))
    return 1 if summary["errors"] else 0
