"""The economy's grants 福利 (``docs/hall.md``, "The economy"; ``docs/ledger.md``): 每日签到,
破产补助 and the 每日任务's claims, each one ledger ``grant`` from ``system:grants`` keyed on
the server so that nothing pays twice, whatever the client retries:

- ``grant:checkin:<user>:<day>``, with the day's row in ``checkins`` (its streak);
- ``grant:relief:<user>:<day>:<n>``, ``n`` the day's 1st, 2nd… relief;
- ``grant:task:<user>:<day>:<task id>``.

``<day>`` is the hall's day (``YYYY-MM-DD`` in the configured time zone, :func:`hall_day`).
Each request is one write transaction: what it checks and what it pays are one state; two
requests at once pay once (the key, and the ``checkins`` row, are unique), the other is
refused.  The rules are :mod:`qipai.hall.economy.rules`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.economy.rules import (
    ReliefAsk,
    SeatFacts,
    check_relief,
    checkin_coins,
    daily_tasks,
    find_task,
    next_streak,
    progress,
)
from qipai.hall.economy.settings import EconomySettings, TaskSpec
from qipai.store import accounts as users_of
from qipai.store.hands import in_play
from qipai.store.ledger import SystemAccounts
from qipai.store.schema import checkins, entries, hand_seats, hands, transactions, users
from qipai.store.store import Store

REASONS = ("checkin", "relief", "task")
"""The economy's grants, by the second part of their key (``grant:<reason>:…``)."""


@dataclass(frozen=True, slots=True)
class HallDay:
    """The hall's calendar day and its bounds in UTC."""

    day: date
    """The day in the hall's time zone."""
    start: datetime
    """Its first instant (aware, UTC)."""
    end: datetime
    """The first instant of the next day (aware, UTC)."""

    @property
    def text(self) -> str:
        """``YYYY-MM-DD``, as the keys and ``checkins`` write it."""
        return self.day.isoformat()


def zone_of(name: str) -> ZoneInfo:
    """The time zone ``name``.

    :raises InvalidActionError: ``bad_room``: no such zone (the ``[economy]`` setting).
    """
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidActionError("bad_room", f"[economy] timezone: no zone {name!r}") from None


def hall_day(timezone: str, now: datetime) -> HallDay:
    """The hall's day at ``now`` (aware) in ``timezone``, with its bounds (a day of 23 or 25
    hours where the zone changes its clocks).

    :raises InvalidActionError: ``bad_room`` (an unknown zone).
    """
    zone = zone_of(timezone)
    day = now.astimezone(zone).date()
    start = datetime.combine(day, time(), zone)
    end = datetime.combine(day + timedelta(days=1), time(), zone)
    return HallDay(day, start.astimezone(now.tzinfo), end.astimezone(now.tzinfo))


@dataclass(frozen=True, slots=True)
class TaskState:
    """One of the day's tasks, for one person."""

    task: TaskSpec
    """What it is."""
    progress: int
    """How far (at most its target)."""
    claimed: bool
    """Its coins paid."""


@dataclass(frozen=True, slots=True)
class EconomyState:
    """One person's economy on one day (``GET /api/me/economy``)."""

    day: str
    """The hall's day."""
    coins: int
    """His coins."""
    checked_in: bool
    """He checked in today."""
    streak: int
    """His streak: today's if he checked in, else yesterday's (0: none)."""
    next_checkin: int
    """What checking in pays (today's, or tomorrow's once checked in, if the streak goes on)."""
    relief_left: int
    """Relief grants left today."""
    relief_coins: int
    """One relief grant."""
    broke_line: int
    """Fewer coins than this: broke (the least minimum of the rooms that move coins)."""
    tasks: tuple[TaskState, ...]
    """The day's tasks."""


