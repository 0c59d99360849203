"""The match API's requests are typed (:mod:`qipai.hall.match.requests`): each kind is
carried between nodes and back unchanged, and a request the holder of the matches does not
know is refused with ``bad_request`` — never taken for an unregistration (the old ``op``
string fell through to one)."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from qipai.cluster.mailbox import Message
from qipai.errors import InvalidActionError
from qipai.hall.match.requests import (
    ListMatches,
    MatchRequest,
    Register,
    Standings,
    Unregister,
    parse_request,
    wire_of,
)
from qipai.server.edge.gateway import Gateway
from qipai.server.run.hall import HallService
from qipai.server.run.matches import MatchHall
from qipai.server.run.node import ClusterNode

REQUESTS: list[MatchRequest] = [
    ListMatches(),
    Standings("tiyan-9#3"),
    Register("tiyan-9"),
    Unregister("tiyan-9"),
]


@pytest.mark.parametrize("request_", REQUESTS)
def test_every_request_crosses_the_cluster_unchanged(request_: MatchRequest) -> None:
    assert parse_request(*wire_of(request_)) == request_


@pytest.mark.parametrize(
    ("name", "argument"),
    [("unregisterx", "tiyan-9"), ("", "tiyan-9"), (None, "tiyan-9"), ("delete", ""),
     ("Unregister", "tiyan-9"), ("unregister", None), ("register", 3)],
)  # fmt: skip
def test_an_unknown_request_is_refused(name: object, argument: object) -> None:
    with pytest.raises(InvalidActionError) as refused:
        parse_request(name, argument)
    assert refused.value.code == "bad_request"


class _Mailbox:
    def __init__(self) -> None:
        self.sent: list[tuple[str, Message]] = []

    def send(self, node: str, message: Message) -> None:
        self.sent.append((node, message))


class _Cluster:
    """What a gateway needs of its cluster node to answer another node's call."""

    def __init__(self) -> None:
        self.node_id = "n1"
        self.mailbox = _Mailbox()
        self.on_message: object = None
        self.on_census: object = None


class _Matches:
    """The matches held here: records what it is asked."""

    active = True

    def __init__(self) -> None:
        self.asked: list[tuple[MatchRequest, int | None, str]] = []

    async def serve(self, request: MatchRequest, user: int | None, name: str) -> object:
        self.asked.append((request, user, name))
        return {"ok": True}


async def _call(op: object, argument: object) -> tuple[Message, _Matches]:
    """Another node's match call, as this node's gateway answers it."""
    cluster = _Cluster()
    gateway = Gateway(cast(HallService, object()), cast(ClusterNode, cluster))
    matches = _Matches()
    gateway.matches = cast(MatchHall, matches)
    message: Message = {"k": "match", "c": 0, "i": 7, "op": op, "u": 5, "n": "ann",
                        "a": argument, "from": "n2"}  # fmt: skip
    gateway.receive(message)
    while not cluster.mailbox.sent:
        await asyncio.sleep(0)
    [(node, reply)] = cluster.mailbox.sent
    assert node == "n2" and reply["i"] == 7
    return reply, matches


def test_a_bad_call_from_another_node_is_refused_and_unregisters_no_one() -> None:
    reply, matches = asyncio.run(_call("unregisterx", "tiyan-9"))
    assert (reply["e"], reply["x"]) == ("bad_request", "invalid")
    assert matches.asked == []


def test_an_unregistration_from_another_node_is_served_as_one() -> None:
    reply, matches = asyncio.run(_call("unregister", "tiyan-9"))
    assert reply["f"] == {"ok": True} and "e" not in reply
    assert matches.asked == [(Unregister("tiyan-9"), 5, "ann")]
