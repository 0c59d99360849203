"""``docs/protocol.md`` documents the protocol the code speaks, and the web client follows it.

Read from the code, not from a list kept by hand: the messages a client may send are the
structs of :data:`qipai.server.protocol.ClientMessage`; the frames the server sends are the
``{"type": …}`` dict literals of ``qipai.server`` and ``qipai.hall`` (found with :mod:`ast`).
Each must be in ``docs/protocol.md`` as ``"type": "…"``, every type the page names must
exist, every action text the page gives as an example must parse in some game, and the
browser client must handle every frame (or be listed in :data:`IGNORED_BY_WEB` with a
reason) and send only messages the server accepts.
"""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import pytest

from qipai.errors import InvalidActionError
from qipai.hall.wire import parse_action
from qipai.registry import game_names
from qipai.server import protocol

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "qipai"
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
JS = PACKAGE / "web" / "static" / "js"

IGNORED_BY_WEB: dict[str, str] = {}
"""Frame types the browser client deliberately does not handle, each with the reason."""


def client_types() -> list[str]:
    """The ``type`` tag of each message the server accepts, in the union's order."""
    return [member.__struct_config__.tag for member in typing.get_args(protocol.ClientMessage)]


def frame_types() -> set[str]:
    """The ``type`` of every frame the server builds: ``{"type": "…", …}`` literals."""
    found: set[str] = set()
    for folder in ("server", "hall"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Dict):
                    found.update(
                        value.value
                        for key, value in zip(node.keys, node.values, strict=True)
                        if isinstance(key, ast.Constant)
                        and key.value == "type"
                        and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)
                    )
    return found


def web_source(*names: str) -> str:
    """The text of the browser client's modules."""
    return "\n".join((JS / name).read_text(encoding="utf-8") for name in names)


def test_the_code_is_read() -> None:
    """The two readers find what they must (so that an empty result cannot pass)."""
    assert client_types() == list(protocol.TYPES)
    assert {"welcome", "ack", "error", "event", "turn", "hand_over"} <= frame_types()
    # no mix-up of the two (a chat message is answered by chat frames of the same name, an
    # escape_cost question by its escape_cost answer)
    assert not frame_types() & set(client_types()) - {"leave", "chat", "escape_cost"}


@pytest.mark.parametrize("kind", client_types())
def test_each_client_message_is_documented(kind: str) -> None:
    """The page shows every message a client may send, as ``{"type": "…"``."""
    assert f'{{"type": "{kind}"' in DOC


@pytest.mark.parametrize("kind", sorted(frame_types()))
def test_each_frame_is_documented(kind: str) -> None:
    """The page describes every frame the server sends."""
    assert f'"type": "{kind}"' in DOC


def test_the_page_names_no_other_type() -> None:
    """Every ``"type": "…"`` on the page is a message or a frame of the code."""
    named = set(re.findall(r'"type": "(\w+)"', DOC))
    assert named - set(client_types()) - frame_types() == set()


def documented_actions() -> list[str]:
    """The action texts the page gives as examples of an ``act`` message."""
    row = next(line for line in DOC.splitlines() if line.startswith('| `{"type": "act"'))
    examples = row.split("an action in the game's text form", 1)[1].split(";", 1)[0]
    return re.findall(r"`([^`]+)`", examples)


def parses_somewhere(text: str) -> bool:
    """Whether some game reads ``text`` as one of its actions."""
    for game in game_names():
        try:
            parse_action(game, text)
        except InvalidActionError:
            continue
        return True
    return False


def test_the_act_examples_are_actions() -> None:
    """Every example of an action text on the page is one a game accepts (no ``allin``)."""
    examples = documented_actions()
    assert len(examples) > 10
    assert [text for text in examples if not parses_somewhere(text)] == []


@pytest.mark.parametrize("kind", sorted(frame_types()))
def test_the_web_client_handles_each_frame(kind: str) -> None:
    """``main.js`` tests ``frame.type`` for it, or ``table.js`` has an ``on_<type>`` handler."""
    if kind in IGNORED_BY_WEB:
        pytest.skip(IGNORED_BY_WEB[kind])
    main = web_source("main.js", "socket.js")
    table = web_source("table.js")
    assert f'frame.type === "{kind}"' in main or re.search(rf"\bon_{kind}\(", table)


def test_the_web_client_sends_only_accepted_messages() -> None:
    """Every message the browser client sends has a ``type`` the server accepts."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in sorted(JS.rglob("*.js")))
    sent = set(re.findall(r'send\((?:JSON\.stringify\()?\{\s*type:\s*"(\w+)"', source))
    assert {"hello", "act"} <= sent
    assert sent - set(client_types()) == set()


def test_ignored_frames_exist() -> None:
    """:data:`IGNORED_BY_WEB` names only frames the server sends."""
    assert set(IGNORED_BY_WEB) <= frame_types()
