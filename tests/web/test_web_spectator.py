"""观战 (spectators) in the browser, against a stand-in for the hall's WebSocket
(``stub_hall.py``) that answers ``spectate`` with the frames of issue 26's contract: a
snapshot with ``seat: null`` and the game's spectator view (a real Dou Dizhu hand's, from
the registry), then the table's events as a spectator sees them.  The page shows every
seat's public side, no hand (no element ``hand``), 观战中 with 退出观战, and the watchers;
a private table's spectator learns its game from its ``private_table`` (no code); the
player's 按名字观战我 choice goes to the hall, and again after each welcome."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from stub_hall import DdzHand, StubHall, signed_up
from web_kit import WAIT_MS, feed, noted, screenshot

SHOTS = Path("/work/notes/shots")
SIZES = {
    "desktop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844, "is_mobile": True, "has_touch": True},
}


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


ROOM = "private:9f3c2a71b0d4"
"""A private table's room: an opaque id (its code is never sent to a spectator)."""


def private_table(**changes: Any) -> dict[str, Any]:
    """A private table's ``private_table`` as its spectators get it: no code, no link."""
    table = {"type": "private_table", "room": ROOM, "owner": 0, "game": "doudizhu"}
    table |= {"rules": "yifa", "hands": 6, "played": 1, "stakes": "points", "base": 0}
    table |= {"seconds": 20, "bots": True, "spectators": True, "tasks": False, "delay": 0}
    return table | {"state": "playing", "table": 9, "seats": [None, None, None], "you": None}


def test_a_spectator_leaves_with_the_final_scoreboard_before_the_hand_ends(
    hall: Any, new_page: Any
) -> None:
    """A private table's final scoreboard (``table`` null: it closed) may reach a spectator
    before the end of the hand he watches (a delayed table's, a busy hall's): 大厅 takes
    him to the lobby all the same, and that hand's late frames open nothing over it."""
    hand = DdzHand(seed=8, table=9, room=ROOM)
    hand.play_until(2)
    page = new_page()

    def answer(stub: StubHall, message: dict[str, Any]) -> None:
        if message["type"] == "spectate":
            stub.send(private_table(), {"type": "ack", "id": message["id"]}, hand.snapshot(None))

    stub = StubHall(page, "观众丙", answer)
    signed_up(page, hall.url, "watcher-c")
    page.fill("[data-testid=spectate-name]", "南家")
    page.click("[data-testid=spectate]")
    page.wait_for_selector("[data-testid=table][data-spectating='1']", timeout=WAIT_MS)
    final = {"type": "scoreboard", "table": None, "names": ["东家", "南家", "西家"]}
    final |= {"rows": [{"hand": "h0", "number": 1, "points": [2, -1, -1]}]}
    stub.send(final | {"totals": [2, -1, -1], "over": True})
    page.click("[data-testid=scoreboard] [data-testid=scoreboard-close]")
    page.wait_for_selector("[data-testid=lobby]")
    hand.play_until(99)
    feed(page, *hand.events(None), hand.hand_over())
    assert page.evaluate("() => location.hash") == "#/lobby"
    assert page.locator("[data-testid=result]").count() == 0


def test_a_private_table_watched_by_a_players_name(hall: Any, new_page: Any) -> None:
    hand = DdzHand(seed=8, table=9, room=ROOM)
    hand.play_until(2)
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)

    def answer(stub: StubHall, message: dict[str, Any]) -> None:
        """The hall's answer: the table (its game) first, then the snapshot."""
        if message["type"] == "spectate":
            stub.send(private_table(), {"type": "ack", "id": message["id"]}, hand.snapshot(None))

    stub = StubHall(page, "观众乙", answer)
    signed_up(page, hall.url, "watcher-b")
    page.evaluate("() => window.qipai.app.privates = {}")
    # watched by a player's name, the table turns out to be a private one: its
    # private_table (no code) tells its game
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
            "table": 9,
            "names": ["东家", "南家", "西家"],
            "rows": [{"hand": "h0", "number": 1, "points": [2, -1, -1]}],
            "totals": [2, -1, -1],
            "over": False,
        }
    )
    page.wait_for_selector("[data-testid=scoreboard][data-code='']")
    assert "·" not in page.inner_text("[data-testid=scoreboard] h2")  # no code to show
    page.keyboard.press("Escape")
    # the table's own frame reaches its spectators again (``you`` null): it changes nothing
    stub.send(private_table(played=2))
    stub.settled()
    assert page.locator("[data-testid=table][data-spectating='1']").count() == 1
    assert page.evaluate("() => window.qipai.app.private") is None
    # the table closes: it stays on the page, its strip says so; its late frames are
    # dropped (no resync asked); 返回大厅 goes to the lobby, nothing to stop
    stub.send({"type": "spectate_ended", "table": 9, "reason": "table_closed"})
    page.wait_for_selector("[data-testid=spectating][data-ended=table_closed]")
    noted(page, "观战的牌桌已结束")
    hand.play_until(4)
    stub.send(*hand.events(None))
    stub.settled()
    assert "resync" not in page.evaluate("() => window.qipai.app.socket.outbox.map(m => m.type)")
    page.click("[data-testid=stop-spectating]")
    page.wait_for_selector("[data-testid=lobby]")
    assert "stop_spectating" not in page.evaluate(
        "() => window.qipai.app.socket.outbox.map(m => m.type)"
    )
    # a late snapshot of the closed table (the answer to a resync asked before it closed)
    # does not take the spectator back to it
    feed(page, hand.snapshot(None))
    assert page.evaluate("() => location.hash") == "#/lobby"


