"""Every event's official places read together for the ratings are the places its own standings give:
a cumulative event with an open third round and a reopened set, a knock-out event, an event with no
counted set and a British night, read at once and each compared with `event_standings` row for row.
The standings the ratings derive from their own read of the counted sets (`rated_sets`) are the
event's own too, row for row: random events with ties under every tie-break chain, and an event where
each tie-break decides a place."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from scoring import services
from scoring.models import DEFAULT_TIEBREAKS, TIEBREAKS, DealResult, Event
from scoring.selectors.ratings import closed_rounds, event_places, rated_sets
from scoring.selectors.standings import event_standings, official_places
from tests.conftest import entered, nine
from tests.scoring.game_seam_support import GAME_TO_BOB, record_hands, verify_game
from tests.scoring.test_standings_oracle import build_random_event

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


# --- the places the ratings derive from their own read of the sets ---------------------------------


def own_standings(event):
    """The event's official standings rows (with ids) as its standings page's selector gives them, and
    as the places of every event are read together (`official_places`): the two must agree."""
    rows = event_standings(event, with_ids=True, final_only=True)
    rounds = list(closed_rounds(Event.objects.filter(pk=event.pk)).values_list("pk", flat=True))
    assert official_places([event], {event.pk: rounds})[event.pk] == rows
    return rows


def derived_standings(event):
    """The standings rows the ratings derive from the read of the event's counted sets, nothing kept."""
    cache.clear()
    return rated_sets(Event.objects.filter(pk=event.pk)).standings[event.pk]


@pytest.mark.parametrize("knockout", [False, True], ids=["cumulative", "knockout"])
@pytest.mark.parametrize("seed", range(4))
def test_the_standings_derived_from_the_rated_sets_are_the_events_own(make_event, make_table, seed, knockout):
    # Random events (tests/scoring/test_standings_oracle.py): small scores, so totals tie and set wins
    # are shared; void deals, unfinished sets, open rounds, a reopened set; a random tie-break chain.
    event = build_random_event(make_event, make_table, seed=seed, knockout=knockout)
    assert derived_standings(event) == own_standings(event)


@pytest.mark.parametrize("chain", [[key] for key in TIEBREAKS] + [list(reversed(DEFAULT_TIEBREAKS))])
def test_each_tie_break_orders_the_derived_standings_as_the_events_own(make_event, make_table, chain):
    event = build_random_event(make_event, make_table, seed=7, knockout=False)
    Event.objects.filter(pk=event.pk).update(tiebreaks=chain)
    event.refresh_from_db()
    rows = derived_standings(event)
    assert rows == own_standings(event)
    assert len(chain) > 1 or any(row["shared"] for row in rows)  # one tie-break alone leaves ties


def sheet(players):
    """Nine deals of a table from each player's (total, worst deal, deals went out in, of them doubled);
    a player pays nothing in a deal they went out in."""
    deals = []
    for number in range(1, 10):
        (out,) = [name for name, (_, _, outs, _) in players.items() if number in outs]
        deals.append((out, number in players[out][3], {}))
    for name, (total, worst, _, _) in players.items():
        for out, _, paid in deals:
            paid[name] = 0 if out == name else min(worst, total - sum(d[2].get(name, 0) for d in deals))
        assert sum(d[2][name] for d in deals) == total
    return deals


def test_every_tie_break_decides_a_place_in_the_derived_standings(make_event, make_table, play_set):
    event = make_event(name="Each tie-break", slug="each-tie-break")
    rnd = services.round_create(event=event, user=None)
    tables = {
        # Ann and Eve tie on 20: Ann won her set. Bob and Gus tie on 50, no set won: Bob went out twice.
        ("Ann", "Bob", "Cy", "Dee"): {
            "Ann": (20, 20, [1, 2, 3, 8, 9], []),
            "Bob": (50, 30, [4, 5], []),
            "Cy": (70, 40, [6], [6]),
            "Dee": (90, 60, [7], []),
        },
        # Cy and Hal tie on 70 and one deal won: Cy's was doubled.
        ("Eve", "Fay", "Gus", "Hal"): {
            "Eve": (20, 10, [], []),
            "Fay": (10, 10, [1, 2, 3, 6, 7, 8, 9], []),
            "Gus": (50, 30, [4], []),
            "Hal": (70, 40, [5], []),
        },
        # Dee and Jon tie on 90 and one deal won, none doubled: Jon's worst deal is the smaller. Kim and
        # Lou tie on everything: they share a place.
        ("Ivy", "Jon", "Kim", "Lou"): {
            "Ivy": (5, 5, [1, 2, 3, 4, 5, 6], []),
            "Jon": (90, 45, [7], []),
            "Kim": (100, 50, [8], []),
            "Lou": (100, 50, [9], []),
        },
    }
    for names, players in tables.items():
        play_set(make_table(rnd, list(names)), sheet(players))
    rows = derived_standings(event)
    assert rows == own_standings(event)
    order = [(row["player"], row["place"], row["shared"]) for row in rows]
    assert order == [
        ("Ivy", 1, False), ("Fay", 2, False), ("Ann", 3, False), ("Eve", 4, False), ("Bob", 5, False),
        ("Gus", 6, False), ("Cy", 7, False), ("Hal", 8, False), ("Jon", 9, False), ("Dee", 10, False),
        ("Kim", 11, True), ("Lou", 11, True),
    ]  # fmt: skip


def test_results_of_a_player_without_a_seat_at_the_table_count_in_the_derived_standings_as_in_the_own(
    make_event, make_table, play_set, director
):
    # The app writes results for the seated players alone; the standings count whatever results a
    # counted set holds, and so do the standings the ratings derive (without rating the unseated).
    event = make_event(name="Stray results", slug="stray-results")
    rnd = services.round_create(event=event, user=None)
    game_set = play_set(make_table(rnd, EIGHT[:4]), nine({"Ann": 40, "Bob": 30, "Cy": 50, "Dee": 60}))
    zed = entered(event, ["Zed"], director)["Zed"]
    DealResult.objects.create(deal=game_set.deals.order_by("sequence").first(), entry=zed, penalty=5)
    rows = derived_standings(event)
    assert rows == own_standings(event)
    assert [row["player"] for row in rows] == ["Zed", "Bob", "Ann", "Cy", "Dee"]
    cache.clear()
    assert [len(match.players) for match in rated_sets(Event.objects.filter(pk=event.pk)).matches] == [4]
