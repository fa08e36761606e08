"""Rounds and seating: add a round, draw or hand-make its tables, record a substitute."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from adjudication.audit import acting_user, audit_record

from .. import page_cache, seating, warming
from ..errors import field_errors
from ..games import game_of
from ..models import Deal, Entry, Event, GameSet, Round, Seat, Table
from ..selectors import event_standings, knockout_qualifiers
from ..selectors.british_standings import british_knockout_cuts
from .door import release_if_due
from .guards import SetLocked, check_version, describe_set, locked_set, set_changed, touch_results


def _round_taken(number: int) -> ValidationError:
    return ValidationError(
        f"Round {number} has already been added (perhaps by a second click): nothing was added."
    )


@transaction.atomic
def round_create(*, event: Event, user, number: int | None = None) -> Round:
    """Add the next round (or round `number`, the one the director's page offered) to an event, not yet
    seated. The event's row is locked, so two clicks at once add one round; the second, naming the
    same number, is refused with a message (and a clash the lock cannot prevent is the same message)."""
    Event.objects.select_for_update().filter(pk=event.pk).values_list("pk", flat=True).get()
    if number is None:
        number = (Round.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1
    elif Round.objects.filter(event=event, number=number).exists():
        raise _round_taken(number)
    rnd = Round(event=event, number=number)
    rnd.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            rnd.save()
    except IntegrityError:
        raise _round_taken(number) from None
    audit_record(
        event=event,
        action="kalooki.round.created",
        user=user,
        obj=rnd,
        before=None,
        after={"number": number},
    )
    # Every public page lists the event's rounds.
    touch_results(event.pk)
    return rnd


def _seating_data(rnd: Round) -> list[dict[str, Any]]:
    """The round's tables for the audit log: two queries, joins only.

    Not `prefetch_related("seats__entry__player")`: Django 5.2 fetches a prefetched foreign key with
    one OR term per row, which SQLite refuses past 1,000 ("Expression tree is too large") — a round
    of 256 tables seats 1,024 entries.
    """
    tables = {
        number: {"table": number, "first_dealer": first_dealer, "players": []}
        for number, first_dealer in Table.objects.filter(round=rnd)
        .order_by("number")
        .values_list("number", "first_dealer")
    }
    seats = (
        Seat.objects.filter(round=rnd)
        .order_by("table__number", "position")
        .values_list("table__number", "entry__player__name")
    )
    for number, name in seats:
        tables[number]["players"].append(name)
    return list(tables.values())


def _seating_order(rnd: Round, method: str, rng, user=None, *, provisional: bool = False) -> list[Entry]:
    """Who plays this round, best first for standings (official or `provisional`) / knock-out seating."""
    event = rnd.event
    entries = list(
        Entry.objects.filter(
            event=event, status=Entry.Status.ACTIVE, first_round__lte=rnd.number
        ).select_related("player")
    )
    entries.sort(key=lambda entry: entry.pk)
    # With check-in on (issue 26) only the players checked in are seated; the round names the others.
    rnd.left_out = [entry.player.name for entry in entries if event.check_in and entry.checked_in_at is None]
    if event.check_in:
        entries = [entry for entry in entries if entry.checked_in_at is not None]
    if method == Round.Method.RANDOM:
        return entries
    by_id = {entry.pk: entry for entry in entries}
    if method == Round.Method.KNOCKOUT:
        unverified = GameSet.objects.filter(
            table__round__event=event,
            table__round__number=rnd.number - 1,
            status=GameSet.Status.IN_PLAY,
        ).count()
        if unverified:
            raise ValidationError(
                f"Round {rnd.number - 1} has {unverified} set(s) not yet verified: "
                "who goes through is not known yet."
            )
        if game_of(event).of_hands:
            previous = order_qualifiers(event=event, round_number=rnd.number - 1, rng=rng, user=user)
        else:
            previous = knockout_qualifiers(event, round_number=rnd.number - 1)
        return [by_id[entry_id] for entry_id in previous if entry_id in by_id]
    # Over an open round the director confirmed, the provisional standings (every set with a scored
    # deal): the official ones count closed rounds only, so they would rank nobody and draw at random.
    ranked = [
        by_id[row["entry_id"]]
        for row in event_standings(event, provisional=provisional, with_ids=True)
        if row["entry_id"] in by_id
    ]
    # Late entries and players without a counted set go after the ranked players, drawn at random.
    # (By id: `entry not in ranked` compared every entry with every ranked one, 16,384² at a federation.)
    ranked_ids = {entry.pk for entry in ranked}
    unranked = [entry for entry in entries if entry.pk not in ranked_ids]
    rng.shuffle(unranked)
    return ranked + unranked


class OpenRoundsNotConfirmed(ValidationError):
    """Seating by standings while an earlier round is not closed: the standings are partial, so the
    director must confirm (`confirm_open=True`) and the round is seated by the provisional standings.
    `open_tables`: {round: [tables]}."""

    def __init__(self, number: int, open_tables: dict[int, list[int]]) -> None:
        self.open_tables = open_tables
        super().__init__(
            f"Round {number} would be seated from partial standings: {describe_open(open_tables)} "
            "not verified yet. Confirm to seat it by the provisional standings (every set with a "
            "scored deal; the log records it), or verify those first."
        )


def describe_open(open_tables: dict[int, list[int]]) -> str:
    """ "round 2: tables 3, 4; round 3: table 1"."""
    return "; ".join(
        f"round {number}: table{'s' if len(tables) > 1 else ''} {', '.join(map(str, tables))}"
        for number, tables in open_tables.items()
    )


def _list_tables(tables: dict[int, list[int]]) -> str:
    """ "round 1 table 2, round 3 tables 1, 4"."""
    return ", ".join(
        f"round {number} table{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"
        for number, numbers in tables.items()
    )


@dataclass(frozen=True)
class EarlierTables:
    """The seated tables of earlier rounds whose set is not verified, by round: in rounds not yet
    closed (`open`: seating by standings asks first) and in closed rounds, reopened for a correction
    (`correcting`: they still count, as they stand)."""

    open: dict[int, list[int]]
    correcting: dict[int, list[int]]


def open_tables_before(rnd: Round) -> EarlierTables:
    """The earlier rounds' seated tables whose set is not verified, open and under correction. One query."""
    rows = (
        GameSet.objects.filter(table__round__event_id=rnd.event_id, table__round__number__lt=rnd.number)
        .exclude(status=GameSet.Status.VERIFIED)
        .order_by("table__round__number", "table__number")
        .values_list("table__round__number", "table__number", "table__round__closed_at")
    )
    open_tables: dict[int, list[int]] = {}
    correcting: dict[int, list[int]] = {}
    for number, table, closed_at in rows:
        (open_tables if closed_at is None else correcting).setdefault(number, []).append(table)
    return EarlierTables(open=open_tables, correcting=correcting)


def _standings_note(earlier: EarlierTables) -> str:
    """What the seating audit entry says about the standings it was seated by."""
    if earlier.open:
        note = (
            "Seating confirmed over open rounds: seated by the provisional standings, "
            f"{_list_tables(earlier.open)} not verified"
        )
    else:
        note = "Seated by the official standings"
    if earlier.correcting:
        note += f"; {_list_tables(earlier.correcting)} being corrected (counted as it stands)"
    return note


@transaction.atomic
def round_seat(
    *,
    round: Round,
    user,
    seed: int | None = None,
    method: str | None = None,
    keep_clubs_apart: bool | None = None,
    reason: str = "",
    confirm_open: bool = False,
) -> Round:
    """Draw the round's tables, seats and first dealers (replacing a draw without results).

    `method`: random (round 1's default), standings (later rounds, cumulative) or knockout (later
    rounds of a knock-out event: who went through). The seed is recorded: the same seed and the same
    players give the same draw. Table sizes come from the ruleset (`seating.round_sizes`): its table
    size with one more or one fewer at the last tables (R2), or, for a game that seats as few tables as
    max_players allows, that (sizes differing by at most one; a final of two at one table) unless the
    event's table_size divides the field. Withdrawn players are skipped and late entries
    included; `keep_clubs_apart` swaps players between nearby tables to separate clubs.

    By standings while an earlier round is not closed, OpenRoundsNotConfirmed names its open tables
    unless `confirm_open`; then the round is seated by the provisional standings and the audit entry
    records that and the tables that were open. With every earlier round closed, by the official
    standings (a closed round's set under correction does not ask; the audit reason mentions it).
    The round returned carries `seating_note`, what that reason says of the standings used, and
    `seating_split`, how the field was split ("10 players: 2 tables of 5").
    """
    rnd = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round.pk)
    event = rnd.event
    if Deal.objects.filter(game_set__table__round=rnd).exists():
        raise ValidationError(
            f"Round {rnd.number} already has deals recorded; its seating cannot be drawn again."
        )
    if method is None:
        if rnd.number == 1:
            method = Round.Method.RANDOM
        else:
            method = Round.Method.KNOCKOUT if event.is_knockout else Round.Method.STANDINGS
    if method not in {Round.Method.RANDOM, Round.Method.STANDINGS, Round.Method.KNOCKOUT}:
        raise field_errors({"method": f"Unknown seating method {method!r}."})
    confirmed: dict[int, list[int]] = {}
    if method == Round.Method.STANDINGS:
        earlier = open_tables_before(rnd)
        confirmed = earlier.open
        if confirmed and not confirm_open:
            raise OpenRoundsNotConfirmed(rnd.number, confirmed)
        note = _standings_note(earlier)
        reason = f"{note}. {reason}".strip() if reason else note
        # For the director's message: which standings seated the round.
        rnd.seating_note = note
    if rnd.number == 1:
        # The waitlist's set release time has passed (issue 26): released and promoted first.
        released = release_if_due(event=event, user=user)
        rnd.release_words = released.words() if released else ""
    if keep_clubs_apart is None:
        keep_clubs_apart = rnd.keep_clubs_apart
    if seed is None:
        seed = secrets.randbits(31)
    rng = random.Random(seed)
    rules = event.ruleset()
    order = _seating_order(rnd, method, rng, user, provisional=bool(confirmed))
    try:
        plans = seating.plan_round(
            [seating.Seatable(entry.pk, entry.player.club) for entry in order],
            rules,
            rng=rng,
            shuffle=method == Round.Method.RANDOM,
            keep_clubs_apart=keep_clubs_apart,
        )
    except seating.SeatingError as exc:
        raise ValidationError(str(exc)) from exc
    _write_tables(
        rnd,
        [
            (number, [player.key for player in plan.players], plan.first_dealer)
            for number, plan in enumerate(plans, start=1)
        ],
        user=user,
        seed=seed,
        method=method,
        keep_clubs_apart=keep_clubs_apart,
        reason=reason,
        confirmed_open=confirmed,
    )
    return rnd


