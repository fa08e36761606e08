"""Rulings, appeals, a table's history and the event's log, through the pages (issue 5)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from adjudication import services as rulings
from adjudication.models import AuditEntry, Ruling
from scoring import services
from scoring.models import DealResult, GameSet

pytestmark = pytest.mark.django_db


def table_url(name, event, game_set, **query):
    table = game_set.table
    url = reverse(f"adjudication:{name}", args=[event.slug, table.round.number, table.number])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def ruling_url(name, event, ruling):
    return reverse(f"adjudication:{name}", args=[event.slug, ruling.pk])


def penalty(game_set, sequence, name):
    return DealResult.objects.get(
        deal__game_set=game_set, deal__sequence=sequence, entry__player__name=name
    ).penalty


@pytest.fixture
def issued(played, director, entries):
    deal = played.deals.get(sequence=2)
    return rulings.ruling_issue(
        deal=deal, entry=entries["Cy"], user=director, kind="other", points=10, reason="Slow play", rule="R19"
    )


# --- who may do what ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["rulings", "log", "table_rulings", "ruling_appeal", "ruling_decide"], ids=str
)
def test_director_pages_send_visitors_to_log_in_and_refuse_other_users(
    client, django_user_model, event, played, issued, name
):
    if name in ("rulings", "log"):
        url = reverse(f"adjudication:{name}", args=[event.slug])
    elif name == "table_rulings":
        url = table_url(name, event, played)
    else:
        url = ruling_url(name, event, issued)
    method = client.post if name.startswith("ruling_") else client.get
    assert method(url).status_code == 302
    client.force_login(django_user_model.objects.create_user("visitor", password="x-visitor-pw-1"))
    assert method(url).status_code == 403
    assert not Ruling.objects.exclude(status="standing").exists()


def test_a_ruling_and_a_table_history_are_public_without_forms(client, event, played, issued):
    page = client.get(ruling_url("ruling", event, issued))
    assert page.status_code == 200
    assert b"Slow play" in page.content and b"kalooki.ruling.issued" in page.content
    assert b"Record an appeal" not in page.content
    history = client.get(table_url("table_history", event, played))
    assert history.status_code == 200 and b"kalooki.ruling.issued" in history.content


# --- issue, appeal, decide ----------------------------------------------------------------------


def test_a_director_issues_a_ruling_that_cites_its_rule(as_director, event, played):
    before = penalty(played, 3, "Dee")
    deal = played.deals.get(sequence=3)
    page = as_director.get(table_url("table_rulings", event, played, deal=3))
    assert page.status_code == 200 and b"Issue ruling" in page.content
    response = as_director.post(
        table_url("table_rulings", event, played, deal=3),
        {
            "player": "Dee",
            "kind": "other",
            "points": "15",
            "rule": "R19",
            "reason": "Card exposed",
            "version": deal.version,
        },
    )
    ruling = Ruling.objects.get(reason="Card exposed")
    assert response.status_code == 302 and response["Location"] == ruling_url("ruling", event, ruling)
    assert (ruling.rule, ruling.points, ruling.entry.player.name) == ("R19", 15, "Dee")
    assert penalty(played, 3, "Dee") > before


def deal_ruling_url(event, game_set, sequence):
    table = game_set.table
    return reverse("scoring:direct_ruling", args=[event.slug, table.round.number, table.number, sequence])


@pytest.mark.parametrize("page", ["entry", "rulings"])
@pytest.mark.parametrize(
    ("post", "rule"),
    [
        ({"kind": "overcall"}, "R17"),
        ({"kind": "contract_error"}, "R18"),
        ({"kind": "overcall", "rule": "R17(b)"}, "R17(b)"),
        ({"kind": "other", "points": "5", "reason": "Card exposed"}, ""),
        ({"kind": "other", "points": "5", "reason": "Card exposed", "rule": "R9"}, "R9"),
    ],
    ids=["over-call", "contract-error", "cited", "other", "other-cited"],
)
def test_both_pages_issue_rulings_through_one_form_that_cites_the_rule(
    as_director, event, played, page, post, rule
):
    """The deal's entry page and the table's rulings page show the same form and post to one handler:
    a blank rule cites the infraction's own (R17, R18); another infraction cites what is typed."""
    deal = played.deals.get(sequence=3)
    if page == "entry":
        shown = reverse("scoring:direct_deal", args=[event.slug, 1, 1, 3])
        target = deal_ruling_url(event, played, 3)
    else:
        shown = target = table_url("table_rulings", event, played, deal=3)
    html = as_director.get(shown).content
    assert b'name="rule"' in html and b"Blank: R17 for an over-call" in html
    response = as_director.post(target, {"player": "Dee", **post, "version": deal.version})
    assert response.status_code == 302
    assert Ruling.objects.get(entry__player__name="Dee").rule == rule


