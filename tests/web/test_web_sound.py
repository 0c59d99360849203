"""Sound and animation at the table (js/sound.js, js/fx.js): the header's sound switch,
remembered across a reload and silent when off; the sounds a Dou Dizhu hand makes (deal,
play, pass, win or lose) in ``window.__qipaiSounds``; the result's flourish and a bomb's
burst over the felt, none of them under ``prefers-reduced-motion: reduce``; and what kind
of play calls for a burst (bomb, rocket, plane, spring, compare)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_kit import (
    WAIT_MS,
    WATCH_FX,
    box,
    ddz_act,
    ddz_choice,
    join,
    play_to_result,
    screenshot,
    sign_up,
)

pytestmark = pytest.mark.motion  # the animations' tests: the page animates

TOGGLE = "[data-testid=sound-toggle]"

BOMB = """async () => {
  // the effects of a bomb played by the seat after mine, on the live table (not applied
  // to its state): its sound and its burst
  const fx = await import('/js/fx.js');
  const table = window.qipai.app.table;
  const seat = (table.seat + 1) % 3;
  fx.effects(table, {type: 'event', event: {kind: 'Played', seat, move: '3333'}});
}"""

KINDS = """async () => {
  const fx = await import('/js/games/ddzfx.js');
  const zjh = await import('/js/games/zhajinhua.js');
  const play = (move) => fx.kindOf({kind: 'Played', seat: 0, move, cards: [], cards_left: 5});
  const ended = (spring, anti) =>
    fx.kindOf({kind: 'HandEnded', winner: 0, landlord_won: true, spring, anti_spring: anti});
  return {
    bomb: play('3333'), wildBomb: play('4444W/44444'), rocket: play('BR'),
    planeSingles: play('33344456'), planePairs: play('3334445566'), trioChain: play('333444'),
    named: play('333444555666 plane_singles:5'), fourTwo: play('33334444 four_two_pairs:4'),
    pair: play('33'), chain: play('34567'), trioSingle: play('3334'), notAChain: play('AAA22234'),
    pass: play('pass'), spring: ended(true, false), antiSpring: ended(false, true),
    plainEnd: ended(false, false), compare: zjh.game.effect({kind: 'Compared', initiator: 0,
    target: 1, loser: 1, amount: 4}).burst,
  };
}"""


def _freeze(page: Any) -> None:
    """Hold every animation a third of a second in, for a screenshot that shows it."""
    page.evaluate(
        "() => document.getAnimations().forEach((a) => { a.pause(); a.currentTime = 300; })"
    )


def _sounds(page: Any) -> list[str]:
    names: list[str] = page.evaluate("() => window.__qipaiSounds")
    return names


def _fx_seen(page: Any) -> list[dict[str, str]]:
    seen: list[dict[str, str]] = page.evaluate("() => window.__fxSeen")
    return seen


def _wait_sound(page: Any, names: list[str], after: int = 0) -> None:
    """Wait until one of ``names`` is recorded after the first ``after`` sounds."""
    page.wait_for_function(
        "([names, after]) => window.__qipaiSounds.slice(after).some((n) => names.includes(n))",
        arg=[names, after],
        timeout=WAIT_MS,
    )


def _play_passing_once(page: Any, passed: list[int]) -> None:
    """Play the hand through the page; the first time passing is allowed, pass, and hear it."""

    def on_turn(page: Any, legal: list[str]) -> bool:
        if passed or "play pass" not in legal:
            return False
        before = len(_sounds(page))
        ddz_act(page, "play pass")
        _wait_sound(page, ["pass"], before)
        passed.append(before)
        return True

    play_to_result(page, lambda p, legal: ddz_act(p, ddz_choice(legal)), on_turn=on_turn)


def test_the_sound_switch_is_remembered_and_silences_the_table(
    hall: Any, new_page: Any, tmp_path: Path
) -> None:
    page = new_page(390, 844)  # a phone: the switch fits its header
    sign_up(page, hall.url, "sound_off")
    toggle = page.locator(TOGGLE)
    assert toggle.get_attribute("aria-pressed") == "true"  # on by default
    assert toggle.get_attribute("title") == "音效：开"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert toggle.get_attribute("title") == "音效：关"
    page.click("[data-testid=lang]")
    assert page.locator(TOGGLE).get_attribute("title") == "Sound: off"
    page.click("[data-testid=lang]")
    where = box(page, TOGGLE)
    assert where is not None and where["x"] >= 0 and where["x"] + where["width"] <= 390
    page.reload()
    page.wait_for_selector("[data-testid=net][data-status=open]")
    assert page.locator(TOGGLE).get_attribute("aria-pressed") == "false"  # off stays off
    screenshot(page, tmp_path, "sound-off-phone")
    page.evaluate(WATCH_FX)
    join(page, "doudizhu-yifa")
    play_to_result(page, lambda p, legal: ddz_act(p, ddz_choice(legal)))
    # a whole hand, and not one sound
    assert _sounds(page) == []
    # the animations do not follow the switch: a bomb still bursts over the felt, silently
    page.evaluate(BOMB)
    page.wait_for_function("() => window.__fxSeen.some((f) => f.kind === 'bomb')")
    _freeze(page)
    screenshot(page, tmp_path, "fx-bomb-phone")
    assert _sounds(page) == []
    page.click("[data-testid=result-close]")
    page.click(TOGGLE)  # on again, and so after a reload
    page.reload()
    page.wait_for_selector("[data-testid=net][data-status=open]")
    assert page.locator(TOGGLE).get_attribute("aria-pressed") == "true"


def test_a_hand_sounds_and_ends_with_a_flourish(hall: Any, new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    sign_up(page, hall.url, "sound_on")
    assert page.locator(TOGGLE).get_attribute("aria-pressed") == "true"
    page.evaluate(WATCH_FX)
    join(page, "doudizhu-yifa")
    passed: list[int] = []
    _play_passing_once(page, passed)
    assert passed, "the hand never let the player pass"
    _wait_sound(page, ["win", "lose"])
    sounds = _sounds(page)
    assert sounds[0] == "deal"
    assert "play" in sounds and "pass" in sounds
    endings = [name for name in sounds if name in ("win", "lose")]
    assert len(endings) == 1
    # the result's flourish: the same outcome, animated, and it lets clicks through
    page.wait_for_function(
        "() => window.__fxSeen.some((f) => f.kind === 'win' || f.kind === 'lose')"
    )
    _freeze(page)
    screenshot(page, tmp_path, "fx-result")
    flourish = [f for f in _fx_seen(page) if f["kind"] in ("win", "lose")]
    assert [f["kind"] for f in flourish] == endings
    assert flourish[0]["animation"] not in ("", "none")
    assert flourish[0]["pointer"] == "none"
    assert page.evaluate("() => window.__flown") > 0  # cards flew in, plays slid to the felt
    # a bomb on the felt: its sound and its burst, which covers nothing clickable
    before = len(_sounds(page))
    page.evaluate(BOMB)
    page.wait_for_function("() => window.__fxSeen.some((f) => f.kind === 'bomb')")
    _freeze(page)
    screenshot(page, tmp_path, "fx-bomb")
    _wait_sound(page, ["bomb"], before)
    page.click("[data-testid=result-close]")  # through the burst, if it is still there
    page.wait_for_selector("[data-testid=result]", state="detached")


def test_reduced_motion_makes_no_animation_but_keeps_the_sounds(hall: Any, new_page: Any) -> None:
    page = new_page(reduced_motion="reduce")
    sign_up(page, hall.url, "sound_still")
    page.evaluate(WATCH_FX)
    join(page, "doudizhu-yifa")
    play_to_result(page, lambda p, legal: ddz_act(p, ddz_choice(legal)))
    _wait_sound(page, ["win", "lose"])
    assert _sounds(page)[0] == "deal"
    before = len(_sounds(page))
    page.evaluate(BOMB)
    _wait_sound(page, ["bomb"], before)  # heard, when its burst would have been made
    assert _fx_seen(page) == []
    assert page.evaluate("() => window.__flown") == 0
    assert page.locator("[data-testid=fx]").count() == 0
    # and the stylesheet moves nothing either: a card marked to fly in stays still
    animation = page.eval_on_selector(
        "[data-testid=table] .card",
        """el => {
          el.classList.add('fx-fly');
          const name = getComputedStyle(el).animationName;
          el.classList.remove('fx-fly');
          return name;
        }""",
    )
    assert animation == "none"
    # nor turns or blinks anything for ever: the queue's ring, the connecting dot
    still = page.evaluate(
        """() => ['spinner', 'netdot wait'].map((names) => {
          const el = document.createElement('div');
          el.className = names;
          document.body.append(el);
          const name = getComputedStyle(el).animationName;
          el.remove();
          return name;
        })"""
    )
    assert still == ["none", "none"]


def test_the_plays_that_burst(hall: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(hall.url)
    kinds = page.evaluate(KINDS)
    assert kinds == {
        "bomb": "bomb",
        "wildBomb": "bomb",
        "rocket": "rocket",
        "planeSingles": "plane",
        "planePairs": "plane",
        "trioChain": "plane",
        "named": "plane",
        "fourTwo": None,
        "pair": None,
        "chain": None,
        "trioSingle": None,
        "notAChain": None,
        "pass": None,
        "spring": "spring",
        "antiSpring": "spring",
        "plainEnd": None,
        "compare": "compare",
    }
