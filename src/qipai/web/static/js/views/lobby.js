// The lobby 大厅: the player's coins, title and wins, and every room with its numbers.

import { h, fill, icon } from "../dom.js";
import { t } from "../i18n.js";
import { GAME_NAMES } from "../games/index.js";


function numbers(room) {
  const rows = [];
  const add = (key, value) => {
    if (value !== null && value !== undefined && value !== 0) rows.push([t(key), String(value)]);
  };
  if (room.game === "doudizhu") {
    add("room.coefficient", room.coefficient);
  } else {
    add("room.base", room.base);
    add("room.ante", room.ante);
    add("room.topBet", room.top_bet);
    add("room.cap", room.cap);
  }
  add("room.minCoins", room.min_coins);
  if (room.rake_percent) rows.push([t("room.rake"), `${room.rake_percent}%`]);
  add("room.fee", room.fee);
  rows.push([t("room.seats"), String(room.seats)]);
  rows.push([t("room.time"), t("room.seconds", { n: room.decision_seconds })]);
  rows.push([t("room.bots"), room.bots ? t("common.yes") : t("common.no")]);
  return rows;
}

function roomCard(app, room) {
  const coins = app.me ? app.me.coins : 0;
  const poor = coins < room.min_coins;
  return h(
    "div",
    { class: "room", "data-testid": "room", "data-game": room.game, "data-rules": room.rules, "data-room": room.id },
    h("div", { class: "name", text: room.name }),
    h("div", { class: "preset", text: `${t(`game.${room.game}`)} · ${t(`rules.${room.rules}`)}` }),
    h("dl", {}, numbers(room).map(([key, value]) => [h("dt", { text: key }), h("dd", { text: value })])),
    h("div", { class: "rules", text: t(`rules.desc.${room.game}.${room.rules}`) }),
    h("button", {
      class: "btn primary",
      "data-testid": "join",
      disabled: poor || Boolean(app.queued),
      title: poor ? t("error.not_enough_coins") : "",
      onclick: () => app.join(room.id),
      text: poor ? t("room.tooPoor") : t("room.join"),
    }),
  );
}

function profile(app) {
  const me = app.me;
  if (!me) return null;
  const next = me.level.next_wins;
  return h(
    "div",
    { class: "profile panel", "data-testid": "profile" },
    h("div", { class: "avatar", text: me.name.slice(0, 1) }),
    h("div", { class: "stat" }, h("b", { text: me.name }), h("span", { text: t("lobby.player") })),
    h("div", { class: "stat" }, h("b", { "data-testid": "profile-coins" }, icon("coin", "coin-icon"), ` ${me.coins}`), h("span", { text: t("lobby.coins") })),
    h("div", { class: "stat" }, h("b", { "data-testid": "profile-title", text: app.levelTitle(me.level.title) }), h("span", { text: next ? t("lobby.nextTitle", { n: next - me.wins }) : t("lobby.topTitle") })),
    h("div", { class: "stat" }, h("b", { "data-testid": "me-wins", text: String(me.wins) }), h("span", { text: t("lobby.wins") })),
    h("div", { class: "stat" }, h("b", { text: String(me.hands) }), h("span", { text: t("lobby.hands") })),
    h("div", { class: "stat" }, h("b", { text: String(me.points) }), h("span", { text: t("lobby.points") })),
  );
}

export function renderLobby(app, root) {
  const groups = GAME_NAMES.map((game) => {
    const rooms = app.rooms.filter((room) => room.game === game);
    if (!rooms.length) return null;
    return h(
      "section",
      { class: "game-group" },
      h("h3", {}, t(`game.${game}`), h("span", { class: "muted", style: { fontSize: "13px", fontWeight: 400 }, text: t(`game.about.${game}`) })),
      h("div", { class: "rooms" }, rooms.map((room) => roomCard(app, room))),
    );
  });
  const back = app.table && app.table.state && !app.table.state.over
    ? h("div", { class: "panel", style: { marginBottom: "12px" } }, t("lobby.atTable"), " ", h("button", { class: "btn primary small", "data-testid": "back-to-table", onclick: () => app.go("table"), text: t("nav.table") }))
    : null;
  fill(root, h("div", { class: "page", "data-testid": "lobby" }, back, profile(app), h("div", { class: "games" }, groups)));
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
      h("p", { class: "muted", text: room ? room.name : app.queued }),
      h("div", { class: "buttons", style: { justifyContent: "center" } }, h("button", { class: "btn", "data-testid": "cancel-queue", onclick: () => app.leaveQueue(), text: t("common.cancel") })),
    ),
  );
}
