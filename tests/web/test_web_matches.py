"""Matches 比赛 in the browser, against the real hall of conftest (its three test matches,
``web_kit.WEB_MATCHES``): the match list with each match's numbers, 报名 with the fee taken
and 取消报名 with it refunded, the errors in words (Chinese and English), the waiting screen
refreshed while another player registers; a whole match (bots fill it) played by clicking
and by 托管 on a phone: the page follows the player from table to table, the in-match
panel, each hand's result in match points, the final table with the rank and the prize
paid; the notices 晋级, 被淘汰 and 取消 (their frames fed to the page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from web_kit import (
    TRIO_PRIZES,
    ddz_act,
    ddz_choice,
    feed,
    match_card,
    me,
    open_matches,
    play_match,
    screenshot,
    sign_up,
    wait_coins,
)

from qipai.hall.match.config import DEFAULT_START_SCORE

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
START_COINS = 10_000


def listing(page: Any) -> dict[str, Any]:
    """``GET /api/matches`` with the page's session, by match name."""
    text: str = page.evaluate(
        """async () => {
          const token = JSON.parse(localStorage.getItem('qipai.session')).token;
          const r = await fetch('/api/matches', {headers: {Authorization: 'Bearer ' + token}});
          return await r.text();
        }"""
    )
    return {match["name"]: match for match in json.loads(text)}


def card_text(page: Any, name: str, testid: str) -> str:
    text: str = page.inner_text(f"{match_card(name)} [data-testid={testid}]")
    return text.strip()


LOCAL_TIME = """(s) => new Date(s * 1000)
  .toLocaleTimeString('zh-CN', {hour: '2-digit', minute: '2-digit'})"""


def check_the_list(page: Any) -> None:
    """The match list: each match's numbers as the hall lists them."""
    shown = page.eval_on_selector_all("[data-testid=match]", "els => els.map(e => e.dataset.match)")
    assert shown == ["web-trio", "web-tiyan", "web-wait", "web-weekly"]
    served = listing(page)
    # a regular match: its kind, start rule, registered count, fee and prizes
    trio = served["web-trio"]
    assert card_text(page, "web-trio", "match-title") == "网页三人赛"
    assert card_text(page, "web-trio", "match-kind") == "常规赛"
    assert card_text(page, "web-trio", "match-start") == "满 3 人开赛"
    assert card_text(page, "web-trio", "match-registered") == f"{trio['run']['registered']} / 3"
    assert card_text(page, "web-trio", "match-fee") == "10"
    assert card_text(page, "web-trio", "match-prize-total") == str(trio["prize_total"])
    assert card_text(page, "web-trio", "match-first-prize") == "30"
    # a scheduled one: its start as local time, and its minimum
    weekly = served["web-weekly"]
    assert card_text(page, "web-weekly", "match-kind") == "锦标赛"
    local = page.evaluate(LOCAL_TIME, weekly["run"]["starts_at"])
    assert local in card_text(page, "web-weekly", "match-start")
    assert "开赛" in card_text(page, "web-weekly", "match-start")
    assert card_text(page, "web-weekly", "match-registered") == "0 人（至少 6 人）"
    # its prizes follow the field: the card says so beside 总奖励 (a regular one's do not)
    least = sum(prize["coins"] for prize in weekly["prizes_at_minimum"])
    assert (weekly["prize_total"], least) == (160_000, 130_000)  # 2 places paid at 6
    assert card_text(page, "web-weekly", "match-prize-scale") == (
        "满员 160000；6 人时共 130000（名额与奖池随报名人数）"
    )
    assert page.locator(f"{match_card('web-trio')} [data-testid=match-prize-scale]").count() == 0


