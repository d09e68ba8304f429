"""The deployment files stay valid: docker-compose.yml parses as the Compose spec and
describes the full stack the design card names, with health checks."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"


def compose_command() -> list[str]:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    probe = (
        subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
        if shutil.which("docker")
        else None
    )
    if probe is not None and probe.returncode == 0:
        return ["docker", "compose"]
    pytest.fail(
        "no Compose client: install one (apt-get install docker-compose) to check "
        "docker-compose.yml"
    )


def test_compose_file_is_valid() -> None:
    result = subprocess.run(
        [*compose_command(), "-f", str(COMPOSE), "config", "-q"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_compose_runs_the_full_stack_with_health_checks() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert {"postgres", "redis", "web", "worker", "beat", "migrate"} <= set(services)
    for name in ("postgres", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert "daphne" in services["web"]["command"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert services["web"]["environment"]["DATABASE_URL"].startswith("postgres://")
    assert services["web"]["environment"]["REDIS_URL"].startswith("redis://")
    assert (ROOT / "Dockerfile").is_file()
