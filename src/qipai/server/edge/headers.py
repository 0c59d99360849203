"""Security headers on every HTTP answer: what the browser may load, frame and send.

The browser client is plain files from this origin (no inline script, no inline style
attribute in the page, no ``eval``), so the policy can be strict:

- ``Content-Security-Policy``: everything from this origin only (``'self'``; the
  WebSocket included), images also as ``data:``, no plugins, no ``<base>``, and
  ``frame-ancestors 'none'``: no other site may frame the table (clickjacking);
- ``X-Frame-Options: DENY`` for browsers without ``frame-ancestors``;
- ``X-Content-Type-Options: nosniff``: a file is what its type says;
- ``Referrer-Policy: no-referrer``: a replay's address never leaves with a link;
- ``Cross-Origin-Opener-Policy: same-origin``: no other window keeps a handle on ours.

>>> dict(SECURITY_HEADERS)["x-content-type-options"]
'nosniff'
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The page's Content-Security-Policy."""

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
)
"""Added to every HTTP answer (the API's too)."""


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to its response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
