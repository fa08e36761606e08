"""The public prize list (issue 26): who won what, computed from the results (`selectors.prizes`)."""

from __future__ import annotations

from django.shortcuts import render

from ...selectors.prizes import prize_list
from ..lookups import event_for
from ..responses import public_results_page


@public_results_page
def prizes(request, slug: str):
    event = event_for(request, slug)
    return render(request, "public/prizes.html", {"event": event, "prizes": prize_list(event)})
