"""A season's pages: its events and its standings as stored with its rating list (by
`scoring.services.ratings`), one query each; the league log (season changes and player merges)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from adjudication.audit import with_changes
from adjudication.models import AuditEntry

from ..models import Entry, Event, Player, RatingList, Season
from .ratings import listed_name

# What the league log shows: changes that span events, so no single event's log is theirs to show.
LEAGUE_ACTIONS = ("kalooki.season.", "kalooki.player.merged", "kalooki.player.unmerged")


def season_events(season: Season) -> list[Event]:
    """The season's events, first played first. One query."""
    return list(season.events.order_by("date_start", "name"))


def event_column(event_id: int) -> str:
    """The name of an event's points column in the season's rows."""
    return f"event_{event_id}"


def season_rows(rating_list: RatingList, *, public: bool = False) -> list[dict[str, Any]]:
    """The season's standings best first: place, shared, player, player_id, club, membership, points,
    events, counted, wins, best_place and, for each event they played, `event_<id>` = (points, counted).
    One query (the players' names as they are now). `public`: a player who does not consent to public
    lists (issue 26) as "Player <their row's number>"."""
    stored = rating_list.season_table
    people = {
        pk: (name, club, membership, consent)
        for pk, name, club, membership, consent in Player.objects.filter(
            pk__in=[row["player_id"] for row in stored]
        ).values_list("pk", "name", "club", "membership_id", "details__consent_public")
    }
    rows = []
    for number, row in enumerate(stored, start=1):
        # A record merged away since the computation: the page is computed again on its next read.
        name, club, membership, consent = people.get(row["player_id"], ("", "", "", None))
        found = {
            "place": row["place"],
            "shared": row["shared"],
            **listed_name(name, membership, consent, number, public=public),
            "player_id": row["player_id"],
            "club": club,
            "points": row["points"],
            "events": row["events"],
            "counted": row["counted"],
            "wins": row["wins"],
            "best_place": row["best_place"],
        }
        for event_id, points, counted in row["results"]:
            found[event_column(event_id)] = (points, counted)
        rows.append(found)
    return rows


def league_log(*, limit: int = 500) -> list[AuditEntry]:
    """Season changes and player merges (and their undoing), newest first, each once: a merge is logged
    in every event whose entry moved, and shown here once. Each entry has `.changes` and `.author`
    (`adjudication.audit.with_changes`) and `.undo_player` (`_mark_undoable`). Four queries."""
    wanted = Q(action__startswith=LEAGUE_ACTIONS[0]) | Q(action__in=LEAGUE_ACTIONS[1:])
    entries = AuditEntry.objects.filter(wanted).select_related("user").order_by("-created_at", "-pk")
    seen: set[tuple] = set()
    shown = []
    for entry in entries[: limit * 4]:
        key = (entry.action, entry.object_id, repr(entry.before), repr(entry.after), entry.reason)
        if key in seen:
            continue
        seen.add(key)
        shown.append(entry)
        if len(shown) == limit:
            break
    _mark_undoable(shown)
    return with_changes(shown)


def _mark_undoable(entries: list[AuditEntry]) -> None:
    """`.undo_player` on each merge that can still be undone (`services.players.merge_undo_problem`
    asks the same, one entry at a time): the kept record's id, else None; and `.undo_events`, the ids
    of the events an undo touches (whoever undoes it must direct them all). Three queries."""
    merges = [
        entry
        for entry in entries
        if entry.action == LEAGUE_ACTIONS[1] and isinstance(entry.before, dict) and "entries" in entry.before
    ]
    for entry in entries:
        entry.undo_player, entry.undo_events = None, set()
    if not merges:
        return
    merged_ids = {entry.before["merged"]["id"] for entry in merges}
    back = set(Player.objects.filter(pk__in=merged_ids).values_list("pk", flat=True))
    entry_ids = {item["id"] for entry in merges for item in entry.before["entries"]}
    kept_ids = {entry.before["kept"]["id"] for entry in merges}
    owners: dict[int, tuple[int, int]] = {}
    played: dict[int, set[int]] = {}
    for pk, player_id, event_id in Entry.objects.filter(
        Q(pk__in=entry_ids) | Q(player_id__in=kept_ids)
    ).values_list("pk", "player_id", "event_id"):
        owners[pk] = (player_id, event_id)
        played.setdefault(player_id, set()).add(event_id)
    for entry in merges:
        kept = entry.before["kept"]["id"]
        if entry.before["merged"]["id"] not in back and all(
            owners.get(item["id"], (None, None))[0] == kept for item in entry.before["entries"]
        ):
            entry.undo_player = kept
            entry.undo_events = played.get(kept, set())
