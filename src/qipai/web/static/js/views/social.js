// #/friends: the friends list 好友 (online, where, 观战 at one click, 邀请 from a private
// table, requests to accept), 加好友 by name, and the player's account: 绑定 for a guest,
// 修改密码, the nickname, the avatar and whether friends see where he is.

import { avatarEl, LOOKS } from "../avatar.js";
import { fill, h, toast } from "../dom.js";
import { playerName, roomTitle, t } from "../i18n.js";
import { watch } from "../private.js";
import { addFriend, callApi, learnAccount, learnLooks } from "../social.js";

const REFRESH_MS = 5000;

/** Draw the page, and keep its friends list fresh while it shows. */
export async function renderSocial(app, root) {
  const list = h("div", { class: "friend-rows", "data-testid": "friends-list" }, h("p", { class: "muted", text: t("common.loading") }));
  const accountBox = h("div", { class: "panel account", "data-testid": "account" });
  fill(root, h("div", { class: "page social" }, friendsPanel(app, list), accountBox));
  const refresh = () => drawFriends(app, list);
  const timer = setInterval(refresh, REFRESH_MS);
  app.leaveView = () => clearInterval(timer);
  await Promise.all([refresh(), drawAccount(app, accountBox)]);
}

function friendsPanel(app, list) {
  const name = h("input", { "data-testid": "friend-name", maxlength: "20", placeholder: t("social.addHint"), "aria-label": t("social.addHint") });
  const add = async () => {
    const typed = name.value.trim();
    if (!typed) return;
    if (await addFriend(app, typed)) name.value = "";
    drawFriends(app, list);
  };
  return h(
    "div",
    { class: "panel friends-panel" },
    h("div", { class: "friends-title" }, h("b", { text: t("social.friends") }), h("button", { class: "btn small quiet", "data-testid": "friends-refresh", onclick: () => drawFriends(app, list), text: t("social.refresh") })),
    app.private
      ? h("p", { class: "muted", "data-testid": "friends-at-private" }, t("social.atPrivate"), " ", h("a", { class: "btn small", href: "#/private", "data-testid": "friends-back-private", text: t("private.title") }))
      : null,
    h("div", { class: "friends-entry" }, name, h("button", { class: "btn primary", "data-testid": "friend-add", onclick: add, text: t("social.add") })),
    list,
  );
}

async function drawFriends(app, list) {
  let rows;
  try {
    rows = await callApi(app, "GET", "/api/friends");
  } catch (failure) {
    fill(list, h("p", { class: "err", text: app.errorText(failure.code) }));
    return;
  }
  learnLooks(rows);
  if (!rows.length) fill(list, h("p", { class: "muted", "data-testid": "friends-none", text: t("social.none") }));
  else fill(list, rows.map((row) => friendRow(app, row, () => drawFriends(app, list))));
}

function whereText(app, where) {
  if (where.kind !== "room") return t(`social.where.${where.kind}`);
  const room = app.rooms.find((r) => r.id === where.room);
  return t("social.where.room", { room: room ? roomTitle(room) : where.room });
}

function friendRow(app, row, redraw) {
  const path = `/api/friends/${encodeURIComponent(row.name)}`;
  const act = (method, then) => async () => {
    try {
      await callApi(app, method, path);
      if (then) toast(then);
    } catch (failure) {
      toast(app.errorText(failure.code));
    }
    redraw();
  };
  const buttons = [];
  let status;
  if (row.state === "friends") {
    status = row.online ? (row.where ? whereText(app, row.where) : t("social.online")) : t("social.offline");
    if (row.watchable) buttons.push(h("button", { class: "btn small", "data-testid": "friend-watch", onclick: () => watch(app, { player: row.name }), text: t("social.watch") }));
    if (app.private && row.online) {
      const invite = async () => {
        try {
          await callApi(app, "POST", `${path}/invite`);
          toast(t("social.invited", { name: playerName(row.name) }));
        } catch (failure) {
          toast(app.errorText(failure.code));
        }
      };
      buttons.push(h("button", { class: "btn small primary", "data-testid": "friend-invite", onclick: invite, text: t("social.invite") }));
    }
    buttons.push(h("button", { class: "btn small quiet", "data-testid": "friend-remove", onclick: act("DELETE"), text: t("social.remove") }));
  } else if (row.state === "asking") {
    status = t("social.state.asking");
    buttons.push(h("button", { class: "btn small primary", "data-testid": "friend-accept", onclick: act("POST", t("social.nowFriends")), text: t("social.accept") }));
    buttons.push(h("button", { class: "btn small quiet", "data-testid": "friend-decline", onclick: act("DELETE"), text: t("social.decline") }));
  } else {
    status = t("social.state.asked");
    buttons.push(h("button", { class: "btn small quiet", "data-testid": "friend-withdraw", onclick: act("DELETE"), text: t("social.withdraw") }));
  }
  const online = row.state === "friends" && row.online;
  return h(
    "div",
    { class: `friend-row ${online ? "online" : ""}`, "data-testid": "friend", "data-name": row.name, "data-state": row.state, "data-online": online ? "1" : "0", "data-where": row.where ? row.where.kind : "" },
    avatarEl(row.name, { small: true }),
    h("div", { class: "friend-who" }, h("b", { text: playerName(row.name) }), h("span", { class: `muted friend-status ${online ? "on" : ""}`, "data-testid": "friend-status", text: status })),
    h("div", { class: "friend-buttons" }, buttons),
  );
}

