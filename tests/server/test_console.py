"""The operator's console's API on a running hall (``/api/admin/…``): every route refuses
whoever lacks its role (walked from the app's own route table, so that a new route cannot
be forgotten), a cross-site POST is refused, coins given and taken through the ledger
(never below zero, the audit exact), a ban closes the player's open socket at once and
refuses his sign-in with its end, a mute refuses his chat, and the admin log says who did
what, when and why.  The first admin is made by ``qipai admin add``."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import match_kit
import places_kit
import pytest
from server_kit import RunningHall, running_hall
from starlette.routing import Route
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from wire_kit import Frame, config_with, guests, of_type, ws_url

from qipai.cli import main
from qipai.client.connection import HallClient
from qipai.hall.match.config import load_matches
from qipai.server.edge.console import LEAST_ROLE
from qipai.server.run.matches import with_schedules
from qipai.store import Store
from qipai.store.audit import audit
from qipai.store.console import Act, Console
from qipai.store.console import Schedule as KeptSchedule
from qipai.store.schema import ROLES

PASSWORD = "a fine password"


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A hall with two matches: one that bots fill and start, one that never starts."""
    url = f"sqlite:///{tmp_path_factory.mktemp('console') / 'hall.db'}"
    config = dataclasses.replace(
        config_with(url), matches=load_matches(match_kit.MATCHES + places_kit.MATCHES)
    )
    with running_hall(config) as running:
        yield running


@pytest.fixture(scope="module")
def http(hall: RunningHall) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=hall.url, timeout=10) as client:
        yield client


def _register(http: httpx.Client, name: str) -> dict[str, str]:
    answer = http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return {"authorization": f"Bearer {answer.json()['token']}"}


def _role(hall: RunningHall, name: str, role: str) -> None:
    """Give ``name`` a role the way the first admin gets his: ``qipai admin add``."""
    assert main(["admin", "add", name, "--role", role, "--db", str(hall.db_url)]) == 0


@pytest.fixture(scope="module")
def staff(hall: RunningHall, http: httpx.Client) -> dict[str, dict[str, str]]:
    """Headers of a guest, a player, and one operator of each role."""
    headers = {"guest": {"authorization": f"Bearer {http.post('/api/guest').json()['token']}"}}
    headers["player"] = _register(http, "console-player")
    for role in ROLES:
        headers[role] = _register(http, f"console-{role}")
        _role(hall, f"console-{role}", role)
    return headers


def _admin_routes(hall: RunningHall) -> set[tuple[str, str]]:
    found = set()
    for route in hall.app.routes:
        if isinstance(route, Route) and route.path.startswith("/api/admin"):
            found |= {(method, route.path) for method in route.methods or () if method != "HEAD"}
    return found


def _call(
    http: httpx.Client, method: str, path: str, headers: dict[str, str], body: Any = None
) -> httpx.Response:
    url = path.replace("{name}", "console-player")
    if method == "GET":
        return http.get(url, headers=headers, params={"q": "console"})
    return http.post(url, headers=headers, json=body if body is not None else {"reason": "x"})


