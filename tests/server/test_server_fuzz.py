"""Bad input through real sockets: a seeded fuzzer during real hands, size and rate limits,
and a client that never reads.

Every bad message gets an ``error`` frame with a stable code and changes nothing: the
sender's ``resync`` snapshot (less its deadline) is the same before and after, and the
error is the very next frame (no event slipped out).  The table waits on a human the whole
time (two humans and a bot, the bot acting at once), so nothing else moves meanwhile.  The
hall meanwhile serves a third player's hand in another room, and lives on after a client's
oversized frame closes its socket.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from server_kit import RunningHall, play_hand, running_hall
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from wire_kit import (
    TOGETHER,
    Frame,
    Player,
    config_with,
    guests,
    my_turn,
    next_frame,
    of_type,
    room_like,
    seat_together,
    until,
    view_now,
    ws_url,
)

from qipai.client.connection import HallClient
from qipai.server.api.protocol import MAX_MESSAGE_BYTES
from qipai.server.edge import connection as connection_module
from qipai.store import Store
from qipai.store.audit import audit

SEED = 20260510
"""The fuzzer's seed: the same messages every run."""
CASES = 150
"""Bad messages the fuzzer sends at least (over as many hands as it takes)."""
FUZZ = room_like("doudizhu-yifa", "fz-table", bot_wait=TOGETHER)
SLOW = room_like("doudizhu-yifa", "fz-slow", bot_wait=0.5)
OTHER = room_like("zhajinhua-yifa", "fz-other")
GAME_CODES = frozenset(
    {
        "bad_action",
        "wrong_phase",
        "illegal_move",
        "not_your_turn",
        "not_in_rules",
        "not_a_move",
        "bid_too_low",
        "bad_bid",
        "cannot_pass",
        "cannot_double",
        "cannot_rob",
        "already_shown",
        "show_closed",
        "not_a_combination",
        "bad_cards",
    }
)
"""What the table and the engine answer to an action that cannot be played now."""
RANKS = "3456789TJQKA2BR"
"""Dou Dizhu ranks, as the moves write them."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """One hall (SQLite) for the module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'hall.db'}"
    with running_hall(config_with(url, FUZZ, SLOW, OTHER)) as running:
        yield running


# --- the fuzzer ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One bad message: its kind, its text, and the codes it may be answered with."""

    kind: str
    text: str
    codes: frozenset[str]


@dataclass
class Context:
    """What the fuzzer knows when it builds a message: the sender's seat and cards, the
    cards of the player he sits with, and what the player to act may do."""

    seat: int
    other_seat: int
    mine: list[str]
    theirs: list[str]
    legal: list[str]
    in_turn: bool


def _act(text: str, message_id: int = 9_000) -> str:
    return json.dumps({"type": "act", "id": message_id, "action": text})


def malformed(rng: random.Random, ctx: Context) -> Case:
    """A proper prefix of a good message, or text that is not JSON at all."""
    good = _act(rng.choice(ctx.legal))
    texts = [good[: rng.randrange(1, len(good))], "act bid 3", "{'type': 'ping'}", "NaN", "{"]
    return Case("malformed", rng.choice(texts), frozenset({"bad_json"}))


def unknown_type(rng: random.Random, ctx: Context) -> Case:
    """A JSON object of no known type (or no object at all)."""
    kind = rng.choice(["shuffle", "deal", "win", "admin", "ACT", "", "pong", "welcome"])
    texts = [json.dumps({"type": kind}), json.dumps({"action": "pass"}), "[1, 2]", "42"]
    return Case("unknown_type", rng.choice(texts), frozenset({"bad_message"}))


def extra_field(rng: random.Random, ctx: Context) -> Case:
    """A good message with a field too many: above all, a seat that is not the sender's."""
    messages: list[dict[str, Any]] = [
        {"type": "act", "id": 1, "action": rng.choice(ctx.legal), "seat": ctx.other_seat},
        {"type": "act", "id": 1, "action": rng.choice(ctx.legal), "user": 1},
        {"type": "trustee", "on": True, "seat": ctx.other_seat},
        {"type": "resync", "seat": ctx.other_seat},
        {"type": "ping", "t": 1, "extra": True},
        {"type": "join", "room": FUZZ.id, "table": 1},
    ]
    return Case("extra_field", json.dumps(rng.choice(messages)), frozenset({"bad_message"}))


