// Dou Dizhu's effects at the live table (the game's `effect` hook, played by js/fx.js): a
// play (or 不出) slides from its player to the felt; a bomb, the rocket, a plane and a spring
// get a full-felt burst with a big label.

import { t } from "../i18n.js";
import { isBomb, reading, sortRanks } from "./ddzplays.js";

const CHAIN_RANKS = "3456789TJQKA"; // the ranks a chain may hold (no 2, no joker)

/** The sound of an event with no burst, by event kind. */
const SOUNDS = { CardsDealt: "deal" };

/**
 * The full-felt effect an event calls for: "bomb", "rocket" or "plane" for a play
 * (`{kind: "Played", move: "3333"}`), "spring" for a hand ended in 春天 or 反春 (`{kind:
 * "HandEnded", spring: true}`); null otherwise.
 */
export function kindOf(event) {
  if (event.kind === "Played" && event.move !== "pass") return playKind(event.move);
  if (event.kind === "HandEnded" && (event.spring || event.anti_spring)) return "spring";
  return null;
}

function playKind(move) {
  const { physical: phys, as } = reading(move);
  if (sortRanks(as || phys) === "BR") return "rocket";
  if (isBomb(move)) return "bomb";
  return isPlane(move) ? "plane" : null;
}

/** Whether a move is a plane 飞机: two trios of consecutive ranks or more, alone (三顺) or
 * with as many singles or pairs (wild cards read as what they stand for). */
export function isPlane(move) {
  const { physical: phys, as, kind } = reading(move);
  if (kind) return /^(plane|trio_chain)/.test(kind); // the reading the server named
  const ranks = as || phys;
  const longest = trioRun(ranks);
  for (let trios = 2; trios <= longest; trios++) {
    if ([3, 4, 5].some((each) => each * trios === ranks.length)) return true;
  }
  return false;
}

/** The longest run of consecutive ranks held three times or more. */
function trioRun(ranks) {
  let best = 0;
  let run = 0;
  for (const rank of CHAIN_RANKS) {
    run = [...ranks].filter((r) => r === rank).length >= 3 ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

/** What an event shows and sounds (js/fx.js): {sound, burst, label, slide}, or null. */
export function effect(event) {
  const burst = kindOf(event);
  let sound = burst || SOUNDS[event.kind] || null;
  if (!sound && event.kind === "Played") sound = event.move === "pass" ? "pass" : "play";
  if (!sound) return null;
  const label = burst === "spring" && !event.spring ? t("fx.antispring") : null;
  return { sound, burst, label, slide: event.kind === "Played" ? event.seat : null };
}
