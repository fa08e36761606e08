"""Deals: record a new deal or correct one, delete one. Every path in writes through `write_deal`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from adjudication import sheet_marks
from adjudication.audit import acting_user, audit_record
from adjudication.engine.findings import Finding

from ..errors import field_errors
from ..games import COMPUTED, Game, game_of
from ..models import Deal, DealResult, GameSet, Seat
from ..sheets import deal_as_data, deal_in_place, deals_of, seats_of, sheet_from_rows, with_results
from .guards import SetLocked, check_version, describe_set, locked_set, set_changed, stale_edit


@dataclass(frozen=True)
class DealOutcome:
    """What `deal_record` did: the saved deal, whether it is new, and the set's findings now."""

    deal: Deal
    created: bool
    findings: list[Finding]
    # The values the app works out (a later buy-in's reset) that changed with this write.
    followed: tuple[str, ...] = ()

    @property
    def errors(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.is_error]


# Foreign keys set from rows just read in the same transaction: checking them again would cost a
# query each (the database constraints still hold).
_RELATIONS = ("game_set", "out", "updated_by", "deal", "entry")


def deal_row(*, game_set: GameSet, deal: Deal | None, sequence: int, user, **fields: Any) -> Deal:
    """Save the deal's own row (a new one at `sequence`, or `deal` one version on) with `fields`."""
    if deal is None:
        deal = Deal(game_set=game_set, sequence=sequence)
    else:
        # The locked set already carries its table, round and event; the rulings sync reads them.
        deal.game_set = game_set
        deal.version += 1
    for key, value in fields.items():
        setattr(deal, key, value)
    deal.updated_by = acting_user(user)
    deal.updated_at = timezone.now()
    deal.full_clean(exclude=_RELATIONS, validate_unique=False, validate_constraints=False)
    deal.save()
    return deal


def store_results(
    deal: Deal, lines: Sequence[tuple[Any, Mapping[str, Any]]], fields: Sequence[str], *, new: bool = False
) -> list[DealResult]:
    """The deal's result rows as `lines` say ((entry, field values) a player): changed rows updated and
    new ones created in one statement each, the others deleted. Returns the rows, in `lines`' order,
    each with its entry. A `new` deal (just inserted) has no rows yet: nothing to read or delete."""
    existing = (
        {} if new else {result.entry_id: result for result in DealResult.objects.filter(deal=deal).order_by()}
    )
    keep = set()
    added = []
    rows = []
    for entry, values in lines:
        keep.add(entry.pk)
        row = existing.get(entry.pk)
        if row is None:
            row = DealResult(deal=deal, entry=entry)
            added.append(row)
        else:
            # The same entry, already loaded with its player (no query, nothing written).
            row.entry = entry
        for key, value in values.items():
            setattr(row, key, value)
        row.full_clean(exclude=_RELATIONS, validate_unique=False, validate_constraints=False)
        rows.append(row)
    # DealResult has no save() override or signals to skip.
    DealResult.objects.bulk_update([row for entry_id, row in existing.items() if entry_id in keep], fields)
    DealResult.objects.bulk_create(added)
    if not new:
        DealResult.objects.filter(deal=deal).exclude(entry_id__in=keep).delete()
    return rows


def write_deal(
    *,
    game: Game,
    game_set: GameSet,
    deal: Deal | None,
    record: Any,
    seats: Sequence[Seat],
    sequence: int,
    user,
) -> Deal:
    """Save `record` (read by `game.read`) as `deal`, or as a new deal at `sequence`, with its results:
    the fields every game has, then those `game` says (a set's doubling, a game's kalookie and buy-ins)."""
    new = deal is None
    entries = {seat.entry.player.name: seat.entry for seat in seats}
    positions = {seat.entry.player.name: seat.position for seat in seats}
    deal = deal_row(
        game_set=game_set,
        deal=deal,
        sequence=sequence,
        user=user,
        number=record.deal,
        void=record.void,
        out=entries[record.out] if record.out else None,
        dealer=positions[record.dealer] if record.dealer else None,
        **game.deal_fields(record),
    )
    lines = [(entries[name], game.line_values(line)) for name, line in record.results.items()]
    # The deal leaves with its results as stored, as `deals_of` would read them back.
    return with_results(deal, store_results(deal, lines, game.result_fields, new=new))


