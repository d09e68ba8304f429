"""The settings' environment helpers are strict (as healthchecks' are): a typo in a variable
stops the start-up with ``ImproperlyConfigured`` naming the variable, instead of quietly
meaning "off" or crashing with a bare ``ValueError``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import env_bool, env_float, env_int

ROOT = Path(__file__).resolve().parent.parent
NAME = "CARDCLUB_TEST_SETTING"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("True", True),
        ("YES", True),
        ("on", True),
        (" On ", True),
        ("0", False),
        ("false", False),
        ("FALSE", False),
        ("no", False),
        ("Off", False),
    ],
)
def test_env_bool_reads_the_accepted_words_in_any_case(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool
) -> None:
    monkeypatch.setenv(NAME, raw)
    assert env_bool(NAME, default=not expected) is expected


@pytest.mark.parametrize("default", [True, False])
def test_env_bool_unset_or_empty_is_the_default(
    monkeypatch: pytest.MonkeyPatch, default: bool
) -> None:
    monkeypatch.delenv(NAME, raising=False)
    assert env_bool(NAME, default=default) is default
    monkeypatch.setenv(NAME, "")
    assert env_bool(NAME, default=default) is default


@pytest.mark.parametrize("raw", ["ture", "2", "y", "enabled", "-1", "truee"])
def test_env_bool_refuses_anything_else_naming_the_variable_and_the_words(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("DEBUG", raw)
    with pytest.raises(ImproperlyConfigured) as error:
        env_bool("DEBUG")
    message = str(error.value)
    assert "DEBUG" in message and repr(raw) in message
    for word in ("1", "0", "true", "false", "yes", "no", "on", "off"):
        assert word in message


def test_env_int_reads_a_whole_number_and_defaults_when_unset_or_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(NAME, raising=False)
    assert env_int(NAME, 25) == 25
    monkeypatch.setenv(NAME, "")
    assert env_int(NAME, 25) == 25
    monkeypatch.setenv(NAME, " 587 ")
    assert env_int(NAME, 25) == 587


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("EMAIL_PORT", "twenty-five"),
        ("EMAIL_PORT", "25.5"),
        ("DB_CONN_MAX_AGE", "60s"),
        ("CHANNELS_CAPACITY", "5e3"),
    ],
)
def test_env_int_refuses_garbage_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, raw: str
) -> None:
    monkeypatch.setenv(name, raw)
    with pytest.raises(ImproperlyConfigured, match=name):
        env_int(name, 1)


def test_env_int_refuses_a_number_below_its_minimum(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANNELS_CAPACITY", "0")
    with pytest.raises(ImproperlyConfigured, match=r"CHANNELS_CAPACITY.*at least 1"):
        env_int("CHANNELS_CAPACITY", 5000, minimum=1)
    monkeypatch.setenv("CHANNELS_CAPACITY", "1")
    assert env_int("CHANNELS_CAPACITY", 5000, minimum=1) == 1


def test_env_float_reads_numbers_and_defaults_when_unset_or_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(NAME, raising=False)
    assert env_float(NAME, 5) == 5
    monkeypatch.setenv(NAME, "")
    assert env_float(NAME, 5) == 5
    monkeypatch.setenv(NAME, "0.5")
    assert env_float(NAME, 5) == 0.5
    monkeypatch.setenv(NAME, "2")
    assert env_float(NAME, 5) == 2.0


@pytest.mark.parametrize("raw", ["fast", "2s", "nan", "inf", "1,5"])
def test_env_float_refuses_garbage_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("CLOCK_SWEEP_SECONDS", raw)
    with pytest.raises(ImproperlyConfigured, match="CLOCK_SWEEP_SECONDS"):
        env_float("CLOCK_SWEEP_SECONDS", 5)


def test_env_float_refuses_a_number_below_its_minimum(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAFT_SWEEP_SECONDS", "0")
    with pytest.raises(ImproperlyConfigured, match=r"DRAFT_SWEEP_SECONDS.*at least 0\.1"):
        env_float("DRAFT_SWEEP_SECONDS", 2, minimum=0.1)


def _load_settings(**overrides: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh process with ``overrides`` in its environment (the
    module reads the environment once, at import)."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL")
    }
    environ.update(overrides)
    return subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_typo_in_debug_stops_the_start_up() -> None:
    result = _load_settings(DEBUG="ture", SECRET_KEY=REAL_KEY)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "DEBUG='ture'" in result.stderr


def test_garbage_in_a_number_setting_stops_the_start_up() -> None:
    result = _load_settings(EMAIL_PORT="smtp")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "EMAIL_PORT" in result.stderr


def test_no_secret_key_with_debug_off_stops_the_start_up() -> None:
    result = _load_settings(DEBUG="0")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY" in result.stderr
    assert _load_settings(DEBUG="off", SECRET_KEY=REAL_KEY).returncode == 0


REAL_KEY = "q7Vd0-kJ3pXw9LmZ2rT8yB4nC6hF1sG5aE0uI7oP3vK9xN2bM8cQ4tR6wY1zD5jH"


@pytest.mark.parametrize(
    "key",
    [
        "set",
        "change-me-in-production",
        "x" * 60,
        "change-me-in-production-please-use-a-long-random-string-here",
        "django-insecure-" + REAL_KEY,
    ],
)
def test_a_weak_or_placeholder_secret_key_with_debug_off_stops_the_start_up(key: str) -> None:
    result = _load_settings(DEBUG="off", SECRET_KEY=key)
    assert result.returncode != 0
    assert "SECRET_KEY must be a real key" in result.stderr
    assert "secrets.token_urlsafe" in result.stderr
