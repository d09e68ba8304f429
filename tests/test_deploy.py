"""The deployment files stay valid: docker-compose.yml parses as the Compose spec and
describes the full stack the design card names, with health checks."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
import sys
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


KEY = "Zq4r8Tn1Vb6Xk3Wm9Pj2Hd7Lc5Fs0Gy8Ua1Ie4Ro6Qw3Et9Yz2Mx7Nv5Bk0Jh"


def _compose_config(**environment: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECRET_KEY", "SECURE_"))}
    env.update(environment)
    return subprocess.run(
        [*compose_command(), "-f", str(COMPOSE), "config"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def test_compose_file_is_valid() -> None:
    result = _compose_config(SECRET_KEY=KEY)
    assert result.returncode == 0, result.stderr


def test_compose_refuses_to_start_without_a_secret_key() -> None:
    result = _compose_config()
    assert result.returncode != 0
    assert "set SECRET_KEY to a long random value" in result.stderr


def test_check_deploy_is_clean_under_the_compose_production_settings() -> None:
    """The web service's environment exactly as compose resolves it (only a key given),
    hosts left as they are: ``check --deploy`` reads settings and connects to nothing."""
    resolved = yaml.safe_load(_compose_config(SECRET_KEY=KEY).stdout)
    environment = {k: str(v) for k, v in resolved["services"]["web"]["environment"].items()}
    keep = {"PATH", "HOME", "LANG", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k in keep} | environment
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_compose_runs_the_full_stack_with_health_checks() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert {"postgres", "redis", "web", "worker", "beat", "migrate"} <= set(services)
    for name in ("postgres", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    # The production server (several processes), the same command as `make web`.
    assert services["web"]["command"][0] == "scripts/web"
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert services["web"]["environment"]["DATABASE_URL"].startswith("postgres://")
    assert services["web"]["environment"]["REDIS_URL"].startswith("redis://")
    assert (ROOT / "Dockerfile").is_file()


def test_compose_delivers_notifications_on_a_queue_and_worker_of_their_own() -> None:
    """Issue 21: the worker that keeps deadlines, pairing and pick timers never runs a
    delivery (a receiver that drips its answer held it for minutes); ``notify`` does."""
    from django.conf import settings

    services = yaml.safe_load(COMPOSE.read_text())["services"]

    def queues(name: str) -> list[str]:
        command = services[name]["command"]
        return str(command[command.index("-Q") + 1]).split(",")

    assert queues("worker") == ["cardclub"]
    assert queues("notify") == ["cardclub-notify"]
    assert "healthcheck" in services["notify"]
    routes = settings.CELERY_TASK_ROUTES
    assert routes["notifications.tasks.deliver_due"]["queue"] == settings.NOTIFY_QUEUE
    assert f"{settings.CELERY_TASK_DEFAULT_QUEUE}-notify" == settings.NOTIFY_QUEUE


def test_compose_trusts_the_proxy_on_its_own_network_for_client_addresses() -> None:
    """Behind the proxy every client would count as the proxy for the sign-in throttle
    (per client address) unless the web server trusts the proxy's X-Forwarded-For:
    compose sets the trusted addresses to its own fixed network, and both can be set."""
    resolved = yaml.safe_load(_compose_config(SECRET_KEY=KEY).stdout)
    trusted = resolved["services"]["web"]["environment"]["FORWARDED_ALLOW_IPS"]
    subnet = resolved["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert trusted == subnet == "172.30.72.0/24"
    assert ipaddress.ip_network(trusted).is_private

    resolved = yaml.safe_load(
        _compose_config(
            SECRET_KEY=KEY, FORWARDED_ALLOW_IPS="10.0.0.5", COMPOSE_SUBNET="10.9.0.0/24"
        ).stdout
    )
    assert resolved["services"]["web"]["environment"]["FORWARDED_ALLOW_IPS"] == "10.0.0.5"
    assert resolved["networks"]["default"]["ipam"]["config"][0]["subnet"] == "10.9.0.0/24"
    # scripts/web hands the setting to uvicorn.
    assert '--forwarded-allow-ips "${FORWARDED_ALLOW_IPS' in (ROOT / "scripts" / "web").read_text()


def _mounts(service: dict) -> dict[str, str]:
    """A service's volumes, target -> source (Compose v1 writes "source:target:mode")."""
    mounts = {}
    for volume in service["volumes"]:
        if isinstance(volume, str):
            source, target, *_ = volume.split(":")
            mounts[target] = source
        else:
            mounts[volume["target"]] = volume["source"]
    return mounts


def test_compose_puts_the_proxy_in_front_of_two_web_servers() -> None:
    """Issue 24: nginx (deploy/nginx) in front of two web servers: it publishes the site's
    port, they publish none (every client comes through it, so its X-Forwarded-For is the
    one the web servers trust); static files from a volume the image's collectstatic
    output is copied into; every placeholder of the config's template given."""
    resolved = yaml.safe_load(_compose_config(SECRET_KEY=KEY).stdout)
    services = resolved["services"]
    webs = [name for name in ("web", "web2") if name in services]
    assert webs == ["web", "web2"]
    for name in webs:
        web = services[name]
        assert web["command"] == ["scripts/web", "8000"]
        assert "healthcheck" in web and not web.get("ports"), name
        assert web["environment"] == services["web"]["environment"]

    proxy = services["proxy"]
    assert str(proxy["image"]).startswith("nginx:")
    assert "healthcheck" in proxy
    assert {name: dependency["condition"] for name, dependency in proxy["depends_on"].items()} == {
        "static": "service_completed_successfully",
        "web": "service_healthy",
        "web2": "service_healthy",
    }
    environment = proxy["environment"]
    template = (ROOT / "deploy" / "nginx" / "templates" / "cardclub.conf.template").read_text()
    placeholders = set(re.findall(r"\$\{(CARDCLUB_[A-Z_]+)\}", template))
    assert placeholders == {k for k in environment if k.startswith("CARDCLUB_")}
    upstreams = re.findall(r"server (\S+?):8000", environment["CARDCLUB_UPSTREAMS"])
    assert upstreams == webs
    (published,) = proxy["ports"]
    assert int(published["target"]) == int(environment["CARDCLUB_LISTEN"])
    assert int(published["published"]) == 8000

    mounts = _mounts(proxy)
    assert Path(mounts["/etc/nginx/nginx.conf"]) == ROOT / "deploy" / "nginx" / "nginx.conf"
    assert Path(mounts["/etc/nginx/templates"]) == ROOT / "deploy" / "nginx" / "templates"
    # The image writes templates/cardclub.conf.template to conf.d/cardclub.conf.
    assert (
        "include /etc/nginx/conf.d/cardclub.conf;"
        in Path(mounts["/etc/nginx/nginx.conf"]).read_text()
    )
    static = _mounts(services["static"])
    assert mounts[environment["CARDCLUB_STATIC_ROOT"]] == static["/srv/static"] == "static"
    assert "/app/staticfiles/." in " ".join(services["static"]["command"])
    assert "collectstatic" in (ROOT / "Dockerfile").read_text()
