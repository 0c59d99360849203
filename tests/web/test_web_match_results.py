"""A 9-player 体验赛 with bots in the browser, to its end, for two people: one knocked out
in the first stage, who watches the standings (剩余人数, the stage each player reached),
joins a cash room at once and, playing there, is told his final rank and prize when the
match ends (and finds it in 战绩); one who wins it, who sees the final table and his prize
paid.

``web-tiyan``'s scores all stay 0 (web_kit), so its ranks are the registration order: the
winner registers first, four guests who never come (托管 plays them) next, the player who
is knocked out sixth, and bots fill the last three places."""

from __future__ import annotations

from typing import Any

import httpx
from web_kit import (
    TIYAN_PRIZES,
    ddz_act,
    ddz_choice,
    join,
    match_card,
    open_matches,
    sign_up,
    wait_coins,
)

MATCH = "web-tiyan"
START_COINS = 10_000
FEE = 10


def register_guests(url: str, count: int) -> None:
    """Guests who register over the API and never connect (托管 plays their seats)."""
    with httpx.Client(base_url=url, timeout=30) as http:
        for _ in range(count):
            token = http.post("/api/guest").json()["token"]
            answer = http.post(
                f"/api/matches/{MATCH}/register", headers={"authorization": f"Bearer {token}"}
            )
            assert answer.status_code == 200, answer.text


_MY_TURN = """([last]) => {
  const table = document.querySelector('[data-testid=table]');
  if (!table || table.dataset.busy !== '0' || document.querySelector('.overlay')) return null;
  const decision = table.dataset.decision;
  if (!decision || decision === last) return null;
  return {decision, legal: JSON.parse(table.dataset.legal)};
}"""


def act_when_asked(page: Any, last: dict[int, str]) -> None:
    """Take the page's decision, if it has a new one now (the longest play, bid high)."""
    turn = page.evaluate(_MY_TURN, [last.get(id(page), "")])
    if turn is not None:
        last[id(page)] = turn["decision"]
        ddz_act(page, ddz_choice(turn["legal"]))


def play_until(pages: list[Any], done: Any, *, rounds: int = 600) -> None:
    """Answer the pages' decisions until ``done()``."""
    last: dict[int, str] = {}
    for _ in range(rounds):
        if done():
            return
        for page in pages:
            act_when_asked(page, last)
        pages[0].wait_for_timeout(100)
    raise AssertionError("the match did not get there in time")


_MY_RUN = """async (name) => {
  const token = JSON.parse(localStorage.getItem('qipai.session')).token;
  const r = await fetch('/api/matches', {headers: {Authorization: 'Bearer ' + token}});
  const match = (await r.json()).find((m) => m.name === name);
  return match.run.me ? match.run.id : null;
}"""


def close_overlays(page: Any) -> None:
    """Close what is open over the page (the last hand's result), top first."""
    for _ in range(5):
        if not page.locator(".overlay").count():
            return
        page.keyboard.press("Escape")
    assert not page.locator(".overlay").count()


def shown(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).count())


def watch_the_standings(loser: Any) -> None:
    """Out, he watches the standings: how many are left, and why the finalists rank above
    him (the stage comes first)."""
    loser.click("[data-testid=nav-matches]")
    loser.click("[data-testid=match-out] [data-testid=out-standings]")
    where = loser.locator("[data-testid=standings] [data-testid=standings-where]")
    where.wait_for()
    assert "剩余人数 3" in where.inner_text() and "undefined" not in where.inner_text()
    mine = loser.locator("[data-testid=standings] [data-testid=standing-row].me")
    assert mine.get_attribute("data-rank") == "6" and mine.get_attribute("data-stage") == "0"
    assert "预赛" in mine.locator("[data-testid=standing-stage]").inner_text()
    assert loser.locator("[data-testid=standings] [data-testid=standings-note]").count() == 1
    loser.click("[data-testid=standings-close]")


def told_the_end(loser: Any) -> None:
    """The loser, in a hand at his cash table, finds the final table in the notice tray of
    his toolbar (通知 1: nothing covers his play; it opens by itself once his hand is over),
    and opens it."""
    over = "[data-testid=match-over]"
    told = loser.wait_for_selector(f"{over}, [data-testid=action-notices]")
    if told.get_attribute("data-testid") == "action-notices":
        assert told.inner_text() == "通知 1"
        told.click()
    assert loser.get_attribute(over, "data-rank") == "6"
    assert loser.get_attribute(over, "data-prize") == "0"
    assert loser.inner_text(f"{over} [data-testid=final-prize]") == "未获奖"
    loser.click(f"{over} [data-testid=match-back]")


def test_a_player_knocked_out_first_plays_on_and_is_told_the_end_a_winner_sees_the_final(
    hall: Any, new_page: Any
) -> None:
    winner, loser = new_page(), new_page()
    sign_up(winner, hall.url, "体验冠军")
    sign_up(loser, hall.url, "体验出局")
    for page in (winner, loser):
        open_matches(page)
    winner.click(f"{match_card(MATCH)} [data-testid=register]")
    wait_coins(winner, START_COINS - FEE)
    register_guests(hall.url, 4)
    loser.click(f"{match_card(MATCH)} [data-testid=register]")
    wait_coins(loser, START_COINS - FEE)
    run = winner.evaluate(_MY_RUN, MATCH)
    assert run is not None and loser.evaluate(_MY_RUN, MATCH) == run  # before the bots came

    # the first stage: the loser is out, sixth
    out = "[data-testid=match-eliminated]"
    play_until([winner, loser], lambda: shown(loser, out))
    assert loser.get_attribute(out, "data-rank") == "6"
    assert "其他房间" in loser.inner_text("[data-testid=out-free]")
    loser.click("[data-testid=notice-close]")
    close_overlays(loser)  # the last hand's result

    watch_the_standings(loser)

    # free at once: a cash room takes him (the test answers his decisions there)
    loser.click("[data-testid=match-out] [data-testid=out-lobby]")
    join(loser, "doudizhu-yifa")
    loser.wait_for_function("() => window.qipai.app.table.state.room === 'doudizhu-yifa'")

    # the final: the winner plays it to the end and sees his prize
    over = "[data-testid=match-over]"
    play_until([winner, loser], lambda: shown(winner, over))
    final = winner.locator(over)
    assert final.get_attribute("data-rank") == "1"
    assert final.get_attribute("data-prize") == str(TIYAN_PRIZES[1])
    assert final.locator("[data-testid=final-prize]").inner_text() == "50 游戏币"
    assert final.locator("[data-testid=standing-row]").count() == 9
    wait_coins(winner, START_COINS - FEE + TIYAN_PRIZES[1])

    told_the_end(loser)

    # 战绩: the match with his rank and prize (and the winner's with his)
    for page, rank, prize in ((loser, "6", "0"), (winner, "1", "50")):
        close_overlays(page)
        page.click("[data-testid=nav-history]")
        row = page.locator(f"[data-testid=history-match][data-rank='{rank}']")
        row.wait_for()
        assert row.get_attribute("data-prize") == prize
        assert "网页体验赛" in row.inner_text()
