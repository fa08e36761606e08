"""Reading and writing kalooki-sheet/1 (SCORESHEET.md): what is unreadable (exit 2) and the round trip."""

import json
from pathlib import Path

import pytest

from adjudication.engine.cards import parse_cards
from adjudication.engine.rules import ruleset_from
from adjudication.engine.sheet import (
    MAX_DEPTH,
    MAX_HAND_CARDS,
    MAX_TEXT,
    MAX_VOID_DEALS,
    PlayerResult,
    SheetError,
    check_nesting,
    decode_json,
    load_sheet,
    parse_sheet,
    read_one_deal,
    sheet_to_dict,
)
from adjudication.engine.validator import validate, validate_data

DATA = Path(__file__).resolve().parent.parent / "data"


def example():
    return json.loads((DATA / "example-sheet.json").read_text())


def base():
    """A small readable sheet: two deals, a void one and an over-caller."""
    return {
        "format": "kalooki-sheet/1",
        "ruleset": "jamaican",
        "rules": {"bend_bonus": 20},
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "first_dealer": "Ann",
        "deals": [
            {"deal": 1, "void": True},
            {
                "deal": 1,
                "dealer": "Ann",
                "out": "Ann",
                "doubled": True,
                "results": {
                    "Ann": {"calls": 0, "penalty": 20, "total": 20},
                    "Bob": {"calls": 0, "hand": "AS AH JK 7D 2C 3C 4C 5C 6C", "penalty": 186},
                    "Cy": {"calls": 4, "overcall": True, "opened": False, "penalty": 90},
                    "Dee": {"calls": 1, "penalty": 60, "other_points": 10, "other_reason": "slow play"},
                },
            },
        ],
    }


def mutate(path, value):
    """``base()`` with the value at ``path`` (a tuple of keys and indexes) replaced or, for ..., removed."""
    data = base()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


