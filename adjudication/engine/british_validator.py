"""The British Kalooki validator: checks BV1–BV8 of RULES.md with the codes of SCORESHEET.md.

``validator.validate`` and ``validator.validate_data`` hand a British sheet to :func:`validate_british`.
The walk follows the game as the sheet tells it: who is still in, each running total, each buy-in and
its reset value (B7), who deals next (B1), when the game is over (BV7). After a defect it carries on from
what the sheet says (a wrong reset value is reported once; later totals build on the value written), so
one mistake gives one finding, not one per later hand.

"One defect, one code" as for Jamaican sheets: for one player in one hand the score codes exclude each
other (with a hand NOT_DOUBLED, then PENALTY_MISMATCH; without one NONWINNER_ZERO, DOUBLED_ODD,
PENALTY_RANGE); hand size, totals, buy-ins and card supply are separate defects.

>>> from .sheet import parse_sheet
>>> sheet = parse_sheet({"format": "kalooki-sheet/1", "ruleset": "british", "players": ["Ann", "Bob"],
...     "deals": [{"deal": 1, "out": "Ann", "results": {
...         "Ann": {"penalty": 0, "total": 0},
...         "Bob": {"hand": "AH 9C JK", "opened": True, "penalty": 36, "total": 63}}}]})
>>> [(item.code, item.player, item.expected, item.found) for item in validate_british(sheet)]
[('PENALTY_MISMATCH', 'Bob', 35, 36), ('TOTAL_MISMATCH', 'Bob', 36, 63), ('GAME_UNFINISHED', None, 1, 2)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final, Protocol

from .british_rules import UPCARD, BritishRuleSet
from .british_sheet import BritishHand, BritishResult, BritishSheet
from .findings import CODE_ORDER, Finding, Value, finding
from .north_american_sheet import NorthAmericanHand
from .packed_hands import CAPACITY, count_excess, pack_readable, packing

__all__ = ["validate_british"]

# A hand of either game whose walk this is (the North American walk shares the hand-level checks).
_AnyHand = BritishHand | NorthAmericanHand


class _Line(Protocol):
    """What the card-supply check reads of a player's line, in a British or a North American sheet."""

    @property
    def hand(self) -> str | None: ...


# Where the game-level findings sort: the table's size first, the unfinished game last.
_FIRST: Final = -1
_LAST: Final = 1 << 30


def validate_british(sheet: BritishSheet) -> list[Finding]:
    """The findings for a British game sheet, sorted by hand then seat (empty when it is clean).

    >>> from .british_simulator import simulate_british_sheet
    >>> from .sheet import parse_sheet
    >>> validate_british(parse_sheet(simulate_british_sheet(5)))
    []
    """
    return GameWalk(sheet).run()


