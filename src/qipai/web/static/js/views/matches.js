// 比赛: every match (GET /api/matches) with its numbers and 报名 / 取消报名; above the list,
// the waiting screen of the match the player registered for (refreshed every few seconds),
// or his match in play, or the one just over.

import { api } from "../api.js";
import { h, fill, icon, toast } from "../dom.js";
import { matchTitle, t } from "../i18n.js";
import { finalTable, loadMatches, localTime, registration, stageLabel, standingsDialog, titleOf } from "../match.js";

const REFRESH_MS = 3000;
const refused = {}; // match name → the error code of its last refused request
let busy = null; // the match whose request is on its way

/** The page: drawn now from what the client has, then again with a fresh list, and every
 * few seconds while it is shown. */
export function renderMatches(app, root) {
  drawMatches(app, root);
  loadMatches(app).then(() => app.redraw());
  const timer = setInterval(() => loadMatches(app).then(() => app.redraw()), REFRESH_MS);
  app.leaveView = () => clearInterval(timer);
}

async function request(app, match, what) {
  busy = match.name;
  delete refused[match.name];
  app.redraw();
  try {
    await api("POST", `/api/matches/${encodeURIComponent(match.name)}/${what}`, { token: app.session.token });
  } catch (error) {
    refused[match.name] = error.code;
    toast(app.errorText(error.code));
  }
  busy = null;
  await Promise.all([loadMatches(app), app.refreshMe()]);
  app.redraw();
}

function firstPrize(match) {
  const prize = (match.prizes || []).find((p) => p.ranks[0] <= 1 && 1 <= p.ranks[1]);
  return prize ? prize.coins : 0;
}

function prizeList(match) {
  return (match.prizes || [])
    .map((p) => t("match.prizeOf", { ranks: p.ranks[0] === p.ranks[1] ? t("match.rankN", { n: p.ranks[0] }) : t("match.ranksN", { a: p.ranks[0], b: p.ranks[1] }), n: p.coins }))
    .join(" · ");
}

function stagesText(match) {
  return (match.stages || [])
    .map((stage) => {
      const size = stage.kind === "fixed" ? t("match.nHands", { n: stage.hands }) : stage.kind === "swiss" ? t("match.nRounds", { n: stage.rounds, hands: stage.hands }) : "";
      const what = [t(`stage.${stage.kind}`), size].filter(Boolean).join(t("match.stageSep"));
      return t("match.stageLine", { name: stageLabel(stage.name), what });
    })
    .join(" → ");
}

function startText(match) {
  const run = match.run || {};
  if (match.kind === "scheduled") {
    return run.starts_at ? t("match.startsAt", { time: localTime(run.starts_at) }) : "—";
  }
  return t("match.whenFull", { n: match.players });
}

function registeredText(match) {
  const run = match.run || {};
  if (match.kind === "scheduled") return t("match.registeredMin", { n: run.registered ?? 0, min: match.min_players });
  return `${run.registered ?? 0} / ${match.players}`;
}

/** How a scheduled match's prizes follow its field (the hall's `prizes_at_minimum`): the
 * table as listed when full, what its fewest players share (places and pool scale), the
 * house's guarantee; "" when the prizes do not scale. */
function prizeScaleText(match) {
  const least = (match.prizes_at_minimum || []).reduce((sum, prize) => sum + prize.coins, 0);
  if (match.kind !== "scheduled" || least >= match.prize_total) return "";
  const text = t("match.prizeScale", { total: match.prize_total, min: match.min_players, least });
  return match.guarantee ? `${text}${t("match.prizeGuarantee", { n: match.guarantee })}` : text;
}

function matchCard(app, match) {
  const run = match.run || {};
  const mine = Boolean(run.me);
  const error = refused[match.name];
  const rows = [
    [t("match.start"), startText(match), "match-start"],
    [t("match.registered"), registeredText(match), "match-registered"],
    [t("match.fee"), match.entry_fee ? String(match.entry_fee) : t("match.free"), "match-fee"],
    [t("match.prizeTotal"), String(match.prize_total), "match-prize-total"],
    prizeScaleText(match) ? [t("match.prizeScaleTitle"), prizeScaleText(match), "match-prize-scale"] : null,
    [t("match.firstPrize"), String(firstPrize(match)), "match-first-prize"],
    [t("match.format"), stagesText(match), null],
    [t("room.bots"), match.bots ? t("common.yes") : t("common.no"), null],
  ];
  return h(
    "div",
    {
      class: `room match-card ${mine ? "mine" : ""}`,
      "data-testid": "match",
      "data-match": match.name,
      "data-kind": match.kind,
      "data-registered": run.registered ?? 0,
      "data-me": mine ? "1" : "0",
    },
    h("div", { class: "name" }, h("span", { "data-testid": "match-title", text: matchTitle(match) }), h("span", { class: `tag ${match.kind === "scheduled" ? "gold" : ""}`, "data-testid": "match-kind", text: t(`match.kind.${match.kind}`) })),
    h("div", { class: "preset", text: `${t(`game.${match.game}`)} · ${t(`rules.${match.rules}`)}` }),
    h("dl", {}, rows.filter(Boolean).map(([key, value, testid]) => [h("dt", { text: key }), h("dd", { "data-testid": testid, text: value })])),
    h("div", { class: "rules", text: prizeList(match) }),
    error ? h("div", { class: "err", "data-testid": "match-error", "data-code": error, text: app.errorText(error) }) : null,
    mine
      ? h("button", { class: "btn", "data-testid": "unregister", disabled: busy !== null, onclick: () => request(app, match, "unregister"), text: t("match.unregister") })
      : h("button", { class: "btn primary", "data-testid": "register", disabled: busy !== null, onclick: () => request(app, match, "register"), text: t("match.register") }),
  );
}

