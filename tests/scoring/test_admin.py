"""The admin shows results, seating and rulings to staff but changes them only through services."""

import json

import pytest
from django.contrib.admin.sites import site
from django.contrib.messages import get_messages

from adjudication.models import AuditEntry, Ruling
from scoring import services
from scoring.admin import EventAdmin
from scoring.models import Deal, DealResult, Entry, Event, GameSet, Player, Round, Table


@pytest.fixture
def staff_request(rf, django_user_model):
    request = rf.get("/")
    request.user = django_user_model.objects.create_superuser("boss", password="x-long-pw-1")
    return request


@pytest.mark.parametrize("model", [Entry, Round, Table, GameSet, Deal, DealResult, Ruling, AuditEntry])
def test_results_seating_rulings_and_the_log_are_read_only(staff_request, model):
    admin = site._registry[model]
    assert admin.has_view_permission(staff_request)
    assert not admin.has_add_permission(staff_request)
    assert not admin.has_change_permission(staff_request)
    assert not admin.has_delete_permission(staff_request)


@pytest.mark.parametrize("model", [Event, Player])
def test_events_and_players_are_edited_in_the_admin(staff_request, model):
    assert site._registry[model].has_change_permission(staff_request)


def test_event_rules_are_read_only_in_the_admin_once_results_exist(staff_request, event, game_set, play_set):
    admin = site._registry[Event]
    assert "tiebreaks" not in admin.get_readonly_fields(staff_request, event)
    play_set(game_set, [("Ann", False, {"Ann": 0})], verified=False)
    assert "tiebreaks" in admin.get_readonly_fields(staff_request, event)


def test_admin_pages_show_the_played_set(admin_client, played_world):
    for model in (Event, GameSet, Deal, DealResult, AuditEntry):
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        assert admin_client.get(url).status_code == 200
    deal = Deal.objects.first()
    assert admin_client.get(f"/admin/scoring/deal/{deal.pk}/change/").status_code == 200


@pytest.fixture
def played_world(game_set, director, example_sheet):
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    return game_set


def form_data(admin_client, url: str) -> dict:
    """The admin form at `url` as the browser would post it back unchanged."""
    form = admin_client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    for name in ("rules_overrides", "tiebreaks"):
        value = data.get(name)
        data[name] = value if isinstance(value, str) else json.dumps(value if value is not None else {})
    return data


def change_url(event: Event) -> str:
    return f"/admin/scoring/event/{event.pk}/change/"


def test_an_event_edited_in_the_admin_is_audited_with_its_directors(admin_client, event):
    data = form_data(admin_client, change_url(event))
    data["venue"] = "Mona Campus"
    data["directors"] = []
    response = admin_client.post(change_url(event), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    event.refresh_from_db()
    assert (event.venue, event.version) == ("Mona Campus", 2)
    logged = AuditEntry.objects.filter(action="kalooki.event.changed").get()
    assert logged.after["venue"] == "Mona Campus"
    assert logged.before["directors"] == ["director"]
    assert logged.after["directors"] == []


def refusal_on_the_page(response) -> str:
    assert response.status_code == 200
    assert response.redirect_chain[-1][1] == 302
    return " ".join(str(message) for message in get_messages(response.wsgi_request))


def test_an_admin_save_over_someone_elses_change_is_refused_with_the_services_message(
    admin_client, event, director, other_director
):
    data = form_data(admin_client, change_url(event))
    services.event_update(event=event, user=other_director, venue="Mandeville")
    data["venue"] = "Mona Campus"
    data["directors"] = [director.pk, other_director.pk]
    response = admin_client.post(change_url(event), data, follow=True)
    shown = refusal_on_the_page(response)
    assert "changed by second" in shown and "Nothing was saved" in shown
    event.refresh_from_db()
    assert (event.venue, list(event.directors.all())) == ("Mandeville", [director])
    assert not AuditEntry.objects.filter(action="kalooki.event.changed", reason="admin").exists()


def test_a_tie_break_locked_by_a_result_recorded_during_the_save_is_refused(
    admin_client, event, game_set, play_set, monkeypatch
):
    data = form_data(admin_client, change_url(event))
    play_set(game_set, [("Ann", False, {"Ann": 0})], verified=False)
    # The admin shows locked fields read-only; a result recorded while the save is under way reaches
    # the service's own lock. Build the form as it was before that result.
    unlocked = EventAdmin.readonly_fields
    monkeypatch.setattr(EventAdmin, "get_readonly_fields", lambda self, request, obj=None: unlocked)
    data["tiebreaks"] = '["total"]'
    response = admin_client.post(change_url(event), data, follow=True)
    assert "tiebreaks: Locked: results have been recorded" in refusal_on_the_page(response)
    event.refresh_from_db()
    assert event.tiebreaks != ["total"]


def test_an_event_added_in_the_admin_is_created_and_logged_by_the_service(admin_client, director):
    data = form_data(admin_client, "/admin/scoring/event/add/")
    data.update(name="Kingston Cup", slug="kingston-cup", date_start="2026-12-12", directors=[director.pk])
    response = admin_client.post("/admin/scoring/event/add/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    event = Event.objects.get(slug="kingston-cup")
    assert list(event.directors.all()) == [director]
    logged = AuditEntry.objects.get(event=event, action="kalooki.event.created")
    # The service logs the whole event, as for one created anywhere else.
    assert (logged.after["paper"], logged.after["directors"], logged.reason) == ("A4", ["director"], "admin")
