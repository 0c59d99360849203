// The table's dialogs: the result of the hand (结果), the scores of this session (历史得分),
// a choice among actions, a confirmation.

import { h, dialog, fill, toast, signed, signClass } from "./dom.js";
import { playerName, t } from "./i18n.js";
import { cardRow } from "./cards.js";
import { avatarEl } from "./avatar.js";
import { commitmentOf } from "./sha256.js";
import { backToMatches, resultLine } from "./match.js";

/** Choose one action among several (raise levels, compare targets, wildcard readings). */
export function choose(title, choices, onChoose) {
  let close = null;
  const buttons = choices.map((choice) =>
    h("button", {
      class: "btn",
      "data-testid": "choice",
      "data-action": choice.action,
      onclick: () => {
        close();
        onChoose(choice.action);
      },
      text: choice.label,
    }),
  );
  close = dialog(
    [
      h("h2", { text: title }),
      h("div", { class: "choices" }, buttons),
      h("div", { class: "buttons" }, h("button", { class: "btn quiet", "data-testid": "choice-cancel", onclick: () => close(), text: t("common.cancel") })),
    ],
    { testid: "choices" },
  );
}

export function confirm(text, onYes, testid = null) {
  let close = null;
  close = dialog(
    [
      h("p", { text, "data-testid": testid }),
      h(
        "div",
        { class: "buttons" },
        h("button", { class: "btn quiet", onclick: () => close(), text: t("common.cancel") }),
        h("button", { class: "btn warn", "data-testid": "confirm", onclick: () => { close(); onYes(); }, text: t("common.ok") }),
      ),
    ],
    { testid: "confirm-dialog" },
  );
}

export function note(text) {
  toast(text);
}

/** The entropy line's words and hooks by what the result says of it (`Table.entropyInRecord`). */
const ENTROPY_LINES = {
  ok: { cls: "ok", ok: "1", key: "fair.entropyOk" },
  bad: { cls: "bad", ok: "0", key: "fair.entropyBad" },
  late: { cls: "muted", ok: "", key: "fair.entropyLate" },
  unsent: { cls: "muted", ok: "", key: "fair.entropyUnsent" },
};

/** The provably-fair line: seed, commitment, and the browser's own check of the two; with
 * `entropy` ("ok", "bad", "late", "unsent": `Table.entropyInRecord`) what became of the
 * entropy this browser sent, so that a seated player's result always says it. */
export function fairness(seed, commitment, entropy = null) {
  if (!seed) return null;
  const ok = commitment ? commitmentOf(seed) === commitment : null;
  const line = ENTROPY_LINES[entropy] || null;
  return h(
    "div",
    { class: "seedline", "data-testid": "fairness", "data-ok": ok === null ? "" : ok ? "1" : "0" },
    h("div", {}, `${t("fair.seed")}: ${seed}`),
    commitment ? h("div", {}, `${t("fair.commitment")}: ${commitment}`) : null,
    ok === null ? null : h("div", { class: ok ? "ok" : "bad", text: ok ? t("fair.ok") : t("fair.bad") }),
    line ? h("div", { class: line.cls, "data-testid": "entropy-check", "data-ok": line.ok, "data-state": entropy, text: t(line.key) }) : null,
  );
}

/** 结果: every seat's points and coins, the cards shown, the seed. A match's hand moves
 * match points only: its panel shows the points and the player's match score, no coins. */
