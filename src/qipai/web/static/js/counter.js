// 记牌器 (the card counter): a game whose module has a `counter(T)` hook (js/games/) draws
// it on the felt, above the centre, when the room offers it (its `card_counter`) and the
// player has not hidden it (the 记牌器 button; the choice is kept in localStorage). A
// match's tables and the replay never show it.

import { storage } from "./storage.js";

/** Whether ``T``'s table offers the counter (a live table of a game that has one, in a
 * room that offers it). */
export function offered(T) {
  const room = T.state.roomInfo;
  return Boolean(T.game.counter && !T.readOnly && !T.spectating && !T.isMatch && room && room.card_counter);
}

/** Whether the player wants it shown (yes until he hides it). */
export function wanted() {
  return storage.counter() !== false;
}

/** Show or hide it from now on. */
export function toggle() {
  storage.setCounter(!wanted());
}

/** The counter strip of ``T``'s hand, or null (not offered, hidden, no cards dealt yet). */
export function counterStrip(T) {
  return offered(T) && wanted() ? T.game.counter(T) : null;
}
