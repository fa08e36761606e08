"""Sets ("threes") and runs ("fours") and the plays on them (RULES.md R5–R8, R11).

A :class:`Meld` is always a legal meld; the ``check_*`` functions *report* what is wrong with cards that
do not make one, naming the rule. Whether a whole lay-down opens the contract is :mod:`.laydown`.

>>> meld = Meld.parse("8H JK 10H JH")
>>> meld, str(meld), meld.jokers_stand_for()
(Meld.parse('8H JK 10H JH'), '8♥ JK 10♥ J♥', (Card.parse('9H'),))
>>> replace_run_joker(meld, Card.parse("9H"))
Meld.parse('8H 9H 10H JH JK')
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Literal

from .cards import JOKER, SUIT_SYMBOLS, Card, format_cards, parse_cards
from .rules import RUN, SET

MeldKind = Literal["set", "run"]
SET_KIND: Final = "set"
RUN_KIND: Final = "run"
KINDS: Final = (SET_KIND, RUN_KIND)
# The contract's digit (rules.py) for each kind.
DIGIT_OF_KIND: Final[dict[str, str]] = {"set": SET, "run": RUN}

SET_MIN_CARDS: Final = 3  # R5
SET_MIN_NATURALS: Final = 2  # R5
RUN_MIN_CARDS: Final = 4  # R6
# R6: A–K or 2–A; an ace at both ends would turn the corner (no 14-card wrap).
RUN_MAX_CARDS: Final = 13
ACE_LOW: Final = 1
ACE_HIGH: Final = 14

WRAP_MESSAGE: Final = (
    "an ace is only low (A-2-3-4) or high (J-Q-K-A), at an end: a run never turns the corner (K-A-2)"
)


@dataclass(frozen=True, slots=True)
class MeldProblem:
    """One broken rule, in plain words: ``rule`` is ``"R5"`` … ``"R11"``.

    >>> problem = check_set(parse_cards("QS QH")).problems[0]
    >>> str(problem), problem.as_dict()["rule"]
    ('R5: a set needs at least 3 cards, this has 2', 'R5')
    """

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.message}


class InvalidMeld(ValueError):
    """Cards that are not a legal meld, raised where a :class:`Meld` is built; ``problems`` say why."""

    def __init__(self, problems: Iterable[MeldProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(problem) for problem in self.problems))


class IllegalPlay(ValueError):
    """A tack or joker swap the rules forbid (R6, R8, R11); ``problem`` names the rule."""

    def __init__(self, problem: MeldProblem) -> None:
        self.problem = problem
        self.rule = problem.rule
        super().__init__(str(problem))


# --- reading a run ------------------------------------------------------------------------------


def _value(card: Card, *, ace_high: bool) -> int:
    return ACE_HIGH if card.rank == 1 and ace_high else card.rank


def _ace_choices(naturals: Iterable[Card]) -> tuple[bool, ...]:
    return (False, True) if any(card.rank == 1 for card in naturals) else (False,)


def _card_at(value: int, suit: str) -> Card:
    return Card(ACE_LOW if value == ACE_HIGH else value, suit)


def _read_as_laid(cards: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """R6 + R8: jokers hold the places they are laid in; a run reads low to high or high to low.

    Returns the run low to high, or None when the cards as laid are not one.
    """
    placed = [(index, card) for index, card in enumerate(cards) if not card.is_joker]
    if not placed:
        return None
    for step in (1, -1):
        for ace_high in _ace_choices(card for _, card in placed):
            first_index, first = placed[0]
            start = _value(first, ace_high=ace_high) - step * first_index
            if any(_value(card, ace_high=ace_high) != start + step * index for index, card in placed):
                continue
            end = start + step * (len(cards) - 1)
            low, high = min(start, end), max(start, end)
            if low < ACE_LOW or high > ACE_HIGH:
                continue
            return cards if step == 1 else cards[::-1]
    return None


def _read_sorted(naturals: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """Without jokers nothing holds a place, so naturals laid out of order are simply sorted."""
    for ace_high in _ace_choices(naturals):
        ordered = sorted(naturals, key=lambda card: _value(card, ace_high=ace_high))
        values = [_value(card, ace_high=ace_high) for card in ordered]
        if all(later - earlier == 1 for earlier, later in itertools.pairwise(values)):
            return tuple(ordered)
    return None


def _run_reading(cards: tuple[Card, ...]) -> tuple[tuple[Card, ...] | None, list[MeldProblem]]:
    """The run low to high (or None) and what is wrong with it."""
    problems: list[MeldProblem] = []
    naturals = tuple(card for card in cards if not card.is_joker)
    if len(cards) < RUN_MIN_CARDS:
        problems.append(_r6(f"a run needs at least {RUN_MIN_CARDS} cards, this has {len(cards)}"))
    if len(cards) > RUN_MAX_CARDS:
        problems.append(_r6(f"a run has at most {RUN_MAX_CARDS} cards (A to K or 2 to A); {WRAP_MESSAGE}"))
    suits = list(dict.fromkeys(card.suit for card in naturals if card.suit is not None))
    if len(suits) > 1:
        problems.append(_r6(f"a run is of one suit; this mixes {listed(SUIT_SYMBOLS[s] for s in suits)}"))
    if any(a.is_joker and b.is_joker for a, b in itertools.pairwise(cards)):
        problems.append(_r6("two jokers stand side by side; a run's jokers may never be adjacent"))
    if len(suits) > 1 or not naturals or len(cards) > RUN_MAX_CARDS:
        return None, problems
    repeated = [card for card, count in Counter(naturals).items() if count > 1]
    if repeated:
        problems.append(_r6(f"{listed(str(card) for card in repeated)} twice; a run holds each card once"))
        return None, problems
    reading = _read_as_laid(cards)
    if reading is None and len(naturals) == len(cards):
        reading = _read_sorted(naturals)
    if reading is None:
        problems.append(_sequence_problem(cards, naturals))
    if problems:
        return None, problems
    return reading, problems


def _sequence_problem(cards: tuple[Card, ...], naturals: tuple[Card, ...]) -> MeldProblem:
    """Why cards of one suit, each once, are not a run: the corner at the ace, a gap or the order."""
    if _turns_the_corner(cards):
        return _r6(WRAP_MESSAGE)
    if len(naturals) == len(cards):
        return _r6(_gap_message(naturals))
    return _r6(_joker_places_message(cards))


def _turns_the_corner(cards: tuple[Card, ...]) -> bool:
    # Read round the clock (K, A, 2 …) the cards would follow on: only the corner at the ace is wrong.
    placed = [(index, card) for index, card in enumerate(cards) if not card.is_joker]
    if len(placed) == len(cards):
        ranks = {card.rank for _, card in placed}
        return any(all((start - 1 + i) % 13 + 1 in ranks for i in range(len(ranks))) for start in ranks)
    return any(len({(card.rank - step * index) % 13 for index, card in placed}) == 1 for step in (1, -1))


def _gap_message(naturals: tuple[Card, ...]) -> str:
    suit = naturals[0].suit or ""
    best: list[int] | None = None
    for ace_high in _ace_choices(naturals):
        values = sorted(_value(card, ace_high=ace_high) for card in naturals)
        missing = sorted(set(range(values[0], values[-1] + 1)) - set(values))
        if best is None or len(missing) < len(best):
            best = missing
    names = [str(_card_at(value, suit)) for value in best or []]
    verb = "is" if len(names) == 1 else "are"
    return f"not consecutive: {listed(names)} {verb} missing"


def _joker_places_message(cards: tuple[Card, ...]) -> str:
    placed = [(index, card) for index, card in enumerate(cards) if not card.is_joker]
    for ace_high in _ace_choices(card for _, card in placed):
        values = [_value(card, ace_high=ace_high) for _, card in placed]
        steps = [later - earlier for earlier, later in itertools.pairwise(values)]
        if not (all(step > 0 for step in steps) or all(step < 0 for step in steps)):
            continue
        pairs = itertools.pairwise(placed)
        for ((i, a), (j, b)), step in zip(pairs, steps, strict=True):
            if abs(step) != j - i:
                missing, jokers = abs(step) - 1, j - i - 1
                standing = {0: "no joker stands", 1: "1 joker stands"}.get(jokers, f"{jokers} jokers stand")
                return (
                    f"as laid, {standing} between {a} and {b} where {missing} card{_plural(missing)} "
                    f"{'is' if missing == 1 else 'are'} missing; a joker keeps the place it is laid in"
                )
    return "not in order as laid; with jokers a run is read as laid, low to high or high to low"


def _legal_orders(cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Every order of the same cards that is a legal run, low to high, when the written order is not one.

    Only the jokers' places can be wrong (naturals alone are read in any order): the naturals of one
    suit, each once, fill their places and the jokers the gaps, never side by side (R6).
    """
    naturals = [card for card in cards if not card.is_joker]
    count = len(cards)
    if not naturals or len(naturals) == count or not RUN_MIN_CARDS <= count <= RUN_MAX_CARDS:
        return ()
    if len({card.suit for card in naturals}) > 1 or len(set(naturals)) < len(naturals):
        return ()
    orders: list[tuple[Card, ...]] = []
    for ace_high in _ace_choices(naturals):
        by_place = {_value(card, ace_high=ace_high): card for card in naturals}
        lowest, highest = min(by_place), max(by_place)
        for low in range(max(ACE_LOW, highest - count + 1), min(lowest, ACE_HIGH - count + 1) + 1):
            order = tuple(by_place.get(place, JOKER) for place in range(low, low + count))
            if any(a.is_joker and b.is_joker for a, b in itertools.pairwise(order)):
                continue
            if order != cards and order not in orders and _read_as_laid(order) is not None:
                orders.append(order)
    return tuple(orders)