def wrong_type(rng: random.Random, ctx: Context) -> Case:
    """A known message with a field of the wrong type, or missing."""
    messages: list[dict[str, Any]] = [
        {"type": "act", "id": "7", "action": "pass"},
        {"type": "act", "id": 1.5, "action": "pass"},
        {"type": "act", "id": True, "action": "pass"},
        {"type": "act", "id": 1, "action": 3},
        {"type": "act", "id": 1, "action": ["play", "3"]},
        {"type": "act", "id": 1},
        {"type": "act", "action": rng.choice(ctx.legal)},
        {"type": "trustee", "on": "yes"},
        {"type": "trustee", "on": 1},
        {"type": "join", "room": 5},
        {"type": "ping", "t": "now"},
        {"type": "hello", "token": 5},
    ]
    return Case("wrong_type", json.dumps(rng.choice(messages)), frozenset({"bad_message"}))


def oversized(rng: random.Random, ctx: Context) -> Case:
    """A message over the 4 KiB limit (under the 16 KiB that closes the socket)."""
    size = rng.randrange(MAX_MESSAGE_BYTES + 1, 15_000)
    text = _act("play " + "3" * size)
    return Case("oversized", text, frozenset({"too_large"}))


def out_of_place(rng: random.Random, ctx: Context) -> Case:
    """A well-formed message the hall refuses: hello again, a second join, no such room."""
    cases = [
        (json.dumps({"type": "hello", "token": "x"}), "already_signed_in"),
        (json.dumps({"type": "join", "room": FUZZ.id}), "already_in_room"),
        (json.dumps({"type": "join", "room": "no-such-room"}), "unknown_room"),
    ]
    text, code = rng.choice(cases)
    return Case("out_of_place", text, frozenset({code}))


def unplayable(rng: random.Random, ctx: Context) -> Case:
    """An action that is not legal now: nonsense, a bid out of range, a table command."""
    texts = ["bid 9", "bid -1", "fly", "", "play XYZ", "play 3456", "look", "raise 5"]
    texts += ["trustee on", "escape", "show", "double", "bid 3", "pass"]  # not "play": a pass
    choices = [text for text in texts if text not in ctx.legal or not ctx.in_turn]
    return Case("unplayable", _act(rng.choice(choices)), GAME_CODES)


def others_cards(rng: random.Random, ctx: Context) -> Case:
    """A play of cards the sender does not hold but the other player does."""
    held = {card[:-1] if len(card) > 1 else card for card in ctx.mine}
    theirs = sorted({card[:-1] if len(card) > 1 else card for card in ctx.theirs} - held)
    rank = rng.choice(theirs) if theirs else next(r for r in RANKS if r not in held)
    return Case("others_cards", _act(f"play {rank}"), GAME_CODES)


def out_of_turn(rng: random.Random, ctx: Context) -> Case:
    """What the player to act may do now, sent by the player who may not (``not_your_turn``,
    or the phase's own refusal: 加倍 is not a matter of turns)."""
    return Case("out_of_turn", _act(rng.choice(ctx.legal)), GAME_CODES)


IN_TURN: tuple[Callable[[random.Random, Context], Case], ...] = (
    malformed,
    unknown_type,
    extra_field,
    wrong_type,
    oversized,
    out_of_place,
    unplayable,
    others_cards,
)
"""What the player to act is made to send."""
WAITING = (*IN_TURN, out_of_turn)
"""What the player who waits is made to send."""


@dataclass
class Tally:
    """What the fuzzer sent, by kind, and the codes it was answered with."""

    kinds: dict[str, int] = field(default_factory=dict)
    codes: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, code: str) -> None:
        """Count one answered case."""
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self.codes[code] = self.codes.get(code, 0) + 1

    @property
    def total(self) -> int:
        """Cases sent."""
        return sum(self.kinds.values())


async def refused(player: Player, text: str, codes: frozenset[str]) -> str:
    """Send ``text``; the very next frame must be an error with one of ``codes``, and the
    player's view must not have changed.  The code."""
    before = await view_now(player.conn)
    await player.conn.socket.send(text)
    answer = await next_frame(player.conn)
    assert answer["type"] == "error", f"{text[:200]!r} was not refused: {answer}"
    assert answer["code"] in codes, f"{text[:200]!r}: {answer}"
    if '"id": 9000' in text and answer["code"] not in ("bad_json", "bad_message", "too_large"):
        assert answer["id"] == 9_000
    assert await view_now(player.conn) == before, f"{text[:200]!r} changed the table"
    return str(answer["code"])