class Economy:
    """The economy's requests over a :class:`~qipai.store.Store` (each one transaction)."""

    def __init__(self, store: Store, settings: EconomySettings) -> None:
        """Pay from ``store``'s ledger by ``settings``."""
        self.store = store
        self.settings = settings

    def checkin(self, user_id: int, day: HallDay, *, now: datetime) -> tuple[int, int]:
        """Check in for ``day``: ``(coins paid, streak)``.

        :raises IllegalActionError: ``already_checked_in`` (also a retried request).
        :raises InvalidActionError: ``unknown_user``.
        """
        with self.store.write() as connection:
            users_of.account_of(connection, user_id)  # unknown_user
            if _streak_on(connection, user_id, day.day) is not None:
                raise _already()
            streak = next_streak(_streak_on(connection, user_id, day.day - timedelta(days=1)))
            try:
                connection.execute(
                    insert(checkins).values(user_id=user_id, day=day.text, streak=streak)
                )
            except IntegrityError:  # another request of his, at the same time
                raise _already() from None
            coins = checkin_coins(self.settings, streak)
            if not self._pay(connection, user_id, coins, f"checkin:{user_id}:{day.text}", now):
                raise _already()
            return coins, streak

    def relief(
        self, user_id: int, day: HallDay, line: int, *, seated: bool, now: datetime
    ) -> int:
        """Take a relief grant 破产补助 (``line``: the broke line; ``seated``: he sits at a
        table of this node); the coins paid.

        :raises IllegalActionError: ``relief_not_allowed``, ``in_hand``, ``not_broke`` (also
            what a retried request sees, once paid), ``relief_used_up``.
        :raises InvalidActionError: ``unknown_user``.
        """
        with self.store.write() as connection:
            balance = users_of.balance(connection, user_id)  # unknown_user
            created, password = connection.execute(
                select(users.c.created_at, users.c.password_hash).where(users.c.id == user_id)
            ).one()
            used = len(_keys(connection, f"relief:{user_id}:{day.text}:"))
            ask = ReliefAsk(
                balance=balance, line=line, used=used,
                guest=password == "", account_hours=(now - created).total_seconds() / 3600,
                in_hand=seated or in_play(connection, user_id),
            )  # fmt: skip
            check_relief(self.settings, ask)
            coins = self.settings.relief_coins
            key = f"relief:{user_id}:{day.text}:{used + 1}"
            if not self._pay(connection, user_id, coins, key, now):  # paid by another request
                raise IllegalActionError("not_broke", "a relief was just paid")
            return coins

    def claim(self, user_id: int, day: HallDay, task_id: str, *, now: datetime) -> TaskState:
        """Claim the coins of the day's task ``task_id``, done; the task, claimed.

        :raises IllegalActionError: ``unknown_task``, ``task_not_done``, ``task_claimed``
            (also a retried request).
        :raises InvalidActionError: ``unknown_user``.
        """
        task = find_task(self.settings, user_id, day.text, task_id)
        with self.store.write() as connection:
            done = progress(task, _seats(connection, user_id, day))
            if done < task.target:
                raise IllegalActionError(
                    "task_not_done", f"task {task.id}: {done} of {task.target}"
                )
            key = f"task:{user_id}:{day.text}:{task.id}"
            if not self._pay(connection, user_id, task.coins, key, now):
                raise IllegalActionError("task_claimed", f"task {task.id} is claimed")
            return TaskState(task, done, True)

    def state(self, user_id: int, day: HallDay, line: int) -> EconomyState:
        """His economy today.

        :raises InvalidActionError: ``unknown_user``.
        """
        with self.store.read() as connection:
            coins = users_of.balance(connection, user_id)
            today = _streak_on(connection, user_id, day.day)
            yesterday = _streak_on(connection, user_id, day.day - timedelta(days=1))
            used = len(_keys(connection, f"relief:{user_id}:{day.text}:"))
            claimed = {key.rpartition(":")[2] for key in
                       _keys(connection, f"task:{user_id}:{day.text}:")}  # fmt: skip
            seats = _seats(connection, user_id, day)
        streak = today if today is not None else (yesterday or 0)
        tasks = tuple(
            TaskState(task, progress(task, seats), task.id in claimed)
            for task in daily_tasks(self.settings, user_id, day.text)
        )
        settings = self.settings
        return EconomyState(
            day=day.text, coins=coins, checked_in=today is not None, streak=streak,
            next_checkin=checkin_coins(settings, streak + 1),
            relief_left=max(0, settings.relief_per_day - used),
            relief_coins=settings.relief_coins, broke_line=line, tasks=tasks,
        )  # fmt: skip

    def _pay(self, connection: Connection, user_id: int, coins: int, key: str,
             now: datetime) -> bool:  # fmt: skip
        return users_of.give(connection, self.store.system, user_id, coins, key, now=now)


def _already() -> IllegalActionError:
    return IllegalActionError("already_checked_in", "checked in today: come back tomorrow")


def _streak_on(connection: Connection, user_id: int, day: date) -> int | None:
    found = connection.execute(
        select(checkins.c.streak).where(
            checkins.c.user_id == user_id, checkins.c.day == day.isoformat()
        )
    ).scalar()
    return None if found is None else int(found)


def _keys(connection: Connection, prefix: str) -> list[str]:
    """The keys of the grants keyed ``grant:<prefix>…``."""
    pattern = f"grant:{prefix}%"
    rows = connection.execute(select(transactions.c.key).where(transactions.c.key.like(pattern)))
    return [str(key) for key in rows.scalars()]


def _seats(connection: Connection, user_id: int, day: HallDay) -> list[SeatFacts]:
    """His seats in the hands settled (not voided) within the hall's day."""
    rows = connection.execute(
        select(hand_seats.c.won, hand_seats.c.role, hand_seats.c.feats)
        .join_from(hand_seats, hands, hands.c.id == hand_seats.c.hand_id)
        .where(
            hand_seats.c.user_id == user_id, hands.c.status == "settled",
            hands.c.ended_at >= day.start, hands.c.ended_at < day.end,
        )
    )  # fmt: skip
    return [
        SeatFacts(bool(won), role, frozenset(feats.split(",")) if feats else frozenset())
        for won, role, feats in rows
    ]


def paid_per_day(connection: Connection, timezone: str = "UTC") -> list[tuple[str, str, int]]:
    """What ``system:grants`` paid out, per day (in ``timezone``) and reason (the second
    part of the key: ``checkin``, ``relief``, ``task``, ``signup``…): ``(day, reason,
    coins)`` rows, oldest day first."""
    zone = zone_of(timezone)
    grants = SystemAccounts.load(connection).grants
    rows = connection.execute(
        select(transactions.c.created_at, transactions.c.key, -entries.c.amount)
        .join_from(transactions, entries, entries.c.transaction_id == transactions.c.id)
        .where(entries.c.account_id == grants)
    )
    totals: dict[tuple[str, str], int] = {}
    for created, key, amount in rows:
        day = created.astimezone(zone).date().isoformat()
        parts = str(key).split(":")
        reason = parts[1] if len(parts) > 2 else parts[0]
        totals[day, reason] = totals.get((day, reason), 0) + int(amount)
    return [(day, reason, coins) for (day, reason), coins in sorted(totals.items())]
