"""A set's rows as a `kalooki-sheet/1` sheet, and the engine's findings for it (reads only).

The one bridge between the database and the engine's sheet format: validation, the set page, exports,
archives and PDFs all read a set through `sheet_for_set` / `sheet_from_rows`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from adjudication.engine.dealing import playing_position
from adjudication.engine.findings import Finding
from adjudication.engine.sheet import FORMAT as SHEET_FORMAT
from adjudication.engine.validator import validate_data

from .games import Game, game_of
from .models import Deal, DealResult, Entry, GameSet, Seat

# Every player by their own name (a page for directors, a service's sheet).
NO_NAMES: Mapping[int, str] = {}


def seats_of(game_set: GameSet) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=game_set.table_id)
        .select_related("entry__player", "substitute__player")
        .order_by("position")
    )


def recorded_deals(game_set_ids) -> list[Deal]:
    """The scored (not void) deals of the sets `game_set_ids`, results prefetched. Two queries."""
    results = DealResult.objects.select_related("entry__player").order_by("deal_id", "entry__player__name")
    return list(
        Deal.objects.filter(game_set_id__in=game_set_ids, void=False)
        .select_related("out__player")
        .prefetch_related(Prefetch("results", queryset=results))
    )


def deals_of(game_set: GameSet, seats: Sequence[Seat] | None = None) -> list[Deal]:
    """The set's deals in playing order, each with its results (by player name) and every result's and
    winner's entry and player loaded. With the table's `seats` (`seats_of`, their entries and players
    loaded), the entries are taken from them instead of being joined into the read again; an entry not
    seated there costs one more query."""
    # A deal's results in the order DealResult's Meta gives them within one deal (by player name):
    # ordering by "deal" as the Meta does would follow Deal's, GameSet's and Event's orderings, joining
    # four more tables to the query for an order that is the same within one set.
    by_name = ("deal_id", "entry__player__name")
    if seats is None:
        results = DealResult.objects.select_related("entry__player").order_by(*by_name)
        return list(
            Deal.objects.filter(game_set=game_set)
            .select_related("out__player")
            .prefetch_related(Prefetch("results", queryset=results))
            .order_by("sequence")
        )
    results = DealResult.objects.order_by(*by_name)
    deals = list(
        Deal.objects.filter(game_set=game_set)
        .prefetch_related(Prefetch("results", queryset=results))
        .order_by("sequence")
    )
    entries = {seat.entry_id: seat.entry for seat in seats}
    entries.update({seat.substitute_id: seat.substitute for seat in seats if seat.substitute_id is not None})
    wanted = {result.entry_id for deal in deals for result in deal.results.all()}
    wanted |= {deal.out_id for deal in deals if deal.out_id is not None}
    if not wanted <= entries.keys():
        entries.update(Entry.objects.select_related("player").in_bulk(wanted - entries.keys()))
    for deal in deals:
        if deal.out_id is not None:
            deal.out = entries[deal.out_id]
        for result in deal.results.all():
            result.entry = entries[result.entry_id]
    return deals


def with_results(deal: Deal, results: Sequence[DealResult]) -> Deal:
    """`deal` with `results` as its prefetched results, as `deals_of` leaves it, without a query: for a
    deal just written, whose rows are exactly these (each with its entry and player loaded)."""
    rows = DealResult.objects.filter(deal=deal)
    rows._result_cache = list(results)
    rows._prefetch_done = True
    cache = getattr(deal, "_prefetched_objects_cache", {})
    deal._prefetched_objects_cache = {**cache, "results": rows}
    return deal


def deal_as_data(
    deal: Deal, names_by_position: Mapping[int, str], game: Game, shown: Mapping[int, str] = NO_NAMES
) -> dict[str, Any]:
    """One deal in the `deals[]` shape of `kalooki-sheet/1` (results keyed by player name), with the
    fields `game` writes (a set's deal: calls and `doubled`; a game's hand: `kalookie`, buy-ins).
    `shown`: {entry id: the name a public page shows instead} (see `sheet_from_rows`)."""
    data: dict[str, Any] = {"deal": deal.number}
    if deal.dealer is not None and deal.dealer in names_by_position:
        data["dealer"] = names_by_position[deal.dealer]
    if deal.void:
        data["void"] = True
    data["out"] = shown.get(deal.out_id, deal.out.player.name) if deal.out_id else None
    marked = getattr(deal, game.mark) if game.mark else False
    if game.mark:
        data[game.mark] = marked
    lines = {shown.get(result.entry_id, result.entry.player.name): result for result in deal.results.all()}
    data["results"] = {name: game.line_data(lines[name]) for name in sorted(lines)}
    if deal.void and not data["results"] and data["out"] is None and not marked:
        data = {key: value for key, value in data.items() if key in ("deal", "dealer", "void")}
    return data


def sheet_for_set(game_set: GameSet) -> dict[str, Any]:
    """The set as a `kalooki-sheet/1` dict (validation, export, PDFs). Three queries.

    Players are the seated players in clockwise order; a mid-set substitute is listed under the
    added key `substitutes` ([{"seat": name, "player": name, "from_deal": k}]).
    """
    seats = seats_of(game_set)
    return sheet_from_rows(game_set, seats, deals_of(game_set, seats))


def sheet_from_rows(
    game_set: GameSet, seats: Sequence[Seat], deals: Sequence[Deal], shown: Mapping[int, str] = NO_NAMES
) -> dict[str, Any]:
    """`sheet_for_set` from seats and deals already read (results prefetched): no query.

    `shown`: {entry id: name} for the players a public page shows by another name ("Player 7", issue
    26): the sheet names them so, and the engine's findings, dealers and finishing order follow."""
    table = game_set.table
    event = table.round.event
    names = {seat.position: shown.get(seat.entry_id, seat.entry.player.name) for seat in seats}
    sheet: dict[str, Any] = {"format": SHEET_FORMAT, "ruleset": event.ruleset_preset}
    if event.rules_overrides:
        sheet["rules"] = event.rules_overrides
    sheet["players"] = [names[position] for position in sorted(names)]
    if table.first_dealer in names:
        sheet["first_dealer"] = names[table.first_dealer]
    substitutes = [
        {
            "seat": names[seat.position],
            "player": shown.get(seat.substitute_id, seat.substitute.player.name),
            "from_deal": seat.substitute_from,
        }
        for seat in seats
        if seat.substitute_id
    ]
    if substitutes:
        sheet["substitutes"] = substitutes
    game = game_of(event)
    sheet["deals"] = [deal_as_data(deal, names, game, shown) for deal in deals]
    # What the app computes (a buy-in's reset value) is not stored: it follows the hands as they stand.
    return game.with_computed(sheet)


