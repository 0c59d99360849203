"""The limits of a hall of three nodes (``qipai serve --redis``, the shipped limits, real
PostgreSQL and Redis) are the hall's, not each node's: attempts spread over the three nodes
are counted once, in Redis (``qipai.cluster.buckets``).

- 60 private table codes tried from one address over the three nodes: 30 answered
  (``unknown_code``), 30 ``too_many_tries``; the 10 a minute of one account hold too;
- a name's failed sign-ins, sign-ins, new accounts and guests per address, new connections
  per account: each over the three nodes, refused past the limit as by one node;
- a node whose Redis stops counts alone (its own buckets), and says so once.

The limits are token buckets (one token back every ``seconds / count``): a test that took
longer than that may see one more attempt pass per token come back, which each assertion
allows for (in practice each takes well under a second).  The HTTP requests speak for
addresses of their own through ``X-Forwarded-For`` (believed from loopback, uvicorn's
default); the WebSocket ones are loopback's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from nodes_kit import Cluster, cluster
from outage_kit import OwnRedis
from places_kit import waiting_room
from server_kit import fast_config, running_hall
from wire_kit import WAIT

from qipai.client.connection import Connection, HallClient, HallError
from qipai.server.edge.limits import Limits, Rate

pytestmark = pytest.mark.postgres

LIMITS = Limits()
"""The shipped limits, which the nodes run with."""
CODES = (f"{900_000 + n:06d}" for n in itertools.count())
"""Codes of no table."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three nodes with the shipped limits; each test speaks from addresses of its own."""
    tmp = tmp_path_factory.mktemp("hall-limits")
    with cluster(["n1", "n2", "n3"], waiting_room("lim-0"), tmp, "limits", limited=True) as nodes:
        yield nodes


def allowed(rate: Rate | None, since: float) -> range:
    """How many attempts of a burst pass under ``rate``: its size, and one more per token
    come back since the burst began (``since``, on :func:`time.monotonic`)."""
    assert rate is not None
    back = int((time.monotonic() - since) / (rate.seconds / rate.count))
    return range(rate.count, rate.count + back + 1)


def post(hall: Cluster, node: int, path: str, address: str, **body: Any) -> httpx.Response:
    """``POST path`` to node ``node`` (of three, in turn) for ``address``."""
    url = hall.urls[node % len(hall.urls)]
    headers = {"X-Forwarded-For": address}
    if body:
        return httpx.post(url + path, json=body, headers=headers, timeout=WAIT)
    return httpx.post(url + path, content=b"?", headers=headers, timeout=WAIT)


def test_code_tries_from_one_address_are_counted_once_over_three_nodes(hall: Cluster) -> None:
    tokens = [post(hall, n, "/api/guest", f"198.51.100.{n}").json()["token"] for n in range(4)]
    began = time.monotonic()
    first, rest = asyncio.run(_code_tries(hall, tokens))
    account = [answer["code"] for answer in first]
    codes = account + [answer["code"] for answer in rest]
    print(f"the account's: {Counter(account)}; all 60: {Counter(codes)}")
    assert len(account) == 12 and account.count("unknown_code") in allowed(
        LIMITS.codes_per_account, began
    )
    assert {answer["message"] for answer in first if answer["code"] == "too_many_tries"} == {
        "too many codes tried by this account: wait"
    }
    assert len(codes) == 60 and set(codes) == {"unknown_code", "too_many_tries"}
    assert codes.count("unknown_code") in allowed(LIMITS.codes_per_address, began)  # 30, not 90
    assert all(answer["retry_after"] > 0 for answer in rest if answer["code"] == "too_many_tries")


