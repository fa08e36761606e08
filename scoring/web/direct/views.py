"""The director's pages: an event's dashboard and each table's entry page (issue 3, "Director entry").

Every view is thin (docs/ARCHITECTURE.md rule 6): fetch → authorise (`director_required`) → one service call →
message and redirect. A refused call re-renders the page with the service's message beside the field it
names (400), or above the form when someone else changed the data first (409, `StaleEdit`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from adjudication.engine.laydown import InvalidLaydown, check_laydown, parse_laydown
from adjudication.forms import RulingIssueForm
from adjudication.rulings import score_included_defaults
from adjudication.views import ruling_issue_post

from ... import background, page_cache, selectors, services
from ...models import BackgroundJob, Deal, Entry, Event, GameSet, Round, Seat
from ...selectors import DealPreview, SetPage
from ...selectors import jobs as jobs_read
from ...selectors.evidence import sheet_evidence
from ...selectors.self_entry import director_queue
from ..forms import (
    DealEntry,
    DeleteDealForm,
    EntryAddForm,
    LaydownForm,
    PlayersImportForm,
    ReopenForm,
    RoundCreateForm,
    RoundSeatForm,
    SheetImportForm,
    SubstituteForm,
    TotalsReaddForm,
    VerifyForm,
    WithdrawForm,
    result_initial,
)
from ..permissions import director_required, is_organiser
from ..query import number_param
from ..view_support import add_service_errors, game_set_or_404, post_form, posted, seat_names
from . import british_game
from .saving import record_posted

GET_POST = require_http_methods(["GET", "HEAD", "POST"])


# --- helpers ------------------------------------------------------------------------------------


def _is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def _deal(game_set: GameSet, sequence: int) -> Deal:
    return get_object_or_404(Deal, game_set=game_set, sequence=sequence)


def _table_url(event: Event, game_set: GameSet, name: str = "direct_table", **kwargs) -> str:
    table = game_set.table
    return reverse(
        f"scoring:{name}",
        kwargs={"slug": event.slug, "number": table.round.number, "table": table.number, **kwargs},
    )


ENTRY_MODE_SESSION_KEY = "kalooki:entry-mode:{event}"


def entry_mode(request, event: Event) -> str:
    """How this director types this event's deals: their own choice (kept in the session), else the
    event's (`Event.entry_mode`)."""
    chosen = request.session.get(ENTRY_MODE_SESSION_KEY.format(event=event.pk))
    return chosen if chosen in Event.EntryMode.values else event.entry_mode


def _deal_entry(grid: SetPage, *, sequence: int | None = None, mode: str) -> DealEntry | None:
    """The blank deal form: a correction of the deal played `sequence`-th, or the next deal (None when
    all nine are scored). The dealer R21 expects is filled in; the director may change it."""
    players = [seat.player for seat in grid.players]
    if sequence is None:
        upcoming = grid.upcoming
        if upcoming is None:
            return None
        return DealEntry(
            players=players,
            initial={
                "deal": grid.next_number,
                "dealer": upcoming.dealer,
                "set_version": grid.game_set.version,
            },
            mode=mode,
        )
    row = grid.row_played(sequence)
    by_position = {seat.position: seat.player for seat in grid.players}
    initial = {
        "deal": row.number,
        "out": row.out or "",
        "doubled": row.doubled,
        "void": row.void,
        "dealer": by_position.get(row.deal.dealer, "") if row.deal else "",
        "version": row.version,
        "sequence": sequence,
    }
    results = {cell.player: result_initial(cell.result) for cell in row.cells}
    return DealEntry(players=players, initial=initial, results=results, mode=mode)


def _check_lines(entry: DealEntry | None, preview: DealPreview | None) -> list[dict[str, Any]]:
    """Each player's line of the deal form with what the live check found for it (seat order)."""
    if entry is None:
        return []
    lines = []
    for seat, (name, form) in enumerate(entry.lines, start=1):
        echo = preview.players[seat - 1] if preview else None
        findings = preview.player_findings.get(name, []) if preview else []
        lines.append({"seat": seat, "name": name, "form": form, "echo": echo, "findings": findings})
    return lines


