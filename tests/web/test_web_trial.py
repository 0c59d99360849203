"""What issue 33's browser trial found still open (docs/web.md, "A full trial", Found: 3-6),
each on a desktop and a phone where it is about the layout or a tap, against a stand-in
hall whose frames a seeded hand of the registry makes (or the Dou Dizhu play snapshot):

3. A card of the hand in flight (dealt in from the felt's centre) takes no pointer event:
   where it passes over an action button (扎金花's 加注…), a tap there is the button's.
4. A seat's last play never covers a seat's box, the hand or another seat's play: neither
   where it lies (a single card, a long play) nor on its way in (its slide).
5. The 记牌器's labels stand apart (财神 大王 小王…, not 财神大王小王).
6. 梭哈: a seat's 已下 is what it put in this hand, its ante too: its coins and its 已下 add
   up to what it held before the hand.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from stub_hall import RegistryHand, StubHall, signed_up
from web_kit import WAIT_MS, ddz_play_snapshot, feed, screenshot, sign_up

pytestmark = pytest.mark.motion  # the animations' tests: the page animates

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
VIEWPORTS = pytest.mark.parametrize("viewport", ["desktop", "phone"])
FROZEN = ".fx-fly { animation-play-state: paused !important; }"
"""A stylesheet that holds every flight at its start, for the test to move it along its
way (the Web Animations API) and look at it there: no timing, no sleep. (The page's
Content-Security-Policy takes no inline style: a page that adds it bypasses the policy.)"""


def open_page(new_page: Any, viewport: str, **options: Any) -> Any:
    return new_page(**(DESKTOP if viewport == "desktop" else PHONE), **options)


def player_page(new_page: Any, url: str, viewport: str, name: str, **options: Any) -> Any:
    """A page of ``viewport`` (with the context's ``options``), ``name`` signed up in the
    real hall, in the lobby."""
    page = open_page(new_page, viewport, **options)
    sign_up(page, url, name)
    return page


def at_table(page: Any, stub: StubHall, snapshot: dict[str, Any]) -> None:
    """The stand-in hall seats the page (its lobby loaded) at the snapshot's table."""
    page.wait_for_selector("[data-testid=room]", timeout=WAIT_MS)
    stub.send(snapshot)
    page.wait_for_selector("[data-testid=table]", timeout=WAIT_MS)


# ------------------------------------------------------------- 3: a card in flight


_OVER_BUTTONS = """() => {
  // each card of the hand in flight, moved along its way: where it covers the centre of an
  // action button, what a tap there would hit
  const buttons = [...document.querySelectorAll('[data-testid=actions] button')]
    .filter((b) => b.getClientRects().length);
  const hits = [];
  for (const flight of document.getAnimations()) {
    const card = flight.effect.target;
    if (!card || !card.closest || !card.closest('[data-testid=hand]')) continue;
    const {delay, activeDuration} = flight.effect.getComputedTiming();
    flight.pause();
    for (let step = 0; step <= 34; step++) {
      flight.currentTime = delay + (activeDuration * step) / 34;
      const r = card.getBoundingClientRect();
      for (const b of buttons) {
        const box = b.getBoundingClientRect();
        const x = box.left + box.width / 2, y = box.top + box.height / 2;
        if (x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
        const top = document.elementFromPoint(x, y);
        hits.push(b.contains(top) ? 'button' : `${b.dataset.testid} under ${top.className}`);
      }
    }
  }
  return hits;
}"""


@VIEWPORTS
def test_a_card_dealt_in_lets_a_tap_through_to_the_button_under_it(
    hall: Any, new_page: Any, viewport: str, tmp_path: Path
) -> None:
    """Zha Jin Hua: the player's turn comes with the deal (one batch), his three cards still
    flying in from the felt's centre past 看牌 跟注 加注 …"""
    hand = RegistryHand("zhajinhua", "yifa", room="zhajinhua-yifa", seats=5, seed=3)
    seat = hand.game.seat_to_act(hand.state)
    page = open_page(new_page, viewport, bypass_csp=True)
    stub = StubHall(page, hand.NAMES[seat])
    signed_up(page, hall.url, f"zjh-flight-{viewport}")
    at_table(page, stub, hand.before(seat))
    page.add_style_tag(content=FROZEN)
    stub.send(hand.hand_start(), *hand.events(seat), hand.turn(seat))
    page.wait_for_selector("[data-testid=action-raise]")
    page.wait_for_selector("[data-testid=hand] .fx-fly")
    hits = page.evaluate(_OVER_BUTTONS)
    assert hits, "no card in flight passed over a button's centre"
    assert set(hits) == {"button"}, hits
    screenshot(page, tmp_path, f"trial-zjh-flight-{viewport}")


# ------------------------------------------------------------- 4: a seat's last play

LONG = "JJJQQQKKKAAA3456"
"""A 16-card plane with its wings (the longest plays run to 20)."""

_CLEAR = """(seat) => {
  // what a seat's play (its cards' union; every play when seat is null) covers: a seat's
  // box, the hand, another seat's play, the edge of the screen
  const box = (el) => el.getBoundingClientRect();
  const union = (play) => {
    const rects = [...play.querySelectorAll('.card, .said')].map(box);
    const most = (side, pick) => pick(...rects.map((r) => r[side]));
    return {left: most('left', Math.min), top: most('top', Math.min),
            right: most('right', Math.max), bottom: most('bottom', Math.max)};
  };
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const table = document.querySelector('[data-testid=table]');
  const plays = [...table.querySelectorAll('[data-testid=played]')];
  const named = (el) =>
    el.matches('.who') ? `box ${el.closest('[data-seat]').dataset.seat}` : 'hand';
  const covered = [];
  for (const play of plays) {
    if (seat !== null && play.dataset.seat !== String(seat)) continue;
    const what = `play ${play.dataset.seat}`;
    const mine = union(play);
    for (const other of table.querySelectorAll('.who, [data-testid=hand]')) {
      if (meet(mine, box(other))) covered.push(`${what} over ${named(other)}`);
    }
    for (const other of plays) {
      if (other !== play && meet(mine, union(other))) {
        covered.push(`${what} over play ${other.dataset.seat}`);
      }
    }
    if (mine.left < 0 || mine.right > innerWidth) covered.push(`${what} off the screen`);
  }
  return covered;
}"""

_ON_ITS_WAY = f"""(seat) => {{
  // a seat's play sliding in, moved along its way: what it covers at each point
  const play = document.querySelector(`[data-testid=played][data-seat="${{seat}}"]`);
  const flight = play.getAnimations()[0];
  const {{delay, activeDuration}} = flight.effect.getComputedTiming();
  flight.pause();
  const covered = new Set();
  for (let step = 0; step <= 34; step++) {{
    flight.currentTime = delay + (activeDuration * step) / 34;
    for (const what of ({_CLEAR})(seat)) covered.add(what);
  }}
  return [...covered];
}}"""


def _play_snapshot(name: str, plays: list[list[Any]], turn: int) -> dict[str, Any]:
    """The Dou Dizhu play snapshot (web_kit) with ``plays`` in the trick, ``turn`` to act:
    the player at seat 0 (the seat on his right is 1, on his left 2)."""
    hand = ["3s", "5h", "7c", "8d", "9s", "Ts", "Jh", "Qd", "Kc", "As", "2h", "2d"]
    snapshot = ddz_play_snapshot(name, hand, [] if turn else ["play pass"], rules="yifa")
    last = next(move for _, move in reversed(plays) if move != "pass")
    snapshot["view"] |= {"plays": plays, "trick": plays, "to_beat": last, "current_player": turn}
    return snapshot


def _played(seat: int, move: str, n: int) -> dict[str, Any]:
    """The event frame of ``seat``'s play ``move`` (its cards by rank only), event ``n``."""
    event = {"kind": "Played", "seat": seat, "move": move, "cards": [], "cards_left": 5}
    return {"type": "event", "table": 999, "n": n, "event": event}


@VIEWPORTS
@pytest.mark.parametrize("length", ["single", "long"])
def test_a_seats_last_play_covers_no_box_where_it_lies(
    hall: Any, new_page: Any, viewport: str, length: str, tmp_path: Path
) -> None:
    """Every seat's play at once (a long one, on a phone, wraps within its seat's half)."""
    name = f"lies-{viewport}-{length}"
    page = player_page(new_page, hall.url, viewport, name)
    move = "2" if length == "single" else LONG
    feed(page, _play_snapshot(name, [[2, move], [0, move], [1, move]], 2))
    page.wait_for_selector("[data-testid=played][data-seat='1'] .card")
    assert page.evaluate(_CLEAR, None) == []
    screenshot(page, tmp_path, f"trial-plays-{length}-{viewport}")


@VIEWPORTS
@pytest.mark.parametrize("length", ["single", "long"])
def test_a_seats_last_play_covers_no_box_on_its_way_in(
    hall: Any, new_page: Any, viewport: str, length: str
) -> None:
    """The play slides in from its player's side: the seat on the right's (the trial's 2♦
    at 1366×768), then the player's own from his hand."""
    name = f"slide-{viewport}-{length}"
    page = player_page(new_page, hall.url, viewport, name, bypass_csp=True)
    feed(page, _play_snapshot(name, [[2, "3"]], 1))
    page.wait_for_selector("[data-testid=played][data-seat='2'] .card")
    page.add_style_tag(content=FROZEN)
    move = "2" if length == "single" else LONG
    feed(page, _played(1, move, 41))
    page.wait_for_selector("[data-testid=played][data-seat='1'].fx-fly")
    assert page.evaluate(_ON_ITS_WAY, 1) == []
    feed(page, _played(2, "pass", 42), _played(0, move, 43))
    page.wait_for_selector("[data-testid=played][data-seat='0'].fx-fly")
    assert page.evaluate(_ON_ITS_WAY, 0) == []


# ------------------------------------------------------------- 5: the 记牌器's labels

_LABELS = """() => [...document.querySelectorAll('[data-testid=card-counter] .cc b')].map((b) => {
  const r = b.getBoundingClientRect();
  return {text: b.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
})"""


@VIEWPORTS
@pytest.mark.parametrize("rules", ["yifa", "caishen"])
def test_the_counters_labels_stand_apart(
    hall: Any, new_page: Any, viewport: str, rules: str, tmp_path: Path
) -> None:
    name = f"counter-{viewport}-{rules}"
    page = player_page(new_page, hall.url, viewport, name)
    feed(page, ddz_play_snapshot(name, ["3s", "5h", "7c"], ["play pass"], rules=rules))
    page.wait_for_selector("[data-testid=card-counter]")
    labels = page.evaluate(_LABELS)
    texts = [label["text"] for label in labels]
    jokers = ["财神", "大王", "小王"] if rules == "caishen" else ["大王", "小王"]
    assert texts[: len(jokers)] == jokers and len(texts) == len(jokers) + 13
    width = page.viewport_size["width"]
    assert labels[0]["left"] >= 0 and labels[-1]["right"] <= width  # all in sight
    for before, after in itertools.pairwise(labels):
        assert after["left"] - before["right"] >= 3, f"{before['text']}{after['text']}"
        assert before["top"] == after["top"]  # one row
    screenshot(page, tmp_path, f"trial-counter-{rules}-{viewport}")


# ------------------------------------------------------------- 6: 梭哈's 已下

_SEATS = """() => [...document.querySelectorAll('[data-testid=table] [data-testid=seat-coins]')]
  .map((meta) => ({seat: +meta.closest('[data-seat]').dataset.seat,
                   coins: +meta.dataset.coins, text: meta.textContent}))"""


def _shown(page: Any) -> dict[int, tuple[int, int]]:
    """Each seat's coins and 已下, as its box shows them (``🪙 9,996 · 已下 4``)."""
    shown = {}
    for seat in page.evaluate(_SEATS):
        coins, put = seat["text"].split("·")
        assert put.strip().startswith("已下")
        shown[seat["seat"]] = (int(coins.replace(",", "")), int(put.strip()[2:]))
        assert shown[seat["seat"]][0] == seat["coins"]
    return shown


def _put_in(hand: RegistryHand) -> dict[int, tuple[int, int]]:
    """Each seat's coins now and what it put in the pot (antes and bets), by the engine."""
    stacks = hand.state.view(0).stacks
    return {seat: (stack, hand.coins - stack) for seat, stack in enumerate(stacks)}


def test_a_showhand_seats_bet_so_far_counts_its_ante(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    """A dealt hand whose first seats have acted, as it comes (the events), then as a
    snapshot gives it (a reconnection): every seat's 已下 is what it put in the pot."""
    hand = RegistryHand("showhand", "yifa", room="showhand-yifa", seats=4, seed=3, coins=10_000)
    while len(set(hand.state.view(0).stacks)) == 1:  # until a seat has bet
        hand.step()
    page = new_page(**DESKTOP)
    stub = StubHall(page, hand.NAMES[0])
    signed_up(page, hall.url, "showhand-put")
    at_table(page, stub, hand.before(0))
    stub.send(hand.hand_start(), *hand.events(0), hand.turn(0))
    page.wait_for_selector(f"[data-testid=table][data-n='{hand.sent}']")
    assert _shown(page) == _put_in(hand)
    header = int((page.text_content("[data-testid=me-coins]") or "").replace(",", ""))
    assert sum(_shown(page)[0]) == header == hand.coins  # the header: before the hand
    screenshot(page, tmp_path, "trial-showhand-put")
    hand.step()
    stub.send(hand.snapshot(0))  # the hand one action on, as a snapshot
    page.wait_for_selector(f"[data-testid=table][data-n='{hand.sent}']")
    assert _shown(page) == _put_in(hand)
