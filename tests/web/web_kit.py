"""Helpers of the browser tests: a real hall (``tests/server/server_kit.py``), Debian's
Chromium driven by Playwright, and what a test player does through the page.

Every wait here waits on the page (a selector, or a condition the page's ``data-`` hooks
satisfy), never on a sleep: bots act at once, so a table is only ever still when it waits
on the player in the browser.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

_SERVER_TESTS = Path(__file__).resolve().parent.parent / "server"
if str(_SERVER_TESTS) not in sys.path:
    sys.path.insert(0, str(_SERVER_TESTS))

from match_kit import level_match  # noqa: E402
from server_kit import RunningHall, fast_config, running_hall  # noqa: E402

__all__ = [
    "CHROMIUM",
    "RunningHall",
    "fast_config",
    "running_hall",
]

CHROMIUM = os.environ.get("QIPAI_CHROMIUM", "/usr/bin/chromium-headless-shell")
"""Debian's Chromium headless shell (installed by .ci/run): the same engine as the browser,
without the desktop browser around it, at about two thirds of its CPU.  Playwright's own
browser download is not used.  ``QIPAI_CHROMIUM`` runs another build (``/usr/bin/chromium``)."""
WAIT_MS = 20_000
"""How long any one awaited condition may take before the test fails (never reached when
the client works: frames and renders take milliseconds)."""
PASSWORD = "secret123"
HUMANS_ROOM = "doudizhu-humans"
"""A zhengtu room without bots (added by conftest), for several browser players together."""
HUANLE_HUMANS_ROOM = "doudizhu-huanle-humans"
"""A huanle room without bots (added by conftest): three browser players rob and 加倍."""
NO_COUNTER_ROOM = "doudizhu-no-counter"
"""A yifa room without the 记牌器 (added by conftest)."""

Page = Any


@contextlib.contextmanager
def hall_with(folder: Path, **changes: Any) -> Iterator[RunningHall]:
    """A hall of its own (SQLite in ``folder``): the tests' fast settings, a 2 s entropy
    window, and ``changes`` (a longer ``deal_step``, a shorter ``hand_pause``…)."""
    config = fast_config(f"sqlite:///{folder / 'hall.db'}", entropy_window=2.0, **changes)
    with running_hall(config) as running:
        yield running


def screenshot(page: Page, folder: Path, name: str) -> Path:
    """Save a screenshot to ``folder`` and, when set, to ``$QIPAI_SCREENSHOTS``."""
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    extra = os.environ.get("QIPAI_SCREENSHOTS")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(extra) / f"{name}.png"))
    return path


def sign_up(page: Page, url: str, name: str, password: str = PASSWORD) -> None:
    """Open the hall and register ``name``; returns in the lobby."""
    page.goto(url)
    page.fill("[data-testid=username]", name)
    page.fill("[data-testid=password]", password)
    page.click("[data-testid=sign-up]")
    page.wait_for_selector("[data-testid=room]", timeout=WAIT_MS)
    page.wait_for_selector("[data-testid=net][data-status=open]", timeout=WAIT_MS)


def join(page: Page, room: str) -> None:
    """Join a room from the lobby and wait for the table.  A click the lobby lost (it is
    drawn again on every frame, and a panel above the rooms may grow meanwhile) is made
    once more, if the page neither queued nor sat by half the wait."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: PLC0415

    button = f"[data-testid=room][data-room='{room}'] [data-testid=join]"
    page.click(button)
    joined = "() => document.querySelector('[data-testid=table]') || window.qipai.app.queued"
    try:
        page.wait_for_function(joined, timeout=WAIT_MS // 2)
    except PlaywrightTimeoutError:  # the click was lost
        page.click(button)
    page.wait_for_selector("[data-testid=table]", timeout=WAIT_MS)


_NEXT = """([last]) => {
  if (document.querySelector('[data-testid=result]')) return {kind: 'result'};
  const table = document.querySelector('[data-testid=table]');
  if (!table || table.dataset.busy !== '0') return null;
  const decision = table.dataset.decision;
  if (!decision || decision === last) return null;
  return {kind: 'turn', decision, legal: JSON.parse(table.dataset.legal)};
}"""


FRAMES_KEPT = 40
"""Messages of its socket a page keeps for the log of a stall (:func:`next_decision`)."""
_FRAMES: dict[int, collections.deque[str]] = {}


def record_frames(page: Page, socket: Any) -> None:
    """Keep the last :data:`FRAMES_KEPT` messages of ``page``'s WebSocket, each way."""
    kept = _FRAMES.setdefault(id(page), collections.deque(maxlen=FRAMES_KEPT))
    socket.on("framereceived", lambda payload: kept.append(f"<- {str(payload)[:300]}"))
    socket.on("framesent", lambda payload: kept.append(f"-> {str(payload)[:200]}"))


_STATE = """() => {
  const T = window.qipai && window.qipai.app.table;
  const el = document.querySelector('[data-testid=table]');
  const toasts = [...document.querySelectorAll('.toast')].map((e) => e.textContent);
  const dialogs = [...document.querySelectorAll('.overlay [data-testid]')]
    .map((e) => e.dataset.testid).slice(0, 12);
  if (!T || !T.state) return {table: null, toasts, dialogs};
  const s = T.state;
  return {pending: T.pending, number: T.number, hand: s.hand, n: s.n, legal: s.legal,
          turnSeat: s.turnSeat, seat: s.seat, over: Boolean(s.over),
          lifted: [...(T.ui.lifted || [])], dataset: el ? {...el.dataset} : null,
          net: window.qipai.app.net, toasts, dialogs};
}"""


def next_decision(page: Page, last: str | None, *, wait_ms: int = WAIT_MS) -> dict[str, Any]:
    """Wait for the result panel or a new decision of the player: ``{"kind", "legal"…}``.
    On a timeout the error says what the page held then (its table's state, the toasts and
    dialogs showing), so that a stall in a loaded run can be read from the log."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: PLC0415

    try:
        handle = page.wait_for_function(_NEXT, arg=[last or ""], timeout=wait_ms)
    except PlaywrightTimeoutError as error:
        held = page.evaluate(_STATE)
        frames = "\n".join(_FRAMES.get(id(page), ()))
        said = f"no new decision after {last!r} in {wait_ms} ms: {held}\nits socket:\n{frames}"
        raise AssertionError(said) from error
    value: dict[str, Any] = handle.json_value()
    return value


def at_my_turn(page: Page, url: str, name: str, room: str) -> Page:
    """``page`` signed up as ``name``, at a table of ``room``, at his first decision."""
    sign_up(page, url, name)
    join(page, room)
    next_decision(page, None)
    return page


def trustee_to_result(page: Page) -> None:
    """Hand the player's seat to 托管 and wait for the hand's result panel."""
    button(page, "trustee").click()
    page.wait_for_selector("[data-testid=result]")


WATCH_FX = """() => {
  // every burst made (its kind, its label's animation, whether it takes pointer events,
  // its stacking level) and every card or play flown in, as they are added to the page
  window.__fxSeen = [];
  window.__flown = 0;
  const seen = (el) => window.__fxSeen.push({
    kind: el.dataset.kind,
    animation: getComputedStyle(el.querySelector('.fx-label')).animationName,
    pointer: getComputedStyle(el).pointerEvents,
    z: Number(getComputedStyle(el).zIndex),
  });
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType === 1 && node.dataset.testid === 'fx') seen(node);
      }
      if (record.type === 'attributes' && record.target.classList.contains('fx-fly')) {
        window.__flown += 1;
      }
    }
  }).observe(document.body, {childList: true, subtree: true, attributes: true,
                             attributeFilter: ['class']});
}"""
"""Evaluated in a page: from then on it notes each burst as it is made, in
``window.__fxSeen`` (``kind``, ``animation``, ``pointer``, ``z``), and counts the cards
and plays flown in (``window.__flown``).  A burst lives about a second, which a busy
machine's next look may miss; the log keeps it."""


