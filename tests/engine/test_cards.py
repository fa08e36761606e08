"""Card notation (SCORESHEET.md, "Card notation"): forgiving on the way in, exact on the way out."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudication.engine.cards import (
    FULL_DECK,
    JOKER,
    RANKS,
    SUITS,
    Card,
    InvalidCard,
    format_cards,
    parse_cards,
)

EVERY_CARD = (*FULL_DECK, JOKER)


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("AS", 1, "S"),
        ("as", 1, "S"),
        ("aS", 1, "S"),
        ("A♠", 1, "S"),
        ("a♠", 1, "S"),
        ("2C", 2, "C"),
        ("9♣", 9, "C"),
        ("10H", 10, "H"),
        ("10h", 10, "H"),
        ("TH", 10, "H"),
        ("th", 10, "H"),
        ("10♥", 10, "H"),
        ("T♥", 10, "H"),
        ("JD", 11, "D"),
        ("Q♦", 12, "D"),
        ("KS", 13, "S"),
        ("k♠", 13, "S"),
        (" 7d ", 7, "D"),
        # A phone's emoji keyboard sends ♥ followed by a variation selector.
        ("10♥\ufe0f", 10, "H"),
        ("A♠\ufe0e", 1, "S"),
        ("JK", 0, None),
        ("jk", 0, None),
        ("Jk", 0, None),
        ("*", 0, None),
        ("joker", 0, None),
    ],
)
def test_it_reads_every_notation_form(token: str, rank: int, suit: str | None) -> None:
    card = Card.parse(token)
    assert (card.rank, card.suit) == (rank, suit)
    assert parse_cards(token) == (card,)


@pytest.mark.parametrize(
    "token",
    ["1H", "11H", "0H", "14S", "AX", "A", "H", "10", "♥", "JKS", "J K", "A♠♠", "SA", "HH", "", "A-S", "1OH"],
)
def test_it_refuses_a_bad_token_and_names_it(token: str) -> None:
    with pytest.raises(InvalidCard) as caught:
        Card.parse(token)
    assert caught.value.token == token
    assert repr(token) in str(caught.value)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("AS 1H JK", "1H"),
        ("AS,10H,ZZ", "ZZ"),
        ("AS 10H\tQX", "QX"),
        ("AS; 10H", "AS;"),
        ("♥A", "♥A"),
    ],
)
def test_parse_cards_names_the_first_bad_token(text: str, bad: str) -> None:
    with pytest.raises(InvalidCard) as caught:
        parse_cards(text)
    assert caught.value.token == bad
    assert str(caught.value) == f"not a card: {bad!r}"


def test_invalid_card_is_a_value_error() -> None:
    assert issubclass(InvalidCard, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "AS 10H JK",
        "AS,10H,JK",
        "AS, 10H, JK",
        "as,10h jk",
        " AS\t10H\nJK ",
        "AS ,, 10H , JK",
        "A♠ 10♥ *",
        "A♠,T♥,Joker",
    ],
)
def test_cards_are_separated_by_spaces_or_commas(text: str) -> None:
    assert parse_cards(text) == (Card(1, "S"), Card(10, "H"), JOKER)


@pytest.mark.parametrize("text", ["", " ", "\n", ",", " , ,"])
def test_an_empty_hand_is_no_cards(text: str) -> None:
    assert parse_cards(text) == ()


@pytest.mark.parametrize(
    ("card", "shown", "notation", "representation"),
    [
        (Card(1, "S"), "A♠", "AS", "Card.parse('AS')"),
        (Card(1, "H"), "A♥", "AH", "Card.parse('AH')"),
        (Card(10, "H"), "10♥", "10H", "Card.parse('10H')"),
        (Card(11, "D"), "J♦", "JD", "Card.parse('JD')"),
        (Card(12, "C"), "Q♣", "QC", "Card.parse('QC')"),
        (Card(13, "S"), "K♠", "KS", "Card.parse('KS')"),
        (Card(2, "C"), "2♣", "2C", "Card.parse('2C')"),
        (JOKER, "JK", "JK", "Card.parse('JK')"),
    ],
)
def test_str_gives_symbols_notation_gives_letters_and_repr_evaluates_back(
    card: Card, shown: str, notation: str, representation: str
) -> None:
    assert str(card) == shown
    assert card.notation == notation
    assert repr(card) == representation
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("card", EVERY_CARD, ids=lambda card: card.notation)
def test_every_card_reads_back_from_its_notation_and_its_symbols(card: Card) -> None:
    assert Card.parse(card.notation) == card
    assert Card.parse(str(card)) == card
    assert Card.parse(card.notation.lower()) == card


@pytest.mark.parametrize(
    ("rank", "suit"),
    [(14, "S"), (-1, "S"), (1, None), (1, "X"), (1, "s"), (0, "S"), (1.0, "S"), (True, "S"), ("A", "S")],
)
def test_a_card_that_cannot_exist_is_refused(rank: object, suit: object) -> None:
    with pytest.raises(InvalidCard):
        Card(rank, suit)  # type: ignore[arg-type]


def test_the_deck_has_52_different_cards_and_the_joker_is_none_of_them() -> None:
    assert len(set(FULL_DECK)) == 52 == len(RANKS) * len(SUITS)
    assert JOKER not in FULL_DECK
    assert JOKER.is_joker and not any(card.is_joker for card in FULL_DECK)


@pytest.mark.parametrize(
    ("token", "red"), [("AH", True), ("AD", True), ("AS", False), ("AC", False), ("JK", False)]
)
def test_red_cards_are_hearts_and_diamonds(token: str, red: bool) -> None:
    assert Card.parse(token).is_red is red


def test_cards_are_frozen_values() -> None:
    card = Card.parse("QS")
    assert card == Card(12, "S") and hash(card) == hash(Card(12, "S"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 13  # type: ignore[misc]


def test_format_cards_writes_file_notation_or_symbols() -> None:
    cards = parse_cards("as 10♥ * qd")
    assert format_cards(cards) == "AS 10H JK QD"
    assert format_cards(cards, symbols=True) == "A♠ 10♥ JK Q♦"
    assert format_cards([]) == ""


cards_strategy = st.sampled_from(EVERY_CARD)


@settings(deadline=None)
@given(st.lists(cards_strategy, max_size=30))
def test_a_list_of_cards_round_trips_through_its_notation(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards(format_cards(cards, symbols=True)) == tuple(cards)


def _spell(card: Card, choice: int) -> str:
    """One of the accepted spellings of ``card``."""
    if card.is_joker:
        return ("JK", "jk", "*", "Joker")[choice % 4]
    spellings = [card.notation, card.notation.lower(), str(card)]
    if card.rank == 10:
        spellings.append("T" + card.notation[2:].lower())
    return spellings[choice % len(spellings)]


@settings(deadline=None)
@given(
    st.lists(
        st.tuples(cards_strategy, st.integers(0, 3), st.sampled_from([" ", ",", ", ", " ,  ", "\t", "\n"])),
        max_size=20,
    )
)
def test_any_mix_of_spellings_and_separators_reads_the_same_cards(
    items: list[tuple[Card, int, str]],
) -> None:
    text = "".join(_spell(card, choice) + separator for card, choice, separator in items)
    assert parse_cards(text) == tuple(card for card, _, _ in items)
