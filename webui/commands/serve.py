"""``tileref serve``: the referee screens and the JSON API for the table.

Starts a threaded WSGI server (one thread per request, so the event streams of several screens
and the camera's frames run side by side) and prints the address to open on a tablet or phone.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path


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
    from werkzeug.serving import make_server

    from webui import create_app
    from webui.tls import CertificateError, ensure_certificate, server_context

    config: dict[str, object] = {"CAMERA": args.camera}
    if args.instance is not None:
        try:
            args.instance.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"tileref serve: cannot use {args.instance}: {error.strerror}", file=sys.stderr)
            return 2
        config["INSTANCE_PATH"] = str(args.instance)
    app = create_app(config)
    shown_host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    context = None
    if args.https:
        try:
            cert, key = ensure_certificate(Path(app.instance_path),
                                           [shown_host, args.host, socket.gethostname()])
        except CertificateError as error:
            print(f"tileref serve: {error}", file=sys.stderr)
            return 2
        context = server_context(cert, key)
    try:
        server = make_server(args.host, args.port, app, threaded=True, ssl_context=context)
    except OSError as error:
        print(f"tileref serve: cannot listen on {args.host}:{args.port}: "
              f"{error.strerror or error}", file=sys.stderr)
        return 2
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
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        if camera is not None:
            camera.stop()
        server.server_close()
    return 0