NOTES_LOG = """addEventListener("DOMContentLoaded", () => {
  window.__notes = [];
  const box = document.getElementById("toast");
  if (box) new MutationObserver((changes) => {
    for (const change of changes)
      for (const node of change.addedNodes) window.__notes.push(node.textContent);
  }).observe(box, { childList: true });
});"""
"""An init script (every page of ``new_page``): the page notes the text of each note
(toast) as it appears, in ``window.__notes``.  A note stays on screen 2.7 s, which a busy
machine's next look may miss; the log keeps it."""


def noted(page: Page, text: str, *, timeout: int = WAIT_MS) -> str:
    """The first note (toast) shown since the page was loaded whose text holds ``text``
    (waited for; ``""``: the first note of all)."""
    handle = page.wait_for_function(
        "(text) => (window.__notes || []).find((note) => note.includes(text))",
        arg=text,
        timeout=timeout,
    )
    found: str = handle.json_value()
    return found


def feed(page: Page, *frames: dict[str, Any]) -> None:
    """Hand frames to the page as if the hall had sent them."""
    page.evaluate("(frames) => window.qipai.onFrames(frames)", list(frames))


def decision_now(page: Page, last: str | None) -> dict[str, Any] | None:
    """The page's new decision or result now, without waiting (``None``: nothing new)."""
    value: dict[str, Any] | None = page.evaluate(_NEXT, [last or ""])
    return value


