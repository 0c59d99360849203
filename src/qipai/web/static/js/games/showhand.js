// Showhand 梭哈 at the table: the hole card (peek), the up cards, the 换牌 choice on cards 3
// and 4, bet / check / call / raise / fold / 梭 / 开 within the round's limits, showdown.

import { h, icon } from "../dom.js";
import { t } from "../i18n.js";
import { pokerGame } from "./poker.js";
import { cardEl, cardRow, categoryTag } from "../cards.js";
import { deckOf } from "../deal.js";
import { STRINGS } from "./shstrings.js";
import { rulesOf } from "./shrules.js";

function seats(n, value) {
  return Array.from({ length: n }, () => (typeof value === "function" ? value() : value));
}

function empty(players) {
  return {
    phase: "deal",
    round: 0,
    leader: null,
    hole: null,
    pending: null,
    up: seats(players, () => []),
    shown: seats(players, null),
    categories: seats(players, null),
    folded: seats(players, false),
    stacks: seats(players, 0),
    antes: seats(players, 0),
    bets: seats(players, 0),
    roundBets: seats(players, 0),
    pot: 0,
    level: 0,
    most: 0,
    winners: [],
    said: seats(players, null),
  };
}

function fromView(view) {
  const m = empty(view.up.length);
  return Object.assign(m, {
    phase: view.phase,
    round: view.round,
    leader: view.leader,
    hole: view.hole,
    pending: view.pending,
    up: view.up.map((cards) => [...cards]),
    shown: view.shown.map((hole, seat) => (hole ? [hole, ...view.up[seat]] : null)), // the hole card shown: the whole hand
    categories: [...view.categories],
    folded: [...view.folded],
    stacks: [...view.stacks],
    antes: antesOf(view),
    bets: [...view.bets],
    roundBets: [...view.round_bets],
    pot: view.pot,
    level: view.level,
    most: view.most,
    winners: [...view.winners],
  });
}

/** Each seat's ante in a view, which names none: every seat posts the same one, so it is
 * the pot's share beyond the bets while the hand is on; null once the pot is paid out (the
 * room says it then: `putIn`). */
function antesOf(view) {
  if (!view.pot) return null;
  const bets = view.bets.reduce((sum, bet) => sum + bet, 0);
  return seats(view.up.length, (view.pot - bets) / view.up.length);
}

const HANDLERS = {
  HandStarted(m, e) {
    Object.assign(m, empty(e.stacks.length), { stacks: [...e.stacks], most: e.most });
  },
  AntePosted(m, e) {
    m.pot += e.amount;
    m.stacks[e.seat] -= e.amount;
    m.antes[e.seat] += e.amount;
  },
  CardDealt(m, e, ctx) {
    if (e.face_up) m.up[e.seat].push(e.card);
    else if (e.seat === ctx.seat && e.number === 1) m.hole = e.card;
    else if (e.seat === ctx.seat) {
      m.pending = e.card;
      m.phase = "swap";
    }
  },
  SwapChosen(m, e, ctx) {
    if (e.seat !== ctx.seat) return;
    m.said[e.seat] = e.swap ? "swap" : "keep";
    if (e.swap) [m.hole, m.pending] = [m.pending, m.hole];
  },
  CardTurned(m, e, ctx) {
    m.up[e.seat].push(e.card);
    if (e.seat === ctx.seat) m.pending = null;
  },
  RoundStarted(m, e) {
    m.phase = "bet";
    m.round = e.number;
    m.leader = e.leader;
    m.roundBets = m.roundBets.map(() => 0);
    m.level = 0;
    m.said = m.said.map(() => null);
    return true; // new cards: the view names the hands' categories
  },
  Acted(m, e) {
    m.pot += e.put;
    m.stacks[e.seat] -= e.put;
    m.roundBets[e.seat] = e.round_bet;
    m.bets[e.seat] = e.total;
    m.level = Math.max(m.level, e.round_bet);
    if (e.action === "fold") m.folded[e.seat] = true;
    m.said[e.seat] = e.action.startsWith("raise ") ? `${e.action} ${e.put}` : e.action;
  },
  Opened(m, e) {
    m.said[e.seat] = "open";
  },
  Showdown(m, e) {
    e.hands.forEach(([seat, cards], i) => {
      m.shown[seat] = [...cards];
      m.categories[seat] = e.categories[i];
    });
  },
  HandEnded(m, e) {
    m.phase = "over";
    m.winners = [...e.winners];
    m.pot = e.pot;
  },
};

