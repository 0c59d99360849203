"""The operator's console in the browser (``/admin``, docs/operations.md "The operator's
console"): an admin signs in, closes a live table (its player sees why), cancels a match
run (its fee refunded), finds a player, takes 500 coins from him and bans him (his open
page says so and stops), and reads every step in the admin log — on a desktop and on a
phone; a player with no role gets the no-access page; a viewer sees no action."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from console_kit import (
    act,
    find_player,
    give_role,
    loaded,
    no_sideways_scroll,
    operator,
    register,
    shot,
    tab,
    violations,
)
from web_kit import (
    HUANLE_HUMANS_ROOM,
    PASSWORD,
    WAIT_MS,
    button,
    ddz_act,
    ddz_choice,
    join,
    match_card,
    open_matches,
    play_to_result,
    sign_up,
    wait_coins,
)

VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_an_admin_moderates_from_the_console(hall: Any, new_page: Any, device: str) -> None:
    tag = device[0]
    player_name, entrant_name = f"baddie_{tag}", f"entrant_{tag}"
    player = new_page()
    sign_up(player, hall.url, player_name)
    join(player, "doudizhu-yifa")  # a table with bots, in play
    entrant = new_page()
    sign_up(entrant, hall.url, entrant_name)
    open_matches(entrant)
    entrant.click(f"{match_card('web-wait')} [data-testid=register]")
    entrant.wait_for_selector("[data-testid=match-waiting]")

    page = operator(new_page(*VIEWPORTS[device]), hall, f"op_{tag}")
    assert page.url == f"{hall.url}/admin/"  # /admin is the folder's page
    page.wait_for_selector("[data-testid=admin-me][data-role=admin]")
    shot(page, f"{device}-dashboard")
    if device == "phone":
        no_sideways_scroll(page)
    _close_his_table(page, player, player_name, device)
    _cancel_the_run(page, entrant, device)
    _deduct_and_ban(page, player, player_name, device)
    _read_the_log(page, player_name, device)

    tab(page, "reports")
    assert page.locator("[data-testid=admin-reports] [data-testid=admin-error]").count() == 0
    shot(page, f"{device}-reports")
    tab(page, "dashboard")
    act(page, "[data-testid=admin-run-audit]", "每日审计")
    page.wait_for_selector("[data-testid=admin-last-audit]:not([data-problems=''])")
    page.click("[data-testid=lang]")
    loaded(page, "admin-dashboard")
    assert page.inner_text("[data-testid=admin-tab-players]") == "Players"
    english = page.inner_text("#top") + page.inner_text("#app")
    assert re.findall(r"[\u4e00-\u9fff]+", english) == ["中文"]  # the way back names its language
    shot(page, f"{device}-dashboard-english")
    page.click("[data-testid=lang]")
    assert violations(page) == []


def _close_his_table(page: Any, player: Any, name: str, device: str) -> None:
    """牌桌: the player's table closed with a reason; his page says so."""
    tab(page, "tables")
    row = f"[data-testid=admin-table]:has([data-testid=admin-seat][data-name='{name}'])"
    page.wait_for_selector(row)
    shot(page, f"{device}-tables")
    act(page, f"{row} [data-testid=admin-close-table]", "牌桌异常，测试关闭")
    reason = player.wait_for_selector("[data-testid=voided-reason]", timeout=WAIT_MS)
    assert reason.inner_text() == "管理员关闭了这张牌桌：牌桌异常，测试关闭"


def _cancel_the_run(page: Any, entrant: Any, device: str) -> None:
    """比赛: the run the entrant waits in, cancelled: his fee back, his page told why."""
    tab(page, "matches")
    waiting = page.wait_for_selector("[data-testid=admin-run][data-match='web-wait']")
    run = f"[data-testid=admin-run][data-run='{waiting.get_attribute('data-run')}']"
    shot(page, f"{device}-matches")
    act(page, f"{run} [data-testid=admin-cancel-run]", "比赛临时取消")
    page.wait_for_selector(run, state="detached")  # its match opens its next run
    entrant.wait_for_selector("[data-testid=match-cancelled]")
    wait_coins(entrant, 10000)


