"""British Kalooki games: record or correct a hand, verify a finished game or end one still running.

A British table plays a **game** (RULES.md B1–B9): hands until one player is left at or under the limit,
up to the ruleset's `max_hands`. Each write locks the game's set, checks the version it was read at,
reads the hand through `deal_input.read_british` (the engine's British reader), computes what the
paper leaves to arithmetic (a buy-in's reset value, B7), saves in one transaction, refreshes the
validator's findings (BV1–BV8) and appends one audit entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from adjudication.audit import acting_user, audit_record
from adjudication.engine.british_rules import BritishRuleSet
from adjudication.engine.british_sheet import BritishHand
from adjudication.engine.dealing import playing_position
from adjudication.engine.findings import format_finding

from ..deal_input import read_british
from ..errors import field_errors
from ..models import Deal, GameSet, Seat
from ..selectors.british_games import game_so_far
from ..selectors.british_standings import british_knockout_cuts
from ..sheets import deal_as_data, deals_of, findings_for_set, seats_of, sheet_from_rows
from .closing import round_close_if_complete
from .deals import DealOutcome, deal_row, in_playing_order, store_results
from .guards import SetLocked, check_version, describe_set, locked_set, sentence, set_changed, stale_edit

__all__ = [
    "british_game_verify",
    "british_hand_record",
    "british_hands_import",
    "british_qualifiers",
    "british_rules_of",
    "write_hand",
]

_RESULT_FIELDS = ("hand", "penalty", "total_written", "opened", "buy_in", "reset_to")


def british_rules_of(game_set: GameSet) -> BritishRuleSet:
    """The game's British ruleset; a ValidationError when the event plays another family."""
    rules = game_set.table.round.event.ruleset()
    if not isinstance(rules, BritishRuleSet):
        raise ValidationError(f"{sentence(describe_set(game_set))} is not a British Kalooki game.")
    return rules


def _with_resets(
    record: BritishHand, *, game_set: GameSet, seats: Sequence[Seat], before: Sequence[Deal], rules
) -> BritishHand:
    """B7 for the lines the director marked as buying in without a reset value: the highest total,
    after this hand, among the players at or under the limit; each line's total before the reset is
    filled in too when left blank, so the sheet shows it."""
    if record.void:
        return record
    state = game_so_far(game_set, seats, before)
    totals = {name: state.player(name).total + (line.penalty or 0) for name, line in record.results.items()}
    reset = rules.reset_value(totals.values())
    lines = {}
    for name, line in record.results.items():
        if line.buy_in and line.reset_to is None:
            if reset is None:
                raise field_errors({f"results.{name}.reset_to": "no player is at or under the limit"})
            line = replace(line, reset_to=reset, total=line.total if line.total is not None else totals[name])
        lines[name] = line
    return replace(record, results=lines)


def write_hand(
    *, game_set: GameSet, deal: Deal | None, record: BritishHand, seats: Sequence[Seat], sequence: int, user
) -> Deal:
    """Save `record` (read by `deal_input.read_british`) as `deal`, or as a new hand at `sequence`."""
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
        kalookie=record.kalookie,
        doubled=False,
        dealer=positions[record.dealer] if record.dealer else None,
    )
    lines = [
        (
            entries[name],
            {
                "hand": line.hand,
                "penalty": line.penalty if line.penalty is not None else 0,
                "total_written": line.total,
                "opened": line.opened,
                "buy_in": line.buy_in,
                "reset_to": line.reset_to if line.buy_in else None,
            },
        )
        for name, line in record.results.items()
    ]
    store_results(deal, lines, _RESULT_FIELDS)
    return deal


def _audit_data(deal: Deal, seats: Sequence[Seat]) -> dict[str, Any]:
    names = {seat.position: seat.entry.player.name for seat in seats}
    return {"sequence": deal.sequence, **deal_as_data(deal, names, british=True)}


