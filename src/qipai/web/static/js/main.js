// The client's entry point: the session, the socket, the routes (#/lobby, #/matches,
// #/table, #/private, #/history, #/replay/HAND, #/leaders, #/friends), the link of a private table
// (/?p=CODE) and the header.

import { loadRooms } from "./games/index.js";
import { api } from "./api.js";
import { closeDialogs, dialog, h, fillChanged, icon, toast } from "./dom.js";
import { has, lang, langButton, playerName, t } from "./i18n.js";
import { HallSocket } from "./socket.js";
import { storage } from "./storage.js";
import { Table } from "./table.js";
import { renderAuth } from "./views/auth.js";
import { renderLobby, queueOverlay } from "./views/lobby.js";
import { drawMatches, renderMatches } from "./views/matches.js";
import * as matches from "./match.js";
import { soundToggle } from "./sound.js";
import { inviteNote, joinLinked, leftPrivate, privateFrame, sendWatchChoice, takeLinkCode } from "./private.js";
import { renderPrivate } from "./views/privateroom.js";
import { learnMine, onInvite } from "./social.js";

const app = {
  session: storage.session(),
  me: null,
  rooms: [],
  socket: null,
  net: "closed",
  queued: null,
  leaving: false,
  rejoin: null, // 换桌: the room to join again once the hall says the player left his table
  again: null, // 再来一局: the room joined again after a hand, until the hall answers the join
  table: null,
  matches: null, // GET /api/matches
  matchesError: null,
  match: storage.match(), // the player's match once it has started (js/match.js)
  frameCounts: {},
  asks: new Map(), // id → a private table's or spectating message sent (js/private.js)
  privates: {}, // room id (private:<id>) → {game, rules, seconds, code} of the private tables the page has seen (code: its people's only)
  private: null, // the private table the player sits at: its last private_table frame
  scoreboard: null, // the last scoreboard frame
  watchers: null, // the last spectator_count frame: {table, count}
  watchingName: null, // the player watched by his name (js/private.js): his seat is drawn at the bottom
  unwatched: new Set(), // the tables the player stopped watching: their late frames are dropped
  linkCode: null, // the code of the link /?p=CODE the page was opened with, until joined
  notices: [], // the match notices kept while the player is in a hand (js/match.js)
  errorText: (code) => (has(`error.${code}`) ? t(`error.${code}`) : code),
};

// ------------------------------------------------------------------ session

app.signedIn = async (session) => {
  app.session = { token: session.token, name: session.user.name, id: session.user.id };
  storage.setSession(app.session);
  storage.forgetTables();
  app.forgetMatch();
  await start();
  go("lobby");
};

app.signOut = async () => {
  const token = app.session?.token;
  app.session = null;
  app.me = null;
  app.table = null;
  app.queued = null;
  app.matches = null;
  storage.setSession(null);
  storage.forgetTables();
  storage.setMuted([]); // whoever signs in next on this tab hears everybody
  app.forgetMatch();
  if (app.socket) app.socket.close();
  app.socket = null;
  if (token) api("POST", "/api/logout", { token }).catch(() => {});
  go("login");
};

app.refreshMe = async () => {
  if (!app.session) return;
  try {
    app.me = await api("GET", "/api/me", { token: app.session.token });
  } catch (error) {
    if (error.code === "bad_token") {
      app.signOut();
      return;
    }
  }
  renderHeader();
  if (currentRoute().name === "lobby" && document.body.dataset.ready) renderLobby(app, document.getElementById("app"));
};

app.send = (message) => {
  const id = app.socket ? app.socket.send(message) : null;
  if (id === null) toast(t("net.offline"));
  return id;
};

app.forgetMatch = () => {
  app.match = null;
  storage.setMatch(null);
};

/** Draw again what shows the state that changed (the header, the match list, the table). */
app.redraw = () => {
  renderHeader();
  if (!app.session || !document.body.dataset.ready) return;
  const route = currentRoute().name;
  const root = document.getElementById("app");
  if (route === "matches") drawMatches(app, root);
  else if (route === "table" && app.table) app.table.view.render();
};

/** Join a room for one hand (`once`): after it the hall lets the player go (`left`) and the
 * next hand is his choice (再来一局); a table that plays on (`regroup: false`) keeps him. */
