"""The cards played are the cards lifted (issue 27): the 财神 chooser played 7♥ 9♥ Q♣ where
the player had lifted 7♦ 9♦ Q♦ (the hall took, of each rank, the first suit), left the
lifted ones raised in the hand, and drew the 财神 at the top of a straight it stood at the
bottom of. Now the page names the very cards (``play … @7d8h…``), the hall plays those, and
a wild card is drawn where it stands, marked with the rank it stands for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_kit import (
    button,
    click_card,
    ddz_act,
    ddz_choice,
    ddz_play_snapshot,
    feed,
    hand,
    join,
    lifted,
    play_to_result,
    screenshot,
    sign_up,
    table_data,
)

Page = Any
LIFTED = ["7d", "8h", "9d", "Th", "Jc", "Qd", "Kh", "W"]
"""The issue's lifted cards: 7♦ 8♥ 9♦ 10♥ J♣ Q♦ K♥ 财神."""
SIX_TO_KING = "play 789TJQKW/6789TJQK"


def _played_row(page: Page, seat: int) -> list[dict[str, str]]:
    cards: list[dict[str, str]] = page.eval_on_selector_all(
        f"[data-testid=played][data-seat='{seat}'] .card",
        "els => els.map(e => ({card: e.dataset.card, as: e.dataset.as || ''}))",
    )
    return cards


def test_the_chooser_plays_the_lifted_cards_and_draws_the_wild_card_where_it_stands(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    sign_up(page, hall.url, "lift_wild")
    cards = [*LIFTED, "7h", "9h", "Qc", "3s"]
    legal = ["play pass", SIX_TO_KING, "play 789TJQKW/789TJQKA"]
    feed(page, ddz_play_snapshot("lift_wild", cards, legal))
    page.wait_for_selector("[data-testid=hand] [data-card=W]")
    for code in LIFTED:
        click_card(page, code)
    assert sorted(lifted(page)) == sorted(LIFTED)
    button(page, "play").click()
    page.click(f"[data-testid=choice][data-action='{SIX_TO_KING}']")
    sent = page.evaluate("() => window.qipai.app.socket.outbox.slice(-1)[0]")
    assert sent["action"] == f"{SIX_TO_KING} @7d8h9dThJcQdKhW"
    # the hall's answer: it played the cards named
    played = {"kind": "Played", "seat": 0, "move": SIX_TO_KING[5:], "cards": LIFTED}
    feed(
        page,
        {"type": "event", "table": 999, "n": 41, "event": {**played, "cards_left": 4}},
        {"type": "ack", "id": sent["id"]},
        {
            "type": "turn",
            "table": 999,
            "n": 41,
            "seat": 1,
            "deadline": None,
            "players": ddz_play_snapshot("lift_wild", [], [])["players"],
        },
    )
    page.wait_for_selector("[data-testid=played][data-seat='0'] .card")
    assert sorted(hand(page)) == sorted(["7h", "9h", "Qc", "3s"]) and lifted(page) == []
    row = _played_row(page, 0)
    assert [c["card"] for c in row] == ["W", "7d", "8h", "9d", "Th", "Jc", "Qd", "Kh"]
    assert [c["as"] for c in row] == ["6", "", "", "", "", "", "", ""]
    screenshot(page, tmp_path, "ddz-wild-where-it-stands")


def _lift_a_second_suit(page: Page, legal: list[str]) -> bool:
    """Leading with two cards of a rank, play the single of the later suit (the hall's suit
    order would take the other); True when done and checked."""
    if "play pass" in legal:
        return False
    held = hand(page)
    twice = [c for c in held if sum(o[0] == c[0] for o in held) >= 2 and f"play {c[0]}" in legal]
    if not twice:
        return False
    rank = twice[0][0]
    # the last in the suit order ♠ ♥ ♣ ♦: the hall's order would take another
    pick = max((c for c in held if c[0] == rank), key=lambda c: "shcd".index(c[1]))
    others = [c for c in held if c[0] == rank and c != pick]
    for card in lifted(page):
        click_card(page, card)
    click_card(page, pick)
    button(page, "play").click()
    seat = table_data(page)["seat"]
    page.wait_for_selector(f"[data-testid=played][data-seat='{seat}'] [data-card='{pick}']")
    left = hand(page)
    assert pick not in left and all(card in left for card in others)
    assert lifted(page) == []
    return True


def test_the_card_lifted_is_the_card_played_at_a_real_table(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "lift_real")
    done: list[bool] = []

    def on_turn(page: Page, legal: list[str]) -> bool:
        if done:
            return False
        done.extend([True] if _lift_a_second_suit(page, legal) else [])
        return bool(done)

    for _ in range(4):
        if page.locator("[data-testid=table]").count() == 0:
            join(page, "doudizhu-yifa")
        act = lambda p, legal: ddz_act(p, ddz_choice(legal))  # noqa: E731
        play_to_result(page, act, on_turn=on_turn)
        if done:
            return
        button(page, "again").click()
        page.wait_for_selector("[data-testid=result]", state="detached")
    raise AssertionError("never led holding two cards of a rank in 4 hands")
