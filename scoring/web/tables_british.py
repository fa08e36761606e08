"""The public tables of an event of games of hands (British Kalooki, North American Kaluki): its
standings (placement points or knock-out rows, from `selectors.british_standings`) as a django-tables2
table, so the page, the CSV and the XLSX share the spec's shape and field names."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from .tables import NUM, PlacesTable


class BritishStandingsTable(PlacesTable):
    """Placement or knock-out standings of games of hands, best first; shared places shown "=1"."""

    round_reached = tables.Column(verbose_name="Round reached", attrs=NUM)
    game_place = tables.Column(verbose_name="Place in that game", attrs=NUM)
    points = tables.Column(verbose_name="Points", attrs=NUM)
    games = tables.Column(verbose_name="Games", attrs=NUM)
    games_won = tables.Column(verbose_name="Games won", attrs=NUM)
    penalty = tables.Column(verbose_name="Penalties", attrs=NUM)
    # A North American game's rows: what each player collected (NA6), in place of the penalties.
    collected = tables.Column(verbose_name="Collected", attrs=NUM)

    class Meta:
        orderable = True
        empty_text = "No results count yet."
        attrs = {"class": "standings"}

    def __init__(self, data, *, event, knockout: bool = False, **kwargs):
        exclude = () if knockout else ("round_reached", "game_place")
        exclude += ("penalty",) if event.game.collects else ("collected",)
        super().__init__(data, exclude=exclude, **kwargs)
        self.event = event
        self.knockout = knockout

    def render_player(self, value, record):
        entry_id = record.get("entry_id")
        if entry_id is None:
            return value
        url = reverse("scoring:player", kwargs={"slug": self.event.slug, "entry_id": entry_id})
        return format_html('<a href="{}">{}</a>', url, value)
