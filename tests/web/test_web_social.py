"""Friends 好友 and lasting accounts in Chromium against the real hall (issue 35).

- A guest plays a hand, binds his session to a name and a password on #/friends (绑定),
  and signs in from another browser context: his coins are there.
- Two people (a desktop and a phone) become friends (加好友 by name, 接受); each sees the
  other online and where; the owner of a private table invites his friend (邀请), whose
  page shows the notice with 加入, and joins the table from it.  At the table a tap on a
  seat opens the player's card 名片 (a friend's says so; a bot's says it is a bot).

Screenshots go to ``/work/shots/social/`` (and ``$QIPAI_SCREENSHOTS``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_a11y import _severe
from web_kit import PASSWORD, WAIT_MS, RunningHall, join, me, screenshot, sign_up, trustee_to_result

from qipai.store import Store
from qipai.store.reports import ReportDesk

SHOTS = Path("/work/shots/social")
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
Page = Any


def _friends(page: Page) -> None:
    """Open #/friends from the lobby."""
    if page.locator("[data-testid=lobby]").count() == 0:
        page.click("[data-testid=nav-lobby]")
    page.click("[data-testid=nav-friends]")
    page.wait_for_selector("[data-testid=friends-list]:not(:has-text('…'))")


def _friend(page: Page, name: str, **data: str) -> Any:
    """Wait for ``name``'s row in the friends list with these ``data-`` values (the list
    refreshes itself)."""
    marks = "".join(f"[data-{key}='{value}']" for key, value in data.items())
    return page.wait_for_selector(
        f"[data-testid=friend][data-name='{name}']{marks}", timeout=WAIT_MS
    )


