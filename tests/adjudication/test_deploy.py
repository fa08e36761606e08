"""Production settings pass `check --deploy` and carry the security headers (issue 5); the log-in limit
is tested in tests/site/test_login_limit.py."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]


def production_env(**changes) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="kalooki.example.org",
        DJANGO_SETTINGS_MODULE="kalooki_tournament.settings",
    )
    env.update(changes)
    return {key: value for key, value in env.items() if value is not None}


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120
    )


def test_production_settings_pass_check_deploy():
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("secret", "message"),
    [
        (None, "Set DJANGO_SECRET_KEY when DEBUG is off"),
        ("dev-only-insecure-secret-key-change-me-in-production-0123456789", "published development key"),
    ],
    ids=["missing", "the-development-key"],
)
def test_production_refuses_to_start_without_a_real_secret(secret, message):
    result = run(["manage.py", "check", "--deploy"], production_env(DJANGO_SECRET_KEY=secret))
    assert result.returncode != 0 and message in result.stderr


def test_a_plain_http_venue_network_can_turn_secure_cookies_off_and_is_warned():
    env = production_env(DJANGO_SECURE_SSL_REDIRECT="0", DJANGO_SECURE_COOKIES="0", DJANGO_HSTS_SECONDS="0")
    script = "import django; django.setup(); from django.conf import settings as s; "
    script += "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    assert run(["-c", script], env).stdout.split() == ["False", "False", "False"]
    warned = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert warned.returncode != 0 and "security.W012" in warned.stderr + warned.stdout


PAGE_HEADERS = """
import django
django.setup()
from django.test import Client
# A page that needs neither the database nor collected static files: the headers are on every answer.
response = Client().get("/no-such-page/", secure=True, HTTP_HOST="kalooki.example.org")
print(response.status_code)
for name in ("Strict-Transport-Security", "Content-Security-Policy", "X-Content-Type-Options",
             "X-Frame-Options", "Referrer-Policy"):
    print(name, "=", response.headers.get(name, ""))
plain = Client().get("/no-such-page/", HTTP_HOST="kalooki.example.org")
print("plain", "=", plain.status_code, plain.headers.get("Location", ""))
"""


def test_production_pages_carry_the_security_headers():
    result = run(["-c", PAGE_HEADERS], production_env())
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(" = ", 1) for line in result.stdout.splitlines()[1:])
    assert result.stdout.splitlines()[0] == "404"
    assert "max-age=31536000" in lines["Strict-Transport-Security"]
    assert "script-src 'self'" in lines["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in lines["Content-Security-Policy"]
    assert lines["X-Content-Type-Options"] == "nosniff"
    assert lines["X-Frame-Options"] == "DENY"
    # Plain HTTP is sent to HTTPS.
    assert lines["plain"] == "301 https://kalooki.example.org/no-such-page/"
