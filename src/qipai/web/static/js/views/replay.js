// The replay of a finished hand: the record (GET /api/hands/{id}: rules, seed, commitment,
// every action, the result, who sat where) and its steps (GET /api/hands/{id}/replay?seat=K:
// after each action, the view of seat K and every seat's cards, which the server gets by
// replaying the record). Each step is drawn by the table page itself, read-only, with every
// hand face up; the viewer steps with the buttons, the slider, the action list or the arrow
// keys, and may watch from any seat. Below: the result, the server's verification and the
// browser's own checks: the commitment, and the deal re-derived from the revealed seed
// (js/deal.js, chance v2; mixed with the players' entropy in a qipai-hand/3 record) against
// every seat's cards in the replay.

import { api } from "../api.js";
import { h, fill, signed, signClass } from "../dom.js";
import { playerName, t } from "../i18n.js";
import { gameNamed } from "../games/index.js";
import { TableView } from "../tableview.js";
import { fairness } from "../panels.js";
import { dealMatches } from "../deal.js";

/** The words for one recorded action: the hall's own (托管, 逃跑, a deal), else the game's
 * `actionLabel` hook (the text itself where the game has none). */
export function actionLabel(game, text) {
  const [word, arg] = text.split(" ");
  if (text.startsWith("trustee ")) return arg === "on" ? t("table.trustee") : t("table.untrustee");
  if (word === "escape") return t("table.escape");
  if (word === "deal") return t("replay.deal", { n: arg });
  return game.actionLabel ? game.actionLabel(text) : text;
}

/** One step of a replay, drawn by the table page (the interface of table.js's Table that
 * TableView and the game modules read), read-only. */
class ReplayTable {
  constructor(game, names, title) {
    this.game = game;
    this.names = names;
    this.title = title;
    this.readOnly = true;
    this.pending = null;
    this.ui = { lifted: new Set(), hint: -1, hintKey: null, sort: "rank", peek: true };
    this.state = null;
    this.caption = "";
    this.view = new TableView(this);
  }

  get seat() {
    return this.state.seat;
  }

  name(seat) {
    return playerName(this.names[seat]);
  }

  /** Draw ``step`` (the server's view of ``seat`` and every seat's cards). */
  show(step, index, seat, caption) {
    const view = step.view;
    const model = this.game.fromView(view, seat);
    this.game.reveal(model, step.cards, seat);
    const trustee = view.trustee || [];
    this.state = {
      n: index,
      seat,
      game: this.game.name,
      room: this.title,
      roomInfo: null,
      hand: index,
      handNumber: null,
      players: this.names.map((name, s) => ({ name, bot: false, connected: true, trustee: Boolean(trustee[s]) })),
      deadline: null,
      turnSeat: view.current_player,
      legal: [],
      options: [],
      model,
      over: null,
      scores: [],
    };
    this.caption = caption;
    this.view.render();
  }

  sortToggle() {
    this.ui.sort = this.ui.sort === "rank" ? "count" : "rank";
    this.view.render();
  }

  peek(on) {
    this.ui.peek = on;
    this.view.render();
  }

  button(id, label) {
    return this.view.button(id, label, null);
  }

  lowerAll() {}

  sweep() {}

  mount(root) {
    this.view.mount(root);
  }

  unmount() {
    this.view.unmount();
  }
}

function seatNames(app, data, handId) {
  const table = app.table && app.table.state;
  const live = table && table.over && table.over.hand === handId ? table.players : null;
  return data.seats.map((name, seat) => name || (live && live[seat] ? live[seat].name : t("replay.bot", { n: seat + 1 })));
}

function ownSeat(app, data, asked) {
  const seats = data.seats.length;
  if (asked !== undefined && asked !== "" && Number(asked) >= 0 && Number(asked) < seats) return Number(asked);
  const mine = app.me ? data.seats.indexOf(app.me.name) : -1;
  return mine >= 0 ? mine : 0;
}

/** Each seat's entropy mixed into the seed (a qipai-hand/3 record): its first digits. */
function entropyLine(record, names) {
  if (!Array.isArray(record.entropy)) return null;
  const parts = record.entropy.map((value, seat) => `${names[seat]} ${value ? `${value.slice(0, 12)}…` : "—"}`);
  return h("p", { class: "muted", "data-testid": "replay-entropy", style: { fontSize: "12px" }, text: `${t("fair.entropy")}: ${parts.join(" · ")}` });
}

/** The browser's re-deal from the seed (js/deal.js): ✓ when every seat's cards match. */
function dealCheck(record, deal, game) {
  const ok = dealMatches(record, deal, game);
  const text = ok === null ? t("replay.dealV1") : ok ? t("replay.dealOk") : t("replay.dealBad");
  return h("p", { "data-testid": "replay-deal", "data-ok": ok === null ? "" : ok ? "1" : "0", class: ok === null ? "muted" : ok ? "ok" : "bad", text });
}

