// 好友房 (private tables) and 观战 (spectating) on the page: the messages sent (each with
// an id the hall answers with ack or error), the frames taken in (`private_table`,
// `scoreboard`, `spectator_count`, `spectate_ended`, and the errors of those messages:
// `table_full` offers to watch), the link `/?p=<code>`, the scoreboard dialog, the strips the table page shows
// at a private table and while watching one, and the player's 按名字观战 choice
// (`watch_by_name`) (docs/web.md, "Private tables").
//
// A private table's live tables are in the room `private:<id>` (an opaque id, never its
// code): the page keeps what it learns of each table by that room id, from its
// `private_table` frames (which the hall sends a spectator before the snapshot).

import { api } from "./api.js";
import { dialog, h, signClass, signed, toast } from "./dom.js";
import { addStrings, playerName, t } from "./i18n.js";
import { gameNamed, roomGame } from "./games/index.js";
import { confirm } from "./panels.js";
import { PRIVATE_STRINGS } from "./privatestrings.js";
import { storage } from "./storage.js";

addStrings(PRIVATE_STRINGS);

const ROOM_PREFIX = "private:";
const CODE = /^\d{6}$/;

/** Whether `code` is a private table's code (6 digits). */
export const isCode = (code) => CODE.test(String(code || "").trim());

/** Whether `roomId` is a private table's room (`private:<id>`). */
export function isPrivateRoom(roomId) {
  return typeof roomId === "string" && roomId.startsWith(ROOM_PREFIX);
}

/** The absolute link that opens a table's code on this hall: `<origin>/?p=<code>`. */
export function linkOf(code) {
  return `${location.origin}/?p=${code}`;
}

/** Send one of the private tables' messages; its id is kept so that its ack or error is
 * answered here (null when offline). */
export function ask(app, message) {
  const id = app.send(message);
  if (id) app.asks.set(id, message);
  return id;
}

export const joinCode = (app, code) => ask(app, { type: "private_join", code: String(code).trim() });

/** Watch a table: {code} (a private table's) or {player} (the table a player sits at).
 * The table's game is learnt first where a code names it.  A private table waiting for
 * its next hand is watched all the same: the player is told so and stays where he is;
 * the hall sends its snapshot (`seat` null) when a hand is dealt there. */
export async function watch(app, target) {
  const info = target.code ? await learn(app, target.code) : null;
  if (info && info.state === "waiting") toast(t("spectate.waiting"));
  app.watchingName = target.player || null; // drawn at the bottom, followed from table to table
  app.unwatched.clear(); // a table watched before may be watched again: its snapshot opens it
  ask(app, { type: "spectate", ...target });
}

/** 退出观战: the hall stops the frames; the page goes back to the lobby at once. A watch
 * that ended already (the table closed, the player followed left) has nothing to stop. */
export function stopWatching(app) {
  const over = app.table && ENDED.has(app.table.watchEnded);
  if (!over) ask(app, { type: "stop_spectating" });
  leaveWatched(app);
  app.watchingName = null;
  app.go("lobby");
}

/** The `spectate_ended` reasons after which the table stays on the page, its end shown:
 * nothing more comes of it (`following`: the snapshot of the player's next table may). */
const ENDED = new Set(["table_closed", "player_left"]);

/** GET /api/private/{code}: the table of a code (its state, before watching it); null
 * when refused. */
export async function learn(app, code) {
  try {
    return await api("GET", `/api/private/${code}`);
  } catch {
    return null;
  }
}

/** The game module of a private table's room id, or null while the page does not know it. */
export function privateGame(app, roomId) {
  const known = app.privates[roomId];
  return known ? gameNamed(known.game) : null;
}

/** The room a private table is made from, as the table page reads a room: the hall's room
 * of its game and rules, with the table's code (its people's: a spectator has none),
 * seconds, and `regroup: false` (it plays on). */
export function privateRoomInfo(app, roomId) {
  const known = app.privates[roomId];
  if (!known) return null;
  const template = app.rooms.find((room) => room.game === known.game && room.rules === known.rules && roomGame(room));
  const seconds = known.seconds || (template && template.decision_seconds) || 20;
  const name = known.code ? `${t("private.title")} ${known.code}` : t("private.title");
  return { ...(template || {}), id: roomId, name, level: null, regroup: false, decision_seconds: seconds };
}

