"""A sign-in flood, or a WebSocket flood, each run as its own process (so that its CPU is
not the hall's, as an attacker's is not): ``python flood_kit.py URL SECONDS CONNECTIONS
[--rotate]`` or ``python flood_kit.py URL SECONDS --ws``.

``CONNECTIONS`` clients each send ``POST /api/login`` with a wrong password, one after the
other on a kept-alive connection, for ``SECONDS`` (at most :data:`MOST` requests in all).
With ``--rotate`` every request claims another client address (``X-Forwarded-For``,
believed from a loopback peer, as from a proxy) and names another player: a botnet
guessing at many names.  Prints ``started`` once the first answer came, then one JSON line:
``{"statuses": {"429": N, …}, "codes": {…}, "requests", "dropped", "seconds"}``
(``dropped``: requests whose connection the hall closed, which a refusal before the body
is read does).  With ``--ws`` a guest floods the WebSocket with ``ping`` messages as fast
as it can send them and connects again each time the hall cuts him off; it prints
``started``, then ``{"sent", "closes": {code: N}}``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import time
from collections import Counter

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

MOST = 50_000
"""Requests sent at most, whatever the time."""


async def flood(url: str, seconds: float, connections: int, *, rotate: bool) -> None:
    statuses: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    numbers = itertools.count()
    dropped = 0
    started = asyncio.Event()
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        begin = time.monotonic()
        stop = begin + seconds

        async def one_client() -> None:
            nonlocal dropped
            while time.monotonic() < stop:
                number = next(numbers)
                if number >= MOST:
                    return
                headers = {}
                name = "flood_victim"
                if rotate:
                    headers["X-Forwarded-For"] = (
                        f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"
                    )
                    name = f"flood_{number}"
                try:
                    response = await client.post(
                        "/api/login",
                        json={"name": name, "password": "not the password"},
                        headers=headers,
                    )
                except httpx.TransportError:
                    # a refusal answered before its body was read ends the connection, and
                    # a kept-alive one may be reused as it closes: connect again
                    dropped += 1
                    continue
                statuses[str(response.status_code)] += 1
                codes[response.json().get("error", "none")] += 1
                if not started.is_set():
                    started.set()
                    print("started", flush=True)

        await asyncio.gather(*(one_client() for _ in range(connections)))
        elapsed = time.monotonic() - begin
    report = {
        "statuses": dict(statuses),
        "codes": dict(codes),
        "requests": sum(statuses.values()),
        "dropped": dropped,
        "seconds": round(elapsed, 3),
    }
    print(json.dumps(report), flush=True)


async def ws_flood(url: str, seconds: float) -> None:
    """A guest floods the WebSocket with ``ping`` messages for ``seconds``, reading nothing;
    he connects again whenever the hall closes the connection.  Prints the messages sent
    and the closes by code."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        token = (await client.post("/api/guest")).json()["token"]
    print("started", flush=True)
    stop = time.monotonic() + seconds
    sent = 0
    closes: Counter[str] = Counter()
    ws_url = "ws" + url.removeprefix("http") + "/ws"
    while time.monotonic() < stop:
        try:
            async with connect(ws_url, max_size=None) as socket:
                await socket.send(json.dumps({"type": "hello", "token": token}))
                while time.monotonic() < stop:
                    await socket.send('{"type": "ping", "t": 1}')
                    sent += 1
        except ConnectionClosed as closed:
            closes[str(closed.rcvd.code if closed.rcvd else None)] += 1
    print(json.dumps({"sent": sent, "closes": dict(closes)}), flush=True)


if __name__ == "__main__":
    target, duration = sys.argv[1], float(sys.argv[2])
    if "--ws" in sys.argv[3:]:
        asyncio.run(ws_flood(target, duration))
    else:
        width = int(sys.argv[3])
        asyncio.run(flood(target, duration, width, rotate="--rotate" in sys.argv[4:]))
