// The rules page 规则 of a room's game and rule set, opened from the lobby's room card (its
// 规则 button) and from the table's toolbar (the ⋯ menu on a phone): a dialog with the
// room's own numbers (from GET /api/rooms: stakes, minimum, house share, time, 积分场) and
// the rule set's sections — combinations, bidding or betting, multipliers, settlement and
// a worked example — from the game's module (its `rulesOf(preset)` hook, the texts kept
// in js/games/, [中文, English] as every string file). docs/web.md, "The rules page".

import { h, dialog } from "./dom.js";
import { has, lang, roomTitle, t } from "./i18n.js";
import { gameNamed, roomGame } from "./games/index.js";

/** The words of a room's game-specific numbers (a game's `roomNumbers` names which). */
const ROOM_FIELDS = { coefficient: "room.coefficient", base: "room.base", ante: "room.ante", top_bet: "room.topBet", cap: "room.cap" };

/** A room's numbers as [label, value] rows: its game's stakes, the minimum coins, the
 * house's share, the seats, the time to decide, the bots (the lobby's card shows them too). */
export function roomNumbers(room) {
  const rows = [];
  const add = (key, value) => {
    if (value !== null && value !== undefined && value !== 0) rows.push([t(key), String(value)]);
  };
  const game = roomGame(room) || gameNamed(room.game);
  for (const field of (game && game.roomNumbers) || []) add(ROOM_FIELDS[field], room[field]);
  add("room.minCoins", room.min_coins);
  if (room.rake_percent) rows.push([t("room.rake"), `${room.rake_percent}%`]);
  add("room.fee", room.fee);
  if (room.seats) rows.push([t("room.seats"), String(room.seats)]);
  if (room.decision_seconds) rows.push([t("room.time"), t("room.seconds", { n: room.decision_seconds })]);
  if (room.bots !== undefined) rows.push([t("room.bots"), room.bots ? t("common.yes") : t("common.no")]);
  return rows;
}

/** One line of a rule set's text, [中文, English], in the current language. */
function said(pair) {
  return lang() === "en" ? pair[1] : pair[0];
}

function section(part) {
  return h(
    "section",
    { class: `rules-part ${part.id === "example" ? "example" : ""}`, "data-testid": "rules-section", "data-section": part.id },
    h("h3", { text: said(part.title) }),
    h("ul", {}, part.items.map((item) => h("li", { text: said(item) }))),
  );
}

/** 本场: the room's numbers, and whether its hands move coins or points only. */
function roomPart(room) {
  if (!room.id || room.min_coins === undefined) return null; // a private table's, a match's
  return h(
    "section",
    { class: "rules-part", "data-testid": "rules-room" },
    h("h3", { text: t("rulebook.room", { room: roomTitle(room) }) }),
    h("p", { class: "muted", "data-testid": "rules-payout", text: room.points_only ? t("rulebook.pointsOnly") : t("rulebook.coins") }),
    h("dl", { class: "rules-numbers" }, roomNumbers(room).map(([key, value]) => [h("dt", { text: key }), h("dd", { text: value })])),
  );
}

/** Open the rules page of ``room`` (a room of GET /api/rooms, or a table's room info with
 * its `game` and `rules`); returns the function that closes it. */
export function openRules(room) {
  const game = roomGame(room) || gameNamed(room.game);
  const parts = game && game.rulesOf ? game.rulesOf(room.rules) : null;
  let close = null;
  close = dialog(
    [
      h("h2", { text: `${t("rulebook.title")} · ${t(`game.${room.game}`)} · ${t(`rules.${room.rules}`)}` }),
      has(`rules.desc.${room.game}.${room.rules}`) ? h("p", { class: "muted", text: t(`rules.desc.${room.game}.${room.rules}`) }) : null,
      roomPart(room),
      parts ? parts.map(section) : h("p", { "data-testid": "rules-none", text: t("rulebook.none") }),
      h("div", { class: "buttons" }, h("button", { class: "btn", "data-testid": "rules-close", onclick: () => close(), text: t("common.close") })),
    ],
    { testid: "rules", attrs: { class: "dialog rules-page", "data-game": room.game, "data-rules": room.rules, lang: lang() === "en" ? "en" : "zh-CN" } },
  );
  return close;
}
