// Dou Dizhu plays as text (pure functions, no DOM): matching lifted cards to the legal
// `play …` actions, the hint order, the cards a play takes, tricks.
//
// A play's text is the move: its physical cards as ranks sorted low to high ("33344"),
// then, for 财神 / joker wild cards, what they stand for after a slash ("4567W/45678"),
// then, when the cards have several readings, the reading after a space
// ("333444555666 plane_singles:5"). Passing is "play pass".

import { SUITS } from "../cards.js";

/** The ranks low to high (jokers B small, R big; W the 财神). */
export const DDZ_ORDER = "3456789TJQKA2BRW";

/** The rank letter of a card: "3s" -> "3", "BJ" -> "B", "RJ" -> "R", "W" -> "W". */
export function ddzRank(code) {
  return code[0];
}

/** Order key of a card (rank, then suit ♠ ♥ ♣ ♦). */
export function ddzKey(code) {
  return DDZ_ORDER.indexOf(code[0]) * 4 + Math.max(0, SUITS.indexOf(code[1]));
}

export const PASS = "play pass";

/** Sort rank letters low to high. */
export function sortRanks(ranks) {
  return [...ranks].sort((a, b) => DDZ_ORDER.indexOf(a) - DDZ_ORDER.indexOf(b)).join("");
}

/** The physical ranks of a move text ("4567W/45678" -> "4567W"). */
export function physical(move) {
  return move.split(/[/ ]/)[0];
}

/** What a move text stands for: {physical, as, kind} ("4567W/45678" -> as "45678"). */
export function reading(move) {
  const [cards, kind = ""] = move.split(" ");
  const [phys, as = ""] = cards.split("/");
  return { physical: phys, as, kind };
}

/** The move of a `play …` action ("play 33344" -> "33344"). */
export function moveOf(action) {
  return action.startsWith("play ") ? action.slice(5) : null;
}

/** The legal plays (not the pass) whose cards are exactly ``cards`` (card codes). */
export function matchPlays(cards, legal) {
  if (cards.length === 0) return [];
  const want = sortRanks(cards.map(ddzRank));
  return legal.filter((action) => {
    const move = moveOf(action);
    return move !== null && action !== PASS && sortRanks(physical(move)) === want;
  });
}

/** Whether a move is a bomb or the rocket (wild bombs included). */
export function isBomb(move) {
  const { physical: phys, as } = reading(move);
  const ranks = as || phys;
  if (sortRanks(ranks) === "BR") return true;
  return ranks.length >= 4 && ranks.length <= 5 && [...ranks].every((r) => r === ranks[0]);
}

/** The order in which 提示 offers the legal plays: bombs and the rocket last. */
export function hintOrder(legal) {
  const plays = legal.filter((action) => action.startsWith("play ") && action !== PASS);
  const plain = plays.filter((action) => !isBomb(moveOf(action)));
  const bombs = plays.filter((action) => isBomb(moveOf(action)));
  const seen = new Set();
  return [...plain, ...bombs].filter((action) => {
    const key = sortRanks(physical(moveOf(action)));
    if (seen.has(key)) return false; // one hint per set of cards (wild readings come at play)
    seen.add(key);
    return true;
  });
}

/** The cards of ``hand`` that make the move's physical ranks (null if missing). */
export function cardsFor(move, hand) {
  const left = [...hand];
  const chosen = [];
  for (const rank of physical(move)) {
    const at = left.findIndex((code) => ddzRank(code) === rank);
    if (at < 0) return null;
    chosen.push(left[at]);
    left.splice(at, 1);
  }
  return chosen;
}

/**
 * A play's cards in the order of the ranks they stand for, low to high, each wild card (the
 * 财神, a joker standing in) where it stands: [{code, as}], `as` the rank a wild card stands
 * for, else null. "789TJQKW/6789TJQK" with its cards: the 财神 first, as the 6. ``cards``
 * are the physical cards (null: the move's ranks are drawn).
 */
export function standingOrder(move, cards) {
  const { physical: phys, as } = reading(move);
  const codes = cards && cards.length ? [...cards] : [...phys];
  if (!as) return codes.map((code) => ({ code, as: null }));
  const left = [...codes];
  const slots = [...sortRanks(as)].map((rank) => {
    const at = left.findIndex((code) => ddzRank(code) === rank);
    return at < 0 ? { code: null, as: rank } : { code: left.splice(at, 1)[0], as: null };
  });
  for (const slot of slots) if (slot.code === null) slot.code = left.shift(); // the wild ones
  return slots;
}

/**
 * Split the plays of a hand into tricks: a trick starts with a lead, the first play or a
 * play after the two others passed. ``plays`` are {seat, move, cards}; returns arrays.
 */
export function tricks(plays) {
  const out = [];
  let lastPlayer = null;
  for (const play of plays) {
    const passed = play.move === "pass" || play.move === "";
    if (!passed && (out.length === 0 || lastPlayer === play.seat)) out.push([]);
    if (out.length === 0) out.push([]);
    out[out.length - 1].push(play);
    if (!passed) lastPlayer = play.seat;
  }
  return out;
}
