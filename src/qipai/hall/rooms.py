"""Rooms 房间: a game, a rule-set preset and the room's numbers, read from TOML.

A :class:`Room` is frozen and validated when it is built.  :func:`load_rooms` parses the
text of a TOML file (pure: the caller reads the file); :func:`default_rooms` loads the
rooms shipped with the package (``rooms.toml``).  Each ``[[room]]`` table of the file is
one room; the keys are the fields of :class:`Room`, and a key that does not apply to the
room's game and preset (a top bet for Dou Dizhu, a fee outside ``huanle``) is refused
rather than ignored.  Every default is listed in ``docs/hall.md`` ("Rooms").

>>> [room] = load_rooms('''
... [[room]]
... id = "ddz-5"
... name = "斗地主 五倍场"
... game = "doudizhu"
... rules = "yifa"
... coefficient = 5
... ''')
>>> room.min_coins, room.rake_percent, room.seats, room.bots
(480, 5, 3, True)
>>> may_join(room, 479), may_join(room, 480)
(False, True)
>>> load_rooms('[[room]]\\nid = "x"\\nname = "x"\\ngame = "doudizhu"\\nrules = "yifa"\\ncap = 9')
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_room: room 'x', field 'cap': does not apply to doudizhu/yifa
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu import rules as doudizhu
from qipai.games.showhand import rules as showhand
from qipai.games.zhajinhua import rules as zhajinhua
from qipai.hall.matchmaking import DEFAULT_BOT_WAIT, Seating

GameRules = doudizhu.Rules | zhajinhua.Rules | showhand.Rules
"""The rule set of any of the three games."""

PRESETS: Mapping[str, Mapping[str, GameRules]] = {
    "doudizhu": doudizhu.RULES,
    "zhajinhua": zhajinhua.RULES,
    "showhand": showhand.RULES,
}
"""Every game a room may host, and its presets by name."""

YIFA_MIN_COINS_FACTOR = 96
"""yifa (the 易发 page): the minimum coins to enter are the room coefficient × 96."""
YIFA_RAKE_PERCENT = 5
"""yifa: the house takes 5% of each winner's gain (rounded down by the settlement)."""
DEFAULT_DECISION_SECONDS = 20.0
"""Seconds a player has for each decision before 托管 plays for him."""
DEFAULT_GRACE_SECONDS = 30.0
"""Seconds an absent player is waited for before Zha Jin Hua and Showhand fold him."""

KEEPS_TABLES = frozenset({("doudizhu", "zhengtu")})
"""The presets whose rooms keep their tables from hand to hand by default (``regroup =
false``): 征途's first bidder is "the player who entered the table first, then in turn"
(the 征途 page).  Every other preset regroups after each hand (分组规则, the 易发 page; the pages of
caishen, huanle and jj say nothing of it)."""
ESCAPE_BEFORE_START = frozenset({("doudizhu", "huanle")})
"""The presets whose rooms count leaving a matched table before the hand starts as an
escape by default (``escape_before_start = true``): 欢乐斗地主."""

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
}
"""The value of each game-specific field in a room whose game and preset lack it."""

REQUIRED = ("id", "name", "game", "rules")
"""The keys every ``[[room]]`` table must have."""
_SECONDS = ("decision_seconds", "grace_seconds", "bot_wait")


