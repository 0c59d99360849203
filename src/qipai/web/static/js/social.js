// Friends 好友 wherever the player is: an invitation to a friend's private table (the
// `invite` frame: a notice with 加入), a player's card 名片 opened by tapping his seat (加好友),
// and the texts of friends and accounts ([中文, English] as js/strings.js, merged here).

import { api } from "./api.js";
import { avatarEl, setLook } from "./avatar.js";
import { dialog, h, toast } from "./dom.js";
import { addStrings, playerName, t } from "./i18n.js";
import { joinCode } from "./private.js";

export const SOCIAL_STRINGS = {
  "nav.friends": ["好友 · 账号", "Friends · account"],
  "nav.friendsGuest": ["好友 · 绑定账号", "Friends · keep this account"],
  "social.friends": ["我的好友", "My friends"],
  "social.none": ["还没有好友：输入名字加好友，或在牌桌上点玩家头像", "No friends yet: add one by name, or tap a player's seat at a table"],
  "social.addHint": ["玩家名字", "A player's name"],
  "social.add": ["加好友", "Add friend"],
  "social.accept": ["接受", "Accept"],
  "social.remove": ["删除", "Remove"],
  "social.decline": ["拒绝", "Decline"],
  "social.withdraw": ["撤回", "Withdraw"],
  "social.invite": ["邀请", "Invite"],
  "social.invited": ["已邀请 {name}", "{name} invited"],
  "social.watch": ["观战", "Watch"],
  "social.refresh": ["刷新", "Refresh"],
  "social.asked": ["已发送好友申请", "Friend request sent"],
  "social.nowFriends": ["你们已是好友", "You are friends now"],
  "social.state.asked": ["等待对方同意", "request sent"],
  "social.state.asking": ["请求加你为好友", "wants to be your friend"],
  "social.online": ["在线", "online"],
  "social.offline": ["离线", "offline"],
  "social.where.lobby": ["在大厅", "in the lobby"],
  "social.where.room": ["在{room}", "in {room}"],
  "social.where.private": ["在好友房", "at a private table"],
  "social.where.match": ["比赛中", "in a match"],
  "social.where.watching": ["观战中", "watching a table"],
  "social.inviteTitle": ["好友邀请", "An invitation"],
  "social.inviteText": ["{name} 邀请你加入{title}好友房（房号 {code}）", "{name} invites you to a private table of {title} (code {code})"],
  "social.join": ["加入", "Join"],
  "social.ignore": ["忽略", "Ignore"],
  "social.atPrivate": ["你在好友房中：可邀请在线好友入座", "You sit at a private table: invite a friend online to join"],
  "social.inviteFriends": ["邀请好友", "Invite friends"],
  "card.level": ["等级", "Level"],
  "card.wins": ["胜局", "Wins"],
  "card.hands": ["总局数", "Hands"],
  "card.bot": ["机器人玩家", "A bot"],
  "card.guest": ["游客", "Guest"],
  "card.you": ["这是你", "This is you"],
  "card.friends": ["好友", "Friends"],
  "account.title": ["我的账号", "My account"],
  "account.bindTitle": ["绑定账号", "Keep this account"],
  "account.bindAbout": ["游客绑定用户名和密码后，金币、战绩、等级和好友都会保留，可在别处登录", "Bind a name and a password: your coins, history, level and friends stay, and you can sign in anywhere"],
  "account.bind": ["绑定", "Bind"],
  "account.bound": ["绑定成功：现在可用 {name} 登录", "Bound: sign in as {name} from now on"],
  "account.passwordTitle": ["修改密码", "Change password"],
  "account.oldPassword": ["当前密码", "Current password"],
  "account.newPassword": ["新密码", "New password"],
  "account.changePassword": ["修改", "Change"],
  "account.passwordChanged": ["密码已修改，其他设备已退出登录", "Password changed: your other sessions are signed out"],
  "account.nickname": ["昵称", "Nickname"],
  "account.rename": ["改名", "Rename"],
  "account.renamed": ["已改名为 {name}", "Now called {name}"],
  "account.avatar": ["头像", "Avatar"],
  "account.avatarDrawn": ["随机", "Drawn"],
  "account.showWhere": ["好友可见我的位置", "Friends see where I am"],
  "error.name_taken": ["该名字已被使用（或与已有名字太像）", "That name is taken (or looks like one that is)"],
  "error.not_guest": ["你已经有账号了", "You have an account already"],
  "error.unknown_player": ["没有这个玩家", "No such player"],
  "error.not_yourself": ["不能加自己为好友", "That is you"],
  "error.already_friends": ["你们已是好友", "You are friends already"],
  "error.not_friends": ["你们还不是好友", "You are not friends"],
  "error.too_many_friends": ["好友已满", "Too many friends"],
  "error.not_online": ["对方不在线", "Not online"],
  "error.not_at_private": ["请先进入好友房", "Sit at a private table first"],
  "error.bad_avatar": ["无效的头像", "No such avatar"],
  "error.bind_first": ["游客请先绑定账号", "Bind your account first"],
  "error.not_bound": ["游客没有密码：请先绑定", "A guest has no password: bind first"],
  "error.bad_credentials": ["用户名或密码错误", "Wrong name or password"],
};
addStrings(SOCIAL_STRINGS);

