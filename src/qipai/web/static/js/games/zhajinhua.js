// Zha Jin Hua 扎金花 at the table: ante and pot, blind / seen, look, call, raise to a level,
// compare with a chosen opponent, fold, auto-call, and every hand shown at the end.
// A compare shows nobody the two hands (所有玩家看不到两人的牌面): its event names who lost,
// no card; the hands are shown with all the others at the end.

import { h, icon } from "../dom.js";
import { t } from "../i18n.js";
import { pokerGame } from "./poker.js";
import { cardEl, cardRow, backs, categoryTag } from "../cards.js";
import { deckOf } from "../deal.js";
import { STRINGS } from "./zjhstrings.js";
import { rulesOf } from "./zjhrules.js";

function seats(n, value) {
  return Array.from({ length: n }, () => value);
}

function empty(players) {
  return {
    players,
    dealer: null,
    stake: 1,
    pot: 0,
    stacks: seats(players, 0),
    put: seats(players, 0),
    seen: seats(players, false),
    folded: seats(players, false),
    out: seats(players, false),
    autoCall: seats(players, false),
    hand: null,
    known: seats(players, null),
    categories: seats(players, null),
    said: seats(players, null),
    winner: null,
    returns: null,
    over: false,
  };
}

function fromView(view) {
  const m = empty(view.players);
  return Object.assign(m, {
    dealer: view.dealer,
    stake: view.stake,
    pot: view.pot,
    stacks: [...view.stacks],
    put: [...view.put],
    seen: [...view.seen],
    folded: [...view.folded],
    out: [...view.out],
    autoCall: [...view.auto_call],
    hand: view.hand ? [...view.hand] : null,
    known: view.known_hands.map((cards) => (cards ? [...cards] : null)),
    categories: [...view.known_categories],
    winner: view.winner,
    returns: view.returns,
    over: view.returns !== null,
  });
}

function pay(m, seat, amount) {
  m.pot += amount;
  m.put[seat] += amount;
  m.stacks[seat] -= amount;
}

const HANDLERS = {
  HandStarted(m, e) {
    Object.assign(m, empty(e.players), { dealer: e.dealer, stacks: [...e.stacks] });
  },
  AntesPaid(m, e) {
    m.pot = e.pot;
    m.put = m.put.map(() => e.ante);
    m.stacks = m.stacks.map((stack) => stack - e.ante);
    m.stake = Math.max(m.stake, 1);
  },
  Looked(m, e) {
    m.seen[e.seat] = true;
    m.said[e.seat] = ["look"];
  },
  CardsSeen(m, e, ctx) {
    if (e.seat !== ctx.seat) return false;
    m.hand = [...e.cards];
    return true; // the view names the hand's category
  },
  Called(m, e) {
    m.stake = e.stake;
    pay(m, e.seat, e.amount);
    m.said[e.seat] = [e.auto ? "autocalled" : "called", e.amount];
  },
  Raised(m, e) {
    m.stake = e.stake;
    pay(m, e.seat, e.amount);
    m.said[e.seat] = ["raised", e.stake, e.amount]; // as its button said: 加到 N（付 M）
  },
  Folded(m, e) {
    m.folded[e.seat] = true;
    m.said[e.seat] = ["folded"];
  },
  Compared(m, e, ctx) {
    pay(m, e.initiator, e.amount);
    m.out[e.loser] = true;
    m.said[e.initiator] = ["compared", ctx.name(e.target)];
    m.said[e.loser] = ["lost"];
    ctx.note(t("zjh.compareNote", { a: ctx.name(e.initiator), b: ctx.name(e.target), loser: ctx.name(e.loser) }));
  },
  AutoCallChanged(m, e) {
    m.autoCall[e.seat] = e.on;
  },
  CapReached(m, e, ctx) {
    ctx.note(t("zjh.cap", { total: e.total }));
  },
  HandEnded(m, e) {
    m.over = true;
    m.winner = e.winner;
    m.returns = e.returns;
    m.pot = e.pot;
    m.known = e.hands.map((cards) => [...cards]);
    m.categories = [...e.categories];
  },
};

/** A replay: every seat's cards face up, with their categories. */
function reveal(m, cards, seat) {
  m.hand = [...cards.hands[seat]];
  m.known = cards.hands.map((hand, s) => (s === seat ? m.known[s] : [...hand]));
  m.categories = [...cards.categories];
}

function apply(m, e, ctx) {
  const handler = HANDLERS[e.kind];
  return Boolean(handler && handler(m, e, ctx));
}

function saidText(said) {
  if (!said) return null;
  const [word, value, cost] = said;
  return t(`zjh.${word}`, { n: value, name: value, cost });
}

function callCost(m, seat) {
  return m.stake * (m.seen[seat] ? 2 : 1);
}

function tags(m, seat) {
  const out = [];
  if (m.folded[seat]) out.push(h("span", { class: "tag away", text: t("zjh.folded") }));
  else if (m.out[seat]) out.push(h("span", { class: "tag away", text: t("zjh.lost") }));
  out.push(h("span", { class: `tag ${m.seen[seat] ? "gold" : ""}`, "data-testid": "seen", "data-seen": m.seen[seat] ? "1" : "0", text: m.seen[seat] ? t("zjh.seen") : t("zjh.blind") }));
  if (m.autoCall[seat]) out.push(h("span", { class: "tag", text: t("zjh.auto") }));
  if (m.dealer === seat) out.push(h("span", { class: "tag", text: t("zjh.dealer") }));
  return out;
}