@pytest.mark.parametrize(
    ("post", "message"),
    [
        (
            {"player": "Dee", "kind": "other", "reason": "x"},
            b"Points (other infractions only): Give the points",
        ),
        (
            {"player": "Dee", "kind": "other", "points": "ten"},
            b"Points (other infractions only): Enter a whole",
        ),
        ({"player": "Zed", "kind": "overcall"}, b"Player: Select a valid choice"),
        ({"player": "Dee", "kind": "foul"}, b"Infraction: Select a valid choice"),
        ({"player": "Dee", "kind": "other", "points": "5"}, b"Reason: Say what the infraction was"),
        (
            {"player": "Dee", "kind": "overcall", "rule": "R" * 21},
            b"Rule cited: Ensure this value has at most 20",
        ),
    ],
    ids=["no-points", "points-not-a-number", "unknown-player", "unknown-kind", "no-reason", "long-rule"],
)
def test_a_bad_ruling_names_the_field_and_writes_nothing(as_director, event, played, post, message):
    deal = played.deals.get(sequence=3)
    count = Ruling.objects.count()
    response = as_director.post(
        table_url("table_rulings", event, played, deal=3), {**post, "version": deal.version}
    )
    assert response.status_code == 400
    assert message in response.content
    assert Ruling.objects.count() == count


def test_a_stale_ruling_is_refused_naming_who_changed_the_deal(
    as_director, event, played, other_director, entries
):
    deal = played.deals.get(sequence=3)
    version = deal.version
    rulings.ruling_issue(
        deal=deal, entry=entries["Bob"], user=other_director, kind="other", points=5, reason="x"
    )
    response = as_director.post(
        table_url("table_rulings", event, played, deal=3),
        {"player": "Dee", "kind": "other", "points": "5", "reason": "y", "version": version},
    )
    assert response.status_code == 409
    assert b"second" in response.content and b"Nothing was saved" in response.content


def test_a_ruling_without_a_deal_chosen_is_not_issued(as_director, event, played):
    response = as_director.post(table_url("table_rulings", event, played), {"player": "Dee"})
    assert response.status_code == 302
    assert not Ruling.objects.filter(entry__player__name="Dee", reason="").exists()


def test_a_verified_set_is_locked_against_rulings(as_director, event, played, director):
    services.set_verify(game_set=played, user=director, acknowledge_warnings=True)
    deal = played.deals.get(sequence=3)
    response = as_director.post(
        table_url("table_rulings", event, played, deal=3),
        {"player": "Dee", "kind": "overcall", "version": deal.version},
    )
    assert response.status_code == 400 and b"verified and locked" in response.content


