"""Issue 12, item 12: a big player import never makes another director's save wait or fail. The import
checks and stages every row first, then writes them in one short transaction; meanwhile another thread
keeps entering late players. The suite imports 3,000 rows (in one transaction of row-by-row writes, as
before, SQLite held its write lock for many seconds and the other save failed "database is locked");
`make bench` imports 20,000 (`imports`)."""

from __future__ import annotations

import pytest

from scoring.bench.imports import import_while_saving
from scoring.models import Entry

ROWS = 3_000


@pytest.mark.django_db(transaction=True)
def test_another_directors_saves_go_through_while_thousands_of_players_are_imported(event, director):
    figures = import_while_saving(event=event, user=director, rows=ROWS)
    assert figures["added"] == ROWS and figures["rejected"] == []
    assert figures["save_failures"] == 0, figures["failures"]
    assert figures["saves_during_import"] >= 1, figures
    assert figures["max_save_wait_s"] < 5.0, figures
    assert Entry.objects.filter(event=event).count() == ROWS + figures["saves"]
    assert Entry.objects.filter(event=event, player__membership_id="IMP002999").exists()