# Every unreadable case of the spec ("Exit 2 (unreadable), not a finding") and the structural ones.
UNREADABLE = [
    ("format missing", ("format",), ..., "format", 'expected "kalooki-sheet/1", got nothing'),
    ("format other", ("format",), "kalooki-sheet/2", "format", 'got "kalooki-sheet/2"'),
    ("unknown ruleset", ("ruleset",), "trinidad", "ruleset", "unknown ruleset 'trinidad'"),
    ("unknown rules key", ("rules", "jokers_wild"), True, "rules.jokers_wild", "unknown rule parameter"),
    ("bad rule value", ("rules", "call_limit"), -1, "rules.call_limit", "at least 0, got -1"),
    ("bad rule type", ("rules", "void_redeal"), "never", "rules.void_redeal", 'expected "same" or "next"'),
    ("rules not an object", ("rules",), [1], "rules", "expected an object of rule parameters, got [1]"),
    ("table the deck cannot deal", ("rules", "decks"), 1, "rules.table_size", "4 players need 65 cards"),
    (
        "calls not a number",
        ("deals", 1, "results", "Bob", "calls"),
        "two",
        "deals[1].results.Bob.calls",
        'expected a whole number, got "two"',
    ),
    (
        "calls a fraction",
        ("deals", 1, "results", "Bob", "calls"),
        1.5,
        "deals[1].results.Bob.calls",
        "expected a whole number, got 1.5",
    ),
    (
        "calls a bool",
        ("deals", 1, "results", "Bob", "calls"),
        True,
        "deals[1].results.Bob.calls",
        "expected a whole number, got true",
    ),
    (
        "negative calls",
        ("deals", 1, "results", "Bob", "calls"),
        -1,
        "deals[1].results.Bob.calls",
        "at least 0, got -1",
    ),
    (
        "negative penalty",
        ("deals", 1, "results", "Bob", "penalty"),
        -3,
        "deals[1].results.Bob.penalty",
        "at least 0, got -3",
    ),
    # R14 (revised): scores are never negative, the winner's included, and so is no bend bonus.
    (
        "negative winner's penalty",
        ("deals", 1, "results", "Ann", "penalty"),
        -50,
        "deals[1].results.Ann.penalty",
        "at least 0, got -50",
    ),
    ("negative bend bonus", ("rules", "bend_bonus"), -50, "rules.bend_bonus", "scores are never negative"),
    # Infraction points add to a score, never take from it (R16–R18).
    (
        "negative other points",
        ("deals", 1, "results", "Bob", "other_points"),
        -5,
        "deals[1].results.Bob.other_points",
        "at least 0, got -5",
    ),
    (
        "penalty a string",
        ("deals", 1, "results", "Bob", "penalty"),
        "186",
        "deals[1].results.Bob.penalty",
        'got "186"',
    ),
    ("total a fraction", ("deals", 1, "results", "Ann", "total"), 0.5, "deals[1].results.Ann.total", "0.5"),
    (
        "other points a string",
        ("deals", 1, "results", "Dee", "other_points"),
        "ten",
        "deals[1].results.Dee.other_points",
        '"ten"',
    ),
    ("deal number 0", ("deals", 1, "deal"), 0, "deals[1].deal", "from 1 to 9, got 0"),
    ("deal number 10", ("deals", 1, "deal"), 10, "deals[1].deal", "from 1 to 9, got 10"),
    ("deal number missing", ("deals", 0, "deal"), ..., "deals[0].deal", "missing"),
    ("deal number a string", ("deals", 1, "deal"), "1", "deals[1].deal", 'got "1"'),
    ("unknown out", ("deals", 1, "out"), "Zed", "deals[1].out", '"Zed" is not one of the players'),
    ("unknown dealer", ("deals", 1, "dealer"), "Zed", "deals[1].dealer", '"Zed" is not one of the players'),
    ("unknown first dealer", ("first_dealer",), "Zed", "first_dealer", '"Zed" is not one of the players'),
    ("dealer not a name", ("deals", 1, "dealer"), 3, "deals[1].dealer", "expected a player's name, got 3"),
    (
        "unknown results name",
        ("deals", 1, "results", "Zed"),
        {"penalty": 3},
        "deals[1].results.Zed",
        '"Zed" is not one of the players',
    ),
    ("duplicate player", ("players", 3), "Ann", "players[3]", 'duplicate player name "Ann"'),
    ("players not a list", ("players",), "Ann Bob", "players", "expected a list of player names"),
    ("players missing", ("players",), ..., "players", "expected a list of player names, got null"),
    ("player not a string", ("players", 1), 7, "players[1]", "expected a player's name, got 7"),
    ("deals not a list", ("deals",), {"deal": 1}, "deals", "expected a list of deals"),
    ("deals missing", ("deals",), ..., "deals", "expected a list of deals, got null"),
    ("deal not an object", ("deals", 1), [1, 2], "deals[1]", "expected an object, got [1, 2]"),
    ("results not an object", ("deals", 1, "results"), [], "deals[1].results", "expected an object, got []"),
    (
        "result not an object",
        ("deals", 1, "results", "Bob"),
        12,
        "deals[1].results.Bob",
        "expected an object, got 12",
    ),
    (
        "void not a bool",
        ("deals", 0, "void"),
        "yes",
        "deals[0].void",
        'expected true, false or null, got "yes"',
    ),
    ("doubled not a bool", ("deals", 1, "doubled"), 1, "deals[1].doubled", "expected true, false or null"),
    (
        "opened not a bool",
        ("deals", 1, "results", "Cy", "opened"),
        "no",
        "deals[1].results.Cy.opened",
        "expected true, false or null",
    ),
    (
        "overcall not a bool",
        ("deals", 1, "results", "Cy", "overcall"),
        1,
        "deals[1].results.Cy.overcall",
        "expected true, false or null, got 1",
    ),
    (
        "contract error not a bool",
        ("deals", 1, "results", "Cy", "contract_error"),
        "x",
        "deals[1].results.Cy.contract_error",
        "expected true, false or null",
    ),
    (
        "hand not a string",
        ("deals", 1, "results", "Bob", "hand"),
        ["AS"],
        "deals[1].results.Bob.hand",
        'expected a string, got ["AS"]',
    ),
    (
        "reason not a string",
        ("deals", 1, "results", "Dee", "other_reason"),
        5,
        "deals[1].results.Dee.other_reason",
        "expected a string, got 5",
    ),
]


