"""The places where British Kalooki, parallel code beside the Jamaican game, forgot to branch: each
test drives the pages as a director (or a phone) would and states what a British table must answer.

Each failed (a server error, or a British game verified with no reason) before the games seam
(`scoring/games.py`, one `deal_record` / `set_verify` for every game, one table page for every game).
Every refusal must leave the database as it was: the rows of every model (`row_counts`), the set's
status and version, its round's closing and the audit log.
"""

from __future__ import annotations

import pytest
from django.test import Client
from self_entry_support import (
    fresh_limits,  # noqa: F401 (autouse: no wrong tries left over)
    phone_url,
    table_token,
    turn_on,
)

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, GameSet
from tests.scoring.game_seam_support import (
    THREE,
    finish_and_verify,
    record_hands,
    running_hands,
    self_entry_on,
    snapshot,
    table_url,
)

pytestmark = pytest.mark.django_db
SERVER_ERROR = 500


@pytest.fixture
def british_event(make_event):
    return make_event(
        name="Club night", slug="club-night", ruleset_preset="british-swedish", format="placement"
    )


@pytest.fixture
def british_game(british_event, director, make_table):
    rnd = services.round_create(event=british_event, user=director)
    return make_table(rnd, THREE)


@pytest.fixture
def running(british_game, british_event, director):
    """Nine hands scored and the game still running: the Jamaican verify counts nine deals as done."""
    return record_hands(british_game, director, running_hands(british_event.ruleset()))


@pytest.fixture
def verified(british_game, director):
    return finish_and_verify(british_game, director)


@pytest.fixture
def pages(as_director):
    """The director's client; a server error comes back as a 500 answer, not an exception."""
    as_director.raise_request_exception = False
    return as_director


def answered_without_error(response) -> None:
    assert response.status_code != SERVER_ERROR, response.content.decode(errors="replace")[:2000]
    assert response.status_code < SERVER_ERROR


# --- verify -------------------------------------------------------------------------------------


def test_the_jamaican_verify_does_not_verify_a_running_british_game(pages, running):
    before = snapshot(running)
    assert running.status == GameSet.Status.IN_PLAY
    response = pages.post(
        table_url(running, "direct_verify"), {"version": str(running.version), "acknowledge": "on"}
    )
    answered_without_error(response)
    assert snapshot(running) == before
    assert not AuditEntry.objects.filter(action="kalooki.set.verified").exists()
    assert not AuditEntry.objects.filter(action="kalooki.round.closed").exists()
    # Refused with a message: on the page itself, or flashed on the page it redirects to.
    page = pages.get(response["Location"]) if response.status_code == 302 else response
    text = page.content.decode()
    assert "not verified" in text or "cannot" in text or "British" in text, text[:2000]


def test_a_refused_verify_post_on_a_british_table_changes_nothing(pages, running):
    before = snapshot(running)
    response = pages.post(table_url(running, "direct_verify"), {})
    answered_without_error(response)
    assert snapshot(running) == before


# --- reopen -------------------------------------------------------------------------------------


def test_reopening_a_verified_british_game_without_a_reason_is_refused_naming_the_reason(pages, verified):
    before = snapshot(verified)
    assert verified.is_verified
    response = pages.post(table_url(verified, "direct_reopen"), {"version": str(verified.version)})
    answered_without_error(response)
    assert response.status_code in (200, 400, 403, 404, 409, 422)
    assert "reason" in response.content.decode().lower()
    assert snapshot(verified) == before


# --- a hand's refusals --------------------------------------------------------------------------


def test_a_refused_delete_of_a_british_hand_changes_nothing(pages, running):
    deal = Deal.objects.get(game_set=running, sequence=1)
    before = snapshot(running)
    # No reason and no confirmation: the form refuses it.
    response = pages.post(
        table_url(running, "direct_deal_delete", sequence=1), {"version": str(deal.version)}
    )
    answered_without_error(response)
    assert snapshot(running) == before
    assert Deal.objects.filter(pk=deal.pk).exists()


