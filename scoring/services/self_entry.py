"""Self-entry at the tables (issue 13): the tables' keys, a deal or hand entered on a phone, another
seat's confirmation or rejection, and the director's queue. Every game's deals and hands come this way
(the event's `Game` reads them, as `deal_record` does: `sheets.deal_in_place`).

A seat is proven by its seat code (printed beside the player's name on the sheet, derived from the site
key like the table's key, compared in constant time): a deal is entered with the entering seat's code
and confirmed with another seat's code on another device (an event that allows one-phone tables lets
the same device confirm, and the deal then waits for the director, marked). A confirmed deal is
recorded through `deal_record` like a director's (version check, validator, audit
entry naming the seats); one with an error finding, a rejected one, two entries for one deal, or any
deal when the event has every deal wait, goes to the director's queue instead, where the director
accepts, corrects or rejects it. Nothing here ever writes a token to the audit log: keys are named by
when they were issued.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone

from adjudication.audit import acting_user, audit_record

from ..deal_input import MAX_TEXT
from ..errors import field_errors
from ..games import game_of
from ..models import Event, GameSet, SelfEntryDeal, SheetPhoto, TableKey
from ..selectors.self_entry import entered_set_stamp, same_deal
from ..self_entry_codes import seat_code_matches
from ..sheets import (
    deal_as_data,
    deal_in_place,
    deal_in_sheet,
    deals_of,
    findings_in_sheet,
    findings_with_deal,
    seats_of,
    sheet_with_entered,
)
from .deals import deal_record
from .evidence import Upload, photo_store
from .guards import check_version, locked_set

# The tables' keys and the event's mode, which the desk sets up, are written in `self_entry_setup`;
# every self-entry write is reached through this module.
from .self_entry_setup import self_entry_mode_set, table_key_regenerate, table_keys_ensure  # noqa: F401

OPEN = (SelfEntryDeal.Status.WAITING, SelfEntryDeal.Status.QUEUED)
MAX_IDEMPOTENCY = 64


class SelfEntryClosed(ValidationError):
    """The table's page accepts no entry: the set is verified, the key retired, self-entry off."""


class SeatCodeWrong(ValidationError):
    """A missing or wrong seat code: nothing is saved; the phone's page counts it as a wrong try."""


class SameDevice(ValidationError):
    """The phone that entered a deal tried to confirm it (refused unless the event allows one phone)."""


class SelfEntryResent(ValidationError):
    """An idempotency key sent again with other values: nothing is saved or changed (409), and the
    phone keeps what it sent."""


# --- the table's phone ---------------------------------------------------------------------------


def _open_set(key: TableKey) -> GameSet:
    """The key's set, locked, when it accepts entries; SelfEntryClosed says why not."""
    key = TableKey.objects.select_related("table__round__event").get(pk=key.pk)
    if key.retired_at is not None:
        raise SelfEntryClosed("This table's code was changed: ask the director for the new one.")
    game_set = locked_set(GameSet.objects.get(table_id=key.table_id))
    event = game_set.table.round.event
    game = game_of(event)
    if event.self_entry == Event.SelfEntry.OFF:
        raise SelfEntryClosed(f"The director enters this event's {game.deal_word}s: self-entry is off.")
    if game_set.is_verified:
        raise SelfEntryClosed(f"This table's {game.unit} is verified: only the director changes it now.")
    return game_set


def _names_of(seats: Iterable[Any]) -> dict[int, str]:
    """{position: player} of a set's seats as loaded (`sheets.seats_of`)."""
    return {row.position: row.entry.player.name for row in seats}


def _seat_names(game_set: GameSet) -> dict[int, str]:
    return _names_of(seats_of(game_set))


def _position(seat: Any) -> int:
    """The seat number a form sent, or 0 (no seat) when it is none."""
    try:
        return int(seat)
    except (TypeError, ValueError):
        return 0


def _recorded(deals: Iterable[Any], number: int) -> Any:
    """The set's recorded deal `number` (its `deals` as loaded), or None when it has none (a void one
    is none)."""
    return next((row for row in deals if row.number == number and not row.void), None)


