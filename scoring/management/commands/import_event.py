"""Read a `kalooki-event/1` archive into the database, all or nothing (SCORESHEET.md).

    python manage.py import_event FILE [--slug NEW] [--replace] [--reopen-unverified]
                                                                  (FILE "-" = standard input)

Exit 0: imported; the report lists tables with error findings and tables marked verified that came in
as in play, naming each finding (code, deal, player, expected, found). Exit 2: nothing was written;
one message on standard error names the place, e.g.
`rounds[0].tables[2].sheet.deals[3].results.Bob.calls: expected a whole number, got "two"`, or the
tables of a closed round that cannot be verified and their findings: the official standings would
lose them. `--reopen-unverified` imports those in play instead, their round closed and each set
marked "being corrected", as reopening a verified set does (SCORESHEET.md, "An event archive").
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from adjudication.archive import ArchiveError, archive_loads, event_import

EXIT_REFUSED = 2


class Command(BaseCommand):
    help = (
        "Import a kalooki-event/1 archive (FILE, or - for standard input) into a new event. "
        "Nothing is written when any part cannot be read; exit 2 and the place is named."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (JSON), or - for standard input")
        parser.add_argument("--slug", default="", help="import under this slug instead of the archive's")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace an existing event with this slug (its audit log is kept)",
        )
        parser.add_argument(
            "--reopen-unverified",
            action="store_true",
            help="import a closed round's tables that cannot be verified in play, marked being corrected "
            "(without it such an archive is refused)",
        )

    def handle(
        self, *args, file: str, slug: str, replace: bool, reopen_unverified: bool = False, **options
    ) -> None:
        try:
            text = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: {exc.strerror or exc}", returncode=EXIT_REFUSED) from None
        try:
            report = event_import(
                data=archive_loads(text),
                user=None,
                slug=slug,
                replace=replace,
                reopen_unverified=reopen_unverified,
            )
        except ArchiveError as exc:
            raise CommandError(f"{exc.messages[0]}\nNothing was imported.", returncode=EXIT_REFUSED) from None
        for line in report.lines():
            self.stdout.write(line)
