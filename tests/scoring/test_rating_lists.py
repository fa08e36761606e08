"""A rating list per game, and whom a list ranks and counts active.

A Jamaican set and a British game never feed one rating: each game's list is checked against openskill
called directly on that game's tables alone, in a series that mixes the two. A game's rule (organisers
change it, logged) says how many rated sets rank a player (fewer: provisional) and after how many months
without one a player is inactive; the official list holds the active, ranked players alone. A club's
players are picked out on the page and by the command."""

from __future__ import annotations

import io
import json
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from openskill.models import BradleyTerryFull

from adjudication.models import AuditEntry
from scoring import ratings as values
from scoring import services
from scoring.games import BRITISH, JAMAICAN, NORTH_AMERICAN
from scoring.models import Player, RatingList
from scoring.selectors import ratings as lists
from scoring.selectors.ratings import rating_rows
from scoring.services import ratings as rules
from tests.conftest import nine
from tests.scoring.game_seam_support import GAME_TO_BOB, record_hands, verify_game

pytestmark = [pytest.mark.django_db, pytest.mark.final_at_once]


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


def rated(rating_list: RatingList) -> dict[str, tuple[float, float, int]]:
    return {
        row.player.name: (row.mu, row.sigma, row.sets) for row in rating_list.rows.select_related("player")
    }


# Jamaican night 1: Ann Bob Cy Dee; a week later the British night: Ann Bob Cy, Bob wins, then Ann (110),
# then Cy (115); a week later Jamaican night 2: Ann Bob Cy Eve. Two months ago, so everyone is active today.
NIGHT1 = date.today() - timedelta(days=60)
BRITISH_NIGHT = NIGHT1 + timedelta(days=7)
NIGHT2 = NIGHT1 + timedelta(days=14)
JAMAICAN_TABLES = [
    (("Ann", "Bob", "Cy", "Dee"), (2, 1, 3, 4)),
    (("Ann", "Bob", "Cy", "Eve"), (1, 3, 2, 4)),
]
BRITISH_TABLES = [(("Ann", "Bob", "Cy"), (2, 1, 3))]


@pytest.fixture
def mixed(make_event, make_entries, director, make_table, play_set):
    """A Jamaican night, a British night, a Jamaican night, sharing Ann, Bob and Cy (Mona and Liguanea
    clubs)."""
    clubs = {"Ann": "Mona", "Bob": "Liguanea", "Cy": "Mona", "Dee": "Liguanea", "Eve": "Mona"}
    night1 = make_event(name="Jamaican 1", slug="jamaican-1", date_start=NIGHT1)
    british = make_event(
        name="British", slug="british-night", date_start=BRITISH_NIGHT, ruleset_preset="british-swedish",
        format="placement",
    )  # fmt: skip
    night2 = make_event(name="Jamaican 2", slug="jamaican-2", date_start=NIGHT2)
    tables = (JAMAICAN_TABLES[0], BRITISH_TABLES[0], JAMAICAN_TABLES[1])
    for event, (seats, _) in zip((night1, british, night2), tables, strict=True):
        make_entries(event, seats, [clubs[name] for name in seats])
    rnd = services.round_create(event=night1, user=director)
    play_set(make_table(rnd, ["Ann", "Bob", "Cy", "Dee"]), nine({"Ann": 60, "Bob": 40, "Cy": 90, "Dee": 200}))
    game = make_table(services.round_create(event=british, user=director), ["Ann", "Bob", "Cy"])
    verify_game(record_hands(game, director, GAME_TO_BOB), director)
    rnd = services.round_create(event=night2, user=director)
    play_set(make_table(rnd, ["Ann", "Bob", "Cy", "Eve"]), nine({"Ann": 10, "Bob": 80, "Cy": 50, "Eve": 99}))
    return {"night1": night1, "british": british, "night2": night2}


