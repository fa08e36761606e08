"""Rating lists: each game's last computation of its ratings (`RatingList`, its rows `PlayerRating`),
whom it ranks (`RatingRule`), and published lists — a game's list as an organiser published it on a day
("the 1 March 2027 list"), frozen. A published list's rows are copies — names, clubs, figures and whether
each player was ranked and active on the list's day — so no later correction, merge or rename changes
it; written once by `scoring.services.published.rating_list_publish` (audited) and never updated. And
what the ratings read of each set (`SetSums`), summed when the set changes. Kept in `scoring.models`'s
app through the import at the end of that module.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from .games import GAMES, JAMAICAN, game_of_family


class RatingList(models.Model):
    """The last computation of one game's ratings (`game`: a family, each game its own list) over every
    event (`season` empty) or one season's events.

    Ratings are computed from the stored results, never updated in place: `fingerprint` says which
    results (each event's results stamp, the players' names and membership ids, the season's settings)
    the computation read, and a computation whose fingerprint is out of date is done again from the
    start. `season_table` holds the season's standings from the same read (rows as dicts)."""

    scope = models.CharField(max_length=40, unique=True)
    season = models.ForeignKey(
        "scoring.Season", on_delete=models.CASCADE, null=True, blank=True, related_name="rating_lists"
    )
    game = models.CharField(max_length=20, default=JAMAICAN.family)
    fingerprint = models.CharField(max_length=64)
    computed_at = models.DateTimeField()
    seconds = models.FloatField(default=0)
    sets = models.PositiveIntegerField(default=0)
    players = models.PositiveIntegerField(default=0)
    season_table = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"Ratings ({self.scope}) computed {self.computed_at:%Y-%m-%d %H:%M}"


class PlayerRating(models.Model):
    """One person's rating in a computation. `identity` is who they are across events (membership id,
    else exact name); `player` the record of their latest rated set. `history` is their rating after
    each rated set, packed (`scoring.selectors.ratings.pack_history`: set id, rank, players at the
    table, μ, σ; a long federation's histories written as JSON took longer than rating them);
    `places` their place in each event of the computation ([event id, entry id, place, shared, ranked]);
    `last_played` the day of their last rated set's event."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="rows")
    identity = models.CharField(max_length=200)
    player = models.ForeignKey("scoring.Player", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    sets = models.PositiveIntegerField()
    events = models.PositiveIntegerField()
    history = models.BinaryField(default=bytes)
    places = models.JSONField(default=list)
    last_played = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["rating_list", "position"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "identity"], name="rating_identity_once"),
            models.UniqueConstraint(fields=["rating_list", "position"], name="rating_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.identity}: {self.ordinal:.2f}"


class RatingRule(models.Model):
    """Whom a game's rating list ranks (changed by organisers, audited): players with at least `min_sets`
    rated sets (fewer: provisional) whose last rated set is less than `inactive_months` old (active)."""

    game = models.CharField(max_length=20, unique=True, choices=[(g.family, g.title) for g in GAMES.values()])
    min_sets = models.PositiveSmallIntegerField(default=5, validators=[MinValueValidator(1)])
    inactive_months = models.PositiveSmallIntegerField(default=12, validators=[MinValueValidator(1)])
    version = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"{game_of_family(self.game).title} list: {self.min_sets} sets, {self.inactive_months} months"


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


class SetSums(models.Model):
    """One player's figures in one set, summed over the set's scored (not void) deals when the set last
    changed (`scoring.services.guards.set_changed`, at the version that change gave it): what the
    ratings read for every counted set instead of its results (400,000 rows against 3.6 million for a
    federation's 100,000 sets). Derived, never edited: a row counts while `set_version` is its set's
    version (a player left without results in the set keeps a row of an older version, never read); a
    set without such rows (written before this table, or by a path that does not record a change) is
    summed from its results at the read (`scoring.selectors.set_sums`)."""

    game_set = models.ForeignKey("scoring.GameSet", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("scoring.Entry", on_delete=models.CASCADE, related_name="+")
    set_version = models.PositiveIntegerField()
    total = models.IntegerField()
    worst = models.IntegerField()
    deals = models.PositiveSmallIntegerField()
    won = models.PositiveSmallIntegerField()
    doubled = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game_set", "entry"], name="set_sums_once_per_player")]

    def __str__(self) -> str:
        return f"set {self.game_set_id} v{self.set_version}, entry {self.entry_id}: {self.total}"
