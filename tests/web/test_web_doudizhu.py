"""Dou Dizhu in the browser: a whole hand of every preset by clicking cards and buttons,
a hand by 托管, the JJ page's mouse controls (drag to lift, click to lower, click the felt to
lower all, right-click to play), 提示, the wildcard chooser, the replay of a finished hand."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_kit import (
    button,
    click_card,
    ddz_act,
    ddz_choice,
    ddz_play_snapshot,
    feed,
    felt_point,
    hall_with,
    hand,
    join,
    lifted,
    me,
    next_decision,
    physical,
    play_to_result,
    result_coins,
    screenshot,
    sign_up,
    table_data,
)

from qipai.hall.rooms import default_rooms

PRESETS = ["yifa", "caishen", "huanle", "zhengtu", "jj"]


class _Player:
    """Plays a hand through the page and notes what it did and saw."""

    def __init__(self, tmp_path: Path, shot: str) -> None:
        self.tmp_path, self.shot = tmp_path, shot
        self.taken: list[str] = []
        self.timer: str | None = None

    def act(self, page: Any, legal: list[str]) -> None:
        if self.timer is None:  # my clock runs on my first decision
            self.timer = page.get_attribute("[data-testid=me-box] [data-testid=timer]", "data-left")
        action = ddz_choice(legal)
        if action.startswith("play ") and not any(a.startswith("play ") for a in self.taken):
            screenshot(page, self.tmp_path, self.shot)
        self.taken.append(action)
        ddz_act(page, action)


@pytest.mark.parametrize("rules", PRESETS)
def test_a_whole_hand_of_every_preset_by_cards_and_buttons(
    hall: Any, new_page: Any, tmp_path: Path, rules: str
) -> None:
    page = new_page()
    sign_up(page, hall.url, f"ddz_{rules}")
    coins_before = me(page)["coins"]
    join(page, f"doudizhu-{rules}")
    page.wait_for_selector("[data-testid=hand] [data-testid=card]")
    assert table_data(page)["game"] == "doudizhu"
    player = _Player(tmp_path, f"table-doudizhu-{rules}")
    assert play_to_result(page, player.act) == len(player.taken) > 0
    assert player.timer is not None and 0 < int(player.timer) <= 20
    coins = result_coins(page)
    assert len(coins) == 3
    seat = int(table_data(page)["seat"])
    screenshot(page, tmp_path, f"result-doudizhu-{rules}")
    page.wait_for_function(
        "([want]) => document.querySelector('[data-testid=me-coins]').textContent.trim() == want",
        arg=[str(coins_before + coins[seat])],
    )
    fairness = page.locator("[data-testid=result] [data-testid=fairness]")
    assert fairness.get_attribute("data-ok") == "1"
    # what the table shows at the end: the multiplier, the bottom, the card counts
    assert int(page.get_attribute("[data-testid=multiplier]", "data-value") or 0) >= 1
    bottom = page.locator("[data-testid=bottom] .card[data-card]").count()
    assert bottom == (4 if rules == "caishen" else 3)
    counts = page.eval_on_selector_all(
        "[data-testid=card-count]", "els => els.map(e => parseInt(e.textContent))"
    )
    assert len(counts) == 3 and min(counts) <= 1  # out (caishen: or only the 财神 left)
    if "show" in player.taken:  # 明牌: my seat says so
        assert "明牌" in page.inner_text("[data-testid=me-box]")


def test_a_hand_played_by_trustee_and_its_replay(hall: Any, new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    sign_up(page, hall.url, "ddz_trustee")
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    button(page, "trustee").click()  # 托管: the system plays for me to the end
    page.wait_for_selector("[data-testid=result]")
    hand_id, me = table_data(page)["hand"], int(table_data(page)["seat"])
    # 历史得分 and 结果 from the toolbar
    page.click("[data-testid=result-close]")
    button(page, "scores").click()
    assert page.locator("[data-testid=scores] tbody tr").count() == 1
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=scores]", state="detached")
    button(page, "result").click()
    button(page, "replay").click()
    page.wait_for_selector(f"[data-testid=replay][data-hand='{hand_id}']")
    assert page.get_attribute("[data-testid=replay-verified]", "data-ok") == "1"
    assert page.get_attribute("[data-testid=replay] [data-testid=fairness]", "data-ok") == "1"
    assert page.get_attribute("[data-testid=replay] [data-testid=replay-deal]", "data-ok") == "1"
    assert page.get_attribute("[data-testid=replay-step]", "data-step") == "0"  # the deal
    total = int(page.get_attribute("[data-testid=replay-slider]", "max") or 0)
    assert total > 3
    page.click("[data-testid=replay-next]")
    page.click("[data-testid=replay-next]")
    assert page.get_attribute("[data-testid=replay-step]", "data-step") == "2"
    page.click("[data-testid=replay-last]")
    replay = "[data-testid=replay]"
    counts = page.eval_on_selector_all(
        f"{replay} [data-testid=card-count]", "els => els.map(e => parseInt(e.textContent))"
    )
    assert 0 in counts  # the winner went out
    screenshot(page, tmp_path, "replay-doudizhu")
    # the deal: every hand face up (17 each, mine at the bottom), the bottom too
    page.click("[data-testid=replay-first]")
    assert page.locator(f"{replay} [data-testid=hand] [data-card]").count() == 17
    others = [s for s in range(3) if s != me]
    for seat in others:
        side = f"{replay} [data-testid=seat][data-seat='{seat}'] .side [data-card]"
        assert page.locator(side).count() == 17
    assert page.locator(f"{replay} [data-testid=bottom] [data-card]").count() == 3
    # from another seat: that seat's hand at the bottom; the arrow keys step
    page.click(f"{replay} [data-testid=replay-view][data-seat='{others[0]}']")
    page.wait_for_selector(f"{replay} [data-testid=table][data-seat='{others[0]}']")
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("[data-testid=replay-step]", "data-step") == "1"
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("[data-testid=replay-step]", "data-step") == "0"


def test_back_after_the_hand_ended_the_result_is_shown(hall: Any, new_page: Any) -> None:
    """The tab is closed at the player's turn; the system plays his hand to the end
    (托管); when he opens the hall again the page shows how the hand ended."""
    page = new_page()
    sign_up(page, hall.url, "ddz_away")
    join(page, "doudizhu-yifa")
    next_decision(page, None)
    hand_id = table_data(page)["hand"]
    token = json.loads(page.evaluate("() => localStorage.getItem('qipai.session')"))["token"]
    context = page.context
    page.close()
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the hand is settled while the tab is closed
        rows = httpx.get(f"{hall.url}/api/history", headers=headers).json()
        if rows and rows[0]["hand_id"] == hand_id and rows[0]["status"] == "settled":
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the hand did not end")
    back = context.new_page()
    back.goto(hall.url)
    back.wait_for_selector("[data-testid=result] [data-testid=result-row]")
    assert table_data(back)["hand"] == hand_id
    assert back.get_attribute("[data-testid=result] [data-testid=fairness]", "data-ok") == "1"


def _first_play_decision(page: Any) -> list[str]:
    """Bid, double…, until a play decision with a choice; its legal list (another hand if
    this one ends first: a farmer may never beat a spring)."""
    last = None
    while True:
        decision = next_decision(page, last)
        if decision["kind"] == "result":
            button(page, "again").click()
            page.wait_for_selector("[data-testid=result]", state="detached")
            last = None
            continue
        last = decision["decision"]
        legal = decision["legal"]
        if any(action.startswith("play ") for action in legal) and len(legal) > 1:
            return legal
        ddz_act(page, ddz_choice(legal))


def _card_box(page: Any, code: str) -> Any:
    return page.locator(f"[data-testid=hand] [data-card='{code}']").bounding_box()


def test_mouse_controls_of_seed_004(hall: Any, new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    sign_up(page, hall.url, "ddz_mouse")
    join(page, "doudizhu-zhengtu")
    legal = _first_play_decision(page)
    cards = hand(page)
    # press on one card and drag across three more: all four lift on release
    first, last = _card_box(page, cards[1]), _card_box(page, cards[4])
    page.mouse.move(last["x"] + 6, last["y"] + 30)
    page.mouse.down()
    page.mouse.move(first["x"] + 20, first["y"] + 30, steps=6)  # leftwards, as the JJ page says
    page.mouse.up()
    assert lifted(page) == cards[1:5]
    # a click on a lifted card puts it down
    click_card(page, cards[2])
    assert lifted(page) == [cards[1], cards[3], cards[4]]
    # a click on the felt puts every card down
    page.mouse.click(*felt_point(page))
    assert lifted(page) == []
    # 提示 lifts the cards of a legal play, and the next press the next one
    button(page, "hint").click()
    first_hint = sorted(card[0] for card in lifted(page))
    plays = [a[5:] for a in legal if a.startswith("play ") and a != "play pass"]
    assert first_hint in [sorted(physical(move)) for move in plays]
    if len({physical(move) for move in plays}) > 1:
        button(page, "hint").click()
        assert sorted(card[0] for card in lifted(page)) != first_hint
    screenshot(page, tmp_path, "table-doudizhu-hint")
    # 排序: by how many of each rank, then back to by rank (big cards left)
    ranks = "3456789TJQKA2BRW"
    button(page, "sort").click()
    grouped = hand(page)
    count = {rank: [c[0] for c in grouped].count(rank) for rank in ranks}
    assert sorted(grouped) == sorted(cards)
    assert [count[c[0]] for c in grouped] == sorted((count[c[0]] for c in grouped), reverse=True)
    button(page, "sort").click()
    assert [ranks.index(c[0]) for c in hand(page)] == sorted(
        (ranks.index(c[0]) for c in cards), reverse=True
    )
    # 上手牌: the trick before this one (none yet, or the last one)
    button(page, "last-trick").click()
    page.wait_for_selector("[data-testid=last-trick]")
    page.mouse.click(5, 5)  # a click outside a dialog closes it
    page.wait_for_selector("[data-testid=last-trick]", state="detached")
    # right-click anywhere plays the lifted cards
    before = len(hand(page))
    played = len(lifted(page))
    page.mouse.click(*felt_point(page), button="right")
    page.wait_for_function(
        "([n]) => document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === n",
        arg=[before - played],
    )
    # the play shows on the table with the cards that left the hand
    mine = table_data(page)["seat"]
    page.wait_for_selector(f"[data-testid=played][data-seat='{mine}'] .card")


def test_wildcard_plays_let_the_player_choose(hall: Any, new_page: Any) -> None:
    """A 财神 hand where 4567W may be 34567 or 45678: the client asks which, and plays the
    very cards lifted."""
    page = new_page()
    sign_up(page, hall.url, "ddz_wild")
    legal = ["play pass", "play 4567W/34567", "play 4567W/45678", "play 4", "play W"]
    feed(page, ddz_play_snapshot("ddz_wild", ["4s", "5h", "6c", "7d", "9s", "W"], legal))
    page.wait_for_selector("[data-testid=hand] [data-card=W]")
    assert table_data(page)["legal"] == json.dumps(legal, separators=(",", ":"))
    for code in ("4s", "5h", "6c", "7d", "W"):
        click_card(page, code)
    button(page, "play").click()
    choices = page.eval_on_selector_all(
        "[data-testid=choices] [data-testid=choice]", "els => els.map(e => e.dataset.action)"
    )
    assert choices == ["play 4567W/34567", "play 4567W/45678"]
    page.click("[data-testid=choice][data-action='play 4567W/45678']")
    sent = page.evaluate("() => window.qipai.app.socket.outbox.map(m => m.action || m.type)")
    assert sent[-1] == "play 4567W/45678 @4s5h6c7dW"


def test_an_escape_price_that_depends_on_unseen_cards_is_shown_as_a_range(
    hall: Any, new_page: Any
) -> None:
    """huanle prices an escape with the bombs in every hand: the hall tells a range (the
    escape_cost frame's least_coins … coins), and the confirmation says both ends."""
    page = new_page()
    sign_up(page, hall.url, "ddz_range")
    join(page, "doudizhu-huanle")
    next_decision(page, None)
    table = page.evaluate("() => window.qipai.app.table.number")  # hall-wide numbers
    frame = {"type": "escape_cost", "table": table, "points": 8, "coins": 80}
    feed(page, {**frame, "least_points": 2, "least_coins": 20})
    told = page.text_content("[data-testid=escape-cost]") or ""
    assert "扣除 20–80 游戏币" in told or "costs 20–80 coins" in told, told
    page.click("[data-testid=confirm-dialog] button:not([data-testid=confirm])")  # cancel
    page.wait_for_selector("[data-testid=escape-cost]", state="detached")
    feed(page, {**frame, "least_points": 8, "least_coins": 80})  # exact: one number
    told = page.text_content("[data-testid=escape-cost]") or ""
    assert "扣除 80 游戏币" in told or "costs 80 coins" in told, told


def test_escape_ends_the_hand_with_its_penalty(hall: Any, new_page: Any) -> None:
    page = new_page()
    sign_up(page, hall.url, "ddz_escape")
    join(page, "doudizhu-caishen")  # caishen prices an escape and ends the hand
    next_decision(page, None)
    button(page, "escape").click()
    told = page.text_content("[data-testid=escape-cost]") or ""  # what leaving costs
    page.click("[data-testid=confirm]")
    page.wait_for_selector("[data-testid=result]")
    seat = int(table_data(page)["seat"])
    assert result_coins(page)[seat] < 0
    assert f"扣除 {-result_coins(page)[seat]} 游戏币" in told


def test_a_room_with_tasks_shows_the_hands_task_and_its_result(
    tmp_path: Path, new_page: Any
) -> None:
    """任务 with a real hall: a yifa room drawing from every task shows the hand's task from
    the deal to the end, and the result says whether it was completed, as the multiplier
    breakdown's reason ``task`` does."""
    rooms = {room.id: room for room in default_rooms()}
    tasks = ("bomb_finish", "chain", "pair_chain", "plane", "bomb", "rocket_win", "spring")
    room = dataclasses.replace(
        rooms["doudizhu-yifa"], id="doudizhu-tasks", tasks=tasks, bot_wait=0.2
    )
    names = {
        "bomb_finish": "以炸弹结束",
        "chain": "打出顺子",
        "pair_chain": "打出连对",
        "plane": "打出飞机",
        "bomb": "打出炸弹",
        "rocket_win": "用王炸获胜",
        "spring": "春天",
    }
    with hall_with(tmp_path, rooms=(room,)) as running:
        page = new_page()
        sign_up(page, running.url, "任务玩家")
        join(page, "doudizhu-tasks")
        task = page.wait_for_selector("[data-testid=task]")
        drawn = task.get_attribute("data-task")
        assert drawn in tasks and names[drawn] in task.inner_text()
        page.wait_for_timeout(1500)  # the deal's animation is over
        screenshot(page, Path("/work/notes/shots"), "task-desktop")
        button(page, "trustee").click()
        page.wait_for_selector("[data-testid=result]")
        line = page.locator("[data-testid=task-result]")
        assert line.get_attribute("data-task") == drawn
        factors = page.locator(
            "[data-testid=multiplier-breakdown] [data-reason=task]"
        ).all_inner_texts()
        doubled = any(text.endswith("×2") for text in factors)
        assert (line.get_attribute("data-done") == "1") == doubled
        screenshot(page, Path("/work/notes/shots"), "task-result-desktop")
