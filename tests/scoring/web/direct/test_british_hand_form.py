"""The British hand form. "Went out" offers only the players still in the game at that hand (BV6): a
player who went over the limit without buying in is not offered for the hands after; a correction of an
earlier hand offers those who were in at that hand, a void one too. Each line starts from the player's
total before the hand (what the page's script adds the score to for a buy-in's reset value, B7), and
only a correction asks for a reason."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Deal
from tests.scoring.test_british_player_page import FIVE, HANDS, play

EVERYONE = ["", *FIVE]


@pytest.fixture
def game(make_event, make_table, director):
    event = make_event(name="Club night", slug="club-night", ruleset_preset="british", format="placement")
    return make_table(services.round_create(event=event, user=director), FIVE)


def url(game_set, sequence=None):
    table = game_set.table
    kwargs = {"slug": table.round.event.slug, "number": table.round.number, "table": table.number}
    if sequence is None:
        return reverse("scoring:direct_table", kwargs=kwargs)
    return reverse("scoring:direct_deal", kwargs={**kwargs, "sequence": sequence})


def offered(response) -> list[str]:
    assert response.status_code == 200
    return [value for value, _ in response.context["entry"].hand.fields["out"].choices]


def test_a_player_out_of_the_game_is_not_offered_for_the_next_hand(as_director, game, director):
    assert offered(as_director.get(url(game))) == EVERYONE
    play(game, director, HANDS[:2])  # Eve over the limit in hand 2, no buy-in
    page = as_director.get(url(game))
    assert offered(page) == ["", "Alice", "Bert", "Cath", "Dave"]
    assert '<option value="Eve"' not in page.content.decode().split('name="out"')[1].split("</select>")[0]
    play(game, director, HANDS[2:4])  # Bert out in hand 4
    assert offered(as_director.get(url(game))) == ["", "Alice", "Cath", "Dave"]


def test_a_correction_offers_those_who_were_in_at_that_hand(as_director, game, director):
    play(game, director, HANDS[:4])
    assert offered(as_director.get(url(game, 1))) == EVERYONE
    assert offered(as_director.get(url(game, 2))) == EVERYONE  # Eve played hand 2 (and went over in it)
    assert offered(as_director.get(url(game, 3))) == ["", "Alice", "Bert", "Cath", "Dave"]


def test_a_void_hand_s_correction_offers_those_in_when_it_was_dealt(as_director, game, director):
    play(game, director, HANDS[:2])
    services.deal_record(game_set=game, user=director, data={"deal": 3, "void": True})
    play(game, director, HANDS[2:4])  # Bert goes out in hand 4, after the void hand
    void = Deal.objects.get(game_set=game, void=True)
    assert offered(as_director.get(url(game, void.sequence))) == ["", "Alice", "Bert", "Cath", "Dave"]


def test_a_player_out_of_the_game_is_refused_as_the_hand_s_winner(as_director, game, director):
    play(game, director, HANDS[:2])
    game.refresh_from_db()
    data = {"deal": "3", "out": "Eve", "dealer": "", "set_version": str(game.version)}
    for seat in range(1, 5):  # Alice, Bert, Cath, Dave: the four still in
        data |= {f"s{seat}-penalty": "10", f"s{seat}-hand": "", f"s{seat}-total": "", f"s{seat}-opened": ""}
        data[f"s{seat}-reset_to"] = ""
    response = as_director.post(url(game), data)
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert Deal.objects.filter(game_set=game).count() == 2


def test_only_a_correction_asks_for_a_reason(as_director, game, director):
    play(game, director, HANDS[:1])
    new = as_director.get(url(game)).content.decode()
    assert "Reason for the correction" not in new
    # The columns name the fields under them: the paper's total, then opened.
    head = new.split('<table class="grid">')[1].split("</thead>")[0]
    assert head.index("Total (paper)") < head.index("Opened") < head.index("Buys in")
    fields = new.split('<table class="grid">')[1].split("</tbody>")[0]
    assert (
        fields.index('name="s1-total"') < fields.index('name="s1-opened"') < fields.index('name="s1-buy_in"')
    )
    assert "Reason for the correction" in as_director.get(url(game, 1)).content.decode()


def test_a_correction_s_lines_start_from_the_totals_before_that_hand(as_director, game, director):
    play(game, director, HANDS[:4])
    page = as_director.get(url(game, 3))
    lines = {name: (before, left) for name, _, before, left in page.context["lines"]}
    # Before hand 3: Alice 118, Bert reset to 118 with one buy-in left, Cath 20, Dave 45 (Eve was out).
    assert lines == {"Alice": (118, 2), "Bert": (118, 1), "Cath": (20, 2), "Dave": (45, 2)}
    html = page.content.decode()
    assert 'data-player="Bert" data-prefix="s2" data-before="118"' in html
    assert 'data-limit="150"' in html and "js/british-hand.js" in html
    now = {name: (before, left) for name, _, before, left in as_director.get(url(game)).context["lines"]}
    assert now == {"Alice": (148, 2), "Cath": (148, 1), "Dave": (95, 2)}
