"""Showhand in the browser: peek at the hole card, 换牌 (swap / keep), bet through the
amount chooser, check, call, 开, a reload mid-hand, and the showdown."""

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
)


def _up_cards(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "[data-testid=seat] .holes .card[data-card]", "els => els.map(e => e.dataset.card)"
    )
    return cards


def _act(page: Any, legal: list[str], done: list[str]) -> None:
    bets = [a for a in legal if a.startswith("bet ")]
    if "swap" in legal:
        choice = "keep" if "swap" in done else "swap"
        button(page, choice).click()
        done.append(choice)
    elif "showhand" in legal and "reload" in done and "allin" not in done:
        button(page, "allin").click()  # 梭: everyone still in must call it or fold
        done.append("allin")
    elif "open" in legal:
        button(page, "open").click()
        done.append("open")
    elif bets and "bet" not in done and "swap" in done:  # after card 3: the hand goes on
        amount = bets[0].split()[1]
        words = f"下注 {amount}（付 {amount}）"  # the level and its cost, as Zha Jin Hua says
        if len(bets) > 1:
            button(page, "bet").click()
            choice = f"[data-testid=choices] [data-action='{bets[0]}']"
            assert page.inner_text(choice).strip() == words
            page.click(choice)
        else:
            assert button(page, "bet").inner_text().strip() == words
            button(page, "bet").click()
        done.append("bet")
    elif "check" in legal:
        button(page, "check").click()
    elif "call" in legal:
        button(page, "call").click()
    else:
        button(page, "fold").click()


def _play_hand(page: Any, tmp_path: Path, done: list[str]) -> None:
    """Answer every decision of one hand through the page, trying each control once."""
    last = None
    while True:
        decision = next_decision(page, last)
        if decision["kind"] == "result":
            return
        last = decision["decision"]
        if "peek" not in done:
            # the hole card is face down until the player peeks
            hole = page.locator("[data-testid=hand] [data-hole='1']")
            assert hole.get_attribute("data-testid") == "card-back"
            button(page, "peek").click()
            assert len(hole.get_attribute("data-card") or "") == 2
            done.append("peek")
            screenshot(page, tmp_path, "table-showhand")
        if "reload" not in done and "bet" in done:
            mine, up = hand(page), _up_cards(page)
            page.reload()
            page.wait_for_selector("[data-testid=hand] [data-testid=card]")
            assert set(hand(page)) <= set(mine)  # the hole is face down again
            assert _up_cards(page) == up
            done.append("reload")
            last = None
            continue
        _act(page, decision["legal"], done)


def test_a_hand_of_showhand_with_a_reload(hall: Any, new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    sign_up(page, hall.url, "sh_player")
    join(page, "showhand-yifa")
    needed = {"peek", "bet", "reload", "swap"}
    hands_until_tried(page, lambda done: _play_hand(page, tmp_path, done), needed)
    screenshot(page, tmp_path, "result-showhand")
    assert page.get_attribute("[data-testid=result] [data-testid=fairness]", "data-ok") == "1"
    # the replay: at the deal each seat's hole card and first up card, face up
    seat = open_replay(page)
    seats = int(page.locator(f"{REPLAY} [data-testid=seat]").count())
    dealt = [replay_cards(page, None if s == seat else s) for s in range(seats)]
    assert [len(cards) for cards in dealt] == [2] * seats
    assert len({card for cards in dealt for card in cards}) == 2 * seats
    page.click("[data-testid=replay-last]")  # the end: the others' cards with their category
    assert page.locator(f"{REPLAY} [data-testid=category]").count() >= seats - 1
    screenshot(page, tmp_path, "replay-showhand")
