"""Everybody looks different (issue 27: letter discs, every bot 机 with 99,997 coins): a
player's avatar is drawn from his name, bots have nicknames (the same in every language)
and coins of their own that cover the room's stakes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_kit import join, next_decision, screenshot, sign_up, trustee_to_result

from qipai.hall.rooms import default_rooms
from qipai.hall.table.botseats import BOT_NAMES, HIGH_FACTOR, HIGH_FLOOR, LOW_FACTOR, LOW_FLOOR

Page = Any
ROOMS = {room.id: room for room in default_rooms()}


def _seats(page: Page) -> list[dict[str, str]]:
    """Every seat's name and avatar, the player's own included."""
    seats: list[dict[str, str]] = page.eval_on_selector_all(
        "[data-testid=table] [data-testid=seat]",
        """els => els.map(e => ({seat: e.dataset.seat, name: e.querySelector('.nm').textContent,
                                 avatar: e.querySelector('[data-testid=avatar]').dataset.avatar,
                                 drawn: e.querySelectorAll('[data-testid=avatar] svg').length}))""",
    )
    return sorted(seats, key=lambda seat: seat["seat"])


def test_bots_have_nicknames_and_everyone_an_avatar_in_every_language(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    sign_up(page, hall.url, "faces")
    assert page.locator("[data-testid=profile] [data-testid=avatar] svg").count() == 1
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    seats = _seats(page)
    names = [seat["name"] for seat in seats]
    bots = [name for name in names if name != "faces"]
    assert len(bots) == 2 and all(name in BOT_NAMES for name in bots), names
    assert all(seat["drawn"] == 1 for seat in seats)
    assert len({seat["avatar"] for seat in seats}) == 3  # three names, three faces
    screenshot(page, tmp_path, "table-avatars")
    page.click("[data-testid=lang]")  # English: the same names, the same faces
    page.wait_for_selector("[data-testid=lang]:text-is('中文')")
    assert _seats(page) == seats
    page.click("[data-testid=lang]")
    page.reload()  # a name always draws the same face
    page.wait_for_selector("[data-testid=table] [data-testid=seat] [data-testid=avatar]")
    assert _seats(page) == seats


def test_bots_bring_coins_of_their_own_that_cover_the_stakes(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "bot_coins")
    join(page, "zhajinhua-yifa")
    next_decision(page, None)
    trustee_to_result(page)
    over = page.evaluate("() => window.qipai.app.table.state.over")
    players = page.evaluate("() => window.qipai.app.table.state.players")
    bots = [seat for seat, player in enumerate(players) if player["bot"]]
    brought = [over["coins"][seat] - over["result"][seat] for seat in bots]
    min_coins = ROOMS["zhajinhua-yifa"].min_coins
    low = max(LOW_FACTOR * min_coins, LOW_FLOOR)
    high = max(HIGH_FACTOR * min_coins, HIGH_FLOOR)
    assert len(bots) >= 2 and all(low <= coins <= high for coins in brought), brought
    assert len(set(brought)) == len(brought)  # each its own (every bot had 100,000)
    shown = page.eval_on_selector_all(
        "[data-testid=seat-coins]", "els => els.map(e => Number(e.dataset.coins))"
    )
    assert all(over["coins"][seat] in shown for seat in bots)
