"""The public tables of an event of games of hands (British Kalooki, North American Kaluki): its
standings (placement points or knock-out rows, from `selectors.british_standings`) as a django-tables2
table, so the page, the CSV and the XLSX share the spec's shape and the page's words."""

from __future__ import annotations

import django_tables2 as tables

from ..exports import number_as_shown
from .tables import NUM, EventStandingsTable


class BritishStandingsTable(EventStandingsTable):
    """Placement or knock-out standings of games of hands, best first; shared places shown "=1"."""

    knockout_columns = ("round_reached", "game_place")

    round_reached = tables.Column(verbose_name="Round reached", attrs=NUM)
    game_place = tables.Column(verbose_name="Place in that game", attrs=NUM)
    points = tables.Column(verbose_name="Points", attrs=NUM)
    games = tables.Column(verbose_name="Games", attrs=NUM)
    games_won = tables.Column(verbose_name="Games won", attrs=NUM)
    penalty = tables.Column(verbose_name="Penalties", attrs=NUM)
    # A North American game's rows: what each player collected (NA6), in place of the penalties.
    collected = tables.Column(verbose_name="Collected", attrs=NUM)

    # django-tables2 reads a table's own Meta only: the options are the base's.
    class Meta(EventStandingsTable.Meta):
        pass

    def __init__(self, data, *, event, **kwargs):
        super().__init__(
            data, event=event, exclude=("penalty",) if event.game.collects else ("collected",), **kwargs
        )

    # Shared places share points (1.5): summed over games, shown to two decimals on the page and in files.
    def render_points(self, value):
        return number_as_shown(value)

    def value_points(self, value):
        return number_as_shown(value)
