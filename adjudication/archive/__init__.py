"""A whole event in one file: the `kalooki-event/1` archive (SCORESHEET.md, "An event archive").

    event_export(*, event, audit=True) -> dict      the archive as JSON data
    event_import(*, data, user, slug="", replace=False) -> ImportReport

Export → import → export gives the same archive apart from `audit` (and the slug when imported under
another one). Import is all or nothing for what cannot be read: nothing is written and `ArchiveError`
names the place. Events written by hand elsewhere go through the same checks.

- `values`: `ArchiveError` and the readers of one value at its place
- `reading`: every check, nothing written; `read_archive` returns the plan (`sheet_reading` reads a
  table's sheet, the archive's one way in for a deal)
- `export`: `event_export`, `archive_dumps`
- `restore`: `event_import` writes the plan through the services
- `door`: the door's part (issue 26): check-ins, the waitlist, fees, prizes, players' parish and consent

Callers import from the package (`from adjudication.archive import event_import`); modules inside it
import each other directly.
"""

from .export import archive_dumps, event_export
from .reading import EVENT_FORMAT, ArchivePlan, read_archive
from .restore import IMPORT_REASON, ImportReport, event_import
from .values import ArchiveError, archive_loads

__all__ = [
    "EVENT_FORMAT",
    "IMPORT_REASON",
    "ArchiveError",
    "ArchivePlan",
    "ImportReport",
    "archive_dumps",
    "archive_loads",
    "event_export",
    "event_import",
    "read_archive",
]
