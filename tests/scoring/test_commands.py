"""Management commands: standings (SCORESHEET.md contract), create_director, load_demo."""

import csv
import io
import json

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from scoring.models import Event
from scoring.services import closing


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def scored(event, game_set, play_set, nine_deals):
    # Cy and Dee tie on the whole chain: a shared third place.
    deals = [("Ann", n == 0, {"Ann": 0, "Bob": 2, "Cy": 5, "Dee": 5}) for n in range(9)]
    play_set(game_set, deals)
    return event


def test_standings_json_is_the_standings_data(scored):
    rows = json.loads(run("standings", "test-open", "--format", "json"))
    assert rows[0] == {
        "place": 1,
        "shared": False,
        "player": "Ann",
        "club": "",
        "total": 0,
        "sets": 1,
        "deals": 9,
        "sets_won": 1,
        "deals_won": 9,
        "doubled_outs": 1,
        "worst_deal": 0,
    }
    assert [(row["place"], row["shared"], row["player"]) for row in rows[2:]] == [
        (3, True, "Cy"),
        (3, True, "Dee"),
    ]


def test_standings_csv_has_the_same_columns_and_lowercase_booleans(scored):
    rows = list(csv.reader(io.StringIO(run("standings", "test-open", "--format", "csv"))))
    assert rows[0] == [
        "place",
        "shared",
        "player",
        "club",
        "total",
        "sets",
        "deals",
        "sets_won",
        "deals_won",
        "doubled_outs",
        "worst_deal",
    ]
    assert rows[3] == ["3", "true", "Cy", "", "45", "1", "9", "0", "0", "0", "5"]
    assert rows[1][1] == "false"


def test_standings_text_marks_shared_places(scored):
    text = run("standings", "test-open")
    assert "Official standings after round 1" in text
    assert any(line.startswith("3=") and "Cy" in line for line in text.splitlines())
    # The heading, whether the results are final (round 1 just closed: its correction period runs), the heads.
    assert text.splitlines()[1].startswith("Results provisional until ")
    heads = text.splitlines()[2].split()
    assert heads == ["Place", "Player", "Club", "Total", "Sets", "Thru", "Won", "Outs", "Doubled", "Worst"]


def test_standings_round_and_provisional_options(scored):
    assert json.loads(run("standings", "test-open", "--round", "2", "--format", "json")) == []
    assert len(json.loads(run("standings", "test-open", "--provisional", "--format", "json"))) == 4


def test_standings_unknown_event_is_a_clear_error(db):
    with pytest.raises(CommandError, match="No event with the slug 'nope'"):
        run("standings", "nope")


def test_create_director_creates_assigns_and_resets(event):
    output = run("create_director", "marcia", "--event", "test-open", "--password", "Kingston-2026!")
    assert "Created director 'marcia'" in output
    user = authenticate(username="marcia", password="Kingston-2026!")
    assert user is not None
    assert event.is_director(user)
    output = run("create_director", "marcia", "--reset-password")
    new_password = output.split("password: ")[1].strip()
    assert authenticate(username="marcia", password=new_password) is not None
    assert authenticate(username="marcia", password="Kingston-2026!") is None


def test_create_director_refuses_a_weak_password_or_unknown_event(event):
    with pytest.raises(CommandError):
        run("create_director", "marcia", "--event", "test-open", "--password", "123")
    with pytest.raises(CommandError, match="No event"):
        run("create_director", "marcia", "--event", "nowhere")
    assert not Event.objects.get(pk=event.pk).directors.filter(username="marcia").exists()


def test_load_demo_builds_the_demo_once_and_prints_the_login(db, settings):
    from scoring.models import GameSet, Player
    from scoring.selectors import standings_for_event

    # A developer's laptop (`make run` on loopback): the README's published login.
    settings.DEBUG = True
    output = run("load_demo")
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

    again = run("load_demo")
    assert "already loaded" in again
    assert Event.objects.filter(slug="demo-open").count() == 1
    # The open's sixteen, the club night's four newcomers (its other eight played the open too) and
    # the British night's twelve and the North American night's ten.
    assert Player.objects.count() == 16 + 4 + 12 + 10


