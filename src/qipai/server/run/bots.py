"""Bots decide in worker processes, off the hall's event loop (``docs/bots.md``, "Bots off
the event loop").

A table run with a ``bot_wait`` (:class:`~qipai.hall.table.table.Table`) does not compute a
bot's move inside its tick: it says which decision it needs next
(:meth:`~qipai.hall.table.table.Table.bot_turn`: the game, the policy, the seat's view).  The
table's runner hands it to the :class:`BotPool` (the *AskBot* effect), whose worker
processes compute :func:`decide` (the very policy call the table would make inline, so the
same move: the shipped bots draw no randomness), and the answer comes back to the table
through its inbox (the *BotDecided* command, :meth:`~qipai.hall.table.table.Table.decided`).
When no answer has come :data:`BOT_DEADLINE` seconds after the move was due (a slow
worker, a crashed one, a pool that is being replaced), the table plays the basic 托管
action instead: a table never waits on a worker.

A pool whose worker died is broken (every decision it held fails): the next request
replaces it with a fresh one.  A decision still unanswered :data:`STUCK_AFTER` seconds
after it was asked means a hung worker: the pool is replaced and its processes killed.
Workers end with the hall's process, even a killed one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from qipai.hall.table.table import BOT_POLICY, BotTurn
from qipai.registry import game_names, game_type

from .heap import freeze_start_up_heap

log = logging.getLogger(__name__)

BOT_DEADLINE = 1.0
"""Seconds after a bot's move is due (``bot_delay`` after the turn began) that its table
waits for the worker's answer before it plays the basic 托管 action instead.  The strongest
shipped bot's hardest decisions (an endgame search) take about 0.1 s of one core."""
STUCK_AFTER = 30.0
"""Seconds a decision may stay unanswered before the pool is taken for hung and replaced
(its processes killed)."""


WORKER_NICENESS = 10
"""How much lower a worker's scheduling priority is than the hall's (``nice``): where the
cores are busy, the event loop that answers the players comes first; a bot has its
``bot_delay`` and :data:`BOT_DEADLINE` to decide."""


@dataclass(frozen=True, slots=True)
class BotRequest:
    """What a worker needs to decide: picklable, a few hundred bytes."""

    game: str
    """The game's name in the registry."""
    policy: str
    """:data:`~qipai.hall.table.table.BOT_POLICY`, or a 托管 style of the game."""
    view: object
    """The seat's view of the hand."""

    @classmethod
    def of(cls, turn: BotTurn) -> BotRequest:
        """The request for a table's :class:`~qipai.hall.table.table.BotTurn`."""
        return cls(turn.game, turn.policy, turn.view)


Decide = Callable[[BotRequest], object]
"""What a worker runs: a request in, an action out (a module-level function: it is
pickled by name)."""


def decide(request: BotRequest) -> object:
    """The action of ``request``'s policy from its view: the same call as the table's
    inline one (:meth:`~qipai.registry.GameType.bot_action`,
    :meth:`~qipai.registry.GameType.trustee_action`)."""
    game = game_type(request.game)
    if request.policy == BOT_POLICY:
        return game.bot.choose(request.view)
    return game.trustee_policy(request.policy).choose(request.view)


def _warm_up() -> None:
    """A worker's start: it ends with the hall (:func:`_orphaned`), runs below the event
    loop's priority (:data:`WORKER_NICENESS`), and builds every shipped game's bots and
    move tables before the first decision, then freezes them out of the garbage
    collector's passes (:mod:`.heap`: a full collection would walk them in a decision)."""
    parent = os.getppid()
    threading.Thread(target=_orphaned, args=(parent,), name="orphaned", daemon=True).start()
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    for name in game_names():
        game_type(name).warm_up()
    freeze_start_up_heap()


