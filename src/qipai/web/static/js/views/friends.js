// The lobby's 好友房 panel: 创建好友房 (the form: game, rules, 局数, stakes, seconds, bots,
// spectators, 任务 where the game has them, spectators' delay), 加入 by a 6-digit code,
// 观战 a friend by name, and the player's own 按名字观战我 choice (watch_by_name: default /
// allowed / not allowed, kept per account in localStorage). The form offers every game and preset the hall's rooms offer
// (GET /api/rooms); its defaults make a table of the first game's first rules, for points.

import { dialog, fill, h, toast } from "../dom.js";
import { lang, t } from "../i18n.js";
import { gameNamed, gameNames } from "../games/index.js";
import { byLevel } from "../stakes.js";
import { ask, isCode, joinCode, setWatchChoice, watch } from "../private.js";
import { storage } from "../storage.js";

const HANDS = [6, 12, 24, 0];
const SECONDS = [null, 10, 15, 20, 30, 45, 60];
const DELAYS = [0, 10, 30, 60];

/** The stake a room's level stands for: the first of its game's room numbers it has
 * (a coefficient, a base). */
function stakeOf(room) {
  const game = gameNamed(room.game);
  const fields = (game && game.roomNumbers) || ["base"];
  const field = fields.find((name) => room[name]);
  return field ? room[field] : null;
}

/** A base's words: the lowest level it is the stake of, and the stake. */
function baseLabel(levels, value) {
  const room = levels.find((r) => stakeOf(r) === value);
  return `${t(`stake.${room.level || "novice"}`)} · ${value}`;
}

function select(testid, options, value, onchange) {
  const el = h(
    "select",
    { "data-testid": testid, onchange: () => onchange(el.value) },
    options.map(([key, label]) => h("option", { value: String(key), text: label })),
  );
  el.value = String(value);
  return el;
}

function check(testid, checked, onchange) {
  const el = h("input", { type: "checkbox", "data-testid": testid, onchange: () => onchange(el.checked) });
  el.checked = checked;
  return el;
}

function field(label, control) {
  return h("label", { class: "field" }, h("span", { text: label }), control);
}

/** The private_create message of the form's choices. */
function message(choice) {
  return {
    type: "private_create",
    game: choice.game,
    rules: choice.rules,
    hands: choice.hands,
    stakes: choice.stakes,
    base: choice.stakes === "coins" ? choice.base : null,
    seconds: choice.seconds,
    bots: choice.bots,
    spectators: choice.spectators,
    tasks: Boolean(choice.tasks && gameNamed(choice.game) && gameNamed(choice.game).privateTasks),
    delay: choice.delay,
  };
}

/** 创建好友房: the form, drawn again on each choice (the rules and bases follow the game). */
function openForm(app) {
  const games = gameNames().filter((game) => app.rooms.some((room) => room.game === game));
  if (!games.length) return;
  const choice = { game: games[0], rules: null, hands: 6, stakes: "points", base: null, seconds: null, bots: true, spectators: true, tasks: false, delay: 0 };
  const body = h("div", { class: "private-form" });
  const draw = () => {
    const rooms = app.rooms.filter((room) => room.game === choice.game);
    const presets = [...new Set(rooms.map((room) => room.rules))];
    if (!presets.includes(choice.rules)) choice.rules = presets[0];
    const levels = byLevel(rooms.filter((room) => room.rules === choice.rules && room.min_coins > 0 && stakeOf(room) !== null));
    const bases = [...new Set(levels.map(stakeOf))];
    if (!bases.includes(choice.base)) choice.base = bases.length ? bases[0] : null;
    const set = (key, parse = (v) => v) => (value) => {
      choice[key] = parse(value);
      draw();
    };
    const game = gameNamed(choice.game);
    fill(
      body,
      field(t("private.game"), select("private-game", games.map((name) => [name, t(`game.${name}`)]), choice.game, set("game"))),
      field(t("private.rules"), select("private-rules", presets.map((name) => [name, t(`rules.${name}`)]), choice.rules, set("rules"))),
      field(t("private.hands"), select("private-hands", HANDS.map((n) => [n, n ? t("private.handsN", { n }) : t("private.handsOpen")]), choice.hands, set("hands", Number))),
      field(t("private.stakes"), select("private-stakes", [["points", t("private.stakes.points")], ...(bases.length ? [["coins", t("private.stakes.coins")]] : [])], choice.stakes, set("stakes"))),
      choice.stakes === "coins"
        ? field(t("private.base"), select("private-base", bases.map((value) => [value, baseLabel(levels, value)]), choice.base, set("base", Number)))
        : null,
      field(t("private.seconds"), select("private-seconds", SECONDS.map((n) => [n ?? "", n ? t("private.secondsN", { n }) : t("private.secondsDefault")]), choice.seconds ?? "", set("seconds", (v) => (v ? Number(v) : null)))),
      field(t("private.delay"), select("private-delay", DELAYS.map((n) => [n, n ? t("private.secondsN", { n }) : t("private.delayNone")]), choice.delay, set("delay", Number))),
      h("label", { class: "check" }, check("private-bots", choice.bots, set("bots")), t("private.bots")),
      h("label", { class: "check" }, check("private-spectators", choice.spectators, set("spectators")), t("private.spectators")),
      game && game.privateTasks ? h("label", { class: "check" }, check("private-tasks", choice.tasks, set("tasks")), t("private.tasks")) : null,
    );
  };
  draw();
  let close = null;
  const confirm = () => {
    close();
    ask(app, message(choice));
  };
  close = dialog(
    [
      h("h2", { text: t("private.createTitle") }),
      body,
      h(
        "div",
        { class: "buttons" },
        h("button", { class: "btn quiet", "data-testid": "private-cancel", onclick: () => close(), text: t("common.cancel") }),
        h("button", { class: "btn primary", "data-testid": "private-confirm", onclick: confirm, text: t("private.confirm") }),
      ),
    ],
    { testid: "private-form" },
  );
}

