"""The end of a hand of Showhand as the player sees it, on a desktop and on a phone: his
own hole card face up on the felt, every row of the result naming its hand (his own and
the winner's too, though he folded before any showdown), and the line that checks the
entropy his page sent, after a reload in the middle of the hand answered by a snapshot as
well, or says that it came too late."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_kit import button, join, next_decision, screenshot, sign_up, table_data

RESULT = "[data-testid=result]"
_UNREACHED = """() => {
  const tables = JSON.parse(localStorage.getItem('qipai.tables'));
  for (const saved of Object.values(tables)) saved.n = 1e9;
  localStorage.setItem('qipai.tables', JSON.stringify(tables));
}"""
"""The saved table's last event number made one the hall never reached: the reload's
``hello`` is answered by a snapshot, not the frames missed."""


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_the_end_shows_my_hole_card_every_hands_name_and_the_entropy_check(
    hall: Any, new_page: Any, tmp_path: Path, size: tuple[int, int]
) -> None:
    page = new_page(width=size[0], height=size[1])
    sign_up(page, hall.url, f"sh_end{size[0]}")
    join(page, "showhand-yifa")
    next_decision(page, None)
    page.evaluate(_UNREACHED)
    page.reload()  # answered by a snapshot: the entropy sent before is still checked
    legal = next_decision(page, None)["legal"]
    assert "fold" in legal  # the first round: the player folds, before any showdown
    button(page, "fold").click()
    page.wait_for_selector(RESULT)
    me = int(table_data(page)["seat"])
    # his own cards on the felt: face up, the hole card first, none face down
    assert page.locator("[data-testid=hand] [data-testid=card-back]").count() == 0
    felt = page.eval_on_selector_all(
        "[data-testid=hand] [data-testid=card]", "els => els.map(e => e.dataset.card)"
    )
    row = f"{RESULT} [data-testid=result-row][data-seat='{me}']"
    left = (page.get_attribute(f"{row} [data-testid=leftover]", "data-cards") or "").split()
    assert felt == left and len(left) == 2
    # every row names its hand: his, the winner's, everyone's
    rows = page.locator(f"{RESULT} [data-testid=result-row]").count()
    assert page.locator(f"{RESULT} [data-testid=result-row] [data-testid=category]").count() == rows
    assert page.locator(f"{row} [data-testid=category]").count() == 1
    check = page.locator(f"{RESULT} [data-testid=entropy-check]")
    assert check.count() == 1 and check.get_attribute("data-ok") == "1"
    screenshot(page, tmp_path, f"result-showhand-end-{size[0]}")


def _late_entropy(page: Any) -> None:
    """Hold the page's ``entropy`` message until the hall has dealt the hand (its window
    over): the hall refuses it then (``entropy_closed``)."""
    held: list[str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"type":"entropy"' in message:
                held.append(message)
            else:
                server.send(message)

        def from_hall(message: str | bytes) -> None:
            ws.send(message)
            if held and isinstance(message, str) and "CardDealt" in message:
                server.send(held.pop())

        ws.on_message(from_page)
        server.on_message(from_hall)

    page.route_web_socket("**/ws", route)


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_entropy_that_came_after_the_deal_is_said_in_the_result(
    hall: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = new_page(width=size[0], height=size[1])
    _late_entropy(page)
    sign_up(page, hall.url, f"sh_late{size[0]}")
    join(page, "showhand-yifa")
    next_decision(page, None)
    button(page, "fold").click()
    page.wait_for_selector(RESULT)
    check = page.locator(f"{RESULT} [data-testid=entropy-check]")
    assert check.get_attribute("data-state") == "late"
    assert "晚于发牌" in (check.text_content() or "")
