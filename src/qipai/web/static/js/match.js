// Matches 比赛 (docs/matches.md): what the client knows of the player's match once it has
// started (`app.match`, kept in localStorage so that a reload keeps the in-match panel),
// the match frames (match_started, match_update, match_advanced, match_eliminated,
// match_over, match_cancelled: main.js hands them here), the in-match panel of the table
// page, the notices (晋级, 被淘汰, 取消) and the final table.
//
// A registration that has not started yet is not kept here: the match list says it
// (`run.me` of GET /api/matches). A match's hands are played at ordinary tables whose room
// is `match:<name>`; the table finds the game and the title in the match list.

import { api } from "./api.js";
import { h, fill, dialog, toast, signed, signClass } from "./dom.js";
import { has, lang, matchTitle, playerName, stageText, t } from "./i18n.js";
import { storage } from "./storage.js";

const MATCH_ROOM = "match:";
/** Seconds per decision when the match list does not say (the matches' default). */
const DEFAULT_DECISION_SECONDS = 15;

/** The match's name of a table's room (`match:<name>`), or null for a room of the lobby. */
export function matchOfRoom(room) {
  return typeof room === "string" && room.startsWith(MATCH_ROOM) ? room.slice(MATCH_ROOM.length) : null;
}

/** A match of the list by its name (id), or null. */
export function listed(app, name) {
  return (app.matches || []).find((match) => match.name === name) || null;
}

/** A match table's room, shaped like a room of GET /api/rooms for the table page. */
export function matchRoomInfo(app, room) {
  const name = matchOfRoom(room);
  if (name === null) return null;
  const match = listed(app, name);
  return {
    id: room,
    name: match ? matchTitle(match) : name,
    game: match ? match.game : null,
    rules: match ? match.rules : null,
    decision_seconds: (match && match.decision_seconds) || DEFAULT_DECISION_SECONDS,
    regroup: true,
    match: name,
  };
}

/** GET /api/matches (with the session: `run.me` says whether the player is registered). */
export async function loadMatches(app) {
  try {
    app.matches = await api("GET", "/api/matches", { token: app.session && app.session.token });
    app.matchesError = null;
  } catch (error) {
    app.matchesError = error.code;
  }
  return app.matches;
}

/** The match the player has registered for and that has not started (from the list). */
export function registration(app) {
  return (app.matches || []).find((match) => match.run && match.run.me) || null;
}

/** A match's title for the player. */
export function titleOf(app, name) {
  const match = listed(app, name);
  return match ? matchTitle(match) : name;
}

/** A stage's name for the player (i18n's `stageText`). */
export const stageLabel = stageText;

/** A stage's name: the server's, else the match list's, else 第N阶段. */
export function stageName(app, name, stage, given = null) {
  if (given) return stageLabel(given);
  const match = listed(app, name);
  const known = match && match.stages && match.stages[stage];
  if (known && known.name) return stageLabel(known.name);
  return t("match.stageN", { n: stage + 1 });
}

function save(app) {
  storage.setMatch(app.match);
}

function fresh(frame) {
  return {
    name: frame.match,
    run: frame.run,
    state: "playing", // playing, out, over
    status: null, // the last match_update (or GET /api/runs): stage, base, line, rank, score…
    stageHands: 0, // hands of mine finished in this stage
    lastDelta: null, // the change of my score in my last hand
    advancedTo: null, // the stage I go on to, until it starts
    outRank: null,
    over: null,
  };
}

/** The match of `frame` (a new one when it is another run: a reload, a missed start). */
function matchFor(app, frame) {
  if (!app.match || app.match.run !== frame.run) app.match = fresh(frame);
  return app.match;
}

/** The run's standings now (GET /api/runs/{run}): fills the panel before the first
 * match_update (a run's first stage starts without one) and after a reload. */
export async function refreshRun(app) {
  const match = app.match;
  if (!match || match.state !== "playing") return null;
  let run;
  try {
    run = await api("GET", `/api/runs/${encodeURIComponent(match.run)}`, { token: app.session && app.session.token });
  } catch (error) {
    if (error.code === "unknown_run" && app.match === match) {
      app.match = null; // over while the page was away: nothing left to follow
      save(app);
      app.redraw();
    }
    return null;
  }
  if (app.match !== match) return run;
  if (!match.status || run.hands > match.status.hands) {
    const me = run.me || {};
    match.status = {
      stage: run.stage,
      stage_name: run.stage_name,
      stage_kind: run.stage_kind,
      base: run.base,
      line: run.line,
      players_left: run.players_left,
      hands: run.hands,
      rank: me.out ? null : me.rank ?? null,
      score: me.score ?? null,
    };
    save(app);
    app.redraw();
  }
  return run;
}

