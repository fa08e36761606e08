"""The door's reads (issue 26): every entry with its number, check-in code and whether it is in; a
search by code or name; the check-in list's three groups. One query each, whatever the field's size.

An entry's number is its place in the order the event's entries were made (1, 2, 3 …): the badge list
and the slips print it, and public lists show "Player <number>" for a player who does not consent to
appear by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from ..door_codes import door_code_for, looks_like_door_code
from ..models import Entry, Event
from ..names import name_key
from ..self_entry_codes import normal_short_code


@dataclass(frozen=True)
class DoorRow:
    entry_id: int
    number: int
    name: str
    club: str
    code: str
    checked_in_at: datetime | None
    at_door: bool
    withdrawn: bool
    first_round: int
    waitlisted: bool = False

    @property
    def is_in(self) -> bool:
        return self.checked_in_at is not None


@dataclass(frozen=True)
class CheckInList:
    """The check-in list page: who is in (registered), who arrived unregistered, who is missing, and
    the waitlist in its order (issue 26, item 2)."""

    arrived: list[DoorRow]
    at_door: list[DoorRow]
    missing: list[DoorRow]
    waitlist: list[DoorRow] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.arrived) + len(self.at_door) + len(self.missing)


def door_rows(event: Event) -> list[DoorRow]:
    """Every entry of the event in entry order, numbered from 1. One query."""
    rows = (
        Entry.objects.filter(event=event)
        .order_by("pk")
        .values_list(
            "pk", "player__name", "player__club", "checked_in_at", "at_door", "status", "first_round"
        )
    )
    return [
        DoorRow(
            entry_id=pk,
            number=number,
            name=name,
            club=club,
            code=door_code_for(pk),
            checked_in_at=checked_in_at,
            at_door=at_door,
            withdrawn=status == Entry.Status.WITHDRAWN,
            first_round=first_round,
            waitlisted=status == Entry.Status.WAITLISTED,
        )
        for number, (pk, name, club, checked_in_at, at_door, status, first_round) in enumerate(rows, start=1)
    ]


def door_row(event: Event, entry_id: int) -> DoorRow | None:
    """One entry's row (its number counted among the event's entries), or None."""
    return next((row for row in door_rows(event) if row.entry_id == entry_id), None)


def door_find(event: Event, typed: str, rows: list[DoorRow] | None = None) -> list[DoorRow]:
    """The entries a door helper's typing finds: the one whose code it is, else every name holding it
    (compared as names are: case, accents and spacing aside), best match first. `rows`: the event's
    `door_rows` when the caller has them already."""
    typed = typed.strip()
    if not typed:
        return []
    rows = door_rows(event) if rows is None else rows
    if looks_like_door_code(typed):
        code = normal_short_code(typed)
        by_code = [row for row in rows if row.code == code]
        if by_code:
            return by_code
    key = name_key(typed)
    found = [row for row in rows if key in name_key(row.name)]
    return sorted(found, key=lambda row: (not name_key(row.name).startswith(key), row.name.casefold()))


def check_in_list(event: Event, rows: list[DoorRow] | None = None) -> CheckInList:
    rows = door_rows(event) if rows is None else rows
    placed = [row for row in rows if not row.waitlisted]
    return CheckInList(
        arrived=[row for row in placed if row.is_in and not row.at_door],
        at_door=[row for row in placed if row.at_door],
        missing=[row for row in placed if not row.is_in and not row.at_door],
        waitlist=[row for row in rows if row.waitlisted],
    )


class ShownNames(dict):
    """{entry id: shown name} for the players who do not consent to appear by name on public lists
    (issue 26, item 5), and `real`: {their real name: shown name}, which `text` applies to free text (a
    finding's message, a ruling's reason, an audit entry's values). Empty: every name is shown."""

    def __init__(self, shown=(), real=None):
        super().__init__(shown)
        self.real = dict(real or {})
        self._pattern = None

    def of(self, entry_id: int | None, name: str) -> str:
        """The name to show for the entry `entry_id`, whose player is `name`."""
        return self.get(entry_id, name)

    def text(self, text):
        """`text` with every real name of `real` (whole words, as typed) replaced by its shown name; a
        list's or tuple's strings each so (an audit entry's list of players); anything else as it is."""
        if isinstance(text, list | tuple):
            return type(text)(self.text(item) for item in text)
        if not self.real or not isinstance(text, str) or not text:
            return text
        if self._pattern is None:
            names = sorted(self.real, key=len, reverse=True)
            self._pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)")
        return self._pattern.sub(lambda found: self.real[found.group(0)], text)


# Every player by their own name: a director's page.
EVERY_NAME = ShownNames()


def shown_ruling(ruling, shown: ShownNames):
    """`ruling` (its entry and player read) with `ruling.shown`: the words every page prints of it
    (parts/_ruling.html, the ruling's page, which print nothing else of it) — its player, reason, appeal
    and decision with the names `shown` gives (issue 26; `EVERY_NAME` on a director's page). The ruling
    itself is not changed."""
    ruling.shown = {
        "player": shown.of(ruling.entry_id, ruling.entry.player.name),
        **{
            field: shown.text(getattr(ruling, field))
            for field in ("reason", "appeal_reason", "decision_reason")
        },
    }
    return ruling


def public_names(event: Event) -> ShownNames:
    """ "Player <entry number>" for each player of the event who does not consent to appear by name on
    public lists (issue 26, item 5), by entry id and by real name. One query; empty when everyone
    consents."""
    return public_names_of([event])


def public_names_of(events: list[Event]) -> ShownNames:
    """`public_names` of several events at once (each entry numbered in its own event). One query."""
    rows = (
        Entry.objects.filter(event__in=events)
        .order_by("event_id", "pk")
        .values_list("event_id", "pk", "player__name", "player__details__consent_public")
    )
    shown: dict[int, str] = {}
    real: dict[str, str] = {}
    numbers: dict[int, int] = {}
    for event_id, pk, name, consent in rows:
        numbers[event_id] = numbers.get(event_id, 0) + 1
        if consent is False:
            shown[pk] = real[name] = f"Player {numbers[event_id]}"
    return ShownNames(shown, real)


def masked_rows(rows: list[dict], names: dict[int, str], *, key: str = "player") -> list[dict]:
    """Rows (each with `entry_id`) with the name of every player in `names` replaced."""
    if not names:
        return rows
    return [{**row, key: names[row["entry_id"]]} if row.get("entry_id") in names else row for row in rows]


@dataclass(frozen=True)
class PlayerFieldsRow:
    entry_id: int
    number: int
    name: str
    club: str
    membership_id: str
    parish: str
    date_of_birth: date | None
    consent_public: bool


def player_fields(event: Event) -> list[PlayerFieldsRow]:
    """Each entry's player with the federation's fields (directors only: the date of birth is
    private). One query."""
    rows = (
        Entry.objects.filter(event=event)
        .order_by("pk")
        .values_list(
            "pk",
            "player__name",
            "player__club",
            "player__membership_id",
            "player__details__parish",
            "player__details__date_of_birth",
            "player__details__consent_public",
        )
    )
    return [
        PlayerFieldsRow(pk, number, name, club, membership, parish or "", born, consent is not False)
        for number, (pk, name, club, membership, parish, born, consent) in enumerate(rows, start=1)
    ]


def age_on(born: date | None, day: date) -> int | None:
    """Whole years from `born` to `day` (None without a date of birth).

    >>> age_on(date(1960, 12, 6), date(2026, 12, 5)), age_on(date(1960, 12, 5), date(2026, 12, 5))
    (65, 66)
    """
    if born is None:
        return None
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))