def _table_page(
    request,
    event: Event,
    game_set: GameSet,
    *,
    sequence: int | None = None,
    status: int = 200,
    **forms: Any,
) -> HttpResponse:
    """The entry page of one table; `forms` replaces the blank forms (bound, with their errors)."""
    grid = selectors.set_grid(game_set)
    game_set = grid.game_set
    players = [seat.player for seat in grid.players]
    editing = grid.row_played(sequence) if sequence else None
    upcoming = grid.upcoming
    mode = entry_mode(request, event)
    if "entry" not in forms:
        forms["entry"] = None if game_set.is_verified else _deal_entry(grid, sequence=sequence, mode=mode)
    context: dict[str, Any] = {
        "event": event,
        "grid": grid,
        "round": grid.round,
        "game_set": game_set,
        "editing": editing,
        "current_row": editing or upcoming,
        "sequence": sequence,
        "verify_form": VerifyForm(initial={"version": game_set.version}),
        "reopen_form": ReopenForm(initial={"version": game_set.version}),
        "readd_form": TotalsReaddForm(initial={"version": game_set.version}),
        "total_mismatches": services.total_mismatches(grid.findings),
        "laydown_form": LaydownForm(initial={"deal": grid.next_number or 9}),
        "warnings": [finding for finding in grid.findings if not finding.is_error],
        "entry_mode": mode,
        "entry_modes": Event.EntryMode.choices,
        # Issue 23: the photos of the signed sheet, beside the grid and the verify form.
        "evidence": sheet_evidence(game_set),
    }
    if editing is not None:
        # The rules' answer to "does the written score include the points?" for each player (R17/R18).
        defaults = score_included_defaults(
            deal=_deal(game_set, editing.sequence), names=players, rules=event.ruleset()
        )
        context["ruling_form"] = RulingIssueForm(
            players=players, defaults=defaults, initial={"version": editing.version}
        )
        context["delete_form"] = DeleteDealForm(initial={"version": editing.version})
    context.update(forms)
    context["lines"] = _check_lines(context["entry"], None)
    return render(request, "direct/table.html", context, status=status)


def table_page(request, event: Event, game_set: GameSet, *, status: int = 200, **forms: Any) -> HttpResponse:
    """A table's entry page for other modules' views (the self-entry queue's correction)."""
    return _table_page(request, event, game_set, status=status, **forms)


def _dashboard_page(request, event: Event, *, status: int = 200, **forms: Any) -> HttpResponse:
    rounds = selectors.event_tables_status(event)
    entries = list(Entry.objects.filter(event=event).select_related("player").order_by("player__name"))
    context: dict[str, Any] = {
        "event": event,
        "rounds": rounds,
        "worklist": selectors.director_worklist(rounds),
        "entries": entries,
        # Offered until a deal is recorded in the round (the service refuses a new draw after that).
        "seat_forms": {
            row.number: RoundSeatForm() for row in rounds if not any(t.scored for t in row.tables)
        },
        "entry_form": EntryAddForm(),
        "organiser": is_organiser(request.user),
        "next_round_number": max((row.number for row in rounds), default=0) + 1,
        # Rounds whose packs the worker makes (`scoring.background`), and the latest jobs' progress.
        "background_rounds": {
            row.number
            for row in rounds
            if background.in_background(BackgroundJob.Kind.ROUND_PACK, len(row.tables))
        },
        "background_standings": background.in_background(BackgroundJob.Kind.STANDINGS_PDF, len(entries)),
        "jobs": jobs_read.recent_jobs(event),
        "self_entry_queue": director_queue(event),
    }
    seat_form = forms.pop("seat_form", None)
    if seat_form is not None:
        context["seat_forms"][forms.pop("seat_round")] = seat_form
    # A shared cache that stopped answering costs speed, not service: the desk is told (page_cache).
    context["cache"] = page_cache.cache_health()
    context.update(forms)
    return render(request, "direct/dashboard.html", context, status=status)


# --- the event ----------------------------------------------------------------------------------


@director_required
@require_http_methods(["GET", "HEAD"])
def dashboard(request, event: Event):
    """Rounds, tables with their status and open findings, entries; seat rounds and add late entries."""
    return _dashboard_page(request, event)


@director_required
@require_POST
def round_create(request, event: Event):
    """Add the round the page offered (its number posted): a second click is refused with a message."""
    form = RoundCreateForm(request.POST)
    number = form.cleaned_data["number"] if form.is_valid() else None
    try:
        rnd = services.round_create(event=event, user=request.user, number=number)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"Round {rnd.number} added: seat it to draw its tables.")
    return redirect("scoring:direct", slug=event.slug)


