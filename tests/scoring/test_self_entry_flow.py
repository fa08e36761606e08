"""Self-entry (issue 13): a deal entered on a phone, confirmed or rejected by another seat, recorded
through `deal_record` or settled in the director's queue; sent twice, saved once."""

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
    turn_on,
)

from adjudication.models import AuditEntry
from scoring.models import Deal, SelfEntryDeal
from scoring.selectors.self_entry import director_queue
from scoring.web.direct import urls as self_entry_urls

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def table(game_set, event, director):
    turn_on(event, director)
    return game_set


def phone(token: str, address: str = "10.1.1.1") -> Client:
    """A phone: its own client (device cookie) that has opened the table's page."""
    client = Client(REMOTE_ADDR=address)
    assert client.get(phone_url(token)).status_code == 200
    return client


def enter(client, token, game_set, **changes):
    return client.post(phone_url(token, "self_entry_enter"), deal_one_form(game_set, **changes), **JSON)


def decide(client, token, entry, action="confirm", **data):
    """Confirm or reject `entry` as `seat`, with that seat's code unless the test gives one."""
    entry.refresh_from_db()
    if "seat_code" not in data and str(data.get("seat", "")).isdigit():
        data["seat_code"] = seat_code(entry.game_set, int(data["seat"]))
    return client.post(
        phone_url(token, f"self_entry_{action}", entry_id=entry.pk),
        {"version": entry.version, **data},
        **JSON,
    )


def test_a_confirmed_clean_deal_is_recorded_through_deal_record_naming_the_seats(table):
    token = table_token(table)
    ann, bob = phone(token), phone(token, "10.1.1.2")
    answer = enter(ann, token, table)
    assert answer.status_code == 200 and answer.json()["ok"]
    entry = SelfEntryDeal.objects.get()
    assert entry.status == SelfEntryDeal.Status.WAITING and not Deal.objects.exists()
    assert "waiting for confirmation" in bob.get(phone_url(token)).content.decode()
    assert decide(bob, token, entry, seat=2).json()["ok"]
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.RECORDED and not entry.same_device
    deal = Deal.objects.get()
    assert deal.number == 1 and deal.out.player.name == "Cy"
    assert sorted(deal.results.values_list("penalty", flat=True)) == [0, 15, 23, 77]
    recorded = AuditEntry.objects.get(action="kalooki.deal.recorded")
    assert "seat 1 (Ann)" in recorded.reason and "seat 2 (Bob)" in recorded.reason
    # Once confirmed, the players cannot change it.
    assert decide(bob, token, entry, seat=3).status_code == 400
    assert decide(ann, token, entry, "reject", seat=4, reason="no").status_code == 400


def test_the_seat_that_entered_cannot_confirm(table):
    token = table_token(table)
    ann = phone(token)
    enter(ann, token, table)
    entry = SelfEntryDeal.objects.get()
    answer = decide(ann, token, entry, seat=1)
    assert answer.status_code == 400 and "another seat" in answer.json()["message"]
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.WAITING


def test_one_phone_entering_and_confirming_is_shown_to_the_director(table, as_director, director):
    from scoring.services import self_entry as service

    token = table_token(table)
    ann = phone(token)
    event = table.table.round.event
    event.refresh_from_db()
    service.self_entry_mode_set(event=event, user=director, mode="record", one_phone=True)
    enter(ann, token, table)
    entry = SelfEntryDeal.objects.get()
    decide(ann, token, entry, seat=2)
    entry.refresh_from_db()
    assert entry.same_device and entry.status == SelfEntryDeal.Status.QUEUED
    assert not Deal.objects.exists()
    page = as_director.get(reverse("scoring:direct", kwargs={"slug": table.table.round.event.slug}))
    assert "one phone entered and confirmed" in page.content.decode()


def test_the_same_deal_sent_twice_is_saved_once(table):
    token = table_token(table)
    ann = phone(token)
    first = enter(ann, token, table, key="same-key")
    again = enter(ann, token, table, key="same-key")
    assert first.json()["ok"] and again.json()["ok"]
    assert first.json()["entry"] == again.json()["entry"] and again.json()["created"] is False
    assert SelfEntryDeal.objects.count() == 1


def test_a_deal_with_an_error_finding_waits_with_its_findings(table, as_director):
    token = table_token(table)
    ann, bob = phone(token), phone(token, "10.1.1.2")
    # Cy went out but a score is written for Cy: an error finding.
    enter(ann, token, table, **{"p3-penalty": 12})
    entry = SelfEntryDeal.objects.get()
    decide(bob, token, entry, seat=2)
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.QUEUED and entry.queue_reason == "error findings"
    assert entry.findings and not Deal.objects.exists()
    (row,) = director_queue(table.table.round.event)
    assert row.findings == entry.findings
    page = as_director.get(
        reverse("scoring:direct", kwargs={"slug": table.table.round.event.slug})
    ).content.decode()
    assert entry.findings[0]["message"] in page or entry.findings[0]["code"] in page


