"""deal_record / deal_delete: plain data in, the engine's findings out, stale edits refused."""

import pytest
from django.core.exceptions import ValidationError

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, DealResult


def _record(game_set, user, data, **kwargs):
    return services.deal_record(game_set=game_set, user=user, data=data, **kwargs)


def test_recording_the_example_sheet_deal_by_deal_gives_no_findings(game_set, director, example_sheet):
    for data in example_sheet["deals"]:
        outcome = _record(game_set, director, data)
    assert outcome.findings == []
    assert Deal.objects.filter(game_set=game_set).count() == 9
    game_set.refresh_from_db()
    assert (game_set.error_count, game_set.warning_count, game_set.version) == (0, 0, 10)
    assert AuditEntry.objects.filter(action="kalooki.deal.recorded").count() == 9


def test_the_penalty_is_computed_from_the_hand(game_set, director, entries):
    # RULES.md worked examples: A♠ A♥ JK 7♦ doubled = 146; 7♦ 7♣ 2♠ over-caller doubled = 82.
    data = {
        "deal": 1,
        "out": "Ann",
        "doubled": True,
        "results": {
            "Ann": {"calls": 0, "hand": ""},
            "Bob": {"calls": 0, "hand": "as ah jk 7d 2c 3c 4c 5c 6c"},
            "Cy": {"calls": 4, "hand": "7D 7C 2S", "overcall": True, "opened": True},
            "Dee": {"calls": 0, "penalty": 60},
        },
    }
    _record(game_set, director, data)
    penalties = dict(
        DealResult.objects.filter(deal__game_set=game_set).values_list("entry__player__name", "penalty")
    )
    assert penalties == {"Ann": 0, "Bob": 186, "Cy": 82, "Dee": 60}
    assert DealResult.objects.get(entry=entries["Bob"]).hand == "AS AH JK 7D 2C 3C 4C 5C 6C"


def test_a_draft_with_error_findings_is_saved(game_set, director):
    outcome = _record(
        game_set,
        director,
        {"deal": 1, "out": "Ann", "results": {"Ann": {"penalty": 0}, "Bob": {"penalty": 0}}},
    )
    codes = {finding.code for finding in outcome.errors}
    assert "NONWINNER_ZERO" in codes
    assert "MISSING_RESULT" in codes
    game_set.refresh_from_db()
    assert game_set.error_count == len(outcome.errors)
    assert Deal.objects.filter(game_set=game_set).exists()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"deal": 1, "out": "Ann", "results": {"Bob": {"calls": "two", "penalty": 5}}}, "results.Bob.calls"),
        ({"deal": 1, "out": "Ann", "results": {"Bob": {"calls": -1, "penalty": 5}}}, "results.Bob.calls"),
        ({"deal": 1, "out": "Ann", "results": {"Bob": {"penalty": -3}}}, "results.Bob.penalty"),
        ({"deal": 1, "out": "Ann", "results": {"Zed": {"penalty": 5}}}, "results.Zed"),
        ({"deal": 1, "out": "Zed"}, "out"),
        ({"deal": 10, "out": "Ann"}, "deal"),
        ({"deal": 1, "out": "Ann", "doubled": "perhaps"}, "doubled"),
        ({"deal": 1, "out": "Ann", "results": {"Bob": {"penalty": 10**9}}}, "results.Bob.penalty"),
        (
            {"deal": 1, "out": "Ann", "results": {"Bob": {"penalty": 3, "other_reason": "a\x00b"}}},
            "results.Bob.other_reason",
        ),
        ({"deal": 1, "out": "Ann", "results": {"Bob": {"calls": 1}}}, "results.Bob.penalty"),
        ({"deal": 1, "out": "Ann", "results": {"Bob": {"hand": "ZZ 4H"}}}, "results.Bob.hand"),
        (
            {"deal": 1, "out": "Ann", "results": {"Bob": {"penalty": 4, "colour": "red"}}},
            "results.Bob.colour",
        ),
    ],
)
def test_unreadable_deal_data_is_refused_naming_the_field(game_set, director, data, field):
    with pytest.raises(ValidationError) as caught:
        _record(game_set, director, data)
    assert field in caught.value.message_dict
    assert not Deal.objects.exists()


@pytest.mark.parametrize("data", [None, [], "deal 1"])
def test_deal_data_that_is_not_an_object_is_refused(game_set, director, data):
    with pytest.raises(ValidationError, match="must be an object"):
        _record(game_set, director, data)


def test_form_strings_are_accepted(game_set, director):
    data = {
        "deal": "1",
        "out": "Ann",
        "doubled": "false",
        "results": {
            "Ann": {"calls": "0", "penalty": "0"},
            "Bob": {"calls": "1", "penalty": "23", "total": ""},
        },
    }
    deal = _record(game_set, director, data).deal
    assert DealResult.objects.get(deal=deal, entry__player__name="Bob").penalty == 23