def test_each_game_has_its_own_list_matching_openskill_called_directly(mixed):
    jamaican = services.ratings_recompute(game=JAMAICAN)
    british = services.ratings_recompute(game=BRITISH)
    assert (jamaican.game, british.game) == (JAMAICAN.family, BRITISH.family)
    for rating_list, tables in ((jamaican, JAMAICAN_TABLES), (british, BRITISH_TABLES)):
        expected = direct(tables)
        assert rated(rating_list) == expected  # exactly: the doubles openskill gave
        assert rating_list.sets == len(tables)
    # Ann, Bob and Cy are on both lists; Dee and Eve played Jamaican sets alone.
    assert set(rated(british)) == {"Ann", "Bob", "Cy"}
    # The one list of every game, as it was, would have rated the British game between the two nights.
    mixed_up = direct([JAMAICAN_TABLES[0], BRITISH_TABLES[0], JAMAICAN_TABLES[1]])
    assert rated(jamaican)["Ann"] != mixed_up["Ann"]
    # A game nobody has played has an empty list of its own.
    assert services.ratings_current(game=NORTH_AMERICAN).players == 0
    # The British list keeps the British night's places alone.
    ann = british.rows.get(player__name="Ann")
    assert [item[0] for item in ann.places] == [mixed["british"].pk]
    assert ann.last_played == BRITISH_NIGHT
    assert jamaican.rows.get(player__name="Ann").last_played == NIGHT2


def test_a_correction_to_one_games_event_leaves_the_other_games_list_as_stored(mixed, director):
    british = services.ratings_current(game=BRITISH)
    jamaican = services.ratings_current(game=JAMAICAN)
    game = mixed["night2"].rounds.get().tables.get().game_set
    # The round's results are final as it closes (no correction period): an organiser corrects them.
    services.grant_organiser(director)
    services.set_reopen(game_set=game, user=director, reason="a misread deal")
    assert services.ratings_current(game=BRITISH).computed_at == british.computed_at
    assert services.ratings_current(game=JAMAICAN).computed_at > jamaican.computed_at


def test_the_list_and_the_players_page_say_which_game(client, mixed):
    response = client.get(reverse("scoring:ratings"), {"game": BRITISH.family})
    html = response.content.decode()
    assert response.status_code == 200
    assert "British Kalooki ratings" in html and "Dee" not in html
    assert 'aria-current="true">British Kalooki</a>' in html
    ann = Player.objects.get(name="Ann")
    page = reverse("scoring:rating_player", kwargs={"player_id": ann.pk})
    british = client.get(page, {"game": BRITISH.family}).content.decode()
    assert "Ann: British Kalooki rating" in british and "from 1 rated set in 1 event" in british
    jamaican = client.get(page, {"game": JAMAICAN.family}).content.decode()
    assert "Ann: Jamaican Kalooki rating" in jamaican and "from 2 rated sets in 2 events" in jamaican
    # Without ?game= the page shows the game of her latest event (Jamaican night 2).
    assert "Ann: Jamaican Kalooki rating" in client.get(page).content.decode()
    chart = reverse("scoring:rating_chart", kwargs={"player_id": ann.pk})
    assert "over 1 rated set" in client.get(chart, {"game": BRITISH.family}).content.decode()


def test_the_season_pages_name_the_games_of_their_events(client, mixed, director):
    season = services.season_create(user=director, name="Winter", slug="winter", events=list(mixed.values()))
    html = client.get(reverse("scoring:season", kwargs={"slug": "winter"})).content.decode()
    assert "The season's Jamaican Kalooki ratings" in html and "The season's British Kalooki ratings" in html
    assert "The season's North American Kaluki ratings" not in html
    address = reverse("scoring:season_ratings", kwargs={"slug": season.slug})
    british = client.get(address, {"game": BRITISH.family}).content.decode()
    assert "Winter: British Kalooki ratings" in british
    assert rated(services.ratings_current(season=season, game=BRITISH)) == direct(BRITISH_TABLES)


# --- ranked and active ------------------------------------------------------------------------------


