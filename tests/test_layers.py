"""The layer DAG (``docs/architecture.md``), read from every module's imports with :mod:`ast`.

Layers, low to high: ``errors`` (and the package itself), ``jsontypes`` (the type of JSON
values), ``cards``, ``chance`` (the deal's
source of chance), ``games``, ``bots``, ``registry`` (each game's type: engine and bots),
``hall``, ``store``, ``cluster`` (several hall processes: leases in Redis), ``server``,
``client``, ``web``, ``envs`` (the learning environments: above everything the hall is
made of, so that nothing of the hall can import them), then the command line.  A module
may import its own layer and those below, never one above; a game package imports no other game; the
engines under ``games/`` and the live hall under ``hall/`` import no clock, no I/O, no global
randomness and print nothing (the hall's two config loaders read their shipped files).
Imports inside functions and under ``TYPE_CHECKING`` count like any other.  Layers whose
package does not exist yet simply have no modules.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "qipai"

LAYERS = (
    "errors", "jsontypes", "cards", "chance", "games", "bots", "registry", "hall", "store",
    "cluster", "server", "client", "web", "envs", "console", "cli",
)  # fmt: skip
"""The first component under ``qipai`` of every module, low layer to high."""
RANK = {name: rank for rank, name in enumerate(LAYERS)}

FORBIDDEN_IN_GAMES = frozenset(
    {
        "time", "datetime", "calendar", "zoneinfo", "sched",  # clocks
        "os", "sys", "io", "pathlib", "shutil", "tempfile", "glob", "fileinput",  # files
        "socket", "ssl", "select", "selectors", "asyncio", "http", "urllib",  # network
        "email", "smtplib", "sqlite3", "dbm", "shelve", "subprocess", "signal",
        "threading", "multiprocessing", "concurrent", "logging", "warnings",
        "secrets", "uuid", "importlib",  # unseeded randomness, dynamic loading
    }
)  # fmt: skip
"""Standard modules an engine may not import: clocks, I/O, processes, logging, entropy."""
SEEDED_RANDOM = frozenset({"Random"})
"""The only names an engine may take from :mod:`random` (a generator it is handed)."""
FORBIDDEN_CALLS = frozenset({"open", "print", "input", "breakpoint", "exec", "eval"})
"""Built-ins that do I/O or run code, not to be called in an engine."""


@dataclass(frozen=True)
class Import:
    """One imported module (or ``from module import name``) and where it is."""

    module: str
    """Absolute dotted name of the imported module."""
    names: tuple[str, ...]
    """Names taken by ``from module import …`` (empty for ``import module``)."""
    line: int
    """Line of the import statement."""


def module_name(path: Path) -> str:
    """``src/qipai/games/doudizhu/combos.py`` → ``qipai.games.doudizhu.combos``."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def imports_of(name: str, path: Path) -> list[Import]:
    """The absolute modules that the module ``name`` at ``path`` imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [Import(alias.name, (), node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = tuple(alias.name for alias in node.names)
            found.append(Import(base, names, node.lineno))
    return found


def layer_of(name: str) -> str:
    """The layer of a ``qipai…`` module (``qipai`` itself sits with ``errors``)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "errors"


def game_of(name: str) -> str | None:
    """The game package ``qipai.games.<game>`` a module belongs to, if any."""
    parts = name.split(".")
    if len(parts) > 2 and parts[1] == "games" and (SRC / PACKAGE / "games" / parts[2]).is_dir():
        return parts[2]
    return None


def imported_modules(imp: Import) -> list[str]:
    """The modules an import loads: ``from qipai.games import doudizhu`` loads a game."""
    if not imp.names:
        return [imp.module]
    folder = SRC.joinpath(*imp.module.split("."))
    return [
        f"{imp.module}.{name}"
        if (folder / name).is_dir()
        or (folder / f"{name}.py").exists()
        or (imp.module == PACKAGE and name in RANK)
        else imp.module
        for name in imp.names
    ]


def upward_imports(name: str, path: Path) -> list[str]:
    """The imports of the module that break the layer order or cross between games."""
    errors = []
    own = RANK[layer_of(name)]
    for imp in imports_of(name, path):
        if imp.module != PACKAGE and not imp.module.startswith(PACKAGE + "."):
            continue
        for target in imported_modules(imp):
            if layer_of(target) not in RANK:
                errors.append(f"line {imp.line}: {target} is in no layer")
            elif RANK[layer_of(target)] > own:
                errors.append(f"line {imp.line}: {target} is above {layer_of(name)}")
            elif layer_of(name) == "games" and game_of(target) not in (None, game_of(name)):
                errors.append(f"line {imp.line}: {target} is another game's")
    return errors