def test_load_demo_has_a_season_of_two_events_with_ratings_to_look_at(db, settings):
    from scoring import services
    from scoring.games import BRITISH, NORTH_AMERICAN
    from scoring.models import RatingList, Season
    from scoring.selectors.ratings import closed_rounds

    settings.DEBUG = True
    output = run("load_demo")
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
    run("load_demo")
    assert Season.objects.count() == 1 and Event.objects.count() == 4


def test_load_demo_has_a_british_night_beside_the_jamaican_events(db, settings, client):
    from scoring.models import GameSet
    from scoring.selectors.british_standings import british_standings

    settings.DEBUG = True
    output = run("load_demo")
    assert "Created the British Kalooki night" in output
    night = Event.objects.get(slug="demo-british-night")
    assert (night.ruleset_preset, night.format, night.placement_points) == (
        "british",
        "placement",
        [3, 2, 1, 0],
    )
    games = GameSet.objects.filter(table__round__event=night).order_by(
        "table__round__number", "table__number"
    )
    # Round 1 verified and closed; round 2 shows a verified game, one over, one still running.
    assert [game.status for game in games] == ["verified"] * 4 + ["in_play", "in_play"]
    assert night.rounds.get(number=1).closed_at is not None and night.rounds.get(number=2).closed_at is None
    assert all(game.error_count == 0 for game in games)
    rows = british_standings(night, provisional=True)
    assert len(rows) == 12 and rows[0]["points"] >= 3
    page = client.get(f"/e/{night.slug}/r/1/t/1/").content.decode()
    assert "Finishing order" in page
    run("load_demo")
    assert Event.objects.filter(slug="demo-british-night").count() == 1


def test_load_demo_has_a_north_american_night_with_a_closed_round(db, settings, client):
    from scoring.models import GameSet
    from scoring.selectors import standings_view

    settings.DEBUG = True
    output = run("load_demo")
    assert "Created the North American Kaluki night" in output
    night = Event.objects.get(slug="demo-kaluki-night")
    assert (night.ruleset_preset, night.rules_overrides, night.format) == (
        "north-american",
        {"hands": 6},
        "placement",
    )
    games = GameSet.objects.filter(table__round__event=night).order_by(
        "table__round__number", "table__number"
    )
    assert [game.table.seats.count() for game in games] == [5, 5, 5, 5]
    assert [game.status for game in games] == ["verified", "verified", "verified", "in_play"]
    assert all(game.error_count == 0 for game in games)
    official = standings_view(night)
    assert "after round 1" in official.scope.heading()
    assert len(official.rows) == 10 and official.rows[0]["collected"] >= official.rows[-1]["collected"]
    assert client.get(f"/e/{night.slug}/r/2/t/2/").status_code == 200
    run("load_demo")
    assert Event.objects.filter(slug="demo-kaluki-night").count() == 1


def test_load_demo_refuses_with_debug_off_and_writes_nothing(db, settings):
    from django.contrib.auth import get_user_model

    settings.DEBUG = False
    with pytest.raises(CommandError, match=r"DEBUG is off.*--force"):
        run("load_demo")
    assert not Event.objects.filter(slug="demo-open").exists()
    assert not get_user_model().objects.filter(username="demo-director").exists()


def printed_password(output: str) -> str:
    (line,) = [line for line in output.splitlines() if "demo-director / " in line]
    return line.rsplit(" / ", 1)[1].strip()


def test_load_demo_forced_with_debug_off_gives_a_random_password_it_prints(db, settings):
    settings.DEBUG = False
    first = printed_password(run("load_demo", "--force"))
    assert Event.objects.filter(slug="demo-open").exists()
    assert first != "kalooki-demo-2026" and len(first) >= 16
    assert authenticate(username="demo-director", password=first) is not None
    assert authenticate(username="demo-director", password="kalooki-demo-2026") is None
    second = printed_password(run("load_demo", "--force"))
    assert second != first and authenticate(username="demo-director", password=second) is not None


def test_load_demo_lock_retires_the_published_password_and_loads_nothing(db, settings):
    settings.DEBUG = False
    assert "nothing to lock" in run("load_demo", "--lock")
    assert not Event.objects.exists()
    settings.DEBUG = True
    run("load_demo")
    settings.DEBUG = False
    password = printed_password(run("load_demo", "--lock"))
    assert authenticate(username="demo-director", password="kalooki-demo-2026") is None
    assert authenticate(username="demo-director", password=password) is not None
