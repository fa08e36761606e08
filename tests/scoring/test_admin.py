"""The admin shows results, seating and rulings to staff but changes them only through services."""

import pytest
from django.contrib.admin.sites import site

from adjudication.models import AuditEntry, Ruling
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
    from scoring import services

    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    return game_set


def test_an_event_edited_in_the_admin_is_audited_with_its_directors(admin_client, event):
    from adjudication.models import AuditEntry

    page = admin_client.get(f"/admin/scoring/event/{event.pk}/change/")
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["venue"] = "Mona Campus"
    data["directors"] = []
    data["rules_overrides"] = "{}"
    data["tiebreaks"] = '["total", "sets_won", "deals_won", "doubled_outs", "worst_deal"]'
    response = admin_client.post(f"/admin/scoring/event/{event.pk}/change/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    event.refresh_from_db()
    assert (event.venue, event.version) == ("Mona Campus", 2)
    logged = AuditEntry.objects.filter(action="kalooki.event.changed").get()
    assert logged.after["venue"] == "Mona Campus"
    assert logged.before["directors"] == ["director"]
    assert logged.after["directors"] == []
