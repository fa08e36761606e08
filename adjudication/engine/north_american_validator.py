"""The North American Kaluki validator: checks NV1–NV4 of RULES.md with the codes of SCORESHEET.md.

``validator.validate`` and ``validator.validate_data`` hand a North American sheet to
:func:`validate_north_american`. The walk is the British one (``british_validator``: hand numbers and void
hands, B8; who deals, B1; the card supply; what a hand or a score without one can be) with the North
American game in place of the limit: everyone plays every hand, the hand size is the table's (NA1), the
winner collects the others' hand values (NV1), the totals grow only by what was collected (NV3), and the
game is ``hands`` scored hands long (NV4). After a defect it carries on from what the sheet says (a wrong
``collected`` is reported once; the winner's total builds on the value written), so one mistake gives one
finding, not one per later hand.

"One defect, one code" as for the other games: for one player in one hand the score codes exclude each
other (with a hand PENALTY_MISMATCH; without one NONWINNER_ZERO, then PENALTY_RANGE); hand size, totals,
``collected`` and card supply are separate defects.

>>> from .sheet import parse_sheet
>>> sheet = parse_sheet({"format": "kalooki-sheet/1", "ruleset": "north-american", "rules": {"hands": 2},
...     "players": ["Ann", "Bob"], "deals": [{"deal": 1, "out": "Ann", "results": {
...         "Ann": {"penalty": 0, "collected": 60, "total": 60},
...         "Bob": {"hand": "AH 9C JK 2S", "opened": True, "penalty": 50, "total": 0}}}]})
>>> [(item.code, item.player, item.expected, item.found) for item in validate_north_american(sheet)]
[('COLLECTED_MISMATCH', 'Ann', 50, 60), ('PENALTY_MISMATCH', 'Bob', 51, 50), ('GAME_UNFINISHED', None, 2, 1)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from .british_rules import UPCARD
from .british_validator import Dealers, GameWalk, HandSequence
from .findings import Finding
from .north_american_rules import NorthAmericanRuleSet
from .north_american_sheet import NorthAmericanHand, NorthAmericanResult, NorthAmericanSheet
from .packed_hands import CAPACITY, packing

__all__ = ["validate_north_american"]


def validate_north_american(sheet: NorthAmericanSheet) -> list[Finding]:
    """The findings for a North American game sheet, sorted by hand then seat (empty when it is clean).

    >>> from .north_american_simulator import simulate_north_american_sheet
    >>> from .sheet import parse_sheet
    >>> validate_north_american(parse_sheet(simulate_north_american_sheet(5)))
    []
    """
    return NorthAmericanGameWalk(sheet).run()


class NorthAmericanGameWalk(GameWalk):
    """One North American game's walk: the British walk's checks of a hand, cited by NA and NV rules,
    with NA6's scoring in place of the limit and the buy-ins."""

    RULE: ClassVar[Mapping[str, str]] = {
        "table": "NA1",
        "dealer": "B1",
        "winner": "NV1",
        "hand_size": "NV2",
        "range": "NV2",
        "supply": "NA1",
        "totals": "NV3",
        "value": "NA4",
        "sequence": "NV4",
    }

    def __init__(self, sheet: NorthAmericanSheet) -> None:
        # Not the British walk's state (no limit, buy-ins or eliminations): only what its shared checks read.
        rules = sheet.rules
        self.na_rules: NorthAmericanRuleSet = rules
        self.na_sheet = sheet
        # The shared checks read the deck (decks, jokers, value_bounds) and first_dealer, which both have.
        self.rules = rules  # type: ignore[assignment]
        self.sheet = sheet  # type: ignore[assignment]
        self.players = sheet.players
        self.seats = {name: seat for seat, name in enumerate(sheet.players)}
        self.findings: list[Finding] = []
        self.packing = packing(rules.card_values, rules.decks, rules.jokers)
        # NV3: each player's true running total; None once a missing score makes it unknown.
        self.running: dict[str, int | None] = dict.fromkeys(sheet.players, 0)
        # Everyone plays every hand (no one goes out of a North American game): the dealers' walk asks.
        self.still_in = dict.fromkeys(sheet.players, True)
        count = len(sheet.players)
        # NA1, NV2: the hand size of this table; an opened hand holds 1 … that size − 5.
        self.unopened = rules.hand_size_for(count)
        self.fewest_opening = rules.fewest_opening_cards
        self.opened_most = rules.opened_hand_sizes(count)[1]
        self.cheapest = rules.value_bounds(1)[0]
        self.ranges: dict[bool | None, list[tuple[int, int]]] = {}
        self.hands = rules.hands or 0

    def run(self) -> list[Finding]:
        self._player_count()
        sequence = HandSequence(self)
        dealers = Dealers(self)
        scored = 0
        for hand in self.na_sheet.deals:
            if scored >= self.hands and not hand.void:
                # NV4: a hand past `hands`; what follows is not part of the game.
                self._add(
                    "GAME_OVER", hand.deal, rule="NV4", variant="hands", expected=self.hands, found=hand.deal
                )
                break
            sequence.see(hand)
            dealers.see(hand)
            if hand.void:
                self._void(hand)
            else:
                self._scored_hand(hand)
                scored += 1
                dealers.passed()
        if scored < self.hands:
            self._add("GAME_UNFINISHED", None, rule="NV4", variant="hands", expected=self.hands, found=scored)
        return self._sorted_findings()

    # --- the table (NA1) ------------------------------------------------------------------------

    def _player_count(self) -> None:
        rules = self.na_rules
        count = len(self.players)
        if rules.min_players <= count <= rules.max_players and rules.can_deal(count):
            return
        seatable = [n for n in range(rules.min_players, rules.max_players + 1) if rules.can_deal(n)]
        allowed = f"{rules.min_players}–{max(seatable, default=rules.min_players)}"
        if not rules.min_players <= count <= rules.max_players:
            self._add("PLAYER_COUNT", None, rule="NA1", expected=allowed, found=count)
        elif not rules.can_deal(count):
            self._add(
                "PLAYER_COUNT",
                None,
                rule="NA1",
                variant="hands",
                expected=allowed,
                found=count,
                needed=count * self.unopened + UPCARD,
                hand_size=self.unopened,
                deck=rules.deck_size,
            )

    # --- a scored hand --------------------------------------------------------------------------

    def _scored_hand(self, hand: NorthAmericanHand) -> None:
        number = hand.deal
        out = hand.out
        results = hand.results
        if out is None:
            self._add("NO_WINNER", number, rule="NV1", variant="hand")
        packed = self.packing
        tokens_get = packed.tokens.__getitem__
        value_mask, value_bits = packed.value_mask, packed.value_bits
        running = self.running
        unopened, most = self.unopened, self.opened_most
        ranges = self.ranges
        deal_cards = 0
        deal_tokens = 0
        others = 0  # NV1: the sum of the non-winners' penalties, what the winner collects
        others_known = True
        winner: NorthAmericanResult | None = None
        for name in self.players:
            line = results.get(name)
            if line is None:
                self._add("MISSING_RESULT", number, name, rule="NV1", variant="hand")
                running[name] = None
                others_known = others_known and name == out
                continue
            held = -1  # cards in a readable hand; -1 without one
            value = 0
            text = line.hand
            if text is not None:
                tokens = text.replace(",", " ").split() if "," in text else text.split()
                try:
                    packed_hand = sum(map(tokens_get, tokens))
                    held = len(tokens)
                except KeyError:
                    packed_hand, held = self._unusual_hand(number, name, tokens)
                value = packed_hand & value_mask
                deal_cards += packed_hand >> value_bits
                deal_tokens += len(tokens)
            penalty = line.penalty
            if penalty is None:
                self._add("MISSING_RESULT", number, name, rule="NV1", variant="hand_penalty")
                running[name] = line.total
                others_known = others_known and name == out
                continue
            if name == out:
                if penalty or held > 0:
                    self._winner(number, name, penalty, held)
                # The winner's total waits for the others' penalties (NV1).
                winner = line
                continue
            others += penalty
            # NV2 by the table's hand size, NA4 values (no doubling: NA6); the shared checks run only when
            # the quick test fails. Without an `out` (NO_WINNER), an empty hand scoring nothing is likely
            # the unrecorded winner: not checked.
            opened = line.opened
            if held >= 0:
                fits = (
                    (held == unopened or 0 < held <= most)
                    if opened is None
                    else (0 < held <= most if opened else held == unopened)
                )
                if (not fits or penalty != value) and (out is not None or held > 0 or penalty):
                    self._non_winner(number, name, opened, penalty, held, value, 1)
            elif (out is not None or penalty) and not any(
                low <= penalty <= high for low, high in ranges.get(opened) or self._ranges(opened)
            ):
                self._non_winner(number, name, opened, penalty, held, value, 1)
            collected = line.collected
            if collected and out is not None:
                self._add(
                    "COLLECTED_MISMATCH", number, name, variant="not_winner", expected=0, found=collected
                )
                collected = 0
            # NV3: a non-winner's total stays (with no winner recorded, a written `collected` is the
            # sheet's word).
            so_far = running[name]
            total = line.total
            if so_far is None:
                running[name] = total
            elif collected or (total is not None and total != so_far):
                self._total(number, name, total, collected or 0)
        if deal_tokens > CAPACITY or packed.over_limit(deal_cards):
            self._card_supply(number, results, deal_cards, deal_tokens)
        if winner is not None and out is not None:
            self._winner_total(number, out, winner, others if others_known else None)

    def _winner_total(self, number: int, name: str, line: NorthAmericanResult, others: int | None) -> None:
        """NV1: the winner collects the others' penalties (None: one is missing); NV3: their total grows."""
        collected = line.collected
        if collected is None:
            self._total(number, name, line.total, others)
            return
        if others is not None and collected != others:
            self._add("COLLECTED_MISMATCH", number, name, expected=others, found=collected)
            so_far = self.running[name]
            if so_far is not None and line.total == so_far + others:
                # The total follows what should have been collected: the one defect is `collected`.
                self.running[name] = line.total
                return
        # Later totals build on the value written, whatever it should have been (NV3).
        self._total(number, name, line.total, collected)

    def _total(self, number: int, name: str, total: int | None, gain: int | None) -> None:
        """NV3: the running total grows by ``gain`` (None: unknown, the written total stands)."""
        so_far = self.running[name]
        if so_far is None or gain is None:
            self.running[name] = total
            return
        so_far += gain
        if total is not None and total != so_far:
            self._add(
                "TOTAL_MISMATCH", number, name, rule="NV3", variant="hand", expected=so_far, found=total
            )
        self.running[name] = so_far

    def _hand_score(
        self, number: int, name: str, penalty: int, expected: int, value: int, factor: int
    ) -> None:
        # NA4: the hand's value as it is (no doubling in a North American game, NA6).
        self._add(
            "PENALTY_MISMATCH", number, name, rule="NA4", variant="value", expected=expected, found=penalty
        )
