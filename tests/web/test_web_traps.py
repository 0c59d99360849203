"""The table without traps: what a player's trial found covering his turn, his way out or
his orientation, each on a desktop and a phone where it is about the layout.

- The result of a hand left open at a table that plays on is put away when the player's
  turn comes in the next hand: the actions are on top and usable; 结果 shows it again.
- A reload opens only a private table's scoreboard the player has not seen.
- Going to the lobby (大厅 on the final 总战绩, 去大厅 when knocked out) closes every panel
  of the table.
- A private table its owner closes during a hand says at once that it closes after it.
- A match's notice never covers a live hand: it waits in the toolbar's tray (通知 N) until
  the hand is over or the player opens it.
- The 观战 box takes a friend's name or a table's 6-digit code.
- In English: a guest's replay names him Guest…, a final rank reads "No. 8", the seed
  line breaks no word.
- A phone: the header's tabs that do not fit fade at the edge they hide behind, the tab
  shown is scrolled into view; 合计 keeps to one line; held sideways, a note keeps off
  the toolbar and what a Zha Jin Hua seat said shows in full.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stub_hall import DdzHand, StubHall, signed_up
from test_web_private import ROOM, private_table
from web_kit import (
    WAIT_MS,
    RunningHall,
    box,
    button,
    ddz_act,
    ddz_choice,
    feed,
    hall_with,
    join,
    next_decision,
    open_replay,
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
  const under = buttons.map((b) => {
    const r = b.getBoundingClientRect();
    // a card of the hand flying in from the deck (a third of a second) passes by
    const top = document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2)
      .find((e) => !e.closest('.fx-fly'));
    if (top && b.contains(top)) return null;
    const what = top ? (top.closest('[class]:not(svg):not(use)') || top).className : 'nothing';
    return `${b.textContent} under ${top ? top.tagName : ''} in ${what}`;
  });
  return under.filter(Boolean).join(', ') || 'on top';
}"""
"""Whether every action button is the topmost thing at its centre (else which are not,
and under what)."""

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


# ------------------------------------------------------------- 2: a reload, the old scoreboard

CODE = "123456"  # test_web_private's


def scoreboard(rows: int, *, over: bool = False) -> dict[str, Any]:
    """A private table's ``scoreboard`` frame after ``rows`` hands."""
    points = [[6, -3, -3], [-4, 8, -4], [2, 2, -4]][:rows]
    return {
        "type": "scoreboard",
        "code": CODE,
        "table": 7,
        "names": ["房主", "好友甲", "机器人1"],
        "rows": [
            {"hand": f"h{n + 1}", "number": n + 1, "points": row} for n, row in enumerate(points)
        ],
        "totals": [sum(column) for column in zip(*points, strict=True)],
        "over": over,
    }


def test_a_reload_opens_only_a_scoreboard_not_seen_yet(hall: Any, new_page: Any) -> None:
    """The hall sends a private table's last scoreboard again after a reload: the one the
    player saw stays shut (the strip's 战绩 has it), a newer one opens."""
    page = new_page()
    stub = StubHall(page, "房主")
    signed_up(page, hall.url, "board-reload")
    stub.send(scoreboard(1))
    page.wait_for_selector("[data-testid=scoreboard][data-over='0']")
    page.click("[data-testid=scoreboard-close]")
    page.reload()
    page.wait_for_selector("[data-testid=net][data-status=open]", timeout=WAIT_MS)
    stub.send(scoreboard(1))  # as the hall sends it again to a reconnected player
    page.wait_for_function("() => window.qipai.app.scoreboard !== null")
    assert page.locator("[data-testid=scoreboard]").count() == 0
    stub.send(scoreboard(2))  # the next hand's: new
    page.wait_for_selector("[data-testid=scoreboard] [data-testid=scoreboard-row][data-hand=h2]")
    page.click("[data-testid=scoreboard-close]")
    stub.send(scoreboard(2, over=True))  # the same hands, over now: new too
    page.wait_for_selector("[data-testid=scoreboard][data-over='1']")


