// The page of a private table before its first hand (#/private), and between hands while it
// waits for its seats again: the code and the link to share, the seats with their ready
// marks, 准备, and the owner's 开始 (bots fill the empty seats), 踢出 and 关闭.

import { h, fill, toast } from "../dom.js";
import { playerName, t } from "../i18n.js";
import { avatarEl } from "../avatar.js";
import { ask, closeButton, handsText, linkOf, readyButton, watcherCount } from "../private.js";

/** 复制链接 (and 分享 where the browser shares). */
function shareButtons(code) {
  const link = linkOf(code);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t("private.copied"));
    } catch {
      toast(t("private.copyFailed"));
    }
  };
  const share = () => navigator.share({ title: t("private.title"), text: t("private.shareText", { code }), url: link }).catch(() => {});
  return [
    h("button", { class: "btn small", "data-testid": "private-copy", onclick: copy, text: t("private.copy") }),
    navigator.share ? h("button", { class: "btn small", "data-testid": "private-share", onclick: share, text: t("private.share") }) : null,
    h("a", { class: "btn small primary", href: "#/friends", "data-testid": "private-invite-friends", text: t("social.inviteFriends") }), // js/views/social.js
  ];
}

function codeBox(info) {
  const link = linkOf(info.code);
  return h(
    "div",
    { class: "private-codebox" },
    h("span", { class: "muted", text: t("private.code") }),
    h("b", { class: "private-code", "data-testid": "private-code", "data-link": link, text: info.code }),
    h("a", { class: "private-link", href: link, "data-testid": "private-link", text: link }),
    h("div", { class: "row" }, shareButtons(info.code)),
  );
}

/** The table's settings in words: game · rules, stakes, hands, seconds, bots, watchers. */
function settings(info) {
  const stakes = info.stakes === "coins" ? `${t("private.stakes.coins")}${info.base ? ` · ${t("private.base")} ${info.base}` : ""}` : t("private.stakes.points");
  const pills = [
    `${t(`game.${info.game}`)} · ${t(`rules.${info.rules}`)}`,
    stakes,
    info.seconds ? t("private.secondsN", { n: info.seconds }) : null,
    info.bots ? t("private.bots") : null,
    info.spectators ? t("private.spectators") : null,
    info.tasks ? t("private.tasks") : null,
  ];
  return h(
    "div",
    { class: "private-settings" },
    h("span", { class: "pill gold", "data-testid": "private-hands", text: handsText(info) }),
    pills.filter(Boolean).map((text) => h("span", { class: "pill", text })),
  );
}

function seatCard(app, info, seat, index) {
  const owner = info.owner === index;
  const canKick = info.owner === info.you && index !== info.you && seat && !seat.bot && info.played === 0 && info.state === "waiting";
  if (!seat) {
    return h("div", { class: "private-seat empty", "data-testid": "private-seat", "data-seat": index, "data-ready": "0" }, h("div", { class: "avatar ghost", text: "?" }), h("span", { class: "muted", text: t("private.empty") }));
  }
  return h(
    "div",
    { class: `private-seat ${seat.ready ? "ready" : ""} ${index === info.you ? "me" : ""}`, "data-testid": "private-seat", "data-seat": index, "data-ready": seat.ready ? "1" : "0" },
    avatarEl(seat.name),
    h("div", { class: "nm" }, h("b", { text: playerName(seat.name) }), index === info.you ? h("span", { class: "muted", text: ` (${t("private.you")})` }) : null),
    h(
      "div",
      { class: "tags" },
      owner ? h("span", { class: "tag gold", text: t("private.owner") }) : null,
      seat.bot ? h("span", { class: "tag", text: t("private.bot") }) : null,
      !seat.connected && !seat.bot ? h("span", { class: "tag away", text: t("private.away") }) : null,
      h("span", { class: `tag ${seat.ready ? "ready" : "muted"}`, "data-testid": "ready-mark", text: t(seat.ready ? "private.isReady" : "private.notReady") }),
    ),
    canKick ? h("button", { class: "btn small warn", "data-testid": "private-kick", "data-seat": index, onclick: () => ask(app, { type: "private_kick", seat: index }), text: t("private.kick") }) : null,
  );
}

function controls(app, info) {
  const owner = info.owner === info.you;
  const waiting = info.state === "waiting";
  return h(
    "div",
    { class: "buttons private-controls" },
    waiting ? readyButton(app, info) : null,
    owner && waiting && info.bots
      ? h("button", { class: "btn", "data-testid": "private-start", title: t("private.startHint"), onclick: () => ask(app, { type: "private_start" }), text: t("private.start") })
      : null,
    owner ? closeButton(app, false) : null,
    h("button", { class: "btn quiet", "data-testid": "private-leave", onclick: () => leave(app), text: t("private.leave") }),
    info.table !== null && app.table && app.table.number === info.table
      ? h("button", { class: "btn quiet", "data-testid": "back-to-table", onclick: () => app.go("table"), text: t("nav.table") })
      : null,
  );
}

function leave(app) {
  app.send({ type: "leave" });
  app.private = null;
  app.go("lobby");
}

/** #/private: the private table the player sits at, or a line saying there is none. */
export function renderPrivate(app, root) {
  const info = app.private;
  if (!info) {
    fill(root, h("div", { class: "page", "data-testid": "private-room" }, h("div", { class: "panel" }, h("p", { text: t("private.notHere") }), h("button", { class: "btn", onclick: () => app.go("lobby"), text: t("nav.lobby") }))));
    return;
  }
  fill(
    root,
    h(
      "div",
      { class: "page", "data-testid": "private-room", "data-code": info.code, "data-state": info.state },
      h(
        "div",
        { class: "panel private-room" },
        h("h2", {}, t("private.title"), h("span", { class: "spacer" }), h("span", { class: "watch-line" }, `${t("private.watchers")} `, watcherCount(app, info.table))),
        codeBox(info),
        settings(info),
        h("div", { class: "private-seats" }, info.seats.map((seat, index) => seatCard(app, info, seat, index))),
        h("p", { class: "muted", text: t(info.owner === info.you && info.bots ? "private.waitingBots" : "private.waiting") }),
        controls(app, info),
      ),
    ),
  );
}
