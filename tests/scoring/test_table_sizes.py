"""Table sizes from the ruleset (issue 20, item 3): a game of hands seats as few tables as its
`max_players` allows, sizes differing by at most one and none below `min_players`; an event's preferred
`table_size` is used when it divides the field; a knock-out final of two is one table of two; the
seating says how it split the field. Jamaican seating is as before (tests/scoring/test_seating.py)."""

from __future__ import annotations

import doctest
import random

import pytest
from django.urls import reverse

import scoring.seating
from adjudication.engine.parameters import InvalidRuleSet
from adjudication.engine.rules import ruleset_from
from adjudication.models import AuditEntry
from scoring import seating, services
from scoring.models import GameSet, Round, Seat, Table
from scoring.selectors.british_standings import british_standings

TEN = tuple(f"P{n:02}" for n in range(10))


def sizes(rnd: Round) -> list[int]:
    return [table.seats.count() for table in Table.objects.filter(round=rnd).order_by("number")]


def seated_log(rnd: Round) -> AuditEntry:
    return AuditEntry.objects.filter(action="kalooki.round.seated", object_id=str(rnd.pk)).latest("pk")


# --- the sizes, without a database ---------------------------------------------------------------


def test_the_seating_modules_examples_hold():
    assert doctest.testmod(scoring.seating).failed == 0


