"""Management commands: standings (SCORESHEET.md contract), create_director, load_demo's refusals and
passwords (what the demo holds: test_demo.py)."""

import csv
import io
import json

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from scoring.models import Event

pytestmark = pytest.mark.heavy


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