app.join = (roomId) => app.send({ type: "join", room: roomId, once: true });
/** 再来一局: join the room again; pressed before the hall let the player go from the finished
 * table (refused already_in_room), the join is sent again once it has (`left`). */
app.playAgain = (roomId) => {
  app.again = roomId;
  app.join(roomId);
};
app.leaveQueue = () => app.send({ type: "leave" });
app.route = () => render();
app.routeName = () => currentRoute().name;
app.go = (route) => go(route);
/** The player goes to the lobby (大厅, 去大厅): every panel of the table he leaves closes
 * with it (a result, a scoreboard, a match's notice), none left over the lobby. */
app.toLobby = () => {
  closeDialogs();
  go("lobby");
};

async function start() {
  const [rooms] = await Promise.all([
    api("GET", "/api/rooms").catch(() => []),
    app.refreshMe(),
    learnMine(app), // the avatar he chose (js/social.js)
    matches.loadMatches(app), // a match table's game and title come from the list
  ]);
  await loadRooms(rooms); // each room's game module (js/games/index.js)
  app.rooms = rooms;
  if (!app.session) return;
  connect();
  matches.refreshRun(app);
}

function connect() {
  if (app.socket) app.socket.close();
  app.socket = new HallSocket({
    token: app.session.token,
    last: () => storage.lastNumbers(),
    onFrames,
    onStatus: (status) => {
      app.net = status;
      if (status === "signed-out") app.signOut();
      if (status === "ended") sessionEnded();
      if (status === "open" && app.table) app.table.pending = null; // unanswered before the drop
      if (status === "open") sendWatchChoice(app); // the hall holds it while it holds him
      if (status === "open") joinLinked(app); // opened with /?p=CODE: that table
      renderHeader();
    },
  });
  app.socket.open();
}

/** The notice's text for each cause of an ended session other than a ban (the error's
 * `cause`: server/edge/console.py). */
const ENDED_NOT_BANNED = { password: "auth.passwordReset", deleted: "auth.deleted" };

/** An operator ended the account's sessions (a ban, a password reset, a deletion): the
 * hall closed the socket (4003). The page says so with the ban's reason, signs out and
 * does not connect again. */
function sessionEnded() {
  const { cause, why } = app.ended || { cause: "ban", why: "" };
  const other = ENDED_NOT_BANNED[cause];
  app.socket = null; // stopped already: nothing to close
  app.signOut();
  closeDialogs();
  const title = t(other ? "auth.endedTitle" : "auth.bannedTitle");
  const text = other ? t(other) : t("auth.banned", { why });
  dialog(h("div", {}, h("h2", { text: title }), h("p", { "data-testid": "banned-reason", text })), { testid: other ? "ended-notice" : "banned-notice" });
}

// ------------------------------------------------------------------ frames

function onFrames(frames) {
  const touched = []; // the tables the frames changed, in order (a match moves to the next)
  for (const frame of frames) {
    app.frameCounts[frame.type] = (app.frameCounts[frame.type] || 0) + 1;
    if (frame.type === "welcome") {
      if (app.me) app.me.coins = frame.coins;
    } else if (frame.type === "invite") {
      onInvite(app, frame); // a friend's private table (js/social.js)
    } else if (privateFrame(app, frame)) {
      // a private table's, a spectator's (js/private.js)
    } else if (frame.type === "queued") {
      app.queued = frame.room;
      app.again = null;
    } else if (frame.type === "left") {
      app.queued = null;
      app.leaving = false;
      leftPrivate(app, frame);
      if (app.rejoin) app.join(app.rejoin); // 换桌: out of the old table, into the queue
      app.rejoin = null;
    } else if (frame.type === "leaving") {
      app.leaving = true;
    } else if (frame.type === "pong") {
      // nothing
    } else if (frame.type === "match_started") {
      matches.onStarted(app, frame);
    } else if (frame.type === "match_update") {
      matches.onUpdate(app, frame);
    } else if (frame.type === "match_advanced") {
      matches.onAdvanced(app, frame);
    } else if (frame.type === "match_eliminated") {
      matches.onEliminated(app, frame);
    } else if (frame.type === "match_over") {
      matches.onOver(app, frame);
    } else if (frame.type === "match_cancelled") {
      matches.onCancelled(app, frame);
    } else if (frame.type === "error" && frame.code === "session_ended") {
      app.ended = { cause: frame.cause || "ban", why: frame.message || "" }; // shown once closed
    } else if (frame.type === "error" && againTooSoon(frame)) {
      // nothing to say: joined once the hall lets the player go
    } else {
      const table = tableFor(frame);
      if (table) {
        table.apply(frame);
        if (!touched.includes(table)) touched.push(table);
      } else if (frame.type === "error") {
        toast(app.errorText(frame.code));
      } else if (frame.type === "hand_voided") {
        toast(t(frame.reason === "restart" ? "table.voidedRestart" : "table.voided"));
      }
    }
  }
  for (const table of touched) table.settle();
  matches.flushNotices(app); // a hand over: the notices it kept open now
  renderHeader();
  renderQueue();
  const route = currentRoute().name;
  if (route === "lobby" && app.session) renderLobby(app, document.getElementById("app"));
  else if (route === "matches" && app.session) drawMatches(app, document.getElementById("app"));
  else if (route === "private" && app.session) renderPrivate(app, document.getElementById("app"));
  else if (route === "table" && app.table && !touched.includes(app.table)) app.table.view.render(); // the match panel
}

