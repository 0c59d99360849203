// The replay of a finished hand (GET /api/hands/{id}): its record — rules, seed,
// commitment, every action in order, the result — stepped through action by action, with
// the server's verification and the browser's own check of the commitment.
//
// The record holds the seed, not the cards: the deal follows from the seed through the
// engine's random generator, which the browser does not run, so the replay shows the
// bidding and betting, every Dou Dizhu play (as ranks) and the card counts, and no hidden hand.

import { api } from "../api.js";
import { h, fill, signed, signClass } from "../dom.js";
import { t } from "../i18n.js";
import { cardRow, rankText } from "../cards.js";
import { physical, tricks } from "../ddzplays.js";
import { saidText } from "../games/doudizhu.js";
import { fairness } from "../panels.js";

/** The words for one recorded action. */
export function actionLabel(game, text) {
  const [word, arg] = text.split(" ");
  if (text.startsWith("trustee ")) return arg === "on" ? t("table.trustee") : t("table.untrustee");
  if (word === "escape") return t("table.escape");
  if (word === "deal") return t("replay.deal", { n: arg });
  if (game === "doudizhu") {
    if (word === "play") return arg === "pass" ? t("ddz.pass") : rankText(physical(text.slice(5)));
    return saidText(text);
  }
  if (game === "zhajinhua") {
    if (word === "compare") return t("zjh.compareSeat", { n: Number(arg) + 1 });
    if (word === "autocall") return arg === "on" ? t("zjh.autoOn") : t("zjh.autoOff");
    if (word === "raise") return t("zjh.raised", { n: arg });
    return t(`zjh.${word}`, { n: "" }).trim();
  }
  return t(`sh.${word}`, { n: arg ?? "" }).trim();
}

function seatCount(record) {
  const options = record.options || {};
  if (options.players) return options.players;
  return record.result.length;
}

/** What the table looks like after the first ``step`` actions. */
function boardAt(record, step) {
  const n = seatCount(record);
  const actions = record.actions.slice(0, step);
  const said = Array.from({ length: n }, () => null);
  const folded = Array.from({ length: n }, () => false);
  for (const [seat, text] of actions) {
    if (seat === null) continue;
    said[seat] = text;
    if (text === "fold") folded[seat] = true;
  }
  const board = { n, said, folded, plays: [], counts: null };
  if (record.game === "doudizhu") {
    const all = record.actions.filter(([seat, text]) => seat !== null && text.startsWith("play "));
    const landlord = all.length ? all[0][0] : null;
    const bottom = record.rules === "caishen" ? 4 : 3;
    const plays = actions
      .filter(([seat, text]) => seat !== null && text.startsWith("play "))
      .map(([seat, text]) => ({ seat, move: text.slice(5), cards: null }));
    board.plays = plays;
    board.counts = Array.from({ length: n }, (_, seat) => {
      const out = plays.filter((p) => p.seat === seat && p.move !== "pass").reduce((sum, p) => sum + physical(p.move).length, 0);
      return 17 + (plays.length && seat === landlord ? bottom : 0) - out;
    });
    board.landlord = plays.length ? landlord : null;
  }
  return board;
}

function seatBox(record, board, seat, names, active) {
  const game = record.game;
  let body = null;
  if (game === "doudizhu" && board.plays.length) {
    const all = tricks(board.plays);
    const trick = all.length ? all[all.length - 1] : [];
    const mine = trick.filter((p) => p.seat === seat);
    const last = mine.length ? mine[mine.length - 1] : null;
    if (last) body = last.move === "pass" ? h("div", { class: "said", text: t("ddz.pass") }) : cardRow([...physical(last.move)]);
  } else if (board.said[seat]) {
    body = h("div", { class: "said", text: actionLabel(game, board.said[seat]) });
  }
  return h(
    "div",
    { class: `replay-seat ${active ? "active" : ""}`, "data-testid": "replay-seat", "data-seat": seat },
    h(
      "div",
      { class: "marker" },
      h("b", { text: names[seat] }),
      board.landlord === seat ? h("span", { class: "tag landlord", text: t("ddz.landlord") }) : null,
      board.counts ? h("span", { class: "tag", "data-testid": "replay-count", text: t("replay.cards", { n: board.counts[seat] }) }) : null,
      board.folded[seat] ? h("span", { class: "tag away", text: t("zjh.folded") }) : null,
    ),
    body,
  );
}