# ------------------------------------------------------------- 3: nothing of a table over the lobby


def result_then(page: Any, url: str, name: str, *, english: bool = False) -> None:
    """``name`` signs up, plays a hand of 易发 by 托管: its result is open."""
    sign_up(page, url, name)
    if english:
        page.click("[data-testid=lang]")
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    trustee_to_result(page)


def lobby_is_clear(page: Any) -> None:
    page.wait_for_selector("[data-testid=lobby]")
    assert page.locator(".overlay").count() == 0
    page.click("[data-testid=room][data-room='doudizhu-yifa'] [data-testid=join]")  # usable
    page.wait_for_selector("[data-testid=table]")


def test_the_final_scoreboards_lobby_closes_the_result_under_it(hall: Any, new_page: Any) -> None:
    page = new_page(**DESKTOP)
    result_then(page, hall.url, "board-lobby")
    feed(page, scoreboard(3, over=True))
    page.wait_for_selector("[data-testid=scoreboard][data-over='1']")
    assert page.locator(RESULT).count() == 1  # under it
    page.click("[data-testid=scoreboard-close]")  # 大厅
    lobby_is_clear(page)


def test_to_the_lobby_when_knocked_out_closes_the_result_in_english(
    hall: Any, new_page: Any
) -> None:
    page = new_page(**PHONE)
    result_then(page, hall.url, "out-lobby", english=True)
    feed(
        page,
        {
            "type": "match_eliminated",
            "match": "web-trio",
            "run": "web-trio#990",
            "stage": 1,
            "rank": 8,
        },
    )
    out = page.wait_for_selector("[data-testid=match-eliminated]")
    assert "Final rank No. 8" in out.inner_text()  # not "Final rank rank 8"
    screenshot(page, SHOTS, "traps-out-english-phone")
    page.click("[data-testid=to-lobby]")
    lobby_is_clear(page)


# ------------------------------------------------------------- 9: closed during a hand


@VIEWPORTS
def test_closing_a_private_table_during_a_hand_says_so_at_once(
    hall: Any, new_page: Any, viewport: str
) -> None:
    hand = DdzHand(seed=11, table=7, room=ROOM)
    hand.play_until(1)
    seats = [
        {"name": name, "ready": True, "bot": False, "connected": True}
        for name in ("东家", "南家", "西家")
    ]
    playing = {"state": "playing", "table": 7, "played": 2, "seats": seats}

    def answer(stub: StubHall, message: dict[str, Any]) -> None:
        if message["type"] == "private_join":
            stub.send({"type": "ack", "id": message["id"]}, private_table())
        if message["type"] == "private_close":  # the hall: after this hand
            stub.send(private_table(**playing, closing=True), {"type": "ack", "id": message["id"]})

    page = open_page(new_page, viewport)
    stub = StubHall(page, "东家", answer)
    signed_up(page, hall.url, f"closer-{viewport}")
    page.fill("[data-testid=private-join-code]", CODE)
    page.click("[data-testid=private-join]")
    page.wait_for_selector("[data-testid=private-room]")
    stub.send(private_table(**playing, closing=False), hand.snapshot(0))
    strip = "[data-testid=table] [data-testid=private-strip]"
    page.click(f"{strip} [data-testid=private-close]")
    page.click("[data-testid=confirm]")
    stub.wait_sent("private_close")
    closing = page.wait_for_selector(f"{strip} [data-testid=private-closing]")
    assert closing.inner_text() == "本局结束后关闭"
    assert page.locator(f"{strip} [data-testid=private-close]").count() == 0  # done already
    box = closing.bounding_box()
    assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]
    screenshot(page, SHOTS, f"traps-private-closing-{viewport}")
    page.click("[data-testid=lang]")
    page.wait_for_selector(f"{strip} [data-testid=private-closing]:text('Closes after this hand')")
    page.click("[data-testid=lang]")


