"""The game registry: one :class:`GameType` per game, registered once, found by name.

The hall, the server, the records, the replays and the command line find a game only
here; none of them names a game.  Each shipped game has one module here
(``registry/doudizhu.py``...) that defines its :class:`GameType` over its engine package
(``qipai.games.<name>``) and its bots (``qipai.bots.<name>``), and registers it.  They
load on first use (:data:`BUILTIN`); another game registers itself with :func:`register`
(``tests/server/test_toy_game.py`` defines one in a single file and plays it through the
real hall).  The registry sits above the engines and the bots and below the hall
(``docs/architecture.md``).

>>> game_type("doudizhu").seats, game_type("zhajinhua").seats
((3, 3), (2, 6))
>>> game_names()
('doudizhu', 'zhajinhua', 'showhand')
>>> game_type("mahjong")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: unknown_game: a game is one of doudizhu, ...: 'mahjong'
"""

from qipai.games.events import SPECTATOR
from qipai.registry.gametype import (
    BASIC_TRUSTEE,
    BUILTIN,
    AppliedStep,
    EscapeCost,
    GameRules,
    GameState,
    GameType,
    HandSetup,
    Payout,
    Policy,
    RoomNumbers,
    SomeGame,
    SomeState,
    game_names,
    game_type,
    register,
    unregister,
)

__all__ = [
    "BASIC_TRUSTEE",
    "BUILTIN",
    "SPECTATOR",
    "AppliedStep",
    "EscapeCost",
    "GameRules",
    "GameState",
    "GameType",
    "HandSetup",
    "Payout",
    "Policy",
    "RoomNumbers",
    "SomeGame",
    "SomeState",
    "game_names",
    "game_type",
    "register",
    "unregister",
]
