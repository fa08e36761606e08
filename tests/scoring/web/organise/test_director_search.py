"""The event form offers directors by display name from a search (issue 22): the page lists only the
chosen directors, never every account's username; the search answers organisers alone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Event

pytestmark = pytest.mark.django_db

SEARCH = "/events/directors/"


@pytest.fixture
def organiser(director):
    director.first_name, director.last_name = "Dora", "Director"
    director.save()
    services.grant_organiser(director)
    return type(director).objects.get(pk=director.pk)


@pytest.fixture
def accounts(django_user_model):
    return {
        "ann": django_user_model.objects.create_user(
            "secret-login-ann", password="pw-ann-12345", first_name="Ann", last_name="Reid"
        ),
        "annette": django_user_model.objects.create_user(
            "secret-login-annette", password="pw-annette-1", first_name="Annette", last_name="Bloom"
        ),
        "bob": django_user_model.objects.create_user(
            "secret-login-bob", password="pw-bob-12345", first_name="Bob", last_name="Stone"
        ),
        "gone": django_user_model.objects.create_user(
            "secret-login-gone", password="pw-gone-1234", first_name="Anna", last_name="Gone", is_active=False
        ),
    }


def test_the_search_finds_accounts_by_display_name(client, organiser, accounts):
    client.force_login(organiser)
    found = client.get(SEARCH, {"q": "ann"}).json()["results"]
    assert found == [
        {"id": accounts["ann"].pk, "name": "Ann Reid"},
        {"id": accounts["annette"].pk, "name": "Annette Bloom"},
    ]
    assert client.get(SEARCH, {"q": "ann reid"}).json()["results"] == [
        {"id": accounts["ann"].pk, "name": "Ann Reid"}
    ]
    # One letter finds nobody; usernames are not searched, only matched whole.
    assert client.get(SEARCH, {"q": "a"}).json()["results"] == []
    assert client.get(SEARCH, {"q": "secret"}).json()["results"] == []
    assert client.get(SEARCH, {"q": "secret-login-bob"}).json()["results"] == [
        {"id": accounts["bob"].pk, "name": "Bob Stone"}
    ]
    assert "secret-login" not in client.get(SEARCH, {"q": "ann"}).content.decode()


def test_the_search_answers_organisers_only(client, director, other_director, accounts):
    assert client.get(SEARCH, {"q": "ann"}).status_code == 302  # log in first
    client.force_login(other_director)
    assert client.get(SEARCH, {"q": "ann"}).status_code == 403


def test_the_event_form_lists_only_the_chosen_directors(client, organiser, accounts):
    client.force_login(organiser)
    page = client.get(reverse("scoring:event_new")).content.decode()
    assert "secret-login" not in page and "Bob Stone" not in page
    assert "Dora Director" in page
    assert reverse("scoring:director_search") in page


def test_a_director_found_by_the_search_is_saved_with_the_event(client, organiser, accounts):
    client.force_login(organiser)
    data = {
        "name": "Montego Bay Open",
        "slug": "",
        "date_start": "2026-12-05",
        "date_end": "",
        "venue": "",
        "ruleset_preset": "jamaican",
        "format": "cumulative",
        "advance": "",
        "paper": "A4",
        "entry_mode": "fast",
        "tiebreak_1": "total",
        "directors": [str(organiser.pk), str(accounts["bob"].pk)],
    }
    response = client.post(reverse("scoring:event_new"), data)
    assert response.status_code == 302
    event = Event.objects.get(slug="montego-bay-open")
    assert set(event.directors.all()) == {organiser, accounts["bob"]}
    settings = client.get(reverse("scoring:event_settings", kwargs={"slug": event.slug})).content.decode()
    assert "Bob Stone" in settings and "Ann Reid" not in settings and "secret-login" not in settings