def test_the_minimum_of_rated_sets_ranks_a_player_and_the_rest_are_provisional(mixed, director):
    rating_list = services.ratings_current(game=JAMAICAN)
    rows = {row["player"]: row for row in rating_rows(rating_list, today=NIGHT2)}
    # By default five rated sets rank a player: nobody here has them.
    assert not any(row["ranked"] for row in rows.values())
    assert all(row["provisional"] for row in rows.values())
    assert lists.official_rows(list(rows.values())) == []
    rules.rating_rule_update(
        game=JAMAICAN, user=director, min_sets=2, inactive_months=12, reason="a small league"
    )
    listed = rating_rows(rating_list, today=NIGHT2)
    ranked = {row["player"] for row in listed if row["ranked"]}
    assert ranked == {"Ann", "Bob", "Cy"}  # two Jamaican sets each; Dee and Eve one
    official = lists.official_rows(listed)
    assert [row["player"] for row in official] == [row["player"] for row in listed if row["ranked"]]
    assert [row["position"] for row in official] == [1, 2, 3]
    # The British list has a rule of its own: still five sets there.
    assert lists.rating_rule(BRITISH).min_sets == 5
    british = rating_rows(services.ratings_current(game=BRITISH), today=NIGHT2)
    assert not any(row["ranked"] for row in british)


def test_months_without_a_rated_set_make_a_player_inactive(mixed, director):
    rules.rating_rule_update(game=JAMAICAN, user=director, min_sets=1, inactive_months=12)
    rating_list = services.ratings_current(game=JAMAICAN)

    def active(today):
        return {row["player"] for row in rating_rows(rating_list, today=today) if row["active"]}

    # Dee last played on night 1, the others on night 2, a fortnight later.
    year_on = values.months_after(NIGHT1, 12)
    assert active(year_on - timedelta(days=1)) == {"Ann", "Bob", "Cy", "Dee", "Eve"}
    assert active(year_on) == {"Ann", "Bob", "Cy", "Eve"}
    assert active(values.months_after(NIGHT2, 12)) == set()
    rules.rating_rule_update(game=JAMAICAN, user=director, min_sets=1, inactive_months=1, expected_version=2)
    month_on = values.months_after(NIGHT1, 1)
    assert active(month_on) == {"Ann", "Bob", "Cy", "Eve"}
    official = lists.official_rows(rating_rows(rating_list, today=month_on))
    assert sorted(row["player"] for row in official) == ["Ann", "Bob", "Cy", "Eve"]
    # The page counts from today: two months on, nobody is active under a one-month rule.
    assert not any(row["active"] for row in rating_rows(rating_list))


def test_the_official_list_on_the_page_shows_active_ranked_players_with_a_switch_for_all(
    client, mixed, director
):
    rules.rating_rule_update(game=JAMAICAN, user=director, min_sets=2, inactive_months=12)
    address = reverse("scoring:ratings")
    every = client.get(address).content.decode()
    assert all(name in every for name in ("Ann", "Bob", "Cy", "Dee", "Eve"))
    assert "Last played" in every and f"{NIGHT2:%-d %b %Y}" in every
    official = client.get(address, {"list": "official"}).content.decode()
    table = official.split("<table")[1].split("</table>")[0]
    assert ">Ann</a>" in table and ">Dee</a>" not in table and ">Eve</a>" not in table
    assert f'href="{address}?game=jamaican"' in official  # the switch back to every rated player
    assert "badge--provisional" not in table


def test_changing_a_games_rule_is_logged_and_a_stale_change_is_refused(mixed, director):
    rule = rules.rating_rule_update(
        game=BRITISH, user=director, min_sets=3, inactive_months=6, expected_version=1, reason="new season"
    )
    assert (rule.min_sets, rule.inactive_months, rule.version) == (3, 6, 2)
    [entry] = AuditEntry.objects.filter(action="kalooki.rating_rule.changed")
    assert entry.before == {"game": "british", "min_sets": 5, "inactive_months": 12}
    assert entry.after == {"game": "british", "min_sets": 3, "inactive_months": 6}
    assert entry.reason == "new season" and entry.user == director and entry.event is None
    with pytest.raises(ValidationError):
        rules.rating_rule_update(
            game=BRITISH, user=director, min_sets=4, inactive_months=6, expected_version=1
        )
    with pytest.raises(ValidationError):
        rules.rating_rule_update(game=BRITISH, user=director, min_sets=0, inactive_months=6)
    # Nothing changed: no entry.
    rules.rating_rule_update(game=BRITISH, user=director, min_sets=3, inactive_months=6)
    assert AuditEntry.objects.filter(action="kalooki.rating_rule.changed").count() == 1
    assert lists.rating_rule(JAMAICAN).min_sets == 5


