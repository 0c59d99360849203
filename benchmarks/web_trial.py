"""A player's full trial of the browser client: every game and rule set the lobby offers, on
a desktop and on a phone, timed and photographed.

    PYTHONPATH=src .venv/bin/python benchmarks/web_trial.py SCREENSHOTS_DIR [--bot-delay 0.5]

It starts a real hall (``qipai serve`` in a process of its own: the shipped rooms, whose
bots fill the empty seats after 3 s, a temporary SQLite database, a free port) and drives
Debian's Chromium (``/usr/bin/chromium``) through Playwright as a new player: one guest
(游客试玩) for the run, first on a desktop (1366x768), then on a phone (390x844, touch).
For each game and rule set the lobby lists, he joins its lowest room (the first card of
that game and rule set: 新手场, or 征途's 积分场) and the script measures:

- **join → dealt**: from his click on 加入 to the first card of his hand on the page;
- **action → shown**: at his first turn, from his click on the first enabled action button
  (a bid, 出牌 after 提示, 看牌, 跟注, a chooser's first choice; 托管 when there is none) to
  the table drawing the hall's answer (the table's event number moves on);
- **reload → back**: from a reload of the page to the table drawn again with his cards.

All three are the page's own clock (``performance.now()``, read at the frame that shows
it), so Playwright's round trips are not counted.  It saves a screenshot at each table
(after his action, after the reload, the result) and the lobby, checks at his turn that
every action button is on top (``elementFromPoint`` at its centre is the button), turns
托管 on and waits for the hand's result, then goes back to the lobby.  Printed: a row per
table and the median of each timing per viewport, the machine's load before and after,
and every error the page raised.  ``--bot-delay`` (the hall's ``--bot-delay``: seconds a bot
or a seat in 托管 waits before acting; 1.0 in production) only shortens the hands, so
that the run stays under about five minutes; it does not enter the three timings.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CLI = "from qipai.cli import main; raise SystemExit(main())"
WAIT_MS = 30_000
"""The longest any awaited condition may take (a loaded machine included)."""
HAND_S = 120.0
"""The longest a hand in 托管 may take to its result."""
LOCAL_BUTTONS = {"action-hint", "action-peek"}
"""Action buttons that send nothing (提示 lifts cards, 看底牌 turns the hole card)."""


@dataclass(frozen=True)
class Viewport:
    """A browser's window and whether it is a phone."""

    name: str
    width: int
    height: int
    phone: bool


VIEWPORTS = (Viewport("desktop", 1366, 768, False), Viewport("phone", 390, 844, True))


@dataclass
class Trial:
    """What one table gave."""

    viewport: str
    room: str
    dealt_ms: float | None = None
    action: str = ""
    shown_ms: float | None = None
    back_ms: float | None = None
    result_s: float | None = None
    covered: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------ the hall


def free_port() -> int:
    """A free loopback port."""
    import socket  # noqa: PLC0415

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def hall(folder: Path, bot_delay: float) -> Iterator[str]:
    """``qipai serve`` on a free port with a fresh SQLite database; its URL."""
    port = free_port()
    command = [sys.executable, "-c", CLI, "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{folder / 'hall.db'}", "--bot-delay", str(bot_delay)]
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    log = folder / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, env=environment
        )
        try:
            url = f"http://127.0.0.1:{port}"
            wait_ready(url, process, log)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(20)


def wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Return once ``GET /healthz`` answers; exit if the hall dies or never answers."""
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        if process.poll() is not None:
            sys.exit(f"qipai serve exited:\n{log.read_text(errors='replace')}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{url}/healthz", timeout=1) as answer,
        ):
            if answer.status == 200:
                return
        time.sleep(0.1)
    sys.exit(f"qipai serve did not get ready:\n{log.read_text(errors='replace')}")


# ------------------------------------------------------------------------------ the page

_CLICKS = """() => {
  if (window.__trialClicks) return;
  window.__trialClicks = true;
  document.addEventListener('click', () => { window.__trialClick = performance.now(); }, true);
}"""
"""Note the page's time of every click (capturing: before the app's own handler runs)."""

_DEALT = """() => {
  const card = document.querySelector(
    '[data-testid=table] [data-testid=hand] [data-testid=card],'
    + ' [data-testid=table] [data-testid=hand] [data-testid=card-back]');
  return card && card.offsetParent !== null ? performance.now() : null;
}"""

_MY_TURN = """() => {
  if (document.querySelector('[data-testid=result]')) return 'result';
  const table = document.querySelector('[data-testid=table]');
  if (!table || table.dataset.busy !== '0' || table.dataset.turn !== 'me') return null;
  return JSON.parse(table.dataset.legal || '[]').length ? 'turn' : null;
}"""

_SHOWN = """([n]) => {
  const table = document.querySelector('[data-testid=table]');
  if (!table || Number(table.dataset.n) <= n || table.dataset.busy !== '0') return null;
  return performance.now() - window.__trialClick;
}"""

_BUTTONS = """() => [...document.querySelectorAll('[data-testid=actions] button')]
  .filter(b => !b.disabled && b.offsetParent !== null).map(b => b.dataset.testid)"""

_COVERED = """() => [...document.querySelectorAll('[data-testid=actions] button')]
  .filter(b => b.offsetParent !== null)
  .filter(b => {
    const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !top || !b.contains(top);
  })
  .map(b => {
    const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const by = top ? (top.dataset.testid || top.className || top.tagName) : 'off-screen';
    return `${b.dataset.testid} under ${by}`;
  })"""


def event_number(page: Page) -> int:
    """The table's event number (``data-n``)."""
    return int(page.get_attribute("[data-testid=table]", "data-n") or 0)