def _deduct_and_ban(page: Any, player: Any, name: str, device: str) -> None:
    """玩家: found, 500 taken with a reason, then banned for good; his open page shows the
    ban and its reason, signed out, and signing in again is refused."""
    find_player(page, name)
    before = int(page.inner_text("[data-testid=admin-player-coins]"))
    act(page, "[data-testid=admin-grant]", "违规扣除", amount="-500")
    page.wait_for_selector("[data-testid=admin-posting][data-amount='-500']")
    assert int(page.inner_text("[data-testid=admin-player-coins]")) <= before - 500
    act(page, "[data-testid=admin-ban]", "恶意逃跑", forever=True)
    page.wait_for_selector("[data-testid=admin-player-ban][data-on='1']")
    page.wait_for_selector("[data-testid=admin-unban]")
    shot(page, f"{device}-player")
    if device == "phone":
        no_sideways_scroll(page)
    notice = player.wait_for_selector("[data-testid=banned-notice]")
    assert notice.inner_text().count("你的账号已被封禁：恶意逃跑") == 1
    assert player.locator("[data-testid=net]").count() == 0  # signed out: no socket
    player.keyboard.press("Escape")
    player.fill("[data-testid=username]", name)
    player.fill("[data-testid=password]", PASSWORD)
    player.click("[data-testid=sign-in]")
    error = player.wait_for_selector("[data-testid=auth-error]:text('封禁')")
    assert error.inner_text() == "你的账号已被封禁"


def _read_the_log(page: Any, name: str, device: str) -> None:
    """日志: every step, with its target and reason."""
    tab(page, "log")
    lines = page.eval_on_selector_all(
        "[data-testid=admin-log-line]",
        "els => els.map(e => [e.dataset.action, e.dataset.target, e.innerText])",
    )
    mine = {action: text for action, target, text in lines if target == name}
    for action, why in (("deduct", "违规扣除"), ("ban", "恶意逃跑")):
        assert why in mine[action], lines
    assert any(a == "close_table" and "牌桌异常，测试关闭" in text for a, _, text in lines)
    assert any(a == "cancel_match" and "比赛临时取消" in text for a, _, text in lines)
    shot(page, f"{device}-log")


def test_a_player_without_a_role_gets_no_access(hall: Any, new_page: Any) -> None:
    """The browser's own session (the client's) is used: a plain player is refused."""
    page = new_page()
    sign_up(page, hall.url, "no_role")
    page.goto(f"{hall.url}/admin/")
    box = page.wait_for_selector("[data-testid=admin-no-access]")
    assert "no_role" in box.inner_text()
    assert page.locator("[data-testid=admin-tabs]").count() == 0
    shot(page, "desktop-no-access")
    page.click("[data-testid=admin-other-account]")
    page.wait_for_selector("[data-testid=admin-sign-in]")


def test_a_viewer_reads_but_sees_no_action(hall: Any, new_page: Any) -> None:
    page = operator(new_page(), hall, "viewer_v", role="viewer")
    assert page.locator("[data-testid=admin-run-audit]").count() == 0
    find_player(page, "viewer_v")
    assert page.inner_text("[data-testid=admin-player-role]") == "查看员"
    assert page.locator("[data-testid=admin-player-actions] button").count() == 0
    tab(page, "tables")
    assert page.locator("[data-testid=admin-close-table]").count() == 0
    give_role(hall, "viewer_v", "none")  # taken while his page is open
    page.click("[data-testid=admin-tab-log]")
    page.wait_for_selector("[data-testid=admin-no-access]")


