"""A British Kalooki event set up at /events/new/: a British preset and its parameters (the engine's
family data), knock-out or placement points — never cumulative —, and the database's bounds now the
ruleset's (a hand number past 9, a substitute from hand 12)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from scoring import services
from scoring.games import GAMES
from scoring.models import Event, Seat
from scoring.web.organise.forms import FAMILIES
from tests.scoring.web.organise.test_event_pages import NEW, posted_event


@pytest.fixture
def organiser(director):
    services.grant_organiser(director)
    return director


def test_the_form_offers_every_british_preset_and_parameter(client, organiser):
    client.force_login(organiser)
    page = client.get(NEW).content.decode()
    for preset in ("british", "british-swedish", "british-301", "british-501"):
        assert f'value="{preset}"' in page
    # Every family the engine knows is a game the app runs (scoring.games.GAMES).
    assert set(FAMILIES) == set(GAMES) == {"jamaican", "british", "north-american"}
    assert 'name="rules-british-limit"' in page and 'name="placement_points"' in page
    assert "Placement points (British)" in page


def test_an_organiser_creates_a_british_placement_event(client, organiser):
    client.force_login(organiser)
    response = client.post(
        NEW,
        posted_event(
            ruleset_preset="british-swedish",
            format="placement",
            placement_points="3, 2, 1, 0",
            **{"rules-british-buy_ins": "1"},
        ),
    )
    assert response.status_code == 302, response.content.decode()[:500]
    event = Event.objects.get(name="Montego Bay Open")
    assert (event.ruleset_preset, event.format, event.placement_points) == (
        "british-swedish",
        "placement",
        [3, 2, 1, 0],
    )
    assert event.rules_overrides == {"buy_ins": 1} and event.ruleset().limit == 100


def test_a_cumulative_british_event_is_refused_with_a_clear_message(client, organiser):
    client.force_login(organiser)
    response = client.post(NEW, posted_event(ruleset_preset="british", format="cumulative"))
    assert response.status_code == 400
    assert "A British Kalooki event cannot be cumulative" in response.content.decode()
    assert not Event.objects.filter(name="Montego Bay Open").exists()


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"ruleset_preset": "jamaican", "format": "placement"}, "format", "Placement points are for British"),
        ({"ruleset_preset": "british", "format": "knockout"}, "advance", "how many of each table go through"),
        (
            {"ruleset_preset": "british", "format": "placement", "placement_points": "3, x"},
            "placement_points",
            "Place 2",
        ),
        (
            {"ruleset_preset": "british", "format": "placement", "rules-british-max_hands": "5000"},
            "rules",
            "at most 1000 hands",
        ),
    ],
)
def test_what_a_family_and_a_format_refuse(client, organiser, changes, field, message):
    client.force_login(organiser)
    response = client.post(NEW, posted_event(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_service_refuses_a_cumulative_british_event(director):
    with pytest.raises(ValidationError) as caught:
        services.event_create(user=director, name="X", date_start="2026-12-05", ruleset_preset="british-501")
    assert "cannot be cumulative" in str(caught.value.message_dict["format"])


def test_hands_past_nine_and_substitutes_from_a_late_hand(make_event, make_table, make_entries, director):
    event = make_event(ruleset_preset="british-501", format="placement")
    game_set = make_table(services.round_create(event=event, user=director), ("Ann", "Bob"))
    for number in range(1, 13):
        services.deal_record(
            game_set=game_set,
            user=director,
            data={"deal": number, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 20}}},
        )
    assert game_set.deals.filter(number=12).exists()
    substitute = make_entries(event, ["Sue"])["Sue"]
    seat = Seat.objects.get(table=game_set.table, position=2)
    game_set.refresh_from_db()
    services.seat_substitute(
        seat=seat, user=director, substitute=substitute, from_deal=12, expected_version=game_set.version
    )
    seat.refresh_from_db()
    assert seat.substitute_from == 12
    game_set.refresh_from_db()
    with pytest.raises(ValidationError, match="from 1 to 200"):
        services.seat_substitute(
            seat=seat, user=director, substitute=substitute, from_deal=201, expected_version=game_set.version
        )


def test_a_jamaican_substitute_still_plays_from_deals_1_to_9(event, game_set, make_entries, director):
    substitute = make_entries(event, ["Sue"])["Sue"]
    seat = Seat.objects.get(table=game_set.table, position=2)
    with pytest.raises(ValidationError, match="from 1 to 9"):
        services.seat_substitute(
            seat=seat, user=director, substitute=substitute, from_deal=10, expected_version=game_set.version
        )
