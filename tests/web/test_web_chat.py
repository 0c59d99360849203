"""Quick chat 快捷聊天 in the browser: a guest at a Dou Dizhu table with bots opens the panel
(every phrase and emoji of the hall, a mute toggle per bot), sends a phrase (the bubble on
his own seat for about 3 s), is refused for speed (a toast, no dialog); mutes a bot (its
chat frames, fed to the page, show no bubble while another's do; still muted after a
reload); and the panel and a bubble on a phone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from web_kit import WAIT_MS, feed, join, next_decision, noted, screenshot, table_data

from qipai.hall.chat import EMOJI, PHRASES

ROOM = "doudizhu-yifa"
PANEL = "[data-testid=chat-panel]"
BUBBLE = "[data-testid=chat-bubble]"


def seated_guest(page: Any, url: str, room: str = ROOM) -> int:
    """A new guest at a table of ``room`` with bots, at his first decision (the table waits
    on him); his seat."""
    page.goto(url)
    page.click("[data-testid=guest]")
    page.wait_for_selector("[data-testid=net][data-status=open]", timeout=WAIT_MS)
    join(page, room)
    next_decision(page, None)
    return int(table_data(page)["seat"])


def seats(page: Any) -> int:
    """The number of seats at the page's table."""
    count: int = page.evaluate("window.qipai.app.table.state.players.length")
    return count


def open_panel(page: Any) -> None:
    page.click("[data-testid=chat]")
    page.wait_for_selector(PANEL)


def bubble(seat: int) -> str:
    return f"[data-testid=seat][data-seat='{seat}'] {BUBBLE}"


def feed_chat(page: Any, *said: tuple[int, str]) -> None:
    """Feed the page ``chat`` frames of its table, as the hall sends them."""
    table = page.evaluate("window.qipai.app.table.number")
    feed(page, *({"type": "chat", "table": table, "seat": s, "phrase": p} for s, p in said))


def mute_states(page: Any) -> dict[int, str]:
    """Each mute toggle of the open panel: seat -> aria-pressed."""
    found: list[list[str]] = page.eval_on_selector_all(
        "[data-testid=chat-mute]", "els => els.map(e => [e.dataset.seat, e.ariaPressed])"
    )
    return {int(seat): pressed for seat, pressed in found}


def test_a_phrase_shows_on_my_seat_and_too_fast_is_a_toast(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    seat = seated_guest(page, hall.url)
    open_panel(page)
    phrases = page.eval_on_selector_all(
        f"{PANEL} [data-testid=chat-phrase]", "els => els.map(e => e.dataset.phrase)"
    )
    assert phrases == [*PHRASES, *EMOJI]  # the hall's ids, every one with its text
    texts = page.eval_on_selector_all(
        f"{PANEL} [data-testid=chat-phrase]", "els => els.map(e => e.textContent)"
    )
    assert "快点吧，我等到花儿都谢了" in texts and all(text and "." not in text for text in texts)
    assert mute_states(page) == {other: "false" for other in range(3) if other != seat}
    screenshot(page, tmp_path, "chat-panel")

    page.click(f"{PANEL} [data-phrase=hurry]")
    assert page.locator(PANEL).count() == 0  # sending closes the panel
    page.wait_for_selector(bubble(seat))
    shown = time.monotonic()
    mine = page.locator(f".mine {bubble(seat)}")
    assert mine.get_attribute("data-phrase") == "hurry"
    assert mine.inner_text() == "快点吧，我等到花儿都谢了"
    assert {"type": "chat", "phrase": "hurry"} in page.evaluate("window.qipai.app.socket.outbox")
    screenshot(page, tmp_path, "chat-bubble")
    page.wait_for_selector(bubble(seat), state="detached", timeout=WAIT_MS)
    assert 2.0 < time.monotonic() - shown < 6.0  # about 3 s

    # four at once (as fast as the panel could never send them): the burst is 3
    burst = ["hello", "well_played", "smile", "cry"]
    page.evaluate("(burst) => burst.forEach((p) => window.qipai.app.table.chat.say(p))", burst)
    noted(page, "发言太快了")
    assert page.evaluate("window.qipai.app.frameCounts.error") >= 1
    assert page.locator(".overlay").count() == 0  # a toast, not a dialog
    page.wait_for_selector(f"{bubble(seat)}[data-phrase=smile]")  # the third went through


def test_a_muted_seat_shows_no_bubble_even_after_a_reload(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    """At a Zha Jin Hua table (there a reload does not end the hand: an absent player is
    only folded after the grace period, where Dou Dizhu's 托管 would play his hand out)."""
    page = new_page()
    seat = seated_guest(page, hall.url, "zhajinhua-yifa")
    muted, other, *rest = (s for s in range(seats(page)) if s != seat)
    open_panel(page)
    page.click(f"[data-testid=chat-mute][data-seat='{muted}']")
    assert mute_states(page) == {muted: "true", other: "false", **dict.fromkeys(rest, "false")}
    page.keyboard.press("Escape")
    page.wait_for_selector(PANEL, state="detached")

    feed_chat(page, (muted, "angry"), (other, "laugh"))
    page.wait_for_selector(f"{bubble(other)}[data-phrase=laugh]")
    assert page.locator(bubble(muted)).count() == 0
    feed_chat(page, *((s, "hurry") for s in rest), (seat, "smile"))
    screenshot(page, tmp_path, "chat-bubbles")

    page.reload()
    page.wait_for_selector("[data-testid=chat]", timeout=WAIT_MS)
    open_panel(page)
    assert mute_states(page)[muted] == "true"  # kept for the session
    page.click(f"[data-testid=chat-mute][data-seat='{muted}']")  # unmuted again
    assert mute_states(page)[muted] == "false"
    page.keyboard.press("Escape")
    feed_chat(page, (muted, "cool"))
    page.wait_for_selector(f"{bubble(muted)}[data-phrase=cool]")

    open_panel(page)  # muted again, then signed out: the next player of this tab mutes nobody
    page.click(f"[data-testid=chat-mute][data-seat='{muted}']")
    assert page.evaluate("() => JSON.parse(sessionStorage.getItem('qipai.muted'))") != []
    page.keyboard.press("Escape")
    page.click("[data-testid=sign-out]")
    page.wait_for_selector("[data-testid=guest]")
    assert page.evaluate("() => JSON.parse(sessionStorage.getItem('qipai.muted'))") == []


def test_the_panel_and_a_bubble_on_a_phone(hall: Any, new_page: Any, tmp_path: Path) -> None:
    page = new_page(390, 844, is_mobile=True, has_touch=True)
    seat = seated_guest(page, hall.url)
    open_panel(page)
    screenshot(page, tmp_path, "chat-panel-phone")
    for box in _boxes(page, f"{PANEL} button"):
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    page.click(f"{PANEL} [data-phrase=till_dawn]")
    page.wait_for_selector(bubble(seat))
    feed_chat(page, *((s, "well_played") for s in range(3) if s != seat))
    for other in range(3):
        (box,) = _boxes(page, bubble(other))
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    screenshot(page, tmp_path, "chat-bubbles-phone")


def _boxes(page: Any, selector: str) -> list[dict[str, float]]:
    """The bounding box of every element ``selector`` finds."""
    found = page.locator(selector)
    return [found.nth(i).bounding_box() for i in range(found.count())]
