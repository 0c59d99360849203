"""好友房 end to end in Chromium against the real hall (issue 26, "What done looks like").

Three people in three browser contexts (a desktop, a phone, a desktop) play a 6-hand
积分 table of huanle with 任务: the owner creates it, the second joins by typing its code,
the third opens its link as a guest; a fourth context watches it (the code of a full table
offers to watch).  After each hand every page shows the scoreboard (its totals are the sums
of its rows), each hand's deal shows its 任务, the players see one spectator, and the
spectator's page never holds a hand; at the end the scoreboard is over.  The spectator's
WebSocket frames never held a hidden card.  The players hand their seats to 托管 so that
the hands play fast; the owner reloads his page in the middle and is back at the table.

Whether the winning side completes a task is chance: the hall's task list is only 打出顺子
(``chain``, what 托管 most often plays), and when no hand of the table completed it the
same people play another 6-hand table (at most 3 tables); every completed task shows in
that hand's result breakdown.

A second test plays a 3-hand ``coins`` table (the base of the template room's lowest
level) and runs ``qipai audit`` on the hall's database: clean.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from process_kit import audit_cli
from web_kit import (
    WAIT_MS,
    RunningHall,
    button,
    fast_config,
    me,
    noted,
    running_hall,
    screenshot,
    sign_up,
)

from qipai.hall.private.options import PrivateSettings

SHOTS = Path("/work/notes/shots")
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
TABLES = 3
"""At most this many 6-hand tables are played for a task to be completed (module doc)."""
Page = Any


@pytest.fixture(scope="module")
def private_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A hall of its own: bots (and 托管) act at once, 1 s between a table's hands, the
    private tables' 任务 list only ``chain``."""
    url = f"sqlite:///{tmp_path_factory.mktemp('private') / 'hall.db'}"
    config = fast_config(
        url, entropy_window=2.0, hand_pause=1.0, private=PrivateSettings(tasks=("chain",))
    )
    with running_hall(config) as running:
        yield running


class Frames:
    """The frames a page's WebSocket received (a batch is a list of frames)."""

    def __init__(self, page: Page) -> None:
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", self._take)

    def _take(self, payload: str | bytes) -> None:
        value = json.loads(payload)
        self.frames.extend(value if isinstance(value, list) else [value])

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame.get("type") == kind]


def create(page: Page, *, rules: str, stakes: str = "points", tasks: bool = False) -> str:
    """The owner's 创建好友房 (6 hands); the table's code."""
    page.click("[data-testid=private-create]")
    page.wait_for_selector("[data-testid=private-form]")
    page.select_option("[data-testid=private-rules]", rules)
    page.select_option("[data-testid=private-stakes]", stakes)
    if tasks:
        page.check("[data-testid=private-tasks]")
    page.click("[data-testid=private-confirm]")
    code = page.wait_for_selector("[data-testid=private-room] [data-testid=private-code]")
    return str(code.inner_text())


def join_by_code(page: Page, code: str) -> None:
    """Type the code into the lobby's join box."""
    page.fill("[data-testid=private-join-code]", code)
    page.click("[data-testid=private-join]")


def in_room(page: Page, code: str) -> None:
    page.wait_for_selector(f"[data-testid=private-room][data-code='{code}']", timeout=WAIT_MS)


def ready(*pages: Page) -> None:
    for page in pages:
        page.click("[data-testid=private-room] [data-testid=ready]")
        page.wait_for_selector(  # the last one ready: the hand starts
            "[data-testid=ready][data-ready='1'], [data-testid=table]", timeout=WAIT_MS
        )


RECORDER = (Path(__file__).parent / "page_recorder.js").read_text(encoding="utf-8")
"""A script for every page (``page_recorder.js``): what the page showed, kept in its
sessionStorage under ``qipai.e2e``."""


def recorded(page: Page) -> dict[str, Any]:
    """What the page's recorder saw (:data:`RECORDER`)."""
    text = page.evaluate("() => sessionStorage.getItem('qipai.e2e')")
    value: dict[str, Any] = json.loads(
        text or '{"dealt": {}, "results": {}, "boards": [], "watchers": [], "hands": 0}'
    )
    return value


def forget(page: Page) -> None:
    if page.url.startswith("http"):
        page.evaluate("() => sessionStorage.removeItem('qipai.e2e')")


def check_boards(
    seen: dict[str, Any], hands: int, first: int = 1, *, coins: bool = False
) -> list[str]:
    """The page showed a scoreboard after each hand from ``first`` to ``hands``, each
    one's totals the sums of its rows, the last one over; the hands' ids.  ``coins``: its
    rows are coins won or lost, the house's rake taken from the winners."""
    boards = seen["boards"]
    for board in boards:
        assert [sum(col) for col in zip(*board["rows"], strict=True)] == board["totals"]
        if coins:  # coins: the rake the house kept is out of the winners'
            assert sum(board["totals"]) <= 0
        else:
            assert sum(board["totals"]) == 0  # points are zero-sum
    assert {len(board["rows"]) for board in boards} >= set(range(first, hands + 1))
    last = boards[-1]
    assert last["over"] == "1" and len(last["rows"]) == hands
    return list(last["hands"])


