"""Fixtures of the browser tests: one hall for the whole run, one Chromium per module, a fresh
browser context (its own localStorage: its own player) per page."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from web_kit import (
    CHROMIUM,
    HUANLE_HUMANS_ROOM,
    HUMANS_ROOM,
    NO_COUNTER_ROOM,
    NOTES_LOG,
    WEB_MATCHES,
    RunningHall,
    fast_config,
    record_frames,
    running_hall,
)

from qipai.hall.match.config import load_matches
from qipai.hall.rooms import default_rooms


def _rooms() -> tuple[Any, ...]:
    rooms = {room.id: room for room in default_rooms()}
    zhengtu = rooms["doudizhu-zhengtu"]
    humans = dataclasses.replace(zhengtu, id=HUMANS_ROOM, name="三人场", bots=False)
    huanle = dataclasses.replace(
        rooms["doudizhu-huanle"], id=HUANLE_HUMANS_ROOM, name="欢乐三人场", bots=False
    )
    bare = dataclasses.replace(rooms["doudizhu-yifa"], id=NO_COUNTER_ROOM, card_counter=False)
    return (humans, huanle, bare)


@pytest.fixture(scope="session")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A real hall (SQLite) on a loopback port: bots act at once, seated after 0.2 s; a hand
    waits up to 2 s for the players' entropy (dealt as soon as every page's has come), so
    that a busy browser's contribution is not late."""
    url = f"sqlite:///{tmp_path_factory.mktemp('web') / 'hall.db'}"
    config = fast_config(url, entropy_window=2.0)
    # a table that plays on (zhengtu) waits 30 s before its next hand: a test's result panel
    # stays until the test is over
    config = dataclasses.replace(
        config,
        rooms=(*config.rooms, *_rooms()),
        hand_pause=30.0,
        matches=load_matches(WEB_MATCHES),  # the matches of test_web_matches.py
    )
    with running_hall(config) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for one test module.  Not for the whole run: Playwright's sync API
    runs an event loop on the main thread while it is open, and a worker of a parallel run
    (pytest-xdist) runs other modules after a browser's, whose ``asyncio.run`` would find
    that loop running.  Without Chromium (or Playwright) the browser tests fail, never
    skip: `./test` installs both."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (./test installs it)")
    from playwright import sync_api  # noqa: PLC0415  (the test extra: only these tests)

    with sync_api.sync_playwright() as playwright:
        more = os.environ.get("QIPAI_CHROMIUM_ARGS", "").split()  # to measure a flag's cost
        args = ["--no-sandbox", *more]
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """Open pages, each in its own context (a separate player); closed after the test.
    Page errors (uncaught exceptions in the client) fail the test.  A page asks for less
    motion (``prefers-reduced-motion: reduce``: no card flies, no burst; the client's own
    setting, css/app.css and js/fx.js) unless its test is marked ``motion`` (the tests of
    the animations): a seventh less CPU for Chromium, and no card in flight under a click."""
    motion = "no-preference" if request.node.get_closest_marker("motion") else "reduce"
    contexts = []
    errors: list[str] = []

    def open_page(width: int = 1280, height: int = 800, **options: Any) -> Any:
        options.setdefault("reduced_motion", motion)
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.add_init_script(NOTES_LOG)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("websocket", lambda socket: record_frames(page, socket))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], f"errors in the page: {errors}"
