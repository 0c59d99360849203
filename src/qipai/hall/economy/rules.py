"""What the economy pays and draws, as pure functions of the settings, the hall's day
(``YYYY-MM-DD``, which the store computes in the configured time zone from the clock the
edge reads: the hall names no clock, not even the ``datetime`` module) and counted facts.

- :func:`checkin_coins`: a check-in's grant on a day of the streak.
- :func:`daily_tasks`: the tasks a day draws for a person, seeded by (user, day).
- :func:`progress`: a task's progress from the person's settled hands of the day.
- :func:`broke_line` and :func:`check_relief`: who may take 破产补助.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from qipai.errors import IllegalActionError
from qipai.hall.rooms import Room
from qipai.registry import Payout

from .settings import EconomySettings, TaskSpec


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What one settled hand says about one person's seat."""

    won: bool
    """He won it."""
    role: str | None = None
    """His role (:meth:`~qipai.registry.GameType.roles`), if the game has roles."""
    feats: frozenset[str] = frozenset()
    """What he did (:meth:`~qipai.registry.GameType.feats`)."""


def checkin_coins(settings: EconomySettings, streak: int) -> int:
    """The check-in grant on day ``streak`` (1: the first) of a streak: the first day's
    coins plus a step per further day, growing up to :attr:`~.EconomySettings.checkin_days`."""
    days = min(max(streak, 1), settings.checkin_days)
    return settings.checkin_coins + settings.checkin_step * (days - 1)


def next_streak(yesterday: int | None) -> int:
    """Today's streak, from yesterday's (``None``: no check-in yesterday, the streak restarts)."""
    return 1 if yesterday is None else yesterday + 1


def daily_tasks(settings: EconomySettings, user: int, day: str) -> tuple[TaskSpec, ...]:
    """The tasks ``day`` (``YYYY-MM-DD``) draws for ``user`` (in the settings' order):
    every task when the list holds no more than :attr:`~.EconomySettings.tasks_per_day`,
    else the ones whose SHA-256 of ``"<user>:<day>:<task id>"`` is smallest: the same
    every time asked, a different draw each day and person."""
    tasks = settings.tasks
    if len(tasks) <= settings.tasks_per_day:
        return tasks

    def rank(task: TaskSpec) -> bytes:
        return hashlib.sha256(f"{user}:{day}:{task.id}".encode()).digest()

    chosen = {task.id for task in sorted(tasks, key=rank)[: settings.tasks_per_day]}
    return tuple(task for task in tasks if task.id in chosen)


def counts(task: TaskSpec, seat: SeatFacts) -> bool:
    """Whether one settled hand's seat counts toward ``task``."""
    return (
        (task.count != "won" or seat.won)
        and (task.role is None or seat.role == task.role)
        and (task.feat is None or task.feat in seat.feats)
    )


def progress(task: TaskSpec, seats: Iterable[SeatFacts]) -> int:
    """How far ``task`` is (at most its target), from the day's settled hands' seats."""
    return min(task.target, sum(1 for seat in seats if counts(task, seat)))


def find_task(settings: EconomySettings, user: int, day: str, task_id: str) -> TaskSpec:
    """The task ``task_id`` of ``user``'s draw on ``day``.

    :raises IllegalActionError: ``unknown_task`` (not among the day's tasks).
    """
    for task in daily_tasks(settings, user, day):
        if task.id == task_id:
            return task
    raise IllegalActionError("unknown_task", f"no task {task_id!r} today")


def broke_line(rooms: Iterable[Room]) -> int:
    """The least minimum coins of the rooms that move coins (points-only rooms left out):
    a person holding fewer may play nowhere for coins; 0 when no room moves coins."""
    lines = [room.min_coins for room in rooms if room.payout is not Payout.POINTS_ONLY]
    return min(lines, default=0)


@dataclass(frozen=True, slots=True)
class ReliefAsk:
    """What decides a relief request (the store reads it in the paying transaction)."""

    balance: int
    """His coins."""
    line: int
    """:func:`broke_line`."""
    used: int
    """Relief grants he took on the day."""
    guest: bool
    """He is a guest."""
    account_hours: float
    """His account's age."""
    in_hand: bool
    """A hand in play holds him (on any node), or he sits at a table here."""


def check_relief(settings: EconomySettings, ask: ReliefAsk) -> None:
    """Refuse a relief he may not have (in this order).

    :raises IllegalActionError: ``relief_not_allowed`` (a guest where guests have none, or
        an account younger than :attr:`~.EconomySettings.relief_min_account_hours`),
        ``in_hand``, ``not_broke`` (he holds at least :attr:`ReliefAsk.line`),
        ``relief_used_up`` (:attr:`~.EconomySettings.relief_per_day` taken today).
    """
    if ask.guest and not settings.relief_guests:
        raise IllegalActionError("relief_not_allowed", "guests get no relief: register")
    if ask.account_hours < settings.relief_min_account_hours:
        hours = settings.relief_min_account_hours
        raise IllegalActionError("relief_not_allowed", f"an account gets relief after {hours:g} h")
    if ask.in_hand:
        raise IllegalActionError("in_hand", "relief waits until your hand is over")
    if ask.balance >= ask.line:
        raise IllegalActionError("not_broke", f"relief is for fewer than {ask.line} coins")
    if ask.used >= settings.relief_per_day:
        raise IllegalActionError("relief_used_up", "no relief left today")