def button(page: Page, name: str) -> Any:
    """The action button ``data-testid="action-NAME"``; on a phone held upright a tool of
    the toolbar's ⋯ menu, which is opened for it."""
    found = page.locator(f"[data-testid=action-{name}]")
    more = page.locator("[data-testid=action-more]")
    if found.count() and not found.first.is_visible() and more.is_visible():
        more.click()
    return found


def hand(page: Page) -> list[str]:
    """The cards of the player's hand, as shown (``data-card``)."""
    cards: list[str] = page.eval_on_selector_all(
        "[data-testid=hand] [data-testid=card]", "els => els.map(e => e.dataset.card)"
    )
    return cards


def lifted(page: Page) -> list[str]:
    """The lifted cards of the hand."""
    cards: list[str] = page.eval_on_selector_all(
        "[data-testid=hand] [data-lifted='1']", "els => els.map(e => e.dataset.card)"
    )
    return cards


def box(page: Page, selector: str) -> dict[str, float] | None:
    """Where the element ``selector`` is on the page (``x``, ``y``, ``width``, ``height``),
    or ``None`` when there is none, read in one step in the page: a view drawn again
    between finding an element and measuring it (the header, on a frame) leaves a locator's
    ``bounding_box`` a detached element, and ``None``."""
    found: dict[str, float] | None = page.evaluate(
        """(selector) => {
            const element = document.querySelector(selector);
            if (!element) return null;
            const r = element.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        }""",
        selector,
    )
    return found


def felt_point(page: Page) -> tuple[float, float]:
    """A point of the bare felt (below the seats and the centre, above my row)."""
    box = page.locator(".arena").bounding_box()
    return box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.8


def click_card(page: Page, code: str) -> None:
    """Click a card of the hand with the mouse, on its visible left edge (the cards
    overlap, so the middle of a card may lie under the next one).  The point is taken
    where the card is when the click is made (Playwright waits for it to stand still and
    to be the one under the point): a frame that moves the hand between a look at it and
    the click (another seat's play, a banner) must not send the click to the felt, which
    puts every lifted card down."""
    page.locator(f"[data-testid=hand] [data-card='{code}']").click(position={"x": 6, "y": 24})


# --------------------------------------------------------------------- Dou Dizhu


def physical(move: str) -> str:
    """The physical ranks of a move text (``"4567W/45678"`` -> ``"4567W"``)."""
    return move.split("/", maxsplit=1)[0].split(" ", maxsplit=1)[0]


def cards_for(move: str, cards: Sequence[str]) -> list[str]:
    """The cards of ``cards`` that make the move's physical ranks."""
    left = list(cards)
    chosen = []
    for rank in physical(move):
        card = next(code for code in left if code[0] == rank)
        left.remove(card)
        chosen.append(card)
    return chosen


def ddz_choice(legal: Sequence[str]) -> str:
    """A test player's Dou Dizhu choice: 明牌 when offered, bid high and call, double, play
    the longest play (so hands end quickly), pass only when it must."""
    for wanted in ("show", "bid 3", "call", "rob", "double"):
        if wanted in legal:
            return wanted
    bids = [action for action in legal if action.startswith("bid ")]
    if bids:
        return bids[-1]
    plays = [action for action in legal if action.startswith("play ") and action != "play pass"]
    if plays:
        return max(plays, key=lambda action: len(physical(action[5:])))
    return legal[0]


