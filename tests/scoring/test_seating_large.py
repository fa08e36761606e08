"""Seating a tournament-sized round (issue 6: 1,024 players, 256 tables) on every database, SQLite
included, whose expression depth limit a per-row OR of 1,024 terms used to exceed."""

from __future__ import annotations

import pytest

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, GameSet, Player, Round, Seat, Table
from scoring.names import name_key

PLAYERS = 1024


@pytest.fixture
def big_event(event):
    people = Player.objects.bulk_create(
        Player(name=f"Player {number:04d}", club=f"Club {number % 16}") for number in range(PLAYERS)
    )
    Entry.objects.bulk_create(
        Entry(event=event, player=person, normalized_name=name_key(person.name)) for person in people
    )
    return event


def _tables(rnd):
    """Who sits where, table by table, clockwise."""
    plan: dict[int, list[str]] = {}
    seats = Seat.objects.filter(round=rnd).order_by("table__number", "position")
    for number, name in seats.values_list("table__number", "entry__player__name"):
        plan.setdefault(number, []).append(name)
    return plan


@pytest.mark.parametrize("method", [Round.Method.RANDOM, Round.Method.STANDINGS])
def test_a_round_of_256_tables_is_seated_and_audited(big_event, director, method):
    rnd = services.round_create(event=big_event, user=director)
    services.round_seat(round=rnd, user=director, seed=7, method=method)
    assert Table.objects.filter(round=rnd).count() == PLAYERS // 4
    assert GameSet.objects.filter(table__round=rnd).count() == PLAYERS // 4
    assert Seat.objects.filter(round=rnd).values("entry").distinct().count() == PLAYERS
    logged = AuditEntry.objects.get(action="kalooki.round.seated")
    tables = logged.after["tables"]
    assert [table["table"] for table in tables] == list(range(1, PLAYERS // 4 + 1))
    first = Table.objects.get(round=rnd, number=1)
    assert tables[0] == {
        "table": 1,
        "first_dealer": first.first_dealer,
        "players": [seat.entry.player.name for seat in first.seats.order_by("position")],
    }


def test_a_large_round_is_drawn_again_from_its_seed(big_event, director):
    rnd = services.round_create(event=big_event, user=director)
    services.round_seat(round=rnd, user=director, seed=3)
    drawn = _tables(rnd)
    services.round_seat(round=rnd, user=director, seed=4)
    assert _tables(rnd) != drawn
    services.round_seat(round=rnd, user=director, seed=3)
    assert _tables(rnd) == drawn
    redrawn = AuditEntry.objects.filter(action="kalooki.round.seated").order_by("-pk").first()
    assert len(redrawn.before["tables"]) == PLAYERS // 4
    assert Table.objects.filter(round=rnd).count() == PLAYERS // 4


def test_seating_256_tables_writes_in_bulk_not_a_row_at_a_time(
    big_event, director, django_assert_max_num_queries
):
    rnd = services.round_create(event=big_event, user=director)
    # Three bulk inserts (more statements only where SQLite's parameter limit splits a batch) instead
    # of three per table.
    with django_assert_max_num_queries(40):
        services.round_seat(round=rnd, user=director, seed=1)
