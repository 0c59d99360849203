"""The API reference (``mkdocs.yml``, ``docs/reference/``) covers every package and module.

Its pages are plain Markdown, one per package, each with a ``::: module`` line per module
that mkdocstrings renders from the docstrings; ``.ci/run`` builds the site with
``mkdocs build --strict``.  These tests keep the pages whole: a new package or module
under ``src/qipai`` fails here until its page names it and the page is in the nav.  They
also check ``docs/griffe_rest.py``, the griffe extension that turns the docstrings' reST
(Sphinx roles, doctest blocks, ``::``) into the Markdown the reference shows, on a small
package of its own.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import textwrap
from pathlib import Path
from types import ModuleType

import griffe
import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
REFERENCE = ROOT / "docs" / "reference"
DIRECTIVE = re.compile(r"^::: ([\w.]+)\s*$", re.MULTILINE)


def packages() -> dict[str, list[str]]:
    """Every package under ``src/qipai``, by dotted name, with the modules directly in it."""
    found = {}
    for init in sorted((SRC / "qipai").rglob("__init__.py")):
        folder = init.parent
        dotted = ".".join(folder.relative_to(SRC).parts)
        found[dotted] = sorted(
            f"{dotted}.{module.stem}" for module in folder.glob("*.py") if module.stem != "__init__"
        )
    return found


def rendered(page: Path) -> list[str]:
    """The objects a reference page renders, in order: its ``::: name`` lines."""
    return DIRECTIVE.findall(page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("package", sorted(packages()))
def test_every_package_has_a_page_that_renders_it_and_each_of_its_modules(package: str) -> None:
    page = REFERENCE / f"{package}.md"
    assert page.exists(), f"{package} has no page in the API reference: add {page}"
    missing = {package, *packages()[package]} - set(rendered(page))
    assert not missing, f"{page.name} has no '::: name' line for {sorted(missing)}"


def test_no_page_renders_a_module_that_is_not_in_its_package() -> None:
    pages = sorted(set(REFERENCE.glob("*.md")) - {REFERENCE / "index.md"})
    known = packages()
    assert {page.stem for page in pages} == set(known)
    for page in pages:
        stray = set(rendered(page)) - {page.stem, *known[page.stem]}
        assert not stray, f"{page.name} renders what its package does not hold: {sorted(stray)}"


def test_every_reference_page_is_in_the_nav_and_the_index() -> None:
    nav = set(re.findall(r"^\s*- (reference/[\w.]+\.md)\s*$", _text(ROOT / "mkdocs.yml"), re.M))
    index = set(re.findall(r"\]\(([\w.]+\.md)\)", _text(REFERENCE / "index.md")))
    for package in packages():
        assert f"reference/{package}.md" in nav, f"mkdocs.yml's nav lacks {package}'s page"
        assert f"{package}.md" in index, f"docs/reference/index.md does not list {package}"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# The griffe extension, on a small package of its own named ``qipai`` (the only one it edits).

TOY = {
    "__init__.py": '"""The toy."""',
    "base.py": '''
        """Base.  A :class:`Hand` has a :attr:`~Hand.current_player`."""


        class Hand:
            """A hand."""

            current_player: int | None = None
            """The seat to act."""


        def _helper() -> None:
            """Private."""
        ''',
    "game/__init__.py": '''
        """The game.  Start at :class:`State`."""

        from qipai.game.state import State

        __all__ = ["State"]
        ''',
    "game/state.py": '''
        """States; :func:`time.monotonic` is not ours, :func:`~qipai.base._helper` is private.

        Replay a hand::

            state = State()

        >>> 1 + 1
        2

        Straight after a line:
        >>> 2 + 2
        4
        """

        import time

        from qipai.base import Hand


        class State(Hand):
            """A state: :meth:`apply` moves it on."""

            def apply(self) -> None:
                """Apply an action; :attr:`current_player` acts next (:meth:`.State.apply`)."""
                time.monotonic()
        ''',
    "other/__init__.py": '"""Another game, whose :class:`State <.state.State>` is its own."""',
    "other/rules.py": '"""Rules, which :meth:`.State.apply` follows (no State imported)."""',
    "other/state.py": '''
        """Another game's states."""


        class State:
            """Not the game's :class:`State`, though :meth:`.State.apply` is in scope."""

            current_player: int = 0
            """Its own seat to act, not the one a game's ``State`` inherits."""

            def apply(self) -> None:
                """Apply, :class:`NoSuchThing` aside."""
        ''',
}


@pytest.fixture(scope="module")
def rest() -> ModuleType:
    """``docs/griffe_rest.py``, imported from its file."""
    spec = importlib.util.spec_from_file_location("griffe_rest", ROOT / "docs" / "griffe_rest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def toy(rest: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> griffe.Module:
    """The toy package as the reference's griffe loads it, extension and all."""
    root = tmp_path_factory.mktemp("toy")
    for name, text in TOY.items():
        path = root / "qipai" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    extensions = griffe.load_extensions(rest.ReSTDocstrings())
    loader = griffe.GriffeLoader(search_paths=[root], extensions=extensions)
    package = loader.load("qipai")
    assert isinstance(package, griffe.Module)
    return package


def doc(toy: griffe.Module, path: str) -> str:
    obj = toy[path]
    assert obj.docstring is not None
    return str(obj.docstring.value)


def test_a_role_links_to_where_its_target_is_defined(toy: griffe.Module) -> None:
    assert doc(toy, "base") == (
        "Base.  A [`Hand`][qipai.base.Hand] has a"
        " [`current_player`][qipai.base.Hand.current_player]."
    )


def test_a_role_finds_a_member_of_the_class_and_of_the_classes_it_inherits(
    toy: griffe.Module,
) -> None:
    assert doc(toy, "game.state.State") == (
        "A state: [`apply`][qipai.game.state.State.apply] moves it on."
    )
    assert doc(toy, "game.state.State.apply") == (
        "Apply an action; [`current_player`][qipai.base.Hand.current_player] acts next"
        " ([`State.apply`][qipai.game.state.State.apply])."
    )


def test_a_name_is_looked_up_in_scope_first(toy: griffe.Module) -> None:
    assert doc(toy, "other.state.State") == (
        "Not the game's [`State`][qipai.other.state.State], though [`State.apply`]"
        "[qipai.other.state.State.apply] is in scope."
    )


def test_a_dotted_suffix_out_of_scope_is_the_nearest_object_with_that_path(
    toy: griffe.Module,
) -> None:
    assert doc(toy, "other.rules") == (
        "Rules, which [`State.apply`][qipai.other.state.State.apply] follows (no State imported)."
    )


def test_a_titled_role_shows_its_title(toy: griffe.Module) -> None:
    assert doc(toy, "other").startswith(
        "Another game, whose [`State`][qipai.other.state.State] is its own."
    )


def test_an_outside_or_private_target_is_code_and_doctests_and_literal_blocks_are_code(
    toy: griffe.Module,
) -> None:
    assert doc(toy, "game.state") == textwrap.dedent(
        """\
        States; `time.monotonic` is not ours, `_helper` is private.

        Replay a hand:

            state = State()

        ```pycon
        >>> 1 + 1
        2
        ```

        Straight after a line:

        ```pycon
        >>> 2 + 2
        4
        ```"""
    )


def test_a_role_that_names_nothing_is_a_warning(
    rest: ModuleType, toy: griffe.Module, caplog: pytest.LogCaptureFixture
) -> None:
    assert doc(toy, "other.state.State.apply") == "Apply, `NoSuchThing` aside."
    index = rest.Index(toy)
    with caplog.at_level(logging.WARNING):
        assert rest.role_markdown("NoSuchThing", toy["other.state.State.apply"], index) == (
            "`NoSuchThing`"
        )
        assert rest.role_markdown("time.monotonic", toy["game.state"], index) == (
            "`time.monotonic`"
        )
    warned = [record.getMessage() for record in caplog.records]
    assert warned == [
        "qipai.other.state.State.apply: cross-reference 'NoSuchThing' names nothing in qipai"
    ]


def test_a_package_lists_what_it_imports_instead_of_documenting_it_twice(
    toy: griffe.Module,
) -> None:
    game = toy["game"]
    assert doc(toy, "game") == (
        "The game.  Start at [`State`][qipai.game.state.State].\n\n"
        "Imported from its modules: [`State`][qipai.game.state.State]."
    )
    assert game.exports == []
