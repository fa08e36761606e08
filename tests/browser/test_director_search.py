"""The event form's directors in a real Chromium (issue 22): typing a few letters of a name offers the
matching accounts from the app's own search, choosing one ticks it among the directors, and the event is
saved with them; no account's username is on the page."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Event

from .conftest import log_in

pytestmark = pytest.mark.browser


def test_an_organiser_adds_a_director_found_by_name(live_server, page, director, django_user_model):
    from playwright.sync_api import expect

    services.grant_organiser(director)
    found = django_user_model.objects.create_user(
        "hidden-login-name", password="pw-found-123", first_name="Marcia", last_name="Blake"
    )
    django_user_model.objects.create_user(
        "other-login", password="pw-other-123", first_name="Mark", last_name="Lee"
    )
    base = live_server.url
    log_in(page, base, "/events/new/")
    assert "hidden-login-name" not in page.content() and "Marcia" not in page.content()
    page.fill("#id_name", "Spanish Town Open")
    page.fill("#director-search", "marc")
    page.get_by_role("button", name="Add Marcia Blake").click()
    expect(page.get_by_label("Marcia Blake")).to_be_checked()
    expect(page.get_by_role("button", name="Add Mark Lee")).to_have_count(0)
    page.get_by_role("button", name="Set up the event").click()
    page.wait_for_url(f"{base}/e/spanish-town-open/direct/")
    assert set(Event.objects.get(slug="spanish-town-open").directors.all()) == {director, found}
