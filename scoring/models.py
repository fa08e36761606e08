"""The tournament's data: events, players, rounds, tables, nine-deal sets, deals and per-player results.

Results are written only through `scoring.services` (version check, validator, audit entry) and read
through `scoring.selectors`. Model methods here hold no business rules beyond field-level `clean()`.
Seat positions are 1-based and clockwise; `Table.first_dealer` and `Deal.dealer` are seat positions.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from adjudication.engine.rules import AnyRuleSet, InvalidRuleSet, ruleset_from

from .games import Game, family_of_preset, game_of_family
from .names import name_key

# Tie-break keys (SCORESHEET.md "Standings as data"): key -> True when a lower value is better.
TIEBREAKS: dict[str, bool] = {
    "total": True,
    "sets_won": False,
    "deals_won": False,
    "doubled_outs": False,
    "worst_deal": True,
}
DEFAULT_TIEBREAKS: tuple[str, ...] = ("total", "sets_won", "deals_won", "doubled_outs", "worst_deal")
# The highest deal (or hand) number the database keeps: a ruleset's own `max_deal_number` (9 for a
# Jamaican set, `max_hands` for a British game) is checked by the services and may not go above it.
MAX_DEAL_NUMBER = 1000


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class Event(models.Model):
    """A tournament. Its ruleset and tie-break chain are frozen once a result is recorded (services)."""

    class Format(models.TextChoices):
        CUMULATIVE = "cumulative", "Cumulative"
        KNOCKOUT = "knockout", "Table knock-out"
        # British Kalooki (SCORESHEET.md): each game gives points by place (`placement_points`).
        PLACEMENT = "placement", "Placement points (British)"

    class Paper(models.TextChoices):
        A4 = "A4", "A4"
        LETTER = "Letter", "Letter"

    class EntryMode(models.TextChoices):
        # How the director's deal form is typed (issue 11): every running total from the paper, or only
        # calls and scores with the totals computed and a total typed only where the paper differs.
        TOTALS = "totals", "Scores and totals"
        FAST = "fast", "Fast: scores only, totals computed"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    date_start = models.DateField()
    date_end = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    ruleset_preset = models.CharField(max_length=50, default="jamaican")
    rules_overrides = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.CUMULATIVE)
    # Knock-out only: how many of each table go through to the next round.
    advance = models.PositiveSmallIntegerField(null=True, blank=True)
    # Placement only: the points of first place, second place … ; empty: a table of n gives n − 1 … 0.
    placement_points = models.JSONField(default=list, blank=True)
    tiebreaks = models.JSONField(default=default_tiebreaks)
    paper = models.CharField(max_length=10, choices=Paper.choices, default=Paper.A4)
    entry_mode = models.CharField(max_length=10, choices=EntryMode.choices, default=EntryMode.TOTALS)

    class SelfEntry(models.TextChoices):
        # Whether the tables enter their own deals from the sheet's QR code (issue 13), and whether a
        # clean confirmed deal is recorded at once or waits for the director like every other one.
        OFF = "off", "Off: only directors enter deals"
        RECORD = "record", "Record clean confirmed deals at once"
        REVIEW = "review", "Every deal waits for the director"
        # Phone-free tables (issue 23): one device enters the whole sheet after play, and two seats
        # confirm it with the codes of their tear-off seat slips (the codes take the device rule's place).
        AFTER = "after", "After the set: one device enters the sheet, two seat codes confirm it"

    self_entry = models.CharField(max_length=10, choices=SelfEntry.choices, default=SelfEntry.OFF)
    # A table with one phone (issue 23): a deal entered and confirmed on the same device waits for the
    # director, marked, instead of being refused; the two seat codes are still needed.
    self_entry_one_phone = models.BooleanField(default=False)
    # Issue 23: a set the table entered is verified only with a photo of its signed sheet kept.
    sheet_photo_required = models.BooleanField(default=False)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_events")
    # The door (issue 26): seat only players checked in (off for events made before it), and the
    # helpers who may check players in and nothing else.
    check_in = models.BooleanField(default=False)
    door_staff = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="door_events")
    # The prize table (issue 26, `scoring.prizes`): currency, overall places, categories, one prize or more.
    prizes = models.JSONField(default=dict, blank=True)
    correction_minutes = models.PositiveIntegerField(default=30, validators=[MaxValueValidator(7 * 24 * 60)])
    final_times = models.JSONField(default=list, blank=True, encoder=DjangoJSONEncoder)
    # Bumped by every service that changes a counted result: cache keys and ETags derive from it.
    results_changed_at = models.DateTimeField(default=timezone.now)
    results_stamp = models.PositiveIntegerField(default=0)
    # Bumped with it by every such change but those confined to a set of an open round (a deal, a
    # verification): the official standings after the closed rounds, as the player pages show them,
    # are cached by it.
    official_stamp = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date_start", "name"]
        # Organisers set events up from the site's own pages (create, change, clone), not the admin.
        permissions = [("organise_events", "Can create, set up and clone events")]
        constraints = [
            models.CheckConstraint(
                condition=Q(date_end__isnull=True) | Q(date_end__gte=F("date_start")),
                name="event_dates_in_order",
            ),
            models.CheckConstraint(
                condition=Q(advance__isnull=True) | Q(advance__gte=1), name="event_advance_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def ruleset(self) -> AnyRuleSet:
        """The engine RuleSet of either family: the preset with this event's overrides (raises
        InvalidRuleSet)."""
        return ruleset_from(self.ruleset_preset, self.rules_overrides or None)

    @property
    def family(self) -> str:
        """The ruleset family ("jamaican", "british"); the preset's own when the overrides are bad."""
        try:
            return self.ruleset().family
        except InvalidRuleSet:
            return ruleset_family(self.ruleset_preset)

    @property
    def game(self) -> Game:
        """What this event's game does differently: its words, formats, pages (`scoring.games`)."""
        return game_of_family(self.family)

    @property
    def is_knockout(self) -> bool:
        return self.format == self.Format.KNOCKOUT

    @property
    def etag(self) -> str:
        """A strong ETag for pages that show this event's results."""
        return f'"{self.pk}-{self.results_stamp}"'

    @property
    def page_etag(self) -> str:
        """The ETag of this event's public pages: its results stamp and its version (settings shown)."""
        return f'"{self.pk}-{self.results_stamp}-{self.version}"'

    def is_director(self, user) -> bool:
        """Staff, or one of this event's directors (one query unless staff/anonymous)."""
        if not getattr(user, "is_authenticated", False):
            return False
        if user.is_staff:
            return True
        return self.directors.filter(pk=user.pk).exists()

    def has_results(self) -> bool:
        return DealResult.objects.filter(deal__game_set__table__round__event=self).exists()

    def clean(self) -> None:
        errors: dict[str, list[str]] = {}

        family = None
        try:
            rules = self.ruleset()
        except InvalidRuleSet as exc:
            field = "ruleset_preset" if exc.path == "ruleset" else "rules_overrides"
            errors.setdefault(field, []).append(str(exc))
        else:
            family = rules.family
            if rules.max_deal_number > MAX_DEAL_NUMBER:
                errors.setdefault("rules_overrides", []).append(
                    f"rules.max_hands: at most {MAX_DEAL_NUMBER} hands a game, got {rules.max_deal_number}"
                )
        errors_for_format(self, family, errors)
        chain = self.tiebreaks
        if not isinstance(chain, list) or not chain:
            errors.setdefault("tiebreaks", []).append("Give at least one tie-break.")
        else:
            unknown = [key for key in chain if key not in TIEBREAKS]
            if unknown:
                errors.setdefault("tiebreaks", []).append(
                    f"Unknown tie-break {unknown[0]!r}; choose from {', '.join(TIEBREAKS)}."
                )
            elif len(set(chain)) != len(chain):
                errors.setdefault("tiebreaks", []).append("A tie-break is listed twice.")
        if self.format == self.Format.KNOCKOUT and not self.advance:
            errors.setdefault("advance", []).append(
                "A knock-out event needs how many of each table go through."
            )
        if self.format != self.Format.KNOCKOUT and self.advance:
            errors.setdefault("advance", []).append("Only knock-out events advance players.")
        if self.date_end and self.date_start and self.date_end < self.date_start:
            errors.setdefault("date_end", []).append("The event cannot end before it starts.")
        if errors:
            raise ValidationError(errors)