_ACTION_IDS = {
    "nocall": "no-call",
    "norob": "no-rob",
    "nodouble": "no-double",
    "noshow": "no-show",
    "play pass": "pass",
}


def ddz_act(page: Page, action: str, *, right_click: bool = False) -> None:
    """Do a Dou Dizhu action through the page: buttons, or lift the cards and play."""
    if action.startswith("bid "):
        button(page, f"bid-{action[4:]}").click()
    elif action in _ACTION_IDS:
        button(page, _ACTION_IDS[action]).click()
    elif action.startswith("play "):
        lift_and_play(page, action, right_click=right_click)
    else:
        button(page, action).click()


def ddz_play_snapshot(
    name: str, cards: Sequence[str], legal: Sequence[str], *, rules: str = "caishen"
) -> dict[str, Any]:
    """A ``snapshot`` frame of a Dou Dizhu card play for a page to be fed: ``name`` at seat 0,
    a farmer holding ``cards``, to follow the landlord's 3 (table 999, event 40) with
    ``legal``; the others are the hall's bots 机器人2 and 机器人3."""
    bottom = ["3c", "4d", "BJ", "W"] if rules == "caishen" else ["3c", "4d", "BJ"]
    view = {
        "seat": 0,
        "rules": rules,
        "phase": "play",
        "current_player": 0,
        "hand": list(cards),
        "card_counts": [len(cards), 10, 12],
        "cards_dealt": 17,
        "deal_number": 1,
        "marker": None,
        "marker_seat": None,
        "first_bidder": 0,
        "shown_hands": [None, None, None],
        "show_factors": [1, 1, 1],
        "show_order": [],
        "auction": [],
        "standing_bid": 0,
        "candidate": 0,
        "landlord": 1,
        "base": 1,
        "robs": [],
        "multipliers": [[0, 2], [2, 2]],
        "standing_multiplier": None,
        "doubled": [False] * 3,
        "bottom": bottom,
        "bottom_size": len(bottom),
        "plays": [[1, "3"]],
        "trick": [[1, "3"]],
        "to_beat": "3",
        "to_beat_seat": 1,
        "bombs": 0,
        "rockets": 0,
        "wild_bombs": 0,
        "trustee": [False] * 3,
        "winner": None,
        "escaper": None,
        "spring": False,
        "anti_spring": False,
        "returns": None,
        "legal_actions": list(legal),
    }
    players = [
        {"name": who, "bot": who != name, "trustee": False, "connected": True, "escaped": False}
        for who in (name, "机器人2", "机器人3")
    ]
    return {
        "type": "snapshot",
        "table": 999,
        "n": 40,
        "seat": 0,
        "room": f"doudizhu-{rules}",
        "hand": "fake",
        "commitment": "0" * 64,
        "players": players,
        "view": view,
        "deadline": None,
    }


def lift_and_play(page: Page, action: str, *, right_click: bool = False) -> None:
    """Lift the cards of ``action`` by clicking them, then play (button or right-click);
    when the client asks which reading the cards stand for, choose ``action``."""
    wanted = cards_for(action[5:], hand(page))
    for _ in range(3):  # a lift undone meanwhile (a click that missed) is lifted again
        for card in lifted(page):
            click_card(page, card)  # start from a clean hand
        for card in wanted:
            click_card(page, card)
        if sorted(lifted(page)) == sorted(wanted):
            break
    if right_click:
        page.mouse.click(*felt_point(page), button="right")
    else:
        button(page, "play").click()
    chooser = page.locator(f"[data-testid=choices] [data-action='{action}']")
    if page.locator("[data-testid=choices]").count():
        chooser.click()


