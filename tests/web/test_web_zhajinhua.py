"""Zha Jin Hua in the browser: look, raise to a chosen level, compare with a chosen
opponent, call, auto-call, a reload and a dropped connection mid-hand, and every hand
shown at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_kit import (
    REPLAY,
    button,
    hand,
    hands_until_tried,
    join,
    next_decision,
    open_replay,
    replay_cards,
    screenshot,
    sign_up,
    table_data,
)


def _pot(page: Any) -> int:
    return int(page.get_attribute("[data-testid=pot]", "data-value") or -1)


def _choose_first(page: Any, name: str) -> tuple[str, str]:
    """Open the chooser of ``name`` and take its first choice: its action and its words."""
    button(page, name).click()
    choice = page.locator("[data-testid=choices] [data-testid=choice]").first
    action, words = choice.get_attribute("data-action"), choice.inner_text().strip()
    choice.click()
    return action, words


def _play_hand(page: Any, tmp_path: Path, done: list[str]) -> None:
    """Answer every decision of one hand through the page, trying each control once."""
    last = None
    while True:
        decision = next_decision(page, last)
        if decision["kind"] == "result":
            return
        last = decision["decision"]
        legal = decision["legal"]
        seat = table_data(page)["seat"]
        if "look" in legal and "reload" not in done:  # (again in a new hand, until reloaded)
            assert page.locator("[data-testid=hand] [data-testid=card-back]").count() == 3
            button(page, "look").click()
            page.wait_for_selector("[data-testid=hand] [data-testid=card]")
            seen = f"[data-testid=seat][data-seat='{seat}'] [data-testid=seen]"
            assert page.get_attribute(seen, "data-seen") == "1"
            page.wait_for_selector(".myplayed [data-testid=category]")  # 对子, 金花…
            done.append("look")
        elif any(a.startswith("raise ") for a in legal) and "raise" not in done:
            action, words = _choose_first(page, "raise")
            assert action.startswith("raise ") and words.startswith("加到")  # 加到 N（付 M）
            # the player's seat then says it the same way, not "加注 M"
            page.wait_for_function(
                "w => [...document.querySelectorAll('.mine .said')]"
                ".some(e => e.textContent.trim() === w)", arg=words, timeout=10_000,
            )
            done.append("raise")
        elif "reload" not in done and hand(page):
            # reload at my turn, my cards seen in this hand (a new hand starts blind): the
            # table waits for me, so nothing changes meanwhile
            cards, pot = hand(page), _pot(page)
            screenshot(page, tmp_path, "table-zhajinhua")
            page.reload()
            page.wait_for_selector("[data-testid=hand] [data-testid=card]")
            assert hand(page) == cards
            assert _pot(page) == pot
            done.append("reload")
            last = None  # the same decision again, after the reload
        elif "drop" not in done and "reload" in done:
            # the network drops: the client reconnects by itself and replays what it missed
            cards, pot = hand(page), _pot(page)
            page.evaluate("() => window.qipai.app.socket.ws.close()")
            page.wait_for_function("() => window.qipai.app.frameCounts.welcome >= 2")
            page.wait_for_selector("[data-testid=net][data-status=open]")
            assert hand(page) == cards
            assert _pot(page) == pot
            done.append("drop")
            last = None
        elif any(a.startswith("compare ") for a in legal) and "compare" not in done:
            assert _choose_first(page, "compare")[0].startswith("compare ")
            done.append("compare")
        elif "autocall on" in legal and "autocall" not in done:
            assert "自动跟注" in button(page, "autocall").inner_text()
            button(page, "autocall").click()
            done.append("autocall")
        elif "call" in legal:
            button(page, "call").click()
        else:
            button(page, "fold").click()


def test_a_hand_of_zha_jin_hua_with_a_reload(hall: Any, new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    sign_up(page, hall.url, "zjh_player")
    join(page, "zhajinhua-yifa")
    hands_until_tried(
        page, lambda done: _play_hand(page, tmp_path, done), {"look", "reload", "drop"}
    )
    screenshot(page, tmp_path, "result-zhajinhua")
    # every hand is shown at the end: five rows of three cards
    shown = page.eval_on_selector_all(
        "[data-testid=result] [data-testid=result-row] .card",
        "els => els.map(e => e.dataset.card)",
    )
    assert len(shown) == 15 and all(len(code) == 2 for code in shown)
    assert page.locator("[data-testid=result] [data-testid=category]").count() == 5  # 对子…
    assert page.get_attribute("[data-testid=result] [data-testid=fairness]", "data-ok") == "1"
    # the replay, from the deal: every seat's three cards face up with their category
    seat = open_replay(page)
    dealt = [replay_cards(page, None if s == seat else s) for s in range(5)]
    assert [len(cards) for cards in dealt] == [3] * 5
    assert sorted(card for cards in dealt for card in cards) == sorted(shown)  # as the result
    assert page.locator(f"{REPLAY} [data-testid=category]").count() == 5  # every hand's
    screenshot(page, tmp_path, "replay-zhajinhua")
