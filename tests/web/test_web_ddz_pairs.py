"""The landlord's 倍数 as 欢乐斗地主 shows it: the table's multiplier (公共倍数: the view's
``standing_multiplier``, kept after the landlord is known), and beside it his multiplier
against each farmer (对东家 ×4 · 对西家 ×2), settled apart, never their sum; a farmer sees
his own pair's; the result says the same (desktop and phone), against a stand-in hall."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from stub_hall import DdzHand, StubHall, signed_up
from web_kit import WAIT_MS, screenshot

SHOTS = Path("/work/notes/shots")
SIZES = {
    "desktop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844, "is_mobile": True, "has_touch": True},
}
NAMES = ["东家", "南家", "西家"]


def landlord_known() -> DdzHand:
    """A yifa hand played until its landlord is known and its first card played."""
    hand = DdzHand(seed=5)
    hand.play_until(1)
    assert hand.state.landlord is not None
    return hand


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_landlord_sees_the_tables_multiplier_and_one_per_farmer(
    hall: Any, new_page: Any, size: str
) -> None:
    hand = landlord_known()
    landlord = hand.state.landlord
    one, two = (landlord + 1) % 3, (landlord + 2) % 3
    page = new_page(**SIZES[size])
    stub = StubHall(page, NAMES[landlord])
    signed_up(page, hall.url, f"landlord-{size}")
    snapshot = hand.snapshot(landlord)
    # the first farmer chose 加倍: his pair ×4, the other's ×2, the table's ×2
    snapshot["view"] |= {"multipliers": [[one, 4], [two, 2]], "standing_multiplier": 2}
    stub.send(snapshot)
    page.wait_for_selector("[data-testid=table]", timeout=WAIT_MS)
    assert page.get_attribute("[data-testid=multiplier]", "data-value") == "2"  # not 6
    pairs = page.locator("[data-testid=pair-multipliers]")
    assert pairs.inner_text() == f"对{NAMES[one]} ×4 · 对{NAMES[two]} ×2"
    values = pairs.locator("[data-farmer]").evaluate_all(
        "els => els.map(e => [Number(e.dataset.farmer), Number(e.dataset.value)])"
    )
    assert values == [[one, 4], [two, 2]]
    screenshot(page, SHOTS, f"ddz-landlord-multiplier-{size}")
    # the hand ends: the result says the table's and each farmer's
    hand.play_until(999)
    over = hand.hand_over()
    stub.send(*hand.events(landlord), over)
    page.wait_for_selector("[data-testid=result]", timeout=WAIT_MS)
    final = {pair["farmer"]: pair["multiplier"] for pair in over["explain"]["pairs"]}
    text = page.inner_text("[data-testid=result]")
    for farmer in (one, two):
        assert f"对{NAMES[farmer]} ×{final[farmer]}" in text
    screenshot(page, SHOTS, f"ddz-landlord-result-{size}")


def test_a_farmer_sees_his_own_pairs_multiplier(hall: Any, new_page: Any) -> None:
    hand = landlord_known()
    farmer = (hand.state.landlord + 1) % 3
    page = new_page()
    stub = StubHall(page, NAMES[farmer])
    signed_up(page, hall.url, "farmer-x")
    snapshot = hand.snapshot(farmer)
    other = (farmer + 1) % 3
    snapshot["view"] |= {"multipliers": [[farmer, 4], [other, 2]], "standing_multiplier": 2}
    stub.send(snapshot)
    page.wait_for_selector("[data-testid=table]", timeout=WAIT_MS)
    assert page.get_attribute("[data-testid=multiplier]", "data-value") == "4"
    assert page.locator("[data-testid=pair-multipliers]").count() == 0
