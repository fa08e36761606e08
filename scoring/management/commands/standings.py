"""`manage.py standings SLUG [--round N] [--provisional] [--format text|json|csv]` (SCORESHEET.md)."""

from __future__ import annotations

import csv
import json

from django.core.management.base import BaseCommand, CommandError

from scoring.exports import csv_cell
from scoring.models import Event
from scoring.selectors import standings_fields, standings_view


class Command(BaseCommand):
    help = (
        "Print an event's standings, best first: official, after the last of rounds 1…N that have all "
        "closed; --round N: that round's verified sets; --provisional: every set with a scored deal "
        "(if every table stopped now). JSON and CSV print the rows alone; what they count goes to "
        "standard error."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's slug")
        parser.add_argument("--round", type=int, dest="round_number", metavar="N")
        parser.add_argument("--provisional", action="store_true")
        parser.add_argument("--format", choices=("text", "json", "csv"), default="text")

    def handle(self, *args, slug, round_number, provisional, format, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event with the slug {slug!r}.")
        if round_number is not None and round_number < 1:
            raise CommandError("--round must be 1 or more.")
        # A game of hands' rows are its games' finishing orders (placement points or knock-out).
        of_hands = event.game.of_hands
        view = standings_view(event, round_number=round_number, provisional=provisional)
        rows = view.rows
        if format == "text" and of_hands:
            self._write_british_text(event, rows, scope=view.scope)
            return
        if format == "text":
            self._write_text(event, rows, scope=view.scope)
            return
        # JSON stays a list of rows and CSV a table: which view they hold is said beside them.
        self.stderr.write(f"{event.name}: {view.scope.summary()}")
        if format == "json":
            self.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False))
        else:
            self._write_csv(rows, fields=standings_fields(event))

    def _write_csv(self, rows, *, fields):
        # RFC 4180 line ends, as the pages' exports write: a carriage return inside a cell is then quoted.
        writer = csv.writer(self.stdout, lineterminator="\r\n")
        writer.writerow(fields)
        for row in rows:
            writer.writerow([csv_cell(row[name]) for name in fields])

    def _write_british_text(self, event, rows, *, scope):
        """A British event's rows: points by place, or the round reached in a knock-out."""
        self.stdout.write(f"{event.name} — British Kalooki standings ({event.get_format_display()})")
        self.stdout.write(scope.heading())
        for note in scope.notes_with_finality():
            self.stdout.write(note[:1].upper() + note[1:])
        if not rows:
            self.stdout.write("No counted games yet.")
            return
        knockout = event.is_knockout
        # A North American game's rows add up what each player collected (NA6) in place of penalties.
        heads = [
            "Place",
            "Player",
            "Club",
            "Points",
            "Games",
            "Won",
            "Collected" if event.game.collects else "Penalties",
        ]
        heads += ["Round", "Game place"] if knockout else []
        for row in [heads, *(self._british_cells(row, knockout) for row in rows)]:
            self.stdout.write("  ".join(str(cell) for cell in row))

    @staticmethod
    def _british_cells(row, knockout):
        cells = [f"{row['place']}{'=' if row['shared'] else ''}", row["player"], row["club"]]
        cells += [row["points"], row["games"], row["games_won"], row.get("penalty", row.get("collected"))]
        return cells + ([row["round_reached"], row["game_place"]] if knockout else [])

    def _write_text(self, event, rows, *, scope):
        self.stdout.write(f"{event.name} — {scope.heading()}")
        for note in scope.notes_with_finality():
            self.stdout.write(note[:1].upper() + note[1:])
        if not rows:
            self.stdout.write("No one is listed yet." if scope.lists_no_one else "No counted sets yet.")
            return
        knockout = event.is_knockout
        heads = ["Place", "Player", "Club", "Total", "Sets", "Thru", "Won", "Outs", "Doubled", "Worst"]
        if knockout:
            heads.insert(1, "Round")
        lines = []
        for row in rows:
            cells = [
                f"{row['place']}{'=' if row['shared'] else ''}",
                row["player"],
                row["club"],
                row["total"],
                row["sets"],
                row["deals"],
                row["sets_won"],
                row["deals_won"],
                row["doubled_outs"],
                row["worst_deal"],
            ]
            if knockout:
                cells.insert(1, row["round_reached"])
            lines.append([str(cell) for cell in cells])
        widths = [max(len(head), *(len(line[i]) for line in lines)) for i, head in enumerate(heads)]
        text_columns = {"Place", "Player", "Club"}

        def fmt(cells):
            return "  ".join(
                cell.ljust(width) if head in text_columns else cell.rjust(width)
                for cell, width, head in zip(cells, widths, heads, strict=True)
            ).rstrip()

        self.stdout.write(fmt(heads))
        for line in lines:
            self.stdout.write(fmt(line))