def in_playing_order(game_set: GameSet, deals: Sequence[Deal], placed: Deal, index: int) -> None:
    """Give the set's deals sequences 1, 2, … with `placed` at `index` among the others (`deals`, in
    playing order). Only rows that move are written; each goes through a number no row holds, so the
    unique (set, sequence) never clashes."""
    order = [*deals[:index], placed, *deals[index:]]
    moving = [(deal, position) for position, deal in enumerate(order, start=1) if deal.sequence != position]
    spare = max([deal.sequence for deal in order] + [len(order)]) + 1
    for offset, (deal, _) in enumerate(moving):
        Deal.objects.filter(pk=deal.pk).update(sequence=spare + offset)
    for deal, position in moving:
        Deal.objects.filter(pk=deal.pk).update(sequence=position)
        deal.sequence = position


def deal_audit_data(
    deal: Deal, seats: Sequence[Seat], game: Game, *, sheet: Mapping[str, Any], deals: Sequence[Deal]
) -> dict[str, Any]:
    """The deal as audit before/after data, whole: as stored, with what the app computed for it (a
    buy-in's reset value, B7) taken from `sheet` (the set's `deals` as `sheet_from_rows` reads them,
    each such value named under its line's `computed`). `deal` with its results prefetched."""
    names = {seat.position: seat.entry.player.name for seat in seats}
    data = {"sequence": deal.sequence, **deal_as_data(deal, names, game)}
    index = next(index for index, row in enumerate(deals) if row.pk == deal.pk)
    worked_out = sheet["deals"][index].get("results") or {}
    for name, line in data.get("results", {}).items():
        line.update({key: value for key, value in worked_out.get(name, {}).items() if key not in line})
    return data


def computed_followed(
    before: Mapping[str, Any],
    before_deals: Sequence[Deal],
    after: Mapping[str, Any],
    after_deals: Sequence[Deal],
    word: str,
    *,
    written: Deal | None = None,
) -> tuple[str, ...]:
    """What changed, between the set's sheets `before` and `after` a write (each as `sheet_from_rows`
    read its deals), in the deals other than the one `written`: only values the app works out can
    have moved there ("hand 3, Cy's reset: 70 → 85")."""
    at_before = {row.pk: index for index, row in enumerate(before_deals)}
    changes = []
    for index, row in enumerate(after_deals):
        if row is written or row.pk not in at_before:
            continue
        old = before["deals"][at_before[row.pk]].get("results") or {}
        new = after["deals"][index].get("results") or {}
        for name in sorted(new):
            for key, value in new[name].items():
                if key == COMPUTED:
                    continue
                was = old.get(name, {}).get(key)
                if was != value:
                    what = "reset" if key == "reset_to" else key.replace("_", " ")
                    changes.append(f"{word} {row.number}, {name}'s {what}: {was} → {value}")
    return tuple(changes)


