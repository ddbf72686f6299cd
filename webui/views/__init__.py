"""The blueprints, one per feature: ``api`` (the game's JSON API), ``table`` (the game pages),
``live`` (the camera), ``dispute`` (a photo with no game); the one error handler; and the
guard every request passes (``guard``: CSRF, cross-site writes, the frame-protection headers).

Views stay thin: they parse a request (``webui.views.common``), call one service
(``webui.services``) and turn the answer into a response.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def init_app(app: Flask) -> None:
    """Register every blueprint and the error handler on ``app``."""
    from webui.views import api, dispute, errors, guard, live, table

    for blueprint in (api.bp, table.bp, live.bp, dispute.bp):
        app.register_blueprint(blueprint)
    errors.init_app(app)
    guard.init_app(app)
