"""``docs/protocol.md`` documents the protocol the code speaks, and the web client follows it.

Read from the code, not from a list kept by hand: the messages a client may send are the
structs of :data:`qipai.server.api.protocol.ClientMessage`; the frames the server sends are the
structs of :data:`qipai.hall.frames.OutFrame`.  Each must be in ``docs/protocol.md`` as
``"type": "…"``, each frame with every field it may carry (``{"type": "queued", "room"}``:
the keys of the page's objects of that type), and no field it does not; every type the
page names must exist, every action text the page gives as an example must parse in some
game, and the browser client must handle every frame (or be listed in
:data:`IGNORED_BY_WEB` with a reason) and send only messages the server accepts.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path

import msgspec
import pytest

from qipai.errors import InvalidActionError
from qipai.hall.frames import OutFrame
from qipai.hall.wire import parse_action
from qipai.registry import game_names
from qipai.server.api import answers, protocol
from qipai.server.api import console as console_answers

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "qipai"
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
JS = PACKAGE / "web" / "static" / "js"

IGNORED_BY_WEB: dict[str, str] = {}
"""Frame types the browser client deliberately does not handle, each with the reason."""


def client_types() -> list[str]:
    """The ``type`` tag of each message the server accepts, in the union's order."""
    return [member.__struct_config__.tag for member in typing.get_args(protocol.ClientMessage)]


def frame_structs() -> dict[str, type[msgspec.Struct]]:
    """Each frame the server sends, by its ``type`` tag."""
    return {member.__struct_config__.tag: member for member in typing.get_args(OutFrame)}


def frame_types() -> set[str]:
    """The ``type`` of every frame the server sends."""
    return set(frame_structs())


def wire_fields(struct: type[msgspec.Struct]) -> set[str]:
    """The keys a struct may have on the wire, its ``type`` tag aside."""
    return {field.encode_name for field in msgspec.structs.fields(struct)}


def client_fields(kind: str) -> set[str]:
    """The keys of the client message ``kind`` (none when there is no such message)."""
    messages = typing.get_args(protocol.ClientMessage)
    found = [m for m in messages if m.__struct_config__.tag == kind]
    return set().union(*(wire_fields(message) for message in found))


def braced(text: str, start: int) -> str:
    """What lies between the ``{`` at ``start`` and the brace that closes it."""
    depth = 0
    for index in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[start + 1 : index]
    raise AssertionError(f"unclosed brace at {start}")


def top_level_keys(body: str) -> set[str]:
    """The keys of one object as the page writes it (``"type": "x", "a", "b": {…}, "c"?``):
    the leading quoted word of each of its comma-separated parts."""
    parts, depth, current = [], 0, ""
    for char in body:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return {found.group(1) for part in parts if (found := re.match(r'\s*"(\w+)"', part))}


def documented_fields(kind: str) -> set[str]:
    """Every key of every object the page gives with ``"type": kind``, ``type`` aside."""
    keys: set[str] = set()
    for found in re.finditer(rf'\{{"type": "{kind}"', DOC):
        keys |= top_level_keys(braced(DOC, found.start()))
    return keys - {"type"}


def web_source(*names: str) -> str:
    """The text of the browser client's modules."""
    return "\n".join((JS / name).read_text(encoding="utf-8") for name in names)


def test_the_code_is_read() -> None:
    """The readers find what they must (so that an empty result cannot pass)."""
    assert client_types() == list(protocol.TYPES)
    assert {"welcome", "ack", "error", "event", "turn", "hand_over"} <= frame_types()
    assert wire_fields(frame_structs()["queued"]) == {"room"}
    assert client_fields("chat") == {"phrase", "id"} and client_fields("queued") == set()
    assert documented_fields("welcome") >= {"protocol", "user", "limits"}
    assert top_level_keys('"type": "x", "a": {"b", "c"}, "d"?') == {"type", "a", "d"}
    # no mix-up of the two (a chat message is answered by chat frames of the same name, an
    # escape_cost question by its escape_cost answer)
    assert not frame_types() & set(client_types()) - {"leave", "chat", "escape_cost"}


@pytest.mark.parametrize("kind", client_types())
def test_each_client_message_is_documented(kind: str) -> None:
    """The page shows every message a client may send, as ``{"type": "…"``."""
    assert f'{{"type": "{kind}"' in DOC


@pytest.mark.parametrize("kind", sorted(frame_types()))
def test_each_frame_is_documented(kind: str) -> None:
    """The page describes every frame the server sends, with every field it may carry."""
    assert f'"type": "{kind}"' in DOC
    assert wire_fields(frame_structs()[kind]) - documented_fields(kind) == set()


@pytest.mark.parametrize("kind", sorted(frame_types()))
def test_the_page_gives_a_frame_no_other_field(kind: str) -> None:
    """Every key the page gives a frame is one of its fields (or, for a frame named as a
    client message is, ``chat``, ``escape_cost``, one of that message's)."""
    known = wire_fields(frame_structs()[kind]) | client_fields(kind)
    assert documented_fields(kind) - known == set()


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


@pytest.mark.parametrize("kind", sorted(frame_types() - set(IGNORED_BY_WEB)))
def test_the_web_client_handles_each_frame(kind: str) -> None:
    """``main.js`` (or ``private.js``, the private tables' and spectators' frames) tests
    ``frame.type`` for it, or ``table.js`` has an ``on_<type>`` handler."""
    main = web_source("main.js", "socket.js", "private.js")
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


HTTP = DOC[DOC.index("## HTTP API") : DOC.index("## WebSocket")]
"""The page's part on the HTTP API."""


def answer_structs() -> dict[str, type[msgspec.Struct]]:
    """Each answer of the HTTP API (:mod:`qipai.server.api.answers`, and the console's
    :mod:`qipai.server.api.console`), by its name."""
    return {
        name: value
        for module in (answers, console_answers)
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, answers.Answer)
        and value is not answers.Answer
    }


@pytest.mark.parametrize("name", sorted(answer_structs()))
def test_each_http_answer_is_named(name: str) -> None:
    """The page's HTTP API names the struct of every answer, in italics."""
    assert f"*{name}*" in HTTP


def test_a_named_http_answer_has_the_keys_the_page_gives() -> None:
    """Where the page writes an answer's object after its name (``*Ok* `{"ok": true}```),
    its keys are the struct's fields on the wire."""
    structs = answer_structs()
    found = list(re.finditer(r"\*(\w+)\* `\{", HTTP))
    assert len(found) >= 6
    for named in found:
        keys = top_level_keys(braced(HTTP, named.end() - 1))
        assert keys == wire_fields(structs[named[1]]), named[1]
