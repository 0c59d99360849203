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
    "cluster", "server", "client", "web", "envs", "console", "admin_cli", "cli",
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
READS_SHIPPED_FILES = {"qipai.hall.rooms", "qipai.hall.match.config", "qipai.hall.economy.settings"}
"""Hall modules that load their shipped TOML (``importlib.resources``): no other impurity."""


def test_the_live_hall_core_is_covered() -> None:
    assert {"qipai.hall.core", "qipai.hall.table.live", "qipai.hall.cash.rooms"} <= set(LIVE_HALL)


@pytest.mark.parametrize("name", sorted(LIVE_HALL))
def test_the_live_hall_is_pure(name: str) -> None:
    found = impurities(name, LIVE_HALL[name])
    if name in READS_SHIPPED_FILES:
        found = [error for error in found if not error.endswith("imports importlib")]
    assert found == []


HALL = SRC / PACKAGE / "hall"
HALL_CORE_LIMIT = 15
"""At most this many modules (``__init__`` included) in ``hall/`` beside the wings."""
HALL_STRATA: tuple[tuple[str, frozenset[str]], ...] = (
    ("values", frozenset({"qipai.hall.*", "qipai.hall.cash.matchmaking"})),
    ("table", frozenset({"qipai.hall.table.*"})),
    (
        "messages",
        frozenset(
            {
                "qipai.hall.commands", "qipai.hall.effects", "qipai.hall.table.live",
                "qipai.hall.table.commands", "qipai.hall.table.effects",
                "qipai.hall.cash.commands", "qipai.hall.cash.effects",
                "qipai.hall.watch.commands",
                "qipai.hall.match.commands", "qipai.hall.match.config",
                "qipai.hall.match.effects", "qipai.hall.match.prizes",
                "qipai.hall.private.commands", "qipai.hall.private.effects",
                "qipai.hall.private.options", "qipai.hall.private.saves",
                "qipai.hall.private.scores", "qipai.hall.private.state",
            }
        ),
    ),
    ("watch", frozenset({"qipai.hall.watch.*"})),
    (
        "places",
        frozenset(
            {"qipai.hall.cash.*", "qipai.hall.match.*", "qipai.hall.private.*",
             "qipai.hall.economy.*"}
        ),
    ),
    ("core", frozenset({"qipai.hall.core"})),
)  # fmt: skip
"""The hall's layers, low to high (``docs/architecture.md``, "The hall's wings"): the
core's values (with the rooms' seating rule); one table; the messages (the closed unions of
commands and effects, each wing's own ``commands`` and ``effects`` that they name with what
those carry, and the live-table flow that speaks them); watching; the places (cash rooms,
matches, friends' tables: none imports another); the core that dispatches to them.  A name
is a module, or ``package.*`` for the package and its modules; the exact name wins over a
pattern, the longer pattern over the shorter."""


def hall_stratum(name: str) -> int:
    """The index in :data:`HALL_STRATA` of the hall module ``name``."""
    found: tuple[int, int] | None = None  # (specificity, stratum)
    for rank, (_, names) in enumerate(HALL_STRATA):
        for pattern in names:
            package = pattern.removesuffix(".*")
            if pattern == name:
                specific = 1000
            elif pattern.endswith(".*") and (name == package or name.startswith(package + ".")):
                specific = len(package)
                if "." in name.removeprefix(package + ".") and name != package:
                    continue  # ``qipai.hall.*`` is the modules directly in hall/
            else:
                continue
            if found is None or specific > found[0]:
                found = (specific, rank)
    if found is None:
        raise KeyError(name)
    return found[1]


def wing_of(name: str) -> str:
    """``qipai.hall.cash.rooms`` → ``cash``; a module of the core → ``""``."""
    parts = name.split(".")
    if len(parts) > 3 or (len(parts) == 3 and (HALL / parts[2]).is_dir()):
        return parts[2]
    return ""


def hall_imports(name: str, path: Path) -> list[tuple[int, str]]:
    """The hall modules that the hall module ``name`` imports, with their lines."""
    return [
        (imp.line, target)
        for imp in imports_of(name, path)
        for target in imported_modules(imp)
        if target.startswith("qipai.hall.") and target != name
    ]


