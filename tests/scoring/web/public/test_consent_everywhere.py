"""A player who does not consent to public lists (issue 26, item 5) is never named on a page, export or
PDF an anonymous reader can open: "Player <entry number>" on an event's pages (tables, findings,
rulings and history included), "Player <place>" on the lists across events (ratings, published lists,
seasons); the event's directors still see the name on the event's pages.

One world for the module: a Jamaican event (round 1 verified and final, round 2 with a deal whose
findings name the player), a British event (a verified game), a North American event (a game running), a
season of the first two, the ratings computed and published. Every public URL of the URL walk
(tests/scoring/test_every_url_every_role.py) is opened once as an anonymous reader, and a test fails when
the walk gains a public URL this module does not open."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse

from tests.conftest import FOUR, kept_for_the_module, load_json, played_deals, renamed_sheet, seated_table

HIDDEN = "Zebedee Quillfeather"
SURNAME = "Quillfeather"
JAMAICAN = (HIDDEN, *FOUR[1:])
BRITISH = (HIDDEN, "Eve", "Fay")
NORTH_AMERICAN = (HIDDEN, "Gus", "Hal")
# Public in the walk, but opened with a table's own token, by the players seated at it: not a list.
TABLE_TOKEN_PAGES = {"self_entry_short", "self_entry_phone"}


@pytest.fixture(scope="module")
def world_once(django_db_setup, django_db_blocker):
    from datetime import date

    from adjudication import services as adjudication
    from adjudication.engine.north_american_simulator import simulate_north_american_sheet
    from scoring import services
    from scoring.games import JAMAICAN as JAMAICAN_GAME
    from scoring.models import Deal, Entry
    from scoring.services.door import player_details_set
    from scoring.services.published import rating_list_publish
    from tests.conftest import new_director
    from tests.scoring.game_seam_support import record_hands, renamed_hands, verify_game

    with kept_for_the_module(django_db_blocker):
        director = new_director()
        services.grant_organiser(director)

        def event(**fields):
            fields.setdefault("date_start", "2026-12-05")
            return services.event_create(user=director, directors=[director], correction_minutes=0, **fields)

        jamaican = event(name="Consent Open", slug="consent-open")
        first = seated_table(services.round_create(event=jamaican, user=director), JAMAICAN, director)
        services.sheet_import(
            game_set=first, user=director, data=renamed_sheet(load_json("example-sheet.json"), JAMAICAN)
        )
        hidden = Entry.objects.get(event=jamaican, player__name=HIDDEN)
        ruling = adjudication.ruling_issue(
            deal=Deal.objects.get(game_set=first, sequence=1),
            entry=hidden,
            user=director,
            kind="other",
            points=5,
            reason=f"{HIDDEN} showed a card",
        )
        first.refresh_from_db()
        services.set_verify(game_set=first, user=director, expected_version=first.version)
        # Round 2: deal 1 written as the paper has it, the winner with points: findings name him.
        second = seated_table(services.round_create(event=jamaican, user=director), JAMAICAN, director)
        played_deals(second, [(HIDDEN, False, {HIDDEN: 15, "Bob": 20, "Cy": 30, "Dee": 40})], verified=False)

        british = event(
            name="Consent Club", slug="consent-club", ruleset_preset="british-swedish", format="placement"
        )
        game = seated_table(services.round_create(event=british, user=director), BRITISH, director)
        record_hands(game, director, renamed_hands(BRITISH))
        verify_game(game, director)

        north_american = event(
            name="Consent Kaluki",
            slug="consent-kaluki",
            date_start="2026-12-04",  # before the others: his rating pages' default game stays theirs
            ruleset_preset="north-american",
            rules_overrides={"hands": 4},
            format="placement",
        )
        kaluki = seated_table(
            services.round_create(event=north_american, user=director), NORTH_AMERICAN, director
        )
        rules = north_american.ruleset()
        hands = simulate_north_american_sheet(5, NORTH_AMERICAN, rules=rules, hands=2, dealers=False)
        record_hands(kaluki, director, hands["deals"])

        for entry in Entry.objects.filter(player__name=HIDDEN):
            player_details_set(entry=entry, user=director, consent_public=False)
        season = services.season_create(user=director, name="Consent Season", events=[jamaican, british])
        services.ratings_recompute()
        published = rating_list_publish(game=JAMAICAN_GAME, day=date.today(), user=director)
        yield {
            "director": director.pk,
            "jamaican": jamaican.slug,
            "british": british.slug,
            "north_american": north_american.slug,
            "north_american_hidden": Entry.objects.get(event=north_american, player__name=HIDDEN).pk,
            "hidden": hidden.pk,
            "british_hidden": Entry.objects.get(event=british, player__name=HIDDEN).pk,
            "british_other": Entry.objects.get(event=british, player__name="Eve").pk,
            "player": hidden.player_id,
            "ruling": ruling.pk,
            "season": season.slug,
            "published": published.slug,
        }


@pytest.fixture
def world(world_once, db):
    return world_once


def event_urls(slug: str, entry_ids, rounds) -> list[str]:
    def url(name, **kwargs):
        return reverse(f"scoring:{name}", kwargs={"slug": slug, **kwargs})

    urls = [url("event"), url("standings"), url("projector"), url("prizes"), url("pdf_standings")]
    urls += [url("pdf_prizes"), f"{url('standings')}?provisional=1", f"{url('projector')}?provisional=1"]
    for number in rounds:
        table = {"number": number, "table": 1}
        urls += [url("round", number=number), url("seating", number=number), url("table", **table)]
        urls += [url("pdf_seating", number=number)]
        urls.append(reverse("adjudication:table_history", kwargs={"slug": slug, **table}))
    for entry_id in entry_ids:
        urls += [url("player", entry_id=entry_id), url("player_seat", entry_id=entry_id)]
    return urls


def public_urls(world) -> list[str]:
    jamaican, british = world["jamaican"], world["british"]
    urls = [reverse("scoring:home")]
    urls += event_urls(jamaican, [world["hidden"]], (1, 2))
    urls += event_urls(british, [world["british_hidden"], world["british_other"]], (1,))
    urls += event_urls(world["north_american"], [world["north_american_hidden"]], (1,))
    urls.append(reverse("adjudication:ruling", kwargs={"slug": jamaican, "ruling_id": world["ruling"]}))
    player = {"player_id": world["player"]}
    urls += [reverse("scoring:rating_player", kwargs=player), reverse("scoring:rating_chart", kwargs=player)]
    urls += [f"{reverse('scoring:rating_player', kwargs=player)}?game=british"]
    urls += [f"{reverse('scoring:rating_chart', kwargs=player)}?game=british"]
    for listed in ("scoring:ratings", "scoring:season_ratings"):
        kwargs = {"slug": world["season"]} if listed == "scoring:season_ratings" else {}
        for game in ("jamaican", "british", "north-american"):
            urls += [f"{reverse(listed, kwargs=kwargs)}?game={game}"]
    urls += [reverse("scoring:seasons"), reverse("scoring:season", kwargs={"slug": world["season"]})]
    urls += [reverse("scoring:season_pdf", kwargs={"slug": world["season"]})]
    urls += [reverse("scoring:season_series", kwargs={"slug": world["season"]})]
    urls += [reverse("scoring:published_lists")]
    for query in ("", "?list=all"):
        urls += [reverse("scoring:published_list", kwargs={"slug": world["published"]}) + query]
        urls += [reverse("scoring:published_pdf", kwargs={"slug": world["published"]}) + query]
    return urls


EXPORTED = ("standings", "round", "table", "ratings", "season", "published_list")


def with_exports(urls: list[str]) -> list[str]:
    """Every page that exports, with its CSV and XLSX too."""
    found = list(urls)
    for address in urls:
        path = address.split("?")[0]
        exports = path.endswith(("/standings/", "/ratings/", "/t/1/")) or re.search(r"/r/\d+/$", path)
        exports = exports or re.search(r"/seasons/[^/]+/$|/ratings/lists/[^/]+/$", path)
        if exports:
            joiner = "&" if "?" in address else "?"
            found += [f"{address}{joiner}_export={kind}" for kind in ("csv", "xlsx")]
    return found


def readable(response) -> str:
    """The response as text: a PDF's text, a spreadsheet's cells, an SVG or a page as they are."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    kind = response.get("Content-Type", "")
    if kind.startswith("application/pdf"):
        from pypdf import PdfReader

        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(content)).pages)
    if "spreadsheetml" in kind:
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(content), read_only=True)
        return "\n".join(
            " ".join(str(cell) for cell in row if cell is not None)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
        )
    return content.decode()


