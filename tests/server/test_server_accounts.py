"""Accounts and the JSON API through a real hall: register, sign in, guests, sign out, token
expiry, what the database keeps of a password, minimum coins, levels, history, leaderboards,
and bad request bodies."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import re
import socket
import time
import unicodedata
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from server_kit import RunningHall, fast_config, play_hand, running_hall
from sqlalchemy import select
from wire_kit import config_with, of_type, room_like, signed_in_refused, until

from qipai.client.connection import HallClient
from qipai.hall.levels import level_for
from qipai.server.edge.auth import NAME_PATTERN, Passwords
from qipai.store import Store
from qipai.store.schema import sessions

PASSWORD = "correct horse"
RICH = room_like("doudizhu-yifa", "acc-rich", min_coins=10_001, bots=False)
EDGE = room_like("doudizhu-yifa", "acc-edge", min_coins=10_000, bots=False)
PLAY = room_like("doudizhu-yifa", "acc-play")


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """One hall (SQLite) for the module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('accounts') / 'hall.db'}"
    with running_hall(config_with(url, RICH, EDGE, PLAY)) as running:
        yield running


@pytest.fixture
def http(hall: RunningHall) -> Iterator[httpx.Client]:
    """A plain HTTP client of the hall (statuses and bodies as they are)."""
    with httpx.Client(base_url=hall.url, timeout=30) as client:
        yield client


def _error(response: httpx.Response) -> tuple[int, str]:
    """The status and error code of a refusal (which must be the documented JSON)."""
    assert response.headers.get("content-type") == "application/json", (
        f"not a JSON error: {response.status_code} {response.text[:200]!r}"
    )
    body = response.json()
    assert set(body) == {"error", "message"}, body
    return response.status_code, body["error"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _register(http: httpx.Client, name: str, password: str = PASSWORD) -> dict[str, Any]:
    response = http.post("/api/register", json={"name": name, "password": password})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# --- register, sign in, guests, sign out -------------------------------------------------------


def test_register_then_sign_in(http: httpx.Client) -> None:
    made = _register(http, "acc_ann")
    assert made["user"]["name"] == "acc_ann" and made["user"]["coins"] == 10_000
    lifetime = datetime.fromisoformat(made["expires_at"]) - datetime.now().astimezone()
    assert timedelta(days=6, hours=23) < lifetime <= timedelta(days=7)
    signed = http.post("/api/login", json={"name": "acc_ann", "password": PASSWORD}).json()
    assert signed["user"] == made["user"] and signed["token"] != made["token"]
    for token in (made["token"], signed["token"]):
        me = http.get("/api/me", headers=_bearer(token)).json()
        assert (me["id"], me["name"], me["coins"]) == (made["user"]["id"], "acc_ann", 10_000)


def test_bad_credentials_say_the_same_for_an_unknown_name(http: httpx.Client) -> None:
    _register(http, "acc_bea")
    wrong = http.post("/api/login", json={"name": "acc_bea", "password": "not the one"})
    unknown = http.post("/api/login", json={"name": "acc_nobody", "password": PASSWORD})
    assert _error(wrong) == _error(unknown) == (401, "bad_credentials")
    assert wrong.json() == unknown.json()  # nothing tells which names exist


def test_a_name_is_taken_once(http: httpx.Client) -> None:
    _register(http, "acc_cid")
    again = http.post("/api/register", json={"name": "acc_cid", "password": "another one"})
    assert _error(again) == (409, "name_taken")


@pytest.mark.parametrize("name", ["a", "x" * 21, "has space", "semi;colon", "", None, 42])
def test_bad_names_are_refused(http: httpx.Client, name: object) -> None:
    response = http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert _error(response) == (400, "bad_name")


# --- names: normalised, whole, a few scripts, no look-alikes ------------------------------------


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("nm_ann\n", "U+000A"),  # a final newline (the old pattern's $ let it through)
        ("nm_ann\r", "U+000D"),
        (" nm_ann", "U+0020 SPACE"),
        ("nm_\u0430nn", "U+0430 CYRILLIC SMALL LETTER A"),
        ("nm_ann\u03bf", "U+03BF GREEK SMALL LETTER OMICRON"),
        ("nm_ann\u0663", "U+0663 ARABIC-INDIC DIGIT THREE"),
        ("nm_a\u200dnn", "U+200D ZERO WIDTH JOINER"),
        ("\u202enm_ann", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("nm_ann\u3007", "U+3007 IDEOGRAPHIC NUMBER ZERO"),
        ("_nm_ann", "only between"),
        ("nm__ann", "only between"),
        ("nm-ann-", "only between"),
        ("张", "has 1 character"),
        ("ｘ" * 21, "has 21 characters"),  # full-width: counted after NFKC
    ],
)
def test_a_bad_name_is_refused_saying_what_is_wrong(
    http: httpx.Client, name: str, says: str
) -> None:
    response = http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert _error(response) == (400, "bad_name")
    assert says in response.json()["message"]


