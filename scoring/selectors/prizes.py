"""The prize list (issue 26, item 4): the event's prize table awarded over its results by
`scoring.prizes`, as rows the public page and the PDF share. Three queries whatever the field's size
(the standings' two, the entries' fields).

The results it is computed from are the event's **final** results (issue 21): rounds 1…N, each closed
and past its correction period with no appeal or correction holding it — what seasons and ratings
count. A round in its correction period adds nothing yet: the list says so in the standings' words
("round 2 results provisional until 21:30"), and with no round final there is no prize list yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from ..models import Entry, Event
from ..prizes import Finisher, PrizeGroup, Share, award_prizes, in_category, shown_amount, shown_places
from .door import age_on, masked_rows, public_names
from .standings import standings_view

OVERALL = "Overall"


@dataclass(frozen=True)
class PrizeLine:
    places: str
    name: str
    amount: str
    shared: str  # "shared by 3: pool 200.00, 0.02 left over" or ""


@dataclass(frozen=True)
class PrizeGroupList:
    name: str
    rule: str
    lines: list[PrizeLine]
    table: list[str]  # the prizes as set: "1st 150.00", "2nd 50.00"


@dataclass(frozen=True)
class PrizeList:
    event: Event
    currency: str
    basis: str
    final: bool
    waiting: list[str]  # "round 2 results provisional until 21:30", one a closed round not final yet
    multiple: bool
    groups: list[PrizeGroupList]
    awarded: str
    offered: str

    @property
    def has_table(self) -> bool:
        return bool(self.groups)


def entry_fields(event: Event) -> dict[int, dict[str, Any]]:
    """{entry id: the player fields a category may ask for: club, parish, age on the event's first
    day (None without a date of birth)}. One query."""
    rows = Entry.objects.filter(event=event).values_list(
        "pk", "player__club", "player__details__parish", "player__details__date_of_birth"
    )
    return {
        pk: {"club": club, "parish": parish or "", "age": age_on(born, event.date_start)}
        for pk, club, parish, born in rows
    }


def prize_groups(table: dict[str, Any], fields: dict[int, dict[str, Any]]) -> list[PrizeGroup]:
    groups = [PrizeGroup(OVERALL, tuple(table.get("places", [])))]
    for category in table.get("categories", []):
        eligible = frozenset(pk for pk, values in fields.items() if in_category(category, values))
        groups.append(PrizeGroup(category["name"], tuple(category["places"]), eligible))
    return groups


def _line(share: Share, decimals: int) -> PrizeLine:
    shared = ""
    if share.shared:
        shared = f"shared by {share.players}: pool {shown_amount(share.pool, decimals=decimals)}"
        if share.remainder:
            shared += f", {shown_amount(share.remainder, decimals=decimals)} left over"
    return PrizeLine(
        shown_places(share.places), share.name, shown_amount(share.amount, decimals=decimals), shared
    )


def prize_list(event: Event, *, public: bool = True) -> PrizeList:
    """The prize list; `public`: a player without consent to public lists is "Player <entry number>"
    (the directors' prize table page shows names)."""
    table = event.prizes or {}
    decimals = table.get("decimals", 2)
    view = standings_view(event, with_ids=True, final_only=True)
    now = timezone.now()
    waiting = view.scope.not_final_words(now)
    rows = masked_rows(view.rows, public_names(event)) if public else view.rows
    finishers = [Finisher(row["entry_id"], row["player"], row["place"]) for row in rows]
    groups = prize_groups(table, entry_fields(event)) if table else []
    shares = award_prizes(finishers, groups, allow_multiple=bool(table.get("multiple")))
    rules = {c["name"]: f"{c['field']} {c['op']} {c['value']}" for c in table.get("categories", [])}
    listed = [
        PrizeGroupList(
            name=group.name,
            rule=rules.get(group.name, ""),
            lines=[_line(share, decimals) for share in shares if share.group == group.name],
            table=[
                f"{shown_places((place, place))} {shown_amount(amount, decimals=decimals)}"
                for place, amount in enumerate(group.amounts, start=1)
            ],
        )
        for group in groups
    ]
    offered = sum(sum(group.amounts) for group in groups)
    awarded = sum(share.amount for share in shares)
    return PrizeList(
        event=event,
        currency=table.get("currency", ""),
        basis=f"Final results after round {view.scope.after_round}" if view.scope.after_round else "",
        final=view.scope.all_final(now),
        waiting=waiting,
        multiple=bool(table.get("multiple")),
        groups=listed,
        awarded=shown_amount(awarded, decimals=decimals),
        offered=shown_amount(offered, decimals=decimals),
    )
