"""The economy's routes 福利 (``docs/protocol.md``, "HTTP API"; ``docs/hall.md``, "The
economy"): ``GET /api/me/economy`` and ``/api/me/tasks``, ``POST /api/me/checkin``,
``/api/me/relief`` and ``/api/me/tasks/{id}/claim``.

Each reads the clock once, takes the hall's day in the configured time zone
(:func:`~qipai.store.economy.hall_day`) and calls :class:`~qipai.store.economy.Economy` on
the store's threads: a request pays at most once per key, whatever is retried.
"""

from __future__ import annotations

from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from qipai.hall.economy.rules import broke_line
from qipai.server.api.answers import (
    EconomyAnswer,
    GrantAnswer,
    JsonAnswer,
    TaskAnswer,
    TasksAnswer,
    from_row,
)
from qipai.store.economy import Economy, EconomyState, HallDay, TaskState, hall_day

from .endpoints import Live, Services, api, signed_in


def economy_routes(live: Live) -> list[Route]:
    """The economy's routes over the running hall's services."""

    def economy_of(services: Services) -> tuple[Economy, HallDay, datetime]:
        now = datetime.now(UTC)
        settings = services.economy
        return Economy(services.db.store, settings), hall_day(settings.timezone, now), now

    def line(services: Services) -> int:
        return broke_line(cash.room for cash in services.hall.rooms.values())

    async def state(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        economy, day, _ = economy_of(services)
        found = await services.db.run(economy.state, user.id, day, line(services))
        return JsonAnswer(_economy_answer(found))

    async def tasks(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        economy, day, _ = economy_of(services)
        found = await services.db.run(economy.state, user.id, day, line(services))
        return JsonAnswer(TasksAnswer(day=found.day, tasks=[_task(t) for t in found.tasks]))

    async def checkin(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        economy, day, now = economy_of(services)
        paid, streak = await services.db.run(economy.checkin, user.id, day, now=now)
        coins = await services.db.run(services.db.store.balance, user.id)
        return JsonAnswer(GrantAnswer(paid=paid, coins=coins, streak=streak))

    async def relief(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        economy, day, now = economy_of(services)
        player = services.hall.players.get(user.id)
        seated = player is not None and (player.table is not None or player.private is not None)
        limit = line(services)
        paid = await services.db.run(economy.relief, user.id, day, limit, seated=seated, now=now)
        found = await services.db.run(economy.state, user.id, day, limit)
        return JsonAnswer(GrantAnswer(paid=paid, coins=found.coins, relief_left=found.relief_left))

    async def claim(request: Request) -> Response:
        services = live()
        user = await signed_in(services, request)
        economy, day, now = economy_of(services)
        task_id = request.path_params["task"]
        done = await services.db.run(economy.claim, user.id, day, task_id, now=now)
        coins = await services.db.run(services.db.store.balance, user.id)
        return JsonAnswer(GrantAnswer(paid=done.task.coins, coins=coins, task=_task(done)))

    return [
        api("/api/me/economy", state, ["GET"]),
        api("/api/me/tasks", tasks, ["GET"]),
        api("/api/me/checkin", checkin, ["POST"]),
        api("/api/me/relief", relief, ["POST"]),
        api("/api/me/tasks/{task}/claim", claim, ["POST"]),
    ]


def _task(state: TaskState) -> TaskAnswer:
    task = state.task
    return TaskAnswer(
        id=task.id, name=task.name, english=task.english, target=task.target,
        progress=state.progress, coins=task.coins, claimed=state.claimed,
    )  # fmt: skip


def _economy_answer(state: EconomyState) -> EconomyAnswer:
    tasks = [_task(t) for t in state.tasks]
    return from_row(state, EconomyAnswer, broke=state.coins < state.broke_line, tasks=tasks)