def _seat(game_set: GameSet, seat: Any) -> tuple[int, str]:
    names = _seat_names(game_set)
    position = _position(seat)
    if position not in names:
        raise field_errors({"seat": "Choose your seat at this table."})
    return position, names[position]


def _proven(key: TableKey, game_set: GameSet, seat: Any, seat_code: Any) -> tuple[int, str]:
    """The seat named and proven by its code (compared in constant time): (position, player)."""
    position, name = _seat(game_set, seat)
    _check_code(key, position, name, seat_code)
    return position, name


def _check_code(
    key: TableKey,
    position: int,
    name: str,
    seat_code: Any,
    *,
    field: str = "seat_code",
    where: str = "beside {name}'s name on the sheet",
) -> None:
    """`seat_code` is seat `position`'s (compared in constant time), or `SeatCodeWrong` on `field`;
    `where` says where the code is printed."""
    where = where.format(name=name)
    if not str(seat_code or "").strip():
        raise SeatCodeWrong({field: [f"Type seat {position}'s code: it is printed {where}."]})
    if not seat_code_matches(key.selector, position, str(seat_code)[:32]):
        raise SeatCodeWrong({field: [f"That is not seat {position}'s code: check the code {where}."]})


def device_mark(device: str) -> str:
    """A device as the history names it: a short fingerprint of its cookie, never the cookie itself
    (which would let anyone who reads the history pose as that phone)."""
    return hashlib.sha256((device or "").encode()).hexdigest()[:6]


def _device(device: str) -> str:
    device = (device or "")[:64]
    if not device:
        raise ValidationError("This phone has no device cookie: allow cookies and reload the page.")
    return device


def _audit(entry: SelfEntryDeal, action: str, *, before: Any, after: Any, reason: str = "", user=None):
    audit_record(
        event=entry.game_set.table.round.event,
        action=f"kalooki.selfentry.{action}",
        user=user,
        obj=entry,
        before=before,
        after=after,
        reason=reason,
    )


def _state(entry: SelfEntryDeal) -> dict[str, Any]:
    return {
        "deal": entry.number,
        "status": entry.status,
        "entered_seat": entry.entered_seat,
        "confirmed_seat": entry.confirmed_seat,
        **({"second_seat": entry.second_seat} if entry.second_seat else {}),
        "entered_device": device_mark(entry.entered_device),
        "confirmed_device": device_mark(entry.confirmed_device) if entry.confirmed_device else None,
        "same_device": entry.same_device,
        "queue_reason": entry.queue_reason,
    }


def _as_stored(data: Any) -> Any:
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def _resent(sent: SelfEntryDeal, game_set: GameSet, seat: Any, data: Mapping[str, Any]) -> SelfEntryDeal:
    """`sent`, when `data` and `seat` are what made it (a phone sending its deal again); else
    `SelfEntryResent`: the key was sent first with other values, which stand."""
    same_seat = _position(seat) == sent.entered_seat
    try:
        record = game_of(game_set.table.round.event).read(
            data,
            players=[row.entry.player.name for row in seats_of(game_set)],
            rules=game_set.table.round.event.ruleset(),
            default_number=sent.number,
        )
        same = _as_stored(record.as_dict()) == _as_stored(sent.data)
    except ValidationError:
        same = False
    if same and same_seat:
        return sent
    word = game_of(game_set.table.round.event).deal_word
    raise SelfEntryResent(
        f"{word.capitalize()} {sent.number} was already sent from this page with other values, and those "
        f"stand: this send changed nothing. What you typed is kept on this phone: check {word} "
        f"{sent.number} on the page, then send it again to let the director choose between the two, or "
        "reject the first.",
        code="resent",
    )


