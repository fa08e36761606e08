"""A round of British games counts a game as finished by the game's own end (BV7: one player left at or
under the limit), not at a nine-deal set's ninth deal: the event page and the projector's summaries agree
with the round's tables, in one query, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import pytest

from scoring import selectors, services

THREE = ("Ann", "Bob", "Cy")

# Bob buys in at 95 in hand 2 and wins in hand 3 (Ann 110 and Cy 115 both over).
TO_BOB = (
    {"deal": 1, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 60}, "Cy": {"penalty": 95}}},
    {"deal": 2, "out": "Cy",
     "results": {"Ann": {"penalty": 30}, "Bob": {"penalty": 50, "buy_in": True}, "Cy": {}}},
    {"deal": 3, "out": "Bob", "results": {"Ann": {"penalty": 80}, "Bob": {}, "Cy": {"penalty": 20}}},
)  # fmt: skip


def renamed(hands, names):
    mapping = dict(zip(THREE, names, strict=True))
    return [
        {**hand, "out": mapping[hand["out"]], "results": {mapping[k]: v for k, v in hand["results"].items()}}
        for hand in hands
    ]


@pytest.fixture
def british_round(make_event, make_table, director):
    """Round 1 of a British event: table 1 played to its winner in three hands, table 2 after one hand,
    table 3 not started, table 4 ended by the director after one hand. Round 2 seated, nothing played."""
    event = make_event(
        name="Club night", slug="club-night", ruleset_preset="british-swedish", format="placement"
    )
    rnd = services.round_create(event=event, user=director)
    tables = [
        make_table(rnd, names)
        for names in (THREE, ("Dee", "Eve", "Fay"), ("Gus", "Hal", "Ivy"), ("Jo", "Kit", "Lee"))
    ]
    for game_set, hands in zip(tables, (TO_BOB, TO_BOB[:1], (), TO_BOB[:1]), strict=True):
        names = [seat.entry.player.name for seat in game_set.table.seats.order_by("position")]
        for hand in renamed(hands, names):
            services.deal_record(game_set=game_set, user=director, data=hand)
    ended = tables[3]
    ended.refresh_from_db()
    services.set_verify(game_set=ended, user=director, expected_version=ended.version, override_reason="Time")
    make_table(services.round_create(event=event, user=director), THREE)
    return event


def test_a_game_played_to_its_winner_counts_as_finished(british_round, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = selectors.round_summaries(british_round)
    assert [(row.number, row.table_count, row.finished, row.verified) for row in rows] == [
        (1, 4, 1, 1),
        (2, 1, 0, 0),
    ]


def test_the_summaries_agree_with_the_tables(british_round):
    every = selectors.event_tables_status(british_round)
    assert [table.finished for table in every[0].tables] == [True, False, False, False]
    for summary, full in zip(selectors.round_summaries(british_round), every, strict=True):
        assert (summary.table_count, summary.finished, summary.verified) == (
            len(full.tables),
            full.finished,
            full.verified,
        )


def test_the_event_page_counts_the_finished_game(client, british_round):
    page = client.get(f"/e/{british_round.slug}/")
    assert page.status_code == 200
    assert "4 tables: 1 finished, 1 verified." in " ".join(page.content.decode().split())


def test_a_finished_game_then_verified_stays_finished(british_round, director):
    game_set = british_round.rounds.get(number=1).tables.get(number=1).game_set
    services.set_verify(game_set=game_set, user=director, expected_version=game_set.version)
    (first, _) = selectors.round_summaries(british_round)
    assert (first.finished, first.verified) == (1, 2)
