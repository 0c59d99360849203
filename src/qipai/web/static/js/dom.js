// Tiny DOM helpers: build elements from data, no framework.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An element: h("button", {class: "btn", onclick: f, "data-testid": "x"}, "text", child). */
export function h(tag, props, ...kids) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, kids);
  return el;
}

function setProps(el, props) {
  if (!props) return;
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key in el && typeof value !== "string" && key !== "list") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(el, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
}

/** An <svg> showing a symbol of the sprite in index.html. */
export function icon(id, cls = "") {
  const svg = document.createElementNS(SVG_NS, "svg");
  if (cls) svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#${id}`);
  svg.append(use);
  return svg;
}

/** Replace the children of ``el``. */
export function fill(el, ...kids) {
  el.replaceChildren();
  append(el, kids);
  return el;
}

const drawn = new WeakMap(); // element → {markup, first}: what fillChanged put there last

/** Replace the children of ``el``, unless they would make the same markup as those this
 * function put there last and are still there: then the nodes stay (no layout, no paint, no
 * button replaced under a finger or a click on its way). For a view drawn again on every
 * frame from new nodes only (the header; not the lobby, which holds a panel kept between
 * draws, that building the new tree would take out of the page). Handlers are not
 * compared: a view's are the same functions of the same state. Whether it replaced them. */
export function fillChanged(el, ...kids) {
  const holder = document.createElement("div");
  append(holder, kids);
  const markup = holder.innerHTML;
  const last = drawn.get(el);
  if (last && last.markup === markup && last.first === el.firstChild && el.firstChild) return false;
  el.replaceChildren(...holder.childNodes);
  drawn.set(el, { markup, first: el.firstChild });
  return true;
}

/** A short message at the bottom of the screen. */
export function toast(text) {
  const box = document.getElementById("toast");
  if (!box) return;
  const line = h("div", { text });
  box.append(line);
  setTimeout(() => line.remove(), 2700);
}

/** The dialogs open now: their close functions (`closeDialogs`). */
const openDialogs = new Set();

/** Close every dialog open now and the notices in a corner (the player goes to the lobby:
 * nothing of the table he left stays on top). */
export function closeDialogs() {
  for (const close of [...openDialogs]) close();
  for (const el of document.querySelectorAll("[data-testid=match-notice]")) el.remove();
}

/** A modal dialog (`attrs`: more attributes of its box); returns a function that closes it,
 * with `tuck(on)`: hide it for a while (not closed: `tuck(false)` shows it again) and
 * `tucked` (whether it is hidden now). */
export function dialog(content, { testid, onClose, attrs, notice = false } = {}) {
  const box = h("div", { class: "dialog", "data-testid": testid, ...attrs }, content);
  // A notice (a match's news) stays above a table's result shown after it.
  const layer = h("div", { class: notice ? "overlay notice-layer" : "overlay" }, box);
  const onKey = (event) => {
    if (event.key === "Escape" && [...document.querySelectorAll(".overlay:not(.tucked)")].pop() === layer) close();
  };
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    openDialogs.delete(close);
    layer.remove();
    document.removeEventListener("keydown", onKey);
    if (onClose) onClose();
  };
  layer.addEventListener("click", (event) => {
    if (event.target === layer) close();
  });
  document.addEventListener("keydown", onKey);
  document.body.append(layer);
  openDialogs.add(close);
  close.tucked = false;
  close.tuck = (on) => {
    close.tucked = on;
    layer.classList.toggle("tucked", on);
  };
  return close;
}

/** Format a signed number: +5, -3, 0. */
export function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

/** A class for a signed amount. */
export function signClass(value) {
  if (value > 0) return "plus num";
  return value < 0 ? "minus num" : "num";
}