def ruleset_family(preset: str) -> str:
    """The family a preset name belongs to (engine data), "" for an unknown name."""
    return family_of_preset(preset)


def errors_for_format(event: Event, family: str | None, errors: dict[str, list[str]]) -> None:
    """What the event's game allows of the formats (`Game.format_problem`: a game ranked by its
    finishing order has no set total, so no cumulative event; placement points are for such games), and
    the placement points' list."""
    if family:
        problem = game_of_family(family).format_problem(event.format)
        if problem:
            errors.setdefault("format", []).append(problem)
    if event.placement_points and event.format != Event.Format.PLACEMENT:
        errors.setdefault("placement_points", []).append("Only placement events give points by place.")
    elif event.placement_points:
        problem = points_problem(event.placement_points)
        if problem:
            errors.setdefault("placement_points", []).append(problem)


class Player(models.Model):
    """A person. Players are shared between events; sheets name them, so names are unique per event."""

    name = models.CharField(max_length=100)
    club = models.CharField(max_length=100, blank=True)
    membership_id = models.CharField(max_length=50, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["membership_id"],
                condition=~Q(membership_id=""),
                name="player_membership_unique",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # A rename must not give two players of one event the same name (scoring.names): sheets refer
        # to names. The entries' unique normalised names hold the rule in the database too.
        if self.pk and self.name:
            clash = (
                Entry.objects.filter(event__entries__player=self, normalized_name=name_key(self.name))
                .exclude(player=self)
                .select_related("event", "player")
                .first()
            )
            if clash is not None:
                raise ValidationError(
                    {"name": f"{clash.event} already has a player called {clash.player.name}."}
                )


class Entry(models.Model):
    """A player entered in an event. `first_round` lets late entries join from a later round."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        WITHDRAWN = "withdrawn", "Withdrawn"
        WAITLISTED = "waitlisted", "Waitlisted"  # over the event's cap (issue 26): not seated

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    first_round = models.PositiveSmallIntegerField(default=1)
    # The door (issue 26): when the player checked in (None: not in), and whether they arrived unregistered.
    checked_in_at = models.DateTimeField(null=True, blank=True)
    at_door = models.BooleanField(default=False)
    # The player's name as compared (scoring.names.name_key), set by the services with the entry and
    # on a rename: unique per event, so simultaneous entries of one name cannot both succeed.
    normalized_name = models.TextField(editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player__name"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_player_once"),
            models.UniqueConstraint(fields=["event", "normalized_name"], name="entry_name_once"),
            models.CheckConstraint(condition=Q(first_round__gte=1), name="entry_first_round_gte_1"),
        ]

    def __str__(self) -> str:
        return self.player.name

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class Round(models.Model):
    """A round of an event: every table plays one nine-deal set."""

    class Method(models.TextChoices):
        RANDOM = "random", "Random draw"
        STANDINGS = "standings", "By standings"
        KNOCKOUT = "knockout", "Who went through"
        MANUAL = "manual", "Manual"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    # The seating draw's seed: the same seed and the same entries give the same draw again.
    seed = models.BigIntegerField(null=True, blank=True)
    method = models.CharField(max_length=20, choices=Method.choices, blank=True)
    keep_clubs_apart = models.BooleanField(default=False)
    seated_at = models.DateTimeField(null=True, blank=True)
    # Seating clears it: the round is its directors' alone until `round_publish` (audited). A round
    # starts published, so tables written otherwise (an archive that does not say) are public (0021).
    published_at = models.DateTimeField(null=True, blank=True, default=timezone.now)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    final_at = models.DateTimeField(null=True, blank=True)
    corrected_after_final_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class Table(models.Model):
    """A table in a round. `first_dealer` is the seat position (1-based) of the first dealer (R21)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    first_dealer = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_gte_1"),
            models.CheckConstraint(condition=Q(first_dealer__gte=1), name="table_dealer_gte_1"),
        ]

    def __str__(self) -> str:
        return f"Round {self.round.number}, table {self.number}"


