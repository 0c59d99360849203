"""Leaving a table in the browser: 逃跑 from Zha Jin Hua and Showhand (a fold, the coins
lost, out of the room after the hand), 离开 during a hand (out once it is over), a hand the
hall cancels (作废), and the table in English."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from web_kit import at_my_turn, button, me, noted, screenshot, table_data

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("room", ["zhajinhua-yifa", "showhand-yifa"])
def test_escape_folds_and_leaves_the_room_after_the_hand(
    hall: Any, new_page: Any, room: str
) -> None:
    page = at_my_turn(new_page(), hall.url, f"esc_{room[:2]}", room)
    seat = table_data(page)["seat"]
    button(page, "escape").click()
    page.click("[data-testid=confirm-dialog] [data-testid=confirm]")
    page.wait_for_selector("[data-testid=result]")  # the others play the hand out
    row = f"[data-testid=result] [data-testid=result-row][data-seat='{seat}']"
    lost = int(page.inner_text(f"{row} [data-testid=result-coins]"))
    assert lost < 0  # the ante at least
    assert me(page)["coins"] == 10_000 + lost
    # out of the room: the hall says so ("left"), the page is not queued
    page.wait_for_function("() => (window.qipai.app.frameCounts.left || 0) >= 1")
    assert page.evaluate("() => window.qipai.app.queued") is None
    page.click("[data-testid=action-lobby]")
    page.wait_for_selector("[data-testid=lobby]")
    assert page.locator("[data-testid=queued]").count() == 0


def test_leave_during_a_hand_takes_effect_when_it_ends(hall: Any, new_page: Any) -> None:
    page = at_my_turn(new_page(), hall.url, "leave_later", "doudizhu-yifa")
    button(page, "leave").click()  # during the hand: out once it is over
    page.wait_for_function("() => window.qipai.app.leaving === true")
    assert page.locator("[data-testid=result]").count() == 0  # the hand goes on
    button(page, "trustee").click()
    page.wait_for_selector("[data-testid=result]")
    page.wait_for_function("() => (window.qipai.app.frameCounts.left || 0) >= 1")  # out


def test_a_cancelled_hand_says_so_and_moves_no_coin(hall: Any, new_page: Any) -> None:
    page = at_my_turn(new_page(), hall.url, "voided_hand", "doudizhu-yifa")
    hand = table_data(page)["hand"]
    # what the hall sends when it cancels a hand (its own failure, or a stop): fed to the page
    page.evaluate("(hand) => window.qipai.onFrames([{type: 'hand_voided', hand}])", hand)
    page.wait_for_selector("[data-testid=result]:has-text('牌局取消')")
    assert "输赢结果无效" in page.inner_text("[data-testid=result]")
    assert table_data(page)["legal"] == "[]"  # nothing left to do at that table
    assert me(page)["coins"] == 10_000
    page.click("[data-testid=result] [data-testid=action-lobby]")
    page.wait_for_selector("[data-testid=lobby]")


def test_a_hand_voided_by_a_restart_is_explained(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    """Back after the hall restarted, a player is told why his hand is gone: at his table
    (the page kept it) the panel says the server restarted; for a table the page does not
    know, a note says it."""
    page = at_my_turn(new_page(), hall.url, "voided_restart", "doudizhu-yifa")
    hand = table_data(page)["hand"]
    table = "window.qipai.app.table.number"
    frame = f"{{type: 'hand_voided', hand: h, table: {table}, reason: 'restart'}}"
    page.evaluate(f"(h) => window.qipai.onFrames([{frame}])", hand)
    page.wait_for_selector("[data-testid=result] [data-testid=voided-reason]")
    assert "服务器重新启动" in page.inner_text("[data-testid=result]")
    screenshot(page, tmp_path, "voided-by-a-restart")
    page.click("[data-testid=result] [data-testid=action-lobby]")
    page.wait_for_selector("[data-testid=lobby]")
    unknown = "[{type: 'hand_voided', hand: 'gone', table: 987654, reason: 'restart'}]"
    page.evaluate(f"() => window.qipai.onFrames({unknown})")
    noted(page, "服务器重新启动")
    assert page.locator("[data-testid=lobby]").count() == 1  # no table opened for it


def test_the_table_in_english(hall: Any, new_page: Any) -> None:
    page = at_my_turn(new_page(), hall.url, "english_table", "zhajinhua-yifa")
    page.click("[data-testid=lang]")
    bar = page.inner_text("[data-testid=actions]")
    tools = " ".join(
        page.eval_on_selector_all(
            ".toolbar button", "els => els.filter(e => e.offsetParent).map(e => e.textContent)"
        )
    )
    assert "Fold" in bar and not CJK.search(bar), bar
    assert "Auto-play" in tools and "Escape" in tools and not CJK.search(tools), tools
    assert "pot" in page.inner_text("[data-testid=pot]")
    page.click("[data-testid=lang]")
    assert "弃牌" in page.inner_text("[data-testid=actions]")
