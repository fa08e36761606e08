"""A night's backup: every event's archive and a dump of the whole database, in one timestamped zip.

    python manage.py backup [--dir backups] [--keep 14]

The zip `kalooki-backup-YYYYMMDD-HHMMSS.zip` holds `events/<slug>.json` (kalooki-event/1, audit log
included: `import_event` reads it back), the database dump — `database.sqlite3` (SQLite's online
backup API, a consistent copy while the site runs), `database.sql` (PostgreSQL's pg_dump) or, when
pg_dump is missing or fails, `database.json` (Django's dumpdata) — and `manifest.json` saying which.
Both halves come from one moment, however many directors save meanwhile (`_one_moment`): on PostgreSQL
one REPEATABLE READ, READ ONLY transaction whose snapshot pg_dump is given (`--snapshot`), on SQLite one
read transaction that the archives and the online backup both read in. So restoring one event from the
archive gives the same night as the dump beside it.
It is written under a temporary name and renamed when complete, so a half-written backup never counts.
The newest --keep backups are kept; older ones in the folder are removed. Prints what it wrote.

A backup holds every account's password hash (auth_user.password): it is written readable by its owner
alone (0600) in a folder only its owner may enter (0700). Live sessions and log-in failure counts are
left out of the dump — a session key from a backup would open a director's session — so everyone logs in
again after a restore.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import django
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone

from adjudication.archive import archive_dumps, event_export
from scoring.models import Event

PREFIX = "kalooki-backup-"
PG_DUMP_SECONDS = 600
FOLDER_MODE = 0o700
FILE_MODE = 0o600
SESSION_TABLE = "django_session"
LEFT_OUT = "sessions and log-in failure counts (everyone logs in again after a restore)"


def left_out_tables() -> list[str]:
    """Tables whose rows a backup leaves out: live sessions and the database caches (log-in counts)."""
    caches = [
        options["LOCATION"]
        for options in settings.CACHES.values()
        if options["BACKEND"].endswith("db.DatabaseCache")
    ]
    return [SESSION_TABLE, *caches]


class Command(BaseCommand):
    help = "Write every event's archive and a database dump into a timestamped zip; keep the newest N."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", default="backups", help="the folder for backups (default: backups)")
        parser.add_argument("--keep", type=int, default=14, help="how many backups to keep (default: 14)")

    def handle(self, *args, dir: str, keep: int, **options) -> None:
        if keep < 1:
            raise CommandError("--keep must be at least 1.")
        folder = Path(dir)
        try:
            folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
            # An existing folder may have been made open to everyone: backups carry password hashes.
            folder.chmod(FOLDER_MODE)
        except OSError as exc:
            raise CommandError(f"Cannot use {folder}: {exc.strerror or exc}") from None
        target = _free_name(folder, timezone.localtime().strftime("%Y%m%d-%H%M%S"))
        partial = target.with_name(target.name + ".partial")
        try:
            with (
                tempfile.TemporaryDirectory() as scratch,
                _private_file(partial) as handle,
                zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as archive,
            ):
                with _one_moment():
                    slugs = self._events(archive)
                    dump, method, note = _database_dump(Path(scratch))
                archive.write(dump, dump.name)
                manifest = {
                    "created_at": timezone.now().isoformat(),
                    "events": slugs,
                    "database": {"file": dump.name, "method": method, "vendor": connection.vendor},
                    "left_out": LEFT_OUT,
                    "django": django.get_version(),
                }
                archive.writestr("manifest.json", json.dumps(manifest, indent=2))
            os.replace(partial, target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        size = target.stat().st_size
        self.stdout.write(f"Wrote {target} ({size:,} bytes)")
        self.stdout.write(f"  events: {len(slugs)} ({', '.join(slugs) or 'none'})")
        self.stdout.write(f"  database: {dump.name} ({method}){f' — {note}' if note else ''}")
        self.stdout.write(f"  left out: {LEFT_OUT}")
        for old in _prune(folder, keep):
            self.stdout.write(f"Removed {old} (keeping the newest {keep})")

    def _events(self, archive: zipfile.ZipFile) -> list[str]:
        slugs = []
        for event in Event.objects.order_by("slug"):
            archive.writestr(f"events/{event.slug}.json", archive_dumps(event_export(event=event)))
            slugs.append(event.slug)
        return slugs


def _private_file(path: Path):
    """A new file readable and writable by its owner alone, whatever the umask."""
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE), "wb")


def _free_name(folder: Path, stamp: str) -> Path:
    """`kalooki-backup-<stamp>.zip`, or with -2, -3 … when a backup already took that second."""
    candidate = folder / f"{PREFIX}{stamp}.zip"
    number = 2
    while candidate.exists():
        candidate = folder / f"{PREFIX}{stamp}-{number}.zip"
        number += 1
    return candidate


def _prune(folder: Path, keep: int) -> list[Path]:
    """Remove all but the newest `keep` backups (only files this command names)."""
    backups = sorted(folder.glob(f"{PREFIX}*.zip"), key=lambda path: (path.stat().st_mtime, path.name))
    old = backups[:-keep]
    for path in old:
        path.unlink()
    return old


def _engine() -> str:
    """The database's engine as its settings name it ("sqlite3", "postgresql" …)."""
    return connection.settings_dict["ENGINE"].rsplit(".", 1)[-1]