# --- melds --------------------------------------------------------------------------------------


def _set_problems(cards: tuple[Card, ...]) -> list[MeldProblem]:
    problems: list[MeldProblem] = []
    naturals = [card for card in cards if not card.is_joker]
    if len(cards) < SET_MIN_CARDS:
        problems.append(_r5(f"a set needs at least {SET_MIN_CARDS} cards, this has {len(cards)}"))
    ranks = list(dict.fromkeys(card.rank_name for card in naturals))
    if len(ranks) > 1:
        problems.append(_r5(f"a set is cards of one rank; this mixes {listed(ranks)}"))
    if len(naturals) < SET_MIN_NATURALS:
        problems.append(
            _r5(
                f"a set needs at least {SET_MIN_NATURALS} natural cards besides its jokers, "
                f"this has {len(naturals)}"
            )
        )
    return problems


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal set or run. A run's cards are kept low to high with each joker where it was laid.

    Building one from cards that are not a legal meld raises :class:`InvalidMeld`; a run laid high to
    low is turned round.

    >>> Meld.parse("AH KH QH JH")
    Meld.parse('JH QH KH AH')
    >>> Meld.parse("QS QS JK").kind, Meld.parse("QS QS JK").rank_name
    ('set', 'Q')
    >>> Meld.parse("KH AH 2H 3H")
    Traceback (most recent call last):
    ...
    adjudication.engine.melds.InvalidMeld: R6: an ace is only low (A-2-3-4) or high (J-Q-K-A), at an end: \