def trustee_on(page: Page) -> None:
    """托管, through the table's tool."""
    close = page.locator("[data-testid=scoreboard] [data-testid=scoreboard-close]")
    if close.count() and close.is_visible():
        close.click()
    tool = button(page, "trustee")
    if "on" not in (tool.first.get_attribute("class") or ""):
        tool.first.click()


def spectator_frames_hide_the_hands(frames: list[dict[str, Any]]) -> None:
    """Every snapshot the spectator got is seat-less and holds no hand (or no view: the
    table's, sent as it opened, before the deal); every dealt card he got was public (明牌);
    no turn offered him a move."""
    snapshots = [f for f in frames if f["type"] == "snapshot"]
    assert snapshots
    for frame in snapshots:
        assert frame["seat"] is None
        view = frame["view"]
        assert view is None or (view["hand"] == [] and view["legal_actions"] == [])
    for frame in frames:
        if frame["type"] == "event" and "event" in frame:
            event = frame["event"]
            if event.get("kind") == "CardsDealt":
                assert event["public"], frame
        if frame["type"] == "turn":
            assert not frame.get("legal") and not frame.get("options"), frame


def completed_tasks(frames: list[dict[str, Any]]) -> set[str]:
    """The hands whose 任务 was completed, by the hand_over frames a player got."""
    done = set()
    for frame in frames:
        if frame["type"] != "hand_over":
            continue
        pairs = (frame.get("explain") or {}).get("pairs") or []
        if any(
            reason == "task" and count > 0
            for pair in pairs
            for reason, count, *_ in pair["factors"]
        ):
            done.add(frame["hand"])
    return done


def seat_three(
    url: str, players: list[Page], *, rules: str, stakes: str, tasks: bool, shots: bool
) -> str:
    """The first player creates a 6-hand table, the second joins by typing its code, the
    third opens its link (as a guest, the first time).  The table's code."""
    owner, friend, linked = players
    code = create(owner, rules=rules, stakes=stakes, tasks=tasks)
    link = owner.get_attribute("[data-testid=private-room] [data-testid=private-code]", "data-link")
    assert link == f"{url}/?p={code}"
    join_by_code(friend, code)
    in_room(friend, code)
    linked.goto(link)
    if linked.locator("[data-testid=guest]").count():
        linked.click("[data-testid=guest]")
    in_room(linked, code)
    assert "?p=" not in linked.url
    if shots:
        screenshot(owner, SHOTS, "e2e-room-owner-desktop")
        screenshot(friend, SHOTS, "e2e-room-friend-phone")
    return code


def start(players: list[Page]) -> None:
    """All press 准备: the first hand is dealt."""
    ready(*players)
    players[0].wait_for_selector("[data-testid=table] [data-testid=private-strip]", timeout=WAIT_MS)


def offered_to_watch(watcher: Page, code: str) -> None:
    """``watcher`` types the code of the full table and accepts the offer to watch it."""
    join_by_code(watcher, code)
    watcher.wait_for_selector("[data-testid=watch-offer]")
    watcher.click("[data-testid=confirm]")


def watch(watcher: Page, code: str, players: list[Page]) -> None:
    """``watcher`` watches the full table, which has not started yet: told so, he waits in
    the lobby; once its first hand is dealt he watches it; the players see one spectator."""
    offered_to_watch(watcher, code)
    noted(watcher, "开局后自动观战")
    assert watcher.locator("[data-testid=lobby]").count() == 1
    start(players)
    watcher.wait_for_selector("[data-testid=table][data-spectating='1']", timeout=WAIT_MS)
    for page in players:
        page.wait_for_selector(
            "[data-testid=private-strip] [data-testid=spectator-count][data-count='1']",
            timeout=WAIT_MS,
        )


def after_hands(page: Page, hands: int) -> None:
    """Wait until the page has shown the scoreboard of ``hands`` hands."""
    page.wait_for_function(
        "(n) => (JSON.parse(sessionStorage.getItem('qipai.e2e') || '{}').boards || [])"
        ".some((b) => b.rows.length >= n)",
        arg=hands,
        timeout=WAIT_MS * 3,
    )


def the_end(pages: list[Page]) -> None:
    for page in pages:
        page.wait_for_selector("[data-testid=scoreboard][data-over='1']", timeout=WAIT_MS * 4)


def to_lobby(pages: list[Page]) -> None:
    """From the final scoreboard to the lobby."""
    from playwright.sync_api import Error as PlaywrightError  # noqa: PLC0415  (a test extra)

    for page in pages:
        page.click("[data-testid=scoreboard-close]")
        try:
            page.wait_for_selector("[data-testid=lobby]")
        except PlaywrightError as error:  # say where the page stayed
            held = page.evaluate(
                "() => ({url: location.href, dialogs: [...document.querySelectorAll("
                "'.overlay [data-testid]')].map((e) => e.dataset.testid).slice(0, 8), "
                "table: window.qipai.app.table && window.qipai.app.table.number})"
            )
            raise AssertionError(f"not in the lobby after the final scoreboard: {held}") from error