# ------------------------------------------------------------- 10: match notices wait


@VIEWPORTS
def test_a_match_notice_waits_in_the_tray_while_the_hand_is_played(
    hall: Any, new_page: Any, viewport: str
) -> None:
    page = open_page(new_page, viewport)
    sign_up(page, hall.url, f"tray-{viewport}")
    join(page, "doudizhu-yifa")
    next_decision(page, None)  # bidding at a freshly dealt cash hand
    run = {"match": "web-trio", "run": f"web-trio#{viewport}"}
    feed(page, {"type": "match_advanced", **run, "stage": 1})
    feed(
        page,
        {"type": "match_over", **run, "rank": 2, "score": 12, "prize": 5, "standings": []},
    )
    tray = page.wait_for_selector("[data-testid=action-notices][data-count='2']")
    assert tray.inner_text() == "通知 2"
    assert page.locator(".overlay, [data-testid=match-notice]").count() == 0
    assert page.evaluate(_ON_TOP) == "on top"
    screenshot(page, SHOTS, f"traps-notice-tray-{viewport}")
    trustee_to_result(page)  # the hand over: the notices come
    page.wait_for_selector("[data-testid=match-over][data-rank='2']")
    page.wait_for_selector("[data-testid=match-notice][data-kind=advanced]", state="attached")
    assert page.locator("[data-testid=action-notices]").count() == 0
    page.click("[data-testid=match-over] [data-testid=match-back]")
    page.click(f"{RESULT} [data-testid=result-close]")
    # in a hand again, the tray opens at the player's word
    join_again = "[data-testid=room][data-room='doudizhu-yifa'] [data-testid=join]"
    page.click("[data-testid=nav-lobby]")
    page.click(join_again)
    next_decision(page, None)
    feed(page, {"type": "match_cancelled", **run, "reason": "not_enough_players", "refunded": 5})
    button(page, "notices").first.click()
    page.wait_for_selector("[data-testid=match-cancelled]")


# ------------------------------------------------------------- 11: 观战 by a code or a name


@VIEWPORTS
def test_the_watch_box_takes_a_code_or_a_name(hall: Any, new_page: Any, viewport: str) -> None:
    page = open_page(new_page, viewport)
    stub = StubHall(page, "观众")
    signed_up(page, hall.url, f"watch-box-{viewport}")
    box = page.locator("[data-testid=spectate-name]")
    assert "房号" in (box.get_attribute("placeholder") or "")
    for _ in ("zh", "en"):  # the buttons inside the panel, in either language
        panel = page.locator("[data-testid=friends]").bounding_box()
        for testid in ("private-join", "spectate"):
            inside = page.locator(f"[data-testid={testid}]").bounding_box()
            assert panel is not None and inside is not None
            assert inside["x"] + inside["width"] <= panel["x"] + panel["width"], testid
        page.click("[data-testid=lang]")
    box.fill(CODE)
    page.click("[data-testid=spectate]")
    sent = stub.wait_sent("spectate")
    assert sent["code"] == CODE and "player" not in sent
    box.fill("东家")
    page.click("[data-testid=spectate]")
    sent = stub.wait_sent("spectate", 2)
    assert sent["player"] == "东家" and "code" not in sent
    screenshot(page, SHOTS, f"traps-watch-box-{viewport}")


# ------------------------------------------------------------- 6: English leftovers

_BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('[data-testid=fairness]'),
    NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\b[A-Za-z]{2,20}\\b/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""
"""The words of the seed line split over two lines (the hex digits may break anywhere)."""