export function result(T, onClose) {
  const s = T.state;
  const over = s.over;
  const match = T.isMatch;
  if (over.voided && match) {
    let closeVoided = null;
    closeVoided = dialog(
      [
        h("h2", { text: t("table.voidedTitle") }),
        h("p", { text: t("match.voided") }),
        h("div", { class: "buttons" }, h("button", { class: "btn", "data-testid": "result-close", onclick: () => closeVoided(), text: t("common.close") })),
      ],
      { testid: "result", onClose, attrs: { "data-hand": over.hand || "", "data-match": "1" } },
    );
    return closeVoided;
  }
  if (over.voided) {
    let closeVoided = null;
    closeVoided = dialog(
      [
        h("h2", { text: t("table.voidedTitle") }),
        over.reason === "restart" ? h("p", { "data-testid": "voided-reason", text: t("table.voidedRestart") }) : null,
        over.reason === "closed" ? h("p", { "data-testid": "voided-reason", text: t("table.voidedClosed", { why: over.message || "" }) }) : null,
        h("p", { text: t("table.voided") }),
        h("div", { class: "buttons" }, h("button", { class: "btn primary", "data-testid": "action-again", onclick: () => T.again(), text: t("table.again") }), h("button", { class: "btn", "data-testid": "action-lobby", onclick: () => T.toLobby(), text: t("nav.lobby") })),
      ],
      { testid: "result", onClose },
    );
    return closeVoided;
  }
  const rows = T.game.resultRows(T, over);
  const won = over.winners.includes(s.seat);
  const title = T.spectating ? watchedTitle(T, over) : h("h2", { class: `result-title ${won ? "win" : ""}`, text: won ? t("table.won") : t("table.lost") });
  const body = s.players.map((player, seat) =>
    h(
      "tr",
      { class: seat === s.seat ? "me" : "", "data-testid": "result-row", "data-seat": seat },
      h(
        "td",
        { class: "who-cell" },
        avatarEl(player.name, { small: true }),
        h("span", { class: "nm", text: playerName(player.name) }),
        " ",
        over.winners.includes(seat) ? h("span", { class: "tag gold", text: t("table.winner") }) : null,
        rows[seat].role ? h("span", { class: "tag", text: rows[seat].role }) : null,
        rows[seat].category || null,
        leftover(rows[seat].cards || (over.cards ? over.cards.hands[seat] : null), seat),
      ),
      h("td", { class: signClass(over.points[seat]), "data-testid": "result-points", text: signed(over.points[seat]) }),
      match ? null : h("td", { class: signClass(over.result[seat]), "data-testid": "result-coins", text: signed(over.result[seat]) }),
      match ? null : h("td", { class: "num muted", text: String((over.rake ? over.rake[seat] : 0) + (over.fees ? over.fees[seat] : 0)) }),
    ),
  );
  const buttons = T.spectating
    ? [h("button", { class: "btn primary", "data-testid": "result-close", onclick: () => close(), text: t("common.close") })]
    : match
    ? [
        h("button", { class: "btn quiet", "data-testid": "result-close", onclick: () => close(), text: t("common.close") }),
        T.app.match && T.app.match.state === "playing"
          ? null
          : h("button", { class: "btn quiet", "data-testid": "action-replay", onclick: () => T.replay(), text: t("table.replay") }),
        h("button", { class: "btn", "data-testid": "action-matches", onclick: () => { close(); backToMatches(T.app); }, text: t("nav.matches") }),
      ]
    : [
        h("button", { class: "btn quiet", "data-testid": "result-close", onclick: () => close(), text: t("common.close") }),
        h("button", { class: "btn quiet", "data-testid": "action-replay", onclick: () => T.replay(), text: t("table.replay") }),
        h("button", { class: "btn", "data-testid": "action-lobby", onclick: () => T.toLobby(), text: t("nav.lobby") }),
        T.canChangeTable ? h("button", { class: "btn", "data-testid": "action-change-table", onclick: () => T.changeTable(), text: t("table.changeTable") }) : null,
        // a private table plays its next hand by itself: no 再来一局 there
        !T.isPrivate ? h("button", { class: "btn primary", "data-testid": "action-again", onclick: () => T.again(), text: t("table.again") }) : null,
      ];
  const row = h("div", { class: "buttons" }, buttons);
  let close = null;
  close = dialog(
    [
      title,
      T.game.resultExtra(T),
      match ? resultLine(T.app, T) : null,
      h(
        "table",
        { class: "grid result-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { text: t("table.player") }),
            h("th", { class: "num", text: match ? t("match.handPoints") : t("table.points") }),
            match ? null : h("th", { class: "num", text: t("table.coins") }),
            match ? null : h("th", { class: "num", text: t("table.house") }),
          ),
        ),
        h("tbody", {}, body),
      ),
      match ? null : adjustments(T, over),
      fairness(over.seed, over.commitment, over.entropy),
      row,
    ],
    { testid: "result", onClose, attrs: { "data-hand": over.hand || "", "data-match": match ? "1" : "0" } },
  );
  close.nextHand = () => goingOn(T, over.hand, row, close);
  return close;
}

/** A spectator's result title: the player he watches by name won or lost, else 本局结束. */
function watchedTitle(T, over) {
  const name = T.app.watchingName;
  if (!name || T.state.players[T.seat].name !== name) return h("h2", { class: "result-title", text: t("table.watchedOver") });
  const won = over.winners.includes(T.seat);
  return h("h2", { class: `result-title ${won ? "win" : ""}`, text: t(won ? "table.watchedWon" : "table.watchedLost", { name: playerName(name) }) });
}