@contextmanager
def _one_moment() -> Iterator[None]:
    """One transaction that sees the database as it was at one moment, for every read of the backup
    (pg_dump shares its snapshot: `_pg_dump`)."""
    if connection.in_atomic_block:
        # Already inside a transaction (a caller's): its reads are what there is to read.
        yield
        return
    if _engine() == "sqlite3":
        # Writers take the lock at BEGIN (IMMEDIATE); a reader must not, or every save waits for the backup.
        connection.ensure_connection()
        mode = connection.transaction_mode
        connection.transaction_mode = "DEFERRED"
        try:
            with transaction.atomic():
                connection.transaction_mode = mode
                with connection.cursor() as cursor:
                    # WAL: the transaction's snapshot is taken at its first read, and kept to its end.
                    cursor.execute("SELECT count(*) FROM sqlite_master")
                yield
        finally:
            connection.transaction_mode = mode
        return
    with transaction.atomic():
        if _engine() == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _exported_snapshot() -> str | None:
    """The current transaction's snapshot, for another session to read in (PostgreSQL; else None)."""
    if _engine() != "postgresql" or not connection.in_atomic_block:
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_export_snapshot()")
        return cursor.fetchone()[0]


def _database_dump(scratch: Path) -> tuple[Path, str, str]:
    """(file, method, note) for the default database, read in the current transaction (`_one_moment`)."""
    if connection.vendor == "sqlite":
        return _sqlite_copy(scratch), "sqlite3 online backup", ""
    note = ""
    if connection.vendor == "postgresql":
        pg_dump = shutil.which("pg_dump")
        if pg_dump:
            try:
                return _pg_dump(pg_dump, scratch), "pg_dump", ""
            except (OSError, subprocess.SubprocessError) as exc:
                note = f"pg_dump failed ({_first_line(exc)}), used dumpdata instead"
        else:
            note = "pg_dump not found, used dumpdata instead"
    return _dumpdata(scratch), "django dumpdata", note


def _sqlite_copy(scratch: Path) -> Path:
    target = scratch / "database.sqlite3"
    connection.ensure_connection()
    copy = sqlite3.connect(target)
    try:
        connection.connection.backup(copy)
        present = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table in left_out_tables():
            if table in present:
                copy.execute(f'DELETE FROM "{table}"')
        copy.commit()
        # Deleted rows linger in free pages until the file is rewritten.
        copy.execute("VACUUM")
    finally:
        copy.close()
    return target


def _pg_dump(pg_dump: str, scratch: Path) -> Path:
    target = scratch / "database.sql"
    params = connection.settings_dict
    env = {**os.environ}
    if params.get("PASSWORD"):
        env["PGPASSWORD"] = str(params["PASSWORD"])
    command = [pg_dump, "--no-owner", "--no-privileges", "--file", str(target)]
    snapshot = _exported_snapshot()
    if snapshot:
        # What the archives read: the dump sees the same moment.
        command.append(f"--snapshot={snapshot}")
    command += [f"--exclude-table-data={table}" for table in left_out_tables()]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if params.get(key):
            command += [flag, str(params[key])]
    command.append(params["NAME"])
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=PG_DUMP_SECONDS)
    if result.returncode != 0:
        raise subprocess.SubprocessError(result.stderr.strip() or f"exit {result.returncode}")
    return target


def _dumpdata(scratch: Path) -> Path:
    target = scratch / "database.json"
    call_command(
        "dumpdata",
        "--natural-foreign",
        "--natural-primary",
        "--exclude=contenttypes",
        "--exclude=auth.permission",
        "--exclude=sessions",
        f"--output={target}",
        verbosity=0,
    )
    return target


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