@pytest.mark.parametrize(
    ("preset", "overrides", "count", "expected"),
    [
        ("british", None, 10, [5, 5]),
        ("british", None, 2, [2]),
        ("british", None, 5, [5]),
        ("british", None, 6, [3, 3]),
        ("british", None, 11, [4, 4, 3]),
        ("british", None, 16, [4, 4, 4, 4]),
        ("north-american", {"hands": 6}, 14, [5, 5, 4]),
        ("north-american", {"hands": 6}, 12, [6, 6]),
        ("north-american", {"hands": 6}, 2, [2]),
        ("north-american", {"hands": 6}, 7, [4, 3]),
    ],
)
def test_a_game_of_hands_seats_as_few_tables_as_max_players_allows(preset, overrides, count, expected):
    rules = ruleset_from(preset, overrides)
    assert rules.table_size is None
    got = seating.round_sizes(count, rules)
    assert got == expected
    assert len(got) == -(-count // rules.max_players)
    assert max(got) - min(got) <= 1 and min(got) >= rules.min_players


@pytest.mark.parametrize(
    ("preset", "overrides", "count", "expected"),
    [
        # 4 divides 12 and 16: tables of four, not the fewest tables.
        ("british", {"table_size": 4}, 12, [4, 4, 4]),
        ("north-american", {"hands": 6, "table_size": 4}, 16, [4, 4, 4, 4]),
        ("british", {"table_size": 2}, 6, [2, 2, 2]),
        # 4 does not divide 10, 17 or 19: ignored, as few tables as max_players allows.
        ("british", {"table_size": 4}, 10, [5, 5]),
        ("british", {"table_size": 4}, 19, [5, 5, 5, 4]),
        ("north-american", {"hands": 6, "table_size": 4}, 17, [6, 6, 5]),
        ("north-american", {"hands": 6, "table_size": 4}, 14, [5, 5, 4]),
    ],
)
def test_a_preferred_table_size_is_used_only_when_it_divides_the_field(preset, overrides, count, expected):
    assert seating.round_sizes(count, ruleset_from(preset, overrides)) == expected


@pytest.mark.parametrize(
    ("preset", "overrides", "count", "expected"),
    [
        ("jamaican", None, 16, [4, 4, 4, 4]),
        ("jamaican", None, 17, [4, 4, 4, 5]),
        ("jamaican", None, 19, [4, 4, 4, 4, 3]),
        ("jamaican", None, 6, [3, 3]),
        ("jamaican", None, 10, [5, 5]),
        ("jamaican-large", {"table_size": 6}, 13, [6, 7]),
    ],
)
def test_a_jamaican_round_still_seats_its_table_size_one_more_or_fewer_at_the_last(
    preset, overrides, count, expected
):
    rules = ruleset_from(preset, overrides)
    assert seating.round_sizes(count, rules) == expected
    assert seating.round_sizes(count, rules) == seating.table_sizes(
        count, size=rules.table_size, min_players=rules.min_players, max_players=rules.max_players
    )


def test_a_jamaican_round_of_two_is_still_refused():
    with pytest.raises(seating.SeatingError, match="2 players cannot be seated at tables of 4"):
        seating.round_sizes(2, ruleset_from("jamaican"))


def test_one_player_cannot_be_seated_at_a_game_of_hands():
    with pytest.raises(seating.SeatingError, match="1 player cannot be seated at tables of 2–5 players"):
        seating.round_sizes(1, ruleset_from("british"))


def test_a_table_the_deck_cannot_deal_is_never_planned():
    # 40 cards each from 106: two players (81 cards with the upcard) can be dealt, three cannot, so
    # six players sit at three tables of two, not two of three.
    rules = ruleset_from("british", {"hand_size": 40})
    assert rules.can_deal(2) and not rules.can_deal(3)
    assert seating.round_sizes(6, rules) == [2, 2, 2]


@pytest.mark.parametrize(
    ("preset", "overrides", "path", "words"),
    [
        ("british", {"table_size": 6}, "rules.table_size", "more than max_players (5)"),
        ("british", {"table_size": 1}, "rules.table_size", "at least 2"),
        ("british", {"table_size": "4"}, "rules.table_size", "expected a whole number"),
        ("british", {"hand_size": 40, "table_size": 3}, "rules.table_size", "cannot deal a table of 3"),
        ("north-american", {"hands": 6, "table_size": 7}, "rules.table_size", "more than max_players (6)"),
    ],
)
def test_a_preferred_table_size_no_table_could_play_is_refused(preset, overrides, path, words):
    with pytest.raises(InvalidRuleSet) as refused:
        ruleset_from(preset, overrides)
    assert refused.value.path == path and words in refused.value.problem


@pytest.mark.parametrize(("preset", "hands"), [("british", None), ("north-american", 6)])
def test_table_size_is_an_optional_rule_of_every_game(preset, hands):
    overrides = {"hands": hands} if hands else {}
    rules = ruleset_from(preset, overrides or None)
    assert rules.to_rules_dict()["table_size"] is None
    preferring = ruleset_from(preset, {**overrides, "table_size": 3})
    assert preferring.overrides() == {**overrides, "table_size": 3}
    assert ruleset_from(preset, preferring.overrides()) == preferring


def test_the_split_is_described_larger_tables_first():
    assert seating.describe_split([5, 5, 4]) == "14 players: 2 tables of 5, 1 table of 4"


# --- seating a round through the services ----------------------------------------------------------


@pytest.fixture
def british_ten(make_event, make_entries, director):
    event = make_event(ruleset_preset="british", format="placement")
    make_entries(event, TEN)
    return event, services.round_create(event=event, user=director)


def test_ten_british_players_are_seated_as_two_fives(british_ten, director):
    _event, rnd = british_ten
    seated = services.round_seat(round=rnd, user=director, seed=5)
    assert sizes(rnd) == [5, 5]
    assert seated.seating_split == "10 players: 2 tables of 5"
    assert seated_log(rnd).after["split"] == "10 players: 2 tables of 5"


def test_the_director_is_told_how_the_field_was_split(as_director, british_ten):
    event, rnd = british_ten
    response = as_director.post(
        reverse("scoring:direct_round_seat", kwargs={"slug": event.slug, "number": rnd.number}),
        {"method": "random", "seed": "5"},
        follow=True,
    )
    assert response.status_code == 200
    messages = [str(message) for message in response.context["messages"]]
    assert messages == ["Round 1 seated (Random draw, seed 5). 10 players: 2 tables of 5."]


def test_an_events_preferred_table_size_seats_the_round_when_it_divides_the_field(
    make_event, make_entries, director
):
    event = make_event(ruleset_preset="british", format="placement", rules_overrides={"table_size": 2})
    make_entries(event, TEN)
    rnd = services.round_create(event=event, user=director)
    services.round_seat(round=rnd, user=director, seed=1)
    assert sizes(rnd) == [2, 2, 2, 2, 2]
    assert seated_log(rnd).after["split"] == "10 players: 5 tables of 2"


def test_an_events_preferred_table_size_is_ignored_when_it_does_not_divide_the_field(
    make_event, make_entries, director
):
    event = make_event(ruleset_preset="british", format="placement", rules_overrides={"table_size": 4})
    make_entries(event, TEN)
    rnd = services.round_create(event=event, user=director)
    services.round_seat(round=rnd, user=director, seed=1)
    assert sizes(rnd) == [5, 5]


def test_fourteen_north_american_players_are_seated_five_five_four(make_event, make_entries, director):
    event = make_event(ruleset_preset="north-american", format="placement", rules_overrides={"hands": 3})
    make_entries(event, [f"N{n:02}" for n in range(14)])
    rnd = services.round_create(event=event, user=director)
    seated = services.round_seat(round=rnd, user=director, seed=2)
    assert sizes(rnd) == [5, 5, 4]
    assert seated.seating_split == "14 players: 2 tables of 5, 1 table of 4"


def test_a_jamaican_round_records_its_split_too(event, round1, make_entries, director):
    make_entries(event, [f"J{n:02}" for n in range(17)])
    services.round_seat(round=round1, user=director, seed=3)
    assert sizes(round1) == [4, 4, 4, 5]
    assert seated_log(round1).after["split"] == "17 players: 1 table of 5, 3 tables of 4"


def test_a_hand_made_table_of_two_is_allowed_in_a_game_of_hands(make_event, make_entries, director):
    event = make_event(ruleset_preset="british", format="placement")
    two = make_entries(event, ["Ann", "Bob"])
    rnd = services.round_create(event=event, user=director)
    services.round_seat_manual(
        round=rnd, user=director, tables=[services.ManualTable(number=1, entries=list(two.values()))]
    )
    assert sizes(rnd) == [2]
    assert seated_log(rnd).after["split"] == "2 players: 1 table of 2"


# --- a knock-out to a final of two, played to its winner ------------------------------------------


def play_to_the_end(game_set: GameSet, director, *, winner: str, penalties: dict[str, int]) -> None:
    """One hand: `winner` goes out, everyone else over the limit (no buy-in) and out; then verified."""
    services.deal_record(
        game_set=game_set,
        user=director,
        data={
            "deal": 1,
            "out": winner,
            "results": {winner: {}, **{n: {"penalty": p} for n, p in penalties.items()}},
        },
    )
    game_set.refresh_from_db()
    services.set_verify(game_set=game_set, user=director, expected_version=game_set.version)


def players_at(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("entry__player__name", flat=True))


def test_a_british_knockout_ends_in_a_final_of_two_seated_and_played_to_its_winner(
    make_event, make_entries, director
):
    event = make_event(ruleset_preset="british-swedish", format="knockout", advance=1)
    make_entries(event, TEN)
    first = services.round_create(event=event, user=director)
    services.round_seat(round=first, user=director, seed=9)
    assert sizes(first) == [5, 5]
    winners = []
    for table in Table.objects.filter(round=first).order_by("number"):
        winner, *others = players_at(table)
        play_to_the_end(
            table.game_set,
            director,
            winner=winner,
            penalties={name: 101 + i for i, name in enumerate(others)},
        )
        winners.append(winner)

    final = services.round_create(event=event, user=director)
    seated = services.round_seat(round=final, user=director, seed=9)
    assert seated.method == Round.Method.KNOCKOUT
    assert sizes(final) == [2]
    assert seated.seating_split == "2 players: 1 table of 2"
    table = Table.objects.get(round=final)
    assert sorted(players_at(table)) == sorted(winners)

    champion, runner_up = players_at(table)
    # Two hands: the runner-up survives the first (60 of 100), then goes over the limit on the second.
    services.deal_record(
        game_set=table.game_set,
        user=director,
        data={"deal": 1, "out": champion, "results": {champion: {}, runner_up: {"penalty": 60}}},
    )
    services.deal_record(
        game_set=table.game_set,
        user=director,
        data={"deal": 2, "out": champion, "results": {champion: {}, runner_up: {"penalty": 50}}},
    )
    game_set = GameSet.objects.get(pk=table.game_set.pk)
    services.set_verify(game_set=game_set, user=director, expected_version=game_set.version)
    game_set.refresh_from_db()
    assert game_set.status == GameSet.Status.VERIFIED
    assert Seat.objects.filter(round=final).count() == 2

    rows = british_standings(event)
    assert rows[0]["player"] == champion and rows[0]["round_reached"] == 2
    assert rows[1]["player"] == runner_up and rows[1]["round_reached"] == 2


def test_plan_round_seats_a_final_of_two():
    players = [seating.Seatable(1), seating.Seatable(2)]
    plans = seating.plan_round(players, ruleset_from("british"), rng=random.Random(1), shuffle=False)
    assert [len(plan.players) for plan in plans] == [2]
    assert plans[0].first_dealer in (1, 2)
