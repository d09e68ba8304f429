"""``make test`` on a fresh machine: it stops at once, naming what to install, when a
service or Chromium is missing (``scripts/test-prereqs``), instead of failing late."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "test-prereqs"


def _fake_bin(tmp_path: Path, programs: dict[str, str | None]) -> str:
    """A PATH holding only these small programs (no chromium anywhere on it)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    # GNU gettext is there unless a test says otherwise (None: left out).
    programs = {"xgettext": "exit 0", **programs}
    for name, body in programs.items():
        if body is None:
            continue
        path = folder / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(folder)


def _run(path: str, pytest_args: str = "", database_url: str | None = None, **extra: str):
    db = settings.DATABASES["default"]
    url = database_url or f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {"PATH": path, "HOME": os.environ.get("HOME", "/tmp"), **extra}
    started = time.monotonic()
    done = subprocess.run(
        ["/bin/bash", str(SCRIPT), sys.executable, url, settings.REDIS_URL, pytest_args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done, time.monotonic() - started


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_without_chromium_and_no_way_to_install_it_stops_at_once_with_the_command(tmp_path):
    path = _fake_bin(
        tmp_path,
        {
            "id": "echo 1000",
            "sudo": "exit 1",
            "apt-get": "exit 99",
            "docker-compose": "exit 0",
            "nginx": "exit 0",
        },
    )
    done, seconds = _run(path)
    assert done.returncode == 2
    assert "missing: chromium (chromium: the browser tests" in done.stderr
    assert "Install them: sudo apt-get install -y --no-install-recommends chromium " in done.stderr
    assert '-m "not e2e"' in done.stderr
    assert seconds < 10


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_without_chromium_or_compose_as_root_it_installs_them_through_apt(tmp_path):
    log = tmp_path / "apt.log"
    path = _fake_bin(
        tmp_path, {"id": "echo 0", "apt-get": f'echo "$@" >> {log}', "nginx": "exit 0"}
    )
    done, _ = _run(path)
    # The fake apt "installs" nothing, so the script says so, after trying the right thing.
    assert "install -y --no-install-recommends chromium docker-compose" in log.read_text()
    assert done.returncode == 2
    assert "installing them failed" in done.stderr


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_without_gettext_it_names_it_for_the_catalogues_check(tmp_path):
    path = _fake_bin(
        tmp_path,
        {
            "id": "echo 1000",
            "sudo": "exit 1",
            "apt-get": "exit 99",
            "docker-compose": "exit 0",
            "nginx": "exit 0",
            "chromium": "exit 0",
            "xgettext": None,
        },
    )
    done, _ = _run(path, CHROMIUM_PATH=str(tmp_path / "bin" / "chromium"))
    assert done.returncode == 2
    assert "missing: gettext (" in done.stderr and "gettext: the catalogues' check" in done.stderr
    assert "apt-get install -y --no-install-recommends gettext" in done.stderr


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_deselecting_the_browser_tests_needs_no_chromium(tmp_path):
    path = _fake_bin(tmp_path, {"id": "echo 1000", "docker-compose": "exit 0", "nginx": "exit 0"})
    done, _ = _run(path, pytest_args='-m "not e2e" -x')
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_without_nginx_it_stops_naming_the_command_unless_the_proxy_tests_are_left_out(
    tmp_path,
):
    """nginx for tests/tooling/test_proxy.py (NGINX names the binary; here one that is not
    there, since this machine may have /usr/sbin/nginx)."""
    path = _fake_bin(tmp_path, {"id": "echo 1000", "sudo": "exit 1", "docker-compose": "exit 0"})
    nowhere = str(tmp_path / "no-nginx")
    done, seconds = _run(path, pytest_args='-m "not e2e"', NGINX=nowhere)
    assert done.returncode == 2
    assert "missing: nginx (" in done.stderr and "nginx: the proxy's tests" in done.stderr
    assert "sudo apt-get install -y --no-install-recommends nginx " in done.stderr
    assert '-m "not proxy"' in done.stderr
    assert seconds < 10
    done, _ = _run(path, pytest_args='-m "not e2e and not proxy"', NGINX=nowhere)
    assert done.returncode == 0, done.stderr


def test_a_database_that_does_not_answer_stops_at_once(tmp_path):
    path = _fake_bin(tmp_path, {})
    done, seconds = _run(path, database_url="postgres://postgres@127.0.0.1:1/nothing")
    assert done.returncode == 2
    assert "PostgreSQL does not answer" in done.stderr
    assert "pg_ctlcluster" in done.stderr
    assert seconds < 10