@director_required
@require_POST
def round_seat(request, event: Event, number: int):
    rnd = get_object_or_404(Round, event=event, number=number)
    form = RoundSeatForm(request.POST)

    def call(data):
        try:
            return services.round_seat(
                round=rnd,
                user=request.user,
                seed=data["seed"],
                method=data["method"] or None,
                keep_clubs_apart=data["keep_clubs_apart"],
                confirm_open=data["confirm_open"],
            )
        except services.OpenRoundsNotConfirmed:
            # The message names the open tables; the box to confirm them appears beside it.
            form.ask_confirmation()
            raise

    return post_form(
        request,
        form,
        call=call,
        done=lambda seated: (
            f"Round {seated.number} seated ({seated.get_method_display()}, seed {seated.seed})."
            + (f" {seated.seating_note}." if getattr(seated, "seating_note", "") else "")
            + (f" {seated.seating_split}." if getattr(seated, "seating_split", "") else "")
            + (f" {seated.release_words}" if getattr(seated, "release_words", "") else "")
            + (
                f" Not checked in, left out: {', '.join(seated.left_out)}."
                if getattr(seated, "left_out", None)
                else ""
            )
        ),
        then=reverse("scoring:direct", kwargs={"slug": event.slug}),
        page=lambda status: _dashboard_page(
            request, event, status=status, seat_form=form, seat_round=rnd.number
        ),
    )


@director_required
@require_POST
def entry_add(request, event: Event):
    form = EntryAddForm(request.POST)
    return post_form(
        request,
        form,
        call=lambda data: services.entry_add(event=event, user=request.user, **data),
        done=lambda entry: f"{entry.player.name} entered from round {entry.first_round}.",
        then=reverse("scoring:direct", kwargs={"slug": event.slug}),
        page=lambda status: _dashboard_page(request, event, status=status, entry_form=form),
    )


def _entry_status(request, event: Event, entry_id: int, *, service, done: str):
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    form = WithdrawForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        service(entry=entry, user=request.user, reason=reason)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{entry.player.name} {done}.")
    return redirect("scoring:direct", slug=event.slug)


@director_required
@require_POST
def entry_withdraw(request, event: Event, entry_id: int):
    return _entry_status(
        request, event, entry_id, service=services.entry_withdraw, done="withdrawn from later rounds"
    )


@director_required
@require_POST
def entry_reinstate(request, event: Event, entry_id: int):
    return _entry_status(
        request, event, entry_id, service=services.entry_reinstate, done="reinstated from the next seating"
    )


@director_required
@GET_POST
def players_import(request, event: Event):
    """Player CSV import: all or nothing; the page reports who was entered or every rejected row. A big
    file (`scoring.background`) is imported by the worker: the page shows its progress, then its report."""
    form = PlayersImportForm(*posted(request))
    report = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            text = form.cleaned_data["csv"]
            rows = background.csv_row_count(text)
            if background.in_background(BackgroundJob.Kind.PLAYERS_IMPORT, rows):
                try:
                    job = background.start(
                        event=event,
                        user=request.user,
                        kind=BackgroundJob.Kind.PLAYERS_IMPORT,
                        params={"rows": rows},
                        source=text,
                    )
                except ValidationError as exc:
                    # A file the worker could not store (a control character in a name): said on the form.
                    add_service_errors(form, exc)
                else:
                    messages.info(request, f"{rows} rows: imported in the background; its progress is below.")
                    page = reverse("scoring:direct_players_import", kwargs={"slug": event.slug})
                    return redirect(f"{page}?job={job.pk}")
            else:
                report = services.players_import_csv(event=event, user=request.user, data=text)
        status = 200 if report is not None and report.ok else 400
    job_id = number_param(request.GET, "job")
    job = jobs_read.event_job(event, job_id) if job_id is not None else None
    return render(
        request,
        "direct/players_import.html",
        {"event": event, "form": form, "report": report, "jobs": [job] if job else []},
        status=status,
    )


# --- a table ------------------------------------------------------------------------------------


