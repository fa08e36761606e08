"""`manage.py ratings [--game FAMILY] [--season SLUG] [--club NAME] [--official] [--format text|json|csv]`:
one game's rating list (the Jamaican list by default), best first by μ − 3σ.

Every rated player is listed, each saying whether they are ranked (enough rated sets, by the game's rule)
and active (a rated set within the rule's months), and when they last played; `--official` lists the
active, ranked players alone, numbered among themselves. `--club` lists one club's players (the club of
their latest rated set). Rows: player, membership, club, mu, sigma, ordinal, sets, events, then game,
ranked, active, last_played (JSON keeps every float's full precision and stays a list of rows; CSV cells
pass through the app's spreadsheet escaping). `--season` rates that season's events alone. The stored
list is used while it matches the results; otherwise it is computed again first.
"""

from __future__ import annotations

import csv
import json

from django.core.management.base import BaseCommand, CommandError

from scoring import services
from scoring.exports import spreadsheet_text
from scoring.games import GAMES, JAMAICAN
from scoring.management.columns import aligned
from scoring.models import Season
from scoring.selectors.ratings import (
    RATING_FIELDS,
    STANDING_FIELDS,
    club_rows,
    official_rows,
    rating_rows,
    rating_rule,
)

FIELDS = (*RATING_FIELDS, *STANDING_FIELDS)


def _value(row, name):
    value = row[name]
    return value.isoformat() if name == "last_played" and value is not None else value


class Command(BaseCommand):
    help = (
        "Print one game's rating list across every event (or one season's events), best first by "
        "mu - 3 sigma, computed from the counted sets (verified sets of closed rounds)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--game",
            choices=tuple(GAMES),
            default=JAMAICAN.family,
            help="which game's list (default: %(default)s)",
        )
        parser.add_argument("--season", metavar="SLUG", help="rate this season's events alone")
        parser.add_argument("--club", metavar="NAME", help="this club's players alone")
        parser.add_argument(
            "--official", action="store_true", help="the official list: active, ranked players alone"
        )
        parser.add_argument("--format", choices=("text", "json", "csv"), default="text")

    def handle(self, *args, game, season, club, official, format, **options):
        found = None
        if season is not None:
            found = Season.objects.filter(slug=season).first()
            if found is None:
                raise CommandError(f"No season with the slug {season!r}.")
        chosen = GAMES[game]
        rating_list = services.ratings_current(season=found, game=chosen)
        rule = rating_rule(chosen)
        listed = rating_rows(rating_list, rule=rule)
        if official:
            listed = official_rows(listed)
        if club:
            listed = club_rows(listed, club)
        rows = [{name: _value(row, name) for name in FIELDS} for row in listed]
        if format == "json":
            self.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False))
        elif format == "csv":
            # RFC 4180 line ends, as the pages' exports write: a carriage return inside a cell is then quoted.
            writer = csv.writer(self.stdout, lineterminator="\r\n")
            writer.writerow(FIELDS)
            for row in rows:
                writer.writerow([spreadsheet_text(row[name]) for name in FIELDS])
        else:
            self._write_text(listed, found, rating_list, chosen, rule, official=official, club=club)

    def _write_text(self, rows, season, rating_list, game, rule, *, official, club) -> None:
        scope = f"{season.name}'s events" if season else "every event"
        which = "official list (active, ranked players)" if official else "every rated player"
        self.stdout.write(
            f"{game.title} ratings across {scope}, {which}{f', club {club}' if club else ''}: "
            f"{rating_list.sets} counted sets, computed {rating_list.computed_at:%Y-%m-%d %H:%M:%S}. "
            f"Ranked from {rule.min_sets} rated sets; inactive after {rule.inactive_months} months "
            "without one."
        )
        if not rows:
            self.stdout.write("No rated player on this list." if rating_list.sets else "No counted sets yet.")
            return
        heads = [
            "#",
            "Player",
            "Club",
            "Rating",
            "Mu",
            "Sigma",
            "Sets",
            "Events",
            "Last played",
            "Ranked",
            "Active",
        ]
        lines = [
            [
                str(row["position"]),
                row["player"],
                row["club"],
                f"{row['ordinal']:.2f}",
                f"{row['mu']:.2f}",
                f"{row['sigma']:.2f}",
                str(row["sets"]),
                str(row["events"]),
                row["last_played"].isoformat() if row["last_played"] else "",
                "yes" if row["ranked"] else "provisional",
                "yes" if row["active"] else "inactive",
            ]
            for row in rows
        ]
        for line in aligned(heads, lines, text_columns={"Player", "Club", "Last played", "Ranked", "Active"}):
            self.stdout.write(line)
