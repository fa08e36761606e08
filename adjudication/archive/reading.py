"""Reading an archive: every check, nothing written. `read_archive` returns the plan `restore.py` writes.

A sheet `validate_sheet` would refuse (exit 2), a player a sheet names who is not in `players`, a table
or round listed twice, a player seated twice in a round: `ArchiveError` names the first such place
(`rounds[0].tables[2].sheet.deals[3].results.Bob.calls: expected a whole number, got "two"`). Rulings
and audit entries that cannot be understood are counted, not refused. Unknown fields are ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.text import slugify

from adjudication.engine.rules import InvalidRuleSet, RuleSet, ruleset_from
from adjudication.engine.sheet import SheetError, check_nesting, got
from scoring.models import Event, GameSet
from scoring.names import checked_name, control_problem, look_alike_message, skeleton
from scoring.services.evidence import ArchivedPhoto

from ..audit import ArchivedEntry
from ..models import Ruling
from ..rulings import ArchivedRuling
from .door import read_door, read_player_extras
from .evidence import read_evidence
from .sheet_reading import read_sheet
from .values import (
    ArchiveError,
    date_at,
    flag_at,
    list_at,
    moment_at,
    moment_or_none,
    object_at,
    refuse_nul,
    text_at,
    whole_at,
)

EVENT_FORMAT = "kalooki-event/1"
# `event.correction_minutes` absent: the model's default period (issue 21); at most a week.
DEFAULT_CORRECTION_MINUTES = Event._meta.get_field("correction_minutes").default
MAX_CORRECTION_MINUTES = 7 * 24 * 60
TABLE_STATUSES = (GameSet.Status.IN_PLAY, GameSet.Status.VERIFIED)


@dataclass(frozen=True)
class PlayerPlan:
    path: str
    name: str
    club: str
    membership: str
    withdrawn: bool
    first_round: int | None
    # Issue 26: the parish and the consent to public lists (`door.read_player_extras`).
    extras: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TablePlan:
    path: str
    number: int
    status: str
    sheet: dict[str, Any]
    players: tuple[str, ...]
    override_reason: str
    corrected: bool
    rulings: tuple[ArchivedRuling, ...]
    rulings_not_understood: int
    # Issue 23: the photos of its signed sheet (`evidence.read_evidence`).
    evidence: tuple[ArchivedPhoto, ...] = ()

    @property
    def first_dealer(self) -> int:
        """The seat (1-4) of the sheet's first dealer; seat 1 when the sheet names none of its players."""
        name = self.sheet.get("first_dealer")
        return self.players.index(name) + 1 if name in self.players else 1


@dataclass(frozen=True)
class RoundPlan:
    path: str
    number: int
    seed: int | None
    method: str
    keep_clubs_apart: bool
    tables: tuple[TablePlan, ...]
    # `rounds[].closed`: None when absent (derived from the tables' status as they are verified).
    closed: bool | None = None
    # `rounds[].published_at`: absent = published (when imported); null = not published yet.
    published: bool = True
    published_at: Any = None
    # Final results (issue 21): `rounds[].final_at` given (a time, or None: held by an appeal or a
    # correction); not given, a closed round is final. `rounds[].corrected_after_final`: when a set of
    # it was reopened after it was final.
    final_given: bool = False
    final_at: datetime | None = None
    corrected_after_final: datetime | None = None


@dataclass(frozen=True)
class ArchivePlan:
    """Everything the archive says, checked, before anything is written."""

    event: dict[str, Any]
    players: tuple[PlayerPlan, ...]
    rounds: tuple[RoundPlan, ...]
    audit: tuple[ArchivedEntry, ...]
    audit_not_understood: int
    # Issue 26: the door's part, checked (`door.read_door`); None when the archive has none.
    door: dict[str, Any] | None = None