def test_a_name_is_taken_in_any_case_width_or_look_alike(http: httpx.Client) -> None:
    made = _register(http, "nm_Bea")
    assert made["user"]["name"] == "nm_Bea"
    for same in ("nm_Bea", "ｎｍ＿Ｂｅａ"):  # full-width: nm_Bea itself once in NFKC
        response = http.post("/api/register", json={"name": same, "password": PASSWORD})
        assert _error(response) == (409, "name_taken")
        assert response.json()["message"] == "the name 'nm_Bea' is taken"
    for alike in ("nm_bea", "NM_BEA", "ｎｍ＿ＢＥＡ"):
        response = http.post("/api/register", json={"name": alike, "password": PASSWORD})
        assert _error(response) == (409, "name_taken"), alike
        assert "looks like a name already taken" in response.json()["message"]
        assert "nm_Bea" not in response.json()["message"]  # the other is not named
    _register(http, "nm_B0B")
    assert _error(http.post("/api/register", json={"name": "nm_BOB", "password": PASSWORD})) == (
        409,
        "name_taken",
    )  # O and 0 look alike
    assert _register(http, "nm_b0b2")["user"]["name"] == "nm_b0b2"


def test_a_chinese_name_and_its_compatibility_forms(http: httpx.Client) -> None:
    assert _register(http, "张三")["user"]["name"] == "张三"
    assert _register(http, "克里斯·保罗")["user"]["name"] == "克里斯·保罗"
    for variant in ("张三", "张㊂"):  # ㊂: 三 in a circle, NFKC 三
        response = http.post("/api/register", json={"name": variant, "password": PASSWORD})
        assert _error(response) == (409, "name_taken"), variant
    made = _register(http, "⼀⼆三四")  # Kangxi radicals: stored as 一二三四 (NFKC)
    assert made["user"]["name"] == "一二三四"
    again = http.post("/api/register", json={"name": "一二三四", "password": PASSWORD})
    assert _error(again) == (409, "name_taken")


def test_a_full_width_name_signs_in(http: httpx.Client) -> None:
    made = _register(http, "ｎｍ＿ｃｉｄ")
    assert made["user"]["name"] == "nm_cid"
    for typed in ("nm_cid", "ｎｍ＿ｃｉｄ", "nm_ｃｉｄ"):
        signed = http.post("/api/login", json={"name": typed, "password": PASSWORD})
        assert signed.status_code == 200, typed
        assert signed.json()["user"] == made["user"]
    wrong = http.post("/api/login", json={"name": "nm_cid\n", "password": PASSWORD})
    assert _error(wrong) == (401, "bad_credentials")


