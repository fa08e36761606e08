"""The night goes on when the shared cache fails (issue 22, item 1): with Redis unreachable — a closed
port, or a Redis of the test's own stopped mid-run — public pages, the log-in page and phone pages
answer 200, a director's save is stored, a log-in works and the log-in limit still counts (in the
database), the log says the cache is down once and not once a request, and `cache_health()` tells the
dashboard since when. When Redis answers again the results generation moves on, so a page stored
before a save made meanwhile is never served again."""

from __future__ import annotations

import logging
import os
import signal
import time

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from kalooki_tournament import ratelimit, shared_cache
from scoring import page_cache, services
from scoring.models import Deal
from tests.scoring.self_entry_support import deal_one_form, phone_url, seat_code, table_token, turn_on

pytestmark = [pytest.mark.redis, pytest.mark.django_db]

CLOSED = "redis://127.0.0.1:1/0"
MIDDLEWARE = "scoring.page_cache.SharedPageCacheMiddleware"
PASSWORD = "right-horse-battery-9"


def point_the_cache_at(settings, url: str) -> None:
    settings.CACHES = shared_caches_for(url)
    if MIDDLEWARE not in settings.MIDDLEWARE:
        settings.MIDDLEWARE = [MIDDLEWARE, *settings.MIDDLEWARE]


def shared_caches_for(url: str) -> dict:
    return shared_cache.shared_caches(url)


@pytest.fixture(autouse=True)
def fresh_health():
    shared_cache.reset_health()
    yield
    page_cache.forget_owed_moves()
    shared_cache.reset_health()


@pytest.fixture
def cache_down(settings):
    point_the_cache_at(settings, CLOSED)
    # The database's counts start empty.
    caches["ratelimit"].clear()


def address(name: str, event, **kwargs) -> str:
    return reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})


def deal_one(example_sheet) -> dict:
    return example_sheet["deals"][0]


def test_public_pages_the_log_in_page_and_a_phone_page_answer_with_the_cache_down(
    cache_down, client, event, game_set
):
    pages = [
        reverse("scoring:home"),
        address("standings", event),
        address("event", event),
        address("table", event, number=1, table=1),
        reverse("login"),
        phone_url(table_token(game_set)),
    ]
    for url in pages:
        for _ in range(2):
            assert client.get(url).status_code == 200, url


def test_phones_enter_and_confirm_a_deal_with_the_cache_down(cache_down, event, director, game_set):
    from scoring.models import SelfEntryDeal

    turn_on(event, director)
    token = table_token(game_set)
    ann, bob = Client(REMOTE_ADDR="10.1.1.1"), Client(REMOTE_ADDR="10.1.1.2")
    assert ann.get(phone_url(token)).status_code == 200 and bob.get(phone_url(token)).status_code == 200
    json = {"HTTP_ACCEPT": "application/json"}
    answer = ann.post(phone_url(token, "self_entry_enter"), deal_one_form(game_set), **json)
    assert answer.status_code == 200 and answer.json()["ok"]
    entry = SelfEntryDeal.objects.get()
    confirm = phone_url(token, "self_entry_confirm", entry_id=entry.pk)
    answer = bob.post(
        confirm, {"version": entry.version, "seat": 2, "seat_code": seat_code(game_set, 2)}, **json
    )
    assert answer.status_code == 200 and answer.json()["ok"]
    assert Deal.objects.filter(game_set=game_set).count() == 1


def test_a_directors_save_is_stored_with_the_cache_down(cache_down, director, game_set, example_sheet):
    services.deal_record(game_set=game_set, user=director, data=deal_one(example_sheet))
    assert Deal.objects.filter(game_set=game_set).count() == 1


def test_a_directors_save_through_the_entry_form_is_stored_with_the_cache_down(
    cache_down, as_director, game_set, example_sheet
):
    table = game_set.table
    url = reverse(
        "scoring:direct_table", kwargs={"slug": table.round.event.slug, "number": 1, "table": table.number}
    )
    deal = deal_one(example_sheet)
    form = {"deal": "1", "set_version": "1", "out": deal["out"], "dealer": deal.get("dealer") or ""}
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee"), start=1):
        for key, value in deal["results"][name].items():
            if key in ("calls", "hand", "penalty", "total"):
                form[f"p{seat}-{key}"] = str(value)
    response = as_director.post(url, form)
    assert response.status_code == 302
    assert Deal.objects.filter(game_set=game_set).count() == 1


