"""Three players in the browser through a huanle auction: the caller robs back (three
robs, ×8) and 加倍 is chosen by everyone at once, each choice secret until all are made;
the toolbar's 倍数 as it stands from the deal on (×1, each rob ×2, a 明牌 during the deal
×3 to ×5)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_kit import (
    HUANLE_HUMANS_ROOM,
    WAIT_MS,
    RunningHall,
    button,
    decision_now,
    hall_with,
    join,
    next_decision,
    screenshot,
    sign_up,
    table_data,
)

Page = Any


def _seat_tags(page: Page, seat: int) -> list[str]:
    """The tags a page shows on ``seat``'s box (地主, 明牌, 加倍, 托管…)."""
    where = f"[data-testid=seat][data-seat='{seat}'] .tag"
    tags: list[str] = page.eval_on_selector_all(where, "els => els.map(e => e.textContent)")
    return tags


def _auction(pages: list[Page]) -> list[str]:
    """Call where offered, rob where offered, until 加倍; the actions taken, in order."""
    said: list[str] = []
    last: dict[int, str | None] = dict.fromkeys(range(len(pages)))
    give_up = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < give_up:
        for i, page in enumerate(pages):
            decision = decision_now(page, last[i])
            if decision is None or decision["kind"] != "turn":
                continue
            legal = decision["legal"]
            if "double" in legal:
                return said
            robs = said.count("rob")  # the hand's multiplier as it stands: ×2 per rob
            page.wait_for_selector(f"[data-testid=multiplier][data-value='{2**robs}']")
            last[i] = decision["decision"]
            action = next(a for a in ("call", "rob") if a in legal)
            button(page, action).click()
            said.append(action)
    raise AssertionError(f"no 加倍 after {said}")


def _everyone_may_double(pages: list[Page]) -> None:
    for page in pages:
        page.wait_for_selector("[data-testid=action-double]", timeout=WAIT_MS)
        page.wait_for_selector("[data-testid=action-no-double]", timeout=WAIT_MS)


def test_three_robs_then_everyone_doubles_at_once_in_secret(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    """"当某人选择'叫地主'之后，按照次序每位玩家均有且只有一次'抢地主'的机会" and "每个人都做完
    选择后，游戏开始由地主出牌"."""
    pages = [new_page() for _ in range(3)]
    for i, page in enumerate(pages):
        sign_up(page, hall.url, f"auction{i}")
    for page in pages:  # the table forms once all three wait
        page.click(f"[data-testid=room][data-room='{HUANLE_HUMANS_ROOM}'] [data-testid=join]")
    for page in pages:
        page.wait_for_selector("[data-testid=table]", timeout=WAIT_MS)
    assert _auction(pages) == ["call", "rob", "rob", "rob"]  # the caller robbed back
    _everyone_may_double(pages)  # nobody's turn: all three choose at once
    seats = [int(table_data(page)["seat"]) for page in pages]
    for page in pages:
        assert table_data(page)["turn"] == "me"
        assert page.locator("[data-testid=multiplier]").get_attribute("data-value") in ("8", "16")
    first = pages[0]
    button(first, "double").click()
    first.wait_for_selector("[data-testid=action-double]", state="detached", timeout=WAIT_MS)
    screenshot(pages[1], tmp_path, "ddz-double-at-once")
    for page in pages[1:]:  # the first choice is secret: no 加倍 tag on its seat yet
        assert "加倍" not in _seat_tags(page, seats[0])
        assert button(page, "double").count() == 1
    button(pages[1], "no-double").click()
    button(pages[2], "double").click()
    for page, other in zip(pages, (seats[2], seats[0], seats[0]), strict=True):
        page.wait_for_function(  # revealed together: the other doubler's tag
            "([seat]) => [...document.querySelectorAll("
            "`[data-testid=seat][data-seat='${seat}'] .tag`)].some(e => e.textContent === '加倍')",
            arg=[other],
            timeout=WAIT_MS,
        )
    screenshot(pages[2], tmp_path, "ddz-doubles-revealed")
    assert "加倍" not in _seat_tags(pages[0], seats[1])


def _multiplier(page: Page) -> str:
    value: str = page.locator("[data-testid=multiplier]").get_attribute("data-value") or ""
    return value


@pytest.fixture(scope="module")
def slow_deal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A hall whose paced deals take 0.5 s a step (the session's take 0.02 s: a 明牌
    button during the deal is gone before a test can press it)."""
    with hall_with(tmp_path_factory.mktemp("slowdeal"), deal_step=0.5) as running:
        yield running


def test_a_show_during_the_deal_counts_in_the_multiplier_while_bidding(
    slow_deal: RunningHall, new_page: Any, tmp_path: Path
) -> None:
    """Issue 27: 倍数 said "—" during the bidding, even after a 明牌 ×3. Shown during the
    deal (×5 before the first cards, ×4 from the 8th, ×3 from the 17th), the player bids first
    (shower_bids_first) with that multiplier in the toolbar, and before he showed the
    multiplier was the hand's ×1."""
    page = new_page()
    sign_up(page, slow_deal.url, "showbid")
    join(page, "doudizhu-huanle")
    show = page.locator("[data-testid=action-show]")
    show.wait_for(timeout=WAIT_MS)
    page.wait_for_selector("[data-testid=multiplier][data-value='1']")  # from the deal on
    show.click()
    decision = next_decision(page, None)
    assert decision["kind"] == "turn" and "call" in decision["legal"]
    page.wait_for_function(
        "() => ['3', '4', '5'].includes(document.querySelector('[data-testid=multiplier]')"
        ".dataset.value)"
    )
    assert table_data(page)["phase"] == "bid"
    text = page.locator("[data-testid=multiplier] b").text_content()
    assert text == f"×{_multiplier(page)}"
    screenshot(page, tmp_path, "ddz-multiplier-bidding")
