"""Roles (issue 3): every director entry URL — taken from scoring/entry_urls.py, so a new one cannot be
forgotten — is open to the event's directors and staff, sends anonymous visitors to the login page and
refuses everyone else with 403, a director of another event included, before anything is written."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring.models import BackgroundJob, Deal
from scoring.web.direct import urls as entry_urls

ENTRY_URLS = [pattern.name for pattern in entry_urls.urlpatterns]
METHODS = ("get", "post")


@pytest.fixture
def world(game_set, other_director, make_event, entries, play_set, nine_deals):
    """The shared table with two deals (written directly: only the URLs are under test here), and
    `second` directing another event only."""
    play_set(game_set, nine_deals({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40})[:2], verified=False)
    make_event(name="Other Open", slug="other-open", directors=[other_director])
    event = game_set.table.round.event
    # A finished background job of the event, so its status and download URLs have one to show.
    job = BackgroundJob.objects.create(
        event=event, kind="round_pack", params={"round": 1}, status="done", filename="r1.pdf", result=b"%PDF"
    )
    return {"event": event, "entry": entries["Ann"], "job": job}


def address(name: str, world) -> str:
    """The URL `name` for the shared world; an unknown parameter fails here, naming it."""
    pattern = next(item for item in entry_urls.urlpatterns if item.name == name)
    values = {
        "slug": world["event"].slug,
        "number": 1,
        "table": 1,
        "sequence": 1,
        "entry_id": world["entry"].pk,
        "position": 1,
        "job_id": world["job"].pk,
    }
    kwargs = {key: values[key] for key in ["slug", *pattern.pattern.converters]}
    return reverse(f"scoring:{name}", kwargs=kwargs)


def written() -> tuple[int, int]:
    return AuditEntry.objects.count(), Deal.objects.count()


def test_every_entry_url_is_listed():
    # The table below would silently shrink if the URL module stopped loading.
    assert len(ENTRY_URLS) >= 17
    assert len(set(ENTRY_URLS)) == len(ENTRY_URLS)
    assert all(name.startswith("direct") for name in ENTRY_URLS)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", ENTRY_URLS)
def test_anonymous_visitors_log_in_and_everyone_else_is_refused(
    client, world, stranger, other_director, name, method
):
    target = address(name, world)
    before = written()
    response = getattr(client, method)(target)
    assert response.status_code == 302, "anonymous"
    location = urlsplit(response["Location"])
    assert location.path == resolve_url(settings.LOGIN_URL)
    assert target in response["Location"].replace("%2F", "/")
    for who, account in (("stranger", stranger), ("director of another event", other_director)):
        client.force_login(account)
        assert getattr(client, method)(target).status_code == 403, who
    assert written() == before


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", ENTRY_URLS)
@pytest.mark.parametrize("who", ["director", "staff"])
def test_the_events_directors_and_staff_may_use_it(client, world, director, staff, name, method, who):
    client.force_login(director if who == "director" else staff)
    response = getattr(client, method)(address(name, world))
    # A POST-only URL answers GET with 405; bad or empty forms with 400; never 403 or a login page.
    assert response.status_code in (200, 302, 400, 405, 409)
    if response.status_code == 302:
        assert not response["Location"].startswith(resolve_url(settings.LOGIN_URL))


def test_an_unknown_event_is_404_for_a_logged_in_user_and_a_login_for_anyone_else(client, world, director):
    target = reverse("scoring:direct", kwargs={"slug": "no-such-event"})
    assert client.get(target).status_code == 302
    client.force_login(director)
    assert client.get(target).status_code == 404


def test_the_public_pages_do_not_offer_the_director_link_to_others(client, world, other_director):
    dashboard = reverse("scoring:direct", kwargs={"slug": world["event"].slug})
    event_page = reverse("scoring:event", kwargs={"slug": world["event"].slug})
    assert dashboard not in client.get(event_page).content.decode()
    client.force_login(other_director)
    assert dashboard not in client.get(event_page).content.decode()
