"""Each set's stored sums (`SetSums`): written with every change to the set, at its new version, always
equal to its results summed; the standings and the ratings read them while they are of the set's version
and sum the results of any other set themselves; the migration that added them summed every existing
set."""

from __future__ import annotations

import copy

import pytest
from django.core.cache import cache
from django.db import connection

from adjudication import services as rulings
from scoring import services
from scoring.models import Event, GameSet, Round, SetSums
from scoring.selectors.ratings import rated_sets
from scoring.selectors.set_sums import sums_sql
from scoring.selectors.standings import official_places, standings
from scoring.services.guards import store_sums_of_sets
from tests.conftest import FOUR, migrated_to, new_event, nine, played_deals, seated_table

pytestmark = pytest.mark.final_at_once


def sums_of_sets(set_ids: list[int]) -> list[tuple[int, ...]]:
    """The sets' sums as their results give them now (the yardstick), by set and entry."""
    if not set_ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(sums_sql(", ".join(["%s"] * len(set_ids))) + " ORDER BY 1, 2", list(set_ids))
        return cursor.fetchall()


def stored(game_set: GameSet) -> list[tuple[int, ...]]:
    """The set's stored sums of its current version: those a read takes."""
    game_set.refresh_from_db()
    rows = SetSums.objects.filter(game_set=game_set, set_version=game_set.version).order_by("entry_id")
    return [
        (row.game_set_id, row.entry_id, row.total, row.worst, row.deals, row.won, row.doubled) for row in rows
    ]


def assert_current(game_set: GameSet) -> None:
    """The set's stored sums of its version are its results summed now."""
    assert stored(game_set) == [tuple(row) for row in sums_of_sets([game_set.pk])]


def test_every_change_to_a_set_leaves_its_sums_equal_to_its_results(
    game_set, director, example_sheet, entries
):
    for data in example_sheet["deals"][:5]:
        services.deal_record(game_set=game_set, user=director, data=data)
        assert_current(game_set)
    assert len(stored(game_set)) == 4
    # A deal corrected: another player went out, the scores moved.
    first = game_set.deals.get(sequence=1)
    corrected = copy.deepcopy(example_sheet["deals"][0])
    services.deal_record(game_set=game_set, user=director, data=corrected | {"void": True}, deal=first)
    assert_current(game_set)
    # A ruling adds 10 to Bob's deal 2; overturned, it comes off again.
    deal = game_set.deals.get(sequence=2)
    before = stored(game_set)
    ruling = rulings.ruling_issue(
        deal=deal, entry=entries["Bob"], user=director, kind="other", points=10, reason="looked at a card"
    )
    assert_current(game_set)
    assert stored(game_set) != before
    rulings.ruling_appeal(ruling=ruling, user=director, reason="Bob says he did not")
    rulings.ruling_decide(ruling=ruling, user=director, decision="overturned", reason="no one saw the card")
    assert_current(game_set)
    assert stored(game_set) == before
    # A deal deleted, then the whole sheet imported over the set.
    services.deal_delete(deal=game_set.deals.get(sequence=3), user=director, reason="typed twice")
    assert_current(game_set)
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    assert_current(game_set)
    assert sorted(row[4] for row in stored(game_set)) == [9, 9, 9, 9]
    # Every deal deleted: no one has results, and no row is of the set's version any more.
    for deal in list(game_set.deals.order_by("-sequence")):
        services.deal_delete(deal=deal, user=director, reason="wrong table")
    assert stored(game_set) == [] == sums_of_sets([game_set.pk])
    assert SetSums.objects.filter(game_set=game_set).count() == 4  # kept, of an older version


def test_the_ratings_read_current_sums_and_sum_every_other_set_themselves(event, round1, director, played):
    other = seated_table(round1, ("Eve", "Fay", "Gus", "Hal"), director, number=2)
    played_deals(other, nine({"Eve": 10, "Fay": 20, "Gus": 30, "Hal": 40}))  # no sums: written directly
    services.set_verify(game_set=played, user=director)
    assert round1.__class__.objects.get(pk=round1.pk).closed_at is not None
    assert SetSums.objects.filter(game_set=played).exists() and not SetSums.objects.filter(game_set=other)

    def matches():
        cache.clear()  # each event's read is kept by its results stamp, which these writes leave alone
        return [(match.players, match.ranks) for match in rated_sets().matches]

    read = matches()
    assert len(read) == 2
    # Summed from the results when nothing is stored: the same matches.
    kept = list(SetSums.objects.all())
    SetSums.objects.all().delete()
    assert matches() == read
    # Sums of an older version are passed over, whatever they say.
    played.refresh_from_db()
    for row in kept:
        row.pk, row.set_version, row.total = None, played.version - 1, 1000 - row.total
    SetSums.objects.bulk_create(kept)
    assert matches() == read
    # Sums of the set's version are what is read: turned upside down, they turn its ranks over.
    SetSums.objects.filter(game_set=played).update(set_version=played.version)
    turned = matches()
    assert turned != read
    assert [ranks for _, ranks in turned if ranks not in [ranks for _, ranks in read]]


