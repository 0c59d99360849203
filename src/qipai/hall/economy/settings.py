"""The economy's settings: the rooms file's ``[economy]`` section (``docs/hall.md``, "The
economy"), with clear ``bad_room`` errors for a bad value.  Pure: the caller reads the file
(and checks that the time zone exists)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources

from qipai.errors import InvalidActionError
from qipai.hall.rooms import file_section

COUNTS = ("played", "won")
"""What a task counts: settled hands played, or won."""


@dataclass(frozen=True, slots=True)
class TaskSpec:
    """One 每日任务 a day may draw: count ``target`` settled hands (``played`` or ``won``),
    of the seat's ``role`` and with its ``feat`` where given, for ``coins``."""

    id: str
    """Its id (``[a-z0-9_]``, at most 32 characters), in the claim's URL and key."""
    name: str
    """What the lobby shows (Chinese)."""
    english: str
    """What the lobby shows in English."""
    target: int
    """How many hands."""
    coins: int
    """What claiming it pays."""
    count: str = "played"
    """``played`` or ``won`` (:data:`COUNTS`)."""
    role: str | None = None
    """Only hands where the seat had this role (e.g. ``landlord``)."""
    feat: str | None = None
    """Only hands where the seat's feats (:meth:`~qipai.registry.GameType.feats`) hold it
    (e.g. ``bomb``, ``rocket``, ``straight_flush``)."""


DEFAULT_TASKS = (
    TaskSpec("play_5", "玩5局", "Play 5 hands", 5, 300),
    TaskSpec("win_3", "赢3局", "Win 3 hands", 3, 400, count="won"),
    TaskSpec("landlord_win", "当地主赢1局", "Win a hand as landlord", 1, 300, count="won",
             role="landlord"),
    TaskSpec("bomb", "打出1个炸弹", "Play a bomb", 1, 200, feat="bomb"),
    TaskSpec("rocket", "打出王炸", "Play a rocket", 1, 300, feat="rocket"),
    TaskSpec("straight_flush_win", "顺金赢1局", "Win a hand with a straight flush", 1, 500,
             count="won", feat="straight_flush"),
    TaskSpec("play_10", "玩10局", "Play 10 hands", 10, 500),
)  # fmt: skip
"""The tasks a day draws from unless the rooms file lists its own."""


@dataclass(frozen=True, slots=True)
class EconomySettings:
    """The hall's economy (the rooms file's ``[economy]`` section); every amount in coins."""

    timezone: str = "Asia/Shanghai"
    """The zone whose calendar day is the hall's day (check-ins, relief counts, tasks)."""
    checkin_coins: int = 300
    """The first day's check-in grant."""
    checkin_step: int = 100
    """What each further day of the streak adds."""
    checkin_days: int = 7
    """The streak day from which the grant stops growing."""
    relief_coins: int = 2000
    """One relief grant 破产补助."""
    relief_per_day: int = 3
    """Relief grants a person may take in a day."""
    relief_guests: bool = False
    """Whether guests may take relief."""
    relief_min_account_hours: float = 24.0
    """How old an account must be to take relief (0: any)."""
    tasks_per_day: int = 3
    """How many tasks a day draws for each person (all of :attr:`tasks` when fewer)."""
    tasks: tuple[TaskSpec, ...] = field(default=DEFAULT_TASKS)
    """The tasks a day draws from."""


_INTS = {"checkin_coins": 1, "checkin_step": 0, "checkin_days": 1, "relief_coins": 1,
         "relief_per_day": 0, "tasks_per_day": 0}  # fmt: skip
"""The integer settings and their least value."""
_TASK_KEYS = {"id", "name", "english", "target", "coins", "count", "role", "feat"}


def default_economy() -> EconomySettings:
    """The ``[economy]`` of the rooms file shipped with the package (``qipai/rooms.toml``):
    the defaults of :class:`EconomySettings`, written out."""
    text = resources.files("qipai").joinpath("rooms.toml").read_text(encoding="utf-8")
    return load_economy(text)


def bad(problem: str) -> InvalidActionError:
    """``bad_room``, about the ``[economy]`` section."""
    return InvalidActionError("bad_room", f"[economy] {problem}")


