"""Saving one posted deal or hand, for every game's entry page: the one service call (`deal_record`), its
refusal on the form that was posted, and the director told what was saved."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse

from ... import services
from ...models import Deal, GameSet
from ..view_support import refusal_status


def record_posted(
    request,
    *,
    game_set: GameSet,
    entry: Any,
    data: dict[str, Any],
    deal: Deal | None,
    redraw: Callable[[int], HttpResponse],
) -> services.DealOutcome | HttpResponse:
    """Record the posted `entry` (a deal's or a hand's form, read as `data`): the outcome, with the
    director told what was saved; or, refused, the page drawn again by `redraw(status)` with the
    service's message beside the field it names."""
    try:
        outcome = services.deal_record(
            game_set=game_set,
            user=request.user,
            data=data,
            deal=deal,
            expected_version=entry.version,
            expected_set_version=entry.set_version,
            reason=entry.reason,
        )
    except ValidationError as exc:
        entry.add_service_error(exc)
        return redraw(refusal_status(exc))
    game = game_set.table.round.event.game
    saved = outcome.deal
    what = f"{game.deal_word.capitalize()} {saved.number}{' (void: it is dealt again)' if saved.void else ''}"
    errors = len(outcome.errors)
    if errors:
        many = "s" if errors != 1 else ""
        messages.warning(
            request, f"{what} saved as a draft: the {game.unit} has {errors} error finding{many}."
        )
    else:
        messages.success(request, f"{what} saved.")
    return outcome
