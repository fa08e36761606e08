"""A qualifier series' writes (issue 25, item 5; docs/RULES.md "Qualifier series"): drawing the lot for
a place shared at a cut, and entering the qualifiers in the final. Refused (PermissionDenied, nothing
written) unless the user directs every leg and the final, or is staff.

A lot's seed is drawn at random and recorded with its outcome in the season (`Season.qualifier_lots`)
and in the audit log (`kalooki.season.lot_drawn`, the leg's log and the league log), naming the tied
players and who went through: `random.Random(seed).sample(sorted(tied), len(tied))` gives its order
again (`scoring.qualifiers.lot_order`). Entering the final writes each entry's own audit entry in the
final's log and one for the whole (`kalooki.season.final_entries`), in one transaction; a player
entered already is left as they are, so a second press adds nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from adjudication.audit import audit_record

from ..models import Entry, Event, Player, Season
from ..names import name_key
from ..qualifiers import Lot, draw_lot
from ..selectors.series import STANDINGS_NAME, Series, series
from .authority import require_every_event
from .entries import entry_data, next_unseated_round, waitlist_if_full
from .guards import touch_results
from .ratings import ratings_current

# More lots than a series can need in one go (each lot may reveal the next leg's tie).
MAX_LOTS = 1000


def series_read(season: Season, *, public: bool = False, events: list[Event] | None = None) -> Series:
    """The series with the series standings when places come from them (computed when stale). Names as
    they are, as the services read them; `public`: as its page shows them (`series`, which takes the
    season's `events` when they are read already)."""
    standings = ratings_current(season=season).season_table if season.qualify_from_standings else None
    return series(season, standings=standings, public=public, events=events)


def _locked(season: Season, user, *, what: str) -> Season:
    season = Season.objects.select_for_update(of=("self",)).select_related("final").get(pk=season.pk)
    events = list(season.events.all())
    require_every_event(user, [*events, *([season.final] if season.final else [])], what=what)
    return season


def _draw_pending(season: Season, user) -> list[Lot]:
    """Draw the lot of each tie at a cut, one after another (a leg waits for the lot before it), each
    recorded in the season and audited. The season's row is locked by the caller."""
    drawn: list[Lot] = []
    for _ in range(MAX_LOTS):
        found = series_read(season)
        ties = found.outcome.ties
        if not ties:
            break
        tie = ties[0]
        lot = draw_lot(tie, seed=secrets.randbits(31))
        season.qualifier_lots = [*(season.qualifier_lots or []), lot.as_data()]
        season.save(update_fields=["qualifier_lots"])
        name = {who: found.people[who].name for who in tie.tied}
        leg = found.events.get(tie.source)
        audit_record(
            event=leg,
            action="kalooki.season.lot_drawn",
            user=user,
            obj=season,
            before=None,
            after={
                "source": leg.name if leg else STANDINGS_NAME,
                "place": tie.place,
                "places": tie.places,
                "tied": sorted(name.values()),
                "seed": lot.seed,
                "order": [name[who] for who in lot.order],
                "through": [name[who] for who in lot.order[: lot.places]],
            },
            reason=f"{len(tie.tied)} players share a place at the qualifying cut with {tie.places} "
            f"place{'s' if tie.places != 1 else ''} left",
        )
        drawn.append(lot)
    return drawn


@transaction.atomic
def series_lots_draw(*, season: Season, user) -> list[Lot]:
    """Draw every lot the series' cuts wait for now; returns them (none: no place is shared at a cut)."""
    season = _locked(season, user, what=f"draw the lots of {season.name!r}")
    return _draw_pending(season, user)


@dataclass(frozen=True)
class FinalEntries:
    """What entering the qualifiers did: the names added, those entered already, those refused (a
    player of the same name, another record, is entered), the lots drawn first, and whether the
    series is complete (every leg and the standings decided)."""

    final: Event
    added: list[str]
    already: list[str]
    refused: list[str]
    lots: list[Lot]
    complete: bool

    def message(self) -> str:
        """What the organiser reads after the press."""
        parts = []
        if self.lots:
            parts.append(f"{len(self.lots)} lot{'s' if len(self.lots) != 1 else ''} drawn (see the log).")
        if self.added:
            parts.append(f"Added to {self.final.name}: {', '.join(self.added)}.")
        else:
            parts.append(f"Nothing added: every qualifier so far is already entered in {self.final.name}.")
        if self.refused:
            parts.append(f"Not added, a player of the same name is entered: {', '.join(self.refused)}.")
        if not self.complete:
            parts.append("More places are still to be decided.")
        return " ".join(parts)


@transaction.atomic
def final_entries_create(*, season: Season, user, reason: str = "") -> FinalEntries:
    """Enter in the series' final every player through so far who is not entered yet, drawing first
    any lot a cut waits for. Refused (ValidationError) without a final or with no one through yet."""
    season = _locked(season, user, what=f"enter the qualifiers of {season.name!r} in its final")
    final = season.final
    if final is None:
        raise ValidationError(f"{season.name} has no final: choose it when changing the season first.")
    # Two presses at once wait here, one after the other: the second finds everyone entered.
    Event.objects.select_for_update().filter(pk=final.pk).values_list("pk", flat=True).get()
    lots = _draw_pending(season, user)
    found = series_read(season)
    if not found.qualifiers:
        raise ValidationError(f"No one has qualified for {final.name} yet: no leg is decided.")
    already = [item.name for item in found.qualifiers if item.entered]
    added: list[str] = []
    refused: list[str] = []
    first_round = next_unseated_round(final)
    players = Player.objects.in_bulk([item.player_id for item in found.to_enter])
    keys = {item.player_id: name_key(players[item.player_id].name) for item in found.to_enter}
    # The final's entries of those names, read once (`entered_name` of each, without a query each).
    entered = {
        there.normalized_name: there
        for there in Entry.objects.filter(event=final, normalized_name__in=set(keys.values())).order_by("-pk")
    }
    for item in found.to_enter:
        player = players[item.player_id]
        key = keys[player.pk]
        there = entered.get(key)
        if there is not None:
            (already if there.player_id == player.pk else refused).append(player.name)
            continue
        entry = Entry(event=final, player=player, normalized_name=key, first_round=first_round)
        entry.full_clean(validate_constraints=False)
        entry.save()
        entered[key] = entry
        audit_record(
            event=final,
            action="kalooki.entry.added",
            user=user,
            obj=entry,
            before=None,
            after=entry_data(entry),
            reason=f"Qualified from {item.source} ({item.place}{', by lot' if item.by_lot else ''})",
        )
        waitlist_if_full(entry, user)
        added.append(player.name)
    if added:
        audit_record(
            event=final,
            action="kalooki.season.final_entries",
            user=user,
            obj=season,
            before={"entered": already},
            after={"added": added, "refused": refused},
            reason=reason or f"The qualifiers of {season.name}",
        )
        touch_results(final.pk)
    return FinalEntries(final, added, already, refused, lots, found.complete)
