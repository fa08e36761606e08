"""The PDF views: who may print what, and what comes back (a PDF with a sensible file name)."""

import pytest
from django.urls import reverse

DIRECTOR_ONLY = [
    ("scoring:pdf_table_blank", {"number": 1, "table": 1}),
    ("scoring:pdf_table_sheet", {"number": 1, "table": 1}),
    ("scoring:pdf_round_sheets", {"number": 1}),
]
PUBLIC = [
    ("scoring:pdf_seating", {"number": 1}),
    ("scoring:pdf_standings", {}),
]


def url(name, event, **kwargs):
    return reverse(name, kwargs={"slug": event.slug, **kwargs})


@pytest.mark.parametrize(("name", "kwargs"), DIRECTOR_ONLY)
def test_anonymous_visitors_are_sent_to_log_in_for_director_pdfs(client, event, game_set, name, kwargs):
    response = client.get(url(name, event, **kwargs))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("name", "kwargs"), DIRECTOR_ONLY)
def test_other_users_are_refused_director_pdfs(client, event, game_set, other_director, name, kwargs):
    client.force_login(other_director)
    assert client.get(url(name, event, **kwargs)).status_code == 403


@pytest.mark.parametrize(
    ("name", "kwargs", "filename"),
    [
        ("scoring:pdf_table_blank", {"number": 1, "table": 1}, "test-open-r1-t1-blank.pdf"),
        ("scoring:pdf_table_sheet", {"number": 1, "table": 1}, "test-open-r1-t1-sheet.pdf"),
        ("scoring:pdf_round_sheets", {"number": 1}, "test-open-r1-blank-sheets.pdf"),
    ],
)
def test_directors_get_the_sheets_as_pdf(client, event, game_set, director, name, kwargs, filename):
    client.force_login(director)
    response = client.get(url(name, event, **kwargs))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{filename}"'
    assert response.content.startswith(b"%PDF-")


def test_staff_may_print_any_events_sheets(client, event, game_set, staff):
    client.force_login(staff)
    assert client.get(url("scoring:pdf_round_sheets", event, number=1)).status_code == 200


def test_the_completed_round_pack_is_asked_for_by_query(client, event, game_set, director):
    client.force_login(director)
    response = client.get(url("scoring:pdf_round_sheets", event, number=1) + "?completed=1")
    assert response["Content-Disposition"] == 'inline; filename="test-open-r1-sheets.pdf"'


@pytest.mark.parametrize(("name", "kwargs"), PUBLIC)
def test_standings_and_seating_pdfs_are_public(client, event, game_set, name, kwargs):
    response = client.get(url(name, event, **kwargs))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")


def test_standings_pdf_names_the_round_and_answers_conditional_gets(client, event, round1, game_set):
    response = client.get(url("scoring:pdf_standings", event) + "?round=1&provisional=1")
    assert response["Content-Disposition"] == 'inline; filename="test-open-r1-provisional-standings.pdf"'
    again = client.get(url("scoring:pdf_standings", event), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("scoring:pdf_seating", {"number": 9}),
        ("scoring:pdf_round_sheets", {"number": 9}),
        ("scoring:pdf_table_blank", {"number": 1, "table": 9}),
    ],
)
def test_what_does_not_exist_is_404(client, event, game_set, director, name, kwargs):
    client.force_login(director)
    assert client.get(url(name, event, **kwargs)).status_code == 404


def test_a_bad_standings_round_is_404(client, event, game_set):
    assert client.get(url("scoring:pdf_standings", event) + "?round=x").status_code == 404
