"""Every event's official places read together for the ratings are the places its own standings give:
a cumulative event with an open third round and a reopened set, a knock-out event, an event with no
counted set and a British night, read at once and each compared with `event_standings` row for row."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from scoring import services
from scoring.models import Event
from scoring.selectors.ratings import event_places
from scoring.selectors.standings import event_standings
from tests.conftest import nine
from tests.scoring.game_seam_support import GAME_TO_BOB, record_hands, verify_game

pytestmark = [pytest.mark.django_db, pytest.mark.final_at_once]

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def play_round(event, director, make_table, play_set, scores, *, verified=True):
    rnd = services.round_create(event=event, user=director)
    tables = [make_table(rnd, EIGHT[:4]), make_table(rnd, EIGHT[4:])]
    for game_set, offset in zip(tables, (0, 4), strict=True):
        play_set(
            game_set, nine({name: scores[name] for name in EIGHT[offset : offset + 4]}), verified=verified
        )
    return tables


def test_the_places_read_together_are_each_events_own(make_event, director, make_table, play_set):
    # A set of a final round is reopened below: an organiser's to do.
    services.grant_organiser(director)
    cumulative = make_event(name="Cumulative", slug="cumulative")
    first = dict(zip(EIGHT, [40, 40, 90, 10, 55, 60, 20, 80], strict=True))
    second = dict(zip(EIGHT, [30, 50, 50, 70, 25, 60, 90, 10], strict=True))
    play_round(cumulative, director, make_table, play_set, first)
    reopened = play_round(cumulative, director, make_table, play_set, second)[0]
    services.set_reopen(game_set=reopened, user=director, reason="a misread deal")
    play_round(cumulative, director, make_table, play_set, first, verified=False)  # round 3 still open
    knockout = make_event(name="Knock-out", slug="knock-out", format="knockout", advance=2)
    play_round(knockout, director, make_table, play_set, first)
    rnd = services.round_create(event=knockout, user=director)
    play_set(
        make_table(rnd, ["Ann", "Dee", "Gus", "Eve"]), nine({"Ann": 30, "Dee": 20, "Gus": 20, "Eve": 60})
    )
    empty = make_event(name="Nothing counted", slug="nothing")
    play_round(empty, director, make_table, play_set, first, verified=False)
    british = make_event(name="British", slug="british", ruleset_preset="british-swedish", format="placement")
    game = make_table(services.round_create(event=british, user=director), ["Ann", "Bob", "Cy"])
    verify_game(record_hands(game, director, GAME_TO_BOB), director)

    cache.clear()
    events = list(Event.objects.order_by("pk"))
    together = {item.event_id: item.rows for item in event_places(events)}
    for event in events:
        own = [
            (row["player_id"], row["entry_id"], row["place"], row["shared"])
            for row in event_standings(event, with_ids=True)
        ]
        assert together[event.pk] == own, event.name
    assert len(together[cumulative.pk]) == 8 and together[empty.pk] == []
    assert len(together[knockout.pk]) == 8 and len(together[british.pk]) == 3
    # Kept: read again, they come from the cache unchanged.
    assert {item.event_id: item.rows for item in event_places(events)} == together
