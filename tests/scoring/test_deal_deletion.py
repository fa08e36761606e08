"""Deleting a deal (issue 10, part 3): confirmed and with a reason, audited with the values it had;
the hole it leaves is the next deal the form offers, a re-entered deal takes its number's place in
playing order, the message says what happened, and rulings on the deleted deal are withdrawn (their
own audit entry, the ruling kept, its page saying so) — appealed ones too."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from adjudication import services as rulings
from adjudication.models import AuditEntry, Ruling
from scoring import services
from scoring.models import Deal
from tests.scoring.test_entry_views import form_data, record_all, table_url, text


def delete(client, game_set, sequence, **data):
    deal = Deal.objects.get(game_set=game_set, sequence=sequence)
    posted = {"version": str(deal.version), "reason": "typed at the wrong table", "confirm": "on"} | data
    return client.post(table_url(game_set, "direct_deal_delete", sequence=sequence), posted, follow=True)


def played_order(game_set):
    return list(Deal.objects.filter(game_set=game_set).order_by("sequence").values_list("sequence", "number"))


@pytest.fixture
def three(game_set, director, example_sheet):
    return record_all(game_set, director, example_sheet, upto=3)


# --- confirmation and reason --------------------------------------------------------------------


@pytest.mark.parametrize(
    "missing, field",
    [({"reason": ""}, "reason"), ({"reason": "   "}, "reason"), ({"confirm": ""}, "confirm")],
)
def test_deleting_a_deal_needs_a_confirmation_and_a_reason(as_director, three, missing, field):
    response = delete(as_director, three, 1, **missing)
    assert response.status_code == 400
    assert played_order(three) == [(1, 1), (2, 2), (3, 3)]
    assert not AuditEntry.objects.filter(action="kalooki.deal.deleted").exists()
    html = text(response)
    assert re.search(rf'name="{field}"[^>]*aria-invalid="true"', html) or "Say why" in html


def test_the_delete_form_asks_for_both(as_director, three):
    html = text(as_director.get(table_url(three, "direct_deal", sequence=1)))
    form = html[html.index('id="delete-heading"') :]
    assert 'name="reason"' in form and 'name="confirm"' in form and "required" in form


def test_the_service_refuses_a_deletion_without_a_reason(three, director):
    deal = Deal.objects.get(game_set=three, sequence=1)
    with pytest.raises(ValidationError) as refused:
        services.deal_delete(deal=deal, user=director, reason=" ")
    assert "reason" in refused.value.message_dict
    assert played_order(three) == [(1, 1), (2, 2), (3, 3)]


def test_a_deletion_is_audited_with_the_deals_values_and_the_reason(as_director, three, example_sheet):
    delete(as_director, three, 1)
    entry = AuditEntry.objects.get(action="kalooki.deal.deleted")
    assert entry.reason == "typed at the wrong table"
    assert entry.before["deal"] == 1
    assert entry.before["results"]["Cy"]["penalty"] == example_sheet["deals"][0]["results"]["Cy"]["penalty"]
    assert entry.after is None


# --- the hole is refilled -----------------------------------------------------------------------


def test_a_deleted_first_deal_is_the_deal_the_form_offers_next(as_director, three):
    response = delete(as_director, three, 1)
    html = text(response)
    assert played_order(three) == [(1, 2), (2, 3)]
    assert "moved up" not in html
    assert "Deal 1 deleted" in html and "due again" in html
    assert "keep their numbers" in html
    # The form offers deal 1, dealt by Ann (R21: the first dealer deals deal 1).
    assert re.search(r'<input type="hidden" name="deal" value="1"', html)
    assert "Deal 1 <span" in html
    assert re.search(r'<select name="dealer"[^>]*>.*?<option value="Ann" selected>', html)


def test_a_re_entered_deal_takes_its_numbers_place_in_playing_order(
    as_director, three, example_sheet, game_set
):
    delete(as_director, three, 1)
    three.refresh_from_db()
    response = as_director.post(
        table_url(three),
        form_data(example_sheet["deals"][0] | {"dealer": "Ann"}, set_version=three.version),
        follow=True,
    )
    assert "Deal 1 saved." in text(response)
    assert played_order(three) == [(1, 1), (2, 2), (3, 3)]
    three.refresh_from_db()
    assert three.error_count == 0
    assert "DEALER_ORDER" not in text(as_director.get(table_url(three)))
    # The next deal offered is 4.
    assert re.search(r'<input type="hidden" name="deal" value="4"', text(as_director.get(table_url(three))))


def test_deleting_the_last_deal_says_nothing_moved(as_director, three):
    html = text(delete(as_director, three, 3))
    assert "Deal 3 deleted" in html and "moved up" not in html and "keep their numbers" not in html
    assert played_order(three) == [(1, 1), (2, 2)]


def test_deleting_a_middle_deal_offers_it_before_the_later_ones(as_director, three):
    delete(as_director, three, 2)
    html = text(as_director.get(table_url(three)))
    assert re.search(r'<input type="hidden" name="deal" value="2"', html)
    assert re.search(r'<select name="dealer"[^>]*>.*?<option value="Bob" selected>', html)


# --- rulings on a deleted deal ------------------------------------------------------------------


def test_a_ruling_on_a_deleted_deal_is_withdrawn_not_deleted(as_director, client, three, director, entries):
    deal = Deal.objects.get(game_set=three, sequence=1)
    ruling = rulings.ruling_issue(
        deal=deal, entry=entries["Bob"], user=director, kind="other", points=5, reason="Slow play"
    )
    html = text(delete(as_director, three, 1))
    assert "1 ruling on it withdrawn" in html
    ruling.refresh_from_db()
    assert ruling.status == Ruling.Status.WITHDRAWN
    assert ruling.deal is None and ruling.deal_number == 1 and ruling.game_set_id == three.pk
    withdrawn = AuditEntry.objects.get(action="kalooki.ruling.withdrawn", object_id=str(ruling.pk))
    assert withdrawn.before["status"] == "standing" and withdrawn.after["status"] == "withdrawn"
    assert "deleted" in withdrawn.reason and "typed at the wrong table" in withdrawn.reason
    # Its page (public) says it is withdrawn, where it was, and that the deal is gone.
    event = three.table.round.event
    page = client.get(reverse("adjudication:ruling", args=[event.slug, ruling.pk]))
    assert page.status_code == 200
    shown = text(page)
    assert "Withdrawn" in shown and "deal 1 (deleted)" in shown and "Slow play" in shown
    # It stays on the event's and the table's lists of rulings.
    assert f"/rulings/{ruling.pk}/" in text(
        as_director.get(reverse("adjudication:rulings", args=[event.slug]))
    )
    table_list = reverse("adjudication:table_rulings", args=[event.slug, 1, 1])
    assert f"/rulings/{ruling.pk}/" in text(as_director.get(table_list))


def test_an_appealed_ruling_on_a_deleted_deal_is_withdrawn_too(as_director, three, director, entries):
    deal = Deal.objects.get(game_set=three, sequence=2)
    ruling = rulings.ruling_issue(deal=deal, entry=entries["Cy"], user=director, kind="overcall")
    rulings.ruling_appeal(ruling=ruling, user=director, reason="He called twice only")
    delete(as_director, three, 2)
    ruling.refresh_from_db()
    assert ruling.status == Ruling.Status.WITHDRAWN and ruling.appeal_reason == "He called twice only"
    entry = AuditEntry.objects.get(action="kalooki.ruling.withdrawn", object_id=str(ruling.pk))
    assert entry.before["status"] == "appealed"
    # A withdrawn ruling offers no appeal decision.
    event = three.table.round.event
    page = text(as_director.get(reverse("adjudication:ruling", args=[event.slug, ruling.pk])))
    assert "Decide the appeal" not in page and "Withdrawn" in page


def test_a_ruling_already_closed_keeps_its_status_and_place(three, director, entries):
    deal = Deal.objects.get(game_set=three, sequence=1)
    ruling = rulings.ruling_issue(deal=deal, entry=entries["Dee"], user=director, kind="overcall")
    rulings.ruling_appeal(ruling=ruling, user=director, reason="No")
    rulings.ruling_decide(ruling=ruling, user=director, decision="overturned")
    services.deal_delete(deal=Deal.objects.get(pk=deal.pk), user=director, reason="wrong table")
    ruling.refresh_from_db()
    assert ruling.status == Ruling.Status.OVERTURNED
    assert (ruling.deal_id, ruling.deal_number, ruling.game_set_id) == (None, 1, three.pk)
    assert not AuditEntry.objects.filter(action="kalooki.ruling.withdrawn", object_id=str(ruling.pk)).exists()
