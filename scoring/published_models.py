"""Published rating lists: a game's list as an organiser published it on a day ("the 1 March 2027 list"),
frozen. The rows are copies — names, clubs, figures and whether each player was ranked and active on the
list's day — so no later correction, merge or rename changes a published list. Written once by
`scoring.services.published.rating_list_publish` (audited) and never updated; kept in `scoring.models`'s
app through the import at the end of that module.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PublishedList(models.Model):
    """One game's rating list as published for `day`, at the stable address `/ratings/lists/<slug>/`.

    `min_sets` and `inactive_months` are the game's rule on the day of publication (whom it ranked and
    counted active); `sets` and `players` what the list rated; `computed_at` when the live list it
    copies was computed."""

    game = models.CharField(max_length=20)
    day = models.DateField()
    slug = models.SlugField(max_length=60, unique=True)
    title = models.CharField(max_length=100)
    note = models.TextField(blank=True)
    published_at = models.DateTimeField()
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    computed_at = models.DateTimeField()
    sets = models.PositiveIntegerField()
    players = models.PositiveIntegerField()
    min_sets = models.PositiveSmallIntegerField()
    inactive_months = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["game", "-day"]
        constraints = [models.UniqueConstraint(fields=["game", "day"], name="published_list_once_a_day")]

    def __str__(self) -> str:
        return self.title


class PublishedRating(models.Model):
    """A player's line of a published list, as it was: `position` on the whole list, `official` on the
    official list (active, ranked players alone; empty when not on it). `player` links to the record of
    their latest rated set while it exists; `identity` is who they are across events."""

    published_list = models.ForeignKey(PublishedList, on_delete=models.CASCADE, related_name="rows")
    position = models.PositiveIntegerField()
    official = models.PositiveIntegerField(null=True, blank=True)
    identity = models.CharField(max_length=200)
    player = models.ForeignKey("scoring.Player", on_delete=models.SET_NULL, null=True, related_name="+")
    name = models.CharField(max_length=200)
    membership = models.CharField(max_length=100, blank=True)
    club = models.CharField(max_length=200, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    sets = models.PositiveIntegerField()
    events = models.PositiveIntegerField()
    last_played = models.DateField(null=True, blank=True)
    ranked = models.BooleanField()
    active = models.BooleanField()

    class Meta:
        ordering = ["published_list", "position"]
        constraints = [
            models.UniqueConstraint(fields=["published_list", "identity"], name="published_identity_once"),
            models.UniqueConstraint(fields=["published_list", "position"], name="published_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.ordinal:.2f}"