class GameWalk:
    """One game's walk: the state the rules carry from hand to hand, and the findings so far.

    ``RULE`` names the rule each check shared with North American Kaluki cites (its validator's walk is a
    subclass that cites NA1–NA6, NV1–NV4 instead).
    """

    RULE: ClassVar[Mapping[str, str]] = {
        "table": "B1",
        "dealer": "B1",
        "winner": "BV1",
        "hand_size": "BV2",
        "range": "BV3",
        "supply": "BV4",
        "totals": "BV5",
        "value": "B5",
        "sequence": "BV7",
    }

    def __init__(self, sheet: BritishSheet) -> None:
        rules = sheet.rules
        self.rules: BritishRuleSet = rules
        self.sheet = sheet
        self.players = sheet.players
        self.seats = {name: seat for seat, name in enumerate(sheet.players)}
        self.findings: list[Finding] = []
        self.packing = packing(rules.card_values, rules.decks, rules.jokers)
        # BV5: each player's true running total; None once a missing score makes it unknown.
        self.running: dict[str, int | None] = dict.fromkeys(sheet.players, 0)
        self.still_in = dict.fromkeys(sheet.players, True)
        self.out_after: dict[str, int] = {}  # BV6: the hand a player went out of the game in
        self.buy_ins = dict.fromkeys(sheet.players, 0)
        self.over_after: int | None = None  # BV7: the hand after which one player was left
        self.left = ""  # … and who that was
        self.unopened = rules.hand_size
        self.fewest_opening = rules.fewest_opening_cards
        self.opened_most = rules.opened_hand_sizes[1]
        self.cheapest = rules.value_bounds(1)[0]
        self.kalookie_factor = rules.penalty_factor(kalookie=True)
        self.limit = rules.limit
        self.ranges: dict[bool | None, list[tuple[int, int]]] = {}

    def run(self) -> list[Finding]:
        self._player_count()
        sequence = HandSequence(self)
        dealers = Dealers(self)
        for hand in self.sheet.deals:
            if self.over_after is not None and not hand.void:
                # BV7: play went on after the game was won; what follows is not part of the game.
                self._add(
                    "GAME_OVER", hand.deal, expected=self.over_after, found=self.left, limit=self.rules.limit
                )
                break
            sequence.see(hand)
            dealers.see(hand)
            if hand.void:
                self._void(hand)
            else:
                self._scored(hand)
                dealers.passed()
        if self.over_after is None:
            left = sum(self.still_in.values())
            self.findings.append(finding("GAME_UNFINISHED", expected=1, found=left))
        return self._sorted_findings()

    def _sorted_findings(self) -> list[Finding]:
        """By hand, then seat, then the spec's order of codes; the table's size first, the unfinished game
        last."""
        if not self.findings:
            return self.findings
        seats = self.seats
        self.findings.sort(
            key=lambda item: (
                item.deal if item.deal is not None else (_LAST if item.code == "GAME_UNFINISHED" else _FIRST),
                _FIRST if item.player is None else seats[item.player],
                CODE_ORDER[item.code],
            )
        )
        return self.findings

    def _add(
        self,
        code: str,
        deal: int | None,
        player: str | None = None,
        *,
        expected: Value = None,
        found: Value = None,
        rule: str | None = None,
        variant: str | None = None,
        **details: object,
    ) -> None:
        self.findings.append(
            finding(
                code,
                deal=deal,
                player=player,
                expected=expected,
                found=found,
                rule=rule,
                variant=variant,
                **details,
            )
        )

    # --- the table (B1) -------------------------------------------------------------------------

    def _player_count(self) -> None:
        rules = self.rules
        count = len(self.players)
        dealable = (rules.deck_size - UPCARD) // rules.hand_size
        allowed = f"{rules.min_players}–{min(rules.max_players, dealable)}"
        if not rules.min_players <= count <= rules.max_players:
            self._add("PLAYER_COUNT", None, rule=self.RULE["table"], expected=allowed, found=count)
        elif not rules.can_deal(count):
            self._add(
                "PLAYER_COUNT",
                None,
                rule=self.RULE["table"],
                variant="hands",
                expected=allowed,
                found=count,
                needed=count * rules.hand_size + UPCARD,
                hand_size=rules.hand_size,
                deck=rules.deck_size,
            )

    # --- a void hand (B8) -----------------------------------------------------------------------

    def _void(self, hand: _AnyHand) -> None:
        scores = [(name, line.penalty) for name, line in hand.results.items() if line.penalty]
        if hand.out is None and not scores:
            return
        parts = [f"out: {hand.out}"] if hand.out is not None else []
        parts += [f"{name}: {penalty}" for name, penalty in scores]
        self._add("VOID_SCORED", hand.deal, rule="B8", variant="hand", found="; ".join(parts))

    # --- a scored hand --------------------------------------------------------------------------

    def _scored(self, hand: BritishHand) -> None:
        number = hand.deal
        out = hand.out
        results = hand.results
        factor = self.kalookie_factor if hand.kalookie else 1
        if out is None:
            self._add("NO_WINNER", number, rule=self.RULE["winner"], variant="hand")
        still_in = self.still_in
        if self.out_after:
            # BV6: one out of the game who plays again is reported once, then followed as the sheet has it.
            for name in self.out_after:
                if not still_in[name] and (name in results or name == out):
                    self._add("PLAYED_AFTER_OUT", number, name, expected=self.out_after[name])
                    still_in[name] = True
        packed = self.packing
        tokens_get = packed.tokens.__getitem__
        value_mask, value_bits = packed.value_mask, packed.value_bits
        running = self.running
        limit = self.limit
        deal_cards = 0
        deal_tokens = 0
        after: dict[str, int] = {}  # each player's true total after this hand, before any buy-in
        bought: list[str] = []
        over: list[str] = []
        for name in self.players:
            if not still_in[name]:
                continue
            line = results.get(name)
            if line is None:
                self._add("MISSING_RESULT", number, name, rule="BV6", variant="hand")
                running[name] = None
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
                self._add("MISSING_RESULT", number, name, rule="BV1", variant="hand_penalty")
                running[name] = line.reset_to if line.buy_in else line.total
                continue
            if name == out:
                if penalty or held > 0:
                    self._winner(number, name, penalty, held)
            elif out is None and held <= 0 and penalty == 0:
                # No `out` (NO_WINNER): an empty hand scoring nothing is most likely the unrecorded winner.
                pass
            else:
                self._non_winner(number, name, line.opened, penalty, held, value, factor)
            # BV5: the written total against the true running sum of written scores.
            so_far = running[name]
            if so_far is None:
                so_far = line.total
            else:
                so_far += penalty
                if line.total is not None and line.total != so_far:
                    self._add(
                        "TOTAL_MISMATCH",
                        number,
                        name,
                        rule=self.RULE["totals"],
                        variant="hand",
                        expected=so_far,
                        found=line.total,
                    )
            running[name] = so_far
            if so_far is not None:
                after[name] = so_far
            if line.buy_in:
                bought.append(name)
            elif so_far is not None and so_far > limit:
                over.append(name)
        if deal_tokens > CAPACITY or packed.over_limit(deal_cards):
            self._card_supply(number, results, deal_cards, deal_tokens)
        if bought or over:
            self._limit(number, results, after, bought, over)

    def _unusual_hand(self, number: int, name: str, tokens: list[str]) -> tuple[int, int]:
        """A hand with rare spellings (a suit symbol with a variation selector) or unreadable tokens: its
        packed number and the cards it holds (-1 when a token cannot be read: BAD_CARD)."""
        packed_hand, bad = pack_readable(tokens, self.packing)
        if bad:
            self._add("BAD_CARD", number, name, rule=self.RULE["table"], found=" ".join(bad))
            return packed_hand, -1
        return packed_hand, len(tokens)

    def _card_supply(
        self, number: int, results: Mapping[str, _Line], deal_cards: int, deal_tokens: int
    ) -> None:
        """BV4: no card more often across the hand's hands than the deck holds."""
        if deal_tokens > CAPACITY:
            excess = count_excess(
                (line.hand for line in results.values() if line.hand is not None),
                decks=self.rules.decks,
                jokers=self.rules.jokers,
            )
        else:
            excess = self.packing.excess(deal_cards)
        for card, count, limit in excess:
            self._add(
                "CARD_SUPPLY",
                number,
                rule=self.RULE["supply"],
                variant="hand",
                expected=limit,
                found=count,
                card=str(card),
            )

    def _non_winner(
        self, number: int, name: str, opened: bool | None, penalty: int, held: int, value: int, factor: int
    ) -> None:
        """BV2, BV3: a non-winner's hand size and score, with the cards or from the score alone."""
        if held < 0:
            self._without_hand(number, name, opened, penalty, factor)
            return
        # BV2: unopened exactly hand_size; opened 1 … hand_size − the fewest an opening lays.
        unopened, most = self.unopened, self.opened_most
        if opened is None:
            fits = held == unopened or 0 < held <= most
        else:
            fits = 0 < held <= most if opened else held == unopened
        if not fits:
            self._hand_size(number, name, opened, held)
        if penalty != value * factor:
            self._hand_score(number, name, penalty, value * factor, value, factor)

    def _limit(
        self,
        number: int,
        results: Mapping[str, BritishResult],
        after: dict[str, int],
        bought: list[str],
        over: list[str],
    ) -> None:
        """B7: who bought back in and at what value, who is out; BV7: is the game over?"""
        for name in bought:
            line = results[name]
            total = after.get(name)
            if total is not None:
                self._buy_in(number, name, line, total, after)
            # Later totals build on the value written, whatever it should have been (BV5).
            self.running[name] = line.reset_to
        for name in over:
            self.still_in[name] = False
            self.out_after[name] = number
        left = [name for name, still in self.still_in.items() if still]
        if len(left) <= 1:
            self.over_after = number
            self.left = " ".join(left) or "no one"

    def _buy_in(self, number: int, name: str, line: BritishResult, total: int, after: dict[str, int]) -> None:
        """B7: over the limit, with a buy-in left, reset to the highest total at or under it."""
        rules = self.rules
        limit = rules.limit
        self.buy_ins[name] += 1
        count = self.buy_ins[name]
        if count > rules.buy_ins:
            self._add(
                "BUY_IN_LIMIT", number, name, expected=rules.buy_ins, found=count, count=_ordinal(count)
            )
        elif total <= limit:
            self._add("BUY_IN_NOT_OVER", number, name, expected=f"> {limit}", found=total, limit=limit)
        else:
            reset = rules.reset_value(after.values())
            if line.reset_to != reset:
                self._add("BUY_IN_RESET", number, name, expected=reset, found=line.reset_to, limit=limit)

    def _winner(self, number: int, name: str, penalty: int, held: int) -> None:
        # BV1: the winner scores 0 and holds nothing (B4: the last card was discarded).
        if penalty != 0:
            winner = self.RULE["winner"]
            self._add("WINNER_SCORED", number, name, rule=winner, variant="hand", expected=0, found=penalty)
        if held > 0:
            winner = self.RULE["winner"]
            self._add("HAND_SIZE", number, name, rule=winner, variant="winner", expected=0, found=held)

    def _hand_size(self, number: int, name: str, opened: bool | None, held: int) -> None:
        """BV2: unopened exactly hand_size; opened 1 … hand_size − the fewest cards an opening lays."""
        unopened, most = self.unopened, self.opened_most
        if opened is None:
            variant, expected = "hand_either", f"{unopened} or 1–{most}"
        elif opened:
            variant, expected = "hand_opened", f"1–{most}"
        else:
            variant, expected = "unopened", str(unopened)
        self._add(
            "HAND_SIZE",
            number,
            name,
            rule=self.RULE["hand_size"],
            variant=variant,
            expected=expected,
            found=held,
            hand_size=self.unopened,
            fewest=self.fewest_opening,
            most=most,
        )

    def _hand_score(
        self, number: int, name: str, penalty: int, expected: int, value: int, factor: int
    ) -> None:
        # B6: a kalookie hand scored as if undoubled.
        if factor != 1 and value and penalty == value:
            self._add(
                "NOT_DOUBLED",
                number,
                name,
                rule="B6",
                variant="kalookie",
                expected=expected,
                found=penalty,
                value=value,
            )
        else:
            self._add(
                "PENALTY_MISMATCH",
                number,
                name,
                rule=self.RULE["value"],
                variant="hand",
                expected=expected,
                found=penalty,
                value=value,
                factor=factor,
            )

    def _without_hand(self, number: int, name: str, opened: bool | None, penalty: int, factor: int) -> None:
        """BV3, B6: what a score proves without the cards."""
        if penalty < self.cheapest:
            self._add(
                "NONWINNER_ZERO",
                number,
                name,
                rule=self.RULE["range"],
                variant="hand",
                expected=f"≥ {self.cheapest}",
                found=penalty,
                lowest=self.cheapest,
            )
            return
        if penalty % factor:
            self._add(
                "DOUBLED_ODD",
                number,
                name,
                rule="B6",
                variant="kalookie",
                expected=f"a multiple of {factor}",
                found=penalty,
                factor=factor,
            )
            return
        raw = penalty // factor
        ranges = self._ranges(opened)
        if any(low <= raw <= high for low, high in ranges):
            return
        sizes = self._sizes(opened)
        self._add(
            "PENALTY_RANGE",
            number,
            name,
            rule=self.RULE["range"],
            expected=" or ".join(f"{low * factor}–{high * factor}" for low, high in ranges),
            found=penalty,
            cards=" or ".join(str(low) if low == high else f"{low}–{high}" for low, high in sizes),
            low=ranges[0][0],
            high=ranges[-1][1],
        )

    def _sizes(self, opened: bool | None) -> list[tuple[int, int]]:
        """BV2: the hand sizes a non-winner may hold, fewest first."""
        unopened = (self.unopened, self.unopened)
        if opened is False or self.opened_most < 1:
            return [unopened]
        if opened:
            return [(1, self.opened_most)]
        return [(1, self.opened_most), unopened]

    def _ranges(self, opened: bool | None) -> list[tuple[int, int]]:
        """BV3: the hand values those sizes allow, overlapping ranges joined (2–107 and 31–148: 2–148)."""
        found = self.ranges.get(opened)
        if found is None:
            found = []
            for fewest, most in self._sizes(opened):
                low, high = self.rules.value_bounds(fewest)[0], self.rules.value_bounds(most)[1]
                if found and low <= found[-1][1] + 1:
                    found[-1] = (found[-1][0], max(high, found[-1][1]))
                else:
                    found.append((low, high))
            self.ranges[opened] = found
        return found