def test_a_guests_replay_and_seed_line_in_english_on_a_phone(hall: Any, new_page: Any) -> None:
    page = new_page(**PHONE)
    page.goto(hall.url)
    page.click("[data-testid=lang]")  # English
    page.click("[data-testid=guest]")
    page.wait_for_selector("[data-testid=room]")
    me = page.text_content("[data-testid=me-name]") or ""
    assert me.startswith("Guest ")
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    trustee_to_result(page)
    assert page.evaluate(_BROKEN_WORDS) == []
    seat = open_replay(page)
    views = page.eval_on_selector_all(
        "[data-testid=replay-view]", "els => els.map(e => e.textContent)"
    )
    assert views[seat] == me  # not 游客…
    assert not any("游客" in name or "机器人" in name for name in views), views
    page.wait_for_selector("[data-testid=replay] [data-testid=fairness]")
    assert page.evaluate(_BROKEN_WORDS) == []
    screenshot(page, SHOTS, "traps-replay-english-phone")


# ------------------------------------------------------------- 14: a phone's layout

_ONE_LINE = """(selector) => {
  const el = document.querySelector(selector);
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""
"""On how many lines the text of ``selector`` lies."""


def meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_a_phones_header_hints_at_its_hidden_tabs_and_fits_its_tables(
    hall: Any, new_page: Any
) -> None:
    page = new_page(**PHONE)
    sign_up(page, hall.url, "phone-header")
    page.click("[data-testid=lang]")  # English: the tabs are wider than the header
    nav = "#top nav.tabs"
    page.wait_for_selector(f"{nav}[data-more=end]")  # its end fades: more tabs that way
    screenshot(page, SHOTS, "traps-header-english-phone")
    page.click("[data-testid=nav-leaders]")
    page.wait_for_selector(f"{nav} [data-testid=nav-leaders].on")
    shown, bar = box(page, "[data-testid=nav-leaders]"), box(page, nav)
    assert shown is not None and bar is not None
    assert shown["x"] + shown["width"] <= bar["x"] + bar["width"] + 1  # the tab shown in view
    page.click("[data-testid=lang]")
    page.click("[data-testid=nav-lobby]")
    feed(page, scoreboard(3))
    page.wait_for_selector("[data-testid=scoreboard]")
    assert page.evaluate(_ONE_LINE, "[data-testid=scoreboard-total] th") == 1  # 合计
    page.click("[data-testid=scoreboard-close]")


def test_a_note_keeps_off_the_toolbar_of_a_phone_held_sideways(hall: Any, new_page: Any) -> None:
    page = new_page(width=844, height=390, is_mobile=True, has_touch=True)
    sign_up(page, hall.url, "phone-sideways")
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    feed(page, {"type": "error", "code": "not_your_turn", "message": "x"})
    note = page.wait_for_selector("#toast div").bounding_box()
    toolbar = page.locator("[data-testid=table] .toolbar").bounding_box()
    assert note is not None and toolbar is not None
    assert not meet(note, toolbar)
    screenshot(page, SHOTS, "traps-note-sideways-phone")


_SAID_CUT = """() => [...document.querySelectorAll('[data-testid=table] .seat .said')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map((e) => e.textContent)"""
"""What the seats said that does not show in full (cut, or an ellipsis)."""


def test_what_a_zha_jin_hua_seat_said_shows_in_full_on_a_phone_held_sideways(
    hall: Any, new_page: Any
) -> None:
    page = new_page(width=844, height=390, is_mobile=True, has_touch=True)
    sign_up(page, hall.url, "zjh-sideways")
    join(page, "zhajinhua-yifa")
    next_decision(page, None)
    page.evaluate(
        """() => {
          for (const side of document.querySelectorAll('[data-testid=table] .seat .side')) {
            side.querySelector('.said')?.remove();
            const said = document.createElement('div');
            said.className = 'said';
            said.textContent = '加到 100（付 200）';
            side.prepend(said);
          }
        }"""
    )
    assert page.evaluate(_SAID_CUT) == []
    screenshot(page, SHOTS, "traps-zjh-said-sideways-phone")
