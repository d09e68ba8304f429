"""``make demo``'s environment (issue 22, defect 14): links in the demo's e-mails and
webhooks name the port it serves on, and its e-mails go to files, not between the logins."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_demo_links_name_its_port_and_writes_mail_to_files() -> None:
    # -n: print the commands without running them; -o: take the venv as built.
    out = subprocess.run(
        ["make", "-n", "-o", ".venv/bin/python", "demo", "PORT=9123"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin"},
    ).stdout
    seed = next(line for line in out.splitlines() if "seed_demo" in line)
    serve = next(line for line in out.splitlines() if "runserver" in line)
    for line in (seed, serve):
        assert "SITE_URL=${SITE_URL:-http://localhost:9123}" in line
        assert "filebased.EmailBackend" in line and "demo-mail" in line
    assert serve.rstrip().endswith("0.0.0.0:9123")