@transaction.atomic
def self_entry_submit(
    *,
    key: TableKey,
    seat: Any,
    device: str,
    data: Mapping[str, Any],
    idempotency_key: str,
    seat_code: Any = "",
) -> tuple[SelfEntryDeal, bool]:
    """A deal entered at the table, waiting for another seat's confirmation: (entry, created). The same
    `idempotency_key` sent again (a phone resending after the network came back) returns the entry
    it made the first time; sent again with other values it is refused (`SelfEntryResent`). The seat
    is proven by its `seat_code` (`SeatCodeWrong`: nothing saved). A second
    entry for a deal already entered or recorded waits for the director, with the first, as a
    conflict."""
    idempotency_key = (idempotency_key or "").strip()
    if not idempotency_key or len(idempotency_key) > MAX_IDEMPOTENCY:
        raise ValidationError("The phone sent no idempotency key: reload the page and enter the deal again.")
    game_set = _open_set(key)
    sent = SelfEntryDeal.objects.filter(game_set=game_set, idempotency_key=idempotency_key).first()
    if sent is not None:
        return _resent(sent, game_set, seat, data), False
    position, name = _proven(key, game_set, seat, seat_code)
    device = _device(device)
    seats = seats_of(game_set)
    deals = deals_of(game_set)
    word = game_of(game_set.table.round.event).deal_word
    sheet = None
    if game_set.table.round.event.self_entry == Event.SelfEntry.AFTER:
        # After the set, the deals before this one may be entered and not confirmed yet: it is read
        # among them, as it will be recorded once the set is confirmed.
        waiting = SelfEntryDeal.objects.filter(game_set=game_set, status=SelfEntryDeal.Status.WAITING)
        sheet = sheet_with_entered(
            game_set, seats, deals, [row.data for row in waiting.order_by("number", "pk")]
        )
        placed = deal_in_sheet(game_set=game_set, seats=seats, sheet=sheet, data=data)
    else:
        # Read as the desk's entry is; its number is not held to the one due, so a deal the desk
        # recorded meanwhile (a phone sending after the network came back) waits for the director as a
        # conflict.
        placed = deal_in_place(game_set=game_set, seats=seats, others=deals, data=data, due_check=False)
    record = placed.typed
    entry = SelfEntryDeal(
        game_set=game_set,
        key=key,
        number=record.deal,
        # As typed: what the paper leaves to arithmetic (a buy-in's reset) is computed when recorded.
        data=record.as_dict(),
        idempotency_key=idempotency_key,
        set_version=game_set.version,
        entered_seat=position,
        entered_device=device,
    )
    rivals = list(SelfEntryDeal.objects.filter(game_set=game_set, number=record.deal, status__in=OPEN))
    recorded = _recorded(deals, record.deal) is not None
    same = None if record.void else _identical_to_recorded(record.deal, entry.data, game_set, seats, deals)
    if same is not None:
        # What the desk recorded already, said again: nothing for anyone to settle.
        _close_identical(entry, same, word)
    elif rivals or (recorded and not record.void):
        entry.status = SelfEntryDeal.Status.QUEUED
        entry.queue_reason = (
            f"conflict: {word} {record.deal} was {'recorded' if recorded else 'entered'} already"
        )
        SelfEntryDeal.objects.filter(pk__in=[row.pk for row in rivals]).update(
            status=SelfEntryDeal.Status.QUEUED,
            queue_reason=f"conflict: {word} {record.deal} was entered twice",
        )
    else:
        # The findings the entering phone is shown are the ones the confirming phone sees.
        found = findings_in_sheet(game_set, sheet, placed) if sheet is not None else None
        entry.findings = _errors(
            found if found is not None else findings_with_deal(game_set, seats, deals, placed)
        )
    entry.full_clean(exclude=("game_set", "key", "deal", "settled_by"), validate_constraints=False)
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        # The same deal sent twice at once: the other request saved it.
        sent = SelfEntryDeal.objects.get(game_set=game_set, idempotency_key=idempotency_key)
        return _resent(sent, game_set, seat, data), False
    entry.game_set = game_set
    _audit(entry, "entered", before=None, after={**_state(entry), "by": name, "data": entry.data})
    _audit_closed(entry)
    return entry, True