def test_a_correction_is_audited_with_before_and_after(game_set, director, example_sheet):
    deal = _record(game_set, director, example_sheet["deals"][0]).deal
    changed = dict(example_sheet["deals"][0])
    changed["results"] = {**changed["results"], "Ann": {"calls": 0, "penalty": 25, "total": 25}}
    outcome = _record(game_set, director, changed, deal=deal, expected_version=1, reason="misread")
    assert not outcome.created
    assert outcome.deal.version == 2
    entry = AuditEntry.objects.get(action="kalooki.deal.corrected")
    assert entry.before["results"]["Ann"]["penalty"] == 23
    assert entry.after["results"]["Ann"]["penalty"] == 25
    assert entry.reason == "misread"


def test_a_stale_correction_is_refused_naming_who_changed_what(
    game_set, director, other_director, example_sheet
):
    deal = _record(game_set, director, example_sheet["deals"][0]).deal
    first = dict(example_sheet["deals"][0], doubled=True)
    _record(game_set, other_director, first, deal=deal, expected_version=1)
    second = dict(example_sheet["deals"][0], out="Bob")
    with pytest.raises(services.StaleEdit) as caught:
        _record(game_set, director, second, deal=deal, expected_version=1)
    message = caught.value.messages[0]
    assert "Deal 1 was corrected by second at" in message
    assert "version 1" in message
    assert "Nothing was saved" in message
    deal.refresh_from_db()
    assert (deal.doubled, deal.out.player.name, deal.version) == (True, "Cy", 2)


def test_appending_a_deal_number_already_recorded_is_a_stale_edit(
    game_set, director, other_director, example_sheet
):
    _record(game_set, other_director, example_sheet["deals"][0])
    with pytest.raises(services.StaleEdit, match="second"):
        _record(game_set, director, example_sheet["deals"][0])
    assert Deal.objects.filter(game_set=game_set).count() == 1


def test_a_void_deal_is_replayed_with_the_same_number(game_set, director, example_sheet):
    _record(game_set, director, {"void": True})
    replay = dict(example_sheet["deals"][0])
    replay.pop("deal")
    deal = _record(game_set, director, replay).deal
    assert (deal.number, deal.sequence) == (1, 2)
    assert [d.void for d in Deal.objects.filter(game_set=game_set)] == [True, False]


def test_deal_delete_closes_up_playing_order_and_later_deals_keep_their_numbers(
    game_set, director, example_sheet
):
    deals = [_record(game_set, director, data).deal for data in example_sheet["deals"][:3]]
    deletion = services.deal_delete(deal=deals[0], user=director, reason="entered at the wrong table")
    assert list(Deal.objects.filter(game_set=game_set).values_list("sequence", "number")) == [(1, 2), (2, 3)]
    assert (deletion.number, deletion.later, deletion.next_number) == (1, (2, 3), 1)
    assert AuditEntry.objects.get(action="kalooki.deal.deleted").before["deal"] == 1


def test_a_verified_set_is_locked(game_set, director, example_sheet):
    for data in example_sheet["deals"]:
        deal = _record(game_set, director, data).deal
    services.set_verify(game_set=game_set, user=director)
    with pytest.raises(services.SetLocked):
        _record(game_set, director, example_sheet["deals"][8], deal=deal)
    with pytest.raises(services.SetLocked):
        services.deal_delete(deal=deal, user=director, reason="wrong table")


def test_every_change_moves_the_results_stamp(game_set, director, example_sheet, event):
    before = event.results_stamp
    _record(game_set, director, example_sheet["deals"][0])
    event.refresh_from_db()
    assert event.results_stamp > before


def test_a_sets_deals_read_with_its_seats_carry_the_same_entries_as_read_alone(
    played, director, make_entries
):
    """`deals_of(game_set, seats)` takes each result's entry from the seats; a result of an entry no
    longer seated at the table (its seat given to another) is read from the database all the same."""
    from scoring.models import Seat
    from scoring.sheets import deals_of, seats_of

    def entries(deals):
        return [
            (
                deal.number,
                deal.out.player.name if deal.out else None,
                [r.entry.player.name for r in deal.results.all()],
            )
            for deal in deals
        ]

    assert entries(deals_of(played, seats_of(played))) == entries(deals_of(played))
    newcomer = make_entries(played.table.round.event, ["Zed"])["Zed"]
    Seat.objects.filter(table=played.table, position=4).update(entry=newcomer)
    seats = seats_of(played)
    assert "Zed" in [seat.entry.player.name for seat in seats]
    assert entries(deals_of(played, seats)) == entries(deals_of(played))
