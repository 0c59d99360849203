"""Bots decide in worker processes (``qipai serve --bot-workers``, ``docs/bots.md``): the
same decisions as on the event loop, and a slow, crashed or hung worker never stalls a
table (the basic 托管 plays after the table's wait)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import bots_kit
import httpx
import pytest
from process_kit import kill, serving
from proxy_kit import metric
from server_kit import fast_config, play_hand, running_hall

from qipai.client.connection import HallClient
from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall.core import HallCore
from qipai.hall.private.options import PrivateOptions
from qipai.hall.records import HandRecord, verify
from qipai.hall.rooms import Room, default_rooms
from qipai.hall.table.table import BotTurn, SeatInfo, Table
from qipai.registry import BASIC_TRUSTEE, HandSetup
from qipai.server.run import bots
from qipai.server.run.bots import BotPool, BotRequest, Decide, decide

pytestmark = pytest.mark.slow

ROOMS = {room.id: room for room in default_rooms()}
WAIT = 0.05
"""The tables' wait for an answer in these tests (the hall's is BOT_DEADLINE)."""
OWNER = 1
"""The person who starts the private tables of these tests (in 托管: he plays nothing)."""


@pytest.fixture
def mark(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The mark file the misbehaving workers share with the test (not there yet)."""
    path = tmp_path / "mark"
    monkeypatch.setenv(bots_kit.MARK, str(path))
    return path


@contextlib.contextmanager
def pool(workers: int, worker: Decide = decide) -> Iterator[BotPool]:
    started = BotPool(workers, decide=worker)
    started.wait_ready(30)
    try:
        yield started
    finally:
        started.close()


def _bots_table(room: Room, seed: int) -> Table:
    seats = [SeatInfo(None, f"bot{s}", 10**6) for s in range(room.seats)]
    rng = random.Random(seed)
    return Table(room, 1, seats, now=time.time(), rng=rng, bot_wait=WAIT)


async def _play(room: Room, bot_pool: BotPool, seed: int, limit: float = 60.0) -> Table:
    """Play one hand of ``room``'s game through the hall's core on ``bot_pool``, as the
    executor does: a private table that one person readies and starts with bots, in 托管
    from the start (the pool decides for the bots); its ``AskBot`` to the pool, the answers back as
    ``BotDecided``, a ``Tick`` at each ``WakeAt``, the store answering at once; the table
    once its hand is over."""
    core = HallCore([room], fresh=random.Random(seed).getrandbits, bot_delay=0.0,
                    entropy_window=0.0, bot_wait=WAIT)  # fmt: skip
    core.player(OWNER, "owner")
    options = PrivateOptions(room.game, room.rules)
    start = (c.CreatePrivate(OWNER, options, 10**6), c.Ready(OWNER), c.StartPrivate(OWNER))
    effects = [effect for command in start for effect in core.handle(command, time.time())]
    effects += core.handle(c.Trustee(OWNER, True), time.time())
    answers: asyncio.Queue[c.Command] = asyncio.Queue()
    wake: float | None = None
    async with asyncio.timeout(limit):
        while True:
            for effect in effects:
                match effect:
                    case e.RecordHandStart(table, hand):
                        answers.put_nowait(c.HandRecorded(table, hand))
                    case e.SettleHand(table):
                        return core.flow.tables[table].table
                    case e.AskBot(table, turn):
                        bot_pool.ask(turn, partial(_answer, answers, table, turn))
                    case e.WakeAt(when):
                        wake = when if wake is None else min(wake, when)
            delay = None if wake is None else max(0.0, wake - time.time())
            try:
                command = await asyncio.wait_for(answers.get(), delay)
            except TimeoutError:
                command, wake = c.Tick(), None
            effects = core.handle(command, time.time())


async def _play_until_replaced(room: Room, bot_pool: BotPool, seed: int) -> Table:
    """:func:`_play`, then wait (on the same event loop, where the pool hears of its
    broken decisions) until the pool has been replaced: on a busy machine the worker may
    take its first request, and crash, only after the hand has been played out by the
    basic 托管 (the table waits 0.05 s for each answer)."""
    table = await _play(room, bot_pool, seed)
    async with asyncio.timeout(30):
        while not bot_pool.replaced:
            await asyncio.sleep(0.05)
    return table


def _answer(answers: asyncio.Queue[c.Command], table: int, turn: BotTurn, action: object) -> None:
    answers.put_nowait(c.BotDecided(table, turn, action))


def _seed_of(table: Table) -> int:
    assert table.outcome is not None
    return table.outcome.seed


def _all_basic(table: Table, seed: int) -> bool:
    """Whether every move of the table's hand was the basic 托管 action (replayed; the
    owner's entering 托管 is no move)."""
    engine, rules = table.room.game_type, table.terms.rules
    state = engine.new_hand(rules, HandSetup(seed, tuple(s.balance for s in table.seats)))
    for step in table.game_state.history:
        if (
            step.seat is not None
            and not engine.is_command(step.action)
            and step.action != engine.trustee_action(state, step.seat, BASIC_TRUSTEE)
        ):
            return False
        state.apply(step.action, step.seat)
    return True


def _turns(room: Room, seeds: range) -> list[tuple[BotTurn, object]]:
    """Every bot decision of ``room``'s hands of ``seeds``, with the table's inline answer."""
    found: list[tuple[BotTurn, object]] = []
    for seed in seeds:
        table = _bots_table(room, seed)
        table.start_hand(f"h{seed}", seed=seed, now=0.0)
        while table.in_hand:
            turn = table.bot_turn()
            if turn is not None:
                action = decide(BotRequest.of(turn))  # what the tick computes inline
                found.append((turn, action))
                table.decided(turn, action, turn.due)
            table.tick(table.deadline() or 0.0)
    return found


