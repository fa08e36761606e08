"""Template tags shared by every page: the event navigation and small display helpers."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from adjudication.engine.cards import InvalidCard, parse_cards

from ..page_cache import public_etag
from ..selectors.tables import event_in_play, event_rounds
from ..web.permissions import user_directs
from ..web.tables import shared_place

register = template.Library()


def director_url(event) -> str:
    """The director's dashboard for `event` (scoring/web/direct/urls.py)."""
    return reverse("scoring:direct", kwargs={"slug": event.slug})


@register.inclusion_tag("parts/_event_nav.html", takes_context=True)
def event_nav(context):
    """The event's navigation (standings, rounds, seating, projector, director) when a page has an event."""
    event = context.get("event")
    request = context.get("request")
    if event is None or getattr(event, "pk", None) is None:
        return {"event": None}
    rounds = event_rounds(event)
    # A round added but not seated yet is not public.
    numbers = [number for number, is_seated in rounds if is_seated]
    current_number = getattr(context.get("round"), "number", None)
    seated = [number for number, is_seated in rounds if is_seated]
    # "Where do I sit?" follows the round on screen, else the latest seated round.
    seating_number = current_number if current_number in numbers else (seated[-1] if seated else None)
    match = getattr(request, "resolver_match", None)
    return {
        "event": event,
        "round_numbers": numbers,
        "current_round": current_number,
        "seating_number": seating_number,
        "url_name": match.view_name if match else "",
        "is_director": user_directs(request, event),
        "director_url": director_url(event),
    }


LIVE_REFRESH_SECONDS = 30


@register.inclusion_tag("parts/_live_refresh.html")
def live_refresh(event, seconds: int = LIVE_REFRESH_SECONDS):
    """While a table of `event` is still to verify: the page asks again every `seconds` with the ETag it
    was served with (static/js/live-refresh.js) — a 304 when nothing changed, the new page otherwise."""
    if event is None or getattr(event, "pk", None) is None or not event_in_play(event):
        return {"refresh": None}
    return {"refresh": seconds, "etag": public_etag(event)}


@register.simple_tag(takes_context=True)
def directs_event(context) -> bool:
    """`{% directs_event as is_director %}`: whether the user directs the page's event (the navigation's
    answer, so no extra query)."""
    return user_directs(context.get("request"), context.get("event"))


@register.filter
def place(row) -> str:
    """A standings row's place as players read it: "=1" when shared."""
    if not isinstance(row, dict):
        return ""
    return shared_place(row.get("place"), row.get("shared"))


@register.filter
def cards(notation) -> str:
    """Card notation as players read it ("AS 10H JK" -> "A♠ 10♥ JK"); unreadable text is shown as written."""
    if not notation:
        return ""
    try:
        parsed = parse_cards(notation)
    except InvalidCard:
        return notation
    # ♥ and ♦ in red, as on the cards (issue 11): each card a span the page's style colours.
    return mark_safe(
        " ".join(
            format_html('<span class="card{}">{}</span>', " card--red" if card.is_red else "", str(card))
            for card in parsed
        )
    )


@register.filter
def seat_code(code, position) -> str:
    """The seat code printed beside the player in seat `position` (`code`: a sheet's `PrintedCode`)."""
    return getattr(code, "seat_codes", {}).get(position, "") if code else ""
