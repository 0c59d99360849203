// 战绩: the matches the player played (GET /api/me/matches: each run with his final rank and
// prize), his closed private tables 好友房 with their scoreboards (views/historyprivate.js),
// then his past hands (GET /api/history), newest first, each with its replay.

import { api } from "../api.js";
import { h, fill, signed, signClass } from "../dom.js";
import { lang, t } from "../i18n.js";
import { gameNamed } from "../games/index.js";
import { privatePanel } from "./historyprivate.js";

const PAGE = 30;

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return date.toLocaleString(lang() === "zh" ? "zh-CN" : "en-GB", { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}

/** A seat's role in a hand (地主 / 农民) in words: the game's `roleText` hook, else the word. */
function roleText(hand) {
  const game = gameNamed(hand.game);
  return game && game.roleText ? game.roleText(hand.role) : hand.role;
}

/** A hand's points: a match hand's in match points (× the base, as its score moved),
 * marked 比赛积分; any other hand's (and a match hand the match has not scored) the game's. */
function pointsCell(hand) {
  const match = hand.match_points !== null && hand.match_points !== undefined;
  const points = match ? hand.match_points : hand.points;
  return h("td", { class: signClass(points), "data-testid": "history-points", "data-match": match ? "1" : "", title: match ? t("match.pointsNote") : "", text: signed(points) });
}

function row(app, hand) {
  return h(
    "tr",
    { "data-testid": "history-row", "data-hand": hand.hand_id },
    h("td", { text: when(hand.ended_at || hand.started_at) }),
    h("td", { text: `${t(`game.${hand.game}`)} · ${t(`rules.${hand.rules}`)}` }),
    h(
      "td",
      { "data-testid": "history-outcome", "data-won": hand.won === null ? "" : hand.won ? "1" : "0", "data-role": hand.role || "" },
      hand.won === null ? null : h("span", { class: `tag ${hand.won ? "gold" : ""}`, text: hand.won ? t("history.won") : t("history.lost") }),
      hand.role ? h("span", { class: `tag ${hand.role}`, text: roleText(hand) }) : null,
    ),
    pointsCell(hand),
    h("td", { class: signClass(hand.net), text: signed(hand.net) }),
    h("td", { class: "muted", text: t(`status.${hand.status}`) }),
    h("td", {}, hand.status === "settled" ? h("button", { class: "btn small", "data-testid": "open-replay", onclick: () => app.go(`replay/${hand.hand_id}/${hand.seat}`), text: t("history.replay") }) : null),
  );
}

/** A match of 战绩: when, which, how it stands, his rank and prize. */
function matchRow(result) {
  const over = result.state === "finished";
  return h(
    "tr",
    { "data-testid": "history-match", "data-run": result.run, "data-rank": result.rank ?? "", "data-prize": result.prize ?? "" },
    h("td", { text: when(result.ended_at || result.started_at) }),
    h("td", { text: result.title }),
    h("td", { class: "muted", text: t(`history.state.${result.state}`) }),
    h("td", { class: "num", text: over && result.rank != null ? t("match.rankN", { n: result.rank }) : "—" }),
    h("td", { class: result.prize ? "prize" : "muted", text: over && result.prize != null ? (result.prize ? t("match.coinsN", { n: result.prize }) : t("match.noPrize")) : "—" }),
  );
}

async function matchesPanel(app) {
  const body = h("tbody");
  const note = h("p", { class: "muted hidden", text: t("history.matchesEmpty") });
  const panel = h(
    "div",
    { class: "panel", "data-testid": "history-matches" },
    h("h2", { text: t("history.matches") }),
    h(
      "table",
      { class: "grid" },
      h("thead", {}, h("tr", {}, [t("history.time"), t("history.match"), t("history.status"), t("match.rankHead"), t("match.prize")].map((text) => h("th", { text })))),
      body,
    ),
    note,
  );
  try {
    const results = await api("GET", "/api/me/matches", { token: app.session.token });
    for (const result of results) body.append(matchRow(result));
    note.classList.toggle("hidden", results.length > 0);
  } catch (error) {
    note.textContent = app.errorText(error.code);
    note.classList.remove("hidden");
  }
  panel.dataset.loaded = "1";
  return panel;
}

export async function renderHistory(app, root) {
  const matches = h("div", { "data-testid": "history-matches-slot" });
  const privates = h("div", { "data-testid": "private-history-slot" });
  const body = h("tbody");
  const more = h("button", { class: "btn quiet hidden", "data-testid": "history-more", text: t("history.more") });
  const empty = h("p", { class: "muted hidden", text: t("history.empty") });
  fill(
    root,
    h(
      "div",
      { class: "page", "data-testid": "history" },
      matches,
      privates,
      h(
        "div",
        { class: "panel" },
        h("h2", { text: t("history.hands") }),
        h(
          "table",
          { class: "grid" },
          h("thead", {}, h("tr", {}, [t("history.time"), t("history.game"), t("history.outcome"), t("table.points"), t("table.coins"), t("history.status"), ""].map((text) => h("th", { text })))),
          body,
        ),
        empty,
        more,
      ),
    ),
  );
  let before = null;
  const load = async () => {
    const query = `?limit=${PAGE}${before ? `&before=${encodeURIComponent(before)}` : ""}`;
    let hands = [];
    try {
      hands = await api("GET", `/api/history${query}`, { token: app.session.token });
    } catch (error) {
      empty.textContent = app.errorText(error.code);
      empty.classList.remove("hidden");
      return;
    }
    for (const hand of hands) body.append(row(app, hand));
    if (hands.length) before = hands[hands.length - 1].hand_id;
    more.classList.toggle("hidden", hands.length < PAGE);
    empty.classList.toggle("hidden", body.children.length > 0);
  };
  more.addEventListener("click", load);
  matchesPanel(app).then((panel) => fill(matches, panel));
  privatePanel(app).then((panel) => fill(privates, panel));
  await load();
}
