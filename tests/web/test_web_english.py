"""The client in English names the hall's guests and rooms in English too (their names are
Chinese on the server); a player's own name is his, and a bot's nickname is the same in
every language."""

from __future__ import annotations

import re
from typing import Any

from web_kit import join, next_decision

from qipai.hall.botseats import BOT_NAMES

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_guests_and_rooms_are_named_in_english(hall: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(hall.url)
    page.click("[data-testid=lang]")  # English
    page.click("[data-testid=guest]")
    page.wait_for_selector("[data-testid=room]")
    me = page.text_content("[data-testid=me-name]") or ""
    assert me.startswith("Guest ") and not CJK.search(me)
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    seats = page.eval_on_selector_all(
        "[data-testid=table] .arena [data-testid=seat] .nm", "els => els.map(e => e.textContent)"
    )
    assert seats and all(name in BOT_NAMES for name in seats), seats
    title = page.text_content("[data-testid=table] .toolbar .info b") or ""
    assert title and not CJK.search(title), title
    page.click("[data-testid=lang]")  # back to Chinese: the hall's own names
    page.wait_for_selector("[data-testid=me-name]:text-matches('^游客')")
    again = page.eval_on_selector_all(
        "[data-testid=table] .arena [data-testid=seat] .nm", "els => els.map(e => e.textContent)"
    )
    assert again == seats  # a bot's nickname is the same in Chinese