@transaction.atomic
def british_hand_record(
    *,
    game_set: GameSet,
    user,
    data: Mapping[str, Any],
    deal: Deal | None = None,
    expected_version: int | None = None,
    expected_set_version: int | None = None,
    reason: str = "",
) -> DealOutcome:
    """Record the game's next hand (`deal=None`) or correct `deal`.

    `data` is one hand in the British sheet's shape, results keyed by the seated players' names:
    `{"deal": 12, "void": False, "out": "Ann", "kalookie": False, "dealer": "Bob",
      "results": {"Ann": {}, "Bob": {"hand": "AH 9C"} | {"penalty": 22, "buy_in": True}, ...}}`
    with optional `total` (as written), `opened` and `reset_to`. A penalty left blank is computed from
    the hand (the winner's is 0); a buy-in's reset value left blank is computed (B7). The hand's number
    defaults to the one due next (a void hand's replay keeps its number).

    Drafts with error findings are saved; the game's findings are returned. Raises ValidationError naming
    the field, SetLocked for a verified game, StaleEdit when the version read is out of date.
    """
    game_set = locked_set(game_set)
    event = game_set.table.round.event
    rules = british_rules_of(game_set)
    if game_set.is_verified:
        raise SetLocked(game_set)
    if deal is None:
        check_version(game_set, expected_set_version, what=describe_set(game_set))
    seats = seats_of(game_set)
    names = [seat.entry.player.name for seat in seats]
    deals = deals_of(game_set)
    current = None
    if deal is not None:
        current = next((row for row in deals if row.pk == deal.pk), None)
        if current is None:
            raise ValidationError("That hand is not part of this game (it may have been deleted).")
        check_version(current, expected_version, what=f"hand {current.number}")
    others = [row for row in deals if row is not current]
    if current is None:
        state = game_so_far(game_set, seats, others)
        if state.over:
            raise ValidationError(
                f"The game is over ({state.winner or 'no one'} is the last player in): correct a hand "
                "instead, or verify the game."
            )
        default_number = state.next_hand
    else:
        default_number = current.number
    record = read_british(data, players=names, rules=rules, default_number=default_number)
    if record.deal > rules.max_deal_number:
        raise field_errors({"deal": f"A {rules.name} game holds at most {rules.max_deal_number} hands."})
    if not record.void:
        clash = next((row for row in others if row.number == record.deal and not row.void), None)
        if clash is not None:
            if current is None:
                raise stale_edit(clash, what=f"hand {clash.number}", expected=None, current=None)
            raise field_errors({"deal": f"Hand {record.deal} is already recorded in this game."})
    earlier = [row for row in others if row.number < record.deal and not row.void]
    record = _with_resets(record, game_set=game_set, seats=seats, before=earlier, rules=rules)
    before = _audit_data(current, seats) if current else None
    played = [(row.number, row.void) for row in others]
    index = playing_position(played, record.deal, record.void)
    try:
        with transaction.atomic():
            saved = write_hand(
                game_set=game_set,
                deal=current,
                record=record,
                seats=seats,
                sequence=max([row.sequence for row in deals], default=0) + 1,
                user=user,
            )
            in_playing_order(game_set, others, saved, index)
    except IntegrityError as exc:
        raise ValidationError(f"The hand could not be saved: {exc}") from exc
    deals = deals_of(game_set)
    after = _audit_data(next(row for row in deals if row.pk == saved.pk), seats)
    verb = "corrected" if current else "recorded"
    sheet = sheet_from_rows(game_set, seats, deals)
    findings = set_changed(game_set, user, f"hand {saved.number} {verb}", sheet=sheet)
    audit_record(
        event=event,
        action=f"kalooki.hand.{verb}",
        user=user,
        obj=saved,
        before=before,
        after=after,
        reason=reason,
    )
    return DealOutcome(deal=saved, created=current is None, findings=findings)


