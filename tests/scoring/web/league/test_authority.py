"""Authority by event (issue 22): season edits, new seasons and player merges only by staff or organisers
who direct every event involved (403, nothing written, otherwise); a merge undone from the league log;
the league log shows season and merge entries to organisers and refuses everyone else."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, Player, Season
from scoring.services.players import player_merge_undo
from tests.conftest import nine, row_counts

pytestmark = pytest.mark.django_db


def organiser_of(user):
    services.grant_organiser(user)
    return type(user).objects.get(pk=user.pk)  # a fresh object: permissions are cached


@pytest.fixture
def world(make_event, director, other_director, make_table, play_set):
    """Two club nights directed by `director` (Ann Reid on the first, Annie Reid on the second, one
    person) and event B directed by `other_director` alone; both are organisers; a season of the nights."""
    director, outsider = organiser_of(director), organiser_of(other_director)
    nights = []
    for day, name in ((1, "Ann Reid"), (2, "Annie Reid")):
        night = make_event(name=f"Club night {day}", slug=f"club-night-{day}", date_start=date(2026, 2, day))
        rnd = services.round_create(event=night, user=director)
        play_set(make_table(rnd, [name, "Bo", "Cy"]), nine({name: 1, "Bo": 2, "Cy": 3}))
        nights.append(night)
    event_b = make_event(name="Event B", slug="event-b", directors=[outsider])
    season = services.season_create(user=director, name="Winter League", events=nights)
    return {
        "director": director,
        "outsider": outsider,
        "nights": nights,
        "event_b": event_b,
        "season": season,
        "keep": Player.objects.get(name="Ann Reid"),
        "merge": Player.objects.get(name="Annie Reid"),
    }


def season_post(season, **changes):
    data = {"version": season.version, "name": season.name, "slug": season.slug, "best_of": "", "points": ""}
    return data | changes


def test_an_organiser_of_another_event_cannot_edit_the_season(client, world):
    season, event_b = world["season"], world["event_b"]
    client.force_login(world["outsider"])
    address = reverse("scoring:season_edit", kwargs={"slug": season.slug})
    before = row_counts()
    response = client.post(address, season_post(season, name="Taken over", events=[event_b.pk]))
    assert response.status_code == 403
    assert row_counts() == before
    season.refresh_from_db()
    assert season.name == "Winter League"
    assert sorted(season.events.values_list("slug", flat=True)) == ["club-night-1", "club-night-2"]
    # The season's page offers the change only to those who may make it.
    page = reverse("scoring:season", kwargs={"slug": season.slug})
    assert "Change the season" not in client.get(page).content.decode()
    client.force_login(world["director"])
    assert "Change the season" in client.get(page).content.decode()


def test_an_organiser_cannot_start_a_season_of_events_they_do_not_direct(client, world):
    client.force_login(world["outsider"])
    address = reverse("scoring:season_new")
    before = row_counts()
    data = {"name": "Grab", "slug": "", "best_of": "", "points": "", "reason": ""}
    response = client.post(address, data | {"events": [world["nights"][0].pk, world["event_b"].pk]})
    assert response.status_code == 403
    assert row_counts() == before
    assert not Season.objects.filter(slug="grab").exists()
    # Their own event alone is theirs to put in a season.
    assert client.post(address, data | {"events": [world["event_b"].pk]}).status_code == 302


def test_the_season_services_refuse_too(world):
    with pytest.raises(PermissionDenied):
        services.season_update(season=world["season"], user=world["outsider"], name="Taken over")
    with pytest.raises(PermissionDenied):
        services.season_create(user=world["outsider"], name="Grab", events=world["nights"])
    assert Season.objects.get().name == "Winter League"


def test_an_organiser_of_another_event_cannot_merge_its_players(client, world):
    keep, merge = world["keep"], world["merge"]
    client.force_login(world["outsider"])
    before = row_counts()
    address = reverse("scoring:player_merge", kwargs={"player_id": keep.pk})
    assert client.post(address, {"record": merge.pk, "reason": "mine now"}).status_code == 403
    assert row_counts() == before
    assert Player.objects.filter(pk=merge.pk).exists()
    with pytest.raises(PermissionDenied):
        services.player_merge(keep=keep, merge=merge, user=world["outsider"])


def test_a_merge_is_undone_from_the_league_log(client, world):
    keep, merge, night2 = world["keep"], world["merge"], world["nights"][1]
    moved = Entry.objects.get(player=merge)
    standings = reverse("scoring:standings", kwargs={"slug": night2.slug})
    client.force_login(world["director"])
    merged = client.post(
        reverse("scoring:player_merge", kwargs={"player_id": keep.pk}), {"record": merge.pk, "reason": "one"}
    )
    assert merged.status_code == 302
    assert "Ann Reid" in client.get(standings).content.decode()
    assert not Player.objects.filter(pk=merge.pk).exists()

    log = client.get(reverse("scoring:league_log")).content.decode()
    assert "Undo this merge" in log
    entry = AuditEntry.objects.filter(action="kalooki.player.merged").latest("pk")
    undo = reverse("scoring:player_unmerge", kwargs={"player_id": keep.pk})

    # An organiser of another event may not undo it either: no button, and 403 if posted.
    client.force_login(world["outsider"])
    assert "Undo this merge" not in client.get(reverse("scoring:league_log")).content.decode()
    before = row_counts()
    assert client.post(undo, {"entry": entry.pk, "reason": "no"}).status_code == 403
    assert row_counts() == before

    client.force_login(world["director"])
    response = client.post(undo, {"entry": entry.pk, "reason": "two people after all"})
    assert response.status_code == 302
    back = Player.objects.get(pk=merge.pk)
    assert (back.name, back.club, back.membership_id) == ("Annie Reid", merge.club, merge.membership_id)
    moved_back = Entry.objects.get(pk=moved.pk)
    assert (moved_back.player_id, moved_back.normalized_name) == (merge.pk, moved.normalized_name)
    assert Entry.objects.filter(player=keep).count() == 1
    page = client.get(standings).content.decode()
    assert "Annie Reid" in page and "Ann Reid" not in page.replace("Annie Reid", "")
    undone = AuditEntry.objects.get(action="kalooki.player.unmerged")
    assert undone.after["undoes"] == entry.pk and undone.reason == "two people after all"
    # Undone once: a second undo is refused and the button is gone.
    assert client.post(undo, {"entry": entry.pk, "reason": "again"}).status_code == 400
    assert "Undo this merge" not in client.get(reverse("scoring:league_log")).content.decode()


def test_a_merge_takes_and_gives_back_the_membership_id(world):
    keep, merge = world["keep"], world["merge"]
    Player.objects.filter(pk=merge.pk).update(membership_id="JKA-9")
    services.player_merge(
        keep=Player.objects.get(pk=keep.pk), merge=Player.objects.get(pk=merge.pk), user=world["director"]
    )
    assert Player.objects.get(pk=keep.pk).membership_id == "JKA-9"
    entry = AuditEntry.objects.get(action="kalooki.player.merged")
    player_merge_undo(entry=entry, user=world["director"])
    assert Player.objects.get(pk=keep.pk).membership_id == ""
    assert Player.objects.get(pk=merge.pk).membership_id == "JKA-9"


def test_the_league_log_shows_season_and_merge_entries_to_organisers_only(client, world, django_user_model):
    services.season_update(season=world["season"], user=world["director"], name="Winter League 2026")
    services.player_merge(keep=world["keep"], merge=world["merge"], user=world["director"], reason="same")
    address = reverse("scoring:league_log")
    assert client.get(address).status_code == 302  # log in first
    plain = django_user_model.objects.create_user("plain-director", password="pw-plain-1")
    client.force_login(plain)
    assert client.get(address).status_code == 403
    client.force_login(world["outsider"])
    response = client.get(address)
    assert response.status_code == 200
    page = response.content.decode()
    assert "kalooki.season.created" in page and "kalooki.season.changed" in page
    assert "Winter League 2026" in page
    # The merge was logged in each of the two events whose entry moved; the league log shows it once.
    assert page.count("<strong>kalooki.player.merged</strong>") == 1