a run never turns the corner (K-A-2)
    """

    cards: tuple[Card, ...]
    kind: MeldKind

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        if self.kind == SET_KIND:
            problems = _set_problems(cards)
        elif self.kind == RUN_KIND:
            reading, problems = _run_reading(cards)
            if reading is not None:
                cards = reading
        else:
            raise ValueError(f"a meld is a set or a run, not {self.kind!r}")
        if problems:
            raise InvalidMeld(problems)
        object.__setattr__(self, "cards", cards)

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read a meld in card notation; raise :class:`InvalidCard` or :class:`InvalidMeld`."""
        check = classify(parse_cards(text))
        if check.meld is None:
            raise InvalidMeld(check.problems)
        return check.meld

    @property
    def notation(self) -> str:
        return format_cards(self.cards)

    @property
    def naturals(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if not card.is_joker)

    @property
    def rank(self) -> int | None:
        """A set's rank (1 = A … 13 = K); None for a run."""
        return self.naturals[0].rank if self.kind == SET_KIND else None

    @property
    def rank_name(self) -> str | None:
        return self.naturals[0].rank_name if self.kind == SET_KIND else None

    @property
    def suit(self) -> str | None:
        """A run's suit; None for a set."""
        return self.naturals[0].suit if self.kind == RUN_KIND else None

    @property
    def low(self) -> int | None:
        """A run's lowest place: 1 is a low ace, 2–13 the ranks. None for a set."""
        if self.kind != RUN_KIND:
            return None
        index, card = next((i, card) for i, card in enumerate(self.cards) if not card.is_joker)
        # An ace that is not the first card of a run (kept low to high) is a high ace.
        return _value(card, ace_high=index > 0) - index

    @property
    def high(self) -> int | None:
        """A run's highest place: 14 is a high ace. None for a set."""
        low = self.low
        return None if low is None else low + len(self.cards) - 1

    @property
    def reaches_ace(self) -> bool:
        """R8 + R11: a run reaching a high ace now grows at its low end."""
        return self.high == ACE_HIGH

    def jokers_stand_for(self) -> tuple[Card, ...]:
        """The cards a run's jokers stand for, low to high (a set's jokers have no fixed suit: ``()``).

        >>> Meld.parse("JK QH KH JK").jokers_stand_for()
        (Card.parse('JH'), Card.parse('AH'))
        """
        low, suit = self.low, self.suit
        if low is None or suit is None:
            return ()
        return tuple(_card_at(low + i, suit) for i, card in enumerate(self.cards) if card.is_joker)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return format_cards(self.cards, symbols=True)

    def __repr__(self) -> str:
        return f"Meld.parse({self.notation!r})"


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """What checking some cards as a meld found: the meld when they make one, else the problems.

    >>> check = check_run(parse_cards("7H 6H 5H 4H"))
    >>> check.valid, check.meld, str(check)
    (True, Meld.parse('4H 5H 6H 7H'), '4♥ 5♥ 6♥ 7♥: a run')
    """

    cards: tuple[Card, ...]
    kind: MeldKind
    problems: tuple[MeldProblem, ...] = ()
    meld: Meld | None = None
    # Cards are read as written; a run written in an order that breaks it may be legal in another.
    valid_as: tuple[tuple[Card, ...], ...] = ()

    @property
    def valid(self) -> bool:
        return self.meld is not None

    @property
    def shown(self) -> tuple[Card, ...]:
        """The meld as kept (a run low to high) when legal, else the cards as laid."""
        return self.cards if self.meld is None else self.meld.cards

    def __str__(self) -> str:
        shown = format_cards(self.shown, symbols=True)
        if self.meld is not None:
            return f"{shown}: a {self.kind}"
        return f"{shown}: " + "; ".join(str(problem) for problem in self.problems)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cards": format_cards(self.cards),
            "display": format_cards(self.shown, symbols=True),
            "kind": self.kind,
            "valid": self.valid,
            "meld": None if self.meld is None else self.meld.notation,
            "problems": [problem.as_dict() for problem in self.problems],
            "valid_as": [format_cards(order) for order in self.valid_as],
        }