def tool(page: Page, name: str) -> None:
    """Click the toolbar's ``action-NAME`` (on a phone upright, from the ⋯ menu if hidden)."""
    found = page.locator(f"[data-testid=action-{name}]").first
    more = page.locator("[data-testid=action-more]")
    if not found.is_visible() and more.count() and more.first.is_visible():
        more.first.click()
    found.click()


def act(page: Page, trial: Trial) -> None:
    """His first action: the first enabled action button (提示 then 出牌; a chooser's first
    choice), or 托管 when there is none; times it to the table's answer."""
    buttons: list[str] = page.evaluate(_BUTTONS)
    trial.covered = page.evaluate(_COVERED)
    sending = [name for name in buttons if name not in LOCAL_BUTTONS]
    before = event_number(page)
    if buttons and buttons[0] == "action-hint" and "action-play" in buttons:
        page.click("[data-testid=action-hint]")
        chosen = "action-play"
    elif sending:
        chosen = sending[0]
    else:
        chosen = "action-trustee"
    if chosen == "action-trustee":
        tool(page, "trustee")
    else:
        page.click(f"[data-testid=actions] [data-testid={chosen}]")
    trial.action = chosen.removeprefix("action-")
    choices = page.locator("[data-testid=choices] [data-testid=choice]")
    if chosen != "action-trustee" and choices.count():
        trial.action += f" {choices.first.get_attribute('data-action')}"
        choices.first.click()
    handle = page.wait_for_function(_SHOWN, arg=[before], polling="raf", timeout=WAIT_MS)
    trial.shown_ms = float(handle.json_value())


def reload_back(page: Page, trial: Trial) -> None:
    """Reload the page; the time from navigation start to his cards at the table again."""
    page.reload()
    try:
        handle = page.wait_for_function(_DEALT, polling="raf", timeout=WAIT_MS)
        trial.back_ms = float(handle.json_value())
    except PlaywrightError:
        where = "result" if page.locator("[data-testid=result]").count() else "no table"
        trial.notes.append(f"after the reload: {where}")
        return
    if page.locator("[data-testid=trustee-banner]:not(.hidden)").count():
        trial.notes.append("in 托管 after the reload")


def play_table(page: Page, viewport: Viewport, room: str, shots: Path) -> Trial:
    """One table of ``room``: join, time, act, reload, 托管 to the result, back to the lobby."""
    trial = Trial(viewport.name, room)
    prefix = f"{viewport.name}-{room}"
    page.evaluate(_CLICKS)
    page.locator(f"[data-testid=room][data-room='{room}'] [data-testid=join]").click()
    handle = page.wait_for_function(_DEALT, polling="raf", timeout=WAIT_MS)
    trial.dealt_ms = float(handle.json_value()) - float(page.evaluate("window.__trialClick"))
    turn = page.wait_for_function(_MY_TURN, polling="raf", timeout=WAIT_MS).json_value()
    if turn == "turn":
        act(page, trial)
    else:
        trial.notes.append("the hand ended before his turn")
    page.screenshot(path=str(shots / f"{prefix}-1-acted.png"))
    if not page.locator("[data-testid=result]").count():
        reload_back(page, trial)
        page.screenshot(path=str(shots / f"{prefix}-2-reloaded.png"))
    started = time.monotonic()
    if not page.locator("[data-testid=result]").count():
        banner = page.get_attribute("[data-testid=trustee-banner]", "class") or ""
        if "hidden" in banner:
            tool(page, "trustee")
        page.wait_for_selector("[data-testid=result]", timeout=HAND_S * 1000)
    trial.result_s = time.monotonic() - started
    page.screenshot(path=str(shots / f"{prefix}-3-result.png"))
    page.locator("[data-testid=result] [data-testid=action-lobby]").click()
    page.wait_for_selector("[data-testid=lobby]", timeout=WAIT_MS)
    return trial


