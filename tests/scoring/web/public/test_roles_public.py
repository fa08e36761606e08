"""Roles on the public pages: anyone reads them, nobody changes anything through them, and only an
event's directors (and staff) are offered the way into its director pages."""

import re

import pytest
from django.urls import reverse

from tests.conftest import FOUR, nine


@pytest.fixture
def played(event, game_set, play_set):
    play_set(game_set, nine({"Ann": 100, "Bob": 150, "Cy": 200, "Dee": 250}))
    return event


def public_addresses(event):
    slug = event.slug
    entry = event.entries.get(player__name="Ann").pk
    return [
        reverse("scoring:home"),
        reverse("scoring:event", kwargs={"slug": slug}),
        reverse("scoring:standings", kwargs={"slug": slug}),
        reverse("scoring:round", kwargs={"slug": slug, "number": 1}),
        reverse("scoring:seating", kwargs={"slug": slug, "number": 1}),
        reverse("scoring:table", kwargs={"slug": slug, "number": 1, "table": 1}),
        reverse("scoring:player", kwargs={"slug": slug, "entry_id": entry}),
        reverse("scoring:projector", kwargs={"slug": slug}),
    ]


def director_link(html):
    return re.search(r'<a class="event-nav__director" href="([^"]+)">Director</a>', html)


def test_anonymous_readers_get_no_edit_controls(client, played):
    for address in public_addresses(played):
        html = client.get(address).content.decode()
        assert 'method="post"' not in html.lower(), address
        assert not director_link(html), address
        assert "Enter results" not in html, address
        assert ">Log in</a>" in html, address


def test_a_signed_in_stranger_reads_everything_but_is_offered_nothing(client, played, stranger):
    client.force_login(stranger)
    for address in public_addresses(played):
        response = client.get(address)
        assert response.status_code == 200, address
        html = response.content.decode()
        assert not director_link(html), address
        assert "Enter results" not in html, address
        # The one form is the logout button.
        assert html.lower().count('method="post"') == 1, address


def test_the_events_director_is_offered_the_director_pages(client, played, director):
    client.force_login(director)
    html = client.get(reverse("scoring:event", kwargs={"slug": played.slug})).content.decode()
    link = director_link(html)
    assert link and link.group(1).startswith(f"/e/{played.slug}/direct/")


def test_directing_another_event_is_not_enough(client, played, make_event, other_director):
    make_event(name="Elsewhere", slug="elsewhere", directors=[other_director])
    client.force_login(other_director)
    html = client.get(reverse("scoring:standings", kwargs={"slug": played.slug})).content.decode()
    assert not director_link(html)
    html = client.get(reverse("scoring:standings", kwargs={"slug": "elsewhere"})).content.decode()
    assert director_link(html)


def test_staff_are_offered_every_events_director_pages(client, played, staff):
    client.force_login(staff)
    html = client.get(reverse("scoring:round", kwargs={"slug": played.slug, "number": 1})).content.decode()
    assert director_link(html)


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_no_public_page_accepts_a_write(client, played, director, method):
    client.force_login(director)
    for address in public_addresses(played):
        assert getattr(client, method)(address).status_code == 405, address


def test_logging_in_and_out_returns_to_the_public_pages(client, played, director):
    response = client.post(reverse("login"), {"username": "director", "password": "secret-director-pw"})
    assert response.status_code == 302
    html = client.get(reverse("scoring:home")).content.decode()
    assert "director" in html and "Log out" in html
    response = client.post(reverse("logout"))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:home")
    assert ">Log in</a>" in client.get(reverse("scoring:home")).content.decode()


def test_a_wrong_password_is_refused_with_a_message(client, director):
    response = client.post(reverse("login"), {"username": "director", "password": "wrong"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()


def test_the_navigation_marks_the_current_page(client, played):
    html = client.get(reverse("scoring:seating", kwargs={"slug": played.slug, "number": 1})).content.decode()
    assert re.search(r'aria-current="page">Where do I sit\?</a>', html)
    assert f'href="/e/{played.slug}/projector/"' in html
    assert all(name in html for name in FOUR)


def test_the_events_director_can_go_from_a_set_to_its_entry_page(client, played, director):
    address = reverse("scoring:table", kwargs={"slug": played.slug, "number": 1, "table": 1})
    entry = reverse("scoring:direct_table", kwargs={"slug": played.slug, "number": 1, "table": 1})
    assert entry not in client.get(address).content.decode()
    client.force_login(director)
    assert f'href="{entry}"' in client.get(address).content.decode()