def test_a_hand_replays_in_the_console(hall: Any, new_page: Any) -> None:
    """A player's recent hand opens in the client's own replay page, inside the console."""
    player = new_page()
    sign_up(player, hall.url, "replayed")
    join(player, "doudizhu-yifa")
    play_to_result(player, lambda p, legal: ddz_act(p, ddz_choice(legal)))
    hand = player.get_attribute("[data-testid=result]", "data-hand")
    page = operator(new_page(), hall, "op_replay", role="viewer")
    find_player(page, "replayed")
    page.click("[data-testid=admin-replay-link]")
    page.wait_for_selector(f"[data-testid=replay][data-hand='{hand}'] [data-testid=table]")
    page.click("[data-testid=replay-last]")
    page.wait_for_selector("[data-testid=replay-verified][data-ok='1']")
    shot(page, "desktop-replay")
    page.click("[data-testid=admin-replay-back]")
    loaded(page, "admin-player")
    assert violations(page) == []


def test_a_password_reset_an_export_and_a_deletion(hall: Any, new_page: Any) -> None:
    """The reset's one-time password is shown once and signs the player in (his open page
    told to sign in again); the export downloads his data; the deletion ends his page."""
    name = "forgetful"
    player = new_page()
    sign_up(player, hall.url, name)
    page = operator(new_page(), hall, "op_reset")
    find_player(page, name)
    session = page.wait_for_selector("[data-testid=admin-sessions] li")
    assert "127.0.0.1" in session.inner_text()

    act(page, "[data-testid=admin-password]", "玩家忘记密码")
    password = page.inner_text("[data-testid=admin-new-password]")
    assert len(password) >= 12
    shot(page, "desktop-password")
    page.keyboard.press("Escape")
    notice = player.wait_for_selector("[data-testid=ended-notice]")
    assert "管理员重置了你的密码" in notice.inner_text()
    player.keyboard.press("Escape")
    player.fill("[data-testid=username]", name)
    player.fill("[data-testid=password]", password)
    player.click("[data-testid=sign-in]")
    player.wait_for_selector("[data-testid=net][data-status=open]")

    with page.expect_download() as download:
        page.click("[data-testid=admin-export]")
    assert download.value.suggested_filename == f"{name}.json"
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["player"]["name"] == name

    act(page, "[data-testid=admin-delete]", "玩家要求注销")
    page.wait_for_selector("[data-testid=admin-players]")
    assert player.wait_for_selector("[data-testid=ended-notice]").inner_text().count("已注销") == 1
    tab(page, "log")
    actions = page.eval_on_selector_all(
        "[data-testid=admin-log-line][data-actor=op_reset]", "els => els.map(e => e.dataset.action)"
    )
    assert actions[:3] == ["delete", "export", "password"]