def british_hands_import(
    *, game_set: GameSet, seats: Sequence[Seat], hands: Sequence[Any], rules: BritishRuleSet, user
) -> None:
    """A whole game sheet's hands written in order (`sheet_import`'s British half; the sheet was read
    whole by the engine first). Each hand is read again as one hand is (`deal_input.read_british`) for
    what storing needs; ValidationError names the place (`deals[3].results.Bob.hand`)."""
    names = [seat.entry.player.name for seat in seats]
    for index, raw in enumerate(hands):
        where = f"deals[{index}]"
        record = read_british(raw, players=names, rules=rules, path=where)
        with transaction.atomic():
            try:
                write_hand(
                    game_set=game_set, deal=None, record=record, seats=seats, sequence=index + 1, user=user
                )
            except IntegrityError:
                raise field_errors({f"{where}.deal": f"hand {record.deal} is scored twice"}) from None


@transaction.atomic
def british_game_verify(
    *,
    game_set: GameSet,
    user,
    expected_version: int | None = None,
    reason: str = "",
    acknowledge_warnings: bool = False,
) -> GameSet:
    """Verify a British game so its finishing order counts (BV8).

    A finished game with no error finding is verified as it is. A game still running (its round must
    end) is **ended by the director** with a written `reason`: the players left are placed by lower
    total. Error findings need a reason too (the signed paper is authoritative); the reason is shown
    publicly, as an override is.
    """
    game_set = locked_set(game_set)
    what = describe_set(game_set)
    check_version(game_set, expected_version, what=what)
    british_rules_of(game_set)
    if game_set.is_verified:
        raise ValidationError(f"{sentence(what)} is already verified.")
    seats = seats_of(game_set)
    deals = deals_of(game_set)
    state = game_so_far(game_set, seats, deals)
    findings = findings_for_set(game_set, sheet=sheet_from_rows(game_set, seats, deals))
    errors = [finding for finding in findings if finding.is_error]
    warnings = [finding for finding in findings if not finding.is_error and finding.code != "GAME_UNFINISHED"]
    reason = reason.strip()
    problems = []
    if state.hands == 0:
        raise ValidationError("The game has no scored hand yet: there is nothing to verify.")
    if not state.over:
        left = ", ".join(state.still_in)
        problems.append(f"the game is still running ({left} still in): end it with a reason")
    problems += [format_finding(finding) for finding in errors]
    if problems and not reason:
        raise ValidationError(
            [
                f"The game cannot be verified: {problems[0]}.",
                *problems[1:],
                "A director may end the game or override with a written reason: the players still in are "
                "then placed by lower total.",
            ],
            code="findings",
        )
    if warnings and not acknowledge_warnings:
        raise ValidationError(
            ["Acknowledge the warnings before verifying:"]
            + [format_finding(finding) for finding in warnings],
            code="warnings",
        )
    game_set.status = GameSet.Status.VERIFIED
    game_set.verified_by = acting_user(user)
    game_set.verified_at = timezone.now()
    game_set.override_reason = reason if problems else ""
    game_set.acknowledged_warnings = [finding.as_dict() for finding in warnings]
    game_set.full_clean()
    set_changed(game_set, user, "ended by the director" if not state.over else "verified")
    audit_record(
        event=game_set.table.round.event,
        action="kalooki.game.ended" if not state.over else "kalooki.set.verified",
        user=user,
        obj=game_set,
        before={"status": GameSet.Status.IN_PLAY},
        after={
            "status": GameSet.Status.VERIFIED,
            "override_reason": game_set.override_reason,
            "overridden": problems if game_set.override_reason else [],
            "still_in": list(state.still_in),
            "acknowledged_warnings": game_set.acknowledged_warnings,
        },
        reason=game_set.override_reason,
    )
    table = game_set.table
    round_close_if_complete(round=table.round, user=user, cause=f"table {table.number} verified")
    return game_set


def british_qualifiers(*, event, round_number: int, rng, user) -> list[int]:
    """Entry ids who go through from a British knock-out round, best first: at each game the first
    `advance` of its finishing order; players tied at the cut on place and that game's penalties go
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
