// Dou Dizhu at the table: the model kept from the snapshot view and the events, what the
// seats show, the buttons the legal actions call for, and the result details.
//
// The events carry everything but the multiplier (it depends on the preset's scoring), so
// after an event that may change it the table asks for a fresh snapshot (`resync`): from
// the hand's start (its initial multiplier) through the auction (the view's
// `standing_multiplier`: 明牌, robs) to the pairs' multipliers once the landlord is known
// (the table's goes on: the landlord sees it, and his multiplier against each farmer).
//
// 任务: a hand of a room (or a private table) with tasks shows its task from the deal (the
// view's `task`, the event TaskDrawn) to the end, marked done when the winning side
// completed it (TaskCompleted; the result's multiplier breakdown has the reason `task`).

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardEl, cardName, cardRow, backs, rankText } from "../cards.js";
import { deckOf } from "../deal.js";
import { ddzKey, isBomb, moveOf, physical, reading, standingOrder, tricks, PASS } from "./ddzplays.js";
import { counter } from "./ddzcounter.js";
import { effect } from "./ddzfx.js";
import { handOrder, hint, playLifted, tools } from "./ddzlifted.js";
import { STRINGS } from "./ddzstrings.js";
import { rulesOf } from "./ddzrules.js";

const RESYNC_AFTER = new Set([
  "HandStarted", "Redealt", "Shown", "BidMade", "Called", "Robbed", "LandlordChosen", "BottomShown", "BottomRevealed", "Doubled",
  "DoublesRevealed",
]);

function seats(n, value) {
  return Array.from({ length: n }, () => (typeof value === "function" ? value() : value));
}

function empty(players) {
  return {
    rules: null,
    phase: "deal",
    hand: [],
    counts: seats(players, 0),
    shown: seats(players, null),
    open: seats(players, null),
    landlord: null,
    base: 0,
    bottom: null,
    bottomSize: 3,
    marker: null,
    markerSeat: null,
    multipliers: [],
    standing: null, // the table's multiplier (公共倍数), from the deal on
    doubled: seats(players, false),
    plays: [],
    said: seats(players, null),
    winner: null,
    spring: false,
    antiSpring: false,
    deal: 1,
    task: null, // the hand's 任务 id (bomb_finish, chain…), or null
    taskDone: false,
  };
}

function fromView(view) {
  const m = empty(view.card_counts.length);
  Object.assign(m, {
    rules: view.rules,
    phase: view.phase,
    hand: [...view.hand],
    counts: [...view.card_counts],
    shown: view.shown_hands.map((cards) => (cards ? [...cards] : null)),
    landlord: view.landlord,
    base: view.base,
    bottom: view.bottom ? [...view.bottom] : null,
    bottomSize: view.bottom_size,
    marker: view.marker,
    markerSeat: view.marker_seat,
    multipliers: view.multipliers,
    standing: view.standing_multiplier ?? null,
    doubled: [...view.doubled],
    plays: view.plays.map(([seat, move]) => ({ seat, move, cards: null })),
    winner: view.winner,
    spring: view.spring,
    antiSpring: view.anti_spring,
    deal: view.deal_number,
    task: view.task ?? null,
  });
  if (view.plays.length === 0) {
    for (const [seat, action] of view.auction) m.said[seat] = action;
  }
  return m;
}

/** A resync of the same hand keeps the physical cards of the plays already seen. */
function merge(old, fresh) {
  if (old && old.plays.length === fresh.plays.length && old.rules === fresh.rules) {
    fresh.plays = old.plays;
    fresh.fresh = old.fresh || [];
    fresh.said = fresh.plays.length === 0 ? old.said : fresh.said;
  }
  return fresh;
}

