"""The public rating list, a player's rating page and chart, merging records from the page, the
`ratings` command, and the fixed number of queries each read takes."""

from __future__ import annotations

import csv
import io
import json
from datetime import date

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import Event, GameSet, Player, SetSums
from scoring.selectors.ratings import player_rating_page, rated_sets, rating_rows
from scoring.services.guards import store_sums_of_sets, touch_results
from tests.conftest import nine

pytestmark = pytest.mark.django_db


@pytest.fixture
def nights(make_event, director, make_table, play_set):
    """nights(count, tables=1): `count` events of one round, each table four fresh players but Ann,
    who plays every night at table 1. The deals are written straight to the tables; each set's sums
    are then stored as recording through the services stores them."""

    def make(count: int, *, tables: int = 1, first: int = 1):
        made = []
        for number in range(first, first + count):
            event = make_event(date_start=date(2026, 1, number))
            rnd = services.round_create(event=event, user=director)
            for table in range(1, tables + 1):
                names = ["Ann" if table == 1 else f"P{number}-{table}-0"] + [
                    f"P{number}-{table}-{seat}" for seat in (1, 2, 3)
                ]
                play_set(make_table(rnd, names), nine(dict(zip(names, (10, 20, 30, 40), strict=True))))
            made.append(event)
        store_sums_of_sets(GameSet.objects.filter(table__round__event__in=made))
        return made

    return make