def _plain(name: str) -> str:
    """What the impostors below look like on screen (NFKC, lower case, Cyrillic а as a,
    no zero-width joiner, no blanks)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return folded.replace("\u0430", "a").replace("\u200d", "").strip()


def test_the_leaderboard_shows_only_real_names(http: httpx.Client) -> None:
    _register(http, "nm_dora")
    for impostor in ("nm_dora\n", "nm_dor\u0430", "NM_DORA", "ｎｍ_ｄｏｒａ", "nm_d\u200dora"):
        response = http.post("/api/register", json={"name": impostor, "password": PASSWORD})
        assert response.status_code in (400, 409), impostor
    board = http.get("/api/leaderboard", params={"by": "coins", "limit": 100}).json()
    shown = [row["name"] for row in board]
    assert len(shown) < 100  # the whole board
    alike = [name for name in shown if _plain(name) == "nm_dora"]
    assert alike == ["nm_dora"]
    for name in shown:
        assert NAME_PATTERN.fullmatch(name) and unicodedata.is_normalized("NFKC", name), name


@pytest.mark.parametrize("password", ["12345", "x" * 129, None, 123456])
def test_bad_passwords_are_refused(http: httpx.Client, password: object) -> None:
    response = http.post("/api/register", json={"name": "acc_dan", "password": password})
    assert _error(response) == (400, "bad_password")
    assert _error(http.post("/api/login", json={"name": "acc_dan", "password": PASSWORD})) == (
        401,
        "bad_credentials",
    )  # and no account was made


def test_a_guest_plays_under_a_name_of_his_own_and_cannot_sign_in(
    http: httpx.Client, hall: RunningHall
) -> None:
    first, second = http.post("/api/guest").json(), http.post("/api/guest").json()
    for guest in (first, second):
        name = guest["user"]["name"]
        assert re.fullmatch("游客[0-9a-f]{6,}", name) and guest["user"]["coins"] == 10_000
        assert http.get("/api/me", headers=_bearer(guest["token"])).json()["name"] == name
    assert first["user"]["name"] != second["user"]["name"]
    login = http.post("/api/login", json={"name": first["user"]["name"], "password": "whatever"})
    assert _error(login) == (401, "bad_credentials")
    with Store.open(hall.db_url) as store:
        user = store.user_by_name(first["user"]["name"])
    assert user is not None and user.password_hash == ""  # no password, only the token


def test_sign_out_ends_that_session_only(http: httpx.Client, hall: RunningHall) -> None:
    _register(http, "acc_eve")
    keep = http.post("/api/login", json={"name": "acc_eve", "password": PASSWORD}).json()
    drop = http.post("/api/login", json={"name": "acc_eve", "password": PASSWORD}).json()
    assert http.post("/api/logout", headers=_bearer(drop["token"])).json() == {"ok": True}
    assert _error(http.get("/api/me", headers=_bearer(drop["token"]))) == (401, "bad_token")
    assert asyncio.run(signed_in_refused(hall.url, drop["token"])) == ("bad_token", 4001)
    assert http.get("/api/me", headers=_bearer(keep["token"])).status_code == 200


@pytest.mark.parametrize(
    "headers", [{}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer"}, _bearer("x")]
)
def test_a_missing_or_unknown_token_is_refused(http: httpx.Client, headers: dict[str, str]) -> None:
    assert _error(http.get("/api/me", headers=headers)) == (401, "bad_token")
    assert _error(http.get("/api/history", headers=headers)) == (401, "bad_token")


def test_a_session_token_expires(tmp_path: Any) -> None:
    passwords = Passwords(hasher=Passwords.cheap().hasher, session_ttl=timedelta(seconds=1))
    config = fast_config(f"sqlite:///{tmp_path / 'ttl.db'}", passwords=passwords)
    with running_hall(config) as hall, httpx.Client(base_url=hall.url) as http:
        made = _register(http, "acc_fay")
        assert http.get("/api/me", headers=_bearer(made["token"])).status_code == 200
        expires = datetime.fromisoformat(made["expires_at"]).timestamp()
        time.sleep(max(0.0, expires - time.time()) + 0.05)  # the clock is the point here
        assert _error(http.get("/api/me", headers=_bearer(made["token"]))) == (401, "bad_token")
        assert asyncio.run(signed_in_refused(hall.url, made["token"])) == ("bad_token", 4001)
        login = http.post("/api/login", json={"name": "acc_fay", "password": PASSWORD})
        assert login.status_code == 200  # the account lives on; only the session ended


def test_only_an_argon2_hash_of_the_password_and_of_the_token_is_stored(
    http: httpx.Client, hall: RunningHall
) -> None:
    made = _register(http, "acc_gus")
    with Store.open(hall.db_url) as store:
        user = store.user_by_name("acc_gus")
        with store.read() as connection:
            kept = set(connection.execute(select(sessions.c.token_hash)).scalars())
    assert user is not None
    assert user.password_hash.startswith("$argon2id$")
    assert PASSWORD not in user.password_hash
    assert PasswordHasher().verify(user.password_hash, PASSWORD)  # salted, checkable
    assert made["token"] not in kept
    assert hashlib.sha256(made["token"].encode()).hexdigest() in kept


# --- minimum coins, levels, history, leaderboard ----------------------------------------------


def test_minimum_coins_are_enforced_on_joining(hall: RunningHall) -> None:
    asyncio.run(_minimum_coins(hall.url))


async def _minimum_coins(url: str) -> None:
    async with HallClient(url) as client:
        session = await client.guest()  # 10,000 coins
        async with client.connect(session.token) as conn:
            await conn.send({"type": "join", "room": RICH.id})
            refused = await until(conn, lambda f: f["type"] in ("error", "queued"))
            assert refused["code"] == "not_enough_coins"
            await conn.send({"type": "join", "room": EDGE.id})  # exactly enough: welcome
            assert await until(conn, of_type("queued")) == {"type": "queued", "room": EDGE.id}
            await conn.send({"type": "leave"})
            assert await until(conn, of_type("left")) == {"type": "left", "room": EDGE.id}


def test_me_history_and_level_after_real_hands(hall: RunningHall, http: httpx.Client) -> None:
    token, overs = asyncio.run(_three_hands(hall.url))
    me = http.get("/api/me", headers=_bearer(token)).json()
    assert me["hands"] == 3
    level = level_for(me["wins"])
    assert me["level"] == {"title": level.title, "rank": level.rank, "next_wins": level.next_wins}
    rows = http.get("/api/history", params={"limit": 200}, headers=_bearer(token)).json()
    assert [row["hand_id"] for row in rows] == [over["hand"] for over in reversed(overs)]
    nets = [over["result"][over["_seat"]] for over in reversed(overs)]
    assert [row["net"] for row in rows] == nets
    assert {row["status"] for row in rows} == {"settled"}
    assert me["coins"] == 10_000 + sum(nets)
    # paging: newest first, then what came before the last one seen
    page = http.get("/api/history", params={"limit": 2}, headers=_bearer(token)).json()
    assert page == rows[:2]
    rest = http.get(
        "/api/history", params={"limit": 2, "before": page[-1]["hand_id"]}, headers=_bearer(token)
    ).json()
    assert rest == rows[2:]


async def _three_hands(url: str) -> tuple[str, list[dict[str, Any]]]:
    async with HallClient(url) as client:
        session = await client.guest()
        overs = []
        async with client.connect(session.token) as conn:
            for _ in range(3):
                frames, over = await play_hand(conn, PLAY.id)
                over["_seat"] = next(f["seat"] for f in frames if f["type"] == "snapshot")
                overs.append(over)
                await until(conn, of_type("left"))
        return session.token, overs


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"limit": 0}, "bad_parameter"),
        ({"limit": 201}, "bad_parameter"),
        ({"limit": "ten"}, "bad_parameter"),
        ({"before": "no-such-hand"}, "unknown_hand"),
    ],
)
def test_bad_history_parameters(http: httpx.Client, params: dict[str, Any], code: str) -> None:
    token = http.post("/api/guest").json()["token"]
    status, error = _error(http.get("/api/history", params=params, headers=_bearer(token)))
    assert error == code and 400 <= status < 500


def test_the_leaderboard_ranks_by_coins(http: httpx.Client, hall: RunningHall) -> None:
    rich = _register(http, "acc_rich")["user"]["id"]
    richer = _register(http, "acc_richer")["user"]["id"]
    with Store.open(hall.db_url) as store:
        store.grant(rich, 500_000, "test:rich")
        store.grant(richer, 900_000, "test:richer")
    rows = http.get("/api/leaderboard", params={"by": "coins", "limit": 2}).json()
    assert [(r["rank"], r["user_id"], r["value"]) for r in rows] == [
        (1, richer, 910_000),
        (2, rich, 510_000),
    ]
    for by in ("coins", "wins", "points"):
        board = http.get("/api/leaderboard", params={"by": by, "limit": 100}).json()
        values = [row["value"] for row in board]
        assert values == sorted(values, reverse=True)
        assert [row["rank"] for row in board] == list(range(1, len(board) + 1))


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"by": "luck"}, "bad_leaderboard"),
        ({"limit": 0}, "bad_parameter"),
        ({"limit": 101}, "bad_parameter"),
    ],
)
def test_bad_leaderboard_parameters(http: httpx.Client, params: dict[str, Any], code: str) -> None:
    assert _error(http.get("/api/leaderboard", params=params)) == (400, code)


# --- bad bodies ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", "bad_json"),
        (b"", "bad_json"),
        (b"\xff\xfe\x00", "bad_json"),
        (b'["a", "list"]', "bad_json"),
        (b'"a string"', "bad_json"),
        (b"[" * 2000 + b"]" * 2000, "bad_json"),  # deep nesting, 4,000 bytes
        (b'{"name": "acc_hal", "password": "' + b"p" * 5000 + b'"}', "too_large"),
        (b"x" * 1_000_000, "too_large"),
    ],
    ids=["broken", "empty", "not-utf8", "list", "string", "deep", "over-4k", "megabyte"],
)
@pytest.mark.parametrize("path", ["/api/register", "/api/login"])
def test_bad_bodies_get_error_codes(http: httpx.Client, path: str, body: bytes, code: str) -> None:
    response = http.post(path, content=body, headers={"Content-Type": "application/json"})
    assert _error(response) == (400, code)
    assert http.get("/healthz").json() == {"ok": True}


def test_an_oversized_body_is_refused_before_it_is_read(hall: RunningHall) -> None:
    """A body declared far above the limit is answered ``too_large`` without waiting for
    (and buffering) all of it: a client cannot make the hall hold a huge body."""
    host, port = hall.url.removeprefix("http://").split(":")
    head = (
        "POST /api/register HTTP/1.1\r\nHost: hall\r\nContent-Type: application/json\r\n"
        f"Content-Length: {100 * 2**20}\r\n\r\n"
    )
    answer = b""
    with socket.create_connection((host, int(port)), timeout=5) as raw:
        raw.sendall(head.encode() + b"x" * 8192)  # 8 KiB of the 100 MiB announced
        with contextlib.suppress(TimeoutError, ConnectionError):
            while b"}" not in answer and (chunk := raw.recv(4096)):
                answer += chunk
    assert answer.startswith(b"HTTP/1.1 4"), "no answer: the hall waits for the whole body"
    assert b'"too_large"' in answer


def test_the_rooms_are_listed_with_their_numbers(http: httpx.Client) -> None:
    rooms = {room["id"]: room for room in http.get("/api/rooms").json()}
    assert rooms[RICH.id]["min_coins"] == 10_001
    fields = {field.name: getattr(RICH, field.name) for field in dataclasses.fields(RICH)}
    fields["web_module"] = RICH.game_type.web_module  # the page's module for its game
    fields["points_only"] = False  # its hands move coins (the lobby's 积分场 tag if not)
    assert rooms[RICH.id] == json.loads(json.dumps(fields))  # (a tuple is a JSON list)


@pytest.mark.parametrize(
    ("name", "prefix"),
    [
        ("游客12345678", "游客"),
        ("游客abc", "游客"),
        ("游客", "游客"),
        ("遊客1234", "游客"),  # the traditional spelling of 游客
        ("遊客", "游客"),
        ("ＧＵＥＳＴ1a2b", "guest"),  # the guests' English name, full-width, in capitals
        ("Guest_12", "guest"),
        ("gue5t12", "guest"),  # 5 reads as s
        ("机器人1", "机器人"),  # the hall's bots
        ("機器人2", "机器人"),
    ],
)
def test_a_player_may_not_pass_for_a_guest_or_a_bot(
    http: httpx.Client, name: str, prefix: str
) -> None:
    answer = http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert _error(answer)[1] == "bad_name" and prefix in answer.json()["message"]


def test_a_traditional_spelling_or_digits_read_as_letters_are_the_same_name(
    http: httpx.Client,
) -> None:
    """张三 and 張三 are one name in two scripts; b0b reads bob, 1 l, 2 z, 5 s."""
    _register(http, "陈伟")
    _register(http, "nm_Zoe")
    _register(http, "nm_Bill")
    _register(http, "nm_Sal")
    for alike in ("陳偉", "陈偉", "nm_z0e", "nm_2oe", "nm_bi1l", "nm_5al"):
        response = http.post("/api/register", json={"name": alike, "password": PASSWORD})
        assert _error(response) == (409, "name_taken"), alike
        assert "looks like a name already taken" in response.json()["message"]
    assert _register(http, "nm_Zo3")["user"]["name"] == "nm_Zo3"  # 3 is not a letter here


def test_logging_out_a_dead_token_is_idempotent(http: httpx.Client) -> None:
    """A token already ended answers ``ok`` (nothing left to end); no token at all: 401."""
    session = http.post("/api/guest").json()
    for _ in range(2):
        assert http.post("/api/logout", headers=_bearer(session["token"])).json() == {"ok": True}
    assert http.post("/api/logout", headers=_bearer("never-issued")).json() == {"ok": True}
    assert _error(http.post("/api/logout")) == (401, "bad_token")


def test_ready_and_metrics_answer_what_the_hall_holds(http: httpx.Client) -> None:
    assert http.get("/readyz").json() == {"ok": True, "database": True, "redis": None}
    stats = http.get("/api/stats").json()
    answer = http.get("/metrics")
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    values = {
        line.split("{")[0]: float(line.rsplit(" ", 1)[1])
        for line in answer.text.splitlines()
        if line and not line.startswith("#")
    }
    assert 'node="single"' in answer.text
    assert values["qipai_hands_settled_total"] == stats["hands_settled"]
    assert values["qipai_tables"] == stats["tables"]
    assert set(values) >= {"qipai_connections", "qipai_players", "qipai_resident_bytes"}
    # the last bucket (+Inf) counts every message
    assert values["qipai_message_seconds_bucket"] == values["qipai_message_seconds_count"]