class Seat(models.Model):
    """A seat at a table, clockwise from position 1.

    `round` repeats `table.round` so the database itself forbids seating a player twice in a round.
    A substitute who takes the seat mid-set plays from deal `substitute_from` on, for the seat: the
    seat's results stay with `entry` (the sheet records who played them).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    substitute = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="substitute_seats"
    )
    substitute_from = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_player_once_per_round"),
            models.UniqueConstraint(
                fields=["round", "substitute"],
                condition=Q(substitute__isnull=False),
                name="seat_substitute_once_per_round",
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="seat_position_gte_1"),
            models.CheckConstraint(
                condition=(Q(substitute__isnull=True) & Q(substitute_from__isnull=True))
                | (
                    Q(substitute__isnull=False)
                    & Q(substitute_from__isnull=False)
                    & Q(substitute_from__gte=1)
                    & Q(substitute_from__lte=MAX_DEAL_NUMBER)
                ),
                name="seat_substitute_with_deal",
            ),
            models.CheckConstraint(
                condition=Q(substitute__isnull=True) | ~Q(substitute=F("entry")),
                name="seat_substitute_not_self",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.entry}"


class GameSet(models.Model):
    """The nine-deal set a table plays in its round. Only verified sets count officially."""

    class Status(models.TextChoices):
        IN_PLAY = "in_play", "In play"
        VERIFIED = "verified", "Verified"

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game_set")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PLAY)
    # Optimistic locking: every change bumps it; a save carrying an older version is refused.
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    last_change = models.CharField(max_length=200, blank=True)
    # The engine's findings at the last change (a cache for lists; selectors recompute for one set).
    findings = models.JSONField(default=list, blank=True, encoder=DjangoJSONEncoder)
    error_count = models.PositiveSmallIntegerField(default=0)
    warning_count = models.PositiveSmallIntegerField(default=0)
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)
    # Set when a director verified over error findings (shown publicly).
    override_reason = models.TextField(blank=True)
    acknowledged_warnings = models.JSONField(default=list, blank=True, encoder=DjangoJSONEncoder)
    corrected_after_verification = models.BooleanField(default=False)

    class Meta:
        ordering = ["table__round__event", "table__round__number", "table__number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="in_play") | Q(verified_at__isnull=False),
                name="gameset_verified_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Set at {self.table}"

    @property
    def is_verified(self) -> bool:
        return self.status == self.Status.VERIFIED

    @property
    def overridden(self) -> bool:
        return bool(self.override_reason)


class Deal(models.Model):
    """One deal in a set, in playing order (`sequence`). A void deal is replayed with the same number.

    A void deal carrying a winner or scores is stored as written (sheets are imported as they are);
    the validator reports it (VOID_SCORED, V11).

    `dealer` is the dealer's seat position when the sheet gives it; `out` the entry who went out.
    """

    game_set = models.ForeignKey(GameSet, on_delete=models.CASCADE, related_name="deals")
    sequence = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    void = models.BooleanField(default=False)
    out = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="deals_won")
    doubled = models.BooleanField(default=False)
    # British Kalooki (B6): the winner went out in one turn without having melded before.
    kalookie = models.BooleanField(default=False, db_default=False)
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["game_set", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game_set", "sequence"], name="deal_sequence_unique"),
            # V12: a scored deal number appears once in a set (void deals are replayed).
            models.UniqueConstraint(
                fields=["game_set", "number"],
                condition=Q(void=False),
                name="deal_scored_number_unique",
            ),
            # The ruleset's own limit (9 deals, or `max_hands`) is the services'; this is the database's.
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=MAX_DEAL_NUMBER), name="deal_number_in_range"
            ),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="deal_sequence_gte_1"),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number}{' (void)' if self.void else ''} at {self.game_set.table}"


class DealResult(models.Model):
    """One player's result in one deal, as written on the sheet (hand as card notation when entered).

    `penalty` is the deal score (hand value, doubled under R14, plus infraction points);
    `total_written` the running total as written; `overcall` / `contract_error` / `other_points` mirror
    the standing rulings (adjudication.Ruling) for this player and deal.
    """

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="results")
    calls = models.PositiveSmallIntegerField(default=0)
    # None: no hand entered; "": an empty hand (the winner's). The difference matters to the validator.
    hand = models.TextField(null=True, blank=True)  # noqa: DJ001
    penalty = models.IntegerField()
    total_written = models.IntegerField(null=True, blank=True)
    opened = models.BooleanField(null=True, blank=True)
    overcall = models.BooleanField(default=False)
    contract_error = models.BooleanField(default=False)
    other_points = models.IntegerField(default=0)
    other_reason = models.CharField(max_length=500, blank=True)
    # British Kalooki (B7): the player went over the limit and bought back in at `reset_to`, as the director
    # typed it; blank, the app computes it from the hands before (scoring.games: never stored, so it
    # follows any correction of an earlier hand).
    buy_in = models.BooleanField(default=False, db_default=False)
    reset_to = models.IntegerField(null=True, blank=True)
    # North American Kaluki: what the hand's winner collected, as written (NA6; computed when blank).
    collected = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["deal", "entry__player__name"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "entry"], name="result_once_per_player"),
            models.CheckConstraint(condition=Q(penalty__gte=0), name="result_penalty_gte_0"),
            models.CheckConstraint(condition=Q(other_points__gte=0), name="result_other_gte_0"),
            models.CheckConstraint(
                condition=Q(total_written__isnull=True) | Q(total_written__gte=0),
                name="result_total_gte_0",
            ),
            models.CheckConstraint(
                condition=Q(reset_to__isnull=True) | (Q(buy_in=True) & Q(reset_to__gte=0)),
                name="result_reset_only_with_buy_in",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} in {self.deal}: {self.penalty}"


def points_problem(points: object) -> str:
    """What is wrong with a season's points list ("" when nothing): numbers of at least 0, first place
    first."""
    if not isinstance(points, list):
        return "Give the points as a list, first place first (for example [10, 8, 6])."
    for index, value in enumerate(points):
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            return f"Place {index + 1}: expected a number of points of at least 0, got {value!r}."
    return ""


class Season(models.Model):
    """Events grouped into a league: each event gives points by place, summed over a player's best
    `best_of` events (all when empty). `points` lists the points of first place, second place …; empty:
    the number ranked in the event − place + 1."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.JSONField(default=list, blank=True)
    events = models.ManyToManyField(Event, blank=True, related_name="seasons")
    # A qualifier series (issue 25; docs/RULES.md "Qualifier series"): the season's events are its legs,
    # each sending its best `qualify_per_leg` to `final`, an event of its own; then the series standings'
    # best `qualify_from_standings`. `qualifier_lots` keeps each lot drawn for a place shared at a cut.
    final = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="final_of_seasons"
    )
    qualify_per_leg = models.PositiveSmallIntegerField(default=0)
    qualify_from_standings = models.PositiveSmallIntegerField(default=0)
    qualifier_lots = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="season_best_of_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_series(self) -> bool:
        """A final is set: the season's events are legs qualifying players for it."""
        return self.final_id is not None

    def clean(self) -> None:
        problem = points_problem(self.points)
        if problem:
            raise ValidationError({"points": problem})


