"""`python manage.py print_round EVENT ROUND --out FILE.pdf`: a round's pack of table sheets.

The same PDF as the round's "print all sheets" button: one page a table, in table order; blank sheets
to hand out before the round, or `--completed` to file them afterwards.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from scoring.models import Event, Round
from scoring.printing import scoresheets
from scoring.printing.sheet_codes import sheet_codes


class Command(BaseCommand):
    help = "Write every table's score sheet of a round to one PDF, one table a page."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("round", type=int, help="the round number")
        parser.add_argument("--out", required=True, help="the PDF file to write")
        parser.add_argument(
            "--completed", action="store_true", help="fill the sheets in from the recorded results"
        )
        parser.add_argument(
            "--base-url",
            default=None,
            help="the address phones reach the app at, for the QR codes (default: KALOOKI_PUBLIC_URL)",
        )

    def handle(self, *args, event: str, round: int, out: str, completed: bool, base_url=None, **options):
        base_url = base_url or settings.KALOOKI_PUBLIC_URL
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise CommandError(
                f"--base-url {base_url!r} is not an address such as http://kalooki.local:8000."
            )
        try:
            rnd = Round.objects.select_related("event").get(event__slug=event, number=round)
        except Round.DoesNotExist:
            if not Event.objects.filter(slug=event).exists():
                raise CommandError(f"No event {event!r}.") from None
            raise CommandError(f"Event {event!r} has no round {round}.") from None
        tables = rnd.tables.count()
        if not tables:
            raise CommandError(f"Round {round} of {event!r} is not seated yet: no tables to print.")
        codes = sheet_codes(tables=rnd.tables.select_related("round__event"), base_url=base_url)
        data = scoresheets.render_round_sheets(round=rnd, completed=completed, codes=codes)
        path = Path(out)
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise CommandError(f"Cannot write {out}: {exc.strerror or exc}") from exc
        kind = "completed" if completed else "blank"
        self.stdout.write(f"Wrote {path}: {tables} {kind} table sheet{'s' if tables != 1 else ''}.")
