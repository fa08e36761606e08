"""Write an event as a `kalooki-event/1` archive (SCORESHEET.md, "An event archive").

python manage.py export_event SLUG > event.json
python manage.py export_event SLUG --output event.json [--no-audit]
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from adjudication.archive import archive_dumps, event_export
from scoring.models import Event


class Command(BaseCommand):
    help = "Write the event SLUG as a kalooki-event/1 archive (standard output, or --output FILE)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the event's slug")
        parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")
        parser.add_argument("--no-audit", action="store_true", help="leave the audit log out")

    def handle(self, *args, slug: str, output: str | None, no_audit: bool, **options) -> None:
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            known = ", ".join(Event.objects.order_by("slug").values_list("slug", flat=True)[:20]) or "none"
            raise CommandError(f"No event {slug!r} (events: {known}).")
        text = archive_dumps(event_export(event=event, audit=not no_audit))
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {output}")
        else:
            self.stdout.write(text, ending="")
