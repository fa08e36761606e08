"""Self-entry keys (issue 13): tokens of at least 128 bits compared in constant time, scoped to one
table of one round, a regenerated or verified table read-only, the short code's rate limit, CSRF, and
an audit log that never shows a token."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ImproperlyConfigured
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
from kalooki_tournament.environment import env_url
from scoring import self_entry_codes as codes
from scoring.models import SelfEntryDeal, TableKey
from scoring.selectors.self_entry import key_for_short_code, key_for_token
from scoring.services import self_entry as service

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(game_set, event, director):
    turn_on(event, director)
    return game_set


def test_a_token_carries_at_least_128_secret_bits_and_is_never_stored(table):
    token = table_token(table)
    _, secret = codes.split_token(token)
    # URL-safe base64: six bits a character.
    assert len(secret) * 6 >= 128
    key = TableKey.objects.get(table=table.table)
    stored = json.dumps([key.selector, key.secret_hash])
    assert secret not in stored and token not in stored
    assert key.secret_hash == codes.secret_hash(secret)


def test_every_table_gets_its_own_token(table, round1, make_table):
    other = make_table(round1, ["Eve", "Fay", "Gus", "Hal"])
    assert table_token(table) != table_token(other)
    # Asking again gives the same key: printing twice prints the same code.
    assert table_token(table) == table_token(table)


def test_the_secret_is_compared_in_constant_time(table, monkeypatch):
    token = table_token(table)
    calls = []
    real = codes.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(codes.hmac, "compare_digest", spy)
    assert key_for_token(token) is not None
    assert key_for_token(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert len(calls) == 2


@pytest.mark.parametrize("change", ["last", "selector", "short", "long"])
def test_a_changed_token_opens_nothing(client, table, change):
    token = table_token(table)
    changed = {
        "last": token[:-1] + ("A" if token[-1] != "A" else "B"),
        "selector": ("z" if token[0] != "z" else "y") + token[1:],
        "short": token[:-1],
        "long": token + "A",
    }[change]
    assert client.get(phone_url(changed)).status_code == 404
    assert client.post(phone_url(changed, "self_entry_enter"), deal_one_form(table)).status_code == 404


def test_a_token_opens_only_its_own_table(client, table, round1, make_table, director):
    other = make_table(round1, ["Eve", "Fay", "Gus", "Hal"])
    mine, theirs = table_token(table), table_token(other)
    page = client.get(phone_url(mine)).content.decode()
    assert "Ann" in page and "Eve" not in page
    client.get(phone_url(theirs))
    client.post(phone_url(theirs, "self_entry_enter"), _eve_deal(other))
    entry = SelfEntryDeal.objects.get(game_set=other)
    # Another table's deal cannot be confirmed with this table's token.
    response = client.post(phone_url(mine, "self_entry_confirm", entry_id=entry.pk), {"seat": 2})
    assert response.status_code == 404
    entry.refresh_from_db()
    assert entry.status == SelfEntryDeal.Status.WAITING


def _eve_deal(game_set):
    data = deal_one_form(game_set, key="eve-1", out="Gus", dealer="Eve")
    return data


@pytest.mark.parametrize(
    "name",
    ["direct", "direct_table", "direct_verify", "direct_ruling", "self_entry_desk"],
)
def test_a_token_opens_nothing_of_the_directors(client, table, name):
    client.get(phone_url(table_token(table)))
    kwargs = {"slug": table.table.round.event.slug}
    if name in ("direct_table", "direct_verify"):
        kwargs.update(number=1, table=1)
    if name == "direct_ruling":
        kwargs.update(number=1, table=1, sequence=1)
    response = client.post(reverse(f"scoring:{name}", kwargs=kwargs))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_regenerated_token_opens_the_sheet_read_only_and_accepts_nothing(client, table, director):
    old = table_token(table)
    client.get(phone_url(old))
    client.post(phone_url(old, "self_entry_enter"), deal_one_form(table))
    waiting = SelfEntryDeal.objects.get()
    service.table_key_regenerate(table=table.table, user=director, reason="a sheet was lost")
    page = client.get(phone_url(old))
    assert page.status_code == 200
    text = page.content.decode()
    assert "read-only" in text and "data-self-entry-form" not in text
    response = client.post(phone_url(old, "self_entry_enter"), deal_one_form(table, key="again"))
    assert response.status_code == 409
    # Confirming on it is refused as entering is: the page accepts nothing now (409).
    response = client.post(phone_url(old, "self_entry_confirm", entry_id=waiting.pk), {"seat": 2})
    assert response.status_code == 409
    waiting.refresh_from_db()
    # What waited under the old code goes to the director, not into the set.
    assert waiting.status == SelfEntryDeal.Status.QUEUED
    new = table_token(table)
    assert new != old
    # The new code's page says what became of deal 1 (no second form for it while it waits).
    text = client.get(phone_url(new)).content.decode()
    assert "Deal 1 waits for the director (the table&#x27;s code was changed before it was confirmed)" in text
    assert "data-self-entry-form" not in text
    service.self_entry_dismiss(entry=waiting, user=director, reason="entered again at the new code")
    assert "data-self-entry-form" in client.get(phone_url(new)).content.decode()


def test_a_verified_set_opens_read_only(client, played, event, director):
    turn_on(event, director)
    from scoring import services

    played.refresh_from_db()
    services.set_verify(game_set=played, user=director, expected_version=played.version)
    token = table_token(played)
    text = client.get(phone_url(token)).content.decode()
    assert "verified" in text.lower() and "data-self-entry-form" not in text
    # The sheet's result still shows.
    assert "Total" in text
    response = client.post(phone_url(token, "self_entry_enter"), deal_one_form(played))
    assert response.status_code == 409
    assert not SelfEntryDeal.objects.exists()


def test_the_short_code_opens_its_table_only_with_its_event_and_number(client, table, round1, make_table):
    other = make_table(round1, ["Eve", "Fay", "Gus", "Hal"])
    token = table_token(table)
    table_token(other)
    key = key_for_token(token)
    code = codes.short_code_for(key.selector)
    assert len(code) == 8 and set(code) <= set(codes.SHORT_ALPHABET)
    assert not set(code) & set("01OIL")
    event = table.table.round.event
    assert key_for_short_code(event, 1, code.lower()) == key
    assert key_for_short_code(event, 2, code) is None
    response = client.post(
        reverse("scoring:self_entry_short"), {"event": event.slug, "table": 1, "code": code}
    )
    assert response.status_code == 302 and response["Location"] == phone_url(token)


def test_five_wrong_short_codes_a_minute_then_a_wait(client, table):
    event = table.table.round.event
    token = table_token(table)
    code = codes.short_code_for(key_for_token(token).selector)
    url = reverse("scoring:self_entry_short")
    # A right code does not count against the address.
    assert client.post(url, {"event": event.slug, "table": 1, "code": code}).status_code == 302
    for _ in range(5):
        assert client.post(url, {"event": event.slug, "table": 1, "code": "AAAA2222"}).status_code == 400
    locked = client.post(url, {"event": event.slug, "table": 1, "code": code})
    assert locked.status_code == 429 and int(locked["Retry-After"]) <= 60
    # Another address still gets its tries.
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post(url, {"event": event.slug, "table": 1, "code": code}).status_code == 302


def test_five_wrong_tokens_a_minute_then_a_wait(client, table):
    token = table_token(table)
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    for _ in range(5):
        assert client.get(phone_url(wrong)).status_code == 404
    locked = client.get(phone_url(wrong))
    assert locked.status_code == 429 and int(locked["Retry-After"]) <= 60
    # The table's own token is never locked out (issue 22, item 4).
    assert client.get(phone_url(token)).status_code == 200
    assert Client(REMOTE_ADDR="10.0.0.9").get(phone_url(wrong)).status_code == 404


def test_the_audit_log_never_shows_a_token_or_code(client, as_director, table, director):
    token = table_token(table)
    client.get(phone_url(token))
    client.post(phone_url(token, "self_entry_enter"), deal_one_form(table))
    entry = SelfEntryDeal.objects.get()
    bob = Client(REMOTE_ADDR="10.1.1.2")
    bob.get(phone_url(token))
    bob.post(
        phone_url(token, "self_entry_confirm", entry_id=entry.pk),
        {"seat": 2, "version": entry.version, "seat_code": seat_code(table, 2)},
    )
    service.table_key_regenerate(table=table.table, user=director, reason="test")
    new = table_token(table)
    # Neither a token, a short code, a seat code nor a phone's device cookie.
    secrets_shown = [client.cookies["kalooki_device"].value, bob.cookies["kalooki_device"].value]
    for value in (token, new):
        selector, secret = codes.split_token(value)
        secrets_shown += [value, secret, selector, codes.short_code_for(selector)]
        secrets_shown += [codes.seat_code_for(selector, position) for position in range(1, 5)]
    logged = json.dumps(
        [[e.action, e.before, e.after, e.reason, e.object_repr] for e in AuditEntry.objects.all()],
        default=str,
    )
    assert "kalooki.selfentry.key_regenerated" in logged and "kalooki.deal.recorded" in logged
    page = as_director.get(reverse("adjudication:log", kwargs={"slug": table.table.round.event.slug}))
    for shown in secrets_shown:
        assert shown not in logged
        assert shown not in page.content.decode()


def test_every_phone_form_needs_its_csrf_token(table):
    phone = Client(enforce_csrf_checks=True)
    token = table_token(table)
    phone.get(phone_url(token))
    assert phone.post(phone_url(token, "self_entry_enter"), deal_one_form(table)).status_code == 403
    assert phone.post(reverse("scoring:self_entry_short"), {"event": "x"}).status_code == 403
    page = phone.get(phone_url(token)).content.decode()
    assert 'name="csrfmiddlewaretoken"' in page
    assert not SelfEntryDeal.objects.exists()


def test_the_phone_page_is_not_kept_and_carries_a_device_cookie(client, table):
    response = client.get(phone_url(table_token(table)))
    assert response["Cache-Control"] == "no-store"
    assert response.cookies["kalooki_device"]["httponly"]
    assert len(response.cookies["kalooki_device"].value) >= 16


@pytest.mark.parametrize(
    "value, expected",
    [
        ("http://kalooki.local:8000", "http://kalooki.local:8000"),
        ("https://scores.example.org/club/", "https://scores.example.org/club"),
    ],
)
def test_the_public_url_setting_takes_an_address(monkeypatch, value, expected):
    monkeypatch.setenv("KALOOKI_PUBLIC_URL", value)
    assert env_url("KALOOKI_PUBLIC_URL") == expected


@pytest.mark.parametrize(
    "value", ["kalooki.local:8000", "ftp://x", "http://", "http://x/?a=1", "http://x:port", "http://a b"]
)
def test_a_mistyped_public_url_stops_start_up(monkeypatch, value):
    monkeypatch.setenv("KALOOKI_PUBLIC_URL", value)
    with pytest.raises(ImproperlyConfigured, match="KALOOKI_PUBLIC_URL"):
        env_url("KALOOKI_PUBLIC_URL")
