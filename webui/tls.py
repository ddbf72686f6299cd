"""A self-signed certificate for ``tileref serve --https``.

Phones show the camera to a page only on a secure origin, and ``localhost`` is the only plain
HTTP origin that counts. So the server makes a certificate once, in the instance folder, with the
machine's addresses in it, and serves HTTPS; the phone asks once to trust it. The certificate is
made with Debian's ``openssl`` command (already on every machine that runs the project), not a new
Python dependency.
"""

from __future__ import annotations

import ipaddress
import shutil
import ssl
import subprocess
from pathlib import Path

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
