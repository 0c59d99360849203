"""The page's security headers, and a whole hand played under them with no violation: the
client needs no inline script or style, and no other site may frame it."""

from __future__ import annotations

from typing import Any

from web_kit import ddz_act, ddz_choice, join, play_to_result, sign_up

from qipai.server.edge.headers import CONTENT_SECURITY_POLICY

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def test_strict_headers_and_a_hand_without_a_violation(hall: Any, new_page: Any) -> None:
    page = new_page()
    page.add_init_script(WATCH)  # before any of the page's own code
    response = page.goto(hall.url)
    assert response is not None
    headers = response.headers
    policy = headers["content-security-policy"]
    assert policy == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy
    assert "script-src 'self'" in policy and "'unsafe-eval'" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "DENY"
    api = page.request.get(f"{hall.url}/api/rooms")
    assert api.headers["x-content-type-options"] == "nosniff"
    sign_up(page, hall.url, "csp_player")
    join(page, "doudizhu-yifa")
    play_to_result(page, lambda p, legal: ddz_act(p, ddz_choice(legal)))
    assert page.evaluate("() => window.__violations") == []


def test_another_site_cannot_frame_the_table(hall: Any, new_page: Any) -> None:
    """A page of another origin that frames the hall gets an empty frame."""
    page = new_page()
    page.set_content(
        f'<iframe id="f" src="{hall.url}/" width="400" height="300"'
        ' onload="window.framed = true"></iframe>'
    )
    page.wait_for_function("() => window.framed === true")  # loaded, or refused
    frame = page.frame_locator("#f")
    assert frame.locator("#top").count() == 0  # not even the page's static markup
    assert frame.locator("[data-testid=username]").count() == 0