def read_archive(data: Any, *, slug: str = "") -> ArchivePlan:
    """Check the whole archive without writing anything; ArchiveError names the first problem."""
    top = object_at(data, "")
    # A value handed over already decoded gets the depth limit a file gets (`archive_loads`), before
    # anything walks it.
    within_depth(top, "")
    refuse_nul(top, "")
    if top.get("format") != EVENT_FORMAT:
        found = got(top["format"]) if "format" in top else "nothing"
        raise ArchiveError("format", f'expected "{EVENT_FORMAT}", got {found}')
    event = read_event(top.get("event"), slug)
    event_rules = ruleset_from(event["ruleset_preset"], event["rules_overrides"])
    players = read_players(top.get("players"))
    rounds = read_rounds(top.get("rounds"), event_rules, {player.name for player in players})
    raw_audit = top.get("audit")
    audit = [
        read_audit_entry(item, f"audit[{index}]")
        for index, item in enumerate(raw_audit if isinstance(raw_audit, list) else [])
    ]
    understood = tuple(entry for entry in audit if entry is not None)
    return ArchivePlan(
        event=event,
        players=players,
        rounds=rounds,
        audit=understood,
        audit_not_understood=len(audit) - len(understood),
        door=read_door(top.get("door"), {player.name for player in players}),
    )


def read_event(raw: Any, slug: str) -> dict[str, Any]:
    """The event's fields as `event_create` takes them; `slug` (when given) replaces the archive's."""
    head = object_at(raw, "event")
    rules = head.get("rules") or {}
    object_at(rules, "event.rules")
    ruleset = text_at(head.get("ruleset"), "event.ruleset", default="jamaican") or "jamaican"
    try:
        ruleset_from(ruleset, rules)
    except InvalidRuleSet as exc:
        raise ArchiveError(f"event.{exc.path}", exc.problem) from None
    except (TypeError, ValueError) as exc:
        raise ArchiveError("event.rules", str(exc)) from None
    name = text_at(head.get("name"), "event.name", required=True)
    if slug:
        chosen, slug_path = slug, "slug"
    else:
        chosen, slug_path = text_at(head.get("slug"), "event.slug") or slugify(name)[:100], "event.slug"
    if not chosen or slugify(chosen) != chosen:
        raise ArchiveError(slug_path, f"expected letters, digits and hyphens, got {got(chosen)}")
    tiebreaks = head.get("tiebreaks")
    if tiebreaks is not None:
        for index, key in enumerate(list_at(tiebreaks, "event.tiebreaks")):
            text_at(key, f"event.tiebreaks[{index}]", required=True)
    points = head.get("placement_points")
    if points is not None:
        for index, value in enumerate(list_at(points, "event.placement_points")):
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ArchiveError(
                    f"event.placement_points[{index}]",
                    f"expected a number of points of at least 0, got {got(value)}",
                )
    return {
        "name": name,
        "slug": chosen,
        "date_start": date_at(head.get("date"), "event.date"),
        "date_end": date_at(head.get("date_end"), "event.date_end", optional=True),
        "venue": text_at(head.get("venue"), "event.venue"),
        "ruleset_preset": ruleset,
        "rules_overrides": rules,
        "format": text_at(head.get("format"), "event.format", default=Event.Format.CUMULATIVE)
        or Event.Format.CUMULATIVE,
        "advance": whole_at(head.get("advance"), "event.advance", optional=True),
        "tiebreaks": tiebreaks,
        "placement_points": list(points or []),
        "paper": text_at(head.get("paper"), "event.paper", default=Event.Paper.A4) or Event.Paper.A4,
        "correction_minutes": whole_at(
            head.get("correction_minutes", DEFAULT_CORRECTION_MINUTES),
            "event.correction_minutes",
            minimum=0,
            maximum=MAX_CORRECTION_MINUTES,
        ),
    }


def read_players(raw: Any) -> tuple[PlayerPlan, ...]:
    players = []
    names: dict[str, str] = {}
    memberships: dict[str, str] = {}
    shapes: dict[str, tuple[str, str, str]] = {}
    for index, item in enumerate(list_at(raw, "players")):
        path = f"players[{index}]"
        item = object_at(item, path)
        name = _player_name(item.get("name"), f"{path}.name", shapes)
        if name.casefold() in names:
            raise ArchiveError(f"{path}.name", f"{got(name)} is listed twice (also {names[name.casefold()]})")
        names[name.casefold()] = path
        for key, what in (("club", "club"), ("membership", "membership id")):
            problem = control_problem(text_at(item.get(key), f"{path}.{key}"), what)
            if problem:
                raise ArchiveError(f"{path}.{key}", problem)
        membership = text_at(item.get("membership"), f"{path}.membership")
        if membership and membership in memberships:
            raise ArchiveError(
                f"{path}.membership", f"{got(membership)} is listed twice (also {memberships[membership]})"
            )
        if membership:
            memberships[membership] = path
        players.append(
            PlayerPlan(
                path=path,
                name=name,
                club=text_at(item.get("club"), f"{path}.club"),
                membership=membership,
                withdrawn=flag_at(item.get("withdrawn"), f"{path}.withdrawn"),
                first_round=whole_at(item.get("first_round"), f"{path}.first_round", optional=True),
                extras=read_player_extras(item, path),
            )
        )
    return tuple(players)