def nested(levels):
    """A list nested ``levels`` deep, built without recursion (``nested(1)`` is ``[]``)."""
    value = []
    for _ in range(levels - 1):
        value = [value]
    return value


def below(levels):
    """The path of the list ``levels`` below a nested value's top: ``[0][0]…``."""
    return "[0]" * levels


TOO_LONG = f"a text of {MAX_TEXT + 1} characters; at most {MAX_TEXT} are allowed"
TOO_DEEP = f"JSON nested deeper than {MAX_DEPTH} levels"
LONG = "x" * (MAX_TEXT + 1)

# The spec's size limits (exit 2): 60 cards a hand, 500 characters a text, 20 levels of JSON.
LIMITS = [
    (
        "61 cards in a hand",
        ("deals", 1, "results", "Bob", "hand"),
        " ".join(["2C"] * (MAX_HAND_CARDS + 1)),
        "deals[1].results.Bob.hand",
        "61 cards in one hand; at most 60 are allowed",
    ),
    (
        "61 one-letter cards in a hand",
        ("deals", 1, "results", "Bob", "hand"),
        ",".join(["*"] * (MAX_HAND_CARDS + 1)),
        "deals[1].results.Bob.hand",
        "61 cards in one hand",
    ),
    (
        "a hand over 500 characters",
        ("deals", 1, "results", "Bob", "hand"),
        "2C" + " " * (MAX_TEXT - 1),
        "deals[1].results.Bob.hand",
        TOO_LONG,
    ),
    (
        "a long reason",
        ("deals", 1, "results", "Dee", "other_reason"),
        LONG,
        "deals[1].results.Dee.other_reason",
        TOO_LONG,
    ),
    ("a long player name", ("players", 2), LONG, "players[2]", TOO_LONG),
    ("a long dealer", ("deals", 1, "dealer"), LONG, "deals[1].dealer", TOO_LONG),
    ("a long out", ("deals", 1, "out"), LONG, "deals[1].out", TOO_LONG),
    ("a long first dealer", ("first_dealer",), LONG, "first_dealer", TOO_LONG),
    ("a long ruleset name", ("ruleset",), LONG, "ruleset", TOO_LONG),
    ("a long rule value", ("rules", "void_redeal"), LONG, "rules.void_redeal", TOO_LONG),
    (
        "a long results name",
        ("deals", 1, "results", LONG),
        {"penalty": 3},
        "deals[1].results." + "x" * 37 + "...",
        TOO_LONG,
    ),
    (
        "a long unknown text",
        ("deals", 1, "results", "Bob", "note"),
        LONG,
        "deals[1].results.Bob.note",
        TOO_LONG,
    ),
    ("a long unknown key", ("deals", 1, LONG), 1, "deals[1]." + "x" * 37 + "...", TOO_LONG),
    ("a long text at the top", ("venue",), ["Kingston", LONG], "venue[1]", TOO_LONG),
    # A sheet is level 1, a deal level 3, a result level 5: below them an unknown value nests up to 20.
    ("deep at the top", ("notes",), nested(MAX_DEPTH), "notes" + below(MAX_DEPTH - 1), TOO_DEEP),
    (
        "deep in a deal",
        ("deals", 1, "notes"),
        nested(MAX_DEPTH - 2),
        "deals[1].notes" + below(MAX_DEPTH - 3),
        TOO_DEEP,
    ),
    (
        "deep in a result",
        ("deals", 1, "results", "Bob", "notes"),
        {"a": nested(MAX_DEPTH - 5)},
        "deals[1].results.Bob.notes.a" + below(MAX_DEPTH - 6),
        TOO_DEEP,
    ),
    (
        "deep in the rules",
        ("rules", "schedule"),
        nested(MAX_DEPTH - 1),
        "rules.schedule" + below(MAX_DEPTH - 2),
        TOO_DEEP,
    ),
    (
        "100,000 deep",
        ("deals", 1, "notes"),
        nested(100_000),
        "deals[1].notes" + below(MAX_DEPTH - 3),
        TOO_DEEP,
    ),
    # A deep value where a number belongs is refused as what it is, without writing it all out.
    (
        "a deep value for calls",
        ("deals", 1, "results", "Bob", "calls"),
        nested(100_000),
        "deals[1].results.Bob.calls",
        "got [...]",
    ),
]


