"""好友房 (private tables) in the browser, against a stand-in for the hall's WebSocket that
answers with the frames of issue 26's contract (``stub_hall.py``): the create form's
defaults and choices → ``private_create``; joining by code; the link ``/?p=<code>``;
``table_full`` offering to watch; the waiting room (code, link, seats, 准备, the owner's
开始 / 踢出 / 关闭); the watchers; the scoreboard between hands and at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stub_hall import DdzHand, StubHall, signed_up, stub_json
from web_kit import WAIT_MS, noted, screenshot

SHOTS = Path("/work/notes/shots")
CODE = "123456"
ROOM = "private:0a1b2c3d4e5f"
"""The room of its live tables: an opaque id, not its code."""


def private_table(**changes: Any) -> dict[str, Any]:
    """A ``private_table`` frame: a points table of 6 hands, the receiver the owner at
    seat 0, one friend seated, one seat free."""
    frame = {
        "type": "private_table",
        "code": CODE,
        "link": f"/?p={CODE}",
        "room": ROOM,
        "owner": 0,
        "game": "doudizhu",
        "rules": "yifa",
        "hands": 6,
        "played": 0,
        "stakes": "points",
        "base": None,
        "seconds": None,
        "bots": True,
        "spectators": True,
        "tasks": False,
        "delay": 0,
        "state": "waiting",
        "table": None,
        "seats": [
            {"name": "房主", "ready": False, "bot": False, "connected": True},
            {"name": "好友甲", "ready": True, "bot": False, "connected": True},
            None,
        ],
        "you": 0,
    }
    frame.update(changes)
    return frame


def ack(message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "ack", "id": message["id"]}


def creates_table(stub: StubHall, message: dict[str, Any]) -> None:
    """The hall's answer to private_create and private_join: the table."""
    if message["type"] in ("private_create", "private_join"):
        stub.send(ack(message), private_table())


