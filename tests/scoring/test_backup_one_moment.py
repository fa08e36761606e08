"""One moment per backup (issue 22, item 6): deals recorded by another connection while `manage.py
backup` runs — after the event archives are written, before the database is dumped — are in neither half
or in both: the archive of the event and the dump beside it hold the same deals."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import threading
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from scoring import services
from scoring.management.commands import backup
from scoring.models import Deal

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = 3


def archive_deals(data: dict) -> int:
    return sum(len(table["sheet"]["deals"]) for rnd in data["rounds"] for table in rnd["tables"])


def dump_deals(zipped: zipfile.ZipFile, scratch: Path) -> int:
    manifest = json.loads(zipped.read("manifest.json"))
    name = manifest["database"]["file"]
    if name.endswith(".sqlite3"):
        path = scratch / name
        path.write_bytes(zipped.read(name))
        with sqlite3.connect(path) as copy:
            return copy.execute("SELECT count(*) FROM scoring_deal").fetchone()[0]
    text = zipped.read(name).decode()
    if name.endswith(".sql"):
        block = re.search(r"^COPY public\.scoring_deal .*?FROM stdin;\n(.*?)^\\\.$", text, re.S | re.M)
        return len(block.group(1).splitlines()) if block else 0
    return sum(1 for item in json.loads(text) if item["model"] == "scoring.deal")


@pytest.fixture
def recording(game_set, director, example_sheet):
    for deal in example_sheet["deals"][:BEFORE]:
        services.deal_record(game_set=game_set, user=director, data=deal)
    return game_set


def test_deals_recorded_during_a_backup_are_in_both_halves_or_neither(
    recording, director, example_sheet, event, monkeypatch, tmp_path
):
    real_dump = backup._database_dump
    written: list[int] = []

    def record_more() -> None:
        try:
            for deal in example_sheet["deals"][BEFORE : BEFORE + 3]:
                services.deal_record(game_set=recording, user=director, data=deal)
                written.append(deal["deal"])
        finally:
            connection.close()

    def dump_after_more_deals(*args, **kwargs):
        # The archives are written; another director records three deals before the dump is taken.
        writer = threading.Thread(target=record_more)
        writer.start()
        writer.join(timeout=60)
        return real_dump(*args, **kwargs)

    monkeypatch.setattr(backup, "_database_dump", dump_after_more_deals)
    call_command("backup", "--dir", str(tmp_path / "backups"), stdout=io.StringIO())

    assert len(written) == 3 and Deal.objects.count() == BEFORE + 3
    [made] = (tmp_path / "backups").glob("kalooki-backup-*.zip")
    with zipfile.ZipFile(made) as zipped:
        archived = archive_deals(json.loads(zipped.read(f"events/{event.slug}.json")))
        dumped = dump_deals(zipped, tmp_path)
    assert archived == dumped == BEFORE