def findings_for_set(game_set: GameSet, *, sheet: Mapping[str, Any] | None = None) -> list[Finding]:
    """The engine validator's findings (adjudication.engine.findings.Finding) for the set."""
    return validate_data(dict(sheet) if sheet is not None else sheet_for_set(game_set))


@dataclass(frozen=True)
class PlacedDeal:
    """A deal or hand as its game reads it: `typed`, as the form or phone gave it, and `record`, as it is
    stored (prepared by the game: a buy-in checked against the hands before it); the number it took
    when none was given, and its place in playing order among the set's other deals."""

    typed: Any
    record: Any
    default_number: int | None
    index: int


def deal_in_place(
    *,
    game_set: GameSet,
    seats: Sequence[Seat],
    others: Sequence[Deal],
    data: Any,
    current_number: int | None = None,
    due_check: bool = True,
) -> PlacedDeal:
    """`data` (one deal as `deal_record` takes it) read as the set's game reads it, among `others` (the
    set's other deals, results prefetched): numbered (`current_number` for a correction, else the number
    due), its number checked, then prepared from the deals before it (B7: a buy-in the rules give a reset
    for). The one
    reading of a deal that `deal_record`, a phone's entry and its preview share; `due_check=False`
    leaves a new deal's number unchecked against the number due (a phone's entry of a deal the desk
    recorded meanwhile is the director's to settle). No query."""
    game = game_of(game_set.table.round.event)
    rules = game_set.table.round.event.ruleset()
    names = [seat.entry.player.name for seat in seats]
    played = [(row.number, row.void) for row in others]
    if current_number is not None:
        default_number = current_number
    else:
        state = game.state(sheet_from_rows(game_set, seats, others)) if game.tracks_state else None
        default_number = game.number_due(played=played, state=state, data=data)
    typed = record = game.read(data, players=names, rules=rules, default_number=default_number)
    new = current_number is None
    game.check_number(record, rules, due=default_number if new and due_check else None)
    if game.tracks_state:
        # A buy-in is checked against the hands before this one (its reset is computed on every read).
        earlier = [row for row in others if row.number < record.deal and not row.void]
        record = game.prepare(
            record, state=game.state(sheet_from_rows(game_set, seats, earlier)), rules=rules
        )
    # A deal's place in playing order follows its number; a void deal goes just before its replay.
    return PlacedDeal(
        typed=typed,
        record=record,
        default_number=default_number,
        index=playing_position(played, record.deal, record.void),
    )


