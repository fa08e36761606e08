"""A British knock-out: the first `advance` of each game go through to the next round's seating; a tie at
the cut on place is broken by the lower sum of that game's penalties, then by a lot drawn with the
round's seed and recorded in the audit log; the knock-out standings rank by the round reached."""

from __future__ import annotations

import pytest

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Seat
from scoring.selectors.british_standings import british_knockout_cuts, british_standings

EIGHT = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def knockout(make_event, make_table, director):
    event = make_event(
        name="Knock-out", slug="british-ko", ruleset_preset="british-swedish", format="knockout", advance=2
    )
    rnd = services.round_create(event=event, user=director)
    first = make_table(rnd, EIGHT[:4])
    second = make_table(rnd, EIGHT[4:])
    return event, first, second


def finish(game_set, director, hands):
    for hand in hands:
        services.deal_record(game_set=game_set, user=director, data=hand)
    game_set.refresh_from_db()
    services.set_verify(game_set=game_set, user=director, expected_version=game_set.version)


def test_the_first_two_of_each_game_go_through_and_a_tie_at_the_cut_is_drawn(knockout, director):
    event, first, second = knockout
    # Table 1: Ann wins; Cy and Dee go out together on hand 1 (Dee lower); Bob last out: Ann, Bob.
    finish(
        first,
        director,
        [
            {
                "deal": 1,
                "out": "Ann",
                "results": {
                    "Ann": {},
                    "Bob": {"penalty": 40},
                    "Cy": {"penalty": 120},
                    "Dee": {"penalty": 110},
                },
            },
            {"deal": 2, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 70}}},
        ],
    )
    # Table 2: Eve wins; Fay, Gus and Hal go out on hand 1, Fay with the lowest total: Eve and Fay
    # (Gus and Hal are tied, but behind the cut: no lot).
    finish(
        second,
        director,
        [
            {
                "deal": 1,
                "out": "Eve",
                "results": {
                    "Eve": {},
                    "Fay": {"penalty": 101},
                    "Gus": {"penalty": 130},
                    "Hal": {"penalty": 130},
                },
            },
        ],
    )
    cuts = {cut.table_number: cut for cut in british_knockout_cuts(event, round_number=1)}
    assert not cuts[1].tied and not cuts[2].tied
    rnd = services.round_create(event=event, user=director)
    services.round_seat(round=rnd, user=director, seed=7)
    seated = sorted(Seat.objects.filter(round=rnd).values_list("entry__player__name", flat=True))
    assert seated == ["Ann", "Bob", "Eve", "Fay"]
    rows = british_standings(event)
    assert rows[0]["round_reached"] == 1  # round 2 has not been played yet


def test_a_tie_on_place_and_penalties_is_broken_by_a_recorded_lot(knockout, director):
    event, first, second = knockout
    # At each table the winner goes through; the three others all go out on hand 1 with 130: they share
    # second place with equal penalties, so a lot picks the one who goes through with the winner.
    for game, players in ((first, EIGHT[:4]), (second, EIGHT[4:])):
        winner, *others = players
        finish(
            game,
            director,
            [
                {
                    "deal": 1,
                    "out": winner,
                    "results": {winner: {}, **{name: {"penalty": 130} for name in others}},
                }
            ],
        )
    cuts = british_knockout_cuts(event, round_number=1)
    assert [(len(cut.through), len(cut.tied), cut.places) for cut in cuts] == [(1, 3, 1), (1, 3, 1)]
    rnd = services.round_create(event=event, user=director)
    services.round_seat(round=rnd, user=director, seed=11)
    seated = set(Seat.objects.filter(round=rnd).values_list("entry__player__name", flat=True))
    assert {"Ann", "Eve"} <= seated and len(seated) == 4
    lots = AuditEntry.objects.filter(action="kalooki.round.lot_drawn").order_by("pk")
    assert [lot.after["tied"] for lot in lots] == [["Bob", "Cy", "Dee"], ["Fay", "Gus", "Hal"]]
    assert all(len(lot.after["through"]) == 1 and set(lot.after["through"]) <= seated for lot in lots)
