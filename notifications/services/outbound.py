"""One HTTP POST to a webhook receiver or a push service, as the server allows it:

- a *total* deadline (:data:`REQUEST_SECONDS`: resolving, connecting, the TLS handshake,
  sending and the answer's headers, together). A per-read timeout is not enough: a
  receiver that sends its headers and then one byte every few seconds never trips it, and
  held a worker for minutes. Every blocking call here gets the time left as its timeout,
  and a watchdog shuts the socket down when the deadline passes, whatever it is doing;
- only to checked addresses: the host is resolved once, every address it stands for is
  checked (``addresses.resolve_public``) and the connection is made to one of those
  addresses (the name is kept for the ``Host`` header, TLS's SNI and the certificate's
  check), so a name that resolves differently a moment later changes nothing;
- never a redirect: a 3xx answer is the answer (a push endpoint that answered 307 to a
  loopback address got the POST delivered there through ``requests``).

The answer's body is read only when it is not a success, and only its first kilobyte,
within the same deadline (it goes into the delivery log).
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from notifications.services import addresses

USER_AGENT = "cardclub-notifications/1"
#: Longest wait for a connection to one address (the next one is tried after it).
CONNECT_SECONDS = 3.05
#: Most of an answer's headers read.
MAX_HEAD = 64 * 1024
#: Most of a failure's body kept.
MAX_TEXT = 1024


_tls: ssl.SSLContext | None = None


def tls_context() -> ssl.SSLContext:
    """The system's trusted certificates, hostnames checked; made once (loading the
    certificates costs milliseconds, and a context serves every thread)."""
    global _tls
    if _tls is None:
        _tls = ssl.create_default_context()
    return _tls


def request_seconds() -> float:
    """The total deadline of one request (``NOTIFY_REQUEST_SECONDS``)."""
    return float(settings.NOTIFY_REQUEST_SECONDS)


@dataclass(frozen=True)
class Answer:
    status: int
    text: str = ""


class Deadline:
    """The time left for one request."""

    def __init__(self, seconds: float) -> None:
        self.ends = time.monotonic() + seconds

    def left(self) -> float:
        left = self.ends - time.monotonic()
        if left <= 0:
            raise TimeoutError("the receiver took too long to answer")
        return left


def _connect(ips: list[addresses.IP], port: int, deadline: Deadline) -> socket.socket:
    error: OSError | None = None
    for ip in ips:
        family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.settimeout(min(CONNECT_SECONDS, deadline.left()))
        try:
            sock.connect((str(ip), port))
        except OSError as failed:
            sock.close()
            error = failed
            continue
        return sock
    raise error or OSError("no address to connect to")


def _read_head(sock: socket.socket, deadline: Deadline) -> tuple[int, bytes]:
    """The final answer's status and whatever of its body came with the headers."""
    buffer = b""
    while True:
        while b"\r\n\r\n" not in buffer:
            sock.settimeout(deadline.left())
            chunk = sock.recv(8192)
            if not chunk:
                raise ConnectionError("the receiver closed the connection without an answer")
            buffer += chunk
            if len(buffer) > MAX_HEAD:
                raise ConnectionError("the receiver's answer has too long a head")
        head, _, rest = buffer.partition(b"\r\n\r\n")
        status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        fields = status_line.split(" ", 2)
        if len(fields) < 2 or not fields[0].startswith("HTTP/") or not fields[1].isdigit():
            raise ConnectionError(f"not an HTTP answer: {status_line[:60]!r}")
        status = int(fields[1])
        if 100 <= status < 200:  # an interim answer (100 Continue): the real one follows
            buffer = rest
            continue
        return status, rest


def _read_some(sock: socket.socket, start: bytes, deadline: Deadline) -> bytes:
    """Up to :data:`MAX_TEXT` bytes of the body, as much as comes before the deadline."""
    body = start
    try:
        while len(body) < MAX_TEXT:
            sock.settimeout(deadline.left())
            chunk = sock.recv(MAX_TEXT)
            if not chunk:
                break
            body += chunk
    except (TimeoutError, OSError):
        pass  # a failure's text is a courtesy: what came is enough
    return body[:MAX_TEXT]


def post(url: str, body: bytes, headers: dict[str, str], *, seconds: float | None = None) -> Answer:
    """POST ``body`` to ``url`` within ``seconds`` (``NOTIFY_REQUEST_SECONDS``).

    Raises :class:`addresses.Refused` (an address the server must not send to),
    ``TimeoutError`` (the deadline passed) or ``OSError`` (the connection failed)."""
    deadline = Deadline(request_seconds() if seconds is None else seconds)
    parts = urlsplit(url)
    ips = addresses.resolve_public(url, timeout=min(addresses.RESOLVE_SECONDS, deadline.left()))
    port = parts.port or (443 if parts.scheme == "https" else 80)
    raw = _connect(ips, port, deadline)
    # The watchdog: whatever the socket is waiting for when the deadline passes (a TLS
    # handshake a byte at a time, a send the receiver does not read), it ends.
    watchdog = threading.Timer(max(deadline.ends - time.monotonic(), 0), _shut, (raw,))
    watchdog.daemon = True
    watchdog.start()
    sock: socket.socket = raw
    try:
        if parts.scheme == "https":
            raw.settimeout(deadline.left())
            sock = tls_context().wrap_socket(raw, server_hostname=parts.hostname)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        lines = [
            f"POST {target} HTTP/1.1",
            f"Host: {parts.netloc}",
            f"User-Agent: {USER_AGENT}",
            f"Content-Length: {len(body)}",
            "Connection: close",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        sent = 0
        while sent < len(request):
            sock.settimeout(deadline.left())
            sent += sock.send(request[sent : sent + 65536])
        status, rest = _read_head(sock, deadline)
        text = b"" if 200 <= status < 300 else _read_some(sock, rest, deadline)
        return Answer(status, text.decode("utf-8", "replace"))
    except OSError:
        if time.monotonic() >= deadline.ends:  # the watchdog's doing
            raise TimeoutError("the receiver took too long to answer") from None
        raise
    finally:
        watchdog.cancel()
        sock.close()
        raw.close()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # closed already
        sock.shutdown(socket.SHUT_RDWR)