def applicable(game: str, rules: str) -> frozenset[str]:
    """The game-specific fields (keys of :data:`NEUTRAL`) a room of ``game``/``rules`` has.

    >>> sorted(applicable("doudizhu", "huanle"))
    ['coefficient', 'doubling_threshold', 'escape_before_start', 'fee']
    >>> sorted(applicable("showhand", "yifa"))
    ['ante', 'base', 'cap', 'rake_percent']
    """
    if game == "zhajinhua":
        return frozenset({"base", "ante", "top_bet", "cap", "rake_percent"})
    if game == "showhand":
        return frozenset({"base", "ante", "cap", "rake_percent"})
    extra = {"yifa": {"rake_percent"}, "huanle": {"fee", "doubling_threshold"}}
    return frozenset({"coefficient", "escape_before_start", *extra.get(rules, ())})


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
    """``doudizhu``, ``zhajinhua`` or ``showhand``."""
    rules: str
    """The name of one of the game's presets (:data:`PRESETS`)."""
    seats: int
    """Seats at each table, within the game's range (:meth:`Seating.for_game`)."""
    coefficient: int
    """房间系数 N (Dou Dizhu): coins per point of score (caishen's "room base")."""
    base: int
    """底分 / base bet (Zha Jin Hua, Showhand): the unit of the bets."""
    ante: int | None
    """锅底 (Zha Jin Hua, Showhand): what each player puts in before the deal."""
    top_bet: int | None
    """顶注 (Zha Jin Hua): the largest stake."""
    cap: int | None
    """封顶 / 上限 (Zha Jin Hua, Showhand): the most one player may bet in one hand."""
    rake_percent: int
    """抽水: percent of each winner's gain taken by the house, rounded down."""
    fee: int
    """Fixed fee A per player per hand (Dou Dizhu ``huanle``)."""
    doubling_threshold: int | None
    """Coins a player must hold above to 加倍 (Dou Dizhu ``huanle``)."""
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
    waiting (分组规则, the 易发 page); ``False`` keeps a table playing hand after hand while all
    its players stay (征途: the first bidder turns round the table)."""
    escape_before_start: bool
    """Dou Dizhu: a player who leaves a matched table before its hand starts (while the
    first deal is dealt, before any bid) escapes, with the preset's escape penalty
    (欢乐斗地主); ``False``: he leaves once the hand is over."""

    def __post_init__(self) -> None:
        if self.game not in PRESETS:
            raise _bad(self.id, "game", f"unknown game {self.game!r}")
        if self.rules not in PRESETS[self.game]:
            raise _bad(self.id, "rules", f"unknown {self.game} preset {self.rules!r}")
        own = applicable(self.game, self.rules)
        for field, neutral in NEUTRAL.items():
            if field not in own and getattr(self, field) != neutral:
                raise _bad(self.id, field, f"does not apply to {self.game}/{self.rules}")
        self._check_numbers()
        _ = self.seating  # validates the table size and the bot wait
        self.game_rules()

    def _check_numbers(self) -> None:
        for field in ("coefficient", "base", "ante", "top_bet", "cap"):
            self._at_least(field, 1)
        for field in ("fee", "doubling_threshold", "min_coins", "grace_seconds"):
            self._at_least(field, 0)
        if not self.decision_seconds > 0:
            raise _bad(self.id, "decision_seconds", "must be > 0")
        if not 0 <= self.rake_percent <= 100:
            raise _bad(self.id, "rake_percent", "must be within 0..100")
        floor = _least_min_coins(self)
        if self.min_coins < floor:
            raise _bad(self.id, "min_coins", f"must be >= {floor} for {self.game}")

    def _at_least(self, field: str, lowest: int) -> None:
        value = getattr(self, field)
        if value is not None and value < lowest:
            raise _bad(self.id, field, f"must be >= {lowest}")

    @property
    def seating(self) -> Seating:
        """The room's table size and bot policy, for :class:`~qipai.hall.matchmaking.Lobby`."""
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

    def game_rules(self) -> GameRules:
        """The game's rule set with the room's numbers applied (what a table plays).

        :raises InvalidActionError: ``bad_room`` if the game's rules refuse the numbers.
        """
        preset = PRESETS[self.game][self.rules]
        try:
            return _RULES_FOR[self.game](self, preset)
        except InvalidActionError as error:
            raise _bad(self.id, self.game, error.message) from None


def _doudizhu_rules(room: Room, preset: Any) -> GameRules:
    if room.doubling_threshold in (None, preset.doubling_threshold):
        return preset  # type: ignore[no-any-return]
    return preset.derive(preset.name, doubling_threshold=room.doubling_threshold)  # type: ignore[no-any-return]


def _zhajinhua_rules(room: Room, preset: Any) -> GameRules:
    return preset.derive(  # type: ignore[no-any-return]
        preset.name,
        ante=room.ante,
        base_bet=room.base,
        stake_levels=tuple(level * room.base for level in preset.stake_levels),
        top_bet=room.top_bet,
        cap=room.cap,
        rake_percent=room.rake_percent,
    )


def _showhand_rules(room: Room, preset: Any) -> GameRules:
    cap = room.cap if room.cap is not None else 0
    if cap % room.base:
        raise InvalidActionError("bad_rules", f"the cap {cap} is not a multiple of the base")
    return preset.derive(  # type: ignore[no-any-return]
        preset.name, base=room.base, ante=room.ante, cap_units=cap // room.base
    )


_RULES_FOR: Mapping[str, Callable[[Room, Any], GameRules]] = {
    "doudizhu": _doudizhu_rules,
    "zhajinhua": _zhajinhua_rules,
    "showhand": _showhand_rules,
}