def impurities(name: str, path: Path) -> list[str]:
    """Clock, I/O, global-random and printing uses in an engine module."""
    errors = []
    for imp in imports_of(name, path):
        top = imp.module.split(".")[0]
        if top in FORBIDDEN_IN_GAMES:
            errors.append(f"line {imp.line}: imports {imp.module}")
        if top == "random" and not set(imp.names) <= SEEDED_RANDOM:
            errors.append(f"line {imp.line}: takes {imp.names} from random")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr not in SEEDED_RANDOM
        ):
            errors.append(f"line {node.lineno}: uses the global random.{node.attr}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FORBIDDEN_CALLS
        ):
            errors.append(f"line {node.lineno}: calls {node.func.id}()")
    return sorted(errors, key=lambda error: int(error.split(":")[0].split()[1]))


ALL = modules()
ENGINES = {name: path for name, path in ALL.items() if layer_of(name) == "games"}


def test_every_module_is_in_a_layer() -> None:
    assert {"qipai", "qipai.cards", "qipai.games.doudizhu"} <= set(ALL)
    assert [name for name in ALL if layer_of(name) not in RANK] == []


@pytest.mark.parametrize("name", sorted(ALL))
def test_imports_follow_the_layers(name: str) -> None:
    assert upward_imports(name, ALL[name]) == []


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_engines_are_pure(name: str) -> None:
    assert impurities(name, ENGINES[name]) == []


LIVE_HALL = {name: path for name, path in ALL.items() if layer_of(name) == "hall"}
"""The live hall's rules (:mod:`qipai.hall.core` and what it drives): pure like the
engines; the time comes in its commands, the world's answers too."""
READS_SHIPPED_FILES = {"qipai.hall.rooms", "qipai.hall.matchconfig"}
"""Hall modules that load their shipped TOML (``importlib.resources``): no other impurity."""


def test_the_live_hall_core_is_covered() -> None:
    assert {"qipai.hall.core", "qipai.hall.livetables", "qipai.hall.cashrooms"} <= set(LIVE_HALL)


@pytest.mark.parametrize("name", sorted(LIVE_HALL))
def test_the_live_hall_is_pure(name: str) -> None:
    found = impurities(name, LIVE_HALL[name])
    if name in READS_SHIPPED_FILES:
        found = [error for error in found if not error.endswith("imports importlib")]
    assert found == []


def test_nothing_imports_the_command_line() -> None:
    importers = [
        name
        for name, path in ALL.items()
        if name != "qipai.cli" and any(i.module == "qipai.cli" for i in imports_of(name, path))
    ]
    assert importers == []


@pytest.mark.parametrize("module", ["qipai", "qipai.games", "qipai.cards", "qipai.cli"])
def test_importing_loads_no_game(module: str) -> None:
    code = (
        f"import sys, {module}; "
        "print(sorted(m for m in sys.modules if m.startswith('qipai.games.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# --- the checker itself must catch what it is meant to catch ----------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mod.py"
    path.write_text(text, encoding="utf-8")
    return path


def test_checker_sees_upward_and_relative_imports(tmp_path: Path) -> None:
    path = write(tmp_path, "from qipai.hall import x\nfrom ...bots import y\n")
    errors = upward_imports("qipai.games.doudizhu.state", path)
    assert errors == [
        "line 1: qipai.hall is above games",
        "line 2: qipai.bots is above games",
    ]


def test_checker_sees_imports_between_games_and_unknown_layers(tmp_path: Path) -> None:
    path = write(tmp_path, "def f():\n    import qipai.games.doudizhu.combos\n")
    assert upward_imports("qipai.games.zhajinhua.hands", path) == [
        "line 2: qipai.games.doudizhu.combos is another game's"
    ]
    path = write(tmp_path, "from qipai.games import doudizhu\n")
    assert upward_imports("qipai.games", path) == ["line 1: qipai.games.doudizhu is another game's"]
    path = write(tmp_path, "from qipai import __version__, cards\nimport qipai.mystery\n")
    assert upward_imports("qipai.bots.simple", path) == ["line 2: qipai.mystery is in no layer"]


def test_checker_allows_lower_layers_and_own_game(tmp_path: Path) -> None:
    path = write(tmp_path, "from qipai.cards import Card\nfrom . import combos\nimport random\n")
    assert upward_imports("qipai.games.doudizhu.state", path) == []
    assert impurities("qipai.games.doudizhu.state", path) == []
    path = write(tmp_path, "from qipai.games import doudizhu\nimport qipai.games.doudizhu.wild\n")
    assert upward_imports("qipai.server.app", path) == []


def test_checker_sees_impurities(tmp_path: Path) -> None:
    source = (
        "import time\n"
        "from random import shuffle\n"
        "import random\n"
        "def f(deck):\n"
        "    random.shuffle(deck)\n"
        "    print(deck)\n"
        "    return random.Random(7)\n"
    )
    assert impurities("qipai.games.doudizhu.state", write(tmp_path, source)) == [
        "line 1: imports time",
        "line 2: takes ('shuffle',) from random",
        "line 5: uses the global random.shuffle",
        "line 6: calls print()",
    ]