function seatView(T, seat) {
  const m = T.state.model;
  const inHand = !m.folded[seat] && !m.out[seat];
  const cards = m.known[seat]
    ? cardRow(m.known[seat], { small: true, testid: "shown-hand" })
    : inHand ? backs(3) : null;
  const said = m.said[seat] ? h("div", { class: "said", text: saidText(m.said[seat]) }) : null;
  const side = [said, cards, m.known[seat] ? categoryTag("zhajinhua", m.categories[seat]) : null];
  const meta = h("div", { class: "meta", "data-testid": "seat-coins", "data-coins": m.stacks[seat] }, icon("coin", "coin-icon"), ` ${m.stacks[seat]} · ${t("zjh.put")} ${m.put[seat]}`);
  return { tags: tags(m, seat), meta, side };
}

function info(T) {
  const m = T.state.model;
  const room = T.state.roomInfo;
  return [
    room ? h("span", { class: "pill", "data-testid": "ante", text: t("zjh.ante", { n: room.ante }) }) : null,
    h("span", { class: "pill", text: t("zjh.stake", { n: m.stake }) }),
    room ? h("span", { class: "pill", text: t("zjh.limits", { top: room.top_bet, cap: room.cap }) }) : null,
  ];
}

function center(T) {
  const m = T.state.model;
  return [h("div", { class: "pot", "data-testid": "pot", "data-value": m.pot }, icon("coin"), t("zjh.pot", { n: m.pot }))];
}

function mine(T) {
  const m = T.state.model;
  return [
    m.said[T.seat] ? h("div", { class: "said", text: saidText(m.said[T.seat]) }) : null,
    m.hand ? categoryTag("zhajinhua", m.categories[T.seat]) : null,
  ];
}

function handView(T) {
  const m = T.state.model;
  if (m.hand) return m.hand.map((code) => cardEl(code, { testid: "card" }));
  if (m.folded[T.seat] || m.out[T.seat] || T.state.hand === null) return [];
  return [0, 1, 2].map(() => cardEl(null, { testid: "card-back" }));
}

function buttons(T) {
  const m = T.state.model;
  const { legal, options } = T.state;
  const out = [];
  const cost = callCost(m, T.seat);
  if (legal.includes("look")) out.push(T.button("look", t("zjh.look"), () => T.act("look"), ""));
  if (legal.includes("call")) out.push(T.button("call", t("zjh.call", { n: cost }), () => T.act("call"), "primary"));
  const raises = legal.filter((a) => a.startsWith("raise "));
  if (raises.length) {
    const choices = raises.map((a) => {
      const level = Number(a.slice(6));
      return { action: a, label: t("zjh.raiseTo", { n: level, cost: level * (m.seen[T.seat] ? 2 : 1) }) };
    });
    out.push(T.button("raise", t("zjh.raise"), () => T.choose(t("zjh.raise"), choices), ""));
  }
  const compares = legal.filter((a) => a.startsWith("compare "));
  if (compares.length) {
    const choices = compares.map((a) => ({ action: a, label: t("zjh.compareWith", { name: T.name(Number(a.slice(8))), cost: cost * 2 }) }));
    out.push(T.button("compare", t("zjh.compare"), () => T.choose(t("zjh.compare"), choices), ""));
  }
  if (legal.includes("fold")) out.push(T.button("fold", t("zjh.fold"), () => T.act("fold"), "warn"));
  const auto = [...legal, ...options].find((a) => a.startsWith("autocall "));
  if (auto) {
    const on = auto === "autocall on";
    out.push(T.button("autocall", on ? t("zjh.autoOn") : t("zjh.autoOff"), () => T.act(auto), on ? "quiet" : "on"));
  }
  return out;
}

// ------------------------------------------------------------------ effects, replay

/** The sound of an event with no burst, by event kind. */
const SOUNDS = { CardsDealt: "deal", Looked: "play", Called: "chip", Raised: "chip", Folded: "pass" };

/** What an event shows and sounds (js/fx.js): a compare's burst, or a sound, or null. */
function effect(event) {
  if (event.kind === "Compared") return { sound: "compare", burst: "compare" };
  return SOUNDS[event.kind] ? { sound: SOUNDS[event.kind] } : null;
}

const DECK = deckOf("23456789TJQKA");

/** Each seat's three cards from the deal's stream, dealt one at a time from the dealer
 * (the record's, or drawn first). */
function redeal(stream, rules, deal, options) {
  const seats = deal.seats.map(() => []);
  const n = seats.length;
  const dealer = options.dealer === null ? stream.randbelow(n) : options.dealer;
  const cards = stream.shuffle([...DECK]);
  for (let i = 0; i < 3 * n; i++) seats[(dealer + i) % n].push(cards[i]);
  return { seats, dealer };
}

/** A recorded action in words (the replay). */
function actionLabel(text) {
  const [word, arg] = text.split(" ");
  if (word === "compare") return t("zjh.compareSeat", { n: Number(arg) + 1 });
  if (word === "autocall") return arg === "on" ? t("zjh.autoOn") : t("zjh.autoOff");
  if (word === "raise") return t("zjh.raised", { n: arg });
  return t(`zjh.${word}`, { n: "" }).trim();
}

export const game = pokerGame(
  "zhajinhua",
  { strings: STRINGS, empty, fromView, apply, seatView, info, center, mine, handView, buttons, reveal, effect, redeal, actionLabel, rulesOf },
  (m) => m.known,
);
