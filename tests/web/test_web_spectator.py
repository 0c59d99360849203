"""观战 (spectators) in the browser, against a stand-in for the hall's WebSocket
(``stub_hall.py``) that answers ``spectate`` with the frames of issue 26's contract: a
snapshot with ``seat: null`` and the game's spectator view (a real Dou Dizhu hand's, from
the registry), then the table's events as a spectator sees them.  The page shows every
seat's public side, no hand (no element ``hand``), 观战中 with 退出观战, and the watchers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stub_hall import DdzHand, StubHall, signed_up, stub_json
from web_kit import WAIT_MS, screenshot

SHOTS = Path("/work/notes/shots")


def watching(hand: DdzHand) -> Any:
    """The hall's answer to ``spectate``: ack, the spectator's snapshot."""

    def answer(stub: StubHall, message: dict[str, Any]) -> None:
        if message["type"] == "spectate":
            stub.send({"type": "ack", "id": message["id"]}, hand.snapshot(None))
        elif message["type"] == "stop_spectating":
            stub.send({"type": "ack", "id": message["id"]})

    return answer


def test_a_spectator_watches_a_friend_without_a_hand(hall: Any, new_page: Any) -> None:
    hand = DdzHand(seed=5)
    hand.play_until(3)
    page = new_page()
    stub = StubHall(page, "观众甲", watching(hand))
    signed_up(page, hall.url, "watcher-a")
    page.fill("[data-testid=spectate-name]", "东家")
    page.click("[data-testid=spectate]")
    assert stub.wait_sent("spectate")["player"] == "东家"
    table = page.wait_for_selector("[data-testid=table][data-spectating='1']", timeout=WAIT_MS)
    assert page.locator("[data-testid=hand]").count() == 0
    assert "观战中" in page.inner_text("[data-testid=spectating]")
    seats = page.eval_on_selector_all(
        "[data-testid=seat]", "els => els.map(e => e.dataset.seat).sort()"
    )
    assert seats == ["0", "1", "2"]
    counts = page.eval_on_selector_all(
        "[data-testid=card-count]", "els => els.map(e => Number(e.innerText))"
    )
    assert sorted(counts) == sorted(hand.state.view(0).card_counts)
    controls = "[data-testid=actions] button, [data-testid^=action-]"
    assert page.locator(controls).count() == 0
    task = hand.state.task.value
    assert page.get_attribute("[data-testid=task]", "data-task") == task
    # the watchers, and the hand going on
    stub.send({"type": "spectator_count", "table": 7, "count": 3})
    page.wait_for_selector("[data-testid=spectating] [data-testid=spectator-count][data-count='3']")
    hand.play_until(6)
    stub.send(*hand.events(None))
    page.wait_for_function(
        "(n) => document.querySelector('[data-testid=table]').dataset.n === String(n)",
        arg=len(hand.state.events),
    )
    assert page.locator("[data-testid=hand]").count() == 0
    assert table.get_attribute("data-turn") != "me"
    page.wait_for_timeout(700)  # the plays' slide is over
    screenshot(page, SHOTS, "spectator-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    screenshot(page, SHOTS, "spectator-phone")
    # nothing a seat sends: no entropy, no action
    kinds = page.evaluate("() => window.qipai.app.socket.outbox.map(m => m.type)")
    assert not {"entropy", "act"} & set(kinds)
    assert page.evaluate("() => localStorage.getItem('qipai.tables')") is None
    # to the end: the winning side completed the hand's 任务 (seed 5: 打出炸弹)
    assert page.get_attribute("[data-testid=task]", "data-done") == "0"
    hand.play_until(999)
    assert hand.state.task_completed
    stub.send(*hand.events(None))
    page.wait_for_selector("[data-testid=task][data-done='1']")
    assert "已完成" in page.inner_text("[data-testid=task]")
    page.click("[data-testid=stop-spectating]")
    stub.wait_sent("stop_spectating")
    page.wait_for_selector("[data-testid=lobby]")
    assert page.evaluate("() => window.qipai.app.table") is None


def test_a_private_table_watched_by_its_code(hall: Any, new_page: Any) -> None:
    hand = DdzHand(seed=8, table=9, room="private:654321")
    hand.play_until(2)
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    stub = StubHall(page, "观众乙", watching(hand))
    stub_json(
        page,
        "**/api/private/654321",
        {
            "code": "654321",
            "game": "doudizhu",
            "rules": "yifa",
            "hands": 6,
            "played": 0,
            "stakes": "points",
            "base": None,
            "state": "playing",
            "seats": ["东家", "南家", "西家"],
            "spectators": True,
            "watchers": 1,
            "full": True,
            "scoreboard": None,
        },
    )
    signed_up(page, hall.url, "watcher-b")
    page.evaluate("() => window.qipai.app.privates = {}")
    # watched by a player's name, the table turns out to be a private one: its game is learnt
    page.fill("[data-testid=spectate-name]", "南家")
    page.click("[data-testid=spectate]")
    page.wait_for_selector(
        "[data-testid=table][data-spectating='1'][data-game=doudizhu]", timeout=WAIT_MS
    )
    assert page.locator("[data-testid=hand]").count() == 0
    assert page.locator("[data-testid=spectating] [data-testid=stop-spectating]").is_visible()
    stub.send(
        {
            "type": "scoreboard",
            "code": "654321",
            "table": 9,
            "names": ["东家", "南家", "西家"],
            "rows": [{"hand": "h0", "number": 1, "points": [2, -1, -1]}],
            "totals": [2, -1, -1],
            "over": False,
        }
    )
    page.wait_for_selector("[data-testid=scoreboard]")
    page.keyboard.press("Escape")
    # the table's own frame reaches its spectators too (``you`` null): it changes nothing
    table = {"type": "private_table", "code": "654321", "link": "/?p=654321", "owner": 0}
    table |= {"game": "doudizhu", "rules": "yifa", "hands": 6, "played": 1, "stakes": "points"}
    table |= {"base": 0, "seconds": 20, "bots": True, "spectators": True, "tasks": False}
    table |= {"delay": 0, "state": "playing", "table": 9, "seats": [None, None, None], "you": None}
    stub.send(table)
    page.wait_for_timeout(200)
    assert page.locator("[data-testid=table][data-spectating='1']").count() == 1
    assert page.evaluate("() => window.qipai.app.private") is None
    # the table closes: back to the lobby; its late frames are dropped (no resync asked)
    stub.send({"type": "spectate_ended", "table": 9, "reason": "table_closed"})
    page.wait_for_selector("[data-testid=lobby]")
    page.wait_for_selector("#toast :text('观战的牌桌已结束')")
    hand.play_until(4)
    stub.send(*hand.events(None))
    page.wait_for_timeout(200)
    assert "resync" not in page.evaluate("() => window.qipai.app.socket.outbox.map(m => m.type)")