/** An input with its button: Enter presses the button. */
function entry(inputAttrs, button) {
  const input = h("input", { ...inputAttrs, onkeydown: (event) => { if (event.key === "Enter") button.click(); } });
  return [input, button];
}

let cached = null; // {panel, create, lang, user}: the panel kept across the lobby's redraws (what is typed stays)

/** The lobby's 好友房 panel (the same element on each redraw of the lobby, in one language,
 * for one player). */
export function friendsPanel(app) {
  if (!app.rooms.length) return null;
  const user = app.me ? app.me.id : null;
  if (!cached || cached.lang !== lang() || cached.user !== user) cached = { ...buildPanel(app), user };
  cached.create.disabled = Boolean(app.queued);
  return cached.panel;
}

/** 观战 what the box holds: a 6-digit number is a private table's code, else a player's
 * name. */
function watchTyped(app, typed) {
  if (!typed) toast(t("private.watchNeedName"));
  else if (isCode(typed)) watch(app, { code: typed });
  else watch(app, { player: typed });
}

function buildPanel(app) {
  const [code, joinButton] = entry(
    { "data-testid": "private-join-code", inputmode: "numeric", maxlength: "6", placeholder: t("private.codeHint"), "aria-label": t("private.codeHint") },
    h("button", {
      class: "btn",
      "data-testid": "private-join",
      onclick: () => (isCode(code.value) ? joinCode(app, code.value.trim()) : toast(t("private.badCode"))),
      text: t("private.join"),
    }),
  );
  const [name, watchButton] = entry(
    { "data-testid": "spectate-name", maxlength: "20", placeholder: t("private.watchName"), "aria-label": t("private.watchName") },
    h("button", {
      class: "btn quiet",
      "data-testid": "spectate",
      onclick: () => watchTyped(app, name.value.trim()),
      text: t("private.watch"),
    }),
  );
  const create = h("button", { class: "btn primary", "data-testid": "private-create", onclick: () => openForm(app), text: t("private.create") });
  const panel = h(
    "div",
    { class: "friends panel", "data-testid": "friends" },
    h("div", { class: "friends-title" }, h("b", { text: t("private.title") }), h("span", { class: "muted", text: t("private.about") })),
    create,
    h("div", { class: "friends-entry" }, code, joinButton),
    h("div", { class: "friends-entry" }, name, watchButton),
    watchChoice(app),
  );
  return { panel, create, lang: lang() };
}

/** 按名字观战我: whether others may watch the player's table by his name (the hall's
 * default: yes but at a 好友房, where only its code lets people watch). */
function watchChoice(app) {
  const chosen = app.me ? storage.watchByName(app.me.id) : null;
  const options = [["", "private.watchByName.default"], ["yes", "private.watchByName.yes"], ["no", "private.watchByName.no"]];
  const el = select(
    "watch-by-name",
    options.map(([value, key]) => [value, t(key)]),
    chosen === null ? "" : chosen ? "yes" : "no",
    (value) => setWatchChoice(app, value === "" ? null : value === "yes"),
  );
  return h("label", { class: "field watch-by-name" }, h("span", { text: t("private.watchByName") }), el);
}
