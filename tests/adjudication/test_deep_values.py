"""Deep values (issue 12, item 11): an archive whose audit entry nests 960 deep, or carries a value
larger than the limit, is refused naming the place with nothing written; and the event's log, a
table's history and the log's CSV stay readable whatever an entry holds — an entry too deep for the
JSON decoder shows a note, a deep one is shown field by field down to 20 levels."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

from adjudication.archive import ArchiveError, archive_loads, event_import
from adjudication.archive.reading import MAX_AUDIT_VALUE
from adjudication.audit import NESTED_DEEPER, audit_changes
from adjudication.models import UNREADABLE_VALUE, AuditEntry
from tests.conftest import row_counts

CAST = "::jsonb" if connection.vendor == "postgresql" else ""
ARCHIVE = Path(__file__).parent.parent / "data/events/example-event.json"


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _deep_list(depth: int) -> list:
    """Lists `depth` deep, built without recursion (pytest's own stack is deep already)."""
    root: list = []
    inner = root
    for _ in range(depth - 1):
        inner.append([])
        inner = inner[0]
    return root


def _archive_with_audit(before) -> dict:
    archive = json.loads(ARCHIVE.read_text())
    archive["audit"] = [
        {"at": "2026-12-05T10:00:00+00:00", "action": "kalooki.deal.corrected", "user": "x", "before": before}
    ]
    return archive


@pytest.mark.django_db
def test_an_archive_with_an_audit_value_nested_960_deep_is_refused():
    archive = _archive_with_audit(_deep_list(960))
    before = row_counts()
    with pytest.raises(ArchiveError) as refused:
        event_import(data=archive, user=None)
    assert refused.value.path.startswith("audit[0].before")
    assert "nested deeper than 20 levels" in refused.value.problem
    assert row_counts() == before


@pytest.mark.django_db
def test_the_same_archive_as_a_file_is_refused_too():
    text = json.dumps(_archive_with_audit("PLACEHOLDER")).replace('"PLACEHOLDER"', _nested(960))
    with pytest.raises(ArchiveError, match="nested deeper than 20 levels"):
        event_import(data=archive_loads(text), user=None)


@pytest.mark.django_db
def test_an_archive_with_an_oversized_audit_value_is_refused():
    archive = _archive_with_audit({"note": "x" * (MAX_AUDIT_VALUE + 1)})
    with pytest.raises(ArchiveError) as refused:
        event_import(data=archive, user=None)
    assert refused.value.path == "audit[0].before"
    assert f"at most {MAX_AUDIT_VALUE:,}" in refused.value.problem


@pytest.mark.django_db
def test_an_archive_with_ordinary_audit_values_keeps_them():
    value = {"results": {"Ann": {"penalty": 3}}, "deals": [{"deal": 1}]}
    report = event_import(data=_archive_with_audit(copy.deepcopy(value)), user=None)
    assert report is not None
    assert AuditEntry.objects.get(action="kalooki.deal.corrected").before == value


def test_a_deep_value_is_shown_down_to_twenty_levels():
    entry = AuditEntry(action="kalooki.deal.corrected", before={"a": _deep_list(500)}, after=None)
    (row,) = audit_changes(entry)
    assert row["before"] == NESTED_DEEPER and row["field"].startswith("a[0]")
    assert row["field"].count("[0]") == 19


@pytest.fixture
def deep_entries(played, director):
    """Entries written before the archive's limits: one too deep to decode, one deep but readable."""
    event = played.table.round.event
    for depth in (960, 300):
        entry = AuditEntry(
            event=event,
            action="kalooki.deal.corrected",
            object_type="scoring.gameset",
            object_id=str(played.pk),
            after={"deep": "flat"},
        )
        entry.save()
        # Written as the text a database holds: Python's encoder could not write it from here either.
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE adjudication_auditentry SET before = %s{CAST} WHERE id = %s",
                ['{"deep": ' + _nested(depth) + "}", entry.pk],
            )
    return event


def test_the_event_log_and_the_table_history_survive_deep_entries(as_director, deep_entries):
    log = as_director.get(reverse("adjudication:log", kwargs={"slug": deep_entries.slug}))
    history = as_director.get(
        reverse("adjudication:table_history", kwargs={"slug": deep_entries.slug, "number": 1, "table": 1})
    )
    for response in (log, history):
        assert response.status_code == 200
        html = response.content.decode()
        assert UNREADABLE_VALUE in html and NESTED_DEEPER in html
    export = as_director.get(
        reverse("adjudication:log", kwargs={"slug": deep_entries.slug}), {"_export": "csv"}
    )
    assert export.status_code == 200
    assert (
        UNREADABLE_VALUE
        in b"".join(export.streaming_content if export.streaming else [export.content]).decode()
    )


@pytest.mark.parametrize(("page", "status"), [("2", 200), ("²", 400), ("-3", 400), ("9" * 40, 400)])
def test_the_log_reads_its_page_number_strictly(as_director, played, page, status):
    response = as_director.get(reverse("adjudication:log", kwargs={"slug": "test-open"}), {"page": page})
    assert response.status_code == status
