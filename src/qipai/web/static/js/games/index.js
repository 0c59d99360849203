// The games the client plays, registered here once: the table, the replay viewer and the
// lobby find a game's module only through GAMES.  A new game adds its module below.
//
// A game module is an object with this interface (games/doudizhu.js, games/zhajinhua.js and
// games/showhand.js are the examples; games/poker.js builds the betting games' shared parts):
//
// - name: the game's name in the hall ("doudizhu"); selectable: whether the player lifts
//   cards from his hand to play them (Dou Dizhu) or plays only with buttons;
// - empty(players) → model, fromView(view, seat) → model, merge(old, fresh) → model: the
//   table's model, from nothing, from a snapshot's view, and a resync of the same hand;
// - apply(model, event, ctx) → bool: one event into the model (true: ask for a snapshot);
// - seatView(T, seat) → {tags, meta, side}, info(T), center(T), mine(T), buttons(T),
//   handCards(T) or handView(T): what the table page draws;
// - resultRows(T, over), resultExtra(T): the result panel's rows and line;
// - reveal(model, cards, seat): a replay step with every card face up; rank(code): a card's
//   rank for sorting.

import { doudizhu } from "./doudizhu.js";
import { showhand } from "./showhand.js";
import { zhajinhua } from "./zhajinhua.js";

/** Every game module, by the game's name in the hall (the lobby lists them in this order). */
export const GAMES = Object.freeze({ doudizhu, zhajinhua, showhand });

/** The games' names, in the lobby's order. */
export const GAME_NAMES = Object.freeze(Object.keys(GAMES));