// ------------------------------------------------------------------ frames

export function onStarted(app, frame) {
  if (app.table && app.table.isMatch && app.table.state.over) {
    app.table.unmount(); // the last table of an earlier run: nothing of it goes on
    app.table = null;
  }
  app.match = fresh(frame);
  save(app);
  toast(t("match.startedToast", { title: titleOf(app, frame.match) }));
  refreshRun(app);
  loadMatches(app).then(() => app.redraw());
}

export function onUpdate(app, frame) {
  const match = matchFor(app, frame);
  const before = match.status;
  // once the run is over the frame names no stage and no base: the last ones stay shown
  const ended = frame.stage === null || frame.stage === undefined;
  const kept = ended && before ? before : frame;
  const sameStage = before && (ended || before.stage === frame.stage);
  if (before && !sameStage) {
    match.stageHands = 0;
    match.advancedTo = null;
  }
  if (!sameStage) match.lastDelta = null;
  else if (before.score != null && frame.score != null) match.lastDelta = frame.score - before.score;
  if (frame.hand_base != null) keepHandScore(app, match.lastDelta);
  match.status = {
    stage: kept.stage,
    stage_name: kept.stage_name,
    stage_kind: kept.stage_kind,
    base: kept.base,
    line: kept.line,
    players_left: frame.players_left,
    hands: frame.hands,
    rank: frame.rank,
    score: frame.score,
    hand_base: frame.hand_base ?? null, // the base my hand that just ended was scored at
  };
  save(app);
  refreshResultLine(app);
}

/** The update after my hand: what it moved my match score by, kept with that hand in the
 * table's 历史得分 (its points in match points, not the game's before the base). */
function keepHandScore(app, delta) {
  const table = app.table && app.table.isMatch ? app.table.state : null;
  const last = table && table.scores.length ? table.scores[table.scores.length - 1] : null;
  if (last && delta !== null && delta !== undefined) last.matchPoints = delta;
}

/** A hand of mine at a match table is over (table.js). */
export function onMatchHand(app, room) {
  const match = app.match;
  if (!match || match.name !== matchOfRoom(room)) return;
  match.stageHands += 1;
  match.lastDelta = null; // until the match_update of this hand
  save(app);
}

export function onAdvanced(app, frame) {
  const match = matchFor(app, frame);
  match.advancedTo = frame.stage;
  save(app);
  present(app, () => notice(
    "advanced",
    t("match.advancedTitle"),
    t("match.advancedText", { stage: stageName(app, frame.match, frame.stage) }),
  ));
}

export function onEliminated(app, frame) {
  const match = matchFor(app, frame);
  match.state = "out";
  match.outRank = frame.rank;
  save(app);
  present(app, () => eliminatedDialog(app, frame));
}

function eliminatedDialog(app, frame) {
  let close = null;
  close = dialog(
    [
      h("h2", { class: "result-title", text: t("match.outTitle") }),
      h("p", { class: "match-big" }, t("match.finalRank"), " ", h("b", { "data-testid": "out-rank", text: frame.rank == null ? "—" : t("match.rankN", { n: frame.rank }) })),
      h("p", { class: "muted", text: t("match.outText", { title: titleOf(app, frame.match) }) }),
      h("p", { "data-testid": "out-free", text: t("match.outFree") }),
      h(
        "div",
        { class: "buttons" },
        h("button", { class: "btn quiet", "data-testid": "notice-close", onclick: () => close(), text: t("common.close") }),
        h("button", { class: "btn", "data-testid": "match-back", onclick: () => { close(); backToMatches(app); }, text: t("match.back") }),
        h("button", { class: "btn primary", "data-testid": "to-lobby", onclick: () => { close(); toLobby(app); }, text: t("match.toLobby") }),
      ),
    ],
    { testid: "match-eliminated", attrs: { "data-rank": frame.rank ?? "" }, notice: true },
  );
}

export function onOver(app, frame) {
  const match = matchFor(app, frame);
  match.state = "over";
  match.over = { rank: frame.rank, score: frame.score, prize: frame.prize, standings: frame.standings || [] };
  save(app);
  app.refreshMe();
  if (app.table && app.table.isMatch && app.table.closeResult) app.table.closeResult();
  present(app, () => finalTable(app, match));
}

