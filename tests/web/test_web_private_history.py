"""战绩 of private tables 好友房 in the browser, against a real hall: a player creates a
6-hand points table over the WebSocket (the Python client), starts it with bots and plays
it to its end; then, signed in in the browser, his 战绩 lists the table (its code, his
total, every hand's points and the totals as the final scoreboard says), and a hand's
回放 opens that hand's replay from his seat.  On a desktop and on a phone (screenshots)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from pathlib import Path
from typing import Any

import pytest
from web_kit import PASSWORD, REPLAY, WAIT_MS, hall_with, screenshot

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}


def _bidder(legal: list[str]) -> str:
    """Bid and play rather than pass (a hand all pass is dealt again)."""
    return next((a for a in legal if "pass" not in a), legal[0])


async def _play_a_table(url: str, name: str) -> dict[str, Any]:
    """Register ``name``, create a 6-hand points table, start it with bots, play it to its
    end; its final scoreboard."""
    async with HallClient(url) as hall:
        session = await hall.register(name, PASSWORD)
        async with hall.connect(session.token) as conn:
            create = {"type": "private_create", "game": "doudizhu", "rules": "huanle"}
            for message in (create, {"type": "ready"}, {"type": "private_start"}):
                await conn.request(message)
            player = AutoPlayer(_bidder)
            async with asyncio.timeout(120):
                async for frame in conn:
                    if frame["type"] == "error":
                        raise AssertionError(frame)
                    if frame["type"] == "scoreboard" and frame["over"]:
                        return dict(frame)
                    reply = player.on_frame(frame)
                    if reply is not None and reply["type"] == "act":
                        await conn.act(reply["action"], reply.get("table"))
                    elif reply is not None:
                        await conn.send(reply)
    raise AssertionError("unreachable")


def played(url: str, name: str) -> dict[str, Any]:
    """:func:`_play_a_table` on a loop of its own (Playwright's sync API holds this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _play_a_table(url, name)).result(timeout=150)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A hall of its own: 0.2 s between the table's hands."""
    with hall_with(tmp_path_factory.mktemp("private-history")) as running:
        yield running


def sign_in(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.fill("[data-testid=username]", name)
    page.fill("[data-testid=password]", PASSWORD)
    page.click("[data-testid=sign-in]")
    page.wait_for_selector("[data-testid=room]", timeout=WAIT_MS)


def listed(page: Any, code: str) -> dict[str, Any]:
    """The table's entry in 战绩: its data, its hands' ids and points, its totals."""
    row = f"[data-testid=private-history-row][data-code='{code}']"
    page.wait_for_selector(row, timeout=WAIT_MS)
    entry: dict[str, Any] = page.eval_on_selector(
        row,
        """el => ({
          total: el.dataset.total,
          shown: el.querySelector('[data-testid=private-history-total]').textContent,
          hands: [...el.querySelectorAll('[data-testid=private-history-hand]')].map(r => ({
            hand: r.dataset.hand,
            cells: [...r.querySelectorAll('td')].map(td => td.textContent),
          })),
          totals: [...el.querySelectorAll('tr.total th')].map(th => th.textContent),
        })""",
    )
    return entry


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_closed_private_table_stays_in_history_and_its_hands_replay(
    hall: Any, new_page: Any, tmp_path: Path, device: str
) -> None:
    name = f"pt{device}"
    board = played(hall.url, name)
    assert len(board["rows"]) == 6 and board["names"][0] == name
    page = new_page(**PHONE) if device == "phone" else new_page()
    sign_in(page, hall.url, name)
    page.goto(f"{hall.url}/#/history")
    entry = listed(page, board["code"])
    mine = board["totals"][0]
    assert entry["total"] == str(mine) and entry["shown"] == signed(mine)
    assert [h["hand"] for h in entry["hands"]] == [r["hand"] for r in board["rows"]]
    for shown, row in zip(entry["hands"], board["rows"], strict=True):
        assert shown["cells"][: 1 + len(row["points"])] == [
            str(row["number"]), *(signed(p) for p in row["points"])
        ]  # fmt: skip
    assert entry["totals"][1:4] == [signed(p) for p in board["totals"]]
    page.locator("[data-testid=private-history]").scroll_into_view_if_needed()
    screenshot(page, tmp_path, f"history-private-{device}")
    third = board["rows"][2]["hand"]
    page.click(
        f"[data-testid=private-history-hand][data-hand='{third}'] [data-testid=private-replay]"
    )
    page.wait_for_selector(f"{REPLAY}[data-hand='{third}'] [data-testid=table][data-seat='0']")
    assert page.url.endswith(f"#/replay/{third}/0")
