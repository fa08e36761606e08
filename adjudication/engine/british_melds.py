"""British Kalooki's melds and its 40-point opening (RULES.md B2, B3).

A set is 3 or 4 cards of one rank, all of different suits; a run 3 or more of one suit in sequence, ace
high only (Q-K-A yes, A-2-3 no); jokers are wild in both and keep the place they are laid in. One natural
card with jokers can be read as a set or as a run: :func:`check_british_meld` gives every reading, and
:func:`check_opening` counts each (a joker worth the card it replaces) against ``opening_points``.

North American Kaluki plays the same melds with the ace high or low (NA2: A-2-3 and Q-K-A, never K-A-2)
and an opening of 51 where a low ace counts 1 (NA3): ``ace_low`` reads them, and ``north_american_melds``
is that game's door to them.

>>> from .laydown import parse_laydown
>>> print(check_opening(parse_laydown("KS KH KD KC | JK 7S 8S")))
valid
opening, 40 points needed: K♠ K♥ K♦ K♣ (set of K, 40) | JK 7♠ 8♠ (run 6♠–8♠, 21) = 61 points
>>> print(check_opening(parse_laydown("QS QH QD | 7S 8S 8S")))
meld 2 (7♠ 8♠ 8♠): B2: a run holds each card once; 8♠ twice
>>> print(check_opening(parse_laydown("QS QH QD | 6C 7C 8C")))
valid
opening, 40 points needed: Q♠ Q♥ Q♦ (set of Q, 30) | 6♣ 7♣ 8♣ (run 6♣–8♣, 21) = 51 points
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from .british_rules import (
    BRITISH_PRESETS,
    DEFAULT_BRITISH_PRESET,
    MELD_MIN_CARDS,
    RUN_MAX_CARDS,
    SET_MAX_CARDS,
    BritishRuleSet,
    OpeningValues,
)
from .cards import RANKS, SUIT_SYMBOLS, Card, format_cards
from .melds import RUN_KIND, SET_KIND, MeldKind, MeldProblem
from .north_american_rules import LOW_ACE_POINTS, NorthAmericanRuleSet
from .packed_hands import card_excess

__all__ = [
    "BritishMeld",
    "BritishMeldCheck",
    "OpeningVerdict",
    "check_british_meld",
    "check_opening",
]

# B2: the ace is high only, so a run's places run from 2 to 14 (the ace); NA2 adds place 1, the low ace.
LOWEST_PLACE: Final = 2
ACE_PLACE: Final = 14
LOW_ACE_PLACE: Final = 1


@dataclass(frozen=True, slots=True)
class BritishMeld:
    """One legal reading of some cards (B2): a set of ``rank`` or a run of ``suit`` from ``low``.

    ``cards`` are as laid (a run turned low to high when laid high to low); ``low`` is a run's lowest place
    (2 … 12; 14 is the ace; 1 the low ace of NA2), or a set's rank (1 = ace … 13 = king).

    >>> from .cards import parse_cards
    >>> meld = check_british_meld(parse_cards("JK 7S 8S")).readings[0]
    >>> meld.kind, meld.low, meld.stands_for(), meld.points(OpeningValues())
    ('run', 6, (Card.parse('6S'), Card.parse('7S'), Card.parse('8S')), 21)
    """

    cards: tuple[Card, ...]
    kind: MeldKind
    low: int
    suit: str | None = None

    def stands_for(self) -> tuple[Card | None, ...]:
        """The card each place holds: a run's jokers as the cards they replace; a set's jokers as None
        (a card of the set's rank in a missing suit)."""
        if self.kind == SET_KIND:
            return tuple(None if card.is_joker else card for card in self.cards)
        assert self.suit is not None
        return tuple(_card_at(self.low + index, self.suit) for index in range(len(self.cards)))

    def points(self, values: OpeningValues) -> int:
        """B3: what the meld counts towards an opening, each joker as the card it replaces (NA3: an ace
        standing low in a run counts 1)."""
        if self.kind == SET_KIND:
            return len(self.cards) * values.of_rank(self.low)
        return sum(
            LOW_ACE_POINTS if place == LOW_ACE_PLACE else values.of_rank(_rank(place))
            for place in range(self.low, self.low + len(self.cards))
        )

    def describe(self) -> str:
        """``set of K`` or ``run 6♠–8♠``."""
        if self.kind == SET_KIND:
            return f"set of {RANKS[self.low - 1]}"
        assert self.suit is not None
        high = self.low + len(self.cards) - 1
        return f"run {_card_at(self.low, self.suit)}–{_card_at(high, self.suit)}"


@dataclass(frozen=True, slots=True)
class BritishMeldCheck:
    """Some cards checked as a British meld: every legal reading, or what is wrong when there is none.

    >>> from .cards import parse_cards
    >>> check = check_british_meld(parse_cards("JK 7S JK"))
    >>> [meld.describe() for meld in check.readings], check.ambiguous
    (['set of 7', 'run 6♠–8♠'], True)
    >>> [str(problem) for problem in check_british_meld(parse_cards("AS 2S 3S")).problems]
    ['B2: the ace is high only: Q-K-A is a run, A-2-3 and K-A-2 are not']
    """

    cards: tuple[Card, ...]
    readings: tuple[BritishMeld, ...] = ()
    problems: tuple[MeldProblem, ...] = ()

    @property
    def valid(self) -> bool:
        return bool(self.readings)

    @property
    def ambiguous(self) -> bool:
        """One natural card with jokers: the player says whether it is a set or a run."""
        return len(self.readings) > 1

    def as_dict(self, values: OpeningValues) -> dict[str, Any]:
        return {
            "cards": format_cards(self.cards),
            "display": format_cards(self.cards, symbols=True),
            "valid": self.valid,
            "readings": [
                {
                    "kind": meld.kind,
                    "description": meld.describe(),
                    "points": meld.points(values),
                    "stands_for": [None if card is None else card.notation for card in meld.stands_for()],
                }
                for meld in self.readings
            ],
            "problems": [problem.as_dict() for problem in self.problems],
        }


def check_british_meld(cards: Iterable[Card], *, ace_low: bool = False) -> BritishMeldCheck:
    """B2: the cards as a set, as a run, or (one natural card with jokers) as either; ``ace_low`` reads
    a run's ace low as well as high, as North American Kaluki does (NA2, problems cited as NA2).

    >>> from .cards import parse_cards
    >>> [meld.describe() for meld in check_british_meld(parse_cards("QH KH AH")).readings]
    ['run Q♥–A♥']
    >>> [str(problem) for problem in check_british_meld(parse_cards("7S 7S 7H")).problems]
    ['B2: a set is of different suits; 7♠ twice']
    >>> [meld.describe() for meld in check_british_meld(parse_cards("AS 2S 3S"), ace_low=True).readings]
    ['run A♠–3♠']
    """
    laid = tuple(cards)
    rule = "NA2" if ace_low else "B2"
    as_set, set_problems = _read_set(laid, rule)
    as_run, run_problems = _read_run(laid, rule, ace_low=ace_low)
    readings = tuple(meld for meld in (as_set, as_run) if meld is not None)
    if readings:
        return BritishMeldCheck(laid, readings)
    return BritishMeldCheck(laid, problems=tuple(set_problems if _looks_like_a_set(laid) else run_problems))


def _read_set(cards: tuple[Card, ...], rule: str) -> tuple[BritishMeld | None, list[MeldProblem]]:
    naturals = [card for card in cards if not card.is_joker]
    problems = []
    if not MELD_MIN_CARDS <= len(cards) <= SET_MAX_CARDS:
        problems.append(
            MeldProblem(rule, f"a set holds {MELD_MIN_CARDS} or {SET_MAX_CARDS} cards, this has {len(cards)}")
        )
    ranks = list(dict.fromkeys(card.rank_name for card in naturals))
    if len(ranks) > 1:
        problems.append(MeldProblem(rule, f"a set is cards of one rank; this mixes {_and(ranks)}"))
    problems += _repeats_and_naturals(naturals, "set", rule)
    if problems:
        return None, problems
    return BritishMeld(cards, SET_KIND, naturals[0].rank), []


def _read_run(
    cards: tuple[Card, ...], rule: str, *, ace_low: bool
) -> tuple[BritishMeld | None, list[MeldProblem]]:
    naturals = [card for card in cards if not card.is_joker]
    problems = []
    if len(cards) < MELD_MIN_CARDS:
        problems.append(
            MeldProblem(rule, f"a run needs at least {MELD_MIN_CARDS} cards, this has {len(cards)}")
        )
    if len(cards) > RUN_MAX_CARDS:
        ends = "A to K or 2 to A" if ace_low else "2 to A (the ace is high only)"
        problems.append(MeldProblem(rule, f"a run has at most {RUN_MAX_CARDS} cards, {ends}"))
    suits = list(dict.fromkeys(card.suit for card in naturals if card.suit is not None))
    if len(suits) > 1:
        mixed = _and(SUIT_SYMBOLS[suit] for suit in suits)
        problems.append(MeldProblem(rule, f"a run is of one suit; this mixes {mixed}"))
    problems += _repeats_and_naturals(naturals, "run", rule)
    if problems:
        return None, problems
    only_naturals = len(naturals) == len(cards)
    # NA2: the ace may also stand low (A-2-3), never at both ends at once (K-A-2); the order as laid
    # decides first (A 2 … K is the ace low, 2 … K A high).
    reading = _as_laid(cards) or (_as_laid(cards, ace_high=False) if ace_low else None)
    if reading is None and only_naturals:
        reading = _sorted(cards) or (_sorted(cards, ace_high=False) if ace_low else None)
    if reading is None:
        return None, [MeldProblem(rule, _why_not_a_run(cards, ace_low=ace_low))]
    ordered, low = reading
    return BritishMeld(ordered, RUN_KIND, low, naturals[0].suit), []


def _repeats_and_naturals(naturals: list[Card], kind: MeldKind, rule: str) -> list[MeldProblem]:
    """B2: a set is of different suits and a run holds each card once; each needs a natural card."""
    problems = []
    repeated = _and(str(card) for card, count in Counter(naturals).items() if count > 1)
    if repeated:
        once = "a set is of different suits" if kind == SET_KIND else "a run holds each card once"
        problems.append(MeldProblem(rule, f"{once}; {repeated} twice"))
    if not naturals:
        gives = "rank" if kind == SET_KIND else "suit"
        problems.append(
            MeldProblem(rule, f"jokers alone make no meld: a {kind} needs a natural card to give its {gives}")
        )
    return problems


def _place(card: Card) -> int:
    # B2: the ace is high only.
    return ACE_PLACE if card.rank == 1 else card.rank


def _rank(place: int) -> int:
    return 1 if place == ACE_PLACE else place


def _card_at(place: int, suit: str) -> Card:
    return Card(_rank(place), suit)


def _as_laid(cards: tuple[Card, ...], *, ace_high: bool = True) -> tuple[tuple[Card, ...], int] | None:
    """Jokers hold the places they are laid in; a run reads low to high or high to low.

    Returns the run low to high and its lowest place. ``ace_high=False`` reads the ace low, as B2 forbids,
    only to say why cards are not a run.
    """
    ace = ACE_PLACE if ace_high else 1
    lowest, highest = (LOWEST_PLACE, ACE_PLACE) if ace_high else (1, ACE_PLACE - 1)
    placed = [
        (index, ace if card.rank == 1 else card.rank) for index, card in enumerate(cards) if not card.is_joker
    ]
    for step in (1, -1):
        first_index, first = placed[0]
        start = first - step * first_index
        if any(place != start + step * index for index, place in placed):
            continue
        end = start + step * (len(cards) - 1)
        if lowest <= min(start, end) and max(start, end) <= highest:
            return (cards if step == 1 else cards[::-1]), min(start, end)
    return None


def _sorted(cards: tuple[Card, ...], *, ace_high: bool = True) -> tuple[tuple[Card, ...], int] | None:
    """Without jokers nothing holds a place, so naturals laid out of order are simply sorted."""
    ordered = tuple(sorted(cards, key=_place if ace_high else _rank_of))
    places = [_place(card) if ace_high else card.rank for card in ordered]
    if all(later - earlier == 1 for earlier, later in itertools.pairwise(places)):
        return ordered, places[0]
    return None


def _rank_of(card: Card) -> int:
    return card.rank


def _why_not_a_run(cards: tuple[Card, ...], *, ace_low: bool = False) -> str:
    """Cards of one suit, each once, that are not a run: the low ace (or, with ``ace_low``, the ace at
    both ends), a gap, or the jokers' places."""
    naturals = tuple(card for card in cards if not card.is_joker)
    ranks = {card.rank for card in naturals}
    only_naturals = len(naturals) == len(cards)
    arranged = None if only_naturals else _arranged(cards, ace_low=ace_low)
    hint = f"; valid as {format_cards(arranged, symbols=True)}" if arranged else ""
    if ace_low:
        # NA2: turning the corner (K-A-2) is the one way an ace breaks a run.
        if {1, 2, 13} <= ranks:
            return f"the ace is high or low, not both: A-2-3 and Q-K-A are runs, K-A-2 is not{hint}"
    else:
        # As laid, an ace (or a joker standing for one) below the 2, or an ace beside a 2.
        low_ace = _as_laid(cards, ace_high=False) or (only_naturals and _sorted(cards, ace_high=False))
        if low_ace or (1 in ranks and 2 in ranks):
            return f"the ace is high only: Q-K-A is a run, A-2-3 and K-A-2 are not{hint}"
    if only_naturals:
        suit = naturals[0].suit or ""
        readings = [sorted(_place(card) for card in naturals)]
        if ace_low:
            readings.append(sorted(card.rank for card in naturals))
        # The reading with the fewest cards missing (NA2: the ace low or high, whichever is nearer).
        places = min(readings, key=lambda places: places[-1] - places[0])
        missing = [
            str(_card_at(place, suit)) for place in range(places[0], places[-1] + 1) if place not in places
        ]
        return f"not consecutive: {_and(missing)} {'is' if len(missing) == 1 else 'are'} missing"
    return f"not a run as laid: a joker keeps the place it is laid in{hint}"


def _arranged(cards: tuple[Card, ...], *, ace_low: bool = False) -> tuple[Card, ...] | None:
    """The same cards laid as a run, jokers filling the gaps and then the high end (then the low end);
    with ``ace_low``, the ace read low when it cannot be read high (NA2)."""
    arranged = _arranged_with(cards, _place, ACE_PLACE)
    if arranged is None and ace_low:
        arranged = _arranged_with(cards, _rank_of, ACE_PLACE - 1)
    return arranged


def _arranged_with(
    cards: tuple[Card, ...], place_of: Callable[[Card], int], top: int
) -> tuple[Card, ...] | None:
    """:func:`_arranged` with the ace's place given by ``place_of`` and ``top`` the highest place."""
    naturals = sorted((card for card in cards if not card.is_joker), key=place_of)
    jokers = [card for card in cards if card.is_joker]
    places = [place_of(card) for card in naturals]
    gaps = sum(later - earlier - 1 for earlier, later in itertools.pairwise(places))
    spare = len(jokers) - gaps
    if spare < 0 or len(cards) > RUN_MAX_CARDS:
        return None
    laid: list[Card] = [naturals[0]]
    for earlier, later in itertools.pairwise(naturals):
        laid += [jokers[0]] * (place_of(later) - place_of(earlier) - 1) + [later]
    high_room = top - places[-1]
    laid = [*laid, *jokers[: min(spare, high_room)]]
    laid = [*jokers[: max(0, spare - high_room)], *laid]
    return tuple(laid)


def _looks_like_a_set(cards: tuple[Card, ...]) -> bool:
    naturals = [card for card in cards if not card.is_joker]
    same_rank = max(Counter(card.rank for card in naturals).values(), default=0)
    same_suit = max(Counter(card.suit for card in naturals).values(), default=0)
    return (same_rank >= same_suit and same_rank >= 2) or not naturals


# --- an opening (B3) ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningVerdict:
    """Whether a first lay-down opens: each meld's readings and the points they make (B3).

    ``lowest`` and ``highest`` are the opening's points over the melds' readings (equal unless a meld can
    be a set or a run); None when a meld is not legal. ``valid``: legal melds worth at least ``needed``
    read the best way; ``certain``: read any way.

    >>> from .laydown import parse_laydown
    >>> verdict = check_opening(parse_laydown("QS QH QD | JK JK 3S"))
    >>> verdict.valid, verdict.certain, verdict.lowest, verdict.highest
    (True, False, 39, 42)
    """

    melds: tuple[BritishMeldCheck, ...]
    needed: int
    values: OpeningValues
    problems: tuple[MeldProblem, ...] = ()
    lowest: int | None = None
    highest: int | None = None
    rule: str = "B3"  # the opening's rule: B3, or NA3 in North American Kaluki

    @property
    def valid(self) -> bool:
        return not self.problems and all(check.valid for check in self.melds)

    @property
    def certain(self) -> bool:
        return self.valid and self.lowest is not None and self.lowest >= self.needed

    def summary(self) -> str:
        """``opening, 40 points needed: K♠ K♥ K♦ K♣ (set of K, 40) | … = 61 points``."""
        parts = []
        for check in self.melds:
            readings = " · or ".join(
                f"{meld.describe()}, {meld.points(self.values)}" for meld in check.readings
            )
            parts.append(f"{format_cards(check.cards, symbols=True)} ({readings})")
        points = f"{self.lowest}" if self.lowest == self.highest else f"{self.lowest} or {self.highest}"
        return f"opening, {self.needed} points needed: {' | '.join(parts)} = {points} points"

    def lines(self) -> tuple[str, ...]:
        """``valid`` and the summary (and the condition, when a reading decides), or a line per problem."""
        if self.valid:
            lines = ["valid", self.summary()]
            if not self.certain:
                otherwise = f"read otherwise it is worth {self.lowest} points ({self.rule})"
                lines.append(f"only {self._best_readings()}: {otherwise}")
            return tuple(lines)
        lines = []
        for number, check in enumerate(self.melds, start=1):
            shown = format_cards(check.cards, symbols=True)
            lines += [f"meld {number} ({shown}): {problem}" for problem in check.problems]
        lines += [f"lay-down: {problem}" for problem in self.problems]
        return tuple(lines)

    def _best_readings(self) -> str:
        choices = []
        for number, check in enumerate(self.melds, start=1):
            if check.ambiguous:
                best = max(check.readings, key=lambda meld: meld.points(self.values))
                choices.append(f"meld {number} is the {best.kind}")
        return "if " + _and(choices)

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "certain": self.certain,
            "needed": self.needed,
            "points": {"lowest": self.lowest, "highest": self.highest},
            "melds": [
                {"number": n, **check.as_dict(self.values)} for n, check in enumerate(self.melds, start=1)
            ],
            "problems": [problem.as_dict() for problem in self.problems],
            "lines": list(self.lines()),
        }


