"""The shared page cache (issue 12, scale-out): with the middleware first in the stack, an anonymous
reader's public page comes from the cache without the database, with all its headers, until any change
moves the results generation on — on every worker sharing the cache. Run on the local-memory cache in
every suite and again on Redis (REDIS_URL) by .ci/run."""

from __future__ import annotations

import gzip

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import page_cache, services
from tests.conftest import nine

pytestmark = pytest.mark.redis

MIDDLEWARE = "scoring.page_cache.SharedPageCacheMiddleware"
HEADERS = ("Content-Type", "ETag", "Cache-Control", "Vary", "Content-Security-Policy", "X-Frame-Options")


@pytest.fixture(autouse=True)
def shared_cache_first(settings):
    if MIDDLEWARE not in settings.MIDDLEWARE:
        settings.MIDDLEWARE = [MIDDLEWARE, *settings.MIDDLEWARE]


@pytest.fixture
def world(event, round1, game_set, play_set):
    play_set(game_set, nine({"Ann": 100, "Bob": 150, "Cy": 200, "Dee": 250}))
    return event


def address(name: str, event, **kwargs) -> str:
    return reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})


def queries_of(call) -> int:
    with CaptureQueriesContext(connection) as seen:
        call()
    return len(seen.captured_queries)


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [("standings", {}), ("event", {}), ("round", {"number": 1}), ("table", {"number": 1, "table": 1}),
     ("projector", {}), ("seating", {"number": 1})],
)  # fmt: skip
def test_a_stored_page_is_served_without_the_database_with_its_headers(client, world, name, kwargs):
    url = address(name, world, **kwargs)
    first = client.get(url)
    assert first.status_code == 200
    second = None

    def again():
        nonlocal second
        second = client.get(url)

    assert queries_of(again) == 0
    assert second.status_code == 200 and second.content == first.content
    for header in HEADERS:
        assert second.headers.get(header) == first.headers.get(header), header


def test_a_revisit_with_the_etag_and_a_head_are_answered_without_the_database(client, world):
    url = address("standings", world)
    etag = client.get(url)["ETag"]
    answers = []
    assert (
        queries_of(lambda: answers.extend([client.get(url, HTTP_IF_NONE_MATCH=etag), client.head(url)])) == 0
    )
    revisit, head = answers
    assert revisit.status_code == 304 and revisit["ETag"] == etag
    assert head.status_code == 200 and head.content == b""


