"""``tileref serve``: bad options are one line, and --https serves a self-signed certificate."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
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
def serving(tmp_path: Path, *options: str) -> Iterator[tuple[subprocess.Popen, str]]:
    """``tileref serve OPTIONS`` on a free loopback port: the process and its base URL."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "webui", "serve", *options, "--host", "127.0.0.1",
         "--port", str(port), "--instance", str(tmp_path / "instance")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        scheme = "https" if "--https" in options else "http"
        assert f"{scheme}://127.0.0.1:{port}/" in line
        yield server, f"{scheme}://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


@contextmanager
def https_server(tmp_path: Path) -> Iterator[tuple[str, ssl.SSLContext]]:
    """``tileref serve --https``: its base URL and a TLS context that trusts its self-signed
    certificate."""
    with serving(tmp_path, "--https") as (_, base):
        yield base, ssl.create_default_context(
            cafile=str(tmp_path / "instance" / "tileref-cert.pem"))


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


def cpu_seconds(pid: int) -> float:
    """User and system time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_crowd_of_idle_screens_neither_spins_the_server_nor_stops_its_answers(tmp_path):
    """Three hundred screens open their event streams at once (a room of tablets coming back
    after a restart) and never read them. The server answers the next request, and once the
    streams are opened it sits idle: before ``webui.channel``, its I/O thread spun at a full
    core on the connections whose workers were writing, and starved every worker of the GIL."""
    import json

    with serving(tmp_path) as (server, base):
        request = urllib.request.Request(f"{base}/api/games", method="POST", data=json.dumps(
            {"ruleset": "archipelago", "players": [{"name": "Ann", "seat": "S"},
                                                   {"name": "Bo", "seat": "N"}]}).encode())
        with urllib.request.urlopen(request, timeout=30) as response:
            game_id = json.loads(response.read())["id"]
        port = int(base.rsplit(":", 1)[1])
        screens = []
        try:
            for _ in range(300):
                screen = socket.create_connection(("127.0.0.1", port), timeout=30)
                screen.sendall(f"GET /api/games/{game_id}/events HTTP/1.1\r\n"
                               "Host: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
                screens.append(screen)
            # Answered in milliseconds; while the server spun, not within half a minute.
            with urllib.request.urlopen(f"{base}/api/games/{game_id}", timeout=10) as response:
                assert json.loads(response.read())["id"] == game_id
            before = cpu_seconds(server.pid)
            time.sleep(3.0)
            # Idle, it uses next to nothing; spinning, it used the whole 3 s.
            assert cpu_seconds(server.pid) - before < 1.0
        finally:
            for screen in screens:
                screen.close()