def _orphaned(parent: int) -> None:
    """End the worker once the hall's process ``parent`` is gone (killed: it could not
    stop its pool), checked every second; a worker would otherwise wait for work forever."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _ready() -> None:
    """A task that only makes the pool start a worker."""


def default_workers() -> int:
    """Worker processes for this machine: one per core the process may use, less one for
    the event loop (at least one)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, (cores or 1) - 1)


class BotPool:
    """Worker processes that compute bots' decisions (``qipai serve --bot-workers N``).

    :param workers: how many processes (``>= 1``).
    :param decide: what a worker runs (tests give a slow or a crashing one).
    """

    def __init__(self, workers: int, *, decide: Decide = decide) -> None:
        if workers < 1:
            raise ValueError(f"a bot pool has at least one worker, not {workers}")
        self.workers = workers
        self._decide = decide
        self._busy: dict[Future[object], float] = {}
        self._starting: list[Future[None]] = []
        self.replaced = 0
        """Pools replaced so far (a worker crashed or hung)."""
        self.answered = 0
        """Decisions answered so far."""
        self._executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # spawn, not fork: the hall's process runs threads (the database's, uvicorn's)
        context = multiprocessing.get_context("spawn")
        executor = ProcessPoolExecutor(self.workers, context, initializer=_warm_up)
        # the processes start now (a second or so each), not at the first decision
        self._starting = [executor.submit(_ready) for _ in range(self.workers)]
        return executor

    def wait_ready(self, timeout: float) -> None:
        """Block until the pool's workers have started (at most ``timeout`` seconds):
        decisions asked before may come too late for their tables."""
        concurrent.futures.wait(self._starting, timeout)

    def ask(self, turn: BotTurn, answer: Callable[[object], None]) -> None:
        """Compute ``turn``'s decision in a worker; ``answer(action)`` is called on the
        running event loop when it is done.  A failed decision is logged and not
        answered (the table plays the basic 托管 action after its wait)."""
        self._replace_if_hung()
        request = BotRequest.of(turn)
        try:
            future = self._executor.submit(self._decide, request)
        except BrokenProcessPool:
            self._replace(self._executor)
            future = self._executor.submit(self._decide, request)
        self._busy[future] = time.monotonic()
        executor = self._executor
        done = asyncio.wrap_future(future)
        done.add_done_callback(lambda result: self._done(future, executor, result, answer))

    def _done(
        self,
        future: Future[object],
        executor: ProcessPoolExecutor,
        result: asyncio.Future[object],
        answer: Callable[[object], None],
    ) -> None:
        self._busy.pop(future, None)
        if result.cancelled():
            return
        error = result.exception()
        if error is None:
            self.answered += 1
            answer(result.result())
        elif isinstance(error, BrokenProcessPool):
            self._replace(executor)
        else:
            log.error("a bot's decision failed", exc_info=error)

    def _replace_if_hung(self) -> None:
        now = time.monotonic()
        if any(now - since > STUCK_AFTER for since in self._busy.values()):
            log.error("a bot worker is hung: the pool is replaced")
            self._replace(self._executor, kill=True)

    def _replace(self, broken: ProcessPoolExecutor, *, kill: bool = False) -> None:
        """A fresh pool in place of ``broken`` (once: a pool already replaced stays so)."""
        if broken is not self._executor:
            return
        log.warning("the bot pool is replaced (a worker %s)", "hung" if kill else "died")
        workers = dict(getattr(broken, "_processes", None) or {})  # CPython's: pid → Process
        broken.shutdown(wait=False, cancel_futures=True)
        if kill:
            for process in workers.values():
                process.kill()
        self._busy.clear()
        self.replaced += 1
        self._executor = self._start()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the workers (decisions in flight are dropped); one still busy after
        ``timeout`` seconds (hung) is killed."""
        workers = dict(getattr(self._executor, "_processes", None) or {})
        self._executor.shutdown(wait=False, cancel_futures=True)
        give_up = time.monotonic() + timeout
        for process in workers.values():
            process.join(max(0.0, give_up - time.monotonic()))
            if process.is_alive():
                process.kill()
