// 排行榜: leaderboards by coins, wins and points (GET /api/leaderboard).

import { api } from "../api.js";
import { h, fill } from "../dom.js";
import { playerName, t } from "../i18n.js";

const BOARDS = ["coins", "wins", "points"];
let chosen = "coins";

export async function renderLeaders(app, root) {
  const body = h("tbody");
  const tabs = BOARDS.map((by) =>
    h("button", {
      class: `btn small ${by === chosen ? "primary" : "quiet"}`,
      "data-testid": `board-${by}`,
      onclick: () => {
        chosen = by;
        renderLeaders(app, root);
      },
      text: t(`leaders.${by}`),
    }),
  );
  const page = h(
    "div",
    { class: "page", "data-testid": "leaders", "data-board": chosen },
    h(
      "div",
      { class: "panel" },
      h("h2", { text: t("nav.leaders") }),
      h("div", { class: "segmented" }, tabs),
      h("table", { class: "grid" }, h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: t("table.player") }), h("th", { class: "num", text: t(`leaders.${chosen}`) }))), body),
    ),
  );
  fill(root, page);
  let rows = [];
  try {
    rows = await api("GET", `/api/leaderboard?by=${chosen}&limit=50`);
  } catch (error) {
    body.append(h("tr", {}, h("td", { colspan: "3", class: "err", text: app.errorText(error.code) })));
    return;
  }
  for (const row of rows) {
    const mine = app.me && row.user_id === app.me.id;
    body.append(
      h(
        "tr",
        { "data-testid": "leader-row", "data-user": row.user_id, style: mine ? { color: "var(--gold)", fontWeight: 700 } : null },
        h("td", { text: String(row.rank) }),
        h("td", { "data-name": row.name, text: playerName(row.name) }),
        h("td", { class: "num", text: String(row.value) }),
      ),
    );
  }
  // this board's own element: the player may have gone to another page while it loaded,
  // and the root then holds that page (no leaderboard in it)
  page.dataset.loaded = "1";
}
