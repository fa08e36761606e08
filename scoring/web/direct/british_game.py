"""The director's page of a table playing a game of hands (British Kalooki): the game hand by hand and
the next hand's form (the public one is `scoring.web.public.british_game`).

`views.page_of_table` and `views`' saving hand a game of hands' table here (the event's `Game` says
which page); verifying, reopening and deleting are `views`' for every game. Thin as every view: read
through the selector, one service call, the refusal beside the field it names (400) or above the form
(409, someone changed the game first).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from ...games import GameOfHands
from ...models import Deal, Event, GameSet
from ...selectors.british_games import GamePage, british_game_page, game_of_set
from ...selectors.evidence import sheet_evidence
from ...services import total_mismatches
from ..forms import DeleteDealForm, ReopenForm, TotalsReaddForm, VerifyForm
from ..hand_forms import BritishHandEntry, hand_lines, line_prefix, live_reset
from .saving import record_posted


def table_url(event: Event, game_set: GameSet, name: str = "direct_table", **kwargs: Any) -> str:
    table = game_set.table
    return reverse(
        f"scoring:{name}",
        kwargs={"slug": event.slug, "number": table.round.number, "table": table.number, **kwargs},
    )


def _line_initial(page: GamePage, sequence: int) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    row = page.row_played(sequence)
    if row is None:
        return {}, {}
    initial = {
        "deal": row.number,
        "void": row.void,
        "out": row.out or "",
        "kalookie": row.kalookie,
        "dealer": row.dealer or "",
        "version": row.version,
    }
    results = {
        cell.player: {
            "penalty": "" if cell.penalty is None else cell.penalty,
            "hand": cell.hand or "",
            "total": "" if cell.written is None else cell.written,
            "opened": "" if cell.opened is None else ("yes" if cell.opened else "no"),
            "buy_in": cell.buy_in,
            # Only what the director typed: a computed reset follows the hands before it (B7).
            "reset_to": "" if cell.reset_written is None else cell.reset_written,
            # Only what the paper said: a computed take is computed again after a correction.
            "collected": "" if cell.collected_written is None else cell.collected_written,
        }
        for cell in row.cells
        if cell.played
    }
    return initial, results


def _game(page: GamePage) -> GameOfHands:
    """The game the page's table plays (its form and columns follow it)."""
    return game_of_set(page.game_set)


def _entry(page: GamePage, sequence: int | None) -> BritishHandEntry | None:
    players = [seat.player for seat in page.seats]
    most = page.rules.max_deal_number
    if sequence is not None:
        row = page.row_played(sequence)
        initial, results = _line_initial(page, sequence)
        playing = players
        if row is not None:
            # A line for every player still in the game when the hand was dealt, as the game now stands:
            # one put back in by correcting an earlier hand gets a line to fill in.
            gone = {
                cell.player
                for done in page.rows[: page.rows.index(row)]
                for cell in done.cells
                if cell.went_out
            }
            played = {cell.player for cell in row.cells if cell.played}
            playing = [name for name in players if name not in gone or name in played] or players
        return BritishHandEntry(
            players=players,
            playing=playing,
            most=most,
            initial=initial,
            results=results,
            correcting=True,
            game=_game(page),
        )
    state = page.state
    if page.game_set.is_verified or state.over or state.next_hand is None:
        return None
    return BritishHandEntry(
        players=players,
        playing=state.still_in,
        most=most,
        game=_game(page),
        initial={
            "deal": state.next_hand,
            "dealer": state.next_dealer or "",
            "set_version": page.game_set.version,
        },
    )


def table_page(
    request, event: Event, game_set: GameSet, *, sequence: int | None = None, status: int = 200, **forms: Any
) -> HttpResponse:
    """The entry page of one British table; `forms` replaces the blank forms (bound, with their errors)."""
    page = british_game_page(game_set)
    game_set = page.game_set
    if "entry" not in forms:
        forms["entry"] = None if game_set.is_verified else _entry(page, sequence)
    context: dict[str, Any] = {
        "event": event,
        "page": page,
        "game_set": game_set,
        "sequence": sequence,
        "editing": page.row_played(sequence) if sequence else None,
        "verify_form": VerifyForm(initial={"version": game_set.version}, game=event.game),
        "reopen_form": ReopenForm(initial={"version": game_set.version}, game=event.game),
        "readd_form": TotalsReaddForm(initial={"version": game_set.version}),
        "total_mismatches": total_mismatches(page.findings),
        "warnings": [finding for finding in page.findings if not finding.is_error],
        # Issue 23: the photos of the signed sheet, beside the grid and the verify form.
        "evidence": sheet_evidence(game_set),
    }
    editing = context["editing"]
    if editing is not None and not game_set.is_verified and "delete_form" not in forms:
        context["delete_form"] = DeleteDealForm(initial={"version": editing.version}, game=event.game)
    context.update(forms)
    context["lines"] = hand_lines(page, context["entry"], sequence)
    context["live_reset"] = live_reset(page)
    return render(request, "direct/british_table.html", context, status=status)


def save_hand(request, event: Event, game_set: GameSet, *, sequence: int | None) -> HttpResponse:
    """POST of the hand form: the next hand, or a correction of the hand played `sequence`-th."""
    deal = get_object_or_404(Deal, game_set=game_set, sequence=sequence) if sequence else None
    page = british_game_page(game_set)
    players = [seat.player for seat in page.seats]
    playing = [
        name for seat, name in enumerate(players, start=1) if f"{line_prefix(seat)}-penalty" in request.POST
    ]
    entry = BritishHandEntry(
        request.POST,
        players=players,
        playing=playing,
        most=page.rules.max_deal_number,
        correcting=deal is not None,
        game=_game(page),
    )
    if not entry.is_valid():
        return table_page(request, event, game_set, sequence=sequence, status=400, entry=entry)
    outcome = record_posted(
        request,
        game_set=game_set,
        entry=entry,
        data=entry.as_hand_data(),
        deal=deal,
        redraw=lambda status: table_page(
            request, event, game_set, sequence=sequence, status=status, entry=entry
        ),
    )
    if isinstance(outcome, HttpResponse):
        return outcome
    return redirect(table_url(event, game_set))
