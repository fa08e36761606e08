"""Rulings, appeals and the audit log (issue 5). Thin views (docs/ARCHITECTURE.md rule 6): fetch → authorise →
one service call → message and redirect. A refused call re-renders the page with the service's message
beside the field it names (400), or above the form when someone else changed the data first (409).

Directors and staff issue, appeal and decide rulings and read the event's log (filter, CSV export);
anyone may read a ruling with its history and a table's history (corrections are shown publicly).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.models import Deal, Entry, Event, GameSet, Table
from scoring.selectors.door import shown_ruling
from scoring.selectors.evidence import sheet_evidence
from scoring.web.permissions import director_required, shown_names, user_directs
from scoring.web.query import number_param, whole_number
from scoring.web.view_support import game_set_or_404, post_form, seat_names

from . import services
from .audit import NESTED_DEEPER, history_for, history_for_table, shown_name, table_scope, with_changes
from .forms import NO_USER, AuditFilterForm, RulingAppealForm, RulingDecideForm, RulingIssueForm
from .models import AuditEntry, Ruling
from .rulings import ruling_added_points, score_included_defaults
from .selectors import audit_for_event

GET_POST = require_http_methods(["GET", "HEAD", "POST"])
LOG_PAGE_SIZE = 100
# Spreadsheets run a cell that starts with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# --- helpers ------------------------------------------------------------------------------------


def _ruling(event: Event, ruling_id: int) -> Ruling:
    return get_object_or_404(
        Ruling.objects.select_related(
            "deal__game_set__table__round",
            "game_set__table__round",
            "entry__player",
            "issued_by",
            "decided_by",
        ),
        pk=ruling_id,
        game_set__table__round__event=event,
    )


def _ruling_url(ruling: Ruling, event: Event) -> str:
    return reverse("adjudication:ruling", kwargs={"slug": event.slug, "ruling_id": ruling.pk})


def _table_rulings_url(event: Event, game_set: GameSet) -> str:
    table = game_set.table
    return reverse(
        "adjudication:table_rulings",
        kwargs={"slug": event.slug, "number": table.round.number, "table": table.number},
    )


# --- rulings ------------------------------------------------------------------------------------


@director_required
@require_safe
def rulings(request, event: Event):
    """Every ruling of the event, appeals waiting for a decision first; ?status= narrows the list."""
    status = request.GET.get("status", "")
    # A ruling whose deal was deleted (withdrawn) is listed with the set it was made in.
    rows = Ruling.objects.filter(game_set__table__round__event=event).select_related(
        "deal", "game_set__table__round", "entry__player"
    )
    if status in Ruling.Status.values:
        rows = rows.filter(status=status)
    rows = sorted(
        rows,
        key=lambda r: (
            r.status != Ruling.Status.APPEALED,
            r.game_set.table.round.number,
            r.game_set.table.number,
            r.deal.sequence if r.deal_id else 0,
            r.issued_at,
        ),
    )
    tables = (
        Table.objects.filter(round__event=event).select_related("round").order_by("round__number", "number")
    )
    return render(
        request,
        "adjudication/rulings.html",
        {
            "event": event,
            "rulings": rows,
            "status": status if status in Ruling.Status.values else "",
            "statuses": Ruling.Status.choices,
            "tables": tables,
        },
    )


def _deal_choice(request, game_set: GameSet) -> Deal | None:
    """The deal named by ?deal=<playing order>, or None (a value that is not a deal is ignored)."""
    sequence = whole_number(request.GET.get("deal", ""))
    if sequence is None:
        return None
    return Deal.objects.filter(game_set=game_set, sequence=sequence).first()


def ruling_issue_post(
    request,
    *,
    event: Event,
    deal: Deal,
    form: RulingIssueForm,
    then: str | Callable[[Ruling], str],
    page: Callable[[int], HttpResponse],
) -> HttpResponse:
    """Issue the ruling a posted `RulingIssueForm` describes on `deal`: the one handler behind the
    entry page's deal and the table's rulings page, which differ only in where success goes (`then`)
    and which page shows a refusal (`page(status)`)."""
    return post_form(
        request,
        form,
        call=lambda data: services.ruling_issue(
            deal=deal,
            entry=get_object_or_404(Entry, event=event, player__name=data["player"]),
            user=request.user,
            kind=data["kind"],
            points=data["points"],
            reason=data["reason"],
            rule=data["rule"],
            score_included=data.get("score_included"),
            expected_version=data["version"],
        ),
        done=lambda issued: (
            f"Ruling issued: {issued.get_kind_display()} on {issued.entry} in deal {deal.number}; "
            + (
                f"the written score already included its {issued.points} points and stays as written."
                if issued.score_included
                else f"its {issued.points} points were added to the score and the running totals."
            )
        ),
        then=then,
        page=page,
    )


@director_required
@GET_POST
def table_rulings(request, event: Event, number: int, table: int):
    """A table's rulings and the form that issues one (pick the deal, then the player and infraction)."""
    game_set = game_set_or_404(event, number, table)
    deal = _deal_choice(request, game_set)
    if deal is None and request.method == "POST":
        messages.error(request, "Choose the deal the ruling is about first.")
        return redirect(_table_rulings_url(event, game_set))

    def page(form: RulingIssueForm | None, status: int = 200) -> HttpResponse:
        return render(
            request,
            "adjudication/table_rulings.html",
            {
                "event": event,
                "game_set": game_set,
                "table": game_set.table,
                "round": game_set.table.round,
                "deals": list(Deal.objects.filter(game_set=game_set).order_by("sequence")),
                "deal": deal,
                "form": form,
                "rulings": Ruling.objects.filter(game_set=game_set)
                .select_related("deal", "game_set__table__round", "entry__player")
                .order_by("deal__sequence", "issued_at", "pk"),
                # Issue 23: the photos of the signed sheet, which a dispute is settled against.
                "evidence": sheet_evidence(game_set),
            },
            status=status,
        )

    if deal is None:
        return page(None)
    players = seat_names(game_set)
    # What the form offers when the director does not say whether the score holds the points.
    defaults = score_included_defaults(deal=deal, names=players, rules=event.ruleset())
    if request.method != "POST":
        return page(RulingIssueForm(players=players, defaults=defaults, initial={"version": deal.version}))
    form = RulingIssueForm(request.POST, players=players, defaults=defaults)
    return ruling_issue_post(
        request,
        event=event,
        deal=deal,
        form=form,
        then=lambda issued: _ruling_url(issued, event),
        page=lambda status: page(form, status),
    )


