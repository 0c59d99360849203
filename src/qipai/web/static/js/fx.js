// The live table's effects: the sound (js/sound.js) and the animation of what just
// happened. The game's `effect` hook (js/games/) says what an event calls for: cards dealt
// fly in from the centre of the felt; a play may slide from its player to the felt; a big
// moment (a bomb, a compare…) gets a short full-felt burst with a big label; the hand's
// result a win / lose flourish (every game).
//
// table.js calls effects() for each event and hand_over frame it applies as they happen:
// never for the frames replayed after a reload or a reconnection, and the replay viewer
// (which draws steps, not events) never calls it. Every animation is short (about a
// second at most), drawn by CSS (css/app.css, "sound and animation") in elements that take
// no pointer event (a card in flight neither: a tap goes to the button under it); under
// `prefers-reduced-motion: reduce` none is made (the sounds still follow the switch).
// Bursts take turns: one waits for the one before it to end.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { play } from "./sound.js";

const BURST_MS = 1100; // a burst's life (its CSS animations end before)
const STAGGER_MS = 22; // between two cards dealt
const START_SCALE = 0.6; // a card's size where its flight starts (css: @keyframes fx-fly)
const FLIGHT_STEPS = 24; // the points of a slide checked against the boxes it must not cover
const BACK_OFF = 0.02; // the share of the way a slide's start moves back toward its place, each try

let freeAt = 0; // performance.now() when the felt is free for the next burst
const dealt = new WeakMap(); // table -> {hand, keys}: the cards of my hand flown in already

// ------------------------------------------------------------------ cues

/** What an event shows and sounds: {sound, burst, label, slide (a seat), deal}, or null;
 * the game's `effect(event)` hook says which (js/games/; none: no effect). A burst's label
 * is `fx.<burst>` unless the game gives one. */
function eventCue(T, event) {
  const cue = T.game.effect ? T.game.effect(event) : null;
  if (!cue || !cue.sound) return null;
  const burst = cue.burst || null;
  const label = cue.label || (burst ? t(`fx.${burst}`) : null);
  return { sound: cue.sound, burst, label, slide: cue.slide ?? null, deal: cue.sound === "deal" };
}

/** The result's flourish: win when my seat is among the winners, else lose (none for a
 * spectator: he neither wins nor loses). */
function resultCue(T, frame) {
  if (frame.voided || T.spectating) return null;
  const kind = (frame.winners || []).includes(T.seat) ? "win" : "lose";
  return { sound: kind, burst: kind, label: t(`fx.${kind}`), slide: null, deal: false };
}

/**
 * The effects of a frame the table has just applied (`event` or `hand_over`): its sound and
 * its animation. Does nothing for the frames a reload or a reconnection replays
 * (`T.live` false).
 */
export function effects(T, frame) {
  if (!T.live) return;
  const cue = frame.type === "hand_over" ? resultCue(T, frame) : eventCue(T, frame.event);
  if (!cue) return;
  if (moving(T)) flyIn(T, cue);
  if (!cue.burst) {
    play(cue.sound);
    return;
  }
  const wait = turnOfBurst();
  if (wait > 0) setTimeout(() => announce(T, cue), wait);
  else announce(T, cue);
}

/** How long a new burst waits for the one before it to end (ms); books its turn. */
function turnOfBurst() {
  const now = performance.now();
  const start = Math.max(now, freeAt);
  freeAt = start + BURST_MS;
  return start - now;
}

/** A play's or a deal's cards fly in at once, once the table has drawn them. */
function flyIn(T, cue) {
  if (cue.slide !== null) requestAnimationFrame(() => slide(T, cue.slide));
  if (cue.deal) requestAnimationFrame(() => dealIn(T));
}

/** A burst in its turn, with its sound. */
function announce(T, cue) {
  play(cue.sound);
  if (moving(T)) burst(T, cue.burst, cue.label);
}

const LESS_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Whether to animate: the table is on screen and the system does not ask for less motion. */
function moving(T) {
  if (document.hidden || !T.view || !T.view.mounted) return false;
  return !LESS_MOTION.matches;
}

// ------------------------------------------------------------------ animations

/** A full-felt burst: rays and a big label over the felt (the result's over the whole
 * table, where its panel opens), gone after BURST_MS. */
