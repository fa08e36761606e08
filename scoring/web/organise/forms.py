"""The organiser's event form: every setting of an event, its ruleset parameter by parameter.

The rules fields follow the engine: one field for every parameter of each ruleset family
(`rules_dict` of the family's presets), blank meaning "as the preset says". What is typed goes to
`ruleset_from` as it is (a number when it reads as one), so a bad value gets the engine's own message,
put beside the field its path names (`rules.card_values.joker` → that field). The format choices are the
Event model's, so a format the model learns appears here without a change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib.auth import get_user_model

from adjudication.engine.parameters import InvalidRuleSet, rules_dict
from adjudication.engine.rules import PRESET_NAMES, ruleset_from

from ...models import TIEBREAKS, Event
from ...selectors.accounts import director_label
from ...services import EDITABLE_EVENT_FIELDS, FROZEN_EVENT_FIELDS
from ..forms import AlertsMixin

TIEBREAK_LABELS = {
    "total": "Lowest total",
    "sets_won": "Most sets won",
    "deals_won": "Most deals won (outs)",
    "doubled_outs": "Most doubled outs",
    "worst_deal": "Lowest worst deal",
}
# A browser's date picker reads and writes ISO dates, whatever the site's display format.
DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
FLAG_CHOICES = [("", "as the preset"), ("yes", "yes"), ("no", "no")]
FROZEN_REASON = (
    "Frozen: results have been recorded for this event, so its ranking rules can no longer change."
)


def _flatten(parameters: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in parameters.items():
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _families() -> dict[str, dict[str, Any]]:
    """Each ruleset family's parameters (a preset's `rules_dict`), its presets, and each preset's
    values flattened (`card_values.joker`), by family name."""
    families: dict[str, dict[str, Any]] = {}
    for name in PRESET_NAMES:
        rules = ruleset_from(name)
        family = families.setdefault(rules.family, {"parameters": rules_dict(rules), "presets": {}})
        family["presets"][name] = _flatten(rules_dict(rules))
    return families


FAMILIES = _families()


def rule_field_name(family: str, path: str) -> str:
    """`rules-jamaican-card_values-joker` for the parameter `card_values.joker` of the Jamaican family."""
    return f"rules-{family}-{path.replace('.', '-')}"


def format_schedule(value: Any) -> str:
    """`[[9, "333"], [10, "334"]]` as "9 333, 10 334": a deal's size and its contract."""
    if not isinstance(value, list | tuple):
        return str(value)
    return ", ".join(
        " ".join(str(part) for part in pair) if isinstance(pair, list | tuple) else str(pair)
        for pair in value
    )


def _schedule(text: str) -> Any:
    pairs: list[Any] = []
    for part in text.split(","):
        words = part.split()
        if len(words) == 2 and words[0].isdigit():
            pairs.append([int(words[0]), words[1]])
        else:
            # The engine names what is wrong (rules.schedule[3]: expected a [deal size, contract] pair).
            pairs.append(part.strip())
    return pairs


def _typed(text: str, default: Any) -> Any:
    """What was typed, as the JSON value the engine reads: a number, a flag, a schedule, or the text
    unchanged when it reads as none of them (the engine then says what it expected)."""
    text = text.strip()
    if isinstance(default, bool):
        return {"yes": True, "no": False}.get(text, text)
    if isinstance(default, int) or default is None:
        # A parameter the preset leaves unset (a North American game's `hands`, any game's `table_size`)
        # is a number in every family that has it.
        try:
            return int(text)
        except ValueError:
            return text
    if isinstance(default, list):
        return _schedule(text)
    return text


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return format_schedule(value)
    return str(value)