def _least_min_coins(room: Room) -> int:
    """The lowest minimum a room may set: Zha Jin Hua its cap, Showhand 100 × base."""
    if room.game == "zhajinhua" and room.cap is not None:
        return room.cap
    if room.game == "showhand":
        preset: Any = PRESETS["showhand"][room.rules]
        return int(preset.min_stack_units) * room.base
    return 0


def _defaults(game: str, rules: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The value of every field the room's table did not give (``docs/hall.md``)."""
    preset: Any = PRESETS[game][rules]
    base = given.get("base", 1)
    values: dict[str, Any] = dict(NEUTRAL)
    values.update(
        seats=None,
        decision_seconds=DEFAULT_DECISION_SECONDS,
        grace_seconds=DEFAULT_GRACE_SECONDS,
        bots=True,
        bot_wait=DEFAULT_BOT_WAIT,
    )
    values.update(regroup=(game, rules) not in KEEPS_TABLES)
    if game == "doudizhu":
        values.update(doubling_threshold=preset.doubling_threshold)
        values.update(rake_percent=YIFA_RAKE_PERCENT if rules == "yifa" else 0)
        values.update(escape_before_start=(game, rules) in ESCAPE_BEFORE_START)
    elif game == "zhajinhua":
        values.update(ante=preset.ante * base, top_bet=preset.top_bet * base)
        values.update(cap=preset.cap * base, rake_percent=preset.rake_percent)
    else:
        values.update(ante=preset.ante, cap=preset.cap_units * base)
    values.update(given)
    for key in _SECONDS:
        values[key] = float(values[key])
    if values["seats"] is None:
        values["seats"] = Seating.for_game(game).seats
    if "min_coins" not in given:
        values["min_coins"] = _default_min_coins(game, values)
    return values


def _default_min_coins(game: str, values: Mapping[str, Any]) -> int:
    """Dou Dizhu: N × 96 (the yifa rule); Zha Jin Hua: the cap; Showhand: 100 × base."""
    if game == "doudizhu":
        return int(values["coefficient"]) * YIFA_MIN_COINS_FACTOR
    if game == "zhajinhua":
        return int(values["cap"])
    return 100 * int(values["base"])


_TYPES: Mapping[str, tuple[type, ...]] = {
    **{field.name: (int,) for field in dataclasses.fields(Room)},
    **dict.fromkeys(REQUIRED, (str,)),
    **dict.fromkeys(_SECONDS, (int, float)),
    "bots": (bool,),
    "regroup": (bool,),
    "escape_before_start": (bool,),
}
"""The TOML types each key accepts (an ``int`` key refuses booleans)."""


def _room_from_table(table: Mapping[str, Any], number: int) -> Room:
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
    game, rules = table["game"], table["rules"]
    if game not in PRESETS:
        raise _bad(label, "game", f"unknown game {game!r}")
    if rules not in PRESETS[game]:
        raise _bad(label, "rules", f"unknown {game} preset {rules!r}")
    own = applicable(game, rules)
    for key in table:
        if key in NEUTRAL and key not in own:
            raise _bad(label, key, f"does not apply to {game}/{rules}")
    return Room(**_defaults(game, rules, table))


def load_rooms(text: str) -> tuple[Room, ...]:
    """The rooms of a TOML document: one ``[[room]]`` table per room, in file order.

    :raises InvalidActionError: ``bad_room`` for text that is not TOML, a document without
        rooms or with other top-level keys, a duplicate id, or any room :class:`Room`
        refuses (the message names the room and the field).
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidActionError("bad_room", f"not valid TOML: {error}") from None
    extra = set(document) - {"room"}
    if extra:
        raise InvalidActionError("bad_room", f"unknown top-level keys: {sorted(extra)}")
    tables = document.get("room")
    if not isinstance(tables, list) or not tables:
        raise InvalidActionError("bad_room", "no [[room]] tables")
    rooms = tuple(_room_from_table(table, n) for n, table in enumerate(tables, 1))
    seen: set[str] = set()
    for room in rooms:
        if room.id in seen:
            raise _bad(room.id, "id", "is used by another room")
        seen.add(room.id)
    return rooms


def default_rooms() -> tuple[Room, ...]:
    """The rooms shipped with the package (``qipai/hall/rooms.toml``)."""
    text = resources.files("qipai.hall").joinpath("rooms.toml").read_text(encoding="utf-8")
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