class BackgroundJob(models.Model):
    """Long work a director started that a worker (`manage.py db_worker`) does: a round pack, a big
    standings PDF, a big player import (`scoring.background` says what is big). The task's own row
    (django-tasks' database backend) says whether the worker ran it; this row holds what a director
    sees: how far it is, a message, and the result to download (kept in the database, so every app
    server can hand it out) until `jobs_prune` deletes it."""

    class Kind(models.TextChoices):
        ROUND_PACK = "round_pack", "Round score sheets"
        STANDINGS_PDF = "standings_pdf", "Standings PDF"
        PLAYERS_IMPORT = "players_import", "Player import"

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for the worker"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="background_jobs")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # What to do: the round number, `completed`, `provisional` …; an import's CSV text is `source`.
    params = models.JSONField(default=dict, encoder=DjangoJSONEncoder)
    source = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    task_id = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    step = models.CharField(max_length=200, blank=True)
    message = models.TextField(blank=True)
    # The outcome shown on the page: an import's report (added, already entered, rejected rows).
    outcome = models.JSONField(default=dict, encoder=DjangoJSONEncoder)
    filename = models.CharField(max_length=200, blank=True)
    result = models.BinaryField(null=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["event", "-created_at"], name="job_event_recent")]
        constraints = [models.CheckConstraint(condition=Q(done__lte=F("total")), name="job_done_lte_total")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.get_status_display()})"


