"""The log-in limit (issue 5; issue 12, item 2): five failed attempts per username and address in 15
minutes, counted atomically before the password is checked, so simultaneous attempts cannot pass it; the
count is shared by every worker (the database cache, or Redis with REDIS_URL)."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.urls import reverse

from kalooki_tournament import ratelimit

pytestmark = pytest.mark.redis

PASSWORD = "right-horse-battery-9"


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
    if not hasattr(caches[ratelimit.CACHE_ALIAS], "_table"):
        pytest.skip("the log-in counts are in Redis (REDIS_URL), not in a database table")
    table = caches[ratelimit.CACHE_ALIAS]._table
    with connection.schema_editor() as editor:
        editor.execute(f"DROP TABLE {editor.quote_name(table)}")
    monkeypatch.setattr(ratelimit, "_table_ready", False)
    ratelimit.record_failure("director-x", "10.0.0.7")
    assert table in connection.introspection.table_names()


# --- simultaneous attempts --------------------------------------------------------------------------

ATTEMPTS = 20


@pytest.fixture
def counted_password_checks(monkeypatch):
    """Every password check, recorded; each takes 0.3 s, as a real hasher does, so all attempts are in
    flight at once (the test settings' MD5 hasher would otherwise finish before the next one starts)."""
    checked: list[str] = []
    lock = threading.Lock()
    original = AbstractBaseUser.check_password

    def slow_check(self, raw_password):
        with lock:
            checked.append(raw_password)
        time.sleep(0.3)
        return original(self, raw_password)

    monkeypatch.setattr(AbstractBaseUser, "check_password", slow_check)
    return checked


def simultaneously(count: int, attempt) -> list[int]:
    """Run `attempt()` in `count` threads released together; their status codes."""
    barrier = threading.Barrier(count)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def run():
        try:
            barrier.wait(timeout=30)
            statuses.append(attempt())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return statuses


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("url", ["login", "admin:login"])
def test_simultaneous_attempts_check_at_most_five_passwords(account, counted_password_checks, url):
    def wrong():
        return attempt(Client(), "wrong", url=url).status_code

    statuses = simultaneously(ATTEMPTS, wrong)
    assert len(counted_password_checks) == 5
    assert sorted(statuses) == [200] * 5 + [429] * (ATTEMPTS - 5)
    # The right password, afterwards, is refused too, unread.
    client = Client()
    assert attempt(client, PASSWORD, url=url).status_code == 429
    assert len(counted_password_checks) == 5 and not logged_in(client)


@pytest.mark.django_db(transaction=True)
def test_simultaneous_attempts_through_the_backend_are_counted_before_the_check(
    rf, account, counted_password_checks
):
    from django.contrib.auth import authenticate

    def wrong():
        request = rf.post("/api/", REMOTE_ADDR="10.0.0.9")
        return 200 if authenticate(request, username="director-x", password="wrong") is None else 500

    simultaneously(ATTEMPTS, wrong)
    assert len(counted_password_checks) == 5


@pytest.mark.django_db
def test_spellings_of_one_username_share_the_count(client, account):
    for spelling in ("director-x", "DIRECTOR-X", "ｄirector-x", "Director-X", "ＤＩＲＥＣＴＯＲ-Ｘ"):
        assert attempt(client, "wrong", username=spelling).status_code == 200
    assert attempt(client, PASSWORD).status_code == 429