def test_a_rejected_deal_waits_and_the_director_accepts_it(table, as_director):
    token = table_token(table)
    ann, bob = phone(token), phone(token, "10.1.1.2")
    enter(ann, token, table)
    entry = SelfEntryDeal.objects.get()
    assert decide(bob, token, entry, "reject", seat=2, reason="").status_code == 400
    assert decide(bob, token, entry, "reject", seat=2, reason="Dee had 67, not 77").json()["ok"]
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.QUEUED and entry.objection == "Dee had 67, not 77"
    slug = table.table.round.event.slug
    response = as_director.post(
        reverse("scoring:self_entry_accept", kwargs={"slug": slug, "entry_id": entry.pk}),
        {"version": entry.version},
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.RECORDED and Deal.objects.count() == 1


def test_the_director_corrects_a_queued_deal_in_the_entry_form(table, as_director):
    token = table_token(table)
    ann, bob = phone(token), phone(token, "10.1.1.2")
    enter(ann, token, table)
    entry = SelfEntryDeal.objects.get()
    decide(bob, token, entry, "reject", seat=2, reason="Dee had 67")
    slug = table.table.round.event.slug
    url = reverse("scoring:self_entry_correct", kwargs={"slug": slug, "entry_id": entry.pk})
    form = as_director.get(url).content.decode()
    # The normal entry form, filled in with the table's entry, posting here.
    assert f'action="{url}"' in form and 'value="77"' in form
    table.refresh_from_db()
    data = {
        "deal": 1,
        "out": "Cy",
        "dealer": "Ann",
        "set_version": table.version,
        **{f"p{seat}-calls": calls for seat, calls in ((1, 0), (2, 3), (3, 1), (4, 1))},
        **{f"p{seat}-penalty": score for seat, score in ((1, 23), (2, 15), (3, 0), (4, 67))},
    }
    assert as_director.post(url, data).status_code == 302
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.RECORDED and entry.settled_note == "corrected"
    assert Deal.objects.get().results.get(entry__player__name="Dee").penalty == 67


def test_two_entries_for_one_deal_wait_as_a_conflict_and_the_director_rejects_one(table, as_director):
    token = table_token(table)
    ann, cy = phone(token), phone(token, "10.1.1.3")
    enter(ann, token, table, key="a")
    enter(cy, token, table, key="b", seat=3, **{"p4-penalty": 67})
    first, second = SelfEntryDeal.objects.order_by("pk")
    assert {first.status, second.status} == {SelfEntryDeal.Status.QUEUED}
    assert all(row.conflict for row in director_queue(table.table.round.event))
    slug = table.table.round.event.slug
    dismiss = reverse("scoring:self_entry_dismiss", kwargs={"slug": slug, "entry_id": second.pk})
    as_director.post(dismiss, {"version": second.version, "reason": ""})
    second.refresh_from_db()
    assert second.status == SelfEntryDeal.Status.QUEUED
    as_director.post(dismiss, {"version": second.version, "reason": "Dee's 77 is on the paper"})
    second.refresh_from_db()
    assert second.status == SelfEntryDeal.Status.DISMISSED
    as_director.post(
        reverse("scoring:self_entry_accept", kwargs={"slug": slug, "entry_id": first.pk}),
        {"version": first.version},
    )
    assert Deal.objects.get().results.get(entry__player__name="Dee").penalty == 77


def test_every_deal_waits_when_the_event_says_so(table):
    turn_on(table.table.round.event, None, "review")
    token = table_token(table)
    ann, bob = phone(token), phone(token, "10.1.1.2")
    enter(ann, token, table)
    entry = SelfEntryDeal.objects.get()
    decide(bob, token, entry, seat=2)
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.QUEUED and not Deal.objects.exists()


def test_self_entry_off_accepts_nothing(game_set):
    token = table_token(game_set)
    client = phone(token)
    assert "data-self-entry-form" not in client.get(phone_url(token)).content.decode()
    assert enter(client, token, game_set).status_code == 409


def test_a_set_changed_since_the_entry_waits_for_the_director(table, director):
    from scoring import services

    token = table_token(table)
    ann, bob = phone(token), phone(token, "10.1.1.2")
    enter(ann, token, table)
    entry = SelfEntryDeal.objects.get()
    # The director types deal 1 from the paper meanwhile.
    data = deal_one_form(table)
    services.deal_record(
        game_set=table,
        user=director,
        data={
            "deal": 1,
            "out": "Cy",
            "results": {
                name: {"calls": data[f"p{seat}-calls"], "penalty": data[f"p{seat}-penalty"]}
                for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"], start=1)
            }
            # The paper has Dee's 77 as 67: not what the phone entered.
            | {"Dee": {"calls": 1, "penalty": 67}},
        },
    )
    decide(bob, token, entry, seat=2)
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.QUEUED and entry.queue_reason.startswith("conflict")
    assert Deal.objects.count() == 1


def test_an_entry_identical_to_the_deal_recorded_meanwhile_closes_itself_when_confirmed(table, director):
    from adjudication.models import AuditEntry
    from scoring import services

    token = table_token(table)
    ann, bob = phone(token), phone(token, "10.1.1.2")
    enter(ann, token, table)
    entry = SelfEntryDeal.objects.get()
    data = deal_one_form(table)
    results = {
        name: {"calls": data[f"p{seat}-calls"], "penalty": data[f"p{seat}-penalty"]}
        for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"], start=1)
    }
    services.deal_record(game_set=table, user=director, data={"deal": 1, "out": "Cy", "results": results})
    assert "nothing more to do" in decide(bob, token, entry, seat=2).json()["message"]
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.RECORDED and entry.deal == Deal.objects.get()
    assert AuditEntry.objects.filter(action="kalooki.selfentry.closed_identical").count() == 1


def test_the_phone_page_shows_the_deal_due_its_contract_and_dealer(client, table):
    text = client.get(phone_url(table_token(table))).content.decode()
    assert "Deal 1" in text and "Dealer: <strong>Ann</strong>" in text
    for name in ("Ann", "Bob", "Cy", "Dee"):
        assert name in text


def test_the_phone_page_runs_the_live_check(client, table):
    token = table_token(table)
    client.get(phone_url(token))
    answer = client.post(phone_url(token, "self_entry_check"), deal_one_form(table, **{"p3-penalty": 12}))
    assert answer.status_code == 200 and "finding" in answer.content.decode()
    clean = client.post(
        phone_url(token, "self_entry_check"), deal_one_form(table, **{"p1-penalty": "", "p1-hand": "QS 7D"})
    )
    assert "computed: 17" in clean.content.decode()


def test_the_desk_sets_the_mode_and_regenerates_a_code(as_director, table):
    slug = table.table.round.event.slug
    event = table.table.round.event
    event.refresh_from_db()
    as_director.post(
        reverse("scoring:self_entry_mode", kwargs={"slug": slug}),
        {"mode": "review", "version": event.version},
    )
    event.refresh_from_db()
    assert event.self_entry == "review"
    old = table_token(table)
    page = as_director.get(reverse("scoring:self_entry_desk", kwargs={"slug": slug})).content.decode()
    assert phone_url(old) in page
    as_director.post(reverse("scoring:self_entry_regenerate", kwargs={"slug": slug, "number": 1, "table": 1}))
    assert table_token(table) != old


DESK = [pattern.name for pattern in self_entry_urls.desk_patterns]


@pytest.mark.parametrize("name", DESK)
@pytest.mark.parametrize("method", ["get", "post"])
def test_every_desk_url_is_for_the_events_directors(client, stranger, table, name, method):
    token = table_token(table)
    phone(token).post(phone_url(token, "self_entry_enter"), deal_one_form(table), **JSON)
    entry = SelfEntryDeal.objects.get()
    pattern = next(item for item in self_entry_urls.desk_patterns if item.name == name)
    values = {"slug": table.table.round.event.slug, "number": 1, "table": 1, "entry_id": entry.pk}
    kwargs = {key: values[key] for key in ["slug", *pattern.pattern.converters]}
    url = reverse(f"scoring:{name}", kwargs=kwargs)
    before = AuditEntry.objects.count()
    response = getattr(client, method)(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(stranger)
    assert getattr(client, method)(url).status_code == 403
    assert AuditEntry.objects.count() == before
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.WAITING


def test_the_queue_and_the_phone_page_read_a_fixed_number_of_queries(
    table, round1, make_table, django_assert_num_queries, director
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.selectors.self_entry import phone_page, table_keys
    from scoring.services import self_entry as service

    event = table.table.round.event
    turn_on(event, director, "review")

    def counts():
        keys = service.table_keys_ensure(tables=[table.table])
        with CaptureQueriesContext(connection) as queue:
            director_queue(event)
            table_keys(event)
        with CaptureQueriesContext(connection) as page:
            phone_page(keys[table.table_id])
        return len(queue), len(page)

    token = table_token(table)
    first = phone(token)
    enter(first, token, table, key="one")
    # A second entry of deal 1: both wait for the director as a conflict.
    enter(first, token, table, key="two", **{"p4-penalty": 67})
    small = counts()
    for number in range(2, 7):
        other = make_table(round1, [f"P{number}a", f"P{number}b", f"P{number}c", f"P{number}d"])
        other_token = table_token(other)
        for key in ("a", "b"):
            enter(phone(other_token), other_token, other, key=key, dealer=f"P{number}a", out=f"P{number}c")
    assert len(director_queue(event)) == 12
    assert counts() == small
