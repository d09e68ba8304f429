"""The reverse proxy (``deploy/nginx/templates/cardclub.conf.template``, run on this machine
by ``scripts/proxy``, in compose by the nginx image): the config is valid for nginx; what
it caches is what the app marks public, never a signed-in visitor's page, and conditional
requests reach the app when the cache is not used (a small upstream of the test's own,
which says what it was sent); in front of the real web server (``scripts/web``) it serves
the static files itself, passes pages and websockets through, and the app sees the
client's address (the sign-in throttle counts each client apart).

nginx is needed: ``scripts/test-prereqs`` (``make test``, CI) installs it through apt where
it may, else stops naming the command; run alone without it, these tests fail saying what
to install, never skip."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.conf import settings

from tests.tooling.test_redis_outage import web_server
from tests.tooling.test_web_server import _free_port

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "proxy"
INSTALL = "apt-get install -y --no-install-recommends nginx"

pytestmark = pytest.mark.proxy


def nginx_binary() -> str:
    """nginx as scripts/proxy finds it (NGINX, PATH, /usr/sbin): missing fails the test."""
    found = os.environ.get("NGINX") or shutil.which("nginx")
    if not found and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"
    if not found:
        pytest.fail(f"nginx is not installed: {INSTALL} (make test installs it where it may)")
    return found


def _wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, "scripts/proxy stopped"
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.1)
    raise AssertionError("the proxy did not listen in time")


@contextlib.contextmanager
def proxy(upstreams: list[int], static_root: Path) -> Iterator[int]:
    """``scripts/proxy`` on a free port in front of ``upstreams``; yields its port."""
    port = _free_port()
    env = dict(os.environ, NGINX=nginx_binary(), STATIC_ROOT=str(static_root), PROXY_WORKERS="1")
    process = subprocess.Popen(
        [str(SCRIPT), str(port), *map(str, upstreams)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        _wait_for_port(port, process)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            output, _ = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
        print(output.decode(errors="replace")[-3000:])  # shown when a test fails


def request(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: str | None = None,
    source: str = "127.0.0.1",
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request(method, path, body, headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def test_scripts_proxy_writes_a_config_nginx_accepts(tmp_path: Path) -> None:
    env = dict(os.environ, NGINX=nginx_binary(), STATIC_ROOT=str(tmp_path))
    done = subprocess.run(
        [str(SCRIPT), "--check", str(_free_port()), "18001", "127.0.0.1:18002"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    # Without nginx it says what to install, and stops.
    env["NGINX"] = str(tmp_path / "no-nginx")
    done = subprocess.run(
        [str(SCRIPT), "--check", "18000", "18001"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2 and INSTALL in done.stderr


def test_the_compose_files_are_a_config_nginx_accepts(tmp_path: Path) -> None:
    """deploy/nginx/nginx.conf around the template filled with docker-compose.yml's own
    values for it, as the nginx image does; only what ties it to the image moved into a
    temporary folder (its user, pid, the include's folder) and the web servers' names,
    which resolve only inside compose, put on this machine."""
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    values = dict(compose["services"]["proxy"]["environment"])
    values["CARDCLUB_UPSTREAMS"] = re.sub(
        r"server \w+:", "server 127.0.0.1:", values["CARDCLUB_UPSTREAMS"]
    )
    values["CARDCLUB_STATIC_ROOT"] = str(tmp_path / "static")
    values["CARDCLUB_CACHE_DIR"] = str(tmp_path / "cache")
    site = (ROOT / "deploy" / "nginx" / "templates" / "cardclub.conf.template").read_text()
    for name, value in values.items():
        site = site.replace(f"${{{name}}}", str(value))
    assert "${CARDCLUB_" not in site
    (tmp_path / "cardclub.conf").write_text(site)
    main = (ROOT / "deploy" / "nginx" / "nginx.conf").read_text()
    main = main.replace("user nginx;", "").replace("/var/run/nginx.pid", str(tmp_path / "pid"))
    main = main.replace("/etc/nginx/conf.d/cardclub.conf", str(tmp_path / "cardclub.conf"))
    temp = "".join(
        f"{kind}_temp_path {tmp_path / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = main.replace("http {", "http {" + temp, 1)
    (tmp_path / "nginx.conf").write_text(main)
    done = subprocess.run(
        [
            nginx_binary(),
            "-t",
            "-p",
            str(tmp_path),
            "-e",
            "stderr",
            "-c",
            str(tmp_path / "nginx.conf"),
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr


# --- what the cache keeps: an upstream that says what it was sent -------------------------


class _Upstream(BaseHTTPRequestHandler):
    """Answers by path; records every request it receives (path, headers)."""

    seen: list[tuple[str, dict[str, str]]] = []
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.seen.append((self.path, headers))
        path = urllib.parse.urlsplit(self.path).path
        extra: dict[str, str] = {}
        status, body = 200, json.dumps({"path": path, "filler": "x" * 4000}).encode()
        if path.startswith("/public"):
            extra = {"Cache-Control": "public, max-age=0, s-maxage=60", "ETag": '"v1"'}
        elif path.startswith("/short"):
            extra = {"Cache-Control": "public, max-age=0, s-maxage=1", "ETag": '"v1"'}
        elif path.startswith("/private"):
            extra = {"Cache-Control": "private, max-age=60", "ETag": '"v1"'}
        elif path.startswith("/cookie"):
            extra = {"Cache-Control": "public, s-maxage=60", "Set-Cookie": "csrftoken=abc"}
        elif path.startswith("/slow"):
            time.sleep(0.5)
        elif path.startswith("/tournaments/"):  # a public tournament page, slow to render
            time.sleep(0.5)
            extra = {"Cache-Control": "public, max-age=0, s-maxage=60", "ETag": '"v1"'}
        # /plain, /slow: nothing said about caching.
        if "ETag" in extra and headers.get("if-none-match") == extra["ETag"]:
            status, body = 304, b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.do_GET()


@pytest.fixture
def upstream() -> Iterator[tuple[int, list[tuple[str, dict[str, str]]]]]:
    seen: list[tuple[str, dict[str, str]]] = []
    handler = type("Handler", (_Upstream,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", _free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], seen
    finally:
        server.shutdown()
        server.server_close()


def test_the_cache_keeps_only_public_pages_and_never_a_signed_in_visitors(
    upstream, tmp_path: Path
) -> None:
    upstream_port, seen = upstream

    def hits(path: str) -> int:
        return sum(1 for seen_path, _ in seen if seen_path == path)

    with proxy([upstream_port], tmp_path) as port:
        # A public page (s-maxage): the app renders it once, then the cache answers.
        statuses = [request(port, "GET", "/public")[1]["x-cache-status"] for _ in range(3)]
        assert statuses == ["MISS", "HIT", "HIT"] and hits("/public") == 1
        # A client taking gzip: a copy of its own, compressed once and kept compressed.
        for expected in ("MISS", "HIT"):
            status, headers, body = request(port, "GET", "/public", {"Accept-Encoding": "gzip"})
            assert headers["x-cache-status"] == expected and headers["content-encoding"] == "gzip"
            assert json.loads(gzip.decompress(body))["path"] == "/public"
        assert hits("/public") == 2
        assert "accept-encoding" not in seen[-1][1]  # the web server is asked for plain
        # A conditional request from an anonymous visitor: 304 from the cache, no body.
        status, headers, body = request(port, "GET", "/public", {"If-None-Match": '"v1"'})
        assert (status, body, hits("/public")) == (304, b"", 2)
        # Signed in (a session cookie) or an API token: past the cache, and their own
        # conditional request reaches the app (which answers 304 without rendering).
        for private in ({"Cookie": "sessionid=s1"}, {"Authorization": "Token t1"}):
            status, headers, _ = request(port, "GET", "/public", private)
            assert status == 200 and headers["x-cache-status"] == "BYPASS"
            status, _, _ = request(port, "GET", "/public", {**private, "If-None-Match": '"v1"'})
            assert status == 304 and seen[-1][1]["if-none-match"] == '"v1"'
            _, headers, body = request(
                port, "GET", "/public", {**private, "Accept-Encoding": "gzip"}
            )
            assert headers["content-encoding"] == "gzip" and json.loads(gzip.decompress(body))
        assert hits("/public") == 8
        # Not marked public, marked private, or setting a cookie: never kept.
        for path in ("/plain", "/private", "/cookie"):
            for _ in range(2):
                status, headers, _ = request(port, "GET", path)
                assert status == 200 and headers["x-cache-status"] == "MISS", path
            assert hits(path) == 2, path
        # A POST is never answered from the cache.
        for _ in range(2):
            request(port, "POST", "/public", {"Content-Type": "text/plain"}, "x")
        assert hits("/public") == 10
        # Expired: nginx asks the app with the entry's ETag, a 304 renews it without a body.
        assert request(port, "GET", "/short")[1]["x-cache-status"] == "MISS"
        time.sleep(2.2)  # nginx counts whole seconds: expired for sure past the next one
        request(port, "GET", "/short")  # the previous copy, while one refresh goes out
        deadline = time.monotonic() + 5
        while hits("/short") < 2:  # the refresh runs in the background
            assert time.monotonic() < deadline, "the expired entry was not revalidated"
            time.sleep(0.05)
        (revalidation,) = [headers for path, headers in seen if path == "/short"][1:]
        assert revalidation["if-none-match"] == '"v1"'
        time.sleep(0.3)  # the renewed entry is in place
        status, headers, body = request(port, "GET", "/short")
        assert status == 200 and json.loads(body)["path"] == "/short"
        assert headers["x-cache-status"] == "HIT" and hits("/short") == 2

        # Requests at once for a page the app does not let it cache all go to the app at
        # once (no waiting in line behind the first: no proxy_cache_lock).
        started = time.monotonic()
        threads = [threading.Thread(target=request, args=(port, "GET", "/slow")) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert hits("/slow") == 8 and time.monotonic() - started < 2.5

        # A tournament's public page asked at once by many, cold: one request reaches the
        # app (the first fill is locked), the others get its copy; an htmx refresh of it
        # goes past the cache (never kept, never waiting behind the lock).
        standings = "/tournaments/7/standings/"
        answers: list[str] = []

        def ask() -> None:
            answers.append(request(port, "GET", standings)[1]["x-cache-status"])

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert hits(standings) == 1 and sorted(answers).count("HIT") == 7, answers
        for _ in range(2):
            _, headers, _ = request(port, "GET", standings, {"HX-Request": "true"})
            assert headers["x-cache-status"] == "BYPASS"
        assert hits(standings) == 3

        # Compressed for the client by the proxy, asked plain from the app.
        status, headers, body = request(port, "GET", "/plain", {"Accept-Encoding": "gzip"})
        assert headers["content-encoding"] == "gzip"
        assert json.loads(gzip.decompress(body))["path"] == "/plain"
        assert "accept-encoding" not in seen[-1][1]
        # The client's address, as the proxy saw it, appended to what the client claimed.
        request(port, "GET", "/plain", {"X-Forwarded-For": "203.0.113.9"}, source="127.0.0.7")
        forwarded = seen[-1][1]
        assert forwarded["x-forwarded-for"] == "203.0.113.9, 127.0.0.7"
        assert forwarded["x-real-ip"] == "127.0.0.7"
        assert forwarded["x-forwarded-proto"] == "http"
        # A body larger than the app would ever take is refused before it is read.
        status, _, _ = request(
            port, "POST", "/plain", {"Content-Type": "text/plain"}, "x" * (3 * 1024 * 1024)
        )
        assert status == 413


# --- in front of the real web server ----------------------------------------------------


def _wrong_sign_in(port: int, source: str, forwarded_for: str | None = None) -> int:
    body = urllib.parse.urlencode({"username": f"n{uuid.uuid4().hex[:8]}", "password": "x"})
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if forwarded_for:
        headers["X-Forwarded-For"] = forwarded_for
    status, _, _ = request(port, "POST", "/api/v1/auth/token/", headers, body, source=source)
    assert status in (400, 429)
    return status


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_in_front_of_the_web_server_static_pages_websockets_and_client_addresses(
    tmp_path: Path,
) -> None:
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    live_js = (ROOT / "static" / "js" / "live.js").read_bytes()
    # As collectstatic names a file by its content (ManifestStaticFilesStorage), with the
    # .gz CompressedManifest writes beside it; a name the app itself does not serve.
    (static / "js" / "probe.0123456789ab.js").write_bytes(live_js)
    (static / "js" / "probe.0123456789ab.js.gz").write_bytes(gzip.compress(live_js))

    from tests.tournaments.test_brackets import _bracket_event
    from tournaments.models import StageKind

    tournament, _, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    web_port = _free_port()
    limit = 3
    with (
        web_server(
            web_port,
            FORWARDED_ALLOW_IPS="127.0.0.1",  # the proxy's address towards the web server
            LOGIN_FAILURE_LIMIT_PER_ADDRESS=str(limit),
            LOGIN_FAILURE_LIMIT_PER_USERNAME="100",
            CACHE_KEY_PREFIX=f"proxy-{uuid.uuid4().hex}",
        ),
        proxy([web_port], static) as port,
    ):
        # Static files from disk: the hashed one for a year, the others for minutes.
        status, headers, body = request(port, "GET", "/static/js/probe.0123456789ab.js")
        assert status == 200 and body == live_js
        assert headers["cache-control"] == "public, max-age=31536000, immutable"
        status, headers, body = request(
            port, "GET", "/static/js/probe.0123456789ab.js", {"Accept-Encoding": "gzip"}
        )
        assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == live_js
        status, headers, body = request(port, "GET", "/static/js/live.js")
        assert status == 200 and body == live_js and headers["cache-control"] == "max-age=300"
        assert request(web_port, "GET", "/static/js/probe.0123456789ab.js")[0] == 404

        # Pages and the API through it.
        status, headers, body = request(port, "GET", f"/tournaments/{tournament.pk}/")
        assert status == 200 and tournament.name.encode() in body
        assert request(port, "GET", "/healthz")[0] == 200
        status, _, body = request(port, "GET", "/api/v1/tournaments/")
        assert status == 200 and "results" in json.loads(body)

        # A websocket upgraded through it (a live bracket page's).
        async def watch() -> list[str]:
            import websockets

            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/stages/{stage.pk}/",
                additional_headers={"Origin": f"http://127.0.0.1:{port}"},
            ) as ws:
                hello = json.loads(await asyncio.wait_for(ws.recv(), 20))["type"]
                await ws.send(json.dumps({"type": "ping"}))
                pong = json.loads(await asyncio.wait_for(ws.recv(), 20))["type"]
                return [hello, pong]

        assert asyncio.run(watch()) == ["hello", "pong"]

        # The client's address reaches the app: two clients behind the proxy are throttled
        # apart, and one cannot pose as another by writing X-Forwarded-For itself.
        assert [_wrong_sign_in(port, "127.0.0.3") for _ in range(limit)] == [400] * limit
        assert _wrong_sign_in(port, "127.0.0.3") == 429
        assert _wrong_sign_in(port, "127.0.0.4") == 400
        assert _wrong_sign_in(port, "127.0.0.5", forwarded_for="127.0.0.3") == 400