export async function renderReplay(app, root, arg) {
  const [handId, asked] = arg.split("/");
  fill(root, h("div", { class: "page" }, h("p", { class: "muted", text: t("common.loading") })));
  const path = `/api/hands/${encodeURIComponent(handId)}`;
  let data;
  const steps = {};
  let seat;
  let deal = null;
  const load = async (which) => {
    if (!steps[which]) {
      const replay = await api("GET", `${path}/replay?seat=${which}`);
      steps[which] = replay.steps;
      deal = deal || replay.deal || null;
    }
    return steps[which];
  };
  try {
    data = await api("GET", path);
    seat = ownSeat(app, data, asked);
    await load(seat);
  } catch (error) {
    fill(root, h("div", { class: "page" }, h("p", { class: "err", "data-testid": "replay-error", text: app.errorText(error.code) })));
    return;
  }
  const record = data.record;
  const names = seatNames(app, data, handId);
  const shown = names.map(playerName); // as the player's language writes them (Guest, Bot)
  const title = `${t(`game.${record.game}`)} · ${t(`rules.${record.rules}`)}`;
  const game = gameNamed(record.game);
  if (!game) {
    fill(root, h("div", { class: "page" }, h("p", { class: "err", "data-testid": "replay-error", text: app.errorText("unknown_game") })));
    return;
  }
  const table = new ReplayTable(game, names, title);
  const total = record.actions.length;
  let step = 0; // a replay opens at the deal, as the platforms' do

  const log = h("ol", { class: "replay-log", tabindex: "0", "aria-label": t("replay.actions") });
  const counter = h("span", { "data-testid": "replay-step" });
  const slider = h("input", { type: "range", min: "0", max: String(total), value: String(step), "data-testid": "replay-slider", "aria-label": t("replay.step") });
  const viewers = h("div", { class: "viewers" });
  const board = h("div", { class: "replay-table" });

  const caption = (i) => {
    if (i === 0) return t("replay.start");
    const [who, text] = record.actions[i - 1];
    return `${who === null ? t("replay.dealer") : shown[who]}: ${actionLabel(game, text)}`;
  };
  const draw = () => {
    table.show(steps[seat][step], step, seat, caption(step));
    counter.textContent = `${step} / ${total}`;
    counter.dataset.step = String(step);
    slider.value = String(step);
    for (const [i, item] of [...log.children].entries()) item.classList.toggle("now", i === step - 1);
    for (const button of viewers.querySelectorAll("button")) button.classList.toggle("on", Number(button.dataset.seat) === seat);
  };
  const go = (next) => {
    step = Math.max(0, Math.min(total, next));
    draw();
  };
  const watchFrom = async (next) => {
    try {
      await load(next);
    } catch {
      return; // the seat's replay could not be loaded: stay on the one shown
    }
    seat = next;
    draw();
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  fill(
    viewers,
    h("span", { class: "muted", text: `${t("replay.view")}:` }),
    shown.map((name, s) => h("button", { class: "btn small quiet", "data-testid": "replay-view", "data-seat": s, onclick: () => watchFrom(s), text: name })),
  );
  record.actions.forEach(([who, text], i) => {
    log.append(h("li", { onclick: () => go(i + 1), style: { cursor: "pointer" } }, who === null ? t("replay.dealer") : shown[who], ": ", actionLabel(game, text)));
  });
  const results = h(
    "table",
    { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", { text: t("table.player") }), h("th", { class: "num", text: t("table.points") }))),
    h("tbody", {}, record.result.map((value, s) => h("tr", {}, h("td", { text: shown[s] }), h("td", { class: signClass(value), text: signed(value) })))),
  );
  const onKey = (event) => {
    if (event.target.closest && event.target.closest("input")) return;
    if (event.key === "ArrowLeft") go(step - 1);
    if (event.key === "ArrowRight") go(step + 1);
  };
  document.addEventListener("keydown", onKey);
  app.leaveView = () => {
    document.removeEventListener("keydown", onKey);
    table.unmount();
  };

  fill(
    root,
    h(
      "div",
      { class: "page replay-page", "data-testid": "replay", "data-hand": handId },
      h(
        "div",
        { class: "panel" },
        h("h2", { text: `${t("replay.title")} · ${title}` }),
        h("p", { class: "muted", text: `${t("replay.hand")} ${handId}` }),
        viewers,
        h(
          "div",
          { class: "stepper" },
          h("button", { class: "btn small", "data-testid": "replay-first", onclick: () => go(0), text: t("replay.first") }),
          h("button", { class: "btn small", "data-testid": "replay-prev", onclick: () => go(step - 1), text: t("replay.prev") }),
          slider,
          h("button", { class: "btn small", "data-testid": "replay-next", onclick: () => go(step + 1), text: t("replay.next") }),
          h("button", { class: "btn small", "data-testid": "replay-last", onclick: () => go(total), text: t("replay.last") }),
          counter,
          h("span", { class: "muted keys", text: t("replay.keys") }),
        ),
      ),
      board,
      h(
        "div",
        { class: "panel" },
        h("h3", { text: t("replay.actions") }),
        log,
        h("h3", { style: { marginTop: "14px" }, text: t("replay.result") }),
        results,
        h("h3", { style: { marginTop: "14px" }, text: t("replay.fair") }),
        h("p", { "data-testid": "replay-verified", "data-ok": data.verified ? "1" : "0", class: data.verified ? "ok" : "bad" }, data.verified ? t("replay.verified") : `${t("replay.notVerified")} ${data.reason || ""}`),
        fairness(record.seed, record.commitment),
        entropyLine(record, shown),
        dealCheck(record, deal, game),
        h("p", { class: "muted", style: { fontSize: "12px" }, text: t("replay.howto") }),
        h("p", { class: "muted", style: { fontSize: "12px" }, text: t("replay.noCards") }),
      ),
    ),
  );
  table.mount(board);
  draw();
}
