"""Forms for rulings, appeals and the audit log. They read what was typed and name the field when it
cannot be read; the rules (what an appeal may do, which points a ruling adds) live in the services."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from scoring.web.forms import AlertsMixin, VersionedForm

from .models import Ruling

NO_USER = "-"
DATE = forms.DateInput(attrs={"type": "date"})


class RulingIssueForm(VersionedForm):
    """The one ruling form, on the entry page's deal and on the table's rulings page: a player, an
    infraction and the rule it cites. `services.ruling_issue` reads a blank rule as the infraction's
    own (`Ruling.DEFAULT_RULE`: R17 over-call, R18 contract error) and refuses another infraction
    without its points and a reason that explains it."""

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

    # On the entry page it sits beside the deal form, which has a `reason` too.
    id_prefix = "ruling"

    def __init__(self, *args, players: Sequence[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(name, name) for name in players]


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
