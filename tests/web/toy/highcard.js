// 比大小 (tests/server/test_toy_game.py) in the browser: a game module that only a test
// knows (test_web_toy_game.py serves it as /js/games/highcard.js). It uses the client's
// shared parts as any game module does and gives only the required hooks, so that every
// optional hook's default is what the page falls back on.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { backs, cardEl, cardRow } from "../cards.js";

const code = (card) => (card === null || card === undefined ? null : String(card)); // a suitless face

function empty(players) {
  return { card: null, said: Array(players).fill(null), cards: null, winner: null };
}

function fromView(view) {
  return { card: code(view.card), said: [...view.said], cards: null, winner: view.winner };
}

const HANDLERS = {
  Dealt(m, e) {
    m.card = code(e.card);
  },
  Said(m, e) {
    m.said[e.seat] = e.word;
  },
  Won(m, e) {
    m.winner = e.winner;
    m.cards = e.cards.map(code);
  },
};

export const game = {
  name: "highcard",
  strings: {
    "game.highcard": ["比大小", "High card"],
    "game.about.highcard": ["一张牌，大者胜", "one card each, the highest wins"],
    "rules.plain": ["普通", "Plain"],
    "rules.desc.highcard.plain": ["每人一张牌，跟或弃", "one card each: stay or fold"],
    "highcard.stay": ["跟", "Stay"],
    "highcard.fold": ["弃", "Fold"],
  },
  selectable: false,
  empty,
  fromView,
  merge: (old, fresh) => fresh,
  apply(m, e) {
    const handler = HANDLERS[e.kind];
    if (handler) handler(m, e);
    return false;
  },
  seatView(T, seat) {
    const m = T.state.model;
    const said = m.said[seat] ? h("div", { class: "said", "data-testid": "toy-said", text: t(`highcard.${m.said[seat]}`) }) : null;
    const card = m.cards ? cardRow([m.cards[seat]], { testid: "shown-hand" }) : backs(1);
    return { tags: [], meta: null, side: [said, card] };
  },
  info: () => [],
  center: () => [],
  mine: () => [],
  handView(T) {
    const m = T.state.model;
    return m.card ? [cardEl(m.card, { testid: "card" })] : [];
  },
  buttons(T) {
    return T.state.legal.map((word) => T.button(word, t(`highcard.${word}`), () => T.act(word), word === "stay" ? "primary" : ""));
  },
  resultRows: (T, over) => over.result.map((_, seat) => ({ cards: T.state.model.cards ? [T.state.model.cards[seat]] : null })),
  resultExtra: () => null,
  ended() {},
  reveal(m, cards, seat) {
    m.cards = cards.hands.map(([card]) => code(card));
    m.card = m.cards[seat];
  },
  actionLabel: (text) => t(`highcard.${text}`),
};
