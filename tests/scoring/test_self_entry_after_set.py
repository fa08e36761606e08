"""After the set (issue 23, item 5): phone-free tables. One device enters the whole sheet from the paper
after play; two different seats confirm it, each with the code on its own tear-off seat slip (the codes
take the device rule's place); the history names the entering seat and the two confirming ones. A
forged confirmation never records a deal."""

from __future__ import annotations

from typing import Any

import pytest
import self_entry_support as support
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from self_entry_support import fresh_limits  # noqa: F401 (autouse: no wrong tries left over)

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, DealResult, SelfEntryDeal, TableKey
from scoring.printing.scoresheets import round_pack_html
from scoring.printing.sheet_codes import sheet_codes
from scoring.selectors.british_games import british_game_page
from scoring.selectors.self_entry import phone_page
from scoring.services.self_entry import table_key_regenerate

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
# Deal 2 of tests/data/example-sheet.json: Ann went out; calls and scores by seat.
DEAL_TWO = {1: (3, 0), 2: (0, 71), 3: (2, 11), 4: (0, 27)}


def deal_two_form(game_set) -> dict[str, Any]:
    form = support.deal_one_form(game_set, key="send-2", deal=2, out="Ann", dealer="Bob")
    for position, (calls, penalty) in DEAL_TWO.items():
        form[f"p{position}-calls"], form[f"p{position}-penalty"] = calls, penalty
    return form


def confirm_set(client, token, *seats: tuple[Any, Any]):
    posted = {}
    for number, (seat, code) in enumerate(seats, start=1):
        posted[f"seat_{number}"] = seat
        if code is not None:
            posted[f"seat_code_{number}"] = code
    return client.post(support.phone_url(token, "self_entry_set"), posted, **JSON)


@pytest.fixture
def entered(game_set, event, director):
    """After the set: Ann's device (seat 1) has entered deals 1 and 2 from the paper."""
    support.turn_on(event, director, "after")
    token = support.table_token(game_set)
    desk = Client(REMOTE_ADDR="10.6.0.1")
    desk.get(support.phone_url(token))
    assert desk.post(
        support.phone_url(token, "self_entry_enter"), support.deal_one_form(game_set), **JSON
    ).json()["ok"]
    # Deal 2 is offered while deal 1 waits: the set is entered in one go, confirmed at the end.
    page = desk.get(support.phone_url(token)).content.decode()
    assert (
        "Send deal 2" in page
        and "Dealer: <strong>Bob</strong>" in page
        and "Confirm the set (1 deal)" in page
    )
    assert desk.post(support.phone_url(token, "self_entry_enter"), deal_two_form(game_set), **JSON).json()[
        "ok"
    ]
    return token, desk


def test_a_forged_set_confirmation_never_records_a_deal(game_set, entered):
    token, desk = entered
    bob, cy = support.seat_code(game_set, 2), support.seat_code(game_set, 3)
    forged = {
        "the same seat twice": ((2, bob), (2, bob)),
        "one seat's code twice": ((2, bob), (3, bob)),
        "a wrong code": ((2, bob), (3, "ABCDE")),
        "no second code": ((2, bob), (3, None)),
        "one seat only": ((2, bob),),
    }
    messages = {}
    for what, seats in forged.items():
        # The same client under a new device cookie each time: the device proves nothing here.
        desk.cookies["kalooki_device"] = f"new-device-cookie-{len(what)}x"
        answer = confirm_set(desk, token, *seats)
        assert answer.status_code == 400 and not answer.json()["ok"], what
        messages[what] = answer.json()["message"]
    assert not Deal.objects.exists()
    assert set(SelfEntryDeal.objects.values_list("status", flat=True)) == {SelfEntryDeal.Status.WAITING}
    assert (
        "Seat 2 confirmed already: the second code must be another seat's" in messages["the same seat twice"]
    )
    assert "That is not seat 3's code: check the code on Cy's seat slip." in messages["a wrong code"]
    assert messages["one seat's code twice"] == messages["a wrong code"]
    assert "Type seat 3's code: it is printed on Cy's seat slip." in messages["no second code"]
    # A deal on its own is not confirmed in this mode, even by another seat with its right code.
    entry = SelfEntryDeal.objects.get(number=1)
    answer = Client(REMOTE_ADDR="10.6.0.9").post(
        support.phone_url(token, "self_entry_confirm", entry_id=entry.pk),
        {"seat": 2, "seat_code": bob},
        **JSON,
    )
    assert answer.status_code == 400 and "two seats confirm the whole set" in answer.json()["message"]
    # The wrong tries count (three above, two more here): the address waits now, even with both codes
    # right.
    for _ in range(2):
        assert confirm_set(desk, token, (4, "WRONG"), (3, cy)).status_code == 400
    locked = confirm_set(desk, token, (2, bob), (3, cy))
    assert locked.status_code == 429 and not Deal.objects.exists()


