// Card faces drawn with CSS and the suit symbols of index.html, from the hall's card
// notation (docs/architecture.md): "3s", "Th" (10 of hearts), "BJ" / "RJ" (small / big
// joker), "W" (the 财神 wildcard); rank-only texts ("3", "B", "R") draw suitless faces.
// The order of a game's cards is its module's (js/games/).

import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

/** The suits, in the hall's order (♠ ♥ ♣ ♦). */
export const SUITS = "shcd";

function label(rank) {
  return rank === "T" ? "10" : rank;
}

/** A card's name for a screen reader and a tooltip ("黑桃10" / "10 of spades"). */
export function cardName(code) {
  if (!code) return t("card.back");
  if (code === "W") return t("card.wild");
  if (code[0] === "B" || code[0] === "R") return t(code[0] === "R" ? "card.bigJoker" : "card.smallJoker");
  const rank = label(code[0]);
  return code[1] ? t("card.named", { rank, suit: t(`suit.${code[1]}`) }) : rank;
}

/** A card is an image to assistive technology, named by :func:`cardName`. */
function named(el, code) {
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  return el;
}

function jokerFace(code, size) {
  const big = code[0] === "R";
  return h(
    "div",
    { class: `card joker ${big ? "big" : "small"} ${size}`, "data-card": code, title: t(big ? "card.bigJoker" : "card.smallJoker") },
    h("div", { class: "corner" }, ..."JOKER".split("").map((c) => h("span", { text: c }))),
    icon("crown", "pip"),
  );
}

function wildFace(size) {
  return h(
    "div",
    { class: `card wild ${size}`, "data-card": "W", title: t("card.wild") },
    h("div", { class: "corner" }, h("span", { text: "财" }), h("span", { text: "神" })),
    icon("coin", "pip"),
  );
}

/**
 * A card element. ``code`` is a card ("Kh"), a joker ("BJ", "R"), the wildcard ("W"), or a
 * suitless rank ("7"); options: small (table size), back (face down), testid.
 */
export function cardEl(code, { small = false, back = false, testid = null } = {}) {
  const size = small ? "sm" : "";
  if (back || !code) {
    return named(h("div", { class: `card back ${size}`, "data-testid": testid }), null);
  }
  let el;
  if (code === "W") el = wildFace(size);
  else if (code[0] === "B" || code[0] === "R") el = jokerFace(code, size);
  else el = suitFace(code, size);
  if (testid) el.dataset.testid = testid;
  return named(el, code);
}

function suitFace(code, size) {
  const rank = code[0];
  const suit = code[1] || "";
  const red = suit === "h" || suit === "d";
  const classes = `card ${red ? "red" : ""} ${suit ? "" : "rankonly"} ${size}`;
  const corner = h("div", { class: "corner" }, h("span", { text: label(rank) }), suit ? icon(`suit-${suit}`) : null);
  let middle = null;
  if ("JQK".includes(rank)) middle = h("div", { class: "face", text: rank });
  else if (suit) middle = icon(`suit-${suit}`, "pip");
  return h("div", { class: classes, "data-card": code }, corner, middle);
}

/** A rank letter as a word in the current language ("T" -> "10", "R" -> 大王 / big
 * joker); `short`: as few letters as can be (the 记牌器's columns: 大王 / JK). */
export function rankWord(rank, { short = false } = {}) {
  if (rank === "T") return "10";
  if (!"BRW".includes(rank)) return rank;
  return t(short ? `rank.short.${rank}` : `rank.${rank}`);
}

/** Rank letters as words: "89TJQK" -> "8 9 10 J Q K", "BR" -> "小王 大王" (small joker
 * big joker). */
export function rankText(ranks) {
  return [...ranks].map((rank) => rankWord(rank)).join(" ");
}

/** A row of cards (fanned when ``fan``). */
export function cardRow(codes, { small = true, fan = true, testid = null } = {}) {
  return h(
    "div",
    { class: `cards ${fan ? "fan" : ""}`, "data-testid": testid },
    codes.map((code) => cardEl(code, { small })),
  );
}

/** The name of a hand's category ("pair", "flush"…) in a game, as a tag. */
export function categoryTag(game, category) {
  if (!category) return null;
  return h("span", { class: "tag gold", "data-testid": "category", "data-category": category, text: t(`cat.${game}.${category}`) });
}

/** Face-down cards. */
export function backs(count, { small = true } = {}) {
  return h("div", { class: "cards fan" }, Array.from({ length: count }, () => cardEl(null, { small })));
}
