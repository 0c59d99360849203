"""Every client message is one command of the core (``links.command_of``), or one of the
three that take a place first (``join``, ``private_create``, ``private_join``), or the
connection's own (``hello``, ``ping``): checked over the protocol's whole union, so a new
message without its command fails here."""

from __future__ import annotations

import typing

import msgspec
import pytest

from qipai.errors import InvalidActionError
from qipai.hall import commands as c
from qipai.server.api import protocol
from qipai.server.edge.links import command_of

USER = 7
PLACE_TAKING = {protocol.Join, protocol.PrivateCreate, protocol.PrivateJoin}
CONNECTIONS_OWN = {protocol.Hello, protocol.Ping}
SAMPLES: dict[type, object] = {
    protocol.Act: protocol.Act(id=1, action="play 3", table=2),
    protocol.Entropy: protocol.Entropy(table=2, hand="h", value="ab"),
    protocol.Chat: protocol.Chat(phrase="hi", id=4),
    protocol.TrusteeSwitch: protocol.TrusteeSwitch(on=True),
    protocol.Ready: protocol.Ready(ready=False),
    protocol.PrivateKick: protocol.PrivateKick(seat=1),
    protocol.Spectate: protocol.Spectate(code="123456"),
    protocol.WatchByName: protocol.WatchByName(allow=False),
    protocol.Hello: protocol.Hello(token="t"),
}
"""A message of each kind whose fields have no default."""


def _message(kind: type) -> protocol.ClientMessage:
    found = SAMPLES.get(kind)
    message = kind() if found is None else found
    assert isinstance(message, kind)
    return typing.cast(protocol.ClientMessage, message)


KINDS = typing.get_args(protocol.ClientMessage)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_every_message_is_a_command_or_takes_a_place(kind: type) -> None:
    if kind in PLACE_TAKING:
        return  # (dispatch: HallService.take_place; tests/server/test_server_places.py)
    if kind in CONNECTIONS_OWN:
        with pytest.raises(InvalidActionError, match="not for a hall"):
            command_of(USER, _message(kind))
        return
    command = command_of(USER, _message(kind))
    assert isinstance(command, typing.get_args(c.Command))
    assert command.user == USER


def test_the_fields_go_to_the_command() -> None:
    assert command_of(USER, SAMPLES[protocol.Act]) == c.Act(USER, "play 3", 2)  # type: ignore[arg-type]
    assert command_of(USER, SAMPLES[protocol.Chat]) == c.Chat(USER, "hi", 4)  # type: ignore[arg-type]
    assert command_of(USER, protocol.Spectate(player="ann")) == c.Spectate(USER, player="ann")
    assert command_of(USER, protocol.Spectate(code="9")) == c.Spectate(USER, code="9")
    assert command_of(USER, protocol.WatchByName(allow=None)) == c.WatchByName(USER, None)


@pytest.mark.parametrize(
    "message", [protocol.Spectate(), protocol.Spectate(code="1", player="ann")], ids=str
)
def test_a_spectate_names_a_code_or_a_player(message: protocol.Spectate) -> None:
    with pytest.raises(InvalidActionError, match="name a code or a player") as refused:
        command_of(USER, message)
    assert refused.value.code == "bad_message"


def test_the_samples_are_messages_a_client_may_send() -> None:
    for message in SAMPLES.values():
        assert msgspec.json.decode(msgspec.json.encode(message), type=protocol.ClientMessage)
