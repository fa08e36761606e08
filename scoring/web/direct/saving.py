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
    messages.add_message(request, *saved_words(outcome, what=what, unit=game.unit, deal_word=game.deal_word))
    if outcome.followed:
        # What the app works out after this hand moved with it: said, never changed silently.
        messages.info(request, f"Worked out again: {'; '.join(outcome.followed)}.")
    return outcome


def _count(number: int, noun: str) -> str:
    return f"{number} error finding{'s' if number != 1 else ''} {noun}"


def saved_words(outcome: services.DealOutcome, *, what: str, unit: str, deal_word: str) -> tuple[int, str]:
    """(level, message) of a save: a draft only when the saved deal itself has an error finding; a
    clean deal in a set with errors elsewhere is saved, and the message names where they are."""
    number = outcome.deal.number
    own = [finding for finding in outcome.errors if finding.deal == number]
    elsewhere = sorted({finding.deal for finding in outcome.errors if finding.deal not in (number, None, 0)})
    if own:
        return messages.WARNING, f"{what} saved as a draft: {_count(len(own), 'on it')} to settle."
    if outcome.errors:
        places = ", ".join(str(deal) for deal in elsewhere)
        plural = "s" if len(elsewhere) > 1 else ""
        where = f"on {deal_word}{plural} {places}" if elsewhere else f"in the {unit}"
        still = _count(len(outcome.errors), where)
        return messages.SUCCESS, f"{what} saved, no findings on it; the {unit} still has {still}."
    return messages.SUCCESS, f"{what} saved."
