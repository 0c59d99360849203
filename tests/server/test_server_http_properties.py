"""Property-based fuzzing of every HTTP endpoint of a running hall (Hypothesis): any
method's worth of path, query, headers and body gets a documented answer — a success, or
an error with a code ``docs/protocol.md`` names — never a 5xx, never a traceback in the
log, and no player's coins move."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fuzz_kit import documented_codes, json_values, tracebacks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_kit import RunningHall, running_hall
from wire_kit import config_with

from qipai.store import Store
from qipai.store.audit import audit

ENDPOINTS = (
    ("POST", "/api/register"),
    ("POST", "/api/login"),
    ("POST", "/api/guest"),
    ("POST", "/api/logout"),
    ("GET", "/api/me"),
    ("GET", "/api/rooms"),
    ("GET", "/api/rooms/online"),
    ("GET", "/api/history"),
    ("GET", "/api/hands/{}"),
    ("GET", "/api/hands/{}/replay"),
    ("GET", "/api/leaderboard"),
    ("GET", "/api/stats"),
    ("GET", "/healthz"),
    ("GET", "/api/admin/players"),
    ("POST", "/api/admin/players/{}/grant"),
)
"""Every HTTP endpoint (``{}``: a path parameter the fuzzer fills)."""
CODES = documented_codes()


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    url = f"sqlite:///{tmp_path_factory.mktemp('props') / 'hall.db'}"
    with running_hall(config_with(url)) as running:
        yield running


@pytest.fixture(scope="module")
def http(hall: RunningHall) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=hall.url, timeout=10) as client:
        yield client


@pytest.fixture(scope="module")
def victim(http: httpx.Client) -> dict[str, Any]:
    """A player whose coins nothing the fuzzer sends may move."""
    session: dict[str, Any] = http.post("/api/guest").json()
    return session


def _bodies() -> st.SearchStrategy[bytes]:
    as_json = json_values().map(lambda value: json.dumps(value).encode())
    objects = st.fixed_dictionaries(
        {}, optional={"name": json_values(4), "password": json_values(4)}
    ).map(lambda value: json.dumps(value).encode())
    # names and passwords of the right length, with lone surrogates and controls among
    # their characters (json.dumps writes a surrogate as its escape, "\ud800")
    odd = st.text(st.characters(categories=["Cs", "Cc", "Ll", "Nd", "Lo"]), min_size=2, max_size=12)
    credentials = st.fixed_dictionaries({"name": odd, "password": odd}).map(
        lambda value: json.dumps(value).encode()
    )
    return (
        st.binary(max_size=300) | as_json | objects | credentials
        | st.text(max_size=200).map(str.encode)
    )  # fmt: skip


def _queries() -> st.SearchStrategy[dict[str, str]]:
    keys = st.sampled_from(["limit", "before", "by", "seat", "x"]) | st.text(max_size=6)
    values = (
        st.sampled_from(["0", "1", "-1", "200", "201", "coins", "wins", "abc", ""])
        | st.sampled_from(["²", "١٢", "¹⁰", "9" * 5000, "\x00", "a\x1bb"])  # digits? controls
        | st.text(max_size=12)
    )
    return st.dictionaries(keys, values, max_size=3)


def _authorization(token: str) -> st.SearchStrategy[dict[str, str]]:
    texts = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=60)
    return st.one_of(
        st.just({}),
        st.just({"Authorization": f"Bearer {token}"}),
        texts.map(lambda text: {"Authorization": f"Bearer {text}".strip()}),
        texts.map(lambda text: {"Authorization": text.strip()}),
    )


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_endpoint_answers_anything_with_a_documented_code(
    http: httpx.Client, victim: dict[str, Any], data: st.DataObject
) -> None:
    method, path = data.draw(st.sampled_from(ENDPOINTS))
    if "{}" in path:
        # no control characters: httpx refuses them in a URL before sending (DEL, C1)
        characters = st.characters(
            min_codepoint=33, max_codepoint=0x2FFF, exclude_categories=("Cc", "Cs")
        )
        param = data.draw(st.text(characters, max_size=30))
        path = path.format(httpx.URL(param).raw_path.decode("ascii", "replace").strip("/") or "x")
    headers = data.draw(_authorization(victim["token"]))
    query = data.draw(_queries())
    body = data.draw(_bodies()) if method == "POST" else None
    with tracebacks() as found:
        answer = http.request(method, path, params=query, content=body, headers=headers)
    assert found == [], found
    busy = answer.status_code == 503 and path != "/healthz"  # too many hashes in flight
    assert answer.status_code < 500 or busy, answer.text
    if answer.status_code >= 400:
        error = answer.json()
        assert error["error"] in CODES, error
        assert isinstance(error["message"], str) and error["message"]
        if answer.status_code in (429, 503):
            assert int(answer.headers["retry-after"]) >= 1


def test_nothing_the_fuzzer_sent_moved_a_coin(hall: RunningHall, victim: dict[str, Any]) -> None:
    """Run after the fuzzer (file order): the victim holds his grant, the ledger is clean."""
    with Store.open(hall.db_url) as store:  # (the fuzzer may have logged the victim out)
        assert store.balance(victim["user"]["id"]) == victim["user"]["coins"]
        assert audit(store) == []


@pytest.mark.parametrize("path", ["/api/nope", "/api/hands/0/0", "/api/runs/a/b/c"])
def test_an_unknown_api_path_answers_in_json(http: httpx.Client, path: str) -> None:
    for method in ("GET", "POST"):
        answer = http.request(method, path)
        assert answer.status_code == 404
        assert answer.json()["error"] == "unknown_path"
    assert http.get("/no-such-page").status_code == 404  # the static files' own, outside /api
