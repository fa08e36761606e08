"""Nothing escapes the audit log through the admin (issue 12, item 10): adding, renaming and deleting a
player, making a user staff (a director of every event) and deleting an event all go through services
that log who, when, before and after; a player's rename keeps the name rule in every event they play;
an event with results cannot be deleted."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, Event, Player


def _messages(response) -> str:
    return " ".join(str(message) for message in get_messages(response.wsgi_request))


def test_adding_a_player_in_the_admin_is_logged(admin_client, admin_user):
    response = admin_client.post("/admin/scoring/player/add/", {"name": "Zoe Hart", "club": "Kingston"})
    assert response.status_code == 302
    player = Player.objects.get(name="Zoe Hart")
    entry = AuditEntry.objects.get(action="kalooki.player.added")
    assert (entry.user, entry.object_id, entry.before) == (admin_user, str(player.pk), None)
    assert entry.after == {"name": "Zoe Hart", "club": "Kingston", "membership_id": ""}


def test_renaming_a_player_in_the_admin_is_logged_in_each_of_their_events(
    admin_client, admin_user, make_event, director
):
    first, second = make_event(), make_event()
    for event in (first, second):
        services.entry_add(event=event, user=director, name="Ann")
    ann = Player.objects.get(name="Ann")
    url = f"/admin/scoring/player/{ann.pk}/change/"
    response = admin_client.post(url, {"name": "Ann Lee", "club": "", "membership_id": ""})
    assert response.status_code == 302
    renames = AuditEntry.objects.filter(action="kalooki.player.renamed").order_by("event_id")
    assert [(entry.event_id, entry.before, entry.after, entry.user) for entry in renames] == [
        (event.pk, {"name": "Ann"}, {"name": "Ann Lee"}, admin_user) for event in (first, second)
    ]
    assert set(Entry.objects.values_list("normalized_name", flat=True)) == {"ann lee"}


def test_a_rename_onto_a_name_taken_in_one_of_their_events_is_refused(admin_client, event, director):
    services.entry_add(event=event, user=director, name="Ann")
    bob = services.entry_add(event=event, user=director, name="Bob").player
    url = f"/admin/scoring/player/{bob.pk}/change/"
    response = admin_client.post(url, {"name": "ＡＮＮ", "club": "", "membership_id": ""})
    assert response.status_code == 200  # the form again, with the refusal
    assert "already has a player called Ann" in response.content.decode()
    assert Player.objects.get(pk=bob.pk).name == "Bob"
    assert not AuditEntry.objects.filter(action__startswith="kalooki.player.").exists()


def test_a_confusable_name_is_refused_in_the_admin(admin_client):
    response = admin_client.post("/admin/scoring/player/add/", {"name": "\u0410nn", "club": ""}, follow=True)
    assert "Cyrillic and Latin" in _messages(response)
    assert not Player.objects.exists()


def test_deleting_a_player_in_the_admin_is_logged(admin_client, admin_user):
    player = services.player_add(user=admin_user, name="Temp Player")
    response = admin_client.post(f"/admin/scoring/player/{player.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=player.pk).exists()
    entry = AuditEntry.objects.get(action="kalooki.player.deleted")
    assert entry.before["name"] == "Temp Player" and entry.user == admin_user


def test_the_player_services_refuse_deleting_an_entered_player(event, director):
    ann = services.entry_add(event=event, user=director, name="Ann").player
    with pytest.raises(Exception, match="is entered in Test Open"):
        services.player_delete(player=ann, user=director)
    assert Player.objects.filter(pk=ann.pk).exists()


def _user_form(user, **changes) -> dict:
    data = {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "is_active": "on",
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_making_a_user_staff_in_the_admin_is_logged(admin_client, admin_user):
    clerk = get_user_model().objects.create_user("clerk", password="pw-clerk-1")
    response = admin_client.post(f"/admin/auth/user/{clerk.pk}/change/", _user_form(clerk, is_staff="on"))
    assert response.status_code == 302, response.content.decode()[:2000]
    clerk.refresh_from_db()
    assert clerk.is_staff
    entry = AuditEntry.objects.get(action="kalooki.account.staff_changed")
    assert (entry.user, entry.object_id) == (admin_user, str(clerk.pk))
    assert (entry.before, entry.after) == ({"is_staff": False}, {"is_staff": True})
    assert entry.created_at is not None


def test_adding_a_user_in_the_admin_is_logged_without_the_password(admin_client):
    response = admin_client.post(
        "/admin/auth/user/add/",
        {"username": "newdirector", "password1": "a-long-pass-9431", "password2": "a-long-pass-9431"},
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="kalooki.account.created")
    assert entry.after["username"] == "newdirector" and entry.after["is_staff"] is False
    assert "password" not in entry.after


def test_saving_a_user_unchanged_logs_nothing(admin_client):
    clerk = get_user_model().objects.create_user("clerk", password="pw-clerk-1")
    admin_client.post(f"/admin/auth/user/{clerk.pk}/change/", _user_form(clerk))
    assert not AuditEntry.objects.filter(action__startswith="kalooki.account.").exists()


def test_an_event_with_results_cannot_be_deleted_in_the_admin(admin_client, played):
    event = played.table.round.event
    assert admin_client.post(f"/admin/scoring/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()
    with pytest.raises(Exception, match="has results"):
        services.event_delete(event=event, user=None)


def test_an_event_without_history_is_deleted_through_the_service_and_logged(admin_client, admin_user):
    stray = Event.objects.create(name="Typo Open", slug="typo-open", date_start=date(2026, 5, 1))
    response = admin_client.post(f"/admin/scoring/event/{stray.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Event.objects.filter(pk=stray.pk).exists()
    entry = AuditEntry.objects.get(action="kalooki.event.deleted")
    assert (entry.event_id, entry.user, entry.before["slug"]) == (None, admin_user, "typo-open")


def test_an_event_with_a_history_is_kept(event, director):
    with pytest.raises(Exception, match="audit log"):
        services.event_delete(event=event, user=director)
    assert Event.objects.filter(pk=event.pk).exists()
