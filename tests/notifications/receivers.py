"""Stand-ins on loopback for the test of what the server sends: a webhook receiver that
checks nothing and records everything, and a push service that keeps the encrypted
bodies (decrypted by the test with the browser's private key, as a browser would); and
the hostile ones: a receiver that drips its answer a byte at a time, one that never
answers, one that redirects."""

from __future__ import annotations

import base64
import contextlib
import os
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """An HTTP server on 127.0.0.1 answering ``status`` to every POST, keeping each."""

    status: int = 200
    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None
    #: ``"answer"``: ``status`` at once; ``"drip"``: ``200`` and its headers, then one
    #: byte of the body every ``every`` seconds (a body that never ends); ``"hang"``:
    #: nothing, ever (the connection stays open); ``"redirect"``: 307 to ``location``.
    behaviour: str = "answer"
    every: float = 1.0
    location: str = ""
    #: (key, start, end) of every request, for overlaps.
    spans: list[tuple[str, float, float]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)
    #: Serve HTTPS with this context (``url`` then starts with ``https://``).
    tls: ssl.SSLContext | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        scheme = "https" if self.tls else "http"
        return f"{scheme}://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                began = time.monotonic()
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                with contextlib.suppress(OSError):  # the sender gave up on us: the point
                    self._answer()
                key = self.headers.get("X-Cardclub-Delivery") or self.path
                receiver.spans.append((key, began, time.monotonic()))

            def _answer(self) -> None:
                if receiver.behaviour == "hang":
                    # Nothing, until the sender hangs up (or the test ends).
                    self.connection.settimeout(0.2)
                    while not receiver.stopping.is_set():
                        try:
                            if not self.connection.recv(1):
                                return
                        except TimeoutError:
                            continue
                    return
                if receiver.behaviour == "drip":
                    self.send_response(200)
                    self.send_header("Content-Length", "100000")
                    self.end_headers()
                    self.wfile.flush()
                    while not receiver.stopping.wait(receiver.every):
                        self.wfile.write(b".")
                        self.wfile.flush()
                    return
                if receiver.behaviour == "redirect":
                    self.send_response(307)
                    self.send_header("Location", receiver.location)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if self.tls is not None:
            self.server.socket = self.tls.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Browser:
    """A browser's side of a push subscription: its key pair and auth secret."""

    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def keys(self) -> dict[str, str]:
        return {"p256dh": self.p256dh, "auth": b64(self.auth)}

    def decrypt(self, body: bytes) -> bytes:
        import http_ece

        return http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )


def self_signed(name: str, directory: str) -> tuple[ssl.SSLContext, str]:
    """A server context with a self-signed certificate for ``name``, and the certificate's
    file (a client that trusts it verifies the server as ``name``)."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file = os.path.join(directory, f"{name}.pem")
    key_file = os.path.join(directory, f"{name}.key")
    with open(cert_file, "wb") as out:
        out.write(certificate.public_bytes(serialization.Encoding.PEM))
    with open(key_file, "wb") as out:
        out.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    return context, cert_file
