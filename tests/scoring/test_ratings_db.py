"""Ratings through the database: counted sets read from the stored results, rated from the start, stored
and computed again when the results change; who is who across events; merging two records of one person."""

from __future__ import annotations

import copy
from datetime import date

import pytest
from django.core.exceptions import ValidationError
from openskill.models import BradleyTerryFull

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, GameSet, Player, RatingList
from scoring.selectors.ratings import closed_rounds, rated_sets, unpack_history
from tests.conftest import nine

pytestmark = [pytest.mark.django_db, pytest.mark.final_at_once]


def rated(rating_list: RatingList) -> dict[str, tuple[float, float, int, int]]:
    return {row.player.name: (row.mu, row.sigma, row.sets, row.events) for row in rating_list.rows.all()}


def direct(tables) -> dict[str, tuple[float, float, int]]:
    """openskill called directly: each table's players in seat order with their ranks, in order."""
    model = BradleyTerryFull()
    people: dict = {}
    sets: dict[str, int] = {}
    for seats, ranks in tables:
        teams = [[people.get(name) or model.rating(name=name)] for name in seats]
        for name, (after,) in zip(seats, model.rate(teams, ranks=list(ranks)), strict=True):
            people[name] = after
            sets[name] = sets.get(name, 0) + 1
    return {name: (rating.mu, rating.sigma, sets[name]) for name, rating in people.items()}


@pytest.fixture
def series(make_event, director, make_table, play_set):
    """Two events sharing Ann, Cy and Eve. The later one is made first: dates order the matches.

    Night 2 (12 Dec), round 1: Ann Cy Eve Fay. Round 2: Gus enters late (from round 2), Fay has gone.
    Night 1 (5 Dec), round 1: Ann Bob Cy Dee with Bob and Cy sharing the lowest total; round 2 the
    other way round. Round 2 of night 2 has a second table still in play: that round is not closed.
    """
    night2 = make_event(name="Night 2", slug="night-2", date_start=date(2026, 12, 12))
    night1 = make_event(name="Night 1", slug="night-1", date_start=date(2026, 12, 5))
    first = services.round_create(event=night2, user=director)
    play_set(
        make_table(first, ["Ann", "Cy", "Eve", "Fay"]), nine({"Ann": 90, "Cy": 60, "Eve": 150, "Fay": 120})
    )
    second = services.round_create(event=night2, user=director)
    late = make_table(second, ["Gus", "Ann", "Cy", "Eve"])
    play_set(late, nine({"Gus": 40, "Ann": 70, "Cy": 95, "Eve": 70}))
    for seats, totals in [
        (["Ann", "Bob", "Cy", "Dee"], {"Ann": 120, "Bob": 80, "Cy": 80, "Dee": 200}),
        (["Dee", "Cy", "Bob", "Ann"], {"Dee": 30, "Cy": 75, "Bob": 160, "Ann": 75}),
    ]:
        rnd = services.round_create(event=night1, user=director)
        play_set(make_table(rnd, seats), nine(totals))
    return {"night1": night1, "night2": night2, "late": late}


EXPECTED_TABLES = [
    (("Ann", "Bob", "Cy", "Dee"), (3, 1, 1, 4)),
    (("Dee", "Cy", "Bob", "Ann"), (1, 2, 4, 2)),
    (("Ann", "Cy", "Eve", "Fay"), (2, 1, 4, 3)),
    (("Gus", "Ann", "Cy", "Eve"), (1, 2, 4, 2)),
]


def test_two_events_rated_through_the_database_match_openskill_called_directly(series):
    assert Entry.objects.get(event=series["night2"], player__name="Gus").first_round == 2
    rating_list = services.ratings_recompute()
    expected = direct(EXPECTED_TABLES)
    got = rated(rating_list)
    assert set(got) == set(expected)
    for name, (mu, sigma, sets) in expected.items():
        assert got[name][0] == mu  # stored as the double openskill gave: exactly
        assert got[name][1] == sigma
        assert got[name][2] == sets
    assert {name: row[3] for name, row in got.items()} == {
        "Ann": 2, "Bob": 1, "Cy": 2, "Dee": 1, "Eve": 1, "Fay": 1, "Gus": 1,
    }  # fmt: skip
    # Best first by μ − 3σ.
    ordinals = [row.ordinal for row in rating_list.rows.order_by("position")]
    assert ordinals == sorted(ordinals, reverse=True)
    assert rating_list.sets == 4


def test_a_shared_lowest_total_is_a_shared_win(series):
    rated_ = rated(services.ratings_recompute())
    # Bob and Cy shared the lowest total at night 1's first table: after it they are equal.
    first = direct(EXPECTED_TABLES[:1])
    assert first["Bob"] == first["Cy"]
    assert first["Bob"][0] > first["Ann"][0] > first["Dee"][0]
    assert rated_["Bob"][:2] == direct(EXPECTED_TABLES[:2])["Bob"][:2]


