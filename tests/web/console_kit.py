"""Helpers of the console's browser tests (``static/admin/``, docs/operations.md "The
operator's console"): an operator made with ``qipai admin add``, signed in at ``/admin``,
and what he does through the page."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from web_kit import PASSWORD, WAIT_MS, RunningHall

from qipai.cli import main as qipai

SHOTS = os.environ.get("QIPAI_SCREENSHOTS")
"""Where the console's screenshots go (``$QIPAI_SCREENSHOTS``; none when unset)."""

Page = Any


def register(page: Page, url: str, name: str) -> str:
    """Register ``name`` through the API (no page opened); his session's token."""
    answer = page.request.post(f"{url}/api/register", data={"name": name, "password": PASSWORD})
    assert answer.ok, answer.text()
    token: str = answer.json()["token"]
    return token


def give_role(hall: RunningHall, name: str, role: str) -> None:
    """``qipai admin add NAME --role ROLE --db URL`` against the test hall's database."""
    assert hall.db_url is not None
    assert qipai(["admin", "add", name, "--role", role, "--db", hall.db_url]) == 0


def operator(page: Page, hall: RunningHall, name: str, role: str = "admin") -> Page:
    """``name`` registered, given ``role``, signed in at ``/admin`` (the sign-in form: the
    browser has no session), on the dashboard."""
    register(page, hall.url, name)
    give_role(hall, name, role)
    page.add_init_script(_WATCH)  # before any of the page's own code
    page.goto(f"{hall.url}/admin")
    page.fill("[data-testid=username]", name)
    page.fill("[data-testid=password]", PASSWORD)
    page.click("[data-testid=sign-in]")
    loaded(page, "admin-dashboard")
    return page


_WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def violations(page: Page) -> list[str]:
    """What the page's security policy blocked since ``operator`` opened it (none: the
    console needs no inline script or style either)."""
    found: list[str] = page.evaluate("() => window.__violations")
    return found


def loaded(page: Page, testid: str) -> None:
    """Wait until the section ``testid`` has loaded."""
    page.wait_for_selector(f"[data-testid={testid}][data-loaded='1']", timeout=WAIT_MS)


def tab(page: Page, name: str) -> None:
    """Open a tab of the console and wait for its section."""
    page.click(f"[data-testid=admin-tab-{name}]")
    if name != "players":
        loaded(page, f"admin-{name}")
    else:
        page.wait_for_selector("[data-testid=admin-players]")


def act(page: Page, button: str, reason: str, **fields: str | bool) -> None:
    """Press an action's button (``within`` the page), fill its form and the reason,
    confirm, and wait for the form to close (done)."""
    page.click(button)
    form = page.locator("form.admin-form")
    for name, value in fields.items():
        field = form.locator(f"[data-testid=admin-{name}]")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    form.locator("[data-testid=admin-reason]").fill(reason)
    form.locator("[data-testid=admin-submit]").click()
    form.wait_for(state="detached", timeout=WAIT_MS)


def find_player(page: Page, name: str) -> None:
    """Search ``name`` on the 玩家 tab and open his page."""
    tab(page, "players")
    page.fill("[data-testid=admin-search]", name)
    page.click("[data-testid=admin-search-go]")
    page.click(f"[data-testid=admin-found][data-name='{name}']")
    loaded(page, "admin-player")


def shot(page: Page, name: str) -> None:
    """A screenshot of the whole page, saved under SHOTS when it is set."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def no_sideways_scroll(page: Page) -> None:
    """Nothing of the page is wider than the window (a phone)."""
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"the page is {wide}px wider than the window"