// ------------------------------------------------------------------ the notice tray

/** Whether the player is in a hand (seated, not watching, the hand not over, or a hand about
 * to be dealt): a match's notice then never covers its controls or seats. */
function handInPlay(app) {
  const T = app.table;
  return Boolean(T && T.state && !T.spectating && !T.state.over && T.view.mounted);
}

/** Show a match's notice now, or, while the player is in a hand, keep it in the notice tray
 * (the table's toolbar: 通知 N) until the hand is over or he opens it. */
function present(app, show) {
  if (!handInPlay(app)) {
    show();
    return;
  }
  app.notices.push(show);
  app.redraw();
}

/** Show the notices kept in the tray (the player asked, or the hand is over). */
export function openNotices(app) {
  for (const show of app.notices.splice(0)) show();
  app.redraw();
}

/** After each batch of frames and each page drawn (main.js): a hand over, the tray opens. */
export function flushNotices(app) {
  if (app.notices.length && !handInPlay(app)) openNotices(app);
}

/** The tray's button on the table's toolbar (null while it is empty). */
export function noticeTray(app, tool) {
  const count = app.notices.length;
  if (!count) return null;
  const button = tool("notices", t("match.tray", { n: count }), () => openNotices(app), "quiet dot");
  button.dataset.count = String(count);
  return button;
}

export function onCancelled(app, frame) {
  if (app.match && app.match.run === frame.run) app.match = null;
  save(app);
  app.refreshMe();
  loadMatches(app).then(() => app.redraw());
  present(app, () => cancelledDialog(app, frame));
}

function cancelledDialog(app, frame) {
  let close = null;
  close = dialog(
    [
      h("h2", { text: t("match.cancelledTitle") }),
      h("p", { "data-testid": "cancel-reason", text: has(`match.reason.${frame.reason}`) ? t(`match.reason.${frame.reason}`) : frame.reason }),
      h("p", { "data-testid": "refunded", "data-value": frame.refunded, text: t("match.refunded", { title: titleOf(app, frame.match), n: frame.refunded }) }),
      h("div", { class: "buttons" }, h("button", { class: "btn primary", "data-testid": "match-back", onclick: () => { close(); backToMatches(app); }, text: t("match.back") })),
    ],
    { testid: "match-cancelled", notice: true },
  );
}

/** Let go of a finished match table (the player is out, or the match is over). */
function letGoOfMatchTable(app) {
  if (app.table && app.table.isMatch && (!app.table.state || app.table.state.over)) app.table = null;
}

/** Back to the match list; a finished match table is let go. */
export function backToMatches(app) {
  letGoOfMatchTable(app);
  app.go("matches");
}

/** To the lobby (a player knocked out may play elsewhere at once). */
function toLobby(app) {
  letGoOfMatchTable(app);
  app.toLobby();
}

/** A notice over the page that does not stop the play (晋级): it goes by itself, or when
 * clicked. */
function notice(kind, title, text) {
  const old = document.getElementById("match-notice");
  if (old) old.remove();
  const box = h(
    "div",
    { class: "match-notice", id: "match-notice", "data-testid": "match-notice", "data-kind": kind, role: "status", onclick: () => box.remove() },
    h("b", { text: title }),
    h("span", { text }),
  );
  document.body.append(box);
  setTimeout(() => box.remove(), 5000);
}

// ------------------------------------------------------------------ the table page

function pill(label, value, testid) {
  return h("span", { class: "pill", "data-testid": testid }, label, " ", h("b", { text: value }));
}

/** How far my table is in the stage: 第 k/N 副 (fixed), 第 r/R 轮 (Swiss), k 副 (knockout). */
function progress(app, match, status) {
  const listedMatch = listed(app, match.name);
  const stage = listedMatch && listedMatch.stages ? listedMatch.stages[status.stage] : null;
  const done = match.stageHands;
  if (stage && status.stage_kind === "fixed") return t("match.handsOf", { n: done, total: stage.hands });
  if (stage && status.stage_kind === "swiss") {
    const round = Math.min(stage.rounds, Math.floor(done / stage.hands) + 1);
    return t("match.roundOf", { n: round, total: stage.rounds });
  }
  return t("match.handsPlayed", { n: done });
}

/** What the player waits for between two hands, or his end. */
function waiting(app, match, T) {
  if (match.state === "over") return t("match.overLine", { n: match.over && match.over.rank != null ? match.over.rank : "—" });
  if (match.state === "out") return t("match.outLine", { n: match.outRank ?? "—" });
  if (match.advancedTo !== null && match.advancedTo !== undefined) return t("match.toStage", { stage: stageName(app, match.name, match.advancedTo) });
  if (T.state.over) return t("match.nextTable");
  return null;
}