def check_set(cards: Iterable[Card]) -> MeldCheck:
    """R5: at least 3 cards of one rank (suits free, duplicates allowed), at least 2 of them natural.

    >>> check_set(parse_cards("QS QS JK")).valid
    True
    >>> [str(problem) for problem in check_set(parse_cards("QS JK JK")).problems]
    ['R5: a set needs at least 2 natural cards besides its jokers, this has 1']
    """
    laid = tuple(cards)
    problems = _set_problems(laid)
    if problems:
        return MeldCheck(laid, SET_KIND, tuple(problems))
    return MeldCheck(laid, SET_KIND, meld=Meld(laid, SET_KIND))


def check_run(cards: Iterable[Card]) -> MeldCheck:
    """R6: at least 4 consecutive cards of one suit; jokers never adjacent; an ace only at an end.

    Read as laid, low to high or high to low (kept low to high); naturals alone may come in any order.
    When the jokers' places break the run but the same cards in another order are one, ``valid_as``
    holds those orders.

    >>> check_run(parse_cards("JH 10H JK 8H")).meld
    Meld.parse('8H JK 10H JH')
    >>> check_run(parse_cards("JK JK 5H 6H")).valid_as
    ((Card.parse('JK'), Card.parse('5H'), Card.parse('6H'), Card.parse('JK')),)
    >>> [str(problem) for problem in check_run(parse_cards("4H 5H 7H 8H")).problems]
    ['R6: not consecutive: 6♥ is missing']
    >>> [str(problem) for problem in check_run(parse_cards("8H JK JK JH")).problems]
    ["R6: two jokers stand side by side; a run's jokers may never be adjacent"]
    """
    laid = tuple(cards)
    reading, problems = _run_reading(laid)
    if reading is None:
        return MeldCheck(laid, RUN_KIND, tuple(problems), valid_as=_legal_orders(laid))
    return MeldCheck(laid, RUN_KIND, meld=Meld(reading, RUN_KIND))