@transaction.atomic
def self_entry_photo(*, key: TableKey, seat: Any, seat_code: Any, upload: Upload | None) -> SheetPhoto:
    """A phone at the table photographs the signed sheet (issue 23): the seat proven by its code, the
    photo kept with the set for the director (`evidence.photo_store`: checked, downscaled, no EXIF).
    Taken while the table's page accepts entries — the last deal recorded included — not once the set
    is verified or the key retired."""
    game_set = _open_set(key)
    position, name = _proven(key, game_set, seat, seat_code)
    return photo_store(game_set=game_set, upload=upload, by=f"seat {position} ({name})")


def _entered(entry: SelfEntryDeal, game_set: GameSet) -> str:
    """The entry as its refusals name it, in the game's word: "deal 3 as entered", "hand 3 as entered"."""
    return f"{game_of(game_set.table.round.event).deal_word} {entry.number} as entered"


def _waiting(entry: SelfEntryDeal, game_set: GameSet, expected_version: int | None) -> SelfEntryDeal:
    entry = SelfEntryDeal.objects.select_for_update().get(pk=entry.pk)
    if entry.game_set_id != game_set.pk:
        raise ValidationError(
            f"That {game_of(game_set.table.round.event).deal_word} was entered at another table, not at "
            f"round {game_set.table.round.number}, table {game_set.table.number}."
        )
    what = _entered(entry, game_set)
    if entry.status != SelfEntryDeal.Status.WAITING:
        status = entry.get_status_display().lower()
        raise ValidationError(f"{what.capitalize()} is no longer waiting for confirmation ({status}).")
    check_version(entry, expected_version, what=what)
    entry.game_set = game_set
    return entry


def _other_seat(
    key: TableKey, entry: SelfEntryDeal, game_set: GameSet, seat: Any, seat_code: Any
) -> tuple[int, str]:
    """Another seat than the one that entered, proven by its code."""
    position, name = _seat(game_set, seat)
    if position == entry.entered_seat:
        word = game_of(game_set.table.round.event).deal_word
        raise field_errors(
            {
                "seat": f"Seat {position} entered {word} {entry.number}: a player of another seat "
                "confirms or rejects it."
            }
        )
    _check_code(key, position, name, seat_code)
    return position, name


def _why(entry: SelfEntryDeal, names: Mapping[int, str]) -> str:
    """The audit's reason for a self-entered deal: the seats, proven by their codes, and their devices
    (after the set: the entering seat and the two that confirmed the whole set)."""
    if entry.second_seat:
        return (
            f"self-entry after the set: entered by seat {entry.entered_seat} "
            f"({names.get(entry.entered_seat, '?')}) on device {device_mark(entry.entered_device)}, "
            f"confirmed by seats {entry.confirmed_seat} ({names.get(entry.confirmed_seat or 0, '?')}) and "
            f"{entry.second_seat} ({names.get(entry.second_seat, '?')}) with the codes of their seat slips"
        )
    text = (
        f"self-entry: entered by seat {entry.entered_seat} ({names.get(entry.entered_seat, '?')}) on "
        f"phone {device_mark(entry.entered_device)}, confirmed by seat {entry.confirmed_seat} "
        f"({names.get(entry.confirmed_seat or 0, '?')}) on phone {device_mark(entry.confirmed_device)}"
    )
    return text + (" (one phone)" if entry.same_device else "")


def _identical_to_recorded(
    number: int, data: Mapping[str, Any], game_set: GameSet, seats: Iterable[Any], deals
) -> Any:
    """The recorded (not void) deal `number` of the set (its `seats` and `deals` as loaded) when the
    entry's `data` says nothing other than it, cell by cell (`selectors.self_entry.same_deal`); else
    None."""
    recorded = _recorded(deals, number)
    if recorded is None:
        return None
    game = game_of(game_set.table.round.event)
    theirs = deal_as_data(recorded, _names_of(seats), game)
    return recorded if same_deal(dict(data), theirs, mark=game.mark) else None