def test_every_console_route_refuses_who_lacks_its_role(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    routes = _admin_routes(hall)
    assert routes == set(LEAST_ROLE)  # a route under /api/admin without a role would fail here
    for method, path in sorted(routes):
        least = ROLES.index(LEAST_ROLE[method, path])
        lacking = [{}, staff["guest"], staff["player"], *(staff[r] for r in ROLES[:least])]
        for headers in [*lacking, {"authorization": "Bearer not-a-token"}]:
            answer = _call(http, method, path, headers)
            assert (answer.status_code, answer.json()["error"]) == (403, "forbidden"), (
                method,
                path,
                headers,
                answer.text,
            )
    assert _call(http, "GET", "/api/admin/me", staff["viewer"]).json() == {
        "name": "console-viewer", "role": "viewer"
    }  # fmt: skip


def test_a_cross_site_post_is_refused_and_changes_nothing(
    http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    before = http.get("/api/me", headers=staff["player"]).json()["coins"]
    path = "/api/admin/players/console-player/grant"
    form = http.post(path, headers=staff["admin"], data={"amount": "5", "reason": "form"})
    foreign = http.post(
        path, headers={**staff["admin"], "origin": "https://evil.example"},
        json={"amount": 5, "reason": "from elsewhere"},
    )  # fmt: skip
    for answer in (form, foreign):
        assert (answer.status_code, answer.json()["error"]) == (403, "cross_site")
    assert http.get("/api/me", headers=staff["player"]).json()["coins"] == before


def test_coins_given_and_taken_never_below_zero_with_the_audit_exact(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    target = _register(http, "console-grantee")
    path = "/api/admin/players/console-grantee/grant"
    coins = http.get("/api/me", headers=target).json()["coins"]
    given = http.post(path, headers=staff["admin"], json={"amount": 500, "reason": "a prize"})
    assert given.status_code == 200 and given.json()["detail"] == {"amount": 500}
    taken = http.post(path, headers=staff["admin"], json={"amount": -200, "reason": "a fix"})
    assert taken.json()["action"] == "deduct"
    assert http.get("/api/me", headers=target).json()["coins"] == coins + 300
    lines = len(http.get("/api/admin/log", headers=staff["viewer"]).json())
    too_much = http.post(
        path, headers=staff["admin"], json={"amount": -(coins + 301), "reason": "too much"}
    )
    assert (too_much.status_code, too_much.json()["error"]) == (409, "insufficient_coins")
    assert http.get("/api/me", headers=target).json()["coins"] == coins + 300
    assert len(http.get("/api/admin/log", headers=staff["viewer"]).json()) == lines  # no line
    for body in ({"amount": 0, "reason": "x"}, {"amount": 5, "reason": " "}, {"amount": "5"}):
        assert http.post(path, headers=staff["admin"], json=body).status_code == 400
    page = http.get("/api/admin/players/console-grantee", headers=staff["viewer"]).json()
    assert [p["amount"] for p in page["postings"][:2]] == [-200, 500]
    assert page["coins"] == coins + 300
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []


def test_a_grant_sent_twice_from_one_form_pays_once(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    target = _register(http, "console-clicker")
    path = "/api/admin/players/console-clicker/grant"
    coins = http.get("/api/me", headers=target).json()["coins"]
    lines = len(http.get("/api/admin/log", headers=staff["viewer"]).json())
    once = {"amount": 40, "reason": "a double click", "key": "form-7f3a"}
    first = http.post(path, headers=staff["admin"], json=once)
    again = http.post(path, headers=staff["admin"], json=once)  # the same form, sent twice
    assert first.status_code == 200
    assert (again.status_code, again.json()["error"]) == (409, "already_done")
    assert http.get("/api/me", headers=target).json()["coins"] == coins + 40
    assert len(http.get("/api/admin/log", headers=staff["viewer"]).json()) == lines + 1
    bad = {"amount": 5, "reason": "x", "key": "no spaces"}
    assert http.post(path, headers=staff["admin"], json=bad).json()["error"] == "bad_key"
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []


async def _socket_closed_by_ban(
    hall: RunningHall, http: httpx.Client, admin: dict[str, str]
) -> tuple[dict[str, Any], int | None, float]:
    token = _register(http, "console-cheat")["authorization"].split()[1]
    async with connect(ws_url(hall.url), compression=None) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(await socket.recv())
        assert welcome["type"] == "welcome"
        until = (datetime.now(UTC) + timedelta(days=3)).isoformat()
        body = {"reason": "bots at the table", "until": until}
        ban = await asyncio.to_thread(
            http.post, "/api/admin/players/console-cheat/ban", headers=admin, json=body
        )
        assert ban.status_code == 200, ban.text
        banned_at = asyncio.get_running_loop().time()
        frame: dict[str, Any] = {}
        with contextlib.suppress(ConnectionClosed):
            async with asyncio.timeout(5):
                while True:
                    for one in _frames(await socket.recv()):
                        frame = one if one.get("type") == "error" else frame
        took = asyncio.get_running_loop().time() - banned_at
        return frame, socket.close_code, took


def _frames(text: str | bytes) -> list[dict[str, Any]]:
    value = json.loads(text)
    return value if isinstance(value, list) else [value]


def test_a_ban_closes_the_players_socket_and_refuses_his_sign_in_until_unbanned(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    frame, code, took = asyncio.run(_socket_closed_by_ban(hall, http, staff["moderator"]))
    assert (frame["code"], frame["cause"], code) == ("session_ended", "ban", 4003)
    assert frame["message"] == "bots at the table" and took < 1.0
    sign_in = http.post("/api/login", json={"name": "console-cheat", "password": PASSWORD})
    assert (sign_in.status_code, sign_in.json()["error"]) == (403, "banned")
    assert sign_in.json()["until"] is not None
    wrong = http.post("/api/login", json={"name": "console-cheat", "password": "not his"})
    assert wrong.json()["error"] == "bad_credentials"  # a ban is told to the account only
    unban = http.post(
        "/api/admin/players/console-cheat/unban", headers=staff["moderator"],
        json={"reason": "appeal granted"},
    )  # fmt: skip
    assert unban.status_code == 200
    again = http.post("/api/login", json={"name": "console-cheat", "password": PASSWORD})
    assert again.status_code == 200
    log = http.get("/api/admin/log", headers=staff["viewer"]).json()
    mine = [(e["actor"], e["action"], e["reason"]) for e in log if e["target"] == "console-cheat"]
    assert mine == [
        ("console-moderator", "unban", "appeal granted"),
        ("console-moderator", "ban", "bots at the table"),
    ]


async def _chat(hall: RunningHall, token: str) -> str:
    async with connect(ws_url(hall.url), compression=None) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        await socket.send(json.dumps({"type": "chat", "id": 7, "phrase": "hurry"}))
        async with asyncio.timeout(5):
            while True:
                for frame in _frames(await socket.recv()):
                    if frame.get("id") == 7:
                        return str(frame.get("code", frame["type"]))


def test_a_muted_player_may_not_chat_until_unmuted(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    token = _register(http, "console-loud")["authorization"].split()[1]
    mute = http.post(
        "/api/admin/players/console-loud/mute", headers=staff["moderator"],
        json={"minutes": 10, "reason": "spam"},
    )  # fmt: skip
    assert mute.status_code == 200
    assert asyncio.run(_chat(hall, token)) == "muted"
    page = http.get("/api/admin/players/console-loud", headers=staff["viewer"]).json()
    assert page["mute"]["reason"] == "spam" and page["ban"] is None
    http.post(
        "/api/admin/players/console-loud/unmute", headers=staff["moderator"],
        json={"reason": "served"},
    )  # fmt: skip
    assert asyncio.run(_chat(hall, token)) == "not_seated"  # heard by the hall again


def test_roles_are_given_by_admins_only_and_players_are_found_by_name(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    body = {"role": "viewer", "reason": "helps"}
    path = "/api/admin/players/console-player/role"
    assert http.post(path, headers=staff["moderator"], json=body).status_code == 403
    assert http.post(path, headers=staff["admin"], json=body).json()["detail"] == {"role": "viewer"}
    assert http.get("/api/admin/me", headers=staff["player"]).json()["role"] == "viewer"
    http.post(path, headers=staff["admin"], json={"role": None, "reason": "done"})
    assert http.get("/api/admin/me", headers=staff["player"]).status_code == 403
    found = http.get("/api/admin/players", headers=staff["viewer"], params={"q": "CONSOLE-p"})
    assert [p["name"] for p in found.json()] == ["console-player"]
    missing = http.get("/api/admin/players/nobody-here", headers=staff["viewer"])
    assert (missing.status_code, missing.json()["error"]) == (404, "unknown_player")


def test_the_store_writes_each_action_with_its_log_line_or_neither(tmp_path: Any) -> None:
    now = datetime(2026, 12, 7, 12, tzinfo=UTC)
    with Store.open(f"sqlite:///{tmp_path / 'c.db'}") as store:
        store.register("ann", "h", grant=100, now=now)
        console = Console(store)
        act = Act("op", "ann", "why", now)
        with pytest.raises(ValueError, match="insufficient_coins"):
            console.adjust_coins(-101, act)
        with pytest.raises(ValueError, match="bad_until"):
            console.impose("ban", now, act)
        assert console.log(limit=10) == []
        console.impose("mute", now + timedelta(minutes=5), act)
        assert console.in_force(1, "mute", now + timedelta(minutes=4)) is not None
        assert console.in_force(1, "mute", now + timedelta(minutes=5)) is None  # it ended
        assert [line.action for line in console.log(limit=10)] == ["mute"]


async def _closed_by_operator(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> tuple[Frame, int, int, list[dict[str, Any]]]:
    async with HallClient(hall.url) as client, guests(client, 1) as [player]:
        coins = player.session.coins
        await player.conn.send({"type": "join", "room": "doudizhu-yifa"})
        dealt = await player.until(of_type("hand_start"))
        tables = await asyncio.to_thread(http.get, "/api/admin/tables", headers=staff["viewer"])
        name = player.session.name
        mine = [t for t in tables.json() if name in [seat["name"] for seat in t["seats"]]]
        assert [t["hand"] for t in mine] == [dealt["hand"]]
        assert sum(seat["bot"] for seat in mine[0]["seats"]) == 2
        close = await asyncio.to_thread(
            http.post, f"/api/admin/tables/{mine[0]['id']}/close", headers=staff["moderator"],
            json={"reason": "stuck: restarting it"},
        )  # fmt: skip
        assert close.status_code == 200, close.text
        voided = await player.until(of_type("hand_voided"))
        again = await asyncio.to_thread(
            http.post, f"/api/admin/tables/{mine[0]['id']}/close", headers=staff["moderator"],
            json={"reason": "twice"},
        )  # fmt: skip
        me = await asyncio.to_thread(
            http.get, "/api/me", headers={"authorization": f"Bearer {player.session.token}"}
        )
        log = await asyncio.to_thread(http.get, "/api/admin/log", headers=staff["viewer"])
        return voided, coins, me.json()["coins"], [again.json(), log.json()[0]]


def test_an_operator_closes_a_live_table_its_hand_voided_and_its_players_told(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    voided, before, after, (again, line) = asyncio.run(_closed_by_operator(hall, http, staff))
    assert (voided["reason"], voided["message"]) == ("closed", "stuck: restarting it")
    assert after == before  # a voided hand moves no coin
    assert again["error"] == "unknown_table"
    assert (line["action"], line["actor"], line["reason"]) == (
        "close_table",
        "console-moderator",
        "stuck: restarting it",
    )
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []


async def _cancelled_in_play(
    hall: RunningHall, http: httpx.Client, admin: dict[str, str]
) -> tuple[list[str], int, int]:
    async with HallClient(hall.url) as client, guests(client, 1) as [player]:
        token = player.session.token
        before: int = (await client.me(token))["coins"]
        registered = await match_kit.post_as(hall.url, "/api/matches/crash-trio/register", token)
        assert registered.status_code == 200, registered.text
        run = registered.json()["run"]
        await player.until(of_type("hand_start"))
        runs = await asyncio.to_thread(http.get, "/api/admin/matches", headers=admin)
        assert {r["run"]: r["state"] for r in runs.json()}[run] == "running"
        cancel = await asyncio.to_thread(
            http.post, f"/api/admin/matches/{run.replace('#', '%23')}/cancel", headers=admin,
            json={"reason": "a bad schedule"},
        )  # fmt: skip
        assert cancel.status_code == 200, cancel.text
        await player.until(of_type("match_cancelled"))
        told = [f["type"] for f in player.frames if f["type"] in ("hand_voided", "match_cancelled")]
        after: int = (await client.me(token))["coins"]
        return told, before, after


def test_an_admin_cancels_a_run_in_play_and_every_fee_comes_back(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    told, before, after = asyncio.run(_cancelled_in_play(hall, http, staff["admin"]))
    assert told == ["hand_voided", "match_cancelled"]
    assert after == before  # the fee refunded, the voided hand moved nothing
    assert match_kit.run_state(str(hall.db_url)) == "cancelled"
    refused = http.post(
        "/api/admin/matches/crash-trio%231/cancel", headers=staff["admin"],
        json={"reason": "again"},
    )  # fmt: skip
    assert refused.json()["error"] == "unknown_run"
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []


def test_an_admin_cancels_a_registering_run_and_the_fee_comes_back(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    player = _register(http, "console-entrant")
    before = http.get("/api/me", headers=player).json()["coins"]
    path = f"/api/matches/{places_kit.MATCH}/register"
    run = http.post(path, headers=player).json()["run"]
    assert http.get("/api/me", headers=player).json()["coins"] == before - 10
    cancel = http.post(
        f"/api/admin/matches/{run.replace('#', '%23')}/cancel", headers=staff["admin"],
        json={"reason": "nobody came"},
    )  # fmt: skip
    assert cancel.status_code == 200, cancel.text
    assert http.get("/api/me", headers=player).json()["coins"] == before
    runs = http.get("/api/admin/matches", headers=staff["viewer"]).json()
    assert run not in [r["run"] for r in runs]  # cancelled: the next run takes registrations
    assert f"{places_kit.MATCH}#2" in [r["run"] for r in runs]


def test_the_dashboard_shows_who_is_online_the_takings_and_the_last_audit(
    http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    def given_by_admins() -> int:
        board = http.get("/api/admin/dashboard", headers=staff["viewer"]).json()
        today = board["takings"][0]
        assert today["day"] == datetime.now(UTC).date().isoformat()
        assert set(board["online"]) == {"hall"} and "rooms" in board["online"]["hall"]
        return int(today["given"].get("admin", 0))

    _register(http, "console-lucky")
    before = given_by_admins()
    body = {"amount": 700, "reason": "a tournament prize"}
    given = http.post("/api/admin/players/console-lucky/grant", headers=staff["admin"], json=body)
    assert given.status_code == 200
    assert given_by_admins() == before - 700  # paid out of system:grants
    checked = http.post("/api/admin/audit", headers=staff["admin"], json={"reason": "daily"})
    assert checked.json()["detail"] == {"problems": 0, "first": []}
    board = http.get("/api/admin/dashboard", headers=staff["viewer"]).json()
    assert board["last_audit"]["id"] == checked.json()["id"]
    assert http.post("/api/admin/audit", headers=staff["moderator"], json={}).status_code == 403


def test_a_reset_password_is_handed_over_and_ends_his_sessions(
    http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    old = _register(http, "console-forgetful")
    page = http.get("/api/admin/players/console-forgetful", headers=staff["viewer"]).json()
    assert [s["address"] for s in page["sessions_list"]] == ["127.0.0.1"]
    reset = http.post(
        "/api/admin/players/console-forgetful/password", headers=staff["moderator"],
        json={"reason": "he asked by mail"},
    )  # fmt: skip
    password = reset.json()["password"]
    assert len(password) == 12 and reset.json()["line"]["action"] == "password"
    assert http.get("/api/me", headers=old).status_code == 401  # his session ended
    assert (
        http.post("/api/login", json={"name": "console-forgetful", "password": PASSWORD}).json()[
            "error"
        ]
        == "bad_credentials"
    )
    signed = http.post("/api/login", json={"name": "console-forgetful", "password": password})
    assert signed.status_code == 200
    guest = http.post("/api/guest").json()["user"]["name"]
    refused = http.post(
        f"/api/admin/players/{guest}/password", headers=staff["moderator"], json={"reason": "x"}
    )
    assert refused.json()["error"] == "guest_account"


def test_an_export_holds_his_data_and_a_deleted_account_keeps_only_its_ledger(
    hall: RunningHall, http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    leaving = _register(http, "console-leaving")
    friend = _register(http, "console-friend")
    http.post("/api/friends/console-friend", headers=leaving)
    http.post("/api/friends/console-leaving", headers=friend)  # accepted
    http.post(
        "/api/admin/players/console-leaving/grant", headers=staff["admin"],
        json={"amount": 50, "reason": "welcome back"},
    )  # fmt: skip
    path = "/api/admin/players/console-leaving/export"
    assert http.get(path, headers=staff["moderator"]).status_code == 403
    exported = http.get(path, headers=staff["admin"])
    assert "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert data["player"]["name"] == "console-leaving"
    assert sorted(p["amount"] for p in data["postings"]) == [50, 10_000]
    assert data["friends"] == [{"name": "console-friend", "state": "friends"}]
    assert set(data) == {"player", "postings", "hands", "matches", "private_tables", "friends"}
    deleted = http.post(
        "/api/admin/players/console-leaving/delete", headers=staff["admin"],
        json={"reason": "he asked to be forgotten"},
    )  # fmt: skip
    user = deleted.json()["detail"]["id"]
    login = http.post("/api/login", json={"name": "console-leaving", "password": PASSWORD})
    assert login.json()["error"] == "bad_credentials"
    assert (
        http.get(f"/api/admin/players/已注销{user}", headers=staff["viewer"]).json()["coins"]
        == 10_050
    )
    board = http.get("/api/leaderboard", params={"by": "coins", "limit": 100}).json()
    assert f"已注销{user}" not in [row["name"] for row in board]  # no longer anybody's
    assert http.get("/api/friends", headers=friend).json() == []  # his friendships went too
    again = http.post("/api/register", json={"name": "console-leaving", "password": PASSWORD})
    assert again.status_code == 200  # the name is free again
    taken = http.post("/api/register", json={"name": "已注销99", "password": PASSWORD})
    assert taken.json()["error"] == "bad_name"  # no person takes a deleted account's name
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []


def test_a_players_report_waits_in_the_queue_until_a_moderator_resolves_it(
    http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    reporter = _register(http, "console-witness")
    _register(http, "console-rude")
    body = {"name": "console-rude", "reason": "insults in chat", "hand": None}
    filed = http.post("/api/reports", headers=reporter, json=body)
    assert filed.status_code == 200, filed.text
    assert http.post("/api/reports", json=body).status_code == 401  # signed in only
    assert (
        http.post("/api/reports", headers=reporter, json={**body, "hand": "no-such"}).json()[
            "error"
        ]
        == "unknown_hand"
    )
    queue = http.get("/api/admin/reports", headers=staff["viewer"]).json()
    mine = [r for r in queue if r["id"] == filed.json()["id"]]
    assert [(r["reporter"], r["reported"], r["state"]) for r in mine] == [
        ("console-witness", "console-rude", "open")
    ]
    path = f"/api/admin/reports/{filed.json()['id']}/resolve"
    resolved = http.post(
        path, headers=staff["moderator"],
        json={"action": "mute", "minutes": 15, "reason": "insults, 15 minutes"},
    )  # fmt: skip
    assert resolved.json()["detail"] == {"report": filed.json()["id"], "action": "mute"}
    page = http.get("/api/admin/players/console-rude", headers=staff["viewer"]).json()
    assert page["mute"]["reason"] == "insults, 15 minutes"
    again = http.post(path, headers=staff["moderator"], json={"action": "dismiss", "reason": "x"})
    assert again.json()["error"] == "report_closed"
    closed = http.get("/api/admin/reports", headers=staff["viewer"], params={"state": "closed"})
    assert filed.json()["id"] in [r["id"] for r in closed.json() if r["resolution"] == "mute"]
    assert http.get("/api/admin/flags", headers=staff["viewer"]).status_code == 200


def test_an_admin_stops_and_restarts_a_match_and_its_schedule_is_kept(
    http: httpx.Client, staff: dict[str, dict[str, str]]
) -> None:
    def listed() -> list[str]:
        return [m["name"] for m in http.get("/api/matches").json()]

    def schedule(**body: object) -> httpx.Response:
        path = f"/api/admin/schedules/{places_kit.MATCH}"
        return http.post(path, headers=staff["admin"], json={"reason": "maintenance", **body})

    assert places_kit.MATCH in listed()
    assert schedule(every_minutes=0).json()["error"] == "bad_match"
    assert schedule(enabled=False).status_code == 200
    kept = {s["match"]: s for s in http.get("/api/admin/schedules", headers=staff["viewer"]).json()}
    assert (kept[places_kit.MATCH]["enabled"], kept[places_kit.MATCH]["kept"]) == (False, True)
    assert kept["crash-trio"]["kept"] is False
    [open_run] = [r["run"] for r in http.get("/api/admin/matches", headers=staff["viewer"]).json()
                  if r["match"] == places_kit.MATCH]  # fmt: skip
    http.post(
        f"/api/admin/matches/{open_run.replace('#', '%23')}/cancel", headers=staff["admin"],
        json={"reason": "stopped"},
    )  # fmt: skip
    assert places_kit.MATCH not in listed()  # stopped: no next run opened
    assert schedule(enabled=True).status_code == 200
    assert places_kit.MATCH in listed()  # a new run takes registrations


def test_a_kept_schedule_is_followed_at_the_next_start_unless_it_no_longer_fits() -> None:
    [trio] = load_matches(places_kit.MATCHES)
    kept = {trio.id: KeptSchedule(trio.id, 30, 15, enabled=False)}
    [followed] = with_schedules([trio], kept)
    assert (followed.every_minutes, followed.at_minute, followed.enabled) == (30, 15, False)
    unfit = {trio.id: KeptSchedule(trio.id, 30, 45, enabled=False)}  # 45 is past the period
    assert with_schedules([trio], unfit) == (trio,)
    assert with_schedules([trio], {}) == (trio,)