def test_a_log_in_works_and_the_limit_still_counts_with_the_cache_down(cache_down, django_user_model):
    django_user_model.objects.create_user("director-x", password=PASSWORD)
    client = Client()

    def attempt(password):
        data = {"username": "director-x", "password": password}
        return client.post(reverse("login"), data, REMOTE_ADDR="10.0.0.7")

    assert attempt(PASSWORD).status_code == 302 and "_auth_user_id" in client.session
    client.logout()
    for _ in range(ratelimit.limit()):
        assert attempt("wrong").status_code == 200
    assert attempt(PASSWORD).status_code == 429
    # Counted in the database's own table.
    assert ratelimit.seconds_locked("director-x", "10.0.0.7") > 0


def test_the_log_says_the_cache_is_down_once_not_once_a_request(
    cache_down, client, event, caplog, monkeypatch
):
    monkeypatch.setattr(shared_cache, "RETRY_SECONDS", 0.0)
    shared_cache.reset_health()
    with caplog.at_level(logging.WARNING, logger="kalooki_tournament.shared_cache"):
        for _ in range(5):
            assert client.get(address("standings", event)).status_code == 200
    said = [record for record in caplog.records if "not answering" in record.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.ERROR


def test_cache_health_says_since_when_the_cache_is_down(cache_down, client, event):
    health = page_cache.cache_health()
    assert not health.up and health.down_since is not None and health.error
    client.get(address("standings", event))
    assert page_cache.cache_health().down_since == health.down_since


def test_cache_health_without_a_shared_cache_is_up():
    if isinstance(caches["default"], shared_cache.GuardedRedisCache):
        pytest.skip("REDIS_URL is set")
    assert page_cache.cache_health().up


# --- a Redis of the test's own, stopped mid-run ---------------------------------------------------------


def test_redis_stopped_mid_run_costs_speed_not_service_and_no_stale_page_after(
    own_redis, settings, monkeypatch, client, director, game_set, example_sheet, event
):
    server, url = own_redis
    # Quick to notice a Redis that does not answer, and tried again at once.
    monkeypatch.setattr(shared_cache, "SOCKET_TIMEOUT", 0.3)
    monkeypatch.setattr(shared_cache, "CONNECT_TIMEOUT", 0.3)
    monkeypatch.setattr(shared_cache, "RETRY_SECONDS", 0.0)
    point_the_cache_at(settings, url)
    standings = address("table", event, number=1, table=1)
    before = client.get(standings).content
    assert client.get(standings).content == before  # stored

    # Stopped (SIGSTOP: it keeps what it holds but answers nothing).
    os.kill(server.pid, signal.SIGSTOP)
    services.deal_record(game_set=game_set, user=director, data=deal_one(example_sheet))
    assert Deal.objects.filter(game_set=game_set).count() == 1
    during = client.get(standings)
    assert during.status_code == 200 and during.content != before
    assert not page_cache.cache_health().up

    # Back: the first answer moves the generation on, and the page stored before the save is retired.
    os.kill(server.pid, signal.SIGCONT)
    after = client.get(standings)
    assert after.status_code == 200 and after.content != before
    assert page_cache.cache_health().up
    assert client.get(standings).content == after.content


def test_a_save_made_while_redis_is_stopped_moves_the_generation_on_when_it_is_back_unasked(
    own_redis, settings, monkeypatch, client, director, game_set, example_sheet, event
):
    import redis

    server, url = own_redis
    monkeypatch.setattr(shared_cache, "SOCKET_TIMEOUT", 0.3)
    monkeypatch.setattr(shared_cache, "CONNECT_TIMEOUT", 0.3)
    monkeypatch.setattr(shared_cache, "RETRY_SECONDS", 0.2)
    point_the_cache_at(settings, url)
    client.get(address("standings", event))
    raw = redis.Redis.from_url(url)
    key = f"kalooki:1:{page_cache.GENERATION_KEY}"
    before = raw.get(key)
    assert before is not None

    os.kill(server.pid, signal.SIGSTOP)
    services.deal_record(game_set=game_set, user=director, data=deal_one(example_sheet))
    os.kill(server.pid, signal.SIGCONT)
    # No request, no save: the move owed since the save is made once Redis answers.
    deadline = time.monotonic() + 15
    while raw.get(key) == before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert raw.get(key) != before