def lowest_rooms(page: Page) -> list[str]:
    """The first room of each game and rule set, in the lobby's order."""
    rooms: list[list[str]] = page.eval_on_selector_all(
        "[data-testid=room]",
        "els => els.map(e => [e.dataset.game, e.dataset.rules, e.dataset.room])",
    )
    first: dict[tuple[str, str], str] = {}
    for game, rules, room in rooms:
        first.setdefault((game, rules), room)
    return list(first.values())


@dataclass
class Run:
    """The run's browser, hall, folders and the page errors seen so far."""

    browser: Browser
    url: str
    shots: Path
    state: Path
    """The guest's session (his browser storage), saved on the first viewport."""
    errors: list[str] = field(default_factory=list)


def run_viewport(run: Run, viewport: Viewport) -> list[Trial]:
    """Every lowest room at ``viewport``; the guest signs in on the first viewport and his
    session (``run.state``) is kept for the next."""
    url, shots, state, errors = run.url, run.shots, run.state, run.errors
    context: BrowserContext = run.browser.new_context(
        viewport={"width": viewport.width, "height": viewport.height},
        storage_state=str(state) if state.exists() else None,
        is_mobile=viewport.phone,
        has_touch=viewport.phone,
    )
    trials: list[Trial] = []
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("pageerror", lambda error: errors.append(f"{viewport.name}: {error}"))
        page.goto(url)
        if not state.exists():
            page.click("[data-testid=guest]")
        page.wait_for_selector("[data-testid=room]")
        page.wait_for_selector("[data-testid=net][data-status=open]")
        context.storage_state(path=str(state))
        page.screenshot(path=str(shots / f"{viewport.name}-0-lobby.png"))
        for room in lowest_rooms(page):
            try:
                trials.append(play_table(page, viewport, room, shots))
            except PlaywrightError as error:
                trial = Trial(viewport.name, room, notes=[f"failed: {str(error)[:200]}"])
                trials.append(trial)
                page.screenshot(path=str(shots / f"{viewport.name}-{room}-failed.png"))
                page.goto(url)
                page.wait_for_selector("[data-testid=room]")
            print(row(trials[-1]), flush=True)
    finally:
        context.close()
    return trials


# ------------------------------------------------------------------------------ report


def ms(value: float | None) -> str:
    """A time in whole milliseconds, or a dash."""
    return "–" if value is None else f"{value:.0f}"


def row(trial: Trial) -> str:
    """One table's line of the report (Markdown)."""
    result = "–" if trial.result_s is None else f"{trial.result_s:.1f}"
    notes = "; ".join([*(f"covered: {c}" for c in trial.covered), *trial.notes])
    return (
        f"| {trial.viewport} | {trial.room} | {ms(trial.dealt_ms)} | {trial.action} "
        f"| {ms(trial.shown_ms)} | {ms(trial.back_ms)} | {result} | {notes} |"
    )


def medians(trials: list[Trial]) -> None:
    """The median of each timing per viewport."""
    print("\n| viewport | tables | join → dealt | action → shown | reload → back |")
    print("|---|---|---|---|---|")
    for viewport in VIEWPORTS:
        mine = [trial for trial in trials if trial.viewport == viewport.name]
        cells = []
        for name in ("dealt_ms", "shown_ms", "back_ms"):
            values = [v for trial in mine if (v := getattr(trial, name)) is not None]
            cells.append(
                f"{statistics.median(values):.0f} ms ({min(values):.0f}–{max(values):.0f}, "
                f"n={len(values)})"
                if values
                else "–"
            )
        print(f"| {viewport.name} | {len(mine)} | {' | '.join(cells)} |")


def load() -> str:
    """The machine's load averages (``/proc/loadavg``)."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("screenshots", type=Path, help="folder for the screenshots")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="the hall's --bot-delay")
    arguments = parser.parse_args()
    shots: Path = arguments.screenshots
    shots.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    print(f"load before: {load()} ({os.cpu_count()} cores)")
    print(
        "| viewport | room | join → dealt ms | action | → shown ms | reload → back ms "
        "| 托管 → result s | notes |"
    )
    print("|---|---|---|---|---|---|---|---|")
    trials: list[Trial] = []
    with (
        tempfile.TemporaryDirectory(prefix="web-trial-") as folder,
        hall(Path(folder), arguments.bot_delay) as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        run = Run(browser, url, shots, Path(folder) / "guest.json")
        for viewport in VIEWPORTS:
            trials += run_viewport(run, viewport)
        browser.close()
    medians(trials)
    print(f"\nload after: {load()}; {time.monotonic() - started:.0f} s in all")
    print(f"page errors: {run.errors or 'none'}")


if __name__ == "__main__":
    main()
