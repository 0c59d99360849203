// The console's tabs that list and act on the hall as a whole: 概览 (the dashboard, the
// audit), 牌桌 (the tables in play, closing one), 比赛 (the match runs, cancelling one)
// and 日志 (the admin log, paged).

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { actionButton, actionForm, get, grid, may, post, section, seg, when } from "./kit.js";

const LOG_PAGE = 50;

export function renderDashboard(root) {
  const load = async (body) => {
    const data = await get("/api/admin/dashboard");
    const online = Object.entries(data.online).flatMap(([node, here]) => [
      [h("b", { text: node }), "", String(here.people ?? 0), String(here.bots ?? 0)],
      ...Object.entries(here.rooms || {})
        .filter(([, count]) => count.people || count.bots) // the rooms with anybody in them
        .map(([room, count]) => ["", room, String(count.people ?? 0), String(count.bots ?? 0)]),
    ]);
    const kinds = [...new Set(data.takings.flatMap((day) => Object.keys(day.given)))].sort();
    const audit = data.last_audit;
    fill(
      body,
      h(
        "div",
        { class: "figures" },
        figure("admin.handsRecent", data.hands_last_10_minutes, "admin-hands-recent"),
        figure("admin.runsInPlay", data.runs_in_play, "admin-runs-in-play"),
        figure("admin.online", Object.values(data.online).reduce((sum, here) => sum + (here.people ?? 0), 0), "admin-online-total"),
      ),
      h("h3", { text: t("admin.online") }),
      grid([{ key: "admin.node" }, { key: "admin.room" }, { key: "admin.people", num: true }, { key: "admin.bots", num: true }], online, { testid: "admin-online" }),
      h("h3", { text: t("admin.takings") }),
      grid(
        [{ key: "admin.day" }, { key: "admin.rake", num: true }, { key: "admin.fees", num: true }, { key: "admin.matchNet", num: true }, ...kinds.map((kind) => ({ key: `${t("admin.given")} ${kind}`, num: true }))],
        data.takings.map((day) => [day.day, String(day.rake), String(day.fees), String(day.matches), ...kinds.map((kind) => String(day.given[kind] ?? 0))]),
        { testid: "admin-takings" },
      ),
      h("h3", { text: t("admin.lastAudit") }),
      h(
        "p",
        { "data-testid": "admin-last-audit", "data-problems": audit ? String(audit.detail.problems) : "" },
        audit ? t("admin.auditLine", { at: when(audit.at), actor: audit.actor, n: audit.detail.problems }) : t("admin.auditNever"),
      ),
      audit && audit.detail.first && audit.detail.first.length ? h("ul", { class: "muted" }, audit.detail.first.map((line) => h("li", { text: line }))) : null,
      may("admin")
        ? actionButton("admin.runAudit", "admin-run-audit", () =>
            actionForm({ title: t("admin.act.audit"), testid: "admin-audit", send: (v) => post("/api/admin/audit", { reason: v.reason }), done: refresh }),
          )
        : null,
    );
  };
  const refresh = section(root, { title: t("admin.tab.dashboard"), testid: "admin-dashboard", load });
}

function figure(key, value, testid) {
  return h("div", { class: "figure" }, h("b", { "data-testid": testid, text: String(value) }), h("span", { text: t(key) }));
}

