"""``tileref serve``: the referee screens and the JSON API for the table.

Serves the app with waitress, a production WSGI server, and prints the address to open on a
tablet or phone. Werkzeug's development server, before it, made a thread per connection with no
limit and no timeout: at 50 tables sending a frame a second, 315 of 3000 frames were answered.

Why waitress (over gunicorn): one process, so a table's live state (its steadiness, the frames
that vote, the screens waiting for a change, the server's own webcam) lives where its requests
are answered, and ``kill -9`` stops all of it at once (gunicorn's workers outlive a killed master
and hold the port); and waitress reads every request whole, in its one I/O thread, before a
worker thread sees it, with an idle timeout: a phone on a bad wifi link, or a prankster
trickling bytes, holds a connection but never a worker (gunicorn's threaded worker reads the
body in the worker thread). What waitress lacks, TLS, is ``webui.tls.TlsFront``: asyncio's TLS
server from the standard library, relaying to waitress on a loopback port.

Bounded: :data:`THREADS` worker threads, :data:`CONNECTIONS` connections, bodies of at most
``MAX_CONTENT_LENGTH`` (refused by waitress before they are read), connections idle for
:data:`IDLE_TIMEOUT` seconds closed. The event streams of the screens take at most
``SSE_STREAMS`` of the threads (``webui.views.api``), the camera frames waiting for a reading at
most ``webui.framegate``'s queue: the rest always answers pages and moves.
"""

from __future__ import annotations

import argparse
import resource
import socket
import sys
from pathlib import Path

THREADS = 64
"""Worker threads: SSE_STREAMS of them may wait on screens' event streams, the rest answer."""
CONNECTIONS = 1000
"""Open connections at most (each screen holds one for its event stream)."""
CONNECTIONS_PER_ADDRESS = 100
"""Open connections at most from one address (``webui.channel``): a prankster's script cannot
take the :data:`CONNECTIONS` every table shares; a laptop showing a dozen tables' screens, six
connections a browser tab, stays well inside it."""
IDLE_TIMEOUT = 30
"""Seconds a connection may stay silent (no request, or an upload that stopped) before it is
closed; a screen's event stream speaks every ``SSE_KEEPALIVE`` seconds."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve the referee screens for the table",
        description="Serve the referee screens and the web API; open the printed address on "
                    "a tablet or phone on the same network.")
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--https", action="store_true",
                        help="serve HTTPS with a self-signed certificate (phones need it for "
                             "the camera)")
    parser.add_argument("--camera", type=int, metavar="N",
                        help="also read USB webcam N on this machine")
    parser.add_argument("--instance", type=Path, metavar="DIR",
                        help="folder for the game database and profiles (default: the app's "
                             "instance folder)")
    parser.add_argument("--threads", type=int, default=THREADS, metavar="N",
                        help=f"worker threads (default {THREADS})")
    parser.set_defaults(func=run)


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        print(f"tileref serve: --port must be 1 to 65535, not {args.port}", file=sys.stderr)
        return 2
    if not 8 <= args.threads <= 1000:
        print(f"tileref serve: --threads must be 8 to 1000, not {args.threads}",
              file=sys.stderr)
        return 2
    from waitress.server import create_server

    from webui import create_app
    from webui.channel import capped
    from webui.tls import CertificateError, TlsFront, ensure_certificate, server_context

    config: dict[str, object] = {"CAMERA": args.camera, "SESSION_COOKIE_SECURE": args.https,
                                 "SSE_STREAMS": max(1, args.threads * 3 // 4)}
    if args.instance is not None:
        try:
            args.instance.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"tileref serve: cannot use {args.instance}: {error.strerror}", file=sys.stderr)
            return 2
        config["INSTANCE_PATH"] = str(args.instance)
    app = create_app(config)
    import cv2

    # Frames are read side by side, one per core (webui.framegate's read slots): OpenCV's own
    # thread per core under each made every reading wait for the others' threads.
    cv2.setNumThreads(1)
    shown_host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    _raise_open_files_limit()
    front = None
    try:
        if args.https:
            cert, key = ensure_certificate(Path(app.instance_path),
                                           [shown_host, args.host, socket.gethostname()])
            front = TlsFront(args.host, args.port, server_context(cert, key),
                             per_address=CONNECTIONS_PER_ADDRESS)
        server = create_server(
            front.wsgi(app) if front else app,
            host="127.0.0.1" if front else args.host, port=0 if front else args.port,
            threads=args.threads, connection_limit=CONNECTIONS, channel_timeout=IDLE_TIMEOUT,
            cleanup_interval=10, max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
            max_request_header_size=64 * 1024, asyncore_use_poll=True, ident="tileref",
            clear_untrusted_proxy_headers=True, expose_tracebacks=False)
        # webui.channel says why; behind the TLS front, the front keeps each address's share.
        server.channel_class = capped(None if front else CONNECTIONS_PER_ADDRESS)
    except CertificateError as error:
        print(f"tileref serve: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"tileref serve: cannot listen on {args.host}:{args.port}: "
              f"{error.strerror or error}", file=sys.stderr)
        return 2
    if front is not None:
        front.start(("127.0.0.1", int(server.effective_port)))
    camera = None
    if args.camera is not None:
        from webui.camera import CameraError, ServerCamera

        camera = ServerCamera(args.camera, app.extensions["tileref"].table.feed_active_game)
        try:
            camera.start()
        except CameraError as error:
            print(f"tileref serve: {error}", file=sys.stderr)
            return 2
    scheme = "https" if args.https else "http"
    print(f"tileref: open {scheme}://{shown_host}:{args.port}/ on a tablet or phone "
          f"(database: {app.config['DATABASE']})", flush=True)
    if args.https:
        print("tileref: the certificate is self-signed: accept it once on each device",
              flush=True)
    elif shown_host not in ("127.0.0.1", "localhost", "::1"):
        print("tileref: a phone or tablet shows its camera to the page only over HTTPS: "
              "start with --https for the live camera", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        if camera is not None:
            camera.stop()
        if front is not None:
            front.stop()
        server.close()
    return 0


def _raise_open_files_limit() -> None:
    """Every connection is a file descriptor (two behind the TLS front): take the most the
    system allows, as many Debian shells start with a soft limit of 1024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            pass