def _set_path(target: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        target = target.setdefault(key, {})
    target[last] = value


class EventForm(AlertsMixin, forms.Form):
    """Create or change an event; `service_arguments()` are event_create's / event_update's keywords."""

    name = forms.CharField(label="Name", max_length=200)
    slug = forms.SlugField(
        label="Address (slug)",
        max_length=100,
        required=False,
        help_text="Letters, digits and hyphens, as in /e/kingston-open/; blank: made from the name.",
    )
    date_start = forms.DateField(label="First day", widget=DATE)
    date_end = forms.DateField(label="Last day", required=False, widget=DATE)
    venue = forms.CharField(label="Venue", max_length=200, required=False)
    ruleset_preset = forms.ChoiceField(label="Ruleset", choices=[(name, name) for name in PRESET_NAMES])
    format = forms.ChoiceField(label="Format", choices=Event.Format.choices)
    advance = forms.IntegerField(
        label="Players through from each table (knock-out)", required=False, min_value=1, max_value=10
    )
    placement_points = forms.CharField(
        label="Points by place (placement)",
        required=False,
        max_length=400,
        help_text="First place first, such as 3, 2, 1, 0; blank: a table of n gives n − 1, n − 2 … 0.",
    )
    paper = forms.ChoiceField(label="Paper size of the printed sheets", choices=Event.Paper.choices)
    entry_mode = forms.ChoiceField(label="Deal entry", choices=Event.EntryMode.choices)
    correction_minutes = forms.IntegerField(
        label="Correction period (minutes)",
        required=False,
        min_value=0,
        max_value=7 * 24 * 60,
        initial=30,
        help_text="A closed round's results are provisional this long, then final (0: final at once; "
        "blank: 30). An appeal lodged within it keeps them provisional until decided.",
    )
    directors = forms.ModelMultipleChoiceField(
        label="Directors",
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    FROZEN = ("ruleset_preset", "format", "advance", "placement_points")

    def __init__(self, *args, event: Event | None = None, frozen: bool = False, **kwargs) -> None:
        if event is not None:
            kwargs.setdefault("initial", self.initial_for(event))
        super().__init__(*args, **kwargs)
        self.event = event
        self.frozen = frozen
        users = get_user_model().objects.filter(is_active=True).order_by("username")
        self.fields["directors"].queryset = users
        self.fields["directors"].label_from_instance = director_label
        # Only the chosen directors are listed; others are found by name (`scoring:director_search`),
        # so the page never lists every account (issue 22). Any active account is still accepted.
        self.fields["directors"].widget.choices = [
            (user.pk, director_label(user)) for user in users.filter(pk__in=self._chosen_directors())
        ]
        # The tie-break chain, in order: one choice a place, blank to end the chain.
        choices = [("", "—"), *((key, TIEBREAK_LABELS.get(key, key)) for key in TIEBREAKS)]
        for place in range(1, len(TIEBREAKS) + 1):
            self.fields[f"tiebreak_{place}"] = forms.ChoiceField(
                label=f"Tie-break {place}", choices=choices, required=place == 1
            )
        for family, facts in FAMILIES.items():
            for path, default in _flatten(facts["parameters"]).items():
                name = rule_field_name(family, path)
                label = path.replace(".", ": ").replace("_", " ")
                if isinstance(default, bool):
                    field: forms.Field = forms.ChoiceField(label=label, choices=FLAG_CHOICES, required=False)
                else:
                    field = forms.CharField(
                        label=label,
                        required=False,
                        max_length=400,
                        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _shown(default)}),
                    )
                    if isinstance(default, int):
                        field.widget.attrs.update(inputmode="numeric", size=6)
                values = {preset: _shown(flat[path]) for preset, flat in facts["presets"].items()}
                if len(set(values.values())) == 1:
                    field.help_text = f"preset: {_shown(default)}"
                else:
                    field.help_text = "presets: " + ", ".join(f"{p} {v}" for p, v in values.items())
                    field.widget.attrs.pop("placeholder", None)
                self.fields[name] = field
        if frozen:
            for name in self.frozen_fields():
                self.fields[name].disabled = True

    def _chosen_directors(self) -> list[int]:
        """The ids of the directors the form holds: posted, else initial."""
        if self.is_bound:
            values = self.data.getlist(self.add_prefix("directors")) if hasattr(self.data, "getlist") else []
        else:
            values = self.initial.get("directors") or self.fields["directors"].initial or []
        ids = [getattr(value, "pk", value) for value in values]
        return [int(pk) for pk in ids if str(pk).isdigit() and len(str(pk)) < 19]

    def frozen_fields(self) -> list[str]:
        """The fields the service freezes once a result exists (FROZEN_EVENT_FIELDS)."""
        return [*self.FROZEN, *self.tiebreak_fields(), *self.rule_fields()]

    def tiebreak_fields(self) -> list[str]:
        return [name for name in self.fields if name.startswith("tiebreak_")]

    def rule_fields(self, family: str | None = None) -> list[str]:
        start = f"rules-{family}-" if family else "rules-"
        return [name for name in self.fields if name.startswith(start)]

    def family_rows(self) -> list[dict[str, Any]]:
        """For the template: each family, its presets and its bound parameter fields."""
        return [
            {
                "family": family,
                "presets": facts["presets"],
                "fields": [self[name] for name in self.rule_fields(family)],
            }
            for family, facts in FAMILIES.items()
        ]

    @staticmethod
    def initial_for(event: Event) -> dict[str, Any]:
        # The service's editable fields, but the two this form spreads over several fields of its own.
        spread = ("rules_overrides", "tiebreaks")
        initial: dict[str, Any] = {
            name: getattr(event, name) for name in EDITABLE_EVENT_FIELDS if name not in spread
        }
        initial.update(directors=list(event.directors.all()), version=event.version)
        initial["placement_points"] = ", ".join(str(points) for points in event.placement_points or [])
        for place, key in enumerate(event.tiebreaks or [], start=1):
            initial[f"tiebreak_{place}"] = key
        try:
            family = ruleset_from(event.ruleset_preset).family
        except InvalidRuleSet:
            family = None
        if family is not None:
            for path, value in _flatten(event.rules_overrides or {}).items():
                initial[rule_field_name(family, path)] = _shown(value)
        return initial

    def clean(self):
        data = super().clean()
        chain = [data.get(name) for name in self.tiebreak_fields()]
        chosen = []
        for place, key in enumerate(chain, start=1):
            if not key:
                continue
            if key in chosen:
                self.add_error(f"tiebreak_{place}", "A tie-break is listed twice.")
            chosen.append(key)
        data["tiebreaks"] = chosen
        data["placement_points"] = self._placement_points(data.get("placement_points") or "")
        preset = data.get("ruleset_preset")
        if preset:
            data["rules_overrides"] = self._overrides(preset, data)
        return data

    def _placement_points(self, text: str) -> list[int]:
        points: list[int] = []
        for place, part in enumerate((part.strip() for part in text.split(",") if part.strip()), start=1):
            if not part.isdigit():
                self.add_error(
                    "placement_points", f"Place {place}: expected a whole number of points, got {part!r}."
                )
                return []
            points.append(int(part))
        return points

    def _overrides(self, preset: str, data: dict[str, Any]) -> dict[str, Any]:
        """The parameters typed for the preset's family that differ from the preset, checked by the engine."""
        rules = ruleset_from(preset)
        defaults = _flatten(rules_dict(rules))
        overrides: dict[str, Any] = {}
        for path, default in defaults.items():
            text = data.get(rule_field_name(rules.family, path)) or ""
            if not str(text).strip():
                continue
            value = _typed(str(text), default)
            if value != default:
                _set_path(overrides, path, value)
        try:
            ruleset_from(preset, overrides or None)
        except InvalidRuleSet as exc:
            self.add_error(self._field_for(rules.family, exc.path), exc.problem)
        return overrides

    def _field_for(self, family: str, path: str) -> str | None:
        """The field an engine path names: `rules.schedule[3][0]` → the schedule's field."""
        if path == "ruleset":
            return "ruleset_preset"
        if not path.startswith("rules."):
            return None
        name = rule_field_name(family, path.removeprefix("rules.").split("[")[0])
        return name if name in self.fields else None

    def service_arguments(self) -> dict[str, Any]:
        """What the service takes (event_create's keywords); frozen fields are left out of a change."""
        data = self.cleaned_data
        # The service's editable fields but the address (blank: made from the name) and the frozen ones.
        arguments = {
            key: data[key]
            for key in EDITABLE_EVENT_FIELDS
            if key != "slug" and key not in FROZEN_EVENT_FIELDS
        }
        if arguments["correction_minutes"] is None:
            # Left blank: the default period (issue 21).
            arguments["correction_minutes"] = Event._meta.get_field("correction_minutes").default
        arguments["slug"] = data.get("slug") or ""
        if not self.frozen:
            arguments.update(
                ruleset_preset=data["ruleset_preset"],
                rules_overrides=data.get("rules_overrides", {}),
                format=data["format"],
                advance=data.get("advance"),
                placement_points=data.get("placement_points") or [],
                tiebreaks=data["tiebreaks"],
            )
        return arguments


class EventCloneForm(AlertsMixin, forms.Form):
    """Next month's night: a new name, address and dates; the settings and directors come along."""

    name = forms.CharField(label="Name of the new event", max_length=200)
    slug = forms.SlugField(
        label="Address (slug)", max_length=100, required=False, help_text="Blank: made from the name."
    )
    date_start = forms.DateField(label="First day", widget=DATE)
    date_end = forms.DateField(label="Last day", required=False, widget=DATE)
    with_players = forms.BooleanField(label="Enter the same players (each from round 1)", required=False)
