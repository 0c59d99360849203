"""Rooms 房间: a game, a rule-set preset and the room's numbers, read from TOML.

A :class:`Room` is frozen and validated when it is built.  :func:`load_rooms` parses the
text of a TOML file (pure: the caller reads the file); :func:`default_rooms` loads the
rooms shipped with the package (``qipai/rooms.toml``).  Each ``[[room]]`` table of the
file is one room; the keys are the fields of :class:`Room`.  The game-specific fields
(:data:`NEUTRAL`) a room takes, their defaults, the room's numbers applied to its preset
and its least minimum of coins come from its game (:mod:`qipai.registry`); a key that
does not apply to the room's game and preset is refused rather than ignored.  Every default
is listed in ``docs/hall.md`` ("Rooms").

>>> load_rooms('[[room]]\\nid = "x"\\nname = "x"\\ngame = "go"\\nrules = "japanese"')
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_room: room 'x', field 'game': unknown game 'go'
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import SimpleNamespace
from typing import TypeVar, cast

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.cash.matchmaking import DEFAULT_BOT_WAIT, Seating
from qipai.jsontypes import entry
from qipai.registry import (
    BASIC_TRUSTEE,
    GameRules,
    Payout,
    RoomNumbers,
    SomeGame,
    game_names,
    game_type,
)

DEFAULT_DECISION_SECONDS = 20.0
"""Seconds a player has for each decision before 托管 plays for him."""
DEFAULT_GRACE_SECONDS = 30.0
"""Seconds an absent player is waited for before a game that folds the absent folds him."""

NEUTRAL: Mapping[str, object] = {
    "coefficient": 1,
    "base": 1,
    "ante": None,
    "top_bet": None,
    "cap": None,
    "rake_percent": 0,
    "fee": 0,
    "doubling_threshold": None,
    "escape_before_start": False,
    "trustee": BASIC_TRUSTEE,
    "card_counter": False,
    "tasks": (),
}
"""The value of each game-specific field in a room whose game and preset lack it."""

REQUIRED = ("id", "name", "game", "rules")
"""The keys every ``[[room]]`` table must have."""
LEVELS = ("novice", "junior", "middle", "senior")
"""The stake levels 场次 a room may be of, lowest first: 新手场, 初级场, 中级场, 高级场."""
DEFAULT_LEVEL = LEVELS[0]
_SECONDS = ("decision_seconds", "grace_seconds", "bot_wait")
POINTS_ROOM = "积分场"
"""A word only the name of a room whose hands move no coin (``Payout.POINTS_ONLY``) may
hold: a player reads 积分场 as "points, no coins"."""


def applicable(game: str, rules: str) -> frozenset[str]:
    """The game-specific fields (keys of :data:`NEUTRAL`) a room of ``game``/``rules`` has
    (the game's :meth:`~qipai.registry.GameType.fields_of`)."""
    return game_type(game).fields_of(rules)


def _bad(room: str, field: str, problem: str) -> InvalidActionError:
    return InvalidActionError("bad_room", f"room {room!r}, field {field!r}: {problem}")


@dataclass(frozen=True, slots=True)
class Room:
    """One room: a game, a preset and its numbers.  All amounts are integer coins.

    Build rooms with :func:`load_rooms`; a direct call must give every field that
    :func:`load_rooms` would default.

    :raises InvalidActionError: ``bad_room``, naming the room and the field, for an unknown
        game or preset, a field that does not apply, a number out of range, a table size
        outside the game's, or numbers the game's rules refuse.
    """

    id: str
    """Unique identifier of the room (its key in URLs and messages)."""
    name: str
    """The name shown to players (Chinese)."""
    game: str
    """The game's name in the registry (:func:`~qipai.registry.game_names`)."""
    rules: str
    """The name of one of the game's presets."""
    level: str
    """Its stake level 场次, one of :data:`LEVELS` (the lobby orders a game's rooms by it)."""
    seats: int
    """Seats at each table, within the game's range (:meth:`Seating.for_game`)."""
    coefficient: int
    """房间系数 N (the games scored in points): coins per point of score."""
    base: int
    """底分 / base bet (the betting games): the unit of the bets."""
    ante: int | None
    """锅底 (the betting games): what each player puts in before the deal."""
    top_bet: int | None
    """顶注: the largest stake."""
    cap: int | None
    """封顶 / 上限: the most one player may bet in one hand."""
    rake_percent: int
    """抽水: percent of each winner's gain taken by the house, rounded down."""
    fee: int
    """Fixed fee A per player per hand."""
    doubling_threshold: int | None
    """Coins a player must hold above to 加倍."""
    min_coins: int
    """Coins a player needs to join the room (see :func:`may_join`)."""
    decision_seconds: float
    """Time limit of each decision; on timeout 托管 plays."""
    grace_seconds: float
    """How long an absent player is waited for before the preset's policy (fold) applies."""
    bots: bool
    """Whether bots may fill the empty seats of a player who waited :attr:`bot_wait`."""
    bot_wait: float
    """Seconds a player waits before bots fill his table."""
    regroup: bool
    """Whether each table ends after every hand and its players are regrouped with everyone
    waiting (分组规则); ``False`` keeps a table playing hand after hand while all its players
    stay (a rotation round the table may depend on it)."""
    escape_before_start: bool
    """A player who leaves a matched table before its hand starts (while the first deal is
    dealt, before any decision) escapes, with the preset's escape penalty; ``False``: he
    leaves once the hand is over."""
    trustee: str
    """托管 style: ``basic``, the game's own 托管 (every game has it), or another of its
    game's :attr:`~qipai.registry.GameType.trustee_styles` (a strong bot, say)."""
    card_counter: bool
    """Whether the browser offers its players the 记牌器 (how many of each rank are still
    out), where its game counts cards (its registry's room fields say so)."""
    tasks: tuple[str, ...]
    """任务, where its game has them: the ids of the tasks one of which each hand shows at
    the deal, drawn from the hand's seed; the side that completes it has the hand's result
    doubled (the game's docs say which tasks there are).  ``()``: no task."""

    def __post_init__(self) -> None:
        _check_game(self.id, self.game, self.rules)
        own = applicable(self.game, self.rules)
        for field, neutral in NEUTRAL.items():
            if field not in own and getattr(self, field) != neutral:
                raise _bad(self.id, field, f"does not apply to {self.game}/{self.rules}")
        self._check_numbers()
        if self.level not in LEVELS:
            raise _bad(self.id, "level", f"must be one of {', '.join(LEVELS)}, not {self.level!r}")
        if self.trustee not in self.game_type.trustee_styles:
            styles = ", ".join(self.game_type.trustee_styles)
            raise _bad(self.id, "trustee", f"must be one of {styles}, not {self.trustee!r}")
        _ = self.seating  # validates the table size and the bot wait
        self.game_rules()
        self._check_name()

    def _check_name(self) -> None:
        """A room named 积分场 moves no coin (the player's reading of the name)."""
        if POINTS_ROOM in self.name and self.payout is not Payout.POINTS_ONLY:
            raise _bad(self.id, "name", f"its hands move coins: {POINTS_ROOM} is points only")

    def _check_numbers(self) -> None:
        for field in ("coefficient", "base", "ante", "top_bet", "cap"):
            self._at_least(field, 1)
        for field in ("fee", "doubling_threshold", "min_coins", "grace_seconds"):
            self._at_least(field, 0)
        if not self.decision_seconds > 0:
            raise _bad(self.id, "decision_seconds", "must be > 0")
        if not 0 <= self.rake_percent <= 100:
            raise _bad(self.id, "rake_percent", "must be within 0..100")
        floor = self.game_type.least_min_coins(self.rules, self)
        if self.min_coins < floor:
            raise _bad(self.id, "min_coins", f"must be >= {floor} for {self.game}")

    def _at_least(self, field: str, lowest: int) -> None:
        value = getattr(self, field)
        if value is not None and value < lowest:
            raise _bad(self.id, field, f"must be >= {lowest}")

    @property
    def seating(self) -> Seating:
        """The room's table size and bot policy, for :class:`~qipai.hall.cash.matchmaking.Lobby`."""
        try:
            return Seating.for_game(
                self.game,
                seats=self.seats,
                bots=self.bots,
                bot_wait=self.bot_wait,
                regroup=self.regroup,
            )
        except InvalidActionError as error:
            field = "bot_wait" if error.code == "invalid_bot_wait" else "seats"
            raise _bad(self.id, field, error.message) from None

    @property
    def game_type(self) -> SomeGame:
        """The room's game, from the registry."""
        return game_type(self.game)

    @property
    def payout(self) -> Payout:
        """How the room's hands settle into coins (its game's, for its preset)."""
        return self.game_type.payout(self.rules)

    def game_rules(self) -> GameRules:
        """The game's rule set with the room's numbers applied (what a table plays).

        :raises InvalidActionError: ``bad_room`` if the game's rules refuse the numbers.
        """
        try:
            rules: GameRules = self.game_type.rules_for_room(self.rules, self)
        except InvalidActionError as error:
            field = "tasks" if error.code == "bad_tasks" else self.game
            raise _bad(self.id, field, error.message) from None
        return rules


def _check_game(label: str, game: str, rules: str) -> None:
    """Refuse a game the registry lacks, or a preset its game lacks."""
    if game not in game_names():
        raise _bad(label, "game", f"unknown game {game!r}")
    if rules not in game_type(game).presets:
        raise _bad(label, "rules", f"unknown {game} preset {rules!r}")


def _defaults(game: str, rules: str, given: Mapping[str, object]) -> dict[str, object]:
    """The value of every field the room's table did not give (``docs/hall.md``): the
    hall's own, then the game's for its preset, then the given ones."""
    kind = game_type(game)
    values: dict[str, object] = dict(NEUTRAL)
    values.update(
        seats=kind.default_seats,
        decision_seconds=DEFAULT_DECISION_SECONDS,
        grace_seconds=DEFAULT_GRACE_SECONDS,
        bots=True,
        bot_wait=DEFAULT_BOT_WAIT,
        regroup=True,
        level=DEFAULT_LEVEL,
    )
    values.update(kind.room_defaults(rules, entry(given, "base", int, 1)))
    values.update(given)
    for key in _SECONDS:
        values[key] = float(_field(values, key, (int, float)))
    values["tasks"] = tuple(_field(values, "tasks", (list, tuple)))
    if "min_coins" not in given:
        numbers = cast(RoomNumbers, SimpleNamespace(**values))  # the room before it is built
        values["min_coins"] = kind.default_min_coins(numbers)
    return values


_TYPES: Mapping[str, tuple[type, ...]] = {
    **{field.name: (int,) for field in dataclasses.fields(Room)},
    **dict.fromkeys(REQUIRED, (str,)),
    **dict.fromkeys(_SECONDS, (int, float)),
    "bots": (bool,),
    "regroup": (bool,),
    "level": (str,),
    "escape_before_start": (bool,),
    "card_counter": (bool,),
    "trustee": (str,),
    "tasks": (list,),
}
"""The TOML types each key accepts (an ``int`` key refuses booleans)."""


T = TypeVar("T")


def _field(values: Mapping[str, object], key: str, kind: type[T] | tuple[type[T], ...]) -> T:
    """``values[key]``, a ``kind``.

    :raises KeyError: no such key; :raises TypeError: a value of another kind (a game's
        default: the table's own are checked by :func:`_room_from_table`).
    """
    value = values[key]
    if not isinstance(value, kind):
        raise TypeError(f"room field {key!r}: not {value!r}")
    return value


def _room(values: Mapping[str, object]) -> Room:
    """The room of ``values``, every field's (:func:`_defaults`), each of its field's kind.

    :raises TypeError: a field missing, unknown or of another kind (a game's default).
    """
    unknown = set(values) - {field.name for field in dataclasses.fields(Room)}
    if unknown:
        raise TypeError(f"no room fields {sorted(unknown)}")
    tasks = _field(values, "tasks", tuple)
    if not all(isinstance(task, str) for task in tasks):
        raise TypeError(f"room field 'tasks': not {tasks!r}")
    maybe = (int, type(None))
    return Room(
        id=_field(values, "id", str),
        name=_field(values, "name", str),
        game=_field(values, "game", str),
        rules=_field(values, "rules", str),
        level=_field(values, "level", str),
        seats=_field(values, "seats", int),
        coefficient=_field(values, "coefficient", int),
        base=_field(values, "base", int),
        ante=_field(values, "ante", maybe),
        top_bet=_field(values, "top_bet", maybe),
        cap=_field(values, "cap", maybe),
        rake_percent=_field(values, "rake_percent", int),
        fee=_field(values, "fee", int),
        doubling_threshold=_field(values, "doubling_threshold", maybe),
        min_coins=_field(values, "min_coins", int),
        decision_seconds=_field(values, "decision_seconds", float),
        grace_seconds=_field(values, "grace_seconds", float),
        bots=_field(values, "bots", bool),
        bot_wait=_field(values, "bot_wait", float),
        regroup=_field(values, "regroup", bool),
        escape_before_start=_field(values, "escape_before_start", bool),
        trustee=_field(values, "trustee", str),
        card_counter=_field(values, "card_counter", bool),
        tasks=tasks,
    )


def _room_from_table(table: Mapping[str, object], number: int) -> Room:
    """One ``[[room]]`` table as a :class:`Room`, defaults filled in."""
    label = str(table.get("id", f"#{number}"))
    for key in REQUIRED:
        if key not in table:
            raise _bad(label, key, "is required")
    for key, value in table.items():
        if key not in _TYPES:
            raise _bad(label, key, "is not a room field")
        kinds = _TYPES[key]
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            names = " or ".join(kind.__name__ for kind in kinds)
            raise _bad(label, key, f"must be {names}, not {value!r}")
        if isinstance(value, list) and not all(isinstance(item, str) for item in value):
            raise _bad(label, key, f"must be a list of strings, not {value!r}")
    game, rules = _field(table, "game", str), _field(table, "rules", str)
    _check_game(label, game, rules)
    own = applicable(game, rules)
    for key in table:
        if key in NEUTRAL and key not in own:
            raise _bad(label, key, f"does not apply to {game}/{rules}")
    return _room(_defaults(game, rules, table))


def load_rooms(text: str) -> tuple[Room, ...]:
    """The rooms of a TOML document: one ``[[room]]`` table per room, in file order.

    :raises InvalidActionError: ``bad_room`` for text that is not TOML, a document without
        rooms or with other top-level keys (``[watch]`` is read by
        :func:`~qipai.hall.watch.settings.watch_settings`, ``[private]`` by
        :func:`~qipai.hall.private.options.load_private`, ``[economy]`` by
        :func:`~qipai.hall.economy.settings.load_economy`), a duplicate id, or any room
        :class:`Room` refuses (the message names the room and the field).
    """
    try:
        document: dict[str, object] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidActionError("bad_room", f"not valid TOML: {error}") from None
    extra = set(document) - {"room", "watch", "private", "economy"}  # economy.settings too
    if extra:
        raise InvalidActionError("bad_room", f"unknown top-level keys: {sorted(extra)}")
    tables = document.get("room")
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise InvalidActionError("bad_room", "no [[room]] tables")
    rooms = tuple(_room_from_table(table, n) for n, table in enumerate(tables, 1))
    seen: set[str] = set()
    for room in rooms:
        if room.id in seen:
            raise _bad(room.id, "id", "is used by another room")
        seen.add(room.id)
    return rooms


def file_section(text: str, name: str) -> object:
    """The top-level ``[name]`` table of a rooms file, as parsed (``{}`` where it has none):
    what ``[private]``, ``[economy]``… are read from.

    :raises InvalidActionError: ``bad_room`` for text that is not TOML.
    """
    try:
        section: object = tomllib.loads(text).get(name, {})
    except tomllib.TOMLDecodeError as error:
        raise InvalidActionError("bad_room", f"not valid TOML: {error}") from None
    return section


def default_rooms() -> tuple[Room, ...]:
    """The rooms shipped with the package (``qipai/rooms.toml``)."""
    text = resources.files("qipai").joinpath("rooms.toml").read_text(encoding="utf-8")
    return load_rooms(text)


def may_join(room: Room, balance: int) -> bool:
    """Whether a player holding ``balance`` coins may join ``room`` (at least the minimum)."""
    return balance >= room.min_coins


def check_join(room: Room, balance: int) -> None:
    """Refuse a player who holds fewer coins than the room's minimum.

    :raises IllegalActionError: ``not_enough_coins``.
    """
    if not may_join(room, balance):
        message = f"room {room.id!r} needs {room.min_coins} coins, the player holds {balance}"
        raise IllegalActionError("not_enough_coins", message)
