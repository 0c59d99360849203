// 战绩 of private tables 好友房: the closed tables the player sat at (GET /api/me/private),
// newest first — each one's code, game and rules, stakes, when it closed and his total,
// then its final scoreboard: every hand's points per seat, each hand with its replay, and
// the totals.

import { api } from "../api.js";
import { h, signClass, signed } from "../dom.js";
import { lang, playerName, t } from "../i18n.js";
import "../private.js"; // the private tables' strings

function when(iso) {
  const date = new Date(iso);
  return date.toLocaleString(lang() === "zh" ? "zh-CN" : "en-GB", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}

/** One hand of the scoreboard: its number, each seat's points, its replay (from my seat). */
function handRow(app, hand, mine) {
  const path = mine >= 0 ? `replay/${hand.hand}/${mine}` : `replay/${hand.hand}`;
  return h(
    "tr",
    { "data-testid": "private-history-hand", "data-hand": hand.hand },
    h("td", { text: String(hand.number) }),
    hand.points.map((p, seat) => h("td", { class: `num ${signClass(p)}${seat === mine ? " my-seat" : ""}`, text: signed(p) })),
    h("td", {}, h("button", { class: "btn small", "data-testid": "private-replay", onclick: () => app.go(path), text: t("history.replay") })),
  );
}

/** A closed table: its heading (code, game, stakes, when, my total) and its scoreboard. */
function tableCard(app, result) {
  const board = result.scoreboard;
  const mine = board.names.indexOf(app.session.name);
  const total = mine >= 0 ? board.totals[mine] : null;
  const stake = result.base == null ? "" : ` · ${t("private.base")} ${result.base}`;
  const head = h("tr", {}, h("th", { text: t("private.hand") }), board.names.map((name) => h("th", { class: "num", text: playerName(name) })), h("th"));
  const totals = h("tr", { class: "total" }, h("th", { text: t("private.total") }), board.totals.map((p) => h("th", { class: `num ${signClass(p)}`, text: signed(p) })), h("th"));
  return h(
    "section",
    { class: "private-history", "data-testid": "private-history-row", "data-code": result.code, "data-total": total === null ? "" : String(total) },
    h(
      "h3",
      {},
      h("span", { text: `${t("private.code")} ${result.code}` }),
      h("span", { class: "muted", text: ` · ${t(`game.${result.game}`)} · ${t(`rules.${result.rules}`)} · ${t(`private.stakes.${result.stakes}`)}${stake} · ${when(result.closed_at)}` }),
    ),
    h("p", {}, t("private.myTotal"), " ", h("b", { class: signClass(total), "data-testid": "private-history-total", text: total === null ? "—" : signed(total) })),
    h("div", { class: "scroll-x" }, h("table", { class: "grid scoreboard" }, h("thead", {}, head), h("tbody", {}, board.rows.map((hand) => handRow(app, hand, mine)), totals))),
  );
}

/** The panel of 战绩 listing the player's closed private tables (`private-history`). */
export async function privatePanel(app) {
  const list = h("div");
  const note = h("p", { class: "muted hidden", text: t("private.historyEmpty") });
  const panel = h("div", { class: "panel", "data-testid": "private-history" }, h("h2", { text: t("private.history") }), list, note);
  try {
    const results = await api("GET", "/api/me/private", { token: app.session.token });
    for (const result of results) list.append(tableCard(app, result));
    note.classList.toggle("hidden", results.length > 0);
  } catch (error) {
    note.textContent = app.errorText(error.code);
    note.classList.remove("hidden");
  }
  panel.dataset.loaded = "1";
  return panel;
}