def test_the_pool_decides_as_the_table_does_inline() -> None:
    rooms = [ROOMS["doudizhu-yifa"], ROOMS["doudizhu-huanle"], ROOMS["zhajinhua-yifa"]]
    rooms += [ROOMS["showhand-yifa"]]
    cases = [case for room in rooms for case in _turns(room, range(2))]
    assert {turn.game for turn, _ in cases} == {"doudizhu", "zhajinhua", "showhand"}

    async def through_pool() -> list[object]:
        answers: dict[int, object] = {}
        with pool(2) as bot_pool:
            for i, (turn, _) in enumerate(cases):
                bot_pool.ask(turn, lambda action, i=i: answers.__setitem__(i, action))
            while len(answers) < len(cases):
                await asyncio.sleep(0.05)
        return [answers[i] for i in range(len(cases))]

    pooled = asyncio.run(asyncio.wait_for(through_pool(), 120))
    assert pooled == [action for _, action in cases]
    assert len(cases) > 50


def test_a_slow_worker_never_stalls_the_table(mark: Path) -> None:
    room = ROOMS["doudizhu-yifa"]
    with pool(1, bots_kit.slow) as bot_pool:
        began = time.monotonic()
        table = asyncio.run(_play(room, bot_pool, 3))
        took = time.monotonic() - began
        assert table.is_over
    assert _all_basic(table, _seed_of(table))  # every move the basic 托管: answers too late
    assert took < 20


def test_a_crashed_worker_is_replaced_and_the_table_plays_on(mark: Path) -> None:
    room = ROOMS["zhajinhua-yifa"]
    with pool(1, bots_kit.crash_once) as bot_pool:
        table = asyncio.run(_play_until_replaced(room, bot_pool, 4))
        assert table.is_over and mark.exists()
        assert bot_pool.replaced == 1
        # the new pool answers: a next hand's bots decide in it
        bot_pool.wait_ready(30)
        again = asyncio.run(_play(room, bot_pool, 5))
        assert again.is_over and bot_pool.answered > 0


def test_a_hung_worker_is_killed_and_its_pool_replaced(
    mark: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bots, "STUCK_AFTER", 1.0)
    room = ROOMS["doudizhu-yifa"]
    with pool(1, bots_kit.hang_once) as bot_pool:
        table = asyncio.run(_play(room, bot_pool, 6))
        assert table.is_over
        hung = int(mark.read_text())
        give_up = time.monotonic() + 10
        while _alive(hung) and time.monotonic() < give_up:
            time.sleep(0.1)
        assert not _alive(hung)
        assert bot_pool.replaced >= 1


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    status = Path(f"/proc/{pid}/status")
    try:
        return "\tZ" not in next(
            line for line in status.read_text().splitlines() if line.startswith("State:")
        )
    except FileNotFoundError:
        return False


def test_a_hall_with_two_bot_workers_plays_hands_end_to_end(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    rooms = ("doudizhu-yifa", "zhajinhua-yifa", "showhand-yifa")

    async def scenario(hall_url: str) -> list[dict[str, object]]:
        overs = []
        async with HallClient(hall_url) as client:
            for room in rooms:
                session = await client.guest()
                async with client.connect(session.token) as conn:
                    _, over = await play_hand(conn, room)
                record = await client.request("GET", f"/api/hands/{over['hand']}")
                assert record["verified"] is True
                overs.append(over)
        return overs

    with running_hall(fast_config(url, bot_workers=2)) as hall:
        bot_pool = hall.hall.bots
        assert isinstance(bot_pool, BotPool) and bot_pool.workers == 2
        overs = asyncio.run(scenario(hall.url))
        assert bot_pool.answered > 0 and bot_pool.replaced == 0
        metrics = httpx.get(f"{hall.url}/metrics").text
        assert metric(metrics, "qipai_bot_decisions_total") > 0
        assert metric(metrics, "qipai_bot_fallbacks_total") >= 0
    for over in overs:
        assert sum(over["result"]) <= 0  # coins: only the house's fee leaves the table
        assert verify(HandRecord.from_json(_json(over["record"]))).ok


def _json(value: object) -> str:
    import json  # noqa: PLC0415

    return json.dumps(value)


def test_a_killed_hall_leaves_no_bot_worker_behind(tmp_path: Path) -> None:
    config = tmp_path / "rooms.toml"
    config.write_text(
        '[[room]]\nid = "r1"\nname = "斗地主"\ngame = "doudizhu"\nrules = "yifa"\n',
        encoding="utf-8",
    )
    db_url = f"sqlite:///{tmp_path / 'hall.db'}"
    with serving(db_url, config, tmp_path / "hall.log", "--bot-workers", "2") as (process, _):
        workers = _children(process.pid)
        assert len(workers) >= 2  # the two workers (and multiprocessing's tracker)
        kill(process)
    give_up = time.monotonic() + 15
    while any(map(_alive, workers)) and time.monotonic() < give_up:
        time.sleep(0.2)
    assert not any(map(_alive, workers))


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError):
            lines = status.read_text().splitlines()
            ppid = next(line for line in lines if line.startswith("PPid:")).split()[1]
            if int(ppid) == pid:
                found.append(int(status.parent.name))
    return found