async def _code_tries(
    hall: Cluster, tokens: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The first account tries 12 codes, one node after the other (10 a minute per
    account); then the three others 16 each at once, each on a node of its own (30 a minute
    for their address, which the first one's 10 began to spend).  The answers of each
    part."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(HallClient(url)) for url in hall.urls]
        first = [await stack.enter_async_context(client.connect(tokens[0])) for client in clients]
        others = [  # one node each (a private_join takes its player's place a moment)
            await stack.enter_async_context(client.connect(token))
            for client, token in zip(clients, tokens[1:], strict=True)
        ]
        answered = [(await _answers(first[n % 3], 1))[0] for n in range(12)]
        burst = await asyncio.gather(*(_answers(conn, 16) for conn in others))
        return answered, [answer for answers in burst for answer in answers]


async def _answers(conn: Connection, tries: int) -> list[dict[str, Any]]:
    """``private_join`` with ``tries`` codes of no table, sent at once; their answers."""
    futures = [
        await conn.request({"type": "private_join", "code": next(CODES)}) for _ in range(tries)
    ]
    async with asyncio.timeout(WAIT):
        while not all(future.done() for future in futures):
            await conn.recv()
    return [dict(future.result()) for future in futures]


def test_a_names_failed_sign_ins_are_counted_once_over_three_nodes(hall: Cluster) -> None:
    name, password = "guess-ann", "correct horse battery"
    assert post(hall, 0, "/api/register", "203.0.113.60", name=name, password=password).is_success
    for n in range(5):  # five wrong passwords, from five addresses, on the three nodes
        wrong = post(
            hall, n, "/api/login", f"203.0.113.{61 + n}", name=name, password=f"wrong guess {n}"
        )
        assert (wrong.status_code, wrong.json().get("error")) == (401, "bad_credentials")
    for node in range(3):  # the name is locked on every node, the right password too
        locked = post(hall, node, "/api/login", "203.0.113.70", name=name, password=password)
        assert (locked.status_code, locked.json().get("error")) == (429, "too_many_attempts")


@pytest.mark.parametrize(
    ("path", "rate"),
    [
        ("/api/login", LIMITS.sign_in_per_address),
        ("/api/register", LIMITS.register_per_address),
        ("/api/guest", LIMITS.guest_per_address),
    ],
)
def test_attempts_per_address_are_counted_once_over_three_nodes(
    hall: Cluster, path: str, rate: Rate | None
) -> None:
    """Each attempt counts before its body is read: a body that is not JSON costs the hall
    no hash, and is answered ``bad_json`` (a guest has no body: a new guest each time)."""
    assert rate is not None
    address = f"192.0.2.{len(path)}"
    began = time.monotonic()
    answers = [post(hall, n, path, address).status_code for n in range(rate.count * 2)]
    passed = answers.index(429) if 429 in answers else len(answers)
    assert passed in allowed(rate, began), answers
    assert answers[passed:] == [429] * (len(answers) - passed)  # refused from then on


def test_connections_of_one_account_are_counted_once_over_three_nodes(hall: Cluster) -> None:
    token = post(hall, 0, "/api/guest", "192.0.2.200").json()["token"]
    began = time.monotonic()
    welcomed, refused = asyncio.run(_connections(hall, token, 24))
    assert welcomed in allowed(LIMITS.connections_per_account, began)
    assert refused == ["too_many_connections"] * (24 - welcomed)


async def _connections(hall: Cluster, token: str, times: int) -> tuple[int, list[str]]:
    """Connect ``times`` times as one account, on each node in turn; how many were
    welcomed, and the codes of the others' refusals."""
    welcomed, refused = 0, []
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(HallClient(url)) for url in hall.urls]
        for n in range(times):
            try:
                async with clients[n % 3].connect(token):
                    welcomed += 1
            except HallError as error:
                refused.append(error.code)
    return welcomed, refused


def test_a_node_counts_alone_while_redis_does_not_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A node on a Redis of its own, 3 sign-ins a minute per address: two counted in
    Redis; Redis killed: the node counts alone (three more, then ``429``: neither open nor
    closed), and says so once."""
    server = OwnRedis(tmp_path)
    try:
        limits = dataclasses.replace(Limits.off(), sign_in_per_address=Rate(3, 60.0))
        config = fast_config(
            f"sqlite:///{tmp_path / 'hall.db'}",
            redis_url=server.url,
            node_id="alone",
            limits=limits,
        )
        with (
            caplog.at_level(logging.WARNING, "qipai.cluster.buckets"),
            running_hall(config) as node,
        ):

            def sign_in() -> int:  # spent before the body is read: this one is not JSON
                headers = {"X-Forwarded-For": "192.0.2.50"}
                return httpx.post(
                    f"{node.url}/api/login", content=b"?", headers=headers
                ).status_code

            assert [sign_in(), sign_in()] == [400, 400]
            assert redis.Redis(port=server.port).exists("qipai:limit:sign_in:192.0.2.50")
            server.stop()
            assert [sign_in() for _ in range(4)] == [400, 400, 400, 429]
    finally:
        server.stop()
    said = [r.getMessage() for r in caplog.records if r.name == "qipai.cluster.buckets"]
    assert len(said) == 1 and said[0].startswith("limits: Redis does not answer")
