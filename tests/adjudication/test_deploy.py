"""Production settings pass `check --deploy`, and log-in attempts are rate-limited (issue 5)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.cache import caches
from django.db import connection
from django.urls import reverse

from kalooki_tournament import ratelimit

BASE_DIR = Path(__file__).resolve().parents[2]
PASSWORD = "right-horse-battery-9"


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


# --- log-in rate limit --------------------------------------------------------------------------


@pytest.fixture
def limiter():
    caches[ratelimit.CACHE_ALIAS].clear()
    yield
    caches[ratelimit.CACHE_ALIAS].clear()


@pytest.fixture
def account(django_user_model, limiter):
    return django_user_model.objects.create_user("director-x", password=PASSWORD, is_staff=True)


def attempt(client, password, *, username="director-x", ip="10.0.0.7", url="login"):
    return client.post(reverse(url), {"username": username, "password": password}, REMOTE_ADDR=ip)


def fail(client, times, **kwargs):
    for _ in range(times):
        assert attempt(client, "wrong", **kwargs).status_code == 200


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
def test_five_failures_lock_the_username_at_that_address(client, account):
    fail(client, 5)
    locked = attempt(client, PASSWORD)
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) > 0
    assert b"Too many failed log-in attempts" in locked.content and b"15 minutes" in locked.content
    assert not logged_in(client)


@pytest.mark.django_db
def test_four_failures_still_let_the_right_password_in_and_clear_the_count(client, account):
    fail(client, 4)
    assert attempt(client, PASSWORD).status_code == 302 and logged_in(client)
    client.logout()
    fail(client, 4)
    assert attempt(client, PASSWORD).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("other", "allowed"),
    [
        ({"ip": "10.0.0.8"}, True),
        ({"username": "DIRECTOR-X"}, False),
        ({"url": "admin:login"}, False),
    ],
    ids=["another-address", "same-name-other-case", "the-admin-log-in"],
)
def test_the_lock_is_per_username_and_address_at_every_log_in_page(client, account, other, allowed):
    fail(client, 5)
    response = attempt(client, PASSWORD, **other)
    assert (response.status_code != 429) is allowed


@pytest.mark.django_db
def test_the_lock_lifts_when_the_window_has_passed(client, account, monkeypatch):
    fail(client, 5)
    assert attempt(client, PASSWORD).status_code == 429
    later = ratelimit.time.time() + 15 * 60 + 1
    monkeypatch.setattr(ratelimit.time, "time", lambda: later)
    assert attempt(client, PASSWORD).status_code == 302


@pytest.mark.django_db
def test_the_backend_refuses_a_locked_pair_anywhere(rf, account):
    from django.contrib.auth import authenticate

    request = rf.post("/elsewhere/", REMOTE_ADDR="10.0.0.9")
    for _ in range(5):
        assert authenticate(request, username="director-x", password="wrong") is None
    assert authenticate(request, username="director-x", password=PASSWORD) is None
    assert authenticate(rf.post("/", REMOTE_ADDR="10.0.0.10"), username="director-x", password=PASSWORD)


@pytest.mark.django_db
def test_behind_a_proxy_the_configured_header_names_the_client(rf, settings, limiter):
    settings.LOGIN_CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.4")
    assert ratelimit.client_ip(request) == "198.51.100.4"
    settings.LOGIN_CLIENT_IP_HEADER = ""
    assert ratelimit.client_ip(request) == "127.0.0.1"


@pytest.mark.django_db(transaction=True)
def test_the_count_is_shared_through_the_database_by_every_worker(limiter, monkeypatch):
    """Another thread has its own connection and its own cache object, like another gunicorn worker."""
    for _ in range(5):
        ratelimit.record_failure("director-x", "10.0.0.7")
    seen = []

    def worker():
        try:
            seen.append(ratelimit.seconds_locked("director-x", "10.0.0.7"))
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen and seen[0] > 0


@pytest.mark.django_db(transaction=True)
def test_the_cache_table_is_made_when_missing(limiter, monkeypatch):
    table = caches[ratelimit.CACHE_ALIAS]._table
    with connection.schema_editor() as editor:
        editor.execute(f"DROP TABLE {editor.quote_name(table)}")
    monkeypatch.setattr(ratelimit, "_table_ready", False)
    ratelimit.record_failure("director-x", "10.0.0.7")
    assert table in connection.introspection.table_names()
