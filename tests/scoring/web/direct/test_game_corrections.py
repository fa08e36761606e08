"""Correcting a game of hands through the director's pages: what the app computes (a buy-in's reset value,
B7; the running totals) follows the correction of an earlier hand and is never stored as if typed; a
typed reset that differs is a finding (BUY_IN_RESET); a buy-in the rules give no reset for is refused,
and one made invalid by an earlier correction is not built on silently; a player wrongly put out is
put back by correcting the hand, audited with its reason; the hands after one with an error finding say
they depend on it (British and North American games alike)."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, DealResult, GameSet
from scoring.selectors.british_games import british_game_page
from scoring.sheets import sheet_for_set
from tests.scoring.game_seam_support import THREE, table_url

pytestmark = pytest.mark.django_db

# british-swedish: limit 100, two buy-ins. After hand 2 Ann has 70; in hand 3 Cy goes over (60 + 20 + 30)
# and buys in at the highest total still at or under the limit: Ann's 70.
HANDS = (
    {"deal": 1, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 40}, "Cy": {"penalty": 60}}},
    {"deal": 2, "out": "Bob", "results": {"Ann": {"penalty": 70}, "Bob": {}, "Cy": {"penalty": 20}}},
    {
        "deal": 3,
        "out": "Ann",
        "results": {"Ann": {}, "Bob": {"penalty": 10}, "Cy": {"penalty": 30, "buy_in": True}},
    },
)


@pytest.fixture
def british_game(make_event, director, make_table):
    event = make_event(
        name="Fix night", slug="fix-night", ruleset_preset="british-swedish", format="placement"
    )
    return make_table(services.round_create(event=event, user=director), THREE)


def record(game_set: GameSet, hands, user=None) -> GameSet:
    for hand in hands:
        services.deal_record(game_set=game_set, user=user, data=hand)
    game_set.refresh_from_db()
    return game_set


def url(game_set: GameSet, name: str = "direct_table", **kwargs: Any) -> str:
    return table_url(game_set, name, **kwargs)


def posted_form(client, game_set: GameSet, sequence: int) -> dict[str, str]:
    """What the correction form of the hand played `sequence`-th posts as the page draws it (its inputs'
    values, ticked boxes and chosen options), read from the page itself."""
    import re

    page = client.get(url(game_set, "direct_deal", sequence=sequence)).content.decode()
    form = page[
        page.index('class="british-hand"') : page.index("</form>", page.index('class="british-hand"'))
    ]
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or 'type="submit"' in tag:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        if 'type="checkbox"' in tag:
            if "checked" in tag:
                data[name.group(1)] = "on"
            continue
        data[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        data[name] = chosen.group(1) if chosen else ""
    return data


def seat(name: str) -> str:
    return f"s{THREE.index(name) + 1}"


def codes(game_set: GameSet) -> list[tuple[str, int | None, str | None]]:
    return [(finding.code, finding.deal, finding.player) for finding in british_game_page(game_set).findings]


def cy_in_hand_3(game_set: GameSet):
    page = british_game_page(game_set)
    return next(cell for cell in page.rows[2].cells if cell.player == "Cy")


def test_a_correction_of_hand_2_changes_the_reset_of_hand_3_which_is_not_stored(as_director, british_game):
    game = record(british_game, HANDS)
    cell = cy_in_hand_3(game)
    assert (cell.before_reset, cell.reset_to, cell.total, cell.reset_written) == (110, 70, 70, None)
    line = DealResult.objects.get(deal__number=3, entry__player__name="Cy")
    assert (line.buy_in, line.reset_to, line.total_written) == (True, None, None)
    # Hand 3's form does not offer the computed reset as if the paper had it.
    assert posted_form(as_director, game, 3)[f"{seat('Cy')}-reset_to"] == ""
    # The paper had Ann's hand 2 as 85, not 70: corrected through the page with a reason.
    post = posted_form(as_director, game, 2)
    post[f"{seat('Ann')}-penalty"] = "85"
    post["reason"] = "Ann's score misread"
    response = as_director.post(url(game, "direct_deal", sequence=2), post, follow=True)
    assert response.redirect_chain, response.content.decode()[:2000]
    # The director is told, and the log keeps, what the app worked out again after the hand.
    assert "Worked out again: hand 3, Cy's reset: 70 → 85." in html.unescape(response.content.decode())
    cell = cy_in_hand_3(game)
    assert (cell.before_reset, cell.reset_to, cell.total) == (110, 85, 85)
    assert not [code for code in codes(game) if code[0] != "GAME_UNFINISHED"]
    page = as_director.get(url(game)).content.decode()
    assert "bought in at 85" in page and "bought in at 70" not in page
    audit = AuditEntry.objects.get(action="kalooki.hand.corrected")
    assert audit.reason == "Ann's score misread"
    assert audit.after["followed"] == ["hand 3, Cy's reset: 70 → 85"]
    assert (audit.before["results"]["Ann"]["penalty"], audit.after["results"]["Ann"]["penalty"]) == (70, 85)
    # Unticking the buy-in needs nothing cleared first: Cy is then out of the game in hand 3.
    post = posted_form(as_director, game, 3)
    del post[f"{seat('Cy')}-buy_in"]
    post["reason"] = "Cy did not buy in"
    response = as_director.post(url(game, "direct_deal", sequence=3), post)
    assert response.status_code == 302, response.content.decode()[:2000]
    page = british_game_page(game)
    assert page.state.still_in == ("Ann", "Bob") and cy_in_hand_3(game).went_out
    # The audit keeps the hand whole: the reset it had, named as computed.
    before = AuditEntry.objects.filter(action="kalooki.hand.corrected").latest("pk").before
    assert before["results"]["Cy"] == {
        "penalty": 30,
        "buy_in": True,
        "reset_to": 85,
        "computed": ["reset_to"],
    }


def test_a_typed_reset_is_kept_as_typed_and_is_a_finding_once_it_differs(as_director, british_game):
    typed = [
        *HANDS[:2],
        {
            **HANDS[2],
            "results": {**HANDS[2]["results"], "Cy": {"penalty": 30, "buy_in": True, "reset_to": 70}},
        },
    ]
    game = record(british_game, typed)
    assert posted_form(as_director, game, 3)[f"{seat('Cy')}-reset_to"] == "70"
    post = posted_form(as_director, game, 2)
    post[f"{seat('Ann')}-penalty"] = "85"
    post["reason"] = "Ann's score misread"
    assert as_director.post(url(game, "direct_deal", sequence=2), post).status_code == 302
    cell = cy_in_hand_3(game)
    assert (cell.reset_to, cell.reset_written) == (70, 70)
    (finding,) = [item for item in british_game_page(game).findings if item.code == "BUY_IN_RESET"]
    assert (finding.deal, finding.player, finding.expected, finding.found) == (3, "Cy", 85, 70)
    assert "bought in at 70 (typed)" in as_director.get(url(game)).content.decode()


def test_a_buy_in_the_rules_give_no_reset_for_is_refused_beside_the_line(as_director, british_game):
    game = record(british_game, HANDS[:2])
    # Bob is at 40: with 10 more he is not over the limit, so there is nothing to buy back into.
    post = {
        "deal": "3",
        "out": "Ann",
        "dealer": "",
        "set_version": str(game.version),
        "s1-penalty": "",
        "s2-penalty": "10",
        "s2-buy_in": "on",
        "s3-penalty": "30",
        "s3-buy_in": "on",
    }
    response = as_director.post(url(game), post)
    assert response.status_code == 400
    assert "Bob is not over the limit (50 ≤ 100)" in response.content.decode()
    assert Deal.objects.filter(game_set=game).count() == 2
    # A third buy-in: Cy has used both, and the service refuses to invent a reset for it.
    record(game, [HANDS[2]])
    record(
        game,
        [
            {
                "deal": 4,
                "out": "Bob",
                "results": {"Ann": {"penalty": 20}, "Bob": {}, "Cy": {"penalty": 40, "buy_in": True}},
            }
        ],
    )
    with pytest.raises(ValidationError) as refused:
        services.deal_record(
            game_set=game,
            user=None,
            data={
                "deal": 5,
                "out": "Bob",
                "results": {"Ann": {"penalty": 5}, "Bob": {}, "Cy": {"penalty": 50, "buy_in": True}},
            },
        )
    assert "Cy has no buy-in left (2 at most, B7)" in str(refused.value.message_dict["results.Cy.buy_in"])


def test_a_buy_in_an_earlier_correction_makes_invalid_is_not_built_on_and_what_follows_says_so(
    as_director, british_game
):
    game = record(
        british_game,
        [
            *HANDS,
            {"deal": 4, "out": "Cy", "results": {"Ann": {"penalty": 5}, "Bob": {"penalty": 7}, "Cy": {}}},
        ],
    )
    # Cy's hand 1 was 30, not 60: at 80 in hand 3 Cy was never over the limit.
    post = posted_form(as_director, game, 1)
    post[f"{seat('Cy')}-penalty"] = "30"
    post["reason"] = "Cy's score misread"
    response = as_director.post(url(game, "direct_deal", sequence=1), post)
    assert response.status_code == 302
    assert ("BUY_IN_NOT_OVER", 3, "Cy") in codes(game)
    cell = cy_in_hand_3(game)
    # No reset is invented: Cy's total stays the sum of the scores, and hand 4 builds on that.
    assert (cell.reset_to, cell.total) == (80, 80)
    page = british_game_page(game)
    assert page.depends_on == 3 and [row.depends_on for row in page.rows] == [None, None, None, 3]
    assert page.seats[2].total == 80
    text = as_director.get(url(game)).content.decode()
    assert "Hand 3 has an error finding: the hands after it build on it as saved" in text
    assert "depends on hand 3" in text


def test_a_player_wrongly_put_out_is_put_back_by_correcting_the_hand(as_director, british_game):
    # Hand 2's 50 for Cy was a misreading of 20: at 110 Cy went out, and hand 3 was played without Cy.
    game = record(
        british_game,
        [
            HANDS[0],
            {"deal": 2, "out": "Bob", "results": {"Ann": {"penalty": 70}, "Bob": {}, "Cy": {"penalty": 50}}},
            {"deal": 3, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 10}}},
        ],
    )
    assert british_game_page(game).state.still_in == ("Ann", "Bob")
    post = posted_form(as_director, game, 2)
    post[f"{seat('Cy')}-penalty"] = "20"
    post["reason"] = "Cy scored 20, not 50: Cy is still in"
    assert as_director.post(url(game, "direct_deal", sequence=2), post).status_code == 302
    page = british_game_page(game)
    assert page.state.still_in == THREE
    assert ("MISSING_RESULT", 3, "Cy") in codes(game)
    # Hand 3's correction form now has a line for Cy, and Cy may be chosen as having gone out.
    post = posted_form(as_director, game, 3)
    assert f"{seat('Cy')}-penalty" in post
    assert 'value="Cy"' in as_director.get(url(game, "direct_deal", sequence=3)).content.decode()
    post[f"{seat('Cy')}-penalty"] = "15"
    post["reason"] = "Cy's line from the paper"
    assert as_director.post(url(game, "direct_deal", sequence=3), post).status_code == 302
    assert [code for code in codes(game) if code[0] != "GAME_UNFINISHED"] == []
    assert british_game_page(game).seats[2].total == 95
    # The next hand's form has Cy's line again; both corrections are in the log with their reasons.
    assert f'name="{seat("Cy")}-penalty"' in as_director.get(url(game)).content.decode()
    reasons = list(
        AuditEntry.objects.filter(action="kalooki.hand.corrected").values_list("reason", flat=True)
    )
    assert sorted(reasons) == ["Cy scored 20, not 50: Cy is still in", "Cy's line from the paper"]


def test_a_north_american_hand_after_one_with_an_error_says_it_depends_on_it(
    make_event, make_table, director, as_director
):
    event = make_event(
        name="NA fix",
        slug="na-fix",
        ruleset_preset="north-american",
        rules_overrides={"hands": 3},
        format="placement",
    )
    game = make_table(services.round_create(event=event, user=director), THREE)
    record(
        game,
        [
            # The paper says Ann collected 60 where the others' hand values make 70 (NV1).
            {
                "deal": 1,
                "out": "Ann",
                "results": {"Ann": {"collected": 60}, "Bob": {"penalty": 40}, "Cy": {"penalty": 30}},
            },
            {"deal": 2, "out": "Bob", "results": {"Ann": {"penalty": 20}, "Bob": {}, "Cy": {"penalty": 25}}},
        ],
    )
    page = british_game_page(game)
    assert ("COLLECTED_MISMATCH", 1, "Ann") in codes(game)
    assert [row.depends_on for row in page.rows] == [None, 1]
    text = as_director.get(url(game)).content.decode()
    assert (
        "Hand 1 has an error finding: the hands after it build on it as saved (their running totals)" in text
    )
    # Corrected (the typed take cleared: computed again), nothing depends on an error any more.
    post = posted_form(as_director, game, 1)
    assert post[f"{seat('Ann')}-collected"] == "60"
    post[f"{seat('Ann')}-collected"] = ""
    post["reason"] = "Ann collected 70"
    assert as_director.post(url(game, "direct_deal", sequence=1), post).status_code == 302
    page = british_game_page(game)
    assert page.depends_on is None and page.seats[0].total == 70


def test_deleting_a_hand_says_and_logs_what_the_app_worked_out_again(as_director, british_game):
    game = record(british_game, HANDS)
    hand = Deal.objects.get(game_set=game, number=2)
    response = as_director.post(
        url(game, "direct_deal_delete", sequence=hand.sequence),
        {"version": str(hand.version), "reason": "Hand 2 belongs to another table", "confirm": "on"},
        follow=True,
    )
    # Without hand 2 Cy is at 90 in hand 3, not over the limit: no reset is invented, and it is said.
    assert "Worked out again: hand 3, Cy's reset: 70 → 90." in html.unescape(response.content.decode())
    assert ("BUY_IN_NOT_OVER", 3, "Cy") in codes(game)
    audit = AuditEntry.objects.get(action="kalooki.hand.deleted")
    assert audit.after == {"followed": ["hand 3, Cy's reset: 70 → 90"]}


def test_a_computed_reset_stays_computed_through_the_apps_own_export_and_import(british_game):
    game = record(british_game, HANDS)
    sheet = sheet_for_set(game)
    assert sheet["deals"][2]["results"]["Cy"] == {
        "penalty": 30,
        "buy_in": True,
        "reset_to": 70,
        "computed": ["reset_to"],
    }
    services.sheet_import(game_set=game, user=None, data=sheet, reason="The table's sheet read back")
    line = DealResult.objects.get(deal__game_set=game, deal__number=3, entry__player__name="Cy")
    assert (line.buy_in, line.reset_to) == (True, None)
    # A sheet from elsewhere that writes the same value has it typed: kept as the paper says.
    sheet["deals"][2]["results"]["Cy"].pop("computed")
    services.sheet_import(game_set=game, user=None, data=sheet, reason="The paper itself")
    line = DealResult.objects.get(deal__game_set=game, deal__number=3, entry__player__name="Cy")
    assert line.reset_to == 70


def test_a_written_total_that_differs_is_re_added_from_the_scores_on_a_game_of_hands(
    as_director, british_game
):
    # Bob's written total after hand 2 was added wrong on the paper (45, his scores add up to 40).
    written = (
        {
            **HANDS[0],
            "results": {"Ann": {"total": 0}, "Bob": {"penalty": 40, "total": 40}, "Cy": {"penalty": 60}},
        },
        {**HANDS[1], "results": {**HANDS[1]["results"], "Bob": {"total": 45}}},
    )
    game_set = record(british_game, written)
    page = html.unescape(as_director.get(url(game_set)).content.decode())
    assert "Re-add the written totals" in page
    assert "Hand 2, Bob: written 45, the scores add up to 40" in page
    response = as_director.post(
        url(game_set, "direct_totals_readd"), {"version": game_set.version, "confirm": "on"}, follow=True
    )
    assert "1 written total re-added from the scores (hand 2; recorded in the history)." in html.unescape(
        response.content.decode()
    )
    assert (
        DealResult.objects.get(
            deal__game_set=game_set, deal__number=2, entry__player__name="Bob"
        ).total_written
        == 40
    )
    entry = AuditEntry.objects.get(action="kalooki.set.totals_readded")
    assert entry.before["2"] == {"Bob": 45} and entry.after["2"] == {"Bob": 40}
    assert "Re-add the written totals" not in as_director.get(url(game_set)).content.decode()
