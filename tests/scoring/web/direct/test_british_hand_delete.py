"""Deleting a hand of a British game from its page: asked with a reason and a confirmation as a Jamaican
deal is, audited with the hand whole (its buy-in and reset value), and the hand's number is due again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal
from tests.scoring.game_seam_support import GAME_TO_BOB, THREE, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def british_game(make_event, director, make_table):
    event = make_event(
        name="Hand night", slug="hand-night", ruleset_preset="british-swedish", format="placement"
    )
    game = make_table(services.round_create(event=event, user=director), THREE)
    return record_hands(game, director, GAME_TO_BOB[:2])


def url(game, name, **kwargs):
    table = game.table
    return reverse(
        f"scoring:{name}",
        kwargs={
            "slug": table.round.event.slug,
            "number": table.round.number,
            "table": table.number,
            **kwargs,
        },
    )


def test_a_hands_page_offers_to_delete_it(as_director, british_game):
    page = as_director.get(url(british_game, "direct_deal", sequence=2)).content.decode()
    assert "Delete hand 2" in page and "Why delete this hand?" in page
    assert url(british_game, "direct_deal_delete", sequence=2) in page


def test_deleting_a_hand_keeps_it_whole_in_the_log_and_its_number_is_due_again(as_director, british_game):
    hand = Deal.objects.get(game_set=british_game, sequence=1)
    response = as_director.post(
        url(british_game, "direct_deal_delete", sequence=1),
        {"version": str(hand.version), "reason": "Entered on the wrong table", "confirm": "on"},
        follow=True,
    )
    text = response.content.decode()
    assert "Hand 1 deleted: it is due again." in text and "Next to enter: hand 1." in text
    entry = AuditEntry.objects.get(action="kalooki.hand.deleted")
    assert entry.before["deal"] == 1
    bought = AuditEntry.objects.filter(action="kalooki.hand.deleted").values_list("before", flat=True)
    assert all("kalookie" in before for before in bought)
    # Hand 2 (Bob's buy-in) stays; the hand due is 1 again, entered before the game goes on.
    again = services.deal_record(game_set=british_game, user=None, data=dict(GAME_TO_BOB[0]))
    assert again.deal.number == 1


def test_a_deleted_buy_in_hand_is_audited_with_its_buy_in_and_reset(as_director, british_game):
    hand = Deal.objects.get(game_set=british_game, sequence=2)
    as_director.post(
        url(british_game, "direct_deal_delete", sequence=2),
        {"version": str(hand.version), "reason": "Played again", "confirm": "on"},
    )
    before = AuditEntry.objects.get(action="kalooki.hand.deleted").before
    assert before["results"]["Bob"]["buy_in"] is True and before["results"]["Bob"]["reset_to"] is not None


def test_a_refused_delete_of_a_hand_redraws_the_games_page_naming_the_missing_reason(
    as_director, british_game
):
    hand = Deal.objects.get(game_set=british_game, sequence=2)
    response = as_director.post(
        url(british_game, "direct_deal_delete", sequence=2), {"version": str(hand.version), "confirm": "on"}
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "Delete hand 2" in text and "This field is required" in text
    assert Deal.objects.filter(game_set=british_game).count() == 2


def test_a_new_hand_posted_without_the_games_version_is_refused(as_director, british_game):
    # As the page posts it: a line for each player still in (the winner's score left blank).
    post = {"deal": "3", "out": "Ann", "s1-penalty": "", "s2-penalty": "20", "s3-penalty": "3"}
    response = as_director.post(url(british_game, "direct_table"), post)
    assert response.status_code == 400
    assert Deal.objects.filter(game_set=british_game).count() == 2
    british_game.refresh_from_db()
    response = as_director.post(
        url(british_game, "direct_table"), {**post, "set_version": british_game.version}
    )
    assert response.status_code == 302
    assert Deal.objects.filter(game_set=british_game).count() == 3


def test_a_hand_number_other_than_the_one_due_is_refused_not_saved_as_a_draft(as_director, british_game):
    british_game.refresh_from_db()
    post = {"deal": "200", "out": "Ann", "s1-penalty": "", "s2-penalty": "20", "s3-penalty": "3"}
    response = as_director.post(
        url(british_game, "direct_table"), {**post, "set_version": british_game.version}
    )
    assert response.status_code == 400
    assert "Hand 3 is due next, not hand 200." in response.content.decode()
    assert Deal.objects.filter(game_set=british_game).count() == 2