def test_appeal_then_overturn_keeps_the_whole_history_visible(as_director, event, played, issued):
    before = penalty(played, 2, "Cy")
    page = as_director.get(ruling_url("ruling", event, issued))
    assert b"Record an appeal" in page.content
    refused = as_director.post(ruling_url("ruling_appeal", event, issued), {"version": issued.version})
    assert (
        refused.status_code == 400
        and b"Why is the ruling appealed?: This field is required" in refused.content
    )
    appealed = as_director.post(
        ruling_url("ruling_appeal", event, issued), {"reason": "He was thinking", "version": issued.version}
    )
    assert appealed.status_code == 302
    issued.refresh_from_db()
    assert issued.status == "appealed"
    decided = as_director.post(
        ruling_url("ruling_decide", event, issued),
        {"decision": "overturned", "reason": "No delay found", "version": issued.version},
    )
    assert decided.status_code == 302
    issued.refresh_from_db()
    assert issued.status == "overturned"
    assert penalty(played, 2, "Cy") == before - 10
    page = as_director.get(ruling_url("ruling", event, issued))
    for action in (b"kalooki.ruling.issued", b"kalooki.ruling.appealed", b"kalooki.ruling.overturned"):
        assert action in page.content
    assert b"He was thinking" in page.content and b"No delay found" in page.content


def test_an_upheld_appeal_keeps_the_points(as_director, event, played, issued, director):
    before = penalty(played, 2, "Cy")
    rulings.ruling_appeal(ruling=issued, user=director, reason="Too harsh")
    issued.refresh_from_db()
    as_director.post(
        ruling_url("ruling_decide", event, issued), {"decision": "upheld", "version": issued.version}
    )
    issued.refresh_from_db()
    assert issued.status == "upheld" and penalty(played, 2, "Cy") == before


@pytest.mark.parametrize(
    ("post", "message", "status"),
    [
        ({"decision": "maybe"}, b"Decision: Select a valid choice", 400),
        ({"decision": "upheld", "version": "old"}, b"out of date", 400),
        ({"decision": "upheld", "version": "1"}, b"Nothing was saved", 409),
    ],
    ids=["bad-decision", "garbled-version", "stale-version"],
)
def test_a_bad_decision_is_refused_clearly(as_director, event, issued, director, post, message, status):
    rulings.ruling_appeal(ruling=issued, user=director, reason="Too harsh")
    response = as_director.post(ruling_url("ruling_decide", event, issued), post)
    assert response.status_code == status and message in response.content
    issued.refresh_from_db()
    assert issued.status == "appealed"


def test_deciding_a_ruling_that_is_not_appealed_is_refused(as_director, event, issued):
    response = as_director.post(
        ruling_url("ruling_decide", event, issued), {"decision": "upheld", "version": issued.version}
    )
    assert response.status_code == 400 and b"Only an appealed ruling can be decided" in response.content


def test_the_rulings_list_puts_appeals_first_and_filters_by_status(
    as_director, event, played, issued, director, entries
):
    # A standing ruling on an earlier deal, listed after the later appealed one.
    deal = played.deals.get(sequence=1)
    rulings.ruling_issue(deal=deal, entry=entries["Dee"], user=director, kind="other", points=2, reason="x")
    rulings.ruling_appeal(ruling=issued, user=director, reason="Too harsh")
    page = as_director.get(reverse("adjudication:rulings", args=[event.slug]))
    text = page.content.decode()
    assert page.status_code == 200
    assert text.index("Appealed</span>") < text.index("Standing</span>")
    only = as_director.get(reverse("adjudication:rulings", args=[event.slug]) + "?status=appealed").content
    assert b"Standing</span>" not in only and b"Appealed</span>" in only


@pytest.mark.parametrize(
    "url",
    [
        "/adjudication/e/nowhere/rulings/",
        "/adjudication/e/test-open/rulings/999999/",
        "/adjudication/e/test-open/r/9/t/1/history/",
        "/adjudication/e/test-open/r/1/t/9/rulings/",
        "/adjudication/e/test-open/r/1/t/1/rulings/?deal=x",
        "/adjudication/e/test-open/r/1/t/1/rulings/?deal=²",
        "/adjudication/e/test-open/log/?page=zz&date_from=never",
        "/adjudication/e/test-open/r/99999999999999999999/t/1/history/",
    ],
)
def test_bad_urls_get_a_page_not_a_server_error(as_director, played, url):
    assert as_director.get(url).status_code in (200, 400, 404)


