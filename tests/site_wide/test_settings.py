"""Settings come from the environment and fail loudly on nonsense."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from zongheng.env import env_bool, env_float, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("true", True), ("ON", True), ("0", False), ("no", False)])
def test_env_bool_reads_the_usual_spellings(monkeypatch: pytest.MonkeyPatch, raw: str, value: bool) -> None:
    monkeypatch.setenv("X_FLAG", raw)
    assert env_bool("X_FLAG", not value) is value


def test_env_bool_refuses_a_typo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_FLAG", "ture")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG='ture' is not a boolean"):
        env_bool("X_FLAG", False)


def test_env_int_and_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_INT", "12")
    monkeypatch.setenv("X_LIST", "a.example, b.example ,")
    assert env_int("X_INT", 0) == 12
    assert env_list("X_LIST", []) == ["a.example", "b.example"]
    monkeypatch.setenv("X_INT", "twelve")
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        env_int("X_INT", 0)


@pytest.mark.parametrize("raw", ["soon", "0", "-1", "inf", "nan"])
def test_env_float_wants_a_positive_number_of_seconds(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("X_SECONDS", "0.25")
    assert env_float("X_SECONDS", 1.0) == 0.25
    monkeypatch.setenv("X_SECONDS", raw)
    with pytest.raises(ImproperlyConfigured, match="X_SECONDS="):
        env_float("X_SECONDS", 1.0)


def _check(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = _check({"DEBUG": "0"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_production_settings_pass_the_deploy_checks() -> None:
    result = _check(
        {
            "DEBUG": "0",
            "SECRET_KEY": "x" * 60 + "-a-long-and-random-enough-production-key",
            "ALLOWED_HOSTS": "deck.example",
        },
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_bad_debug_value_stops_start_up() -> None:
    result = _check({"DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr
