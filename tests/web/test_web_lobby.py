"""The lobby in the browser: sign up, sign out and in, guests, the rooms with their numbers,
the player's coins / title / wins, the language switch, history and leaderboards, and how
fast the page is ready."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_kit import PASSWORD, WAIT_MS, RunningHall, box, hall_with, join, me, screenshot, sign_up

from qipai.hall.rooms import default_rooms


def test_sign_up_out_and_in_and_the_lobby(hall: Any, new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    sign_up(page, hall.url, "大厅玩家")
    rooms = page.eval_on_selector_all(
        "[data-testid=room]",
        "els => els.map(e => [e.dataset.room, e.dataset.game, e.dataset.rules])",
    )
    shipped = {(room.id, room.game, room.rules) for room in default_rooms()}
    assert shipped <= {tuple(room) for room in rooms}
    assert page.locator("[data-testid=room] [data-testid=join]").count() == len(rooms)
    # the numbers of a room: Zha Jin Hua's top bet and cap
    zjh = page.locator("[data-testid=room][data-room=zhajinhua-yifa]").inner_text()
    assert "顶注" in zjh and "10" in zjh and "200" in zjh
    profile = me(page)
    assert page.inner_text("[data-testid=me-coins]").strip() == str(profile["coins"]) == "10000"
    assert page.inner_text("[data-testid=me-title]") == profile["level"]["title"] == "新手"
    assert page.inner_text("[data-testid=me-wins]") == "0"
    screenshot(page, tmp_path, "lobby")
    # English, then back to Chinese (kept across a reload)
    page.click("[data-testid=lang]")
    assert page.inner_text("[data-testid=me-title]") == "Newcomer"
    page.reload()
    page.wait_for_selector("[data-testid=room]")
    assert "Join" in page.inner_text("[data-testid=room] [data-testid=join] >> nth=0")
    page.click("[data-testid=lang]")
    assert "加入" in page.inner_text("[data-testid=room] [data-testid=join] >> nth=0")
    # sign out, a wrong password, then in again
    page.click("[data-testid=sign-out]")
    page.fill("[data-testid=username]", "大厅玩家")
    page.fill("[data-testid=password]", "wrong-password")
    page.click("[data-testid=sign-in]")
    page.wait_for_selector("[data-testid=auth-error]:has-text('密码错误')")
    page.fill("[data-testid=password]", PASSWORD)
    page.click("[data-testid=sign-in]")
    page.wait_for_selector("[data-testid=room]")
    assert page.inner_text("[data-testid=me-name]") == "大厅玩家"


@pytest.fixture(scope="module")
def own_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A hall of this file's own: its leaderboards (50 rows) hold only the players this
    file made.  In the run's shared hall a guest who lost his hand (points below 0) came
    after every other test's player (0 points and up), past the 50th row once there were
    enough of them."""
    with hall_with(tmp_path_factory.mktemp("lobby")) as running:
        yield running


def test_a_guest_plays_and_finds_the_hand_in_history_and_leaderboards(
    own_hall: RunningHall, new_page: Any, tmp_path: Path
) -> None:
    hall = own_hall
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)  # a phone
    page.goto(hall.url)
    page.click("[data-testid=guest]")
    page.wait_for_selector("[data-testid=room]")
    name = page.text_content("[data-testid=me-name]") or ""
    assert name.startswith("游客")
    # the whole header fits the phone's width: every tab and button without scrolling
    for hook in ("nav-lobby", "nav-history", "nav-leaders", "lang", "sign-out"):
        where = box(page, f"[data-testid={hook}]")
        assert where is not None and where["x"] >= 0 and where["x"] + where["width"] <= 390, hook
        assert where["height"] <= 40, hook  # one line
    screenshot(page, tmp_path, "lobby-phone")
    join(page, "doudizhu-yifa")
    page.wait_for_selector("[data-testid=hand] [data-testid=card]")
    screenshot(page, tmp_path, "table-doudizhu-phone")
    page.click("[data-testid=action-trustee]")  # the system plays the hand for me
    page.wait_for_selector("[data-testid=result]")
    hand_id = page.get_attribute("[data-testid=table]", "data-hand")
    page.click("[data-testid=action-lobby]")
    page.click("[data-testid=nav-history]")
    row = page.locator(f"[data-testid=history-row][data-hand='{hand_id}']")
    row.wait_for()
    row.locator("[data-testid=open-replay]").click()
    replay = f"[data-testid=replay][data-hand='{hand_id}']"
    page.wait_for_selector(f"{replay} [data-testid=replay-verified][data-ok='1']")
    page.click("[data-testid=nav-leaders]")
    page.click("[data-testid=board-wins]")
    page.wait_for_selector("[data-testid=leaders][data-board=wins][data-loaded='1']")
    page.click("[data-testid=board-points]")
    page.wait_for_selector("[data-testid=leaders][data-board=points][data-loaded='1']")
    names = page.eval_on_selector_all(
        "[data-testid=leader-row] td:nth-child(2)", "els => els.map(e => e.textContent)"
    )
    assert name in names  # every player who played has a points row


def _ready_ms(page: Any, url: str) -> float:
    page.goto(url)
    page.wait_for_function("() => window.qipai && window.qipai.readyAt !== null")
    value: float = page.evaluate("() => window.qipai.readyAt")
    return value


def test_the_page_gets_ready(hall: Any, new_page: Any) -> None:
    """The page marks when it is drawn (``window.qipai.readyAt``, from navigation start),
    signed out and in; the test prints the figures, ``benchmarks/pace.py browser`` collects
    them (a test asserts no time)."""
    page = new_page()
    guest = [_ready_ms(page, hall.url) for _ in range(3)]  # the sign-in page
    sign_up(page, hall.url, "load_timer")
    lobby = [_ready_ms(page, hall.url) for _ in range(5)]  # signed in: profile and rooms
    assert page.locator("[data-testid=room]").count() > 0  # the lobby it timed is drawn
    assert all(value > 0 for value in guest + lobby)
    print("\n" + " ".join(f"page_ready_guest_ms={value:.1f}" for value in guest))
    print(" ".join(f"page_ready_lobby_ms={value:.1f}" for value in lobby))


def test_a_leaderboard_left_before_it_loads_breaks_nothing(
    own_hall: RunningHall, new_page: Any
) -> None:
    """The board's answer comes after the player has gone to the lobby: it is put into the
    board it was asked for, not looked for in the lobby (a page error, once, in a full run:
    ``Cannot read properties of null``; ``new_page`` fails on any)."""
    page = new_page()
    sign_up(page, own_hall.url, "board_left")
    held: list[Any] = []
    # a Python function: Playwright takes no builtin (list.append) as a handler
    page.route("**/api/leaderboard*", lambda route: held.append(route))  # noqa: PLW0108
    page.click("[data-testid=nav-leaders]")
    board = page.wait_for_selector("[data-testid=leaders]")
    for _ in range(WAIT_MS // 20):  # until the request has reached the route
        if held:
            break
        page.wait_for_timeout(20)
    assert len(held) == 1
    page.click("[data-testid=nav-lobby]")
    page.wait_for_selector("[data-testid=room]")
    held[0].continue_()
    page.wait_for_function("(board) => board.dataset.loaded === '1'", arg=board)  # taken in
    assert page.locator("[data-testid=leaders]").count() == 0
