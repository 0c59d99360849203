"""The load tool's rules, without a hall: the addresses on the command line and how the
clients spread over them, the summary's fields, and what a client does after a
reconnection (where it stands, joining again, ``cluster_unavailable``, a voided hand, the
decisions of the old connection dropped).  Frames are fed by hand to a client whose
connection is a recording stand-in; no test waits on the clock."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable, Coroutine
from typing import Any, cast

import pytest
from websockets.exceptions import ConnectionClosedError

from qipai import cli
from qipai.client import loadtest
from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import Connection
from qipai.client.loadtest import (
    DEFAULT_URL,
    ClientStats,
    LoadConfig,
    Standing,
    _back,
    _dropped,
    _due,
    _handle,
    _join,
    _Play,
    summarise,
    url_index,
)

Frame = dict[str, Any]
ROOM = "doudizhu-yifa"
TABLE = 7
DEADLINE = 1_000_000.5


class Recorder:
    """Stands in for a :class:`Connection`: records what is sent; answers come by hand."""

    def __init__(self) -> None:
        self.sent: list[Frame] = []
        self.buffered: tuple[Frame, ...] = ()
        self.last: dict[str, int] = {}
        self._ids = itertools.count(1)
        self._answers: dict[int, asyncio.Future[Frame]] = {}

    async def send(self, message: Frame) -> None:
        self.sent.append(message)

    async def request(self, message: Frame) -> asyncio.Future[Frame]:
        number = next(self._ids)
        future: asyncio.Future[Frame] = asyncio.get_running_loop().create_future()
        self._answers[number] = future
        self.sent.append({**message, "id": number})
        return future

    async def act(self, action: str, table: int | None = None) -> asyncio.Future[Frame]:
        return await self.request({"type": "act", "action": action, "table": table})

    def answer(self, frame: Frame) -> Frame:
        """``frame`` resolves the request it answers, as :meth:`Connection.recv` does."""
        future = self._answers.pop(frame.get("id", -1), None)
        if future is not None:
            future.set_result(frame)
        return frame

    def kinds(self) -> list[str]:
        """What the client sent, but the ``ping`` that proves a connection back (tested
        apart)."""
        return [message["type"] for message in self.sent if message["type"] != "ping"]


def _play(conn: Recorder | None = None) -> _Play:
    play = _Play(cast(Connection, conn or Recorder()), random.Random(0), ClientStats(), room=ROOM)
    play.auto = AutoPlayer(lambda legal: legal[0], entropy=lambda: "ab" * 16)
    return play


async def _message(play: _Play, *frames: Frame) -> bool:
    """Deliver one message of ``frames``, as :func:`loadtest._play` does; whether done."""
    conn = cast(Recorder, play.conn)
    done = False
    for index, frame in enumerate(frames):
        conn.buffered = frames[index + 1 :]
        done = await _handle(play, conn.answer(frame)) or done
    return done


async def _reconnected(play: _Play) -> Recorder:
    """The socket closed and the client connected again (the ``welcome`` alone read)."""
    _dropped(play)
    conn = Recorder()
    await _back(play, cast(Connection, conn))
    return conn


def _run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


def _snapshot(seat: int = 1, *, trustee: bool = False, mine: bool = False) -> Frame:
    players = [{"trustee": trustee and i == seat, "connected": True} for i in range(3)]
    view = {"current_player": seat if mine else (seat + 1) % 3, "legal_actions": ["play pass"]}
    return {"type": "snapshot", "table": TABLE, "n": 5, "seat": seat, "room": ROOM,
            "hand": "h1", "players": players, "view": view, "deadline": DEADLINE,
            "entropy_deadline": None}  # fmt: skip


def _turn(n: int, *, seat: int = 1, trustee: bool = False, deadline: float = DEADLINE) -> Frame:
    players = [{"trustee": trustee and i == seat, "connected": True} for i in range(3)]
    return {"type": "turn", "table": TABLE, "n": n, "seat": seat, "deadline": deadline,
            "players": players, "legal": ["play pass", "play 3"]}  # fmt: skip


# --- the command line and the spread ---------------------------------------------------


def test_url_may_be_given_several_times_and_defaults_to_the_local_hall(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[LoadConfig] = []

    def main(config: LoadConfig) -> int:
        seen.append(config)
        return 0

    monkeypatch.setattr(loadtest, "main", main)
    assert (
        cli.main(["loadtest", "--url", "http://a:1", "--url", "http://b:2", "--clients", "3"]) == 0
    )
    assert cli.main(["loadtest"]) == 0
    assert seen[0].urls == ("http://a:1", "http://b:2") and seen[0].clients == 3
    assert seen[1].urls == (DEFAULT_URL,) == ("http://127.0.0.1:8000",)


def test_clients_go_round_the_addresses() -> None:
    assert [url_index(number, 3) for number in range(7)] == [0, 1, 2, 0, 1, 2, 0]
    assert [url_index(number, 1) for number in range(3)] == [0, 0, 0]
    assert LoadConfig("http://a", 2, 1.0).urls == ("http://a",)


def test_the_summary_counts_reconnections_resumes_retries_and_voided_hands() -> None:
    over = {"type": "hand_over", "hand": "h1", "table": 1, "result": [2, -1, -1],
            "rake": [0, 0, 0], "fees": [0, 0, 0]}  # fmt: skip
    one = ClientStats(start_coins=100, end_coins=102, net=2, reconnects=2, join_retries=3,
                      resume_times=[0.5, 1.5], voided={"h9"}, hands={"h1": over},
                      hand_times={"h1": 5.0})  # fmt: skip
    two = ClientStats(start_coins=100, end_coins=100, reconnects=1, resume_times=[0.25],
                      voided={"h9", "h8"})  # fmt: skip
    config = LoadConfig(("http://a", "http://b"), clients=2, duration=10.0)
    stats = {"connections": 0, "rss_bytes": 0}
    summary = summarise(config, room=ROOM, results=[one, two], window=(0.0, 10.0),
                        before=stats, connected=stats)  # fmt: skip
    assert summary["urls"] == ["http://a", "http://b"]
    assert summary["reconnects"] == 3 and summary["resumed"] == 3
    assert summary["resume_seconds"] == {"p50": 0.5, "p99": 1.5, "max": 1.5}
    assert summary["join_retries"] == 3 and summary["errors"] == 0
    assert summary["hands_voided"] == 2 and summary["hands_total"] == 1
    assert summary["coins_conserved"] is True  # a voided hand moves no coin


# --- where a client stands -------------------------------------------------------------


@pytest.mark.parametrize(
    ("frames", "placed"),
    [
        ([], False),
        ([{"type": "queued", "room": ROOM}], True),
        ([{"type": "event", "table": 3, "n": 9}, {"type": "turn", "table": 3, "n": 9}], True),
        # the ending of a hand that finished while it was away: it was let go
        ([{"type": "snapshot", "table": 3, "n": 9}, {"type": "hand_over", "table": 3}], False),
        ([{"type": "hand_over", "table": 3}, {"type": "hand_start", "table": 3}], True),
        ([{"type": "snapshot", "table": 3}, {"type": "hand_voided", "table": 3}], False),
        # a voided hand of a table left before is old news
        ([{"type": "queued", "room": ROOM}, {"type": "hand_voided", "table": 3}], True),
        ([{"type": "snapshot", "table": 4}, {"type": "hand_voided", "table": 3}], True),
        ([{"type": "queued", "room": ROOM}, {"type": "left", "room": ROOM}], False),
    ],
)
def test_standing(frames: list[Frame], placed: bool) -> None:
    standing = Standing()
    for frame in frames:
        standing.see(frame)
    assert standing.placed is placed


# --- after a reconnection --------------------------------------------------------------


def test_back_at_its_table_it_ends_its_trustee_before_deciding() -> None:
    async def scenario() -> None:
        play = _play()
        await _message(play, {"type": "queued", "room": ROOM}, _snapshot())
        conn = await _reconnected(play)
        # the replay: its turn, shown before the table applied its absence
        await _message(play, {"type": "event", "table": TABLE, "n": 6}, _turn(6))
        assert conn.kinds() == ["trustee"] and play.stats.resume_times
        await _message(play, _turn(7, trustee=True))  # its absence: 托管
        assert conn.kinds() == ["trustee"]  # nothing decided meanwhile
        await _message(play, _turn(8, deadline=DEADLINE + 3))
        await _message(play, {"type": "ack", "id": 1})
        assert conn.kinds() == ["trustee", "act"]  # on the newest frame, once
        assert conn.sent[-1]["table"] == TABLE
        await _message(play, _turn(8, deadline=DEADLINE + 3))
        assert conn.kinds() == ["trustee", "act"]
        assert play.stats.errors == 0 and play.stats.reconnects == 1

    _run(scenario)


def test_the_back_off_starts_afresh_only_once_a_pong_proves_the_connection() -> None:
    """Seated again in the frames after a welcome is not enough: a hall that drops every
    connection right after them would be reconnected to in a tight loop (the hall keeps a
    seat a few seconds while its player is away, so the frames do show him seated)."""

    async def scenario() -> None:
        play = _play()
        await _message(play, _snapshot())
        play.backoff.delay()  # the outage's first attempt
        conn = await _reconnected(play)
        await _message(play, _turn(6))
        assert "ping" in [m["type"] for m in conn.sent] and play.backoff.attempts == 1
        await _message(play, {"type": "pong"})
        assert play.backoff.attempts == 0 and play.stats.errors == 0

    _run(scenario)


def test_a_trustee_request_refused_for_a_table_gone_is_no_error() -> None:
    async def scenario() -> None:
        play = _play()
        await _message(play, _snapshot())
        conn = await _reconnected(play)
        await _message(play, _turn(6))
        await _message(play, {"type": "error", "code": "not_seated", "id": 1})
        assert play.stats.errors == 0 and conn.kinds() == ["trustee"]

    _run(scenario)


def test_an_action_decided_before_the_drop_is_not_sent_after_it() -> None:
    async def scenario() -> None:
        play = _play()
        play.think = 3600.0  # the action waits: the drop comes first
        await _message(play, _snapshot(), _turn(6))
        assert play.thinking is not None
        thinking = play.thinking
        conn = await _reconnected(play)
        await asyncio.sleep(0)
        assert thinking.cancelled() and conn.sent == []

    _run(scenario)


def test_not_placed_after_the_drop_it_joins_again_after_a_while() -> None:
    async def scenario() -> None:
        play = _play()
        await _message(play, {"type": "queued", "room": ROOM})
        play.joined = True
        conn = await _reconnected(play)  # (taken out of the queue when it went)
        assert play.check_at is not None and not await _due(play, 1e18, 1e18)
        assert conn.sent == []  # not yet
        play.check_at = 0.0  # the while is over
        assert not await _due(play, 1e18, 1e18)
        assert conn.sent == [{"type": "join", "room": ROOM}]
        # it was in the room after all: no error, and it is back
        await _message(play, {"type": "error", "code": "already_in_room"})
        assert play.stats.errors == 0 and play.stats.error_codes == {}
        assert len(play.stats.resume_times) == 1 and play.closed_at is None

    _run(scenario)


def test_told_its_hand_was_voided_it_joins_again_at_once() -> None:
    async def scenario() -> None:
        play = _play()
        await _message(play, {"type": "queued", "room": ROOM}, _snapshot())
        conn = await _reconnected(play)
        voided = {"type": "hand_voided", "hand": "h1", "table": TABLE, "reason": "restart"}
        await _message(play, voided)
        assert not await _due(play, 1e18, 1e18)
        assert conn.sent == [{"type": "join", "room": ROOM}]
        await _message(play, {"type": "queued", "room": ROOM})
        assert len(play.stats.resume_times) == 1 and play.stats.voided == {"h1"}
        assert play.stats.hands == {} and play.stats.net == 0

    _run(scenario)


def test_a_join_refused_while_the_room_moves_is_retried_not_counted() -> None:
    async def scenario() -> None:
        play = _play()
        conn = cast(Recorder, play.conn)
        await _join(play)
        unavailable = {"type": "error", "code": "cluster_unavailable", "message": "moving"}
        await _message(play, unavailable)
        assert play.join_at is not None and play.stats.join_retries == 1
        play.join_at = 0.0
        await _due(play, 1e18, 1e18)
        await _message(play, unavailable)
        play.join_at = 0.0
        await _due(play, 1e18, 1e18)
        await _message(play, {"type": "queued", "room": ROOM})
        assert conn.kinds() == ["join", "join", "join"]
        assert play.stats.join_retries == 2 and play.stats.errors == 0
        assert play.standing.placed

    _run(scenario)


def test_a_join_sent_again_after_a_late_one_was_carried_out_is_no_error() -> None:
    async def scenario() -> None:
        play = _play()
        await _join(play)
        late = {"type": "error", "code": "cluster_unavailable", "message": "no answer in time"}
        await _message(play, late)  # ... but the room's node carried it out
        play.join_at = 0.0
        await _due(play, 1e18, 1e18)  # sent again
        await _message(play, {"type": "queued", "room": ROOM})  # the first join's
        await _message(play, {"type": "error", "code": "already_in_room", "message": "in"})
        assert cast(Recorder, play.conn).kinds() == ["join", "join"]
        assert play.stats.errors == 0 and play.standing.placed

    _run(scenario)


def test_a_hand_replayed_after_a_drop_counts_once() -> None:
    async def scenario() -> None:
        play = _play()
        over = {"type": "hand_over", "table": TABLE, "n": 9, "hand": "h1", "result": [1, 2, -3]}
        await _message(play, _snapshot(), over)
        await _reconnected(play)
        await _message(play, over)
        assert play.stats.net == 2 and list(play.stats.hands) == ["h1"]

    _run(scenario)


def test_the_entropy_of_a_hand_dealt_meanwhile_is_not_sent() -> None:
    async def scenario() -> None:
        play = _play()
        await _message(play, _snapshot())
        conn = await _reconnected(play)
        start = {"type": "hand_start", "table": TABLE, "n": 5, "hand": "h2",
                 "entropy_deadline": DEADLINE}  # fmt: skip
        await _message(play, start, {"type": "event", "table": TABLE, "n": 6})
        assert "entropy" not in conn.kinds()
        later = {**start, "hand": "h3"}  # its window still open: sent
        await _message(play, later)
        assert "entropy" in conn.kinds()

    _run(scenario)


# --- AutoPlayer -------------------------------------------------------------------------


def test_a_turn_renumbered_by_another_seats_trustee_is_answered_once() -> None:
    player = AutoPlayer(lambda legal: legal[0])
    assert player.on_frame(_turn(40)) is not None
    assert player.on_frame(_turn(41)) is None  # another seat's 托管 went off: same decision
    assert player.on_frame(_turn(43, deadline=DEADLINE + 1)) is not None  # a new one


def test_forgetting_decides_anew_and_keeps_the_contributions() -> None:
    player = AutoPlayer(lambda legal: legal[0], entropy=lambda: "cd" * 16)
    start = {"type": "hand_start", "table": TABLE, "hand": "h1", "entropy_deadline": 5.0}
    assert player.on_frame(start) is not None
    assert player.on_frame(_turn(6)) is not None
    player.forget()
    assert player.on_frame(_turn(6)) is not None
    assert player.on_frame(start) is None and "h1" in player.contributed


class Closed(Recorder):
    """A connection whose socket died (its node was killed) before anything was sent."""

    async def send(self, message: Frame) -> None:
        raise ConnectionClosedError(None, None)

    async def __aexit__(self, *exc: object) -> None:
        """Closed already: closing does nothing."""


def test_a_socket_dead_before_the_first_join_connects_again_then_joins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Clients wait for one another before they join; a node killed meanwhile leaves them
    a dead socket: the first ``join`` fails, the client connects again (the next
    address) and joins there, as after any drop."""

    async def scenario() -> None:
        again = Recorder()
        opened: list[object] = []

        async def reopen(hall: object, token: str, last: object) -> Recorder:
            opened.append(hall)
            return again

        monkeypatch.setattr(loadtest, "_open", reopen)
        play = _play(Closed())
        play.halls = ["first", "second"]  # type: ignore[list-item]
        await loadtest._first_join(play)
        assert opened == ["second"] and play.conn is again and play.stats.reconnects == 1
        assert play.check_at is not None  # where it stands is asked, then it joins
        play.check_at = 0.0
        later = time.time() + 3600
        assert not await _due(play, stop_at=later, deadline=later)
        assert again.kinds() == ["join"]

    _run(scenario)