@require_safe
def ruling(request, slug: str, ruling_id: int):
    """One ruling with its history; directors also see the appeal or decision form."""
    event = get_object_or_404(Event, slug=slug)
    item = _ruling(event, ruling_id)
    return _ruling_page(request, event, item)


def _ruling_page(request, event, item, *, appeal=None, decide=None, status=200):
    """The ruling page; a refused form is shown again with its errors whatever the ruling's status."""
    directs = user_directs(request, event)
    # A public page: a player who does not consent to public lists is "Player <entry number>" (issue 26).
    shown = shown_names(request, event)
    shown_ruling(item, shown)
    if appeal is None and directs and item.status == Ruling.Status.STANDING:
        appeal = RulingAppealForm(initial={"version": item.version})
    if decide is None and directs and item.status == Ruling.Status.APPEALED:
        decide = RulingDecideForm(initial={"version": item.version})
    return render(
        request,
        "adjudication/ruling.html",
        {
            "event": event,
            "ruling": item,
            "round": item.set_ruled.table.round,
            "table": item.set_ruled.table,
            "history": with_changes(history_for(item).select_related("user"), shown.text),
            # A public page: directors by their display names (`shown_name`), never their usernames.
            "issued_by": shown_name(item.issued_by),
            # Whether issuing it added its points to the score (what overturning it takes back).
            "added_points": ruling_added_points(item),
            "decided_by": shown_name(item.decided_by),
            "appeal_form": appeal,
            "decide_form": decide,
            "is_director": directs,
        },
        status=status,
    )


def _ruling_post(request, event: Event, ruling_id: int, *, form_class, slot: str, call, done):
    """Post one form about a ruling: `call(ruling, cleaned_data)` is its service call, `done(ruling)`
    the message; a refused form is shown again in its `slot` on the ruling page."""
    item = _ruling(event, ruling_id)
    form = form_class(request.POST)
    return post_form(
        request,
        form,
        call=lambda data: call(item, data),
        done=done,
        then=_ruling_url(item, event),
        page=lambda status: _ruling_page(request, event, item, status=status, **{slot: form}),
    )


@director_required
@require_POST
def ruling_appeal(request, event: Event, ruling_id: int):
    return _ruling_post(
        request,
        event,
        ruling_id,
        form_class=RulingAppealForm,
        slot="appeal",
        call=lambda item, data: services.ruling_appeal(
            ruling=item, user=request.user, reason=data["reason"], expected_version=data["version"]
        ),
        done=lambda appealed: f"Appeal recorded against the ruling on {appealed.entry}.",
    )


