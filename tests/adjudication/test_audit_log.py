"""The audit log: every service write reaches it, and neither the admin, the ORM nor a deletion elsewhere
can change or remove an entry (issue 5, "Corrections and audit")."""

from __future__ import annotations

import pytest
from django.db.models import ProtectedError
from django.urls import reverse

from adjudication import services as rulings
from adjudication.archive import event_export, event_import
from adjudication.audit import audit_changes, audit_record
from adjudication.models import AppendOnlyError, AuditEntry
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
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", password="boss-long-pw-1"))
    return client


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
        lambda entry: entry.event.audit.all().delete(),
        lambda entry: entry.event.audit.update(reason="rewritten"),
        lambda entry: AuditEntry.objects.all().delete(),
        lambda entry: AuditEntry.objects.select_for_update().filter(pk=entry.pk).update(reason="x"),
        lambda entry: AuditEntry.objects.update_or_create(pk=entry.pk, defaults={"reason": "rewritten"}),
    ],
    ids=["related-delete", "related-update", "delete-all", "locked-update", "update-or-create"],
)
def test_the_orm_cannot_rewrite_the_log_by_any_door(logged, attempt):
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
        lambda: services.deal_delete(deal=game_set.deals.get(sequence=1), user=director),
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
    step("kalooki.round.seated", lambda: services.round_seat(round=round2, user=director, seed=1))
    step(
        "kalooki.event.imported",
        lambda: event_import(data=event_export(event=event), user=director, slug=event.slug, replace=True),
    )
    assert AuditEntry.objects.filter(event=event, username="director").count() > len(expected)
    # Replacing an event from its own export does not copy its log into itself a second time.
    assert not AuditEntry.objects.filter(event=event, object_type="archive").exists()
