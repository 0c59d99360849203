"""Each part of the live hall owns its state: no module under ``src/qipai/hall/`` reads
or writes another object's underscore attribute (read with :mod:`ast`).

An attribute whose name starts with ``_`` (a dunder aside) may be reached through
``self`` or ``cls``, or through another instance of the class that defines it, inside
that class (a classmethod building an instance and loading it).  Anything else is a
part reaching into another's state: give the state to the part that owns it, or give
the owner a public attribute or method.  Also the parts of a table, as the table uses
them.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

from qipai.hall.rooms import default_rooms
from qipai.hall.table.hand import TableHand
from qipai.hall.table.state import AskedDecisions, TurnClock
from qipai.hall.table.table import SeatInfo, Table

HALL = Path(__file__).resolve().parents[2] / "src" / "qipai" / "hall"

ALLOWED: frozenset[str] = frozenset()
"""``module.py:line: expression`` of the accesses tolerated (none)."""


def is_private(name: str) -> bool:
    """Whether ``name`` is private by convention: a leading ``_``, not a dunder."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def own_names(cls: ast.ClassDef) -> set[str]:
    """The private names ``cls`` defines: its methods and class attributes, and what its
    methods assign to ``self.<name>``."""
    names: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node in cls.body:
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
        elif isinstance(node, ast.AnnAssign | ast.Assign) and node in cls.body:
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return {name for name in names if is_private(name)}


class Reaches(ast.NodeVisitor):
    """The accesses of one module to an underscore attribute of another object."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.found: list[str] = []
        self.classes: list[set[str]] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(own_names(node))
        self.generic_visit(node)
        self.classes.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        base = node.value
        through_self = isinstance(base, ast.Name) and base.id in ("self", "cls")
        own = bool(self.classes) and node.attr in self.classes[-1]
        if is_private(node.attr) and not through_self and not own:
            self.found.append(f"{self.module}:{node.lineno}: {ast.unparse(node)}")
        self.generic_visit(node)


def reaches(module: str, source: str) -> list[str]:
    """Each access of ``source`` (module ``module``) to another object's underscore
    attribute, as ``module:line: expression``."""
    visitor = Reaches(module)
    visitor.visit(ast.parse(source))
    return visitor.found


def test_no_part_of_the_hall_reaches_into_another() -> None:
    modules = sorted(HALL.rglob("*.py"))
    assert len(modules) > 30
    found = [
        hit
        for path in modules
        for hit in reaches(str(path.relative_to(HALL)), path.read_text("utf-8"))
    ]
    assert [hit for hit in found if hit not in ALLOWED] == []
    assert sorted(ALLOWED.difference(found)) == []  # an allowance no longer needed goes


def test_the_check_sees_a_reach_and_lets_a_class_load_its_own() -> None:
    source = """
def deadline(table):
    table._since = 1.0
    return table._window_end + table.clock.since + table.__class__.__name__

class Run:
    def __init__(self):
        self._hands = 0

    @classmethod
    def restore(cls, data):
        run = cls()
        run._load(data)
        run._hands = data
        return run._other, cls._load, self._mine

    def _load(self, data):
        self._hands = data
"""
    assert reaches("m.py", source) == [
        "m.py:3: table._since",
        "m.py:4: table._window_end",
        "m.py:15: run._other",
    ]


def table_of(*, bot_wait: float | None = None) -> Table:
    room = default_rooms()[0]
    seats = [SeatInfo("ann", "Ann", 10_000)]
    seats += [SeatInfo(None, f"bot{i}", 10_000) for i in range(1, room.seats)]
    return Table(room, 1, seats, now=5.0, rng=random.Random(1), bot_wait=bot_wait)


def test_a_table_owns_its_parts_and_starts_a_new_hand_each_time() -> None:
    table = table_of()
    assert table.human_seats == (0,)
    assert table.clock.since == 5.0 and table.asked.position == 0
    assert table.hand.state is None and not table.hand.playing
    assert table.hand.entropy == [None] * len(table.seats)
    first = table.hand
    table.start_hand("h1", seed=42, now=7.0)
    assert table.hand is not first and table.hand.seed == 42
    assert table.hand.playing and table.game_state is table.hand.state
    assert table.hand.setup.previous is None  # let go once dealt
    assert table.clock.since == 7.0 and table.asked.position == 1
    assert table.history.n == table.last_event > 0
    while table.deadline() is not None:
        table.tick(table.deadline())
    assert not table.hand.playing and table.is_over
    assert table.hand.balances == (10_000,) * len(table.seats)


def test_the_parts_alone() -> None:
    clock = TurnClock(1.0)
    clock.restart(2.5)
    assert clock.since == 2.5
    asked = AskedDecisions()
    asked.moved()
    asked.moved()
    asked.answer = (("h", 2, 1, "bot"), "pass", 3.0)
    asked.forget()
    assert (asked.position, asked.answer) == (2, None)
    hand = TableHand(entropy=[None, None], window_end=9.0)
    assert hand.collecting and not hand.playing
    assert hand.deal_setup().seed != hand.setup.seed  # the contributions mixed in
    hand.dealt("dealt")
    assert (hand.state, hand.window_end, hand.collecting) == ("dealt", None, False)
