"""A season's pages: its events and its standings as stored with its rating list (by
`scoring.services.ratings`), one query each."""

from __future__ import annotations

from typing import Any

from ..models import Event, Player, RatingList, Season


def season_events(season: Season) -> list[Event]:
    """The season's events, first played first. One query."""
    return list(season.events.order_by("date_start", "name"))


def event_column(event_id: int) -> str:
    """The name of an event's points column in the season's rows."""
    return f"event_{event_id}"


def season_rows(rating_list: RatingList) -> list[dict[str, Any]]:
    """The season's standings best first: place, shared, player, player_id, club, membership, points,
    events, counted, wins, best_place and, for each event they played, `event_<id>` = (points, counted).
    One query (the players' names as they are now)."""
    stored = rating_list.season_table
    people = {
        pk: (name, club, membership)
        for pk, name, club, membership in Player.objects.filter(
            pk__in=[row["player_id"] for row in stored]
        ).values_list("pk", "name", "club", "membership_id")
    }
    rows = []
    for row in stored:
        # A record merged away since the computation: the page is computed again on its next read.
        name, club, membership = people.get(row["player_id"], ("", "", ""))
        found = {
            "place": row["place"],
            "shared": row["shared"],
            "player": name,
            "player_id": row["player_id"],
            "club": club,
            "membership": membership,
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