def _write_tables(
    rnd: Round,
    tables: Sequence[tuple[int, Sequence[int], int]],
    *,
    user,
    seed: int | None,
    method: str,
    keep_clubs_apart: bool,
    reason: str,
    confirmed_open: dict[int, list[int]] | None = None,
    published_at=None,
) -> None:
    """Replace the round's tables with (number, entry ids clockwise, first dealer seat); audited, with
    how the field was split and the earlier rounds' tables still open when the director confirmed
    seating over them. The round carries the split as `seating_split`."""
    before = _seating_data(rnd)
    rnd.seating_split = (
        seating.describe_split([len(entry_ids) for _, entry_ids, _ in tables]) if tables else ""
    )
    Table.objects.filter(round=rnd).delete()
    # In bulk: a round of 256 tables is three inserts, not 768 (the round was just locked and read).
    rows = [Table(round=rnd, number=number, first_dealer=dealer) for number, _, dealer in tables]
    for table in rows:
        table.full_clean(exclude=["round"], validate_unique=False, validate_constraints=False)
    rows = Table.objects.bulk_create(rows)
    Seat.objects.bulk_create(
        Seat(table=table, round=rnd, position=position, entry_id=entry_id)
        for table, (_, entry_ids, _) in zip(rows, tables, strict=True)
        for position, entry_id in enumerate(entry_ids, start=1)
    )
    GameSet.objects.bulk_create(GameSet(table=table, updated_by=acting_user(user)) for table in rows)
    rnd.seed, rnd.method, rnd.keep_clubs_apart = seed, method, keep_clubs_apart
    rnd.seated_at = timezone.now()
    # A new seating is the directors' to review until one of them publishes it (`round_publish`); an
    # archive's round keeps the publication it records.
    rnd.published_at, rnd.published_by = published_at, None
    rnd.full_clean()
    rnd.save(
        update_fields=["seed", "method", "keep_clubs_apart", "seated_at", "published_at", "published_by"]
    )
    audit_record(
        event=rnd.event,
        action="kalooki.round.seated",
        user=user,
        obj=rnd,
        before={"tables": before} if before else None,
        after={
            "seed": seed,
            "method": method,
            "keep_clubs_apart": keep_clubs_apart,
            "split": rnd.seating_split,
            "tables": _seating_data(rnd),
            # Not checked in at the door (issue 26): left out of the draw, named in the log.
            **({"left_out": rnd.left_out} if getattr(rnd, "left_out", None) else {}),
            **(
                {"standings": "provisional" if confirmed_open else "official"}
                if method == Round.Method.STANDINGS
                else {}
            ),
            **(
                {
                    "confirmed_open_tables": [
                        {"round": number, "tables": tables} for number, tables in confirmed_open.items()
                    ]
                }
                if confirmed_open
                else {}
            ),
        },
        reason=reason,
    )
    touch_results(rnd.event_id)


