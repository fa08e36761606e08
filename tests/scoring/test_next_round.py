"""Seating the next round (issue 10, part 6): by standings while an earlier round still has a table to
verify, the director confirms, is told which tables are open, and the audit log records it; a round is
public only once seated; two "add a round" clicks at once add one round and the second is told so."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Round
from tests.races import ON_POSTGRES, run_threads

OTHERS = ("Eve", "Fay", "Gus", "Hal")


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def round_one(round1, make_table, director, example_sheet, rename_sheet):
    """Round 1 with two tables played: table 1 verified, table 2 still to verify."""
    first = make_table(round1, ("Ann", "Bob", "Cy", "Dee"))
    second = make_table(round1, OTHERS)
    services.sheet_import(game_set=first, user=director, data=example_sheet)
    services.set_verify(game_set=first, user=director)
    services.sheet_import(game_set=second, user=director, data=rename_sheet(example_sheet, OTHERS))
    return round1


def seat_url(event, number):
    return reverse("scoring:direct_round_seat", kwargs={"slug": event.slug, "number": number})


# --- confirmation -------------------------------------------------------------------------------


def test_seating_by_standings_over_an_open_round_needs_confirming(round_one, director):
    event = round_one.event
    round2 = services.round_create(event=event, user=director)
    with pytest.raises(services.OpenRoundsNotConfirmed) as refused:
        services.round_seat(round=round2, user=director, seed=1, method=Round.Method.STANDINGS)
    assert refused.value.open_tables == {1: [2]}
    assert "round 1: table 2" in refused.value.messages[0]
    assert not round2.tables.exists()
    services.round_seat(round=round2, user=director, seed=1, method=Round.Method.STANDINGS, confirm_open=True)
    assert round2.tables.count() == 2
    entry = AuditEntry.objects.get(action="kalooki.round.seated", object_id=str(round2.pk))
    assert entry.after["confirmed_open_tables"] == [{"round": 1, "tables": [2]}]
    assert "round 1 table 2 not verified" in entry.reason and "confirmed" in entry.reason


def test_seating_after_every_table_is_verified_needs_no_confirmation(round_one, director):
    event = round_one.event
    second = round_one.tables.get(number=2).game_set
    services.set_verify(game_set=second, user=director)
    round2 = services.round_create(event=event, user=director)
    services.round_seat(round=round2, user=director, seed=1, method=Round.Method.STANDINGS)
    entry = AuditEntry.objects.get(action="kalooki.round.seated", object_id=str(round2.pk))
    assert "confirmed_open_tables" not in entry.after


def test_the_dashboard_asks_to_confirm_and_names_the_open_tables(as_director, round_one, director):
    event = round_one.event
    services.round_create(event=event, user=director)
    response = as_director.post(seat_url(event, 2), {"method": "standings", "seed": "5"})
    assert response.status_code == 400
    html = text(response)
    assert "round 1: table 2" in html
    assert 'name="confirm_open"' in html
    assert not Round.objects.get(event=event, number=2).tables.exists()
    response = as_director.post(
        seat_url(event, 2), {"method": "standings", "seed": "5", "confirm_open": "on"}, follow=True
    )
    assert response.status_code == 200
    assert "Round 2 seated" in text(response)
    assert "seated by the provisional standings, round 1 table 2 not verified" in text(response)
    assert Round.objects.get(event=event, number=2).tables.count() == 2
    assert AuditEntry.objects.filter(
        action="kalooki.round.seated", after__confirmed_open_tables__isnull=False
    )


# --- not public until seated --------------------------------------------------------------------


def test_a_round_not_yet_seated_is_not_public(client, round_one, director):
    event = round_one.event
    services.round_create(event=event, user=director)
    for name, kwargs in (("event", {}), ("standings", {})):
        html = text(client.get(reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})))
        assert "Round 1" in html
        assert "Round 2" not in html and "/r/2/" not in html and "round=2" not in html
    assert client.get(reverse("scoring:round", args=[event.slug, 2])).status_code == 404
    assert client.get(reverse("scoring:standings", args=[event.slug]) + "?round=2").status_code == 404
    assert client.get(reverse("scoring:seating", args=[event.slug, 2])).status_code == 404
    # Seated, it is its directors' until one of them publishes it (issue 24); then it is public.
    round2 = Round.objects.get(event=event, number=2)
    services.round_seat(round=round2, user=director, seed=1, method=Round.Method.RANDOM)
    assert client.get(reverse("scoring:round", args=[event.slug, 2])).status_code == 404
    assert client.get(reverse("scoring:seating", args=[event.slug, 2])).status_code == 404
    services.round_publish(round=round2, user=director)
    assert client.get(reverse("scoring:round", args=[event.slug, 2])).status_code == 200
    assert "Round 2" in text(client.get(reverse("scoring:event", args=[event.slug])))


# --- two "add a round" clicks at once -----------------------------------------------------------


def create_url(event):
    return reverse("scoring:direct_round_create", kwargs={"slug": event.slug})


def test_a_second_add_round_from_the_same_page_is_refused_with_a_message(as_director, round_one):
    event = round_one.event
    html = text(as_director.get(reverse("scoring:direct", kwargs={"slug": event.slug})))
    assert re.search(r'name="number" value="2"', html)
    first = as_director.post(create_url(event), {"number": "2"}, follow=True)
    assert "Round 2 added" in text(first)
    second = as_director.post(create_url(event), {"number": "2"}, follow=True)
    assert second.status_code == 200
    assert "Round 2 has already been added" in text(second)
    assert Round.objects.filter(event=event).count() == 2
    assert AuditEntry.objects.filter(action="kalooki.round.created", event=event).count() == 2


def test_the_service_refuses_a_round_number_taken(round_one, director):
    with pytest.raises(ValidationError, match="Round 1 has already been added"):
        services.round_create(event=round_one.event, user=director, number=1)


def _add_round_race(event, director, threads: int) -> list[str]:
    refused: list[str] = []

    def add(_index: int) -> None:
        try:
            services.round_create(event=event, user=director, number=2)
        except ValidationError as exc:
            refused.append(exc.messages[0])

    assert run_threads(threads, add) == []
    return refused


@pytest.mark.django_db(transaction=True)
def test_two_add_round_clicks_at_once_make_one_round(event, director):
    services.round_create(event=event, user=director)
    refused = _add_round_race(event, director, threads=2)
    assert Round.objects.filter(event=event).count() == 2
    assert len(refused) == 1 and "already been added" in refused[0]


@pytest.mark.postgres
@pytest.mark.skipif(not ON_POSTGRES, reason="needs PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_many_add_round_clicks_at_once_on_postgresql_make_one_round(event, director):
    assert connection.vendor == "postgresql"
    services.round_create(event=event, user=director)
    refused = _add_round_race(event, director, threads=8)
    assert Round.objects.filter(event=event).count() == 2
    assert len(refused) == 7 and all("already been added" in message for message in refused)


# --- which rounds ask, and which standings seat -------------------------------------------------


def _seated_tables(rnd) -> list[set[int]]:
    return [set(table.seats.values_list("entry_id", flat=True)) for table in rnd.tables.order_by("number")]


def test_a_closed_rounds_set_under_correction_does_not_ask(round_one, director):
    """Round 1 closed, then a set reopened for a correction: the round stays closed, so seating round 2
    by standings goes through without asking; the audit reason mentions the set being corrected."""
    event = round_one.event
    second = round_one.tables.get(number=2).game_set
    services.set_verify(game_set=second, user=director)
    round_one.refresh_from_db()
    assert round_one.is_closed
    services.set_reopen(game_set=second, user=director, reason="Deal 3 score miscopied")
    round2 = services.round_create(event=event, user=director)
    services.round_seat(round=round2, user=director, seed=1, method=Round.Method.STANDINGS)
    assert round2.tables.count() == 2
    entry = AuditEntry.objects.get(action="kalooki.round.seated", object_id=str(round2.pk))
    assert "confirmed_open_tables" not in entry.after
    assert "official standings" in entry.reason
    assert "round 1 table 2 being corrected" in entry.reason
    # Seated by the official standings (round 1 counts), best four together.
    official = [row["entry_id"] for row in services_standings(event, provisional=False)]
    assert _seated_tables(round2)[0] == set(official[:4])


def services_standings(event, *, provisional: bool) -> list[dict]:
    from scoring.selectors import standings_for_event

    return standings_for_event(event, provisional=provisional, with_ids=True)


@pytest.mark.parametrize("seed", [1, 2])
def test_seating_confirmed_over_an_open_round_uses_the_provisional_standings(round_one, director, seed):
    """Round 1 open (table 2 not verified): the official standings rank nobody, so seating by them
    would be a random draw. Confirmed, round 2 is seated by the provisional standings, and the audit
    entry says so."""
    event = round_one.event
    assert services_standings(event, provisional=False) == []
    provisional = [row["entry_id"] for row in services_standings(event, provisional=True)]
    assert len(provisional) == 8
    round2 = services.round_create(event=event, user=director)
    services.round_seat(
        round=round2, user=director, seed=seed, method=Round.Method.STANDINGS, confirm_open=True
    )
    assert _seated_tables(round2) == [set(provisional[:4]), set(provisional[4:])]
    entry = AuditEntry.objects.get(action="kalooki.round.seated", object_id=str(round2.pk))
    assert "seated by the provisional standings, round 1 table 2 not verified" in entry.reason
    assert entry.after["standings"] == "provisional"


def test_the_confirm_box_says_the_provisional_standings_seat(as_director, round_one, director):
    event = round_one.event
    services.round_create(event=event, user=director)
    html = text(as_director.post(seat_url(event, 2), {"method": "standings", "seed": "5"}))
    assert "provisional standings" in html
    assert "round 1: table 2" in html