# --- the hand ------------------------------------------------------------------------------------


def test_bad_messages_during_real_hands_change_nothing(
    hall: RunningHall, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the fuzzer asks for a snapshot around every message: lift the rate limit for it
    # (the limit itself is tested below)
    limit = connection_module.RateLimit
    monkeypatch.setattr(connection_module, "RateLimit", lambda: limit(rate=1e6, burst=1e6))
    tally = asyncio.run(_fuzz(hall.url, random.Random(SEED)))
    assert tally.total >= CASES
    assert set(tally.kinds) == {case.__name__ for case in WAITING} | {"replayed"}, tally.kinds
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []


async def _fuzz(url: str, rng: random.Random) -> Tally:
    tally = Tally()
    async with HallClient(url) as client:
        bystander = asyncio.create_task(_one_hand_elsewhere(client))
        while tally.total < CASES:
            async with guests(client, 2) as pair:
                await seat_together(pair, FUZZ.id)
                await _fuzz_hand(pair, rng, tally)
        over = await bystander
        assert not over["voided"]  # the hall kept serving another player meanwhile
    return tally


async def _one_hand_elsewhere(client: HallClient) -> Frame:
    session = await client.guest()
    async with client.connect(session.token) as conn:
        _, over = await play_hand(conn, OTHER.id, limit=120)
        return over


def _human_turn(humans: dict[int, Player]) -> Callable[[Frame], bool]:
    """The table holds still: a human's turn, or the hand is over."""
    return lambda f: f["type"] == "hand_over" or (f["type"] == "turn" and f["seat"] in humans)


async def _fuzz_hand(pair: list[Player], rng: random.Random, tally: Tally) -> None:
    humans = {player.seat: player for player in pair}
    still = _human_turn(humans)
    now, _ = await asyncio.gather(pair[0].until(still), pair[1].until(still))
    replay: tuple[Player, str] | None = None
    while now["type"] != "hand_over":
        actor = humans[now["seat"]]
        waiting = pair[1] if actor is pair[0] else pair[0]
        turn = [f for f in actor.frames if f["type"] == "turn"][-1]  # an ack may follow it
        assert my_turn(turn) and turn["n"] == now["n"], turn
        if replay is not None:  # the last move again, word for word: refused
            player, text = replay
            tally.add("replayed", await refused(player, text, GAME_CODES))
        views = {p.seat: (await view_now(p.conn))["view"] for p in pair}
        for player, kinds in ((actor, IN_TURN), (waiting, WAITING)):
            ctx = _context(player, views, turn["legal"], in_turn=player is actor)
            for make in rng.sample(kinds, 4):
                case = make(rng, ctx)
                tally.add(case.kind, await refused(player, case.text, case.codes))
        replay, now = await _move(actor, waiting, turn["legal"], rng, still)


def _context(player: Player, views: dict[int, Any], legal: list[str], *, in_turn: bool) -> Context:
    other = next(seat for seat in views if seat != player.seat)
    return Context(
        seat=player.seat,
        other_seat=other,
        mine=list(views[player.seat]["hand"]),
        theirs=list(views[other]["hand"]),
        legal=legal,
        in_turn=in_turn,
    )


async def _move(
    actor: Player,
    waiting: Player,
    legal: list[str],
    rng: random.Random,
    still: Callable[[Frame], bool],
) -> tuple[tuple[Player, str], Frame]:
    """The actor plays a legal move (acked); the replay of it, and the next still point."""
    text = rng.choice(legal)
    message = {"type": "act", "id": 7_000 + rng.randrange(1000), "action": text}
    await actor.conn.send(message)
    ack = await actor.until(lambda f: f["type"] in ("ack", "error"))
    assert ack == {"type": "ack", "id": message["id"]}
    now = await waiting.until(still)
    return (actor, json.dumps(message)), now


# --- size, rate, a client that never reads --------------------------------------------------------


def test_a_frame_over_16_kib_closes_the_socket_and_the_hall_lives_on(hall: RunningHall) -> None:
    asyncio.run(_too_big(hall.url))


async def _too_big(url: str) -> None:
    async with HallClient(url) as client:
        session = await client.guest()
        async with connect(ws_url(url), compression=None) as raw:
            await raw.send(json.dumps({"type": "hello", "token": session.token}))
            assert json.loads(await raw.recv())["type"] == "welcome"
            await raw.send(json.dumps({"type": "ping", "t": 1, "pad": "x" * 20_000}))
            with pytest.raises(ConnectionClosed):
                async with asyncio.timeout(20):
                    while True:
                        await raw.recv()
            assert raw.close_code == 1009
        async with client.connect(session.token) as conn:  # he comes back; all is well
            await conn.send({"type": "ping", "t": 2})
            assert await until(conn, of_type("pong")) == {"type": "pong", "t": 2}
        assert (await client.request("GET", "/healthz")) == {"ok": True}


FLOOD = int(connection_module.BURST) + 40
"""Messages sent at once: the burst, and 40 more (within what one window refills)."""


def test_a_flood_of_pings_is_rate_limited(hall: RunningHall) -> None:
    answers, paused = asyncio.run(_flood(hall.url, lambda i: json.dumps({"type": "ping", "t": i})))
    pongs = [a["t"] for a in answers if a["type"] == "pong"]
    # the burst passes; one later message is refused, saying how long to wait (the next one
    # after the burst, or a little later where reading the burst took a busy hall longer
    # than the rate refills one message); the hall then reads nothing for that window, and
    # the rest (waiting meanwhile) pass at the rate after it
    assert _refusals(answers) == 1 and len(answers) == FLOOD
    refused = next(t for t in range(FLOOD) if t not in pongs)
    assert refused >= connection_module.BURST
    assert pongs == [t for t in range(FLOOD) if t != refused]
    assert paused >= connection_module.WINDOW * 0.9


def test_a_flood_of_malformed_messages_is_rate_limited_too(hall: RunningHall) -> None:
    """The rate limit counts every message, parsed or not (parsing and answering garbage
    costs the hall as much as a ping)."""
    answers, _ = asyncio.run(_flood(hall.url, lambda i: "{" * (i % 7 + 1)))
    assert _refusals(answers) == 1, "malformed messages past the burst were all answered"
    assert all(a.get("code") in ("bad_json", "rate_limited") for a in answers), answers


def _refusals(answers: list[Frame]) -> int:
    """How many answers are ``rate_limited`` (each saying to wait a whole window)."""
    refused = [a for a in answers if a.get("code") == "rate_limited"]
    assert all(a["retry_after"] == connection_module.WINDOW for a in refused), refused
    return len(refused)


async def _flood(url: str, message: Callable[[int], str]) -> tuple[list[Frame], float]:
    """Send :data:`FLOOD` messages at once; the answers (one each, the refusal answering
    the message it refused), and the seconds from the refusal to the next answer."""
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            await asyncio.gather(*(conn.socket.send(message(i)) for i in range(FLOOD)))
            answers: list[Frame] = []
            refused_at = resumed_at = 0.0
            while len(answers) < FLOOD:
                answers.append(await next_frame(conn))
                if answers[-1].get("code") == "rate_limited":
                    refused_at = time.monotonic()
                elif refused_at and not resumed_at:
                    resumed_at = time.monotonic()
            return answers, resumed_at - refused_at


def test_a_client_that_never_reads_is_cut_off_without_slowing_its_table(
    hall: RunningHall, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a queue long enough for what one change of a Dou Dizhu table sends, short enough to
    # fill at once when the writes to the client are stuck
    monkeypatch.setattr(connection_module, "SEND_QUEUE", 64)
    asyncio.run(_never_reads(hall))


async def _never_reads(hall: RunningHall) -> None:
    async with HallClient(hall.url) as client, guests(client, 2) as (bob, carl):
        sloth = await client.guest()
        raw = await _sluggish_socket(hall, sloth.token)
        try:
            await _sloth_and_others(raw, sloth.name, bob, carl)
        finally:
            raw.transport.abort()  # no closing handshake: his buffers may be full


async def _sloth_and_others(raw: Any, sloth: str, bob: Player, carl: Player) -> None:
    """The sloth (``raw``) and Bob at one table, Carl at another: see the test."""
    await raw.send(json.dumps({"type": "join", "room": SLOW.id}))
    await bob.conn.send({"type": "join", "room": SLOW.id})
    seated = await bob.until(of_type("snapshot"))
    names = [player["name"] for player in seated["players"]]
    assert sloth in names, "the two were not seated together"
    sloth_seat = names.index(sloth)
    await raw.send(json.dumps({"type": "trustee", "on": True}))  # his turns play at once
    flood = asyncio.create_task(_ask_and_never_read(raw))
    # meanwhile another player's hand, at another table, keeps its pace
    elsewhere = asyncio.create_task(_timed_hand(carl, "doudizhu-zhengtu"))
    # Bob holds his turn until the hall cuts the sloth off and shows him away
    try:
        cut = await bob.until(lambda f: _away(f, sloth_seat), timeout=10)
    except TimeoutError:
        pytest.fail("the client that never reads was not cut off within 10 s")
    assert cut["players"][sloth_seat]["trustee"]
    flood.cancel()
    code = asyncio.create_task(_close_code(raw))  # he reads at last: frames, then 4008
    over, latencies = await _timed_play(bob, len(bob.frames) - 1)  # from his turn on
    assert not over["voided"] and max(latencies, default=0.0) < 2.0, latencies
    carl_over, carl_latencies = await elsewhere
    assert not carl_over["voided"] and max(carl_latencies) < 2.0, carl_latencies
    assert await code == 4008


async def _timed_hand(player: Player, room: str) -> tuple[Frame, list[float]]:
    await player.conn.send({"type": "join", "room": room})
    return await _timed_play(player)


async def _timed_play(player: Player, done: int | None = None) -> tuple[Frame, list[float]]:
    """Play to the end of the hand from frame number ``done`` on (default: the next
    frame), acting at once on each turn; the hand_over and how long each action took to be
    acknowledged."""
    latencies: list[float] = []
    done = len(player.frames) if done is None else done  # waiting on an ack reads frames
    acted: tuple[int, int] | None = None
    while True:
        if done == len(player.frames):
            player.frames.append(await next_frame(player.conn))
        frame = player.frames[done]
        done += 1
        if frame["type"] == "hand_over":
            return frame, latencies
        if my_turn(frame) and (frame["table"], frame["n"]) != acted:
            acted = (frame["table"], frame["n"])
            sent = time.monotonic()
            choice = "call" if "call" in frame["legal"] else frame["legal"][0]
            answer = await player.answer(await player.conn.act(choice))
            assert answer["type"] == "ack", answer
            latencies.append(time.monotonic() - sent)


def _away(frame: Frame, seat: int) -> bool:
    return frame["type"] == "turn" and not frame["players"][seat]["connected"]


async def _sluggish_socket(hall: RunningHall, token: str) -> Any:
    """A signed-in WebSocket whose TCP buffers on both ends are tiny, so that not reading
    soon blocks the hall's writes to it (the hall's end is shrunk in its own thread)."""
    host, port = hall.url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    raw = await connect(ws_url(hall.url), sock=sock, compression=None, max_queue=1)
    await raw.send(json.dumps({"type": "hello", "token": token}))
    local = sock.getsockname()[1]
    for protocol in list(hall.server.server_state.connections):
        if getattr(protocol, "client", None) == ("127.0.0.1", local):
            transport = protocol.transport
            transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            protocol.loop.call_soon_threadsafe(transport.set_write_buffer_limits, 4096)
            return raw
    raise AssertionError("the hall's end of the socket was not found")


async def _ask_and_never_read(raw: Any) -> None:
    """Ask for 40 snapshots at once, then 40 a second (within the rate limit), reading
    nothing."""
    for _ in range(40):
        await raw.send(json.dumps({"type": "resync"}))
    while True:
        await raw.send(json.dumps({"type": "resync"}))
        await asyncio.sleep(0.025)


async def _close_code(raw: Any) -> int | None:
    """Read everything until the hall closes the socket; its close code."""
    with pytest.raises(ConnectionClosed):
        async with asyncio.timeout(30):
            while True:
                await raw.recv()
    code: int | None = raw.close_code
    return code


def test_a_lone_table_survives_the_fuzz(hall: RunningHall) -> None:
    """After everything above, a new player still plays a whole hand."""

    async def one() -> Frame:
        async with HallClient(hall.url) as client, guests(client, 1) as (ann,):
            await ann.conn.send({"type": "join", "room": FUZZ.id})
            return await ann.play_out()

    assert not asyncio.run(one())["voided"]
