"""The Flask app: the referee screens and the JSON API for the table.

``create_app`` follows Flask's tutorial: local state (the game database, uploaded word lists,
calibration profiles, the session secret, the HTTPS certificate) lives in the instance folder,
one blueprint per feature (``webui.views``), and the services the views share, each with one job
(``webui.services``: the game store, the tables, disputes, word lists, photos), hooked in with
``init_app``. ``test_config`` overrides any setting; ``INSTANCE_PATH`` in it moves the instance
folder.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Flask is imported by create_app, so `tileref judge` never loads it.
    from flask import Flask

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
        SSE_STREAMS=48,      # event streams open at once (each holds a worker thread)...
        SSE_SECONDS=120.0,   # ...each at most this long before its screen reconnects
        SSE_RETRY_MS=5000,   # when a screen comes back after its stream ended or was full
        CAMERA=None,
        # The session cookie (an id only: webui.views.common.session_id) is sent with a
        # cross-site navigation but not with another site's form post; `tileref serve --https`
        # sets SESSION_COOKIE_SECURE.
        SESSION_COOKIE_SAMESITE="Lax",
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

    from webui import db, views
    from webui.services import Services

    db.init_app(app)
    Services.from_config(app.config).init_app(app)
    views.init_app(app)
    return app


def _instance_secret(instance: Path) -> str:
    """The session secret, made once per instance folder so sessions survive a restart."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
