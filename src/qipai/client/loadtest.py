"""``qipai loadtest``: N bot clients play real hands through a running hall over real sockets.

Each client signs in as a guest, joins the room, sends its entropy on every ``hand_start``
(:class:`~qipai.client.autoplay.AutoPlayer`, from :mod:`secrets`) and plays whatever its
``turn`` frames allow, choosing at random among the legal actions (seeded per client).  After the
duration it asks to leave and finishes the hand it is in.  Measured:

- ``hands`` / ``hands_per_s``: distinct hands that ended (``hand_over``) at the clients'
  tables during the play window (``duration``; the hands still running then are finished
  too and counted in ``hands_total``);
- ``actions`` / ``actions_per_s``: actions sent in the window; ``errors``: ``error``
  frames received, by code in ``error_codes``;
- ``latency_ms``: from sending an action to receiving the first event frame after it (the
  broadcast of that action, since a table applies one thing at a time), p50 / p90 / p99;
- ``coins_conserved``: for every client, the coins the server reports at the end equal
  the coins at the start plus the sum of the client's results in its ``hand_over`` frames,
  and every hand's results plus its rake and fees sum to zero;
- ``rss_per_client_kib``: the server's memory growth with every client connected, per
  client (from ``GET /api/stats``).

The last line printed is one JSON object with all of these.

With ``match`` (``qipai loadtest --match NAME``) the clients register in that match's open
run instead (the fee held), wait for it to start and play it to its end (``match_over``),
``duration`` being only how long they wait for that; the summary adds ``match``,
``match_finished`` (every client got ``match_over``) and ``prizes`` (coins paid), and
``coins_conserved`` checks each client's coins against the fee and his prize.  A regular
match starts when its places are taken: run as many clients as it has places (or fewer,
where it lets bots fill them).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .autoplay import AutoPlayer
from .connection import Connection, Frame, HallClient

FINISH_SECONDS = 90.0
"""How long a client may take, after the duration, to finish its hand and leave."""


@dataclass(frozen=True)
class LoadConfig:
    """What one load run does."""

    url: str
    clients: int
    duration: float
    game: str | None = None
    rules: str | None = None
    seed: int = 0
    think: float = 0.0
    """Mean seconds a client thinks before acting (0: at once, as fast as the hall goes)."""
    match: str | None = None
    """A match to register in and play to its end, instead of a room."""


@dataclass
class ClientStats:
    """What one client saw."""

    actions: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    hands: dict[str, Frame] = field(default_factory=dict)
    hand_times: dict[str, float] = field(default_factory=dict)
    action_times: list[float] = field(default_factory=list)
    start_coins: int = 0
    end_coins: int = 0
    net: int = 0
    failed: str | None = None
    match_over: Frame | None = None
    """The ``match_over`` frame (match mode)."""
    fee: int = 0
    """The entry fee paid (match mode)."""


@dataclass
class _Play:
    conn: Connection
    rng: random.Random
    stats: ClientStats
    seat: dict[str, int] = field(default_factory=dict)
    auto: AutoPlayer = field(init=False)
    sent_at: float | None = None
    leaving: bool = False
    think: float = 0.0
    thinking: asyncio.Task[None] | None = None
    in_match: bool = False

    def __post_init__(self) -> None:
        self.auto = AutoPlayer(self.rng.choice)


async def choose_room(hall: HallClient, game: str | None, rules: str | None) -> str:
    """The first room of ``game`` and ``rules`` (default: Dou Dizhu ``yifa``)."""
    rooms = await hall.request("GET", "/api/rooms")
    game = game or "doudizhu"
    rules = rules or ("yifa" if game else None)
    for room in rooms:
        if room["game"] == game and room["rules"] == rules:
            return str(room["id"])
    raise SystemExit(f"no room of {game} / {rules} in this hall")


async def run_client(
    hall: HallClient, config: LoadConfig, room: str, number: int, start: asyncio.Future[float]
) -> ClientStats:
    """One client's whole life: sign in, wait for ``start`` (every client connected: it
    gives the time to stop), play until then, leave."""
    stats = ClientStats()
    try:
        session = await hall.guest()
        stats.start_coins = session.coins
        async with hall.connect(session.token) as conn:
            stop_at = await asyncio.shield(start)
            rng = random.Random(config.seed * 1_000_003 + number)
            play = _Play(conn, rng, stats, think=config.think, in_match=config.match is not None)
            if config.match is None:
                await conn.send({"type": "join", "room": room})
            else:
                path = f"/api/matches/{config.match}/register"
                await hall.request("POST", path, session.token)
                stats.fee = await _entry_fee(hall, config.match)
            await _play(play, stop_at)
        stats.end_coins = (await hall.me(session.token))["coins"]
    except Exception as error:  # a client failing is a result, not a crash of the tool
        stats.failed = f"{type(error).__name__}: {error}"
    return stats


async def _entry_fee(hall: HallClient, match: str) -> int:
    listed = await hall.request("GET", "/api/matches")
    return int(next(m["entry_fee"] for m in listed if m["name"] == match))


async def _play(play: _Play, stop_at: float) -> None:
    deadline = stop_at + FINISH_SECONDS
    while True:
        if not play.leaving and not play.in_match and time.time() >= stop_at:
            play.leaving = True
            await play.conn.send({"type": "leave"})
        timeout = max(0.1, (stop_at if not play.leaving else deadline) - time.time())
        resume_at = play.auto.resume_at  # backing off after rate_limited: a resync is due
        if resume_at is not None:
            timeout = min(timeout, max(0.0, resume_at - play.auto.clock()))
        try:
            async with asyncio.timeout(timeout):
                frame = await play.conn.recv()
        except TimeoutError:
            due = play.auto.poll()
            if due is not None:
                await play.conn.send(due)
            elif play.leaving and time.time() >= deadline:
                raise
            continue
        if await _on_frame(play, frame):
            return


async def _on_frame(play: _Play, frame: Frame) -> bool:
    """Handle one frame; whether the client is done."""
    kind = frame.get("type")
    stats = play.stats
    if kind == "event" and play.sent_at is not None:
        stats.latencies.append(time.perf_counter() - play.sent_at)
        play.sent_at = None
    elif kind == "snapshot":
        play.seat[str(frame["table"])] = frame["seat"]
    reply = play.auto.on_frame(frame)
    if reply is not None and reply["type"] == "act":
        if play.think > 0 and not play.leaving:  # after the window: finish quickly
            delay = play.rng.uniform(0.5, 1.5) * play.think
            play.thinking = asyncio.create_task(_act_later(play, reply, delay))
        else:
            await _act(play, reply)
    elif reply is not None:
        await play.conn.send(reply)
    if kind == "error":
        stats.errors += 1
        stats.error_codes[frame["code"]] = stats.error_codes.get(frame["code"], 0) + 1
    elif kind == "hand_over":
        stats.hands[frame["hand"]] = frame
        stats.hand_times[frame["hand"]] = time.time()
        seat = play.seat.get(str(frame["table"]))
        if seat is not None:
            stats.net += frame["result"][seat]
    elif kind == "left":
        return True
    elif kind in ("match_over", "match_cancelled"):
        stats.match_over = frame if kind == "match_over" else None
        if kind == "match_cancelled":
            stats.net += frame["refunded"]
        return True
    elif kind == "queued" and play.leaving:
        await play.conn.send({"type": "leave"})
    return False


async def _act(play: _Play, reply: Frame) -> None:
    play.sent_at = time.perf_counter()
    play.stats.actions += 1
    play.stats.action_times.append(time.time())
    await play.conn.act(reply["action"], reply.get("table"))


async def _act_later(play: _Play, reply: Frame, delay: float) -> None:
    """Act after a person's thinking time, reading frames meanwhile (latency counts from
    the moment the action is sent; an action that falls in a back-off is held)."""
    await asyncio.sleep(delay)
    if not play.auto.hold():
        await _act(play, reply)


async def run(config: LoadConfig) -> dict[str, Any]:
    """Run the load; the summary."""
    async with HallClient(config.url, timeout=120) as hall:  # one HTTP pool for every client
        if config.match is None:
            room = await choose_room(hall, config.game, config.rules)
        else:
            room = f"match:{config.match}"
        before = await hall.request("GET", "/api/stats")
        start: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        started = time.time()
        tasks = [
            asyncio.create_task(run_client(hall, config, room, number, start))
            for number in range(config.clients)
        ]
        await _wait_connected(hall, before["connections"] + config.clients, started + 60)
        connected = await hall.request("GET", "/api/stats")
        began = time.time()
        start.set_result(began + config.duration)
        results = await asyncio.gather(*tasks)
    return summarise(
        config, room=room, results=results, window=(began, began + config.duration),
        before=before, connected=connected,
    )  # fmt: skip


async def _wait_connected(hall: HallClient, target: int, give_up: float) -> None:
    while time.time() < give_up:
        stats = await hall.request("GET", "/api/stats")
        if stats["connections"] >= target:
            return
        await asyncio.sleep(0.2)


def summarise(
    config: LoadConfig,
    *,
    room: str,
    results: list[ClientStats],
    window: tuple[float, float],
    before: dict[str, Any],
    connected: dict[str, Any],
) -> dict[str, Any]:
    """The one JSON object a run prints last (rates over the ``window`` of play: hands that
    ended in it, actions sent in it; coins checked over every hand)."""
    hands: dict[str, Frame] = {}
    ended: dict[str, float] = {}
    for stats in results:
        hands.update(stats.hands)
        ended.update(stats.hand_times)
    elapsed = window[1] - window[0]
    in_window = sum(1 for when in ended.values() if when <= window[1])
    actions = sum(1 for s in results for when in s.action_times if when <= window[1])
    latencies = sorted(ms for stats in results for ms in stats.latencies)
    balanced = all(
        sum(frame["result"]) + sum(frame.get("rake", ())) + sum(frame.get("fees", ())) == 0
        for frame in hands.values()
        if frame.get("coins", True)
    )
    per_client = all(s.failed or s.end_coins == s.start_coins + _net(s) for s in results)
    grown = connected["rss_bytes"] - before["rss_bytes"]
    matched = {} if config.match is None else _match_summary(config.match, results)
    return {
        **matched,
        "room": room,
        "clients": config.clients,
        "think_s": config.think,
        "duration_s": round(elapsed, 1),
        "hands": in_window,
        "hands_per_s": round(in_window / elapsed, 2),
        "hands_total": len(hands),
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "latency_ms": _percentiles(latencies),
        "errors": sum(s.errors for s in results),
        "error_codes": _merged(s.error_codes for s in results),
        "failed_clients": sum(1 for s in results if s.failed),
        "first_failure": next((s.failed for s in results if s.failed), None),
        "coins_conserved": balanced and per_client,
        "rss_per_client_kib": round(grown / 1024 / max(1, config.clients), 1),
        "server_rss_mib": round(connected["rss_bytes"] / 2**20, 1),
    }


def _net(stats: ClientStats) -> int:
    """A client's coin change: its hands' results, and in a match the fee and the prize."""
    prize = 0 if stats.match_over is None else int(stats.match_over["prize"])
    return stats.net - stats.fee + prize


def _match_summary(match: str, results: list[ClientStats]) -> dict[str, Any]:
    overs = [s.match_over for s in results]
    return {
        "match": match,
        "match_finished": all(over is not None for over in overs),
        "prizes": sum(int(over["prize"]) for over in overs if over is not None),
    }


def _merged(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for count in counts:
        for code, number in count.items():
            total[code] = total.get(code, 0) + number
    return total


def _percentiles(seconds: list[float]) -> dict[str, float | None]:
    if not seconds:
        return {"p50": None, "p90": None, "p99": None, "max": None}

    def at(q: float) -> float:
        return round(seconds[min(len(seconds) - 1, int(q * len(seconds)))] * 1000, 2)

    return {
        "p50": round(statistics.median(seconds) * 1000, 2),
        "p90": at(0.9),
        "p99": at(0.99),
        "max": round(seconds[-1] * 1000, 2),
    }


def main(config: LoadConfig) -> int:
    """Run, print the summary as the last line; exit 1 if a client failed or coins were
    not conserved."""
    summary = asyncio.run(run(config))
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if summary["coins_conserved"] and not summary["failed_clients"] else 1
