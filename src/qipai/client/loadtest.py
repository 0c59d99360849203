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
  and every hand's results plus its rake and fees sum to zero (a voided hand,
  ``hand_voided``, moves no coin: it is counted in ``hands_voided``, not in the hands);
- ``rss_per_client_kib``: the server's memory growth with every client connected, per
  client (from ``GET /api/stats``, summed over the distinct URLs).

The last line printed is one JSON object with all of these.

Several hall addresses (the nodes of one hall, sharing its database: any of them accepts
any session) spread the clients: client ``i`` signs in and first connects at
``urls[i % len(urls)]`` (:func:`url_index`).  A client whose WebSocket closes while it
plays reconnects at the next address of the list (round robin) with its token and the last
event number of each table (``hello``'s ``last``), forgetting what it had decided on the
old connection (no action of the old connection is sent on the new one).  Its attempts
are spaced by a :class:`~qipai.client.backoff.Backoff`: the first at once, then after a
growing, jittered wait (never sooner than a refusal's ``retry_after``), until it is back
where it was (resumed, below); a ``welcome`` followed by a close is no success.  An outage
longer than the back-off's ``give_up`` (90 s) ends the client: it fails with ``gave up
reconnecting after N attempts in S s`` (the summary counts ``gave_up`` and
``reconnect_attempts``), and the run still ends and prints its summary.  It is
*resumed* once the frames show it queued or seated again (:class:`Standing`, taken at the
end of each message: what came with the ``welcome`` counts together); a client not
resumed :data:`SETTLE_SECONDS` after the ``welcome``, or told at once that its hand was
voided (``hand_voided``, reason ``restart``), joins its room again, and a ``join`` refused
``already_in_room`` then means it was in the room after all.  A ``join`` refused with
``cluster_unavailable`` (the room moving to another node, or its node answering late) is
sent again every :data:`JOIN_RETRY_SECONDS` seconds and counted in ``join_retries``, not
in ``errors`` (nor is the ``already_in_room`` that answers it when the late one was
carried out after all); any
other message refused ``cluster_unavailable`` (its table's node stopped: the client's
own node could not reach it, and tells it next that the hand was voided) is counted in
``node_refusals``, not in ``errors``.  The refusals of a hall whose database does not
answer (:data:`OUTAGE`: ``database_unavailable``, ``server_error``) are counted in
``outage_refusals``, not in ``errors``; a ``join`` so refused is sent again after
:data:`OUTAGE_RETRY_SECONDS` (jittered), and a client the hall lets go without its asking
(``left``: a table it could not open or deal) joins again after :data:`SETTLE_SECONDS`
(during the play window).  A node killed between settling a hand and sending
its ``hand_over`` leaves the result in the player's history only: a client whose coins
its frames do not explain reads its history (``/api/history``) and counts the settled
hands no frame told it of in ``hands_unseen`` (and in its coins).
Back at its table it first ends its 托管 (the table played for it while it was away) and
holds its decisions until the hall answers.  The summary adds ``urls``, ``reconnects``,
``resumed`` (the reconnections after which the client was resumed), ``resume_seconds``
(p50 / p99 / max, from the socket closing to the client resumed), ``join_retries``,
``node_refusals``, ``outage_refusals`` and ``hands_voided``.

With ``match`` (``qipai loadtest --match NAME``) the clients register in that match's open
run instead (the fee held), wait for it to start and play it to its end (``match_over``),
``duration`` being only how long they wait for that; the summary adds ``match``,
``match_finished`` (every client got ``match_over``) and ``prizes`` (coins paid), and
``coins_conserved`` checks each client's coins against the fee and his prize.  A regular
match starts when its places are taken: run as many clients as it has places (or fewer,
where it lets bots fill them).  A client of a match that reconnects does not join
anything: the match seats it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import httpx
from websockets.exceptions import ConnectionClosed

from qipai.jsontypes import Json, json_array, json_int, json_object, json_str

from .autoplay import AutoPlayer
from .backoff import RECONNECT_SECONDS, Backoff, GaveUpError
from .connection import Connection, HallClient, HallError, JsonFrame

FINISH_SECONDS = 90.0
"""How long a client may take, after the duration, to finish its hand and leave."""
DEFAULT_URL = "http://127.0.0.1:8000"
"""The hall's address when none is given."""
CONNECT_SECONDS = 10.0
"""How long one attempt to connect (up to the ``welcome``) may take."""
SETTLE_SECONDS = 1.0
"""How long after a reconnection's ``welcome`` a client waits for a frame that shows it
queued or seated before it joins its room again."""
JOIN_RETRY_SECONDS = 0.5
OUTAGE_RETRY_SECONDS = 2.0
"""Seconds (at most; drawn from half of it up) before a ``join`` refused for an outage is
sent again."""
"""Seconds between two ``join`` messages refused with ``cluster_unavailable``."""
TABLE_FRAMES = ("snapshot", "hand_start", "turn", "event")
"""The frames only a player seated at the table receives."""
JOIN_REFUSALS = ("unknown_room", "already_in_room", "in_match", "not_enough_coins")
"""The codes with which the hall refuses a ``join`` (besides :data:`UNAVAILABLE`)."""
CLUSTER_UNAVAILABLE = "cluster_unavailable"
OUTAGE = ("database_unavailable", "server_error")
"""The codes of a hall that cannot do something now, its database down: not the client's
fault (counted in ``outage_refusals``, not in ``errors``)."""
UNAVAILABLE = (CLUSTER_UNAVAILABLE, *OUTAGE)
"""The refusals of a ``join`` that is sent again later."""


@dataclass(frozen=True)
class LoadConfig:
    """What one load run does."""

    url: str | tuple[str, ...]
    """The hall's address, or the addresses of its nodes (:attr:`urls`)."""
    clients: int
    duration: float
    game: str | None = None
    rules: str | None = None
    seed: int = 0
    think: float = 0.0
    """Mean seconds a client thinks before acting (0: at once, as fast as the hall goes)."""
    match: str | None = None
    """A match to register in and play to its end, instead of a room."""
    room: str | None = None
    """The room to play in (default: the first of ``game`` and ``rules``)."""
    give_up: float = RECONNECT_SECONDS
    """Seconds a client waits out an outage (reconnecting with back-off) before it gives
    up (:class:`~qipai.client.backoff.Backoff`)."""

    @property
    def urls(self) -> tuple[str, ...]:
        """The addresses, in order (at least one).

        >>> LoadConfig("http://a", 1, 1.0).urls
        ('http://a',)
        >>> LoadConfig(("http://a", "http://b"), 1, 1.0).urls
        ('http://a', 'http://b')
        """
        urls = (self.url,) if isinstance(self.url, str) else tuple(self.url)
        return urls or (DEFAULT_URL,)


def url_index(number: int, count: int) -> int:
    """The address (its index among ``count``) where client ``number`` signs in and first
    connects: the clients go round the list.

    >>> [url_index(number, 2) for number in range(5)]
    [0, 1, 0, 1, 0]
    """
    return number % count


@dataclass
class ClientStats:
    """What one client saw."""

    actions: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    hands: dict[str, JsonFrame] = field(default_factory=dict)
    hand_times: dict[str, float] = field(default_factory=dict)
    action_times: list[float] = field(default_factory=list)
    user: int = 0
    """Its guest's user id."""
    start_coins: int = 0
    end_coins: int = 0
    net: int = 0
    failed: str | None = None
    match_over: JsonFrame | None = None
    """The ``match_over`` frame (match mode)."""
    fee: int = 0
    """The entry fee paid (match mode)."""
    url: str = ""
    """The address it signed in at."""
    reconnects: int = 0
    """Times its socket closed and it connected again."""
    resume_times: list[float] = field(default_factory=list)
    """Seconds from each socket closing to the client being queued or seated again."""
    join_retries: int = 0
    """``join`` messages sent again after a ``cluster_unavailable`` refusal."""
    node_refusals: int = 0
    """Messages refused ``cluster_unavailable``: the node holding the client's table had
    stopped (it is told of the hand's voiding next)."""
    outage_refusals: int = 0
    """Refusals of a hall whose database did not answer (:data:`OUTAGE`)."""
    unseen: int = 0
    """Hands its history holds and no ``hand_over`` told it of."""
    voided: set[str] = field(default_factory=set)
    """The hands it was told were voided (``hand_voided``)."""
    attempts: int = 0
    """Attempts to connect again, over every outage."""
    gave_up: bool = False
    """Whether it gave up reconnecting (an outage past the back-off's ``give_up``)."""


class Standing:
    """Where a client stands in its room, as its frames show: ``out`` (in no room, or not
    known: after a reconnection), ``queued``, ``seated`` at :attr:`table` (a table frame:
    snapshot, hand start, turn, event), or ``ended`` (that table's hand is over: the next
    frame says whether it is queued again, plays on, or was let go while away).

    >>> standing = Standing()
    >>> standing.see({"type": "queued", "room": "r"}); standing.placed
    True
    >>> standing.see({"type": "snapshot", "table": 4, "n": 0}); standing.state
    'seated'
    >>> standing.see({"type": "hand_over", "table": 4, "n": 9}); standing.placed
    False
    """

    def __init__(self) -> None:
        self.state = "out"
        self.table: int | None = None

    @property
    def placed(self) -> bool:
        """Whether it is queued, or seated at a table whose hand is not over."""
        return self.state in ("queued", "seated")

    def lost(self) -> None:
        """The socket closed: where it stands is not known until frames say."""
        self.state = "out"

    def in_room(self) -> None:
        """The hall says it is in the room (a ``join`` refused ``already_in_room``)."""
        if not self.placed:
            self.state = "queued"

    def see(self, frame: JsonFrame) -> None:
        """Take one frame into account."""
        kind = frame.get("type")
        table = frame.get("table")
        if kind == "queued":
            self.state, self.table = "queued", None
        elif kind in TABLE_FRAMES:
            self.state, self.table = "seated", json_int(table)
        elif kind == "hand_over" and self.state == "seated" and table == self.table:
            self.state = "ended"
        elif kind == "hand_voided" and self.state != "queued" and table in (None, self.table):
            self.state = "out"  # (a voided hand of a table it has left is news of the past)
        elif kind == "left":
            self.state, self.table = "out", None


@dataclass
class _Play:
    conn: Connection
    rng: random.Random
    stats: ClientStats
    halls: Sequence[HallClient] = ()
    """The hall's addresses, in the order of the list."""
    index: int = 0
    """The address of the current connection."""
    token: str = ""
    room: str | None = None
    """The room to join (``None`` in a match)."""
    seat: dict[str, int | None] = field(default_factory=dict)
    auto: AutoPlayer = field(init=False)
    sent_at: float | None = None
    leaving: bool = False
    think: float = 0.0
    thinking: asyncio.Task[None] | None = None
    in_match: bool = False
    standing: Standing = field(default_factory=Standing)
    joining: bool = False
    """A ``join`` was sent and is not answered yet (``queued`` or an ``error``)."""
    joined: bool = False
    """A ``join`` has been sent."""
    rejoin: bool = False
    """The ``join`` in flight is not the first: ``already_in_room`` answers it, it is no
    error."""
    join_at: float | None = None
    """When (:func:`time.monotonic`) to send a ``join`` refused ``cluster_unavailable``."""
    check_at: float | None = None
    """When (:func:`time.monotonic`) to join again unless the frames show it placed."""
    closed_at: float | None = None
    """When (:func:`time.monotonic`) its socket closed, until it is resumed."""
    untrustee: asyncio.Future[JsonFrame] | None = None
    """The answer to its request to end 托管 (取消托管)."""
    holding: bool = False
    """Decisions wait for that answer: back after a drop, the frames of the table may be
    older than the news of its absence (托管), which the table may not have applied yet."""
    held: JsonFrame | None = None
    """The newest decision frame that came meanwhile: once the answer is in, it is the
    table's state (every frame a command causes comes before its answer)."""
    backoff: Backoff = field(default_factory=Backoff)
    """The waits between its attempts to reconnect."""
    proving: bool = False
    """Back after a drop, a ``ping`` is out: its ``pong`` proves the connection carries
    what the client sends, and only then does the next outage start its back-off afresh
    (a hall that drops every connection right after its welcome and the table's frames
    must not be reconnected to in a tight loop)."""

    def __post_init__(self) -> None:
        self.auto = AutoPlayer(self.rng.choice)


async def choose_room(hall: HallClient, game: str | None, rules: str | None) -> str:
    """The first room of ``game`` and ``rules`` (default: Dou Dizhu ``yifa``)."""
    rooms = await hall.rows("/api/rooms")
    game = game or "doudizhu"
    rules = rules or ("yifa" if game else None)
    for room in rooms:
        if room["game"] == game and room["rules"] == rules:
            return str(room["id"])
    raise SystemExit(f"no room of {game} / {rules} in this hall")


async def run_client(
    halls: Sequence[HallClient],
    config: LoadConfig,
    room: str,
    number: int,
    start: asyncio.Future[float],
) -> ClientStats:
    """One client's whole life: sign in, wait for ``start`` (every client connected: it
    gives the time to stop), play until then, leave.  ``halls``: one client per address of
    :attr:`LoadConfig.urls`, in its order (the client starts at :func:`url_index`)."""
    stats = ClientStats()
    index = url_index(number, len(halls))
    stats.url = halls[index].url
    try:
        session = await halls[index].guest()
        stats.start_coins, stats.user = session.coins, session.user
        rng = random.Random(config.seed * 1_000_003 + number)
        conn = await _open(halls[index], session.token, None)
        play = _Play(
            conn, rng, stats, halls, index, session.token,
            room=None if config.match is not None else room,
            think=config.think, in_match=config.match is not None,
            backoff=Backoff(
                give_up=config.give_up, rng=random.Random(f"backoff:{config.seed}:{number}")
            ),
        )  # fmt: skip
        try:
            stop_at = await asyncio.shield(start)
            if config.match is None:
                await _first_join(play)
            else:
                path = f"/api/matches/{config.match}/register"
                await halls[index].request("POST", path, session.token)
                stats.fee = await _entry_fee(halls[index], config.match)
            await _play(play, stop_at)
        finally:
            stats.attempts = play.backoff.total
            if play.thinking is not None:
                play.thinking.cancel()
            await _close(play.conn)
        stats.end_coins = await _coins(play)
        if stats.end_coins != stats.start_coins + _net(stats):
            await _count_unseen(play)
    except Exception as error:  # a client failing is a result, not a crash of the tool
        stats.failed = f"{type(error).__name__}: {error}"
        stats.gave_up = isinstance(error, GaveUpError)
    return stats


async def _open(hall: HallClient, token: str, last: dict[str, int] | None) -> Connection:
    """A connection to ``hall``, signed in (its ``welcome`` read)."""
    conn = hall.connect(token, last=last)
    try:
        await conn.__aenter__()
    except BaseException:
        await _close(conn)
        raise
    return conn


async def _close(conn: Connection) -> None:
    await conn.__aexit__(None, None, None)


async def _count_unseen(play: _Play) -> None:
    """Add the hands the client's history holds and its frames never told (a node that
    settled a hand, then died before it could send ``hand_over``): their results count
    in the coins, and in ``hands_unseen``."""
    hall = play.halls[play.index]
    rows = await hall.rows("/api/history?limit=200", play.token)
    stats = play.stats
    for row in rows:
        if row["status"] == "settled" and row["hand_id"] not in stats.hands:
            stats.net += json_int(row["net"])
            stats.unseen += 1


async def _coins(play: _Play) -> int:
    """The client's coins at the end, asked at its current address (else the others)."""
    count = len(play.halls)
    for step in range(count):
        hall = play.halls[(play.index + step) % count]
        try:
            return json_int((await hall.me(play.token))["coins"])
        except (OSError, HallError, httpx.HTTPError):
            if step == count - 1:
                raise
    raise AssertionError("unreachable")


async def _entry_fee(hall: HallClient, match: str) -> int:
    listed = await hall.rows("/api/matches")
    return json_int(next(m["entry_fee"] for m in listed if m["name"] == match))


async def _play(play: _Play, stop_at: float) -> None:
    deadline = stop_at + FINISH_SECONDS
    while True:
        try:
            if await _step(play, stop_at, deadline):
                return
        except Exception as error:  # a socket closed while reading or sending: connect again
            if not _is_closed(error):
                raise
            await _reconnect(play)


async def _step(play: _Play, stop_at: float, deadline: float) -> bool:
    """Send what is due, then read and answer one frame (if one comes before something
    else falls due); whether the client is done."""
    if await _due(play, stop_at, deadline):
        return True
    try:
        frame = await _next_frame(play, stop_at, deadline)
    except TimeoutError:
        return False  # something may be due: _due says
    return await _handle(play, frame)


async def _next_frame(play: _Play, stop_at: float, deadline: float) -> JsonFrame:
    """The next frame, or :class:`TimeoutError` once something falls due."""
    now = time.time()
    timeout = max(0.1, (stop_at if not play.leaving else deadline) - now)
    clock = time.monotonic()
    for when in (play.check_at, play.join_at):
        if when is not None:
            timeout = min(timeout, max(0.0, when - clock))
    resume_at = play.auto.resume_at  # backing off after rate_limited: a resync is due
    if resume_at is not None:
        timeout = min(timeout, max(0.0, resume_at - play.auto.clock()))
    async with asyncio.timeout(timeout):
        return await play.conn.recv()


async def _due(play: _Play, stop_at: float, deadline: float) -> bool:
    """Send what is due now (leave, join, the resync after a back-off); whether the client
    is done."""
    now, clock = time.time(), time.monotonic()
    if not play.leaving and not play.in_match and now >= stop_at:
        play.leaving = True
        if play.join_at is not None and not play.joining:
            return True  # in no room: nothing to leave
        if play.standing.placed or (play.check_at is None and not play.joining):
            await play.conn.send({"type": "leave"})
        # else: where it stands is not known yet (just back, or joining): see below
    if play.join_at is not None and clock >= play.join_at:
        play.join_at = None
        if play.leaving:
            return True
        await _join(play)
    if play.check_at is not None and clock >= play.check_at:
        play.check_at = None
        if not play.standing.placed and not play.joining and play.join_at is None:
            if play.leaving:
                return True  # back, in no room, and the time is up
            await _join(play)
    due = play.auto.poll()
    if due is not None and _worth_sending(play, due):
        await play.conn.send(due)
    if play.leaving and now >= deadline:
        raise TimeoutError(f"not done {FINISH_SECONDS} s after the end")
    return False


async def _first_join(play: _Play) -> None:
    """Join the room; if the socket closed while the clients waited for the start (its
    node died), connect again: the client joins once back (:func:`_back`)."""
    try:
        await _join(play)
    except Exception as error:
        if not _is_closed(error):
            raise
        await _reconnect(play)


async def _join(play: _Play) -> None:
    """Join the room (again)."""
    assert play.room is not None
    play.joining, play.rejoin, play.joined = True, play.joined, True
    await play.conn.send({"type": "join", "room": play.room})


async def _handle(play: _Play, frame: JsonFrame) -> bool:
    """Handle one frame, and at the end of its message where the client stands; whether it
    is done."""
    done = await _on_frame(play, frame)
    if not play.conn.buffered:
        await _after_message(play)
    return done


async def _after_message(play: _Play) -> None:
    """At the end of a message: a client back after a drop is resumed once the frames
    show it queued or seated (then, past the duration, it leaves)."""
    if play.closed_at is None or not play.standing.placed:
        return
    play.stats.resume_times.append(time.monotonic() - play.closed_at)
    play.closed_at = play.check_at = None
    play.proving = True
    await play.conn.send({"type": "ping"})
    if play.standing.state == "seated":
        await _end_trustee(play)  # in 托管 since it went away, maybe: decide after that
        if play.leaving:  # (queued: see _on_frame)
            await play.conn.send({"type": "leave"})
    else:
        play.holding, play.held = False, None


def _is_closed(error: Exception) -> bool:
    """Whether ``error`` means the socket closed (reset, closed by the server, refused)."""
    return isinstance(error, ConnectionClosed | OSError | EOFError)


async def _reconnect(play: _Play) -> None:
    """The socket closed: connect again at the next addresses in turn, with the events
    seen, after the back-off's wait (:attr:`_Play.backoff`), and drop whatever was decided
    on the old connection.

    :raises GaveUpError: the outage lasted past the back-off's ``give_up``.
    :raises HallError: ``bad_token`` (the session is gone: no use trying again).
    """
    count = len(play.halls)
    retry_after: float | None = None
    while True:
        _dropped(play)
        await _close(play.conn)
        await asyncio.sleep(play.backoff.delay(retry_after))
        play.index = (play.index + 1) % count
        try:
            async with asyncio.timeout(CONNECT_SECONDS):
                conn = await _open(play.halls[play.index], play.token, play.conn.last)
                await _back(play, conn)  # (it may close again at once: then once more)
            return
        except Exception as error:
            if isinstance(error, HallError) and error.code == "bad_token":
                raise
            play.backoff.last = f"{type(error).__name__}: {error}"
            retry_after = error.retry_after if isinstance(error, HallError) else None


def _dropped(play: _Play) -> None:
    """The socket closed: forget what was decided on it (the action a thinking time holds,
    the answers awaited) and where the client stands; hold decisions until it is known."""
    if play.closed_at is None:
        play.closed_at = time.monotonic()
    if play.thinking is not None:
        play.thinking.cancel()
        play.thinking = None
    play.auto.forget()
    play.sent_at, play.untrustee, play.joining, play.proving = None, None, False, False
    play.holding, play.held = True, None
    play.standing.lost()


async def _back(play: _Play, conn: Connection) -> None:
    """Connected again (the ``welcome`` read): find out where it stands (see
    :func:`_after_message`), or join again after :data:`SETTLE_SECONDS`."""
    play.conn = conn
    play.stats.reconnects += 1
    if play.join_at is not None:  # a join refused before the drop: sent again when due
        play.check_at = None
    elif not play.in_match:
        play.check_at = time.monotonic() + SETTLE_SECONDS
    if not conn.buffered:  # the welcome alone
        await _after_message(play)


async def _on_frame(play: _Play, frame: JsonFrame) -> bool:
    """Handle one frame; whether the client is done."""
    kind = frame.get("type")
    stats = play.stats
    _note(play, frame)
    if kind == "error" and _answers_join(play, frame):
        return await _join_refused(play, frame)
    if kind in ("ack", "error") and _answers_untrustee(play, frame):
        # 托管 ended (or the table is gone: nothing to end, not counted as an error)
        held, play.held, play.holding, play.untrustee = play.held, None, False, None
        if kind == "ack" and held is not None and _at_own_table(play, held):
            await _decide(play, held)
        return False
    if play.closed_at is None and _in_trustee(play, frame):  # (back: see _after_message)
        await _end_trustee(play)
    if _decides(play, frame):
        await _decide(play, frame)
    if kind == "error" and frame["code"] == CLUSTER_UNAVAILABLE:
        stats.node_refusals += 1  # the node holding its table stopped: told, not a fault
    elif kind == "error" and frame["code"] in OUTAGE:
        stats.outage_refusals += 1  # the database down: told, not a fault
    elif kind == "error":
        _count_error(stats, frame["code"])
    elif kind == "hand_over":
        hand = json_str(frame["hand"])
        if hand not in stats.hands:  # (replayed after a reconnection: once)
            stats.hands[hand] = frame
            stats.hand_times[hand] = time.time()
            seat = play.seat.get(str(frame["table"]))
            if seat is not None:
                stats.net += json_int(json_array(frame["result"])[seat])
    elif kind == "hand_voided":
        stats.voided.add(str(frame["hand"]))
        if not play.in_match and not play.standing.placed:
            soon = 0.0 if frame.get("reason") == "restart" else SETTLE_SECONDS
            due = time.monotonic() + soon
            play.check_at = due if play.check_at is None else min(play.check_at, due)
    elif kind == "left":
        if play.leaving or play.in_match:
            return True
        # let go without asking (a hand the hall could not deal): join again soon
        play.check_at = time.monotonic() + SETTLE_SECONDS
    elif kind in ("match_over", "match_cancelled"):
        stats.match_over = frame if kind == "match_over" else None
        if kind == "match_cancelled":
            stats.net += json_int(frame["refunded"])
        return True
    elif kind == "queued" and play.leaving:
        await play.conn.send({"type": "leave"})
    return False


def _note(play: _Play, frame: JsonFrame) -> None:
    """Note what ``frame`` tells of where the client stands: its place, an action's
    latency, its seat, a join answered, a connection proved."""
    kind = frame.get("type")
    play.standing.see(frame)
    if kind == "event" and play.sent_at is not None:
        play.stats.latencies.append(time.perf_counter() - play.sent_at)
        play.sent_at = None
    elif kind == "snapshot":
        seat = frame["seat"]
        play.seat[str(frame["table"])] = None if seat is None else json_int(seat)
    elif kind == "queued":
        play.joining = False
        play.holding, play.held = False, None  # a new table: nothing old to decide
    elif kind == "pong" and play.proving:
        play.proving = False
        play.backoff.succeeded()


def _answers_join(play: _Play, frame: JsonFrame) -> bool:
    """Whether the error ``frame`` is the hall's answer to a ``join``: the one in flight, or
    one sent again, answered ``already_in_room`` after the ``queued`` of an earlier one (a
    ``join`` refused ``cluster_unavailable`` when its node answered late may still have
    been carried out: the client sent it again meanwhile)."""
    code = frame.get("code")
    if frame.get("id") is not None:
        return False
    if code == "already_in_room" and play.rejoin:
        return True
    return play.joining and code in (*JOIN_REFUSALS, *UNAVAILABLE)


async def _join_refused(play: _Play, frame: JsonFrame) -> bool:
    """The ``join`` was refused: sent again later (``cluster_unavailable``), or it was in the
    room after all (``already_in_room`` after a first join); else counted as an error and
    the client is done (it cannot play).  Whether it is done."""
    play.joining = False
    code = frame["code"]
    if code in UNAVAILABLE:
        if play.leaving:
            return True
        play.stats.join_retries += 1
        wait = JOIN_RETRY_SECONDS
        if code in OUTAGE:
            play.stats.outage_refusals += 1
            wait = play.backoff.rng.uniform(OUTAGE_RETRY_SECONDS / 2, OUTAGE_RETRY_SECONDS)
        play.join_at = time.monotonic() + wait
        return False
    if code == "already_in_room" and play.rejoin:
        play.standing.in_room()
        return False
    _count_error(play.stats, code)
    return True


def _count_error(stats: ClientStats, code: Json) -> None:
    """Count an error (not the hall's unavailability) by its ``code``."""
    stats.errors += 1
    text = json_str(code)
    stats.error_codes[text] = stats.error_codes.get(text, 0) + 1


async def _decide(play: _Play, frame: JsonFrame) -> None:
    """Send what :class:`AutoPlayer` answers to ``frame`` (an action after the thinking
    time)."""
    reply = play.auto.on_frame(frame)
    if reply is not None and reply["type"] == "act":
        if play.think > 0 and not play.leaving:  # after the window: finish quickly
            delay = play.rng.uniform(0.5, 1.5) * play.think
            play.thinking = asyncio.create_task(_act_later(play, reply, delay))
        else:
            await _act(play, reply)
    elif reply is not None and _worth_sending(play, reply):
        await play.conn.send(reply)


def _worth_sending(play: _Play, message: JsonFrame) -> bool:
    """Whether to send ``message`` (not an action): not a ``resync`` at no table (a refusal
    that came from a table since lost, the client queued or out: it would be refused
    ``not_seated``)."""
    return message["type"] != "resync" or play.standing.state == "seated"


def _at_own_table(play: _Play, frame: JsonFrame) -> bool:
    return play.standing.state == "seated" and frame.get("table") == play.standing.table


def _answers_untrustee(play: _Play, frame: JsonFrame) -> bool:
    answer = play.untrustee
    return answer is not None and answer.done() and answer.result() is frame


def _own_seat(play: _Play, frame: JsonFrame) -> int | None:
    return play.seat.get(str(frame.get("table")))


def _in_trustee(play: _Play, frame: JsonFrame) -> bool:
    """Whether ``frame`` (a turn frame or a snapshot) shows the client's seat in 托管 (after
    it was away): the table plays for it, and an action would be refused."""
    if frame.get("type") not in ("turn", "snapshot"):
        return False
    seat, players = _own_seat(play, frame), frame.get("players")
    if seat is None or not isinstance(players, list) or not 0 <= seat < len(players):
        return False
    return bool(json_object(players[seat]).get("trustee"))


async def _end_trustee(play: _Play) -> None:
    """Ask to end 托管 (取消托管; nothing changes at a seat not in 托管), once at a time, and
    hold the decisions until the answer."""
    play.holding = True
    if play.untrustee is None:
        play.untrustee = await play.conn.request({"type": "trustee", "on": False})


def _decides(play: _Play, frame: JsonFrame) -> bool:
    """Whether :class:`AutoPlayer` sees ``frame`` now: not a decision while they are held
    (the newest is kept), nor a hand's start that comes with its deal (replayed after a
    drop: its entropy would come too late)."""
    kind = frame.get("type")
    decision = kind == "turn" or (kind == "snapshot" and frame.get("entropy_deadline") is None)
    if play.holding and decision:
        play.held = frame
        return False
    if kind == "hand_start" and frame.get("entropy_deadline") is not None:
        dealt = any(
            later.get("type") == "event" and later.get("table") == frame["table"]
            for later in play.conn.buffered
        )
        return not dealt
    return True


async def _act(play: _Play, reply: JsonFrame) -> None:
    play.sent_at = time.perf_counter()
    play.stats.actions += 1
    play.stats.action_times.append(time.time())
    await play.conn.request(reply)  # the act message of AutoPlayer, for its table


async def _act_later(play: _Play, reply: JsonFrame, delay: float) -> None:
    """Act after a person's thinking time, reading frames meanwhile (latency counts from
    the moment the action is sent; an action that falls in a back-off is held).  A socket
    that closed meanwhile drops it: the reading side reconnects."""
    await asyncio.sleep(delay)
    if not play.auto.hold():
        try:
            await _act(play, reply)
        except Exception as error:
            if not _is_closed(error):
                raise


async def run(config: LoadConfig) -> dict[str, object]:
    """Run the load; the summary."""
    urls = config.urls
    async with contextlib.AsyncExitStack() as stack:
        # one HTTP pool for every client, per address
        pools = {
            url: await stack.enter_async_context(HallClient(url, timeout=120))
            for url in dict.fromkeys(urls)
        }
        halls = [pools[url] for url in urls]
        if config.match is None:
            room = config.room or await choose_room(halls[0], config.game, config.rules)
        else:
            room = f"match:{config.match}"
        nodes = list(pools.values())
        before = await _stats(nodes)
        start: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        started = time.time()
        tasks = [
            asyncio.create_task(run_client(halls, config, room, number, start))
            for number in range(config.clients)
        ]
        await _wait_connected(nodes, before["connections"] + config.clients, started + 60)
        connected = await _stats(nodes)
        began = time.time()
        start.set_result(began + config.duration)
        results = await asyncio.gather(*tasks)
    return summarise(
        config, room=room, results=results, window=(began, began + config.duration),
        before=before, connected=connected,
    )  # fmt: skip


async def _stats(halls: Sequence[HallClient]) -> dict[str, int]:
    """``GET /api/stats`` of each address, the connections and memory summed."""
    answers = await asyncio.gather(*(hall.request("GET", "/api/stats") for hall in halls))
    return {
        key: sum(json_int(json_object(answer)[key]) for answer in answers)
        for key in ("connections", "rss_bytes")
    }


async def _wait_connected(halls: Sequence[HallClient], target: int, give_up: float) -> None:
    while time.time() < give_up:
        stats = await _stats(halls)
        if stats["connections"] >= target:
            return
        await asyncio.sleep(0.2)


def summarise(
    config: LoadConfig,
    *,
    room: str,
    results: list[ClientStats],
    window: tuple[float, float],
    before: dict[str, int],
    connected: dict[str, int],
) -> dict[str, object]:
    """The one JSON object a run prints last (rates over the ``window`` of play: hands that
    ended in it, actions sent in it; coins checked over every hand)."""
    hands: dict[str, JsonFrame] = {}
    ended: dict[str, float] = {}
    voided: set[str] = set()
    for stats in results:
        hands.update(stats.hands)
        ended.update(stats.hand_times)
        voided |= stats.voided
    elapsed = window[1] - window[0]
    in_window = sum(1 for when in ended.values() if when <= window[1])
    actions = sum(1 for s in results for when in s.action_times if when <= window[1])
    latencies = sorted(ms for stats in results for ms in stats.latencies)
    resumes = sorted(seconds for stats in results for seconds in stats.resume_times)
    balanced = all(
        _total(frame["result"]) + _total(frame.get("rake", [])) + _total(frame.get("fees", [])) == 0
        for frame in hands.values()
        if frame.get("coins", True)
    )
    unexplained = {
        s.user: s.end_coins - s.start_coins - _net(s)
        for s in results
        if not s.failed and s.end_coins != s.start_coins + _net(s)
    }
    grown = connected["rss_bytes"] - before["rss_bytes"]
    matched = {} if config.match is None else _match_summary(config.match, results)
    return {
        **matched,
        "room": room,
        "urls": list(config.urls),
        "clients": config.clients,
        "think_s": config.think,
        "duration_s": round(elapsed, 1),
        "hands": in_window,
        "hands_per_s": round(in_window / elapsed, 2),
        "hands_total": len(hands),
        "hands_voided": len(voided - hands.keys()),
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "latency_ms": _percentiles(latencies),
        "errors": sum(s.errors for s in results),
        "error_codes": _merged(s.error_codes for s in results),
        "join_retries": sum(s.join_retries for s in results),
        "node_refusals": sum(s.node_refusals for s in results),
        "outage_refusals": sum(s.outage_refusals for s in results),
        "hands_unseen": sum(s.unseen for s in results),
        "reconnects": sum(s.reconnects for s in results),
        "reconnect_attempts": sum(s.attempts for s in results),
        "gave_up": sum(1 for s in results if s.gave_up),
        "resume_seconds": _resume_percentiles(resumes),
        "resumed": len(resumes),
        "failed_clients": sum(1 for s in results if s.failed),
        "first_failure": next((s.failed for s in results if s.failed), None),
        "coins_conserved": balanced and not unexplained,
        "coins_unexplained": unexplained,
        "rss_per_client_kib": round(grown / 1024 / max(1, config.clients), 1),
        "server_rss_mib": round(connected["rss_bytes"] / 2**20, 1),
    }


def _net(stats: ClientStats) -> int:
    """A client's coin change: its hands' results, and in a match the fee and the prize."""
    prize = 0 if stats.match_over is None else json_int(stats.match_over["prize"])
    return stats.net - stats.fee + prize


def _match_summary(match: str, results: list[ClientStats]) -> dict[str, object]:
    overs = [s.match_over for s in results]
    return {
        "match": match,
        "match_finished": all(over is not None for over in overs),
        "prizes": sum(json_int(over["prize"]) for over in overs if over is not None),
    }


def _total(numbers: Json) -> int:
    """The sum of ``numbers``, a JSON array of integers (a hand's coins by seat)."""
    return sum(json_int(number) for number in json_array(numbers))


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


def _resume_percentiles(seconds: list[float]) -> dict[str, float | None]:
    """p50 / p99 / max of the sorted ``seconds``, in seconds (``None`` without any)."""
    if not seconds:
        return {"p50": None, "p99": None, "max": None}
    return {
        "p50": round(statistics.median(seconds), 3),
        "p99": round(seconds[min(len(seconds) - 1, int(0.99 * len(seconds)))], 3),
        "max": round(seconds[-1], 3),
    }


def main(config: LoadConfig) -> int:
    """Run, print the summary as the last line; exit 1 if a client failed or coins were
    not conserved."""
    summary = asyncio.run(run(config))
    if summary["gave_up"]:
        print(
            f"{summary['gave_up']} of {config.clients} clients gave up reconnecting: the "
            f"hall did not come back in time ({summary['first_failure']})",
            file=sys.stderr,
        )
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if summary["coins_conserved"] and not summary["failed_clients"] else 1
