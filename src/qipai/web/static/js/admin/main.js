// The operator's console (/admin, docs/operations.md "The operator's console"): the
// session is the player client's (js/storage.js) when the browser has one, else a sign-in
// form; GET /api/admin/me decides (no role: the no-access page). Then the tabs, one route
// each: #/dashboard, #/players (#/player/NAME), #/tables, #/matches, #/reports, #/log,
// and #/replay/HAND/SEAT (the client's own replay page, embedded: js/admin/replays.js).

import { api } from "../api.js";
import { fill, h, icon } from "../dom.js";
import { addStrings, langButton, t } from "../i18n.js";
import { storage } from "../storage.js";
import { ADMIN_STRINGS } from "./strings.js";
import { operator, refusal } from "./kit.js";
import { renderDashboard, renderLog, renderMatches, renderTables } from "./sections.js";
import { renderPlayer, renderPlayers } from "./players.js";
import { renderReports } from "./reports.js";
import { renderReplayHere, symbols } from "./replays.js";

addStrings(ADMIN_STRINGS);

const TABS = ["dashboard", "players", "tables", "matches", "reports", "log"];
const view = { leave: null }; // what the page shown before lets go of (a replay)

function route() {
  const [name, ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  return { name: name || "dashboard", arg: rest.map(decodeURIComponent).join("/") };
}

/** Go to a route of the console (`#/player/NAME`…). */
export function go(path) {
  const target = `#/${path}`;
  if (location.hash !== target) location.hash = target;
  else render();
}

function header() {
  document.title = t("admin.pageTitle");
  const now = route().name;
  const active = now === "player" ? "players" : now;
  fill(
    document.getElementById("top"),
    h("a", { class: "brand", href: "../", title: t("admin.toHall") }, icon("logo"), h("span", { text: t("admin.title") })),
    operator.role
      ? h(
          "nav",
          { class: "tabs", "data-testid": "admin-tabs" },
          TABS.map((tab) => h("a", { href: `#/${tab}`, class: active === tab ? "on" : "", "data-testid": `admin-tab-${tab}`, text: t(`admin.tab.${tab}`) })),
        )
      : null,
    h("div", { class: "spacer" }),
    operator.role
      ? h("span", { class: "userchip", "data-testid": "admin-me", "data-role": operator.role }, h("span", { text: operator.name }), h("span", { class: "title", text: t(`admin.role.${operator.role}`) }))
      : null,
    langButton(render),
    operator.session ? h("button", { class: "btn small quiet", "data-testid": "admin-sign-out", onclick: signOut, text: t("auth.signout") }) : null,
  );
  const nav = document.querySelector("#top nav.tabs");
  if (nav) requestAnimationFrame(() => fadeHidden(nav));
}

/** Tabs wider than the header (a phone, English): the tab shown is scrolled into view and
 * the side more tabs hide on fades (the client's `nav.tabs[data-more]` styles). */
function fadeHidden(nav) {
  const on = nav.querySelector("a.on");
  if (on) nav.scrollLeft = Math.max(0, on.offsetLeft + on.offsetWidth - nav.clientWidth + 24);
  const mark = () => {
    const end = nav.scrollWidth - nav.clientWidth - nav.scrollLeft > 1;
    const start = nav.scrollLeft > 1;
    nav.dataset.more = end && start ? "both" : end ? "end" : start ? "start" : "";
  };
  nav.addEventListener("scroll", mark, { passive: true });
  mark();
}

function render() {
  header();
  if (view.leave) view.leave();
  view.leave = null;
  const root = document.getElementById("app");
  if (!operator.session) return signInForm(root);
  if (!operator.role) return noAccess(root);
  const { name, arg } = route();
  const page = h("div", { class: "page console-page" });
  fill(root, page);
  if (name === "players") renderPlayers(page, arg);
  else if (name === "player") renderPlayer(page, arg);
  else if (name === "tables") renderTables(page);
  else if (name === "matches") renderMatches(page);
  else if (name === "reports") renderReports(page);
  else if (name === "log") renderLog(page);
  else if (name === "replay") view.leave = renderReplayHere(page, arg);
  else renderDashboard(page);
}

function signInForm(root, failed = "") {
  const name = h("input", { "data-testid": "username", autocomplete: "username", maxlength: "20", required: true });
  const password = h("input", { "data-testid": "password", type: "password", autocomplete: "current-password", maxlength: "128", required: true });
  const error = h("div", { class: "err", "data-testid": "auth-error", text: failed });
  const form = h(
    "form",
    {
      class: "auth panel",
      "data-testid": "admin-sign-in",
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        try {
          const session = await api("POST", "/api/login", { body: { name: name.value.trim(), password: password.value } });
          // the client's own session: the hall's page in this browser is signed in too
          storage.setSession({ token: session.token, name: session.user.name, id: session.user.id });
          await start();
        } catch (failure) {
          error.textContent = refusal(failure);
        }
      },
    },
    icon("logo", "logo"),
    h("h1", { text: t("admin.signInTitle") }),
    h("label", {}, t("auth.name"), name),
    h("label", {}, t("auth.password"), password),
    error,
    h("button", { class: "btn primary", "data-testid": "sign-in", type: "submit", text: t("auth.signin") }),
  );
  fill(root, h("div", { class: "page" }, form));
  name.focus();
}

function noAccess(root) {
  const who = operator.session?.name;
  fill(
    root,
    h(
      "div",
      { class: "page" },
      h(
        "div",
        { class: "auth panel", "data-testid": "admin-no-access" },
        icon("logo", "logo"),
        h("h1", { text: t("admin.noAccess") }),
        h("p", { text: who ? t("admin.noAccessText", { name: who }) : t("admin.noAccessNobody") }),
        h("button", { class: "btn primary", "data-testid": "admin-other-account", onclick: signOut, text: t("admin.otherAccount") }),
        h("a", { class: "btn quiet", href: "../", text: t("admin.toHall") }),
      ),
    ),
  );
}

/** Sign out: the session ends (it is the client's too) and the sign-in form shows. */
function signOut() {
  const token = operator.session?.token;
  if (token) api("POST", "/api/logout", { token }).catch(() => {});
  storage.setSession(null);
  operator.session = null;
  operator.role = null;
  operator.name = null;
  render();
}

async function start() {
  operator.session = storage.session();
  operator.role = null;
  if (operator.session) {
    try {
      const me = await api("GET", "/api/admin/me", { token: operator.session.token });
      operator.role = me.role;
      operator.name = me.name;
    } catch {
      operator.role = null; // forbidden: no role, or a session that has ended
    }
  }
  render();
  document.body.dataset.ready = "1";
}

window.addEventListener("hashchange", render);
window.addEventListener("console-forbidden", () => start()); // js/admin/kit.js: ask again
window.qipaiConsole = { go, operator };
symbols(); // the logo of the header, the suits of a replay
start();