def test_a_late_entrant_starts_from_the_default_at_their_first_set(series):
    history = rated_sets().matches
    assert [match.players for match in history][-1] == ("name:Gus", "name:Ann", "name:Cy", "name:Eve")
    row = services.ratings_recompute().rows.get(player__name="Gus")
    [(set_id, rank, players, mu, sigma)] = unpack_history(row.history)
    assert (set_id, rank, players) == (series["late"].pk, 1, 4)
    assert (mu, sigma) == (row.mu, row.sigma)


def test_a_round_counts_once_it_is_recorded_closed(series, make_event, director, make_table, play_set):
    night3 = make_event(name="Night 3", slug="night-3", date_start=date(2026, 12, 19))
    rnd = services.round_create(event=night3, user=director)
    first = make_table(rnd, ["Ann", "Bob", "Cy", "Dee"])
    second = make_table(rnd, ["Eve", "Fay", "Gus", "Hal"])
    play_set(first, nine({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}))
    # One table of two verified: the round is open and nothing of it is rated.
    assert not closed_rounds().filter(pk=rnd.pk).exists()
    assert rated(services.ratings_recompute()).keys() == direct(EXPECTED_TABLES).keys()
    # Every table verified but the closing not recorded (written past the services): still not rated,
    # closing is what counts, not a guess from the tables' status.
    play_set(second, nine({"Eve": 10, "Fay": 20, "Gus": 30, "Hal": 40}), verified=False)
    GameSet.objects.filter(pk=second.pk).update(status=GameSet.Status.VERIFIED, verified_at=first.verified_at)
    assert len(rated_sets().matches) == 4
    services.round_close_if_complete(round=rnd, user=director)
    assert closed_rounds().filter(pk=rnd.pk).exists()
    assert len(rated_sets().matches) == 6
    # Reopened for a correction, the set still counts: the round stays closed.
    # The round's results are final as it closes (no correction period): an organiser corrects them.
    services.grant_organiser(director)
    services.set_reopen(game_set=second, user=director, reason="Hal's deal 4 misread")
    assert len(rated_sets().matches) == 6


def test_a_closed_round_after_an_open_one_waits_for_it(series, make_table, play_set):
    """Round 2 closed while round 1 has a table open: the official standings count neither, nor do
    the ratings."""
    night1 = series["night1"]
    round1 = night1.rounds.get(number=1)
    open_table = make_table(round1, ["Eve", "Fay", "Gus", "Hal"], number=2)
    round1.closed_at = None
    round1.save(update_fields=["closed_at"])
    play_set(open_table, nine({"Eve": 1, "Fay": 2, "Gus": 3, "Hal": 4}), verified=False)
    assert not closed_rounds().filter(event=night1).exists()
    assert len(rated_sets().matches) == 2


def test_a_corrected_set_changes_the_ratings(played, director, example_sheet):
    services.set_verify(game_set=played, user=director)
    before = services.ratings_current()
    assert services.ratings_current().pk == before.pk
    computed = before.computed_at
    ratings_before = rated(before)
    # The round's results are final as it closes (no correction period): an organiser corrects them.
    services.grant_organiser(director)
    services.set_reopen(game_set=played, user=director, reason="Ann's and Bob's columns were swapped")
    swapped = copy.deepcopy(example_sheet)
    swap = {"Ann": "Bob", "Bob": "Ann"}
    for deal in swapped["deals"]:
        if deal.get("out") in swap:
            deal["out"] = swap[deal["out"]]
        deal["results"] = {swap.get(name, name): row for name, row in deal["results"].items()}
    services.sheet_import(game_set=played, user=director, data=swapped)
    services.set_verify(game_set=played, user=director, acknowledge_warnings=True)
    after = services.ratings_current()
    assert after.computed_at > computed
    ratings_after = rated(after)
    assert ratings_after["Ann"][:2] == pytest.approx(ratings_before["Bob"][:2], abs=1e-12)
    assert ratings_after["Bob"][:2] == pytest.approx(ratings_before["Ann"][:2], abs=1e-12)
    assert ratings_after != ratings_before


def test_the_same_name_without_a_membership_id_is_one_person(make_event, director, make_table, play_set):
    first = make_event(date_start=date(2026, 1, 10))
    second = make_event(date_start=date(2026, 2, 10))
    services.entry_add(event=first, user=director, name="Ann Reid", club="Mona")
    services.entry_add(event=second, user=director, name="Ann Reid", club="Liguanea")
    services.entry_add(event=first, user=director, name="Bo Lee", membership_id="JKA-1")
    services.entry_add(event=second, user=director, name="Bo Lee", membership_id="JKA-2")
    assert Player.objects.filter(name="Ann Reid").count() == 2
    for event in (first, second):
        rnd = services.round_create(event=event, user=director)
        play_set(
            make_table(rnd, ["Ann Reid", "Bo Lee", "Cy"]), nine({"Ann Reid": 10, "Bo Lee": 20, "Cy": 30})
        )
    rows = {row.identity: row for row in services.ratings_recompute().rows.select_related("player")}
    assert rows["name:Ann Reid"].sets == 2
    # Her club is the one of her latest rated set.
    assert rows["name:Ann Reid"].player.club == "Liguanea"
    # Two membership ids are two people, whatever their names.
    assert rows["member:JKA-1"].sets == rows["member:JKA-2"].sets == 1


