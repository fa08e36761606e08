"""The public page of a British Kalooki table (no login): the game hand by hand and its finishing order.

The public set page (`views.SetView`) hands a British event's table here.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from ...models import Event, GameSet
from ...selectors.british_games import british_game_page


def public_game(request, event: Event, game_set: GameSet) -> HttpResponse:
    """The public page of a British table (no login): the game hand by hand and its finishing order."""
    page = british_game_page(game_set)
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