/** The waiting screen: the match registered for, how many of how many, 取消报名. */
function waitingPanel(app, match) {
  const run = match.run;
  const scheduled = match.kind === "scheduled";
  const needed = scheduled ? match.min_players : match.players;
  return h(
    "div",
    { class: "panel waiting", "data-testid": "match-waiting", "data-match": match.name, "data-registered": run.registered, "data-needed": needed },
    h("div", { class: "spinner" }),
    h("h2", { text: t("match.waitingTitle", { title: matchTitle(match) }) }),
    h(
      "p",
      { class: "match-big" },
      scheduled ? t("match.startsAt", { time: localTime(run.starts_at) }) : null,
      scheduled ? " · " : null,
      t("match.registered"),
      " ",
      h("b", { "data-testid": "waiting-count", text: scheduled ? String(run.registered) : `${run.registered} / ${needed}` }),
    ),
    h("p", { class: "muted", text: scheduled ? t("match.needMin", { n: match.min_players }) : t("match.startsWhenFull", { n: match.players }) }),
    match.bots ? h("p", { class: "muted", text: t("match.botsFill") }) : null,
    match.entry_fee ? h("p", { class: "muted", text: t("match.feeHeld", { n: match.entry_fee }) }) : null,
    h(
      "div",
      { class: "buttons", style: { justifyContent: "center" } },
      h("button", { class: "btn", "data-testid": "waiting-unregister", disabled: busy !== null, onclick: () => request(app, match, "unregister"), text: t("match.unregister") }),
    ),
  );
}

/** The player's own match, started: being seated, in play, out, or over. */
function ownPanel(app) {
  const match = app.match;
  if (!match) return null;
  const title = titleOf(app, match.name);
  const atTable = app.table && app.table.isMatch;
  if (match.state === "over" && match.over) {
    const over = match.over;
    return h(
      "div",
      { class: "panel last-match", "data-testid": "last-match", "data-rank": over.rank ?? "", "data-prize": over.prize },
      icon("crown", "coin-icon"),
      h("b", { text: t("match.lastMatch", { title }) }),
      h("span", { text: over.rank == null ? "" : t("match.rankN", { n: over.rank }) }),
      h("span", { text: `${t("match.score")} ${over.score ?? "—"}` }),
      h("span", { class: over.prize ? "prize" : "muted", text: over.prize ? t("match.coinsN", { n: over.prize }) : t("match.noPrize") }),
      h("div", { class: "spacer" }),
      h("button", { class: "btn small", "data-testid": "open-final", onclick: () => finalTable(app, match), text: t("match.finalButton") }),
      h("button", { class: "btn small quiet", "data-testid": "dismiss-final", onclick: () => { app.forgetMatch(); app.redraw(); }, text: t("common.close") }),
    );
  }
  if (match.state === "out") {
    return h(
      "div",
      { class: "panel last-match", "data-testid": "match-out", "data-rank": match.outRank ?? "" },
      h("b", { text: title }),
      h("span", { text: t("match.outLine", { n: match.outRank ?? "—" }) }),
      h("span", { class: "muted", text: t("match.outFree") }),
      h("div", { class: "spacer" }),
      h("button", { class: "btn small", "data-testid": "out-standings", onclick: () => standingsDialog(app), text: t("match.standings") }),
      h("button", { class: "btn small primary", "data-testid": "out-lobby", onclick: () => app.toLobby(), text: t("match.toLobby") }),
    );
  }
  if (!atTable) {
    return h(
      "div",
      { class: "panel waiting", "data-testid": "match-starting", "data-match": match.name },
      h("div", { class: "spinner" }),
      h("h2", { text: t("match.startingTitle", { title }) }),
      h("p", { class: "muted", text: t("match.seating") }),
    );
  }
  return h(
    "div",
    { class: "panel last-match", "data-testid": "match-playing" },
    h("b", { text: title }),
    h("span", { text: t("match.playing") }),
    h("div", { class: "spacer" }),
    h("button", { class: "btn small", onclick: () => standingsDialog(app), text: t("match.standings") }),
    h("button", { class: "btn small primary", "data-testid": "back-to-match", onclick: () => app.go("table"), text: t("match.backToTable") }),
  );
}

/** Draw the page from what the client has now (no request). */
export function drawMatches(app, root) {
  const matches = app.matches || [];
  const waiting = registration(app);
  const head = ownPanel(app) || (waiting ? waitingPanel(app, waiting) : null);
  const list = app.matches === null
    ? h("p", { class: "muted", text: app.matchesError ? app.errorText(app.matchesError) : t("common.loading") })
    : matches.length
      ? h("div", { class: "rooms" }, matches.map((match) => matchCard(app, match)))
      : h("p", { class: "muted", text: t("match.none") });
  fill(
    root,
    h(
      "div",
      { class: "page", "data-testid": "matches", "data-loaded": app.matches === null ? "0" : "1" },
      head,
      h(
        "section",
        { class: "game-group" },
        h("h3", {}, t("nav.matches"), h("span", { class: "muted", style: { fontSize: "13px", fontWeight: 400 }, text: t("match.about") })),
        list,
      ),
    ),
  );
}
