"""Forms for rulings, appeals and the audit log. They read what was typed and name the field when it
cannot be read; the rules (what an appeal may do, which points a ruling adds) live in the services."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django import forms

from scoring.web.forms import AlertsMixin, VersionedForm

from .models import Ruling

NO_USER = "-"
DATE = forms.DateInput(attrs={"type": "date"})


# Whether the written score already holds the ruling's points: "" leaves it to the rules' default.
INCLUDED_BY_RULES, INCLUDED, NOT_INCLUDED = "", "yes", "no"


class RulingIssueForm(VersionedForm):
    """The one ruling form, on the entry page's deal and on the table's rulings page: a player, an
    infraction, the rule it cites and whether the written score already includes the points.
    `services.ruling_issue` reads a blank rule as the infraction's own (`Ruling.DEFAULT_RULE`: R17
    over-call, R18 contract error), a blank answer as the rules' default (docs/RULES.md, "R17/R18 on
    the sheet: one meaning"), and refuses another infraction without its points and a reason that
    explains it. `defaults` ({player: {kind: included}}, from `rulings.score_included_defaults`)
    says on the form what that default is for each player of the deal."""

    player = forms.ChoiceField(label="Player")
    kind = forms.ChoiceField(label="Infraction", choices=Ruling.Kind.choices)
    points = forms.IntegerField(
        label="Points (other infractions only)", required=False, min_value=1, max_value=10_000
    )
    rule = forms.CharField(
        label="Rule cited",
        required=False,
        max_length=20,
        help_text="Blank: R17 for an over-call, R18 for a contract error; another infraction is "
        "explained by its reason.",
    )
    reason = forms.CharField(
        label="Reason", required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
    score_included = forms.ChoiceField(
        label="Does the written score already include the points?",
        required=False,
        initial=INCLUDED_BY_RULES,
        choices=[
            (INCLUDED_BY_RULES, "As the rules say (see below)"),
            (INCLUDED, "Yes: the score stays as written"),
            (NOT_INCLUDED, "No: add the points to the score and the running totals"),
        ],
        widget=forms.RadioSelect,
        help_text="The printed sheet's key says over-call +50 and contract error +50, so the rules "
        "take them as included unless the line's hand is worth exactly the written score, or (with "
        "no hand) the score less the points is no possible score. Another infraction: not included.",
    )

    # On the entry page it sits beside the deal form, which has a `reason` too.
    id_prefix = "ruling"

    def __init__(
        self,
        *args,
        players: Sequence[str],
        defaults: Mapping[str, Mapping[str, bool]] | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(name, name) for name in players]
        if defaults:
            self.fields["score_included"].help_text = (
                "The rules' answer in this deal: "
                + "; ".join(
                    f"{name}: over-call {_included(kinds[Ruling.Kind.OVERCALL])}, contract error "
                    f"{_included(kinds[Ruling.Kind.CONTRACT_ERROR])}"
                    for name, kinds in defaults.items()
                )
                + "; another infraction: not included."
            )

    def clean_score_included(self) -> bool | None:
        """None: the rules' default; True or False: the director's answer."""
        answer = self.cleaned_data.get("score_included") or INCLUDED_BY_RULES
        return None if answer == INCLUDED_BY_RULES else answer == INCLUDED


def _included(included: bool) -> str:
    return "included" if included else "not included"


class RulingAppealForm(VersionedForm):
    reason = forms.CharField(
        label="Why is the ruling appealed?", max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


class RulingDecideForm(VersionedForm):
    decision = forms.ChoiceField(
        label="Decision",
        choices=[(Ruling.Status.UPHELD, "Upheld"), (Ruling.Status.OVERTURNED, "Overturned")],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(
        label="Reason for the decision",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class AuditFilterForm(AlertsMixin, forms.Form):
    """The event log's filters (GET). Choices come from the log itself, so a typed-in value that is
    not one of them is named as the field's error instead of silently matching nothing."""

    action = forms.ChoiceField(label="Action", required=False)
    table = forms.ChoiceField(label="Table", required=False)
    user = forms.ChoiceField(label="User", required=False)
    date_from = forms.DateField(label="From (date)", required=False, widget=DATE)
    date_to = forms.DateField(label="To (date)", required=False, widget=DATE)

    def __init__(
        self,
        *args,
        actions: Sequence[str],
        tables: Sequence[tuple[str, str]],
        users: Sequence[str],
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        groups = sorted({action.rsplit(".", 1)[0] + "." for action in actions})
        self.fields["action"].choices = [
            ("", "Every action"),
            ("Groups", [(group, f"{group}*") for group in groups]),
            ("Actions", [(action, action) for action in actions]),
        ]
        self.fields["table"].choices = [("", "Every table"), *tables]
        self.fields["user"].choices = [("", "Everyone")] + [
            (name or NO_USER, name or "(a command, no user)") for name in users
        ]

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", "The end date is before the start date.")
        return data
