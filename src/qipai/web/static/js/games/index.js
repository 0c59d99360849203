// The games the client plays: the table, the replay viewer, the lobby and the history find
// a game's module only here. A module is registered under its `web_module` (the name the
// server's GameType gives, carried by each room of GET /api/rooms): the hall's own games are
// imported below; any other room's module is loaded from `js/games/<web_module>.js` when
// the rooms are known (`loadRooms`), before the page opens a table. A game is found by its
// `web_module` (a room's) or by its name in the hall (a record's, a match's, a history
// row's): the module's `name`. No file outside js/games/ names a game.
//
// A game module exports its game as `game`, an object with this interface (games/doudizhu.js,
// games/zhajinhua.js and games/showhand.js are the examples; games/poker.js builds the
// betting games' shared parts; docs/web.md, "A game's browser module", lists every hook):
//
// - name: the game's name in the hall ("doudizhu"); strings: its texts, {key: [中文,
//   English]}, merged into the client's at registration (`game.<name>`, `game.about.<name>`,
//   `rules.<preset>`, `rules.desc.<name>.<preset>` are the lobby's; a key the client has
//   already keeps its text); selectable: whether the player lifts cards from his hand;
// - empty(players) → model, fromView(view, seat) → model, merge(old, fresh) → model: the
//   table's model, from nothing, from a snapshot's view, and a resync of the same hand;
// - apply(model, event, ctx) → bool: one event into the model (true: ask for a snapshot);
// - seatView(T, seat) → {tags, meta, side}, info(T), center(T), mine(T), buttons(T),
//   handCards(T) or handView(T): what the table page draws;
// - resultRows(T, over), resultExtra(T), ended(model, over): the result panel;
// - reveal(model, cards, seat): every card face up; actionLabel(text): a recorded action
//   in words (the replay); rulesOf(preset): the rules page's sections of a rule set
//   (js/rules.js; null: none); and the optional hooks with their defaults (docs/web.md).

import { addStrings, t } from "../i18n.js";
import { game as doudizhu } from "./doudizhu.js";
import { game as showhand } from "./showhand.js";
import { game as zhajinhua } from "./zhajinhua.js";

const byModule = new Map(); // web_module → game
const byName = new Map(); // the game's name in the hall → game, in the order registered

/** Register ``game`` under ``webModule``: its texts join the client's. */
export function register(webModule, game) {
  addStrings(game.strings || {});
  byModule.set(webModule, game);
  byName.set(game.name, game);
  return game;
}

register("doudizhu", doudizhu);
register("zhajinhua", zhajinhua);
register("showhand", showhand);

/** The game of ``webModule``, loading `js/games/<webModule>.js` the first time. */
export async function load(webModule) {
  if (!byModule.has(webModule)) {
    if (!/^[a-z][a-z0-9_]*$/.test(webModule)) throw new Error(`bad web_module ${webModule}`);
    const module = await import(`./${webModule}.js`);
    register(webModule, module.game);
  }
  return byModule.get(webModule);
}

/** Load the module of every room's game (GET /api/rooms); a module that fails to load
 * leaves its rooms without a game (the lobby lists only the games it knows). */
export async function loadRooms(rooms) {
  const modules = new Set(rooms.map((room) => room.web_module).filter(Boolean));
  await Promise.all([...modules].map((name) => load(name).catch(() => null)));
}

/** The game of a room (by its `web_module`), or null. */
export function roomGame(room) {
  return (room && byModule.get(room.web_module)) || null;
}

/** The game named ``name`` in the hall (a record's, a match's), or null. */
export function gameNamed(name) {
  return byName.get(name) || null;
}

/** The registered games' names in the hall, in the lobby's order. */
export function gameNames() {
  return [...byName.keys()];
}

/** The registered games' titles in the current language: "斗地主 · 扎金花 · 梭哈". */
export function gameTitles() {
  return gameNames().map((name) => t(`game.${name}`)).join(" · ");
}
