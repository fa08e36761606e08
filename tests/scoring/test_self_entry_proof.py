"""Confirmation by someone else, proven (issue 23, item 2): a seat is proven by the code printed beside
its player's name (derived from the site key, compared in constant time), not by a posted seat number
or a device cookie. A forged confirmation never records a deal, in every self-entry mode; a one-phone
table's confirmation waits for the director, marked; the set's history names the seats and phones."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from self_entry_support import (
    deal_one_form,
    fresh_limits,  # noqa: F401 (autouse: no wrong tries left over)
    phone_url,
    seat_code,
    table_token,
)

from scoring.models import Deal, SelfEntryDeal
from scoring.self_entry_codes import SEAT_CODE_LENGTH, seat_code_for, seat_code_matches
from scoring.services import self_entry as service

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def test_seat_codes_are_per_seat_and_per_key():
    codes = {seat_code_for("abcdefgh", position) for position in range(1, 7)}
    assert len(codes) == 6 and all(len(code) == SEAT_CODE_LENGTH for code in codes)
    assert seat_code_for("abcdefgh", 1) != seat_code_for("abcdefgi", 1)
    code = seat_code_for("abcdefgh", 2)
    assert seat_code_matches("abcdefgh", 2, f" {code[:2].lower()}-{code[2:]} ")
    assert not seat_code_matches("abcdefgh", 3, code) and not seat_code_matches("abcdefgh", 2, "")


def entered(game_set, director, mode: str, *, one_phone: bool = False):
    """Self-entry in `mode`; Ann (seat 1) has entered deal 1 on her phone: (token, Ann's phone, entry)."""
    event = game_set.table.round.event
    event.refresh_from_db()
    service.self_entry_mode_set(event=event, user=director, mode=mode, one_phone=one_phone)
    token = table_token(game_set)
    ann = Client(REMOTE_ADDR="10.4.0.1")
    ann.get(phone_url(token))
    assert ann.post(phone_url(token, "self_entry_enter"), deal_one_form(game_set), **JSON).json()["ok"]
    return token, ann, SelfEntryDeal.objects.get()


def confirm(client, token, entry, **posted):
    entry.refresh_from_db()
    url = phone_url(token, "self_entry_confirm", entry_id=entry.pk)
    return client.post(url, {"version": entry.version, **posted}, **JSON)


@pytest.mark.parametrize("mode", ["record", "review"])
def test_a_forged_confirmation_never_records_the_deal(game_set, director, mode):
    token, ann, entry = entered(game_set, director, mode)
    forged = {
        # The same phone, another seat's number and that seat's right code: the device rule refuses it.
        "same phone, right code": (ann, {"seat": 2, "seat_code": seat_code(game_set, 2)}),
        # The same client with a new device cookie, another seat's number, and no code, a wrong one,
        # or the entering seat's own code.
        "new cookie, no code": (None, {"seat": 2}),
        "new cookie, wrong code": (None, {"seat": 2, "seat_code": "ABCDE"}),
        "new cookie, own code": (None, {"seat": 2, "seat_code": seat_code(game_set, 1)}),
        # The entering seat confirming itself with its own code, on another phone.
        "own seat": (None, {"seat": 1, "seat_code": seat_code(game_set, 1)}),
    }
    for what, (client, posted) in forged.items():
        if client is None:
            client = Client(REMOTE_ADDR="10.4.0.1")
            client.cookies["kalooki_device"] = f"forged-device-cookie-{len(posted)}x"
        answer = confirm(client, token, entry, **posted)
        assert answer.status_code == 400, what
        assert not answer.json()["ok"], what
        entry.refresh_from_db()
        assert entry.status == SelfEntryDeal.Status.WAITING and entry.confirmed_seat is None, what
    assert not Deal.objects.exists()
    messages = [confirm(ann, token, entry, **forged["same phone, right code"][1]).json()["message"]]
    messages.append(confirm(Client(), token, entry, seat=2).json()["message"])
    assert "This phone entered deal 1" in messages[0]
    assert "Type seat 2's code" in messages[1]
    # Bob, on his own phone with his own code: confirmed (recorded at once, or queued for review).
    bob = Client(REMOTE_ADDR="10.4.0.2")
    bob.get(phone_url(token))
    assert confirm(bob, token, entry, seat=2, seat_code=seat_code(game_set, 2)).json()["ok"]
    entry.refresh_from_db()
    assert Deal.objects.exists() == (mode == "record")


def test_a_one_phone_table_confirms_on_the_same_phone_and_waits_for_the_director(game_set, director):
    token, ann, entry = entered(game_set, director, "record", one_phone=True)
    assert confirm(ann, token, entry, seat=2).status_code == 400
    answer = confirm(ann, token, entry, seat=2, seat_code=seat_code(game_set, 2)).json()
    assert answer["ok"] and "one phone entered and confirmed it" in answer["message"]
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.QUEUED and entry.same_device
    assert not Deal.objects.exists()


def test_the_sets_history_names_the_seats_and_phones_of_a_self_entered_deal(game_set, director, client):
    token, ann, entry = entered(game_set, director, "record")
    bob = Client(REMOTE_ADDR="10.4.0.2")
    bob.get(phone_url(token))
    assert confirm(bob, token, entry, seat=2, seat_code=seat_code(game_set, 2)).json()["ok"]
    ann_mark = service.device_mark(ann.cookies["kalooki_device"].value)
    bob_mark = service.device_mark(bob.cookies["kalooki_device"].value)
    table = game_set.table
    url = reverse(
        "adjudication:table_history",
        kwargs={"slug": table.round.event.slug, "number": table.round.number, "table": table.number},
    )
    history = client.get(url).content.decode()
    assert "a command (no user)" not in history and "the table&#x27;s phones (self-entry)" in history
    assert f"entered by seat 1 (Ann) on phone {ann_mark}" in history
    assert f"confirmed by seat 2 (Bob) on phone {bob_mark}" in history
    assert ann.cookies["kalooki_device"].value not in history


def test_the_page_tells_its_state_and_answers_304_while_nothing_changed(game_set, director):
    """Issue 23, item 1: the status region says each state; the page's ETag is the table's stamp."""
    token, ann, entry = entered(game_set, director, "record")
    page = ann.get(phone_url(token))
    tag = page["ETag"]
    assert 'id="phone-status" role="status" aria-live="polite"' in page.content.decode()
    assert (
        "Deal 1 sent: waiting for confirmation by another seat (entered by seat 1, Ann)"
        in page.content.decode()
    )
    assert ann.get(phone_url(token), HTTP_IF_NONE_MATCH=tag).status_code == 304
    # Bob rejects it: the stamp moves; the page says what happens next and offers no form for deal 1.
    bob = Client(REMOTE_ADDR="10.4.0.2")
    bob.get(phone_url(token))
    entry.refresh_from_db()
    bob.post(
        phone_url(token, "self_entry_reject", entry_id=entry.pk),
        {"version": entry.version, "seat": 3, "seat_code": seat_code(game_set, 3), "reason": "Bob had 61"},
    )
    changed = ann.get(phone_url(token), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    text = changed.content.decode()
    assert "Deal 1 was rejected by seat 3 (Cy): “Bob had 61”. It waits for the director" in text
    assert "data-self-entry-form" not in text
    assert ann.get(phone_url(token), HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


def test_the_queue_marks_each_difference_and_an_entry_identical_to_the_recorded_deal_closes_itself(
    game_set, director, as_director
):
    """Issue 23, item 3: cell by cell against the other entry or the deal as recorded; identical to what
    is recorded, the entry closes itself (audited); a stale entry is offered only what can work."""
    from adjudication.models import AuditEntry
    from scoring import services

    token, _ann, _entry = entered(game_set, director, "record")
    # Cy enters deal 1 again with Dee's 77 as 79: both wait for the director, each beside the other.
    cy = Client(REMOTE_ADDR="10.4.0.3")
    cy.get(phone_url(token))
    other = deal_one_form(game_set, seat=3, key="cy-1", **{"p4-penalty": 79})
    assert cy.post(phone_url(token, "self_entry_enter"), other, **JSON).json()["ok"]
    event = game_set.table.round.event
    desk = as_director.get(reverse("scoring:self_entry_desk", kwargs={"slug": event.slug})).content.decode()
    assert desk.count("1 difference from the other entry") == 2
    assert '<tr class="queue__differs"><th scope="row">Dee: score</th><td>77</td><td>79</td>' in desk
    # The desk records deal 1 as Ann's phone had it: Ann's entry is stale (recorded already) and is
    # offered only setting aside or correcting the recorded deal; a third entry equal to it closes itself.
    data = {"deal": 1, "out": "Cy", "dealer": "Ann", "results": {}}
    for name, (calls, penalty) in zip(
        ("Ann", "Bob", "Cy", "Dee"), ((0, 23), (3, 15), (1, 0), (1, 77)), strict=True
    ):
        data["results"][name] = {"calls": calls, "penalty": penalty}
    services.deal_record(game_set=game_set, user=director, data=data)
    desk = as_director.get(reverse("scoring:self_entry_desk", kwargs={"slug": event.slug})).content.decode()
    assert "The same as the deal as recorded" in desk and "1 difference from the deal as recorded" in desk
    assert "is recorded already, so this entry cannot be accepted" in desk
    assert desk.count("Accept as entered") == 0 and "Set aside" in desk
    bob = Client(REMOTE_ADDR="10.4.0.2")
    bob.get(phone_url(token))
    again = deal_one_form(game_set, seat=2, key="bob-1")
    answer = bob.post(phone_url(token, "self_entry_enter"), again, **JSON).json()
    assert answer["ok"]
    closed = SelfEntryDeal.objects.get(idempotency_key="bob-1")
    assert closed.status == SelfEntryDeal.Status.RECORDED and closed.deal_id is not None
    assert AuditEntry.objects.filter(action="kalooki.selfentry.closed_identical").count() == 1
    assert Deal.objects.count() == 1
