"""`manage.py backup`: every event's archive and a database dump in one zip; the newest N kept."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import stat
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from adjudication.archive import event_import
from scoring.management.commands import backup

EXAMPLE = Path(__file__).parent.parent / "data" / "events" / "example-event.json"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def events():
    archive = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    event_import(data=archive, user=None)
    event_import(data=archive, user=None, slug="second-night")
    return ["club-night-example", "second-night"]


def run_backup(folder: Path, *extra: str) -> str:
    out = io.StringIO()
    call_command("backup", "--dir", str(folder), *extra, stdout=out)
    return out.getvalue()


def test_a_backup_holds_every_event_and_the_database(tmp_path, events):
    printed = run_backup(tmp_path)
    (written,) = tmp_path.glob("kalooki-backup-*.zip")
    assert f"Wrote {written}" in printed and "events: 2 (club-night-example, second-night)" in printed
    with zipfile.ZipFile(written) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("manifest.json"))
        assert {f"events/{slug}.json" for slug in events} <= names
        exported = json.loads(archive.read("events/second-night.json"))
        assert exported["format"] == "kalooki-event/1" and exported["audit"]
        dump = manifest["database"]["file"]
        assert dump in names and manifest["events"] == events
        data = archive.read(dump)
    if connection.vendor == "sqlite":
        copy = tmp_path / "copy.sqlite3"
        copy.write_bytes(data)
        with sqlite3.connect(copy) as restored:
            slugs = [row[0] for row in restored.execute("select slug from scoring_event order by slug")]
        assert slugs == events
    else:
        assert manifest["database"]["method"] == "pg_dump"
        assert b"CREATE TABLE public.scoring_event" in data and b"second-night" in data


def test_without_pg_dump_the_database_is_dumped_as_json(tmp_path, events, monkeypatch):
    monkeypatch.setattr(backup.connection, "vendor", "postgresql", raising=False)
    monkeypatch.setattr(backup.shutil, "which", lambda name: None)
    printed = run_backup(tmp_path)
    assert "database.json (django dumpdata) — pg_dump not found" in printed
    (written,) = tmp_path.glob("kalooki-backup-*.zip")
    with zipfile.ZipFile(written) as archive:
        rows = json.loads(archive.read("database.json"))
    assert {row["fields"]["slug"] for row in rows if row["model"] == "scoring.event"} == set(events)


def test_only_the_newest_backups_are_kept(tmp_path, events):
    unrelated = tmp_path / "notes.txt"
    unrelated.write_text("keep me")
    for _ in range(3):
        printed = run_backup(tmp_path, "--keep", "2")
    kept = sorted(tmp_path.glob("kalooki-backup-*.zip"))
    assert len(kept) == 2 and "Removed" in printed and "keeping the newest 2" in printed
    assert unrelated.exists() and not list(tmp_path.glob("*.partial"))


def test_a_failed_backup_leaves_no_half_written_file(tmp_path, events, monkeypatch):
    def broken(scratch):
        raise OSError("disk full")

    monkeypatch.setattr(backup, "_database_dump", broken)
    with pytest.raises(OSError, match="disk full"):
        run_backup(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_keep_must_be_at_least_one(tmp_path):
    with pytest.raises(CommandError, match="--keep must be at least 1"):
        run_backup(tmp_path, "--keep", "0")


def test_a_backup_is_private_to_its_owner_whatever_the_umask(tmp_path, events):
    folder = tmp_path / "backups"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    previous = os.umask(0o022)
    try:
        run_backup(folder)
    finally:
        os.umask(previous)
    (written,) = folder.glob("kalooki-backup-*.zip")
    assert stat.S_IMODE(written.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_backup_leaves_out_live_sessions_and_log_in_counts_and_says_so(tmp_path, events, client):
    from django.contrib.auth import get_user_model

    from kalooki_tournament import ratelimit

    director = get_user_model().objects.create_user("night-director", password="pw-night-director-1")
    client.force_login(director)
    session_key = client.session.session_key
    ratelimit.record_failure("night-director", "10.0.0.7")
    printed = run_backup(tmp_path)
    assert "left out: sessions and log-in failure counts" in printed
    (written,) = tmp_path.glob("kalooki-backup-*.zip")
    with zipfile.ZipFile(written) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        data = archive.read(manifest["database"]["file"])
    assert manifest["left_out"].startswith("sessions")
    assert session_key.encode() not in data
    # The accounts themselves are kept (their password hashes too: the README says so).
    assert b"night-director" in data
    if connection.vendor == "sqlite":
        copy = tmp_path / "copy.sqlite3"
        copy.write_bytes(data)
        with sqlite3.connect(copy) as restored:
            tables = {row[0] for row in restored.execute("select name from sqlite_master where type='table'")}
            for table in {"django_session", "kalooki_ratelimit_cache"} & tables:
                assert restored.execute(f"select count(*) from {table}").fetchone() == (0,), table
            assert "django_session" in tables
            assert restored.execute("select count(*) from auth_user").fetchone() == (1,)
