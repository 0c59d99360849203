"""The rules page 规则 of a game and rule set, opened from a room card in the lobby and
from the table's toolbar (its ⋯ menu on a phone), on a desktop and on a phone, in Chinese
and in English: each of the five Dou Dizhu rule sets, Zha Jin Hua and Showhand shows its
key facts, the room's own numbers and a worked example."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from stub_hall import DdzHand, StubHall, signed_up
from test_web_private import CODE, ROOM, private_table
from web_kit import button, join, next_decision, screenshot, sign_up

RULES = "[data-testid=rules]"

FACTS = {
    "doudizhu-yifa": {
        "zh": ["1 分、2 分、3 分", "最多翻倍 4 次", "+114"],
        "en": ["bid 1, 2 or 3", "at most 4 doublings", "+114"],
    },
    "doudizhu-caishen": {
        "zh": ["财神", "财神炸弹", "+32"],
        "en": ["wildcard", "five-card wildcard bomb", "+32"],
    },
    "doudizhu-huanle": {"zh": ["明牌开始 ×5", "+12,000"], "en": ["before the deal ×5", "+12,000"]},
    "doudizhu-zhengtu": {
        "zh": ["没有三带一", "积分场：只计积分"],
        "en": ["No trio with a single", "Points only"],
    },
    "doudizhu-jj": {"zh": ["托管包赔", "底牌翻倍"], "en": ["Auto-play liability", "Bottom cards"]},
    "zhajinhua-yifa": {"zh": ["235", "比牌", "5%"], "en": ["2-3-5", "Compare", "5 %"]},
    "showhand-yifa": {"zh": ["换牌", "8-9-T-J-Q"], "en": ["Swap", "8-9-T-J-Q"]},
}

SIZES = [(1366, 768), (390, 844)]
SEATS = [
    {"name": name, "ready": True, "bot": False, "connected": True}
    for name in ("东家", "南家", "西家")
]


def _private_table(**changes: Any) -> dict[str, Any]:
    """A ``private_table`` frame (test_web_private's: a points table of 6 yifa hands, the
    receiver its owner) with three people seated."""
    return private_table(**{"seats": SEATS, **changes})


def _joins(stub: StubHall, message: dict[str, Any]) -> None:
    """The hall's answer to private_join: the table."""
    if message["type"] == "private_join":
        stub.send({"type": "ack", "id": message["id"]}, _private_table())


def _lobby(new_page: Any, url: str, name: str, size: tuple[int, int], language: str) -> Any:
    """A new player ``name`` in the lobby, on a page of ``size``, in ``language``."""
    page = new_page(width=size[0], height=size[1])
    sign_up(page, url, f"{name}{size[0]}{language}")
    if language == "en":
        page.click("[data-testid=lang]")
        page.wait_for_selector("[data-testid=lobby] [data-testid=room-rules]:has-text('Rules')")
    return page


def _check(page: Any, room: str, rules: str, language: str) -> str:
    """The rules page open for ``rules``: its facts in ``language``, an example, closed."""
    page.wait_for_selector(f"{RULES}[data-rules='{rules}']")
    text = page.inner_text(RULES)
    missing = [fact for fact in FACTS[room][language] if fact not in text]
    assert not missing, f"{room} ({language}) lacks {missing}"
    sections = page.eval_on_selector_all(
        f"{RULES} [data-testid=rules-section]", "els => els.map(e => e.dataset.section)"
    )
    assert "example" in sections and "combos" in sections
    return text


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES)
def test_every_rule_set_has_its_rules_page_from_the_room_card(
    hall: Any, new_page: Any, tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    page = _lobby(new_page, hall.url, "rules_card", size, language)
    for room in FACTS:
        page.click(f"[data-testid=room][data-room='{room}'] [data-testid=room-rules]")
        text = _check(page, room, room.split("-", 1)[1], language)
        assert page.locator(f"{RULES} [data-testid=rules-room]").count() == 1
        if language == "en":
            assert "积分场" not in text and "财神" not in text  # English throughout
        if room == "doudizhu-yifa":
            screenshot(page, tmp_path, f"rules-yifa-{size[0]}-{language}")
        page.click(f"{RULES} [data-testid=rules-close]")
        page.wait_for_selector(RULES, state="detached")


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES)
def test_the_tables_menu_opens_its_rooms_rules(
    hall: Any, new_page: Any, tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    page = _lobby(new_page, hall.url, "rules_table", size, language)
    join(page, "doudizhu-caishen")
    next_decision(page, None)
    button(page, "rules").click()  # on a phone held upright: in the ⋯ menu
    _check(page, "doudizhu-caishen", "caishen", language)
    screenshot(page, tmp_path, f"rules-table-caishen-{size[0]}-{language}")
    page.click(f"{RULES} [data-testid=rules-close]")
    page.wait_for_selector(RULES, state="detached")
    assert page.locator("[data-testid=actions] button").first.is_visible()


@pytest.mark.parametrize("size", SIZES)
def test_a_private_tables_rules_page_shows_its_rule_set_alone(
    hall: Any, new_page: Any, size: tuple[int, int]
) -> None:
    """A private table's stakes are its own: the page shows no cash room's numbers. The
    page closes when the player's turn comes: his buttons are never under it."""
    hand = DdzHand(seed=11, table=7, room=ROOM)
    hand.play_until(1)
    while hand.game.seat_to_act(hand.state) == 0:  # another's turn while he reads
        hand.step()
    page = new_page(width=size[0], height=size[1])
    stub = StubHall(page, "东家", _joins)
    signed_up(page, hall.url, f"rules-private{size[0]}")
    page.fill("[data-testid=private-join-code]", CODE)
    page.click("[data-testid=private-join]")
    page.wait_for_selector("[data-testid=private-room]")
    stub.send(_private_table(state="playing", table=7, played=2), hand.snapshot(0))
    page.wait_for_selector("[data-testid=table] [data-testid=private-strip]")
    button(page, "rules").click()
    _check(page, "doudizhu-yifa", "yifa", "zh")
    assert page.locator(f"{RULES} [data-testid=rules-room]").count() == 0
    while hand.game.seat_to_act(hand.state) != 0:
        hand.step()
    assert not hand.state.is_terminal
    stub.send(hand.snapshot(0))  # his turn
    page.wait_for_selector(RULES, state="detached")
    assert page.locator("[data-testid=actions] button").first.is_visible()