def _close_identical(entry: SelfEntryDeal, deal: Any, word: str) -> None:
    """The entry says what `deal`, recorded already, says: settled as that deal (not saved here)."""
    entry.status = SelfEntryDeal.Status.RECORDED
    entry.deal = deal
    entry.queue_reason = f"identical to {word} {entry.number} as recorded"
    entry.settled_at = timezone.now()
    entry.settled_note = "closed by itself: identical to what was recorded"


def _audit_closed(entry: SelfEntryDeal) -> None:
    """An entry identical to what was recorded closed itself: its own audit entry says so."""
    if entry.status == SelfEntryDeal.Status.RECORDED and entry.settled_note.startswith("closed by itself"):
        _audit(
            entry,
            "closed_identical",
            before={"status": "queued"},
            after=_state(entry),
            reason=f"identical to {game_of(entry.game_set.table.round.event).deal_word} {entry.number} as "
            "recorded: nothing to settle",
        )


def _errors(findings: Iterable[Any]) -> list[dict[str, Any]]:
    return [finding.as_dict() for finding in findings if finding.is_error]


def _errors_here(game_set: GameSet, seats, deals, entry: SelfEntryDeal) -> list[dict[str, Any]]:
    """The entry's error findings in the set as it stands now (its `seats` and `deals` as loaded)."""
    placed = deal_in_place(game_set=game_set, seats=seats, others=deals, data=entry.data, due_check=False)
    return _errors(findings_with_deal(game_set, seats, deals, placed))


@transaction.atomic
def self_entry_confirm(
    *,
    key: TableKey,
    entry: SelfEntryDeal,
    seat: Any,
    device: str,
    expected_version: int | None = None,
    seat_code: Any = "",
) -> SelfEntryDeal:
    """Another seat, proven by its code, confirms the deal on another device: recorded through
    `deal_record` when it is clean and the event records clean deals at once; otherwise it waits in
    the director's queue (with its findings). The device that entered it is refused (`SameDevice`)
    unless the event allows one-phone tables: then it waits for the director, marked."""
    game_set = _open_set(key)
    unit = game_of(game_set.table.round.event).unit
    if game_set.table.round.event.self_entry == Event.SelfEntry.AFTER:
        raise ValidationError(
            f"In this event two seats confirm the whole {unit} at once, after play: each types the code "
            f"of their own seat slip under “Confirm the {unit}”."
        )
    entry = _waiting(entry, game_set, expected_version)
    position, _ = _other_seat(key, entry, game_set, seat, seat_code)
    device = _device(device)
    event = game_set.table.round.event
    word = game_of(event).deal_word
    if device == entry.entered_device and not event.self_entry_one_phone:
        raise SameDevice(
            f"This phone entered {word} {entry.number}: another player confirms it on their own phone, "
            "with the seat code beside their name."
        )
    entry.confirmed_seat = position
    entry.confirmed_device = device
    entry.confirmed_at = timezone.now()
    entry.version += 1
    # The set's seats and deals, read once for the checks below.
    seats = seats_of(game_set)
    names = _names_of(seats)
    _settle_confirmed(
        entry,
        game_set,
        seats,
        deals_of(game_set),
        names,
        one_phone=entry.same_device,
        review=event.self_entry == Event.SelfEntry.REVIEW,
        expected_set_version=entry.set_version,
    )
    entry.save()
    _audit(entry, "confirmed", before={"status": "waiting"}, after=_state(entry), reason=_why(entry, names))
    _audit_closed(entry)
    return entry


@dataclass(frozen=True)
class SetConfirmation:
    """What confirming a whole set did: the entries recorded, and those waiting for the director (in
    number order; once one waits, the ones after it wait too)."""

    recorded: list[SelfEntryDeal]
    queued: list[SelfEntryDeal]