@dataclass(frozen=True)
class DrawRecord:
    """How a round was drawn, as another copy of the event recorded it (archives)."""

    seed: int | None
    method: str
    keep_clubs_apart: bool = False
    # When the other copy published the round (an archive's `rounds[].published_at`); an archive that
    # does not say published it when seated.
    published_at: Any = None
    published: bool = True

    @property
    def known_method(self) -> str:
        """The method, or blank when this version does not know it."""
        return self.method if self.method in Round.Method.values else ""


@dataclass(frozen=True)
class ManualTable:
    """One table of a hand-made seating: entries clockwise from seat 1, the first dealer's seat."""

    number: int
    entries: Sequence[Entry]
    first_dealer: int = 1


@transaction.atomic
def round_seat_manual(
    *,
    round: Round,
    user,
    tables: Sequence[ManualTable],
    reason: str = "",
    drawn: DrawRecord | None = None,
) -> Round:
    """Seat a round as given (a director's own plan, or an imported archive's), replacing a draw
    without deals. Every entry must belong to the event and sit once; table sizes must be playable
    under the ruleset (R2). Raises ValidationError naming the table. `drawn` records a draw made
    elsewhere (an archive's seed and method); without it the round is recorded as seated by hand."""
    rnd = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round.pk)
    event = rnd.event
    if Deal.objects.filter(game_set__table__round=rnd).exists():
        raise ValidationError(
            f"Round {rnd.number} already has deals recorded; its seating cannot be changed."
        )
    rules = event.ruleset()
    seen: set[int] = set()
    numbers: set[int] = set()
    for table in tables:
        where = f"table {table.number}"
        if table.number < 1 or table.number in numbers:
            raise field_errors({where: "table numbers must be 1 or more and differ"})
        numbers.add(table.number)
        size = len(table.entries)
        if not (rules.min_players <= size <= rules.max_players and rules.can_deal(size)):
            raise field_errors({where: f"{size} players cannot play at one table (R2)"})
        if not 1 <= table.first_dealer <= size:
            raise field_errors({where: f"the first dealer must be a seat from 1 to {size}"})
        for entry in table.entries:
            if entry.event_id != event.pk:
                raise field_errors({where: f"{entry} is not entered in this event"})
            if entry.pk in seen:
                raise field_errors({where: f"{entry} is seated twice"})
            seen.add(entry.pk)
    _write_tables(
        rnd,
        [(t.number, [e.pk for e in t.entries], t.first_dealer) for t in tables],
        user=user,
        seed=drawn.seed if drawn else None,
        # A method the record names that this version does not know is left blank.
        method=(drawn.method if drawn.method in Round.Method.values else "")
        if drawn
        else Round.Method.MANUAL,
        keep_clubs_apart=drawn.keep_clubs_apart if drawn else False,
        reason=reason,
        published_at=(drawn.published_at or timezone.now()) if drawn and drawn.published else None,
    )
    return rnd


