"""A game no file of the client knows, played in the browser: 比大小 of
``tests/server/test_toy_game.py``, registered for this test, with its browser module
(``tests/web/toy/highcard.js``) served to the page as ``/js/games/highcard.js``.

The page finds it as it finds every game: the room's ``web_module`` in ``GET /api/rooms``
and the game registry (``js/games/index.js``), which loads ``js/games/<web_module>.js``.
The module is served by Chromium's request routing (Playwright's ``page.route``) rather
than by the hall: nothing in the hall or the package changes for a test (docs/web.md, "A
game's browser module").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import test_toy_game as toy  # tests/server, on the path through web_kit
from web_kit import (
    REPLAY,
    WAIT_MS,
    RunningHall,
    button,
    fast_config,
    join,
    open_replay,
    play_to_result,
    running_hall,
    sign_up,
)

from qipai.hall.rooms import load_rooms
from qipai.registry import register, unregister

MODULE = Path(__file__).resolve().parent / "toy" / "highcard.js"


@pytest.fixture
def toy_hall(tmp_path: Path) -> Iterator[RunningHall]:
    """A hall with the toy's room (two bots join the player after 0.3 s), the toy game
    registered while it runs."""
    register(toy.HighCard())
    try:
        [room] = load_rooms(toy.ROOM)
        config = fast_config(f"sqlite:///{tmp_path / 'toy.db'}", entropy_window=2.0)
        with running_hall(dataclasses.replace(config, rooms=(*config.rooms, room))) as hall:
            yield hall
    finally:
        unregister(toy.HighCard.name)


def _served(page: Any) -> Any:
    """``page`` with the toy's module at /js/games/highcard.js."""
    body = MODULE.read_text(encoding="utf-8")
    page.route(
        "**/js/games/highcard.js",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=body),
    )
    return page


def test_a_game_known_only_to_a_test_plays_in_the_browser(
    toy_hall: RunningHall, new_page: Callable[..., Any]
) -> None:
    page = _served(new_page())
    sign_up(page, toy_hall.url, "toy_player")
    card = page.locator("[data-testid=room][data-room='highcard-1']")
    assert card.get_attribute("data-game") == "highcard"
    assert "比大小" in card.inner_text()  # the module's own strings, merged at registration
    join(page, "highcard-1")

    def stay(page: Any, legal: list[str]) -> None:
        assert legal == ["stay", "fold"]
        button(page, "stay").click()

    assert play_to_result(page, stay) == 1  # one decision: the hand is played through the page
    rows = page.locator("[data-testid=result] [data-testid=result-row]")
    assert rows.count() == 3
    coins = page.eval_on_selector_all(
        "[data-testid=result] [data-testid=result-coins]", "els => els.map(e => e.textContent)"
    )
    assert sorted(coins) == ["+2", "-1", "-1"]
    shown = page.eval_on_selector_all(
        "[data-testid=result] [data-testid=leftover]", "els => els.map(e => e.dataset.cards)"
    )
    assert len(shown) == 3 and all(card in "123456789" for card in shown)
    assert page.get_attribute("[data-testid=result] [data-testid=fairness]", "data-ok") == "1"
    # the replay: the table page draws its steps; the module names each action
    open_replay(page)
    log = page.locator(f"{REPLAY} .replay-log li")
    log.first.wait_for(timeout=WAIT_MS)
    assert log.count() == 3
    assert all(text.endswith(("跟", "弃")) for text in log.all_inner_texts())
    assert page.get_attribute(f"{REPLAY} [data-testid=replay-verified]", "data-ok") == "1"