def test_the_player_chooses_whether_he_is_watched_by_his_name(hall: Any, new_page: Any) -> None:
    page = new_page()
    stub = StubHall(page, "东家")
    signed_up(page, hall.url, "watched-by-name")
    choice = "[data-testid=watch-by-name]"
    assert page.input_value(choice) == ""  # the hall's default: nothing sent
    assert "watch_by_name" not in page.evaluate("() => qipai.app.socket.outbox.map(m => m.type)")
    page.select_option(choice, "no")
    sent = stub.wait_sent("watch_by_name")
    assert sent["allow"] is False and isinstance(sent["id"], int)  # its ack answered here
    page.reload()  # a new connection: the page tells the hall again after the welcome
    assert stub.wait_sent("watch_by_name")["allow"] is False
    assert page.input_value(choice) == "no"
    page.select_option(choice, "")
    assert stub.wait_sent("watch_by_name", 2)["allow"] is None
    page.click("[data-testid=lang]")
    assert "Watch me by my name" in page.inner_text("[data-testid=friends]")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_watching_a_cash_table_by_name_to_its_end_then_the_next_table(
    hall: Any, new_page: Any, size: str
) -> None:
    """Watched by name, 南家 is drawn at the bottom (his seat); the hand ends and the cash
    table closes (``following``): the spectator sees the end as the players do (the last
    play, every hand left, the result), the strip says he waits for 南家's next table,
    whose snapshot replaces this one; when 南家 leaves (``player_left``) the strip says
    so and its button goes to the lobby (nothing to stop). A player of a cash table sees
    how many watch it."""
    hand = DdzHand(seed=5)
    hand.play_until(3)
    page = new_page(**SIZES[size])
    stub = StubHall(page, "观众丙", watching(hand))
    signed_up(page, hall.url, f"watcher-c-{size}")
    page.fill("[data-testid=spectate-name]", "南家")
    page.click("[data-testid=spectate]")
    page.wait_for_selector("[data-testid=table][data-spectating='1']", timeout=WAIT_MS)
    assert page.get_attribute(".me-info[data-testid=seat]", "data-seat") == "1"
    assert page.inner_text("[data-testid=watching-name]") == "南家"
    # the hand ends; the table closes after it
    hand.play_until(999)
    over = hand.hand_over()
    stub.send(
        *hand.events(None), over, {"type": "spectate_ended", "table": 7, "reason": "following"}
    )
    page.wait_for_selector("[data-testid=result]", timeout=WAIT_MS)
    assert page.locator("[data-testid=table][data-spectating='1']").count() == 1
    left = page.eval_on_selector_all("[data-testid=leftover]", "els => els.length")
    assert left == 3  # every seat's cards at the end
    won = 1 in over["winners"]
    assert page.inner_text("[data-testid=result] h2") == ("南家 胜利" if won else "南家 失败")
    ended = page.wait_for_selector("[data-testid=spectating][data-ended=following]")
    assert "等待南家的下一桌" in (ended.inner_text() or "")
    note = "[data-testid=watch-ended]"  # never cut on a phone
    assert page.eval_on_selector(note, "e => e.scrollWidth <= e.clientWidth + 1")
    assert page.eval_on_selector(note, "e => e.getBoundingClientRect().right <= innerWidth")
    page.wait_for_timeout(300)
    screenshot(page, SHOTS, f"spectator-hand-over-{size}")
    page.click("[data-testid=result-close]")
    # 南家's next table
    following = DdzHand(seed=9, table=8)
    following.play_until(1)
    stub.send(following.snapshot(None))
    page.wait_for_function("() => window.qipai.app.table && window.qipai.app.table.number === 8")
    page.wait_for_selector("[data-testid=table][data-spectating='1']")
    assert page.get_attribute("[data-testid=spectating]", "data-ended") == ""
    # he leaves after that hand: the watch is over, said so
    following.play_until(999)
    stub.send(*following.events(None), following.hand_over())
    stub.send({"type": "spectate_ended", "table": 8, "reason": "following"})
    stub.send({"type": "spectate_ended", "table": 8, "reason": "player_left"})
    page.wait_for_selector("[data-testid=spectating][data-ended=player_left]")
    noted(page, "南家已离开")
    assert page.inner_text("[data-testid=stop-spectating]") == "返回大厅"
    page.click("[data-testid=result-close]")
    screenshot(page, SHOTS, f"spectator-player-left-{size}")
    page.click("[data-testid=stop-spectating]")
    page.wait_for_selector("[data-testid=lobby]")
    kinds = page.evaluate("() => window.qipai.app.socket.outbox.map(m => m.type)")
    assert "stop_spectating" not in kinds


def test_a_cash_tables_players_see_how_many_watch(hall: Any, new_page: Any) -> None:
    hand = DdzHand(seed=5)
    hand.play_until(3)
    page = new_page()
    stub = StubHall(page, "东家")
    signed_up(page, hall.url, "player-w")
    stub.send(hand.snapshot(0))
    page.wait_for_selector("[data-testid=table][data-spectating='0']", timeout=WAIT_MS)
    assert page.locator("[data-testid=table-watchers]").count() == 0
    stub.send({"type": "spectator_count", "table": 7, "count": 2})
    pill = page.wait_for_selector("[data-testid=table-watchers][data-count='2']")
    assert "观战 2" in (pill.inner_text() or "")
    screenshot(page, SHOTS, "cash-table-watchers")
    stub.send({"type": "spectator_count", "table": 7, "count": 0})
    page.wait_for_selector("[data-testid=table-watchers]", state="detached")
