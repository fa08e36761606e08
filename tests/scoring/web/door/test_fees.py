"""Entry fees at the door (issue 26, item 3): the ledger's totals against figures worked out by hand,
a waiver needing a reason, a second record refused, a void kept, the CSV and XLSX exports, every change
audited, and what the door helper may and may not do."""

from __future__ import annotations

import csv
import io

from django.contrib.auth import get_user_model
from django.test import TestCase
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.door_models import FeeLine
from scoring.exports import BOM
from scoring.selectors.fees import fee_ledger
from scoring.services import door, fees
from tests.conftest import new_director, new_event

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


class FeeTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.director = new_director("fee-director")
        cls.helper = get_user_model().objects.create_user("fee-helper", password="pw-fee-2")
        cls.event = new_event(cls.director, name="Fee Night", slug="fee-night")
        door.event_door_helper_add(event=cls.event, user=cls.director, username="fee-helper")
        cls.entries = {
            name: services.entry_add(event=cls.event, user=cls.director, name=name) for name in NAMES
        }
        fees.event_fees_set(
            event=cls.event, user=cls.director, currency="jmd", schedule="Member = 1000\nNon-member = 1500.00"
        )

    def url(self, name, **kwargs):
        return reverse(f"scoring:{name}", kwargs={"slug": self.event.slug, **kwargs})

    def pay(self, name, fee, method, **extra):
        return self.client.post(
            self.url("door_fee_record", entry_id=self.entries[name].pk),
            {"fee": fee, "method": method, **extra},
            follow=True,
        )

    def night(self):
        """Ann member cash, Bob non-member card, Cy member transfer, Dee non-member cash then voided and
        paid as a member in cash, Eve waived (a volunteer), Fay still to pay."""
        self.client.force_login(self.helper)
        self.pay("Ann", "Member", "cash", note="receipt 1")
        self.pay("Bob", "Non-member", "card")
        self.pay("Cy", "Member", "transfer")
        self.pay("Dee", "Non-member", "cash")
        self.pay("Eve", "Member", "waived", reason="Volunteer on the door")
        self.client.force_login(self.director)
        dee = FeeLine.objects.get(entry=self.entries["Dee"])
        self.client.post(self.url("door_fee_void", line_id=dee.pk), {"reason": "She is a member"})
        self.pay("Dee", "Member", "cash")

    def test_the_ledger_totals_what_was_taken_by_method_and_by_fee(self):
        self.night()
        with self.assertNumQueries(5):  # the fees, the lines, by method, by fee, who is still to pay
            ledger = fee_ledger(self.event)
        # Cash: Ann 1,000 + Dee 1,000; card: Bob 1,500; transfer: Cy 1,000 — 4,500 taken. Eve's 1,000
        # waived, Dee's voided 1,500 counted nowhere, Fay still to pay.
        assert ledger.currency == "JMD"
        assert ledger.by_method == [
            ("Card", 1, "1,500.00"),
            ("Cash", 2, "2,000.00"),
            ("Transfer", 1, "1,000.00"),
        ]
        assert ledger.by_fee == [("Member", 3, "3,000.00"), ("Non-member", 1, "1,500.00")]
        assert (ledger.taken, ledger.waived) == ("4,500.00", "1,000.00")
        assert [name for _, name in ledger.unpaid] == ["Fay"]
        assert [(line.player, line.void) for line in ledger.lines if line.player == "Dee"] == [
            ("Dee", True),
            ("Dee", False),
        ]
        page = self.client.get(self.url("door_fees"))
        self.assertContains(page, '<strong id="fees-taken">4,500.00</strong>', html=True)
        actions = list(
            AuditEntry.objects.filter(action__startswith="kalooki.fees.")
            .order_by("pk")
            .values_list("action", flat=True)
        )
        assert actions == ["kalooki.fees.set"] + ["kalooki.fees.paid"] * 4 + ["kalooki.fees.waived"] + [
            "kalooki.fees.voided",
            "kalooki.fees.paid",
        ]

    def test_the_exports_carry_every_line_and_the_totals(self):
        from openpyxl import load_workbook

        self.night()
        text = self.client.get(self.url("door_fee_export", extension="csv")).content.decode()
        # Like every page's CSV it starts with the byte-order mark, so a spreadsheet reads it as UTF-8.
        assert text.startswith(BOM)
        text = text.removeprefix(BOM)
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0][:5] == ["recorded_at", "player", "fee", "method", "amount"]
        assert [row[1] for row in rows[1:7]] == ["Ann", "Bob", "Cy", "Dee", "Eve", "Dee"]
        assert rows[4][8] == "void" and rows[4][9] == "She is a member"
        assert rows[-2][:5] == ["", "total taken", "JMD", "", "4500.00"]
        book = load_workbook(
            io.BytesIO(self.client.get(self.url("door_fee_export", extension="xlsx")).content)
        )
        sheet = book.active
        values = list(sheet.iter_rows(values_only=True))
        assert values[-2][1] == "total taken" and float(values[-2][4]) == 4500.0
        assert self.client.get(self.url("door_fee_export", extension="pdf")).status_code == 404

    def test_a_second_record_is_refused_and_a_waiver_needs_a_reason(self):
        self.client.force_login(self.helper)
        self.pay("Ann", "Member", "cash")
        again = self.pay("Ann", "Member", "card")
        self.assertContains(again, "Ann&#x27;s fee is already recorded (Member, cash")
        refused = self.pay("Bob", "Member", "waived")
        self.assertContains(refused, "A waiver needs a reason.")
        unknown = self.pay("Cy", "Child", "cash")
        self.assertContains(unknown, "The event has no fee called &#x27;Child&#x27;")
        assert FeeLine.objects.filter(event=self.event).count() == 1

    def test_the_door_helper_records_fees_but_neither_voids_nor_sets_them(self):
        self.client.force_login(self.helper)
        self.pay("Ann", "Member", "cash")
        line = FeeLine.objects.get(entry=self.entries["Ann"])
        assert (
            self.client.post(self.url("door_fee_void", line_id=line.pk), {"reason": "x"}).status_code == 403
        )
        assert (
            self.client.post(
                self.url("door_fee_schedule"), {"currency": "GBP", "schedule": "A = 1"}
            ).status_code
            == 403
        )
        assert FeeLine.objects.get(pk=line.pk).voided_at is None
        page = self.client.get(self.url("door_fees"))
        self.assertNotContains(page, "The event's fees (directors)")

    def test_a_bad_fee_schedule_is_refused_naming_the_line(self):
        self.client.force_login(self.director)
        answer = self.client.post(
            self.url("door_fee_schedule"),
            {"currency": "JMD", "schedule": "Member = ten", "version": 2},
            follow=True,
        )
        self.assertContains(answer, "Fee 1 (Member): expected an amount")
