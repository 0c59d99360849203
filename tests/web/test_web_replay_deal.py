"""The replay page re-deals the hand in the browser from the revealed seed (js/deal.js,
chance v2), mixed with the players' entropy (the page sent its own on ``hand_start``), and
shows ✓ when every seat's cards are the replay's, ✗ when they are not."""

from __future__ import annotations

import json
from typing import Any

from web_kit import at_my_turn, table_data, trustee_to_result

DEAL = "[data-testid=replay] [data-testid=replay-deal]"


def _finished_hand(page: Any, url: str, name: str) -> str:
    at_my_turn(page, url, name, "doudizhu-yifa")
    trustee_to_result(page)
    return table_data(page)["hand"]


def test_the_replay_rederives_the_deal_from_the_seed(hall: Any, new_page: Any) -> None:
    page = new_page()
    hand_id = _finished_hand(page, hall.url, "deal_check")
    sent = [
        m for m in page.evaluate("() => window.qipai.app.socket.outbox") if m["type"] == "entropy"
    ]
    assert [m["hand"] for m in sent] == [hand_id]
    assert len(bytes.fromhex(sent[0]["value"])) == 32
    # the result panel: the record holds what this page sent
    check = "[data-testid=result] [data-testid=entropy-check]"
    assert page.get_attribute(check, "data-ok") == "1"
    page.click("[data-testid=result] [data-testid=action-replay]")
    page.wait_for_selector(f"[data-testid=replay][data-hand='{hand_id}']")
    assert page.get_attribute(DEAL, "data-ok") == "1"
    assert page.inner_text(DEAL).startswith("✓")
    mine = sent[0]["value"][:12]
    assert mine in page.inner_text("[data-testid=replay] [data-testid=replay-entropy]")
    assert page.get_attribute("[data-testid=replay] [data-testid=fairness]", "data-ok") == "1"


def test_a_replay_whose_cards_are_not_the_seeds_is_caught(hall: Any, new_page: Any) -> None:
    page = new_page()
    hand_id = _finished_hand(page, hall.url, "deal_tamper")

    def swap_two_cards(route: Any) -> None:
        data = route.fetch().json()
        seats = data["deal"]["seats"]
        seats[0][0], seats[1][0] = seats[1][0], seats[0][0]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route(f"**/api/hands/{hand_id}/replay*", swap_two_cards)
    page.click("[data-testid=result] [data-testid=action-replay]")
    page.wait_for_selector(f"[data-testid=replay][data-hand='{hand_id}']")
    assert page.get_attribute(DEAL, "data-ok") == "0"