def load_economy(text: str) -> EconomySettings:
    """The ``[economy]`` section of a rooms file (the defaults where it has none).

    :raises InvalidActionError: ``bad_room`` for a key it does not know or a bad value.
    """
    return economy_of(file_section(text, "economy"))


def economy_of(section: object) -> EconomySettings:
    """:class:`EconomySettings` from a parsed ``[economy]`` table.

    :raises InvalidActionError: ``bad_room``.
    """
    known = {*_INTS, "timezone", "relief_guests", "relief_min_account_hours", "task"}
    if not isinstance(section, Mapping):
        raise bad("is a table")
    unknown = set(section) - known
    if unknown:
        raise bad(f"unknown keys {sorted(unknown)}; it takes {sorted(known)}")
    base = EconomySettings()
    numbers = {
        key: _whole(section.get(key, getattr(base, key)), key, least)
        for key, least in _INTS.items()
    }
    zone = section.get("timezone", "Asia/Shanghai")
    if not isinstance(zone, str) or not zone:
        raise bad("timezone: a time zone name, e.g. Asia/Shanghai")
    guests = section.get("relief_guests", False)
    if not isinstance(guests, bool):
        raise bad("relief_guests: true or false")
    hours = section.get("relief_min_account_hours", 24)
    if isinstance(hours, bool) or not isinstance(hours, int | float) or hours < 0:
        raise bad("relief_min_account_hours: a number >= 0")
    tasks = DEFAULT_TASKS if "task" not in section else _tasks(section["task"])
    return EconomySettings(
        timezone=zone, checkin_coins=numbers["checkin_coins"],
        checkin_step=numbers["checkin_step"], checkin_days=numbers["checkin_days"],
        relief_coins=numbers["relief_coins"], relief_per_day=numbers["relief_per_day"],
        relief_guests=guests, relief_min_account_hours=float(hours),
        tasks_per_day=numbers["tasks_per_day"], tasks=tasks,
    )  # fmt: skip


def _whole(value: object, label: str, least: int) -> int:
    """``value`` as a whole number of at least ``least`` (``bad_room`` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise bad(f"{label}: a whole number >= {least}")
    return value


def _tasks(tables: object) -> tuple[TaskSpec, ...]:
    if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
        raise bad("[[economy.task]]: a list of tables")
    tasks = tuple(_task(table, n) for n, table in enumerate(tables, 1))
    ids = [task.id for task in tasks]
    if len(set(ids)) != len(ids):
        raise bad("[[economy.task]]: each task needs its own id")
    return tasks


def _task(table: Mapping[str, object], number: int) -> TaskSpec:
    label = f"task {number}"
    unknown = set(table) - _TASK_KEYS
    if unknown:
        raise bad(f"{label}: unknown keys {sorted(unknown)}")
    ident = table.get("id")
    if not isinstance(ident, str) or not _is_id(ident):
        raise bad(f"{label}: id is 1-32 of a-z, 0-9 and _")
    texts = {key: table.get(key) for key in ("name", "english")}
    for key, text in texts.items():
        if not isinstance(text, str) or not text or len(text) > 64:
            raise bad(f"task {ident}: {key} is a text of 1-64 characters")
    target = _whole(table.get("target"), f"task {ident}: target", 1)
    coins = _whole(table.get("coins"), f"task {ident}: coins", 1)
    count = table.get("count", "played")
    if count not in COUNTS:
        raise bad(f"task {ident}: count is one of {', '.join(COUNTS)}")
    role, feat = (_optional_id(table.get(key), f"task {ident}: {key}") for key in ("role", "feat"))
    return TaskSpec(
        ident, str(texts["name"]), str(texts["english"]), target, coins, str(count), role, feat
    )


def _optional_id(value: object, label: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _is_id(value):
        raise bad(f"{label} is 1-32 of a-z, 0-9 and _")
    return value


def _is_id(text: str) -> bool:
    return 0 < len(text) <= 32 and all(c.isascii() and (c.isalnum() or c == "_") and
                                       not c.isupper() for c in text)  # fmt: skip
