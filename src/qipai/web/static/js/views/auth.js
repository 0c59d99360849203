// Sign up, sign in, or play as a guest.

import { api } from "../api.js";
import { h, fill, icon } from "../dom.js";
import { t } from "../i18n.js";
import { gameTitles } from "../games/index.js";

export function renderAuth(app, root) {
  const name = h("input", { "data-testid": "username", autocomplete: "username", maxlength: "20", required: true });
  const password = h("input", { "data-testid": "password", type: "password", autocomplete: "current-password", maxlength: "128", required: true });
  const error = h("div", { class: "err", "data-testid": "auth-error" });
  const buttons = [];

  const submit = async (path, body) => {
    error.textContent = "";
    for (const button of buttons) button.disabled = true;
    try {
      const session = await api("POST", path, { body });
      await app.signedIn(session);
    } catch (failure) {
      error.textContent = app.errorText(failure.code);
      for (const button of buttons) button.disabled = false;
    }
  };
  const credentials = () => ({ name: name.value.trim(), password: password.value });

  buttons.push(
    h("button", { class: "btn primary", "data-testid": "sign-in", type: "submit", text: t("auth.signin") }),
    h("button", { class: "btn", "data-testid": "sign-up", type: "button", onclick: () => submit("/api/register", credentials()), text: t("auth.signup") }),
    h("button", { class: "btn quiet", "data-testid": "guest", type: "button", onclick: () => submit("/api/guest", undefined), text: t("auth.guest") }),
  );
  const form = h(
    "form",
    {
      class: "auth panel",
      "data-testid": "auth",
      onsubmit: (event) => {
        event.preventDefault();
        submit("/api/login", credentials());
      },
    },
    icon("logo", "logo"),
    h("h1", { text: t("app.title") }),
    h("p", { class: "muted", style: { textAlign: "center", margin: 0 }, text: gameTitles() }),
    h("label", {}, t("auth.name"), name),
    h("label", {}, t("auth.password"), password),
    error,
    h("div", { class: "row" }, buttons[0], buttons[1]),
    buttons[2],
    h("p", { class: "muted", style: { fontSize: "12px", margin: 0 }, text: t("auth.rules") }),
  );
  fill(root, h("div", { class: "page" }, form));
  name.focus();
}