/** Whether the error `frame` refused a 再来一局 sent before the hall let the player go from his
 * finished table: then the join waits for `left`, as 换桌's does. Any error ends the wait for
 * the join's answer. */
function againTooSoon(frame) {
  const room = app.again;
  app.again = null;
  if (room === null || frame.code !== "already_in_room") return false;
  app.rejoin = room;
  return true;
}

function tableFor(frame) {
  if (frame.table === undefined) return app.table; // ack, error
  if (app.table && app.table.number === frame.table && !app.table.watchEnded) return app.table;
  if (app.unwatched.has(frame.table) && (frame.type !== "snapshot" || lateWatch(frame))) return null; // watched no more
  if (frame.type === "snapshot") return openTable(frame.table, null, frame.room);
  const saved = storage.loadTable(frame.table);
  if (saved) return openTable(frame.table, saved);
  if (frame.type === "hand_voided") return null; // a hand we never saw: a note says so
  app.send({ type: "resync" }); // frames of a table we know nothing of: ask for its view
  return null;
}

/** A spectator's snapshot (no seat) of a table he watches no more: a late answer (to a
 * resync asked before the watch ended), not a table to open again, which would take him
 * back from where he went; unless he follows a player by name (who may sit there again).
 * A new watch forgets the tables watched before (private.js `watch`). */
function lateWatch(snapshot) {
  return snapshot.seat === null && !app.watchingName;
}

function openTable(number, saved, room = null) {
  const before = app.table;
  if (before) before.unmount();
  app.table = new Table(app, number, saved);
  // the next table of the same match: the match's scores go on, and the last hand's result
  // stays open until the player has something to do here
  if (before && before.state && room !== null && before.state.room === room && before.isMatch) {
    app.table.carryFrom(before);
  }
  app.queued = null;
  go("table");
  return app.table;
}

// ------------------------------------------------------------------ routes

function currentRoute() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [name, ...rest] = hash.split("/");
  return { name: name || "lobby", arg: rest.join("/") };
}

function go(name) {
  const target = `#/${name}`;
  if (location.hash !== target) location.hash = target;
  else render();
}

function render() {
  const root = document.getElementById("app");
  const route = currentRoute();
  renderHeader();
  if (app.leaveView) app.leaveView(); // the page shown before (a replay) lets go of what it holds
  app.leaveView = null;
  if (app.table && !(route.name === "table" && app.session)) app.table.unmount();
  if (!app.session) {
    renderAuth(app, root);
    const invite = inviteNote(app);
    if (invite) root.firstElementChild.prepend(invite);
    return;
  }
  if (route.name === "table" && app.table) app.table.mount(root);
  else if (route.name === "history") import("./views/history.js").then((m) => m.renderHistory(app, root));
  else if (route.name === "replay") import("./views/replay.js").then((m) => m.renderReplay(app, root, route.arg));
  else if (route.name === "leaders") import("./views/leaders.js").then((m) => m.renderLeaders(app, root));
  else if (route.name === "friends") import("./views/social.js").then((m) => m.renderSocial(app, root));
  else if (route.name === "matches") renderMatches(app, root);
  else if (route.name === "private") renderPrivate(app, root);
  else renderLobby(app, root);
  renderQueue();
  matches.flushNotices(app); // no hand shown: nothing to keep them for
}