/** At a table that plays on (`regroup: false`) the next hand starts a few seconds after the result
 * opened: the result stays open (it is the player's to close), says so, and its buttons
 * turn to that hand: 继续 closes it, 换桌 and 离开 take effect once the new hand is over.
 * When the player's turn comes in that hand the result is put away (`Table.clearForTurn`):
 * the 结果 tool shows it again. */
function goingOn(T, hand, row, close) {
  close.past = true; // the result of the hand before: put away when the player's turn comes
  fill(
    row,
    h("p", { class: "next-note", "data-testid": "result-next", text: t("table.nextStarted") }),
    h("button", { class: "btn quiet", "data-testid": "action-replay", onclick: () => T.replay(hand), text: t("table.replay") }),
    h("button", { class: "btn", "data-testid": "action-leave-after", onclick: () => { close(); T.view.leaveAfterHand(); }, text: t("table.leaveAfterButton") }),
    T.canChangeTable ? h("button", { class: "btn", "data-testid": "action-change-table", onclick: () => T.changeTable(), text: t("table.changeAfter") }) : null,
    h("button", { class: "btn primary", "data-testid": "result-close", onclick: () => close(), text: t("table.continue") }),
  );
}

/** A seat's cards at the end of the hand (the game's result rows say which: those left
 * in his hand, or his whole hand), or 出完 when none are left. */
function leftover(cards, seat) {
  if (!cards) return null;
  return h(
    "div",
    { class: "leftover", "data-testid": "leftover", "data-seat": seat, "data-cards": cards.join(" ") },
    cards.length ? cardRow(cards, { small: true }) : h("span", { class: "muted", text: t("table.noneLeft") }),
  );
}

/** What changed the coins beyond the points, seat by seat, each named: the rake, the
 * service fee, and the limit of what a seat holds (a loser pays at most what he has, a
 * winner wins at most what he brought). */
function adjustments(T, over) {
  const lines = [];
  over.result.forEach((_, seat) => {
    const name = T.name(seat);
    const rake = over.rake ? over.rake[seat] : 0;
    const fee = over.fees ? over.fees[seat] : 0;
    const limit = over.limited ? over.limited[seat] : 0;
    if (rake) lines.push(h("li", { "data-kind": "rake", text: t("adjust.rake", { name, n: rake }) }));
    if (fee) lines.push(h("li", { "data-kind": "fee", text: t("adjust.fee", { name, n: fee }) }));
    if (limit) lines.push(h("li", { "data-kind": "limit", text: t(limit < 0 ? "adjust.limitWin" : "adjust.limitLoss", { name, n: Math.abs(limit) }) }));
  });
  return lines.length ? h("ul", { class: "adjustments", "data-testid": "adjustments" }, lines) : null;
}

/** A hand's points in 历史得分: at a match's table what it moved the match score by (× the
 * base, as the match_update after it said; "…" until then), else the game's points. */
function handPoints(score, match) {
  const points = match ? score.matchPoints : score.points;
  const known = points !== null && points !== undefined;
  return h("td", { class: known ? signClass(points) : "muted", "data-testid": "score-points", text: known ? signed(points) : "…" });
}

/** 历史得分: the hands of this sitting (of this match, at a match's tables: their match
 * points, no coins), with a way to the full history. */
export function scores(T) {
  const match = T.isMatch;
  const rows = T.state.scores.map((score, i) =>
    h(
      "tr",
      {},
      h("td", { text: String(i + 1) }),
      handPoints(score, match),
      match ? null : h("td", { class: signClass(score.net), text: signed(score.net) }),
    ),
  );
  const total = T.state.scores.reduce((sum, score) => sum + ((match ? score.matchPoints : score.net) || 0), 0);
  let close = null;
  close = dialog(
    [
      h("h2", { text: t("table.scores") }),
      rows.length
        ? h(
            "table",
            { class: "grid" },
            h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { class: "num", text: match ? t("match.score") : t("table.points") }), match ? null : h("th", { class: "num", text: t("table.coins") }))),
            h("tbody", {}, rows),
          )
        : h("p", { class: "muted", text: t("table.noScores") }),
      rows.length ? h("p", {}, t("table.total"), " ", h("b", { class: signClass(total), text: signed(total) })) : null,
      h(
        "div",
        { class: "buttons" },
        h("button", { class: "btn quiet", onclick: () => { close(); T.app.go("history"); }, text: t("nav.history") }),
        h("button", { class: "btn", onclick: () => close(), text: t("common.close") }),
      ),
    ],
    { testid: "scores" },
  );
}