def _save_deal(request, event: Event, game_set: GameSet, *, sequence: int | None) -> HttpResponse:
    deal = _deal(game_set, sequence) if sequence else None
    entry = DealEntry(
        request.POST,
        players=seat_names(game_set),
        correcting=deal is not None,
        mode=entry_mode(request, event),
    )
    if not entry.is_valid():
        return _table_page(request, event, game_set, sequence=sequence, status=400, entry=entry)
    outcome = record_posted(
        request,
        game_set=game_set,
        entry=entry,
        data=entry.as_deal_data(),
        deal=deal,
        redraw=lambda status: _table_page(
            request, event, game_set, sequence=sequence, status=status, entry=entry
        ),
    )
    if isinstance(outcome, HttpResponse):
        return outcome
    if _is_htmx(request):
        # One round trip a deal: the next deal's page comes back with the message, not a redirect to it.
        page = _table_page(request, event, game_set)
        if sequence:
            page["HX-Push-Url"] = _table_url(event, game_set)
        return page
    return redirect(_table_url(event, game_set))


@director_required
@require_POST
def entry_mode_choose(request, event: Event):
    """This director's entry mode for this event (fast or totals), or back to the event's own."""
    chosen = request.POST.get("mode", "")
    key = ENTRY_MODE_SESSION_KEY.format(event=event.pk)
    if chosen in Event.EntryMode.values:
        request.session[key] = chosen
        messages.success(request, f"Entry mode: {Event.EntryMode(chosen).label}.")
    else:
        request.session.pop(key, None)
        messages.success(request, f"Entry mode: the event's own ({event.get_entry_mode_display()}).")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("scoring:direct", kwargs={"slug": event.slug})
    return redirect(back)


@director_required
@GET_POST
def table(request, event: Event, number: int, table: int):
    """A table's page with the form for its next deal or hand (POST saves it): a set's nine-deal grid,
    or a game of hands' page (`british_game`)."""
    game_set = game_set_or_404(event, number, table)
    if request.method == "POST":
        return _save(request, event, game_set, sequence=None)
    return page_of_table(request, event, game_set)


@director_required
@GET_POST
def deal(request, event: Event, number: int, table: int, sequence: int):
    """Correct the deal played `sequence`-th (POST saves it); rulings on it are issued from here."""
    game_set = game_set_or_404(event, number, table)
    _deal(game_set, sequence)
    if request.method == "POST":
        return _save(request, event, game_set, sequence=sequence)
    return page_of_table(request, event, game_set, sequence=sequence)


def page_of_table(
    request, event: Event, game_set: GameSet, *, sequence: int | None = None, status: int = 200, **forms: Any
) -> HttpResponse:
    """The one door to a table's page for every game: a set's grid, or a game of hands' page; `forms`
    replace the blank forms (a refused form with its errors)."""
    if event.game.of_hands:
        return british_game.table_page(request, event, game_set, sequence=sequence, status=status, **forms)
    return _table_page(request, event, game_set, sequence=sequence, status=status, **forms)


def _save(request, event: Event, game_set: GameSet, *, sequence: int | None) -> HttpResponse:
    if event.game.of_hands:
        return british_game.save_hand(request, event, game_set, sequence=sequence)
    return _save_deal(request, event, game_set, sequence=sequence)


def _not_offered(request, event: Event, game_set: GameSet, what: str) -> HttpResponse:
    """What the event's game does not offer: said on the table's page (404 to a script)."""
    text = f"{event.game.title} has no {what}."
    if _is_htmx(request):
        return HttpResponse(text, status=404, content_type="text/plain; charset=utf-8")
    messages.error(request, text)
    return redirect(_table_url(event, game_set))


@director_required
@require_POST
def validate(request, event: Event, number: int, table: int):
    """The live check (htmx): the set's findings with the typed deal in place. Writes nothing."""
    game_set = game_set_or_404(event, number, table)
    if not event.game.live_check:
        return _not_offered(request, event, game_set, "live check of a hand being typed")
    # A correction's page posts the deal's place and version, not the set's version (which a new
    # deal must carry): read it as a correction, or its check says the page is out of date.
    correcting = bool(request.POST.get("sequence"))
    entry = DealEntry(request.POST, players=seat_names(game_set), correcting=correcting)
    preview = None
    if entry.is_valid():
        try:
            preview = selectors.deal_preview(game_set, data=entry.as_deal_data(), sequence=entry.sequence)
            preview = preview.typed_only(entry.untyped_players())
        except ValidationError as exc:
            entry.add_service_error(exc)
    context = {"entry": entry, "preview": preview, "lines": _check_lines(entry, preview), "oob": True}
    return render(request, "parts/_check.html", context)


