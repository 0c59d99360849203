// A player's avatar 头像: one of the LOOKS he chose (GET /api/me/account, the friends list,
// a player's card say which: `setLook` keeps it for the name), else drawn from his name. No
// upload. A hash of the name picks each feature (background, skin, hair, eyes, mouth, shirt), so the same name
// always looks the same, on every screen and in every language, and two players at a table
// almost never look alike (12 × 4 × 6 × 5 × 3 × 3 × 12 = 155,520 looks). Bots are drawn the same way
// from their nicknames. Every shape is drawn here, in SVG; nothing is fetched.

import { h } from "./dom.js";

const SKIN = ["#f6d7b0", "#eec39a", "#d9a066", "#a86b3c"];
const HAIR_COLOUR = ["#2b1d14", "#5a3a22", "#151515", "#8c5a2b", "#b8b8b8"];
const HUES = 12;

/** Hair styles over a head at (20, 18), radius 9 (the bald one draws nothing). */
const HAIR = [
  "M11 17a9 9 0 0 1 18 0q-9-5-18 0z", // short
  "M10 20a10 10 0 0 1 20 0v6h-3v-7q-7-6-14 0v7h-3z", // bob
  "M11 16l2-6 3 4 2-6 3 5 2-5 2 5 3-3-1 6q-8-4-16 0z", // spiky
  "M11 17a9 9 0 0 1 18 0q-9-5-18 0zM17 6a3 3 0 1 0 6 0a3 3 0 1 0-6 0z", // bun
  "", // bald
  "M10 19a10 10 0 0 1 20 0v12h-4v-13q-6-5-12 0v13h-4z", // long
];
/** Eyes on a head at (20, 18). */
const EYES = [
  '<circle cx="16.5" cy="18" r="1.2"/><circle cx="23.5" cy="18" r="1.2"/>',
  '<path d="M15 18.5q1.5-2 3 0M22 18.5q1.5-2 3 0" fill="none" stroke="#222" stroke-width="1"/>',
  '<circle cx="16.5" cy="18" r="2.4" fill="none" stroke="#222" stroke-width=".9"/>' +
    '<circle cx="23.5" cy="18" r="2.4" fill="none" stroke="#222" stroke-width=".9"/>' +
    '<path d="M18.9 18h2.2" stroke="#222" stroke-width=".9"/><circle cx="16.5" cy="18" r=".9"/>' +
    '<circle cx="23.5" cy="18" r=".9"/>',
];
/** Mouths on a head at (20, 18). */
const MOUTHS = [
  '<path d="M17 22q3 3 6 0" fill="none" stroke="#7a2e1e" stroke-width="1.1" stroke-linecap="round"/>',
  '<path d="M17.5 22.5h5" stroke="#7a2e1e" stroke-width="1.1" stroke-linecap="round"/>',
  '<ellipse cx="20" cy="22.6" rx="1.8" ry="1.3" fill="#7a2e1e"/>',
];

/** FNV-1a, 32 bits, over the name's UTF-16 code units. */
function hash(text) {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** The features of a name's avatar: {hue, skin, hair, colour, eyes, mouth, shirt}. */
export function features(name) {
  let value = hash(name || "?");
  const pick = (n) => {
    const chosen = value % n;
    value = Math.floor(value / n);
    return chosen;
  };
  return {
    hue: pick(HUES),
    skin: pick(SKIN.length),
    hair: pick(HAIR.length),
    colour: pick(HAIR_COLOUR.length),
    eyes: pick(EYES.length),
    mouth: pick(MOUTHS.length),
    shirt: pick(HUES),
  };
}

function svgOf(f) {
  const bg = `hsl(${f.hue * 30} 42% 38%)`;
  const shirt = `hsl(${f.shirt * 30} 55% 52%)`;
  const hair = HAIR[f.hair] ? `<path d="${HAIR[f.hair]}" fill="${HAIR_COLOUR[f.colour]}"/>` : "";
  return (
    '<svg viewBox="0 0 40 40" aria-hidden="true" focusable="false">' +
    `<circle cx="20" cy="20" r="20" fill="${bg}"/>` +
    `<path d="M6 40q1-11 14-11t14 11z" fill="${shirt}"/>` +
    `<rect x="17" y="25" width="6" height="5" fill="${SKIN[f.skin]}"/>` +
    `<circle cx="20" cy="18" r="9" fill="${SKIN[f.skin]}"/>` +
    hair +
    `<g fill="#222">${EYES[f.eyes]}</g>${MOUTHS[f.mouth]}</svg>`
  );
}

/** How many looks a player may choose from (the hall's `avatar` 0..LOOKS-1). */
export const LOOKS = 12;

/** The features of the chosen look `k`: each feature steps through its choices. */
export function lookFeatures(k) {
  return { hue: k % HUES, skin: k % SKIN.length, hair: k % HAIR.length, colour: (k * 2) % HAIR_COLOUR.length, eyes: k % EYES.length, mouth: (k + 1) % MOUTHS.length, shirt: (k * 5) % HUES };
}

/** The looks the page has learnt, by name (null: drawn from the name). */
const chosen = new Map();

/** Remember the look `look` (0..LOOKS-1, or null) the player `name` chose. */
export function setLook(name, look) {
  if (look === null || look === undefined) chosen.delete(name);
  else chosen.set(name, look);
}

/** The avatar of the player named `name`: the look `look` (a number), else the one he is
 * known to have chosen, else drawn from his name (`data-avatar`: its features, for the
 * tests; `data-look`: the chosen look, if any). */
export function avatarEl(name, { small = false, look = undefined } = {}) {
  const picked = look === undefined ? chosen.get(name) : look;
  const f = typeof picked === "number" ? lookFeatures(picked) : features(name);
  const el = h("div", {
    class: `avatar ${small ? "small" : ""}`,
    "data-testid": "avatar",
    "data-avatar": Object.values(f).join("-"),
    "data-look": typeof picked === "number" ? String(picked) : null,
    "aria-hidden": "true",
  });
  el.innerHTML = svgOf(f); // numbers and constants of this module only: never the name
  return el;
}