function removeCards(list, cards) {
  if (!list) return list;
  const left = [...list];
  for (const card of cards) {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}

const sortHand = (cards) => [...cards].sort((a, b) => ddzKey(a) - ddzKey(b));

const HANDLERS = {
  HandStarted(m, e) {
    m.rules = e.rules;
    m.bottomSize = e.rules === "caishen" ? 4 : 3;
  },
  Redealt(m, e, ctx) {
    Object.assign(m, empty(m.counts.length), { rules: m.rules, bottomSize: m.bottomSize, deal: e.deal, task: m.task });
    ctx.note(t("ddz.redeal"));
  },
  CardsDealt(m, e, ctx) {
    m.counts = m.counts.map(() => e.cards_dealt);
    if (e.seat === ctx.seat) m.hand = sortHand([...m.hand, ...e.cards]);
    if (m.shown[e.seat]) m.shown[e.seat] = sortHand([...m.shown[e.seat], ...e.cards]);
  },
  MarkerTurned(m, e) {
    m.marker = e.card;
    m.markerSeat = e.seat;
  },
  BiddingStarted(m) {
    m.phase = "bid";
  },
  Shown(m, e) {
    m.shown[e.seat] = sortHand(e.cards);
    m.said[e.seat] = "show";
  },
  BidMade(m, e) {
    m.said[e.seat] = `bid ${e.points}`;
  },
  Called(m, e) {
    m.said[e.seat] = e.call ? "call" : "nocall";
  },
  Robbed(m, e) {
    m.phase = "rob";
    m.said[e.seat] = e.rob ? "rob" : "norob";
  },
  LandlordChosen(m, e) {
    m.landlord = e.seat;
    m.base = e.base;
  },
  BottomShown(m, e) {
    m.bottom = [...e.cards];
  },
  BottomRevealed(m, e, ctx) {
    m.bottom = [...e.cards];
    m.phase = "double";
    m.counts[e.landlord] += e.cards.length;
    if (e.landlord === ctx.seat) {
      m.hand = sortHand([...m.hand, ...e.cards]);
      m.fresh = [...e.cards]; // the bottom cards he took: highlighted until his first play
    }
    if (m.shown[e.landlord]) m.shown[e.landlord] = sortHand([...m.shown[e.landlord], ...e.cards]);
    m.said = m.said.map(() => null);
  },
  Doubled(m, e) {
    // a choice made at the same time as the others' reaches only its chooser until
    // DoublesRevealed
    m.doubled[e.seat] = e.double;
    m.said[e.seat] = e.double ? "double" : "nodouble";
  },
  DoublesRevealed(m, e) {
    m.doubled = [...e.doubled];
    e.doubled.forEach((doubled, seat) => {
      if (doubled) m.said[seat] = "double";
    });
  },
  ShowDeclined(m, e) {
    m.said[e.seat] = "noshow";
  },
  Played(m, e, ctx) {
    if (m.phase !== "play") m.said = m.said.map(() => null);
    m.phase = "play";
    m.plays.push({ seat: e.seat, move: e.move, cards: [...e.cards] });
    m.counts[e.seat] = e.cards_left;
    if (e.seat === ctx.seat) {
      m.hand = removeCards(m.hand, e.cards);
      m.fresh = [];
    }
    m.shown[e.seat] = removeCards(m.shown[e.seat], e.cards);
    return e.move !== "pass" && isBomb(e.move);
  },
  HandEnded(m, e) {
    m.phase = "over";
    m.winner = e.winner;
    m.spring = e.spring;
    m.antiSpring = e.anti_spring;
  },
  Escaped(m, e, ctx) {
    m.phase = "over";
    ctx.note(t("table.escaped", { name: ctx.name(e.seat) }));
  },
  TaskDrawn(m, e) {
    m.task = e.task;
  },
  TaskCompleted(m, e) {
    m.task = e.task;
    m.taskDone = true;
  },
  TrusteeChanged() {},
};

/** A replay: every seat's cards face up, the bottom, and the suits of every play. */
function reveal(m, cards, seat) {
  m.hand = sortHand(cards.hands[seat]);
  m.open = cards.hands.map((hand, s) => (s === seat || !hand.length ? null : sortHand(hand)));
  if (cards.bottom && cards.bottom.length) m.bottom = [...cards.bottom];
  cards.played.forEach((played, i) => {
    if (m.plays[i]) m.plays[i].cards = [...played];
  });
}

function apply(m, e, ctx) {
  const handler = HANDLERS[e.kind];
  const changed = handler ? handler(m, e, ctx) : false;
  return Boolean(changed) || RESYNC_AFTER.has(e.kind);
}

// ------------------------------------------------------------------ display

/** The text of an auction decision ("bid 2", "rob", …) for the seat's bubble. */
export function saidText(action) {
  if (!action) return null;
  if (action.startsWith("bid ")) {
    const points = Number(action.slice(4));
    return points === 0 ? t("ddz.nobid") : t("ddz.points", { n: points });
  }
  return t(`ddz.${action}`);
}

function currentTrick(m) {
  const all = tricks(m.plays);
  return all.length ? all[all.length - 1] : [];
}

/** The cards (or 不出) a seat played in the current trick. */
function playedBy(m, seat, n) {
  if (m.phase !== "play" && m.phase !== "over") return null;
  const trick = currentTrick(m);
  const mine = trick.filter((p) => p.seat === seat);
  if (!mine.length) return null;
  const last = mine[mine.length - 1];
  const box = h("div", { class: "played", "data-testid": "played", "data-seat": seat, "data-n": n, "data-move": last.move });
  if (last.move === "pass") box.append(h("div", { class: "said", text: t("ddz.pass") }));
  else box.append(playRow(last));
  return box;
}

/** A play's cards as a row, in the order of what they stand for: a wild card where it
 * stands (the 财神 of 6…K first), marked with the rank (`data-as`). */
export function playRow(play, options = {}) {
  const order = standingOrder(play.move, play.cards);
  const row = cardRow(order.map((slot) => slot.code), options);
  order.forEach((slot, i) => {
    if (!slot.as) return;
    const el = row.children[i];
    el.dataset.as = slot.as;
    el.classList.add("standing");
    el.append(h("span", { class: "as", "aria-hidden": "true", text: rankText(slot.as) }));
    el.setAttribute("aria-label", t("card.standsFor", { card: cardName(slot.code), rank: rankText(slot.as) }));
  });
  return row;
}

function role(m, seat) {
  if (m.landlord === null) return [];
  return seat === m.landlord
    ? [h("span", { class: "tag landlord", text: t("ddz.landlord") })]
    : [h("span", { class: "tag farmer", text: t("ddz.farmer") })];
}

function seatView(T, seat) {
  const m = T.state.model;
  const count = m.counts[seat] ?? 0;
  const tags = [...role(m, seat)];
  if (m.shown[seat]) tags.push(h("span", { class: "tag gold", text: t("ddz.shown") }));
  if (m.doubled[seat]) tags.push(h("span", { class: "tag gold", text: t("ddz.double") }));
  const meta = h(
    "div",
    { class: `count ${count > 0 && count <= 2 ? "few" : ""}`, "data-testid": "card-count", "data-seat": seat },
    cardEl(null, { small: true }),
    String(count),
  );
  const said = m.phase === "play" || m.phase === "over" ? null : saidText(m.said[seat]);
  const open = m.shown[seat] || m.open[seat];
  const side = [
    said ? h("div", { class: "said", text: said }) : null,
    open && (seat !== T.seat || T.spectating) ? cardRow(open, { small: true, testid: "open-hand" }) : null,
    playedBy(m, seat, T.state.n),
  ];
  return { tags, meta, side };
}

/** The 倍数 a seat sees: the table's (公共倍数: the view's standing multiplier) during the
 * auction, then a farmer's own pair's; the landlord (and a spectator) sees the table's, and
 * beside it his multiplier against each farmer (`pairsOf`), never their sum. */
function multiplierOf(m, seat) {
  const mine = m.multipliers.find(([farmer]) => farmer === seat);
  if (mine) return mine[1];
  if (m.standing !== null) return m.standing;
  return m.multipliers.length ? Math.min(...m.multipliers.map(([, value]) => value)) : null;
}

/** The landlord's (a spectator's) multiplier against each farmer once the landlord is
 * known: [[farmer, ×N], …]; none for a farmer (his own is the 倍数). */
function pairsOf(m, seat) {
  if (m.landlord === null || m.multipliers.some(([farmer]) => farmer === seat)) return [];
  return m.multipliers;
}

/** 对东家 ×2 · 对西家 ×1: the landlord's multiplier with each farmer (`pair-multipliers`). */
function pairsPill(T, pairs) {
  if (!pairs.length) return null;
  const parts = pairs.flatMap(([farmer, value], i) => [
    i ? " · " : null,
    h("span", { "data-farmer": farmer, "data-value": value }, `${t("ddz.against", { name: T.name(farmer) })} `, h("b", { text: `×${value}` })),
  ]);
  return h("span", { class: "pill", "data-testid": "pair-multipliers", title: t("ddz.pairsAbout") }, ...parts);
}

/** 任务: the hand's task (data-task: its id), ✓ once completed. */
function taskPill(m) {
  if (!m.task) return null;
  return h(
    "span",
    { class: `pill task ${m.taskDone ? "done" : ""}`, "data-testid": "task", "data-task": m.task, "data-done": m.taskDone ? "1" : "0", title: t("ddz.taskAbout") },
    `${t("ddz.task")} `,
    h("b", { text: t(`ddz.task.${m.task}`) }),
    m.taskDone ? ` ✓ ${t("ddz.taskDone")}` : null,
  );
}

/** 底分, and at a match's table the match's 基数 beside it (底分 1 · 基数 10: the hand
 * moves 底分 × 倍数 × 基数 match points), so the two never read as one number. */
function basePill(base, matchBase) {
  const pill = h("span", { class: "pill", "data-testid": "base", "data-match-base": matchBase ?? "" }, t("ddz.base"), " ", h("b", { text: base }));
  if (matchBase !== null && matchBase !== undefined) pill.append(` · ${t("match.base")} `, h("b", { text: matchBase }));
  return pill;
}

function info(T) {
  const m = T.state.model;
  const multi = multiplierOf(m, T.seat);
  return [
    taskPill(m),
    h("span", { class: "pill", text: t(`rules.${m.rules || T.state.rules}`) }),
    m.base ? basePill(m.base, T.matchBase) : null,
    h("span", { class: "pill", "data-testid": "multiplier", "data-value": multi ?? "" }, t("ddz.multiplier"), " ", h("b", { text: multi === null ? "—" : `×${multi}` })),
    pairsPill(T, pairsOf(m, T.seat)),
  ];
}

function center(T) {
  const m = T.state.model;
  const bottom = m.bottom
    ? cardRow(m.bottom, { small: true, fan: false })
    : backs(m.bottomSize, { small: true });
  bottom.classList.add("bottom-cards");
  bottom.dataset.testid = "bottom";
  const notes = [];
  if (m.phase === "deal") notes.push(t("ddz.dealing"));
  if (m.marker && m.landlord === null) {
    notes.push(h("div", { class: "marker" }, t("ddz.marker", { name: T.name(m.markerSeat) }), cardEl(m.marker, { small: true })));
  }
  if (m.phase === "over" && m.spring) notes.push(h("div", { class: "big", text: t("ddz.spring") }));
  if (m.phase === "over" && m.antiSpring) notes.push(h("div", { class: "big", text: t("ddz.antispring") }));
  return [bottom, ...notes.map((note) => (typeof note === "string" ? h("div", { class: "note", text: note }) : note))];
}

/** My own row above the hand: what I said or played. */
function mine(T) {
  const m = T.state.model;
  const said = m.phase === "play" || m.phase === "over" ? null : saidText(m.said[T.seat]);
  return [said ? h("div", { class: "said", text: said }) : null, playedBy(m, T.seat, T.state.n)];
}

// ------------------------------------------------------------------ buttons

const SIMPLE = [
  ["call", "call", "ddz.call", "primary"],
  ["nocall", "no-call", "ddz.nocall", ""],
  ["rob", "rob", "ddz.rob", "primary"],
  ["norob", "no-rob", "ddz.norob", ""],
  ["double", "double", "ddz.double", "primary"],
  ["nodouble", "no-double", "ddz.nodouble", ""],
  ["noshow", "no-show", "ddz.noshow", ""],
];

function buttons(T) {
  const { legal, options } = T.state;
  const out = [];
  const m = T.state.model;
  for (const action of legal.filter((a) => a.startsWith("bid "))) {
    const points = Number(action.slice(4));
    out.push(T.button(`bid-${points}`, points === 0 ? t("ddz.nobid") : t("ddz.points", { n: points }), () => T.act(action), points === 3 ? "primary" : ""));
  }
  for (const [action, id, key, kind] of SIMPLE) {
    if (!legal.includes(action)) continue;
    let label = t(key);
    if (action === "double" && m.doubled.some((d, seat) => d && seat !== m.landlord && seat !== T.seat)) label = t("ddz.followdouble");
    out.push(T.button(id, label, () => T.act(action), kind));
  }
  if (legal.includes("show") || options.includes("show")) {
    out.push(T.button("show", t("ddz.show"), () => T.act("show"), "primary"));
  }
  const plays = legal.filter((a) => a.startsWith("play "));
  if (plays.length) {
    const canPass = plays.includes(PASS);
    const onlyPass = plays.length === 1 && canPass;
    if (canPass) out.push(T.button("pass", onlyPass ? t("ddz.cannot") : t("ddz.pass"), () => T.act(PASS), onlyPass ? "primary" : ""));
    if (!onlyPass) {
      out.push(T.button("hint", t("ddz.hint"), () => T.hint(), ""));
      out.push(T.button("play", t("ddz.play"), () => T.playLifted(), "primary"));
    }
  }
  return out;
}

/** What the wild cards of a play stand for: {wilds: "W", ranks: "3"} ("4567W/34567"). */
export function wildRanks(move) {
  const { physical: phys, as } = reading(move);
  const left = [...(as || phys)];
  const wilds = [];
  for (const rank of phys) {
    const at = left.indexOf(rank);
    if (at >= 0) left.splice(at, 1);
    else wilds.push(rank);
  }
  return { wilds: wilds.join(""), ranks: left.join("") };
}

/** How a wildcard play reads, for the chooser ("3 4 5 6 7（财神作 3）"). */
export function readingLabel(action) {
  const move = moveOf(action);
  const { physical: phys, as, kind } = reading(move);
  const { wilds, ranks } = wildRanks(move);
  const kindName = kind ? ` ${t(`combo.${kind.split(":")[0]}`)}` : "";
  const stands = wilds ? t("ddz.standsFor", { wild: rankText(wilds), ranks: rankText(ranks) }) : "";
  return `${rankText(as || phys)}${kindName}${stands}`;
}

// ------------------------------------------------------------------ result

function resultRows(T, over) {
  const m = T.state.model;
  return over.result.map((_, seat) => ({
    role: m.landlord === null ? "" : seat === m.landlord ? t("ddz.landlord") : t("ddz.farmer"),
    cards: over.cards ? sortHand(over.cards.hands[seat]) : null,
  }));
}

/** A pair's own factors (the view's table multiplier leaves them out). */
const PAIR_ONLY = new Set(["landlord_double", "farmer_double"]);

/** The table's multiplier of a settled hand: the factors both pairs share (yifa's robs
 * when the same in both), at most either pair's (a cap). */
function tableOf(pairs) {
  const key = ([reason, count, factor]) => `${reason}:${count}:${factor}`;
  const [first, ...rest] = pairs;
  const shared = first.factors.filter((f) => !PAIR_ONLY.has(f[0]) && rest.every((pair) => pair.factors.some((g) => key(g) === key(f))));
  const product = shared.reduce((total, [, , factor]) => total * factor, 1);
  return Math.min(product, ...pairs.map((pair) => pair.multiplier));
}

/** The hand settled: the multipliers are the final ones (a last bomb, a spring). */
function ended(m, over) {
  const pairs = over.explain && over.explain.pairs;
  if (pairs) m.multipliers = pairs.map((pair) => [pair.farmer, pair.multiplier]);
  if (pairs && pairs.length) m.standing = tableOf(pairs);
  if (pairs && pairs.some((pair) => pair.factors.some(([reason, count]) => reason === "task" && count > 0))) m.taskDone = true;
}

/** One farmer's multiplier with the landlord, reason by reason: 底分 3 × 抢地主 ×2 × … */
function pairLine(T, base, pair) {
  const task = T.state.model.task;
  const reasonName = (reason) => (reason === "task" && task ? `${t("ddz.reason.task")}·${t(`ddz.task.${task}`)}` : t(`ddz.reason.${reason}`));
  const factors = pair.factors.map(([reason, count, factor]) =>
    h("span", { class: "factor", "data-reason": reason }, count > 1 ? t("ddz.reasonTimes", { name: reasonName(reason), n: count }) : reasonName(reason), ` ×${factor}`),
  );
  return h(
    "div",
    { class: "pair", "data-farmer": pair.farmer, "data-multiplier": pair.multiplier },
    h("b", { text: `${T.name(pair.farmer)}` }),
    h("span", { text: `${t("ddz.base")} ${base}` }),
    ...factors,
    h("span", { class: "total", text: `= ${t("ddz.multiplier")} ×${pair.multiplier}${pair.capped ? ` ${t("ddz.capped")}` : ""}` }),
  );
}

/** 倍数明细: each of the player's multipliers broken down (the landlord has one per
 * farmer), and 托管包赔 when jj's liability moved the farmers' points. */
function breakdown(T, explain) {
  if (!explain || !explain.pairs) return null;
  const m = T.state.model;
  const mine = explain.pairs.filter((pair) => T.seat === m.landlord || pair.farmer === T.seat);
  const liable = explain.liable || [];
  return h(
    "div",
    { class: "breakdown", "data-testid": "multiplier-breakdown" },
    (mine.length ? mine : explain.pairs).map((pair) => pairLine(T, explain.base, pair)),
    liable.length ? h("p", { class: "liable", "data-testid": "liability", text: t("ddz.liable", { names: liable.map((seat) => T.name(seat)).join("、") }) }) : null,
  );
}

function resultExtra(T) {
  const m = T.state.model;
  const parts = [];
  if (m.spring) parts.push(t("ddz.spring"));
  if (m.antiSpring) parts.push(t("ddz.antispring"));
  const multi = multiplierOf(m, T.seat);
  if (multi !== null) parts.push(`${t("ddz.multiplier")} ×${multi}`);
  for (const [farmer, value] of pairsOf(m, T.seat)) parts.push(`${t("ddz.against", { name: T.name(farmer) })} ×${value}`);
  const task = m.task
    ? h("p", { class: `task-result ${m.taskDone ? "done" : ""}`, "data-testid": "task-result", "data-task": m.task, "data-done": m.taskDone ? "1" : "0" }, `${t("ddz.task")} `, h("b", { text: t(`ddz.task.${m.task}`) }), ` · ${t(m.taskDone ? "ddz.taskDoneDoubled" : "ddz.taskNotDone")}`)
    : null;
  return [parts.length ? h("p", { text: parts.join(" · ") }) : null, task, breakdown(T, T.state.over.explain)];
}

// ------------------------------------------------------------------ replay

const DECK = [...deckOf("3456789TJQKA2"), "BJ", "RJ"];
/** What each preset draws after the shuffle (yifa: the marker card among 51; random first
 * bidder: one of 3 seats; zhengtu: nothing). */
const DRAW = { yifa: 51, caishen: 3, huanle: 3, jj: 3 };

/** Each seat's 17 cards and the bottom from the deal's stream, after ``deal.deals`` deals
 * (a hand nobody bid for is dealt again). */
function redeal(stream, rules, deal) {
  const seats = deal.seats.map(() => []);
  let cards = [];
  for (let k = 0; k < deal.deals; k++) {
    cards = stream.shuffle([...DECK]);
    if (DRAW[rules]) stream.randbelow(DRAW[rules]);
  }
  seats.forEach((_, s) => seats[s].push(...cards.slice(17 * s, 17 * s + 17)));
  return { seats, bottom: [...cards.slice(51), ...(rules === "caishen" ? ["W"] : [])] };
}

/** A recorded action in words (the replay): a play's ranks, 不出, or the auction's word. */
function actionLabel(text) {
  const [word, arg] = text.split(" ");
  if (word === "play") return arg === "pass" ? t("ddz.pass") : rankText(physical(text.slice(5)));
  return saidText(text);
}

/** The table's line while nobody has the turn: the deal, or the others choosing 加倍. */
function waiting(s) {
  if ((s.deciding || []).length) return t("ddz.choosingDouble");
  return t("ddz.dealing");
}

export const game = {
  name: "doudizhu",
  strings: STRINGS,
  selectable: true,
  empty,
  fromView,
  merge,
  apply,
  seatView,
  info,
  center,
  mine,
  buttons,
  resultRows,
  resultExtra,
  ended,
  handCards: (T) => T.state.model.hand,
  freshCards: (T) => T.state.model.fresh || [],
  reveal,
  effect,
  counter,
  playLifted,
  hint,
  handOrder,
  tools,
  waiting,
  redeal,
  actionLabel,
  roleText: (role) => t(`ddz.${role}`),
  roomNumbers: ["coefficient"],
  rulesOf,
  privateTasks: true, // a private table may draw 任务 (the lobby's form offers it)
};
