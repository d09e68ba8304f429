"""A body over the limit (``DATA_UPLOAD_MAX_MEMORY_SIZE``, 1 MiB) is a 413 before it is
read, whatever its content type, on a page, the API (JSON ``{"code", "detail"}``) and the
admin; chunked bodies (no ``Content-Length``) are read at most one byte past the limit.

The requests go through the WSGI application itself with a ``wsgi.input`` that counts
the bytes read from it (Django's test client would hand the whole body over first). The
real server's refusal is pinned in ``tests/tooling/test_web_server.py``."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from config.wsgi import application

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024
#: What a hostile client declares and would send.
HUNDRED_MB = 100 * MIB
#: The most a refusal may read: nothing when the length is declared, the limit and a
#: byte (with the reader's own buffering) for a chunked body.
CHUNKED_READ_BOUND = MIB + 64 * 1024


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Iterator[None]:
    """Like Django's test client: a request must not close the test's transaction."""
    from django.core import signals
    from django.db import close_old_connections

    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


class CountingInput(io.RawIOBase):
    """``size`` bytes of ``filler``, made on demand, counting what is read."""

    def __init__(self, size: int, filler: bytes = b"x") -> None:
        self.size = size
        self.filler = filler
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.size - self.read_bytes)
        buffer[:n] = (self.filler * (n // len(self.filler) + 1))[:n]
        self.read_bytes += n
        return n

    def readline(self, size: int | None = -1) -> bytes:
        return self.read(size if size and size > 0 else 64 * 1024) or b""


def call(
    path: str,
    content_type: str,
    body: CountingInput,
    *,
    declared: int | None,
    chunked: bool = False,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": content_type,
        "HTTP_HOST": "testserver",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": body,
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    if declared is not None:
        environ["CONTENT_LENGTH"] = str(declared)
    if chunked:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
    environ.update(headers or {})
    answer: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], *_: Any) -> None:
        answer["status"] = int(status.split()[0])
        answer["headers"] = dict(response_headers)

    chunks: Iterable[bytes] = application(environ, start_response)
    content = b"".join(chunks)
    return answer["status"], answer["headers"], content


BOUNDARY = "----limit"
BODIES = {
    # A multipart whose one part is a 100 MB "file": Django streamed such parts to disk.
    "multipart": (
        f"multipart/form-data; boundary={BOUNDARY}",
        (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="username"; '
            'filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'
        ).encode()
        + b"x" * 64,
    ),
    "urlencoded": ("application/x-www-form-urlencoded", b"username=" + b"x" * 64),
    "json": ("application/json", b'{"username": "' + b"x" * 64),
}
WHERE = {
    "api": "/api/v1/auth/token/",
    "page": "/accounts/login/",
    "admin": "/admin/login/",
}


def _body(kind: str) -> tuple[str, CountingInput]:
    content_type, head = BODIES[kind]
    # The head repeated: a body that is valid of its kind as far as anyone reads it.
    return content_type, CountingInput(HUNDRED_MB, head)


def _assert_refused(where: str, status: int, content: bytes) -> None:
    assert status == 413
    if where == "api":
        body = json.loads(content)
        assert body["code"] == "too_large" and "1024 KiB" in body["detail"]
    else:
        assert b"too large" in content and b"<html" in content


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("kind", BODIES)
def test_a_100_mb_body_declared_in_its_length_is_a_413_read_not_at_all(
    where: str, kind: str
) -> None:
    content_type, body = _body(kind)
    status, _, content = call(WHERE[where], content_type, body, declared=HUNDRED_MB)
    _assert_refused(where, status, content)
    assert body.read_bytes == 0


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("kind", BODIES)
def test_a_100_mb_chunked_body_is_a_413_read_no_further_than_the_limit(
    where: str, kind: str
) -> None:
    content_type, body = _body(kind)
    status, _, content = call(WHERE[where], content_type, body, declared=None, chunked=True)
    _assert_refused(where, status, content)
    assert body.read_bytes <= CHUNKED_READ_BOUND


def test_a_small_chunked_body_is_read_as_usual() -> None:
    """Within the limit, a chunked body reaches the view (it used to arrive empty)."""
    payload = b'{"username": "nobody", "password": "wrong"}'
    body = CountingInput(len(payload), payload)
    status, _, content = call(
        "/api/v1/auth/token/", "application/json", body, declared=None, chunked=True
    )
    assert status == 400  # a wrong password, read from the body: not "username required"
    assert "Unable to log in" in json.loads(content)["detail"], content


def test_a_body_at_the_limit_is_read() -> None:
    payload = b'{"username": "nobody", "password": "wrong"}'
    padded = payload + b" " * (MIB - len(payload))
    body = CountingInput(len(padded), padded)
    status, _, _ = call("/api/v1/auth/token/", "application/json", body, declared=len(padded))
    assert status == 400
    assert body.read_bytes == MIB