@pytest.mark.parametrize(
    ("path", "value", "where", "problem"),
    [case[1:] for case in UNREADABLE + LIMITS],
    ids=[case[0] for case in UNREADABLE + LIMITS],
)
def test_unreadable_sheets_name_the_place(path, value, where, problem):
    with pytest.raises(SheetError) as caught:
        parse_sheet(mutate(path, value))
    assert caught.value.path == where
    assert problem in str(caught.value)
    assert str(caught.value).startswith(f"{where}: ")


@pytest.mark.parametrize(
    ("path", "value"),
    [case[1:3] for case in UNREADABLE + LIMITS],
    ids=[case[0] for case in UNREADABLE + LIMITS],
)
def test_the_validator_reads_with_the_same_reader(path, value):
    data = mutate(path, value)
    with pytest.raises(SheetError) as parsing:
        parse_sheet(data)
    with pytest.raises(SheetError) as validating:
        validate_data(data)
    assert str(validating.value) == str(parsing.value)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("deals", 1, "results", "Bob", "hand"), " ".join(["2C"] * MAX_HAND_CARDS)),
        (("deals", 1, "results", "Bob", "hand"), "2C" + " " * (MAX_TEXT - 2)),
        (("deals", 1, "results", "Dee", "other_reason"), "x" * MAX_TEXT),
        (("deals", 1, "results", "Bob", "notes"), {"a": nested(MAX_DEPTH - 6)}),
        (("deals", 1, "notes"), nested(MAX_DEPTH - 3)),
        (("notes",), nested(MAX_DEPTH - 1)),
    ],
    ids=["60 cards", "500 characters of hand", "500 characters", "result", "deal", "sheet"],
)
def test_up_to_the_limits_a_sheet_is_readable(path, value):
    assert parse_sheet(mutate(path, value)).players == ("Ann", "Bob", "Cy", "Dee")


def with_voids(count):
    data = base()
    data["deals"] = [{"deal": 1, "void": True}] * count + data["deals"][1:]
    return data


def test_at_most_nine_void_deals_in_a_set():
    assert sum(deal.void for deal in parse_sheet(with_voids(MAX_VOID_DEALS)).deals) == MAX_VOID_DEALS
    for read in (parse_sheet, validate_data):
        with pytest.raises(SheetError) as caught:
            read(with_voids(MAX_VOID_DEALS + 1))
        assert str(caught.value) == "deals[9]: more than 9 void deals in one set"


def test_void_deals_of_any_number_count_towards_the_limit():
    data = base()
    data["deals"] = [{"deal": number, "void": True} for number in (1, 1, 2, 3, 3, 3, 4, 5, 6, 7)]
    with pytest.raises(SheetError, match=r"^deals\[9\]: more than 9 void deals"):
        parse_sheet(data)