def test_the_form_defaults_make_a_table_and_its_room_shows_the_code(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    stub = StubHall(page, "房主", creates_table)
    signed_up(page, hall.url, "owner-a")
    page.click("[data-testid=private-create]")
    page.wait_for_selector("[data-testid=private-form]")
    rooms = page.evaluate("() => window.qipai.app.rooms.map(r => [r.game, r.rules])")
    games = page.eval_on_selector_all(
        "[data-testid=private-game] option", "els => els.map(e => e.value)"
    )
    assert games[0] == "doudizhu" and set(games) == {game for game, _ in rooms}
    presets = page.eval_on_selector_all(
        "[data-testid=private-rules] option", "els => els.map(e => e.value)"
    )
    assert set(presets) == {rules for game, rules in rooms if game == "doudizhu"}
    hands = page.eval_on_selector_all(
        "[data-testid=private-hands] option", "els => els.map(e => e.value)"
    )
    assert hands == ["6", "12", "24", "0"]
    assert page.locator("[data-testid=private-tasks]").count() == 1  # the game offers 任务
    assert page.locator("[data-testid=private-base]").count() == 0  # points: no base
    screenshot(page, SHOTS, "private-form-desktop")
    page.click("[data-testid=private-confirm]")
    sent = stub.wait_sent("private_create")
    assert isinstance(sent.pop("id"), int)
    assert sent == {
        "type": "private_create",
        "game": "doudizhu",
        "rules": presets[0],
        "hands": 6,
        "stakes": "points",
        "base": None,
        "seconds": None,
        "bots": True,
        "spectators": True,
        "tasks": False,
        "delay": 0,
    }
    page.wait_for_selector(f"[data-testid=private-room][data-code='{CODE}']", timeout=WAIT_MS)
    code = page.locator("[data-testid=private-room] [data-testid=private-code]")
    assert code.inner_text() == CODE
    assert code.get_attribute("data-link") == f"{hall.url.rstrip('/')}/?p={CODE}"
    assert page.inner_text("[data-testid=private-hands]") == "已打 0/6 局"
    page.click("[data-testid=nav-lobby]")  # the lobby leads back to the table
    page.click("[data-testid=back-to-private]")
    page.wait_for_selector("[data-testid=private-room]")
    screenshot(page, SHOTS, "private-room-desktop")


def test_the_form_sends_the_players_choices(hall: Any, new_page: Any) -> None:
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    stub = StubHall(page, "房主")
    signed_up(page, hall.url, "owner-b")
    page.click("[data-testid=private-create]")
    page.select_option("[data-testid=private-hands]", "0")
    page.select_option("[data-testid=private-stakes]", "coins")
    bases = page.eval_on_selector_all(
        "[data-testid=private-base] option", "els => els.map(e => e.value)"
    )
    assert len(bases) >= 2
    page.select_option("[data-testid=private-base]", bases[1])
    page.select_option("[data-testid=private-seconds]", "30")
    page.select_option("[data-testid=private-delay]", "10")
    page.uncheck("[data-testid=private-bots]")
    page.uncheck("[data-testid=private-spectators]")
    page.check("[data-testid=private-tasks]")
    screenshot(page, SHOTS, "private-form-phone")
    box = page.locator("[data-testid=private-confirm]").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390  # the form fits a phone
    page.click("[data-testid=private-confirm]")
    sent = stub.wait_sent("private_create")
    assert {
        key: sent[key]
        for key in ("hands", "stakes", "base", "seconds", "bots", "spectators", "tasks", "delay")
    } == {
        "hands": 0,
        "stakes": "coins",
        "base": int(bases[1]),
        "seconds": 30,
        "bots": False,
        "spectators": False,
        "tasks": True,
        "delay": 10,
    }


def test_a_code_joins_and_a_full_table_offers_to_watch(hall: Any, new_page: Any) -> None:
    def full(stub: StubHall, message: dict[str, Any]) -> None:
        if message["type"] == "private_join":
            stub.send(
                {
                    "type": "error",
                    "id": message["id"],
                    "code": "table_full",
                    "message": "full",
                    "watch": True,
                }
            )

    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    stub = StubHall(page, "好友乙", full)
    stub_json(
        page,
        f"**/api/private/{CODE}",
        {
            "code": CODE,
            "game": "doudizhu",
            "rules": "yifa",
            "hands": 6,
            "played": 1,
            "stakes": "points",
            "base": None,
            "state": "playing",
            "seats": ["a", "b", "c"],
            "spectators": True,
            "watchers": 0,
            "full": True,
            "scoreboard": None,
        },
    )
    signed_up(page, hall.url, "friend-b")
    page.fill("[data-testid=private-join-code]", "12a")
    page.click("[data-testid=private-join]")  # not 6 digits: nothing sent
    noted(page, "6 位数字")
    page.fill("[data-testid=private-join-code]", CODE)
    screenshot(page, SHOTS, "lobby-friends-phone")
    page.click("[data-testid=private-join]")
    assert stub.wait_sent("private_join")["code"] == CODE
    page.wait_for_selector("[data-testid=watch-offer]")
    screenshot(page, SHOTS, "private-watch-offer-phone")
    page.click("[data-testid=confirm]")
    assert stub.wait_sent("spectate") | {"id": 0} == {"type": "spectate", "code": CODE, "id": 0}
    # the hall then tells the table as a spectator sees it (no code): its game is kept by room
    spectators = {k: v for k, v in private_table(you=None).items() if k not in ("code", "link")}
    stub.send(spectators)
    page.wait_for_function(f"() => window.qipai.app.privates['{ROOM}'].game === 'doudizhu'")
    assert page.evaluate(f"() => window.qipai.app.privates['{ROOM}'].code") is None


def test_the_link_joins_the_table_once_signed_in(hall: Any, new_page: Any) -> None:
    page = new_page()
    stub = StubHall(page, "链接玩家", creates_table)
    page.goto(f"{hall.url.rstrip('/')}/?p={CODE}")
    assert CODE in page.inner_text("[data-testid=private-invite]")
    signed_up(page, hall.url, "linked-a", path=f"/?p={CODE}")
    assert stub.wait_sent("private_join")["code"] == CODE
    page.wait_for_selector("[data-testid=private-room]")
    assert "?p=" not in page.url
    assert (
        page.evaluate(
            "() => window.qipai.app.socket.outbox.filter(m => m.type === 'private_join').length"
        )
        == 1
    )


def test_the_link_joins_the_table_of_a_guest(hall: Any, new_page: Any) -> None:
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    stub = StubHall(page, "游客", creates_table)
    page.goto(f"{hall.url.rstrip('/')}/?p={CODE}")
    page.click("[data-testid=guest]")
    assert stub.wait_sent("private_join")["code"] == CODE
    page.wait_for_selector(f"[data-testid=private-room][data-code='{CODE}']")


def test_the_waiting_room_ready_kick_start_close(hall: Any, new_page: Any) -> None:
    page = new_page()
    stub = StubHall(page, "房主", creates_table)
    signed_up(page, hall.url, "owner-c")
    page.fill("[data-testid=private-join-code]", CODE)
    page.click("[data-testid=private-join]")
    page.wait_for_selector("[data-testid=private-room]")
    marks = page.eval_on_selector_all(
        "[data-testid=private-seat]", "els => els.map(e => e.dataset.ready)"
    )
    assert marks == ["0", "1", "0"]
    assert page.inner_text("[data-testid=ready]") == "准备"
    page.click("[data-testid=ready]")
    sent = stub.wait_sent("ready")
    assert sent["ready"] is True and isinstance(sent["id"], int)
    seats = private_table()["seats"]
    seats[0] = {**seats[0], "ready": True}
    stub.send(
        ack(sent),
        private_table(seats=seats),
        {"type": "spectator_count", "table": None, "count": 2},
    )
    page.wait_for_selector("[data-testid=ready][data-ready='1']")
    assert page.inner_text("[data-testid=ready]") == "取消准备"
    assert page.inner_text("[data-testid=private-room] [data-testid=spectator-count]") == "2"
    # the owner removes the friend (before the first hand), starts with bots, closes
    assert page.locator("[data-testid=private-kick]").count() == 1  # not himself
    page.click("[data-testid=private-kick][data-seat='1']")
    assert stub.wait_sent("private_kick")["seat"] == 1
    page.click("[data-testid=private-start]")
    stub.wait_sent("private_start")
    screenshot(page, SHOTS, "private-room-ready-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, SHOTS, "private-room-phone")
    page.click("[data-testid=private-close]")
    page.click("[data-testid=confirm]")
    stub.wait_sent("private_close")
    # a refusal says why
    stub.send(
        {
            "type": "error",
            "id": stub.wait_sent("private_close")["id"],
            "code": "not_ready",
            "message": "x",
        }
    )
    noted(page, "还有玩家没有准备")
    # a guest at the table (not the owner) has neither 开始 nor 踢出
    stub.send(private_table(you=1, seats=seats))
    page.wait_for_selector("[data-testid=private-seat].me[data-seat='1']")
    assert (
        page.locator(
            "[data-testid=private-start], [data-testid=private-kick], [data-testid=private-close]"
        ).count()
        == 0
    )
    # in English
    page.click("[data-testid=lang]")
    page.wait_for_selector("[data-testid=private-room] :text('Private table')")
    assert page.inner_text("[data-testid=private-hands]") == "0/6 hands played"
    screenshot(page, SHOTS, "private-room-english-phone")
    page.click("[data-testid=lang]")
    # removed by the owner: back in the lobby, told why
    stub.send({"type": "left", "room": ROOM, "reason": "kicked"})
    page.wait_for_selector("[data-testid=lobby]")
    noted(page, "房主把你移出了好友房")
    # back at the table; it closes: back in the lobby
    stub.send(private_table())
    page.wait_for_selector("[data-testid=private-room]")
    stub.send(private_table(state="closed"))
    page.wait_for_selector("[data-testid=lobby]")
    noted(page, "好友房已关闭")


def test_the_scoreboard_between_hands_and_at_the_end(hall: Any, new_page: Any) -> None:
    page = new_page()
    stub = StubHall(page, "房主", creates_table)
    signed_up(page, hall.url, "owner-d")
    page.fill("[data-testid=private-join-code]", CODE)
    page.click("[data-testid=private-join]")
    page.wait_for_selector("[data-testid=private-room]")
    names = ["房主丁", "好友甲", "机器人1"]
    rows = [{"hand": "h1", "number": 1, "points": [6, -3, -3]}]
    stub.send(
        {
            "type": "scoreboard",
            "code": CODE,
            "table": 7,
            "names": names,
            "rows": rows,
            "totals": [6, -3, -3],
            "over": False,
        }
    )
    board = page.wait_for_selector("[data-testid=scoreboard][data-over='0']")
    assert page.locator("[data-testid=scoreboard-row]").count() == 1
    assert page.inner_text("[data-testid=scoreboard-total]").split() == ["合计", "+6", "-3", "-3"]
    assert "好友甲" in board.inner_text()
    page.click("[data-testid=scoreboard-close]")
    rows.append({"hand": "h2", "number": 2, "points": [-4, 8, -4]})
    stub.send(
        {
            "type": "scoreboard",
            "code": CODE,
            "table": 7,
            "names": names,
            "rows": rows,
            "totals": [2, 5, -7],
            "over": True,
        }
    )
    page.wait_for_selector("[data-testid=scoreboard][data-over='1']")
    assert page.locator("[data-testid=scoreboard-row]").count() == 2
    assert page.inner_text("[data-testid=scoreboard-total]").split() == ["合计", "+2", "+5", "-7"]
    assert "总战绩" in page.inner_text("[data-testid=scoreboard] h2")
    screenshot(page, SHOTS, "private-scoreboard-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, SHOTS, "private-scoreboard-phone")
    page.click("[data-testid=scoreboard-close]")
    page.wait_for_selector("[data-testid=lobby]")


def test_a_hand_at_the_private_table_shows_the_table_strip(hall: Any, new_page: Any) -> None:
    hand = DdzHand(seed=11, table=7, room=ROOM)
    hand.play_until(1)
    page = new_page()
    stub = StubHall(page, "东家", creates_table)
    signed_up(page, hall.url, "east-a")
    page.fill("[data-testid=private-join-code]", CODE)
    page.click("[data-testid=private-join]")
    page.wait_for_selector("[data-testid=private-room]")
    seats = [
        {"name": name, "ready": True, "bot": False, "connected": True}
        for name in ("东家", "南家", "西家")
    ]
    stub.send(
        private_table(state="playing", table=7, played=2, seats=seats),
        hand.snapshot(0),
        {"type": "spectator_count", "table": 7, "count": 4},
    )
    page.wait_for_selector(
        "[data-testid=table][data-game=doudizhu] [data-testid=private-strip]", timeout=WAIT_MS
    )
    assert page.locator("[data-testid=hand] [data-testid=card]").count() == len(
        hand.state.view(0).hand
    )
    strip = "[data-testid=private-strip]"
    assert page.inner_text(f"{strip} [data-testid=private-code]") == CODE
    assert page.inner_text(f"{strip} [data-testid=private-hands]") == "已打 2/6 局"
    assert page.inner_text(f"{strip} [data-testid=spectator-count]") == "4"
    assert page.locator(f"{strip} [data-testid=private-close]").count() == 1  # the owner's
    page.wait_for_timeout(700)
    screenshot(page, SHOTS, "private-table-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    screenshot(page, SHOTS, "private-table-phone")
