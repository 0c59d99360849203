"""Whatever a client sends over the WebSocket, the hall answers it or ends the connection
cleanly, and logs no traceback: binary messages (``binary_not_supported``), empty text, a
lone surrogate, text that is not UTF-8 (the WebSocket's own 1007), and floods (one
``rate_limited`` with ``retry_after`` per window, the rest dropped unanswered, and a client
that floods window after window cut off with 1008, his seat left exactly as after any
disconnect).  A client of :mod:`qipai.client` keeps under the rate by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Iterator

import pytest
from fuzz_kit import hall_log, problems
from server_kit import RunningHall, running_hall
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from wire_kit import (
    TOGETHER,
    WAIT,
    Frame,
    Player,
    config_with,
    guests,
    my_turn,
    next_frame,
    of_type,
    play_all,
    room_like,
    seat_together,
    until,
    view_now,
    ws_url,
)

from qipai.client.connection import HallClient
from qipai.server.api.protocol import LONE_SURROGATE, MAX_MESSAGE_BYTES
from qipai.server.edge import connection as connection_module

ALONE = room_like("doudizhu-yifa", "fr-alone")
"""A player and two bots."""
PAIR = room_like("doudizhu-yifa", "fr-pair", bot_wait=TOGETHER)
"""Two players and a bot."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """One hall (SQLite) for the module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('frames') / 'hall.db'}"
    with running_hall(config_with(url, ALONE, PAIR)) as running:
        yield running


@pytest.fixture
def server_log() -> Iterator[list[logging.LogRecord]]:
    """Every record the hall logs during the test."""
    with hall_log() as records:
        yield records


def tracebacks(records: list[logging.LogRecord]) -> list[str]:
    """The records that carry an exception, or are errors (their messages)."""
    return [problem.split(": ", 1)[1] for problem in problems(records)]


# --- binary messages, text that is not a message ----------------------------------------------


def test_a_binary_message_is_refused_and_the_seat_kept(
    hall: RunningHall, server_log: list[logging.LogRecord]
) -> None:
    asyncio.run(_binary_at_the_table(hall.url))
    assert tracebacks(server_log) == []


async def _binary_at_the_table(url: str) -> None:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        await ann.conn.send({"type": "join", "room": ALONE.id})
        await ann.until(my_turn)  # the table waits on her: nothing else moves
        before = await view_now(ann.conn)
        for data in (b'{"type": "ping", "t": 1}', b"\x00\xff", b""):
            await ann.conn.socket.send(data)
            answer = await next_frame(ann.conn)
            assert answer["type"] == "error" and answer["code"] == "binary_not_supported", answer
        assert await view_now(ann.conn) == before  # still seated, connected, not in 托管
        assert before["players"][ann.seat]["connected"]
        assert not before["players"][ann.seat]["trustee"]
        await ann.conn.send({"type": "resync"})  # her turn again, to play (not time out)
        over = await ann.play_out()
        assert not over["voided"]
        turns = [f for f in ann.frames if f["type"] == "turn"]
        assert all(f["players"][ann.seat]["connected"] for f in turns)


def test_a_binary_hello_is_refused(hall: RunningHall, server_log: list[logging.LogRecord]) -> None:
    async def hello() -> tuple[Frame, int | None]:
        async with HallClient(hall.url) as client:
            session = await client.guest()
        async with connect(ws_url(hall.url), compression=None) as raw:
            await raw.send(json.dumps({"type": "hello", "token": session.token}).encode())
            async with asyncio.timeout(WAIT):
                frame = json.loads(await raw.recv())
                with contextlib.suppress(ConnectionClosed):
                    await raw.recv()
            return frame, raw.close_code

    frame, code = asyncio.run(hello())
    assert frame["code"] == "binary_not_supported" and code == 4001
    assert tracebacks(server_log) == []


TEXTS = [
    ("", "bad_json", "an empty message: send one JSON object"),
    ("   ", "bad_json", "an empty message: send one JSON object"),
    ('{"type": "act", "id": 1, "action": "\\ud800"}', "bad_json", LONE_SURROGATE),
    ('{"type": "act", "id": 1, "action": "\\ud800 x"}', "bad_json", LONE_SURROGATE),
    ('{"type": "act", "id": 1, "action": "\\udc00"}', "bad_json", LONE_SURROGATE),
    ('{"\\udfff": 1}', "bad_json", LONE_SURROGATE),
    ('{"type": "act", "id": 1, "action": "pla', "bad_json", "the JSON text ends too soon"),
    ('{"type": "ping"', "bad_json", "the JSON text ends too soon"),
    ('{"type": "deal"}', "bad_message", "unknown message type 'deal'"),
    ('{"type": "ping", "t": 1} 2', "bad_json", "JSON is malformed: trailing characters"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "too_large", "a message is at most"),
]
"""Text messages that are not messages: the code and the start of the message each gets."""


def test_text_that_is_not_a_message_is_refused_saying_why(
    hall: RunningHall, server_log: list[logging.LogRecord]
) -> None:
    async def send_all() -> list[Frame]:
        async with HallClient(hall.url) as client, guests(client, 1) as (ann,):
            answers = []
            for text, _, _ in TEXTS:
                await ann.conn.socket.send(text)
                answers.append(await next_frame(ann.conn))
            await ann.conn.send({"type": "ping", "t": 3})  # and the connection lives on
            assert await next_frame(ann.conn) == {"type": "pong", "t": 3}
            return answers

    for (text, code, start), answer in zip(TEXTS, asyncio.run(send_all()), strict=True):
        assert answer["type"] == "error" and answer["code"] == code, (text[:60], answer)
        assert answer["message"].startswith(start), (text[:60], answer)
    assert tracebacks(server_log) == []