function renderQueue() {
  const overlay = document.getElementById("queue-layer");
  if (overlay) overlay.remove();
  if (!app.queued || !app.session) return;
  document.body.append(queueOverlay(app));
}

function renderHeader() {
  document.title = t("app.pageTitle");
  const top = document.getElementById("top");
  const route = currentRoute().name;
  const tab = (name, key) =>
    h("a", { href: `#/${name}`, class: route === name ? "on" : "", "data-testid": `nav-${name}`, onclick: name === "lobby" ? closeDialogs : null }, t(key));
  const me = app.me;
  const changed = fillChanged(
    top,
    h("div", { class: "brand" }, icon("logo"), h("span", { text: t("app.title") })),
    app.session
      ? h(
          "nav",
          { class: "tabs" },
          tab("lobby", "nav.lobby"),
          matchTab(route),
          app.table ? tab("table", "nav.table") : null,
          tab("history", "nav.history"),
          tab("leaders", "nav.leaders"),
        )
      : null,
    h("div", { class: "spacer" }),
    me
      ? h(
          "div",
          { class: "userchip" },
          h("span", { class: `netdot ${app.net === "open" ? "on" : app.net === "connecting" ? "wait" : ""}`, title: t(`net.${app.net}`), "data-testid": "net", "data-status": app.net }),
          h("span", { "data-testid": "me-name", text: playerName(me.name) }),
          h("span", { class: "coins", "data-testid": "me-coins" }, icon("coin", "coin-icon"), String(me.coins)),
          h("span", { class: "title", "data-testid": "me-title", text: levelTitle(me.level.title) }),
        )
      : null,
    app.session ? soundToggle() : null,
    langButton(render),
    app.session
      ? h("button", { class: "btn small quiet", "data-testid": "sign-out", onclick: () => app.signOut(), text: t("auth.signout") })
      : null,
  );
  if (!changed) return; // the same header: its nav keeps its scroll and its fade
  const nav = top.querySelector("nav.tabs");
  if (nav) requestAnimationFrame(() => fitTabs(nav));
}

/** Tabs wider than the header (a phone, English): the nav scrolls sideways, its open end
 * fades (`data-more`: more tabs that way) and the tab shown is scrolled into view. */
function fitTabs(nav) {
  const mark = () => {
    const hidden = nav.scrollWidth - nav.clientWidth - nav.scrollLeft;
    nav.dataset.more = hidden > 1 ? (nav.scrollLeft > 1 ? "both" : "end") : nav.scrollLeft > 1 ? "start" : "";
  };
  const on = nav.querySelector("a.on");
  if (on && on.offsetLeft + on.offsetWidth > nav.scrollLeft + nav.clientWidth) nav.scrollLeft = on.offsetLeft + on.offsetWidth - nav.clientWidth + 24;
  nav.addEventListener("scroll", mark, { passive: true });
  mark();
}

/** 比赛, with a dot while the player is registered or plays a match. */
function matchTab(route) {
  const busy = matches.registration(app) || (app.match && app.match.state === "playing");
  return h(
    "a",
    { href: "#/matches", class: route === "matches" ? "on" : "", "data-testid": "nav-matches", "data-busy": busy ? "1" : "0" },
    t("nav.matches"),
    busy ? h("span", { class: "dot" }) : null,
  );
}

function levelTitle(title) {
  return lang() === "zh" ? title : t(`level.${title}`);
}
app.levelTitle = levelTitle;

// ------------------------------------------------------------------ boot

async function boot() {
  takeLinkCode(app);
  window.addEventListener("hashchange", render);
  if (app.session) {
    await start();
    if (!app.session) return; // the token was refused
  }
  render();
  document.body.dataset.ready = "1";
  window.qipai.readyAt = performance.now();
}

window.qipai = { app, onFrames, readyAt: null };
boot();
