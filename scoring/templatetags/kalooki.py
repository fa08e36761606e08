"""Template tags shared by every page: the event navigation and small display helpers."""

from django import template
from django.db.models import Exists, OuterRef
from django.urls import reverse

register = template.Library()


def user_directs(request, event) -> bool:
    """Whether the request's user may direct `event`; asked once per request (one query at most)."""
    if request is None or event is None:
        return False
    cache = request.__dict__.setdefault("_kalooki_directs", {})
    if event.pk not in cache:
        cache[event.pk] = event.is_director(request.user)
    return cache[event.pk]


def _event_rounds(event) -> list[tuple[int, bool]]:
    """(number, seated) for each round of the event, in order; one query, remembered on the instance."""
    rounds = getattr(event, "_nav_rounds", None)
    if rounds is None:
        from scoring.models import Table

        has_tables = Exists(Table.objects.filter(round=OuterRef("pk")))
        rounds = list(event.rounds.order_by("number").values_list("number", has_tables))
        event._nav_rounds = rounds
    return rounds


def event_round_numbers(event) -> list[int]:
    """The event's round numbers, in order (shares the navigation's query)."""
    return [number for number, _ in _event_rounds(event)]


def director_url(event) -> str:
    """The director's dashboard for `event` (scoring/entry_urls.py)."""
    return reverse("scoring:direct", kwargs={"slug": event.slug})


@register.inclusion_tag("scoring/_event_nav.html", takes_context=True)
def event_nav(context):
    """The event's navigation (standings, rounds, seating, projector, director) when a page has an event."""
    event = context.get("event")
    request = context.get("request")
    if event is None or getattr(event, "pk", None) is None:
        return {"event": None}
    rounds = _event_rounds(event)
    numbers = [number for number, _ in rounds]
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


@register.simple_tag(takes_context=True)
def directs_event(context) -> bool:
    """`{% directs_event as is_director %}`: whether the user directs the page's event (the navigation's
    answer, so no extra query)."""
    return user_directs(context.get("request"), context.get("event"))


@register.filter
def place(row) -> str:
    """A standings row's place as players read it: "=1" when shared."""
    from scoring.tables import shared_place

    if not isinstance(row, dict):
        return ""
    return shared_place(row.get("place"), row.get("shared"))


@register.filter
def cards(notation) -> str:
    """Card notation as players read it ("AS 10H JK" -> "A♠ 10♥ JK"); unreadable text is shown as written."""
    from adjudication.engine.cards import InvalidCard, parse_cards

    if not notation:
        return ""
    try:
        return " ".join(str(card) for card in parse_cards(notation))
    except InvalidCard:
        return notation