VIEWS = ("official", "provisional", "one round", "several events at once")


def standings_rows(event: Event, view: str) -> list[tuple]:
    """The event's standings in `view`: who, total, sets won, deals, place."""
    event = Event.objects.get(pk=event.pk)
    if view == "several events at once":  # as the ratings read other events' places
        rounds = {event.pk: [rnd.pk for rnd in Round.objects.filter(event=event)]}
        rows = official_places([event], rounds)[event.pk]
    else:
        options = {"official": {}, "provisional": {"provisional": True}, "one round": {"round_number": 1}}
        rows = standings(event, **options[view]).rows
    return [(row["player"], row["total"], row["sets_won"], row["deals"], row["place"]) for row in rows]


@pytest.mark.parametrize("view", VIEWS)
def test_the_standings_read_current_sums_and_sum_every_other_set_themselves(
    event, round1, director, played, view
):
    other = seated_table(round1, ("Eve", "Fay", "Gus", "Hal"), director, number=2)
    played_deals(other, nine({"Eve": 10, "Fay": 20, "Gus": 30, "Hal": 40}))  # no sums: written directly
    services.set_verify(game_set=played, user=director)
    assert SetSums.objects.filter(game_set=played).exists() and not SetSums.objects.filter(game_set=other)
    read = standings_rows(event, view)
    eve = next(row for row in read if row[0] == "Eve")
    assert len(read) == 8 and eve[1:4] == (10, 1, 9)  # total, sets won, deals
    # Summed from the results when nothing is stored: the same standings.
    kept = list(SetSums.objects.all())
    SetSums.objects.all().delete()
    assert standings_rows(event, view) == read
    # Sums of an older version are passed over, whatever they say.
    played.refresh_from_db()
    for row in kept:
        row.pk, row.set_version, row.total = None, played.version - 1, 1000 - row.total
    SetSums.objects.bulk_create(kept)
    assert standings_rows(event, view) == read
    # Sums of the set's version are what is read: turned upside down, they are the totals shown.
    SetSums.objects.filter(game_set=played).update(set_version=played.version)
    turned = {row[0]: row[1] for row in standings_rows(event, view)}
    assert {name: turned[name] for name in FOUR} == {
        name: 1000 - total for name, total, *_ in read if name in FOUR
    }
    assert {name: turned[name] for name in ("Eve", "Fay", "Gus", "Hal")} == {
        "Eve": 10, "Fay": 20, "Gus": 30, "Hal": 40
    }  # fmt: skip


def test_a_bulk_load_stores_the_sums_of_all_its_sets_at_each_sets_version(round1, director, played):
    tables = [
        seated_table(round1, names, director, number=number)
        for number, names in ((2, ("Eve", "Fay", "Gus", "Hal")), (3, ("Ivy", "Jo", "Kit", "Lee")))
    ]
    for game_set, scores in zip(
        tables,
        ({"Eve": 10, "Fay": 20, "Gus": 30, "Hal": 40}, {"Ivy": 5, "Jo": 0, "Kit": 9, "Lee": 7}),
        strict=True,
    ):
        played_deals(game_set, nine(scores), verified=False)
    GameSet.objects.filter(pk=tables[1].pk).update(version=7)
    assert all(stored(game_set) == [] for game_set in tables)
    store_sums_of_sets(GameSet.objects.filter(table__round=round1))
    for game_set in (played, *tables):
        assert stored(game_set) and assert_current(game_set) is None
    assert set(SetSums.objects.filter(game_set=tables[1]).values_list("set_version", flat=True)) == {7}


@pytest.mark.django_db(transaction=True)
def test_the_migration_sums_every_set_at_its_version(director, back_to_the_latest, example_sheet):
    game_set = seated_table(
        services.round_create(event=new_event(director, name="Old Open"), user=director), FOUR, director
    )
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    game_set.refresh_from_db()
    expected = [tuple(row) for row in sums_of_sets([game_set.pk])]

    migrated_to([("scoring", "0025_self_entry_after_the_set")])
    migrated_to([("scoring", "0026_set_sums")])
    assert stored(game_set) == expected
    assert set(SetSums.objects.values_list("set_version", flat=True)) == {game_set.version}