def test_a_stored_page_is_sent_compressed_to_a_reader_that_accepts_it(client, world):
    url = address("standings", world)
    made = client.get(url)
    answers = []
    # A phone's browser accepts gzip: the page comes from the cache as it was kept, compressed.
    assert queries_of(lambda: answers.append(client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br"))) == 0
    zipped = answers[0]
    assert zipped.status_code == 200 and zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == made.content
    assert int(zipped["Content-Length"]) == len(zipped.content) < len(made.content) / 2
    assert "Accept-Encoding" in zipped["Vary"] and "Accept-Encoding" in made["Vary"]
    # Another encoding of the same page: its ETag is the page's, weak, and either answers a revisit.
    assert zipped["ETag"] == f"W/{made['ETag']}"
    for etag in (made["ETag"], zipped["ETag"]):
        assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=etag).status_code == 304
    # A reader that does not accept gzip is sent the page as it was made.
    plain = client.get(url)
    assert not plain.has_header("Content-Encoding") and plain.content == made.content
    assert plain["Content-Length"] == str(len(made.content))
    # A page made for a reader that accepts gzip is sent to it as kept, compressed.
    event_page = client.get(address("event", world), HTTP_ACCEPT_ENCODING="gzip")
    assert event_page["Content-Encoding"] == "gzip"
    assert gzip.decompress(event_page.content) == client.get(address("event", world)).content


def test_a_page_stored_by_an_earlier_version_is_still_served_as_it_was_kept(client, world):
    url = address("standings", world)
    made = client.get(url)
    key = page_cache.page_key(made.wsgi_request)
    stored = cache.get(key)
    # As kept before pages were kept compressed too: no word of compression, its length among its headers.
    earlier = {name: value for name, value in stored.items() if name != "gzip"}
    earlier["headers"] = [*stored["headers"], ("Content-Length", str(len(stored["content"])))]
    cache.set(key, earlier)
    again = []
    assert queries_of(lambda: again.append(client.get(url))) == 0
    assert again[0].content == made.content and again[0]["Content-Length"] == str(len(made.content))


def test_a_change_through_a_service_retires_the_stored_page(client, world, director, game_set):
    url = address("table", world, number=1, table=1)
    before = client.get(url).content.decode()
    generation = cache.get(page_cache.GENERATION_KEY)
    services.set_reopen(game_set=game_set, user=director, reason="a total was copied wrong")
    assert cache.get(page_cache.GENERATION_KEY) != generation
    after = client.get(url).content.decode()
    assert "Corrected after verification" not in before and after != before


def test_an_entry_added_makes_the_event_page_read_afresh(client, world, director):
    url = address("event", world)
    client.get(url)
    services.entry_add(event=world, user=director, name="Vic Ortiz", club="")
    assert queries_of(lambda: client.get(url)) > 0


def test_a_lost_generation_retires_every_stored_page(client, world):
    url = address("standings", world)
    client.get(url)
    cache.delete(page_cache.GENERATION_KEY)
    assert queries_of(lambda: client.get(url)) > 0
    assert queries_of(lambda: client.get(url)) == 0


def test_a_director_is_neither_served_nor_stored(as_director, world):
    url = address("table", world, number=1, table=1)
    director_page = as_director.get(url).content.decode()
    assert queries_of(lambda: as_director.get(url)) > 0
    anonymous = Client().get(url).content.decode()
    assert anonymous != director_page
    # The anonymous copy is now stored, and still not served to the director.
    assert queries_of(lambda: as_director.get(url)) > 0


def test_only_marked_pages_are_stored(client, world):
    home = reverse("scoring:home")
    client.get(home)
    assert queries_of(lambda: client.get(home)) > 0
    login = reverse("login")
    client.get(login)
    assert cache.get(page_cache.page_key(client.get(login).wsgi_request)) is None


SHOW_CACHES = """
import django
django.setup()
from django.conf import settings
print(settings.MIDDLEWARE[0])
print(settings.CACHES["default"]["BACKEND"], settings.CACHES["ratelimit"]["BACKEND"])
"""


@pytest.mark.parametrize(
    ("redis_url", "first", "caches"),
    [
        ("redis://127.0.0.1:6379/9", MIDDLEWARE,
         [f"kalooki_tournament.shared_cache.{name}" for name in ("FailOpenRedisCache", "FallbackCache")]),
        ("", "django.middleware.security.SecurityMiddleware",
         ["django.core.cache.backends.locmem.LocMemCache", "django.core.cache.backends.db.DatabaseCache"]),
    ],
    ids=["with-redis", "without"],
)  # fmt: skip
def test_redis_url_makes_redis_the_shared_cache_and_puts_the_page_cache_first(redis_url, first, caches):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "REDIS_URL": redis_url, "DJANGO_SETTINGS_MODULE": "kalooki_tournament.settings"}
    shown = subprocess.run(
        [sys.executable, "-c", SHOW_CACHES],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split() == [first, *caches]


def test_a_page_stored_before_a_round_becomes_final_is_not_served_after_it(
    client, event, round1, game_set, play_set, monkeypatch
):
    """Final results (issue 21): the round closed into a one-minute correction period; the stored page
    says "provisional until …" and is not served once it is over (nothing was saved meanwhile), though
    the store keeps a page two minutes."""
    from datetime import timedelta

    from django.utils import timezone

    services.event_update(event=event, user=None, correction_minutes=1)
    play_set(game_set, nine({"Ann": 100, "Bob": 150, "Cy": 200, "Dee": 250}))
    url = address("standings", event)
    assert "provisional until" in client.get(url).content.decode()
    assert queries_of(lambda: client.get(url)) == 0  # stored
    real_now, real_time = timezone.now, page_cache.time.time
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=65))
    monkeypatch.setattr(page_cache.time, "time", lambda: real_time() + 65)
    later = client.get(url).content.decode()
    assert "Results final" in later and "provisional until" not in later
