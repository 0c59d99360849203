// 举报: a player reports another from his card (POST /api/reports), with why and the hand
// on the table, if any; the report waits in the operators' queue (their console).

import { api } from "./api.js";
import { dialog, h, toast } from "./dom.js";
import { addStrings, playerName, t } from "./i18n.js";

export const REPORT_STRINGS = {
  "report.open": ["举报", "Report"],
  "report.title": ["举报 {name}", "Report {name}"],
  "report.why": ["举报原因", "Why"],
  "report.reason.cheat": ["作弊或串通", "Cheating or collusion"],
  "report.reason.abuse": ["辱骂或骚扰", "Abuse"],
  "report.reason.stall": ["消极游戏（故意拖延）", "Stalling on purpose"],
  "report.reason.other": ["其他", "Something else"],
  "report.details": ["补充说明（可选）", "More (optional)"],
  "report.hand": ["附上当前牌局", "About the hand on the table"],
  "report.send": ["提交举报", "Send"],
  "report.sent": ["举报已提交，管理员会尽快处理", "Reported: an operator will look at it"],
  "error.too_many_reports": ["今天举报次数已达上限", "Too many reports today"],
};
addStrings(REPORT_STRINGS);

const REASONS = ["cheat", "abuse", "stall", "other"];

/** The card's 举报 button: a form for why (and the hand on the table, `hand`, if any). */
export function reportButton(app, name, hand) {
  return h("button", { class: "btn quiet", "data-testid": "report", onclick: () => openReport(app, name, hand), text: t("report.open") });
}

function openReport(app, name, hand) {
  const choice = h("select", { "data-testid": "report-reason", "aria-label": t("report.why") }, REASONS.map((key) => h("option", { value: key, text: t(`report.reason.${key}`) })));
  const details = h("textarea", { "data-testid": "report-details", maxlength: "300", rows: "3" });
  const withHand = hand ? h("input", { type: "checkbox", checked: true, "data-testid": "report-hand" }) : null;
  let close = null;
  const send = async () => {
    const reason = [t(`report.reason.${choice.value}`), details.value.trim()].filter(Boolean).join("：");
    try {
      await api("POST", "/api/reports", { token: app.session.token, body: { name, reason, hand: withHand && withHand.checked ? hand : null } });
      close();
      toast(t("report.sent"));
    } catch (failure) {
      toast(app.errorText(failure.code));
    }
  };
  close = dialog(
    h(
      "div",
      { class: "report-form" },
      h("h3", { text: t("report.title", { name: playerName(name) }) }),
      h("label", { class: "field" }, h("span", { text: t("report.why") }), choice),
      h("label", { class: "field" }, h("span", { text: t("report.details") }), details),
      withHand ? h("label", { class: "check" }, withHand, h("span", { text: t("report.hand") })) : null,
      h("div", { class: "buttons" }, h("button", { class: "btn primary", "data-testid": "report-send", onclick: send, text: t("report.send") })),
    ),
    { testid: "report-form" },
  );
}