@transaction.atomic
def round_publish(*, round: Round, user) -> Round:
    """Make a seated round public: its seating, tables and pages show from now on (audited). Refused,
    with a message, for a round not seated or already published."""
    rnd = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round.pk)
    tables = Table.objects.filter(round=rnd).count()
    if not tables:
        raise ValidationError(f"Round {rnd.number} is not seated yet: seat it, review it, then publish it.")
    if rnd.published_at is not None:
        raise ValidationError(
            f"Round {rnd.number} was already published at {timezone.localtime(rnd.published_at):%H:%M:%S}."
        )
    rnd.published_at, rnd.published_by = timezone.now(), acting_user(user)
    rnd.save(update_fields=["published_at", "published_by"])
    audit_record(
        event=rnd.event,
        action="kalooki.round.published",
        user=user,
        obj=rnd,
        before={"published": False},
        after={"published": True, "published_at": rnd.published_at.isoformat(), "tables": tables},
    )
    touch_results(rnd.event_id)
    # The pages made ahead of this, while the seating was reviewed, are served from the commit on if
    # nothing else changed since; every page the hall opens is then made (or found made) by the worker.
    transaction.on_commit(lambda: page_cache.round_published(rnd.event.slug, rnd.pk))
    warming.queue_warm(rnd.event_id)
    return rnd


