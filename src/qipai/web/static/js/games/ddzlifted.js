// Dou Dizhu's lifted cards at the live table: 出牌 (the lifted cards as the legal play they
// make), 提示 (the next legal play lifted), the hand's order (by rank, or by count), and
// 上手牌 (the trick before the current one). The game's `playLifted`, `hint`, `handOrder`
// and `tools` hooks (js/table.js and js/tableview.js call them).

import { dialog, h, toast } from "../dom.js";
import { t } from "../i18n.js";
import * as panels from "../panels.js";
import { cardsFor, ddzKey, ddzRank, hintOrder, matchPlays, moveOf, tricks } from "./ddzplays.js";
import { playRow, readingLabel } from "./doudizhu.js";

/** 出牌: the lifted cards as the legal play they make (asking when they make several),
 * naming those very cards (`play 33 @3h3d`): the hall plays exactly them. */
export function playLifted(T) {
  const cards = T.lifted();
  if (!cards.length) {
    toast(t("ddz.selectFirst"));
    return;
  }
  const matches = matchPlays(cards, T.state.legal);
  const picked = [...cards].sort((a, b) => ddzKey(a) - ddzKey(b)).join("");
  const play = (action) => T.act(`${action} @${picked}`);
  if (!matches.length) {
    toast(t("ddz.notLegal"));
    T.view.shake();
  } else if (matches.length === 1) play(matches[0]);
  else {
    const choices = matches.map((action) => ({ action, label: readingLabel(action) }));
    panels.choose(t("ddz.chooseReading"), choices, play);
  }
}

/** 提示: lift the cards of the next legal play, round and round. */
export function hint(T) {
  const plays = hintOrder(T.state.legal);
  if (!plays.length) {
    toast(t("ddz.nothingBeats"));
    return;
  }
  T.ui.hint = (T.ui.hint + 1) % plays.length;
  const cards = cardsFor(moveOf(plays[T.ui.hint]), T.game.handCards(T)) || [];
  T.ui.lifted = new Set(cards);
  T.view.renderHand();
}

/** The hand in the order chosen: by rank (big cards on the left), or by how many of a
 * rank the hand holds (`mode` "count"), then by rank. */
export function handOrder(cards, mode) {
  const byRank = (a, b) => ddzKey(b) - ddzKey(a);
  if (mode !== "count") return [...cards].sort(byRank);
  const count = {};
  for (const code of cards) count[ddzRank(code)] = (count[ddzRank(code)] || 0) + 1;
  return [...cards].sort((a, b) => count[ddzRank(b)] - count[ddzRank(a)] || byRank(a, b));
}

/** 上手牌: the trick before the current one, in a dialog. */
export function lastTrick(T) {
  const all = tricks(T.state.model.plays || []);
  const previous = all.length >= 2 ? all[all.length - 2] : null;
  const lines = previous
    ? previous.map((play) =>
        h(
          "div",
          { class: "marker", style: { margin: "6px 0" } },
          h("b", { text: T.name(play.seat) }),
          play.move === "pass" ? h("span", { text: t("ddz.pass") }) : playRow(play),
        ),
      )
    : [h("p", { class: "muted", text: t("ddz.noLastTrick") })];
  let close = null;
  close = dialog(
    [h("h2", { text: t("ddz.lastTrick") }), ...lines, h("div", { class: "buttons" }, h("button", { class: "btn", onclick: () => close(), text: t("common.close") }))],
    { testid: "last-trick" },
  );
}

/** The game's own tools in the live table's toolbar: 上手牌. */
export function tools(T, tool) {
  return [tool("last-trick", t("ddz.lastTrick"), () => lastTrick(T))];
}
