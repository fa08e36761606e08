"""The signed sheet as evidence at the director's desk (issue 23): keep a photo of a table's signed
sheet, and see one. Thin views: the photo is the event's directors' alone (`director_required`:
anonymous visitors log in, anyone else 403) and is never kept by a cache (`private, no-store`).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_http_methods, require_POST

from ...models import Event, SheetPhoto
from ...services import evidence
from ..permissions import director_required
from ..view_support import game_set_or_404
from .british_game import table_url
from .views import page_of_table


@director_required
@require_POST
def photo_add(request, event: Event, number: int, table: int):
    """A photo (or scan) of the signed sheet from the desk: kept with the set, or the page again with
    why not (nothing kept)."""
    game_set = game_set_or_404(event, number, table)
    try:
        evidence.sheet_photo_add(
            game_set=game_set, user=request.user, upload=evidence.Upload.of(request.FILES.get("photo"))
        )
    except ValidationError as exc:
        return page_of_table(request, event, game_set, status=400, photo_problem=" ".join(exc.messages))
    messages.success(
        request, f"The photo of table {table}'s signed sheet is kept with the {event.game.unit}."
    )
    return redirect(table_url(event, game_set) + "#sheet-photos")


@director_required
@require_http_methods(["GET", "HEAD"])
def photo(request, event: Event, number: int, table: int, photo_id: int):
    """One photo of the table's signed sheet, as a JPEG, to the event's directors only."""
    found = get_object_or_404(
        SheetPhoto.objects.only("pk", "data"),
        pk=photo_id,
        game_set__table__round__event=event,
        game_set__table__round__number=number,
        game_set__table__number=table,
    )
    response = HttpResponse(bytes(found.data), content_type="image/jpeg")
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = f'inline; filename="round-{number}-table-{table}-sheet-{found.pk}.jpg"'
    return response
