"""The tables of Zha Jin Hua and Showhand, and a replay, on a phone: every control and card
of the player inside the screen (nothing to scroll to), the seats visible."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_kit import REPLAY, button, join, next_decision, screenshot, table_data

WIDTH, HEIGHT = 390, 844


_OVERLAPS = """() => {
  const boxes = (sel) => [...document.querySelectorAll(sel)]
    .map(e => [e, e.getBoundingClientRect()]).filter(([, r]) => r.width > 0);
  const meet = ([, a], [, b]) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const name = ([e, r]) => {
    const seat = e.closest("[data-testid=seat]");
    const where = seat ? `seat ${[...seat.classList].join(".")}` : "centre";
    return `${where} ${e.className || e.tagName} [${Math.round(r.left)},${Math.round(r.top)},`
      + `${Math.round(r.right)},${Math.round(r.bottom)}] ${e.textContent.slice(0, 20)}`;
  };
  const centre = boxes("[data-testid=table] .center > *");
  const seats = boxes("[data-testid=table] .arena [data-testid=seat] > *");
  const pairs = [];
  for (const a of centre) for (const b of seats) if (meet(a, b)) pairs.push([name(a), name(b)]);
  for (const [i, a] of seats.entries()) {
    for (const b of seats.slice(i + 1)) if (meet(a, b)) pairs.push([name(a), name(b)]);
  }
  return pairs;
}"""
"""The pairs of the felt's things that cover each other (where and what each is): the
centre's (pot, notes) and the seats' (name boxes, cards)."""


_CROWDED = """() => {
  const sides = "[data-testid=table] .arena [data-testid=seat] .side";
  for (const side of document.querySelectorAll(sides)) {
    side.querySelector(".said")?.remove();
    const said = document.createElement("div");
    said.className = "said";
    said.textContent = "加到 100（付 200）";
    side.prepend(said);
  }
  for (const tags of document.querySelectorAll(sides.replace(".side", ".tags"))) {
    for (const word of ["先手", "已看牌", "托管"]) {
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = word;
      tags.append(tag);
    }
  }
}"""
"""Every seat says the longest thing a seat says (a Zha Jin Hua raise) and wears three
tags, as bots may just before the player's turn: the layout must hold it."""


def _inside(page: Any, selector: str, width: int = WIDTH, height: int = HEIGHT) -> list[str]:
    """The elements of ``selector`` that stick out of the screen (their test ids or text)."""
    outside: list[str] = page.eval_on_selector_all(
        selector,
        f"""els => els.filter(e => {{
              const r = e.getBoundingClientRect();
              return r.width > 0 && (r.left < 0 || r.top < 0 || r.right > {width} + 0.5
                                     || r.bottom > {height} + 0.5);
            }}).map(e => e.dataset.testid || e.dataset.card || e.textContent)""",
    )
    return outside


def _seated(hall: Any, new_page: Any, room: str, width: int, height: int) -> tuple[Any, str]:
    """A guest on a phone of ``width`` × ``height`` at a table of ``room``, at his first
    decision: the page, and the room's game."""
    page = new_page(width=width, height=height, is_mobile=True, has_touch=True)
    page.goto(hall.url)
    page.click("[data-testid=guest]")
    page.wait_for_selector("[data-testid=room]")
    join(page, room)
    next_decision(page, None)
    return page, room.split("-", maxsplit=1)[0]


@pytest.mark.parametrize("room", ["zhajinhua-yifa", "showhand-yifa"])
def test_a_phone_table_fits_the_screen(hall: Any, new_page: Any, tmp_path: Path, room: str) -> None:
    page, game = _seated(hall, new_page, room, WIDTH, HEIGHT)
    seats = page.locator("[data-testid=seat]").count()
    assert seats == (5 if game == "zhajinhua" else 4)
    assert _inside(page, "[data-testid=actions] button, .toolbar button") == []
    assert _inside(page, "[data-testid=hand] > *, [data-testid=seat] .who") == []
    assert page.evaluate(_OVERLAPS) == []  # the pot, the seats and their cards apart
    screenshot(page, tmp_path, f"table-{game}-phone")
    page.evaluate(_CROWDED)
    screenshot(page, tmp_path, f"table-{game}-phone-crowded")
    assert page.evaluate(_OVERLAPS) == [], "what a seat said covers another seat"
    button(page, "trustee").click()  # the system plays on (folds) to the end
    page.wait_for_selector("[data-testid=result]")
    seat = table_data(page)["seat"]
    page.click("[data-testid=result] [data-testid=action-replay]")
    page.wait_for_selector(f"{REPLAY} [data-testid=table][data-seat='{seat}']")
    page.click("[data-testid=replay-first]")
    assert _inside(page, f"{REPLAY} [data-testid=seat] .who") == []
    assert page.evaluate(_OVERLAPS) == []  # every hand face up, none over another
    screenshot(page, tmp_path, f"replay-{game}-phone")


