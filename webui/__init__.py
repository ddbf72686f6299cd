"""The Flask app: the referee screens and the JSON API for the table.

``create_app`` follows Flask's tutorial: local state (the game database, uploaded word lists,
calibration profiles, the session secret, the HTTPS certificate) lives in the instance folder,
one blueprint per feature, and one :class:`~webui.service.GameService` holds everything the views
share. ``test_config`` overrides any setting; ``INSTANCE_PATH`` in it moves the instance folder.
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Flask is imported by create_app, so `tileref judge` never loads it.
    from flask import Flask

log = logging.getLogger(__name__)

# Uploads: a phone's full-resolution photo is up to ~20 MB (webui.live.LiveConfig caps photos at
# 25 MB, frames at 8 MB); a request body beyond this is refused before it is read.
MAX_CONTENT_LENGTH = 26 * 1024 * 1024


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    from flask import Flask

    config = dict(test_config or {})
    instance_path = config.pop("INSTANCE_PATH", None)
    app = Flask(__name__, instance_relative_config=True,
                instance_path=str(Path(instance_path).resolve()) if instance_path else None)
    instance = Path(app.instance_path)
    app.config.from_mapping(
        DATABASE=str(instance / "tileref.sqlite"),
        WORDLIST_DIR=str(instance / "wordlists"),
        UPLOAD_DIR=str(instance / "uploads"),
        CALIBRATION_DIR=str(instance / "calibration"),
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
        SSE_KEEPALIVE=15.0,
        CAMERA=None,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(config)
    instance.mkdir(parents=True, exist_ok=True)
    for key in ("WORDLIST_DIR", "UPLOAD_DIR", "CALIBRATION_DIR"):
        Path(app.config[key]).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(instance)

    from webui import api, db, live, pages
    from webui.service import GameService

    db.init_app(app)
    app.extensions["tileref"] = GameService(
        database=Path(app.config["DATABASE"]),
        wordlist_dir=Path(app.config["WORDLIST_DIR"]),
        upload_dir=Path(app.config["UPLOAD_DIR"]),
        calibration_dir=Path(app.config["CALIBRATION_DIR"]),
        live_config=app.config.get("LIVE") or live.LiveConfig(),
    )
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    from webui import variants  # issue 6: the colonization and firstdraft screens

    app.register_blueprint(variants.bp)
    _register_error_handlers(app)
    return app


def _instance_secret(instance: Path) -> str:
    """The session secret, made once per instance folder so sessions survive a restart."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def _wants_json() -> bool:
    from flask import request

    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def _register_error_handlers(app: Flask) -> None:
    """Every error is one sentence: JSON under /api/, a small page elsewhere; no stack traces."""
    from flask import jsonify, render_template, request
    from werkzeug.exceptions import HTTPException

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

    def respond(status: int, message: str) -> Any:
        if _wants_json():
            return jsonify({"error": message}), status
        return render_template("error.html", status=status, message=message), status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 500
        return respond(status, messages.get(status, error.name + "."))

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return respond(500, messages[500])

