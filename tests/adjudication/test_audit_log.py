"""The audit log: every service write reaches it, and neither the admin, the ORM nor a deletion elsewhere
can change or remove an entry (issue 5, "Corrections and audit")."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.db.models import ProtectedError
from django.urls import reverse

from adjudication import services as rulings
from adjudication.archive import event_export, event_import
from adjudication.audit import audit_changes, audit_record, history_for, history_for_table
from adjudication.models import AppendOnlyError, AuditEntry, Ruling
from scoring import services
from scoring.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged(event, director):
    return audit_record(
        event=event,
        action="kalooki.test.done",
        user=director,
        obj=event,
        before={"venue": "Old hall"},
        after={"venue": "New hall"},
        reason="because",
    )


@pytest.fixture
def boss(django_user_model):
    return django_user_model.objects.create_superuser("boss", password="boss-long-pw-1")


@pytest.fixture
def admin_client(client, boss):
    client.force_login(boss)
    return client


def test_audit_record_keeps_who_what_and_why(logged, event):
    assert logged.username == "director"
    assert (logged.object_type, logged.object_id) == ("scoring.event", str(event.pk))
    assert (logged.before, logged.after, logged.reason) == (
        {"venue": "Old hall"},
        {"venue": "New hall"},
        "because",
    )
    assert logged in history_for(event)


def test_audit_actions_are_dotted_names(event):
    with pytest.raises(ValueError):
        audit_record(event=event, action="changed", user=None, obj=None, before=None, after=None)


def test_the_admin_offers_neither_change_nor_delete(logged, rf, boss):
    admin = site._registry[AuditEntry]
    request = rf.get("/")
    request.user = boss
    assert not admin.has_change_permission(request, logged)
    assert not admin.has_delete_permission(request, logged)
    assert not admin.has_add_permission(request)
    assert admin.get_actions(request) == {}


@pytest.mark.parametrize(
    ("method", "view", "data"),
    [
        ("get", "change", None),
        ("post", "change", {"reason": "rewritten", "action": "kalooki.test.done"}),
        ("get", "delete", None),
        ("post", "delete", {"post": "yes"}),
        ("post", "add", {"reason": "new", "action": "kalooki.test.added"}),
    ],
    ids=["view-change-form", "post-change", "view-delete", "post-delete", "post-add"],
)
def test_the_admin_cannot_change_delete_or_add_entries(admin_client, logged, method, view, data):
    before = list(AuditEntry.objects.order_by("pk").values_list("pk", "reason"))
    args = [] if view == "add" else [logged.pk]
    url = reverse(f"admin:adjudication_auditentry_{view}", args=args)
    response = getattr(admin_client, method)(url, data or {})
    # The change page is shown read-only (200 on GET); every write is refused (403).
    assert response.status_code == (200 if (method, view) == ("get", "change") else 403)
    if response.status_code == 200:
        assert b'name="reason"' not in response.content
    assert list(AuditEntry.objects.order_by("pk").values_list("pk", "reason")) == before


def test_the_admin_list_offers_no_bulk_delete(admin_client, logged):
    url = reverse("admin:adjudication_auditentry_changelist")
    page = admin_client.get(url)
    assert page.status_code == 200 and b"delete_selected" not in page.content
    admin_client.post(url, {"action": "delete_selected", "_selected_action": [logged.pk]})
    assert AuditEntry.objects.filter(pk=logged.pk).exists()


@pytest.mark.parametrize(
    "attempt",
    [
        lambda entry: entry.save(),
        lambda entry: entry.delete(),
        lambda entry: AuditEntry.objects.filter(pk=entry.pk).delete(),
        lambda entry: AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten"),
        lambda entry: AuditEntry.objects.bulk_update([entry], ["reason"]),
        lambda entry: entry.event.audit.all().delete(),
        lambda entry: entry.event.audit.update(reason="rewritten"),
        lambda entry: AuditEntry.objects.all().delete(),
        lambda entry: AuditEntry.objects.select_for_update().filter(pk=entry.pk).update(reason="x"),
        lambda entry: AuditEntry.objects.update_or_create(pk=entry.pk, defaults={"reason": "rewritten"}),
    ],
    ids=[
        "save",
        "delete",
        "queryset-delete",
        "queryset-update",
        "bulk-update",
        "related-delete",
        "related-update",
        "delete-all",
        "locked-update",
        "update-or-create",
    ],
)
def test_the_orm_cannot_rewrite_the_log_by_any_door(logged, attempt):
    logged.reason = "rewritten"
    with pytest.raises(AppendOnlyError):
        attempt(logged)
    assert AuditEntry.objects.get(pk=logged.pk).reason == "because"


def test_deleting_what_the_log_speaks_of_is_refused(logged, event, director):
    with pytest.raises(ProtectedError):
        event.delete()
    with pytest.raises(ProtectedError):
        director.delete()
    assert AuditEntry.objects.filter(pk=logged.pk).exists()


def test_changes_list_each_field_that_differs(logged):
    assert audit_changes(logged) == [{"field": "venue", "before": "Old hall", "after": "New hall"}]


def test_long_changes_are_cut_and_counted(event):
    entry = audit_record(
        event=event,
        action="kalooki.test.big",
        user=None,
        obj=None,
        before=None,
        after={"deals": [{"deal": n, "results": {"Ann": {"penalty": n}}} for n in range(1, 10)]},
    )
    rows = audit_changes(entry, limit=5)
    assert [row["field"] for row in rows[:2]] == ["deals[0].deal", "deals[0].results.Ann.penalty"]
    assert rows[-1] == {"field": "…", "more": 13}


def test_every_service_write_reaches_the_log(
    event, round1, game_set, director, entries, example_sheet, make_entries, make_table
):
    """One pass through every service that writes; each leaves its entry, with its user."""

    def actions():
        return list(AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", flat=True))

    seen = len(actions())
    expected = []

    def step(action, call):
        nonlocal seen
        call()
        now = actions()
        assert action in now[seen:], (action, now[seen:])
        seen = len(now)
        expected.append(action)

    step("kalooki.event.changed", lambda: services.event_update(event=event, user=director, venue="Hall B"))
    step(
        "kalooki.entry.added",
        lambda: services.entry_add(event=event, user=director, name="Ivy", club="C", membership_id="M-1"),
    )
    step("kalooki.entry.withdrawn", lambda: services.entry_withdraw(entry=entries["Dee"], user=director))
    step("kalooki.entry.reinstated", lambda: services.entry_reinstate(entry=entries["Dee"], user=director))
    step(
        "kalooki.entry.imported",
        lambda: services.players_import_csv(event=event, user=director, data="name,club\nJo,K\n"),
    )
    step(
        "kalooki.deal.recorded",
        lambda: services.deal_record(game_set=game_set, user=director, data=example_sheet["deals"][0]),
    )
    deal = game_set.deals.get(sequence=1)
    step(
        "kalooki.deal.corrected",
        lambda: services.deal_record(
            game_set=game_set, user=director, data=example_sheet["deals"][0], deal=deal
        ),
    )
    step(
        "kalooki.deal.deleted",
        lambda: services.deal_delete(deal=game_set.deals.get(sequence=1), user=director, reason="Twice"),
    )
    step(
        "kalooki.set.imported",
        lambda: services.sheet_import(game_set=game_set, user=director, data=example_sheet),
    )
    ruling_deal = game_set.deals.get(sequence=2)
    step(
        "kalooki.ruling.issued",
        lambda: rulings.ruling_issue(
            deal=ruling_deal, entry=entries["Ann"], user=director, kind="other", points=4, reason="Slow"
        ),
    )
    ruling = ruling_deal.rulings.get(reason="Slow")
    step("kalooki.ruling.appealed", lambda: rulings.ruling_appeal(ruling=ruling, user=director, reason="No"))
    step(
        "kalooki.ruling.overturned",
        lambda: rulings.ruling_decide(ruling=ruling, user=director, decision="overturned"),
    )
    step(
        "kalooki.set.verified",
        lambda: services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True),
    )
    step(
        "kalooki.set.reopened",
        lambda: services.set_reopen(game_set=game_set, user=director, reason="Recount"),
    )
    seat = Seat.objects.get(table=game_set.table, position=1)
    step(
        "kalooki.seat.substituted",
        lambda: services.seat_substitute(
            seat=seat, user=director, substitute=make_entries(event, ["Ivy"])["Ivy"], from_deal=3
        ),
    )
    round2 = services.round_create(event=event, user=director)
    step(
        "kalooki.round.seated",
        lambda: services.round_seat(round=round2, user=director, seed=1, confirm_open=True),
    )
    step(
        "kalooki.event.imported",
        lambda: event_import(data=event_export(event=event), user=director, slug=event.slug, replace=True),
    )
    assert AuditEntry.objects.filter(event=event, username="director").count() > len(expected)
    # Replacing an event from its own export does not copy its log into itself a second time.
    assert not AuditEntry.objects.filter(event=event, object_type="archive").exists()


@pytest.mark.parametrize("gone", ["deal deleted", "sheet imported again"])
def test_a_tables_history_keeps_its_rulings_once_their_deal_is_gone(
    client, played, director, entries, example_sheet, round1, make_table, gone
):
    deal = played.deals.get(sequence=2)
    ruling = rulings.ruling_issue(
        deal=deal, entry=entries["Cy"], user=director, kind="other", points=10, reason="Slow play"
    )
    issued = AuditEntry.objects.get(action="kalooki.ruling.issued", object_id=str(ruling.pk))
    place = {key: issued.after[key] for key in ("round", "table", "deal", "player")}
    assert place == {"round": 1, "table": 1, "deal": 2, "player": "Cy"}
    if gone == "deal deleted":
        services.deal_delete(deal=deal, user=director, reason="Entered twice")
    else:
        services.sheet_import(game_set=played, user=director, data=example_sheet)
    # The ruling is withdrawn, not deleted: it keeps its set and its deal's number.
    ruling.refresh_from_db()
    assert (ruling.status, ruling.deal_id, ruling.deal_number) == (Ruling.Status.WITHDRAWN, None, 2)
    assert issued in history_for_table(played)
    page = client.get(reverse("adjudication:table_history", args=[played.table.round.event.slug, 1, 1]))
    assert b"Slow play" in page.content
    # Another table, in the same round or at the same number in the next, does not show it.
    round2 = services.round_create(event=round1.event, user=director)
    for other in (
        make_table(round1, ["Eve", "Fitz", "Gail", "Hugh"]),
        make_table(round2, ["Ivy", "Jo", "Kim", "Lou"]),
    ):
        assert issued not in history_for_table(other)
