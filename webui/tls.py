"""HTTPS for ``tileref serve --https``: a self-signed certificate, and the TLS front.

Phones show the camera to a page only on a secure origin, and ``localhost`` is the only plain
HTTP origin that counts. So the server makes a certificate once, in the instance folder, with the
machine's addresses in it, and serves HTTPS; the phone asks once to trust it. The certificate is
made with Debian's ``openssl`` command (already on every machine that runs the project), not a new
Python dependency.
"""

from __future__ import annotations

import asyncio
import ipaddress
import shutil
import ssl
import subprocess
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

CERT_NAME = "tileref-cert.pem"
KEY_NAME = "tileref-key.pem"
DAYS = 825  # the longest validity Apple devices accept for a TLS server certificate


class CertificateError(ValueError):
    """The certificate could not be made (no openssl, or openssl failed); one line."""


def subject_alt_names(hosts: list[str]) -> str:
    names = {"DNS:localhost", "IP:127.0.0.1"}
    for host in hosts:
        if not host or host in ("0.0.0.0", "::"):
            continue
        try:
            ipaddress.ip_address(host)
            names.add(f"IP:{host}")
        except ValueError:
            names.add(f"DNS:{host}")
    return ",".join(sorted(names))


def ensure_certificate(folder: Path, hosts: list[str]) -> tuple[Path, Path]:
    """(certificate, key) in ``folder``, made now if missing or not covering ``hosts``."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / CERT_NAME, folder / KEY_NAME
    names = subject_alt_names(hosts)
    stamp = folder / "tileref-cert.names"
    if cert.exists() and key.exists() and stamp.exists() and stamp.read_text() == names:
        return cert, key
    openssl = shutil.which("openssl")
    if openssl is None:
        raise CertificateError("--https needs the openssl command (Debian package 'openssl')")
    command = [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256",
               "-days", str(DAYS), "-subj", "/CN=tileref", "-keyout", str(key), "-out", str(cert),
               "-addext", f"subjectAltName={names}"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["unknown error"])[-1]
        raise CertificateError(f"openssl could not make a certificate: {last}")
    key.chmod(0o600)
    stamp.write_text(names)
    return cert, key


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(cert), str(key))
    return context


class TlsFront:
    """HTTPS for the app's server: accepts TLS connections on the address the players open and
    relays each one, decrypted, to the WSGI server on a loopback port.

    Why a front of our own: the app is served by waitress (``webui.commands.serve`` says why),
    which speaks plain HTTP only. This is asyncio's TLS server from the standard library, one
    thread for every connection together, so a few hundred idle screens cost no threads here;
    waitress behind it still reads each request whole before a worker sees it, and its
    timeouts close what goes quiet (the front closes the client's side with it). The address
    the front saw is handed on (:meth:`wsgi`): the upload quotas count per client, and every
    client reached waitress as 127.0.0.1. For the same reason the front, not waitress, keeps
    each address to its share of the connections (``per_address``; ``webui.channel``).
    """

    MAX_CONNECTIONS = 1000
    HANDSHAKE_SECONDS = 10.0

    def __init__(self, host: str, port: int, context: ssl.SSLContext,
                 per_address: int | None = None) -> None:
        import socket

        self.context = context
        self.per_address = per_address
        self.upstream: tuple[str, int] | None = None
        self._clients: dict[int, str] = {}
        self._open = 0
        self._open_from: Counter[str] = Counter()
        # Bound now, so that an address in use is the caller's one-line error, not a thread's.
        self.socket = socket.create_server((host, port), reuse_port=False, backlog=1024,
                                           family=socket.AF_INET6 if ":" in host
                                           else socket.AF_INET)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def start(self, upstream: tuple[str, int]) -> None:
        """Relay to the plain HTTP server at ``upstream`` (loopback) from now on."""
        self.upstream = upstream
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            assert self._loop is not None
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(asyncio.start_server(
                self._relay, sock=self.socket, ssl=self.context,
                ssl_handshake_timeout=self.HANDSHAKE_SECONDS))
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="tls-front", daemon=True)
        self._thread.start()
        ready.wait(30)

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.socket.close()

    def client_of(self, relay_port: int) -> str | None:
        """The address of the client whose connection the front relays from ``relay_port``."""
        return self._clients.get(relay_port)

    def wsgi(self, app: Callable[..., Any]) -> Callable[..., Any]:
        """``app`` seeing each request as from the client's address and over HTTPS."""

        def with_client(environ: dict[str, Any], start_response: Any) -> Any:
            try:
                client = self.client_of(int(environ.get("REMOTE_PORT") or 0))
            except ValueError:
                client = None
            if client is not None and environ.get("REMOTE_ADDR") in ("127.0.0.1", "::1"):
                environ["REMOTE_ADDR"] = client
            environ["wsgi.url_scheme"] = "https"
            return app(environ, start_response)

        return with_client

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        client = str(peer[0]) if peer else ""
        if self._open >= self.MAX_CONNECTIONS or self.upstream is None or (
                self.per_address is not None and self._open_from[client] >= self.per_address):
            writer.close()
            return
        self._open += 1
        self._open_from[client] += 1
        relay_port = 0
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.upstream)
            relay_port = int(upstream_writer.get_extra_info("sockname")[1])
            self._clients[relay_port] = client
            to_app = asyncio.ensure_future(_pipe(reader, upstream_writer, half_close=True))
            to_client = asyncio.ensure_future(_pipe(upstream_reader, writer))
            # The app's side ending (a response sent and the connection closed, or a timeout)
            # ends the relay; the client's side ending only tells the app nothing more comes.
            await to_client
            to_app.cancel()
            upstream_writer.close()
        except OSError:
            pass
        finally:
            self._clients.pop(relay_port, None)
            self._open -= 1
            self._open_from[client] -= 1
            if not self._open_from[client]:
                del self._open_from[client]
            writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                half_close: bool = False) -> None:
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
        if half_close and writer.can_write_eof():
            writer.write_eof()
    except (OSError, ssl.SSLError, asyncio.IncompleteReadError):
        pass
