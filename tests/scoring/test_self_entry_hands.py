"""Self-entry for a game of hands (issue 20, item 4): a British or North American table's printed sheet
carries its QR code and short code on its first page, and its phones enter hands — who went out, a
kalookie, each line's score or cards, buy-ins with the reset computed — confirmed by another seat and
recorded through the one `deal_record`, with the queue and idempotency rules of a Jamaican deal."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader
from self_entry_support import (
    fresh_limits,  # noqa: F401 (autouse: no wrong tries left over)
    phone_url,
    seat_code,
    table_token,
    turn_on,
)

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, DealResult, SelfEntryDeal
from scoring.selectors.british_games import british_game_page
from scoring.selectors.self_entry import key_for_token
from scoring.self_entry_codes import short_code_for
from scoring.services import self_entry

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
THREE = ("Ann", "Bob", "Cy")
FIVE = ("Ann", "Bob", "Cy", "Dee", "Eve")


@pytest.fixture
def british(make_event, director, make_table):
    """A British club night (limit 100, the `british-swedish` preset) with self-entry on: one table of
    three."""
    event = make_event(
        name="Club night", slug="club-night", ruleset_preset="british-swedish", format="placement"
    )
    turn_on(event, director)
    rnd = services.round_create(event=event, user=director)
    return make_table(rnd, THREE)


@pytest.fixture
def north_american(make_event, director, make_table):
    event = make_event(
        name="Kaluki night",
        slug="kaluki-night",
        ruleset_preset="north-american",
        rules_overrides={"hands": 3},
        format="placement",
    )
    turn_on(event, director)
    rnd = services.round_create(event=event, user=director)
    return make_table(rnd, FIVE)


def phone(token: str, address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    assert client.get(phone_url(token)).status_code == 200
    return client


def hand_form(
    game_set, number: int, out: str, lines: dict[int, dict[str, Any]], *, seat: int, key: str, **more
):
    """The phone's hand form as posted: `lines` by seat (`{"penalty": 60}`, `{"hand": "KS 9C"}`,
    `{"buy_in": "on"}`)."""
    game_set.refresh_from_db()
    data: dict[str, Any] = {
        "deal": number,
        "out": out,
        "set_version": game_set.version,
        "seat": seat,
        "seat_code": seat_code(game_set, seat),
        "idempotency_key": key,
        **more,
    }
    for position, line in lines.items():
        for field, value in line.items():
            data[f"s{position}-{field}"] = value
    return data


def send(client, token, data):
    return client.post(phone_url(token, "self_entry_enter"), data, **JSON)


def confirm(client, token, entry, seat: int):
    entry.refresh_from_db()
    return client.post(
        phone_url(token, "self_entry_confirm", entry_id=entry.pk),
        {"version": entry.version, "seat": seat, "seat_code": seat_code(entry.game_set, seat)},
        **JSON,
    )


def test_a_blank_british_sheet_carries_its_tables_code_on_the_first_of_its_two_pages(
    as_director, client, british, decode_qr, tmp_path
):
    table = british.table
    url = reverse(
        "scoring:pdf_table_blank", kwargs={"slug": table.round.event.slug, "number": 1, "table": table.number}
    )
    pdf = as_director.get(url).content
    path = tmp_path / "blank.pdf"
    path.write_bytes(pdf)
    reader = PdfReader(path)
    assert len(reader.pages) == 2
    (address,) = decode_qr(pdf)
    token = urlsplit(address).path.rstrip("/").rsplit("/", 1)[-1]
    code = short_code_for(key_for_token(token).selector)
    assert code in reader.pages[0].extract_text().replace(" ", "")
    assert code not in reader.pages[1].extract_text().replace(" ", "")
    page = client.get(urlsplit(address).path)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Hand 1" in text and "Buys in" in text and "Calls" not in text


def test_two_phones_enter_and_confirm_british_hands_with_a_buy_in_reset_computed(british, director):
    token = table_token(british)
    ann, bob = phone(token, "10.2.0.1"), phone(token, "10.2.0.2")
    # Hand 1: Ann goes out; Bob's score typed, Cy's from the 13 cards left (95).
    first = hand_form(
        british,
        1,
        "Ann",
        {2: {"penalty": 60}, 3: {"hand": "KS QS JS 10S KH 9C 8C 7C 6C 5C 4D 3D 3H"}},
        seat=1,
        key="h1",
    )
    answer = send(ann, token, first)
    assert answer.status_code == 200 and answer.json()["message"].startswith("Hand 1 sent: waiting")
    # The same hand sent again (a phone back online) is saved once.
    assert send(ann, token, first).json()["ok"]
    entry = SelfEntryDeal.objects.get()
    assert entry.status == SelfEntryDeal.Status.WAITING and entry.data["results"]["Cy"]["penalty"] == 95
    waiting = bob.get(phone_url(token)).content.decode()
    assert "Hand 1: waiting for confirmation" in waiting and "Send hand" not in waiting
    assert confirm(bob, token, entry, seat=2).json()["message"] == "Hand 1 confirmed and recorded."
    hand = Deal.objects.get(game_set=british, number=1)
    assert hand.out.player.name == "Ann"
    # Hand 2: Bob (60 + 50 = 110, over 100) buys in; the reset is the highest total at or under the
    # limit after the hand: Cy's 95 (B7). The phone types no reset value.
    second = hand_form(
        british, 2, "Cy", {1: {"penalty": 30}, 2: {"penalty": 50, "buy_in": "on"}}, seat=3, key="h2"
    )
    page = bob.get(phone_url(token)).content.decode()
    assert "Hand 2" in page and 'data-before="60"' in page
    assert send(bob, token, second).json()["ok"]
    entry = SelfEntryDeal.objects.get(number=2)
    assert "reset_to" not in entry.data["results"]["Bob"] and entry.data["results"]["Bob"]["buy_in"]
    shown = ann.get(phone_url(token)).content.decode()
    assert "Hand 2: waiting for confirmation" in shown and "resets to <strong>95</strong>" in shown
    # The seat that entered cannot confirm; another can.
    assert confirm(ann, token, entry, seat=3).status_code == 400
    assert confirm(ann, token, entry, seat=1).json()["ok"]
    bob_line = DealResult.objects.get(deal__game_set=british, deal__number=2, entry__player__name="Bob")
    # Stored as the phone typed it: the reset is the app's to compute on every read (never stored).
    assert bob_line.buy_in and bob_line.reset_to is None and bob_line.penalty == 50
    recorded = AuditEntry.objects.filter(action="kalooki.hand.recorded").order_by("pk").last()
    assert "seat 3 (Cy)" in recorded.reason and "seat 1 (Ann)" in recorded.reason
    # The grid on the phone shows the game as recorded: Bob bought in at 95.
    assert "bought in at 95" in ann.get(phone_url(token)).content.decode()
    assert next(seat for seat in british_game_page(british).seats if seat.player == "Bob").total == 95


def test_a_british_hand_with_an_error_finding_shows_it_to_the_confirming_phone_and_waits_for_the_director(
    british, director
):
    token = table_token(british)
    ann, bob = phone(token, "10.2.1.1"), phone(token, "10.2.1.2")
    # Ann buys in at 30, not over the limit: refused as the desk refuses it (B7), nothing saved.
    refused = send(
        ann,
        token,
        hand_form(
            british, 1, "Cy", {1: {"penalty": 30, "buy_in": "on"}, 2: {"penalty": 20}}, seat=1, key="no"
        ),
    )
    assert refused.status_code == 400 and "Ann" in refused.json()["message"]
    assert not SelfEntryDeal.objects.exists()
    # Bob's cards are ten, not the 13 of a player who has not opened (HAND_SIZE, BV2): an error finding.
    data = hand_form(
        british,
        1,
        "Cy",
        {1: {"penalty": 30}, 2: {"hand": "KS QS JS 10S KH QH JH 10H 9C 6D"}},
        seat=1,
        key="bad",
    )
    assert send(ann, token, data).json()["ok"]
    entry = SelfEntryDeal.objects.get()
    assert [finding["code"] for finding in entry.findings] == ["HAND_SIZE"]
    assert "Bob holds 13 or 1–9 cards" in bob.get(phone_url(token)).content.decode()
    answer = confirm(bob, token, entry, seat=2).json()
    assert answer["ok"] and "waits for the director (error findings)" in answer["message"]
    assert not Deal.objects.filter(game_set=british).exists()
    # The director accepts it as entered: recorded through the same deal_record.
    entry.refresh_from_db()
    self_entry.self_entry_accept(entry=entry, user=director, expected_version=entry.version)
    assert Deal.objects.get(game_set=british).number == 1


def test_a_hand_the_desk_recorded_meanwhile_waits_for_the_director_as_a_conflict(british, director):
    token = table_token(british)
    ann = phone(token, "10.2.2.1")
    data = hand_form(british, 1, "Ann", {2: {"penalty": 60}, 3: {"penalty": 95}}, seat=1, key="late")
    services.deal_record(
        game_set=british,
        user=director,
        # The paper has Cy's 95 as 90: not what the phone entered.
        data={"deal": 1, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 60}, "Cy": {"penalty": 90}}},
    )
    answer = send(ann, token, data).json()
    assert answer["ok"] and "conflict: hand 1 was recorded already" in answer["message"]
    assert SelfEntryDeal.objects.get().status == SelfEntryDeal.Status.QUEUED
    assert Deal.objects.filter(game_set=british).count() == 1


def test_two_phones_enter_and_confirm_a_north_american_hand_the_winner_collecting(north_american, director):
    token = table_token(north_american)
    ann, dee = phone(token, "10.3.0.1"), phone(token, "10.3.0.4")
    page = ann.get(phone_url(token)).content.decode()
    assert "Hand 1" in page and "Buys in" not in page and "Kalookie" not in page
    data = hand_form(
        north_american,
        1,
        "Cy",
        {1: {"penalty": 41}, 2: {"hand": "KS QS"}, 4: {"penalty": 60}, 5: {"penalty": 22}},
        seat=1,
        key="na1",
    )
    assert send(ann, token, data).json()["ok"]
    entry = SelfEntryDeal.objects.get()
    assert confirm(dee, token, entry, seat=4).json()["message"] == "Hand 1 confirmed and recorded."
    cy = DealResult.objects.get(deal__game_set=north_american, entry__player__name="Cy")
    bob = DealResult.objects.get(deal__game_set=north_american, entry__player__name="Bob")
    assert bob.penalty == 20 and cy.penalty == 0
    # The grid on the phone: Cy collected the others' hand values (NA6).
    assert "collected 143" in dee.get(phone_url(token)).content.decode()


def test_a_north_american_round_pack_carries_each_tables_code(as_director, client, north_american, decode_qr):
    event = north_american.table.round.event
    pdf = as_director.get(
        reverse("scoring:pdf_round_sheets", kwargs={"slug": event.slug, "number": 1})
    ).content
    (address,) = decode_qr(pdf)
    assert "Table 1" in client.get(urlsplit(address).path).content.decode()


def test_the_director_corrects_a_queued_british_hand_in_the_hand_form(british, director, as_director):
    token = table_token(british)
    ann, bob = phone(token, "10.2.3.1"), phone(token, "10.2.3.2")
    data = hand_form(british, 1, "Ann", {2: {"penalty": 60}, 3: {"penalty": 95}}, seat=1, key="objected")
    assert send(ann, token, data).json()["ok"]
    entry = SelfEntryDeal.objects.get()
    rejected = bob.post(
        phone_url(token, "self_entry_reject", entry_id=entry.pk),
        {"version": entry.version, "seat": 2, "seat_code": seat_code(british, 2), "reason": "Bob had 50"},
        **JSON,
    )
    assert rejected.json()["message"] == "Hand 1 rejected: the director settles it."
    event = british.table.round.event
    desk = as_director.get(reverse("scoring:self_entry_desk", kwargs={"slug": event.slug})).content.decode()
    assert "Bob 60 · Cy 95" in desk and "Bob had 50" in desk
    url = reverse("scoring:self_entry_correct", kwargs={"slug": event.slug, "entry_id": entry.pk})
    page = as_director.get(url).content.decode()
    assert "Hand 1 as the table entered it" in page and 'name="s2-penalty"' in page and 'value="60"' in page
    british.refresh_from_db()
    posted = {"deal": 1, "out": "Ann", "set_version": british.version, "s1-penalty": "", "s2-penalty": 50}
    posted["s3-penalty"] = 95
    assert as_director.post(url, posted).status_code == 302
    bob_line = DealResult.objects.get(deal__game_set=british, entry__player__name="Bob")
    assert bob_line.penalty == 50
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.RECORDED and entry.settled_note == "corrected"