def test_a_ruling_of_another_event_is_not_found_here(as_director, make_event, issued):
    other = make_event()
    assert as_director.get(ruling_url("ruling", other, issued)).status_code == 404


# --- history, reopening and the log -------------------------------------------------------------


def test_a_reopened_set_shows_corrected_after_verification_end_to_end(
    client, event, played, director, other_director, example_sheet
):
    services.set_verify(game_set=played, user=director, acknowledge_warnings=True)
    played.refresh_from_db()
    deal = played.deals.get(sequence=4)
    with pytest.raises(services.SetLocked):
        services.deal_record(game_set=played, user=director, data=example_sheet["deals"][3], deal=deal)
    with pytest.raises(Exception, match="Say why"):
        services.set_reopen(game_set=played, user=director, reason="  ")
    services.set_reopen(game_set=played, user=other_director, reason="Paper sheet shows 40 for Bob")
    data = {**example_sheet["deals"][3]}
    services.deal_record(
        game_set=played, user=other_director, data=data, deal=deal, expected_version=deal.version
    )
    services.set_verify(game_set=played, user=director, acknowledge_warnings=True)
    public = client.get(reverse("scoring:table", args=[event.slug, 1, 1]))
    assert b"Corrected after verification" in public.content
    history = client.get(table_url("table_history", event, played)).content.decode()
    assert "Corrected after verification" in history
    assert (
        history.index("kalooki.set.verified")
        < history.index("kalooki.deal.corrected")
        < history.index("kalooki.set.reopened")
    )
    # Who reopened it is shown, by display name ("director" without one), never by username (item 14).
    assert "Paper sheet shows 40 for Bob" in history and "by director" in history
    assert "by second" not in history


def test_the_table_history_shows_before_and_after(client, event, played, director, example_sheet):
    deal = played.deals.get(sequence=1)
    data = {**example_sheet["deals"][0], "results": {**example_sheet["deals"][0]["results"]}}
    name = next(n for n, row in data["results"].items() if row.get("penalty"))
    old = data["results"][name]["penalty"]
    data["results"][name] = {**data["results"][name], "penalty": old + 7}
    data["results"][name].pop("hand", None)
    services.deal_record(game_set=played, user=director, data=data, deal=deal, reason="Typo on entry")
    page = client.get(table_url("table_history", event, played)).content.decode()
    assert f"results.{name}.penalty" in page and str(old + 7) in page and "Typo on entry" in page


@pytest.fixture
def busy_log(event, played, issued, director, other_director, make_table, round1):
    """Two tables with entries by two directors and a command (no user)."""
    second = make_table(round1, ["Eve", "Fitz", "Gail", "Hugh"])
    services.deal_record(
        game_set=second,
        user=other_director,
        data={"deal": 1, "out": "Eve", "results": {"Eve": {"penalty": 0}, "Fitz": {"penalty": 12}}},
    )
    services.entry_add(event=event, user=None, name="Ivy")
    return second


def test_the_log_filters_by_action_table_user_and_date(as_director, event, busy_log):
    url = reverse("adjudication:log", args=[event.slug])
    everything = as_director.get(url)
    assert everything.status_code == 200
    total = AuditEntry.objects.filter(event=event).count()
    assert everything.context["page"].paginator.count == total

    def count(**query):
        response = as_director.get(url, query)
        assert response.status_code == 200, response.content
        return response.context["page"].paginator.count

    assert (
        count(action="kalooki.ruling.")
        == AuditEntry.objects.filter(action__startswith="kalooki.ruling.").count()
    )
    assert count(action="kalooki.deal.recorded") == 1
    assert count(user="second") == AuditEntry.objects.filter(username="second").count() > 0
    assert count(user="-") == AuditEntry.objects.filter(event=event, username="").count() > 0
    assert count(table="r1t2") == 1  # deal 1 recorded at table 2
    today = timezone.localdate()
    assert count(date_from=today.isoformat(), date_to=today.isoformat()) == total
    assert count(date_from=(today + timedelta(days=1)).isoformat()) == 0


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"date_from": "31/31/2026"}, b"From (date): Enter a valid date"),
        ({"action": "kalooki.nothing"}, b"Action: Select a valid choice"),
        ({"table": "r9t9"}, b"Table: Select a valid choice"),
        ({"date_from": "2026-12-05", "date_to": "2026-12-01"}, b"To (date): The end date is before"),
    ],
    ids=["bad-date", "unknown-action", "unknown-table", "dates-reversed"],
)
def test_a_bad_filter_is_named_not_a_server_error(as_director, event, busy_log, query, message):
    response = as_director.get(reverse("adjudication:log", args=[event.slug]), query)
    assert response.status_code == 400 and message in response.content