def check_opening(
    melds: Iterable[Iterable[Card]], rules: BritishRuleSet | NorthAmericanRuleSet | None = None
) -> OpeningVerdict:
    """B3: a player's first melds, laid in one turn, each legal (B2) and together worth at least
    ``opening_points``, a joker counting as the card it replaces; the deck must hold the cards (B1).

    A North American ruleset reads runs with the ace high or low (NA2) and counts a low ace 1 (NA3); its
    problems cite NA1–NA3.

    >>> from .laydown import parse_laydown
    >>> print(check_opening(parse_laydown("QS QH QD | 2C 3C 4C")))
    lay-down: B3: the melds are worth 39 points; an opening needs at least 40
    """
    rules = rules or BRITISH_PRESETS[DEFAULT_BRITISH_PRESET]
    values = rules.opening_values
    ace_low = isinstance(rules, NorthAmericanRuleSet) and rules.ace_low
    opening_rule, deck_rule = ("NA3", "NA1") if isinstance(rules, NorthAmericanRuleSet) else ("B3", "B1")
    checks = tuple(check_british_meld(cards, ace_low=ace_low) for cards in melds)
    problems = _supply_problems(checks, rules, deck_rule)
    lowest = highest = None
    if checks and all(check.valid for check in checks):
        lowest = sum(min(meld.points(values) for meld in check.readings) for check in checks)
        highest = sum(max(meld.points(values) for meld in check.readings) for check in checks)
        if highest < rules.opening_points:
            worth = f"{highest}" if lowest == highest else f"{lowest} to {highest}"
            problems.append(
                MeldProblem(
                    opening_rule,
                    f"the melds are worth {worth} points; an opening needs at least {rules.opening_points}",
                )
            )
    return OpeningVerdict(
        checks, rules.opening_points, values, tuple(problems), lowest, highest, opening_rule
    )


def _supply_problems(
    checks: tuple[BritishMeldCheck, ...], rules: BritishRuleSet | NorthAmericanRuleSet, rule: str
) -> list[MeldProblem]:
    """B1, NA1: no lay-down holds more copies of a card, or more jokers, than the deck has."""
    laid = (card for check in checks for card in check.cards)
    return [
        MeldProblem(
            rule,
            f"{count} jokers are laid but the deck holds {limit}"
            if card.is_joker
            else f"{card} is laid {count} times but the deck holds {limit}",
        )
        for card, count, limit in card_excess(laid, decks=rules.decks, jokers=rules.jokers)
    ]


def _and(words: Iterable[str]) -> str:
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
