"""Settle a disputed lay-down (SCORESHEET.md, "Checking a disputed lay-down").

    python manage.py check_laydown --deal 3 "QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC" [--ruleset NAME]
    python manage.py check_laydown --ruleset british "KS KH KD KC | JK 7S 8S"
    python manage.py check_laydown --ruleset north-american "AS 2S 3S 4S | KD KH KC | QD QH QC"

Exit 0 and ``valid`` when the lay-down opens deal K's contract (Jamaican), makes a 40-point opening
(British, no ``--deal``) or a 51-point one with the ace high or low (North American, NA2, NA3, no
``--deal``); exit 1 and one line per broken rule; exit 2 and one message on standard error when the cards,
the deal number or the ruleset cannot be read.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from adjudication.engine.cards import Card
from adjudication.engine.disputes import (
    DealNeeded,
    Verdict,
    check_disputed_laydown,
    has_contracts,
    no_contracts,
)
from adjudication.engine.laydown import InvalidLaydown, parse_laydown
from adjudication.engine.rules import (
    DEFAULT_PRESET,
    PRESET_NAMES,
    AnyRuleSet,
    InvalidDeal,
    InvalidRuleSet,
    RuleSet,
    ruleset_from,
)

EXIT_INVALID = 1
EXIT_UNREADABLE = 2


class Unreadable(Exception):
    """The command line cannot be read; the message goes to standard error as it is."""


class Command(BaseCommand):
    help = (
        'Check whether a lay-down (melds separated by "|") opens deal K\'s contract (R4–R8, R10), or, '
        "with a British ruleset, makes a British opening (B2, B3), or with the north-american one a North "
        "American opening (NA2, NA3). "
        "Exit 0 valid, 1 a rule is broken, 2 unreadable."
    )
    # Pure engine work: no database, no URLs, so a director's check never waits on (or trips over) the site.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "melds",
            nargs="+",
            help='the melds in card notation separated by "|", e.g. "QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC"',
        )
        # Read as text so that a bad number gets the same one-line message as a bad card.
        parser.add_argument(
            "--deal",
            metavar="K",
            help="the deal number, 1–9 (Jamaican; a British or North American opening has no deal)",
        )
        parser.add_argument(
            "--ruleset",
            default=DEFAULT_PRESET,
            metavar="NAME",
            help=f"the ruleset preset ({', '.join(PRESET_NAMES)}; default {DEFAULT_PRESET})",
        )
        parser.add_argument("--format", choices=("text", "json"), default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rules = _ruleset(options["ruleset"])
            verdict = _verdict(rules, options["deal"], " ".join(options["melds"]))
        except Unreadable as error:
            self.stderr.write(str(error))
            raise SystemExit(EXIT_UNREADABLE) from None
        if options["format"] == "json":
            self.stdout.write(json.dumps(verdict.as_dict(), ensure_ascii=False, indent=2))
        else:
            for line in verdict.lines():
                self.stdout.write(line)
        if not verdict.valid:
            raise SystemExit(EXIT_INVALID)


def _verdict(rules: AnyRuleSet, deal: str | None, text: str) -> Verdict:
    """The lay-down against the game's rule: a Jamaican deal's contract, a British or a North American
    opening (the engine's one door, `check_disputed_laydown`)."""
    if deal is not None and not has_contracts(rules):
        raise Unreadable(f"--deal: {no_contracts(rules)}")
    melds = _melds(text)
    try:
        number = _deal_number(deal, rules) if deal is not None else None
        return check_disputed_laydown(melds, rules=rules, deal=number)
    except DealNeeded as error:
        raise Unreadable(f"--deal: {error}") from None


def _ruleset(name: str) -> AnyRuleSet:
    try:
        return ruleset_from(name)
    except InvalidRuleSet as error:
        raise Unreadable(f"--ruleset: {error.problem}") from None


def _deal_number(text: str, rules: RuleSet) -> int:
    try:
        deal = int(text.strip())
        rules.deal_size(deal)
    except ValueError:
        raise Unreadable(f"--deal: {InvalidDeal(text, len(rules.schedule))}") from None
    return deal


def _melds(text: str) -> tuple[tuple[Card, ...], ...]:
    try:
        return parse_laydown(text)
    except InvalidLaydown as error:
        raise Unreadable(str(error)) from None