export function renderTables(root) {
  const load = async (body) => {
    const tables = await get("/api/admin/tables");
    const seats = (table) =>
      h(
        "ul",
        { class: "seats-list" },
        table.seats.map((seat) =>
          h(
            "li",
            { "data-testid": "admin-seat", "data-name": seat.name },
            seat.name,
            ` · ${seat.coins}`,
            seat.bot ? h("span", { class: "tag", text: t("admin.bot") }) : null,
            seat.trustee ? h("span", { class: "tag", text: t("admin.trustee") }) : null,
            !seat.bot && !seat.connected ? h("span", { class: "tag off", text: t("admin.away") }) : null,
          ),
        ),
      );
    fill(
      body,
      grid(
        [{ key: "admin.table" }, { key: "admin.room" }, { key: "admin.stake", num: true }, { key: "admin.handNow" }, { key: "admin.seats" }, { key: "admin.actions" }],
        tables.map((table) => [
          h("span", { text: `${table.id} · ${t("admin.hands")} ${table.hands}` }),
          h("span", {}, table.room_name, h("br"), h("small", { class: "muted", text: `${t(`game.${table.game}`)} · ${t(`rules.${table.rules}`)}` })),
          String(table.base),
          table.hand ? h("small", { text: table.hand }) : "—",
          seats(table),
          may("moderator")
            ? actionButton("admin.act.close", "admin-close-table", () =>
                actionForm({ title: `${t("admin.act.close")} ${table.id}`, testid: "admin-close", send: (v) => post(`/api/admin/tables/${seg(table.id)}/close`, { reason: v.reason }), done: refresh }),
              { warn: true })
            : "",
        ]),
        { testid: "admin-table-list", empty: t("admin.noTables"), rowAttrs: (i) => ({ "data-testid": "admin-table", "data-table": tables[i].id, "data-room": tables[i].room }) },
      ),
    );
  };
  const refresh = section(root, { title: t("admin.tab.tables"), testid: "admin-tables", load });
}

export function renderMatches(root) {
  const load = async (body) => {
    const runs = await get("/api/admin/matches");
    fill(
      body,
      grid(
        [{ key: "admin.run" }, { key: "admin.state" }, { key: "admin.fee", num: true }, { key: "admin.registered", num: true }, { key: "admin.runTime" }, { key: "admin.actions" }],
        runs.map((run) => [
          h("span", {}, h("b", { text: run.match }), h("br"), h("small", { class: "muted", text: run.run })),
          t(`admin.runState.${run.state}`),
          String(run.entry_fee),
          String(run.registered),
          when(run.started_at || run.created_at),
          may("admin")
            ? actionButton("admin.act.cancel", "admin-cancel-run", () =>
                actionForm({ title: `${t("admin.act.cancel")} ${run.run}`, testid: "admin-cancel", send: (v) => post(`/api/admin/matches/${seg(run.run)}/cancel`, { reason: v.reason }), done: refresh }),
              { warn: true })
            : "",
        ]),
        { testid: "admin-run-list", empty: t("admin.noRuns"), rowAttrs: (i) => ({ "data-testid": "admin-run", "data-run": runs[i].run, "data-match": runs[i].match }) },
      ),
    );
  };
  const refresh = section(root, { title: t("admin.tab.matches"), testid: "admin-matches", load });
}

/** The admin log, newest first, LOG_PAGE lines at a time (更早的: the page before). */
export function renderLog(root) {
  const load = async (body) => {
    const lines = await get(`/api/admin/log?limit=${LOG_PAGE}`);
    const list = h("div", {});
    const more = h("button", { class: "btn small quiet", "data-testid": "admin-log-more", text: t("admin.more") });
    const show = (page) => {
      list.append(logLines(page));
      more.classList.toggle("hidden", page.length < LOG_PAGE);
      more.onclick = async () => {
        more.disabled = true;
        show(await get(`/api/admin/log?limit=${LOG_PAGE}&before=${page[page.length - 1].id}`));
        more.disabled = false;
      };
    };
    fill(body, list, more);
    show(lines);
  };
  section(root, { title: t("admin.tab.log"), testid: "admin-log", load });
}

/** Lines of the admin log as a table (the log tab, a player's page). */
export function logLines(lines) {
  return grid(
    [{ key: "admin.at" }, { key: "admin.actor" }, { key: "admin.logWhat" }, { key: "admin.target" }, { key: "admin.reason" }, { key: "admin.detail" }],
    lines.map((line) => [when(line.at), line.actor, t(`admin.logAction.${line.action}`), line.target || "—", line.reason, h("small", { class: "muted", text: Object.keys(line.detail).length ? JSON.stringify(line.detail) : "" })]),
    {
      testid: "admin-log-lines",
      empty: t("admin.noLog"),
      rowAttrs: (i) => ({ "data-testid": "admin-log-line", "data-id": lines[i].id, "data-action": lines[i].action, "data-actor": lines[i].actor, "data-target": lines[i].target || "" }),
    },
  );
}
