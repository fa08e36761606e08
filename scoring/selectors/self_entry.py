"""Reads for self-entry at the tables (issue 13): the key a token opens, a table's phone page (a set of
deals, or a game of hands), the director's queue and the tables' codes. A fixed number of queries
whatever the event size."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Count, Max, Sum
from django.urls import reverse

from ..games import game_of
from ..models import Event, GameSet, Seat, SelfEntryDeal, Table, TableKey
from ..self_entry_codes import (
    secret_matches,
    short_code_for,
    short_code_matches,
    shown_short_code,
    split_token,
    token_for,
)
from ..sheets import (
    deal_as_data,
    deal_in_place,
    deals_of,
    recorded_deals,
    seats_of,
    sheet_with_deal,
    sheet_with_entered,
)
from .british_games import GamePage, game_page_from_rows
from .set_page import SetPage, set_grid


def key_for_token(token: str) -> TableKey | None:
    """The key a token opens (current or retired), or None: a token of the wrong shape, an unknown
    selector or a wrong secret (compared in constant time). One query."""
    parts = split_token(token)
    if parts is None:
        return None
    selector, secret = parts
    key = TableKey.objects.select_related("table__round__event").filter(selector=selector).first()
    if key is None or not secret_matches(key.secret_hash, secret):
        return None
    return key


def key_for_short_code(event: Event, table_number: int, code: str) -> TableKey | None:
    """The current key of table `table_number` of `event` (its latest round first) whose short code is
    `code`, or None. One query."""
    keys = (
        TableKey.objects.select_related("table__round__event")
        .filter(table__round__event=event, table__number=table_number, retired_at__isnull=True)
        .order_by("-table__round__number")
    )
    for key in keys:
        if short_code_matches(key.selector, code):
            return key
    return None


OPEN = (SelfEntryDeal.Status.WAITING, SelfEntryDeal.Status.QUEUED)


def table_stamp(key: TableKey) -> str:
    """What a table's phone page shows changes with this: the set's version and status, the table's
    entries and their versions, self-entry's mode and the key's state. The page's ETag, so a phone asks
    again with a conditional request and gets a 304 while nothing changed. Two queries."""
    game_set = GameSet.objects.filter(table_id=key.table_id).values_list("version", "status").first()
    entries = SelfEntryDeal.objects.filter(game_set__table_id=key.table_id).aggregate(
        count=Count("pk"), versions=Sum("version"), last=Max("pk")
    )
    event = key.table.round.event
    parts = [*(game_set or ()), *entries.values(), event.self_entry, key.retired_at is not None]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


def entered_set_stamp(entries) -> str:
    """The entries of a set waiting for confirmation after the set (each with `pk` and `version`), as the
    confirming page showed them: confirming checks they have not changed since."""
    return ",".join(f"{entry.pk}:{entry.version}" for entry in sorted(entries, key=lambda entry: entry.pk))


def phone_path(key: TableKey) -> str:
    return reverse("scoring:self_entry_phone", kwargs={"token": token_for(key.selector)})


@dataclass(frozen=True)
class PhoneEntry:
    """A deal or hand the table entered, as the phone shows it (a buy-in with the total it resets to,
    computed as it would be recorded; its error findings as the entering phone was shown them)."""

    pk: int
    number: int
    status: str
    status_text: str
    entered_seat: int
    entered_by: str
    confirmed_seat: int | None
    confirmed_by: str
    objection: str
    queue_reason: str
    version: int
    lines: list[dict[str, Any]]
    out: str
    doubled: bool
    void: bool
    kalookie: bool = False
    findings: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class PhoneSeat:
    position: int
    player: str
    first_dealer: bool


@dataclass(frozen=True)
class EnteredDue:
    """After the set (issue 23), the deal or hand due once those entered and not confirmed yet are: its
    number, dealer and (a set's deal) contract; (a game's hand) the players still in and each one's
    total and buy-ins left before it."""

    number: int
    dealer: str | None
    contract_text: str = ""
    deal_size: int | None = None
    playing: tuple[str, ...] = ()
    before: dict[str, tuple[int, int]] | None = None


@dataclass(frozen=True)
class PhonePage:
    """A table's phone page: a set of deals (`grid`, the set page's) or a game of hands (`hands`, the
    game page's), never both; what every game shares is said here."""

    key: TableKey
    game: Any
    event: Event
    round_number: int
    table_number: int
    game_set: GameSet
    seats: list[PhoneSeat]
    grid: SetPage | None
    hands: GamePage | None
    accepting: bool
    closed_because: str
    waiting: list[PhoneEntry]
    settled: list[PhoneEntry]
    # After the set (issue 23): one device enters the whole sheet, two seat codes confirm it; with
    # entries waiting, the deal due follows them (`due`, None once the sheet is all entered).
    after: bool = False
    entered_ahead: bool = False
    due: EnteredDue | None = None

    @property
    def waiting_stamp(self) -> str:
        return entered_set_stamp(self.waiting)

    @property
    def due_row(self) -> Any:
        """A set's deal due as its grid shows it (number, dealer, contract, cards): after the set, the
        one due once those entered are (`due`); None for a game of hands."""
        if self.entered_ahead:
            return self.due
        return self.grid.upcoming if self.grid is not None else None

    @property
    def next_dealer(self) -> str | None:
        return self._due_now[1]

    @property
    def _due_now(self) -> tuple[int | None, str | None]:
        """The number and dealer of the deal or hand due (after the set: once those entered are)."""
        if self.entered_ahead:
            return (self.due.number, self.due.dealer) if self.due else (None, None)
        if self.hands is not None:
            return self.hands.state.next_hand, self.hands.state.next_dealer
        if self.grid is None:
            return None, None
        return self.grid.next_number, self.grid.upcoming.dealer if self.grid.upcoming else None

    @property
    def takes_photo(self) -> bool:
        """Whether a phone may send a photo of the signed sheet (issue 23): while the key is current,
        self-entry on and the set not verified — the last deal recorded included."""
        return (
            self.key.retired_at is None
            and not self.game_set.is_verified
            and self.event.self_entry != Event.SelfEntry.OFF
        )

    @property
    def entered(self) -> list[tuple[PhoneEntry, bool]]:
        """After the set: the entries waiting, in number order, each with whether the page offers to
        withdraw it — any deal of a set, a game's hand only as the last entered (the hands after it
        were worked out from it; `self_entry_withdraw` refuses the others)."""
        ordered = sorted(self.waiting, key=lambda item: item.number)
        return [
            (item, self.accepting and (self.hands is None or index == len(ordered) - 1))
            for index, item in enumerate(ordered)
        ]

    @property
    def held(self) -> PhoneEntry | None:
        """The entry of the deal due that waits (for confirmation or the director): while it does, the
        page offers no form for that deal (a second entry would only be a conflict)."""
        entries = [*self.waiting, *self.settled]
        number = self.next_number
        return next((item for item in entries if item.number == number and item.status in OPEN), None)

    @property
    def status(self) -> str:
        """What the table's page says of its state, in the status region beside the controls."""
        word = self.game.deal_word
        if not self.accepting:
            return self.closed_because
        if self.after and self.waiting:
            numbers = ", ".join(str(item.number) for item, _ in self.entered)
            more = f"Type {word} {self.due.number} next; when" if self.due else "When"
            return (
                f"{word.capitalize()}s entered: {numbers}. {more} the whole {self.game.unit} is in, two "
                "players confirm it below, each with the code on their own seat slip."
            )
        if self.waiting:
            item = self.waiting[0]
            return (
                f"{word.capitalize()} {item.number} sent: waiting for confirmation by another seat (entered "
                f"by seat {item.entered_seat}, {item.entered_by}). Another player confirms it on their own "
                "phone with their seat code."
            )
        held = self.held
        if held is not None and held.objection:
            return (
                f"{word.capitalize()} {held.number} was rejected by seat {held.confirmed_seat} "
                f"({held.confirmed_by}): “{held.objection}”. It waits for the director, who settles it: "
                "do not enter it again."
            )
        if held is not None:
            return (
                f"{word.capitalize()} {held.number} waits for the director ({held.queue_reason}). Nothing to "
                "do at the table: the director settles it."
            )
        latest = self.settled[0] if self.settled else None
        due = f"{word} {self.next_number}: type it, then send it."
        if latest is not None and latest.status == SelfEntryDeal.Status.RECORDED:
            return f"{word.capitalize()} {latest.number} confirmed and recorded. Next, {due}"
        if latest is not None and latest.status == SelfEntryDeal.Status.DISMISSED:
            return f"The director set aside the table's entry of {word} {latest.number}. Next, {due}"
        return due[0].upper() + due[1:]

    @property
    def next_number(self) -> int | None:
        return self._due_now[0]


def _resets(entry: SelfEntryDeal, game_set: GameSet, seats: list, deals: list) -> dict[str, int]:
    """A hand's buy-ins with the total each resets to, as the game would compute it were the hand
    recorded now (B7); none when the hand cannot be read in the game as it stands."""
    try:
        placed = deal_in_place(game_set=game_set, seats=seats, others=deals, data=entry.data, due_check=False)
    except ValidationError:
        return {}
    sheet, index = sheet_with_deal(game_set, seats, deals, placed)
    return _buy_in_resets(sheet["deals"][index])


def _buy_in_resets(row: Mapping[str, Any]) -> dict[str, int]:
    """{player: the total they reset to} of a computed sheet's hand, for each player who bought in."""
    return {
        name: line["reset_to"]
        for name, line in (row.get("results") or {}).items()
        if line.get("buy_in") and line.get("reset_to") is not None
    }


def _phone_entry(
    entry: SelfEntryDeal, names: dict[int, str], resets: dict[str, int] | None = None
) -> PhoneEntry:
    data = entry.data or {}
    results = data.get("results") or {}
    lines = [
        {
            "player": name,
            "calls": row.get("calls", 0),
            "penalty": row.get("penalty"),
            "hand": row.get("hand"),
            "out": data.get("out") == name,
            "buy_in": bool(row.get("buy_in")),
            "reset_to": row.get("reset_to", (resets or {}).get(name)),
        }
        for name, row in results.items()
    ]
    return PhoneEntry(
        pk=entry.pk,
        number=entry.number,
        status=entry.status,
        status_text=entry.get_status_display(),
        entered_seat=entry.entered_seat,
        entered_by=names.get(entry.entered_seat, ""),
        confirmed_seat=entry.confirmed_seat,
        confirmed_by=names.get(entry.confirmed_seat or 0, ""),
        objection=entry.objection,
        queue_reason=entry.queue_reason,
        version=entry.version,
        lines=lines,
        out=data.get("out") or "",
        doubled=bool(data.get("doubled")),
        void=bool(data.get("void")),
        kalookie=bool(data.get("kalookie")),
        findings=tuple(entry.findings or ()),
    )


def _game_over(page: GamePage) -> str:
    if page.game.collects:
        return f"The game is over: its {page.state.hands} hands are scored."
    return f"The game is over: {page.state.winner or 'no one'} is the last player in."


# The table's latest entries a phone page reads (after the set, every entry waiting besides).
SHOWN = 30


def phone_page(key: TableKey) -> PhonePage:
    """What a table's phone shows: the set's grid and the deal due, or the game's hands and the hand
    due, and the table's entries."""
    game_set = GameSet.objects.select_related("table__round__event").get(table_id=key.table_id)
    event = game_set.table.round.event
    game = game_of(event)
    grid = hands = None
    seat_rows: list = []
    deal_rows: list = []
    if game.of_hands:
        seat_rows, deal_rows = seats_of(game_set), deals_of(game_set)
        hands = game_page_from_rows(game_set, seat_rows, deal_rows)
        first = game_set.table.first_dealer
        seats = [PhoneSeat(seat.position, seat.player, seat.position == first) for seat in hands.seats]
        due = None if hands.state.over or hands.state.next_hand is None else hands.state.next_hand
        finished = _game_over(hands)
    else:
        grid = set_grid(game_set)
        game_set = grid.game_set
        seats = [PhoneSeat(seat.position, seat.player, seat.first_dealer) for seat in grid.players]
        due = grid.upcoming
        finished = "All nine deals are recorded."
    entries_of_set = SelfEntryDeal.objects.filter(game_set=game_set).order_by("-entered_at", "-pk")
    rows = list(entries_of_set[:SHOWN])
    after = event.self_entry == Event.SelfEntry.AFTER
    if after:
        # After the set every entry waiting is shown and confirmed, however long the game: the page's
        # stamp of them is what confirming checks.
        shown = {row.pk for row in rows}
        waiting = entries_of_set.filter(status=SelfEntryDeal.Status.WAITING)
        rows += [row for row in waiting if row.pk not in shown]
    entered = [row.data for row in rows if row.status == SelfEntryDeal.Status.WAITING] if after else []
    entered_due = None
    entered_resets: dict[int, dict[str, int]] | None = None
    if entered:
        if not seat_rows:
            seat_rows, deal_rows = seats_of(game_set), deals_of(game_set)
        sheet = sheet_with_entered(game_set, seat_rows, deal_rows, entered)
        entered_due = due = _entered_due(game, game_set, grid, sheet, entered)
        if game.of_hands:
            # A buy-in's reset as it will be computed, from the hands entered before it.
            entered_resets = {
                row["deal"]: _buy_in_resets(row) for row in sheet["deals"] if not row.get("void")
            }

    def resets(entry: SelfEntryDeal) -> dict[str, int] | None:
        """A waiting hand's buy-ins with the total each resets to (a set's deals have none)."""
        if hands is None or entry.status != SelfEntryDeal.Status.WAITING:
            return None
        if entered_resets is not None:
            return entered_resets.get(entry.number, {})
        return _resets(entry, game_set, seat_rows, deal_rows)

    closed = ""
    if key.retired_at is not None:
        closed = "This code was changed by the director: the sheet is shown read-only."
    elif game_set.is_verified:
        closed = f"The {game.unit} is verified: the sheet is shown read-only."
    elif event.self_entry == Event.SelfEntry.OFF:
        closed = f"The director enters this event's {game.deal_word}s: self-entry is off."
    elif due is None and not entered:
        closed = finished
    names = {seat.position: seat.player for seat in seats}
    entries = [_phone_entry(entry, names, resets(entry)) for entry in rows]
    return PhonePage(
        key=key,
        game=game,
        event=event,
        round_number=game_set.table.round.number,
        table_number=game_set.table.number,
        game_set=game_set,
        seats=seats,
        grid=grid,
        hands=hands,
        accepting=not closed,
        closed_because=closed,
        waiting=[entry for entry in entries if entry.status == SelfEntryDeal.Status.WAITING],
        settled=[entry for entry in entries if entry.status != SelfEntryDeal.Status.WAITING][:9],
        after=after,
        entered_ahead=bool(entered),
        due=entered_due,
    )


def _entered_due(game, game_set: GameSet, grid, sheet: dict, entered: list) -> EnteredDue | None:
    """After the set: the deal or hand due once the `entered` ones (not confirmed yet) are — `sheet`
    holds them among the recorded ones (`sheet_with_entered`) — or None when the set or game would be
    complete with them. No query."""
    if game.of_hands:
        state = game.state(sheet)
        if state.over or state.next_hand is None:
            return None
        allowed = getattr(game_set.table.round.event.ruleset(), "buy_ins", 0)
        return EnteredDue(
            number=state.next_hand,
            dealer=state.next_dealer,
            playing=tuple(state.still_in),
            before={
                player.name: (player.total, max(allowed - player.buy_ins, 0)) for player in state.players
            },
        )
    scored = {data["deal"] for data in entered if not data.get("void")}
    row = next((row for row in grid.rows if row.placeholder and row.number not in scored), None)
    if row is None:
        return None
    return EnteredDue(
        number=row.number, dealer=row.dealer, contract_text=row.contract_text, deal_size=row.deal_size
    )


@dataclass(frozen=True)
class QueueCell:
    """One value of a queued entry beside the same value of what it is compared with."""

    what: str
    mine: str
    theirs: str

    @property
    def differs(self) -> bool:
        return self.mine != self.theirs


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def deal_differences(mine: dict[str, Any], theirs: dict[str, Any], *, mark: str | None) -> list[QueueCell]:
    """Cell by cell, what the table entered (`mine`, a deal as `deal_record` takes it) beside another
    entry of it or the deal as recorded (`theirs`): who went out, void, the game's mark, then each
    player's calls, score and buy-in. Pure."""
    cells = [QueueCell("Out", _shown(mine.get("out")), _shown(theirs.get("out")))]
    cells.append(QueueCell("Void", _shown(bool(mine.get("void"))), _shown(bool(theirs.get("void")))))
    if mark:
        cells.append(
            QueueCell(mark.capitalize(), _shown(bool(mine.get(mark))), _shown(bool(theirs.get(mark))))
        )
    lines, other = mine.get("results") or {}, theirs.get("results") or {}
    for name in sorted({*lines, *other}):
        line, their = lines.get(name) or {}, other.get(name) or {}
        if "calls" in line or "calls" in their:
            cells.append(QueueCell(f"{name}: calls", _shown(line.get("calls")), _shown(their.get("calls"))))
        cells.append(QueueCell(f"{name}: score", _shown(line.get("penalty")), _shown(their.get("penalty"))))
        if line.get("buy_in") or their.get("buy_in"):
            mine_buy, their_buy = bool(line.get("buy_in")), bool(their.get("buy_in"))
            cells.append(QueueCell(f"{name}: buys in", _shown(mine_buy), _shown(their_buy)))
    return cells


def same_deal(mine: dict[str, Any], theirs: dict[str, Any], *, mark: str | None) -> bool:
    """Whether an entry says nothing other than the deal it is compared with (`deal_differences`)."""
    return not any(cell.differs for cell in deal_differences(mine, theirs, mark=mark))


@dataclass(frozen=True)
class QueueRow:
    """One entry waiting for the director, with the seats' names and its findings; what it is compared
    with (the other entry of the deal, or the deal as recorded) cell by cell; `stale` when the deal is
    recorded already, so accepting it cannot work (only setting it aside, or correcting the recorded
    deal at `recorded_sequence`)."""

    entry: SelfEntryDeal
    round_number: int
    table_number: int
    entered_by: str
    confirmed_by: str
    same_device: bool
    conflict: bool
    findings: list[dict[str, Any]]
    summary: str
    compared_with: str = ""
    cells: tuple[QueueCell, ...] = ()
    stale: bool = False
    recorded_sequence: int | None = None

    @property
    def differences(self) -> int:
        return sum(1 for cell in self.cells if cell.differs)


def _summary(data: dict[str, Any], seat_order: list[str]) -> str:
    """The entry in one line, its players in seat order (a stored JSON object keeps no key order on
    PostgreSQL)."""
    if data.get("void"):
        return "void"
    parts = [f"out: {data.get('out') or '—'}"]
    parts += [mark for mark in ("doubled", "kalookie") if data.get(mark)]
    results = data.get("results") or {}
    place = {name: index for index, name in enumerate(seat_order)}
    for name in sorted(results, key=lambda name: (place.get(name, len(place)), name)):
        row = results[name]
        # A deal's line is calls/score; a hand's is its score, and a buy-in (with a typed reset).
        text = (
            f"{name} {row['calls']}/{row.get('penalty')}"
            if "calls" in row
            else f"{name} {row.get('penalty')}"
        )
        if row.get("buy_in"):
            text += " buys in" + (f" (reset to {row['reset_to']})" if row.get("reset_to") is not None else "")
        parts.append(text)
    return " · ".join(parts)


def director_queue(event: Event) -> list[QueueRow]:
    """The event's entries waiting for the director, oldest first, each compared cell by cell with the
    other entry of its deal or with the deal as recorded. Five queries."""
    entries = list(
        SelfEntryDeal.objects.filter(game_set__table__round__event=event, status=SelfEntryDeal.Status.QUEUED)
        .select_related("game_set__table__round")
        .order_by("entered_at", "pk")
    )
    seats: dict[tuple[int, int], str] = {}
    for seat in Seat.objects.filter(table_id__in={entry.game_set.table_id for entry in entries}).values(
        "table_id", "position", "entry__player__name"
    ):
        seats[(seat["table_id"], seat["position"])] = seat["entry__player__name"]
    game = game_of(event)
    recorded: dict[tuple[int, int], Any] = {}
    for deal in recorded_deals({entry.game_set_id for entry in entries}):
        recorded[(deal.game_set_id, deal.number)] = deal
    rows = []
    for entry in entries:
        table = entry.game_set.table
        names = {position: name for (table_id, position), name in seats.items() if table_id == table.pk}
        deal = recorded.get((entry.game_set_id, entry.number)) if not (entry.data or {}).get("void") else None
        rival = next(
            (
                other
                for other in entries
                if other.pk != entry.pk
                and other.game_set_id == entry.game_set_id
                and other.number == entry.number
            ),
            None,
        )
        compared_with, cells = "", ()
        if deal is not None:
            compared_with = f"the {game.deal_word} as recorded"
            cells = tuple(deal_differences(entry.data or {}, deal_as_data(deal, names, game), mark=game.mark))
        elif rival is not None:
            compared_with = (
                f"the other entry (seat {rival.entered_seat}, {names.get(rival.entered_seat, '?')})"
            )
            cells = tuple(deal_differences(entry.data or {}, rival.data or {}, mark=game.mark))
        rows.append(
            QueueRow(
                entry=entry,
                round_number=table.round.number,
                table_number=table.number,
                entered_by=names.get(entry.entered_seat, "?"),
                confirmed_by=names.get(entry.confirmed_seat or 0, "")
                + (f" and {names.get(entry.second_seat, '?')}" if entry.second_seat else ""),
                # After the set the two seat codes take the device rule's place.
                same_device=entry.same_device and not entry.second_seat,
                conflict=entry.queue_reason.startswith("conflict"),
                findings=list(entry.findings or []),
                summary=_summary(entry.data or {}, [names[position] for position in sorted(names)]),
                compared_with=compared_with,
                cells=cells,
                stale=deal is not None,
                recorded_sequence=deal.sequence if deal is not None else None,
            )
        )
    return rows


@dataclass(frozen=True)
class KeyRow:
    round_number: int
    table_number: int
    table_id: int
    short_code: str
    path: str
    issued_at: Any


def table_keys(event: Event) -> list[KeyRow]:
    """Every table's current key, by round and table. One query."""
    keys = (
        TableKey.objects.filter(table__round__event=event, retired_at__isnull=True)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )
    return [
        KeyRow(
            round_number=key.table.round.number,
            table_number=key.table.number,
            table_id=key.table_id,
            short_code=shown_short_code(short_code_for(key.selector)),
            path=phone_path(key),
            issued_at=key.created_at,
        )
        for key in keys
    ]


def event_tables(event: Event) -> list[Table]:
    """The event's tables with their rounds (for issuing keys). One query."""
    return list(Table.objects.filter(round__event=event).select_related("round__event"))