/** Send the player's 按名字观战 choice kept on this page (after each welcome: the hall
 * holds it while it holds him). */
export function sendWatchChoice(app) {
  const allow = app.me ? storage.watchByName(app.me.id) : null;
  if (allow !== null) ask(app, { type: "watch_by_name", allow });
}

/** Keep and send the player's choice: true, false, or null (the hall's default). */
export function setWatchChoice(app, allow) {
  if (!app.me) return;
  storage.setWatchByName(app.me.id, allow);
  ask(app, { type: "watch_by_name", allow });
}

// ------------------------------------------------------------------ frames

/** Take a frame of private tables or spectating; true when it was one (main.js). */
export function privateFrame(app, frame) {
  if (frame.type === "private_table") onTable(app, frame);
  else if (frame.type === "scoreboard") onScoreboard(app, frame);
  else if (frame.type === "spectator_count") app.watchers = { table: frame.table, count: frame.count };
  else if (frame.type === "spectate_ended") onWatchEnded(app, frame);
  else if ((frame.type === "ack" || frame.type === "error") && app.asks.has(frame.id)) onAnswer(app, frame);
  else if (frame.type === "error" && frame.code === "table_full") offerWatch(app, frame, null);
  else return false;
  return true;
}

/** A private table's frame: to its players (`you`: the seat) and its spectators (`you`
 * null: only its game and rules are kept); a player's table closed, or he is no longer
 * seated there (removed, left). */
function onTable(app, frame) {
  app.privates[frame.room] = { game: frame.game, rules: frame.rules, seconds: frame.seconds, code: frame.code || null };
  const mine = app.private && app.private.room === frame.room;
  if (frame.you === null || frame.you === undefined || frame.state === "closed") {
    if (!mine) return; // a spectator's
    toast(t(frame.state === "closed" ? "private.closed" : "private.removed"));
    app.private = null;
    if (app.routeName() === "private") app.go("lobby");
    return;
  }
  const first = !app.private || app.private.room !== frame.room;
  app.private = frame;
  const atTable = app.table && app.table.state && frame.table !== null && app.table.number === frame.table && !app.table.spectating;
  // its page: when the player comes to it, and when it waits again, unless he is at its
  // live table (a reconnection may bring the snapshot first)
  if ((first || frame.state === "waiting") && !atTable && app.routeName() !== "private") app.go("private");
}

/** A scoreboard opens when it is new to this tab: a reload (or a reconnection) brings the
 * last one again, which stays shut if the player saw it (the strip's 战绩 opens it). */
function onScoreboard(app, frame) {
  app.scoreboard = frame;
  const last = frame.rows[frame.rows.length - 1];
  const which = `${last ? last.hand : ""}:${frame.over ? 1 : 0}`;
  if (storage.boardSeen(frame.code) === which) return;
  storage.setBoardSeen(frame.code, which);
  if (app.closeScoreboard) app.closeScoreboard();
  app.closeScoreboard = scoreboardDialog(app, frame);
}

/** `left`: out of the private table too (he left, or its owner removed him: `kicked`). */
export function leftPrivate(app, frame) {
  if (!app.private) return;
  if (frame.reason === "kicked") toast(t("private.kicked"));
  app.private = null;
  if (app.routeName() === "private") app.go("lobby");
}

/** `spectate_ended`: the watched table closed, or the player it followed left: the table
 * stays on the page with its end (the last play, every hand, the result) and the strip
 * says so (its button goes to the lobby); `following`: the same, waiting for the player's
 * next table (its snapshot replaces this one); the player went elsewhere (`moved`: the new
 * place's frames come) or stopped (done already). */
function onWatchEnded(app, frame) {
  if (frame.table === null) { // he waited for a private table's next hand
    if (frame.reason === "table_closed") toast(t("spectate.ended"));
    return;
  }
  const table = app.table;
  if (!table || table.number !== frame.table || !table.spectating) return;
  if (frame.reason === "following" || ENDED.has(frame.reason)) {
    table.watchEnded = frame.reason;
    app.unwatched.add(table.number); // its late frames, if any, are dropped
    if (frame.reason === "player_left") toast(t("spectate.playerLeft", { name: app.watchingName || "" }));
    else if (frame.reason === "table_closed") toast(t("spectate.ended"));
    if (table.view) table.view.render();
    return;
  }
  leaveWatched(app);
  if (frame.reason !== "moved" && app.routeName() === "table") app.go("lobby");
}

