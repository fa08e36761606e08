"""Seasons: points by place over a player's best events, stored with the season's own rating list;
created and changed by organisers through audited services; shown, exported and printed."""

from __future__ import annotations

import csv
import io
from datetime import date

import openpyxl
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import RatingList, Season
from scoring.web.league.forms import read_points
from tests.conftest import nine

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(make_event, director, make_table, play_set):
    """Three nights; the season holds the first two and the third, the fourth is outside it.

    Night 1 (4 ranked): Ann 1, Bob 2, Cy 3, Dee 4. Night 2: Cy 1, Dee 2, Ann and Bob share 3.
    Night 3 (two tables, 8 ranked): Bob 1, Ann 2 at table 1; Eve, Fay, Gus, Hal at table 2.
    Outside: Dee beats everyone.
    """
    nights = []
    for number, tables in enumerate(
        [
            [{"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}],
            [{"Cy": 10, "Dee": 20, "Ann": 30, "Bob": 30}],
            [{"Bob": 5, "Ann": 15, "Cy": 200, "Dee": 300}, {"Eve": 50, "Fay": 60, "Gus": 70, "Hal": 80}],
            [{"Dee": 1, "Cy": 2, "Bob": 3, "Ann": 4}],
        ],
        start=1,
    ):
        event = make_event(name=f"Night {number}", slug=f"night-{number}", date_start=date(2026, 3, number))
        rnd = services.round_create(event=event, user=director)
        for table in tables:
            play_set(make_table(rnd, list(table)), nine(table))
        nights.append(event)
    return nights


def make_season(director, events, **fields):
    return services.season_create(user=director, name="Spring League", events=events, **fields)


def standings(season):
    rating_list = services.ratings_current(season=season)
    return {row["identity"].removeprefix("name:"): row for row in rating_list.season_table}


def test_season_points_by_place_add_up_over_every_event_by_default(league, director):
    season = make_season(director, league[:3])
    rows = standings(season)
    # Night 3 ranks 8 by total: Bob, Ann, Eve, Fay, Gus, Hal, Cy, Dee (8 points down to 1).
    assert {name: row["points"] for name, row in rows.items()} == {
        "Ann": 4 + 1.5 + 7,
        "Bob": 3 + 1.5 + 8,
        "Cy": 2 + 4 + 2,
        "Dee": 1 + 3 + 1,
        "Eve": 6,
        "Fay": 5,
        "Gus": 4,
        "Hal": 3,
    }
    # Ann and Bob: equal points, a win each, best place 1 each: they share first place.
    assert [(rows[name]["place"], rows[name]["shared"]) for name in ("Ann", "Bob", "Cy")] == [
        (1, True),
        (1, True),
        (3, False),
    ]
    assert rows["Bob"]["events"] == 3 and rows["Bob"]["wins"] == 1 and rows["Hal"]["events"] == 1


def test_best_of_counts_each_players_best_events_and_ties_go_to_more_wins(league, director):
    season = make_season(director, league[:2], best_of=1)
    rows = standings(season)
    # Best one each: Ann 4 (night 1), Cy 4 (night 2), Bob 3, Dee 3. Ann and Cy: a win each, best place 1.
    assert {name: (row["points"], row["counted"], row["events"]) for name, row in rows.items()} == {
        "Ann": (4, 1, 2),
        "Bob": (3, 1, 2),
        "Cy": (4, 1, 2),
        "Dee": (3, 1, 2),
    }
    assert [(rows[name]["place"], rows[name]["shared"]) for name in ("Ann", "Cy", "Bob", "Dee")] == [
        (1, True),
        (1, True),
        (3, True),
        (3, True),
    ]
    # Each event's points are kept with whether they count.
    assert sorted(counted for _, _, counted in rows["Ann"]["results"]) == [False, True]


def test_a_points_list_gives_the_points_of_each_place(league, director):
    season = make_season(director, league[:2], points=[10, 6, 4])
    rows = standings(season)
    # Night 2: Ann and Bob share 3rd and 4th: (4 + 0) / 2 each.
    assert rows["Ann"]["points"] == 10 + 2 and rows["Dee"]["points"] == 0 + 6


def test_the_seasons_ratings_rate_its_events_alone(league, director):
    season = make_season(director, league[:1])
    everything = services.ratings_current()
    alone = services.ratings_current(season=season)
    assert alone.sets == 1 and everything.sets == 5
    assert {row.identity for row in alone.rows.all()} == {"name:Ann", "name:Bob", "name:Cy", "name:Dee"}
    assert alone.pk != everything.pk


def test_changing_a_seasons_events_is_audited_and_the_next_read_computes_again(league, director):
    season = make_season(director, league[:1], reason="spring")
    first = services.ratings_current(season=season)
    assert AuditEntry.objects.get(action="kalooki.season.created").after["events"] == ["night-1"]
    services.season_update(season=season, user=director, events=league[:2], expected_version=season.version)
    entry = AuditEntry.objects.get(action="kalooki.season.changed")
    assert entry.before == {"events": ["night-1"]} and entry.after == {"events": ["night-1", "night-2"]}
    again = services.ratings_current(season=season)
    assert again.sets == 2 and again.computed_at > first.computed_at
    with pytest.raises(services.StaleEdit):
        services.season_update(season=season, user=director, best_of=2, expected_version=1)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"points": [10, -1]}, "Place 2"),
        ({"points": "10, 8"}, "as a list"),
        ({"best_of": 0}, "best_of"),
    ],
)
def test_a_season_with_bad_settings_is_refused_and_nothing_is_written(director, fields, message):
    with pytest.raises(ValidationError, match=message):
        make_season(director, [], **fields)
    assert not Season.objects.exists()


