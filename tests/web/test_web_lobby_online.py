"""The lobby's online counts from GET /api/rooms/online (issue 26): the hall's people and
bots (在线 N 人 · 机器人 M) and each room's, in both languages; an older hall's answer
(room id → players) still shows the people, without bots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stub_hall import stub_json
from web_kit import screenshot, sign_up

SHOTS = Path("/work/notes/shots")


def test_the_hall_and_each_room_show_people_and_bots(hall: Any, new_page: Any) -> None:
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    online = {"people": 5, "bots": 3, "rooms": {"doudizhu-yifa": {"people": 2, "bots": 1}}}
    stub_json(page, "**/api/rooms/online", online)
    sign_up(page, hall.url, "counts-a")
    total = page.wait_for_selector("[data-testid=online-total][data-people='5']")
    assert total.inner_text() == "在线 5 人 · 机器人 3"
    assert total.get_attribute("data-bots") == "3"
    card = "[data-testid=room][data-room='doudizhu-yifa'] [data-testid=online]"
    assert page.inner_text(card) == "在线 2 人 · 机器人 1"
    assert page.get_attribute(card, "data-count") == "2"
    assert page.get_attribute(card, "data-bots") == "1"
    other = "[data-testid=room][data-room='zhajinhua-yifa'] [data-testid=online]"
    assert page.get_attribute(other, "data-count") == ""  # not known: nothing said
    screenshot(page, SHOTS, "lobby-online-phone")
    page.click("[data-testid=lang]")
    page.wait_for_selector("[data-testid=online-total]:has-text('5 online · 3 bots')")
    assert "Private table" in page.inner_text("[data-testid=friends]")
    page.click("[data-testid=lang]")


def test_an_older_halls_counts_read_as_people(hall: Any, new_page: Any) -> None:
    page = new_page()
    stub_json(page, "**/api/rooms/online", {"doudizhu-yifa": 4, "zhajinhua-yifa": 1})
    sign_up(page, hall.url, "counts-b")
    page.wait_for_selector("[data-testid=online-total][data-people='5']")
    assert page.inner_text("[data-testid=online-total]") == "在线 5 人"  # bots unknown
    card = "[data-testid=room][data-room='doudizhu-yifa'] [data-testid=online]"
    assert page.get_attribute(card, "data-count") == "4"
    assert page.get_attribute(card, "data-bots") == ""
    assert page.inner_text(card) == "在线 4 人"
    screenshot(page, SHOTS, "lobby-online-desktop")
