"""A line of typed zeros is a result (issue 10, part 2): a winner who went out doubled with 0 calls,
score 0 and total 0 — deal 1, or a player who has won every deal so far — is never "no result"
(V12 MISSING_RESULT), through the form, the save and the live check, in both entry modes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import DealResult
from scoring.web.forms import DealEntry
from tests.scoring.test_entry_views import FOUR, form_data, table_url, text


def doubled_by_ann(number: int, *, ann_total: int = 0, others=(40, 40, 60), dealer="Ann") -> dict:
    """Deal `number` won by Ann, out on her first opening (0 calls, doubled); Ann's line all zeros."""
    bob, cy, dee = others
    return {
        "deal": number,
        "out": "Ann",
        "doubled": True,
        "dealer": dealer,
        "results": {
            "Ann": {"calls": 0, "penalty": 0, "total": ann_total},
            "Bob": {"calls": 0, "penalty": bob, "total": bob * number},
            "Cy": {"calls": 0, "penalty": cy, "total": cy * number},
            "Dee": {"calls": 0, "penalty": dee, "total": dee * number},
        },
    }


def entry_for(data: dict[str, str]) -> DealEntry:
    entry = DealEntry(data, players=FOUR)
    assert entry.is_valid(), entry.deal.errors
    return entry


# --- through the form ---------------------------------------------------------------------------


def test_the_winners_line_of_typed_zeros_is_a_result_of_the_form():
    results = entry_for(form_data(doubled_by_ann(1)))
    assert results.as_deal_data()["results"]["Ann"] == {"calls": 0, "penalty": 0, "total": 0}


def test_a_line_of_typed_zeros_is_a_result_before_the_winner_is_chosen():
    # The director has typed Ann's zeros but not yet who went out: the line is still a result.
    deal = doubled_by_ann(1) | {"out": ""}
    data = entry_for(form_data(deal)).as_deal_data()
    assert data["results"]["Ann"] == {"calls": 0, "penalty": 0, "total": 0}


@pytest.mark.parametrize("field", ["calls", "penalty", "total"])
def test_a_single_typed_zero_makes_a_line_a_result(field):
    data = {"deal": "1", "set_version": "1", "out": "", f"p2-{field}": "0"}
    assert "Bob" in entry_for(data).as_deal_data()["results"]


def test_a_line_with_nothing_typed_is_still_no_result():
    data = {"deal": "1", "set_version": "1", "out": "Ann", "p1-calls": "0"}
    results = entry_for(data).as_deal_data()["results"]
    assert set(results) == {"Ann"}


# --- over HTTP, both entry modes ----------------------------------------------------------------


def choose_mode(client, game_set, mode: str) -> None:
    event = game_set.table.round.event
    url = reverse("scoring:direct_entry_mode", kwargs={"slug": event.slug})
    assert client.post(url, {"mode": mode}).status_code == 302


@pytest.mark.parametrize("mode", ["totals", "fast"])
def test_a_winner_of_every_deal_so_far_saves_a_line_of_zeros(as_director, game_set, mode):
    choose_mode(as_director, game_set, mode)
    for number, dealer in ((1, "Ann"), (2, "Bob")):
        deal = doubled_by_ann(number, dealer=dealer)
        if mode == "fast":
            # Fast mode types calls and scores; the winner's score is implied and no total is typed.
            for line in deal["results"].values():
                line.pop("total")
            deal["results"]["Ann"].pop("penalty")
        response = as_director.post(table_url(game_set), form_data(deal, set_version=number), follow=True)
        html = text(response)
        assert response.status_code == 200
        assert "MISSING_RESULT" not in html and "has no result" not in html
        assert f"Deal {number} saved." in html
    ann = DealResult.objects.filter(entry__player__name="Ann").order_by("deal__number")
    assert [(row.calls, row.penalty) for row in ann] == [(0, 0), (0, 0)]
    game_set.refresh_from_db()
    assert game_set.error_count == 0


@pytest.mark.parametrize("mode", ["totals", "fast"])
def test_the_live_check_takes_the_winners_zeros_as_a_result(as_director, game_set, mode):
    choose_mode(as_director, game_set, mode)
    as_director.post(table_url(game_set), form_data(doubled_by_ann(1)))
    response = as_director.post(
        table_url(game_set, "direct_validate"), form_data(doubled_by_ann(2, dealer="Bob"), set_version=2)
    )
    html = text(response)
    assert response.status_code == 200
    assert "MISSING_RESULT" not in html and "has no result" not in html


def test_typed_zeros_without_a_winner_are_checked_as_a_result_not_missing(as_director, game_set):
    # Who went out is not given yet: the deal has no winner (V1), but Ann's zeros are on the sheet.
    deal = doubled_by_ann(1) | {"out": ""}
    html = text(as_director.post(table_url(game_set, "direct_validate"), form_data(deal)))
    assert "NO_WINNER" in html
    assert "MISSING_RESULT" not in html and "has no result" not in html
    response = as_director.post(table_url(game_set), form_data(deal), follow=True)
    assert "MISSING_RESULT" not in text(response)
    assert DealResult.objects.filter(entry__player__name="Ann", penalty=0, calls=0).exists()


def test_typed_zeros_for_a_player_who_did_not_go_out_are_a_wrong_score_not_a_missing_one(
    as_director, game_set
):
    deal = doubled_by_ann(1)
    deal["results"]["Bob"] = {"calls": 0, "penalty": 0, "total": 0}
    html = text(as_director.post(table_url(game_set, "direct_validate"), form_data(deal)))
    assert "NONWINNER_ZERO" in html
    assert "MISSING_RESULT" not in html