def _table_form(
    request,
    event: Event,
    game_set: GameSet,
    form: Form,
    *,
    name: str,
    call,
    done,
    sequence: int | None = None,
    then: str | None = None,
) -> HttpResponse:
    """A small form on the table page: `call(cleaned_data)` is its one service call; `done(result)` the
    message on success (then a redirect); a refusal re-renders the page with the form as `name`."""
    return post_form(
        request,
        form,
        call=call,
        done=done,
        then=then or _table_url(event, game_set),
        page=lambda status: page_of_table(
            request, event, game_set, sequence=sequence, status=status, **{name: form}
        ),
    )


@director_required
@require_POST
def deal_delete(request, event: Event, number: int, table: int, sequence: int):
    game_set = game_set_or_404(event, number, table)
    deal = _deal(game_set, sequence)
    return _table_form(
        request,
        event,
        game_set,
        DeleteDealForm(request.POST, game=event.game),
        name="delete_form",
        sequence=sequence,
        call=lambda data: services.deal_delete(
            deal=deal, user=request.user, expected_version=data["version"], reason=data["reason"]
        ),
        done=lambda deletion: deletion.describe(),
    )


@director_required
@require_POST
def ruling(request, event: Event, number: int, table: int, sequence: int):
    """Issue a ruling on a player in a recorded deal (adjudication's one ruling handler); a refusal
    shows this deal's page again with the form's errors."""
    game_set = game_set_or_404(event, number, table)
    deal = _deal(game_set, sequence)
    if not event.game.rulings:
        return _not_offered(request, event, game_set, "rulings on a hand: correct the hand instead")
    names = seat_names(game_set)
    defaults = score_included_defaults(deal=deal, names=names, rules=event.ruleset())
    form = RulingIssueForm(request.POST, players=names, defaults=defaults)
    return ruling_issue_post(
        request,
        event=event,
        deal=deal,
        form=form,
        then=_table_url(event, game_set, "direct_deal", sequence=sequence),
        page=lambda status: _table_page(
            request, event, game_set, sequence=sequence, status=status, ruling_form=form
        ),
    )


@director_required
@require_POST
def verify(request, event: Event, number: int, table: int):
    """Verify a set or a game (both URLs come here): refused, without a written reason, while what the
    game needs is missing (a set's nine deals; a game still running must be ended) or over errors."""
    game_set = game_set_or_404(event, number, table)
    game = event.game

    def done(verified: GameSet) -> str:
        if game.of_hands:
            ended = " and ended by the director" if verified.override_reason else ""
            return f"Game verified{ended}: its finishing order now counts in the official standings."
        overridden = " over its findings (override recorded)" if verified.override_reason else ""
        return f"Set verified{overridden}: it now counts in the official standings."

    return _table_form(
        request,
        event,
        game_set,
        VerifyForm(request.POST, game=game),
        name="verify_form",
        call=lambda data: services.set_verify(
            game_set=game_set,
            user=request.user,
            expected_version=data["version"],
            override_reason=data["override_reason"],
            acknowledge_warnings=data["acknowledge"],
        ),
        done=done,
    )


@director_required
@require_POST
def reopen(request, event: Event, number: int, table: int):
    """Reopen a verified set for correction; the service needs a reason."""
    game_set = game_set_or_404(event, number, table)
    return _table_form(
        request,
        event,
        game_set,
        ReopenForm(request.POST, game=event.game),
        name="reopen_form",
        call=lambda data: services.set_reopen(
            game_set=game_set, user=request.user, reason=data["reason"], expected_version=data["version"]
        ),
        done=lambda reopened: reopened_words(event, reopened),
    )


def reopened_words(event: Event, reopened: GameSet) -> str:
    """What reopening did to the standings: a closed round's set keeps counting as it stands; an open
    round's set leaves that round's verified results until it is verified again."""
    unit = event.game.unit
    rnd = reopened.table.round
    done = f"{unit.capitalize()} of table {reopened.table.number} reopened for correction (reason recorded)"
    if rnd.is_closed:
        return (
            f"{done}: round {rnd.number} is closed, so the {unit} keeps counting as it stands in every "
            "view, marked “being corrected”, until it is verified again."
        )
    return (
        f"{done}: it leaves the verified results of round {rnd.number} until it is verified again; the "
        "provisional standings still count its deals."
    )