async function drawAccount(app, box) {
  let account;
  try {
    account = await callApi(app, "GET", "/api/me/account");
  } catch (failure) {
    fill(box, h("p", { class: "err", text: app.errorText(failure.code) }));
    return;
  }
  learnAccount(app, account);
  const redraw = () => drawAccount(app, box);
  fill(
    box,
    h("b", { text: t("account.title") }),
    account.guest ? bindForm(app, redraw) : [nicknameForm(app, account, redraw), passwordForm(app)],
    avatarPicker(app, account, redraw),
    h(
      "label",
      { class: "check" },
      h("input", { type: "checkbox", "data-testid": "show-where", checked: account.show_where, onchange: (event) => change(app, { show_where: event.target.checked }, redraw) }),
      t("account.showWhere"),
    ),
  );
}

/** POST /api/me/account with `body`; the header and the page drawn again. */
async function change(app, body, redraw, done) {
  try {
    const account = await callApi(app, "POST", "/api/me/account", body);
    learnAccount(app, account);
    if (done) toast(done(account));
    await app.refreshMe();
  } catch (failure) {
    toast(app.errorText(failure.code));
  }
  redraw();
}

function field(label, input) {
  return h("label", {}, h("span", { text: label }), input);
}

function bindForm(app, redraw) {
  const name = h("input", { "data-testid": "bind-name", autocomplete: "username", maxlength: "20" });
  const password = h("input", { "data-testid": "bind-password", type: "password", autocomplete: "new-password", maxlength: "128" });
  const error = h("div", { class: "err", "data-testid": "bind-error" });
  const submit = async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const account = await callApi(app, "POST", "/api/me/bind", { name: name.value.trim(), password: password.value });
      app.session = { ...app.session, name: account.name };
      toast(t("account.bound", { name: account.name }));
      await app.refreshMe();
      redraw();
    } catch (failure) {
      error.textContent = app.errorText(failure.code);
    }
  };
  return h(
    "form",
    { class: "account-form", "data-testid": "bind", onsubmit: submit },
    h("b", { text: t("account.bindTitle") }),
    h("p", { class: "muted", text: t("account.bindAbout") }),
    field(t("auth.name"), name),
    field(t("auth.password"), password),
    error,
    h("button", { class: "btn primary", "data-testid": "bind-submit", type: "submit", text: t("account.bind") }),
  );
}

function nicknameForm(app, account, redraw) {
  const name = h("input", { "data-testid": "nickname", maxlength: "20", value: account.name });
  const submit = (event) => {
    event.preventDefault();
    change(app, { name: name.value.trim() }, redraw, (a) => t("account.renamed", { name: a.name }));
  };
  return h("form", { class: "account-form inline", "data-testid": "rename", onsubmit: submit }, field(t("account.nickname"), name), h("button", { class: "btn", "data-testid": "rename-submit", type: "submit", text: t("account.rename") }));
}

function passwordForm(app) {
  const old = h("input", { "data-testid": "old-password", type: "password", autocomplete: "current-password", maxlength: "128" });
  const next = h("input", { "data-testid": "new-password", type: "password", autocomplete: "new-password", maxlength: "128" });
  const error = h("div", { class: "err", "data-testid": "password-error" });
  const submit = async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await callApi(app, "POST", "/api/me/password", { password: old.value, new_password: next.value });
      old.value = next.value = "";
      toast(t("account.passwordChanged"));
    } catch (failure) {
      error.textContent = app.errorText(failure.code);
    }
  };
  return h(
    "form",
    { class: "account-form", "data-testid": "password-change", onsubmit: submit },
    h("b", { text: t("account.passwordTitle") }),
    field(t("account.oldPassword"), old),
    field(t("account.newPassword"), next),
    error,
    h("button", { class: "btn", "data-testid": "password-submit", type: "submit", text: t("account.changePassword") }),
  );
}

function avatarPicker(app, account, redraw) {
  const choice = (look, label) =>
    h(
      "button",
      {
        class: `btn small quiet look ${account.avatar === look ? "on" : ""}`,
        "data-testid": "avatar-pick",
        "data-look": look === null ? "" : String(look),
        "aria-pressed": account.avatar === look ? "true" : "false",
        title: label,
        onclick: () => change(app, { avatar: look === null ? -1 : look }, redraw),
      },
      look === null ? avatarEl(account.name, { look: null }) : avatarEl(account.name, { look }),
    );
  const looks = Array.from({ length: LOOKS }, (_, k) => choice(k, String(k + 1)));
  return h("div", { class: "avatar-picker" }, h("span", { text: t("account.avatar") }), h("div", { class: "looks" }, choice(null, t("account.avatarDrawn")), looks));
}