def test_two_seasons_cannot_share_a_slug(director):
    make_season(director, [])
    with pytest.raises(ValidationError, match="slug"):
        make_season(director, [])


@pytest.mark.parametrize(
    ("text", "points"),
    [("10, 8, 6.5", [10, 8, 6.5]), ("", []), ("  ", []), ("3,2,1,0", [3, 2, 1, 0])],
)
def test_points_are_read_from_a_comma_separated_list(text, points):
    assert read_points(text) == points


@pytest.mark.parametrize(
    ("text", "message"), [("10, x", "Place 2: 'x'"), ("5, -1", "Place 2"), ("1,,2", "Place 2")]
)
def test_unreadable_points_name_the_place(text, message):
    with pytest.raises(ValidationError, match=message):
        read_points(text)


# --- the pages ----------------------------------------------------------------------------------


def test_the_season_page_shows_the_standings_events_and_when_they_were_computed(client, league, director):
    season = make_season(director, league[:2], best_of=1)
    response = client.get(reverse("scoring:season", kwargs={"slug": season.slug}))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Night 1" in html and "Night 2" in html
    assert "best 1 event" in html
    assert "1.5 dropped" in html and "(1.5)" not in html  # Bob's night-2 points, not counted
    assert "Computed" in html


def test_the_season_standings_export_names_events_in_words_and_escapes_formulas(
    client, league, director, make_event, make_table, play_set
):
    event = make_event(name="Night 9", slug="night-9", date_start=date(2026, 4, 1))
    rnd = services.round_create(event=event, user=director)
    play_set(make_table(rnd, ["=HYPERLINK(1)", "Bob"]), nine({"=HYPERLINK(1)": 5, "Bob": 10}))
    season = make_season(director, [league[0], event])
    address = reverse("scoring:season", kwargs={"slug": season.slug})
    rows = list(csv.reader(io.StringIO(client.get(f"{address}?_export=csv").content.decode("utf-8-sig"))))
    night_1 = f"{league[0].name}, {league[0].date_start:%-d %b %Y}"
    assert rows[0] == [
        "Place", "Shared", "Player", "Points", "Club", night_1, "Night 9, 1 Apr 2026", "Events", "Counted",
        "Event wins", "Best place",
    ]  # fmt: skip
    assert "'=HYPERLINK(1)" in [row[2] for row in rows]
    # Bob: 4 points, 3 from night 1 and 1 from night 9, in 2 events, both counted.
    assert ["Bob", "4", "3", "1", "2", "2"] in [
        [row[2], row[3], row[5], row[6], row[7], row[8]] for row in rows
    ]
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(f"{address}?_export=xlsx").content)).active
    players = sheet["C"]
    assert "=HYPERLINK(1)" in [cell.value for cell in players]
    assert all(cell.data_type != "f" for cell in players)


