// The console's 玩家 tab: the search (#/players/TEXT) and a player's page (#/player/NAME):
// his account, role, ban and mute, sessions, ledger postings and recent hands (each with
// its replay), and the actions the operator's role allows, each with its reason.

import { api } from "../api.js";
import { dialog, fill, h, signClass, signed, toast } from "../dom.js";
import { t } from "../i18n.js";
import { actionButton, actionForm, get, grid, may, operator, post, refusal, section, seg, when } from "./kit.js";

export function renderPlayers(root, text) {
  const box = h("input", { type: "search", "data-testid": "admin-search", value: text || "", placeholder: t("admin.search"), "aria-label": t("admin.search") });
  const results = h("div", { "data-testid": "admin-results", "data-loaded": "0" });
  const find = async () => {
    const q = box.value.trim();
    if (!q) return;
    results.dataset.loaded = "0";
    try {
      const found = await get(`/api/admin/players?q=${encodeURIComponent(q)}`);
      fill(
        results,
        grid(
          [{ key: "admin.name" }, { key: "admin.created" }, { key: "admin.hands", num: true }],
          found.map((p) => [h("a", { href: `#/player/${seg(p.name)}`, "data-testid": "admin-found", "data-name": p.name, text: p.name }), when(p.created_at), String(p.hands)]),
          { testid: "admin-found-list", empty: t("admin.noneFound") },
        ),
      );
    } catch (error) {
      fill(results, h("p", { class: "err", "data-testid": "admin-error", text: refusal(error) }));
    }
    results.dataset.loaded = "1";
    history.replaceState(null, "", `#/players/${seg(q)}`);
  };
  fill(
    root,
    h(
      "section",
      { class: "panel admin-section", "data-testid": "admin-players" },
      h("h2", { text: t("admin.tab.players") }),
      h(
        "form",
        { class: "search-row", onsubmit: (event) => (event.preventDefault(), find()) },
        box,
        h("button", { class: "btn primary", type: "submit", "data-testid": "admin-search-go", text: t("admin.searchGo") }),
      ),
      results,
    ),
  );
  if (text) find();
  else box.focus();
}

