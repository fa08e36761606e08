"""A British Kalooki game entered through the director's pages to its winner: the hand form reads
through `deal_input.read_british`, the service computes a buy-in's reset value (B7), the validator's
findings show, the game is verified by its finishing order (BV8) or ended by the director."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from adjudication.engine.british_simulator import simulate_british_sheet
from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, DealResult, GameSet

THREE = ("Ann", "Bob", "Cy")


@pytest.fixture
def british_event(make_event):
    return make_event(
        name="Club night", slug="club-night", ruleset_preset="british-swedish", format="placement"
    )


@pytest.fixture
def british_game(british_event, director, make_table):
    rnd = services.round_create(event=british_event, user=director)
    return make_table(rnd, THREE)


# The game the page test types: Bob buys in at 95 on hand 2 and wins on hand 3 (Ann 110, Cy 115 out).
GAME_TO_BOB = (
    {"deal": 1, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 60}, "Cy": {"penalty": 95}}},
    {
        "deal": 2,
        "out": "Cy",
        "results": {"Ann": {"penalty": 30}, "Bob": {"penalty": 50, "buy_in": True}, "Cy": {}},
    },
    {"deal": 3, "out": "Bob", "results": {"Ann": {"penalty": 80}, "Bob": {}, "Cy": {"penalty": 20}}},
)


def long_game(rules, players, *, hands: int = 20) -> dict[str, Any]:
    """The first simulated game (seeds 0, 1, …) of at least `hands` scored hands."""
    for seed in range(1000):
        game = simulate_british_sheet(seed, players, rules=rules, dealers=False)
        if sum(1 for hand in game["deals"] if not hand.get("void")) >= hands:
            return game
    raise AssertionError("no simulated game is that long")


def url(game_set: GameSet, name: str = "direct_table", **kwargs: Any) -> str:
    table = game_set.table
    return reverse(
        f"scoring:{name}",
        kwargs={
            "slug": table.round.event.slug,
            "number": table.round.number,
            "table": table.number,
            **kwargs,
        },
    )


def hand_post(number: int, lines: dict[str, dict[str, Any]], *, out: str, set_version: int, **extra: Any):
    """What the hand form posts: the hand's fields and each player's line (seat order: s1, s2 …)."""
    data = {"deal": str(number), "out": out, "set_version": str(set_version), "dealer": "", **extra}
    for seat, name in enumerate(THREE, start=1):
        if name in lines:
            for key, value in {
                "penalty": "",
                "hand": "",
                "total": "",
                "opened": "",
                "reset_to": "",
                **lines[name],
            }.items():
                if key == "buy_in":
                    if value:
                        data[f"s{seat}-buy_in"] = "on"
                else:
                    data[f"s{seat}-{key}"] = str(value)
    return data


def test_a_game_is_entered_through_the_pages_to_its_winner(as_director, british_game, director):
    page = as_director.get(url(british_game))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Hand 1" in text and "Limit 100" in text and "Buys in" in text
    game = GameSet.objects.get(pk=british_game.pk)
    # Hand 1: Ann out; Cy's score comes from the cards left (AH KS QD JC 10H 9S 8D 7C 6H 5S 4D 3C 2H = 95).
    response = as_director.post(
        url(british_game),
        hand_post(
            1,
            {"Ann": {}, "Bob": {"penalty": 60}, "Cy": {"hand": "AH KS QD JC 10H 9S 8D 7C 6H 5S 4D 3C 2H"}},
            out="Ann",
            set_version=game.version,
        ),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert DealResult.objects.get(deal__number=1, entry__player__name="Cy").penalty == 95
    # Hand 2: Cy out; Bob goes over 100 (60 + 50) and buys in: reset to the highest total still at or
    # under the limit, Cy's 95.
    game.refresh_from_db()
    response = as_director.post(
        url(british_game),
        hand_post(
            2,
            {"Ann": {"penalty": 30}, "Bob": {"penalty": 50, "buy_in": True}, "Cy": {}},
            out="Cy",
            set_version=game.version,
        ),
    )
    assert response.status_code == 302
    line = DealResult.objects.get(deal__number=2, entry__player__name="Bob")
    # The reset and the total before it are the app's to compute: stored blank, not as if typed.
    assert (line.buy_in, line.reset_to, line.total_written) == (True, None, None)
    page = as_director.get(url(british_game)).content.decode()
    assert "bought in at 95" in page
    # Hand 3: Bob out; Ann 30 + 80 = 110 and Cy 95 + 20 = 115 both go over with no buy-in: Bob wins.
    game.refresh_from_db()
    response = as_director.post(
        url(british_game),
        hand_post(
            3, {"Ann": {"penalty": 80}, "Bob": {}, "Cy": {"penalty": 20}}, out="Bob", set_version=game.version
        ),
    )
    assert response.status_code == 302
    page = as_director.get(url(british_game)).content.decode()
    assert "Game over: Bob wins" in page
    assert "Save hand" not in page
    game.refresh_from_db()
    response = as_director.post(url(british_game, "direct_game_verify"), {"version": str(game.version)})
    assert response.status_code == 302, response.content.decode().split("was not verified")[1][:1500]
    game.refresh_from_db()
    assert game.is_verified and game.override_reason == ""
    assert AuditEntry.objects.filter(action="kalooki.hand.recorded").count() == 3
    assert AuditEntry.objects.filter(action="kalooki.set.verified").count() == 1


def test_a_bad_hand_is_refused_beside_its_field(as_director, british_game):
    response = as_director.post(
        url(british_game),
        hand_post(1, {"Ann": {}, "Bob": {"hand": "AH 1C"}, "Cy": {"penalty": 40}}, out="Ann", set_version=1),
    )
    assert response.status_code == 400
    assert "cannot read 1C" in response.content.decode()
    assert not Deal.objects.exists()


def test_a_stale_hand_is_refused(as_director, british_game):
    lines = {"Ann": {}, "Bob": {"penalty": 40}, "Cy": {"penalty": 40}}
    assert (
        as_director.post(url(british_game), hand_post(1, lines, out="Ann", set_version=1)).status_code == 302
    )
    again = as_director.post(url(british_game), hand_post(1, lines, out="Ann", set_version=1))
    assert again.status_code == 409
    assert Deal.objects.count() == 1


def test_a_running_game_is_ended_by_the_director_with_a_reason(as_director, british_game, director):
    services.deal_record(
        game_set=british_game,
        user=director,
        data={"deal": 1, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 40}, "Cy": {"penalty": 12}}},
    )
    british_game.refresh_from_db()
    refused = as_director.post(
        url(british_game, "direct_game_verify"), {"version": str(british_game.version)}
    )
    assert refused.status_code == 400
    assert "still running" in refused.content.decode()
    ended = as_director.post(
        url(british_game, "direct_game_verify"),
        {"version": str(british_game.version), "override_reason": "Time called"},
    )
    assert ended.status_code == 302
    page = as_director.get(url(british_game)).content.decode()
    assert "ended by the director" in page
    order = page.split("Finishing order")[-1]
    assert order.index("Ann") < order.index("Cy") < order.index("Bob")


FOUR = ("Ann", "Bob", "Cy", "Dee")


def test_a_simulated_game_of_twenty_hands_and_more_goes_through_the_service(make_event, make_table, director):
    event = make_event(ruleset_preset="british-501", format="placement")
    game_set = make_table(services.round_create(event=event, user=director), FOUR)
    sheet = long_game(event.ruleset(), FOUR)
    for hand in sheet["deals"]:
        services.deal_record(game_set=game_set, user=director, data=hand)
    game_set.refresh_from_db()
    assert game_set.error_count == 0, game_set.findings
    assert Deal.objects.filter(game_set=game_set, void=False).count() >= 20


def test_the_standings_and_the_table_page_show_the_finishing_order(
    client, british_game, director, django_assert_max_num_queries
):
    from scoring.selectors.british_standings import british_standings

    for hand in GAME_TO_BOB:
        services.deal_record(game_set=british_game, user=director, data=hand)
    event = british_game.table.round.event
    # In play: nothing official yet; provisional counts the finished game. Ann (110) and Cy (115) went
    # out on the same hand: the lower total places better (BV8).
    assert british_standings(event) == []
    rows = british_standings(event, provisional=True)
    assert [(row["player"], row["place"], row["points"], row["games_won"]) for row in rows] == [
        ("Bob", 1, 2, 1),
        ("Ann", 2, 1, 0),
        ("Cy", 3, 0, 0),
    ]
    british_game.refresh_from_db()
    services.set_verify(game_set=british_game, user=director, expected_version=british_game.version)
    event.refresh_from_db()
    with django_assert_max_num_queries(6):
        rows = british_standings(event)
    assert rows[0] == {
        "place": 1,
        "shared": False,
        "player": "Bob",
        "club": "",
        "points": 2,
        "games": 1,
        "games_won": 1,
        "penalty": 110,
    }
    page = client.get(reverse("scoring:standings", kwargs={"slug": event.slug})).content.decode()
    assert "Games won" in page and "Bob" in page
    csv = client.get(
        reverse("scoring:standings", kwargs={"slug": event.slug}) + "?_export=csv"
    ).content.decode("utf-8-sig")
    assert csv.splitlines()[0].startswith("Place,Shared,Player,Club,Points,Games,Games won,Penalties")
    table = client.get(url(british_game, "table")).content.decode()
    order = table.split("Finishing order")[1]
    assert order.index("Bob") < order.index("Ann") < order.index("Cy")


def test_a_british_games_ranks_in_the_ratings_are_its_finishing_order(british_game, director):
    from scoring.models import Event
    from scoring.selectors.ratings import event_places, rated_sets

    # Final as the round closes (no correction period): a rating counts final results only.
    Event.objects.filter(pk=british_game.table.round.event_id).update(correction_minutes=0)
    for hand in GAME_TO_BOB:
        services.deal_record(game_set=british_game, user=director, data=hand)
    british_game.refresh_from_db()
    services.set_verify(game_set=british_game, user=director, expected_version=british_game.version)
    (match,) = rated_sets().matches
    # Bob has the highest penalty sum (110) but won the game: first. By set totals he would not be.
    assert dict(zip(match.players, match.ranks, strict=True)) == {"name:Ann": 2, "name:Bob": 1, "name:Cy": 3}
    event = british_game.table.round.event
    event.refresh_from_db()
    (places,) = event_places([event])
    assert sorted(place for *_, place, _shared in places.rows) == [1, 2, 3]


def test_the_dashboard_counts_hands_and_lists_a_finished_game_to_verify(as_director, british_game, director):
    for hand in (
        {"deal": 1, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 60}, "Cy": {"penalty": 95}}},
        {"deal": 2, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 50}, "Cy": {"penalty": 20}}},
    ):
        services.deal_record(game_set=british_game, user=director, data=hand)
    event = british_game.table.round.event
    page = as_director.get(reverse("scoring:direct", kwargs={"slug": event.slug})).content.decode()
    assert "2 hands" in page and "/ 9" not in page
    from scoring.selectors import director_worklist, event_tables_status

    worklist = director_worklist(event_tables_status(event))
    assert [item.table.number for item in worklist.to_verify] == [1]


def test_every_public_page_of_a_british_event_answers(client, as_director, british_game, director):
    for hand in GAME_TO_BOB:
        services.deal_record(game_set=british_game, user=director, data=hand)
    event = british_game.table.round.event
    entry = event.entries.first()
    public = [
        f"/e/{event.slug}/",
        f"/e/{event.slug}/standings/?provisional=1",
        f"/e/{event.slug}/standings/?provisional=1&_export=xlsx",
        f"/e/{event.slug}/r/1/",
        f"/e/{event.slug}/r/1/t/1/",
        f"/e/{event.slug}/r/1/seating/",
        f"/e/{event.slug}/projector/",
        f"/e/{event.slug}/p/{entry.pk}/",
        reverse("scoring:pdf_standings", kwargs={"slug": event.slug}),
        "/ratings/",
    ]
    for address in public:
        assert client.get(address).status_code == 200, address
    directed = [
        reverse("scoring:direct", kwargs={"slug": event.slug}),
        url(british_game, "direct_deal", sequence=2),
        url(british_game, "pdf_table_blank"),
        url(british_game, "pdf_table_sheet"),
        reverse("scoring:pdf_round_sheets", kwargs={"slug": event.slug, "number": 1}) + "?completed=1",
    ]
    for address in directed:
        assert as_director.get(address).status_code == 200, address


def test_the_projector_shows_a_british_events_points(client, british_game, director):
    for hand in GAME_TO_BOB:
        services.deal_record(game_set=british_game, user=director, data=hand)
    event = british_game.table.round.event
    page = client.get(f"/e/{event.slug}/projector/?provisional=1").content.decode()
    assert ">Points<" in page and ">Games<" in page
    row = page.split('<td class="place">1</td><th scope="row">Bob</th>')[1]
    assert row.startswith('<td class="num">2</td><td class="num">1</td>')


def test_verifying_a_rounds_last_game_closes_the_round_and_a_reopened_game_keeps_counting(
    client, british_game, director
):
    from scoring.selectors.british_standings import british_standings

    for hand in GAME_TO_BOB:
        services.deal_record(game_set=british_game, user=director, data=hand)
    event = british_game.table.round.event
    page = client.get(reverse("scoring:standings", kwargs={"slug": event.slug})).content.decode()
    assert "no round complete yet" in page
    british_game.refresh_from_db()
    services.set_verify(game_set=british_game, user=director, expected_version=british_game.version)
    rnd = british_game.table.round
    rnd.refresh_from_db()
    assert rnd.closed_at is not None
    assert AuditEntry.objects.filter(action="kalooki.round.closed", object_id=str(rnd.pk)).count() == 1
    page = client.get(reverse("scoring:standings", kwargs={"slug": event.slug})).content.decode()
    assert "after round 1" in page
    british_game.refresh_from_db()
    services.set_reopen(game_set=british_game, user=director, reason="A score to check")
    rnd.refresh_from_db()
    assert rnd.closed_at is not None
    assert [row["player"] for row in british_standings(event)] == ["Bob", "Ann", "Cy"]
