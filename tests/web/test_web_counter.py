"""记牌器, the card counter of a Dou Dizhu table: what it counts (checked against the hands
left at the end), its switch (remembered), and a room that does not offer it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from web_kit import (
    NO_COUNTER_ROOM,
    at_my_turn,
    button,
    join,
    next_decision,
    screenshot,
    sign_up,
    trustee_to_result,
)

COUNTER = "[data-testid=table] [data-testid=card-counter]"
RESULT = "[data-testid=result]"


def _counted(page: Any) -> dict[str, int]:
    cells = page.eval_on_selector_all(
        f"{COUNTER} [data-rank]", "els => els.map(e => [e.dataset.rank, +e.dataset.left])"
    )
    return dict(cells)


def test_the_counter_counts_what_the_others_still_hold(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = at_my_turn(new_page(), hall.url, "counter_ddz", "doudizhu-yifa")
    assert sum(_counted(page).values()) == 54 - 17  # before anybody played: all but mine
    screenshot(page, tmp_path, "counter-doudizhu")
    trustee_to_result(page)
    me = page.get_attribute("[data-testid=table]", "data-seat")
    others = page.eval_on_selector_all(
        f"{RESULT} [data-testid=leftover]",
        f"els => els.filter(e => e.dataset.seat !== '{me}').map(e => e.dataset.cards)",
    )
    held = Counter(card[0] for cards in others for card in cards.split())
    counted = {rank: n for rank, n in _counted(page).items() if n}
    assert counted == dict(held)


def test_the_counter_switch_is_remembered(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "counter_switch")
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    toggle = button(page, "counter")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    page.wait_for_selector(COUNTER, state="detached")
    page.reload()  # (away meanwhile: 托管 may end the hand, and its result shows)
    page.wait_for_selector("[data-testid=table][data-hand]")
    if page.locator(RESULT).count():
        page.click(f"{RESULT} [data-testid=result-close]")
    assert button(page, "counter").get_attribute("aria-pressed") == "false"
    assert page.locator(COUNTER).count() == 0
    button(page, "counter").click()
    assert button(page, "counter").get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('qipai.counter')") == "true"


def test_a_room_without_the_counter_offers_none(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "counter_none")
    join(page, NO_COUNTER_ROOM)
    next_decision(page, None)
    assert page.locator("[data-testid=action-counter]").count() == 0
    assert page.locator(COUNTER).count() == 0


def test_the_deck_the_counter_starts_from(hall: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(hall.url)
    counts = page.evaluate(
        """async () => {
          const m = await import('./js/games/ddzcounter.js');
          const total = (deck) => Object.values(deck).reduce((a, b) => a + b, 0);
          const left = m.remaining('caishen', ['3s'], [
            {seat: 1, move: '4567W/45678', cards: null},
            {seat: 2, move: 'pass', cards: null},
            {seat: 0, move: '33', cards: ['3h', '3d']},
          ]);
          const decks = [total(m.fullDeck('yifa')), total(m.fullDeck('caishen'))];
          return [...decks, left['3'], left['4'], left['W']];
        }"""
    )
    # 54 and 55 cards; two 3s played and one in hand; one 4 played; the 财神 played
    assert counts == [54, 55, 1, 3, 0]
