"""The lobby's stake levels 场次 in the browser: 快速开始 picks the room for the player's
coins and seats him, its rule (``js/stakes.js``) coin by coin, a player short of every
minimum told so, the players online on each room card, the level tags in order, and the
lobby on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_kit import WAIT_MS, next_decision, noted, screenshot, sign_up

from qipai.hall.rooms import LEVELS, default_rooms
from qipai.registry import Payout

QUICK = "[data-testid=quick-start]"
NEW_COINS = 10_000
"""What a new player holds."""
PICKS_AT_10000 = {
    "doudizhu": "doudizhu-yifa-junior",  # 960 × 3 <= 10,000 < 4,800 × 3
    "zhajinhua": "zhajinhua-yifa-junior",  # 1,000 × 3 <= 10,000 < 4,000 × 3
    "showhand": "showhand-yifa-middle",  # 2,000 × 3 <= 10,000 < 10,000 × 3
}
"""The room quick start joins for a new player, by game (the highest level whose minimum is
at most a third of his coins)."""


def _online(page: Any, room: str) -> str:
    """The players online the card of ``room`` shows (``""`` until known)."""
    value: str = page.get_attribute(
        f"[data-testid=room][data-room='{room}'] [data-testid=online]", "data-count"
    )
    return value


def test_quick_start_seats_a_new_player_in_the_level_for_his_coins(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    room = PICKS_AT_10000["doudizhu"]
    watcher = new_page()  # another player, looking at the lobby all along
    sign_up(watcher, hall.url, "场次观众")
    card = f"[data-testid=room][data-room='{room}'] [data-testid=online]"
    watcher.wait_for_selector(f"{card}:not([data-count=''])")
    before = int(_online(watcher, room))
    page = new_page()
    page.goto(hall.url)
    page.click("[data-testid=guest]")
    page.wait_for_selector(f"{QUICK}[data-room='{room}']")  # 斗地主 first, as the lobby lists
    assert page.get_attribute(QUICK, "data-game") == "doudizhu"
    assert page.inner_text("[data-testid=me-coins]").strip() == str(NEW_COINS)
    assert "斗地主 · 初级场" in page.inner_text(QUICK)
    screenshot(page, tmp_path, "lobby-levels")
    page.click(QUICK)
    decision = next_decision(page, None)  # at a table, his turn
    assert decision["kind"] == "turn" and decision["legal"]
    assert page.evaluate("() => window.qipai.app.table.state.room") == room
    # the watcher's lobby fetches the counts every 10 s: the newcomer shows up, alone (the
    # two bots at his table are no players)
    watcher.wait_for_selector(f"{card}[data-count='{before + 1}']", timeout=WAIT_MS)
    # 在线 N 人, and · 机器人 M where the hall counts its bots apart (issue 26)
    assert watcher.inner_text(card).startswith(f"在线 {before + 1} 人")
    watcher.locator(card).scroll_into_view_if_needed()
    screenshot(watcher, tmp_path, "lobby-levels-online")


def test_the_game_choice_moves_quick_start_to_that_game(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "场次选择")
    for game, room in PICKS_AT_10000.items():
        page.click(f"[data-testid=quick-game][data-game={game}]")
        page.wait_for_selector(f"{QUICK}[data-game={game}][data-room='{room}']")
        pressed = page.get_attribute(f"[data-testid=quick-game][data-game={game}]", "aria-pressed")
        assert pressed == "true"
        assert page.locator("[data-testid=quick-game][aria-pressed=true]").count() == 1


_PICKS = """async ([cases]) => {
  const { quickPick } = await import('/js/stakes.js');
  const rooms = await (await fetch('/api/rooms')).json();
  return cases.map(([game, coins]) => {
    const room = quickPick(rooms, game, coins);
    return room ? room.id : null;
  });
}"""

RULE_CASES = [
    # Dou Dizhu 易发: minimum N × 96 for N = 1, 10, 50, 200
    ("doudizhu", NEW_COINS, "doudizhu-yifa-junior"),
    ("doudizhu", 3 * 4_800, "doudizhu-yifa-middle"),  # exactly three times the minimum
    ("doudizhu", 3 * 4_800 - 1, "doudizhu-yifa-junior"),
    ("doudizhu", 3 * 19_200, "doudizhu-yifa-senior"),
    ("doudizhu", 10**9, "doudizhu-yifa-senior"),
    ("doudizhu", 3 * 960 - 1, "doudizhu-yifa"),  # the 新手场 listed first of its level
    ("doudizhu", 100, "doudizhu-yifa"),  # under three minimums: the lowest he may join
    ("doudizhu", 96, "doudizhu-yifa"),
    ("doudizhu", 95, None),
    # Zha Jin Hua: minimum = cap = 200 × base for base 1, 5, 20, 100
    ("zhajinhua", NEW_COINS, "zhajinhua-yifa-junior"),
    ("zhajinhua", 12_000, "zhajinhua-yifa-middle"),
    ("zhajinhua", 2_999, "zhajinhua-yifa"),
    ("zhajinhua", 250, "zhajinhua-yifa"),
    ("zhajinhua", 199, None),
    # Showhand: minimum 100 × base for base 1, 5, 20, 100
    ("showhand", NEW_COINS, "showhand-yifa-middle"),
    ("showhand", 30_000, "showhand-yifa-senior"),
    ("showhand", 1_499, "showhand-yifa"),
    ("showhand", 99, None),
    ("go", NEW_COINS, None),  # a game the hall has no room of
]


def test_the_quick_start_rule_coin_by_coin(hall: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(hall.url)
    cases = [[game, coins] for game, coins, _ in RULE_CASES]
    picks = page.evaluate(_PICKS, [cases])
    assert picks == [room for _, _, room in RULE_CASES]
    # the rule against the shipped rooms: never a room whose minimum is over a third of the
    # coins when one at most a third exists, and the highest level among those
    rooms = {room.id: room for room in default_rooms()}
    for (game, coins, _), pick in zip(RULE_CASES, picks, strict=True):
        if pick is None or rooms[pick].min_coins * 3 > coins:
            continue
        higher = [
            r for r in rooms.values()
            if r.game == game and r.min_coins * 3 <= coins
            and LEVELS.index(r.level) > LEVELS.index(rooms[pick].level)
        ]  # fmt: skip
        assert higher == [], (game, coins, pick)


def test_a_player_short_of_every_minimum_is_told_so(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "场次穷人")
    # the page as it is for a player left with 50 coins (a new one has 10,000)
    page.evaluate("() => { window.qipai.app.me.coins = 50; window.qipai.app.route(); }")
    page.wait_for_selector(f"{QUICK}[data-room='']")
    assert "游戏币不足" in page.inner_text(QUICK)
    page.click(QUICK)
    assert noted(page, "") == "游戏币不足，无法加入任何斗地主房间（最少需要 96 游戏币）"
    assert page.locator(".overlay").count() == 0  # no dialog, no 匹配中 layer
    assert page.locator("[data-testid=lobby]").count() == 1  # still in the lobby


def test_each_game_lists_its_rooms_by_level_with_their_tags(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "场次标签")
    cards = page.eval_on_selector_all(
        "[data-testid=room]",
        """els => els.map(e => [e.dataset.game, e.dataset.room, e.dataset.level,
                                e.querySelector('[data-testid=level]').textContent])""",
    )
    points = set(
        page.eval_on_selector_all(
            "[data-testid=room]:has([data-testid=level][data-points='1'])",
            "els => els.map(e => e.dataset.room)",
        )
    )  # tagged 积分场, whatever its level: the rooms whose hands move no coin
    shipped_points = {room.id for room in default_rooms() if room.payout is Payout.POINTS_ONLY}
    assert shipped_points == {"doudizhu-zhengtu"} and shipped_points <= points
    assert not points & {room.id for room in default_rooms()} - shipped_points
    names = {"novice": "新手场", "junior": "初级场", "middle": "中级场", "senior": "高级场"}
    games = list(dict.fromkeys(game for game, *_ in cards))
    assert games == ["doudizhu", "zhajinhua", "showhand"]
    for game in games:
        mine = [card for card in cards if card[0] == game]
        ranks = [LEVELS.index(level) for _, _, level, _ in mine]
        assert ranks == sorted(ranks), game  # 新手场 first, 高级场 last
        assert set(ranks) == set(range(len(LEVELS))), game  # every level shows
        assert all(
            tag == ("积分场" if room in points else names[level]) for _, room, level, tag in mine
        )
    shipped = {room.id: room.level for room in default_rooms()}
    assert all(shipped[room] == level for _, room, level, _ in cards if room in shipped)
    page.click("[data-testid=lang]")
    senior = "[data-testid=room][data-room='showhand-yifa-senior'] [data-testid=level]"
    assert page.inner_text(senior) == "Senior"
    zhengtu = "[data-testid=room][data-room='doudizhu-zhengtu']"
    assert page.inner_text(f"{zhengtu} [data-testid=level]") == "Points only"
    assert page.inner_text(f"{zhengtu} .name").endswith("· Points only")
    page.click("[data-testid=lang]")


def test_the_lobby_fits_a_phone(hall: Any, new_page: Any, tmp_path: Path) -> None:
    width = 390
    page = new_page(width=width, height=844, is_mobile=True, has_touch=True)
    page.goto(hall.url)
    page.click("[data-testid=guest]")
    page.wait_for_selector(f"{QUICK}:not([data-room=''])")
    page.wait_for_selector("[data-testid=online]:not([data-count=''])")
    boxes = page.eval_on_selector_all(
        f"{QUICK}, [data-testid=quick-game], [data-testid=room]",
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [e.dataset.room || e.dataset.game || e.dataset.testid, r.left, r.right]; })",
    )
    assert len(boxes) > 3
    outside = [name for name, left, right in boxes if left < 0 or right > width + 0.5]
    assert outside == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    quick = page.locator(QUICK).bounding_box()
    assert quick is not None and quick["width"] >= width / 2  # prominent: the whole row
    screenshot(page, tmp_path, "lobby-levels-phone")
