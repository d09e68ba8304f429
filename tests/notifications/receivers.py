"""Stand-ins on loopback for the test of what the server sends: a webhook receiver that
checks nothing and records everything, and a push service that keeps the encrypted
bodies (decrypted by the test with the browser's private key, as a browser would); and
the hostile ones: a receiver that drips its answer a byte at a time, one that never
answers, one that redirects."""

from __future__ import annotations

import base64
import contextlib
import os
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

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

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