@director_required
@require_POST
def ruling_decide(request, event: Event, ruling_id: int):
    return _ruling_post(
        request,
        event,
        ruling_id,
        form_class=RulingDecideForm,
        slot="decide",
        call=lambda item, data: services.ruling_decide(
            ruling=item,
            user=request.user,
            decision=data["decision"],
            reason=data["reason"],
            expected_version=data["version"],
        ),
        done=lambda decided: (
            f"Appeal decided: the ruling on {decided.entry} is {decided.get_status_display()}."
        ),
    )


# --- history and the event log ------------------------------------------------------------------


@require_safe
def table_history(request, slug: str, number: int, table: int):
    """Every recorded change at one table, newest first: entries, corrections, rulings, verification."""
    event = get_object_or_404(Event, slug=slug)
    game_set = game_set_or_404(event, number, table)
    # A public page: a player who does not consent to public lists is "Player <entry number>" (issue 26).
    shown = shown_names(request, event)
    return render(
        request,
        "adjudication/table_history.html",
        {
            "event": event,
            "game_set": game_set,
            "table": game_set.table,
            "round": game_set.table.round,
            "history": with_changes(history_for_table(game_set), shown.text),
        },
    )


def _table_options(event: Event) -> dict[str, GameSet]:
    """The log filter's tables: "r1t2" -> the set at round 1, table 2."""
    sets = GameSet.objects.filter(table__round__event=event).select_related("table__round")
    return {
        f"r{gs.table.round.number}t{gs.table.number}": gs
        for gs in sets.order_by("table__round__number", "table__number")
    }


def _filtered_log(event: Event, form: AuditFilterForm, tables: dict[str, GameSet]):
    entries = audit_for_event(event)
    if not form.is_bound:
        data = {}
    elif not form.is_valid():
        # Apply only the filters that could be read; the others are named as errors on the page.
        data = {name: form.cleaned_data.get(name) for name in form.fields if name not in form.errors}
    else:
        data = form.cleaned_data
    if data.get("action"):
        entries = entries.filter(action__startswith=data["action"])
    if data.get("table"):
        entries = entries.filter(table_scope(tables[data["table"]]))
    if data.get("user"):
        entries = entries.filter(username="" if data["user"] == NO_USER else data["user"])
    if data.get("date_from"):
        entries = entries.filter(created_at__date__gte=data["date_from"])
    if data.get("date_to"):
        entries = entries.filter(created_at__date__lte=data["date_to"])
    return entries


@director_required
@require_safe
def event_log(request, event: Event):
    """The event's audit log: filter by action, table, user and date; `?_export=csv` downloads it."""
    base = AuditEntry.objects.filter(event=event).order_by()
    tables = _table_options(event)
    form = AuditFilterForm(
        request.GET or None,
        actions=sorted(set(base.values_list("action", flat=True))),
        tables=[
            (key, f"Round {gs.table.round.number}, table {gs.table.number}") for key, gs in tables.items()
        ],
        users=sorted(set(base.values_list("username", flat=True))),
    )
    entries = _filtered_log(event, form, tables)
    if request.GET.get("_export") == "csv":
        return _csv_response(event, entries)
    # ?page=N read like every other number in a query string (scoring.query): malformed is a 400.
    page = Paginator(entries, LOG_PAGE_SIZE).get_page(number_param(request.GET, "page"))
    page.object_list = with_changes(page.object_list)
    query = request.GET.copy()
    query.pop("page", None)
    query["_export"] = "csv"
    return render(
        request,
        "adjudication/event_log.html",
        {
            "event": event,
            "form": form,
            "page": page,
            "csv_url": f"?{query.urlencode()}",
            "page_query": _without_page(request),
        },
        status=200 if form.is_bound is False or form.is_valid() else 400,
    )


def _without_page(request) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("_export", None)
    return query.urlencode()


def _cell(value) -> str:
    try:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    except RecursionError:
        text = NESTED_DEEPER
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _csv_response(event: Event, entries) -> HttpResponse:
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-log-{stamp}.csv"'
    writer = csv.writer(response)
    writer.writerow(["at", "action", "user", "object_type", "object", "before", "after", "reason"])
    for entry in entries.iterator(chunk_size=500):
        writer.writerow(
            [
                timezone.localtime(entry.created_at).isoformat(),
                _cell(entry.action),
                _cell(entry.username),
                entry.object_type,
                _cell(entry.object_repr),
                _cell(entry.before) if entry.before is not None else "",
                _cell(entry.after) if entry.after is not None else "",
                _cell(entry.reason),
            ]
        )
    return response