@transaction.atomic
def deal_record(
    *,
    game_set: GameSet,
    user,
    data: Mapping[str, Any],
    deal: Deal | None = None,
    expected_version: int | None = None,
    expected_set_version: int | None = None,
    reason: str = "",
) -> DealOutcome:
    """Record a new deal (`deal=None`) or correct `deal`; either takes its number's place in playing order.
    Every game's deals and hands come this way; what differs is asked of the event's `Game`.

    `data` is one deal in the `kalooki-sheet/1` shape, results keyed by the seated players' names.
    A Jamaican deal: `{"deal": 3, "void": False, "out": "Ann", "doubled": False, "dealer": "Bob",
      "results": {"Bob": {"calls": 1, "hand": "AS 7D"} | {"calls": 1, "penalty": 22}, ...}}`
    with optional per-player `total` (as written), `opened`, `overcall`, `contract_error`,
    `other_points`, `other_reason`; without `penalty` the score is computed from `hand` (R14–R18), the
    winner's without a hand. A British hand: `{"deal": 12, "out": "Ann", "kalookie": False,
      "results": {"Ann": {}, "Bob": {"hand": "AH 9C"} | {"penalty": 22, "buy_in": True}, ...}}`
    with optional `total`, `opened` and `reset_to` (left blank, a buy-in's reset value is computed, B7).
    The number defaults to the one due next (a void deal's replay keeps its number). Form strings
    ("3", "true") are accepted (`deal_input`).

    Drafts with error findings are saved; the set's findings are returned. Raises ValidationError
    (naming the field, e.g. `results.Bob.calls`), SetLocked for a verified set, StaleEdit when
    `expected_version` (the deal's version as read) is out of date, when a new deal's
    `expected_set_version` (the set's version the form was typed against) is — the same deal sent
    twice at once is saved once, void deals too, which no number clash would catch — or when the deal
    number was recorded meanwhile.
    """
    game_set = locked_set(game_set)
    event = game_set.table.round.event
    game = game_of(event)
    word = game.deal_word
    if game_set.is_verified:
        raise SetLocked(game_set)
    if deal is None:
        check_version(game_set, expected_set_version, what=describe_set(game_set))
    seats = seats_of(game_set)
    deals = deals_of(game_set, seats)
    current = None
    if deal is not None:
        current = next((row for row in deals if row.pk == deal.pk), None)
        if current is None:
            raise ValidationError(f"That {word} is not part of this {game.unit} (it may have been deleted).")
        check_version(current, expected_version, what=f"{word} {current.number}")
    others = [row for row in deals if row is not current]
    rules = event.ruleset()
    placed = deal_in_place(
        game_set=game_set,
        seats=seats,
        others=others,
        data=data,
        current_number=current.number if current is not None else None,
    )
    record = placed.record
    if not record.void:
        clash = next((row for row in others if row.number == record.deal and not row.void), None)
        if clash is not None:
            if current is None:
                raise stale_edit(clash, what=f"{word} {clash.number}", expected=None, current=None)
            raise field_errors(
                {"deal": f"{word.capitalize()} {record.deal} is already recorded in this {game.unit}."}
            )
    elif game.max_void_deals is not None and sum(1 for row in others if row.void) >= game.max_void_deals:
        raise field_errors({"void": f"A {game.unit} holds at most {game.max_void_deals} void {word}s."})
    # The set as read, for the audit's "before" and for what the app works out that this write moves.
    read = deals
    sheet_before = sheet_from_rows(game_set, seats, read) if current or game.tracks_state else None
    before = deal_audit_data(current, seats, game, sheet=sheet_before, deals=read) if current else None
    index = placed.index
    try:
        # No savepoint: a clash is never recovered from here, it ends the whole transaction (two
        # statements fewer a deal).
        with transaction.atomic(savepoint=False):
            saved = write_deal(
                game=game,
                game_set=game_set,
                deal=current,
                record=record,
                seats=seats,
                sequence=max([row.sequence for row in deals], default=0) + 1,
                user=user,
            )
            in_playing_order(game_set, others, saved, index)
    except IntegrityError as exc:
        raise ValidationError(f"The {word} could not be saved: {exc}") from exc
    if game.rulings:
        sheet_marks.rulings_sync_from_results(
            deal=saved, user=user, rules=rules, results=saved.results.all(), new=current is None
        )
    # The set as it now stands, without reading it back: the locked set's other deals as read (their
    # places in playing order updated by `in_playing_order`) and the deal as just written.
    deals = sorted([*others, saved], key=lambda row: row.sequence)
    verb = "corrected" if current else "recorded"
    sheet = sheet_from_rows(game_set, seats, deals)
    after = deal_audit_data(saved, seats, game, sheet=sheet, deals=deals)
    followed: tuple[str, ...] = ()
    if sheet_before is not None and game.tracks_state:
        followed = computed_followed(sheet_before, read, sheet, deals, word, written=saved)
    if followed:
        after["followed"] = list(followed)
    findings = set_changed(game_set, user, f"{word} {saved.number} {verb}", sheet=sheet)
    audit_record(
        event=event,
        action=game.action(verb),
        user=user,
        obj=saved,
        before=before,
        after=after,
        reason=reason,
    )
    return DealOutcome(deal=saved, created=current is None, findings=findings, followed=followed)


