// The lobby's 福利 panel (docs/web.md, "福利"): 签到 (POST /api/me/checkin), 破产补助 offered
// when the player's coins are below every room's minimum (POST /api/me/relief), and the day's
// 每日任务 with their progress and 领取 buttons (POST /api/me/tasks/{id}/claim); what it shows
// is GET /api/me/economy, fetched each time the lobby is drawn.

import { api } from "../api.js";
import { fill, h, icon, toast } from "../dom.js";
import { addStrings, has, lang, t } from "../i18n.js";
import { WELFARE_STRINGS } from "../welfarestrings.js";

addStrings(WELFARE_STRINGS);

/** How long an answer is used again while the player's coins and hands stay the same. */
const FRESH_MS = 60_000;

let known = null; // the last answer of GET /api/me/economy
let knownFor = null; // what it is of: the user, his coins and hands (GET /api/me)
let knownAt = 0; // when it came (Date.now())

/** What the answer depends on: a hand over or a grant changes it. */
function keyOf(app) {
  const me = app.me;
  return `${app.session.id}:${me ? me.coins : ""}:${me ? me.hands : ""}`;
}

/** The panel: drawn from what is known at once, then again once the economy is fetched. */
export function welfarePanel(app) {
  if (!app.session) return null;
  const key = keyOf(app);
  if (knownFor !== null && !knownFor.startsWith(`${app.session.id}:`)) known = null;
  const panel = h("div", { class: "welfare panel", "data-testid": "welfare" });
  draw(app, panel);
  // the lobby is drawn again after every frame: ask the hall again only when the answer
  // may have changed (his coins or hands did, or a minute went by: the day may have turned)
  if (!known || knownFor !== key || Date.now() - knownAt > FRESH_MS) load(app, panel, key);
  return panel;
}

async function load(app, panel, key) {
  const session = app.session;
  try {
    known = await api("GET", "/api/me/economy", { token: session.token });
    knownFor = key;
    knownAt = Date.now();
  } catch {
    return; // drawn again with the next lobby
  }
  draw(app, panel);
}

/** Ask for a grant; on success the coins and the lobby are drawn again. */
async function grant(app, button, path) {
  button.disabled = true;
  try {
    const answer = await api("POST", path, { token: app.session.token });
    toast(t("welfare.paid", { coins: answer.paid }));
  } catch (error) {
    toast(has(`error.${error.code}`) ? t(`error.${error.code}`) : error.message);
  }
  knownAt = 0; // asked again with the lobby drawn next
  await app.refreshMe(); // draws the lobby, and this panel with it
}

function draw(app, panel) {
  const title = h("div", { class: "welfare-title" }, h("b", { text: t("welfare.title") }), h("span", { class: "muted", text: t("welfare.about") }));
  if (!known) {
    fill(panel, title, skeleton());
    return;
  }
  panel.dataset.broke = known.broke ? "1" : "";
  fill(panel, title, h("div", { class: "welfare-row" }, checkin(app), relief(app)), tasks(app));
}

/** What stands in for the panel while the economy is fetched: the same rows, in the same
 * sizes, without test hooks, so that nothing below moves when it comes (a click aimed at a
 * room must not land on a task). */
function skeleton() {
  const row = () => h(
    "li",
    { class: "task" },
    h("span", { class: "task-name muted", text: t("common.loading") }),
    h("span", { class: "task-progress", text: "…" }),
    h("span", { class: "task-coins" }, icon("coin", "coin-icon"), " …"),
    h("button", { class: "btn small quiet", disabled: true, text: t("welfare.claim") }),
  );
  return [
    h(
      "div",
      { class: "welfare-row" },
      h("div", { class: "welfare-box" }, h("button", { class: "btn small", disabled: true }, icon("coin", "coin-icon"), ` ${t("welfare.checkin", { coins: "…" })}`)),
      h("div", { class: "welfare-box muted", text: t("welfare.reliefInfo", { line: "…", n: "…" }) }),
    ),
    h("div", { class: "welfare-tasks" }, h("b", { text: t("welfare.tasks") }), h("ul", {}, [row(), row(), row()])),
  ];
}

function checkin(app) {
  const e = known;
  const streak = e.streak ? h("span", { class: "muted", "data-testid": "streak", "data-streak": String(e.streak), text: t("welfare.streak", { n: e.streak }) }) : null;
  if (e.checked_in) {
    return h(
      "div",
      { class: "welfare-box" },
      h("button", { class: "btn small", "data-testid": "checkin", "data-checked": "1", disabled: true, text: t("welfare.checkedIn") }),
      streak,
      h("span", { class: "muted", text: t("welfare.tomorrow", { coins: e.next_checkin }) }),
    );
  }
  const button = h("button", {
    class: "btn primary small",
    "data-testid": "checkin",
    "data-checked": "",
    onclick: () => grant(app, button, "/api/me/checkin"),
  }, icon("coin", "coin-icon"), ` ${t("welfare.checkin", { coins: e.next_checkin })}`);
  return h("div", { class: "welfare-box" }, button, streak);
}

function relief(app) {
  const e = known;
  if (!e.broke) {
    return h("div", { class: "welfare-box muted", "data-testid": "relief-info", text: t("welfare.reliefInfo", { line: e.broke_line, n: e.relief_left }) });
  }
  if (!e.relief_left) return h("div", { class: "welfare-box broke", "data-testid": "relief-info", text: t("welfare.reliefNone") });
  const button = h("button", {
    class: "btn primary small",
    "data-testid": "relief",
    onclick: () => grant(app, button, "/api/me/relief"),
  }, icon("coin", "coin-icon"), ` ${t("welfare.relief", { coins: e.relief_coins })}`);
  return h(
    "div",
    { class: "welfare-box broke" },
    h("span", { text: t("welfare.broke") }),
    button,
    h("span", { class: "muted", text: t("welfare.reliefLeft", { n: e.relief_left }) }),
  );
}

function tasks(app) {
  const rows = known.tasks.map((task) => {
    const done = task.progress >= task.target;
    const button = h("button", {
      class: `btn small ${done && !task.claimed ? "primary" : "quiet"}`,
      "data-testid": "task-claim",
      "data-task": task.id,
      disabled: !done || task.claimed,
      onclick: () => grant(app, button, `/api/me/tasks/${encodeURIComponent(task.id)}/claim`),
      text: task.claimed ? t("welfare.claimed") : t("welfare.claim"),
    });
    return h(
      "li",
      { class: `task${task.claimed ? " claimed" : ""}`, "data-testid": "daily-task", "data-task": task.id, "data-progress": String(task.progress), "data-claimed": task.claimed ? "1" : "" },
      h("span", { class: "task-name", text: lang() === "zh" ? task.name : task.english }),
      h("span", { class: "task-progress", text: `${task.progress}/${task.target}` }),
      h("span", { class: "task-coins" }, icon("coin", "coin-icon"), ` ${task.coins}`),
      button,
    );
  });
  return h("div", { class: "welfare-tasks" }, h("b", { text: t("welfare.tasks") }), h("ul", { "data-testid": "tasks" }, rows));
}
