"""A rating that explains itself: each rated set's expected place is openskill's own `predict_rank` on the
ratings the table brought to it, beside the place taken and μ, σ before and after (all as openskill gives
them, called directly); each set that did not count is listed with its reason; the page says it in words."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from openskill.models import BradleyTerryFull

from scoring import services
from scoring.games import JAMAICAN
from scoring.models import Player
from scoring.selectors.rating_explained import rating_explained
from scoring.selectors.ratings import player_rating_page
from tests.conftest import nine

pytestmark = [pytest.mark.django_db, pytest.mark.final_at_once]

DAY = date.today() - timedelta(days=20)
# (event, round, table): seats and set totals. Ann meets players who already have ratings of their own.
TABLES = [
    (("Ann", "Bob", "Cy", "Dee"), {"Ann": 60, "Bob": 40, "Cy": 90, "Dee": 200}),
    (("Eve", "Fay", "Gus", "Hal"), {"Eve": 10, "Fay": 30, "Gus": 30, "Hal": 70}),
    (("Bob", "Eve", "Ann", "Gus"), {"Bob": 50, "Eve": 50, "Ann": 20, "Gus": 99}),
]


def ranks_of(scores, seats):
    return [1 + sum(1 for other in seats if scores[other] < scores[name]) for name in seats]


def openskill_story(name: str):
    """openskill called directly, table by table: for each of `name`'s tables, (expected rank, win
    chance) from `predict_rank` before it, the rank taken, μ and σ before and after."""
    model = BradleyTerryFull()
    people: dict = {}
    story = []
    for seats, scores in TABLES:
        teams = [[people.get(person) or model.rating(name=person)] for person in seats]
        predicted = model.predict_rank(teams)
        before = {person: (team[0].mu, team[0].sigma) for person, team in zip(seats, teams, strict=True)}
        ranks = ranks_of(scores, seats)
        for person, (after,) in zip(seats, model.rate(teams, ranks=ranks), strict=True):
            people[person] = after
        if name in seats:
            at = seats.index(name)
            story.append((*predicted[at], ranks[at], *before[name], people[name].mu, people[name].sigma))
    return story


@pytest.fixture
def series(make_event, director, make_table, play_set):
    first = make_event(name="Night 1", slug="night-1", date_start=DAY)
    second = make_event(name="Night 2", slug="night-2", date_start=DAY + timedelta(days=7))
    rnd = services.round_create(event=first, user=director)
    play_set(make_table(rnd, TABLES[0][0]), nine(TABLES[0][1]))
    play_set(make_table(rnd, TABLES[1][0]), nine(TABLES[1][1]))
    rnd = services.round_create(event=second, user=director)
    play_set(make_table(rnd, TABLES[2][0]), nine(TABLES[2][1]))
    return second


def test_each_rated_set_explained_as_openskill_predicts_and_rates_it(series):
    ann = Player.objects.get(name="Ann")
    rating_list = services.ratings_current(game=JAMAICAN)
    explained = rating_explained(player_rating_page(ann, rating_list), rating_list)
    rows = [
        (
            row.expected_rank,
            row.win_chance,
            row.rank,
            row.mu_before,
            row.sigma_before,
            row.mu_after,
            row.sigma_after,
        )
        for row in reversed(explained.rated)
    ]
    assert rows == openskill_story("Ann")  # exactly: the doubles openskill gives
    assert [(row.event, row.round, row.table) for row in explained.rated] == [
        ("Night 2", 1, 1),
        ("Night 1", 1, 1),
    ]
    # At night 2 Ann (one set, second place) meets Bob (a win) and Eve (a win): expected third, she won.
    latest = explained.rated[0]
    assert (latest.expected_rank, latest.rank, latest.verdict) == (3, 1, "better than expected")
    assert explained.uncounted == []


def test_sets_that_did_not_count_are_listed_with_their_reason_and_the_page_explains(
    series, director, make_table, play_set, client
):
    # Round 2 of night 2: Ann's table verified, another still in play, so the round is not closed;
    # round 3: Ann's table verified and closed, but after an open round it waits.
    second = services.round_create(event=series, user=director)
    anns = make_table(second, ["Ann", "Bob", "Cy", "Dee"])
    make_table(second, ["Eve", "Fay", "Gus", "Hal"])
    play_set(anns, nine({"Ann": 5, "Bob": 6, "Cy": 7, "Dee": 8}))
    third = services.round_create(event=series, user=director)
    play_set(make_table(third, ["Ann", "Bob", "Cy", "Dee"]), nine({"Ann": 5, "Bob": 6, "Cy": 7, "Dee": 8}))
    ann = Player.objects.get(name="Ann")
    rating_list = services.ratings_current(game=JAMAICAN)
    explained = rating_explained(player_rating_page(ann, rating_list), rating_list)
    assert len(explained.rated) == 2
    reasons = {item.round: item.reason for item in explained.uncounted}
    assert reasons[2] == "Verified, but round 2 is not closed: a round counts once all its tables are."
    assert reasons[3].startswith("An earlier round of the event is not closed yet")

    page = client.get(reverse("scoring:rating_player", kwargs={"player_id": ann.pk})).content.decode()
    assert "How this rating came about" in page
    assert "finishing better than expected raises μ" in page
    assert "better than expected" in page and "Sets that did not count" in page
    assert reasons[2] in page.replace("&#x27;", "'")