/** Every seat's cards face up (the hole card first), with their categories: a replay's
 * step, or the end of the hand at the table. The player's own hand stays as his view has
 * it (the pending card 3 or 4 too) while the hand goes on (a replay's step); once it is
 * over his hole card is face up too, and his row of the result names his hand. */
function reveal(m, cards, seat) {
  const over = m.phase === "over";
  m.shown = cards.hands.map((hand, s) => (s === seat && !over ? m.shown[s] : [...hand]));
  m.hole = cards.hands[seat][0];
  m.categories = [...cards.categories];
}

function apply(m, e, ctx) {
  const handler = HANDLERS[e.kind];
  return Boolean(handler && handler(m, e, ctx));
}

/** A hand's category worth a tag: a whole hand's, or a made hand among fewer cards. */
function categoryOf(m, seat) {
  const category = m.categories[seat];
  return m.shown[seat] || category !== "high_card" ? categoryTag("showhand", category) : null;
}

function saidText(action) {
  if (!action) return null;
  const [word, amount, cost] = action.split(" ");
  if (word === "raise" && cost !== undefined) return t("sh.raiseTo", { n: amount, cost });
  return t(`sh.${word}`, { n: amount ?? "" });
}

function seatCards(m, seat) {
  if (m.shown[seat]) return cardRow(m.shown[seat], { small: true, fan: false, testid: "shown-hand" });
  if (m.folded[seat] && m.up[seat].length === 0) return null;
  return h("div", { class: "holes" }, cardEl(null, { small: true }), ...m.up[seat].map((code) => cardEl(code, { small: true })));
}

/** 已下: what ``seat`` has put in the pot this hand, its ante and its bets (its coins and
 * this add up to what it had before the hand). */
function putIn(T, seat) {
  const m = T.state.model;
  const room = T.state.roomInfo;
  const ante = m.antes ? m.antes[seat] : (room && room.ante) || 0;
  return ante + m.bets[seat];
}

function seatView(T, seat) {
  const m = T.state.model;
  const put = putIn(T, seat);
  const tags = [];
  if (m.folded[seat]) tags.push(h("span", { class: "tag away", text: t("sh.folded") }));
  if (m.leader === seat && m.phase === "bet") tags.push(h("span", { class: "tag gold", text: t("sh.leader") }));
  if (m.winners.includes(seat)) tags.push(h("span", { class: "tag gold", text: t("sh.winner") }));
  const meta = h("div", { class: "meta", "data-testid": "seat-coins", "data-coins": m.stacks[seat] }, icon("coin", "coin-icon"), ` ${m.stacks[seat]} · ${t("sh.betTotal")} ${put}`);
  const said = m.said[seat] ? h("div", { class: "said", text: saidText(m.said[seat]) }) : null;
  return { tags, meta, side: [said, seatCards(m, seat), categoryOf(m, seat)] };
}

function info(T) {
  const m = T.state.model;
  return [
    h("span", { class: "pill", text: t("sh.round", { n: m.round || "—" }) }),
    h("span", { class: "pill", "data-testid": "most", text: t("sh.most", { n: m.most }) }),
  ];
}

function toCall(m, seat) {
  return Math.max(0, m.level - m.roundBets[seat]);
}

function center(T) {
  const m = T.state.model;
  return [
    h("div", { class: "pot", "data-testid": "pot", "data-value": m.pot }, icon("coin"), t("sh.pot", { n: m.pot })),
    m.level ? h("div", { class: "note", text: t("sh.level", { n: m.level }) }) : null,
  ];
}

function mine(T) {
  const m = T.state.model;
  const category = T.ui.peek || m.shown[T.seat] ? categoryOf(m, T.seat) : null; // the hole card stays private
  return [m.said[T.seat] ? h("div", { class: "said", text: saidText(m.said[T.seat]) }) : null, category];
}

