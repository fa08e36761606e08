"""A qualifier series (issue 25, item 5): the season's events are legs feeding a final; the best of each
leg go through, a player through already is passed over, a place shared at the cut is decided by a
logged, reproducible lot, a leg counts once its results are final, the final's entries are made from the
qualifiers once (audited), and the series page says all of it in a fixed number of queries."""

from __future__ import annotations

import doctest
import re
from datetime import date

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

import scoring.qualifiers
from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, Event, PlayerDetails, Season
from scoring.qualifiers import (
    DECIDED,
    LOT,
    NOT_FINAL,
    STANDINGS,
    WAITING,
    Placed,
    Source,
    Through,
    draw_lot,
    lot_order,
    qualify_series,
)
from scoring.selectors.standings import event_standings
from tests.conftest import kept_for_the_module, new_director, new_event, nine, played_deals, seated_table
from tests.scoring.test_final_results import british_night, clock  # noqa: F401  (clock: the fixture)

pytestmark = pytest.mark.django_db


def british_leg(director, **fields):
    """A British placement night of Gus, Hal and Ivy, played from a simulated sheet and verified."""
    maker = lambda **made: new_event(director, **made)  # noqa: E731
    return british_night(maker, director, "british", names=("Gus", "Hal", "Ivy"), **fields)[0]