/** My rank among the players still in; once out or over, my final rank. */
function rankText(match, status) {
  if (match.state === "over" && match.over && match.over.rank != null) return String(match.over.rank);
  if (match.state === "out" && match.outRank != null) return String(match.outRank);
  return status.rank == null ? "—" : `${status.rank}/${status.players_left}`;
}

/** The in-match panel of the table page (null at a table that is not the match's). */
export function matchStrip(app, T) {
  const match = app.match;
  const name = matchOfRoom(T.state.room);
  if (name === null) return null;
  const ours = match && match.name === name;
  const status = ours ? match.status : null;
  const parts = []; // the match's title is the toolbar's
  if (status) {
    const kind = status.stage_kind ? t(`stage.${status.stage_kind}`) : "";
    if (status.stage !== null && status.stage !== undefined) {
      parts.push(h("span", { class: "pill gold", "data-testid": "match-stage", text: `${stageName(app, name, status.stage, status.stage_name)}${kind ? ` · ${kind}` : ""}` }));
      parts.push(h("span", { class: "pill", "data-testid": "match-progress", text: progress(app, match, status) }));
    }
    parts.push(pill(t("match.rank"), rankText(match, status), "match-rank"));
    parts.push(pill(t("match.score"), status.score == null ? "—" : String(status.score), "match-score"));
    if (match.lastDelta !== null && match.lastDelta !== undefined) {
      parts.push(h("span", { class: `pill ${signClass(match.lastDelta)}`, "data-testid": "match-delta", title: t("match.lastHand"), text: signed(match.lastDelta) }));
    }
    if (status.base != null) parts.push(pill(t("match.base"), String(status.base), "match-base"));
    if (status.stage_kind === "knockout" && status.line != null) parts.push(pill(t("match.line"), String(status.line), "match-line"));
    parts.push(pill(t("match.left"), String(status.players_left), "match-left"));
  } else {
    parts.push(h("span", { class: "muted", text: t("common.loading") }));
  }
  const line = ours ? waiting(app, match, T) : null;
  if (line) parts.push(h("span", { class: "match-wait", "data-testid": "match-wait", text: line }));
  parts.push(h("button", { class: "btn small quiet", "data-testid": "match-standings", onclick: () => standingsDialog(app), text: t("match.standings") }));
  return h(
    "div",
    {
      class: "match-strip",
      "data-testid": "match-panel",
      "data-match": name,
      "data-state": ours ? match.state : "",
      "data-rank": status && status.rank != null ? status.rank : "",
      "data-score": status && status.score != null ? status.score : "",
      "data-base": status && status.base != null ? status.base : "",
      "data-line": status && status.line != null ? status.line : "",
      "data-left": status ? status.players_left : "",
      "data-stage": status && status.stage != null ? status.stage : "",
      "data-hands": ours ? match.stageHands : "",
    },
    parts,
  );
}

/** The match line of a match hand's result panel: the base the hand was scored at (the
 * update after it says `hand_base`; `base` is the stage's now, perhaps risen since), my
 * score and its change. */
export function resultLine(app, T) {
  const el = h("div", { class: "match-result", "data-testid": "result-match" });
  fillResultLine(app, el);
  return el;
}

function fillResultLine(app, el) {
  const match = app.match;
  const status = match && match.status;
  const bits = [t("match.pointsNote")];
  const base = status && (status.hand_base ?? status.base);
  if (base != null) bits.push(`${t("match.base")} ${base}`);
  if (status && status.score != null) {
    const delta = match.lastDelta;
    bits.push(`${t("match.score")} ${status.score}${delta !== null && delta !== undefined ? ` (${signed(delta)})` : ""}`);
  }
  fill(el, bits.join(" · "));
}

/** A match_update arrived while a match hand's result is open: show the new score. */
function refreshResultLine(app) {
  const el = document.querySelector("[data-testid=result-match]");
  if (el) fillResultLine(app, el);
}

// ------------------------------------------------------------------ standings and the final table