def _player_name(value: Any, path: str, shapes: dict[str, tuple[str, str, str]]) -> str:
    """A player's name as the services would take it (`scoring.names`: no control character, no
    mixed look-alike scripts), and not a look-alike of a name listed before it."""
    name = text_at(value, path, required=True)
    try:
        name, key = checked_name(name)
    except ValidationError as exc:
        raise ArchiveError(path, " ".join(exc.messages).rstrip(".")) from None
    other_key, other, where = shapes.setdefault(skeleton(name), (key, name, path))
    if other_key != key:
        raise ArchiveError(path, look_alike_message(name, other, where=f"listed at {where}"))
    return name


def read_rounds(raw: Any, event_rules: RuleSet, players: set[str]) -> tuple[RoundPlan, ...]:
    rounds = []
    numbers: dict[int, str] = {}
    for index, item in enumerate(list_at(raw if raw is not None else [], "rounds")):
        path = f"rounds[{index}]"
        item = object_at(item, path)
        number = whole_at(item.get("number"), f"{path}.number")
        if number in numbers:
            raise ArchiveError(f"{path}.number", f"round {number} is listed twice (also {numbers[number]})")
        numbers[number] = path
        tables = read_tables(item.get("tables"), path, number, event_rules, players)
        seed = item.get("seed")
        rounds.append(
            RoundPlan(
                path=path,
                number=number,
                seed=whole_at(seed, f"{path}.seed", minimum=-(2**63), maximum=2**63 - 1, optional=True),
                method=text_at(item.get("method"), f"{path}.method"),
                keep_clubs_apart=flag_at(item.get("keep_clubs_apart"), f"{path}.keep_clubs_apart"),
                tables=tables,
                closed=None if item.get("closed") is None else flag_at(item["closed"], f"{path}.closed"),
                published="published_at" not in item or item["published_at"] is not None,
                published_at=_published_at(item, path),
                final_given="final_at" in item,
                final_at=moment_at(item.get("final_at"), f"{path}.final_at"),
                corrected_after_final=moment_at(
                    item.get("corrected_after_final"), f"{path}.corrected_after_final"
                ),
            )
        )
    return tuple(rounds)


def _published_at(item: dict[str, Any], path: str):
    raw = item.get("published_at")
    if raw is None:
        return None
    moment = moment_or_none(raw)
    if moment is None:
        raise ArchiveError(f"{path}.published_at", f"{raw!r} is not an ISO date and time")
    return moment


def read_tables(
    raw: Any, round_path: str, number: int, event_rules: RuleSet, players: set[str]
) -> tuple[TablePlan, ...]:
    tables = []
    numbers: dict[int, str] = {}
    seated: dict[str, str] = {}
    for index, item in enumerate(list_at(raw if raw is not None else [], f"{round_path}.tables")):
        path = f"{round_path}.tables[{index}]"
        item = object_at(item, path)
        table_number = whole_at(item.get("number"), f"{path}.number")
        if table_number in numbers:
            raise ArchiveError(
                f"{path}.number",
                f"table {table_number} is listed twice in round {number} (also {numbers[table_number]})",
            )
        numbers[table_number] = path
        status = item.get("status", GameSet.Status.IN_PLAY)
        if status not in TABLE_STATUSES:
            raise ArchiveError(f"{path}.status", f"expected in_play or verified, got {got(status)}")
        if "sheet" not in item:
            raise ArchiveError(f"{path}.sheet", "missing: every table carries its score sheet")
        sheet = read_sheet(item["sheet"], f"{path}.sheet", event_rules, players)
        for seat, name in enumerate(sheet["players"]):
            if name in seated:
                raise ArchiveError(
                    f"{path}.sheet.players[{seat}]",
                    f"{got(name)} already sits at another table in round {number} ({seated[name]})",
                )
            seated[name] = path
        raw_rulings = item.get("rulings")
        rulings = [read_ruling(ruling) for ruling in (raw_rulings if isinstance(raw_rulings, list) else [])]
        understood = tuple(ruling for ruling in rulings if ruling is not None)
        tables.append(
            TablePlan(
                path=path,
                number=table_number,
                status=status,
                sheet=sheet,
                players=tuple(sheet["players"]),
                override_reason=text_at(item.get("override_reason"), f"{path}.override_reason"),
                corrected=flag_at(
                    item.get("corrected_after_verification"), f"{path}.corrected_after_verification"
                ),
                rulings=understood,
                rulings_not_understood=len(rulings) - len(understood),
                evidence=read_evidence(item.get("evidence"), f"{path}.evidence"),
            )
        )
    return tuple(tables)