def sheet_with_entered(
    game_set: GameSet, seats: Sequence[Seat], deals: Sequence[Deal], entered: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The set's sheet with deals entered at the table but not recorded yet (`entered`, each as
    `deal_record` takes it, numbered) placed among its recorded `deals` in playing order, the values the
    app computes filled in: the set as it stands once they are (after the set, issue 23). No query."""
    game = game_of(game_set.table.round.event)
    sheet = sheet_from_rows(game_set, seats, deals)
    rows = list(sheet["deals"])
    played = [(row["deal"], bool(row.get("void"))) for row in rows]
    for data in sorted(entered, key=lambda data: (data["deal"], not data.get("void"))):
        index = playing_position(played, data["deal"], bool(data.get("void")))
        rows.insert(index, dict(data))
        played.insert(index, (data["deal"], bool(data.get("void"))))
    sheet["deals"] = rows
    return game.with_computed(sheet)


def deal_in_sheet(
    *, game_set: GameSet, seats: Sequence[Seat], sheet: Mapping[str, Any], data: Any
) -> PlacedDeal:
    """`deal_in_place` for a set as `sheet` holds it (`sheet_with_entered`: deals entered and not recorded
    yet among the recorded ones): `data` numbered (the number due when it names none) and prepared from
    the deals of the sheet before it (B7). Its number is not held to the one due. No query."""
    game = game_of(game_set.table.round.event)
    rules = game_set.table.round.event.ruleset()
    names = [seat.entry.player.name for seat in seats]
    played = [(row["deal"], bool(row.get("void"))) for row in sheet["deals"]]
    state = game.state(sheet) if game.tracks_state else None
    default_number = game.number_due(played=played, state=state, data=data)
    typed = record = game.read(data, players=names, rules=rules, default_number=default_number)
    game.check_number(record, rules, due=None)
    if game.tracks_state:
        earlier = [row for row in sheet["deals"] if row["deal"] < record.deal and not row.get("void")]
        record = game.prepare(record, state=game.state({**sheet, "deals": earlier}), rules=rules)
    others = [(number, void) for number, void in played if void or number != record.deal]
    return PlacedDeal(
        typed=typed,
        record=record,
        default_number=default_number,
        index=playing_position(others, record.deal, record.void),
    )


def findings_in_sheet(game_set: GameSet, sheet: Mapping[str, Any], placed: PlacedDeal) -> list[Finding]:
    """`findings_with_deal` for a set as `sheet` holds it (`sheet_with_entered`): the findings on
    `placed`'s deal were it saved there (a deal of the same number in the sheet left out)."""
    record = placed.record
    rows = [row for row in sheet["deals"] if record.void or row.get("void") or row["deal"] != record.deal]
    rows.insert(placed.index, record.as_dict())
    computed = game_of(game_set.table.round.event).with_computed({**sheet, "deals": rows})
    return [finding for finding in findings_for_set(game_set, sheet=computed) if finding.deal == record.deal]


def sheet_with_deal(
    game_set: GameSet, seats: Sequence[Seat], deals: Sequence[Deal], placed: PlacedDeal
) -> tuple[dict[str, Any], int]:
    """The set's sheet were `placed`'s deal saved among `deals` (a deal of the same number already
    recorded left out, as a correction would replace it), the values the app computes filled in (a
    buy-in's reset, B7), and the deal's index in it. Nothing is written; no query."""
    record = placed.record
    others = [row for row in deals if record.void or row.void or row.number != record.deal]
    sheet = sheet_from_rows(game_set, seats, others)
    index = playing_position([(row.number, row.void) for row in others], record.deal, record.void)
    sheet["deals"].insert(index, record.as_dict())
    return game_of(game_set.table.round.event).with_computed(sheet), index


def findings_with_deal(
    game_set: GameSet, seats: Sequence[Seat], deals: Sequence[Deal], placed: PlacedDeal
) -> list[Finding]:
    """The findings on `placed`'s deal, were it saved among the set's `deals` (`sheet_with_deal`)."""
    sheet, _ = sheet_with_deal(game_set, seats, deals, placed)
    number = placed.record.deal
    return [finding for finding in findings_for_set(game_set, sheet=sheet) if finding.deal == number]