function standingsRows(app, rows, myName) {
  return rows.map((row) =>
    h(
      "tr",
      { class: row.name === myName ? "me" : "", "data-testid": "standing-row", "data-rank": row.rank, "data-name": row.name, "data-stage": row.stage ?? "" },
      h("td", { class: "num", text: String(row.rank) }),
      h("td", {}, playerName(row.name), row.out ? h("span", { class: "tag away", text: t("match.outTag") }) : null),
      h("td", { "data-testid": "standing-stage", text: row.stage_name ? stageLabel(row.stage_name) : "" }),
      h("td", { class: "num", "data-testid": "standing-score", text: String(row.score) }),
    ),
  );
}

/** The standings: rank, player, the stage he reached, score; a note says why a player
 * who went on ranks above one out before him with more points (the stage comes first). */
function standingsTable(app, rows) {
  const myName = app.me ? app.me.name : null;
  const head = [
    h("th", { class: "num", text: t("match.rankHead") }),
    h("th", { text: t("table.player") }),
    h("th", { text: t("match.stageHead") }),
    h("th", { class: "num", text: t("match.score") }),
  ];
  const staged = new Set(rows.map((row) => row.stage)).size > 1;
  return [
    h("table", { class: "grid standings" }, h("thead", {}, h("tr", {}, head)), h("tbody", {}, standingsRows(app, rows, myName))),
    staged ? h("p", { class: "muted", "data-testid": "standings-note", text: t("match.orderNote") }) : null,
  ];
}

/** 实时排名: the run's live standings (GET /api/runs/{run}). */
export async function standingsDialog(app) {
  const match = app.match;
  if (!match) return;
  const body = h("div", {}, h("p", { class: "muted", text: t("common.loading") }));
  let close = null;
  close = dialog(
    [
      h("h2", { text: `${titleOf(app, match.name)} · ${t("match.standings")}` }),
      body,
      h("div", { class: "buttons" }, h("button", { class: "btn", "data-testid": "standings-close", onclick: () => close(), text: t("common.close") })),
    ],
    { testid: "standings" },
  );
  if (match.state === "over" && match.over) {
    fill(body, standingsTable(app, match.over.standings));
    return;
  }
  try {
    const run = await api("GET", `/api/runs/${encodeURIComponent(match.run)}`, { token: app.session && app.session.token });
    const where = run.stage === null || run.stage === undefined
      ? t("match.ended")
      : `${stageName(app, match.name, run.stage, run.stage_name)} · ${t("match.left")} ${run.players_left}`;
    fill(body, h("p", { class: "muted", "data-testid": "standings-where", text: where }), standingsTable(app, run.standings));
  } catch (error) {
    fill(body, h("p", { class: "err", text: app.errorText(error.code) }));
  }
}

/** The final table: my rank, score and prize, and the top of the standings. */
export function finalTable(app, match) {
  const over = match.over;
  const prized = over.prize > 0;
  let close = null;
  close = dialog(
    [
      h("h2", { class: `result-title ${over.rank === 1 ? "win" : ""}`, text: t("match.overTitle", { title: titleOf(app, match.name) }) }),
      h(
        "div",
        { class: "final-stats" },
        h("div", {}, h("span", { text: t("match.finalRank") }), h("b", { "data-testid": "final-rank", text: over.rank == null ? "—" : t("match.rankN", { n: over.rank }) })),
        h("div", {}, h("span", { text: t("match.score") }), h("b", { "data-testid": "final-score", text: over.score == null ? "—" : String(over.score) })),
        h("div", {}, h("span", { text: t("match.prize") }), h("b", { class: prized ? "prize" : "", "data-testid": "final-prize", "data-value": over.prize }, prized ? t("match.coinsN", { n: over.prize }) : t("match.noPrize"))),
      ),
      h("h3", { text: t("match.top") }),
      standingsTable(app, over.standings),
      h(
        "div",
        { class: "buttons" },
        app.table && app.table.isMatch ? h("button", { class: "btn quiet", "data-testid": "match-over-close", onclick: () => close(), text: t("match.seeTable") }) : null,
        h("button", { class: "btn primary", "data-testid": "match-back", onclick: () => { close(); backToMatches(app); }, text: t("match.back") }),
      ),
    ],
    { testid: "match-over", attrs: { "data-rank": over.rank ?? "", "data-prize": over.prize } },
  );
  return close;
}

/** A Unix time as the player's local time: 20:00 today, else 5/12 20:00. */
export function localTime(seconds) {
  const date = new Date(seconds * 1000);
  const today = new Date().toDateString() === date.toDateString();
  const locale = lang() === "zh" ? "zh-CN" : "en-GB";
  const time = date.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  return today ? time : `${date.toLocaleDateString(locale, { month: "numeric", day: "numeric" })} ${time}`;
}