def test_a_report_is_resolved_with_its_replay(hall: Any, new_page: Any) -> None:
    """举报: a player reports another's hand; a moderator watches its replay from the
    reported seat, mutes him, and finds the report closed and the line in the log."""
    cheat = new_page()
    sign_up(cheat, hall.url, "reported_r")
    join(cheat, "doudizhu-yifa")
    play_to_result(cheat, lambda p, legal: ddz_act(p, ddz_choice(legal)))
    hand = cheat.get_attribute("[data-testid=result]", "data-hand")
    seat = cheat.get_attribute("[data-testid=table]", "data-seat")
    page = new_page()
    token = register(page, hall.url, "reporter_r")
    filed = page.request.post(
        f"{hall.url}/api/reports",
        data={"name": "reported_r", "reason": "故意送分", "hand": hand},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert filed.ok, filed.text()
    report = f"[data-testid=admin-report][data-id='{filed.json()['id']}']"

    operator(page, hall, "op_report", role="moderator")
    tab(page, "reports")
    page.wait_for_selector("[data-testid=admin-flags][data-loaded='1']")
    assert page.locator("[data-testid=admin-reports] [data-testid=admin-error]").count() == 0
    assert "故意送分" in page.inner_text(report)
    shot(page, "desktop-reports-open")
    page.click(f"{report} [data-testid=admin-report-replay]")
    page.wait_for_selector(f"[data-testid=replay][data-hand='{hand}']")
    page.wait_for_selector(f"[data-testid=replay-view][data-seat='{seat}'].on")
    page.click("[data-testid=admin-replay-back]")
    loaded(page, "admin-reports")
    resolve = f"{report} [data-testid=admin-resolve]"
    act(page, resolve, "警告无效，禁言", action="mute", minutes="30")
    page.wait_for_selector(report, state="detached")
    page.click("[data-testid=admin-reports-closed]")
    muted = "[data-testid=admin-resolution][data-action=mute]"
    page.wait_for_selector(f"{report}[data-state=closed] {muted}")
    shot(page, "desktop-reports-closed")
    find_player(page, "reported_r")
    page.wait_for_selector("[data-testid=admin-player-mute][data-on='1']")
    tab(page, "log")
    line = page.wait_for_selector("[data-testid=admin-log-line][data-action=report]")
    assert "警告无效，禁言" in line.inner_text()


def test_the_flags_name_accounts_of_one_address_at_one_table(hall: Any, new_page: Any) -> None:
    """Three accounts of one address (the test's loopback) play three hands together (each
    hand by 托管): the 举报 tab's flags name them, each flag's hands replayable."""
    pages = [new_page() for _ in range(3)]
    names = [f"shared{i}" for i in range(3)]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, hall.url, name)
    room = f"[data-testid=room][data-room='{HUANLE_HUMANS_ROOM}'] [data-testid=join]"
    for n in range(3):
        for page in pages:  # the table forms once all three wait
            if n == 0:
                page.click(room)
            else:
                button(page, "again").click()
        for page in pages:
            page.wait_for_selector("[data-testid=table]:not([data-hand=''])")
            button(page, "trustee").click()
        for page in pages:
            page.wait_for_selector("[data-testid=result]")
    page = operator(new_page(), hall, "op_flags", role="viewer")
    tab(page, "reports")
    flag = page.wait_for_selector("[data-testid=admin-flag][data-kind=shared_address]")
    text = flag.inner_text()
    assert sum(name in text for name in names) == 2
    shot(page, "desktop-flags")
    page.click("[data-testid=admin-flag] [data-testid=admin-flag-hand]")
    page.wait_for_selector("[data-testid=replay] [data-testid=table]")


def test_a_moderator_bans_for_days_mutes_and_lifts_both(hall: Any, new_page: Any) -> None:
    """A moderator has the moderator's actions only; a ban until a day (the form's local
    time) and a mute of some minutes show on the player's page until lifted."""
    page = new_page()
    register(page, hall.url, "rowdy")
    operator(page, hall, "op_mod", role="moderator")
    find_player(page, "rowdy")
    shown = page.eval_on_selector_all(
        "[data-testid=admin-player-actions] button", "els => els.map(e => e.dataset.testid)"
    )
    assert shown == ["admin-ban", "admin-mute", "admin-password"]
    act(page, "[data-testid=admin-ban]", "刷屏", until="2031-01-02T03:04")
    ban = page.wait_for_selector("[data-testid=admin-player-ban][data-on='1']")
    assert ban.inner_text() == "2031-01-02 03:04 前 · 刷屏"
    act(page, "[data-testid=admin-unban]", "已申诉")
    page.wait_for_selector("[data-testid=admin-player-ban][data-on='0']")
    act(page, "[data-testid=admin-mute]", "骂人", minutes="15")
    mute = page.wait_for_selector("[data-testid=admin-player-mute][data-on='1']")
    assert "骂人" in mute.inner_text()
    act(page, "[data-testid=admin-unmute]", "已道歉")
    page.wait_for_selector("[data-testid=admin-player-mute][data-on='0']")
    page.click("[data-testid=admin-mute]")  # too long: refused, the form stays open
    page.fill("[data-testid=admin-minutes]", "999999")
    page.fill("[data-testid=admin-reason]", "太长")
    page.click("[data-testid=admin-submit]")
    refused = page.wait_for_selector("[data-testid=admin-form-error]:has-text('bad_minutes')")
    assert refused.inner_text().startswith("操作失败：")
    shot(page, "desktop-refused")
