"""Text the HTTP API cannot use is refused at the border with 400 and a stable code, on
SQLite and PostgreSQL alike, never a 500 with a traceback: a lone surrogate (``"\\ud800"``
in a JSON body: no UTF-8 can carry it) in a name or a password, a NUL or another control
character in a path or query parameter (PostgreSQL refuses NUL in text), and numbers
written with digits other than ASCII's (``?limit=²``: ``"²".isdigit()`` is true, but
``int("²")`` raises) or with more digits than Python converts."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fuzz_kit import documented_codes, tracebacks
from server_kit import running_hall
from wire_kit import config_with, fresh_postgres

CODES = documented_codes()


@contextlib.contextmanager
def _database(kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A new database of ``kind`` (``sqlite`` or ``postgresql``): its URL."""
    if kind == "postgresql":
        with fresh_postgres("badtext") as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path_factory.mktemp('badtext') / 'hall.db'}"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def http(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[httpx.Client]:
    """A client of a hall on a new database of each kind."""
    with (
        _database(request.param, tmp_path_factory) as url,
        running_hall(config_with(url)) as hall,
        httpx.Client(base_url=hall.url, timeout=10) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def token(http: httpx.Client) -> str:
    answer = http.post("/api/register", json={"name": "badtext", "password": "secret1"})
    assert answer.status_code == 200, answer.text
    value: str = answer.json()["token"]
    return value


def _body(**fields: str) -> bytes:
    """A JSON body; ``json.dumps`` writes a lone surrogate as its escape ``\\ud800``."""
    return json.dumps(fields).encode()


BODIES = [
    ("/api/register", {"name": "ab\ud800", "password": "secret1"}, "bad_name"),
    ("/api/register", {"name": "\ud800\udfff", "password": "secret1"}, "bad_name"),
    ("/api/register", {"name": "surrogate", "password": "secret\ud800"}, "bad_password"),
    ("/api/register", {"name": "surrogate", "password": "\udc00" * 8}, "bad_password"),
    ("/api/login", {"name": "badtext", "password": "secret\ud800"}, "bad_password"),
    ("/api/login", {"name": "bad\ud800text", "password": "secret1"}, "bad_name"),
    ("/api/login", {"name": "bad\x00text", "password": "secret1"}, "bad_name"),
]
"""A request body, and the code its refusal carries."""


@pytest.mark.parametrize(("path", "fields", "code"), BODIES)
def test_a_name_or_password_that_is_not_unicode_text_is_refused(
    http: httpx.Client, path: str, fields: dict[str, str], code: str
) -> None:
    with tracebacks() as found:
        answer = http.post(path, content=_body(**fields))
    assert found == [], found
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == code


PARAMETERS: list[tuple[str, dict[str, str]]] = [
    ("/api/history", {"limit": "²"}),
    ("/api/history", {"limit": "٣"}),  # ARABIC-INDIC DIGIT THREE: int() reads it, we do not
    ("/api/history", {"limit": "9" * 5000}),  # past Python's int() digit limit
    ("/api/history", {"before": "\x00"}),
    ("/api/history", {"before": "a\x00b"}),
    ("/api/leaderboard", {"limit": "¹⁰"}),
    ("/api/leaderboard", {"by": "coins\x00"}),
    ("/api/hands/%00", {}),
    ("/api/hands/a%07b/replay", {}),
    ("/api/runs/%00", {}),
    ("/api/nope/%00", {}),
    ("/api/matches", {"x": "\x00"}),
]
"""A request (path, query) whose text no endpoint can take (a path percent-encoded: the
client refuses control characters in a URL; the hall decodes them)."""


@pytest.mark.parametrize(("path", "query"), PARAMETERS)
def test_a_parameter_that_is_not_plain_text_or_an_ascii_number_is_refused(
    http: httpx.Client, token: str, path: str, query: dict[str, Any]
) -> None:
    url = httpx.URL(path).copy_merge_params(query)
    headers = {"Authorization": f"Bearer {token}"}
    with tracebacks() as found:
        answer = http.get(url, headers=headers)
    assert found == [], found
    assert answer.status_code == 400, answer.text
    error = answer.json()
    assert error["error"] == "bad_parameter" and error["error"] in CODES, error


def test_a_good_request_still_works(http: httpx.Client, token: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    assert http.get("/api/history", params={"limit": "10"}, headers=headers).status_code == 200
    assert http.get("/api/hands/0123456789abcdef012").status_code == 404  # no such hand
    login = http.post("/api/login", json={"name": "badtext", "password": "secret1"})
    assert login.status_code == 200