def test_the_list_registration_errors_waiting_and_refund(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    sign_up(page, hall.url, "比赛甲")
    open_matches(page)
    check_the_list(page)
    screenshot(page, tmp_path, "matches-list")

    # a fee above the player's coins: refused in words, nothing taken
    page.click(f"{match_card('web-weekly')} [data-testid=register]")
    error = f"{match_card('web-weekly')} [data-testid=match-error][data-code=insufficient_coins]"
    assert page.inner_text(error) == "游戏币不足，无法支付报名费"
    assert me(page)["coins"] == START_COINS

    # 报名: the fee is taken, the waiting screen shows who is waiting for how many
    page.click(f"{match_card('web-wait')} [data-testid=register]")
    wait_coins(page, START_COINS - 20)
    waiting = "[data-testid=match-waiting][data-match=web-wait]"
    page.wait_for_selector(waiting)
    assert page.inner_text(f"{waiting} [data-testid=waiting-count]") == "1 / 3"
    assert "网页等待赛" in page.inner_text(waiting)
    page.wait_for_selector(f"{match_card('web-wait')}[data-me='1'] [data-testid=unregister]")
    assert listing(page)["web-wait"]["run"]["me"] is True
    # another match meanwhile: refused (in_match), and the fee stays where it was
    page.click(f"{match_card('web-trio')} [data-testid=register]")
    error = f"{match_card('web-trio')} [data-testid=match-error][data-code=in_match]"
    assert page.inner_text(error) == "你已报名（或正在进行）另一场比赛"
    assert listing(page)["web-trio"]["run"]["me"] is False
    assert me(page)["coins"] == START_COINS - 20

    a_second_player_waits_too(hall, new_page, page, tmp_path)

    # English: the waiting screen, the kinds and the refusal in words
    page.click("[data-testid=lang]")
    # an operator's Chinese title in English: kind, game, size and fee (issue 27)
    assert "Waiting for Regular · Dou Dizhu · 3 players · entry 20" in page.inner_text(waiting)
    assert card_text(page, "web-trio", "match-kind") == "Regular"
    assert card_text(page, "web-weekly", "match-kind") == "Scheduled"
    assert page.inner_text(error) == "You are registered for (or playing) another match"
    assert page.inner_text(f"{waiting} [data-testid=waiting-unregister]") == "Unregister"
    page.click("[data-testid=lang]")

    # 取消报名: the fee comes back, the waiting screen goes
    page.click("[data-testid=waiting-unregister]")
    wait_coins(page, START_COINS)
    page.wait_for_selector(waiting, state="detached")
    page.wait_for_selector(f"{match_card('web-wait')}[data-me='0'] [data-testid=register]")
    assert listing(page)["web-wait"]["run"]["me"] is False
    assert me(page)["coins"] == START_COINS


def a_second_player_waits_too(hall: Any, new_page: Any, page: Any, tmp_path: Path) -> None:
    """A second player (on a phone) registers: the first one's waiting screen counts him
    (the list is fetched again while it shows); he unregisters, and it counts one again."""
    count = "[data-testid=match-waiting][data-match=web-wait] [data-testid=waiting-count]"
    phone = new_page(**PHONE)
    sign_up(phone, hall.url, "比赛乙")
    open_matches(phone)
    phone.click(f"{match_card('web-wait')} [data-testid=register]")
    wait_coins(phone, START_COINS - 20)
    phone.wait_for_selector(f"{count}:text-is('2 / 3')")
    page.wait_for_selector(f"{count}:text-is('2 / 3')")
    screenshot(page, tmp_path, "matches-waiting")
    screenshot(phone, tmp_path, "matches-waiting-phone")
    phone.click("[data-testid=waiting-unregister]")
    wait_coins(phone, START_COINS)
    phone.wait_for_selector("[data-testid=match-waiting]", state="detached")
    page.wait_for_selector(f"{count}:text-is('1 / 3')")


def test_a_match_played_by_clicking_to_the_final_table(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    sign_up(page, hall.url, "比赛丙")
    open_matches(page)
    page.click(f"{match_card('web-trio')} [data-testid=register]")
    wait_coins(page, START_COINS - 10)
    # bots fill the match: the page goes to the table by itself, the in-match panel on it
    page.wait_for_selector("[data-testid=table][data-game=doudizhu]")
    panel = "[data-testid=match-panel][data-match=web-trio]"
    page.wait_for_selector(f"{panel}[data-base='10'][data-left='3'][data-state=playing]")
    page.wait_for_selector(f"{panel}[data-rank]:not([data-rank=''])")
    stage = page.inner_text(f"{panel} [data-testid=match-stage]")
    assert "决赛" in stage and "定局积分" in stage
    assert page.inner_text(f"{panel} [data-testid=match-progress]") == "已打 0/2 副"
    assert "网页三人赛" in page.inner_text("[data-testid=table] .toolbar")

    tables: set[int] = set()
    results: list[dict[str, Any]] = []

    def act(page: Any, legal: list[str]) -> None:
        number = page.evaluate("window.qipai.app.table.number")
        if number not in tables:
            tables.add(number)
            screenshot(page, tmp_path, f"match-table-{len(tables)}")
            if len(tables) == 1:  # 实时排名: the live standings, me among the three
                page.click(f"{panel} [data-testid=match-standings]")
                rows = page.locator("[data-testid=standings] [data-testid=standing-row]")
                rows.nth(2).wait_for()
                assert rows.count() == 3
                me_row = "[data-testid=standings] [data-testid=standing-row].me"
                assert page.get_attribute(me_row, "data-name") == "比赛丙"
                page.click("[data-testid=standings-close]")
                # the game's 底分 and the match's 基数 side by side, never one for the other
                base = page.locator("[data-testid=table] [data-testid=base]")
                assert base.get_attribute("data-match-base") == "10"
                assert "基数 10" in base.inner_text() and "底分" in base.inner_text()
        ddz_act(page, ddz_choice(legal))

    assert play_match(page, act, results.append) > 0
    # the page followed the player to his second table without a reload
    assert len(tables) == 2
    assert page.evaluate("window.qipai.app.frameCounts.match_started") == 1
    # each hand's result that showed: match points, no coins, the match line
    assert results
    for result in results:
        assert result["match"] == "1" and result["coins"] == []
        assert len(result["points"]) == 3
        assert "比赛积分" in result["line"] and "基数 10" in result["line"]

    rank, prize, score = check_the_final_table(page, "比赛丙")
    # the prize is paid: the header shows the coins (fee out, prize in)
    wait_coins(page, START_COINS - 10 + prize)
    assert me(page)["coins"] == START_COINS - 10 + prize
    screenshot(page, tmp_path, "match-final")
    after_the_match(page, tmp_path, panel, rank=rank, prize=prize, score=score)


def check_the_final_table(page: Any, name: str) -> tuple[int, int, str]:
    """The final table: the rank, the prize by the match's prize table, the score, the
    standings with the player's row; returns the rank, the prize and the score."""
    final = page.locator("[data-testid=match-over]")
    rank = int(final.get_attribute("data-rank") or 0)
    prize = int(final.get_attribute("data-prize") or -1)
    assert prize == TRIO_PRIZES[rank]
    assert final.locator("[data-testid=final-rank]").inner_text() == f"第 {rank} 名"
    assert final.locator("[data-testid=final-prize]").inner_text() == f"{prize} 游戏币"
    ranks = final.locator("[data-testid=standing-row]").evaluate_all(
        "els => els.map(e => Number(e.dataset.rank))"
    )
    assert ranks == [1, 2, 3]
    mine = final.locator("[data-testid=standing-row].me")
    assert mine.get_attribute("data-name") == name
    assert mine.get_attribute("data-rank") == str(rank)
    score: str = final.locator("[data-testid=final-score]").inner_text()
    assert mine.locator("[data-testid=standing-score]").inner_text() == score
    return rank, prize, score


def after_the_match(
    page: Any, tmp_path: Path, panel: str, *, rank: int, prize: int, score: str
) -> None:
    """The table behind the final table, the last hand's result and its replay, and the
    last match on the match list."""
    # the table behind it: the panel says the match is over; the last hand's result
    page.click("[data-testid=match-over-close]")
    page.wait_for_selector(f"{panel}[data-state=over][data-hands='2']")
    assert page.inner_text(f"{panel} [data-testid=match-wait]") == f"比赛结束 · 第 {rank} 名"
    assert page.locator("[data-testid=action-escape]").count() == 0
    # 历史得分: the match's hands in match points (× the base), adding up to the score
    page.click("[data-testid=action-scores]")
    cells = page.locator("[data-testid=scores] [data-testid=score-points]")
    moved = [int(text.replace("+", "")) for text in cells.all_inner_texts()]
    assert len(moved) == 2 and sum(moved) == int(score) - DEFAULT_START_SCORE
    page.click("[data-testid=scores] .buttons .btn:not(.quiet)")
    page.click("[data-testid=action-result]")
    result = page.locator("[data-testid=result][data-match='1']")
    assert result.locator("[data-testid=result-coins]").count() == 0
    assert result.locator("[data-testid=result-points]").count() == 3
    assert f"积分 {score}" in result.locator("[data-testid=result-match]").inner_text()
    assert result.locator("[data-testid=action-again]").count() == 0
    screenshot(page, tmp_path, "match-hand-result")
    # the match is over: its hand's replay (a match hand is recorded like any other)
    hand = result.get_attribute("data-hand")
    result.locator("[data-testid=action-replay]").click()
    page.wait_for_selector(f"[data-testid=replay][data-hand='{hand}'] [data-testid=table]")
    page.click("[data-testid=nav-table]")
    page.click("[data-testid=action-result]")
    # back to the matches: the last match with its rank and prize
    page.click("[data-testid=result] [data-testid=action-matches]")
    last = page.wait_for_selector("[data-testid=last-match]")
    assert last.get_attribute("data-rank") == str(rank)
    assert last.get_attribute("data-prize") == str(prize)
    page.wait_for_selector("[data-testid=nav-table]", state="detached")


_TRUSTEE_NEXT = """() => {
  if (document.querySelector('[data-testid=match-over]')) return 'over';
  if (document.querySelector('.overlay')) return null;
  const table = document.querySelector('[data-testid=table]');
  const tool = document.querySelector('[data-testid=action-trustee]');
  const mine = table && table.dataset.decision !== '';
  return mine && tool && !tool.classList.contains('on') ? 'trustee' : null;
}"""


def test_a_match_by_trustee_on_a_phone_and_the_notices(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page(**PHONE)
    sign_up(page, hall.url, "比赛丁")
    open_matches(page)
    screenshot(page, tmp_path, "matches-phone")
    page.click(f"{match_card('web-trio')} [data-testid=register]")
    wait_coins(page, START_COINS - 10)
    page.wait_for_selector("[data-testid=table] [data-testid=match-panel]")
    # 托管 at each table: the system plays every hand
    clicks = 0
    while page.wait_for_function(_TRUSTEE_NEXT, timeout=40_000).json_value() == "trustee":
        if clicks == 0:
            page.wait_for_selector("#toast div", state="detached")  # 开赛了 has gone
            screenshot(page, tmp_path, "match-table-phone")
        page.click("[data-testid=action-trustee]")
        clicks += 1
        page.wait_for_function(
            """() => document.querySelector('[data-testid=match-over]') ||
              document.querySelector('.overlay') ||
              document.querySelector('[data-testid=action-trustee].on')""",
        )
    assert clicks >= 1
    final = page.wait_for_selector("[data-testid=match-over]")
    rank = int(final.get_attribute("data-rank") or 0)
    prize = int(final.get_attribute("data-prize") or -1)
    assert prize == TRIO_PRIZES[rank]
    wait_coins(page, START_COINS - 10 + prize)
    screenshot(page, tmp_path, "match-final-phone")
    page.click("[data-testid=match-back]")
    page.wait_for_selector(f"[data-testid=last-match][data-rank='{rank}']")

    # 晋级: a notice that does not stop the play
    run = {"match": "web-trio", "run": "web-trio#999"}
    feed(page, {"type": "match_advanced", **run, "stage": 1})
    notice = page.wait_for_selector("[data-testid=match-notice][data-kind=advanced]")
    assert "晋级" in notice.inner_text() and "第2阶段" in notice.inner_text()
    screenshot(page, tmp_path, "match-advanced-phone")
    # 被淘汰: the final rank
    feed(page, {"type": "match_eliminated", **run, "stage": 1, "rank": 7})
    out = page.wait_for_selector("[data-testid=match-eliminated][data-rank='7']")
    assert "你被淘汰了" in out.inner_text()
    assert page.inner_text("[data-testid=out-rank]") == "第 7 名"
    screenshot(page, tmp_path, "match-eliminated-phone")
    page.click("[data-testid=notice-close]")
    assert "第 7 名" in page.inner_text("[data-testid=match-out]")
    # 取消: the fee refunded, in English this time
    page.click("[data-testid=lang]")
    feed(
        page,
        {"type": "match_cancelled", **run, "reason": "not_enough_players", "refunded": 10},
    )
    page.wait_for_selector("[data-testid=match-cancelled]")
    assert page.inner_text("[data-testid=cancel-reason]") == (
        "Too few players registered: the match is cancelled"
    )
    assert page.inner_text("[data-testid=refunded]") == (
        "The entry fee of 10 for Regular · Dou Dizhu · 3 players · entry 10 is refunded"
    )
    screenshot(page, tmp_path, "match-cancelled-phone")
    page.locator("[data-testid=match-cancelled] [data-testid=match-back]").click()
    page.wait_for_selector("[data-testid=match-cancelled]", state="detached")
    assert page.locator("[data-testid=match-out]").count() == 0
    page.click("[data-testid=lang]")