def _confirming_seats(key: TableKey, names: Mapping[int, str], seats: Sequence[tuple[Any, Any]]) -> list[int]:
    """Two different seats of the table (`names`: {position: player}), each proven by the code of its
    own seat slip: their positions, or the refusal naming the field that is wrong (`SeatCodeWrong` for
    a missing or wrong code)."""
    if len(seats) != 2:
        raise ValidationError("Two seats confirm the set: each chooses their seat and types their code.")
    proven: list[int] = []
    for index, (seat, seat_code) in enumerate(seats, start=1):
        position = _position(seat)
        if position not in names:
            raise field_errors(
                {f"seat_{index}": f"Choose the seat of the {('first', 'second')[index - 1]} player."}
            )
        if position in proven:
            raise field_errors(
                {
                    f"seat_{index}": f"Seat {position} confirmed already: the second code must be another "
                    "seat's, typed by that player from their own slip."
                }
            )
        _check_code(
            key,
            position,
            names[position],
            seat_code,
            field=f"seat_code_{index}",
            where="on {name}'s seat slip",
        )
        proven.append(position)
    return proven


def _settle_confirmed(
    entry: SelfEntryDeal,
    game_set: GameSet,
    seats,
    deals,
    names: Mapping[int, str],
    *,
    one_phone: bool = False,
    review: bool = False,
    expected_set_version: int | None = None,
) -> None:
    """A confirmed entry settled against the set as it stands (its `seats` and `deals` as loaded):
    closed when the desk recorded the very same deal meanwhile; else waiting for the director, with
    the reason, when it conflicts with one recorded, one phone confirmed it (`one_phone`), the set
    moved on, it has error findings or the event has the director check every deal (`review`); else
    recorded through `deal_record`. Not saved here."""
    word = game_of(game_set.table.round.event).deal_word
    recorded = not entry.data.get("void") and _recorded(deals, entry.number) is not None
    changed = ""
    try:
        entry.findings = [] if recorded else _errors_here(game_set, seats, deals, entry)
    except ValidationError as exc:
        # The game moved on since the entry (a game over, a hand the desk entered before it).
        changed = " ".join(exc.messages)
    same = _identical_to_recorded(entry.number, entry.data, game_set, seats, deals) if recorded else None
    held = ""
    if same is not None:
        # The desk recorded this very deal meanwhile: nothing for anyone to settle.
        _close_identical(entry, same, word)
        return
    if recorded:
        held = f"conflict: {word} {entry.number} was recorded meanwhile"
    elif one_phone:
        held = "one phone entered and confirmed it (the event allows one-phone tables)"
    elif changed:
        held = "the set changed: " + changed
    elif entry.findings:
        held = "error findings"
    elif review:
        held = "the event has every deal checked by the director"
    else:
        try:
            with transaction.atomic():
                outcome = deal_record(
                    game_set=game_set,
                    user=None,
                    data=entry.data,
                    expected_set_version=expected_set_version,
                    reason=_why(entry, names),
                )
        except ValidationError as exc:
            held = "the set changed: " + " ".join(exc.messages)
        else:
            entry.status = SelfEntryDeal.Status.RECORDED
            entry.deal = outcome.deal
            return
    entry.status = SelfEntryDeal.Status.QUEUED
    entry.queue_reason = held[:200]