def play_to_result(
    page: Page,
    act: Callable[[Page, list[str]], None],
    *,
    limit: float = 60.0,
    on_turn: Callable[[Page, list[str]], bool] | None = None,
    wait_ms: int = WAIT_MS,
) -> int:
    """Answer every decision with ``act(page, legal)`` until the result panel shows;
    ``on_turn`` (if given) runs first and returns True when it took the decision itself.
    Returns the number of decisions taken."""
    last = None
    taken = 0
    give_up = time.monotonic() + limit
    while time.monotonic() < give_up:
        decision = next_decision(page, last, wait_ms=wait_ms)
        if decision["kind"] == "result":
            return taken
        last = decision["decision"]
        taken += 1
        if on_turn is not None and on_turn(page, decision["legal"]):
            continue
        act(page, decision["legal"])
    raise AssertionError("the hand did not end in time")


def result_coins(page: Page) -> list[int]:
    """Each seat's coin change on the result panel."""
    values: list[str] = page.eval_on_selector_all(
        "[data-testid=result] [data-testid=result-coins]", "els => els.map(e => e.textContent)"
    )
    return [int(value) for value in values]


def hands_until_tried(
    page: Page, play_hand: Callable[[list[str]], None], needed: set[str], hands: int = 5
) -> None:
    """Play hands (``play_hand(done)``: one hand to its result panel, adding what it tried
    to ``done``) until every control ``needed`` was tried, 再来一局 between them: the bots
    may end a hand before the player has tried everything."""
    done: list[str] = []
    for _ in range(hands):
        play_hand(done)
        if needed <= set(done):
            return
        button(page, "again").click()
        page.wait_for_selector("[data-testid=result]", state="detached")
    raise AssertionError(f"not tried in {hands} hands: {sorted(needed - set(done))}")


# --------------------------------------------------------------------- matches

WEB_MATCHES = (
    """
[[match]]
id = "web-trio"
name = "网页三人赛"
kind = "regular"
game = "doudizhu"
rules = "jj"
players = 3
bots = true
bot_wait = 0.5
entry_fee = 10
guarantee = 10
rule_changes = { all_pass = "forced" }
[[match.stage]]
kind = "fixed"
hands = 2
base = 10
[[match.prize]]
ranks = [1, 1]
coins = 30
[[match.prize]]
ranks = [2, 3]
coins = 5

"""
    + level_match(
        "web-tiyan",
        "网页体验赛",
        players=9,
        fields="bot_wait = 8\nentry_fee = 10",
        prizes="[[match.prize]]\nranks = [1, 1]\ncoins = 50\n"
        "[[match.prize]]\nranks = [2, 3]\ncoins = 20",
    )
    + """
[[match]]
id = "web-wait"
name = "网页等待赛"
kind = "regular"
game = "doudizhu"
rules = "jj"
players = 3
entry_fee = 20
[[match.stage]]
kind = "fixed"
hands = 1
[[match.prize]]
ranks = [1, 1]
coins = 50

[[match]]
id = "web-weekly"
name = "网页周赛"
kind = "scheduled"
game = "doudizhu"
rules = "jj"
players = 300
min_players = 6
every_minutes = 10080
at_minute = 0
entry_fee = 50000
[[match.stage]]
kind = "knockout"
name = "预赛"
line = 400
base = 10
advance = 30
[[match.stage]]
kind = "swiss"
name = "初赛"
rounds = 2
hands = 2
[[match.prize]]
ranks = [1, 1]
coins = 100000
[[match.prize]]
ranks = [2, 3]
coins = 30000
"""
)
"""The browser tests' matches (conftest gives them to the hall): ``web-trio`` starts with
bots 0.5 s after its first registration and plays two hands; ``web-tiyan`` is a 9-player
体验赛 (bots fill it 8 s after its first registration) whose scores all stay 0 (积分最小化
from 0), so that its ranks are the registration order (判定二): the first to register
wins, the sixth is knocked out in its first stage; ``web-wait`` has no bots, so
one player waits in it until he unregisters; ``web-weekly`` is a weekly scheduled match
whose fee a new player cannot pay (its stages named 预赛 and 初赛, as an operator may)."""
TIYAN_PRIZES = {1: 50, 2: 20, 3: 20}
"""``web-tiyan``'s prize by final rank."""
TRIO_PRIZES = {1: 30, 2: 5, 3: 5}
"""``web-trio``'s prize by final rank."""


def match_card(name: str) -> str:
    """The selector of a match's card on the match list."""
    return f"[data-testid=match][data-match='{name}']"


