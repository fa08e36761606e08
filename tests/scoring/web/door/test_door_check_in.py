"""The door (issue 26, item 1): check-in by code, by name and at the door for an unregistered player;
the slip's address writes nothing on GET; seating seats only players checked in and names the others;
a player checked out mid-event is withdrawn from the next round; the door helper does the door and
nothing else. One event built once for the class (each test rolls back to it)."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.test import TestCase
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.door_codes import door_code_for
from scoring.models import Entry, Round, Seat
from scoring.selectors.door import check_in_list, door_find, door_rows
from scoring.services import door
from tests.conftest import new_director, new_event

SCREENSHOTS = Path(__file__).resolve().parents[4] / "build" / "screenshots"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


class DoorTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.director = new_director("door-director")
        cls.helper = get_user_model().objects.create_user("door-helper", password="pw-door-2")
        cls.event = new_event(cls.director, name="Door Open", slug="door-open")
        cls.entries = {
            name: services.entry_add(event=cls.event, user=cls.director, name=name) for name in NAMES
        }
        door.event_check_in_set(event=cls.event, user=cls.director, on=True)
        door.event_door_helper_add(event=cls.event, user=cls.director, username="door-helper")

    def setUp(self):
        self.client.force_login(self.director)

    def url(self, name, **kwargs):
        return reverse(f"scoring:{name}", kwargs={"slug": self.event.slug, **kwargs})

    def address(self, name):
        entry = self.entries[name]
        return self.url("door_check_in", entry_id=entry.pk, code=door_code_for(entry.pk))

    def checked_in(self, name) -> bool:
        return Entry.objects.get(pk=self.entries[name].pk).checked_in_at is not None

    def test_a_typed_code_finds_its_player_and_the_button_checks_them_in(self):
        code = door_code_for(self.entries["Cy"].pk)
        typed = f"{code[:3].lower()} {code[3:]}"
        page = self.client.get(self.url("door"), {"q": typed})
        assert [row.name for row in page.context["found"]] == ["Cy"]
        self.assertContains(page, "Check in Cy")
        self.assertContains(page, 'name="how" value="code"')
        self.client.post(self.address("Cy"), {"how": "code"})
        assert self.checked_in("Cy")
        log = AuditEntry.objects.filter(action="kalooki.door.checked_in").latest("pk")
        assert log.after["how"] == "code" and log.username == "door-director"

    def test_the_slips_address_writes_nothing_until_its_button_is_pressed(self):
        before = AuditEntry.objects.count()
        page = self.client.get(self.address("Dee"))
        self.assertContains(page, "Check in Dee")
        assert not self.checked_in("Dee") and AuditEntry.objects.count() == before
        answer = self.client.post(self.address("Dee"), {"how": "address"}, follow=True)
        self.assertContains(answer, "Dee (no. 4) is checked in.")
        assert self.checked_in("Dee")
        again = self.client.post(self.address("Dee"), follow=True)
        self.assertContains(again, "Dee is already checked in")
        assert AuditEntry.objects.filter(action="kalooki.door.checked_in").count() == 1

    def test_a_wrong_code_in_the_address_opens_nothing(self):
        entry = self.entries["Ann"]
        wrong = "ZZZZZZ" if door_code_for(entry.pk) != "ZZZZZZ" else "YYYYYY"
        assert self.client.get(self.url("door_check_in", entry_id=entry.pk, code=wrong)).status_code == 404
        assert self.client.post(self.url("door_check_in", entry_id=entry.pk, code=wrong)).status_code == 404
        assert not self.checked_in("Ann")

    def test_a_name_is_found_by_part_of_it_whatever_its_case(self):
        assert [row.name for row in door_find(self.event, "a")] == ["Ann", "Fay", "Hal", "Ida"]
        assert [row.name for row in door_find(self.event, "GUS")] == ["Gus"]
        self.client.post(self.address("Gus"), {"how": "name"})
        assert self.checked_in("Gus")
        page = self.client.get(self.url("door"), {"q": "nobody"})
        self.assertContains(page, "No player's code or name matches")

    def test_an_unregistered_player_is_entered_and_checked_in_at_the_door(self):
        answer = self.client.post(self.url("door_add"), {"name": "Jo", "club": "Liguanea"}, follow=True)
        self.assertContains(answer, "Jo entered at the door and checked in (from round 1).")
        jo = Entry.objects.get(event=self.event, player__name="Jo")
        assert jo.at_door and jo.checked_in_at is not None and jo.player.club == "Liguanea"
        lists = check_in_list(self.event)
        assert [row.name for row in lists.at_door] == ["Jo"] and lists.arrived == []
        assert len(lists.missing) == len(NAMES)
        refused = self.client.post(self.url("door_add"), {"name": "ann"})
        assert refused.status_code == 400
        self.assertContains(refused, "already entered", status_code=400)
        page = self.client.get(self.url("door_list"))
        self.assertContains(page, "Arrived unregistered (entered at the door) (1)")
        self.assertContains(page, "Missing (9)")

    def test_seating_seats_only_the_players_checked_in_and_names_the_others(self):
        for name in NAMES[:8]:
            door.entry_check_in(entry=self.entries[name], user=self.director)
        rnd = services.round_create(event=self.event, user=self.director)
        answer = self.client.post(
            self.url("direct_round_seat", number=rnd.number), {"seed": "7"}, follow=True
        )
        self.assertContains(answer, "Not checked in, left out: Ida.")
        seated = set(Seat.objects.filter(round=rnd).values_list("entry__player__name", flat=True))
        assert seated == set(NAMES[:8])
        log = AuditEntry.objects.filter(action="kalooki.round.seated").latest("pk")
        assert log.after["left_out"] == ["Ida"]

    def test_check_in_off_seats_everyone_as_before(self):
        door.event_check_in_set(event=self.event, user=self.director, on=False)
        rnd = services.round_create(event=self.event, user=self.director)
        services.round_seat(round=rnd, user=self.director, seed=3)
        assert Seat.objects.filter(round=rnd).count() == len(NAMES)
        assert "left_out" not in AuditEntry.objects.filter(action="kalooki.round.seated").latest("pk").after

    def test_a_player_checked_out_mid_event_is_withdrawn_from_the_next_round(self):
        for name in NAMES[:8]:
            door.entry_check_in(entry=self.entries[name], user=self.director)
        first = services.round_create(event=self.event, user=self.director)
        services.round_seat(round=first, user=self.director, seed=5)
        answer = self.client.post(
            self.url("door_check_out", entry_id=self.entries["Bob"].pk),
            {"reason": "Went home ill"},
            follow=True,
        )
        self.assertContains(answer, "Bob is checked out and withdrawn from the next round.")
        bob = Entry.objects.get(pk=self.entries["Bob"].pk)
        assert bob.status == Entry.Status.WITHDRAWN and bob.checked_in_at is None
        withdrawal = AuditEntry.objects.filter(action="kalooki.entry.withdrawn").latest("pk")
        assert "Checked out at the door. Went home ill" in withdrawal.reason
        # Round 1's seat stays (results played still count); round 2 seats the seven still in.
        assert Seat.objects.filter(round=first, entry=bob).exists()
        second = Round.objects.create(event=self.event, number=2)
        services.round_seat(round=second, user=self.director, seed=5, method="random")
        assert not Seat.objects.filter(round=second, entry=bob).exists()
        assert Seat.objects.filter(round=second).count() == 7
        # Checked in again, the ordinary reinstatement brings Bob back.
        door.entry_check_in(entry=bob, user=self.director)
        assert Entry.objects.get(pk=bob.pk).status == Entry.Status.ACTIVE

    def test_checking_out_before_the_first_round_withdraws_no_one(self):
        door.entry_check_in(entry=self.entries["Eve"], user=self.director)
        door.entry_check_out(entry=self.entries["Eve"], user=self.director)
        eve = Entry.objects.get(pk=self.entries["Eve"].pk)
        assert eve.status == Entry.Status.ACTIVE and eve.checked_in_at is None

    def test_the_door_helper_does_the_door_and_nothing_else(self):
        self.client.force_login(self.helper)
        for name in ("door", "door_list", "door_badges"):
            assert self.client.get(self.url(name)).status_code == 200, name
        page = self.client.get(self.url("door"))
        self.assertNotContains(page, "The door's settings")
        self.client.post(self.address("Fay"), {"how": "address"})
        assert self.checked_in("Fay")
        assert self.client.post(self.url("door_settings"), {}).status_code == 403
        assert self.client.post(self.url("door_helper_add"), {"username": "door-director"}).status_code == 403
        assert Entry.objects.get(pk=self.entries["Fay"].pk).event.check_in is True
        for name in ("direct", "direct_players_import", "self_entry_desk", "event_settings"):
            assert self.client.get(self.url(name)).status_code == 403, name
        assert self.client.post(self.url("direct_entry_add"), {"name": "Zed"}).status_code == 403
        assert (
            self.client.get(reverse("adjudication:log", kwargs={"slug": self.event.slug})).status_code == 403
        )

    def test_a_stranger_and_a_visitor_are_kept_out(self):
        stranger = get_user_model().objects.create_user("door-stranger", password="pw-door-3")
        self.client.force_login(stranger)
        assert self.client.get(self.url("door")).status_code == 403
        assert self.client.get(self.address("Ann")).status_code == 403
        assert self.client.post(self.address("Ann")).status_code == 403
        self.client.logout()
        assert self.client.get(self.address("Ann")).status_code == 302
        assert not self.checked_in("Ann")

    def test_the_badge_list_and_a_slip_print_the_codes(self):
        import io

        from pypdf import PdfReader

        rows = door_rows(self.event)
        assert [row.number for row in rows] == list(range(1, len(NAMES) + 1))
        badges = self.client.get(self.url("door_badges"))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / "door-badges.pdf").write_bytes(badges.content)
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(badges.content)).pages)
        for row in rows:
            assert f"{row.code[:3]} {row.code[3:]}" in text and row.name in text
        slip = self.client.get(self.url("door_slip", entry_id=self.entries["Ann"].pk))
        assert slip["Content-Type"] == "application/pdf"
        slip_text = PdfReader(io.BytesIO(slip.content)).pages[0].extract_text()
        assert "Ann" in slip_text and "Bob" not in slip_text

    def test_create_director_with_door_makes_a_door_helper_not_a_director(self):
        from io import StringIO

        from django.core.management import call_command

        out = StringIO()
        call_command(
            "create_director",
            "gate",
            "--event",
            "door-open",
            "--door",
            "--password",
            "gate-pw-19x",
            stdout=out,
        )
        assert "door helper at: Door Open" in out.getvalue()
        gate = get_user_model().objects.get(username="gate")
        assert self.event.door_staff.filter(pk=gate.pk).exists()
        assert not self.event.is_director(gate)
