"""What the director's pages (`scoring.web.direct`) and the adjudication pages share: the set a URL
names, the seated players, and a posted form taken to its one service call (docs/ARCHITECTURE.md rule 6).

A refused call puts the service's message beside the field it names and shows the page again with 400,
or 409 when someone else changed the data first (`StaleEdit`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect

from ..models import Event, GameSet, Seat
from ..services.guards import StaleEdit


def game_set_or_404(event: Event, number: int, table: int) -> GameSet:
    """The set at round `number`, table `table` of `event`, with its table and round."""
    return get_object_or_404(
        GameSet.objects.select_related("table__round"),
        table__round__event=event,
        table__round__number=number,
        table__number=table,
    )


def seat_names(game_set: GameSet) -> list[str]:
    """The players seated at the set's table, seat 1 first."""
    return list(
        Seat.objects.filter(table_id=game_set.table_id)
        .order_by("position")
        .values_list("entry__player__name", flat=True)
    )


def posted(request) -> tuple:
    """(data, files) for a form that is bound on POST only (an empty POST still shows its errors)."""
    if request.method == "POST":
        return request.POST, request.FILES
    return None, None


def add_service_errors(form: Form, exc: ValidationError) -> None:
    """A service's ValidationError beside the form's fields it names; the rest above the form, each
    message after the place it names."""
    if hasattr(exc, "error_dict"):
        for key, errors in exc.message_dict.items():
            if key in form.fields:
                form.add_error(key, errors)
            elif key == NON_FIELD_ERRORS:
                form.add_error(None, errors)
            else:
                # A place inside the posted data (`substitutes[0].seat`): name it with the message.
                form.add_error(None, [f"{key}: {error}" for error in errors])
    else:
        form.add_error(None, exc.messages)


def refusal_status(exc: ValidationError) -> int:
    return 409 if isinstance(exc, StaleEdit) else 400


def post_form(
    request,
    form: Form,
    *,
    call: Callable[[dict[str, Any]], Any],
    done: Callable[[Any], str],
    then: str | Callable[[Any], str],
    page: Callable[[int], HttpResponse],
) -> HttpResponse:
    """A bound form's one service call: `call(cleaned_data)`; on success the message `done(result)` and
    a redirect to `then` (or `then(result)`); otherwise `page(status)` shows the form with its errors."""
    status = 400
    if form.is_valid():
        try:
            result = call(form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
            status = refusal_status(exc)
        else:
            messages.success(request, done(result))
            return redirect(then(result) if callable(then) else then)
    return page(status)
