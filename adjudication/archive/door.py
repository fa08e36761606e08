"""The door's part of an archive (SCORESHEET.md, "An event archive"; issue 26): `door` holds check-in
(the setting and who checked in when, at the door or not), the waitlist (the field cap, the release
time and who waits, in order), the fees and every fee line (voided ones too) and the prize table;
`players[]` carries `parish` and `consent_public` (absent: true). A date of birth is never exported.

`door_export` gives None for an event that uses none of it, so older archives come back unchanged.
`read_door` checks the part (names must be in `players`); `scoring.services.door.door_restore` writes it.
"""

from __future__ import annotations

from typing import Any

from adjudication.engine.sheet import got
from scoring.door_models import EventFees, EventWaitlist, FeeLine, PlayerDetails
from scoring.models import Entry, Event
from scoring.prizes import amounts_problem, read_category, typed_prize_table

from .values import ArchiveError, flag_at, list_at, moment_at, object_at, text_at, whole_at

MONEY = 10**12


def _money(value: Any, path: str) -> int:
    return whole_at(value, path, minimum=0, maximum=MONEY)


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def door_export(event: Event) -> dict[str, Any] | None:
    """The event's `door` object, or None when the event uses none of the door."""
    names = dict(Entry.objects.filter(event=event).values_list("pk", "player__name"))
    door: dict[str, Any] = {}
    if event.check_in:
        door["check_in"] = True
    checked = (
        Entry.objects.filter(event=event)
        .filter(checked_in_at__isnull=False)
        .order_by("pk")
        .values_list("pk", "checked_in_at", "at_door")
    )
    check_ins = [{"player": names[pk], "at": _iso(at), "at_door": door_flag} for pk, at, door_flag in checked]
    # Entered at the door and checked out since: kept, as added at the door.
    gone = (
        Entry.objects.filter(event=event, at_door=True, checked_in_at__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    check_ins += [{"player": names[pk], "at": None, "at_door": True} for pk in gone]
    if check_ins:
        door["check_ins"] = check_ins
    waitlist = EventWaitlist.objects.filter(event=event).first()
    waiting = list(
        Entry.objects.filter(event=event, status=Entry.Status.WAITLISTED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if waitlist is not None or waiting:
        door["waitlist"] = {
            "cap": waitlist.cap if waitlist else None,
            "release_at": _iso(waitlist.release_at) if waitlist else None,
            "released_at": _iso(waitlist.released_at) if waitlist else None,
            "players": [names[pk] for pk in waiting],
        }
    fees = EventFees.objects.filter(event=event).first()
    lines = FeeLine.objects.filter(event=event).order_by("recorded_at", "pk")
    if fees is not None or lines.exists():
        door["fees"] = {
            "currency": fees.currency if fees else "",
            "decimals": fees.decimals if fees else 2,
            "schedule": list(fees.schedule) if fees else [],
            "lines": [
                {
                    "player": names[line.entry_id],
                    "fee": line.fee,
                    "amount": line.amount,
                    "method": line.method,
                    "note": line.note,
                    "reason": line.reason,
                    "recorded_at": _iso(line.recorded_at),
                    **(
                        {"voided_at": _iso(line.voided_at), "void_reason": line.void_reason}
                        if line.is_void
                        else {}
                    ),
                }
                for line in lines
            ],
        }
    if event.prizes:
        door["prizes"] = event.prizes
    return door or None


def player_extras(event: Event) -> dict[int, dict[str, Any]]:
    """{entry id: the `players[]` fields of issue 26}: `parish` when set, `consent_public` when false."""
    extras: dict[int, dict[str, Any]] = {}
    rows = PlayerDetails.objects.filter(player__entries__event=event).values_list(
        "player__entries__pk", "parish", "consent_public"
    )
    for pk, parish, consent in rows:
        item: dict[str, Any] = {}
        if parish:
            item["parish"] = parish
        if not consent:
            item["consent_public"] = False
        if item:
            extras[pk] = item
    return extras


def read_player_extras(item: dict[str, Any], path: str) -> dict[str, Any]:
    parish = text_at(item.get("parish"), f"{path}.parish")
    consent = item.get("consent_public", True)
    if not isinstance(consent, bool):
        raise ArchiveError(f"{path}.consent_public", f"expected true or false, got {got(consent)}")
    # Only what differs from a player without details: an archive without these fields adds nothing.
    extras: dict[str, Any] = {}
    if parish.strip():
        extras["parish"] = parish.strip()[:100]
    if consent is False:
        extras["consent_public"] = False
    return extras


def _name(value: Any, path: str, players: set[str]) -> str:
    name = text_at(value, path, required=True)
    if name not in players:
        raise ArchiveError(path, f"{got(name)} is not in players")
    return name


def _amounts(value: Any, path: str) -> list[int]:
    amounts = [_money(item, f"{path}[{index}]") for index, item in enumerate(list_at(value, path))]
    problem = amounts_problem(amounts)
    if problem:
        raise ArchiveError(path, problem)
    return amounts


def _prizes(raw: Any, path: str) -> dict[str, Any]:
    table = object_at(raw, path)
    categories = []
    for index, item in enumerate(list_at(table.get("categories", []), f"{path}.categories")):
        where = f"{path}.categories[{index}]"
        item = object_at(item, where)
        categories.append(
            {
                "name": text_at(item.get("name"), f"{where}.name", required=True),
                "field": text_at(item.get("field"), f"{where}.field", required=True),
                "op": text_at(item.get("op"), f"{where}.op", required=True),
                "value": text_at(item.get("value"), f"{where}.value", required=True),
                "places": _amounts(item.get("places"), f"{where}.places"),
            }
        )
    # Each category must be one the prize table's form could have written.
    for index, line in enumerate(
        typed_prize_table({"categories": categories}).get("categories", "").splitlines()
    ):
        try:
            read_category(line, number=index + 1)
        except ValueError as exc:
            raise ArchiveError(f"{path}.categories[{index}]", str(exc)) from None
    return {
        "currency": text_at(table.get("currency"), f"{path}.currency", required=True),
        "decimals": whole_at(table.get("decimals", 2), f"{path}.decimals", minimum=0, maximum=4),
        "places": _amounts(table.get("places", []), f"{path}.places"),
        "categories": categories,
        "multiple": flag_at(table.get("multiple"), f"{path}.multiple"),
    }


def read_door(raw: Any, players: set[str]) -> dict[str, Any] | None:
    """The `door` object checked (ArchiveError names the place), as `door_restore` takes it."""
    if raw is None:
        return None
    door = object_at(raw, "door")
    plan: dict[str, Any] = {"check_in": flag_at(door.get("check_in"), "door.check_in"), "check_ins": []}
    for index, item in enumerate(list_at(door.get("check_ins", []), "door.check_ins")):
        where = f"door.check_ins[{index}]"
        item = object_at(item, where)
        plan["check_ins"].append(
            {
                "player": _name(item.get("player"), f"{where}.player", players),
                "at": moment_at(item.get("at"), f"{where}.at"),
                "at_door": flag_at(item.get("at_door"), f"{where}.at_door"),
            }
        )
    if "waitlist" in door:
        raw_wait = object_at(door["waitlist"], "door.waitlist")
        cap = raw_wait.get("cap")
        plan["waitlist"] = {
            "cap": None if cap is None else whole_at(cap, "door.waitlist.cap", minimum=2, maximum=MONEY),
            "release_at": moment_at(raw_wait.get("release_at"), "door.waitlist.release_at"),
            "released_at": moment_at(raw_wait.get("released_at"), "door.waitlist.released_at"),
            "players": [
                _name(name, f"door.waitlist.players[{index}]", players)
                for index, name in enumerate(list_at(raw_wait.get("players", []), "door.waitlist.players"))
            ],
        }
    if "fees" in door:
        plan["fees"] = _fees(object_at(door["fees"], "door.fees"), players)
    if door.get("prizes"):
        plan["prizes"] = _prizes(door["prizes"], "door.prizes")
    return plan


def _fees(fees: dict[str, Any], players: set[str]) -> dict[str, Any]:
    schedule = []
    for index, item in enumerate(list_at(fees.get("schedule", []), "door.fees.schedule")):
        item = object_at(item, f"door.fees.schedule[{index}]")
        schedule.append(
            {
                "name": text_at(item.get("name"), f"door.fees.schedule[{index}].name", required=True),
                "amount": _money(item.get("amount"), f"door.fees.schedule[{index}].amount"),
            }
        )
    lines = []
    for index, item in enumerate(list_at(fees.get("lines", []), "door.fees.lines")):
        where = f"door.fees.lines[{index}]"
        item = object_at(item, where)
        method = text_at(item.get("method"), f"{where}.method", required=True)
        if method not in FeeLine.Method.values:
            raise ArchiveError(
                f"{where}.method", f"expected one of {', '.join(FeeLine.Method.values)}, got {got(method)}"
            )
        reason = text_at(item.get("reason"), f"{where}.reason")
        if method == FeeLine.Method.WAIVED and not reason.strip():
            raise ArchiveError(f"{where}.reason", "a waiver needs a reason")
        lines.append(
            {
                "player": _name(item.get("player"), f"{where}.player", players),
                "fee": text_at(item.get("fee"), f"{where}.fee", required=True)[:100],
                "amount": _money(item.get("amount"), f"{where}.amount"),
                "method": method,
                "note": text_at(item.get("note"), f"{where}.note")[:200],
                "reason": reason[:500],
                "recorded_at": moment_at(item.get("recorded_at"), f"{where}.recorded_at"),
                "voided_at": moment_at(item.get("voided_at"), f"{where}.voided_at"),
                "void_reason": text_at(item.get("void_reason"), f"{where}.void_reason")[:500],
            }
        )
    return {
        "currency": text_at(fees.get("currency"), "door.fees.currency")[:3],
        "decimals": whole_at(fees.get("decimals", 2), "door.fees.decimals", minimum=0, maximum=4),
        "schedule": schedule,
        "lines": lines,
    }