@transaction.atomic
def seat_substitute(
    *,
    seat: Seat,
    user,
    substitute: Entry | None,
    from_deal: int | None = None,
    reason: str = "",
    expected_version: int | None = None,
) -> Seat:
    """Record (or with `substitute=None` clear) a substitute playing the seat from deal `from_deal`.

    The seat's results stay with the seated player; the substitute is shown on the sheet.
    `expected_version` is the set's version as read (a substitute changes the set): StaleEdit when
    someone changed the set meanwhile — two substitutes named for one seat at once, one wins.
    """
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("table__round__event", "entry__player", "substitute__player")
        .get(pk=seat.pk)
    )
    game_set = locked_set(seat.table.game_set)
    check_version(game_set, expected_version, what=describe_set(game_set))
    if game_set.is_verified:
        raise SetLocked(game_set)
    if substitute is not None:
        if substitute.event_id != seat.round.event_id:
            raise field_errors({"substitute": "The substitute must be entered in this event."})
        if from_deal is None:
            raise field_errors({"from_deal": "Give the deal the substitute plays from."})
        most = seat.round.event.ruleset().max_deal_number
        if not 1 <= from_deal <= most:
            raise field_errors({"from_deal": f"Give a deal from 1 to {most}, got {from_deal}."})
        if Seat.objects.filter(round=seat.round_id, entry=substitute).exists():
            raise field_errors({"substitute": f"{substitute} is already seated in this round."})
    before = _substitute_data(seat)
    seat.substitute = substitute
    seat.substitute_from = from_deal if substitute is not None else None
    seat.full_clean()
    seat.save(update_fields=["substitute", "substitute_from"])
    set_changed(game_set, user, f"substitute at seat {seat.position}", findings=False, seats=True)
    audit_record(
        event=seat.round.event,
        action="kalooki.seat.substituted" if substitute else "kalooki.seat.substitute_cleared",
        user=user,
        obj=seat,
        before=before,
        after=_substitute_data(seat),
        reason=reason,
    )
    return seat


def _substitute_data(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.position,
        "player": seat.entry.player.name,
        "substitute": seat.substitute.player.name if seat.substitute else None,
        "from_deal": seat.substitute_from,
    }


def order_qualifiers(*, event, round_number: int, rng, user) -> list[int]:
    """Entry ids who go through from a knock-out round of games of hands, best first: at each game the
    first `advance` of its finishing order; players tied at the cut on place and that game's penalties go
    through by a lot drawn with `rng` (the round's recorded seed), each lot in the audit log."""
    through: list[int] = []
    names = dict(event.entries.values_list("pk", "player__name"))
    for cut in british_knockout_cuts(event, round_number=round_number):
        through += cut.through
        if not cut.tied:
            continue
        drawn = rng.sample(sorted(cut.tied), cut.places)
        through += [entry_id for entry_id in cut.tied if entry_id in drawn]
        audit_record(
            event=event,
            action="kalooki.round.lot_drawn",
            user=user,
            obj=GameSet.objects.get(pk=cut.game_set_id),
            before=None,
            after={
                "round": round_number,
                "table": cut.table_number,
                "tied": sorted(names[entry_id] for entry_id in cut.tied),
                "through": sorted(names[entry_id] for entry_id in drawn),
            },
            reason="a tie at the knock-out cut: same place, same penalties in the game",
        )
    return through
