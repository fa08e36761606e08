"""Database constraints for what must never happen, whatever writes the rows."""

import pytest
from django.db import IntegrityError, transaction

from scoring.models import MAX_DEAL_NUMBER, Deal, DealResult, Player, Seat, Table


def _deal(game_set, *, sequence, number, void=False):
    return Deal.objects.create(game_set=game_set, sequence=sequence, number=number, void=void)


def test_a_player_has_one_result_per_deal(game_set, entries):
    deal = _deal(game_set, sequence=1, number=1)
    DealResult.objects.create(deal=deal, entry=entries["Ann"], penalty=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealResult.objects.create(deal=deal, entry=entries["Ann"], penalty=5)


def test_a_player_is_seated_once_per_round(game_set, entries, round1):
    table = Table.objects.create(round=round1, number=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, round=round1, position=1, entry=entries["Ann"])


def test_a_scored_deal_number_appears_once_per_set_but_a_void_deal_is_replayed(game_set):
    _deal(game_set, sequence=1, number=1, void=True)
    _deal(game_set, sequence=2, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        _deal(game_set, sequence=3, number=1)


@pytest.mark.parametrize("number", [0, MAX_DEAL_NUMBER + 1])
def test_deal_numbers_run_from_one_to_the_databases_bound(game_set, number):
    # The ruleset's own bound (9 deals, or a British game's max_hands) is the services'.
    with pytest.raises(IntegrityError), transaction.atomic():
        _deal(game_set, sequence=1, number=number)


@pytest.mark.parametrize(
    "fields",
    [{"penalty": -1}, {"calls": -1, "penalty": 0}, {"penalty": 0, "other_points": -5}],
)
def test_results_are_never_negative(game_set, entries, fields):
    deal = _deal(game_set, sequence=1, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealResult.objects.create(deal=deal, entry=entries["Bob"], **fields)


def test_a_substitute_needs_the_deal_they_play_from(game_set, entries):
    seat = Seat.objects.get(table=game_set.table, entry=entries["Ann"])
    seat.substitute = entries["Bob"]
    with pytest.raises(IntegrityError), transaction.atomic():
        seat.save()


def test_membership_ids_are_unique_but_may_be_blank(db):
    Player.objects.create(name="A", membership_id="")
    Player.objects.create(name="B", membership_id="")
    Player.objects.create(name="C", membership_id="JKA-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="D", membership_id="JKA-1")


def test_event_ruleset_applies_the_overrides(make_event):
    event = make_event(rules_overrides={"overcall_penalty": 25})
    assert event.ruleset().overcall_penalty == 25
    assert event.etag == f'"{event.pk}-0"'


def test_a_player_cannot_be_renamed_onto_another_entry_of_the_same_event(entries):
    from django.core.exceptions import ValidationError

    bob = entries["Bob"].player
    bob.name = "ann"
    with pytest.raises(ValidationError, match="already has a player called Ann"):
        bob.full_clean()
    bob.name = "Robert"
    bob.full_clean()