def one_table(url: str, players: list[Page], watcher: Page, *, shots: bool) -> None:
    """A 6-hand 积分 table of huanle with 任务 (:func:`seat_three`), watched by
    ``watcher``; the players switch 托管 on; the first player reloads his page after the
    third hand.  Returns once every page shows the final scoreboard."""
    owner, friend, _ = players
    for page in [*players, watcher]:
        forget(page)
    code = seat_three(url, players, rules="huanle", stakes="points", tasks=True, shots=shots)
    watch(watcher, code, players)
    if shots:
        screenshot(friend, SHOTS, "e2e-table-phone")
        screenshot(watcher, SHOTS, "e2e-spectator-desktop")
    for page in players:
        trustee_on(page)
    after_hands(owner, 3)
    owner.reload()  # in the middle: back at the private table
    owner.wait_for_selector("[data-testid=table] [data-testid=private-strip]", timeout=WAIT_MS)
    the_end([*players, watcher])
    if shots:
        screenshot(owner, SHOTS, "e2e-over-desktop")
        screenshot(friend, SHOTS, "e2e-over-phone")
        screenshot(watcher, SHOTS, "e2e-over-spectator-desktop")


def test_three_friends_play_a_private_table_watched_by_a_fourth(
    private_hall: RunningHall, new_page: Any
) -> None:
    url = private_hall.url.rstrip("/")
    owner, friend, linked, spectator = new_page(), new_page(**PHONE), new_page(), new_page()
    players = [owner, friend, linked]
    for page in [*players, spectator]:
        page.add_init_script(RECORDER)
    frames = {name: Frames(page) for name, page in (("owner", owner), ("spectator", spectator))}
    sign_up(owner, url, "房主甲")
    sign_up(friend, url, "好友乙")
    sign_up(spectator, url, "观众丁")
    done: set[str] = set()
    for table in range(TABLES):
        one_table(url, players, spectator, shots=table == 0)
        seen = {page: recorded(page) for page in [*players, spectator]}
        hands = check_boards(seen[friend], 6)
        for page in [*players, spectator]:
            assert check_boards(seen[page], 6, first=1 if page is not spectator else 2) == hands
        for page in [friend, linked]:
            assert set(seen[page]["dealt"]) == set(hands)
            assert set(seen[page]["dealt"].values()) == {"chain"}  # shown at each deal
            assert "1" in seen[page]["watchers"]
        assert seen[spectator]["hands"] == 0  # never a hand on the spectator's page
        assert set(seen[spectator]["dealt"].values()) == {"chain"}
        completed = completed_tasks(frames["owner"].frames) & set(hands)
        for page in [friend, linked]:
            for hand in completed:
                assert seen[page]["results"][hand] == {"task": "1", "factor": True}
            for hand in set(hands) - completed:
                if hand in seen[page]["results"]:
                    assert seen[page]["results"][hand] == {"task": "0", "factor": False}
        done |= completed
        to_lobby([*players, spectator])
        if done:
            break
    assert done, f"no 任务 completed in {TABLES} tables"
    spectator_frames_hide_the_hands(frames["spectator"].frames)


def close_table(owner: Page) -> None:
    """The owner's 关闭 on the table's strip, once confirmed.  The scoreboard shown after
    each hand lies over the strip (the owner closes it, and the next hand's comes), so the
    clicks go to the buttons themselves."""
    owner.locator("[data-testid=private-strip] [data-testid=private-close]").dispatch_event("click")
    owner.locator("[data-testid=confirm]").dispatch_event("click")


def test_a_coins_table_of_three_hands_leaves_a_clean_ledger(
    private_hall: RunningHall, new_page: Any
) -> None:
    url = private_hall.url.rstrip("/")
    owner, friend, linked = new_page(**PHONE), new_page(), new_page()
    players = [owner, friend, linked]
    for page in players:
        page.add_init_script(RECORDER)
    sign_up(owner, url, "金币房主")
    sign_up(friend, url, "金币好友")
    linked.goto(url)
    linked.click("[data-testid=guest]")
    linked.wait_for_selector("[data-testid=net][data-status=open]", timeout=WAIT_MS)
    before = [me(page)["coins"] for page in players]
    seat_three(url, players, rules="yifa", stakes="coins", tasks=False, shots=False)
    start(players)
    for page in players:
        trustee_on(page)
    after_hands(owner, 3)
    close_table(owner)
    the_end(players)
    screenshot(owner, SHOTS, "e2e-coins-over-phone")
    boards = recorded(owner)["boards"]
    rows = check_boards(recorded(owner), len(boards[-1]["rows"]), first=3, coins=True)
    assert len(rows) in (3, 4)  # closed after the third hand (or during the fourth)
    to_lobby(players)
    after = [me(page)["coins"] for page in players]
    assert after != before and sum(after) <= sum(before)  # settled in coins, the rake kept
    checked = audit_cli(private_hall.db_url)
    assert checked.returncode == 0, checked.stdout + checked.stderr