/** Let go of the table watched: the frames of it still on their way are dropped (main.js). */
function leaveWatched(app) {
  if (app.table) {
    app.unwatched.add(app.table.number);
    app.table.unmount();
  }
  app.table = null;
  app.watchers = null;
}

function onAnswer(app, frame) {
  const message = app.asks.get(frame.id);
  app.asks.delete(frame.id);
  if (frame.type === "ack") return;
  if (frame.code === "table_full" && frame.watch) offerWatch(app, frame, message.code);
  else if (frame.code === "bad_private") toast(t("error.bad_private", { message: frame.message || "" }));
  else toast(app.errorText(frame.code));
}

/** A full table that may be watched: 观战? */
function offerWatch(app, frame, code) {
  if (!frame.watch || !code) {
    toast(app.errorText(frame.code));
    return;
  }
  confirm(t("private.watchOffer"), () => watch(app, { code }), "watch-offer");
}

// ------------------------------------------------------------------ the link

/** Keep the code of a link `/?p=<code>` the page was opened with: joined once the hall
 * has welcomed the player (`joinLinked`). */
export function takeLinkCode(app) {
  const code = new URLSearchParams(location.search).get("p");
  app.linkCode = isCode(code) ? code : null;
}

/** Join the table of the link, once: the link leaves the address bar. */
export function joinLinked(app) {
  const code = app.linkCode;
  if (!code) return;
  app.linkCode = null;
  history.replaceState(null, "", `${location.pathname}${location.hash}`);
  joinCode(app, code);
}

/** The sign-in page's line about the table the link will join. */
export function inviteNote(app) {
  if (!app.linkCode) return null;
  return h("div", { class: "panel invite", "data-testid": "private-invite", text: t("private.invite", { code: app.linkCode }) });
}

// ------------------------------------------------------------------ scoreboard

/** 战绩: every hand's points per player, and the totals; after the last hand (over) the
 * table has closed. */
export function scoreboardDialog(app, board) {
  const head = h("tr", {}, h("th", { text: t("private.hand") }), board.names.map((name) => h("th", { class: "num", text: playerName(name) })));
  const rows = board.rows.map((row) =>
    h("tr", { "data-testid": "scoreboard-row", "data-hand": row.hand }, h("td", { text: String(row.number) }), row.points.map((p) => h("td", { class: signClass(p), text: signed(p) }))),
  );
  const totals = h("tr", { class: "total", "data-testid": "scoreboard-total" }, h("th", { text: t("private.total") }), board.totals.map((p) => h("th", { class: signClass(p), text: signed(p) })));
  let close = null;
  // after the last hand 大厅 goes to the lobby, unless the player sits at another table in
  // a hand meanwhile (the board's own table is over, whatever its page state says: a
  // snapshot asked for while it closed may have come without its last hand); a spectator
  // sits nowhere: he leaves the table he watched, whose late frames (a delayed table's last
  // hand) are dropped, not shown over the lobby
  const elsewhere = () => {
    const T = app.table;
    return Boolean(T && T.state && !T.state.over && !T.spectating && T.number !== board.table);
  };
  const done = () => {
    close();
    if (!board.over || elsewhere()) return;
    if (app.table && app.table.spectating) leaveWatched(app);
    app.toLobby();
  };
  close = dialog(
    [
      h("h2", { text: `${t(board.over ? "private.scoreboardOver" : "private.scoreboard")}${board.code ? ` · ${board.code}` : ""}` }),
      h("div", { class: "scroll-x" }, h("table", { class: "grid scoreboard" }, h("thead", {}, head), h("tbody", {}, rows, totals))),
      h("div", { class: "buttons" }, h("button", { class: "btn primary", "data-testid": "scoreboard-close", onclick: done, text: t(board.over ? "nav.lobby" : "common.close") })),
    ],
    // above the hand's result panel, which opens after it (once the hand's last effects have played)
    { testid: "scoreboard", notice: true, attrs: { "data-over": board.over ? "1" : "0", "data-code": board.code || "" }, onClose: () => { app.closeScoreboard = null; } },
  );
  return close;
}