@transaction.atomic
def self_entry_confirm_set(
    *, key: TableKey, device: str, seats: Sequence[tuple[Any, Any]], entered: str | None = None
) -> SetConfirmation:
    """After the set (issue 23): two different seats, each proven by the code of its own tear-off seat
    slip, confirm every deal the table entered that waits for confirmation, in number order, on any
    device (the codes take the device rule's place). Each clean deal is recorded through
    `deal_record`, its audit naming the entering seat and both confirming ones; one with an error
    finding, or that the set as recorded no longer takes, waits for the director, and so do the deals
    after it. `entered` is the stamp of the entries the confirming page showed (`entered_set_stamp`):
    when they changed meanwhile nothing is confirmed. Nothing is recorded unless both codes are right."""
    game_set = _open_set(key)
    event = game_set.table.round.event
    game = game_of(event)
    if event.self_entry != Event.SelfEntry.AFTER:
        raise ValidationError(
            f"In this event each {game.deal_word} is confirmed on its own, by another seat on another phone."
        )
    device = _device(device)
    entries = list(
        SelfEntryDeal.objects.select_for_update()
        .filter(game_set=game_set, status=SelfEntryDeal.Status.WAITING)
        .order_by("number", "pk")
    )
    if not entries:
        raise ValidationError(
            f"Nothing waits for confirmation: enter the {game.unit}'s {game.deal_word}s from the paper first."
        )
    if entered is not None and entered != entered_set_stamp(entries):
        raise ValidationError(
            f"The {game.unit} as entered changed since this page was opened: check it on the page again, "
            "then confirm."
        )
    seat_rows = seats_of(game_set)
    names = _names_of(seat_rows)
    first, second = _confirming_seats(key, names, seats)
    now = timezone.now()
    held = ""
    outcome = SetConfirmation(recorded=[], queued=[])
    for entry in entries:
        entry.game_set = game_set
        entry.confirmed_seat, entry.second_seat = first, second
        entry.confirmed_device, entry.confirmed_at = device, now
        entry.version += 1
        if held:
            entry.status, entry.queue_reason = SelfEntryDeal.Status.QUEUED, held
        else:
            # The deals as recorded so far: each one confirmed before it is among them.
            _settle_confirmed(entry, game_set, seat_rows, deals_of(game_set), names)
        if entry.status == SelfEntryDeal.Status.QUEUED:
            outcome.queued.append(entry)
            held = held or f"{game.deal_word} {entry.number} before it waits for the director"
        else:
            outcome.recorded.append(entry)
        entry.save()
        _audit(
            entry, "confirmed", before={"status": "waiting"}, after=_state(entry), reason=_why(entry, names)
        )
        _audit_closed(entry)
    audit_record(
        event=event,
        action="kalooki.selfentry.set_confirmed",
        user=None,
        obj=game_set,
        before=None,
        after={
            "round": game_set.table.round.number,
            "table": game_set.table.number,
            "entered_by": sorted(
                {f"seat {row.entered_seat} ({names.get(row.entered_seat, '?')})" for row in entries}
            ),
            "confirmed_by": [f"seat {first} ({names[first]})", f"seat {second} ({names[second]})"],
            "device": device_mark(device),
            "recorded": [row.number for row in outcome.recorded],
            "queued": [row.number for row in outcome.queued],
        },
        reason=_why(entries[0], names),
    )
    return outcome


@transaction.atomic
def self_entry_withdraw(*, key: TableKey, entry: SelfEntryDeal, seat: Any, seat_code: Any) -> SelfEntryDeal:
    """After the set (issue 23): a deal typed wrong, withdrawn before the set is confirmed by a player
    of the table proven by their seat slip's code, so it can be typed again. A game's hand only as the
    last entered (the hands after it were read from it). Set aside, audited; nothing was recorded."""
    game_set = _open_set(key)
    game = game_of(game_set.table.round.event)
    if game_set.table.round.event.self_entry != Event.SelfEntry.AFTER:
        raise ValidationError(f"Only a {game.unit} entered after play is withdrawn: ask the director.")
    entry = _waiting(entry, game_set, None)
    if game.of_hands:
        last = (
            SelfEntryDeal.objects.filter(game_set=game_set, status=SelfEntryDeal.Status.WAITING)
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
        )
        if entry.number != last:
            raise ValidationError(
                f"Hand {entry.number} is not the last hand entered: the hands after it were worked out from "
                f"it, so withdraw hand {last} first."
            )
    position, name = _proven(key, game_set, seat, seat_code)
    entry.status = SelfEntryDeal.Status.DISMISSED
    entry.settled_at = timezone.now()
    entry.settled_note = f"withdrawn by seat {position} ({name}) before the {game.unit} was confirmed"
    entry.version += 1
    entry.save()
    _audit(entry, "withdrawn", before={"status": "waiting"}, after=_state(entry), reason=entry.settled_note)
    return entry