@pytest.fixture
def two_records(make_event, director, make_table, play_set):
    """Ann Reid played night 1 as "Ann Reid" and night 2 as "Annie Reid" (two records)."""
    first = make_event(date_start=date(2026, 1, 10))
    second = make_event(date_start=date(2026, 2, 10))
    for event, name in ((first, "Ann Reid"), (second, "Annie Reid")):
        rnd = services.round_create(event=event, user=director)
        play_set(make_table(rnd, [name, "Bo", "Cy", "Dee"]), nine({name: 10, "Bo": 20, "Cy": 30, "Dee": 40}))
    return Player.objects.get(name="Ann Reid"), Player.objects.get(name="Annie Reid"), second


def test_merging_two_records_of_one_person_moves_the_entries_and_rates_them_as_one(two_records, director):
    keep, merge, second = two_records
    before = services.ratings_current()
    assert {row.identity: row.sets for row in before.rows.all()}["name:Ann Reid"] == 1
    stamp = second.results_stamp
    services.player_merge(keep=keep, merge=merge, user=director, reason="Annie is Ann's name at home")
    assert not Player.objects.filter(pk=merge.pk).exists()
    assert Entry.objects.filter(player=keep).count() == 2
    # Logged in the event whose entry moved, as a rename is.
    entry = AuditEntry.objects.get(action="kalooki.player.merged")
    assert entry.before["merged"]["name"] == "Annie Reid" and entry.reason == "Annie is Ann's name at home"
    assert entry.event_id == second.pk
    # The moved entry is compared under its new name: "ann reid" is now taken in that event.
    with pytest.raises(ValidationError, match="already entered"):
        services.entry_add(event=second, user=director, name="ANN REID")
    second.refresh_from_db()
    assert second.results_stamp > stamp
    after = services.ratings_current()
    rows = {row.identity: row.sets for row in after.rows.all()}
    assert rows["name:Ann Reid"] == 2 and "name:Annie Reid" not in rows


def test_two_records_entered_in_one_event_are_two_people(two_records, director, make_entries):
    keep, merge, second = two_records
    make_entries(second, ["Ann Reid"])
    keep = Player.objects.get(name="Ann Reid")
    with pytest.raises(ValidationError, match="both entered in"):
        services.player_merge(keep=keep, merge=merge, user=director)
    assert Player.objects.filter(pk=merge.pk).exists()
    assert not AuditEntry.objects.filter(action="kalooki.player.merged").exists()
    with pytest.raises(ValidationError, match="two different"):
        services.player_merge(keep=keep, merge=keep, user=director)


def test_a_merge_is_refused_when_the_kept_name_is_anothers_in_the_merged_records_event(two_records, director):
    keep, merge, _ = two_records
    Player.objects.filter(pk=keep.pk).update(name="Cy")  # night 2 has a Cy of its own
    keep.refresh_from_db()
    with pytest.raises(ValidationError, match="already has a player called Cy"):
        services.player_merge(keep=keep, merge=merge, user=director)
    assert Player.objects.filter(pk=merge.pk).exists()


def test_a_merge_takes_the_membership_id_the_kept_record_lacks(two_records, director):
    keep, merge, _ = two_records
    Player.objects.filter(pk=merge.pk).update(membership_id="JKA-77")
    merge.refresh_from_db()
    kept = services.player_merge(keep=keep, merge=merge, user=director)
    assert kept.membership_id == "JKA-77"
    assert Player.objects.get(pk=keep.pk).membership_id == "JKA-77"


def test_a_round_becoming_final_is_rated_though_its_event_was_read_before(
    monkeypatch, make_event, director, make_table, play_set
):
    """A closed round is provisional for the correction period; the event's counted sets read then are
    kept, and must not hide the round once it becomes final (no save marks that moment)."""
    from datetime import timedelta

    from django.utils import timezone

    night = make_event(name="Night", slug="night", correction_minutes=30)
    rnd = services.round_create(event=night, user=director)
    play_set(make_table(rnd, ["Ann", "Bob", "Cy", "Dee"]), nine({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}))
    assert rated_sets().matches == []  # closed, not final yet
    real = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real() + timedelta(minutes=31))
    assert len(rated_sets().matches) == 1
    assert rated(services.ratings_recompute()).keys() == {"Ann", "Bob", "Cy", "Dee"}
