"""The one error handler: every error is one sentence, JSON under /api/, a small page elsewhere.

A refusal (:class:`~webui.errors.ServiceError`) from any service or view, an HTTP error (an
unknown address, a method not allowed, an upload too big) and a bug (logged, answered as a 500
that changed nothing) all become responses here; no stack trace reaches a player.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from webui.errors import ServiceError

log = logging.getLogger(__name__)


def _under_api() -> bool:
    return request.path.startswith("/api/")


def _wants_json() -> bool:
    return _under_api() or request.accept_mimetypes.best == "application/json"


def init_app(app: Flask) -> None:
    messages = {
        400: "The request is malformed.",
        401: "This needs the game's token.",
        403: "Wrong token for this game.",
        404: "There is nothing here.",
        405: "That method is not allowed here.",
        413: f"The upload is too big (the limit is "
             f"{app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MB).",
        500: "Something went wrong on the server; nothing was changed.",
    }

    def respond(status: int, message: str, as_json: bool) -> Any:
        if as_json:
            return jsonify({"error": message}), status
        return render_template("error.html", status=status, message=message), status

    folders = sorted({app.instance_path, app.root_path, str(Path(app.root_path).parent)},
                     key=len, reverse=True)

    def without_paths(message: str) -> str:
        """A refusal that quotes a file of the server's names it by its name alone: where
        the server keeps its files is no player's business (``/api/judge`` said it once)."""
        for folder in folders:
            message = message.replace(folder + "/", "").replace(folder, "…")
        return message

    @app.errorhandler(ServiceError)
    def refused(error: ServiceError) -> Any:
        # A refusal under /api/ is JSON for the program that asked; a page gets a page.
        return respond(error.status, without_paths(str(error)), _under_api())

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 500
        return respond(status, messages.get(status, error.name + "."), _wants_json())

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return respond(500, messages[500], _wants_json())