def test_no_anonymous_page_export_or_pdf_names_the_player(client, world):
    opened = {}
    for address in with_exports(public_urls(world)):
        response = client.get(address)
        assert response.status_code == 200, address
        opened[address] = readable(response)
    named = [address for address, text in opened.items() if SURNAME in text]
    assert not named, f"{HIDDEN} is named at {named}"
    # The others are named: the texts were read (a PDF's, a spreadsheet's), not empty.
    assert sum("Fay" in text or "Bob" in text or "Gus" in text for text in opened.values()) > len(opened) // 2
    exported = [address for address in opened if "_export=" in address]
    assert len(exported) >= 2 * len(EXPORTED)


def test_every_public_url_of_the_walk_is_opened(world):
    from urllib.parse import urlsplit

    from django.urls import resolve

    from tests.scoring.test_every_url_every_role import ACCESS

    public = {name for name, (access, _) in ACCESS.items() if access == "public"} - TABLE_TOKEN_PAGES
    opened = {
        resolve(urlsplit(address).path).view_name.removeprefix("scoring:") for address in public_urls(world)
    }
    assert public - opened == set(), "public URLs the consent test does not open"


def test_the_label_takes_his_place_in_findings_rulings_and_history(client, world):
    slug = world["jamaican"]
    second = client.get(reverse("scoring:table", kwargs={"slug": slug, "number": 2, "table": 1}))
    first = client.get(reverse("scoring:table", kwargs={"slug": slug, "number": 1, "table": 1}))
    history = client.get(
        reverse("adjudication:table_history", kwargs={"slug": slug, "number": 1, "table": 1})
    )
    text = second.content.decode()
    # His entry was made first: "Player 1". The finding of round 2's deal 1 names him so.
    assert re.search(r"Deal 1, Player 1: ", text), "the findings name the label"
    assert "Player 1 showed a card" in first.content.decode()
    assert "Player 1" in history.content.decode()
    # A North American game of hands names him as a British one does (his entry is the event's first).
    kaluki = client.get(
        reverse("scoring:table", kwargs={"slug": world["north_american"], "number": 1, "table": 1})
    )
    assert "Player 1" in kaluki.content.decode() and "Gus" in kaluki.content.decode()


