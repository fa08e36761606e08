"""What `manage.py load_demo` builds: loaded once for the module (on a developer's laptop, DEBUG on,
with the README's published login) inside a transaction rolled back at its end; each test reads it in
a savepoint of its own (`db`) and loads it again to see that nothing is loaded twice."""

import pytest
from django.contrib.auth import authenticate
from django.test import override_settings

from scoring.models import Event
from scoring.services import closing
from tests.conftest import kept_for_the_module
from tests.scoring.test_commands import run


def again_on_a_laptop() -> str:
    with override_settings(DEBUG=True):
        return run("load_demo")


def created(printed: str, what: str, slug: str) -> Event:
    """The demo's event `slug`, which load_demo said it created."""
    assert f"Created the {what}" in printed
    return Event.objects.get(slug=slug)


def games_of(night: Event):
    from scoring.models import GameSet

    return GameSet.objects.filter(table__round__event=night).order_by("table__round__number", "table__number")


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> str:
    """What the first `load_demo` printed."""
    with kept_for_the_module(django_db_blocker):
        yield again_on_a_laptop()


def test_load_demo_builds_the_demo_once_and_prints_the_login(demo, db):
    from scoring.models import GameSet, Player
    from scoring.selectors import standings_for_event

    output = demo
    assert "demo-director / kalooki-demo-2026" in output
    event = Event.objects.get(slug="demo-open")
    assert event.entries.count() == 16
    assert event.rounds.count() == 2
    sets = GameSet.objects.filter(table__round__event=event)
    assert sets.filter(status="verified").count() == 6
    in_play = sets.filter(status="in_play")
    assert in_play.count() == 2
    assert in_play.filter(error_count__gt=0).count() == 1
    assert authenticate(username="demo-director", password="kalooki-demo-2026") is not None
    standings = standings_for_event(event)
    assert len(standings) == 16
    # The demo shows the views of an open round with some tables verified.
    from scoring.selectors import standings as standings_view

    official = standings_view(event).scope
    assert official.heading() == "Official standings after round 1"
    assert official.notes() == ["round 2: 2 of 4 tables verified"]
    # Final results (issue 21): the demo's played rounds are final at once; the round being played
    # closes into the usual correction period.
    assert official.results_words() == "results final"
    for shown in Event.objects.all():
        assert shown.correction_minutes == 30
        assert all(closing.round_is_final(rnd) == rnd.is_closed for rnd in shown.rounds.all()), shown.slug
    assert {row["sets"] for row in standings} == {1}
    assert len(standings_for_event(event, round_number=2)) == 8
    provisional = standings_for_event(event, provisional=True)
    assert {row["deals"] for row in provisional} >= {18, 14}

    again = again_on_a_laptop()
    assert "already loaded" in again
    assert Event.objects.filter(slug="demo-open").count() == 1
    # The open's sixteen, the club night's four newcomers (its other eight played the open too) and
    # the British night's twelve and the North American night's ten.
    assert Player.objects.count() == 16 + 4 + 12 + 10


def test_load_demo_has_a_season_of_two_events_with_ratings_to_look_at(demo, db):
    from scoring import services
    from scoring.games import BRITISH, NORTH_AMERICAN
    from scoring.models import RatingList, Season
    from scoring.selectors.ratings import closed_rounds

    output = demo
    assert "Created the season 'Kingston Winter League'" in output
    season = Season.objects.get(slug="demo-season")
    assert sorted(event.slug for event in season.events.all()) == ["demo-club-night", "demo-open"]
    night = Event.objects.get(slug="demo-club-night")
    # Both rounds of the club night and the open's first round are closed: 6 + 4 counted sets; the
    # British and North American nights' first rounds too: 3 + 2 games, rated by finishing order.
    assert closed_rounds(Event.objects.filter(pk=night.pk)).count() == 2
    # Each game has its own list: the Jamaican one (kept under "all") and, read, the other two.
    everything = RatingList.objects.get(scope="all")
    assert everything.sets == 10 and everything.players == 20
    for game, sets, players in ((BRITISH, 3, 12), (NORTH_AMERICAN, 2, 10)):
        found = services.ratings_current(game=game)
        assert (found.sets, found.players) == (sets, players)
    assert len(RatingList.objects.get(season=season).season_table) == 20
    # The players of both events are rated across both.
    assert everything.rows.filter(events=2).count() == 8
    again_on_a_laptop()
    assert Season.objects.count() == 1 and Event.objects.count() == 4


def test_load_demo_has_a_british_night_beside_the_jamaican_events(demo, db, client):
    from scoring.selectors.british_standings import british_standings

    night = created(demo, "British Kalooki night", "demo-british-night")
    assert (night.ruleset_preset, night.format, night.placement_points) == (
        "british",
        "placement",
        [3, 2, 1, 0],
    )
    games = games_of(night)
    # Round 1 verified and closed; round 2 shows a verified game, one over, one still running.
    assert [game.status for game in games] == ["verified"] * 4 + ["in_play", "in_play"]
    assert night.rounds.get(number=1).closed_at is not None and night.rounds.get(number=2).closed_at is None
    assert all(game.error_count == 0 for game in games)
    rows = british_standings(night, provisional=True)
    assert len(rows) == 12 and rows[0]["points"] >= 3
    page = client.get(f"/e/{night.slug}/r/1/t/1/").content.decode()
    assert "Finishing order" in page
    again_on_a_laptop()
    assert Event.objects.filter(slug="demo-british-night").count() == 1


def test_load_demo_has_a_north_american_night_with_a_closed_round(demo, db, client):
    from scoring.selectors import standings_view

    night = created(demo, "North American Kaluki night", "demo-kaluki-night")
    assert (night.ruleset_preset, night.rules_overrides, night.format) == (
        "north-american",
        {"hands": 6},
        "placement",
    )
    games = games_of(night)
    assert [game.table.seats.count() for game in games] == [5, 5, 5, 5]
    assert [game.status for game in games] == ["verified", "verified", "verified", "in_play"]
    assert all(game.error_count == 0 for game in games)
    official = standings_view(night)
    assert "after round 1" in official.scope.heading()
    assert len(official.rows) == 10 and official.rows[0]["collected"] >= official.rows[-1]["collected"]
    assert client.get(f"/e/{night.slug}/r/2/t/2/").status_code == 200
    again_on_a_laptop()
    assert Event.objects.filter(slug="demo-kaluki-night").count() == 1
