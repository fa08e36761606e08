"""A British player's page, number by number, against one five-player game played through the services:
Bert buys in twice (92, 160 → 118, 158 → 120) and goes out at 151 with no buy-in left; Cath buys in once
and wins at 148; Eve goes over in hand 2 without buying in. The page shows the running totals as the game
had them (B7, BV5), when each player left the game (BV6), the finishing order (BV8) and its placement
points, and the official place in the game's own words — in a fixed number of queries."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Entry
from scoring.selectors.players import player_games

FIVE = ("Alice", "Bert", "Cath", "Dave", "Eve")

# Limit 150, two buy-ins each (preset "british"). Running totals after each hand:
#   hand  Alice  Bert             Cath             Dave  Eve
#   1     30     92               0 (out)          45    70
#   2     118    160 → 118 (1st)  20               45*   160 out
#   3     118*   158 → 120 (2nd)  120              95
#   4     148    151 out          155 → 148 (1st)  95*
#   5     158 out                 148*             155 out
# (* went out: won the hand.) Finishing order: Cath, Dave (155), Alice (158), Bert, Eve.
HANDS = (
    {"deal": 1, "out": "Cath", "results": {"Alice": {"penalty": 30}, "Bert": {"penalty": 92}, "Cath": {},
                                           "Dave": {"penalty": 45}, "Eve": {"penalty": 70}}},
    {"deal": 2, "out": "Dave", "results": {"Alice": {"penalty": 88}, "Bert": {"penalty": 68, "buy_in": True},
                                           "Cath": {"penalty": 20}, "Dave": {}, "Eve": {"penalty": 90}}},
    {"deal": 3, "out": "Alice", "results": {"Alice": {}, "Bert": {"penalty": 40, "buy_in": True},
                                            "Cath": {"penalty": 100}, "Dave": {"penalty": 50}}},
    {"deal": 4, "out": "Dave", "results": {"Alice": {"penalty": 30}, "Bert": {"penalty": 31},
                                           "Cath": {"penalty": 35, "buy_in": True}, "Dave": {}}},
    {"deal": 5, "out": "Cath", "results": {"Alice": {"penalty": 10}, "Cath": {}, "Dave": {"penalty": 60}}},
)  # fmt: skip


def play(game_set, user, hands=HANDS):
    for hand in hands:
        outcome = services.deal_record(game_set=game_set, user=user, data=hand)
        assert not outcome.errors, outcome.errors
    game_set.refresh_from_db()
    return game_set


@pytest.fixture
def british(make_event):
    return make_event(name="Club night", slug="club-night", ruleset_preset="british", format="placement")


@pytest.fixture
def game(british, director, make_table):
    return make_table(services.round_create(event=british, user=director), FIVE)


@pytest.fixture
def verified(game, director):
    play(game, director)
    services.set_verify(game_set=game, user=director, expected_version=game.version)
    game.refresh_from_db()
    return game


def entry(event, name):
    return Entry.objects.get(event=event, player__name=name)


def page_text(client, event, name) -> str:
    url = reverse("scoring:player", kwargs={"slug": event.slug, "entry_id": entry(event, name).pk})
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_bert_s_hands_are_the_game_s_running_totals_with_both_resets(british, verified):
    (played,) = player_games(british, entry(british, "Bert")).games
    assert [hand.number for hand in played.hands] == [1, 2, 3, 4]
    assert [hand.penalty for hand in played.hands] == [92, 68, 40, 31]
    assert [hand.total for hand in played.hands] == [92, 118, 120, 151]
    assert [hand.before_reset for hand in played.hands] == [None, 160, 158, None]
    assert [hand.reset_to for hand in played.hands] == [None, 118, 120, None]
    assert [hand.buy_in_number for hand in played.hands] == [0, 1, 2, 0]
    assert [hand.went_out for hand in played.hands] == [False, False, False, True]
    assert not any(hand.won for hand in played.hands)
    assert (played.total, played.out_in, played.buy_ins, played.buy_ins_left) == (151, 4, 2, 0)
    assert (played.place, played.shared, played.points, played.finished) == (4, False, 1, True)


def test_each_player_s_total_place_and_points(british, verified):
    expected = {
        # name: (game total, out in hand, hands shown, place, points)
        "Alice": (158, 5, 5, 3, 2),
        "Bert": (151, 4, 4, 4, 1),
        "Cath": (148, None, 5, 1, 4),
        "Dave": (155, 5, 5, 2, 3),
        "Eve": (160, 2, 2, 5, 0),
    }
    for name, (total, out_in, hands, place, points) in expected.items():
        history = player_games(british, entry(british, name))
        (played,) = history.games
        assert (played.total, played.out_in, len(played.hands), played.place, played.points) == (
            total,
            out_in,
            hands,
            place,
            points,
        ), name
        assert history.points == points
        assert [item.player for item in played.order] == ["Cath", "Dave", "Alice", "Bert", "Eve"]
        assert [item.points for item in played.order] == [4, 3, 2, 1, 0]
        assert [item.me for item in played.order].count(True) == 1
    cath = player_games(british, entry(british, "Cath")).games[0]
    # Cath's penalties add up to 155; the game reset her to 148 in hand 4 and she won there.
    assert [hand.total for hand in cath.hands] == [0, 20, 120, 148, 148]
    assert [hand.won for hand in cath.hands] == [True, False, False, False, True]
    assert cath.winner == "Cath" and cath.over


def test_the_chart_follows_the_game_s_totals(british, verified):
    chart = player_games(british, entry(british, "Bert")).chart
    assert [(point.label, point.total) for point in chart] == [
        ("R1 H1", 92),
        ("R1 H2", 118),
        ("R1 H3", 120),
        ("R1 H4", 151),
    ]


def test_the_page_shows_the_game_as_it_was_played(client, british, verified):
    text = page_text(client, british, "Bert")
    assert "Official place 4 after round 1 with 1 point from 1 game." in text
    assert "Games played" in text and "Hand by hand: total 151" in text
    for shown in ("160 → 118", "158 → 120"):
        assert shown in text
    assert "Bought in (1 of 2): reset to 118." in text
    assert "Bought in (2 of 2): reset to 120." in text
    assert "Out of the game: over 150, no buy-in left." in text
    assert "Out of the game in hand 4, at 151. Bought in 2 times. Finished 4 of 5: 1 point." in text
    # Not the nine-deal set's page: no calls, no paper totals marked as mismatches, no penalty sum.
    for wrong in ("Calls", "written", "231", "from set", "Sets played", "Rulings"):
        assert wrong not in text, wrong
    cath = page_text(client, british, "Cath")
    assert "Official place 1 after round 1 with 4 points from 1 game." in cath
    assert "Last player in: won the game at 148." in cath and "Game won" in cath
    assert "155 → 148" in cath and "Went out (won the hand)." in cath
    dave = page_text(client, british, "Dave")
    assert "Official place 2 after round 1 with 3 points from 1 game." in dave


def test_a_game_in_play_says_so_far(client, british, game, director):
    play(game, director, HANDS[:2])
    (played,) = player_games(british, entry(british, "Bert")).games
    assert (played.finished, played.place, played.points) == (False, 1, 2.5)  # four still in share 1st
    text = page_text(client, british, "Eve")
    assert "Out of the game in hand 2, at 160." in text
    assert "Place 5 so far of 5: 0 points so far." in text
    assert "Official standings: no round complete yet." in text
    text = page_text(client, british, "Bert")
    assert "Still in at 118." in text and "Place 1= so far of 5" in text


def test_the_page_reads_a_fixed_number_of_queries(
    british, verified, director, make_table, django_assert_num_queries
):
    bert = entry(british, "Bert")
    with django_assert_num_queries(5):
        player_games(british, bert)
    # Two more rounds, Bert at another table each time: the same queries.
    for names in (("Bert", "Cath", "Dave", "Eve"), ("Fay", "Bert", "Gus")):
        rnd = services.round_create(event=british, user=director)
        more = make_table(rnd, names)
        play(
            more,
            director,
            [
                {
                    "deal": 1,
                    "out": names[0],
                    "results": {name: {"penalty": 20} if name != names[0] else {} for name in names},
                }
            ],
        )
    with django_assert_num_queries(5):
        history = player_games(british, bert)
    assert [len(game.hands) for game in history.games] == [4, 1, 1]
    assert history.chart[-1].label == "R3 H1"
