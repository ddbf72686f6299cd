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
            for number in range(300):   # from a hundred tablets (all of 127/8 is loopback)
                screen = socket.create_connection(("127.0.0.1", port), timeout=30,
                                                  source_address=(f"127.0.1.{number % 100}", 0))
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


def open_connections(port: int, source: str, count: int,
                     context: ssl.SSLContext | None = None) -> list[socket.socket]:
    """``count`` connections from ``source`` (through a TLS handshake, given ``context``)."""
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=30,
                                              source_address=(source, 0))
        if context is not None:
            connection = context.wrap_socket(connection, server_hostname="127.0.0.1")
        connections.append(connection)
    return connections


def closed_at_once(connection: socket.socket, within: float) -> bool:
    """Whether the server closed ``connection`` without a word within ``within`` seconds."""
    connection.settimeout(within)
    try:
        return connection.recv(1) == b""
    except (ConnectionResetError, ssl.SSLError):
        return True
    except TimeoutError:
        return False


@pytest.mark.parametrize("https", [False, True], ids=["http", "https"])
def test_one_address_holds_at_most_its_share_of_the_connections(tmp_path, https):
    """A script opening connection after connection from one address gets its share, and the
    rest are closed at once; every other address is served as before."""
    from webui.commands.serve import CONNECTIONS_PER_ADDRESS

    options = ("--https",) if https else ()
    with serving(tmp_path, *options) as (_, base):
        port = int(base.rsplit(":", 1)[1])
        context = ssl.create_default_context(
            cafile=str(tmp_path / "instance" / "tileref-cert.pem")) if https else None
        held = open_connections(port, "127.0.2.1", CONNECTIONS_PER_ADDRESS, context)
        try:
            assert not closed_at_once(held[-1], within=1.0)
            over = open_connections(port, "127.0.2.1", 1, context)[0]
            assert closed_at_once(over, within=10.0)
            neighbour = http_get(base, "/api/games", tmp_path if https else None,
                                 source="127.0.2.2")
            assert neighbour == 200
        finally:
            for connection in held:
                connection.close()


def http_get(base: str, path: str, instance: Path | None, source: str) -> int:
    """GET ``path`` from the ``source`` address; the status (``instance``: trust its
    certificate, for HTTPS)."""
    import http.client

    host, port = base.split("://", 1)[1].rsplit(":", 1)
    if instance is None:
        connection: http.client.HTTPConnection = http.client.HTTPConnection(
            host, int(port), timeout=30, source_address=(source, 0))
    else:
        context = ssl.create_default_context(cafile=str(instance / "instance" / "tileref-cert.pem"))
        connection = http.client.HTTPSConnection(host, int(port), timeout=30,
                                                 source_address=(source, 0), context=context)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()