/** Call the API as the signed-in player. */
export const callApi = (app, method, path, body) => api(method, path, { token: app.session.token, body });

/** The lobby's way to #/friends (a guest's says 绑定账号: his play is lost with his browser). */
export function socialButton(app) {
  return h("a", { class: "btn small primary social-open", href: "#/friends", "data-testid": "nav-friends", text: t(app.guest ? "nav.friendsGuest" : "nav.friends") });
}

/** Learn the look the signed-in player chose (his avatar wherever his name shows). */
export async function learnMine(app) {
  if (!app.session) return;
  try {
    learnAccount(app, await callApi(app, "GET", "/api/me/account"));
  } catch {
    // drawn from his name meanwhile
  }
}

/** What the page keeps of the player's account (GET /api/me/account and its changes): his
 * look, and whether he is a guest (`app.guest`). */
export function learnAccount(app, account) {
  setLook(account.name, account.avatar);
  app.guest = account.guest;
}

/** Learn the looks the players of `rows` chose (each {name, avatar}). */
export function learnLooks(rows) {
  for (const row of rows) setLook(row.name, row.avatar);
}

/** The `invite` frame: a friend invites the player to his private table; 加入 joins it by
 * its code (`private_join`). */
export function onInvite(app, frame) {
  let close = null;
  const join = () => {
    close();
    joinCode(app, frame.code);
  };
  close = dialog(
    [
      h("h3", { text: t("social.inviteTitle") }),
      h("p", { "data-testid": "invite-text", text: t("social.inviteText", { name: playerName(frame.name), title: frame.title, code: frame.code }) }),
      h(
        "div",
        { class: "row" },
        h("button", { class: "btn primary", "data-testid": "invite-join", onclick: join, text: t("social.join") }),
        h("button", { class: "btn quiet", onclick: () => close(), text: t("social.ignore") }),
      ),
    ],
    { testid: "invite-notice", notice: true },
  );
}

/** Ask to be friends with `name` (or accept his request); a toast says what happened. */
export async function addFriend(app, name) {
  try {
    const answer = await callApi(app, "POST", `/api/friends/${encodeURIComponent(name)}`);
    toast(t(answer.state === "friends" ? "social.nowFriends" : "social.asked"));
    return answer.state;
  } catch (failure) {
    toast(app.errorText(failure.code));
    return null;
  }
}

/** The card 名片 of the player seated as `player` ({name, bot}): a bot's says so; a
 * person's is asked of the hall (avatar, level, wins, hands, and 加好友 unless he is a
 * friend already, or the player himself). */
export async function openCard(app, player) {
  const body = h("div", { class: "player-card" }, avatarEl(player.name), h("b", { "data-testid": "card-name", text: playerName(player.name) }));
  const close = dialog(body, { testid: "player-card" });
  if (player.bot) {
    body.append(h("p", { class: "muted", "data-testid": "card-bot", text: t("card.bot") }));
    return close;
  }
  let card;
  try {
    card = await callApi(app, "GET", `/api/players/${encodeURIComponent(player.name)}`);
  } catch (failure) {
    body.append(h("p", { class: "err", text: app.errorText(failure.code) }));
    return close;
  }
  setLook(card.name, card.avatar);
  body.firstChild.replaceWith(avatarEl(card.name));
  const line = (key, value, id) => h("div", { class: "card-line" }, h("span", { class: "muted", text: t(key) }), h("b", { "data-testid": id, text: String(value) }));
  body.append(line("card.level", app.levelTitle(card.level.title), "card-level"), line("card.wins", card.wins, "card-wins"), line("card.hands", card.hands, "card-hands"));
  if (card.guest) body.append(h("span", { class: "tag", "data-testid": "card-guest", text: t("card.guest") }));
  const self = app.me && app.me.name === card.name;
  if (self) body.append(h("p", { class: "muted", text: t("card.you") }));
  else if (card.friend === "friends") body.append(h("span", { class: "tag gold", "data-testid": "card-friends", text: t("card.friends") }));
  else if (card.friend === "asked") body.append(h("p", { class: "muted", text: t("social.state.asked") }));
  else {
    const add = h("button", {
      class: "btn primary",
      "data-testid": "card-add",
      onclick: async () => {
        add.disabled = true;
        if (!(await addFriend(app, card.name))) add.disabled = false;
      },
      text: t(card.friend === "asking" ? "social.accept" : "social.add"),
    });
    body.append(add);
  }
  return close;
}
