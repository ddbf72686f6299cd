"""``tileref serve``: bad options are one line, and --https serves a self-signed certificate."""

from __future__ import annotations

import socket
import ssl
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from webui.tls import ensure_certificate, subject_alt_names

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_bad_port_is_one_line_exit_2(tmp_path):
    result = subprocess.run([sys.executable, "-m", "webui", "serve", "--port", "70000",
                             "--instance", str(tmp_path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "--port" in result.stderr


def test_certificate_is_made_once_with_the_addresses(tmp_path):
    cert, key = ensure_certificate(tmp_path, ["192.168.1.20", "table.local"])
    text = subprocess.run(["openssl", "x509", "-in", str(cert), "-noout", "-text"],
                          capture_output=True, text=True, check=True).stdout
    assert "IP Address:192.168.1.20" in text and "DNS:table.local" in text
    assert "DNS:localhost" in text
    stamp = cert.stat().st_mtime_ns
    assert ensure_certificate(tmp_path, ["192.168.1.20", "table.local"]) == (cert, key)
    assert cert.stat().st_mtime_ns == stamp
    assert subject_alt_names(["0.0.0.0"]) == "DNS:localhost,IP:127.0.0.1"


@contextmanager
def https_server(tmp_path: Path) -> Iterator[tuple[str, ssl.SSLContext]]:
    """``tileref serve --https`` on a free loopback port: its base URL and a TLS context that
    trusts its self-signed certificate."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "webui", "serve", "--https", "--host", "127.0.0.1",
         "--port", str(port), "--instance", str(tmp_path / "instance")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        assert f"https://127.0.0.1:{port}/" in line
        yield f"https://127.0.0.1:{port}", ssl.create_default_context(
            cafile=str(tmp_path / "instance" / "tileref-cert.pem"))
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_serve_https_answers_over_tls(tmp_path):
    with https_server(tmp_path) as (base, context):
        with urllib.request.urlopen(f"{base}/api/games", context=context,
                                    timeout=30) as response:
            assert response.status == 200


def test_missing_webcam_is_one_line_exit_2(tmp_path):
    result = subprocess.run([sys.executable, "-m", "webui", "serve", "--camera", "97",
                             "--host", "127.0.0.1", "--port", str(free_port()),
                             "--instance", str(tmp_path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    assert "cannot open camera 97" in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_make_run_serves_every_interface_and_prints_the_tablet_address(tmp_path):
    """What ``make run`` runs: ``tileref serve --host 0.0.0.0 --port P``."""
    makefile = (ROOT / "Makefile").read_text()
    assert "tileref serve --host $(HOST) --port $(PORT)" in makefile
    assert "HOST   ?= 0.0.0.0" in makefile
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "webui", "serve", "--host", "0.0.0.0", "--port", str(port),
         "--instance", str(tmp_path / "instance")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        address = server.stdout.readline()
        host = address.split("http://", 1)[1].split(":", 1)[0]
        assert address.startswith("tileref: open http://") and f":{port}/ on a tablet" in address
        assert host != "0.0.0.0"                      # an address a tablet can open
        if host != "127.0.0.1":
            assert "--https" in server.stdout.readline()
        with urllib.request.urlopen(f"http://{host}:{port}/", timeout=30) as response:
            assert response.status == 200 and b"New game" in response.read()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_https_sets_a_secure_cookie_and_streams_events(tmp_path):
    """Behind the TLS front: the session cookie is Secure, and an event stream comes through."""
    import json

    with https_server(tmp_path) as (base, context):
        with urllib.request.urlopen(f"{base}/", context=context, timeout=30) as response:
            cookie = response.headers["Set-Cookie"]
        assert "Secure" in cookie and "SameSite=Lax" in cookie
        request = urllib.request.Request(f"{base}/api/games", method="POST", data=json.dumps(
            {"ruleset": "archipelago", "players": [{"name": "Ann", "seat": "S"},
                                                   {"name": "Bo", "seat": "N"}]}).encode())
        with urllib.request.urlopen(request, context=context, timeout=30) as response:
            game_id = json.loads(response.read())["id"]
        with urllib.request.urlopen(f"{base}/api/games/{game_id}/events", context=context,
                                    timeout=30) as stream:
            assert stream.readline().startswith(b"event: state")