def stratum_errors(name: str, path: Path) -> list[str]:
    """The imports of a hall module that go up the hall's layers, or across places."""
    errors = []
    own = hall_stratum(name)
    for line, target in hall_imports(name, path):
        theirs = hall_stratum(target)
        if theirs > own:
            errors.append(
                f"line {line}: {target} ({HALL_STRATA[theirs][0]}) is above "
                f"{name} ({HALL_STRATA[own][0]})"
            )
        elif HALL_STRATA[own][0] == "places" == HALL_STRATA[theirs][0] and (
            wing_of(target) != wing_of(name)
        ):
            errors.append(f"line {line}: {target} is another place's")
    return errors


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one node, or one that
    imports itself (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


HALL_MODULES = {name: path for name, path in ALL.items() if name.startswith("qipai.hall")}


def test_the_hall_core_is_small() -> None:
    beside = sorted(path.name for path in HALL.glob("*.py"))
    assert len(beside) <= HALL_CORE_LIMIT, beside
    assert {"table", "cash", "private", "watch", "match"} <= {
        path.name for path in HALL.iterdir() if (path / "__init__.py").exists()
    }


@pytest.mark.parametrize("name", sorted(HALL_MODULES))
def test_the_hall_wings_follow_their_order(name: str) -> None:
    assert stratum_errors(name, HALL_MODULES[name]) == []


def test_no_circle_inside_the_hall() -> None:
    graph = {
        name: {target for _, target in hall_imports(name, path)}
        for name, path in HALL_MODULES.items()
    }
    assert circles(graph) == []



SERVER = SRC / PACKAGE / "server"
SERVER_STRATA = ("api", "run", "edge", "serve")
"""The server's parts, low to high (``docs/architecture.md``, "The server's parts"): the
client API's shapes (``server/api/``); the running hall, its executor and what carries
effects out (``server/run/``); what faces clients, HTTP and the WebSocket
(``server/edge/``); ``qipai serve`` and the package itself (``server/*.py``) on top."""
MODULE_LINES = 600
"""At most this many lines in a module of ``hall/`` or ``server/`` (issue 34's measure)."""


def server_stratum(name: str) -> int:
    """The index in :data:`SERVER_STRATA` of the server module ``name``: its sub-package's,
    or the top for the modules directly in ``server/``."""
    parts = name.split(".")
    if len(parts) > 3 or (len(parts) == 3 and (SERVER / parts[2]).is_dir()):
        return SERVER_STRATA.index(parts[2])
    return len(SERVER_STRATA) - 1


def server_imports(name: str, path: Path) -> list[tuple[int, str]]:
    """The server modules that the server module ``name`` imports, with their lines."""
    return [
        (imp.line, target)
        for imp in imports_of(name, path)
        for target in imported_modules(imp)
        if target.startswith("qipai.server.") and target != name
    ]


def server_errors(name: str, path: Path) -> list[str]:
    """The imports of a server module that go up the server's parts."""
    own = server_stratum(name)
    return [
        f"line {line}: {target} ({SERVER_STRATA[server_stratum(target)]}) is above "
        f"{name} ({SERVER_STRATA[own]})"
        for line, target in server_imports(name, path)
        if server_stratum(target) > own
    ]


SERVER_MODULES = {name: path for name, path in ALL.items() if name.startswith("qipai.server")}


def test_every_server_module_is_in_a_part() -> None:
    parts = {path.name for path in SERVER.iterdir() if (path / "__init__.py").exists()}
    assert parts == set(SERVER_STRATA) - {"serve"}
    assert sorted(path.name for path in SERVER.glob("*.py")) == ["__init__.py", "serve.py"]


@pytest.mark.parametrize("name", sorted(SERVER_MODULES))
def test_the_server_parts_follow_their_order(name: str) -> None:
    assert server_errors(name, SERVER_MODULES[name]) == []


def test_no_circle_inside_the_server() -> None:
    graph = {
        name: {target for _, target in server_imports(name, path)}
        for name, path in SERVER_MODULES.items()
    }
    assert circles(graph) == []


@pytest.mark.parametrize("folder", ["hall", "server"])
def test_no_module_is_over_the_line_limit(folder: str) -> None:
    long = {
        str(path.relative_to(SRC)): lines
        for path in sorted((SRC / PACKAGE / folder).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert long == {}

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
    assert upward_imports("qipai.server.edge.app", path) == []


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


def test_checker_sees_hall_layers_and_places(tmp_path: Path) -> None:
    assert hall_stratum("qipai.hall.frames") == 0
    assert hall_stratum("qipai.hall.cash.matchmaking") == 0
    assert hall_stratum("qipai.hall.table.live") == hall_stratum("qipai.hall.effects")
    assert hall_stratum("qipai.hall.cash.rooms") == hall_stratum("qipai.hall.private.tables")
    path = write(tmp_path, "from qipai.hall import core\nfrom qipai.hall.cash import rooms\n")
    assert stratum_errors("qipai.hall.table.table", path) == [
        "line 1: qipai.hall.core (core) is above qipai.hall.table.table (table)",
        "line 2: qipai.hall.cash.rooms (places) is above qipai.hall.table.table (table)",
    ]
    source = "from qipai.hall.match.desk import x\nimport qipai.hall.watch.spectators\n"
    path = write(tmp_path, source)
    assert stratum_errors("qipai.hall.private.tables", path) == [
        "line 1: qipai.hall.match.desk is another place's"
    ]


def test_checker_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"], ["e"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_checker_sees_server_parts(tmp_path: Path) -> None:
    assert server_stratum("qipai.server.api.protocol") == 0
    assert server_stratum("qipai.server.run.executor") == 1
    assert server_stratum("qipai.server.edge") == 2
    assert server_stratum("qipai.server.serve") == server_stratum("qipai.server") == 3
    path = write(tmp_path, "from qipai.server.edge import links\nfrom . import executor\n")
    assert server_errors("qipai.server.run.hall", path) == [
        "line 1: qipai.server.edge.links (edge) is above qipai.server.run.hall (run)"
    ]
