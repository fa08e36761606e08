"""The score-sheet validator: checks V1–V14 of RULES.md, reported with the codes of SCORESHEET.md.

A British game sheet is handed to ``british_validator`` (checks BV1–BV8) by both doors below, a North
American one to ``north_american_validator`` (NV1–NV4).

:func:`validate_data` reads the decoded JSON and checks it in one pass (it raises :class:`SheetError` for
the unreadable cases, exit 2); :func:`validate` checks an already parsed :class:`Sheet`. Both return the
findings sorted by deal, then seat; an empty list is a clean sheet.

"One defect, one code": for one player in one deal the score codes exclude each other in the spec's order
(with a hand NOT_DOUBLED, then PENALTY_MISMATCH; without one NONWINNER_ZERO, DOUBLED_ODD, PENALTY_RANGE);
separate defects (calls, hand size, totals, card supply …) each get their own finding.

The checks run at tournament scale (issue 6): hands are read with one dictionary look-up per token into a
single packed integer per hand that carries both the hand's value and a count of every card, so the card
supply of a whole deal (V9) is one addition per hand and one mask test per deal. Findings are only built
when something is wrong.

>>> sheet = {"format": "kalooki-sheet/1", "players": ["Ann", "Bob", "Cy"], "deals": [
...     {"deal": 1, "out": "Ann", "doubled": True, "results": {
...         "Ann": {"calls": 0, "penalty": 0},
...         "Bob": {"calls": 0, "hand": "AS AH JK 7D 2C 3C 4C 5C 6C", "penalty": 93},
...         "Cy": {"calls": 1, "opened": True, "hand": "JC AH", "penalty": 22}}}]}
>>> [(item.code, item.player, item.expected, item.found) for item in validate_data(sheet)]
[('NOT_DOUBLED', 'Bob', 186, 93), ('SET_INCOMPLETE', None, 9, 1)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .british_sheet import BritishHeader, BritishSheet, read_british_sheet
from .british_validator import validate_british
from .cards import JOKER, Card
from .dealing import dealer_passes
from .findings import CODE_ORDER, Finding, finding
from .north_american_sheet import NorthAmericanHeader, NorthAmericanSheet, read_north_american_sheet
from .north_american_validator import validate_north_american

# Hands are read packed: a hand's value and card counts in one integer (packed_hands).
from .packed_hands import CAPACITY as _CAPACITY
from .packed_hands import CARDS as _CARDS
from .packed_hands import DIGIT as _DIGIT
from .packed_hands import Packing as _Packing
from .packed_hands import pack_readable as _pack_readable
from .packed_hands import packing as _packing
from .rules import DEALS_PER_SET, UPCARD
from .scoring import read_token, split_hand
from .sheet import DealRow, Header, ResultRow, Sheet, header_of, read_deals, read_header, result_rows

__all__ = ["has_errors", "validate", "validate_data"]

# --- the public face ----------------------------------------------------------------------------


def validate(sheet: Sheet | BritishSheet | NorthAmericanSheet) -> list[Finding]:
    """The findings for a parsed sheet of either game, sorted by deal then seat (empty when it is clean).

    A British sheet is checked by ``british_validator`` (BV1–BV8), a North American one by
    ``north_american_validator`` (NV1–NV4).

    >>> from .sheet import parse_sheet
    >>> from .simulator import simulate_sheet
    >>> validate(parse_sheet(simulate_sheet(5)))
    []
    """
    if isinstance(sheet, BritishSheet):
        return validate_british(sheet)
    if isinstance(sheet, NorthAmericanSheet):
        return validate_north_american(sheet)
    return _Checker(header_of(sheet)).run(result_rows(sheet))


def validate_data(data: object) -> list[Finding]:
    """Read the decoded JSON of a ``kalooki-sheet/1`` and check it; :class:`SheetError` when unreadable.

    >>> validate_data({"format": "kalooki-sheet/1", "players": ["Ann", "Bob"], "deals": []})
    ... # doctest: +ELLIPSIS
    [Finding(code='PLAYER_COUNT', ...), Finding(code='SET_INCOMPLETE', ...)]
    """
    header = read_header(data)
    if isinstance(header, BritishHeader):
        return validate_british(read_british_sheet(header))
    if isinstance(header, NorthAmericanHeader):
        return validate_north_american(read_north_american_sheet(header))
    return _Checker(header).run(read_deals(header))


def has_errors(findings: Iterable[Finding]) -> bool:
    """True when any finding is an error (``validate_sheet`` exits 1); warnings alone are not.

    >>> has_errors(validate_data({"format": "kalooki-sheet/1", "players": ["A", "B", "C"], "deals": []}))
    False
    """
    return any(item.is_error for item in findings)


# --- the checks ---------------------------------------------------------------------------------


class _Checker:
    """One sheet's checks; ``run`` walks the deals once, keeping the state the set-level checks need."""

    def __init__(self, header: Header) -> None:
        self.rules = header.rules
        self.players = header.players
        self.seats = header.seats
        self.first_dealer = header.first_dealer
        self.findings: list[Finding] = []
        rules = self.rules
        self.sizes = (0, *(size for size, _ in rules.schedule))
        self.packing = _packing(rules.card_values, rules.decks, rules.jokers)
        self.bounds: dict[tuple[int, int, bool | None], list[tuple[int, int]]] = {}

    def run(self, rows: Iterable[DealRow]) -> list[Finding]:
        self._player_count()
        sequence = _Sequence(self)
        dealers = _Dealers(self)
        # V14: each player's true running total; None once a missing score makes it unknown.
        running: list[int | None] = [0] * len(self.players)
        for row in rows:
            sequence.see(row)
            if row.dealer is not None:
                dealers.see(row)
            if row.void:
                self._void(row)
            else:
                self._scored(row, running)
        sequence.finish()
        found = self.findings
        if found:
            seats = self.seats
            found.sort(
                key=lambda item: (
                    item.deal if item.deal is not None else (99 if item.code == "SET_INCOMPLETE" else -1),
                    -1 if item.player is None else seats[item.player],
                    CODE_ORDER[item.code],
                )
            )
        return found

    # --- the table ------------------------------------------------------------------------------

    def _player_count(self) -> None:
        rules = self.rules
        count = len(self.players)
        # R2: the table must fit the deck as well as the ruleset's range.
        dealable = (rules.deck_size - UPCARD) // rules.largest_deal
        allowed = f"{rules.min_players}–{min(rules.max_players, dealable)}"
        if not rules.min_players <= count <= rules.max_players:
            self.findings.append(finding("PLAYER_COUNT", expected=allowed, found=count))
        elif not rules.can_deal(count):
            self.findings.append(
                finding(
                    "PLAYER_COUNT",
                    variant="deck",
                    expected=allowed,
                    found=count,
                    needed=count * rules.largest_deal + UPCARD,
                    deck=rules.deck_size,
                )
            )

    # --- a void deal (V11) ----------------------------------------------------------------------

    def _void(self, row: DealRow) -> None:
        scores = [(name, result[1]) for name, result in row.results.items() if result[1]]
        if row.out is None and not scores:
            return
        parts = [f"out: {row.out}"] if row.out is not None else []
        parts += [f"{name}: {penalty}" for name, penalty in scores]
        self.findings.append(finding("VOID_SCORED", deal=row.deal, found="; ".join(parts)))

    # --- a scored deal --------------------------------------------------------------------------

    def _scored(self, row: DealRow, running: list[int | None]) -> None:
        rules = self.rules
        add = self.findings.append
        deal = row.deal
        size = self.sizes[deal]
        doubled = row.doubled
        factor = rules.doubling_factor if doubled else 1
        # R14: infraction points are doubled only under double_infractions.
        infraction_factor = factor if rules.double_infractions else 1
        limit = rules.call_limit
        overcall_penalty = rules.overcall_penalty
        error_penalty = rules.contract_error_penalty
        packing = self.packing
        tokens_get = packing.tokens.__getitem__
        value_bits = packing.value_bits
        value_mask = packing.value_mask
        out = row.out
        results = row.results
        if out is None:
            add(finding("NO_WINNER", deal=deal))
        deal_cards = 0
        deal_tokens = 0
        for seat, name in enumerate(self.players):
            result = results.get(name)
            if result is None:
                add(finding("MISSING_RESULT", deal=deal, player=name))
                running[seat] = None
                continue
            calls, penalty, total, hand, opened, overcall, contract_error, other, _ = result
            # V3, R17: calls above the limit need an over-call ruling, and a ruling needs them.
            if calls > limit:
                if not overcall:
                    add(
                        finding(
                            "CALL_LIMIT",
                            deal=deal,
                            player=name,
                            expected=limit,
                            found=calls,
                            infractions=overcall_penalty,
                        )
                    )
            elif overcall:
                add(
                    finding(
                        "OVERCALL_MISMARKED",
                        deal=deal,
                        player=name,
                        expected=f"> {limit}",
                        found=calls,
                        limit=limit,
                    )
                )
            infractions = other
            if overcall:
                infractions += overcall_penalty
            if contract_error:
                infractions += error_penalty
            held = -1  # cards in a readable hand; -1 without one
            value = 0
            if hand is not None:
                tokens = hand.replace(",", " ").split() if "," in hand else hand.split()
                try:
                    packed = sum(map(tokens_get, tokens))
                except KeyError:
                    # Rare spellings (a suit symbol with a variation selector) or unreadable tokens.
                    packed, bad = _pack_readable(tokens, packing)
                    if bad:
                        add(finding("BAD_CARD", deal=deal, player=name, found=" ".join(bad)))
                    else:
                        held = len(tokens)
                        value = packed & value_mask
                else:
                    held = len(tokens)
                    value = packed & value_mask
                deal_cards += packed >> value_bits
                deal_tokens += len(tokens)
            if contract_error and name != out:
                # R18: a contract error is a failed first lay-down, so unopened that deal whatever is marked.
                if opened:
                    add(finding("CONTRACT_ERROR_OPENED", deal=deal, player=name, expected=False, found=True))
                opened = False
            if penalty is None:
                add(finding("MISSING_RESULT", variant="penalty", deal=deal, player=name))
                running[seat] = total
                continue
            if name == out:
                self._winner(deal, name, result, doubled, infractions, held)
            elif out is None and held <= 0 and penalty <= infractions:
                # No `out` (NO_WINNER): an empty hand scoring nothing is most likely the unrecorded winner.
                pass
            elif held >= 0:
                # V4, V5 (V6: 0 calls and opened is impossible for a non-winner).
                double_calls = calls + calls
                if opened is None:
                    fits = held == size + double_calls or 0 < held <= double_calls
                elif opened:
                    fits = 0 < held <= double_calls
                else:
                    fits = held == size + double_calls
                if not fits:
                    self._hand_size(deal, name, size, calls, opened, held, contract_error)
                expected = value * factor + infractions * infraction_factor
                if penalty != expected:
                    self._hand_score(deal, name, penalty, expected, value, factor, infractions)
            else:
                self._without_hand(
                    deal, name, size, calls, opened, penalty, factor, infractions * infraction_factor
                )
            # V14: the written total against the true running sum of written scores.
            so_far = running[seat]
            if so_far is None:
                running[seat] = total
            else:
                so_far += penalty
                running[seat] = so_far
                if total is not None and total != so_far:
                    add(finding("TOTAL_MISMATCH", deal=deal, player=name, expected=so_far, found=total))
        # V9: one mask test for the whole deal.
        if deal_tokens > _CAPACITY:
            self._supply_by_counting(row)
        elif (deal_cards + packing.headroom) & packing.top_bits:
            self._supply(deal, deal_cards, packing)

    def _winner(
        self,
        deal: int,
        name: str,
        result: ResultRow,
        doubled: bool,
        infractions: int,
        held: int,
    ) -> None:
        rules = self.rules
        add = self.findings.append
        calls, penalty, _, _, _, overcall, contract_error, _, _ = result
        bonus = rules.bend_bonus if doubled else 0
        # V1 + R14: 0, plus infraction points, plus the bend bonus when the table was bent.
        if penalty != infractions + bonus:
            add(
                finding(
                    "WINNER_SCORED",
                    deal=deal,
                    player=name,
                    expected=infractions + bonus,
                    found=penalty,
                    infractions=infractions,
                    bonus=bonus,
                )
            )
        if held > 0:
            add(
                finding(
                    "HAND_SIZE", variant="winner", rule="V1", deal=deal, player=name, expected=0, found=held
                )
            )
        if contract_error:
            add(finding("CONTRACT_ERROR_OUT", deal=deal, player=name))
        if doubled and (overcall or calls > rules.call_limit):
            add(finding("OVERCALL_BEND", deal=deal, player=name, found=calls))
        if calls == 0 and not doubled:
            add(finding("UNDOUBLED_BEND", deal=deal, player=name, expected=True, found=False))

    def _hand_size(
        self,
        deal: int,
        name: str,
        size: int,
        calls: int,
        opened: bool | None,
        held: int,
        contract_error: bool,
    ) -> None:
        unopened = size + 2 * calls
        expected: int | str
        if contract_error:
            variant, rule, expected = "contract_error", "V4", unopened
        elif calls == 0 and opened:
            variant, rule, expected = "no_calls", "V6", unopened
        elif opened:
            variant, rule, expected = "opened", "V5", f"1–{2 * calls}"
        elif opened is None and calls:
            variant, rule, expected = "either", "V4", f"{unopened} or 1–{2 * calls}"
        else:
            variant, rule, expected = None, "V4", unopened
        self.findings.append(
            finding(
                "HAND_SIZE",
                variant=variant,
                rule=rule,
                deal=deal,
                player=name,
                expected=expected,
                found=held,
                calls=calls,
                deal_size=size,
            )
        )

    def _hand_score(
        self, deal: int, name: str, penalty: int, expected: int, value: int, factor: int, infractions: int
    ) -> None:
        # V7: a doubled hand scored as if undoubled (with or without its infraction points).
        if factor != 1 and value and penalty in (value + infractions, value):
            code = "NOT_DOUBLED"
        else:
            code = "PENALTY_MISMATCH"
        self.findings.append(
            finding(
                code,
                deal=deal,
                player=name,
                expected=expected,
                found=penalty,
                value=value,
                factor=factor,
                infractions=expected - value * factor,
            )
        )

    def _without_hand(
        self,
        deal: int,
        name: str,
        size: int,
        calls: int,
        opened: bool | None,
        penalty: int,
        factor: int,
        infractions: int,
    ) -> None:
        """V2, V7, V10: what a score proves without the cards (``infractions`` as scored)."""
        base = penalty - infractions
        if base < 1 and base < self._lowest(size, calls, opened):
            code, expected = "NONWINNER_ZERO", f"≥ {infractions + 1}"
        elif base % factor:
            code, expected = "DOUBLED_ODD", f"{infractions} + a multiple of {factor}"
        else:
            self._value_range(deal, name, size, calls, opened, base // factor, penalty, factor, infractions)
            return
        self.findings.append(
            finding(
                code,
                deal=deal,
                player=name,
                expected=expected,
                found=penalty,
                infractions=infractions,
                factor=factor,
            )
        )

    def _value_range(
        self,
        deal: int,
        name: str,
        size: int,
        calls: int,
        opened: bool | None,
        raw: int,
        penalty: int,
        factor: int,
        infractions: int,
    ) -> None:
        """V10: the raw value must fit the hand sizes the calls allow (V4, V5; V6 for 0 calls)."""
        key = (size, calls, opened)
        ranges = self.bounds.get(key)
        if ranges is None:
            ranges = self.bounds[key] = self._ranges(size, calls, opened)
        for low, high in ranges:
            if low <= raw <= high:
                return
        cards = " or ".join(_span(low, high) for low, high in self._sizes(size, calls, opened))
        expected = " or ".join(
            f"{low * factor + infractions}–{high * factor + infractions}" for low, high in ranges
        )
        self.findings.append(
            finding(
                "PENALTY_RANGE",
                deal=deal,
                player=name,
                expected=expected,
                found=penalty,
                cards=cards,
                low=ranges[0][0],
                high=ranges[-1][1],
            )
        )

    def _lowest(self, size: int, calls: int, opened: bool | None) -> int:
        """V2: the least raw value a non-winner can hold (1, a red ace, unless cards are worth 0)."""
        key = (size, calls, opened)
        ranges = self.bounds.get(key)
        if ranges is None:
            ranges = self.bounds[key] = self._ranges(size, calls, opened)
        return ranges[0][0]

    @staticmethod
    def _sizes(size: int, calls: int, opened: bool | None) -> list[tuple[int, int]]:
        """The hand sizes a non-winner may hold: d + 2c unopened, 1 to 2c opened (V4, V5)."""
        unopened = (size + 2 * calls, size + 2 * calls)
        if calls == 0 or opened is False:
            # V6: with 0 calls a non-winner is unopened whatever the sheet says.
            return [unopened]
        if opened:
            return [(1, 2 * calls)]
        return [(1, 2 * calls), unopened]

    def _ranges(self, size: int, calls: int, opened: bool | None) -> list[tuple[int, int]]:
        ranges: list[tuple[int, int]] = []
        for fewest, most in self._sizes(size, calls, opened):
            low, high = self.rules.value_bounds(fewest)[0], self.rules.value_bounds(most)[1]
            if ranges and low <= ranges[-1][1] + 1:
                ranges[-1] = (ranges[-1][0], max(high, ranges[-1][1]))
            else:
                ranges.append((low, high))
        return ranges

    def _supply(self, deal: int, counts: int, packing: _Packing) -> None:
        for index, card in enumerate(_CARDS):
            count = (counts >> (_DIGIT * index)) & ((1 << _DIGIT) - 1)
            if count > packing.limits[index]:
                self._too_many(deal, card, count, packing.limits[index])

    def _supply_by_counting(self, row: DealRow) -> None:
        counts: Counter[Card] = Counter()
        for result in row.results.values():
            if result[3] is not None:
                for token in split_hand(result[3]):
                    card = read_token(token)
                    if card is not None:
                        counts[card] += 1
        for card in _CARDS:
            limit = self.rules.jokers if card is JOKER else self.rules.decks
            if counts[card] > limit:
                self._too_many(row.deal, card, counts[card], limit)

    def _too_many(self, deal: int, card: Card, count: int, limit: int) -> None:
        self.findings.append(finding("CARD_SUPPLY", deal=deal, expected=limit, found=count, card=str(card)))


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


class _Sequence:
    """V11, V12: deals 1–9 in order, a void deal followed by its replay; one finding per defect.

    After a defect the walk resynchronises on what the sheet says, so a missing deal is reported once and
    not again at every later deal; a deal that turns up late after being reported missing is accepted.
    """

    def __init__(self, checker: _Checker) -> None:
        self.checker = checker
        self.next = 1  # the deal number due next
        self.scored: set[int] = set()
        self.void: int | None = None  # a void deal waiting for its replay
        self.accepted = 0

    def see(self, row: DealRow) -> None:
        number, void = row.deal, row.void
        add = self.checker.findings.append
        if self.void is not None:
            if number == self.void:
                if not void:
                    self._score(number)
                return
            add(
                finding(
                    "DEAL_SEQUENCE", variant="void", rule="V11", deal=number, expected=self.void, found=number
                )
            )
            self.void = None
            self._accept(number, void)
            return
        if number == self.next:
            self._accept(number, void)
        elif number in self.scored:
            # A repeat: a replay without a void before it, a mislabelled deal or a tenth scored deal.
            due = self.next if self.next <= DEALS_PER_SET else None
            add(
                finding(
                    "DEAL_SEQUENCE",
                    variant="repeated" if due is not None else "extra",
                    deal=number,
                    expected=due,
                    found=number,
                )
            )
            if void:
                return
            # It stands where the deal due was played: the next deal is not reported missing as well.
            self.accepted += 1
            self.next += 1
        elif number > self.next:
            missing = str(self.next) if number == self.next + 1 else f"{self.next}–{number - 1}"
            add(finding("DEAL_SEQUENCE", deal=number, expected=self.next, found=number, missing=missing))
            self._accept(number, void)
        else:
            # A deal already reported missing turns up late: reported once is enough.
            self._accept(number, void)

    def _accept(self, number: int, void: bool) -> None:
        if void:
            self.void = number
        else:
            self._score(number)

    def _score(self, number: int) -> None:
        self.scored.add(number)
        self.accepted += 1
        self.void = None
        self.next = max(self.next, number + 1)

    def finish(self) -> None:
        if self.accepted < DEALS_PER_SET:
            self.checker.findings.append(
                finding("SET_INCOMPLETE", expected=DEALS_PER_SET, found=self.accepted)
            )


class _Dealers:
    """V13, R21: the deal passes one seat to the left per scored deal (and per void one with "next").

    Anchored on ``first_dealer``, else on the first deal that names its dealer. A single wrong dealer is
    reported once; a rotation that restarts from a wrong dealer is reported once and then followed.
    """

    def __init__(self, checker: _Checker) -> None:
        self.checker = checker
        self.players = checker.players
        first = checker.first_dealer
        self.anchor: int | None = None if first is None else checker.seats[first]
        self.other: int | None = None  # the anchor a wrong dealer implied
        self.void_redeal = checker.rules.void_redeal
        self.voids = 0

    def see(self, row: DealRow) -> None:
        assert row.dealer is not None
        count = len(self.players)
        passes = dealer_passes(row.deal, voids_before=self.voids, void_redeal=self.void_redeal)
        if row.void:
            self.voids += 1
        implied = (self.checker.seats[row.dealer] - passes) % count
        if self.anchor is None:
            self.anchor = implied
            return
        if implied == self.anchor:
            self.other = None
            return
        if implied == self.other:
            self.anchor, self.other = implied, None
            return
        self.other = implied
        self.checker.findings.append(
            finding(
                "DEALER_ORDER",
                deal=row.deal,
                expected=self.players[(self.anchor + passes) % count],
                found=row.dealer,
            )
        )