@director_required
@require_POST
def totals_readd(request, event: Event, number: int, table: int):
    """Re-add the written totals that differ from the sums of the scores (confirmed, audited)."""
    game_set = game_set_or_404(event, number, table)

    def done(changed: dict) -> str:
        count = sum(len(lines) for lines in changed.values())
        deals = ", ".join(str(number) for number in changed)
        word = event.game.deal_word
        return (
            f"{count} written total{'s' if count != 1 else ''} re-added from the scores "
            f"({word}{'s' if len(changed) != 1 else ''} {deals}; recorded in the history)."
        )

    return _table_form(
        request,
        event,
        game_set,
        TotalsReaddForm(request.POST),
        name="readd_form",
        call=lambda data: services.set_totals_readd(
            game_set=game_set, user=request.user, confirm=data["confirm"], expected_version=data["version"]
        ),
        done=done,
    )


@director_required
@require_POST
def laydown(request, event: Event, number: int, table: int):
    """Check a disputed lay-down against a deal's contract (R4–R8, R10): the engine's verdict."""
    game_set = game_set_or_404(event, number, table)
    if not event.game.contracts:
        return _not_offered(request, event, game_set, "contracts to check a lay-down against")
    form = LaydownForm(request.POST)
    verdict = None
    if form.is_valid():
        try:
            melds = parse_laydown(form.cleaned_data["melds"])
        except InvalidLaydown as exc:
            form.add_error("melds", str(exc))
        else:
            verdict = check_laydown(melds, deal=form.cleaned_data["deal"], rules=event.ruleset()).as_dict()
    if _is_htmx(request):
        return render(request, "direct/_laydown.html", {"laydown_form": form, "verdict": verdict})
    return page_of_table(
        request,
        event,
        game_set,
        status=200 if form.is_valid() else 400,
        laydown_form=form,
        verdict=verdict,
    )


@director_required
@GET_POST
def sheet_import(request, event: Event, number: int, table: int):
    """Replace the table's deals with a `kalooki-sheet/1` JSON sheet, all or nothing."""
    game_set = game_set_or_404(event, number, table)
    form = SheetImportForm(*posted(request), initial={"version": game_set.version})

    def page(status: int = 200) -> HttpResponse:
        return render(
            request,
            "direct/sheet_import.html",
            {"event": event, "game_set": game_set, "round": game_set.table.round, "form": form},
            status=status,
        )

    if request.method != "POST":
        return page()
    return post_form(
        request,
        form,
        call=lambda data: services.sheet_import(
            game_set=game_set,
            user=request.user,
            data=data["sheet"],
            expected_version=data["version"],
            reason=data["reason"],
        ),
        done=lambda _findings: "Sheet imported: check its findings below.",
        then=_table_url(event, game_set),
        page=page,
    )


@director_required
@GET_POST
def substitute(request, event: Event, number: int, table: int, position: int):
    """Record (or clear) a substitute who plays a seat from a given deal on."""
    game_set = game_set_or_404(event, number, table)
    seat = get_object_or_404(
        Seat.objects.select_related("entry__player", "substitute__player"),
        table=game_set.table,
        position=position,
    )
    # Anyone entered and not playing this round; the service refuses the rest with its reason.
    candidates = [
        (entry.pk, entry.player.name)
        for entry in Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
        .exclude(seats__round=seat.round_id)
        .select_related("player")
        .order_by("player__name")
    ]
    initial = {
        "substitute": seat.substitute_id,
        "from_deal": seat.substitute_from,
        "version": game_set.version,
    }
    form = SubstituteForm(
        *posted(request)[:1], candidates=candidates, initial=initial, deals=event.ruleset().max_deal_number
    )

    def page(status: int = 200) -> HttpResponse:
        return render(
            request,
            "direct/substitute.html",
            {"event": event, "game_set": game_set, "round": game_set.table.round, "seat": seat, "form": form},
            status=status,
        )

    def call(data) -> Entry | None:
        chosen = (
            Entry.objects.filter(pk=data["substitute"], event=event).first() if data["substitute"] else None
        )
        services.seat_substitute(
            seat=seat,
            user=request.user,
            substitute=chosen,
            from_deal=data["from_deal"],
            reason=data["reason"],
            expected_version=data["version"],
        )
        return chosen

    if request.method != "POST":
        return page()
    return post_form(
        request,
        form,
        call=call,
        done=lambda chosen: (
            f"{chosen} plays seat {position} from deal {form.cleaned_data['from_deal']}."
            if chosen
            else "Substitute cleared."
        ),
        then=_table_url(event, game_set),
        page=page,
    )