def test_a_guest_binds_and_finds_his_coins_elsewhere(hall: RunningHall, new_page: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page()
    page.goto(hall.url)
    page.click("[data-testid=guest]")
    page.wait_for_selector("[data-testid=net][data-status=open]", timeout=WAIT_MS)
    join(page, "doudizhu-yifa")
    trustee_to_result(page)
    page.click("[data-testid=result] [data-testid=action-lobby]")
    page.wait_for_selector("[data-testid=room]")
    played = me(page)
    assert played["hands"] == 1 and played["name"].startswith("游客")
    assert "绑定账号" in page.inner_text("[data-testid=nav-friends]")  # a guest's way to stay
    _friends(page)
    form = page.wait_for_selector("[data-testid=bind]")
    assert page.locator("[data-testid=password-change]").count() == 0  # a guest has none
    page.fill("[data-testid=bind-name]", "绑定的玩家")
    page.fill("[data-testid=bind-password]", PASSWORD)
    screenshot(page, SHOTS, "bind-form")
    form.evaluate("form => form.requestSubmit()")
    page.wait_for_selector("[data-testid=password-change]")  # an account now
    page.wait_for_selector("[data-testid=me-name]:has-text('绑定的玩家')")
    screenshot(page, SHOTS, "bound")
    elsewhere = new_page()
    elsewhere.goto(hall.url)
    elsewhere.fill("[data-testid=username]", "绑定的玩家")
    elsewhere.fill("[data-testid=password]", PASSWORD)
    elsewhere.click("[data-testid=sign-in]")
    elsewhere.wait_for_selector("[data-testid=me-coins]")
    found = me(elsewhere)
    assert (found["id"], found["coins"], found["hands"]) == (
        played["id"],
        me(page)["coins"],
        1,
    )
    elsewhere.wait_for_selector(f"[data-testid=me-coins]:has-text('{found['coins']}')")
    screenshot(elsewhere, SHOTS, "signed-in-elsewhere")


def _become_friends(ann: Page, bob: Page) -> None:
    """Ann asks Bob by name, Bob accepts: each sees the other online, in the lobby; the
    look Ann chooses shows in Bob's list."""
    _friends(ann)
    ann.fill("[data-testid=friend-name]", "鲍勃")
    ann.click("[data-testid=friend-add]")
    _friend(ann, "鲍勃", state="asked")
    _friends(bob)
    _friend(bob, "安妮", state="asking")
    screenshot(bob, SHOTS, "request-phone")
    bob.click("[data-testid=friend][data-name='安妮'] [data-testid=friend-accept]")
    _friend(bob, "安妮", state="friends", online="1", where="lobby")
    ann.click("[data-testid=friends-refresh]")
    _friend(ann, "鲍勃", state="friends", online="1", where="lobby")
    screenshot(ann, SHOTS, "friends-online")
    assert _severe(ann) == [], "the friends page"
    ann.click("[data-testid=lang]")  # English, then back
    ann.wait_for_selector("[data-testid=friend-add]:has-text('Add friend')")
    assert "online" not in ann.inner_text("[data-testid=friend-status]")  # "in the lobby"
    assert ann.inner_text("[data-testid=friend-status]") == "in the lobby"
    screenshot(ann, SHOTS, "friends-english")
    ann.click("[data-testid=lang]")
    ann.wait_for_selector("[data-testid=friend-add]:has-text('加好友')")
    ann.click("[data-testid=avatar-pick][data-look='5']")
    ann.wait_for_selector("[data-testid=avatar-pick][data-look='5'][aria-pressed=true]")
    bob.click("[data-testid=friends-refresh]")
    bob.wait_for_selector(
        "[data-testid=friend][data-name='安妮'] [data-testid=avatar][data-look='5']"
    )


def _invite(ann: Page, bob: Page) -> str:
    """Ann creates a private table and invites Bob; he joins from the notice; its code."""
    ann.click("[data-testid=nav-lobby]")
    ann.click("[data-testid=private-create]")
    ann.wait_for_selector("[data-testid=private-form]")
    ann.click("[data-testid=private-confirm]")
    code: str = ann.wait_for_selector(
        "[data-testid=private-room] [data-testid=private-code]"
    ).inner_text()
    ann.click("[data-testid=private-invite-friends]")
    _friend(ann, "鲍勃", online="1")
    ann.click("[data-testid=friend][data-name='鲍勃'] [data-testid=friend-invite]")
    notice = bob.wait_for_selector("[data-testid=invite-notice]", timeout=WAIT_MS)
    assert code in notice.inner_text() and "安妮" in notice.inner_text()
    screenshot(bob, SHOTS, "invite-notice-phone")
    bob.click("[data-testid=invite-join]")
    bob.wait_for_selector(f"[data-testid=private-room][data-code='{code}']", timeout=WAIT_MS)
    screenshot(bob, SHOTS, "joined-from-invite-phone")
    ann.wait_for_selector("[data-testid=private-room]:has-text('鲍勃')")  # back at her table
    return code


def test_friends_invite_to_a_private_table_and_open_a_card(
    hall: RunningHall, new_page: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann, bob = new_page(), new_page(**PHONE)
    sign_up(ann, hall.url, "安妮")
    sign_up(bob, hall.url, "鲍勃")
    screenshot(bob, SHOTS, "lobby-phone")  # 好友 · 账号 in the profile
    _become_friends(ann, bob)
    _invite(ann, bob)
    _friends(ann)
    _friend(ann, "鲍勃", where="private")
    ann.click("[data-testid=friends-back-private]")
    for page in (ann, bob):
        page.click("[data-testid=private-room] [data-testid=ready]")
    ann.click("[data-testid=private-start]")  # a bot takes the third seat
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=table]", timeout=WAIT_MS)
    # a locator, found again at the click: the table draws its seats again on every frame
    ann.locator("[data-testid=seat-who]:has-text('鲍勃')").click()
    ann.wait_for_selector("[data-testid=player-card] [data-testid=card-friends]")
    assert ann.locator("[data-testid=player-card]:has-text('null')").count() == 0
    assert ann.inner_text("[data-testid=player-card] [data-testid=card-hands]") == "0"
    screenshot(ann, SHOTS, "player-card")
    assert _severe(ann) == [], "a player's card"
    _report(ann, hall, "鲍勃")
    bob.locator("[data-testid=seat-who]:not(:has-text('安妮'))").first.tap()
    bob.wait_for_selector("[data-testid=player-card] [data-testid=card-bot]")
    assert bob.locator("[data-testid=player-card] [data-testid=card-add]").count() == 0
    screenshot(bob, SHOTS, "bot-card-phone")


def _report(page: Any, hall: RunningHall, name: str) -> None:
    """举报 from the open card: the form, its reason, the hand on the table; the report
    waits in the operators' queue with that hand."""
    hand = page.get_attribute("[data-testid=table]", "data-hand")
    page.click("[data-testid=player-card] [data-testid=report]")
    page.select_option("[data-testid=report-reason]", "stall")
    page.fill("[data-testid=report-details]", "他一直拖时间")
    screenshot(page, SHOTS, "report-form")
    page.click("[data-testid=report-send]")
    page.wait_for_selector("[data-testid=report-form]", state="detached")
    with Store.open(hall.db_url) as store:
        [row] = [r for r in ReportDesk(store).rows("open", limit=50) if r.reported == name]
    assert (row.hand, row.reason) == (hand, "消极游戏（故意拖延）：他一直拖时间")
    page.keyboard.press("Escape")
