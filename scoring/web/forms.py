"""The director's forms: they read what was typed and name the field when it cannot be read.

No rule of the game lives here: a form turns its fields into the arguments of one service call
(`DealEntry.as_deal_data()` is a deal in the `kalooki-sheet/1` shape for `deal_record`), and service
errors keyed by field (`results.Bob.calls`) are put back beside the field they concern.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from adjudication.engine.rules import DEALS_PER_SET
from adjudication.engine.sheet_fields import MAX_DEPTH

from ..deal_input import LARGEST_CALLS, LARGEST_NUMBER, MAX_TEXT
from ..games import JAMAICAN, Game
from ..models import DealResult, Round

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
OPENED_CHOICES = [("", "—"), ("yes", "yes"), ("no", "no")]


def _numeric(size: int = 4) -> forms.TextInput:
    # Text, not type=number: the director types what the paper says and the server names what is wrong
    # (and arrow keys or the mouse wheel never change a score by accident).
    return forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": size})


STALE_PAGE = "This page is out of date or incomplete: reload it and try again."


class AlertsMixin:
    """`alerts()`: the errors shown above a form — its non-field errors, and one line when a hidden
    field (a version, a deal number) is missing or wrong, which only an old or altered page sends."""

    def alerts(self) -> list[str]:
        messages = list(self.non_field_errors())
        if any(field.errors for field in self.hidden_fields()):
            messages.append(STALE_PAGE)
        return messages


class VersionedForm(AlertsMixin, forms.Form):
    """A form built from one version of the data: the service refuses it once the data has moved on."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    # Element ids start with this, so several forms share a page and each label finds its own field.
    id_prefix = ""

    def __init__(self, *args, **kwargs) -> None:
        if self.id_prefix:
            kwargs.setdefault("auto_id", f"id_{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)


class DealForm(AlertsMixin, forms.Form):
    """The deal-level fields, in the order the director types them from the paper sheet."""

    out = forms.ChoiceField(label="Went out", required=False)
    doubled = forms.BooleanField(label="Doubled", required=False)
    void = forms.BooleanField(label="Void (replayed)", required=False)
    dealer = forms.ChoiceField(label="Dealer", required=False)
    reason = forms.CharField(label="Reason for the correction", required=False, max_length=MAX_TEXT)
    # What the director was looking at: a changed deal or a deal recorded meanwhile is refused.
    deal = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=DEALS_PER_SET)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    sequence = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    # The set's version the page showed: the same deal sent twice (a double click, two directors)
    # is saved once; the second is refused as stale.
    set_version = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=2**31 - 1
    )

    def __init__(self, *args, players: Sequence[str], correcting: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A correction must say which version it corrects, or it could overwrite someone else's;
        # a new deal, which version of the set it was typed against.
        self.fields["version"].required = correcting
        self.fields["set_version"].required = not correcting
        names = [(name, name) for name in players]
        self.fields["out"].choices = [("", "— nobody —"), *names]
        self.fields["dealer"].choices = [("", "— not given —"), *names]
        # The director starts every deal here, straight after the page loads.
        self.fields["out"].widget.attrs["autofocus"] = True
        # A first letter picks a player; the same letter again the next with that initial (entry.js).
        for name in ("out", "dealer"):
            self.fields[name].widget.attrs["data-by-initial"] = ""


class PlayerResultForm(forms.Form):
    """One player's line of the deal. The common path, in the order of the paper's columns, is calls,
    score and total; the rest (the hand, the rulings' marks, other points, opened) is typed rarely and
    sits behind the line's "more" toggle."""

    calls = forms.IntegerField(
        label="Calls", required=False, min_value=0, max_value=LARGEST_CALLS, widget=_numeric(2)
    )
    penalty = forms.IntegerField(
        label="Score", required=False, min_value=0, max_value=LARGEST_NUMBER, widget=_numeric()
    )
    total = forms.IntegerField(
        label="Total", required=False, min_value=0, max_value=LARGEST_NUMBER, widget=_numeric()
    )
    hand = forms.CharField(
        label="Cards in hand",
        required=False,
        max_length=MAX_TEXT,
        widget=forms.TextInput(attrs={"autocomplete": "off", "size": 18, "spellcheck": "false"}),
    )
    overcall = forms.BooleanField(label="Over-call (R17)", required=False)
    contract_error = forms.BooleanField(label="Contract error (R18)", required=False)
    other_points = forms.IntegerField(
        label="Other points", required=False, min_value=0, max_value=LARGEST_NUMBER, widget=_numeric(3)
    )
    other_reason = forms.CharField(
        label="Reason for other points",
        required=False,
        max_length=MAX_TEXT,
        widget=forms.TextInput(attrs={"autocomplete": "off", "size": 12}),
    )
    opened = forms.ChoiceField(label="Opened", required=False, choices=OPENED_CHOICES)

    COMMON = ("calls", "penalty", "total")
    MORE = ("hand", "overcall", "contract_error", "other_points", "other_reason", "opened")

    def common_fields(self) -> list:
        return [self[name] for name in self.COMMON]

    def more_fields(self) -> list:
        return [self[name] for name in self.MORE]

    @property
    def more_has_values(self) -> bool:
        """Something typed or recorded behind the toggle (or an error there): the toggle starts open."""
        if self.is_bound:
            return any(self[name].errors or self[name].value() not in (None, "", False) for name in self.MORE)
        return any(self.initial.get(name) not in (None, "", False) for name in self.MORE)

    FIELDS = (*COMMON, *MORE)

    def is_blank(self) -> bool:
        """Nothing typed on this line: the player has no result in this deal (a void deal has none).
        A typed 0 is something: a line of zeros is a result (the winner's, V1), never "no result"."""
        data = self.cleaned_data
        # `0 == False`, so "unchecked" and "left empty" are told apart from a typed 0 by identity.
        return all(
            data.get(name) is None or data.get(name) == "" or data.get(name) is False for name in self.FIELDS
        )

    def as_result(self) -> dict[str, Any]:
        data = self.cleaned_data
        result: dict[str, Any] = {"calls": data.get("calls") or 0}
        if data.get("hand"):
            result["hand"] = data["hand"]
        for name in ("penalty", "total"):
            if data.get(name) is not None:
                result[name] = data[name]
        if data.get("opened"):
            result["opened"] = data["opened"] == "yes"
        for name in ("overcall", "contract_error"):
            if data.get(name):
                result[name] = True
        if data.get("other_points"):
            result["other_points"] = data["other_points"]
        if data.get("other_reason"):
            result["other_reason"] = data["other_reason"]
        return result


def result_initial(result: DealResult | None) -> dict[str, Any]:
    """A recorded result (a `set_grid` cell's) as the initial values of its player's line."""
    if result is None:
        return {}
    return {
        "calls": result.calls,
        "hand": result.hand or "",
        "penalty": result.penalty,
        "total": result.total_written,
        "overcall": result.overcall,
        "contract_error": result.contract_error,
        "other_points": result.other_points or None,
        "other_reason": result.other_reason,
        "opened": "" if result.opened is None else ("yes" if result.opened else "no"),
    }


class DealEntry:
    """The deal form and one line per seated player (prefix `p1`…`pN` by seat), read together."""

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        players: Sequence[str],
        initial: Mapping[str, Any] | None = None,
        results: Mapping[str, Mapping[str, Any]] | None = None,
        correcting: bool = False,
        mode: str = "totals",
    ) -> None:
        self.players = list(players)
        # "fast" or "totals" (Event.EntryMode): how the page's keys move through the lines; the fields
        # and what they mean are the same in both.
        self.mode = mode
        self.deal = DealForm(data, players=self.players, initial=initial or {}, correcting=correcting)
        results = results or {}
        self.lines = [
            (name, PlayerResultForm(data, prefix=f"p{seat}", initial=results.get(name, {})))
            for seat, name in enumerate(self.players, start=1)
        ]
        self.errors_outside: list[str] = []

    def is_valid(self) -> bool:
        valid = self.deal.is_valid()
        for _name, form in self.lines:
            valid = form.is_valid() and valid
        return valid

    @property
    def head(self) -> forms.Form:
        """The deal-level form (a game of hands' entry calls it the same)."""
        return self.deal

    def as_data(self) -> dict[str, Any]:
        """The entry as `deal_record` takes it, whatever the game (`hand_forms.BritishHandEntry` too)."""
        return self.as_deal_data()

    def as_deal_data(self) -> dict[str, Any]:
        deal = self.deal.cleaned_data
        void = bool(deal.get("void"))
        out = deal.get("out") or None
        data: dict[str, Any] = {
            "deal": deal["deal"],
            "void": void,
            "out": out,
            "doubled": bool(deal.get("doubled")),
            # The winner's line is a result even with nothing typed (V1: 0 calls may be, the score is
            # computed), so the paper's "0" never has to be typed; a void deal has no results (V11).
            "results": {
                name: form.as_result()
                for name, form in self.lines
                if not form.is_blank() or (name == out and not void)
            },
        }
        if deal.get("dealer"):
            data["dealer"] = deal["dealer"]
        return data

    def untyped_players(self) -> list[str]:
        """The players whose line has nothing typed yet (the live check keeps quiet about them)."""
        return [name for name, form in self.lines if form.is_blank()]

    @property
    def version(self) -> int | None:
        return self.deal.cleaned_data.get("version")

    @property
    def sequence(self) -> int | None:
        return self.deal.cleaned_data.get("sequence")

    @property
    def set_version(self) -> int | None:
        return self.deal.cleaned_data.get("set_version")

    @property
    def reason(self) -> str:
        return self.deal.cleaned_data.get("reason", "")

    def add_service_error(self, exc: ValidationError) -> None:
        """Put a service's error beside its field: `results.Bob.calls`, `out`, …; the rest above the form."""
        if not hasattr(exc, "error_dict"):
            self.errors_outside += exc.messages
            return
        for key, messages in exc.message_dict.items():
            if key in self.deal.fields:
                self.deal.add_error(key, messages)
                continue
            # `results.<name>.<field>`; a name may itself hold a dot ("J. Brown").
            line = next(
                (
                    (form, key.removeprefix(f"results.{name}."))
                    for name, form in self.lines
                    if key.startswith(f"results.{name}.")
                ),
                None,
            )
            if line is not None and line[1] in line[0].fields:
                line[0].add_error(line[1], messages)
            else:
                self.errors_outside += [f"{key}: {message}" for message in messages]

    @property
    def problems(self) -> list[str]:
        """What goes above the form: a refusal naming no field, or a page too old to submit."""
        return self.errors_outside + self.deal.alerts()

    @property
    def has_errors(self) -> bool:
        return bool(self.errors_outside or self.deal.errors or any(form.errors for _n, form in self.lines))


