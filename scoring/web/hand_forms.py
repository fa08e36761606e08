"""The hand form of a game of hands (British Kalooki, RULES.md B1–B9; North American Kaluki, NA1–NA6):
what a hand has on the paper. The director's table page and the table's phone page both use it, so a
hand is typed, read and checked the same way wherever it comes from.

Who went out, whether it was a kalookie, each player still in: the score or the cards left in hand,
the running total as written (optional: it is computed and shown beside the line), opened, and a
buy-in for a player who went over the limit — the total it resets to is computed (B7) and may be
typed where the paper says otherwise. Field names are the sheet's (`out`, `results.Bob.penalty` →
`Bob-penalty`), so a service refusal lands beside the field it names. What the form posts goes to
`deal_input.read_british` unchanged: the engine reads it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from ..games import BRITISH, GameOfHands
from ..selectors.british_games import GamePage
from .forms import AlertsMixin
from .view_support import add_service_errors

FLAG = [("", "—"), ("yes", "yes"), ("no", "no")]


NUMBER_ATTRS = {"inputmode": "numeric", "size": 5, "autocomplete": "off"}


def line_prefix(seat: int) -> str:
    """The prefix of the fields of the player in seat `seat` (1 = the first seated)."""
    return f"s{seat}"


class BritishLineForm(forms.Form):
    """One player's line of a hand."""

    penalty = forms.CharField(
        label="Score",
        required=False,
        max_length=12,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 5, "autocomplete": "off"}),
    )
    hand = forms.CharField(
        label="Cards left",
        required=False,
        max_length=400,
        widget=forms.TextInput(attrs={"size": 16, "autocomplete": "off", "placeholder": "AH 9C JK"}),
    )
    total = forms.CharField(
        label="Total (paper)",
        required=False,
        max_length=12,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 5, "autocomplete": "off"}),
    )
    opened = forms.ChoiceField(label="Opened", choices=FLAG, required=False)
    buy_in = forms.BooleanField(label="Buys in", required=False)
    reset_to = forms.CharField(
        label="Reset to",
        required=False,
        max_length=12,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "size": 5, "autocomplete": "off", "placeholder": "computed"}
        ),
    )

    def __init__(self, *args, game: GameOfHands = BRITISH, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not game.buy_ins:
            del self.fields["buy_in"], self.fields["reset_to"]
        if game.collects:
            # NA6: what the hand's winner collected, as the paper says (blank: the others' penalties).
            self.fields["collected"] = forms.CharField(
                label="Collected (winner)",
                required=False,
                max_length=12,
                widget=forms.TextInput(
                    attrs={
                        "inputmode": "numeric",
                        "size": 5,
                        "autocomplete": "off",
                        "placeholder": "computed",
                    }
                ),
            )
            self.fields["total"].label = "Collected so far (paper)"

    def as_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        line: dict[str, Any] = {}
        for key in ("penalty", "hand", "total", "opened", "reset_to", "collected"):
            if str(data.get(key) or "").strip():
                line[key] = data[key]
        if data.get("buy_in"):
            line["buy_in"] = True
        return line


class BritishHandForm(AlertsMixin, forms.Form):
    """The hand-level fields; the lines are `BritishHandEntry`'s."""

    dealer = forms.ChoiceField(label="Dealer", required=False)
    void = forms.BooleanField(
        label="Void (the stock ran out twice: no score, same dealer again)", required=False
    )
    out = forms.ChoiceField(label="Went out", required=False)
    kalookie = forms.BooleanField(label="Kalookie (all 13 in one turn)", required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    set_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    reason = forms.CharField(label="Reason for the correction", required=False, max_length=500)

    def __init__(
        self, *args, players: Sequence[str], most: int, playing: Sequence[str] | None = None, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        # The ruleset's longest game (`max_hands`), not a nine-deal set's 9.
        self.fields["deal"] = forms.IntegerField(
            label="Hand", min_value=1, max_value=most, widget=forms.NumberInput(attrs={"size": 4})
        )
        self.order_fields(["deal"])
        self.fields["dealer"].choices = [("", "—"), *((name, name) for name in players)]
        # BV6: only a player still in the game at this hand can go out (win it).
        self.fields["out"].choices = [
            ("", "—"),
            *((name, name) for name in players if playing is None or name in playing),
        ]


class BritishHandEntry:
    """The whole hand form: the hand's fields and one line a player still in (seat order)."""

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        players: Sequence[str],
        playing: Sequence[str],
        most: int,
        initial: Mapping[str, Any] | None = None,
        results: Mapping[str, Mapping[str, Any]] | None = None,
        correcting: bool = False,
        game: GameOfHands = BRITISH,
    ) -> None:
        self.correcting = correcting
        self.game = game
        self.hand = BritishHandForm(data, players=players, most=most, playing=playing, initial=initial or {})
        if not correcting:
            # A reason is asked of a correction only (the audit entry's "why"); a new hand carries the
            # game's version it was typed against, so two entries of one hand save once.
            del self.hand.fields["reason"]
            self.hand.fields["set_version"].required = True
        if not game.kalookie:
            del self.hand.fields["kalookie"]
        # Seat numbers name the fields (`s2-penalty`): a player's name may hold any character.
        self.lines = [
            (
                name,
                BritishLineForm(
                    data, prefix=line_prefix(seat), initial=(results or {}).get(name, {}), game=game
                ),
            )
            for seat, name in enumerate(players, start=1)
            if name in playing
        ]

    def is_valid(self) -> bool:
        return all([self.hand.is_valid(), *(form.is_valid() for _, form in self.lines)])

    @property
    def version(self) -> int | None:
        return self.hand.cleaned_data.get("version")

    @property
    def set_version(self) -> int | None:
        return self.hand.cleaned_data.get("set_version")

    @property
    def reason(self) -> str:
        return self.hand.cleaned_data.get("reason") or ""

    @property
    def head(self) -> BritishHandForm:
        """The hand-level form (a set's `DealEntry` calls its deal form the same)."""
        return self.hand

    def as_data(self) -> dict[str, Any]:
        return self.as_hand_data()

    def as_hand_data(self) -> dict[str, Any]:
        data = self.hand.cleaned_data
        hand: dict[str, Any] = {"deal": data["deal"], "void": data["void"]}
        if self.game.kalookie:
            hand["kalookie"] = data["kalookie"]
        for key in ("dealer", "out"):
            if data.get(key):
                hand[key] = data[key]
        if not data["void"]:
            hand["results"] = {name: form.as_data() for name, form in self.lines}
        return hand

    def add_service_error(self, exc: ValidationError) -> None:
        """Each refusal beside the field its path names (`results.Bob.penalty`), the rest above."""
        if not hasattr(exc, "error_dict"):
            add_service_errors(self.hand, exc)
            return
        lines = dict(self.lines)
        for key, errors in exc.message_dict.items():
            parts = key.split(".")
            if len(parts) == 3 and parts[0] == "results" and parts[1] in lines:
                form = lines[parts[1]]
                if parts[2] in form.fields:
                    form.add_error(parts[2], errors)
                    continue
            if key in self.hand.fields:
                self.hand.add_error(key, errors)
            else:
                self.hand.add_error(None, [f"{key}: {error}" for error in errors])

    def alerts(self) -> list[str]:
        return self.hand.alerts()


def hand_lines(
    page: GamePage,
    entry: BritishHandEntry | None,
    sequence: int | None = None,
    *,
    before: Mapping[str, tuple[int, int]] | None = None,
) -> list[tuple[Any, ...]]:
    """The hand form's lines with each player's total before the hand and the buy-ins they had left then:
    the game as it stands for the next hand; for a correction, the game's own cells up to that hand;
    `before` when given ({player: (total, buy-ins left)}: after the set, once the hands entered are)."""
    if entry is None:
        return []
    if before is None:
        before = _before_hand(page, sequence)
    return [(name, form, *before.get(name, (0, 0))) for name, form in entry.lines]


def _before_hand(page: GamePage, sequence: int | None) -> dict[str, tuple[int, int]]:
    """{player: (total, buy-ins left)} before the hand: the next one, or the one played `sequence`."""
    allowed = getattr(page.rules, "buy_ins", 0)
    row = page.row_played(sequence) if sequence else None
    if row is None:
        return {seat.player: (seat.total, seat.buy_ins_left) for seat in page.seats}
    earlier = page.rows[: page.rows.index(row)]
    before = {}
    for index, seat in enumerate(page.seats):
        cells = [done.cells[index] for done in earlier if done.cells[index].played]
        bought = sum(1 for cell in cells if cell.buy_in)
        before[seat.player] = (cells[-1].total if cells else 0, max(allowed - bought, 0))
    return before


def live_reset(page: GamePage) -> dict[str, int] | None:
    """What a page's script (static/js/british-hand.js) needs to show a buy-in's reset value while the
    hand is typed (B5, B6, B7): the limit, the card values and a kalookie's factor; None for a game
    without buy-ins."""
    rules = page.rules
    if not getattr(rules, "buy_ins", 0):
        return None
    values = rules.card_values
    return {
        "limit": rules.limit,
        "joker": values.joker,
        "black_ace": values.black_ace,
        "red_ace": values.red_ace,
        "ten_to_king": values.ten_to_king,
        "kalookie_factor": rules.penalty_factor(kalookie=True),
    }
