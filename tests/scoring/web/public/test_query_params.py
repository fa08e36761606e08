"""A malformed query parameter gets a 4xx, never a 500 (issue 12, item 7): on every public page, the
standings PDF and the projector; and arbitrary query strings thrown at every public URL."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring.web.query import whole_number
from tests.conftest import (
    FOUR,
    kept_for_the_module,
    new_director,
    new_event,
    nine,
    played_deals,
    seated_table,
)

PUBLIC_PAGES = ("home", "event", "standings", "round", "seating", "table", "player", "projector",
                "pdf_standings", "pdf_seating", "table_history", "login")  # fmt: skip
ROUND_PAGES = ("event", "standings", "projector", "pdf_standings")
TABLE_PAGES = ("event", "standings", "round", "table")


@pytest.fixture(scope="module")
def world_once(django_db_setup, django_db_blocker):
    """One event, its round 1 played and verified, for the whole module: its tests only read it."""
    from scoring import services

    with kept_for_the_module(django_db_blocker):
        director = new_director()
        event = new_event(director, name="Test Open", slug="test-open")
        game_set = seated_table(services.round_create(event=event, user=director), FOUR, director)
        played_deals(game_set, nine({"Ann": 100, "Bob": 150, "Cy": 200, "Dee": 250}))
        yield event.pk


@pytest.fixture
def world(world_once, db):
    from scoring.models import Event

    return Event.objects.get(pk=world_once)


def public_urls(event) -> dict[str, str]:
    entry = event.entries.order_by("pk").first()
    slug = {"slug": event.slug}
    table = {**slug, "number": 1, "table": 1}
    return {
        "home": reverse("scoring:home"),
        "event": reverse("scoring:event", kwargs=slug),
        "standings": reverse("scoring:standings", kwargs=slug),
        "round": reverse("scoring:round", kwargs={**slug, "number": 1}),
        "seating": reverse("scoring:seating", kwargs={**slug, "number": 1}),
        "table": reverse("scoring:table", kwargs=table),
        "player": reverse("scoring:player", kwargs={**slug, "entry_id": entry.pk}),
        "projector": reverse("scoring:projector", kwargs=slug),
        "pdf_standings": reverse("scoring:pdf_standings", kwargs=slug),
        "pdf_seating": reverse("scoring:pdf_seating", kwargs={**slug, "number": 1}),
        "table_history": reverse("adjudication:table_history", kwargs=table),
        "login": reverse("login"),
    }


def test_every_public_page_is_probed(world):
    assert set(public_urls(world)) == set(PUBLIC_PAGES)


@pytest.mark.parametrize(
    ("raw", "number"),
    [("1", 1), ("007", 7), ("²", None), ("①", None), ("١", None), ("１", None), ("-1", None), ("+1", None),
     ("1.0", None), (" 1", None), ("9" * 9, 999_999_999), ("9" * 10, None), ("9" * 5000, None), ("", None)],
)  # fmt: skip
def test_only_short_ascii_digits_are_a_number(raw, number):
    assert whole_number(raw) == number


@pytest.mark.parametrize("name", ROUND_PAGES)
@pytest.mark.parametrize("value", ["²", "①", "١", "１", "9" * 5000, "-1", "1.5", "x"])
def test_a_round_that_is_no_number_is_not_found(client, world, name, value):
    response = client.get(public_urls(world)[name], {"round": value})
    assert response.status_code == 404


@pytest.mark.parametrize("name", ROUND_PAGES)
def test_a_real_round_still_answers(client, world, name):
    assert client.get(public_urls(world)[name], {"round": "1"}).status_code == 200


@pytest.mark.parametrize("name", TABLE_PAGES)
@pytest.mark.parametrize(
    "query",
    [{"per_page": "-1"}, {"per_page": "0"}, {"per_page": "²"}, {"per_page": "100000"}, {"page": "-3"},
     {"page": "0"}, {"page": "①"}, {"page": "2.5"}, {"_export": "csv", "per_page": "-1"}],
)  # fmt: skip
def test_a_malformed_page_or_page_size_is_a_bad_request_naming_it(client, world, name, query):
    response = client.get(public_urls(world)[name], query)
    assert response.status_code == 400


@pytest.mark.parametrize("name", TABLE_PAGES)
def test_pages_and_page_sizes_in_range_still_answer(client, world, name):
    assert client.get(public_urls(world)[name], {"page": "1", "per_page": "25"}).status_code == 200
    # A page past the last shows the last page, as before.
    assert client.get(public_urls(world)[name], {"page": "99"}).status_code == 200


PARAMETER_NAMES = ("round", "page", "per_page", "sort", "provisional", "_export", "q", "completed", "deal",
                   "status", "next", "date_from")  # fmt: skip
AWKWARD_VALUES = ("-1", "0", "²", "①", "١", "9" * 30, "1.5", "", " ", "\x00", "%", "csv", "xlsx", "ods",
                  "-total", "place,-place")  # fmt: skip
values = st.one_of(st.sampled_from(AWKWARD_VALUES), st.text(max_size=40))
names = st.one_of(st.sampled_from(PARAMETER_NAMES), st.text(max_size=12))
encoded_queries = st.lists(st.tuples(names, values), max_size=5).map(urlencode)
# What a client may send without encoding anything: stray %, &, = and bytes that are no UTF-8.
raw_queries = st.text(alphabet=st.characters(max_codepoint=255, exclude_categories=("Cc",)), max_size=60)


@pytest.mark.slow
@pytest.mark.parametrize("name", PUBLIC_PAGES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.one_of(encoded_queries, raw_queries))
@example(query="round=%C2%B2").via("found by the probe")
@example(query="round=%E2%91%A0").via("found by the probe")
@example(query="per_page=-1&page=-3").via("found by the probe")
def test_no_query_string_makes_a_public_page_fail(client, world, name, query):
    response = client.get(public_urls(world)[name], QUERY_STRING=query)
    assert response.status_code < 500, query