def classify(cards: Iterable[Card]) -> MeldCheck:
    """Check cards as whichever meld they make, or report them as the meld they look most like.

    >>> classify(parse_cards("9C 10C JC QC")).kind
    'run'
    >>> print(classify(parse_cards("QS QH KS")))
    Q♠ Q♥ K♠: R5: a set is cards of one rank; this mixes Q and K
    """
    laid = tuple(cards)
    as_set, as_run = check_set(laid), check_run(laid)
    if as_set.valid:
        return as_set
    if as_run.valid or as_run.valid_as:
        return as_run
    return as_set if _looks_like_a_set(laid) else as_run


def _looks_like_a_set(cards: tuple[Card, ...]) -> bool:
    naturals = [card for card in cards if not card.is_joker]
    if not naturals:
        # Jokers alone: the set's rule (two naturals) says most plainly what is missing.
        return True
    same_rank = max(Counter(card.rank for card in naturals).values(), default=0)
    same_suit = max(Counter(card.suit for card in naturals).values(), default=0)
    if same_rank >= 2 and same_rank >= same_suit:
        return True
    if same_suit >= 2:
        return False
    return len(cards) < RUN_MIN_CARDS


# --- changing a run after the opening (R8, R11) ------------------------------------------------


def _require_run(meld: Meld) -> tuple[int, int, str]:
    low, high, suit = meld.low, meld.high, meld.suit
    if low is None or high is None or suit is None:
        raise IllegalPlay(MeldProblem("R11", f"{meld} is a set; only a run has ends to extend"))
    return low, high, suit


def _free_end(low: int, high: int) -> Literal["high", "low"] | None:
    """R8 + R11: the end a run grows at — high until it reaches A, then low — or None when it is full."""
    if high < ACE_HIGH:
        # A run from a low ace stops at K: one more would turn the corner.
        return "high" if high - low + 1 < RUN_MAX_CARDS else None
    return "low" if low - 1 > ACE_LOW else None


def extend_run(run: Meld, card: Card) -> Meld:
    """R11: tack ``card`` on ``run`` at its high end until the run reaches A, only then at its low end.

    >>> extend_run(Meld.parse("9H 10H JH QH"), Card.parse("KH"))
    Meld.parse('9H 10H JH QH KH')
    >>> extend_run(Meld.parse("JH QH KH AH"), Card.parse("10H"))
    Meld.parse('10H JH QH KH AH')
    >>> extend_run(Meld.parse("8H JK 10H JH"), Card.parse("7H"))
    Traceback (most recent call last):
    ...
    adjudication.engine.melds.IllegalPlay: R11: a run grows at its high end until it reaches A: Q♥ or a \
joker goes next, not 7♥ at the low end
    """
    low, high, suit = _require_run(run)
    end = _free_end(low, high)
    if end is None:
        raise IllegalPlay(_r6(f"{run} is complete; {WRAP_MESSAGE}"))
    wanted = _card_at(high + 1 if end == "high" else low - 1, suit)
    neighbour = run.cards[-1] if end == "high" else run.cards[0]
    if card.is_joker and neighbour.is_joker:
        raise IllegalPlay(_r6(f"a joker at the {end} end would stand beside another joker"))
    if card.is_joker or card == wanted:
        cards = (*run.cards, card) if end == "high" else (card, *run.cards)
        return Meld(cards, RUN_KIND)
    if card.suit != suit:
        raise IllegalPlay(_r6(f"a run is of one suit; {card} cannot join a {SUIT_SYMBOLS[suit]} run"))
    if end == "high" and low > ACE_LOW and card == _card_at(low - 1, suit):
        raise IllegalPlay(
            MeldProblem(
                "R11",
                f"a run grows at its high end until it reaches A: {wanted} or a joker goes next, "
                f"not {card} at the low end",
            )
        )
    raise IllegalPlay(_r6(f"{card} does not follow on: {wanted} or a joker goes at the {end} end"))


