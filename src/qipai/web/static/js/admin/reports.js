// The console's 举报 tab: the fair-play flags (GET /api/admin/flags) above the report
// queue (GET /api/admin/reports?state=open|closed), each report with its hand's replay
// (the client's replay page, in the console: js/admin/replays.js) and, for a moderator,
// its resolution (dismiss, warn, mute, ban), with a reason.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { actionButton, actionForm, get, grid, may, post, refusal, seg, when } from "./kit.js";

export function renderReports(root) {
  let state = "open";
  const flags = h("div", { "data-testid": "admin-flags", "data-loaded": "0" });
  const queue = h("div", { "data-testid": "admin-report-queue", "data-loaded": "0" });
  const tabs = h("div", { class: "seg-tabs", role: "tablist" });
  const loadFlags = async () => {
    flags.dataset.loaded = "0";
    try {
      const found = await get("/api/admin/flags");
      fill(
        flags,
        grid(
          [{ key: "admin.kind" }, { key: "admin.tab.players" }, { key: "admin.flagHands", num: true }, { key: "admin.hand" }],
          found.map((flag) => [
            t(`admin.flag.${flag.kind}`),
            h("span", {}, flag.players.map((name, i) => [i ? ", " : "", h("a", { href: `#/player/${seg(name)}`, text: name })])),
            String(flag.count),
            h("span", { class: "hand-links" }, (flag.hands || []).slice(0, 5).map((hand) => h("a", { href: `#/replay/${seg(hand)}/0`, "data-testid": "admin-flag-hand", title: hand, text: `…${hand.slice(-6)}` }))),
          ]),
          { testid: "admin-flag-list", empty: t("admin.noFlags"), rowAttrs: (i) => ({ "data-testid": "admin-flag", "data-kind": found[i].kind }) },
        ),
      );
    } catch (error) {
      fill(flags, h("p", { class: "err", "data-testid": "admin-error", "data-code": error.code || "", text: refusal(error) }));
    }
    flags.dataset.loaded = "1";
  };
  const loadQueue = async () => {
    queue.dataset.loaded = "0";
    for (const button of tabs.children) button.classList.toggle("on", button.dataset.state === state);
    try {
      const reports = await get(`/api/admin/reports?state=${state}`);
      fill(
        queue,
        grid(
          [{ key: "admin.at" }, { key: "admin.reporter" }, { key: "admin.reported" }, { key: "admin.reason" }, { key: "admin.hand" }, { key: state === "open" ? "admin.actions" : "admin.resolution" }],
          reports.map((report) => [
            when(report.at),
            report.reporter,
            h("a", { href: `#/player/${seg(report.reported)}`, text: report.reported }),
            report.reason,
            report.hand ? h("a", { href: replayOf(report), "data-testid": "admin-report-replay", text: t("admin.replay") }) : h("span", { class: "muted", text: t("admin.noHand") }),
            report.state === "open" ? (may("moderator") ? actionButton("admin.act.resolve", "admin-resolve", () => resolve(report)) : "") : resolution(report),
          ]),
          { testid: "admin-report-list", empty: t("admin.noReports"), rowAttrs: (i) => ({ "data-testid": "admin-report", "data-id": reports[i].id, "data-state": reports[i].state }) },
        ),
      );
    } catch (error) {
      fill(queue, h("p", { class: "err", "data-testid": "admin-error", "data-code": error.code || "", text: refusal(error) }));
    }
    queue.dataset.loaded = "1";
  };
  const resolve = (report) =>
    actionForm({
      title: `${t("admin.act.resolve")} · ${report.reported}`,
      testid: "admin-resolve-form",
      fields: [
        { name: "action", key: "admin.action", type: "select", value: "dismiss", options: ["dismiss", "warn", "mute", "ban"].map((a) => [a, t(`admin.resolve.${a}`)]) },
        { name: "minutes", key: "admin.minutes", type: "number", value: "60", hint: "admin.resolveMinutes" },
        { name: "forever", key: "admin.forever", type: "checkbox", value: true },
      ],
      send: (v) => {
        const body = { action: v.action, reason: v.reason };
        if (v.action === "mute") body.minutes = Number(v.minutes);
        if (v.action === "ban") body.until = v.forever ? null : new Date(Date.now() + Number(v.minutes) * 60000).toISOString();
        return post(`/api/admin/reports/${seg(report.id)}/resolve`, body);
      },
      done: () => both(),
    });
  for (const which of ["open", "closed"]) {
    tabs.append(
      h("button", {
        class: "btn small quiet",
        "data-state": which,
        "data-testid": `admin-reports-${which}`,
        onclick: () => {
          state = which;
          loadQueue();
        },
        text: t(`admin.${which}`),
      }),
    );
  }
  const box = h(
    "section",
    { class: "panel admin-section", "data-testid": "admin-reports", "data-loaded": "0" },
    h("div", { class: "section-head" }, h("h2", { text: t("admin.tab.reports") }), h("button", { class: "btn small quiet", "data-testid": "admin-refresh", onclick: () => both(), text: t("admin.refresh") })),
    h("h3", { text: t("admin.flags") }),
    flags,
    h("div", { class: "section-head" }, h("h3", { text: t("admin.queue") }), tabs),
    queue,
  );
  const both = async () => {
    box.dataset.loaded = "0";
    await Promise.all([loadFlags(), loadQueue()]);
    box.dataset.loaded = "1";
  };
  fill(root, box);
  both();
}

/** The replay of a report's hand, from the reported player's seat where the API says it. */
function replayOf(report) {
  const seat = Number.isInteger(report.seat) ? report.seat : 0;
  return `#/replay/${seg(report.hand)}/${seat}`;
}

function resolution(report) {
  const action = report.resolution ? t(`admin.resolve.${report.resolution}`) : "—";
  return h("span", { "data-testid": "admin-resolution", "data-action": report.resolution || "" }, action, report.resolved_by ? h("small", { class: "muted", text: ` · ${report.resolved_by}` }) : null);
}