def test_the_lists_across_events_name_him_by_his_place(client, world):
    from scoring.models import PlayerRating

    place = PlayerRating.objects.get(rating_list__scope="all", player_id=world["player"]).position
    listed = client.get(f"{reverse('scoring:ratings')}?game=jamaican&_export=csv").content.decode()
    assert f"Player {place}," in listed
    page = client.get(
        f"{reverse('scoring:rating_player', kwargs={'player_id': world['player']})}?game=jamaican"
    )
    assert f"<h1>Player {place}: " in page.content.decode()


def test_the_events_directors_see_the_name(client, world):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(pk=world["director"]))
    slug = world["jamaican"]
    for address in (
        reverse("scoring:table", kwargs={"slug": slug, "number": 2, "table": 1}),
        reverse("scoring:table", kwargs={"slug": world["british"], "number": 1, "table": 1}),
        reverse("scoring:player", kwargs={"slug": slug, "entry_id": world["hidden"]}),
        reverse("adjudication:ruling", kwargs={"slug": slug, "ruling_id": world["ruling"]}),
        reverse("adjudication:table_history", kwargs={"slug": slug, "number": 1, "table": 1}),
        reverse("scoring:rating_player", kwargs={"player_id": world["player"]}),
    ):
        assert HIDDEN in client.get(address).content.decode(), address


def test_the_masked_table_page_costs_what_it_did_plus_one(client, world, django_assert_num_queries):
    address = reverse("scoring:table", kwargs={"slug": world["jamaican"], "number": 2, "table": 1})
    # The event and the navigation's round list, the set, its grid 5, who does not consent 1.
    with django_assert_num_queries(9):
        assert client.get(address).status_code == 200