function handView(T) {
  const m = T.state.model;
  if (m.shown[T.seat]) return m.shown[T.seat].map((code) => cardEl(code, { testid: "card" }));
  const cards = [];
  if (m.hole) {
    const hole = T.ui.peek ? cardEl(m.hole, { testid: "card" }) : cardEl(null, { testid: "card-back" });
    hole.classList.add("hole");
    if (T.ui.peek) hole.classList.add("peeked");
    hole.dataset.hole = "1";
    hole.addEventListener("click", () => T.peek(!T.ui.peek));
    cards.push(hole);
  }
  for (const code of m.up[T.seat]) cards.push(cardEl(code, { testid: "card" }));
  if (m.pending) {
    const pending = cardEl(m.pending, { testid: "card" });
    pending.classList.add("hinted");
    pending.dataset.pending = "1";
    cards.push(pending);
  }
  return cards;
}

function amountButton(T, id, actions, title) {
  if (!actions.length) return null;
  const m = T.state.model;
  // "加到 N（付 M）" as in Zha Jin Hua: the level, and what it costs this seat now
  const label = (action) => {
    const level = Number(action.split(" ")[1]);
    return t(`sh.${id}To`, { n: level, cost: level - m.roundBets[T.seat] });
  };
  if (actions.length === 1) return T.button(id, label(actions[0]), () => T.act(actions[0]), "");
  const choices = actions.map((a) => ({ action: a, label: label(a) }));
  return T.button(id, title, () => T.choose(title, choices), "");
}

function buttons(T) {
  const m = T.state.model;
  const { legal } = T.state;
  const out = [];
  if (m.hole && !m.shown[T.seat]) {
    out.push(T.button("peek", T.ui.peek ? t("sh.hide") : t("sh.peek"), () => T.peek(!T.ui.peek), "quiet"));
  }
  const simple = [
    ["swap", "swap", "sh.swapButton", "primary"],
    ["keep", "keep", "sh.keepButton", ""],
    ["check", "check", "sh.check", ""],
    ["call", "call", "sh.callButton", "primary"],
    ["open", "open", "sh.open", "primary"],
  ];
  for (const [action, id, key, kind] of simple) {
    if (legal.includes(action)) out.push(T.button(id, t(key, { n: toCall(m, T.seat) }), () => T.act(action), kind));
  }
  out.push(amountButton(T, "bet", legal.filter((a) => a.startsWith("bet ")), t("sh.betButton")));
  out.push(amountButton(T, "raise", legal.filter((a) => a.startsWith("raise ")), t("sh.raiseButton")));
  if (legal.includes("showhand")) out.push(T.button("allin", t("sh.allin"), () => T.act("showhand"), "warn"));
  if (legal.includes("fold")) out.push(T.button("fold", t("sh.fold"), () => T.act("fold"), "warn"));
  return out.filter(Boolean);
}

// ------------------------------------------------------------------ effects, replay

/** The sound of an event, by event kind (a bet: chips; a check: a pass). */
const SOUNDS = { CardDealt: "deal", CardTurned: "deal", SwapChosen: "play" };

/** What an event sounds (js/fx.js), or null: no burst in this game. */
function effect(event) {
  if (event.kind === "Acted") return { sound: event.put > 0 ? "chip" : "pass" };
  return SOUNDS[event.kind] ? { sound: SOUNDS[event.kind] } : null;
}

const DECK = deckOf("89TJQKA");

/** Each seat's cards from the deal's stream, one round of cards at a time (a seat that
 * folded gets no more: the replay's ``deal.seats`` says how many each got). */
function redeal(stream, rules, deal) {
  const seats = deal.seats.map(() => []);
  const cards = stream.shuffle([...DECK]);
  let next = 0;
  for (let number = 1; number <= 5; number++) deal.seats.forEach((mine, s) => mine.length >= number && seats[s].push(cards[next++]));
  return { seats };
}

/** A recorded action in words (the replay). */
function actionLabel(text) {
  const [word, arg] = text.split(" ");
  return t(`sh.${word}`, { n: arg ?? "" }).trim();
}

export const game = pokerGame(
  "showhand",
  { strings: STRINGS, empty, fromView, apply, seatView, info, center, mine, handView, buttons, reveal, effect, redeal, actionLabel, rulesOf },
  (m) => m.shown,
);