def open_matches(page: Page) -> None:
    """The 比赛 tab, once the match list has loaded."""
    page.click("[data-testid=nav-matches]")
    page.wait_for_selector("[data-testid=matches][data-loaded='1']", timeout=WAIT_MS)


def wait_coins(page: Page, coins: int) -> None:
    """Wait until the header shows ``coins``."""
    page.wait_for_selector(f"[data-testid=me-coins]:text-is('{coins}')", timeout=WAIT_MS)


_MATCH_NEXT = """([last, seen]) => {
  if (document.querySelector('[data-testid=match-over]')) return {kind: 'over'};
  const result = document.querySelector('[data-testid=result]');
  if (result && !seen.includes(result.dataset.hand)) {
    const all = (id) =>
      [...result.querySelectorAll(`[data-testid=${id}]`)].map((e) => e.textContent);
    const line = result.querySelector('[data-testid=result-match]');
    return {kind: 'result', hand: result.dataset.hand, match: result.dataset.match,
            points: all('result-points'), coins: all('result-coins'),
            line: line && line.textContent};
  }
  if (result) return null;
  const table = document.querySelector('[data-testid=table]');
  if (!table || table.dataset.busy !== '0') return null;
  const decision = table.dataset.decision;
  if (!decision || decision === last) return null;
  return {kind: 'turn', decision, legal: JSON.parse(table.dataset.legal)};
}"""


def play_match(
    page: Page,
    act: Callable[[Page, list[str]], None],
    on_result: Callable[[dict[str, Any]], None],
    *,
    limit: float = 120.0,
) -> int:
    """Answer every decision of a match with ``act(page, legal)``, table after table, until
    the final table shows; ``on_result(panel)`` gets what each hand's result panel showed
    (read at once: the panel stays open only until the player acts at his next table, or
    the final table replaces it): ``hand``, ``match`` (``"1"``), ``points`` and ``coins``
    (the cells), ``line`` (the match line).  Returns the number of decisions taken."""
    last = ""
    seen: list[str] = []
    taken = 0
    give_up = time.monotonic() + limit
    while time.monotonic() < give_up:
        handle = page.wait_for_function(_MATCH_NEXT, arg=[last, seen], timeout=WAIT_MS * 2)
        found: dict[str, Any] = handle.json_value()
        if found["kind"] == "over":
            return taken
        if found["kind"] == "result":
            seen.append(found["hand"])
            on_result(found)
            continue
        last = found["decision"]
        taken += 1
        act(page, found["legal"])
    raise AssertionError("the match did not end in time")


REPLAY = "[data-testid=replay]"
"""The replay page."""


def open_replay(page: Page) -> int:
    """From the result panel to the replay of the hand, at its first step (the deal); the
    seat the replay is seen from (mine)."""
    data = table_data(page)
    page.click("[data-testid=result] [data-testid=action-replay]")
    table = f"{REPLAY}[data-hand='{data['hand']}'] [data-testid=table][data-seat='{data['seat']}']"
    page.wait_for_selector(table)
    page.click("[data-testid=replay-first]")
    return int(data["seat"])


def replay_cards(page: Page, seat: int | None) -> list[str]:
    """The face-up cards of a seat in the replay (``None``: mine, at the bottom)."""
    where = (
        "[data-testid=hand]" if seat is None else f"[data-testid=seat][data-seat='{seat}'] .side"
    )
    cards: list[str] = page.eval_on_selector_all(
        f"{REPLAY} {where} [data-card]", "els => els.map(e => e.dataset.card)"
    )
    return cards


def table_data(page: Page) -> dict[str, str]:
    """The table's ``data-`` hooks."""
    data: dict[str, str] = page.eval_on_selector(
        "[data-testid=table]", "el => Object.assign({}, el.dataset)"
    )
    return data


def me(page: Page) -> dict[str, Any]:
    """``GET /api/me`` with the page's session."""
    text: str = page.evaluate(
        """async () => {
          const token = JSON.parse(localStorage.getItem('qipai.session')).token;
          const r = await fetch('/api/me', {headers: {Authorization: 'Bearer ' + token}});
          return await r.text();
        }"""
    )
    value: dict[str, Any] = json.loads(text)
    return value