function burst(T, kind, label) {
  const el = h(
    "div",
    { class: `fx fx-${kind}`, "data-testid": "fx", "data-kind": kind, "aria-hidden": "true" },
    h("div", { class: "fx-rays" }),
    h("div", { class: "fx-label", text: label }),
  );
  const over = kind === "win" || kind === "lose" ? T.view.el : T.view.arenaEl;
  const felt = over.getBoundingClientRect();
  Object.assign(el.style, { left: `${felt.left}px`, top: `${felt.top}px`, width: `${felt.width}px`, height: `${felt.height}px` });
  document.body.append(el);
  setTimeout(() => el.remove(), BURST_MS);
}

/** The cards (or 不出) a seat just played slide from the player to the felt: from the side
 * of the seat's box, or of my hand for my own play (a spectator's bottom seat: his box),
 * never over a seat's box or the hand on the way (`clearStart`). */
function slide(T, seat) {
  const view = T.view;
  const played = view.el.querySelector(`[data-testid=played][data-seat="${seat}"]`);
  const mine = seat === T.seat;
  // a spectator's own side has no hand: his seat's box there
  const from = mine && !T.spectating ? view.handEl : mine ? view.meEl : view.arenaEl.querySelector(`[data-testid=seat][data-seat="${seat}"] .who`);
  if (!played || !from) return;
  const boxes = [...view.el.querySelectorAll(".who"), view.handEl].map((el) => el.getBoundingClientRect()).filter((box) => box.width && box.height);
  fly(played, clearStart(played.getBoundingClientRect(), centreOf(from), boxes), 0);
}

/**
 * Where the slide of a play lying at `box` starts: on the way from `point` (its player) to
 * the play, as near the player as it may be while the cards, growing from START_SCALE to
 * their size as they come, cover none of `boxes` (the seats' boxes, my hand) at any moment:
 * on a side seat the play comes out of the side of its box, mine rises from above my box.
 */
function clearStart(box, point, boxes) {
  const centre = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  const way = { x: point.x - centre.x, y: point.y - centre.y };
  for (let share = 1; share > 0; share -= BACK_OFF) {
    const start = { x: way.x * share, y: way.y * share };
    if (!boxes.some((other) => crosses(box, start, other))) return { x: centre.x + start.x, y: centre.y + start.y };
  }
  return centre;
}

/** Whether cards lying at `box`, flown in from `start` (an offset from there, at
 * START_SCALE), cover `other` at some point of their flight. Offset and scale move together
 * (one keyframe), so the points of the way, not its timing, tell. */
function crosses(box, start, other) {
  for (let step = 0; step <= FLIGHT_STEPS; step++) {
    const done = step / FLIGHT_STEPS;
    const scale = START_SCALE + (1 - START_SCALE) * done;
    const x = box.left + box.width / 2 + start.x * (1 - done);
    const y = box.top + box.height / 2 + start.y * (1 - done);
    const halfWidth = (box.width * scale) / 2;
    const halfHeight = (box.height * scale) / 2;
    if (x - halfWidth < other.right && other.left < x + halfWidth && y - halfHeight < other.bottom && other.top < y + halfHeight) return true;
  }
  return false;
}

/** The cards new in my hand fly in from the centre of the felt, one after another. */
function dealIn(T) {
  const view = T.view;
  let seen = dealt.get(T);
  if (!seen || seen.hand !== T.state.hand) {
    seen = { hand: T.state.hand, keys: new Set() };
    dealt.set(T, seen);
  }
  const from = centreOf(view.arenaEl.querySelector(".center") || view.arenaEl);
  let order = 0;
  [...view.handEl.children].forEach((card, i) => {
    const key = card.dataset.card || `back${i}`;
    if (seen.keys.has(key)) return;
    seen.keys.add(key);
    fly(card, from, order++ * STAGGER_MS);
  });
}

/** Animate `el` in from `point` (the page's coordinates) after `delay` ms (css: .fx-fly). */
function fly(el, point, delay) {
  const here = centreOf(el);
  el.style.setProperty("--fx-dx", `${Math.round(point.x - here.x)}px`);
  el.style.setProperty("--fx-dy", `${Math.round(point.y - here.y)}px`);
  el.style.animationDelay = `${delay}ms`;
  el.classList.add("fx-fly");
  // landed (or stopped: reduced motion asked for meanwhile): it takes pointer events again
  const land = (event) => {
    if (event.target !== el) return;
    el.classList.remove("fx-fly");
    el.style.animationDelay = "";
    el.removeEventListener("animationend", land);
    el.removeEventListener("animationcancel", land);
  };
  el.addEventListener("animationend", land);
  el.addEventListener("animationcancel", land);
}

function centreOf(el) {
  const box = el.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}