export function renderPlayer(root, name) {
  const base = `/api/admin/players/${seg(name)}`;
  const load = async (body) => {
    const p = await get(base);
    const sanction = (s, testid) =>
      h("span", { "data-testid": testid, "data-on": s ? "1" : "0", class: s ? "bad" : "muted" }, s ? (s.until ? t("admin.inForce", { until: when(s.until), reason: s.reason }) : t("admin.forGood", { reason: s.reason })) : t("admin.none"));
    const sessions = Array.isArray(p.sessions_list)
      ? h("ul", { class: "plain", "data-testid": "admin-sessions" }, p.sessions_list.map((s) => h("li", { text: t("admin.sessionAt", { address: s.address || "—", until: when(s.expires_at) }) })))
      : null;
    fill(
      body,
      h(
        "dl",
        { class: "facts" },
        fact("admin.coins", h("b", { "data-testid": "admin-player-coins", text: String(p.coins) })),
        fact("admin.hands", String(p.hands)),
        fact("admin.wins", String(p.wins)),
        fact("admin.roleLabel", h("span", { "data-testid": "admin-player-role", text: p.role ? t(`admin.role.${p.role}`) : t("admin.role.none") })),
        fact("admin.ban", sanction(p.ban, "admin-player-ban")),
        fact("admin.mute", sanction(p.mute, "admin-player-mute")),
        fact("admin.sessions", h("span", {}, h("span", { "data-testid": "admin-player-sessions", text: String(p.sessions) }), sessions)),
        fact("admin.created", when(p.created_at)),
      ),
      h("div", { class: "action-row", "data-testid": "admin-player-actions" }, actions(p)),
      h("h3", { text: t("admin.postings") }),
      grid(
        [{ key: "admin.at" }, { key: "admin.kind" }, { key: "admin.amount", num: true }, { key: "admin.reason" }],
        p.postings.map((x) => [when(x.at), x.kind, h("span", { class: signClass(x.amount), text: signed(x.amount) }), h("span", { title: x.key, text: x.reason })]),
        { testid: "admin-postings", rowAttrs: (i) => ({ "data-testid": "admin-posting", "data-amount": p.postings[i].amount, "data-kind": p.postings[i].kind }) },
      ),
      h("h3", { text: t("admin.recentHands") }),
      grid(
        [{ key: "admin.at" }, { key: "admin.hand" }, { key: "admin.net", num: true }, { key: "admin.replay" }],
        p.recent_hands.map((row) => [
          when(row.started_at),
          h("span", {}, `${t(`game.${row.game}`)} · ${t(`rules.${row.rules}`)}`, h("br"), h("small", { class: "muted", text: row.hand_id })),
          row.net === null ? t(`status.${row.status}`) : h("span", { class: signClass(row.net), text: signed(row.net) }),
          row.status === "settled" ? h("a", { href: `#/replay/${seg(row.hand_id)}/${row.seat}`, "data-testid": "admin-replay-link", text: t("admin.replay") }) : "—",
        ]),
        { testid: "admin-hands" },
      ),
    );
  };
  const box = h("div", {});
  fill(root, h("p", {}, h("a", { href: "#/players", text: `← ${t("admin.tab.players")}` })), box);
  const refresh = section(box, { title: name, testid: "admin-player", load });

  /** The buttons of the actions his role lets the operator do on this player. */
  function actions(p) {
    /** The button of the action `kind` (POST …/kind): its form with `fields`, the body
     * `body(values, once)` and the reason; `done`: after it (else: the page loads again).
     * `once` is drawn when the form opens: a grant sent twice from one form (a double
     * click, a retry) pays once. */
    const button = (kind, { fields = [], body = () => ({}), warn = false, text, done = refresh } = {}) =>
      actionButton(
        `admin.act.${kind}`,
        `admin-${kind}`,
        () => {
          const once = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
          return actionForm({
            title: `${t(`admin.act.${kind}`)} · ${p.name}`,
            testid: `admin-${kind}-form`,
            fields,
            warn: text,
            send: (v) => post(`${base}/${kind}`, { ...body(v, once), reason: v.reason }),
            done,
          });
        },
        { warn },
      );
    const roles = [["", t("admin.role.none")], ...["viewer", "moderator", "admin"].map((r) => [r, t(`admin.role.${r}`)])];
    return [
      may("admin") ? button("grant", { fields: [{ name: "amount", key: "admin.amount", type: "number", hint: "admin.amountHint" }], body: (v, once) => ({ amount: Number(v.amount), key: once }) }) : null,
      !may("moderator")
        ? null
        : p.ban
          ? button("unban")
          : button("ban", {
              warn: true,
              fields: [
                { name: "forever", key: "admin.forever", type: "checkbox", value: false },
                { name: "until", key: "admin.until", type: "datetime-local", value: inDays(3) },
              ],
              body: (v) => ({ until: v.forever ? null : new Date(v.until).toISOString() }),
            }),
      !may("moderator") ? null : p.mute ? button("unmute") : button("mute", { fields: [{ name: "minutes", key: "admin.minutes", type: "number", value: "60" }], body: (v) => ({ minutes: Number(v.minutes) }) }),
      may("moderator")
        ? button("password", {
            done: async (answer) => {
              showPassword(answer);
              await refresh(); // his sessions ended
            },
          })
        : null,
      may("admin") ? actionButton("admin.act.export", "admin-export", () => exportJson(p.name)) : null,
      may("admin") ? button("role", { fields: [{ name: "role", key: "admin.roleLabel", type: "select", value: p.role || "", options: roles }], body: (v) => ({ role: v.role || null }) }) : null,
      may("admin")
        ? button("delete", {
            warn: true,
            text: t("admin.deleteWarn", { name: p.name }),
            done: () => {
              toast(t("admin.deleted"));
              location.hash = "#/players";
            },
          })
        : null,
    ];
  }

  async function exportJson(who) {
    try {
      const data = await api("GET", `${base}/export`, { token: operator.session.token });
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
      const link = h("a", { href: URL.createObjectURL(blob), download: `${who}.json`, "data-testid": "admin-export-file" });
      document.body.append(link);
      link.click();
      link.remove();
    } catch (error) {
      toast(t("admin.failed", { text: refusal(error) }));
    }
  }
}

/** The one-time password of a reset, shown once for the operator to hand over. */
function showPassword(answer) {
  let close = null;
  close = dialog(
    h(
      "div",
      { class: "admin-form" },
      h("h2", { text: t("admin.act.password") }),
      h("p", { text: t("admin.newPassword") }),
      h("p", { class: "one-time", "data-testid": "admin-new-password", text: answer.password }),
      h("div", { class: "buttons" }, h("button", { class: "btn primary", onclick: () => close(), text: t("common.close") })),
    ),
    { testid: "admin-password-shown" },
  );
}

function fact(key, value) {
  return h("div", { class: "fact" }, h("dt", { text: t(key) }), h("dd", {}, value));
}

/** The local time `days` from now, as a datetime-local input writes it. */
function inDays(days) {
  const at = new Date(Date.now() + days * 86400000);
  const pad = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
