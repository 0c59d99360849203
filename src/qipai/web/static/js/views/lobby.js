// The lobby 大厅: 快速开始 (quick start), 好友房 (views/friends.js), the player's coins, title
// and wins, and every room with its numbers, each game's rooms by stake level 场次, each with
// its people and bots online; the hall's own counts above them (在线 N 人 · 机器人 M).

import { api } from "../api.js";
import { h, fill, icon, toast } from "../dom.js";
import { playerName, roomTitle, t } from "../i18n.js";
import { avatarEl } from "../avatar.js";
import { socialButton } from "../social.js";
import { gameNames } from "../games/index.js";
import { friendsPanel } from "./friends.js";
import { welfarePanel } from "./welfare.js";
import { byLevel, leastMinimum, LEVELS, quickPick, SHARE } from "../stakes.js";
import { openRules, roomNumbers } from "../rules.js";

/** How often the open lobby asks for the players in each room (GET /api/rooms/online). */
const ONLINE_EVERY_MS = 10_000;

let online = { people: null, bots: null, rooms: {} }; // GET /api/rooms/online, as last fetched
let poller = null; // the interval fetching them while the lobby is shown
let quickGame = null; // the game chosen for quick start (the first game until one is chosen)


function levelOf(room) {
  return room.level ?? LEVELS[0];
}

/** The 场次 tag of a room: 积分场 where its hands move no coin. */
function levelTag(room) {
  const level = levelOf(room);
  const text = room.points_only ? t("stake.points") : t(`stake.${level}`);
  return h("span", { class: `tag level ${level}`, "data-testid": "level", "data-points": room.points_only ? "1" : "", text });
}

/** The answer of GET /api/rooms/online: {people, bots, rooms: {id: {people, bots}}}; an
 * older hall's {id: players} reads as people, the bots unknown (null). */
function readOnline(answer) {
  if (answer && typeof answer.rooms === "object" && answer.rooms !== null) return answer;
  const rooms = {};
  let people = 0;
  for (const [id, count] of Object.entries(answer || {})) {
    if (!Number.isInteger(count)) continue;
    rooms[id] = { people: count, bots: null };
    people += count;
  }
  return { people, bots: null, rooms };
}

/** 在线 N 人 · 机器人 M (在线 N 人 while the bots are unknown), or "" while nothing is known. */
function countsText(key, people, bots) {
  if (!Number.isInteger(people)) return "";
  return Number.isInteger(bots) ? t(key, { people, bots }) : t("lobby.online", { n: people });
}

/** The people and bots in a room now (empty until known: this process may not hold the room). */
function onlineBadge(room) {
  const count = online.rooms[room.id] || {};
  return h("span", {
    class: "online",
    "data-testid": "online",
    "data-count": Number.isInteger(count.people) ? String(count.people) : "",
    "data-bots": Number.isInteger(count.bots) ? String(count.bots) : "",
    text: countsText("lobby.onlineRoom", count.people, count.bots),
  });
}

/** 在线 N 人 · 机器人 M: the whole hall's (empty until known). */
function onlineTotal() {
  return h("div", {
    class: "online-total",
    "data-testid": "online-total",
    "data-people": Number.isInteger(online.people) ? String(online.people) : "",
    "data-bots": Number.isInteger(online.bots) ? String(online.bots) : "",
    text: countsText("lobby.onlineAll", online.people, online.bots),
  });
}

function roomCard(app, room) {
  const coins = app.me ? app.me.coins : 0;
  const poor = coins < room.min_coins;
  return h(
    "div",
    { class: "room", "data-testid": "room", "data-game": room.game, "data-rules": room.rules, "data-room": room.id, "data-level": levelOf(room) },
    h("div", { class: "head" }, levelTag(room), onlineBadge(room)),
    h("div", { class: "name", text: roomTitle(room) }),
    h("div", { class: "preset", text: `${t(`game.${room.game}`)} · ${t(`rules.${room.rules}`)}` }),
    h("dl", {}, roomNumbers(room).map(([key, value]) => [h("dt", { text: key }), h("dd", { text: value })])),
    h("div", { class: "rules", text: t(`rules.desc.${room.game}.${room.rules}`) }),
    h(
      "div",
      { class: "room-actions" },
      h("button", { class: "btn quiet small", "data-testid": "room-rules", onclick: () => openRules(room), text: t("room.rules") }),
      h("button", {
        class: "btn primary",
        "data-testid": "join",
        disabled: poor || Boolean(app.queued),
        title: poor ? t("error.not_enough_coins") : "",
        onclick: () => app.join(room.id),
        text: poor ? t("room.tooPoor") : t("room.join"),
      }),
    ),
  );
}

function profile(app) {
  const me = app.me;
  if (!me) return null;
  const next = me.level.next_wins;
  return h(
    "div",
    { class: "profile panel", "data-testid": "profile" },
    avatarEl(me.name),
    h("div", { class: "stat" }, h("b", { text: playerName(me.name) }), h("span", { text: t("lobby.player") })),
    h("div", { class: "stat" }, h("b", { "data-testid": "profile-coins" }, icon("coin", "coin-icon"), ` ${me.coins}`), h("span", { text: t("lobby.coins") })),
    h("div", { class: "stat" }, h("b", { "data-testid": "profile-title", text: app.levelTitle(me.level.title) }), h("span", { text: next ? t("lobby.nextTitle", { n: next - me.wins }) : t("lobby.topTitle") })),
    h("div", { class: "stat" }, h("b", { "data-testid": "me-wins", text: String(me.wins) }), h("span", { text: t("lobby.wins") })),
    h("div", { class: "stat" }, h("b", { text: String(me.hands) }), h("span", { text: t("lobby.hands") })),
    h("div", { class: "stat" }, h("b", { text: String(me.points) }), h("span", { text: t("lobby.points") })),
    socialButton(app), // js/social.js: #/friends
  );
}

