"""An event set up without the Django admin (issue 11): organisers create, change and clone events from
the site's pages; the rules fields take the engine's messages; the ranking rules freeze at the first
result; `create_director --organiser` and the demo grant the permission; a log-in lands on the desk."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, Event

NEW = "/events/new/"


@pytest.fixture
def organiser(director):
    services.grant_organiser(director)
    return director


def posted_event(**changes) -> dict[str, str]:
    data = {
        "name": "Montego Bay Open",
        "slug": "",
        "date_start": "2026-12-05",
        "date_end": "",
        "venue": "Montego Bay",
        "ruleset_preset": "jamaican",
        "format": "cumulative",
        "advance": "",
        "paper": "A4",
        "entry_mode": "fast",
        "tiebreak_1": "total",
        "tiebreak_2": "sets_won",
    }
    data.update(changes)
    return data


def settings_url(event) -> str:
    return reverse("scoring:event_settings", kwargs={"slug": event.slug})


def test_an_organiser_creates_an_event_and_directs_it(client, organiser):
    client.force_login(organiser)
    page = client.get(NEW)
    assert page.status_code == 200
    assert 'name="rules-jamaican-call_limit"' in page.content.decode()
    assert 'name="rules-british-limit"' in page.content.decode()  # every family's parameters
    response = client.post(NEW, posted_event(**{"rules-jamaican-call_limit": "2"}))
    assert response.status_code == 302
    event = Event.objects.get(slug="montego-bay-open")
    assert response["Location"] == reverse("scoring:direct", kwargs={"slug": event.slug})
    assert event.rules_overrides == {"call_limit": 2}
    assert event.tiebreaks == ["total", "sets_won"]
    assert event.entry_mode == "fast"
    assert event.is_director(organiser)
    assert AuditEntry.objects.filter(action="kalooki.event.created", event_id=event.pk).count() == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rules-jamaican-call_limit", "-1", "expected a whole number of at least 0, got -1"),
        ("rules-jamaican-call_limit", "three", "expected a whole number, got 'three'"),
        ("rules-jamaican-card_values-joker", "x", "expected a whole number, got 'x'"),
        ("rules-jamaican-bend_bonus", "-50", "scores are never negative (R14)"),
        ("rules-jamaican-void_redeal", "later", 'expected "same" or "next"'),
        ("rules-jamaican-schedule", "9 333, 10 334", "expected 9 [deal size, contract] pairs"),
    ],
)
def test_a_bad_rule_gets_the_engines_message_beside_its_field(client, organiser, field, value, message):
    client.force_login(organiser)
    before = Event.objects.count()
    response = client.post(NEW, posted_event(**{field: value}))
    assert response.status_code == 400
    form = response.context["form"]
    assert any(message in error for error in form.errors[field]), form.errors
    assert Event.objects.count() == before


def test_only_the_chosen_familys_parameters_are_read(client, organiser):
    client.force_login(organiser)
    response = client.post(
        NEW,
        posted_event(
            ruleset_preset="british",
            format="placement",
            **{"rules-british-limit": "201", "rules-jamaican-call_limit": "9"},
        ),
    )
    assert response.status_code == 302
    assert Event.objects.get(slug="montego-bay-open").rules_overrides == {"limit": 201}


def test_a_parameter_the_preset_leaves_unset_is_read_as_a_number(client, organiser):
    # The North American preset sets no number of hands and no game sets a preferred table size: both
    # typed on the form are numbers, not text the engine refuses.
    client.force_login(organiser)
    response = client.post(
        NEW,
        posted_event(
            ruleset_preset="north-american",
            format="placement",
            **{"rules-north-american-hands": "3", "rules-north-american-table_size": "6"},
        ),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Event.objects.get(slug="montego-bay-open").rules_overrides == {"hands": 3, "table_size": 6}


def test_a_knockout_needs_its_advance_and_a_chain_names_each_key_once(client, organiser):
    client.force_login(organiser)
    response = client.post(NEW, posted_event(format="knockout", tiebreak_2="total"))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "A tie-break is listed twice." in errors["tiebreak_2"]
    response = client.post(NEW, posted_event(format="knockout"))
    assert "A knock-out event needs how many" in " ".join(response.context["form"].errors["advance"])


def test_settings_are_changed_until_the_first_result_then_the_ranking_rules_are_frozen(
    client, organiser, event, played
):
    client.force_login(organiser)
    event.refresh_from_db()
    page = client.get(settings_url(event))
    body = page.content.decode()
    assert "results have been recorded for this event" in body
    form = page.context["form"]
    assert form.fields["ruleset_preset"].disabled and form.fields["tiebreak_1"].disabled
    assert not form.fields["venue"].disabled
    data = posted_event(
        name=event.name, slug=event.slug, venue="New Kingston", version=str(event.version),
        ruleset_preset="jamaican-large", tiebreak_1="deals_won", **{"rules-jamaican-call_limit": "1"},
    )  # fmt: skip
    data["directors"] = [str(organiser.pk)]
    response = client.post(settings_url(event), data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.venue == "New Kingston"
    # The frozen fields kept their values: a disabled field reads its initial value, whatever is posted.
    assert (event.ruleset_preset, event.rules_overrides, event.tiebreaks[0]) == ("jamaican", {}, "total")


def test_settings_change_the_ranking_rules_before_any_result(client, organiser, event):
    client.force_login(organiser)
    data = posted_event(name=event.name, slug=event.slug, version=str(event.version), tiebreak_1="deals_won")
    data["directors"] = [str(organiser.pk)]
    assert client.post(settings_url(event), data).status_code == 302
    event.refresh_from_db()
    assert event.tiebreaks[0] == "deals_won"
    stale = client.post(settings_url(event), {**data, "version": str(event.version - 1), "venue": "X"})
    assert stale.status_code == 409


def test_an_event_is_cloned_with_its_settings_directors_and_players(client, organiser, event, entries):
    client.force_login(organiser)
    url = reverse("scoring:event_clone", kwargs={"slug": event.slug})
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Test Open II", "date_start": "2027-01-09", "with_players": "on"})
    assert response.status_code == 302
    clone = Event.objects.get(slug="test-open-ii")
    assert (clone.ruleset_preset, clone.tiebreaks, clone.paper) == (
        event.ruleset_preset,
        event.tiebreaks,
        event.paper,
    )
    assert list(clone.directors.all()) == list(event.directors.all())
    assert sorted(Entry.objects.filter(event=clone).values_list("player__name", flat=True)) == sorted(entries)
    assert not clone.rounds.exists()
    without = services.event_clone(event=event, user=organiser, name="Bare", date_start=date(2027, 2, 1))
    assert not Entry.objects.filter(event=without).exists()


def test_a_clone_with_a_taken_address_is_refused_beside_it(client, organiser, event):
    client.force_login(organiser)
    url = reverse("scoring:event_clone", kwargs={"slug": event.slug})
    response = client.post(url, {"name": "Again", "slug": event.slug, "date_start": "2027-01-09"})
    assert response.status_code == 400
    assert response.context["form"].errors["slug"]


def test_who_may_set_events_up(client, director, event, stranger, make_event):
    # A director without the permission directs, but does not set up.
    client.force_login(director)
    assert client.get(NEW).status_code == 403
    assert client.get(settings_url(event)).status_code == 403
    services.grant_organiser(stranger)
    client.force_login(stranger)
    assert client.get(NEW).status_code == 200
    assert client.get(settings_url(event)).status_code == 403  # an organiser of other events
    client.logout()
    assert client.get(NEW).status_code == 302


def test_create_director_organiser_grants_the_permission(db, event):
    call_command(
        "create_director", "org", "--event", event.slug, "--password", "a-long-pass-phrase-9", "--organiser"
    )
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="org")
    assert user.has_perm("scoring.organise_events")
    assert Permission.objects.filter(codename="organise_events").exists()


def test_the_demo_director_is_an_organiser(db, settings):
    settings.DEBUG = True
    call_command("load_demo")
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.get(username="demo-director").has_perm("scoring.organise_events")


def test_a_login_lands_on_the_directors_event(client, director, event, make_event, stranger):
    client.force_login(director)
    assert client.get("/desk/")["Location"] == reverse("scoring:direct", kwargs={"slug": event.slug})
    client.force_login(stranger)
    assert client.get("/desk/")["Location"] == reverse("scoring:home")
    response = client.post("/accounts/login/", {"username": "director", "password": "secret-director-pw"})
    assert response["Location"] == "/desk/"