@dataclass(frozen=True)
class DealDeletion:
    """What `deal_delete` did: the deal's number, whether it was void, the numbers of the deals played
    after it (they keep their numbers), the rulings on it withdrawn, the deal the form offers next
    (the lowest not yet scored) and the set's findings now."""

    number: int
    void: bool
    later: tuple[int, ...]
    withdrawn: int
    next_number: int | None
    findings: list[Finding]
    word: str = "deal"
    # The values the app works out (a later buy-in's reset) that changed with the deletion.
    followed: tuple[str, ...] = ()

    def describe(self) -> str:
        """What happened, in the director's words (nothing moved but the playing order closing up)."""
        word = self.word
        if self.void:
            text = f"Void {word} {self.number} deleted."
        else:
            text = f"{word.capitalize()} {self.number} deleted: it is due again."
        if self.later:
            numbers = ", ".join(str(number) for number in self.later)
            text += f" The {word}s played after it ({numbers}) keep their numbers."
        if self.withdrawn:
            text += f" {self.withdrawn} ruling{'s' if self.withdrawn != 1 else ''} on it withdrawn."
        if self.next_number is not None:
            text += f" Next to enter: {word} {self.next_number}."
        if self.followed:
            text += f" Worked out again: {'; '.join(self.followed)}."
        return text


@transaction.atomic
def deal_delete(*, deal: Deal, user, reason: str, expected_version: int | None = None) -> DealDeletion:
    """Delete a deal and its results, for a reason (audited with the deal's values); rulings on it are
    withdrawn, each with its own audit entry, and kept. The deals played after it keep their numbers
    (their places in playing order close up); the deleted number is due again (`next_deal_number`)
    and, re-entered, takes its number's place in playing order (`deal_record`)."""
    game_set = locked_set(deal.game_set)
    if game_set.is_verified:
        raise SetLocked(game_set)
    event = game_set.table.round.event
    game = game_of(event)
    word = game.deal_word
    reason = (reason or "").strip()
    if not reason:
        raise field_errors({"reason": f"Say why the {word} is deleted."})
    seats = seats_of(game_set)
    deals = deals_of(game_set, seats)
    current = next((row for row in deals if row.pk == deal.pk), None)
    if current is None:
        raise ValidationError(f"That {word} has already been deleted.")
    check_version(current, expected_version, what=f"{word} {current.number}")
    sheet_before = sheet_from_rows(game_set, seats, deals)
    before = deal_audit_data(current, seats, game, sheet=sheet_before, deals=deals)
    remaining = [row for row in deals if row is not current]
    what = f"{'void ' if current.void else ''}{word} {current.number}"
    withdrawn = sheet_marks.rulings_withdraw_with_deals(
        deals=[current], user=user, event=event, reason=f"{what.capitalize()} deleted: {reason}"
    )
    sequence = current.sequence
    later = tuple(row.number for row in deals if row.sequence > sequence)
    current.delete()
    # Keep playing order dense; one row at a time so the unique (set, sequence) never clashes.
    for row in deals:
        if row.sequence > sequence:
            Deal.objects.filter(pk=row.pk).update(sequence=row.sequence - 1)
    findings = set_changed(game_set, user, f"{what} deleted")
    followed: tuple[str, ...] = ()
    if game.tracks_state:
        after_sheet = sheet_from_rows(game_set, seats, remaining)
        followed = computed_followed(sheet_before, deals, after_sheet, remaining, word)
    audit_record(
        event=event,
        action=game.action("deleted"),
        user=user,
        obj=game_set,
        before=before,
        after={"followed": list(followed)} if followed else None,
        reason=reason,
    )
    left = [(row.number, row.void) for row in deals if row.pk != current.pk]
    return DealDeletion(
        number=before["deal"],
        void=bool(before.get("void")),
        later=later,
        withdrawn=withdrawn,
        next_number=game.number_after_delete(left),
        findings=findings,
        word=word,
        followed=followed,
    )
