// 记牌器 (the card counter) of a Dou Dizhu table: how many cards of each rank are still
// out, i.e. neither in the player's hand nor played yet (the others' hands, and the bottom
// until the landlord takes it). The game's `counter` hook: js/counter.js shows it when the
// room offers it and the player has not hidden it.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { rankWord } from "../cards.js";
import { DDZ_ORDER, ddzRank, physical } from "./ddzplays.js";

/** Every rank's count in a full deck of ``rules`` (54 cards; 55 with the 财神). */
export function fullDeck(rules) {
  const deck = {};
  for (const rank of DDZ_ORDER) deck[rank] = rank === "B" || rank === "R" || rank === "W" ? 1 : 4;
  if (rules !== "caishen") delete deck.W;
  return deck;
}

/** The ranks of a play's cards: its physical cards when known, else its move text. */
function playRanks(play) {
  if (play.move === "pass") return [];
  return play.cards && play.cards.length ? play.cards.map(ddzRank) : [...physical(play.move)];
}

/** How many of each rank are still out for a player holding ``hand`` after ``plays``. */
export function remaining(rules, hand, plays) {
  const out = fullDeck(rules);
  const seen = [...hand.map(ddzRank), ...plays.flatMap(playRanks)];
  for (const rank of seen) if (out[rank] > 0) out[rank] -= 1;
  return out;
}

/** The counter strip of ``T``'s hand, or null (no cards dealt yet). */
export function counter(T) {
  const m = T.state.model;
  const dealt = m && ((m.hand && m.hand.length) || (m.plays && m.plays.length));
  if (!dealt) return null;
  const out = remaining(m.rules || T.state.rules, m.hand, m.plays || []);
  const ranks = [...DDZ_ORDER].reverse().filter((rank) => rank in out); // high to low, 财神 first
  return h(
    "div",
    { class: "card-counter", "data-testid": "card-counter", role: "status", "aria-label": t("counter.title") },
    ranks.map((rank) =>
      h(
        "span",
        { class: `cc ${out[rank] ? "" : "none"}`, "data-rank": rank, "data-left": out[rank], title: rankWord(rank) },
        h("b", { text: rankWord(rank, { short: true }) }),
        h("span", { text: String(out[rank]) }),
      ),
    ),
  );
}