def test_the_log_exports_the_filtered_entries_as_csv(as_director, event, busy_log):
    response = as_director.get(
        reverse("adjudication:log", args=[event.slug]), {"user": "second", "_export": "csv"}
    )
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["at", "action", "user", "object_type", "object", "before", "after", "reason"]
    assert len(rows) - 1 == AuditEntry.objects.filter(username="second").count()
    assert {row[2] for row in rows[1:]} == {"second"}


def test_csv_cells_that_a_spreadsheet_would_run_are_defused(as_director, event, played, director, entries):
    deal = played.deals.get(sequence=5)
    rulings.ruling_issue(
        deal=deal, entry=entries["Ann"], user=director, kind="other", points=3, reason='=HYPERLINK("x")'
    )
    response = as_director.get(reverse("adjudication:log", args=[event.slug]), {"_export": "csv"})
    reasons = [row[7] for row in csv.reader(io.StringIO(response.content.decode()))]
    assert '\'=HYPERLINK("x")' in reasons and '=HYPERLINK("x")' not in reasons


def test_the_log_pages_cannot_change_anything(as_director, event, played, issued):
    count, version = AuditEntry.objects.count(), GameSet.objects.get(pk=played.pk).version
    for url in (
        reverse("adjudication:log", args=[event.slug]),
        table_url("table_history", event, played),
        ruling_url("ruling", event, issued),
    ):
        for method in (as_director.post, as_director.put, as_director.delete, as_director.patch):
            assert method(url).status_code == 405
    assert AuditEntry.objects.count() == count
    assert GameSet.objects.get(pk=played.pk).version == version


def test_verify_lock_and_reopen_through_the_director_pages(as_director, client, event, played):
    """End to end over HTTP: verify, a locked set refuses a ruling, reopening needs a reason, the
    correction after it is public and logged."""

    def version():
        return GameSet.objects.get(pk=played.pk).version

    def direct(name, data):
        return as_director.post(reverse(f"scoring:{name}", args=[event.slug, 1, 1]), data)

    verified = direct("direct_verify", {"acknowledge": "on", "version": version()})
    assert verified.status_code == 302 and GameSet.objects.get(pk=played.pk).is_verified
    deal = played.deals.get(sequence=3)
    locked = as_director.post(
        table_url("table_rulings", event, played, deal=3),
        {"player": "Dee", "kind": "overcall", "version": deal.version},
    )
    assert locked.status_code == 400 and b"verified and locked" in locked.content
    no_reason = direct("direct_reopen", {"reason": "", "version": version()})
    assert no_reason.status_code == 400 and GameSet.objects.get(pk=played.pk).is_verified
    reopened = direct("direct_reopen", {"reason": "Scorer swapped two columns", "version": version()})
    assert reopened.status_code == 302 and not GameSet.objects.get(pk=played.pk).is_verified
    public = client.get(reverse("scoring:table", args=[event.slug, 1, 1]))
    assert b"Corrected after verification" in public.content
    log = as_director.get(reverse("adjudication:log", args=[event.slug]), {"action": "kalooki.set.reopened"})
    assert log.context["page"].paginator.count == 1 and b"Scorer swapped two columns" in log.content