def test_the_season_standings_print_as_a_pdf(client, league, director):
    season = make_season(director, league[:2])
    response = client.get(reverse("scoring:season_pdf", kwargs={"slug": season.slug}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="spring-league-standings.pdf"'
    assert response.content.startswith(b"%PDF-")


def test_the_printed_season_lists_each_events_points_and_marks_those_not_counted_dropped(league, director):
    from scoring.printing.pdf_data import season_sheet
    from scoring.selectors.seasons import event_column, season_events, season_rows

    season = make_season(director, league[:2], best_of=1)
    rating_list = services.ratings_current(season=season)
    events = season_events(season)
    sheet = season_sheet(
        name=season.name,
        events=[(event_column(event.pk), event.date_start, event.name) for event in events],
        rows=season_rows(rating_list),
        best_of=1,
        points=[],
        computed_at=rating_list.computed_at,
    )
    lines = {line.player: line for line in sheet.rows}
    assert lines["Bob"].cells == ("3", "1.5 dropped") and lines["Bob"].points == "3"
    assert lines["Ann"].place == "=1"
    assert [label for label, _ in sheet.events] == ["1 Mar", "2 Mar"]


@pytest.fixture
def organiser(django_user_model):
    user = django_user_model.objects.create_user("organiser", password="pw-organiser-1")
    services.grant_organiser(user)
    return django_user_model.objects.get(pk=user.pk)  # a fresh object: permissions are cached


def test_only_organisers_create_seasons(client, director, organiser, staff, league):
    address = reverse("scoring:season_new")
    assert client.get(address).status_code == 302  # log in first
    client.force_login(director)  # directs an event, but is no organiser
    assert client.get(address).status_code == 403
    client.force_login(staff)
    assert client.get(address).status_code == 200
    client.force_login(organiser)
    assert client.get(address).status_code == 200
    # An organiser puts in a season only events they direct (issue 22, test_authority.py).
    services.event_add_director(event=league[0], user=None, director=organiser)
    response = client.post(
        address,
        {
            "name": "Club nights",
            "slug": "",
            "best_of": "2",
            "points": "10, 8",
            "events": [league[0].pk],
            "reason": "",
        },
    )
    assert response.status_code == 302
    season = Season.objects.get(slug="club-nights")
    assert (season.best_of, season.points, [e.slug for e in season.events.all()]) == (2, [10, 8], ["night-1"])


def test_a_bad_points_list_is_shown_beside_its_field(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("scoring:season_new"), {"name": "X", "points": "10, ten"})
    assert response.status_code == 400
    assert "Place 2: &#x27;ten&#x27; is not a number of points." in response.content.decode()
    assert not Season.objects.exists()


def test_organisers_change_a_seasons_events_from_its_page(client, organiser, director, league):
    season = make_season(director, league[:1])
    for night in league[:2]:
        services.event_add_director(event=night, user=None, director=organiser)
    client.force_login(organiser)
    address = reverse("scoring:season_edit", kwargs={"slug": season.slug})
    assert client.get(address).status_code == 200
    data = {"version": season.version, "name": season.name, "slug": season.slug, "best_of": "", "points": ""}
    response = client.post(address, {**data, "events": [league[0].pk, league[1].pk]})
    assert response.status_code == 302
    assert season.events.count() == 2
    # The page was read at the old version: a second save from it is refused (409).
    stale = client.post(address, {**data, "events": [league[0].pk]})
    assert stale.status_code == 409
    assert season.events.count() == 2


def test_the_season_list_and_season_ratings_pages_are_public(client, league, director):
    season = make_season(director, league[:2])
    assert client.get(reverse("scoring:seasons")).status_code == 200
    response = client.get(reverse("scoring:season_ratings", kwargs={"slug": season.slug}))
    assert response.status_code == 200
    assert RatingList.objects.filter(season=season).exists()
    assert "Rated from this season's events alone" in response.content.decode()
