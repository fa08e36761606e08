"""The phones' limits mean what they say (issue 22, item 4): five wrong tokens or codes a minute from one
address, counted together and atomically whatever the parallelism (on the database cache and on Redis),
in a window that slides across the minute's boundary; a lock-out never blocks a genuine token; a cache
that fails never makes a phone's request a server error; and an idempotency key sent again with other
values is refused (409) with a message, changing nothing."""

from __future__ import annotations

import secrets
import threading
import time

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.urls import reverse
from self_entry_support import (
    deal_one_form,
    fresh_limits,  # noqa: F401 (autouse: no wrong tries left over)
    phone_url,
    table_token,
    turn_on,
)

from adjudication.models import AuditEntry
from kalooki_tournament import shared_cache
from scoring import page_cache
from scoring import self_entry_codes as codes
from scoring.models import SelfEntryDeal
from scoring.selectors.self_entry import key_for_token
from scoring.web.phone import limit
from scoring.web.phone import views as phone_views

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
PARALLEL = 20


@pytest.fixture
def table(game_set, event, director):
    turn_on(event, director)
    return game_set


def wrong_token() -> str:
    """A token of the right shape that opens nothing."""
    return codes.new_selector() + secrets.token_urlsafe(codes.SECRET_BYTES)[: codes.TOKEN_LENGTH - 8]


def wrong_code(client: Client, event, **extra):
    url = reverse("scoring:self_entry_short")
    return client.post(url, {"event": event.slug, "table": 1, "code": "AAAA2222"}, **extra)


@pytest.fixture
def counted_lookups(monkeypatch):
    """Every token looked up, and each slow (0.2 s), so simultaneous tries are all in flight at once;
    the limit's reads are slow too, so every try reads the count before any claims."""
    looked_up: list[str] = []
    lock = threading.Lock()

    def slow_lookup(token):
        with lock:
            looked_up.append(token)
        time.sleep(0.2)
        return key_for_token(token)

    monkeypatch.setattr(phone_views, "key_for_token", slow_lookup)
    real_cache = limit.limit_cache

    class SlowReads:
        def __init__(self, cache):
            self.cache = cache

        def get_many(self, keys):
            found = self.cache.get_many(keys)
            time.sleep(0.2)
            return found

        def __getattr__(self, name):
            return getattr(self.cache, name)

    monkeypatch.setattr(limit, "limit_cache", lambda: SlowReads(real_cache()))
    return looked_up


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


def twenty_wrong_tokens_at_once(looked_up: list[str]) -> None:
    statuses = simultaneously(PARALLEL, lambda: Client().get(phone_url(wrong_token())).status_code)
    assert sorted(statuses) == [404] * 5 + [429] * (PARALLEL - 5)
    assert len(looked_up) <= 5


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_wrong_tokens_are_five_tries_on_the_database_cache(table, settings, counted_lookups):
    settings.CACHES = {**settings.CACHES, "ratelimit": shared_cache.database_limit_cache()}
    caches["ratelimit"].clear()
    twenty_wrong_tokens_at_once(counted_lookups)
    # The address is locked out for wrong codes too: one count for both.
    assert wrong_code(Client(), table.table.round.event).status_code == 429


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_wrong_tokens_are_five_tries_on_redis(table, counted_lookups):
    if not django_settings.REDIS_URL:
        pytest.skip("needs Redis: run with REDIS_URL=redis://127.0.0.1:6379/N (a database of its own)")
    assert isinstance(caches["ratelimit"], shared_cache.FallbackCache)
    caches["ratelimit"].clear()
    twenty_wrong_tokens_at_once(counted_lookups)
    # Counted in Redis, which answered throughout.
    assert caches["ratelimit-redis"].health().up


