"""The lobby's 福利 panel in Chromium (desktop and phone): a broke player takes relief and
plays again, checks in, and claims the task his hand completed.  Screenshots go to
``$QIPAI_SCREENSHOTS`` when set (``docs/web.md``, "福利")."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_kit import (
    RunningHall,
    hall_with,
    join,
    me,
    screenshot,
    sign_up,
    trustee_to_result,
    wait_coins,
)

from qipai.hall.economy.settings import EconomySettings, TaskSpec
from qipai.hall.rooms import default_rooms

ROOM = dataclasses.replace(
    {room.id: room for room in default_rooms()}["doudizhu-yifa"],
    id="eco-web", min_coins=10_500, bot_wait=0.2,
)  # fmt: skip
"""The one room: a new player's 10,000 coins are too few for it."""
ECONOMY = EconomySettings(
    relief_coins=1000, relief_min_account_hours=0, tasks_per_day=2,
    tasks=(TaskSpec("play_1", "玩1局", "Play a hand", 1, 100),
           TaskSpec("win_9", "赢9局", "Win 9 hands", 9, 900, count="won")),
)  # fmt: skip


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A hall whose only room needs 10,500 coins."""
    with hall_with(tmp_path_factory.mktemp("economy"), rooms=(ROOM,), economy=ECONOMY) as running:
        yield running


def _panel_loaded(page: Any) -> None:
    page.wait_for_selector("[data-testid=welfare] [data-testid=checkin]")


def test_a_broke_player_takes_relief_plays_and_claims_his_task(
    hall: RunningHall, new_page: Callable[..., Any], tmp_path: Path
) -> None:
    page = new_page()
    sign_up(page, hall.url, "穷小子")
    _panel_loaded(page)
    assert page.locator(f"[data-room='{ROOM.id}'] [data-testid=join]").is_disabled()
    assert page.locator("[data-testid=welfare]").get_attribute("data-broke") == "1"
    screenshot(page, tmp_path, "economy-desktop-broke")
    page.click("[data-testid=relief]")
    wait_coins(page, 11_000)
    page.wait_for_selector("[data-testid=relief-info]")  # no longer broke: no button
    assert page.locator("[data-testid=relief]").count() == 0
    join(page, ROOM.id)
    trustee_to_result(page)
    page.click("[data-testid=action-lobby]")
    page.wait_for_selector("[data-testid=daily-task][data-task=play_1][data-progress='1']")
    coins = me(page)["coins"]
    claim = page.locator("[data-testid=task-claim][data-task=play_1]")
    assert claim.is_enabled()
    assert page.locator("[data-testid=task-claim][data-task=win_9]").is_disabled()
    claim.click()
    page.wait_for_selector("[data-testid=daily-task][data-task=play_1][data-claimed='1']")
    page.click("[data-testid=checkin]")
    page.wait_for_selector("[data-testid=checkin][data-checked='1']")
    assert page.locator("[data-testid=streak]").get_attribute("data-streak") == "1"
    assert me(page)["coins"] == coins + 100 + 300
    screenshot(page, tmp_path, "economy-desktop-claimed")


def test_check_in_and_relief_on_a_phone(
    hall: RunningHall, new_page: Callable[..., Any], tmp_path: Path
) -> None:
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    sign_up(page, hall.url, "phone")
    _panel_loaded(page)
    page.locator("[data-testid=welfare]").scroll_into_view_if_needed()
    screenshot(page, tmp_path, "economy-phone-broke")
    page.click("[data-testid=checkin]")
    page.wait_for_selector("[data-testid=checkin][data-checked='1']")
    page.wait_for_selector("[data-testid=relief]")  # 10,300 coins: still broke
    page.click("[data-testid=relief]")
    wait_coins(page, 11_300)
    page.locator("[data-testid=welfare]").scroll_into_view_if_needed()
    screenshot(page, tmp_path, "economy-phone-after")
    assert page.locator(f"[data-room='{ROOM.id}'] [data-testid=join]").is_enabled()
