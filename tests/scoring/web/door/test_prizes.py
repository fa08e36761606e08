"""Prizes that split ties (issue 26, item 4), against figures worked out by hand: players sharing a place
pool the prizes of the places they cover and split them to the cent (the remainder stated); one prize a
player, the largest, unless more are allowed, and a prize forgone passes to the next eligible player.
Then the same over a real event (two tables playing the same sheet: every place is shared by two), on
the director's form, the public page and the PDF."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.test import TestCase
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Event, GameSet, Seat, Table
from scoring.prizes import Finisher, PrizeGroup, award_prizes, read_prize_table
from scoring.selectors.prizes import prize_list
from tests.conftest import load_json, new_director, new_event, renamed_sheet

SCREENSHOTS = Path(__file__).resolve().parents[4] / "build" / "screenshots"


def won(shares):
    return [(share.group, share.name, share.amount, share.places, share.remainder) for share in shares]


# Ann 1st; Bob and Cy share 2nd (they cover 2nd and 3rd); Dee 4th; Eve, Fay and Gus share 5th.
ORDER = [
    Finisher(1, "Ann", 1),
    Finisher(2, "Bob", 2),
    Finisher(3, "Cy", 2),
    Finisher(4, "Dee", 4),
    Finisher(5, "Eve", 5),
    Finisher(6, "Fay", 5),
    Finisher(7, "Gus", 5),
]
OVERALL = PrizeGroup("Overall", (50000, 30000, 20000))
# Liguanea's players: Cy (sharing 2nd overall), Eve, Fay and Gus (sharing 5th).
LIGUANEA = PrizeGroup("Liguanea", (15000, 5000), frozenset({3, 5, 6, 7}))


def test_the_prize_modules_worked_examples_hold():
    import doctest

    import scoring.prizes

    assert doctest.testmod(scoring.prizes).failed == 0


def test_two_players_sharing_2nd_split_the_2nd_and_3rd_prizes():
    # (300.00 + 200.00) / 2 = 250.00 each.
    assert won(award_prizes(ORDER, [OVERALL])) == [
        ("Overall", "Ann", 50000, (1, 1), 0),
        ("Overall", "Bob", 25000, (2, 3), 0),
        ("Overall", "Cy", 25000, (2, 3), 0),
    ]


def test_a_category_prize_with_a_tie_splits_to_the_cent_and_states_the_remainder():
    # Cy takes 250.00 overall, not Liguanea's 150.00, so Liguanea's prizes pass to Eve, Fay and Gus, who
    # share its 1st place and cover 1st and 2nd: (150.00 + 50.00) / 3 = 66.66 each, 0.02 left over.
    assert won(award_prizes(ORDER, [OVERALL, LIGUANEA]))[3:] == [
        ("Liguanea", "Eve", 6666, (1, 3), 2),
        ("Liguanea", "Fay", 6666, (1, 3), 2),
        ("Liguanea", "Gus", 6666, (1, 3), 2),
    ]


def test_a_player_takes_the_larger_category_prize_and_the_tie_moves_up():
    # Cy's 280.00 for the seniors beats a half share of 2nd and 3rd: Cy leaves the tie, Bob is 2nd alone
    # (300.00) and Dee moves up to 3rd (200.00).
    seniors = PrizeGroup("Seniors", (28000,), frozenset({3}))
    assert won(award_prizes(ORDER, [OVERALL, seniors])) == [
        ("Overall", "Ann", 50000, (1, 1), 0),
        ("Overall", "Bob", 30000, (2, 2), 0),
        ("Overall", "Dee", 20000, (3, 3), 0),
        ("Seniors", "Cy", 28000, (1, 1), 0),
    ]


def test_an_equal_category_prize_loses_to_the_overall_one():
    same = PrizeGroup("Liguanea", (25000,), frozenset({3}))
    shares = won(award_prizes(ORDER, [OVERALL, same]))
    assert ("Overall", "Cy", 25000, (2, 3), 0) in shares
    assert all(group != "Liguanea" or name != "Cy" for group, name, *_ in shares)


def test_with_more_than_one_prize_allowed_each_group_is_awarded_on_its_own():
    # Cy keeps the 250.00 and also heads Liguanea (150.00); Eve, Fay and Gus share 2nd–3rd: 50.00 / 3.
    assert won(award_prizes(ORDER, [OVERALL, LIGUANEA], allow_multiple=True))[3:] == [
        ("Liguanea", "Cy", 15000, (1, 1), 0),
        ("Liguanea", "Eve", 1666, (2, 4), 2),
        ("Liguanea", "Fay", 1666, (2, 4), 2),
        ("Liguanea", "Gus", 1666, (2, 4), 2),
    ]


def test_a_tie_wider_than_the_prizes_splits_what_its_places_pay():
    # Four share 1st over three prizes: (500 + 300 + 200) / 4 = 250.00 each.
    four = [Finisher(n, name, 1) for n, name in enumerate(("A", "B", "C", "D"), start=1)]
    assert [share.amount for share in award_prizes(four, [OVERALL])] == [25000] * 4


@pytest.mark.parametrize(
    ("fields", "where", "words"),
    [
        ({"currency": "JM"}, "currency", "three letters"),
        ({"places": "200, 300"}, "places", "2nd place pays more than 1st"),
        ({"places": "500, 1,500"}, "places", "3rd place pays more than 2nd"),
        ({"places": "500, ten"}, "places", "overall places, 2nd: expected an amount"),
        ({"categories": "Seniors | age > 60 | 100"}, "categories", "category 1"),
        ({"categories": "Club | club = A | 10\nclub | club = B | 5"}, "categories", "same name"),
    ],
)
def test_a_bad_prize_table_is_refused_naming_the_field(fields, where, words):
    from scoring.prizes import PrizeTableError

    typed = {"currency": "JMD", "places": "500, 300", "categories": "", "multiple": False, **fields}
    with pytest.raises(PrizeTableError) as refused:
        read_prize_table(**typed)
    assert refused.value.field == where and words in str(refused.value)


# --- over a real event ---------------------------------------------------------------------------

TABLE_1 = ("Ann", "Bob", "Cy", "Dee")  # the example sheet's seats: totals 675, 380, 660, 570
TABLE_2 = ("Eve", "Fay", "Gus", "Hal")  # the same sheet: Fay ties Bob, Hal Dee, Gus Cy, Eve Ann
CLUBS = {"Fay": "Liguanea", "Cy": "Liguanea", "Gus": "Liguanea"}


class PrizeListTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.director = new_director("prize-director")
        cls.event = new_event(
            cls.director,
            name="Purse Open",
            slug="purse-open",
            # No correction period: the round is final as it closes, and prizes are paid on final results.
            correction_minutes=0,
        )
        entries = {
            name: services.entry_add(event=cls.event, user=cls.director, name=name, club=CLUBS.get(name, ""))
            for name in TABLE_1 + TABLE_2
        }
        rnd = services.round_create(event=cls.event, user=cls.director)
        sheet = load_json("example-sheet.json")
        for number, names in enumerate((TABLE_1, TABLE_2), start=1):
            table = Table.objects.create(round=rnd, number=number, first_dealer=1)
            Seat.objects.bulk_create(
                Seat(table=table, round=rnd, position=position, entry=entries[name])
                for position, name in enumerate(names, start=1)
            )
            game_set = GameSet.objects.create(table=table)
            services.sheet_import(game_set=game_set, user=cls.director, data=renamed_sheet(sheet, names))
            services.set_verify(game_set=GameSet.objects.get(pk=game_set.pk), user=cls.director)

    def setUp(self):
        self.client.force_login(self.director)

    def save(self, **fields):
        typed = {"currency": "JMD", "places": "500, 300, 200, 100", "version": self.event.version, **fields}
        typed["categories"] = fields.get("categories", "Liguanea players | club = Liguanea | 150, 50")
        return self.client.post(
            reverse("scoring:door_prizes", kwargs={"slug": self.event.slug}), typed, follow=True
        )

    def lines(self):
        return {
            group.name: [(line.places, line.name, line.amount, line.shared) for line in group.lines]
            for group in prize_list(self.fresh()).groups
        }

    def fresh(self):
        return Event.objects.get(pk=self.event.pk)

    def test_the_prize_list_splits_each_shared_place_and_passes_a_forgone_prize_on(self):
        answer = self.save()
        self.assertContains(answer, "The prize table is saved.")
        prizes = prize_list(self.fresh())
        assert prizes.basis == "Final results after round 1" and prizes.final and not prizes.waiting
        # Bob and Fay share 1st: (500 + 300) / 2; Dee and Hal share 3rd: (200 + 100) / 2. Fay takes 400.00
        # rather than Liguanea's 150.00, so Cy and Gus (sharing Liguanea's 1st) split 150 + 50.
        assert self.lines() == {
            "Overall": [
                ("1st–2nd", "Bob", "400.00", "shared by 2: pool 800.00"),
                ("1st–2nd", "Fay", "400.00", "shared by 2: pool 800.00"),
                ("3rd–4th", "Dee", "150.00", "shared by 2: pool 300.00"),
                ("3rd–4th", "Hal", "150.00", "shared by 2: pool 300.00"),
            ],
            "Liguanea players": [
                ("1st–2nd", "Cy", "100.00", "shared by 2: pool 200.00"),
                ("1st–2nd", "Gus", "100.00", "shared by 2: pool 200.00"),
            ],
        }
        assert (prizes.awarded, prizes.offered) == ("1,300.00", "1,300.00")
        log = AuditEntry.objects.filter(action="kalooki.prizes.set").latest("pk")
        assert log.after["places"] == [50000, 30000, 20000, 10000]

    def test_a_round_in_its_correction_period_gives_no_prize_list_until_it_is_final(self):
        import datetime

        from django.template.loader import render_to_string
        from django.utils import timezone

        from scoring.models import Round

        self.save()
        # Round 1 closed, its correction period running until 21:30 local time: prizes are paid on
        # final results, so nothing is awarded yet and the list says until when.
        until = timezone.localtime(timezone.now()).replace(hour=21, minute=30, second=0, microsecond=0)
        if until <= timezone.now():
            until += datetime.timedelta(days=1)
        Round.objects.filter(event=self.event, number=1).update(final_at=until)
        waiting = prize_list(self.fresh())
        assert waiting.basis == "" and not waiting.final
        day = "" if until.date() == timezone.localtime(timezone.now()).date() else f"{until.day} {until:%b}, "
        assert waiting.waiting == [f"round 1 results provisional until {day}21:30"]
        assert all(group.lines == [] for group in waiting.groups)
        assert waiting.awarded == "0.00"
        shown = render_to_string("parts/_prize_list.html", {"prizes": waiting})
        assert "No prize list yet" in shown and "Not final yet: round 1 results provisional until" in shown
        # The period over: the same prizes as the worked example above.
        Round.objects.filter(event=self.event, number=1).update(final_at=timezone.now())
        final = prize_list(self.fresh())
        assert final.final and final.basis == "Final results after round 1" and final.awarded == "1,300.00"
        assert [line.name for line in final.groups[0].lines] == ["Bob", "Fay", "Dee", "Hal"]

    def test_with_more_than_one_prize_fay_also_heads_liguanea(self):
        self.save(multiple="on")
        assert self.lines()["Liguanea players"] == [
            ("1st", "Fay", "150.00", ""),
            ("2nd–3rd", "Cy", "25.00", "shared by 2: pool 50.00"),
            ("2nd–3rd", "Gus", "25.00", "shared by 2: pool 50.00"),
        ]

    def test_a_bad_table_is_refused_beside_its_field_and_nothing_changes(self):
        answer = self.save(places="100, 200")
        assert answer.status_code == 400
        self.assertContains(answer, "2nd place pays more than 1st", status_code=400)
        assert self.fresh().prizes == {}
        self.save()  # the form read at this version saves, and the event moves on
        stale = self.save(places="900")
        self.assertContains(stale, "Nothing was saved", status_code=409)
        assert self.fresh().prizes["places"][0] == 50000

    def test_the_public_page_and_the_pdf_show_the_list(self):
        from pypdf import PdfReader

        self.save()
        self.client.logout()
        page = self.client.get(reverse("scoring:prizes", kwargs={"slug": self.event.slug}))
        self.assertContains(page, "Computed from the <strong>final results after round 1</strong>")
        self.assertContains(page, "shared by 2: pool 800.00")
        pdf = self.client.get(reverse("scoring:pdf_prizes", kwargs={"slug": self.event.slug}))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / "prize-list.pdf").write_bytes(pdf.content)
        text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
        for words in ("Prize list", "Liguanea players", "Gus", "100.00", "Awarded 1,300.00 of 1,300.00 JMD"):
            assert words in text

    def test_player_fields_feed_categories_and_consent_hides_a_name_from_public_lists(self):
        import datetime

        from scoring.models import Entry

        def details(name, **fields):
            entry = Entry.objects.get(event=self.event, player__name=name)
            answer = self.client.post(
                reverse("scoring:door_player", kwargs={"slug": self.event.slug, "entry_id": entry.pk}),
                {"consent_public": "on", **fields},
                follow=True,
            )
            self.assertContains(answer, f"{name}&#x27;s details are saved.")

        details("Hal", date_of_birth="1950-01-01")
        details("Cy", parish="St Andrew")
        details("Fay", parish="Kingston", consent_public="")
        assert "date_of_birth" not in str(
            AuditEntry.objects.filter(action="kalooki.player.details_set").values_list("before", flat=True)
        )
        logged = AuditEntry.objects.filter(action="kalooki.player.details_set").order_by("pk").first()
        assert logged.after == {"parish": "", "consent_public": True, "date_of_birth": "changed"}
        assert "1950" not in str(list(AuditEntry.objects.values_list("after", flat=True)))
        self.save(categories="Seniors | age >= 60 | 200\nSt Andrew | parish = St Andrew | 80")
        # Hal (76 on the day) takes the seniors' 200.00 over a half of 3rd and 4th, so Dee is 3rd alone
        # (200.00); Cy takes St Andrew's 80.00 over a half of 4th (50.00), so Gus is 4th alone (100.00).
        assert self.lines() == {
            "Overall": [
                ("1st–2nd", "Bob", "400.00", "shared by 2: pool 800.00"),
                ("1st–2nd", "Player 6", "400.00", "shared by 2: pool 800.00"),
                ("3rd", "Dee", "200.00", ""),
                ("4th", "Gus", "100.00", ""),
            ],
            "Seniors": [("1st", "Hal", "200.00", "")],
            "St Andrew": [("1st", "Cy", "80.00", "")],
        }
        directors = prize_list(self.fresh(), public=False)
        assert directors.groups[0].lines[1].name == "Fay"
        page = self.client.get(reverse("scoring:door_players", kwargs={"slug": self.event.slug}))
        self.assertContains(page, 'value="1950-01-01"')
        self.client.logout()
        standings = self.client.get(reverse("scoring:standings", kwargs={"slug": self.event.slug}))
        self.assertContains(standings, "Player 6")
        self.assertNotContains(standings, "Fay")
        exported = self.client.get(
            reverse("scoring:standings", kwargs={"slug": self.event.slug}), {"_export": "csv"}
        )
        assert "Player 6" in exported.content.decode() and "Fay" not in exported.content.decode()
        assert "1950" not in exported.content.decode()
        public = self.client.get(reverse("scoring:prizes", kwargs={"slug": self.event.slug}))
        self.assertNotContains(public, "Fay")
        assert datetime.date(1950, 1, 1).isoformat() not in public.content.decode()

    def test_fay_without_consent_is_player_6_to_readers_and_fay_to_directors(self):
        from scoring.models import Entry

        fay = Entry.objects.get(event=self.event, player__name="Fay")
        answer = self.client.post(
            reverse("scoring:door_player", kwargs={"slug": self.event.slug, "entry_id": fay.pk}),
            {"parish": "Kingston", "consent_public": ""},
            follow=True,
        )
        self.assertContains(answer, "Fay&#x27;s details are saved.")
        pages = [
            reverse("scoring:round", kwargs={"slug": self.event.slug, "number": 1}),
            reverse("scoring:player", kwargs={"slug": self.event.slug, "entry_id": fay.pk}),
        ]
        for url in pages:  # the director, logged in
            page = self.client.get(url)
            assert page.status_code == 200 and "Fay" in page.content.decode(), url
        self.client.logout()
        for url in pages:
            text = self.client.get(url).content.decode()
            assert "Fay" not in text and "Player 6" in text, url
            # Only her: a consenting player at her table keeps the name.
            assert "Bob" in text or url.endswith(f"/p/{fay.pk}/"), url
