"""nginx on loopback in front of the benchmark's web servers (``bench.peak``'s second pass),
until the project's own proxy configuration lands: then ``start_proxy`` should run that."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.http import _start


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def proxy_config(directory: str, port: int, upstreams: list[int]) -> str:
    """A minimal nginx in front of the web servers: kept-alive upstream connections,
    websockets passed through, client addresses forwarded, and a cache that keeps exactly
    what the server's ``Cache-Control`` allows (no ``proxy_cache_valid``: nothing without
    it; nginx stores nothing private, no-store, no-cache or with a Set-Cookie)."""
    servers = "".join(f"    server 127.0.0.1:{upstream};\n" for upstream in upstreams)
    # Root's workers would run as nobody, who cannot write the cache in a private temp dir.
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "".join(
        f"  {kind}_temp_path {directory}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{user}daemon off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
{temp}  proxy_cache_path {directory}/cache levels=1:2 keys_zone=pages:16m max_size=1g
                   inactive=10m use_temp_path=off;
  upstream web {{
{servers}    keepalive 64;
  }}
  map $http_upgrade $connection_upgrade {{ default upgrade; '' ''; }}
  server {{
    listen 127.0.0.1:{port};
    keepalive_requests 100000;
    location / {{
      proxy_pass http://web;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout 1h;
      proxy_buffers 64 16k;
      proxy_cache pages;
      # No proxy_cache_lock: nginx would hold every request for a page it may not keep
      # (private, /healthz) behind the one before it, up to 5 s, since it cannot know.
      proxy_cache_revalidate on;
      proxy_cache_use_stale updating;
      add_header X-Cache $upstream_cache_status always;
    }}
  }}
}}
"""


def start_proxy(port: int, upstreams: list[int]) -> subprocess.Popen[bytes]:
    """nginx on loopback ``port`` in front of ``upstreams`` (until the committed config
    lands: then this should run that one)."""
    binary = nginx_binary()
    if binary is None:
        sys.exit("--proxy on: nginx is not installed")
    directory = tempfile.mkdtemp(prefix="bench-peak-nginx-")
    Path(f"{directory}/nginx.conf").write_text(proxy_config(directory, port, upstreams))
    proxy = _start(
        [binary, "-p", directory, "-c", f"{directory}/nginx.conf"], {}, f"{directory}/out"
    )
    for _ in range(100):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return proxy
        if proxy.poll() is not None:
            break
        time.sleep(0.1)
    sys.exit(f"nginx did not start:\n{Path(f'{directory}/error.log').read_text()[-3000:]}")