function seatNames(app, record, handId) {
  const table = app.table && app.table.state;
  if (table && table.over && table.over.hand === handId) return table.players.map((p) => p.name);
  return record.result.map((_, seat) => t("replay.seat", { n: seat + 1 }));
}

export async function renderReplay(app, root, handId) {
  fill(root, h("div", { class: "page" }, h("p", { class: "muted", text: t("common.loading") })));
  let data;
  try {
    data = await api("GET", `/api/hands/${encodeURIComponent(handId)}`);
  } catch (error) {
    fill(root, h("div", { class: "page" }, h("p", { class: "err", "data-testid": "replay-error", text: app.errorText(error.code) })));
    return;
  }
  const record = data.record;
  const names = seatNames(app, record, handId);
  const total = record.actions.length;
  let step = total;

  const board = h("div", { class: "replay-board" });
  const log = h("ol", { class: "replay-log" });
  const counter = h("span", { "data-testid": "replay-step" });
  const slider = h("input", { type: "range", min: "0", max: String(total), value: String(step), "data-testid": "replay-slider" });
  const go = (next) => {
    step = Math.max(0, Math.min(total, next));
    draw();
  };
  slider.addEventListener("input", () => go(Number(slider.value)));

  const draw = () => {
    const state = boardAt(record, step);
    const acting = step > 0 ? record.actions[step - 1][0] : null;
    fill(board, h("div", { class: "replay-seats" }, names.map((_, seat) => seatBox(record, state, seat, names, seat === acting))));
    counter.textContent = `${step} / ${total}`;
    counter.dataset.step = String(step);
    slider.value = String(step);
    for (const [i, item] of [...log.children].entries()) item.classList.toggle("now", i === step - 1);
  };

  record.actions.forEach(([seat, text], i) => {
    log.append(
      h("li", { onclick: () => go(i + 1), style: { cursor: "pointer" } }, seat === null ? t("replay.dealer") : names[seat], ": ", actionLabel(record.game, text)),
    );
  });

  const results = h(
    "table",
    { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", { text: t("table.player") }), h("th", { class: "num", text: t("table.points") }))),
    h("tbody", {}, record.result.map((value, seat) => h("tr", {}, h("td", { text: names[seat] }), h("td", { class: signClass(value), text: signed(value) })))),
  );

  fill(
    root,
    h(
      "div",
      { class: "page", "data-testid": "replay", "data-hand": handId },
      h(
        "div",
        { class: "panel" },
        h("h2", { text: `${t("replay.title")} · ${t(`game.${record.game}`)} · ${t(`rules.${record.rules}`)}` }),
        h("p", { class: "muted", text: `${t("replay.hand")} ${handId}` }),
        h(
          "div",
          { class: "stepper" },
          h("button", { class: "btn small", "data-testid": "replay-first", onclick: () => go(0), text: t("replay.first") }),
          h("button", { class: "btn small", "data-testid": "replay-prev", onclick: () => go(step - 1), text: t("replay.prev") }),
          slider,
          h("button", { class: "btn small", "data-testid": "replay-next", onclick: () => go(step + 1), text: t("replay.next") }),
          h("button", { class: "btn small", "data-testid": "replay-last", onclick: () => go(total), text: t("replay.last") }),
          counter,
        ),
        board,
        h("h3", { style: { marginTop: "14px" }, text: t("replay.actions") }),
        log,
        h("h3", { style: { marginTop: "14px" }, text: t("replay.result") }),
        results,
        h("h3", { style: { marginTop: "14px" }, text: t("replay.fair") }),
        h("p", { "data-testid": "replay-verified", "data-ok": data.verified ? "1" : "0", class: data.verified ? "ok" : "bad" }, data.verified ? t("replay.verified") : `${t("replay.notVerified")} ${data.reason || ""}`),
        fairness(record.seed, record.commitment),
        h("p", { class: "muted", style: { fontSize: "12px" }, text: t("replay.howto") }),
        h("p", { class: "muted", style: { fontSize: "12px" }, text: t("replay.noCards") }),
      ),
    ),
  );
  draw();
}
