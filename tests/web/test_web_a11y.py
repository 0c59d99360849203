"""Accessibility: axe-core (the engine of the browsers' accessibility tools) finds no
serious or critical violation on the pages and dialogs a player meets, on a desktop and a
phone; a Dou Dizhu hand can be played with the keyboard alone; every card has a name."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from web_kit import REPLAY, join, next_decision, sign_up, trustee_to_result

SEVERE = ("serious", "critical")


def _severe(page: Any) -> list[str]:
    """The serious and critical violations axe finds on ``page`` now, with their places."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {[node['target'] for node in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in SEVERE
    ]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_pages_a_player_meets_pass_axe(hall: Any, new_page: Any, size: tuple[int, int]) -> None:
    page = new_page(width=size[0], height=size[1])
    page.goto(hall.url)
    page.wait_for_selector("[data-testid=guest]")
    assert _severe(page) == [], "sign-in"
    sign_up(page, hall.url, f"axe_{size[0]}")
    page.wait_for_selector("[data-testid=room]")
    assert _severe(page) == [], "lobby"
    page.click("[data-testid=room][data-room='doudizhu-caishen'] [data-testid=room-rules]")
    page.wait_for_selector("[data-testid=rules]")
    assert _severe(page) == [], "rules"
    page.click("[data-testid=rules] [data-testid=rules-close]")
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    assert _severe(page) == [], "table"
    trustee_to_result(page)
    assert _severe(page) == [], "result"
    page.click("[data-testid=result] [data-testid=action-replay]")
    page.wait_for_selector(f"{REPLAY} [data-testid=table]")
    assert _severe(page) == [], "replay"


@pytest.mark.parametrize("room", ["zhajinhua-yifa", "showhand-yifa"])
def test_the_poker_tables_pass_axe(hall: Any, new_page: Any, room: str) -> None:
    page = new_page()
    sign_up(page, hall.url, f"axe_{room[:3]}")
    join(page, room)
    next_decision(page, None)
    assert _severe(page) == []


def test_a_hand_is_played_with_the_keyboard(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "axe_keys")
    join(page, "doudizhu-yifa")
    decision = next_decision(page, None)
    first = page.locator("[data-testid=hand] [data-card]").first
    name = first.get_attribute("aria-label") or ""
    assert name and name != first.get_attribute("data-card")  # "黑桃3", not "3s"
    first.focus()
    page.keyboard.press("Space")
    assert first.get_attribute("aria-checked") == "true"
    page.keyboard.press("Enter")
    assert first.get_attribute("aria-checked") == "false"
    # the action buttons are reached with Tab and pressed with Enter
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.closest('[data-testid=actions]') !== null"):
            break
    else:
        pytest.fail("Tab never reached the action buttons")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(before) => document.querySelector('[data-testid=table]').dataset.decision !== before",
        arg=decision["decision"],
    )