def test_a_refused_ruling_on_a_british_hand_changes_nothing(pages, running):
    before = snapshot(running)
    response = pages.post(
        table_url(running, "direct_ruling", sequence=1), {"player": "Nobody", "kind": "", "version": "x"}
    )
    answered_without_error(response)
    assert snapshot(running) == before


def test_a_refused_laydown_check_on_a_british_table_changes_nothing(pages, running):
    before = snapshot(running)
    response = pages.post(table_url(running, "direct_laydown"), {"deal": "x", "melds": ""})
    answered_without_error(response)
    assert snapshot(running) == before


# --- the Jamaican table tools on a British table ------------------------------------------------


def test_the_live_check_answers_a_british_table_without_a_server_error(pages, british_game):
    before = snapshot(british_game)
    answered_without_error(pages.get(table_url(british_game, "direct_validate")))
    answered_without_error(
        pages.post(table_url(british_game, "direct_validate"), {"deal": "1", "out": "Nobody"})
    )
    # A hand the Jamaican form reads: Ann out, Bob 40 and Cy 12 left in hand.
    hand = {
        "deal": "1",
        "out": "Ann",
        "set_version": str(british_game.version),
        "p2-penalty": "40",
        "p3-penalty": "12",
    }
    answered_without_error(pages.post(table_url(british_game, "direct_validate"), hand))
    assert snapshot(british_game) == before


def test_the_laydown_check_answers_a_british_table_without_a_server_error(pages, running):
    before = snapshot(running)
    answered_without_error(pages.get(table_url(running, "direct_laydown")))
    answered_without_error(pages.post(table_url(running, "direct_laydown"), {"deal": "1", "melds": "AH KS"}))
    assert snapshot(running) == before


def test_the_ruling_url_answers_a_british_table_without_a_server_error(pages, running):
    before = snapshot(running)
    answered_without_error(pages.get(table_url(running, "direct_ruling", sequence=1)))
    answered_without_error(pages.post(table_url(running, "direct_ruling", sequence=1), {}))
    assert snapshot(running) == before


# --- self-entry ---------------------------------------------------------------------------------


@pytest.fixture
def british_phone(british_game, british_event, director):
    """Self-entry switched on for the British event, and a phone holding its table's token."""
    self_entry_on(british_event, director)
    token = table_token(british_game)
    phone = Client(REMOTE_ADDR="10.9.9.9", raise_request_exception=False)
    return token, phone


def test_a_british_tables_phone_page_answers_without_a_server_error(british_game, british_phone):
    token, phone = british_phone
    before = snapshot(british_game)
    response = phone.get(phone_url(token))
    answered_without_error(response)
    assert response.status_code in (200, 403, 404)
    assert snapshot(british_game) == before


def test_a_phones_deal_at_a_british_table_answers_without_a_server_error_and_writes_nothing(
    british_game, british_phone
):
    token, phone = british_phone
    before = snapshot(british_game)
    data = {
        "deal": 1,
        "out": "Ann",
        "dealer": "",
        "set_version": british_game.version,
        "seat": 1,
        "idempotency_key": "british-1",
        "p1-penalty": 0,
        "p2-penalty": 40,
        "p3-penalty": 12,
    }
    for answer in (
        phone.post(phone_url(token, "self_entry_enter"), data, HTTP_ACCEPT="application/json"),
        phone.post(phone_url(token, "self_entry_enter"), data),
        phone.post(phone_url(token, "self_entry_check"), data),
    ):
        answered_without_error(answer)
    assert snapshot(british_game) == before
    assert not Deal.objects.filter(game_set=british_game).exists()


def test_self_entry_is_switched_on_for_a_british_event(british_event, director):
    from scoring.models import Event

    turn_on(british_event, director)
    british_event.refresh_from_db()
    assert british_event.self_entry == Event.SelfEntry.RECORD
