// What the two poker games at the table (Zha Jin Hua, Showhand) share: no card selection,
// a snapshot simply replaces the model, and the result lists each seat's shown cards with
// the name of their hand.

import { categoryTag } from "../cards.js";

/** A game module of the table from its own parts; ``shownOf(model)`` gives each seat's
 * cards shown at the end (``null``: hidden) for the result panel. */
export function pokerGame(name, parts, shownOf) {
  return {
    name,
    selectable: false,
    merge: (old, fresh) => fresh,
    resultExtra: () => null,
    roomNumbers: ["base", "ante", "top_bet", "cap"],
    resultRows(T) {
      const m = T.state.model;
      return shownOf(m).map((cards, seat) => ({ cards, category: cards ? categoryTag(name, m.categories[seat]) : null }));
    },
    /** The hand settled: each seat holds ``over.coins`` now (its stack is its coins). */
    ended(m, over) {
      if (over.coins) m.stacks = [...over.coins];
    },
    ...parts,
  };
}
