"""The client in English (issue 27: the 记牌器 said 大王 / 小王, chat mutes 机器人2, stage names
预赛 / 初赛, "fixed hands 2 hands", 明牌 "Show hand"…): every view walked in English shows no
Chinese character outside card faces and player names: the sign-in page, the lobby, every
game's table at every decision of a hand played by clicking, its dialogs (上手牌, 历史得分,
quick chat, 逃跑, the wildcard chooser, the raise, compare and bet choosers), the result,
the replay stepped through, history, the leaderboards, the match list, its waiting screen,
a match played to its final table, its notices, and a hand the hall cancelled.

The hall's guests and rooms are named in English too (their names are Chinese on the
server); a player's own name is his, and a bot's nickname is the same in every language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from web_kit import (
    REPLAY,
    button,
    ddz_act,
    ddz_choice,
    feed,
    join,
    match_card,
    next_decision,
    open_matches,
    open_replay,
    play_match,
    play_to_result,
    screenshot,
    sign_up,
    table_data,
)

from qipai.hall.table.botseats import BOT_NAMES

Page = Any
CJK = re.compile(r"[\u4e00-\u9fff]")

_SCAN = r"""() => {
  const CJK = /[\u3000-\u303f\u3400-\u9fff\uff01-\uff5e]/;
  const skip = (el) =>
    !el || el.closest('.card, .nm, [data-name], [data-testid=lang], script, style, svg');
  const shown = (el) => el.getClientRects().length > 0;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (skip(el) || !shown(el) || !CJK.test(node.textContent)) continue;
    found.push(`${el.dataset.testid || el.className || el.tagName}: ${node.textContent.trim()}`);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (skip(el)) continue;
    for (const name of ['title', 'aria-label', 'placeholder']) {
      const value = el.getAttribute(name);
      const what = el.dataset.testid || el.tagName;
      if (value && CJK.test(value)) found.push(`${name} of ${what}: ${value}`);
    }
  }
  if (CJK.test(document.title)) found.push(`title: ${document.title}`);
  return found;
}"""
"""Every Chinese text shown now (and every title, label and placeholder), outside card
faces (``.card``) and player names (``.nm``, ``data-name``): where, and what.  The header's
language switch says 中文 (the name of the other language in its own: the way back)."""


class Walk:
    """What a page showed in Chinese, view by view."""

    def __init__(self, page: Page, folder: Path) -> None:
        self.page = page
        self.folder = folder
        """Where its screenshots go."""
        self.found: dict[str, list[str]] = {}

    def look(self, where: str) -> None:
        """Scan the page as it is now."""
        texts: list[str] = self.page.evaluate(_SCAN)
        for text in texts:
            seen = self.found.setdefault(where, [])
            if text not in seen:
                seen.append(text)

    def dialog(self, where: str, opener: str, testid: str) -> None:
        """Open a dialog with ``button(opener)``, scan it, close it with Esc."""
        button(self.page, opener).click()
        self.page.wait_for_selector(f"[data-testid={testid}]")
        self.look(where)
        self.page.keyboard.press("Escape")
        self.page.wait_for_selector(f"[data-testid={testid}]", state="detached")

    def assert_english(self) -> None:
        assert self.found == {}, "\n".join(f"{k}: {v}" for k, v in self.found.items())


def _english(page: Page, url: str, name: str, folder: Path) -> Walk:
    """A new player signed up in English, in the lobby."""
    page.goto(url)
    page.click("[data-testid=lang]")
    walk = Walk(page, folder)
    walk.look("sign-in")
    sign_up(page, url, name)
    walk.look("lobby")
    return walk


def _ddz_tools(walk: Walk) -> None:
    walk.dialog("上手牌", "last-trick", "last-trick")
    walk.dialog("历史得分", "scores", "scores")
    walk.page.click("[data-testid=chat]")
    walk.page.wait_for_selector("[data-testid=chat-panel]")
    walk.look("quick chat")
    walk.page.keyboard.press("Escape")
    button(walk.page, "escape").click()
    walk.page.wait_for_selector("[data-testid=confirm-dialog]")
    walk.look("逃跑")
    walk.page.keyboard.press("Escape")


def _ddz_hand(walk: Walk, room: str) -> None:
    """A hand of ``room`` played by clicking, the page scanned at every decision; the tools'
    dialogs at the first play; then the result."""
    page = walk.page
    join(page, room)
    tools = [False]

    def on_turn(page: Page, legal: list[str]) -> bool:
        phase = table_data(page)["phase"]
        walk.look(f"{room} {phase}")
        if phase == "play" and not tools[0]:
            tools[0] = True
            screenshot(page, walk.folder, f"english-{room}")
            _ddz_tools(walk)
        return False

    def act(page: Page, legal: list[str]) -> None:
        choice = ddz_choice(legal)
        wild = [a for a in legal if "/" in a]
        if wild and choice in wild:  # the wildcard chooser, scanned before it is answered
            walk.look(f"{room} reading")
        ddz_act(page, choice)

    play_to_result(page, act, on_turn=on_turn)
    walk.look(f"{room} result")


def test_every_dou_dizhu_table_and_its_result_and_replay_in_english(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    walk = _english(page, hall.url, "en_ddz", tmp_path)
    for room in ("doudizhu-yifa", "doudizhu-caishen", "doudizhu-huanle", "doudizhu-jj"):
        _ddz_hand(walk, room)
        if room != "doudizhu-jj":
            button(page, "lobby").click()
    open_replay(page)
    for step in range(8):  # the deal, the auction, the first plays
        walk.look(f"replay step {step}")
        page.click(f"{REPLAY} [data-testid=replay-next]")
    page.click(f"{REPLAY} [data-testid=replay-last]")
    walk.look("replay end")
    page.click("[data-testid=nav-history]")
    page.wait_for_selector("[data-testid=history-row]")
    walk.look("history")
    page.click("[data-testid=nav-leaders]")
    page.wait_for_selector("[data-testid=leaders][data-loaded='1']")
    walk.look("leaderboards")
    walk.assert_english()


def _poker_hand(walk: Walk, room: str) -> None:
    """A hand of Zha Jin Hua or Showhand: each chooser opened and scanned, then folded or
    played by 托管 to the result."""
    page = walk.page
    join(page, room)
    for _ in range(3):
        decision = next_decision(page, None)
        if decision["kind"] == "result":
            break
        walk.look(f"{room} {table_data(page)['phase']}")
        legal = decision["legal"]
        for chooser in ("raise", "compare", "bet"):
            if page.locator(f"[data-testid=action-{chooser}]").count():
                button(page, chooser).click()
                if page.locator("[data-testid=choices]").count():
                    walk.look(f"{room} {chooser} chooser")
                    page.keyboard.press("Escape")
        first = next((a for a in ("look", "peek", "check") if a in legal), None)
        if first is None:
            break
        button(page, first).click()
        walk.look(f"{room} after {first}")
        break
    if page.locator("[data-testid=result]").count() == 0:
        button(page, "trustee").click()
        walk.look(f"{room} 托管")  # the banner, while the system plays
        page.wait_for_selector("[data-testid=result]")
    walk.look(f"{room} result")
    page.keyboard.press("Escape")
    data = table_data(page)
    number = page.evaluate("() => window.qipai.app.table.number")
    voided = {"type": "hand_voided", "hand": data["hand"], "table": number, "reason": "restart"}
    feed(page, voided)  # as if the hall had cancelled it
    page.wait_for_selector("[data-testid=result] [data-testid=voided-reason]")
    walk.look(f"{room} cancelled")
    button(page, "lobby").click()


def test_the_poker_tables_in_english(hall: Any, new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    walk = _english(page, hall.url, "en_poker", tmp_path)
    _poker_hand(walk, "zhajinhua-yifa")
    _poker_hand(walk, "showhand-yifa")
    walk.assert_english()


def test_matches_their_notices_and_a_cancelled_hand_in_english(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    walk = _english(page, hall.url, "en_match", tmp_path)
    open_matches(page)
    walk.look("match list")
    page.click(f"{match_card('web-wait')} [data-testid=register]")
    page.wait_for_selector("[data-testid=match-waiting]")
    walk.look("match waiting")
    page.click("[data-testid=waiting-unregister]")
    page.wait_for_selector("[data-testid=match-waiting]", state="detached")
    page.click(f"{match_card('web-trio')} [data-testid=register]")
    page.wait_for_selector("[data-testid=table]")
    walk.look("match table")
    play_match(
        page,
        lambda p, legal: ddz_act(p, ddz_choice(legal)),
        lambda panel: walk.look("match result"),
    )
    walk.look("match over")
    feed(page, {"type": "match_advanced", "match": "web-trio", "run": 1, "stage": 1})
    walk.look("match notice")
    walk.assert_english()


def test_guests_and_rooms_are_named_in_english(hall: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(hall.url)
    page.click("[data-testid=lang]")  # English
    page.click("[data-testid=guest]")
    page.wait_for_selector("[data-testid=room]")
    me = page.text_content("[data-testid=me-name]") or ""
    assert me.startswith("Guest ") and not CJK.search(me)
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    seats = page.eval_on_selector_all(
        "[data-testid=table] .arena [data-testid=seat] .nm", "els => els.map(e => e.textContent)"
    )
    assert seats and all(name in BOT_NAMES for name in seats), seats
    title = page.text_content("[data-testid=table] .toolbar .info b") or ""
    assert title and not CJK.search(title), title
    page.click("[data-testid=lang]")  # back to Chinese: the hall's own names
    page.wait_for_selector("[data-testid=me-name]:text-matches('^游客')")
    again = page.eval_on_selector_all(
        "[data-testid=table] .arena [data-testid=seat] .nm", "els => els.map(e => e.textContent)"
    )
    assert again == seats  # a bot's nickname is the same in Chinese
