"""Venue mode is production (issue 12, item 4): `make run HOST=<anything but loopback>` serves with DEBUG
off, gunicorn workers, whitenoise, a generated secret key kept outside the repository, and cookies that
plain-HTTP Wi-Fi can carry; `check --deploy` then names only what plain HTTP requires (README)."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
# What plain-HTTP Wi-Fi requires, and nothing else: no HSTS (W004), no HTTPS redirect (W008), session
# and CSRF cookies not secure-only (W012, W016).
PLAIN_HTTP_WARNINGS = {"security.W004", "security.W008", "security.W012", "security.W016"}

SHOW_SETTINGS = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "debug": s.DEBUG, "secret": s.SECRET_KEY, "hosts": s.ALLOWED_HOSTS,
    "session_secure": s.SESSION_COOKIE_SECURE, "csrf_secure": s.CSRF_COOKIE_SECURE,
    "session_httponly": s.SESSION_COOKIE_HTTPONLY, "ssl_redirect": s.SECURE_SSL_REDIRECT,
    "hsts": s.SECURE_HSTS_SECONDS, "proxy_ssl_header": s.SECURE_PROXY_SSL_HEADER,
    "static": s.STORAGES["staticfiles"]["BACKEND"], "finders": s.WHITENOISE_USE_FINDERS,
    "whitenoise": "whitenoise.middleware.WhiteNoiseMiddleware" in s.MIDDLEWARE,
}))
"""


def venue_env(tmp_path: Path, **changes: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "KALOOKI_"))}
    env.update(
        DJANGO_VENUE="1",
        DJANGO_SETTINGS_MODULE="kalooki_tournament.settings",
        KALOOKI_SECRET_KEY_FILE=str(tmp_path / "config" / "kalooki" / "secret_key"),
        REDIS_URL="",
    )
    env.update(changes)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120
    )


def venue_settings(env: dict[str, str]) -> dict:
    shown = run(["-c", SHOW_SETTINGS], env)
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def test_venue_mode_is_production_on_plain_http(tmp_path):
    env = venue_env(tmp_path)
    seen = venue_settings(env)
    assert seen["debug"] is False
    assert seen["session_secure"] is False and seen["csrf_secure"] is False and seen["session_httponly"]
    assert seen["ssl_redirect"] is False and seen["hsts"] == 0
    # No proxy in front: no client may claim the request came over HTTPS.
    assert seen["proxy_ssl_header"] is None
    assert seen["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert seen["whitenoise"] and seen["finders"] is False
    # Phones reach the laptop by whatever address the venue's network gave it.
    assert seen["hosts"] == ["*"]


def test_the_venue_key_is_generated_once_outside_the_repository(tmp_path):
    env = venue_env(tmp_path)
    key_file = Path(env["KALOOKI_SECRET_KEY_FILE"])
    first = venue_settings(env)["secret"]
    assert key_file.read_text().strip() == first and len(first) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(key_file.parent.stat().st_mode) == 0o700
    assert venue_settings(env)["secret"] == first
    assert BASE_DIR not in key_file.parents


def test_the_default_key_file_is_in_the_users_configuration_folder(tmp_path):
    env = venue_env(tmp_path, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    del env["KALOOKI_SECRET_KEY_FILE"]
    secret = venue_settings(env)["secret"]
    assert (tmp_path / "xdg" / "kalooki" / "secret_key").read_text().strip() == secret


def test_venue_mode_refuses_debug(tmp_path):
    refused = run(["-c", SHOW_SETTINGS], venue_env(tmp_path, DJANGO_DEBUG="1"))
    assert refused.returncode != 0 and "DJANGO_DEBUG must stay off" in refused.stderr


def test_check_deploy_in_venue_mode_names_only_what_plain_http_requires(tmp_path):
    checked = run(["manage.py", "check", "--deploy"], venue_env(tmp_path))
    assert checked.returncode == 0, checked.stderr
    found = set(re.findall(r"\((security\.\w+|\w+\.[EW]\d+)\)", checked.stdout + checked.stderr))
    assert found == PLAIN_HTTP_WARNINGS


def dry_run(*args: str) -> str:
    done = subprocess.run(
        ["make", "-n", "run", *args], cwd=BASE_DIR, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::"])
def test_make_run_beyond_loopback_serves_with_gunicorn_in_venue_mode(host):
    commands = dry_run(f"HOST={host}", "PORT=8123")
    assert "runserver" not in commands
    assert re.search(r"DJANGO_VENUE=1 \S*gunicorn kalooki_tournament\.wsgi --workers \d+", commands)
    assert "DJANGO_VENUE=1 .venv/bin/python manage.py collectstatic" in commands
    assert "load_demo --lock" in commands
    bind = f"[{host}]:8123" if ":" in host else f"{host}:8123"
    assert f"--bind {bind}" in commands
    # The worker for background jobs runs beside gunicorn, in venue mode too, started again if it stops.
    assert "DJANGO_VENUE=1 .venv/bin/python manage.py jobs_worker" in commands
    assert "The worker stopped; starting it again." in commands


@pytest.mark.parametrize("host", ["", "127.0.0.1", "localhost"])
def test_make_run_on_loopback_stays_the_developers_server(host):
    commands = dry_run(*([f"HOST={host}"] if host else []))
    assert "gunicorn" not in commands and "DJANGO_VENUE" not in commands
    assert f"manage.py runserver {host or '127.0.0.1'}:8000" in commands
    assert re.search(r"manage\.py load_demo$", commands, flags=re.M)
    assert "manage.py jobs_worker" in commands