def test_a_hand_built_sheet_gets_the_void_limit_too():
    sheet = parse_sheet(with_voids(MAX_VOID_DEALS))
    sheet = type(sheet)(sheet.rules, sheet.players, (sheet.deals[0], *sheet.deals), sheet.first_dealer)
    with pytest.raises(SheetError, match=r"^deals\[9\]: more than 9 void deals"):
        validate(sheet)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("[" * 100_000 + "]" * 100_000, ""),
        ('{"deals": ' + "[" * (MAX_DEPTH) + "]" * (MAX_DEPTH) + "}", "deals" + below(MAX_DEPTH - 1)),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), below(MAX_DEPTH)),
    ],
    ids=["100,000 deep", "21 levels in an object", "21 levels"],
)
def test_decoding_refuses_json_nested_too_deep(text, where):
    with pytest.raises(SheetError) as caught:
        decode_json(text)
    assert (caught.value.path, caught.value.problem) == (where, TOO_DEEP)


def test_decoding_allows_twenty_levels_and_leaves_texts_to_the_reader():
    assert decode_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) == nested(MAX_DEPTH)
    assert decode_json(json.dumps({"reason": LONG})) == {"reason": LONG}


def test_an_already_decoded_value_100_000_deep_is_refused_without_a_recursion_error():
    data = base()
    data["deals"][1]["results"]["Bob"]["notes"] = nested(100_000)
    for read in (parse_sheet, validate_data):
        with pytest.raises(SheetError, match=TOO_DEEP):
            read(data)
    with pytest.raises(SheetError, match=TOO_DEEP):
        check_nesting(nested(100_000), texts=False)


# --- one deal on its own (the web entry's single deal) ---------------------------------------------

PLAYERS = ("Ann", "Bob", "Cy", "Dee")


@pytest.mark.parametrize("data", [base(), example()], ids=["base", "example"])
def test_a_deal_read_alone_is_the_deal_read_in_its_sheet(data):
    sheet = parse_sheet(data)
    for raw, deal in zip(data["deals"], sheet.deals, strict=True):
        assert read_one_deal(raw, players=sheet.players, rules=sheet.rules) == deal


@pytest.mark.parametrize(
    ("path", "value", "where", "problem"),
    [case[1:] for case in UNREADABLE + LIMITS if case[1][:2] == ("deals", 1)],
    ids=[case[0] for case in UNREADABLE + LIMITS if case[1][:2] == ("deals", 1)],
)
@pytest.mark.parametrize("prefix", ["", "deal", "deals[1]"])
def test_a_deal_read_alone_gets_the_same_checks_named_below_its_path(path, value, where, problem, prefix):
    data = mutate(path, value)
    rules = parse_sheet(base()).rules
    with pytest.raises(SheetError) as caught:
        read_one_deal(data["deals"][1], players=PLAYERS, rules=rules, path=prefix)
    relative = where.removeprefix("deals[1]").removeprefix(".")
    assert caught.value.path == (f"{prefix}.{relative}" if prefix and relative else prefix or relative)
    assert problem in caught.value.problem


def test_a_deal_read_alone_names_its_fields_from_the_top():
    rules = parse_sheet(base()).rules
    with pytest.raises(SheetError) as caught:
        read_one_deal({"deal": 1, "results": {"Bob": {"calls": "two"}}}, players=PLAYERS, rules=rules)
    assert str(caught.value) == 'results.Bob.calls: expected a whole number, got "two"'
    with pytest.raises(SheetError) as caught:
        read_one_deal([], players=PLAYERS, rules=rules)
    assert str(caught.value) == "expected an object, got []"


def test_the_spec_example_message():
    data = base()
    data["deals"] += [{"deal": 2, "void": True}, {"deal": 2, "results": {"Bob": {"calls": "two"}}}]
    with pytest.raises(SheetError) as caught:
        parse_sheet(data)
    assert str(caught.value) == 'deals[3].results.Bob.calls: expected a whole number, got "two"'


