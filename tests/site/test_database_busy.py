"""A locked SQLite database (issue 12, item 12): a save that finds another writer holding the lock past
the timeout answers 503 "try again", with Retry-After, and nothing saved — never a 500. Other
database errors are not hidden."""

from __future__ import annotations

import sqlite3

import pytest
from django.db import OperationalError, connection
from django.urls import reverse

from scoring.models import Deal, Entry
from tests.conftest import row_counts


def _entry_url(event):
    return reverse("scoring:direct_entry_add", kwargs={"slug": event.slug})


def test_a_locked_database_answers_try_again(as_director, event, monkeypatch):
    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr("scoring.services.entry_add", locked)
    response = as_director.post(_entry_url(event), {"name": "Zoe"})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    html = response.content.decode()
    assert "Nothing was saved" in html and "try again" in html


def test_other_database_errors_are_not_taken_for_a_busy_database(as_director, event, monkeypatch):
    def broken(**kwargs):
        raise OperationalError("no such table: scoring_entry")

    monkeypatch.setattr("scoring.services.entry_add", broken)
    as_director.raise_request_exception = True
    with pytest.raises(OperationalError, match="no such table"):
        as_director.post(_entry_url(event), {"name": "Zoe"})


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's one-writer lock")
@pytest.mark.django_db(transaction=True)
def test_a_save_while_another_connection_holds_the_write_lock(as_director, game_set):
    """Another process (an import, a backup) holds SQLite's write lock longer than the save waits."""
    connection.ensure_connection()
    connection.connection.execute("PRAGMA busy_timeout = 200")
    holder = sqlite3.connect(connection.settings_dict["NAME"], timeout=0, isolation_level=None)
    before = row_counts()
    try:
        holder.execute("BEGIN IMMEDIATE")
        add = as_director.post(_entry_url(game_set.table.round.event), {"name": "Zoe"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert add.status_code == 503 and "Nothing was saved" in add.content.decode()
    assert row_counts() == before
    # Once the lock is gone the same save goes through.
    again = as_director.post(_entry_url(game_set.table.round.event), {"name": "Zoe"})
    assert again.status_code == 302
    assert Entry.objects.filter(player__name="Zoe").exists() and not Deal.objects.exists()
