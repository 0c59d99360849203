"""A private table's options 好友房设置 and the room it is played in.

What the owner chose (:class:`PrivateOptions`, checked by :func:`check_options`), what the
hall allows (:class:`PrivateSettings`, the rooms file's ``[private]`` section read by
:func:`load_private`), and the table's :class:`~qipai.hall.rooms.Room`
(:func:`private_room`): a copy of one of the hall's rooms of the chosen game and rules, its
"template".  ``coins``: the room whose stake (房间系数 of the points games, base of the
betting games) the owner picked, settled like it; ``points``: the lowest such room, its
hands settled as points only (:data:`~qipai.registry.Payout.POINTS_ONLY`).  Pure: the
caller reads the file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from qipai.errors import InvalidActionError
from qipai.hall.rooms import Room, applicable, file_section
from qipai.hall.table.table import HandTerms
from qipai.registry import Payout

HAND_COUNTS = (6, 12, 24, 0)
"""The 局数 a table may be created with (0: until its owner closes it)."""
STAKES = ("points", "coins")
"""``points``: a score for the table only, no coin moves; ``coins``: settled like its room."""
DEFAULT_TASKS = ("bomb_finish", "chain", "pair_chain", "plane", "bomb", "rocket_win", "spring")
"""The 任务 a private table created with ``tasks`` draws from (where its game has tasks),
unless the rooms file says."""
MAX_DELAY = 60
"""The longest a table may hold its spectators behind (seconds)."""


@dataclass(frozen=True, slots=True)
class PrivateSettings:
    """The hall's rules for private tables (the rooms file's ``[private]`` section)."""

    grace_seconds: float = 120.0
    """How long a table with no connected person is kept before it closes."""
    tasks: tuple[str, ...] = DEFAULT_TASKS
    """The 任务 of a table created with ``tasks`` (its game must have them)."""
    seconds: tuple[int, int] = (10, 60)
    """The least and most seconds per decision an owner may choose."""


@dataclass(frozen=True, slots=True)
class PrivateOptions:
    """What an owner chose (``docs/protocol.md``, ``private_create``)."""

    game: str
    rules: str
    hands: int = 6
    stakes: str = "points"
    base: int | None = None
    """Coins: the template room's stake (``None``: the lowest)."""
    seconds: int | None = None
    """Seconds per decision (``None``: the template room's)."""
    bots: bool = True
    spectators: bool = True
    tasks: bool = False
    delay: int = 0


def bad(field: str, problem: str) -> InvalidActionError:
    """``bad_private``, naming the field."""
    return InvalidActionError("bad_private", f"field {field!r}: {problem}")


def load_private(text: str) -> PrivateSettings:
    """The ``[private]`` section of a rooms file (the defaults where it has none).

    :raises InvalidActionError: ``bad_room`` for a key it does not know or a bad value.
    """
    return settings_of(file_section(text, "private"))


def settings_of(section: object) -> PrivateSettings:
    """:class:`PrivateSettings` from a parsed ``[private]`` table.

    :raises InvalidActionError: ``bad_room``.
    """
    known = {"grace_seconds", "tasks", "seconds"}
    if not isinstance(section, Mapping) or set(section) - known:
        raise InvalidActionError("bad_room", f"[private] takes only {sorted(known)}")
    grace = section.get("grace_seconds", 120)
    tasks = section.get("tasks", list(DEFAULT_TASKS))
    seconds = section.get("seconds", [10, 60])
    if isinstance(grace, bool) or not isinstance(grace, int | float) or grace < 0:
        raise InvalidActionError("bad_room", "[private] grace_seconds: a number >= 0")
    if not isinstance(tasks, list) or not all(isinstance(t, str) for t in tasks):
        raise InvalidActionError("bad_room", "[private] tasks: a list of task ids")
    if (
        not isinstance(seconds, list)
        or len(seconds) != 2
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in seconds)
        or not 1 <= seconds[0] <= seconds[1]
    ):
        raise InvalidActionError("bad_room", "[private] seconds: [least, most], 1 <= least <= most")
    return PrivateSettings(float(grace), tuple(tasks), (seconds[0], seconds[1]))


def check_options(options: PrivateOptions, settings: PrivateSettings) -> None:
    """Refuse options no table can have (the rooms are checked by :func:`private_room`).

    :raises InvalidActionError: ``bad_private``, naming the field.
    """
    if options.hands not in HAND_COUNTS:
        raise bad("hands", f"one of {', '.join(map(str, HAND_COUNTS))}")
    if options.stakes not in STAKES:
        raise bad("stakes", "points or coins")
    if options.base is not None and options.stakes != "coins":
        raise bad("base", "only for coins")
    least, most = settings.seconds
    if options.seconds is not None and not least <= options.seconds <= most:
        raise bad("seconds", f"within {least}..{most}")
    if not 0 <= options.delay <= MAX_DELAY:
        raise bad("delay", f"within 0..{MAX_DELAY}")


def stake_of(room: Room) -> int:
    """A room's stake: its 房间系数 (the points games), else its base (the betting games)."""
    return room.coefficient if "coefficient" in applicable(room.game, room.rules) else room.base


def template_of(rooms: Iterable[Room], options: PrivateOptions) -> Room:
    """The hall's room a table of ``options`` copies.

    :raises InvalidActionError: ``bad_private`` (no room of that game and rules, no room
        at that stake).
    """
    same = [r for r in rooms if r.game == options.game and r.rules == options.rules]
    if not same:
        known = sorted({f"{r.game}/{r.rules}" for r in rooms})
        raise bad("rules", f"the hall has no room of {options.game}/{options.rules}: {known}")
    if options.base is None:
        return min(same, key=lambda r: (r.min_coins, stake_of(r)))
    for room in same:
        if stake_of(room) == options.base:
            return room
    stakes = sorted({stake_of(r) for r in same})
    raise bad("base", f"one of the hall's stakes {stakes}")


def private_room(
    template: Room, table_id: str, options: PrivateOptions, settings: PrivateSettings
) -> tuple[Room, HandTerms | None]:
    """The room of the table of opaque id ``table_id`` (room id ``private:<table_id>``,
    never its code: the room id is in every frame of its live tables, spectators' too) and
    the terms its hands are played by (``None``: the room's own, coins; points only for
    ``points``).

    :raises InvalidActionError: ``bad_private`` for what the room's game refuses (tasks).
    """
    if options.tasks and "tasks" not in applicable(template.game, template.rules):
        raise bad("tasks", f"{template.game}/{template.rules} has no tasks")
    seconds = template.decision_seconds if options.seconds is None else float(options.seconds)
    try:
        room = dataclasses.replace(
            template, id=f"private:{table_id}", name="好友房", regroup=False,
            bots=options.bots, decision_seconds=seconds,
            tasks=settings.tasks if options.tasks else template.tasks,
        )  # fmt: skip
        terms = None
        if options.stakes == "points":
            terms = HandTerms(room.game_rules(), Payout.POINTS_ONLY)
    except InvalidActionError as error:
        raise bad("tasks" if options.tasks else "rules", error.message) from None
    return room, terms
