"""No-shows and the waitlist (issue 26, item 2): over the field cap entries wait in the order entered; at
the release (the director's button, or the first seating of round 1 after the set time) the players
not checked in are released and the waitlist is promoted in order, each step audited and shown."""

from __future__ import annotations

from datetime import timedelta

from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, Seat
from scoring.services import door
from tests.conftest import new_director, new_event

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


class WaitlistTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.director = new_director("wait-director")
        cls.event = new_event(cls.director, name="Full House", slug="full-house")
        door.event_check_in_set(event=cls.event, user=cls.director, on=True)
        door.event_waitlist_set(event=cls.event, user=cls.director, cap=4)
        cls.entries = {
            name: services.entry_add(event=cls.event, user=cls.director, name=name) for name in NAMES
        }

    def setUp(self):
        self.client.force_login(self.director)

    def status(self, name):
        return Entry.objects.get(pk=self.entries[name].pk).status

    def check_in(self, *names):
        for name in names:
            door.entry_check_in(entry=self.entries[name], user=self.director)

    def test_over_the_cap_entries_wait_in_the_order_entered(self):
        assert [self.status(name) for name in NAMES] == ["active"] * 4 + ["waitlisted"] * 3
        logged = AuditEntry.objects.filter(action="kalooki.entry.waitlisted").order_by("pk")
        assert [entry.object_repr for entry in logged] == ["Eve", "Fay", "Gus"]
        page = self.client.get(reverse("scoring:door_list", kwargs={"slug": self.event.slug}))
        self.assertContains(page, "Waitlist, in order (3)")
        self.assertContains(page, "Missing (4)")

    def test_the_release_frees_the_missing_and_promotes_the_waitlist_in_order(self):
        # Dee has not come; on the waitlist Eve has not come either, Fay and Gus have.
        self.check_in("Ann", "Bob", "Cy", "Fay", "Gus")
        answer = self.client.post(
            reverse("scoring:door_release", kwargs={"slug": self.event.slug}), follow=True
        )
        self.assertContains(
            answer,
            "Released (not checked in): Dee. Promoted from the waitlist: Fay. "
            "Passed over (on the waitlist, not checked in): Eve. Still waiting: Gus.",
        )
        assert [self.status(name) for name in ("Dee", "Eve", "Fay", "Gus")] == [
            "withdrawn",
            "waitlisted",
            "active",
            "waitlisted",
        ]
        assert "No-show" in AuditEntry.objects.get(action="kalooki.entry.withdrawn").reason
        assert AuditEntry.objects.get(action="kalooki.entry.promoted").object_repr == "Fay"
        release = AuditEntry.objects.get(action="kalooki.waitlist.released")
        assert release.after == {
            "released": ["Dee"],
            "promoted": ["Fay"],
            "passed_over": ["Eve"],
            "waiting": ["Gus"],
        }
        rnd = services.round_create(event=self.event, user=self.director)
        services.round_seat(round=rnd, user=self.director, seed=1)
        assert set(Seat.objects.filter(round=rnd).values_list("entry__player__name", flat=True)) == {
            "Ann",
            "Bob",
            "Cy",
            "Fay",
        }
        refused = self.client.post(
            reverse("scoring:door_release", kwargs={"slug": self.event.slug}), follow=True
        )
        self.assertContains(refused, "Round 1 is already seated")

    def test_without_check_in_a_place_given_up_goes_to_the_first_waiting(self):
        door.event_check_in_set(event=self.event, user=self.director, on=False)
        services.entry_withdraw(entry=self.entries["Bob"], user=self.director, reason="Cannot come")
        done = door.waitlist_release(event=self.event, user=self.director)
        assert (done.released, done.promoted, done.waiting) == ([], ["Eve"], ["Fay", "Gus"])

    def test_at_the_set_time_seating_round_1_releases_first(self):
        self.check_in("Ann", "Bob", "Cy", "Eve")
        door.event_waitlist_set(
            event=self.event,
            user=self.director,
            cap=4,
            release_at=timezone.now() - timedelta(minutes=1),
            version=2,
        )
        rnd = services.round_create(event=self.event, user=self.director)
        answer = self.client.post(
            reverse("scoring:direct_round_seat", kwargs={"slug": self.event.slug, "number": 1}),
            {"seed": "3"},
            follow=True,
        )
        self.assertContains(answer, "Released (not checked in): Dee. Promoted from the waitlist: Eve.")
        assert Seat.objects.filter(round=rnd).count() == 4
        assert self.status("Eve") == "active"
