"""The new parts of the table on a desktop, a phone held upright and a phone turned
sideways: the 记牌器, the sound switch, the quick-chat panel, the toolbar's tools and the
result in full (every seat's cards, the multiplier broken down) each inside the screen,
with a screenshot of each (kept with ``QIPAI_SCREENSHOTS=DIR``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_kit import button, join, next_decision, screenshot, sign_up

SIZES = {"desktop": (1280, 800), "portrait": (390, 844), "landscape": (844, 390)}

_COVERS = """(selector) => {
  const r = (e) => e.getBoundingClientRect();
  const strip = r(document.querySelector('[data-testid=card-counter]'));
  return [...document.querySelectorAll(selector)].map(r).filter((b) => b.width > 0
    && b.left < strip.right && strip.left < b.right && b.top < strip.bottom
    && strip.top < b.bottom).length;
}"""
"""How many of ``selector``'s elements the 记牌器 covers."""


def _outside(page: Any, selector: str, width: int, height: int) -> list[str]:
    """The elements of ``selector`` shown but not wholly inside the screen."""
    found: list[str] = page.eval_on_selector_all(
        selector,
        f"""els => els.filter(e => {{
              const r = e.getBoundingClientRect();
              return r.width > 0 && (r.left < -0.5 || r.top < -0.5 || r.right > {width} + 0.5
                                     || r.bottom > {height} + 0.5);
            }}).map(e => e.dataset.testid || e.className)""",
    )
    return found


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_new_parts_of_the_table_fit_every_screen(
    hall: Any, new_page: Any, tmp_path: Path, size: str
) -> None:
    width, height = SIZES[size]
    mobile = {"is_mobile": True, "has_touch": True} if size != "desktop" else {}
    page = new_page(width=width, height=height, **mobile)
    sign_up(page, hall.url, f"screens_{size}")
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    page.wait_for_selector("[data-testid=card-counter]")
    for part in ("[data-testid=card-counter]", "[data-testid=sound-toggle]", ".toolbar > button"):
        assert _outside(page, part, width, height) == [], part
    heights = page.eval_on_selector_all("#top .btn", "els => els.map(e => e.offsetHeight)")
    assert max(heights) < 2 * min(heights)  # no header button wraps its words
    assert page.evaluate(_COVERS, "[data-testid=table] .arena .center > *") == 0
    assert page.evaluate(_COVERS, "[data-testid=table] .arena [data-testid=seat] > *") == 0
    screenshot(page, tmp_path, f"counter-{size}")
    page.click("[data-testid=chat]")
    page.wait_for_selector("[data-testid=chat-panel]")
    assert _outside(page, "[data-testid=chat-panel]", width, height) == []
    screenshot(page, tmp_path, f"chat-{size}")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=chat-panel]", state="detached")
    button(page, "trustee").click()
    page.wait_for_selector("[data-testid=result] [data-testid=multiplier-breakdown]")
    page.wait_for_selector("[data-testid=fx]", state="detached")  # the result's flourish is over
    assert page.locator("[data-testid=result] [data-testid=leftover]").count() == 3
    assert _outside(page, "[data-testid=result] .buttons button", width, height) == []
    screenshot(page, tmp_path, f"result-{size}")
