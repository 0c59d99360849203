"""``Any`` does not creep back into ``src/`` (``docs/architecture.md``, "Types").

The registry's seam is generic over each game's own types and JSON values are
:data:`qipai.jsontypes.Json`, which took the lines of ``src/`` naming ``Any`` from 279 to
120.  Where a game is known only at run time its types stay open behind the existential
aliases ``SomeGame``, ``SomeState`` (the registry's) and ``SomeArenaGame`` (the arena's):
an ``Any`` by another name, so the lines naming them have a ceiling of their own.  mypy
holds every module to ``disallow_any_explicit`` except those ``pyproject.toml`` lists;
these tests keep that list honest and both counts under their ceilings.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

CEILING = 50
"""Lines of ``src/`` naming ``Any`` (``grep -rwn Any src --include=*.py | wc -l``): 120
once the registry was generic, four more with the matches' results (a stage report and
the standings read back from their JSON, a frame beside its siblings in
``server/api/protocol.py``, SQLAlchemy's ``Select[Any]``), 107 once the frames the server
sends were typed (:mod:`qipai.hall.frames`), then 43 once the HTTP answers were structs
(:mod:`qipai.server.api.answers`) and the server, the cluster's Redis replies and messages,
the store's queries, RLCard, the environments and the duels' results were typed (issue
34, whose ceiling is 50), 39 once a table's hand was a ``GameState[object, object]``
(:data:`qipai.hall.table.hand.HandState`), and 16 once the matches' configuration and
snapshots, the rooms, the games' record options and the store's tables were typed and
their modules left the exemptions, and 11 once the client's frames and HTTP answers were
:data:`~qipai.jsontypes.Json` (``client.connection`` left them too)."""
EXISTENTIAL_CEILING = 25
"""Lines of ``src/`` naming an existential alias and no ``Any`` (``grep -rwn -E
'SomeGame|SomeState|SomeArenaGame' src --include=*.py | grep -vw Any | wc -l``): 27, then
25 once a table's hand and its setup were a ``GameState[object, object]``."""
_WORD = re.compile(r"(?<![A-Za-z0-9_])Any(?![A-Za-z0-9_])")
_EXISTENTIAL = re.compile(r"(?<![A-Za-z0-9_])(SomeGame|SomeState|SomeArenaGame)(?![A-Za-z0-9_])")
UNNAMED: dict[str, str] = {}
"""Excused modules whose ``Any`` is not written out in them, and why (none since
``store.bulk`` and the migration ``0003_matches`` name their tables ``TableType``: a bare
``sa.Table`` takes its type variable's default, which mypy reads as an explicit ``Any``)."""


def lines_naming_any(path: Path) -> list[int]:
    """The numbers of the lines of ``path`` that name ``Any`` (as ``grep -w`` finds it)."""
    text = path.read_text(encoding="utf-8")
    return [number for number, line in enumerate(text.splitlines(), 1) if _WORD.search(line)]


def lines_naming_an_existential(path: Path) -> list[int]:
    """The numbers of the lines of ``path`` that name an existential alias, not ``Any``."""
    text = path.read_text(encoding="utf-8")
    return [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if _EXISTENTIAL.search(line) and not _WORD.search(line)
    ]


def module_path(module: str) -> Path:
    """``qipai.hall.core`` → ``src/qipai/hall/core.py`` (or the package's ``__init__``)."""
    base = SRC.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def excused_modules() -> list[str]:
    """The modules ``pyproject.toml`` lets hold an explicit ``Any``."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = config["tool"]["mypy"]
    assert mypy.get("disallow_any_explicit") is True, "mypy must refuse explicit Any"
    return [
        module
        for override in mypy.get("overrides", [])
        if override.get("disallow_any_explicit") is False
        for module in override["module"]
    ]


def found_in_src(lines_of: Callable[[Path], list[int]]) -> list[str]:
    """``path:line`` of every line of ``src/`` that ``lines_of`` finds."""
    return [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        for number in lines_of(path)
    ]


def test_any_stays_under_its_ceiling() -> None:
    found = found_in_src(lines_naming_any)
    assert len(found) <= CEILING, (
        f"{len(found)} lines of src/ name Any, above the ceiling of {CEILING}: type the new "
        "code (a game's own types through GameType[...], Json for JSON values, object for "
        "a value only passed on); an Any that must stay raises CEILING with its reason"
    )


def test_the_existential_aliases_stay_under_their_ceiling() -> None:
    found = found_in_src(lines_naming_an_existential)
    assert len(found) <= EXISTENTIAL_CEILING, (
        f"{len(found)} lines of src/ name SomeGame, SomeState or SomeArenaGame, above the "
        f"ceiling of {EXISTENTIAL_CEILING}: they are Any by another name; a function that "
        "works for every game can be generic over GameType[RulesT, StateT, ActionT, ViewT], "
        "and a value it only passes on is an object"
    )


def test_every_module_excused_from_the_rule_still_needs_it() -> None:
    excused = excused_modules()
    assert excused, "pyproject.toml names the modules that may hold an explicit Any"
    missing = [module for module in excused if not module_path(module).exists()]
    clean = [
        module
        for module in excused
        if module not in UNNAMED and not lines_naming_any(module_path(module))
    ]
    assert missing == [], "modules excused from disallow_any_explicit that do not exist"
    assert clean == [], "modules that hold no Any: take them off the list in pyproject.toml"