def test_the_rating_list_marks_provisional_players_and_says_when_it_was_computed(client, nights):
    nights(5)
    response = client.get(reverse("scoring:ratings"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Computed" in html and "from 5 counted sets" in html
    assert "when their name matches exactly" in html
    # Ann has five rated sets: not provisional; everyone else has one.
    rows = {row["player"]: row for row in rating_rows(services.ratings_current())}
    assert rows["Ann"]["provisional"] is False and rows["P1-1-1"]["provisional"] is True
    assert html.count("badge--provisional") == 1 + sum(row["provisional"] for row in rows.values())


def test_the_rating_list_exports_the_pages_figures_and_escaped_names(client, nights, director, make_entries):
    nights(1)
    Player.objects.filter(name="P1-1-1").update(name="=1+1")
    content = client.get(reverse("scoring:ratings") + "?_export=csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content)))
    assert rows[0] == [
        "#", "Player", "Membership", "Club", "Rating (μ − 3σ)", "μ", "σ", "Rated sets", "Events",
        "Provisional", "Last played", "Ranked", "Active", "Game",
    ]  # fmt: skip
    stored = {row["player"]: row for row in rating_rows(services.ratings_current())}
    exported = {row[1]: row for row in rows[1:]}
    # Rounded as the page shows it (two decimals), not 17 digits.
    assert float(exported["Ann"][5]) == round(stored["Ann"]["mu"], 2)
    assert len(exported["Ann"][5].partition(".")[2]) <= 2
    assert "'=1+1" in exported


def test_a_players_page_shows_their_rating_history_events_and_places(client, nights):
    made = nights(3)
    ann = Player.objects.get(name="Ann")
    response = client.get(reverse("scoring:rating_player", kwargs={"player_id": ann.pk}))
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("scoring:rating_chart", kwargs={"player_id": ann.pk}) in html
    for event in made:
        assert event.name in html
    assert "1 of 4" in html  # her place at each event
    page = player_rating_page(ann, services.ratings_current())
    assert [step.event for step in page.history] == [event.name for event in made]
    assert page.rating.sets == 3 and page.provisional


def test_the_chart_is_an_svg_the_app_serves(client, nights):
    nights(2)
    ann = Player.objects.get(name="Ann")
    response = client.get(reverse("scoring:rating_chart", kwargs={"player_id": ann.pk}))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    assert svg.startswith("<svg") and "Rating of Ann over 2 rated sets" in svg
    # From the start (0) and after each of the two sets: three points on each line.
    assert svg.count("<polyline") == 2
    assert all(
        len(line.split('points="')[1].split('"')[0].split()) == 3 for line in svg.split("<polyline")[1:]
    )


def test_a_player_without_a_rated_set_has_a_page_but_no_chart(client, make_entries, event):
    entry = make_entries(event, ["Newcomer"])["Newcomer"]
    address = reverse("scoring:rating_player", kwargs={"player_id": entry.player_id})
    assert "No rated set yet" in client.get(address).content.decode()
    assert (
        client.get(reverse("scoring:rating_chart", kwargs={"player_id": entry.player_id})).status_code == 404
    )


def test_organisers_merge_two_records_from_the_players_page(
    client, staff, director, make_event, make_table, play_set
):
    for day, name in ((1, "Ann Reid"), (2, "Annie Reid")):
        event = make_event(date_start=date(2026, 2, day))
        rnd = services.round_create(event=event, user=director)
        play_set(make_table(rnd, [name, "Bo", "Cy"]), nine({name: 1, "Bo": 2, "Cy": 3}))
    keep, merge = Player.objects.get(name="Ann Reid"), Player.objects.get(name="Annie Reid")
    address = reverse("scoring:player_merge", kwargs={"player_id": keep.pk})
    client.force_login(director)  # directs the events, but is no organiser
    assert client.post(address, {"record": merge.pk, "reason": "one person"}).status_code == 403
    services.grant_organiser(director)
    director = type(director).objects.get(pk=director.pk)  # permissions are cached on the object
    client.force_login(director)
    page = client.get(reverse("scoring:rating_player", kwargs={"player_id": keep.pk})).content.decode()
    assert "Merge another record of this person" in page
    response = client.post(address, {"record": merge.pk, "reason": "one person"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=merge.pk).exists()
    rows = {row["player"]: row for row in rating_rows(services.ratings_current())}
    assert rows["Ann Reid"]["sets"] == 2
    refused = client.post(address, {"record": keep.pk, "reason": "same"})
    assert refused.status_code == 400 and "Choose two different player records." in refused.content.decode()
    missing = client.post(address, {"record": 999_999, "reason": "gone"})
    assert missing.status_code == 400 and "There is no player record 999999." in missing.content.decode()


# --- a fixed number of queries ------------------------------------------------------------------


def queries(function) -> int:
    with CaptureQueriesContext(connection) as captured:
        function()
    return len(captured.captured_queries)


def test_reading_the_counted_sets_takes_three_queries_however_many_there_are(nights):
    nights(1)
    small = queries(rated_sets)
    cache.clear()
    nights(4, tables=3, first=2)
    assert queries(rated_sets) == small == 3  # the events, the players, each set's players and figures
    assert len(rated_sets().matches) == 1 + 4 * 3
    # Each event's sets are kept by its results stamp: read again, the events and the players alone.
    assert queries(rated_sets) == 2
    # Sets without stored sums of their version (written around the services) are summed in one more.
    cache.clear()
    SetSums.objects.all().delete()
    assert queries(rated_sets) == 4
    assert len(rated_sets().matches) == 1 + 4 * 3


@pytest.mark.parametrize(
    "page",
    [
        lambda ann: reverse("scoring:ratings"),
        lambda ann: reverse("scoring:rating_player", kwargs={"player_id": ann.pk}),
        lambda ann: reverse("scoring:rating_chart", kwargs={"player_id": ann.pk}),
    ],
)
def test_a_rating_page_takes_a_fixed_number_of_queries(client, nights, page):
    nights(2)
    ann = Player.objects.get(name="Ann")
    services.ratings_current()
    few = queries(lambda: client.get(page(ann)))
    nights(4, tables=3, first=3)
    services.ratings_current()
    assert queries(lambda: client.get(page(ann))) == few


def test_a_season_page_takes_a_fixed_number_of_queries(client, nights, director):
    season = services.season_create(user=director, name="Winter", events=nights(2))
    address = reverse("scoring:season", kwargs={"slug": season.slug})
    client.get(address)
    few = queries(lambda: client.get(address))
    services.season_update(
        season=season, user=director, events=[*season.events.all(), *nights(3, tables=3, first=3)]
    )
    client.get(address)
    assert queries(lambda: client.get(address)) == few


def test_computing_the_list_again_reads_the_sets_in_a_fixed_number_of_queries_and_new_places_once(nights):
    nights(2)
    services.ratings_recompute()  # the stored list exists, both events' places are kept
    base = queries(services.ratings_recompute)
    nights(3, tables=3, first=3)
    # Three new events: their sets read together (one query: each set's players and their figures),
    # and their places derived from the same read; nothing grows with the sets or events.
    assert queries(services.ratings_recompute) == base + 1
    assert queries(services.ratings_recompute) == base
    # An event whose results change has its sets, and so its places, read again, in as many queries.
    touch_results(Event.objects.order_by("pk").first().pk)
    assert queries(services.ratings_recompute) == base + 1


# --- the command --------------------------------------------------------------------------------


def run(*args) -> str:
    out = io.StringIO()
    call_command("ratings", *args, stdout=out)
    return out.getvalue()


def test_the_command_prints_the_list_as_text_json_and_csv(nights, director):
    made = nights(2)
    services.season_create(user=director, name="Winter", slug="winter", events=made[:1])
    stored = rating_rows(services.ratings_current())
    data = json.loads(run("--format", "json"))
    assert [sorted(row) for row in data] == [
        sorted(["player", "membership", "club", "mu", "sigma", "ordinal", "sets", "events",
                "game", "ranked", "active", "last_played"])
    ] * len(stored)  # fmt: skip
    # Best first, floats at full precision.
    assert [row["player"] for row in data] == [row["player"] for row in stored]
    assert data[0]["mu"] == stored[0]["mu"] and data[0]["ordinal"] == stored[0]["ordinal"]
    assert [row["ordinal"] for row in data] == sorted((row["ordinal"] for row in data), reverse=True)
    lines = list(csv.reader(io.StringIO(run("--format", "csv"))))
    assert lines[0] == [
        "player", "membership", "club", "mu", "sigma", "ordinal", "sets", "events",
        "game", "ranked", "active", "last_played",
    ]  # fmt: skip
    assert float(lines[1][3]) == stored[0]["mu"]
    text = run()
    assert "Jamaican Kalooki ratings across every event, every rated player: 2 counted sets" in text
    assert "Ann" in text and "provisional" in text
    season_data = json.loads(run("--season", "winter", "--format", "json"))
    assert len(season_data) == 4 and next(row for row in season_data if row["player"] == "Ann")["sets"] == 1


def test_the_command_names_an_unknown_season():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No season with the slug 'nope'"):
        run("--season", "nope")