def series_world() -> int:
    """Leg 1 (final): Ann 1, Bob 2, Cy 3, Dee 4. Leg 2 (final): Ann 1, Cy 2, Eve and Fay share 3rd.
    Leg 3, British, provisional for 30 minutes. The final is an event of its own; two go through a leg,
    one more from the series standings. Returns the season's id."""
    director = new_director()
    legs = []
    for number, scores in enumerate(
        [{"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}, {"Ann": 10, "Cy": 20, "Eve": 30, "Fay": 30}], start=1
    ):
        leg = new_event(
            director, name=f"Leg {number}", slug=f"leg-{number}", date_start=date(2026, 3, number),
            correction_minutes=0,
        )  # fmt: skip
        rnd = services.round_create(event=leg, user=director)
        played_deals(seated_table(rnd, list(scores), director), nine(scores))
        legs.append(leg)
    legs.append(british_leg(director, name="Leg 3", slug="leg-3", date_start=date(2026, 3, 3)))
    final = new_event(director, name="Grand Final", slug="grand-final", date_start=date(2026, 4, 1))
    season = services.season_create(
        user=director, name="Winter Series", slug="winter", events=legs, final=final,
        qualify_per_leg=2, qualify_from_standings=1,
    )  # fmt: skip
    return season.pk


@pytest.fixture(scope="module")
def world_once(django_db_setup, django_db_blocker):
    """The series of `series_world`, once for the module."""
    with kept_for_the_module(django_db_blocker):
        yield series_world()


@pytest.fixture
def season(world_once, db):
    return Season.objects.select_related("final").get(pk=world_once)


@pytest.fixture
def director(season):
    return season.final.directors.get()


def read(season):
    return services.series_read(season)


def names(items) -> list[str]:
    return [item.name for item in items]


def test_the_rules_worked_examples_hold():
    assert doctest.testmod(scoring.qualifiers).failed == 0


def test_a_leg_waits_for_the_legs_before_it_and_the_standings_for_every_leg():
    leg = (Placed("ann", 1, False), Placed("bob", 2, False), Placed("cy", 3, False))
    table = (Placed("ann", 1, False), Placed("cy", 2, True), Placed("dee", 2, True), Placed("bob", 4, False))
    pending = qualify_series(
        [Source("l1", False, leg), Source("l2", True, leg)],
        per_leg=1, standings=Source(STANDINGS, True, table), from_standings=1, lots=[],
    )  # fmt: skip
    assert [item.status for item in pending.legs] == [NOT_FINAL, WAITING] and pending.through == ()
    assert pending.standings.status == WAITING
    # Both legs final: Ann from the first, Bob (Ann passed over) from the second; the standings' place
    # is shared by Cy and Dee at the cut, so it waits for a lot, which then decides it.
    tied = qualify_series(
        [Source("l1", True, leg), Source("l2", True, leg)],
        per_leg=1, standings=Source(STANDINGS, True, table), from_standings=1, lots=[],
    )  # fmt: skip
    assert [(key, item.person) for key, item in tied.through] == [("l1", "ann"), ("l2", "bob")]
    assert tied.standings.status == LOT and tied.ties[0].tied == ("cy", "dee") and not tied.complete
    lot = draw_lot(tied.ties[0], seed=3)
    decided = qualify_series(
        [Source("l1", True, leg), Source("l2", True, leg)],
        per_leg=1, standings=Source(STANDINGS, True, table), from_standings=1, lots=[lot],
    )  # fmt: skip
    assert decided.complete and decided.through[-1] == (
        STANDINGS,
        Through(Placed(lot.order[0], 2, True), True),
    )


def test_a_player_through_from_an_earlier_leg_is_passed_over_and_the_next_takes_the_place(season):
    found = read(season)
    leg1, leg2, leg3 = found.legs
    assert leg1.status == DECIDED and names(leg1.through) == ["Ann", "Bob"]
    assert [(row.name, row.place) for row in leg1.next_in_line] == [("Cy", "3rd")]
    # Leg 2: Ann (1st) is through already: Cy (2nd) takes her place; Eve and Fay share 3rd for the
    # one place left, and the lot has not been drawn.
    assert leg2.status == LOT and names(leg2.through) == ["Cy"]
    assert [(row.name, row.place) for row in leg2.passed_over] == [("Ann", "1st")]
    assert (leg2.tie, leg2.tie_places, leg2.tie_place) == (["Eve", "Fay"], 1, "3rd")
    # Leg 3 is in its correction period, and would wait for Leg 2's lot; the standings wait for both.
    assert leg3.status == WAITING and "provisional until" in leg3.words and "waits for Leg 2" in leg3.words
    assert found.standings.status == WAITING and not found.complete
    assert names(found.qualifiers) == ["Ann", "Bob", "Cy"]


def test_a_tie_at_the_cut_is_decided_by_a_logged_lot_that_its_seed_reproduces(season, director):
    lots = services.series_lots_draw(season=season, user=director)
    assert len(lots) == 1
    logged = AuditEntry.objects.get(action="kalooki.season.lot_drawn")
    assert logged.event.name == "Leg 2" and logged.user == director
    assert logged.after["tied"] == ["Eve", "Fay"] and logged.after["places"] == 1
    # The seed alone gives the order again (the tied players sorted as they are known across events).
    again = lot_order(["name:Fay", "name:Eve"], logged.after["seed"])
    assert [who.removeprefix("name:") for who in again] == logged.after["order"]
    winner = logged.after["through"][0]
    assert winner == again[0].removeprefix("name:")
    season.refresh_from_db()
    found = read(season)
    leg2 = found.legs[1]
    assert leg2.status == DECIDED and names(leg2.through) == ["Cy", winner]
    assert leg2.through[1].by_lot and leg2.lot["seed"] == logged.after["seed"]
    assert [row.name for row in leg2.next_in_line] == [{"Eve": "Fay", "Fay": "Eve"}[winner]]
    # Nothing left to draw: a second press draws nothing and logs nothing.
    assert services.series_lots_draw(season=season, user=director) == []
    assert AuditEntry.objects.filter(action="kalooki.season.lot_drawn").count() == 1


def test_a_leg_counts_once_its_results_are_final_with_its_games_own_places(season, director, clock):  # noqa: F811
    leg3 = Event.objects.get(slug="leg-3")
    services.series_lots_draw(season=season, user=director)
    season.refresh_from_db()
    found = read(season)
    assert (
        found.legs[2].status == NOT_FINAL
        and "Not final yet: round 1 results provisional" in found.legs[2].words
    )
    assert not found.legs[2].through and not any(item.source == "Leg 3" for item in found.qualifiers)
    clock.move(minutes=31)
    services.series_lots_draw(season=season, user=director)  # a tie at Leg 3's cut, if any
    season.refresh_from_db()
    found = read(season)
    assert found.legs[2].status == DECIDED
    # The British leg's places are its own standings' (finishing order, placement points).
    best = [row["player"] for row in event_standings(leg3, with_ids=True, final_only=True)][:2]
    assert names(found.legs[2].through) == best
    # Every leg decided: the series standings send one more, passing over everyone through.
    assert found.standings.status == DECIDED and len(found.standings.through) == 1
    through_legs = {item.name for item in found.qualifiers[:-1]}
    assert found.standings.through[0].name not in through_legs
    assert found.complete and len(found.qualifiers) == 7


def test_the_finals_entries_are_made_once_and_audited(season, director):
    outcome = services.final_entries_create(season=season, user=director, reason="after leg 2")
    final = season.final
    entered = set(Entry.objects.filter(event=final).values_list("player__name", flat=True))
    assert len(outcome.lots) == 1 and entered == {"Ann", "Bob", "Cy", outcome.lots[0].order[0][5:]}
    assert set(outcome.added) == entered and not outcome.complete
    logged = AuditEntry.objects.filter(event=final, action="kalooki.entry.added")
    assert logged.count() == 4 and logged.filter(reason="Qualified from Leg 1 (1st)").exists()
    summary = AuditEntry.objects.get(action="kalooki.season.final_entries")
    assert set(summary.after["added"]) == entered and summary.reason == "after leg 2"
    assert "Added to Grand Final" in outcome.message()
    audits = AuditEntry.objects.count()
    again = services.final_entries_create(season=season, user=director)
    assert again.added == [] and set(again.already) == entered
    assert "Nothing added" in again.message()
    assert Entry.objects.filter(event=final).count() == 4 and AuditEntry.objects.count() == audits


def test_only_the_directors_of_every_leg_and_the_final_may_enter_the_final(season):
    stranger = new_director("stranger")
    with pytest.raises(PermissionDenied, match="Grand Final"):
        services.final_entries_create(season=season, user=stranger)
    assert not Entry.objects.filter(event=season.final).exists()


def test_the_final_cannot_be_one_of_the_seasons_legs(season, director):
    with pytest.raises(ValidationError, match="is one of the season's events"):
        services.season_update(
            season=season,
            user=director,
            final=Event.objects.get(slug="leg-1"),
            expected_version=season.version,
        )


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def test_the_series_page_says_who_is_through_who_is_next_and_what_is_pending(client, season):
    PlayerDetails.objects.create(player=Entry.objects.get(event__slug="leg-1", player__name="Bob").player,
                                 consent_public=False)  # fmt: skip
    response = client.get(reverse("scoring:season_series", kwargs={"slug": season.slug}))
    assert response.status_code == 200
    text = text_of(response)
    assert "The best 2 of each leg go through, then the best 1 of the series standings" in text
    assert "Ann — 1st" in text and "Passed over, through already: Ann (1st)" in text
    assert "Next in line if a place comes free: Cy (3rd)" in text
    assert "Eve, Fay share 3rd place with 1 place left: a lot decides, drawn by the organiser" in text
    assert "provisional" in text and "Not final yet: round 1 results provisional until" in text
    assert "Waiting for every leg to be decided" in text
    # Bob does not consent to public lists: his leg's entry number stands for him.
    assert "Bob" not in text and "Player 2 of Leg 1 — 2nd" in text
    assert "Create the final's entries" not in text  # the organiser's press is not public


def test_who_may_run_the_series_sees_every_name_as_on_its_legs_pages(client, season, director):
    PlayerDetails.objects.create(player=Entry.objects.get(event__slug="leg-1", player__name="Bob").player,
                                 consent_public=False)  # fmt: skip
    services.grant_organiser(director)
    client.force_login(director)
    text = text_of(client.get(reverse("scoring:season_series", kwargs={"slug": season.slug})))
    assert "Bob — 2nd" in text and "Player 2 of Leg 1" not in text


def test_the_organiser_presses_create_the_finals_entries(client, season, director):
    services.grant_organiser(director)
    client.force_login(director)
    url = reverse("scoring:season_series", kwargs={"slug": season.slug})
    assert "Create the final's entries from the qualifiers" in text_of(client.get(url))
    response = client.post(reverse("scoring:season_series_final", kwargs={"slug": season.slug}), follow=True)
    assert "Added to Grand Final" in text_of(response)
    response = client.post(reverse("scoring:season_series_final", kwargs={"slug": season.slug}), follow=True)
    assert "Nothing added" in text_of(response) and Entry.objects.filter(event=season.final).count() == 4


def test_the_series_page_reads_in_a_fixed_number_of_queries(client, season, django_assert_num_queries):
    url = reverse("scoring:season_series", kwargs={"slug": season.slug})
    client.get(url)  # the season's standings computed and stored, the legs' places kept
    # The season (with its final); the rating list's fingerprint (2) and the stored list; the legs;
    # the legs' scopes (1, whatever their number); the legs' entries, the final's, the public names.
    with django_assert_num_queries(9):
        assert client.get(url).status_code == 200


def test_the_legs_scopes_read_at_once_are_each_legs_own(season, django_assert_num_queries):
    from scoring.selectors.seasons import season_events
    from scoring.selectors.standings_scope import standings_scope, standings_scopes

    legs = season_events(season)
    with django_assert_num_queries(1):
        together = standings_scopes(legs, final_only=True)
    assert together == {leg.pk: standings_scope(leg, final_only=True) for leg in legs}
    assert {scope.all_final() for scope in together.values()} == {True, False}  # final and not, both read


def test_the_organiser_sets_the_series_on_the_seasons_form(client, season, director):
    services.grant_organiser(director)
    client.force_login(director)
    url = reverse("scoring:season_edit", kwargs={"slug": season.slug})
    page = text_of(client.get(url))
    assert "Qualifiers per leg" in page and "Qualifiers from the series standings" in page
    posted = {
        "version": season.version, "name": season.name, "slug": season.slug, "points": "",
        "events": list(season.events.values_list("pk", flat=True)), "final": season.final.pk,
        "qualify_per_leg": "3", "qualify_from_standings": "", "reason": "three a leg",
    }  # fmt: skip
    assert client.post(url, posted).status_code == 302
    season.refresh_from_db()
    assert (season.qualify_per_leg, season.qualify_from_standings) == (3, 0)
    logged = AuditEntry.objects.filter(action="kalooki.season.changed").latest("pk")
    assert logged.before == {"qualify_per_leg": 2, "qualify_from_standings": 1}
    assert logged.after == {"qualify_per_leg": 3, "qualify_from_standings": 0}
    # The final among the legs is refused on the form, beside its field.
    refused = client.post(url, {**posted, "final": posted["events"][0], "version": season.version})
    assert refused.status_code == 400 and "is one of the season&#x27;s events" in refused.content.decode()