@pytest.mark.parametrize("value", [[], "sheet", 3, None])
def test_a_sheet_must_be_an_object(value):
    with pytest.raises(SheetError, match="expected an object"):
        parse_sheet(value)


def test_bad_json_is_unreadable():
    with pytest.raises(SheetError, match=r"not valid JSON: .*line 1 column"):
        load_sheet('{"format": ')


def test_load_sheet_reads_text():
    assert load_sheet(json.dumps(base())) == parse_sheet(base())


def test_whole_floats_count_as_whole_numbers():
    data = mutate(("deals", 1, "results", "Bob", "penalty"), 186.0)
    data["deals"][1]["deal"] = 1.0
    data["rules"]["call_limit"] = 3.0
    parsed = parse_sheet(data)
    assert parsed.deals[1].results["Bob"].penalty == 186
    assert type(parsed.deals[1].results["Bob"].penalty) is int
    assert parsed.rules.call_limit == 3


def test_nulls_stand_for_absent_optional_fields():
    data = mutate(
        ("deals", 1, "results", "Bob"), {"calls": None, "penalty": 3, "overcall": None, "total": None}
    )
    data["deals"][1]["doubled"] = None
    data["deals"][1]["dealer"] = None
    data["rules"] = None
    parsed = parse_sheet(data)
    assert parsed.deals[1].results["Bob"] == PlayerResult(calls=0, penalty=3)
    assert parsed.deals[1].doubled is False
    assert parsed.rules == ruleset_from("jamaican")


def test_the_ruleset_is_resolved_from_preset_and_overrides():
    parsed = parse_sheet(base())
    assert parsed.rules == ruleset_from("jamaican", {"bend_bonus": 20})
    assert parse_sheet(mutate(("ruleset",), ...)).rules.name == "jamaican"


def test_a_bad_card_is_readable_and_marked():
    parsed = parse_sheet(mutate(("deals", 1, "results", "Bob", "hand"), "AS 1H ZZ"))
    result = parsed.deals[1].results["Bob"]
    assert result.hand == "AS 1H ZZ"
    assert result.cards is None
    assert result.bad_cards == ("1H", "ZZ")


def test_hands_keep_their_text_and_their_cards():
    result = parse_sheet(mutate(("deals", 1, "results", "Bob", "hand"), "as, 10♥ *")).deals[1].results["Bob"]
    assert result.hand == "as, 10♥ *"
    assert result.cards == parse_cards("AS 10H JK")
    assert parse_sheet(mutate(("deals", 1, "results", "Bob", "hand"), "")).deals[1].results["Bob"].cards == ()


def test_unknown_fields_are_ignored():
    data = mutate(("deals", 1, "results", "Bob", "signature"), "B.")
    data["venue"] = "Kingston"
    assert parse_sheet(data) == parse_sheet(base())


def test_a_result_without_penalty_is_readable():
    assert (
        parse_sheet(mutate(("deals", 1, "results", "Bob", "penalty"), ...)).deals[1].results["Bob"].penalty
        is None
    )


@pytest.mark.parametrize("data", [base(), example()], ids=["base", "example"])
def test_round_trip_is_identity(data):
    parsed = parse_sheet(data)
    assert parse_sheet(sheet_to_dict(parsed)) == parsed
    assert parse_sheet(json.loads(json.dumps(sheet_to_dict(parsed)))) == parsed


def test_sheet_to_dict_writes_what_was_read():
    data = example()
    assert sheet_to_dict(parse_sheet(data)) == data


def test_sheet_to_dict_writes_only_overridden_rules():
    written = sheet_to_dict(parse_sheet(base()))
    assert written["rules"] == {"bend_bonus": 20}
    assert written["deals"][0] == {"deal": 1, "void": True}
    assert written["deals"][1]["results"]["Cy"] == {
        "calls": 4,
        "penalty": 90,
        "opened": False,
        "overcall": True,
    }
