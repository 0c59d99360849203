"""The closed unions of the live hall's messages (``docs/architecture.md``, "The hall's
wings"): each wing owns its commands and effects, each wing's union holds exactly the
messages its module defines, the hall's :data:`~qipai.hall.commands.Command` and
:data:`~qipai.hall.effects.Effect` hold every one of them, and the central modules name
each once more (``commands.Join`` as before the wings owned theirs; the matches' aside,
which never were there)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import typing
from types import ModuleType

import pytest

from qipai.hall import commands as c
from qipai.hall import effects as e

COMMANDS = {
    "qipai.hall.commands": "HallCommand",
    "qipai.hall.table.commands": "TableCommand",
    "qipai.hall.cash.commands": "CashCommand",
    "qipai.hall.private.commands": "PrivateCommand",
    "qipai.hall.watch.commands": "WatchCommand",
    "qipai.hall.match.commands": "MatchCommand",
}
"""Each module of commands, and the name of its own closed union."""
EFFECTS = {
    "qipai.hall.effects": "HallEffect",
    "qipai.hall.table.effects": "TableEffect",
    "qipai.hall.cash.effects": "CashEffect",
    "qipai.hall.private.effects": "PrivateEffect",
    "qipai.hall.match.effects": "MatchEffect",
}
"""Each module of effects, and the name of its own closed union."""
NOT_NAMED_CENTRALLY = "qipai.hall.match."
"""The matches' messages, read as ``match.commands.Register`` (they never were central)."""


def defined_in(module: ModuleType) -> set[type]:
    """The dataclasses that ``module`` itself defines (not those it imports)."""
    return {
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and dataclasses.is_dataclass(value)
        and value.__module__ == module.__name__
    }


def members(union: object) -> set[type]:
    """The classes of a union alias (a lone class: itself)."""
    return set(typing.get_args(union)) or {typing.cast("type", union)}


@pytest.mark.parametrize(("name", "union"), sorted(COMMANDS.items()))
def test_each_wing_owns_its_commands(name: str, union: str) -> None:
    module = importlib.import_module(name)
    own = defined_in(module)
    assert own and members(getattr(module, union)) == own
    assert own <= members(c.Command)
    if not name.startswith(NOT_NAMED_CENTRALLY):
        assert all(getattr(c, cls.__name__) is cls for cls in own)
        assert {cls.__name__ for cls in own} <= set(c.__all__)


@pytest.mark.parametrize(("name", "union"), sorted(EFFECTS.items()))
def test_each_wing_owns_its_effects(name: str, union: str) -> None:
    module = importlib.import_module(name)
    own = defined_in(module)
    assert own and members(getattr(module, union)) == own
    assert own <= members(e.Effect)
    if not name.startswith(NOT_NAMED_CENTRALLY):
        assert all(getattr(e, cls.__name__) is cls for cls in own)
        assert {cls.__name__ for cls in own} <= set(e.__all__)


def test_the_unions_hold_nothing_else() -> None:
    commands = set().union(*(defined_in(importlib.import_module(name)) for name in COMMANDS))
    effects = set().union(*(defined_in(importlib.import_module(name)) for name in EFFECTS))
    assert members(c.Command) == commands
    assert members(e.Effect) == effects
    assert len({cls.__name__ for cls in commands}) == len(commands)  # one name, one command
    assert len({cls.__name__ for cls in effects}) == len(effects)