UVICORN_UTF8 = "Invalid UTF-8 sequence received from client."
"""What uvicorn's sans-I/O WebSocket logs (an error, with the decoding error's traceback,
which the hall's ``ClientInputNoise`` filter turns into an INFO line) when a text frame is
not UTF-8; it closes the connection (1007) itself."""


def test_text_that_is_not_utf8_closes_the_socket_cleanly(
    hall: RunningHall, server_log: list[logging.LogRecord]
) -> None:
    """The WebSocket protocol itself fails such a connection (1007): like an oversized
    frame (1009), it ends the connection, and he comes back as after any drop."""

    async def bad_text() -> int | None:
        async with HallClient(hall.url) as client, guests(client, 1) as (ann,):
            await ann.conn.socket.send(b'{"type": "ping", "t": "\xff"}', text=True)
            with pytest.raises(ConnectionClosed):
                await next_frame(ann.conn)
            code = ann.conn.socket.close_code
            async with client.connect(ann.session.token) as conn:
                await conn.send({"type": "ping", "t": 4})
                assert await until(conn, of_type("pong")) == {"type": "pong", "t": 4}
            return code

    assert asyncio.run(bad_text()) == 1007
    # uvicorn logs this one itself, before the hall sees anything: an INFO line, no traceback
    assert tracebacks(server_log) == []
    assert [r.levelname for r in server_log if r.getMessage() == UVICORN_UTF8] == ["INFO"]


# --- floods -----------------------------------------------------------------------------------


def test_flooding_window_after_window_is_cut_off_and_the_seat_left_as_after_a_drop(
    hall: RunningHall, monkeypatch: pytest.MonkeyPatch, server_log: list[logging.LogRecord]
) -> None:
    limit = connection_module.RateLimit
    window, windows = 0.3, 3
    flood_limit = functools.partial(limit, window=window, windows=windows)
    monkeypatch.setattr(connection_module, "RateLimit", flood_limit)
    told, code = asyncio.run(_flood_at_the_table(hall.url))
    assert code == connection_module.CLOSE_FLOODING
    # one rate_limited per window, each saying how long to wait; the rest went unanswered
    assert len(told) >= windows - 1, told
    assert all(frame["retry_after"] == window for frame in told), told
    assert tracebacks(server_log) == []


async def _flood_at_the_table(url: str) -> tuple[list[Frame], int | None]:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        await seat_together([ann, bob], PAIR.id)
        frames: list[Frame] = []

        async def read() -> None:  # he reads what comes (the close frame among it)
            with contextlib.suppress(ConnectionClosed):
                while True:
                    frames.append(await ann.conn.recv())

        reading = asyncio.create_task(read())
        sent = 0
        with pytest.raises(ConnectionClosed):
            async with asyncio.timeout(WAIT):
                while True:  # far above 50 a second, for as long as the hall listens
                    await ann.conn.socket.send(json.dumps({"type": "ping", "t": sent}))
                    sent += 1
                    await asyncio.sleep(0.001)
        async with asyncio.timeout(WAIT):
            await reading
        told = [f for f in frames if f["type"] == "error"]
        assert {f["code"] for f in told} <= {"rate_limited"}, told
        answered = sum(1 for f in frames if f["type"] == "pong")
        assert answered + len(told) < sent  # most were dropped unanswered
        # his seat: away, as after any drop; the table goes on, and he may come back
        await bob.until(lambda f: f["type"] == "turn" and not f["players"][ann.seat]["connected"])
        async with client.connect(ann.session.token, last=ann.conn.last) as conn:
            back = Player(ann.session, conn)
            seat = ann.seat
            await back.until(lambda f: f["type"] == "turn" and f["players"][seat]["connected"])
            for player in (back, bob):  # whose turn it is plays it (not after its time)
                await player.conn.send({"type": "resync"})
            overs = await play_all([back, bob])
        assert overs[0] == overs[1] and not overs[0]["voided"]
        return told, ann.conn.socket.close_code


def test_a_client_keeps_under_the_rate_by_itself(hall: RunningHall) -> None:
    """:class:`~qipai.client.connection.Connection` paces what it sends by the limits the
    welcome announces: 160 pings sent as fast as it lets them are all answered."""

    async def pings() -> list[Frame]:
        async with HallClient(hall.url) as client, guests(client, 1) as (ann,):
            assert ann.conn.welcome["limits"] == {
                "rate": connection_module.RATE,
                "burst": connection_module.BURST,
            }
            for t in range(160):
                await ann.conn.send({"type": "ping", "t": t})
            return [await next_frame(ann.conn) for _ in range(160)]

    assert asyncio.run(pings()) == [{"type": "pong", "t": t} for t in range(160)]


def test_no_hello_in_time_closes_with_4001(
    hall: RunningHall, monkeypatch: pytest.MonkeyPatch, server_log: list[logging.LogRecord]
) -> None:
    """A connection that sends nothing is told and closed with 4001 (docs/protocol.md),
    not dropped without a close frame (1006)."""
    monkeypatch.setattr(connection_module, "HELLO_SECONDS", 0.2)

    async def silent() -> tuple[Frame, int | None, str | None]:
        async with connect(ws_url(hall.url), compression=None) as raw:
            async with asyncio.timeout(WAIT):
                frame = json.loads(await raw.recv())
                with contextlib.suppress(ConnectionClosed):
                    await raw.recv()
            return frame, raw.close_code, raw.close_reason

    frame, code, reason = asyncio.run(silent())
    assert frame["type"] == "error" and frame["code"] == "hello_first", frame
    assert code == connection_module.CLOSE_UNAUTHORISED == 4001
    assert reason
    assert problems(server_log) == []
