"""`manage.py ratings [--season SLUG] [--format text|json|csv]`: the rating list, best first by μ − 3σ.

Rows: player, membership, club, mu, sigma, ordinal, sets, events (JSON keeps every float's full
precision; CSV cells pass through the app's spreadsheet escaping). `--season` rates that season's events
alone. The stored list is used while it matches the results; otherwise it is computed again first.
"""

from __future__ import annotations

import csv
import json

from django.core.management.base import BaseCommand, CommandError

from scoring import services
from scoring.exports import spreadsheet_text
from scoring.management.columns import aligned
from scoring.models import Season
from scoring.ratings import PROVISIONAL_BELOW
from scoring.selectors.ratings import RATING_FIELDS, rating_rows


class Command(BaseCommand):
    help = (
        "Print the rating list across every event (or one season's events), best first by "
        "mu - 3 sigma, computed from the counted sets (verified sets of closed rounds)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--season", metavar="SLUG", help="rate this season's events alone")
        parser.add_argument("--format", choices=("text", "json", "csv"), default="text")

    def handle(self, *args, season, format, **options):
        found = None
        if season is not None:
            found = Season.objects.filter(slug=season).first()
            if found is None:
                raise CommandError(f"No season with the slug {season!r}.")
        rating_list = services.ratings_current(season=found)
        rows = [{name: row[name] for name in RATING_FIELDS} for row in rating_rows(rating_list)]
        if format == "json":
            self.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False))
        elif format == "csv":
            # RFC 4180 line ends, as the pages' exports write: a carriage return inside a cell is then quoted.
            writer = csv.writer(self.stdout, lineterminator="\r\n")
            writer.writerow(RATING_FIELDS)
            for row in rows:
                writer.writerow([spreadsheet_text(row[name]) for name in RATING_FIELDS])
        else:
            self._write_text(rows, found, rating_list)

    def _write_text(self, rows, season, rating_list) -> None:
        scope = f"{season.name}'s events" if season else "every event"
        self.stdout.write(
            f"Ratings across {scope}: {rating_list.sets} counted sets, computed "
            f"{rating_list.computed_at:%Y-%m-%d %H:%M:%S}"
        )
        if not rows:
            self.stdout.write("No counted sets yet.")
            return
        heads = ["#", "Player", "Club", "Rating", "Mu", "Sigma", "Sets", "Events", ""]
        lines = [
            [
                str(position),
                row["player"],
                row["club"],
                f"{row['ordinal']:.2f}",
                f"{row['mu']:.2f}",
                f"{row['sigma']:.2f}",
                str(row["sets"]),
                str(row["events"]),
                "provisional" if row["sets"] < PROVISIONAL_BELOW else "",
            ]
            for position, row in enumerate(rows, start=1)
        ]
        for line in aligned(heads, lines, text_columns={"Player", "Club", ""}):
            self.stdout.write(line)