def extend_set(meld: Meld, card: Card) -> Meld:
    """R5: a set takes more cards of its rank, or a joker.

    >>> extend_set(Meld.parse("QS QH JK"), Card.parse("QS"))
    Meld.parse('QS QH JK QS')
    """
    if meld.kind != SET_KIND:
        raise IllegalPlay(_r5(f"{meld} is a run; use extend_run"))
    if not card.is_joker and card.rank != meld.rank:
        raise IllegalPlay(
            _r5(f"a set of {meld.rank_name} takes only {meld.rank_name}s or a joker, not {card}")
        )
    return Meld((*meld.cards, card), SET_KIND)


def replace_run_joker(run: Meld, card: Card) -> Meld:
    """R8: the exact natural card takes a joker's place; the joker moves to the run's high end (low end
    if the run already reaches A), never beside another joker and never off the run.

    >>> replace_run_joker(Meld.parse("JK QH KH AH"), Card.parse("JH"))
    Meld.parse('JK JH QH KH AH')
    >>> replace_run_joker(Meld.parse("8H JK 10H JH"), Card.parse("7H"))
    Traceback (most recent call last):
    ...
    adjudication.engine.melds.IllegalPlay: R8: only the card a joker stands for can take its place; \
this run's joker stands for 9♥, not 7♥
    """
    low, high, _ = _require_run(run)
    stands_for = run.jokers_stand_for()
    if card.is_joker or card not in stands_for:
        if not stands_for:
            raise IllegalPlay(MeldProblem("R8", f"{run} has no joker to replace"))
        which = "this run's joker stands" if len(stands_for) == 1 else "this run's jokers stand"
        raise IllegalPlay(
            MeldProblem(
                "R8",
                f"only the card a joker stands for can take its place; {which} for "
                f"{listed(str(c) for c in stands_for)}, not {card}",
            )
        )
    joker_index = [i for i, c in enumerate(run.cards) if c.is_joker][stands_for.index(card)]
    cards = (*run.cards[:joker_index], card, *run.cards[joker_index + 1 :])
    end = _free_end(low, high)
    if end is None:
        raise IllegalPlay(MeldProblem("R8", f"the joker has nowhere to go: {run} cannot grow"))
    neighbour = cards[-1] if end == "high" else cards[0]
    if neighbour.is_joker:
        raise IllegalPlay(MeldProblem("R8", f"the joker would end beside another joker at the {end} end"))
    return Meld((*cards, JOKER) if end == "high" else (JOKER, *cards), RUN_KIND)


# --- words --------------------------------------------------------------------------------------


def _r5(message: str) -> MeldProblem:
    return MeldProblem("R5", message)


def _r6(message: str) -> MeldProblem:
    return MeldProblem("R6", message)


def _plural(count: int) -> str:
    return "" if count == 1 else "s"


def listed(words: Iterable[str]) -> str:
    """``"A, B and C"``: words joined as a sentence names them.

    >>> listed(["4♥", "6♥", "7♥"])
    '4♥, 6♥ and 7♥'
    """
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


__all__ = [
    "KINDS",
    "RUN_KIND",
    "SET_KIND",
    "IllegalPlay",
    "InvalidMeld",
    "Meld",
    "MeldCheck",
    "MeldKind",
    "MeldProblem",
    "check_run",
    "check_set",
    "classify",
    "extend_run",
    "extend_set",
    "listed",
    "replace_run_joker",
]