def _ordinal(count: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(count, f"{count}th")


class HandSequence:
    """DEAL_SEQUENCE, B8: hands 1, 2, 3 … in order, a void hand followed by its replay.

    After a defect the walk carries on from the number the sheet gives, so a missing hand is reported once.
    """

    def __init__(self, game: GameWalk) -> None:
        self.game = game
        self.due = 1
        self.scored: set[int] = set()
        self.void: int | None = None  # a void hand waiting for its replay

    def see(self, hand: _AnyHand) -> None:
        number, void = hand.deal, hand.void
        if self.void is not None:
            if number == self.void:
                if not void:
                    self._score(number)
                return
            self._defect("hand_void", number, expected=self.void)
            self.void = None
        elif number in self.scored:
            # A repeat: a replay without a void before it, or a mislabelled hand.
            self._defect("hand_repeated", number, expected=self.due)
            if not void:
                # It stands where the hand due was played: the next is not reported missing as well.
                self.due += 1
            return
        elif number > self.due:
            missing = str(self.due) if number == self.due + 1 else f"{self.due}–{number - 1}"
            self._defect("hand", number, expected=self.due, missing=missing)
        # A hand reported missing that turns up late is accepted: reported once is enough.
        if void:
            self.void = number
        else:
            self._score(number)

    def _score(self, number: int) -> None:
        self.scored.add(number)
        self.void = None
        self.due = max(self.due, number + 1)

    def _defect(self, variant: str, number: int, *, expected: int, missing: str = "") -> None:
        self.game._add(
            "DEAL_SEQUENCE",
            number,
            rule="B8" if variant == "hand_void" else self.game.RULE["sequence"],
            variant=variant,
            expected=expected,
            found=number,
            missing=missing,
        )


class Dealers:
    """DEALER_ORDER, B1: the deal passes to the left among the players still in; a void hand is dealt
    again by the same dealer (B8).

    Anchored on ``first_dealer``, else on the first hand that names its dealer. A single wrong dealer is
    reported once; a rotation that restarts from a wrong dealer is reported once and then followed.
    """

    def __init__(self, game: GameWalk) -> None:
        self.game = game
        first = game.sheet.first_dealer
        self.dealer: int | None = None if first is None else game.seats[first]
        self.other: int | None = None  # the rotation a wrong dealer implied

    def see(self, hand: _AnyHand) -> None:
        if hand.dealer is None:
            return
        seat = self.game.seats[hand.dealer]
        if self.dealer is None or seat == self.other:
            self.dealer, self.other = seat, None
        elif seat == self.dealer:
            self.other = None
        else:
            self.other = seat
            self.game._add(
                "DEALER_ORDER",
                hand.deal,
                rule=self.game.RULE["dealer"],
                variant="hand",
                expected=self.game.players[self.dealer],
                found=hand.dealer,
            )

    def passed(self) -> None:
        """After a scored hand (and its eliminations): the next player to the left still in deals."""
        self.dealer = self._left_of(self.dealer)
        self.other = self._left_of(self.other)

    def _left_of(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        players, still_in = self.game.players, self.game.still_in
        for step in range(1, len(players) + 1):
            candidate = (seat + step) % len(players)
            if still_in[players[candidate]]:
                return candidate
        return seat
