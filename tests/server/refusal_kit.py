"""What a refused WebSocket gets: the first frame after ``hello``, and the close code that
follows it (``test_server_connection_limits.py``, ``test_server_database_down.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

WAIT = 20.0


async def hello_refusal(url: str, token: str) -> tuple[dict[str, Any], int | None]:
    """Connect to the hall at ``url`` and say hello with ``token``: the first frame, and
    the close code that follows it (``None``: not closed within :data:`WAIT`)."""
    socket = await connect(url.replace("http", "ws", 1) + "/ws")
    try:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        frame = json.loads(await socket.recv())
        await asyncio.wait_for(socket.recv(), WAIT)
    except ConnectionClosed as closed:
        return frame, None if closed.rcvd is None else closed.rcvd.code
    finally:
        with contextlib.suppress(ConnectionClosed):
            await socket.close()
    return frame, None
