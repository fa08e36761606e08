"""A fresh database for one benchmark run, never the user's own.

SQLite: a new file in a temporary folder. PostgreSQL: a database `<name>_bench` (or `--db-name`) created
and migrated for the run and dropped after it. Django's test-database machinery does the creating,
migrating and dropping, so the switch is the same one `manage.py test` makes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from django.conf import settings
from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, connections


@dataclass(frozen=True)
class BenchDatabase:
    vendor: str
    name: str
    # For other processes (the gunicorn under load): the same database as a DATABASE_URL.
    url: str


def database_url(settings_dict: dict, name: str, *, environ_url: str | None = None) -> str:
    """A DATABASE_URL for the same server as `settings_dict`, naming database `name`.

    From the project's own DATABASE_URL when there is one (only its database name changes, so a socket
    host or options in its query string carry over), else from the settings.
    """
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        return f"sqlite:///{os.path.abspath(name)}"
    if not engine.endswith("postgresql"):
        raise CommandError(f"The benchmark runs on SQLite or PostgreSQL, not {engine}.")
    if environ_url and urlsplit(environ_url).scheme.startswith("postgres"):
        parts = urlsplit(environ_url)
        query = f"?{parts.query}" if parts.query else ""
        return f"{parts.scheme}://{parts.netloc}/{quote(name)}{query}"
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or ""
    port = settings_dict.get("PORT") or ""
    if host.startswith("/"):
        return f"postgres://{credentials}/{quote(name)}?host={quote(host)}"
    return f"postgres://{credentials}{host}{':' + str(port) if port else ''}/{quote(name)}"


@contextmanager
def fresh_database(*, name: str | None = None, keep: bool = False, progress=print) -> Iterator[BenchDatabase]:
    """Point the default connection at a new, migrated database; drop it afterwards (unless `keep`)."""
    connection = connections[DEFAULT_DB_ALIAS]
    settings_dict = connection.settings_dict
    own_name = settings_dict["NAME"]
    folder = None
    if connection.vendor == "sqlite":
        if name is None:
            folder = tempfile.mkdtemp(prefix="kalooki-bench-")
            name = os.path.join(folder, "bench.sqlite3")
        name = os.path.abspath(name)
    elif connection.vendor == "postgresql":
        name = name or f"{own_name}_bench"
    else:
        raise CommandError(f"The benchmark runs on SQLite or PostgreSQL, not {connection.vendor}.")
    if str(name) == str(own_name):
        raise CommandError("The benchmark never runs in the project's own database; choose another name.")
    url = database_url(settings_dict, name, environ_url=os.environ.get("DATABASE_URL"))
    test_settings = settings_dict.setdefault("TEST", {})
    saved_test_name = test_settings.get("NAME")
    test_settings["NAME"] = name
    progress(f"creating and migrating the benchmark database {name} ({connection.vendor})")
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=False)
        yield BenchDatabase(vendor=connection.vendor, name=name, url=url)
    finally:
        if keep:
            connection.close()
            settings.DATABASES[DEFAULT_DB_ALIAS]["NAME"] = settings_dict["NAME"] = own_name
            progress(f"kept the benchmark database: DATABASE_URL={url}")
        else:
            connection.creation.destroy_test_db(own_name, verbosity=0, keepdb=False)
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
        test_settings["NAME"] = saved_test_name
