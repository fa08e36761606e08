"""`python manage.py print_round EVENT ROUND --out FILE.pdf`: a round's pack of table sheets.

The same PDF as the round's "print all sheets" button: one page a table, in table order; blank sheets
to hand out before the round, or `--completed` to file them afterwards.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring import scoresheets
from scoring.models import Event, Round


class Command(BaseCommand):
    help = "Write every table's score sheet of a round to one PDF, one table a page."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("round", type=int, help="the round number")
        parser.add_argument("--out", required=True, help="the PDF file to write")
        parser.add_argument(
            "--completed", action="store_true", help="fill the sheets in from the recorded results"
        )

    def handle(self, *args, event: str, round: int, out: str, completed: bool, **options):
        try:
            rnd = Round.objects.select_related("event").get(event__slug=event, number=round)
        except Round.DoesNotExist:
            if not Event.objects.filter(slug=event).exists():
                raise CommandError(f"No event {event!r}.") from None
            raise CommandError(f"Event {event!r} has no round {round}.") from None
        tables = rnd.tables.count()
        if not tables:
            raise CommandError(f"Round {round} of {event!r} is not seated yet: no tables to print.")
        data = scoresheets.render_round_sheets(round=rnd, completed=completed)
        path = Path(out)
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise CommandError(f"Cannot write {out}: {exc.strerror or exc}") from exc
        kind = "completed" if completed else "blank"
        self.stdout.write(f"Wrote {path}: {tables} {kind} table sheet{'s' if tables != 1 else ''}.")