@transaction.atomic
def self_entry_reject(
    *,
    key: TableKey,
    entry: SelfEntryDeal,
    seat: Any,
    device: str,
    reason: str,
    expected_version: int | None = None,
    seat_code: Any = "",
) -> SelfEntryDeal:
    """Another seat, proven by its code, rejects the deal, saying why: it waits for the director."""
    game_set = _open_set(key)
    entry = _waiting(entry, game_set, expected_version)
    position, name = _other_seat(key, entry, game_set, seat, seat_code)
    reason = (reason or "").strip()
    if not reason:
        raise field_errors({"reason": f"Say what is wrong with {_entered(entry, game_set)}."})
    if len(reason) > MAX_TEXT or "\x00" in reason:
        raise field_errors({"reason": f"Say it in at most {MAX_TEXT} characters."})
    entry.confirmed_seat = position
    entry.confirmed_device = _device(device)
    entry.confirmed_at = timezone.now()
    entry.objection = reason
    entry.status = SelfEntryDeal.Status.QUEUED
    entry.queue_reason = f"rejected by seat {position} ({name})"
    entry.version += 1
    entry.save()
    _audit(entry, "rejected", before={"status": "waiting"}, after=_state(entry), reason=reason)
    return entry


# --- the director's queue ----------------------------------------------------------------------


def _queued(entry: SelfEntryDeal, expected_version: int | None) -> tuple[SelfEntryDeal, GameSet]:
    game_set = locked_set(entry.game_set)
    entry = SelfEntryDeal.objects.select_for_update().get(pk=entry.pk)
    what = _entered(entry, game_set)
    check_version(entry, expected_version, what=what)
    if entry.status not in OPEN:
        raise ValidationError(f"{what.capitalize()} is settled already ({entry.get_status_display()}).")
    entry.game_set = game_set
    return entry, game_set


def _settle(entry: SelfEntryDeal, user, status: str, note: str) -> None:
    entry.status = status
    entry.settled_by = acting_user(user)
    entry.settled_at = timezone.now()
    entry.settled_note = note
    entry.version += 1
    entry.save()


@transaction.atomic
def self_entry_accept(*, entry: SelfEntryDeal, user, expected_version: int | None = None) -> SelfEntryDeal:
    """The director records the deal as the table entered it (through `deal_record`)."""
    entry, game_set = _queued(entry, expected_version)
    names = _seat_names(game_set)
    outcome = deal_record(
        game_set=game_set,
        user=user,
        data=entry.data,
        reason=_why(entry, names) + "; accepted by the director",
    )
    entry.deal = outcome.deal
    _settle(entry, user, SelfEntryDeal.Status.RECORDED, "accepted")
    _audit(entry, "accepted", before={"status": "queued"}, after=_state(entry), user=user)
    return entry


@transaction.atomic
def self_entry_correct(
    *,
    entry: SelfEntryDeal,
    user,
    data: Mapping[str, Any],
    expected_version: int | None = None,
    expected_set_version: int | None = None,
    reason: str = "",
) -> SelfEntryDeal:
    """The director records the deal as corrected in the entry form (through `deal_record`)."""
    entry, game_set = _queued(entry, expected_version)
    outcome = deal_record(
        game_set=game_set,
        user=user,
        data=data,
        expected_set_version=expected_set_version,
        reason=reason or f"corrected from the table's entry of deal {entry.number}",
    )
    entry.deal = outcome.deal
    _settle(entry, user, SelfEntryDeal.Status.RECORDED, "corrected")
    _audit(
        entry, "corrected", before={"status": "queued", "data": entry.data}, after=_state(entry), user=user
    )
    return entry


@transaction.atomic
def self_entry_dismiss(
    *, entry: SelfEntryDeal, user, reason: str, expected_version: int | None = None
) -> SelfEntryDeal:
    """The director rejects the table's entry (the deal is not recorded from it)."""
    entry, _ = _queued(entry, expected_version)
    reason = (reason or "").strip()
    if not reason:
        raise field_errors({"reason": "Say why the entry is rejected."})
    _settle(entry, user, SelfEntryDeal.Status.DISMISSED, reason[:MAX_TEXT])
    _audit(entry, "dismissed", before={"status": "queued"}, after=_state(entry), reason=reason, user=user)
    return entry