def test_two_seat_slips_confirm_the_whole_set_and_the_history_names_the_three_seats(game_set, entered):
    token, desk = entered
    # On the device that entered it: the two codes take the device rule's place.
    answer = confirm_set(
        desk, token, (3, support.seat_code(game_set, 3)), (2, support.seat_code(game_set, 2))
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["message"] == "Deals 1, 2 confirmed and recorded."
    assert sorted(Deal.objects.values_list("number", flat=True)) == [1, 2]
    assert DealResult.objects.get(deal__number=2, entry__player__name="Bob").penalty == 71
    recorded = AuditEntry.objects.filter(action="kalooki.deal.recorded").order_by("pk")
    assert recorded.count() == 2
    for audit in recorded:
        assert "entered by seat 1 (Ann)" in audit.reason
        assert "confirmed by seats 3 (Cy) and 2 (Bob) with the codes of their seat slips" in audit.reason
    summary = AuditEntry.objects.get(action="kalooki.selfentry.set_confirmed")
    assert summary.after["confirmed_by"] == ["seat 3 (Cy)", "seat 2 (Bob)"]
    assert summary.after["entered_by"] == ["seat 1 (Ann)"] and summary.after["recorded"] == [1, 2]
    assert set(SelfEntryDeal.objects.values_list("second_seat", flat=True)) == {2}
    # Confirmed: nothing waits, and the page offers deal 3.
    page = desk.get(support.phone_url(token)).content.decode()
    assert "Send deal 3" in page and "Confirm the set" not in page


def test_a_deal_entered_meanwhile_or_an_error_finding_holds_the_rest_for_the_director(
    game_set, entered, director
):
    token, desk = entered
    page = desk.get(support.phone_url(token)).content.decode()
    stamp = page.split('name="entered" value="', 1)[1].split('"', 1)[0]
    # Any deal of a set may be withdrawn, not only the last.
    assert "Withdraw deal 1" in page and "Withdraw deal 2" in page
    # Deal 3 typed with a score nobody can have (a winner's score not 0): an error finding.
    form = support.deal_one_form(game_set, key="send-3", deal=3, out="Dee", dealer="Cy")
    assert desk.post(support.phone_url(token, "self_entry_enter"), form, **JSON).json()["ok"]
    assert SelfEntryDeal.objects.get(number=3).findings
    codes = {f"seat_{n}": n + 1 for n in (1, 2)} | {
        f"seat_code_{n}": support.seat_code(game_set, n + 1) for n in (1, 2)
    }
    # The page that showed deals 1 and 2 confirms nothing once deal 3 was entered after it.
    stale = desk.post(support.phone_url(token, "self_entry_set"), {**codes, "entered": stamp}, **JSON)
    assert stale.status_code == 400 and "changed since this page was opened" in stale.json()["message"]
    assert not Deal.objects.exists()
    answer = desk.post(support.phone_url(token, "self_entry_set"), codes, **JSON).json()
    assert answer["ok"] and "Deal 3 waits for the director" in answer["message"]
    assert sorted(Deal.objects.values_list("number", flat=True)) == [1, 2]
    held = SelfEntryDeal.objects.get(number=3)
    assert held.status == SelfEntryDeal.Status.QUEUED and held.queue_reason == "error findings"
    # A page that accepts nothing now answers 409, as entering does: here its code was changed.
    table_key_regenerate(table=game_set.table, user=director)
    closed = desk.post(support.phone_url(token, "self_entry_set"), codes, **JSON)
    assert closed.status_code == 409 and "code was changed" in closed.json()["message"]


def test_a_british_game_is_entered_after_play_and_confirmed_by_two_seat_slips(
    make_event, director, make_table, django_assert_num_queries
):
    event = make_event(
        name="Quiet club", slug="quiet-club", ruleset_preset="british-swedish", format="placement"
    )
    support.turn_on(event, director, "after")
    game = make_table(services.round_create(event=event, user=director), ("Ann", "Bob", "Cy"))
    token = support.table_token(game)
    desk = Client(REMOTE_ADDR="10.7.0.1")
    desk.get(support.phone_url(token))

    def hand(number: int, out: str, lines: dict[int, dict[str, Any]], game=game) -> dict[str, Any]:
        data = {
            "deal": number,
            "out": out,
            "set_version": game.version,
            "seat": 1,
            "idempotency_key": f"h{number}",
        }
        data["seat_code"] = support.seat_code(game, 1)
        data |= {f"s{seat}-{field}": value for seat, line in lines.items() for field, value in line.items()}
        return data

    send = support.phone_url(token, "self_entry_enter")
    assert desk.post(send, hand(1, "Ann", {2: {"penalty": 60}, 3: {"penalty": 95}}), **JSON).json()["ok"]
    # Hand 2 follows hand 1 as entered: Bob has 60 before it, and his buy-in (60 + 50 over 100) is
    # checked against hand 1 though it is not recorded yet.
    page = desk.get(support.phone_url(token)).content.decode()
    assert "Send hand 2" in page and 'data-before="60"' in page
    second = hand(2, "Cy", {1: {"penalty": 30}, 2: {"penalty": 50, "buy_in": "on"}})
    assert desk.post(send, second, **JSON).json()["ok"]
    key = TableKey.objects.get(table=game.table, retired_at=None)
    with CaptureQueriesContext(connection) as two_waiting:
        phone_page(key)
    page_queries = len(two_waiting)  # read now: each request clears the connection's log
    assert not Deal.objects.exists()
    # Hand 2 was worked out from hand 1: hand 1 is withdrawn only once hand 2 is.
    first = SelfEntryDeal.objects.get(game_set=game, number=1)
    withdraw = support.phone_url(token, "self_entry_withdraw", entry_id=first.pk)
    refused = desk.post(withdraw, {"seat": 2, "seat_code": support.seat_code(game, 2)}, **JSON)
    assert refused.status_code == 400 and "withdraw hand 2 first" in refused.json()["message"]
    # Bob's reset is shown as it will be computed, from hand 1 as entered: Cy's 95 (B7).
    page = desk.get(support.phone_url(token)).content.decode()
    assert "resets to <strong>95</strong>" in page
    # The page offers to withdraw the last hand entered only, as the service allows.
    assert "Withdraw hand 2" in page and "Withdraw hand 1" not in page
    assert (
        confirm_set(desk, token, (2, support.seat_code(game, 2)), (2, support.seat_code(game, 2))).status_code
        == 400
    )
    answer = confirm_set(desk, token, (2, support.seat_code(game, 2)), (3, support.seat_code(game, 3)))
    assert answer.json()["message"] == "Hands 1, 2 confirmed and recorded."
    line = DealResult.objects.get(deal__game_set=game, deal__number=2, entry__player__name="Bob")
    assert line.buy_in and line.penalty == 50
    # Bob bought back in at Cy's 95 (B7), worked out from the hands as recorded.
    assert next(seat for seat in british_game_page(game).seats if seat.player == "Bob").total == 95
    audit = AuditEntry.objects.filter(action="kalooki.hand.recorded").order_by("pk").last()
    assert "entered by seat 1 (Ann)" in audit.reason and "seats 2 (Bob) and 3 (Cy)" in audit.reason
    # A hand recorded is no longer withdrawn, and the refusal says "hand" as the game does.
    late = desk.post(withdraw, {"seat": 2, "seat_code": support.seat_code(game, 2)}, **JSON)
    assert late.status_code == 400
    assert late.json()["message"] == "Hand 1 as entered is no longer waiting for confirmation (recorded)."
    # A game runs past nine hands: another table enters ten, then confirms them all.
    other = make_table(game.table.round, ("Dee", "Eve", "Fay"), number=2)
    token = support.table_token(other)
    desk.get(support.phone_url(token))
    send = support.phone_url(token, "self_entry_enter")
    for number in range(1, 11):
        form = hand(number, "Dee", {2: {"penalty": 2}, 3: {"penalty": 3}}, game=other)
        assert desk.post(send, form, **JSON).json()["ok"], number
    # The phone page reads as many queries with ten hands waiting as with two: none a hand.
    key = TableKey.objects.get(table=other.table, retired_at=None)
    with django_assert_num_queries(page_queries):
        phone_page(key)
    answer = confirm_set(desk, token, (3, support.seat_code(other, 3)), (1, support.seat_code(other, 1)))
    assert answer.json()["message"] == f"Hands {', '.join(map(str, range(1, 11)))} confirmed and recorded."
    assert next(seat for seat in british_game_page(other).seats if seat.player == "Fay").total == 30


def test_the_printed_sheet_puts_each_seat_code_on_a_tear_off_slip(game_set, event, director):
    support.turn_on(event, director, "after")
    codes = sheet_codes(tables=[game_set.table], base_url="http://venue.example")
    assert codes[game_set.table.number].slips
    html = round_pack_html(round=game_set.table.round, codes=codes)
    code = support.seat_code(game_set, 3)
    # Once, on Cy's slip, and not beside the names in the grid (where every seat would see it).
    assert html.count(code) == 1 and "seat code " + code not in html
    slip = html.split('class="seat-slips"', 1)[1]
    assert 'Seat 3</span><span class="seat-slip-name">Cy</span><span class="seat-slip-code">' + code in slip


def test_the_phone_page_reads_as_many_queries_whatever_was_entered_before_it(game_set, entered):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.models import TableKey
    from scoring.selectors.self_entry import phone_page

    token, desk = entered
    key = TableKey.objects.get(table_id=game_set.table_id)
    with CaptureQueriesContext(connection) as two:
        assert phone_page(key).next_number == 3
    form = support.deal_one_form(game_set, key="send-3", deal=3, out="Dee", dealer="Cy")
    assert desk.post(support.phone_url(token, "self_entry_enter"), form, **JSON).json()["ok"]
    with CaptureQueriesContext(connection) as three:
        assert phone_page(key).next_number == 4
    assert len(three) == len(two)


def test_every_entry_waiting_is_shown_and_confirmed_however_many_the_page_reads(
    game_set, entered, monkeypatch
):
    from scoring.selectors import self_entry as selectors

    token, desk = entered
    # A page that reads only the latest entry still shows both waiting, so its stamp is the set's.
    monkeypatch.setattr(selectors, "SHOWN", 1)
    page = desk.get(support.phone_url(token)).content.decode()
    assert "Confirm the set (2 deals)" in page and "Send deal 3" in page
    stamp = page.split('name="entered" value="', 1)[1].split('"', 1)[0]
    codes = {"seat_1": 2, "seat_code_1": support.seat_code(game_set, 2), "entered": stamp}
    codes |= {"seat_2": 4, "seat_code_2": support.seat_code(game_set, 4)}
    assert desk.post(support.phone_url(token, "self_entry_set"), codes, **JSON).json()["ok"]
    assert Deal.objects.count() == 2


def test_a_deal_typed_wrong_is_withdrawn_with_a_seat_code_and_typed_again(game_set, entered):
    token, desk = entered
    first = SelfEntryDeal.objects.get(number=1)
    url = support.phone_url(token, "self_entry_withdraw", entry_id=first.pk)
    wrong = desk.post(url, {"seat": 3, "seat_code": support.seat_code(game_set, 2)}, **JSON)
    assert wrong.status_code == 400 and "That is not seat 3's code" in wrong.json()["message"]
    answer = desk.post(url, {"seat": 3, "seat_code": support.seat_code(game_set, 3)}, **JSON).json()
    assert answer["message"] == "Deal 1 withdrawn: type it again."
    first.refresh_from_db()
    assert first.status == SelfEntryDeal.Status.DISMISSED and "withdrawn by seat 3 (Cy)" in first.settled_note
    assert AuditEntry.objects.filter(action="kalooki.selfentry.withdrawn").count() == 1
    # Deal 1 is offered again; the set as entered is deal 2 alone until it is.
    page = desk.get(support.phone_url(token)).content.decode()
    assert "Send deal 1" in page and "Confirm the set (1 deal)" in page
    again = support.deal_one_form(game_set, key="send-1-again")
    assert desk.post(support.phone_url(token, "self_entry_enter"), again, **JSON).json()["ok"]
    answer = confirm_set(
        desk, token, (1, support.seat_code(game_set, 1)), (4, support.seat_code(game_set, 4))
    )
    assert answer.json()["message"] == "Deals 1, 2 confirmed and recorded."