def test_organisers_change_a_games_rule_from_the_league_room(client, mixed, director):
    address = reverse("scoring:rating_rule")
    client.force_login(director)  # directs events, but is no organiser
    assert client.get(address).status_code == 403
    services.grant_organiser(director)
    director = type(director).objects.get(pk=director.pk)
    client.force_login(director)
    page = client.get(address, {"game": BRITISH.family}).content.decode()
    assert "British Kalooki list: who is ranked and active" in page
    form = {"game": BRITISH.family, "version": 1, "min_sets": 2, "inactive_months": 3, "reason": "short"}
    response = client.post(address, form)
    assert response.status_code == 302 and response["Location"].endswith("?game=british")
    assert (lists.rating_rule(BRITISH).min_sets, lists.rating_rule(BRITISH).inactive_months) == (2, 3)
    assert AuditEntry.objects.get(action="kalooki.rating_rule.changed").user == director
    stale = client.post(address, form | {"min_sets": 4})
    assert stale.status_code == 409
    refused = client.post(address, form | {"version": 2, "min_sets": 0})
    assert refused.status_code == 400


# --- one club ---------------------------------------------------------------------------------------


def test_the_club_filter_works_on_the_page(client, mixed):
    address = reverse("scoring:ratings")
    html = client.get(address, {"club": "liguanea"}).content.decode()
    table = html.split("<table")[1]
    assert ">Bob</a>" in table and ">Dee</a>" in table and ">Ann</a>" not in table and ">Cy</a>" not in table
    assert '<option value="Liguanea" selected>' in html
    # The positions stay those of the whole list.
    whole = {row["player"]: row["position"] for row in rating_rows(services.ratings_current())}
    assert f'<td class="place">{whole["Dee"]}</td>' in table
    export = client.get(address, {"club": "Mona", "_export": "csv"}).content.decode()
    assert "Ann" in export and "Bob" not in export


def run(*args) -> str:
    out = io.StringIO()
    call_command("ratings", *args, stdout=out)
    return out.getvalue()


def test_the_command_lists_a_games_players_with_ranked_and_active_a_club_and_the_official_list(
    mixed, director
):
    rules.rating_rule_update(game=JAMAICAN, user=director, min_sets=2, inactive_months=12)
    data = json.loads(run("--format", "json"))
    assert isinstance(data, list) and {row["player"] for row in data} == {"Ann", "Bob", "Cy", "Dee", "Eve"}
    ann = next(row for row in data if row["player"] == "Ann")
    assert ann["game"] == "jamaican" and ann["ranked"] is True and ann["last_played"] == NIGHT2.isoformat()
    assert isinstance(ann["active"], bool)
    assert next(row for row in data if row["player"] == "Dee")["ranked"] is False
    british = json.loads(run("--game", "british", "--format", "json"))
    assert {row["player"]: row["mu"] for row in british} == {
        name: mu for name, (mu, _, _) in direct(BRITISH_TABLES).items()
    }
    assert {row["game"] for row in british} == {"british"}
    club = json.loads(run("--club", "Liguanea", "--format", "json"))
    assert {row["player"] for row in club} == {"Bob", "Dee"}
    text = run("--club", "Liguanea")
    assert "club Liguanea" in text and "Ranked" in text and "Active" in text and "Ann" not in text
    official = json.loads(run("--official", "--format", "json"))
    assert {row["player"] for row in official} <= {"Ann", "Bob", "Cy"}
    assert all(row["ranked"] and row["active"] for row in official)
    assert "Jamaican Kalooki ratings across every event, official list" in run("--official")
    assert "North American Kaluki ratings" in run("--game", "north-american")