AS_WRITTEN = ("deal", "player", "kind", "points", "status", "score_included")


def read_ruling(raw: Any) -> ArchivedRuling | None:
    """An exported ruling as clean values, or None when it cannot be understood. Whether its deal
    and player are the sheet's is `ruling_restore`'s to say."""
    if not isinstance(raw, dict):
        return None
    sequence, player, points = raw.get("sequence"), raw.get("player"), raw.get("points", 0)
    kind, status = raw.get("kind"), raw.get("status")
    # A ruling whose deal was deleted names the deal by number alone and is withdrawn.
    deal_number = raw.get("deal") if raw.get("deal_deleted") is True else None
    if deal_number is not None:
        if type(deal_number) is not int or not 1 <= deal_number <= 9 or sequence is not None:
            return None
        status = Ruling.Status.WITHDRAWN
    if (
        (type(sequence) is not int and deal_number is None)
        or not isinstance(player, str)
        or kind not in Ruling.Kind.values
        or status not in Ruling.Status.values
        or type(points) is not int
        or points < 0
        or (kind == Ruling.Kind.OTHER and points < 1)
    ):
        return None
    texts = {}
    for key in ("rule", "reason", "appeal_reason", "decision_reason"):
        value = raw.get(key) or ""
        if not isinstance(value, str):
            return None
        texts[key] = value
    moments = {}
    for key in ("issued_at", "appealed_at", "decided_at"):
        value = raw.get(key)
        moment = moment_or_none(value)
        if value is not None and moment is None:
            return None
        moments[key] = moment
    return ArchivedRuling(
        sequence=sequence,
        deal_number=deal_number,
        player=player,
        kind=kind,
        points=points,
        status=status,
        **texts,
        **moments,
        # With `score_included` when given: what overturning the restored ruling takes back.
        as_written={key: raw.get(key) for key in AS_WRITTEN if key in raw or key != "score_included"},
    )


def read_audit_entry(raw: Any, path: str) -> ArchivedEntry | None:
    """An exported audit entry, or None when it cannot be understood (not a `kalooki.` action, no time).

    Its before/after values are refused (ArchiveError naming the place) when nested deeper than the
    spec's JSON limit or longer than `MAX_AUDIT_VALUE` characters as JSON: the log keeps them, and
    every page listing the entry would have to read them."""
    if not isinstance(raw, dict):
        return None
    for key in ("before", "after"):
        audit_value_within_limits(raw.get(key), f"{path}.{key}")
    action, created = raw.get("action"), moment_or_none(raw.get("at"))
    if not isinstance(action, str) or not action.startswith("kalooki.") or created is None:
        return None
    username, object_repr, reason = (raw.get(key) or "" for key in ("user", "object", "reason"))
    if not all(isinstance(text, str) for text in (username, object_repr, reason)):
        return None
    return ArchivedEntry(
        created_at=created,
        action=action,
        username=username,
        object_repr=object_repr,
        before=raw.get("before"),
        after=raw.get("after"),
        reason=reason,
    )


# An entry's before/after as JSON text: a whole sheet is a few kilobytes, a 20,000-player import's
# list of names a few hundred.
MAX_AUDIT_VALUE = 1_000_000


def audit_value_within_limits(value: Any, path: str) -> None:
    """ArchiveError unless `value` nests at most MAX_DEPTH levels (the value itself is level 1) and
    is at most MAX_AUDIT_VALUE characters as JSON."""
    within_depth(value, path)
    size = len(json.dumps(value, ensure_ascii=False, default=str))
    if size > MAX_AUDIT_VALUE:
        raise ArchiveError(path, f"a value of {size:,} characters; at most {MAX_AUDIT_VALUE:,} are allowed")


def within_depth(value: Any, path: str) -> None:
    """ArchiveError naming the place when `value` nests deeper than the spec's MAX_DEPTH levels."""
    try:
        check_nesting(value, path, texts=False)
    except SheetError as exc:
        raise ArchiveError(exc.path, exc.problem) from None
