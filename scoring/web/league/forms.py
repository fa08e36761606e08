"""The organiser's forms for seasons, for whom a game's rating list ranks, and for merging two records of
one player: each reads what was typed into the arguments of one service call (`scoring.services.seasons`,
`scoring.services.ratings`) and names the field it cannot read."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from adjudication.models import AuditEntry

from ...models import Event, Player, RatingRule, Season
from ...services import SEASON_FIELDS
from ..forms import AlertsMixin, VersionedForm

POINTS_HELP = (
    "The points of first place, second place … separated by commas (for example 10, 8, 6, 5). "
    "Leave empty for the default: the number of players ranked in the event − place + 1."
)


def read_points(text: str) -> list[float]:
    """'10, 8, 6.5' -> [10, 8, 6.5]; names the item it cannot read.

    >>> read_points("10, 8, 6.5")
    [10, 8, 6.5]
    >>> read_points("")
    []
    """
    if not text.strip():
        return []
    points: list[float] = []
    for index, item in enumerate((part.strip() for part in text.split(",")), start=1):
        try:
            value = float(item)
        except ValueError:
            raise ValidationError(f"Place {index}: {item!r} is not a number of points.") from None
        if value < 0 or value != value or value in (float("inf"), float("-inf")):
            raise ValidationError(f"Place {index}: points are a number of at least 0, not {item!r}.")
        points.append(int(value) if value.is_integer() else value)
    return points


def count_field(label: str, help_text: str) -> forms.IntegerField:
    """A number of players from 0 (empty: 0)."""
    return forms.IntegerField(required=False, min_value=0, max_value=1000, label=label, help_text=help_text)


class SeasonForm(VersionedForm):
    """A season's settings and its events (a new season has no version yet)."""

    name = forms.CharField(max_length=200)
    slug = forms.SlugField(
        max_length=100, required=False, help_text="In the address; made from the name when empty."
    )
    best_of = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        label="Best of",
        help_text="Add up each player's best this many events; empty: every event.",
    )
    points = forms.CharField(required=False, label="Points by place", help_text=POINTS_HELP)
    events = forms.ModelMultipleChoiceField(
        queryset=Event.objects.order_by("-date_start", "name"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    final = forms.ModelChoiceField(
        queryset=Event.objects.order_by("-date_start", "name"),
        required=False,
        label="The series' final",
        help_text="A qualifier series: the event the season's events (its legs) qualify players for. "
        "Not one of the season's events. Empty: a season without a final.",
    )
    qualify_per_leg = count_field(
        "Qualifiers per leg",
        "How many go through from each leg, by its final standings; a player through already is passed "
        "over and the next takes the place.",
    )
    qualify_from_standings = count_field(
        "Qualifiers from the series standings",
        "How many more go through from the season's standings once every leg is final.",
    )
    reason = forms.CharField(required=False, max_length=500, help_text="Kept in the log with the change.")

    def __init__(self, *args, season: Season | None = None, **kwargs) -> None:
        if season is not None:
            kwargs.setdefault(
                "initial",
                {
                    "version": season.version,
                    "name": season.name,
                    "slug": season.slug,
                    "best_of": season.best_of,
                    "points": ", ".join(f"{value:g}" for value in season.points),
                    "events": list(season.events.all()),
                    "final": season.final,
                    "qualify_per_leg": season.qualify_per_leg,
                    "qualify_from_standings": season.qualify_from_standings,
                },
            )
        super().__init__(*args, **kwargs)
        if season is None:
            self.fields["version"].required = False

    def clean_points(self) -> list[float]:
        return read_points(self.cleaned_data.get("points") or "")

    def clean_qualify_per_leg(self) -> int:
        return self.cleaned_data.get("qualify_per_leg") or 0

    def clean_qualify_from_standings(self) -> int:
        return self.cleaned_data.get("qualify_from_standings") or 0

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        # An empty slug: made from the name for a new season, left as it is for one that exists.
        fields = [key for key in SEASON_FIELDS if key != "slug" or data["slug"]]
        return {key: data[key] for key in fields} | {"events": list(data["events"]), "reason": data["reason"]}


class MergeForm(forms.Form):
    """Another record of the same person, by its record number, merged into the page's record."""

    record = forms.IntegerField(
        min_value=1, max_value=2**31 - 1, label="Record number to merge into this one"
    )
    reason = forms.CharField(max_length=500, help_text="Why these are one person (kept in the log).")

    def clean_record(self) -> Player:
        found = Player.objects.filter(pk=self.cleaned_data["record"]).first()
        if found is None:
            raise ValidationError(f"There is no player record {self.cleaned_data['record']}.")
        return found


class UnmergeForm(forms.Form):
    """A merge to undo, by its log entry, into the page's record (`player`)."""

    entry = forms.IntegerField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)
    reason = forms.CharField(max_length=500, help_text="Why the merge was wrong (kept in the log).")

    def __init__(self, *args, player: Player | None = None, **kwargs) -> None:
        self.player = player
        super().__init__(*args, **kwargs)

    def clean_entry(self) -> AuditEntry:
        found = AuditEntry.objects.filter(
            pk=self.cleaned_data["entry"], action="kalooki.player.merged"
        ).first()
        kept = found.before.get("kept", {}).get("id") if found and isinstance(found.before, dict) else None
        if found is None or self.player is None or kept != self.player.pk:
            raise ValidationError("There is no such merge into this record.")
        return found


class RatingRuleForm(VersionedForm):
    """Whom a game's list ranks and counts active; the game is the page's (a hidden field)."""

    game = forms.CharField(widget=forms.HiddenInput, max_length=20)
    min_sets = forms.IntegerField(
        min_value=1,
        max_value=1000,
        label="Rated sets to be ranked",
        help_text="Players with fewer are provisional and left off the official list.",
    )
    inactive_months = forms.IntegerField(
        min_value=1,
        max_value=240,
        label="Months without a rated set before a player is inactive",
        help_text="Inactive players are left off the official list until they play again.",
    )
    reason = forms.CharField(required=False, max_length=500, help_text="Kept in the log with the change.")

    def __init__(self, *args, rule: RatingRule, **kwargs) -> None:
        kwargs.setdefault(
            "initial",
            {
                "version": rule.version,
                "game": rule.game,
                "min_sets": rule.min_sets,
                "inactive_months": rule.inactive_months,
            },
        )
        super().__init__(*args, **kwargs)


class PublishForm(AlertsMixin, forms.Form):
    """Publish a game's live list as the list of a day (the game is the page's, a hidden field)."""

    game = forms.CharField(widget=forms.HiddenInput, max_length=20)
    day = forms.DateField(
        label="The list's date",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Its name and address (1 March 2027); ranked and active are judged on this day.",
    )
    note = forms.CharField(
        required=False, max_length=500, help_text="Shown with the list and kept in the log."
    )


class SeriesForm(AlertsMixin, forms.Form):
    """Enter the qualifiers in the final, or draw the lots a cut waits for: a reason for the log."""

    reason = forms.CharField(required=False, max_length=500, help_text="Kept in the log.")