@pytest.fixture
def clock(monkeypatch):
    """A clock the test moves: it starts 57 s into a minute."""
    now = [(int(time.time()) // 60 + 1) * 60 + 57.0]
    monkeypatch.setattr(limit, "clock", lambda: now[0])
    return now


def test_wrong_codes_across_a_minute_boundary_are_still_five_a_minute(client, table, clock):
    event = table.table.round.event
    for _ in range(5):
        assert wrong_code(client, event).status_code == 400
        clock[0] += 0.5
    # Across the boundary: the last minute's tries still count.
    clock[0] += 2
    locked = wrong_code(client, event)
    assert locked.status_code == 429
    # The first try is 60 s old 55.5 s from here.
    assert 50 <= int(locked["Retry-After"]) <= 56
    clock[0] += 50
    assert wrong_code(client, event).status_code == 429
    # A minute after the first try (and before the second's minute is up), one more.
    clock[0] += 5.6
    assert wrong_code(client, event).status_code == 400
    assert wrong_code(client, event).status_code == 429


def test_a_genuine_token_opens_its_page_while_the_address_is_locked_out(client, table):
    event = table.table.round.event
    token = table_token(table)
    for _ in range(3):
        assert wrong_code(client, event).status_code == 400
    for _ in range(2):
        assert client.get(phone_url(wrong_token())).status_code == 404
    # Five wrong tries, codes and tokens together: the next wrong one waits.
    assert client.get(phone_url(wrong_token())).status_code == 429
    assert wrong_code(client, event).status_code == 429
    page = client.get(phone_url(token))
    assert page.status_code == 200 and "data-self-entry-form" in page.content.decode()
    # The table's phone goes on entering deals.
    sent = client.post(phone_url(token, "self_entry_enter"), deal_one_form(table), **JSON)
    assert sent.status_code == 200 and sent.json()["ok"]
    assert client.get(phone_url(token)).status_code == 200
    # Its wrong tries are still refused.
    assert client.get(phone_url(wrong_token())).status_code == 429


@pytest.fixture
def failing_cache(monkeypatch):
    class Down:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise shared_cache.CacheUnavailable("connection refused")

            return fail

    monkeypatch.setattr(limit, "limit_cache", Down)


def test_a_limit_cache_that_fails_never_makes_a_phone_request_a_server_error(client, table, failing_cache):
    event = table.table.round.event
    token = table_token(table)
    assert client.get(phone_url(token)).status_code == 200
    assert client.get(phone_url(wrong_token())).status_code == 404
    assert wrong_code(client, event).status_code == 400
    code = codes.short_code_for(key_for_token(token).selector)
    right = client.post(reverse("scoring:self_entry_short"), {"event": event.slug, "table": 1, "code": code})
    assert right.status_code == 302


def test_with_redis_at_a_closed_port_the_limit_still_counts_in_the_database(client, table, settings):
    settings.CACHES = shared_cache.shared_caches("redis://127.0.0.1:1/0")
    shared_cache.reset_health()
    caches["ratelimit"].clear()
    try:
        token = table_token(table)
        for _ in range(5):
            assert client.get(phone_url(wrong_token())).status_code == 404
        assert client.get(phone_url(wrong_token())).status_code == 429
        assert wrong_code(client, table.table.round.event).status_code == 429
        assert client.get(phone_url(token)).status_code == 200
    finally:
        caches["ratelimit"].clear()
        page_cache.forget_owed_moves()
        shared_cache.reset_health()


# --- an idempotency key sent again ------------------------------------------------------------------


def test_a_key_sent_again_with_other_values_is_refused_and_changes_nothing(client, table):
    token = table_token(table)
    client.get(phone_url(token))
    first = client.post(phone_url(token, "self_entry_enter"), deal_one_form(table, key="k-1"), **JSON)
    assert first.status_code == 200 and first.json()["ok"]
    entry = SelfEntryDeal.objects.get()
    before = (entry.data, entry.version, entry.status, AuditEntry.objects.count())
    other = deal_one_form(table, key="k-1", **{"p4-penalty": 67})
    again = client.post(phone_url(token, "self_entry_enter"), other, **JSON)
    assert again.status_code == 409
    answer = again.json()
    assert not answer["ok"] and answer["kept"] is True
    assert "already sent" in answer["message"] and "Deal 1" in answer["message"]
    # A fresh key, for sending the kept copy again as a deal of its own.
    assert answer["idempotency_key"] and answer["idempotency_key"] != "k-1"
    entry.refresh_from_db()
    assert SelfEntryDeal.objects.count() == 1
    assert (entry.data, entry.version, entry.status, AuditEntry.objects.count()) == before
    # Another seat under the same key is other values too.
    seat = client.post(phone_url(token, "self_entry_enter"), deal_one_form(table, key="k-1", seat=2), **JSON)
    assert seat.status_code == 409 and SelfEntryDeal.objects.count() == 1


def test_a_key_sent_again_with_other_values_shows_them_again_without_the_script(client, table):
    token = table_token(table)
    client.get(phone_url(token))
    client.post(phone_url(token, "self_entry_enter"), deal_one_form(table, key="k-2"))
    other = deal_one_form(table, key="k-2", **{"p4-penalty": 67})
    again = client.post(phone_url(token, "self_entry_enter"), other)
    assert again.status_code == 409
    text = again.content.decode()
    assert "already sent" in text and 'value="67"' in text
    assert SelfEntryDeal.objects.count() == 1


def test_the_same_key_with_the_same_values_gets_the_first_answer(client, table):
    token = table_token(table)
    client.get(phone_url(token))
    first = client.post(phone_url(token, "self_entry_enter"), deal_one_form(table, key="k-3"), **JSON)
    again = client.post(phone_url(token, "self_entry_enter"), deal_one_form(table, key="k-3"), **JSON)
    assert again.status_code == 200
    assert again.json()["message"] == first.json()["message"]
    assert again.json()["entry"] == first.json()["entry"] and again.json()["created"] is False
    assert SelfEntryDeal.objects.count() == 1


def test_five_wrong_seat_codes_a_minute_then_even_the_right_one_waits(client, table):
    token = table_token(table)
    client.get(phone_url(token))
    for number in range(5):
        wrong = client.post(
            phone_url(token, "self_entry_enter"),
            deal_one_form(table, key=f"w{number}", seat_code="ZZZZZ"),
            **JSON,
        )
        assert wrong.status_code == 400 and "not seat 1's code" in wrong.json()["message"]
    right = client.post(phone_url(token, "self_entry_enter"), deal_one_form(table, key="right"), **JSON)
    assert right.status_code == 429 and "try again in" in right.json()["message"]
    assert not SelfEntryDeal.objects.exists()
    # The table's page still opens (tokens are counted apart).
    assert client.get(phone_url(token)).status_code == 200
