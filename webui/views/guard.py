"""What every response and every write passes: the browser session, CSRF, and the headers that
keep the pages out of other sites' frames.

The browser's session (``webui.views.common.session_id``: its cookie holds a random id, the
game tokens are kept in the database under it) is SameSite=Lax, and Secure under HTTPS. A form
posted to a page (a new game, a dispute photo) carries the session's CSRF token, an HMAC of its
session id (nothing stored); the JSON API needs ``Authorization: Bearer`` for its writes, which
no other site's form can send. Any POST a browser marks as cross-site is refused besides.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from webui.errors import Forbidden, ServiceError
from webui.views.common import session_id

CSRF_FIELD = "csrf_token"
HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def csrf_token() -> str:
    """The CSRF token of this browser's session (a form's hidden field ``csrf_token``)."""
    sid = session_id(create=True)
    assert sid is not None
    return _csrf_for(sid)


def _csrf_for(sid: str) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    return hmac.new(key, b"csrf:" + sid.encode("utf-8"), hashlib.sha256).hexdigest()


def _cross_site() -> bool:
    """Whether the browser says this request comes from another site's page."""
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        return True
    origin = request.headers.get("Origin")
    if origin is None:
        return False  # not a browser's cross-origin request (curl, the tests, a camera)
    return urlsplit(origin).netloc.lower() != request.host.lower()


def check_request() -> None:
    """Refuse a cross-site write, and a form posted to a page without the session's token."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    if _cross_site():
        raise Forbidden("this request came from another site's page: open tileref's own page")
    if request.path.startswith("/api/"):
        return  # the JSON API: writes need the game's bearer token, which forms cannot send
    sid = session_id()
    sent = request.form.get(CSRF_FIELD, "")
    if sid is None or not hmac.compare_digest(sent, _csrf_for(sid)):
        raise ServiceError("this form is out of date or came from another page: reload the "
                           "page and send it again")


def add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.before_request(check_request)
    app.after_request(add_headers)

    @app.context_processor
    def csrf_field() -> dict[str, Any]:
        return {"csrf_token": csrf_token}
