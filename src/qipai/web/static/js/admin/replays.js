// A hand's replay inside the console (#/replay/HAND/SEAT): the player client's own replay
// page (js/views/replay.js), drawn here with a stand-in for the client's app (no table of
// its own, no player: the seat asked, else the first). The symbols (the logo, the suits)
// are the client page's SVG sprite, taken from it once, when the console opens.

import { fill, h } from "../dom.js";
import { has, t } from "../i18n.js";
import { renderReplay } from "../views/replay.js";

let sprite = null;

/** The client page's <svg class="symbols"> (the suits, the crown, the logo), added once. */
export function symbols() {
  if (!sprite) {
    sprite = fetch("../")
      .then((response) => response.text())
      .then((text) => {
        const found = new DOMParser().parseFromString(text, "text/html").querySelector("svg.symbols");
        if (found) document.body.prepend(document.importNode(found, true));
      })
      .catch(() => {
        sprite = null; // drawn without the symbols this time; tried again at the next replay
      });
  }
  return sprite;
}

/** Draw the replay of `arg` ("HAND/SEAT") in `root`; returns what lets go of it. */
export function renderReplayHere(root, arg) {
  const stand = {
    table: null,
    me: null,
    leaveView: null,
    errorText: (code) => (has(`error.${code}`) ? t(`error.${code}`) : code),
  };
  const board = h("div", { class: "console-replay" });
  fill(root, h("p", {}, h("a", { href: "#", "data-testid": "admin-replay-back", onclick: (event) => (event.preventDefault(), history.back()), text: `← ${t("admin.back")}` })), board);
  symbols().then(() => renderReplay(stand, board, arg));
  return () => {
    if (stand.leaveView) stand.leaveView();
  };
}