/** 快速开始: the game to play (one button each), and the button that joins the room
 * quickPick chooses for the player's coins (it names the room's game and level). */
function quickStart(app, redraw) {
  const games = gameNames().filter((game) => app.rooms.some((room) => room.game === game));
  if (!games.length) return null;
  const game = games.includes(quickGame) ? quickGame : games[0];
  const room = quickPick(app.rooms, game, app.me ? app.me.coins : 0);
  const choose = (name) => () => {
    quickGame = name;
    redraw();
  };
  return h(
    "div",
    { class: "quick panel", "data-testid": "quick" },
    h(
      "div",
      { class: "quick-games", role: "group", "aria-label": t("lobby.quickGame") },
      games.map((name) =>
        h("button", { class: `btn small ${name === game ? "on" : "quiet"}`, "data-testid": "quick-game", "data-game": name, "aria-pressed": String(name === game), onclick: choose(name), text: t(`game.${name}`) }),
      ),
    ),
    h("div", { class: "quick-hint muted", text: t("lobby.quickHint", { n: SHARE }) }),
    h(
      "button",
      { class: "btn primary quick-start", "data-testid": "quick-start", "data-game": game, "data-room": room ? room.id : "", disabled: Boolean(app.queued), onclick: () => quickJoin(app, game) },
      h("b", { text: t("lobby.quickStart") }),
      h("span", { class: "quick-room", text: room ? `${t(`game.${game}`)} · ${t(room.points_only ? "stake.points" : `stake.${levelOf(room)}`)}` : t("room.tooPoor") }),
    ),
  );
}

/** Join the room quick start picks now, or say why there is none (a toast). */
function quickJoin(app, game) {
  const room = quickPick(app.rooms, game, app.me ? app.me.coins : 0);
  if (room) app.join(room.id);
  else toast(t("lobby.quickNone", { game: t(`game.${game}`), n: leastMinimum(app.rooms, game) }));
}

/** Fetch the players online now and then while the lobby is shown; stop once it is not. */
function watchOnline() {
  if (poller !== null) return;
  poller = setInterval(fetchOnline, ONLINE_EVERY_MS);
  fetchOnline();
}

async function fetchOnline() {
  if (!document.querySelector("[data-testid=lobby]")) {
    clearInterval(poller);
    poller = null;
    return;
  }
  if (document.hidden) return;
  try {
    online = readOnline(await api("GET", "/api/rooms/online"));
  } catch {
    return; // the last counts stay until the next try
  }
  const total = document.querySelector("[data-testid=online-total]");
  if (total) total.replaceWith(onlineTotal());
  for (const card of document.querySelectorAll("[data-testid=room]")) {
    const room = { id: card.dataset.room };
    card.querySelector("[data-testid=online]").replaceWith(onlineBadge(room));
  }
}

export function renderLobby(app, root) {
  const groups = gameNames().map((game) => {
    const rooms = byLevel(app.rooms.filter((room) => room.game === game));
    if (!rooms.length) return null;
    return h(
      "section",
      { class: "game-group" },
      h("h3", {}, t(`game.${game}`), h("span", { class: "muted", style: { fontSize: "13px", fontWeight: 400 }, text: t(`game.about.${game}`) })),
      h("div", { class: "rooms" }, rooms.map((room) => roomCard(app, room))),
    );
  });
  let back = app.table && app.table.state && !app.table.state.over
    ? h("div", { class: "panel", style: { marginBottom: "12px" } }, app.table.spectating ? t("spectate.banner") : t("lobby.atTable"), " ", h("button", { class: "btn primary small", "data-testid": "back-to-table", onclick: () => app.go("table"), text: t("nav.table") }))
    : null;
  if (!back && app.private) {
    back = h("div", { class: "panel", style: { marginBottom: "12px" } }, t("private.atTable", { code: app.private.code }), " ", h("button", { class: "btn primary small", "data-testid": "back-to-private", onclick: () => app.go("private"), text: t("private.title") }));
  }
  const quick = quickStart(app, () => renderLobby(app, root));
  const focused = document.activeElement; // an input of the 好友房 panel keeps the focus
  fill(root, h("div", { class: "page", "data-testid": "lobby" }, back, onlineTotal(), quick, friendsPanel(app), welfarePanel(app), profile(app), h("div", { class: "games" }, groups)));
  if (focused && focused.isConnected && focused !== document.activeElement && focused.tagName === "INPUT") focused.focus();
  watchOnline();
}

/** The "looking for a table" layer while queued in a room. */
export function queueOverlay(app) {
  const room = app.rooms.find((r) => r.id === app.queued);
  return h(
    "div",
    { class: "overlay", id: "queue-layer" },
    h(
      "div",
      { class: "dialog queued", "data-testid": "queued" },
      h("div", { class: "spinner" }),
      h("h2", { style: { justifyContent: "center" }, text: t("lobby.matching") }),
      h("p", { class: "muted", text: room ? roomTitle(room) : app.queued }),
      h("div", { class: "buttons", style: { justifyContent: "center" } }, h("button", { class: "btn", "data-testid": "cancel-queue", onclick: () => app.leaveQueue(), text: t("common.cancel") })),
    ),
  );
}
