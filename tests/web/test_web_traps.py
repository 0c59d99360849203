"""The table without traps: what a player's trial found covering his turn, his way out or
his orientation, each on a desktop and a phone where it is about the layout.

- The result of a hand left open at a table that plays on is put away when the player's
  turn comes in the next hand: the actions are on top and usable; 结果 shows it again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_kit import (
    WAIT_MS,
    RunningHall,
    button,
    ddz_act,
    ddz_choice,
    hall_with,
    join,
    next_decision,
    screenshot,
    sign_up,
    table_data,
    trustee_to_result,
)

SHOTS = Path("/work/notes/shots")
RESULT = "[data-testid=result]"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
VIEWPORTS = pytest.mark.parametrize("viewport", ["desktop", "phone"])


def open_page(new_page: Any, viewport: str) -> Any:
    return new_page(**(DESKTOP if viewport == "desktop" else PHONE))


@pytest.fixture(scope="module")
def plays_on(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A hall whose tables that play on deal their next hand 1 s after the last."""
    with hall_with(tmp_path_factory.mktemp("traps"), hand_pause=1.0) as running:
        yield running


_ON_TOP = """() => {
  const buttons = [...document.querySelectorAll('[data-testid=actions] button')]
    .filter((b) => b.getClientRects().length);
  if (!buttons.length) return 'no buttons';
  const hidden = buttons.filter((b) => {
    const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !(top && b.contains(top));
  });
  return hidden.map((b) => b.textContent).join(',') || 'on top';
}"""
"""Whether every action button is the topmost thing at its centre (else which are not)."""

_MY_TURN_AFTER = """(first) => {
  const table = document.querySelector('[data-testid=table]');
  return table && table.dataset.hand && table.dataset.hand !== first
    && table.dataset.decision !== '' && table.dataset.busy === '0';
}"""


@VIEWPORTS
def test_the_result_left_open_never_hides_the_next_hands_turn(
    plays_on: RunningHall, new_page: Any, viewport: str
) -> None:
    page = open_page(new_page, viewport)
    sign_up(page, plays_on.url, f"turn_{viewport}")
    join(page, "doudizhu-zhengtu")
    next_decision(page, None)
    trustee_to_result(page)
    page.evaluate("() => window.qipai.app.send({type: 'trustee', on: false})")  # he plays next
    first = page.get_attribute(RESULT, "data-hand")
    # the next hand is dealt, the result left open: the player's turn comes there
    page.wait_for_function(_MY_TURN_AFTER, arg=first, timeout=WAIT_MS * 2)
    assert page.evaluate(_ON_TOP) == "on top"
    assert not page.locator(RESULT).is_visible()
    assert page.get_attribute("[data-testid=action-result]", "data-tucked") == "1"
    screenshot(page, SHOTS, f"traps-turn-after-result-{viewport}")
    # 结果 shows the last hand's result again, the player's to close
    button(page, "result").first.click()
    page.wait_for_selector(f"{RESULT}[data-hand='{first}'] [data-testid=result-next]")
    page.click(f"{RESULT} [data-testid=result-close]")
    page.wait_for_selector(RESULT, state="detached")
    data = table_data(page)
    legal, decision = json.loads(data["legal"]), data["decision"]
    ddz_act(page, ddz_choice(legal))  # usable: the action goes
    page.wait_for_function(
        "(d) => document.querySelector('[data-testid=table]').dataset.decision !== d",
        arg=decision,
    )
