"""The public page of a British Kalooki table (no login): the game hand by hand and its finishing order.

The public set page (`views.SetView`) hands a British event's table here.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from ...models import Event, GameSet
from ...selectors.british_games import british_game_page
from ...selectors.door import ShownNames


def public_game(request, event: Event, game_set: GameSet, shown: ShownNames) -> HttpResponse:
    """The public page of a British table (no login): the game hand by hand and its finishing order;
    `shown`: the players it names "Player <entry number>" (issue 26)."""
    page = british_game_page(game_set, shown)
    return render(
        request,
        "public/british_game.html",
        {
            "event": event,
            "page": page,
            "game_set": page.game_set,
            "is_director": event.is_director(request.user),
        },
    )