// ------------------------------------------------------------------ strips

/** The number watching a table: `spectator-count`. */
export function watcherCount(app, table) {
  const known = app.watchers && (table === null || app.watchers.table === table || table === undefined);
  const count = known ? app.watchers.count : 0;
  return h("span", { class: "pill watchers", "data-testid": "spectator-count", "data-count": String(count), title: t("private.watching", { n: count }), text: String(count) });
}

/** 已打 played/total 局 (or 已打 N 局 without a limit). */
export function handsText(info) {
  return info.hands ? t("private.played", { played: info.played, total: info.hands }) : t("private.playedOpen", { played: info.played });
}

/** A private table's strip on the table page: its code, the hands, the watchers, its
 * scoreboard and (the owner's) 关闭; once closed during the hand (`closing`), 本局结束后关闭. */
export function privateStrip(app, T) {
  const info = app.private;
  if (!info || info.room !== T.state.room) return null;
  const code = info.code;
  return h(
    "div",
    { class: "match-strip private-strip", "data-testid": "private-strip" },
    h("span", { class: "pill gold" }, `${t("private.code")} `, h("b", { "data-testid": "private-code", "data-link": linkOf(code), text: code })),
    h("span", { class: "pill", "data-testid": "private-hands", text: handsText(info) }),
    h("span", { class: "pill" }, `${t("private.watchers")} `, watcherCount(app, T.number)),
    app.scoreboard && app.scoreboard.code === code
      ? h("button", { class: "btn small quiet", "data-testid": "scoreboard-open", onclick: () => scoreboardDialog(app, app.scoreboard), text: t("private.scoreboard") })
      : null,
    info.state === "waiting" ? readyButton(app, info) : null,
    // closed by its owner during this hand: everyone is told at once
    info.closing ? h("span", { class: "pill warn", "data-testid": "private-closing", text: t("private.closing") }) : null,
    info.owner === info.you && !info.closing ? closeButton(app) : null,
  );
}

/** 观战中: the banner of a spectator's table page, the watchers and 退出观战. */
export function spectatorStrip(app, T) {
  const ended = T.watchEnded || null;
  const name = app.watchingName || "";
  const note = ended ? t(`spectate.${ended}`, { name }) : null;
  return h(
    "div",
    { class: "match-strip spectating", "data-testid": "spectating", "data-ended": ended || "" },
    h("b", { class: "spectating-title", text: t("spectate.banner") }),
    name ? h("span", { class: "pill", "data-testid": "watching-name", text: name }) : null,
    ended ? null : h("span", { class: "pill" }, `${t("private.watchers")} `, watcherCount(app, T.number)),
    note ? h("span", { class: "pill warn watch-ended", "data-testid": "watch-ended", text: note }) : null,
    h("div", { class: "spacer" }),
    h("button", {
      class: "btn small primary",
      "data-testid": "stop-spectating",
      onclick: () => stopWatching(app),
      text: t(ENDED.has(ended) ? "spectate.toLobby" : "spectate.stop"),
    }),
  );
}

/** 准备 / 取消准备: `ready`. */
export function readyButton(app, info) {
  const seat = info.seats[info.you];
  const ready = Boolean(seat && seat.ready);
  return h("button", {
    class: `btn ${ready ? "quiet" : "primary"}`,
    "data-testid": "ready",
    "data-ready": ready ? "1" : "0",
    onclick: () => ask(app, { type: "ready", ready: !ready }),
    text: t(ready ? "private.unready" : "private.ready"),
  });
}

/** 关闭 (the owner's): `private_close`, once confirmed. */
export function closeButton(app, small = true) {
  return h("button", {
    class: `btn warn ${small ? "small" : ""}`,
    "data-testid": "private-close",
    onclick: () => confirm(t("private.closeAsk"), () => ask(app, { type: "private_close" }), "private-close-ask"),
    text: t("private.close"),
  });
}
