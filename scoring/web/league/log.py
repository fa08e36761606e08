"""The league log: season changes and player merges, which span events and so sit in no single event's
log, for organisers; and undoing a merge from its line (issue 22, "Authority by event").

Only organisers enter; the services refuse, with 403, an organiser who does not direct every event a
change touches (`scoring.services.authority`).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from ...models import Player
from ...selectors.seasons import league_log
from ...services.players import player_merge_undo
from ..permissions import directed_ids, season_organiser_required
from ..view_support import post_form
from .forms import UnmergeForm


def _log_page(request, *, form: UnmergeForm | None = None, status: int = 200):
    entries = league_log()
    directed = directed_ids(request.user)
    for entry in entries:
        # The button only for whoever the service lets undo it: the directors of every event involved.
        entry.may_undo = entry.undo_player is not None and entry.undo_events <= directed
    return render(request, "league/log.html", {"entries": entries, "undo_form": form}, status=status)


@require_safe
@season_organiser_required
def log(request):
    """Season changes and player merges, newest first; a merge that can still be undone has a button."""
    return _log_page(request)


@require_POST
@season_organiser_required
def player_unmerge(request, player_id: int):
    """Undo a merge into this record (audited): the merged record and its entries come back."""
    keep = get_object_or_404(Player, pk=player_id)
    form = UnmergeForm(request.POST, player=keep)
    return post_form(
        request,
        form,
        call=lambda data: player_merge_undo(entry=data["entry"], user=request.user, reason=data["reason"]),
        done=lambda restored: f"The merge is undone: {restored.name} (record {restored.pk}) is back.",
        then=lambda restored: reverse("scoring:rating_player", kwargs={"player_id": restored.pk}),
        page=lambda status: _log_page(request, form=form, status=status),
    )
