"""Shared fixtures: a fresh app and database per test, its clients, a real server, a browser.

``app``/``client``/``runner`` follow Flask's tutorial. ``live_server`` serves a fresh app from a
real threaded WSGI server on 127.0.0.1 (for SSE and the browser tests). ``browser`` is Debian's
Chromium driven by Playwright's Python package (never a downloaded browser), with a fake camera
when a test asks for one through ``launch_browser``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.web import CHROMIUM, CHROMIUM_ARGS, TWO_PLAYERS, png_claiming


def _browser_client_class() -> type:
    """Flask's test client, posting forms as a browser that opened the form's page does: with
    the session's CSRF token in the hidden field ``csrf_token`` (``webui.views.guard``), read
    off the page it would have shown. A test that means to post without one passes
    ``csrf_token=None`` in its data."""
    import re

    from flask.testing import FlaskClient

    class BrowserClient(FlaskClient):
        def post(self, *args: Any, **kwargs: Any) -> Any:
            path = str(args[0] if args else kwargs.get("path", "/"))
            data = kwargs.get("data")
            if isinstance(data, dict) and not path.startswith("/api/"):
                if "csrf_token" not in data:
                    page = super().get("/dispute").get_data(as_text=True)
                    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
                    data = dict(data, csrf_token=found.group(1) if found else "")
                elif data["csrf_token"] is None:
                    data = {key: value for key, value in data.items() if key != "csrf_token"}
                kwargs["data"] = data
            return super().post(*args, **kwargs)

    return BrowserClient


@pytest.fixture
def app(tmp_path: Path) -> Any:
    from webui import create_app

    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})
    app.test_client_class = _browser_client_class()
    return app


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def runner(app: Any) -> Any:
    return app.test_cli_runner()


@pytest.fixture
def make_game(client: Any) -> Callable[..., tuple[str, dict[str, str]]]:
    """Create a game through the API; returns (id, auth headers)."""

    def make(spec: dict[str, Any] | None = None) -> tuple[str, dict[str, str]]:
        response = client.post("/api/games", json=spec or TWO_PLAYERS)
        assert response.status_code == 201, response.json
        return response.json["id"], {"Authorization": f"Bearer {response.json['token']}"}

    return make


@pytest.fixture
def huge_png() -> bytes:
    """20,000 x 20,000 pixels claimed: must be refused before it is decoded."""
    return png_claiming(20_000, 20_000)


class LiveServer:
    def __init__(self, app: Any) -> None:
        from werkzeug.serving import make_server

        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def live_server(app: Any) -> Iterator[LiveServer]:
    app.config["SSE_KEEPALIVE"] = 0.5
    with LiveServer(app) as server:
        yield server


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture
def launch_browser(playwright_instance: Any) -> Iterator[Callable[..., Any]]:
    """``launch_browser(fake_video=None)`` → a Chromium browser (closed after the test)."""
    launched: list[Any] = []

    def launch(fake_video: Path | None = None) -> Any:
        args = list(CHROMIUM_ARGS)
        if fake_video is not None:
            args.append(f"--use-file-for-fake-video-capture={fake_video}")
        browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=args)
        launched.append(browser)
        return browser

    yield launch
    for browser in launched:
        browser.close()


@pytest.fixture
def browser(launch_browser: Callable[..., Any]) -> Any:
    return launch_browser()