class TableKey(models.Model):
    """The key to one table's phone page (issue 13): `selector` finds it, the secret part of the token
    is derived from the selector and the site's secret key (`scoring.self_entry_codes`) and only its
    hash is stored, compared in constant time. A regenerated key is retired, not deleted: its address
    still opens the table's sheet, read-only."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="keys")
    selector = models.CharField(max_length=16, unique=True)
    secret_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(retired_at__isnull=True), name="tablekey_one_current"
            ),
        ]

    def __str__(self) -> str:
        return f"Self-entry key of {self.table}"

    @property
    def is_current(self) -> bool:
        return self.retired_at is None


class SelfEntryDeal(models.Model):
    """A deal a table entered on a phone: waiting for another seat's confirmation, then recorded
    through `deal_record` or waiting in the director's queue (`queue_reason`), settled there.

    `data` is the deal in the `kalooki-sheet/1` shape `deal_record` takes; seats are positions, devices
    the phone's device cookie. `idempotency_key` makes a deal the phone sends again arrive once."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for confirmation"
        QUEUED = "queued", "Waiting for the director"
        RECORDED = "recorded", "Recorded"
        DISMISSED = "dismissed", "Rejected by the director"

    game_set = models.ForeignKey(GameSet, on_delete=models.CASCADE, related_name="self_entries")
    key = models.ForeignKey(TableKey, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    data = models.JSONField(encoder=DjangoJSONEncoder)
    idempotency_key = models.CharField(max_length=64)
    set_version = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    entered_seat = models.PositiveSmallIntegerField()
    entered_device = models.CharField(max_length=64)
    entered_at = models.DateTimeField(default=timezone.now)
    confirmed_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_device = models.CharField(max_length=64, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # After the set (issue 23): the second seat that confirmed the whole set with its code.
    second_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    objection = models.TextField(blank=True)
    queue_reason = models.CharField(max_length=200, blank=True)
    findings = models.JSONField(default=list, blank=True, encoder=DjangoJSONEncoder)
    deal = models.ForeignKey(Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_note = models.TextField(blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["game_set", "entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game_set", "idempotency_key"], name="selfentry_sent_once"),
            # A set's deals run to 9, a game's hands further (a British game's tenth hand onward is
            # entered at the table too, after the set as well): the database's bound is a deal's.
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=MAX_DEAL_NUMBER), name="selfentry_number_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} entered at {self.game_set.table}"

    @property
    def same_device(self) -> bool:
        """One phone both entered and confirmed the deal (handed over, or one player alone)."""
        return bool(self.confirmed_device) and self.confirmed_device == self.entered_device


# Rating lists (computed and published), the door's fees (issue 26) and the photos of signed sheets
# (issue 23) live in their own modules; imported here so they belong to this app.
from .door_models import EventFees, EventWaitlist, FeeLine, PlayerDetails  # noqa: E402, F401
from .evidence_models import SheetPhoto  # noqa: E402, F401
from .rating_models import (  # noqa: E402, F401
    PlayerRating,
    PublishedList,
    PublishedRating,
    RatingList,
    RatingRule,
    SetSums,
)
