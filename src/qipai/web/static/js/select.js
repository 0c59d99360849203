// Card selection in the hand, as the JJ rules page describes it: press a card to lift it, press and
// drag across cards to lift several (they lift when the button is released), press a
// lifted card to put it down. Pointer events serve the mouse, a pen and touch alike.

/**
 * Watch ``handEl`` (the cards are its children with data-card).
 * ``onSweep(codes)`` gets the cards pressed or swept over, in hand order.
 */
export function attachSelection(handEl, { enabled, onSweep }) {
  let drag = null;

  const cardAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    const card = el && el.closest ? el.closest(".card[data-card]") : null;
    return card && handEl.contains(card) ? card : null;
  };

  const swept = () => {
    const cards = [...handEl.querySelectorAll(".card[data-card]")];
    const a = cards.findIndex((el) => el.dataset.card === drag.start);
    const b = cards.findIndex((el) => el.dataset.card === drag.end);
    if (a < 0 || b < 0) return [];
    return cards.slice(Math.min(a, b), Math.max(a, b) + 1);
  };

  const mark = () => {
    const inside = new Set(swept());
    for (const el of handEl.querySelectorAll(".card[data-card]")) el.classList.toggle("sweep", inside.has(el));
  };

  handEl.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !enabled()) return;
    const card = event.target.closest(".card[data-card]");
    if (!card) return;
    event.preventDefault();
    handEl.setPointerCapture(event.pointerId);
    drag = { start: card.dataset.card, end: card.dataset.card, id: event.pointerId };
    mark();
  });

  handEl.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const card = cardAt(event.clientX, event.clientY);
    if (card && card.dataset.card !== drag.end) {
      drag.end = card.dataset.card;
      mark();
    }
  });

  const finish = (event, apply) => {
    if (!drag || event.pointerId !== drag.id) return;
    const codes = swept().map((el) => el.dataset.card);
    drag = null;
    for (const el of handEl.querySelectorAll(".sweep")) el.classList.remove("sweep");
    if (apply && codes.length) onSweep(codes);
  };
  handEl.addEventListener("pointerup", (event) => finish(event, true));
  handEl.addEventListener("pointercancel", (event) => finish(event, false));
  // the keyboard: Tab to a card, Space or Enter lifts it or puts it down
  handEl.addEventListener("keydown", (event) => {
    const card = event.target.closest(".card[data-card]");
    if (!card || !enabled() || (event.key !== " " && event.key !== "Enter")) return;
    event.preventDefault();
    onSweep([card.dataset.card]);
  });
}

/** The new set of lifted cards after pressing or sweeping ``codes``. */
export function liftAfterSweep(lifted, codes) {
  const next = new Set(lifted);
  if (codes.length === 1) {
    const [code] = codes;
    if (next.has(code)) next.delete(code);
    else next.add(code);
    return next;
  }
  const allUp = codes.every((code) => next.has(code));
  for (const code of codes) {
    if (allUp) next.delete(code);
    else next.add(code);
  }
  return next;
}
