// Stake levels 场次 and 快速开始 (docs/web.md, "Lobby"): a game's rooms in level order, and
// the room quick start joins for a player's coins.  Pure: no page, no state (the browser
// tests import it as it is).

/** The stake levels, lowest first: the rooms' `level` (qipai.hall.rooms.LEVELS). */
export const LEVELS = Object.freeze(["novice", "junior", "middle", "senior"]);

/** Quick start's share: it picks a room whose minimum is at most 1/SHARE of the coins. */
export const SHARE = 3;

/** A room's level as a number, 0 for 新手场 (a room without one is a 新手场; a level this
 * client does not know ranks above the others). */
export function levelRank(room) {
  const rank = LEVELS.indexOf(room.level ?? LEVELS[0]);
  return rank < 0 ? LEVELS.length : rank;
}

/** The rooms by level, lowest first; the rooms of one level keep the hall's order. */
export function byLevel(rooms) {
  return [...rooms].sort((a, b) => levelRank(a) - levelRank(b)); // a stable sort
}

/**
 * The room 快速开始 joins for a player holding `coins`, among the rooms of `game`: the
 * highest level with a room whose minimum is at most coins / SHARE (so that one hand cannot
 * take more than a third of his coins), the first such room of that level in the hall's
 * order; failing that, the lowest-level room whose minimum he holds; null when he holds no
 * room's minimum.
 */
export function quickPick(rooms, game, coins) {
  const ordered = byLevel(rooms.filter((room) => room.game === game));
  const easy = ordered.filter((room) => room.min_coins * SHARE <= coins);
  if (easy.length) {
    const top = levelRank(easy[easy.length - 1]);
    return easy.find((room) => levelRank(room) === top);
  }
  return ordered.find((room) => room.min_coins <= coins) ?? null;
}

/** The least minimum of the rooms of `game` (what quick start needs at the least), or null
 * when the hall has none. */
export function leastMinimum(rooms, game) {
  const minimums = rooms.filter((room) => room.game === game).map((room) => room.min_coins);
  return minimums.length ? Math.min(...minimums) : null;
}
