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
from tests.conftest import (
    FOUR,
    finished_round_pack,
    kept_for_the_module,
    kept_sheet_photo,
    new_director,
    new_event,
    nine,
    played_deals,
    seated_table,
)

ENTRY_URLS = [pattern.name for pattern in entry_urls.urlpatterns]
METHODS = ("get", "post")


@pytest.fixture(scope="module")
def accounts_and_world(django_db_setup, django_db_blocker):
    """Built once for the module (its tests write only inside their own savepoints): the shared table
    with two deals (written directly: only the URLs are under test here), `second` directing another
    event only, staff, a stranger, and a finished background job of the event, so its status and
    download URLs have one to show."""
    from scoring import services

    with kept_for_the_module(django_db_blocker):
        director = new_director()
        accounts = {
            "director": director,
            "other_director": new_director("second", "secret-second-pw"),
            "staff": new_director("staff", "pw-staff-1", is_staff=True),
            "stranger": new_director("stranger", "pw-stranger-1"),
        }
        event = new_event(director, name="Test Open", slug="test-open")
        game_set = seated_table(services.round_create(event=event, user=director), FOUR, director)
        played_deals(game_set, nine({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40})[:2], verified=False)
        new_event(accounts["other_director"], name="Other Open", slug="other-open")
        job = finished_round_pack(event)
        ann = event.entries.get(player__name="Ann")
        # A photo of the table's signed sheet (issue 23), for the address that shows it.
        photo = kept_sheet_photo(game_set, "director director")
        yield (
            {name: user.pk for name, user in accounts.items()},
            {"event": event.pk, "entry": ann.pk, "job": job.pk, "photo": photo.pk},
        )


@pytest.fixture
def world(accounts_and_world, db):
    from scoring.models import Entry, Event

    _, ids = accounts_and_world
    return {
        "event": Event.objects.get(pk=ids["event"]),
        "entry": Entry.objects.get(pk=ids["entry"]),
        "job": BackgroundJob.objects.get(pk=ids["job"]),
        "photo": ids["photo"],
    }


def account(accounts_and_world, name):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=accounts_and_world[0][name])


# The module's accounts, in place of the shared fixtures of the same names (which would create them again).
@pytest.fixture
def director(accounts_and_world, db):
    return account(accounts_and_world, "director")


@pytest.fixture
def other_director(accounts_and_world, db):
    return account(accounts_and_world, "other_director")


@pytest.fixture
def staff(accounts_and_world, db):
    return account(accounts_and_world, "staff")


@pytest.fixture
def stranger(accounts_and_world, db):
    return account(accounts_and_world, "stranger")


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
        "photo_id": world["photo"],
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
