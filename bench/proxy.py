"""The project's reverse proxy (``scripts/proxy``: nginx with ``deploy/nginx``'s config, its
cache honouring the pages' ``Cache-Control``) on loopback in front of the benchmark's web
servers: ``bench.peak``'s second pass."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from bench.http import _start, _wait_healthy


def nginx_binary() -> str | None:
    """nginx as ``scripts/proxy`` finds it (on PATH, else /usr/sbin/nginx), or None."""
    found = os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    return found if os.access(found, os.X_OK) else None


def start_proxy(port: int, upstreams: list[int]) -> subprocess.Popen[bytes]:
    """``scripts/proxy PORT UPSTREAM...``, once it answers ``/healthz`` (through to a web
    server); stopped with ``bench.http._stop`` like the servers."""
    log_path = f"{tempfile.mkdtemp(prefix='bench-peak-proxy-')}/proxy.log"
    command = ["scripts/proxy", str(port), *(str(upstream) for upstream in upstreams)]
    proxy = _start(command, dict(os.environ), log_path)
    _wait_healthy(port, proxy, log_path)
    return proxy
