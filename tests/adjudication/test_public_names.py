"""Who changed what, on public pages (issue 12, item 14): a table's history and a ruling's page show
directors and staff by their display names (first and last name), or "director" — never the
username, which is half of what opens an account. The directors' own log keeps the usernames."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from adjudication import services as rulings
from scoring import services
from scoring.models import Deal


@pytest.fixture
def accounts(event):
    users = get_user_model().objects
    plain = users.create_user("jbrown-2026", password="pw-plain-1")
    staff = users.create_user(
        "ops-admin", password="pw-staff-1", is_staff=True, first_name="Olive", last_name="Park"
    )
    event.directors.add(plain)
    return plain, staff


@pytest.fixture
def changed(game_set, example_sheet, accounts, entries):
    plain, staff = accounts
    services.deal_record(game_set=game_set, user=plain, data=example_sheet["deals"][0])
    deal = Deal.objects.get(game_set=game_set)
    ruling = rulings.ruling_issue(
        deal=deal, entry=entries["Bob"], user=staff, kind="overcall", reason="two calls"
    )
    return game_set, ruling


def _history(client, game_set):
    url = reverse("adjudication:table_history", kwargs={"slug": "test-open", "number": 1, "table": 1})
    return client.get(url).content.decode()


def test_the_table_history_shows_display_names_not_usernames(client, changed):
    html = _history(client, changed[0])
    assert "by Olive Park" in html and "by director" in html
    assert "jbrown-2026" not in html and "ops-admin" not in html


def test_the_ruling_page_shows_display_names_not_usernames(client, changed):
    _game_set, ruling = changed
    html = client.get(
        reverse("adjudication:ruling", kwargs={"slug": "test-open", "ruling_id": ruling.pk})
    ).content.decode()
    assert "by Olive Park" in html
    assert "ops-admin" not in html and "jbrown-2026" not in html


def test_the_directors_log_keeps_the_usernames(as_director, changed):
    html = as_director.get(reverse("adjudication:log", kwargs={"slug": "test-open"})).content.decode()
    assert "Olive Park (ops-admin)" in html and "director (jbrown-2026)" in html


def test_the_history_template_shows_no_template_comment(client, changed):
    assert "{#" not in _history(client, changed[0])
