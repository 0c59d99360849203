// What every section of the console shares: the console's API calls with the operator's
// session, a table of rows, the action form (a reason always, the action's own fields),
// the words for an API's refusal, and the times as the operator's clock shows them.

import { api } from "../api.js";
import { dialog, fill, h, toast } from "../dom.js";
import { has, t } from "../i18n.js";

/** The console's state: the operator's session ({token, name, id}) and his role. */
export const operator = { session: null, role: null, name: null };

const RANKS = ["viewer", "moderator", "admin"];

/** Whether the operator's role is `least` or above (an action he may not do is hidden). */
export function may(least) {
  return RANKS.indexOf(operator.role) >= RANKS.indexOf(least);
}

/** GET a console path with the operator's token. Refused `forbidden` (his session ended
 * or his role was taken since the page opened: every read needs only a role), the page
 * asks GET /api/admin/me again (main.js: `console-forbidden`). */
export async function get(path) {
  try {
    return await api("GET", path, { token: operator.session?.token });
  } catch (error) {
    if (error.code === "forbidden") window.dispatchEvent(new Event("console-forbidden"));
    throw error;
  }
}

/** POST a console action (always JSON) with the operator's token. */
export function post(path, body) {
  return api("POST", path, { token: operator.session?.token, body });
}

/** The words of an API's refusal: the client's text for its code where there is one,
 * else the API's own message, with the code. */
export function refusal(error) {
  const known = has(`error.${error.code}`) ? t(`error.${error.code}`) : error.message;
  return known && known !== error.code ? `${known} (${error.code})` : error.code;
}

/** A time as the operator's clock shows it (the API's are ISO 8601 with their zone). */
export function when(iso) {
  if (!iso) return "—";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const pad = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A table: `columns` [{key, num}], `rows` of cells (text or nodes); `empty`: the words
 * shown when there is no row. */
export function grid(columns, rows, { testid, empty, rowAttrs } = {}) {
  if (!rows.length) return h("p", { class: "muted", "data-testid": testid ? `${testid}-empty` : null, text: empty || t("admin.none") });
  return h(
    "div",
    { class: "grid-wrap" },
    h(
      "table",
      { class: "grid admin-grid", "data-testid": testid },
      h("thead", {}, h("tr", {}, columns.map((c) => h("th", { class: c.num ? "num" : "", text: t(c.key) })))),
      h(
        "tbody",
        {},
        rows.map((cells, i) =>
          h("tr", rowAttrs ? rowAttrs(i) : {}, cells.map((cell, j) => h("td", { class: columns[j].num ? "num" : "", "data-label": t(columns[j].key) }, cell))),
        ),
      ),
    ),
  );
}

/** A section's frame: its title, a refresh button, its body (filled by `load`). The body
 * shows the API's refusal when `load` throws one. */
export function section(root, { title, testid, load }) {
  const body = h("div", { class: "section-body" });
  const box = h(
    "section",
    { class: "panel admin-section", "data-testid": testid, "data-loaded": "0" },
    h("div", { class: "section-head" }, h("h2", { text: title }), h("button", { class: "btn small quiet", "data-testid": "admin-refresh", onclick: () => run(), text: t("admin.refresh") })),
    body,
  );
  const run = async () => {
    box.dataset.loaded = "0";
    try {
      await load(body);
    } catch (error) {
      fill(body, h("p", { class: "err", "data-testid": "admin-error", "data-code": error.code || "", text: refusal(error) }));
    }
    box.dataset.loaded = "1";
  };
  fill(root, box);
  run();
  return run;
}

/**
 * The form of one action: a reason is always asked; `fields` are the action's own
 * ({name, key, type: "number" | "text" | "datetime-local" | "select" | "checkbox", options,
 * value, hint}). `send(values)` does it; its refusal is shown in the form, which stays
 * open; once done the form closes, `done(answer)` runs (it refreshes what changed).
 */
export function actionForm({ title, testid, fields = [], warn, send, done, reason = true }) {
  const inputs = {};
  const rows = fields.map((field) => {
    let input;
    if (field.type === "select") {
      input = h("select", { "data-testid": `admin-${field.name}` }, field.options.map(([value, label]) => h("option", { value, text: label })));
      if (field.value !== undefined) input.value = field.value;
    } else if (field.type === "checkbox") {
      input = h("input", { type: "checkbox", "data-testid": `admin-${field.name}`, checked: Boolean(field.value) });
    } else {
      input = h("input", { type: field.type || "text", "data-testid": `admin-${field.name}`, value: field.value ?? "", step: field.type === "number" ? "1" : null, inputmode: field.type === "number" ? "numeric" : null });
    }
    inputs[field.name] = input;
    const label = field.type === "checkbox" ? h("label", { class: "check" }, input, t(field.key)) : h("label", {}, t(field.key), input);
    return h("div", { class: "field" }, label, field.hint ? h("span", { class: "muted hint", text: t(field.hint) }) : null);
  });
  const why = h("textarea", { "data-testid": "admin-reason", maxlength: "500", rows: "2", required: true });
  const error = h("p", { class: "err", "data-testid": "admin-form-error" });
  const submit = h("button", { class: "btn primary", type: "submit", "data-testid": "admin-submit", text: t("admin.submit") });
  const values = () => {
    const out = {};
    for (const [name, input] of Object.entries(inputs)) out[name] = input.type === "checkbox" ? input.checked : input.value;
    if (reason) out.reason = why.value.trim();
    return out;
  };
  let close = null;
  const form = h(
    "form",
    {
      class: "admin-form",
      "data-testid": testid,
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        const got = values();
        if (reason && !got.reason) {
          error.textContent = t("admin.reasonHint");
          return;
        }
        submit.disabled = true;
        try {
          const answer = await send(got);
          close();
          toast(t("admin.done"));
          if (done) await done(answer);
        } catch (failure) {
          error.textContent = t("admin.failed", { text: refusal(failure) });
          submit.disabled = false;
        }
      },
    },
    h("h2", { text: title }),
    warn ? h("p", { class: "warn-text", text: warn }) : null,
    rows,
    reason ? h("div", { class: "field" }, h("label", {}, t("admin.reason"), why), h("span", { class: "muted hint", text: t("admin.reasonHint") })) : null,
    error,
    h("div", { class: "buttons" }, h("button", { class: "btn quiet", type: "button", onclick: () => close(), text: t("common.cancel") }), submit),
  );
  close = dialog(form, { testid: `${testid}-dialog` });
  (fields.length ? inputs[fields[0].name] : why).focus();
  return close;
}

/** A button that opens an action's form (`testid`: its data-testid). */
export function actionButton(key, testid, open, { warn = false } = {}) {
  return h("button", { class: `btn small ${warn ? "warn" : ""}`, type: "button", "data-testid": testid, onclick: open, text: t(key) });
}

/** The JSON path segment of a name or id (`#` in a run id is `%23`). */
export function seg(value) {
  return encodeURIComponent(value);
}
