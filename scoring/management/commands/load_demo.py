"""`manage.py load_demo`: a demo event to click through, and the demo director's login.

Sixteen players in four clubs, two rounds of four tables. Round 1 is verified; in round 2 two sets are
verified, one is complete but carries a finding (a running total written wrong), one is still in play
after five deals. The sheets come from the engine's seeded simulator, so every run builds the same
event. Running it again changes nothing but resets the demo director's password.
"""

from __future__ import annotations

import copy

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from adjudication.engine.simulator import simulate_sheet
from scoring import services
from scoring.models import Event, GameSet, Round

DEMO_SLUG = "demo-open"
DEMO_USERNAME = "demo-director"
# A demo account on a demo event: the password is printed on purpose.
DEMO_PASSWORD = "kalooki-demo-2026"
PLAYERS = [
    ("Marcia Brown", "Liguanea", "JKA-0001"),
    ("Desmond Hall", "Liguanea", "JKA-0002"),
    ("Paulette Reid", "Liguanea", "JKA-0003"),
    ("Winston Clarke", "Liguanea", "JKA-0004"),
    ("Sonia Campbell", "Mona", "JKA-0005"),
    ("Delroy Grant", "Mona", "JKA-0006"),
    ("Hyacinth Lewis", "Mona", "JKA-0007"),
    ("Errol Thompson", "Mona", "JKA-0008"),
    ("Claudette Morgan", "Half Way Tree", "JKA-0009"),
    ("Barrington Walker", "Half Way Tree", "JKA-0010"),
    ("Yvonne Francis", "Half Way Tree", "JKA-0011"),
    ("Lloyd Henry", "Half Way Tree", "JKA-0012"),
    ("Beverley Wright", "Ocho Rios", "JKA-0013"),
    ("Clive Robinson", "Ocho Rios", "JKA-0014"),
    ("Joy Williams", "Ocho Rios", "JKA-0015"),
    ("Neville Palmer", "Ocho Rios", "JKA-0016"),
]


def _names(game_set: GameSet) -> list[str]:
    return [seat.entry.player.name for seat in game_set.table.seats.order_by("position")]


class Command(BaseCommand):
    help = "Load the demo event (idempotent) and print the demo director's login."

    def handle(self, *args, **options):
        director = self._director()
        event = Event.objects.filter(slug=DEMO_SLUG).first()
        if event is None:
            event = self._build(director)
            self.stdout.write(f"Created the demo event {event.name!r} ({DEMO_SLUG}).")
        else:
            services.event_add_director(event=event, user=None, director=director)
            self.stdout.write(f"The demo event {event.name!r} ({DEMO_SLUG}) is already loaded.")
        self.stdout.write(f"Demo director login: {DEMO_USERNAME} / {DEMO_PASSWORD}")

    def _director(self):
        users = get_user_model()
        director, _ = users.objects.get_or_create(username=DEMO_USERNAME)
        director.set_password(DEMO_PASSWORD)
        director.save()
        return director

    @transaction.atomic
    def _build(self, director) -> Event:
        event = services.event_create(
            user=director,
            name="Kingston Demo Open",
            slug=DEMO_SLUG,
            date_start=timezone.localdate(),
            venue="Liguanea Club, Kingston",
            directors=[director],
        )
        for name, club, membership in PLAYERS:
            services.entry_add(event=event, user=director, name=name, club=club, membership_id=membership)
        first = services.round_create(event=event, user=director)
        services.round_seat(round=first, user=director, seed=2026, keep_clubs_apart=True)
        for game_set in self._sets(first):
            self._play(game_set, director, seed=100 + game_set.table.number, verify=True)
        second = services.round_create(event=event, user=director)
        services.round_seat(round=second, user=director, seed=2027)
        sets = self._sets(second)
        for game_set in sets[:2]:
            self._play(game_set, director, seed=200 + game_set.table.number, verify=True)
        self._play(sets[2], director, seed=203, verify=False, wrong_total=True)
        self._play(sets[3], director, seed=204, verify=False, deals=5)
        return event

    @staticmethod
    def _sets(rnd: Round) -> list[GameSet]:
        return list(
            GameSet.objects.filter(table__round=rnd)
            .select_related("table__round__event")
            .order_by("table__number")
        )

    @staticmethod
    def _play(game_set, director, *, seed, verify, deals=9, wrong_total=False):
        sheet = simulate_sheet(seed, _names(game_set), deals=deals)
        if wrong_total:
            # The finding the demo shows: a running total copied wrong on the paper sheet (V14).
            sheet = copy.deepcopy(sheet)
            scored = [deal for deal in sheet["deals"] if not deal.get("void")]
            first_player = sheet["players"][0]
            scored[3]["results"][first_player]["total"] += 10
        services.sheet_import(game_set=game_set, user=director, data=sheet)
        if verify:
            services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