LANDSCAPE = 844, 390
"""A phone turned sideways, as most people hold it for cards."""


@pytest.mark.parametrize("room", ["doudizhu-yifa", "zhajinhua-yifa", "showhand-yifa"])
def test_a_phone_turned_sideways_shows_the_players_cards_and_seat(
    hall: Any, new_page: Any, tmp_path: Path, room: str
) -> None:
    width, height = LANDSCAPE
    page, game = _seated(hall, new_page, room, width, height)
    screenshot(page, tmp_path, f"table-{game}-landscape")
    selector = "[data-testid=actions] button, .toolbar button, [data-testid=hand] > *, " \
        "[data-testid=seat] .who"
    assert _inside(page, selector, width, height) == []
    assert page.evaluate(_OVERLAPS) == []
    page.evaluate(_CROWDED)
    screenshot(page, tmp_path, f"table-{game}-landscape-crowded")
    assert page.evaluate(_OVERLAPS) == [], "what a seat said covers another seat"


@pytest.mark.parametrize("room", ["doudizhu-yifa", "zhajinhua-yifa"])
def test_the_upright_phones_toolbar_is_one_row_of_tools_and_a_menu(
    hall: Any, new_page: Any, tmp_path: Path, room: str
) -> None:
    page, game = _seated(hall, new_page, room, WIDTH, HEIGHT)
    tops = page.eval_on_selector_all(
        ".toolbar > button",
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().top)",
    )
    assert len(tops) >= 2 and max(tops) - min(tops) < 4  # 托管 … ⋯: one row, nothing wrapped
    # the header: every tab whole (none scrolled or cut off), the sound switch one line
    assert page.evaluate("() => { const n = document.querySelector('nav.tabs');"
                         " return n.scrollWidth <= n.clientWidth; }")
    assert _inside(page, "#top button, nav.tabs a") == []
    assert not page.is_visible("[data-testid=action-scores]")  # in the menu
    button(page, "scores").click()  # opens the menu, then the scores
    page.wait_for_selector("[data-testid=scores]")
    assert not page.is_visible("[data-testid=more-tools]")  # closed by the choice
    assert page.get_attribute("[data-testid=action-more]", "aria-expanded") == "false"
    page.keyboard.press("Escape")
    page.click("[data-testid=action-more]")
    screenshot(page, tmp_path, f"toolbar-menu-{game}-phone")
    assert _inside(page, "[data-testid=more-tools] button") == []


_MEETS = """([menu, selector]) => {
  const m = document.querySelector(menu).getBoundingClientRect();
  return [...document.querySelectorAll(selector)].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && m.width > 0 && m.left < r.right && r.left < m.right
      && m.top < r.bottom && r.top < m.bottom;
  }).map(e => e.dataset.testid || e.className);
}"""
"""What of ``selector`` the open ⋯ menu covers."""


def _menu_open(page: Any) -> bool:
    return bool(page.is_visible("[data-testid=more-tools]"))


def test_the_phones_menu_closes_outside_on_esc_and_under_the_result(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    """Issue 27: the ⋯ menu stayed open on a tap outside it and on Esc, covered the
    right-hand opponent (his cards, count and clock) and stayed open behind the result."""
    page, _ = _seated(hall, new_page, "doudizhu-yifa", WIDTH, HEIGHT)
    more = "[data-testid=action-more]"
    page.click(more)
    assert _menu_open(page) and page.get_attribute(more, "aria-expanded") == "true"
    # nothing of the seats under it: names, counts, clocks, what they said or played
    seats = "[data-testid=table] .arena [data-testid=seat] > *, [data-testid=seat] .who > *"
    assert page.evaluate(_MEETS, ["[data-testid=more-tools]", seats]) == []
    page.wait_for_function("() => !document.querySelector('.fx-fly')")  # the deal flown in
    screenshot(page, tmp_path, "toolbar-menu-open-phone")
    page.mouse.click(WIDTH / 2, HEIGHT * 0.45)  # a tap on the felt, outside the menu
    page.wait_for_selector("[data-testid=more-tools]", state="hidden")
    assert page.get_attribute(more, "aria-expanded") == "false"
    page.click(more)
    assert _menu_open(page)
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=more-tools]", state="hidden")
    page.click(more)
    assert _menu_open(page)
    button(page, "trustee").click()  # the system plays to the end: the result opens
    page.wait_for_selector("[data-testid=result]")
    assert not _menu_open(page)
    assert page.get_attribute(more, "aria-expanded") == "false"