class VerifyForm(VersionedForm):
    """Verify a set or a game; the reason's label says what it may override in the event's game."""

    id_prefix = "verify"
    override_reason = forms.CharField(
        label="Override reason (only to verify over errors or before deal 9)",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    acknowledge = forms.BooleanField(label="I have read the warnings and accept them", required=False)

    def __init__(self, *args, game: Game = JAMAICAN, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["override_reason"].label = game.override_label


class ReopenForm(VersionedForm):
    id_prefix = "reopen"
    reason = forms.CharField(
        label="Why is the verified set reopened?",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, game: Game = JAMAICAN, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].label = f"Why is the verified {game.unit} reopened?"


class TotalsReaddForm(VersionedForm):
    """After a score is corrected in totals mode: the later written totals re-added from the scores."""

    id_prefix = "readd"
    confirm = forms.BooleanField(
        label="Yes, replace these written totals with the sums of the scores", required=False
    )


class DeleteDealForm(VersionedForm):
    """Deleting a deal is confirmed and says why (the audit log keeps the reason and the deal)."""

    id_prefix = "delete"
    reason = forms.CharField(label="Why delete this deal?", max_length=500)
    confirm = forms.BooleanField(label="Yes, delete this deal (rulings on it are withdrawn)")

    def __init__(self, *args, game: Game = JAMAICAN, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        word = game.deal_word
        self.fields["reason"].label = f"Why delete this {word}?"
        if not game.rulings:
            self.fields["confirm"].label = f"Yes, delete this {word}"
        else:
            self.fields["confirm"].label = f"Yes, delete this {word} (rulings on it are withdrawn)"


class LaydownForm(AlertsMixin, forms.Form):
    deal = forms.TypedChoiceField(
        label="Deal", coerce=int, choices=[(number, str(number)) for number in range(1, DEALS_PER_SET + 1)]
    )
    melds = forms.CharField(
        label="Lay-down (melds separated by |)",
        max_length=1000,
        help_text="For example: QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC",
    )

    def __init__(self, *args, deals: int = DEALS_PER_SET, **kwargs) -> None:
        # Its own ids: the deal form on the same page has a `deal` field too.
        kwargs.setdefault("auto_id", "id_laydown_%s")
        super().__init__(*args, **kwargs)
        self.fields["deal"].choices = [(number, str(number)) for number in range(1, deals + 1)]


class RoundSeatForm(AlertsMixin, forms.Form):
    method = forms.ChoiceField(
        label="Seating",
        required=False,
        choices=[
            ("", "Default for this round"),
            (Round.Method.RANDOM, Round.Method.RANDOM.label),
            (Round.Method.STANDINGS, Round.Method.STANDINGS.label),
            (Round.Method.KNOCKOUT, Round.Method.KNOCKOUT.label),
        ],
    )
    seed = forms.IntegerField(label="Seed (blank: draw one)", required=False, min_value=0, max_value=2**62)
    keep_clubs_apart = forms.BooleanField(label="Keep players of one club apart", required=False)
    # Shown once the service has named the earlier rounds' open tables (OpenRoundsNotConfirmed).
    confirm_open = forms.BooleanField(
        label=(
            "Seat by the provisional standings (every set with a scored deal, as it stands), "
            "with those tables still open"
        ),
        required=False,
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["confirm_open"].widget = forms.HiddenInput()

    def ask_confirmation(self) -> None:
        """Show the confirmation box (after the service named the open tables)."""
        # The box the refusal asks for gets the focus (static/js/focus-refused.js).
        self.fields["confirm_open"].widget = forms.CheckboxInput(attrs={"data-focus-here": ""})


class RoundCreateForm(AlertsMixin, forms.Form):
    """The number of the round the page offers to add: a second click adds nothing."""

    number = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1, max_value=32767)


class EntryAddForm(AlertsMixin, forms.Form):
    name = forms.CharField(label="Name", max_length=100)
    club = forms.CharField(label="Club", required=False, max_length=100)
    membership_id = forms.CharField(label="Membership id", required=False, max_length=50)


class WithdrawForm(AlertsMixin, forms.Form):
    reason = forms.CharField(label="Reason", required=False, max_length=500)


class SubstituteForm(VersionedForm):
    """Who plays a seat from which deal, and the set's version the page showed: two directors naming
    substitutes for one seat at once cannot both succeed."""

    substitute = forms.TypedChoiceField(label="Substitute", coerce=int, required=False, empty_value=None)
    from_deal = forms.TypedChoiceField(
        label="Plays from deal",
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "—")] + [(number, str(number)) for number in range(1, DEALS_PER_SET + 1)],
    )
    reason = forms.CharField(label="Reason", required=False, max_length=500)

    def __init__(
        self, *args, candidates: Sequence[tuple[int, str]], deals: int = DEALS_PER_SET, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["substitute"].choices = [("", "— nobody (clear the substitute) —"), *candidates]
        # The ruleset's own bound: 9 deals a Jamaican set, `max_hands` hands a British game.
        self.fields["from_deal"].choices = [("", "—")] + [
            (number, str(number)) for number in range(1, deals + 1)
        ]


def _upload_text(upload, field: str) -> str:
    if upload.size > MAX_UPLOAD_BYTES:
        raise ValidationError({field: f"The file is larger than {MAX_UPLOAD_BYTES // 1024 // 1024} MB."})
    try:
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError({field: "The file is not UTF-8 text."}) from None


class PlayersImportForm(AlertsMixin, forms.Form):
    file = forms.FileField(label="CSV file", required=False)
    text = forms.CharField(
        label="…or paste the rows",
        required=False,
        max_length=MAX_UPLOAD_BYTES,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="One player a line: name, club, membership id (a header row is optional).",
    )

    def clean(self):
        data = super().clean()
        if data.get("file"):
            data["csv"] = _upload_text(data["file"], "file")
        elif data.get("text", "").strip():
            data["csv"] = data["text"]
        else:
            raise ValidationError("Choose a CSV file or paste the rows.")
        return data


class SheetImportForm(VersionedForm):
    file = forms.FileField(label="kalooki-sheet/1 JSON file", required=False)
    text = forms.CharField(
        label="…or paste the JSON", required=False, max_length=MAX_UPLOAD_BYTES, widget=forms.Textarea
    )
    reason = forms.CharField(label="Reason", required=False, max_length=500)

    def clean(self):
        data = super().clean()
        field = "file" if data.get("file") else "text"
        if data.get("file"):
            text = _upload_text(data["file"], "file")
        elif data.get("text", "").strip():
            text = data["text"]
        else:
            raise ValidationError("Choose a JSON file or paste the sheet.")
        try:
            data["sheet"] = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValidationError(
                {field: f"Not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."}
            ) from None
        except RecursionError:
            # The decoder gives up thousands of levels deep, far past the spec's limit.
            raise ValidationError(
                {field: f"Not readable: JSON nested deeper than {MAX_DEPTH} levels."}
            ) from None
        return data
