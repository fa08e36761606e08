"""`manage.py load_demo`: a demo event to click through, a season with ratings, and the demo director's
login.

Sixteen players in four clubs, two rounds of four tables. Round 1 is verified (so it has closed); in
round 2 two sets are verified, one is complete but carries a finding (a running total written wrong),
one is still in play after five deals — so the standings show each view: official after round 1 with
"round 2: 2 of 4 tables verified", round 2's verified sets, and provisional with each player's deals.
A club night a week earlier (twelve players, eight of them from the open, four known by name alone;
two rounds of three tables, every set verified) and the open make a season, so the season's standings
and the ratings across both events have something to show. The sheets come from the engine's seeded
simulator, so every run builds the same events. A British Kalooki night on the day of the open (twelve
players: round 1's three games verified, so the round has closed; in round 2 one game verified, one over,
one still running) and a North American Kaluki night the day before (ten players at two tables of five:
round 1 closed, round 2 with one game verified and one still running) show the other two games the
product runs. Running it again adds only what is missing and resets the demo director's password.

The published password (README) is for a developer's laptop (DEBUG on, `make run` on loopback). With
DEBUG off the database may be a real one on a network: the command refuses unless given --force, and
then the demo director gets a random password, printed once. --lock loads nothing and only replaces an
existing demo director's password with a random one (the venue mode runs it, so a login published in
the README never opens a laptop serving the hall's Wi-Fi).
"""

from __future__ import annotations

import copy
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from adjudication.engine.british_simulator import simulate_british_sheet
from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from adjudication.engine.simulator import simulate_sheet
from scoring import services
from scoring.models import Event, GameSet, Round, Season
from scoring.services.guards import touch_results

DEMO_SLUG = "demo-open"
CLUB_NIGHT_SLUG = "demo-club-night"
BRITISH_NIGHT_SLUG = "demo-british-night"
KALUKI_NIGHT_SLUG = "demo-kaluki-night"
SEASON_SLUG = "demo-season"
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
# The club night: eight players of the open (every club) and four newcomers without a membership id.
CLUB_NIGHT_PLAYERS = [
    *(PLAYERS[index] for index in (0, 1, 4, 5, 8, 9, 12, 13)),
    ("Maxine Bailey", "Liguanea", ""),
    ("Ricardo Shaw", "Mona", ""),
    ("Norma Green", "Half Way Tree", ""),
    ("Dalton Ellis", "Ocho Rios", ""),
]


# The British club night (British Kalooki, placement points): twelve players, three tables of four.
BRITISH_NIGHT_PLAYERS = [
    ("Margaret Hughes", "Red Lion", ""),
    ("Trevor Mills", "Red Lion", ""),
    ("Sandra Price", "Red Lion", ""),
    ("Keith Barnes", "Crown", ""),
    ("Janet Foster", "Crown", ""),
    ("Colin Webb", "Crown", ""),
    ("Pauline Shaw", "Swan", ""),
    ("Derek Lloyd", "Swan", ""),
    ("Brenda Knight", "Swan", ""),
    ("Gordon Hayes", "Red Lion", ""),
    ("Irene Carter", "Crown", ""),
    ("Stanley Ward", "Swan", ""),
]


# The North American Kaluki night (placement points, six hands a game): ten players, two tables of five.
KALUKI_NIGHT_PLAYERS = [
    ("Ruth Alvarez", "Maple Leaf", ""),
    ("Frank Dubois", "Maple Leaf", ""),
    ("Gloria Novak", "Maple Leaf", ""),
    ("Harold Banks", "Maple Leaf", ""),
    ("Lucille Ortiz", "Maple Leaf", ""),
    ("Walter Kim", "Bayview", ""),
    ("Edna Russo", "Bayview", ""),
    ("Marvin Cole", "Bayview", ""),
    ("Dolores Finch", "Bayview", ""),
    ("Vernon Price", "Bayview", ""),
]
KALUKI_HANDS = 6


def _names(game_set: GameSet) -> list[str]:
    return [seat.entry.player.name for seat in game_set.table.seats.order_by("position")]


def random_password() -> str:
    return secrets.token_urlsafe(12)


class Command(BaseCommand):
    help = "Load the demo event (idempotent) and print the demo director's login."

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="with DEBUG off, load it anyway; the demo director gets a random password, printed",
        )
        parser.add_argument(
            "--lock",
            action="store_true",
            help="load nothing; give an existing demo director a random password, printed",
        )

    def handle(self, *args, force: bool = False, lock: bool = False, **options):
        if lock:
            self._lock()
            return
        if not settings.DEBUG and not force:
            raise CommandError(
                "DEBUG is off, so this may be a real database: load_demo adds a demo event and a "
                "director account. Run it with --force to load it anyway (the demo director then gets a "
                "random password, printed)."
            )
        password = DEMO_PASSWORD if settings.DEBUG else random_password()
        director = self._director(password)
        event = Event.objects.filter(slug=DEMO_SLUG).first()
        created = event is None
        if event is None:
            event = self._build(director)
            self.stdout.write(f"Created the demo event {event.name!r} ({DEMO_SLUG}).")
        else:
            services.event_add_director(event=event, user=None, director=director)
            self.stdout.write(f"The demo event {event.name!r} ({DEMO_SLUG}) is already loaded.")
        night = Event.objects.filter(slug=CLUB_NIGHT_SLUG).first()
        if night is None:
            night = self._build_club_night(director, before=event)
            self.stdout.write(f"Created the club night {night.name!r} ({CLUB_NIGHT_SLUG}).")
        if not Event.objects.filter(slug=BRITISH_NIGHT_SLUG).exists():
            british = self._build_british_night(director, on=event)
            self.stdout.write(f"Created the British Kalooki night {british.name!r} ({BRITISH_NIGHT_SLUG}).")
        if not Event.objects.filter(slug=KALUKI_NIGHT_SLUG).exists():
            kaluki = self._build_kaluki_night(director, before=event)
            self.stdout.write(
                f"Created the North American Kaluki night {kaluki.name!r} ({KALUKI_NIGHT_SLUG})."
            )
        if created:
            self._usual_correction_period(event, director)
            # The open is the night being run: its results moved last, so its director lands on it.
            touch_results(event.pk)
        season = Season.objects.filter(slug=SEASON_SLUG).first()
        if season is None:
            season = services.season_create(
                user=director, name="Kingston Winter League", slug=SEASON_SLUG, events=[night, event]
            )
            self.stdout.write(f"Created the season {season.name!r} ({SEASON_SLUG}) of both events.")
        # The pages would compute them on their first visit; done here, they are there at once.
        for scope in (None, season):
            services.ratings_current(season=scope)
        self.stdout.write(f"Demo director login: {DEMO_USERNAME} / {password}")

    def _lock(self) -> None:
        director = get_user_model().objects.filter(username=DEMO_USERNAME).first()
        if director is None:
            self.stdout.write("No demo director here: nothing to lock.")
            return
        password = random_password()
        director.set_password(password)
        director.save()
        self.stdout.write(
            f"The demo director's published password no longer works: {DEMO_USERNAME} / {password}"
        )

    def _director(self, password: str):
        users = get_user_model()
        director, _ = users.objects.get_or_create(username=DEMO_USERNAME)
        director.set_password(password)
        director.save()
        # The demo director sets events up too (issue 11): create, change and clone from the site.
        services.grant_organiser(director)
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
            correction_minutes=0,  # the rounds it shows played are final at once
        )
        for name, club, membership in PLAYERS:
            services.entry_add(event=event, user=director, name=name, club=club, membership_id=membership)
        first = services.round_create(event=event, user=director)
        services.round_seat(round=first, user=director, seed=2026, keep_clubs_apart=True)
        # The demo's rounds are published as seated (a director reviews a real draw first).
        services.round_publish(round=first, user=director)
        for game_set in self._sets(first):
            self._play(game_set, director, seed=100 + game_set.table.number, verify=True)
        second = services.round_create(event=event, user=director)
        services.round_seat(round=second, user=director, seed=2027)
        # The demo's rounds are published as seated (a director reviews a real draw first).
        services.round_publish(round=second, user=director)
        sets = self._sets(second)
        for game_set in sets[:2]:
            self._play(game_set, director, seed=200 + game_set.table.number, verify=True)
        self._play(sets[2], director, seed=203, verify=False, wrong_total=True)
        self._play(sets[3], director, seed=204, verify=False, deals=5)
        return event

    @transaction.atomic
    def _build_club_night(self, director, *, before: Event) -> Event:
        """A week before the open: two rounds of three tables, every set verified (both rounds closed)."""
        event = services.event_create(
            user=director,
            name="Liguanea Club Night",
            slug=CLUB_NIGHT_SLUG,
            date_start=before.date_start - timedelta(days=7),
            venue="Liguanea Club, Kingston",
            directors=[director],
            correction_minutes=0,  # the rounds it shows played are final at once
        )
        for name, club, membership in CLUB_NIGHT_PLAYERS:
            services.entry_add(event=event, user=director, name=name, club=club, membership_id=membership)
        for number in (1, 2):
            rnd = services.round_create(event=event, user=director)
            services.round_seat(round=rnd, user=director, seed=3000 + number)
            # The demo's rounds are published as seated (a director reviews a real draw first).
            services.round_publish(round=rnd, user=director)
            for game_set in self._sets(rnd):
                self._play(game_set, director, seed=300 + 10 * number + game_set.table.number, verify=True)
        self._usual_correction_period(event, director)
        return event

    @transaction.atomic
    def _build_british_night(self, director, *, on: Event) -> Event:
        """A British Kalooki club night (placement points): round 1's three games verified (the round
        closes); round 2, seated by the standings, with one game verified, one over and waiting to be
        verified, one still running."""
        event = services.event_create(
            user=director,
            name="Red Lion British Kalooki Night",
            slug=BRITISH_NIGHT_SLUG,
            date_start=on.date_start,
            venue="Red Lion, Kingston",
            ruleset_preset="british",
            format=Event.Format.PLACEMENT,
            placement_points=[3, 2, 1, 0],
            directors=[director],
            correction_minutes=0,  # the rounds it shows played are final at once
        )
        for name, club, membership in BRITISH_NIGHT_PLAYERS:
            services.entry_add(event=event, user=director, name=name, club=club, membership_id=membership)
        rules = event.ruleset()
        first = services.round_create(event=event, user=director)
        services.round_seat(round=first, user=director, seed=4001, keep_clubs_apart=True)
        # The demo's rounds are published as seated (a director reviews a real draw first).
        services.round_publish(round=first, user=director)
        for game_set in self._sets(first):
            sheet = simulate_british_sheet(390 + game_set.table.number, _names(game_set), rules=rules)
            services.sheet_import(game_set=game_set, user=director, data=sheet)
            services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
        second = services.round_create(event=event, user=director)
        services.round_seat(round=second, user=director, seed=4002, method=Round.Method.STANDINGS)
        # The demo's rounds are published as seated (a director reviews a real draw first).
        services.round_publish(round=second, user=director)
        for game_set, (seed, hands) in zip(
            self._sets(second), ((401, None), (402, None), (403, 4)), strict=True
        ):
            sheet = simulate_british_sheet(seed, _names(game_set), rules=rules, hands=hands)
            services.sheet_import(game_set=game_set, user=director, data=sheet)
            if seed == 401:
                services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
        self._usual_correction_period(event, director)
        return event

    @transaction.atomic
    def _build_kaluki_night(self, director, *, before: Event) -> Event:
        """A North American Kaluki night (placement points, six hands a game) the day before the open:
        round 1's two games verified (the round closes); round 2 with one game verified, one running."""
        event = services.event_create(
            user=director,
            name="Bayview Kaluki Night",
            slug=KALUKI_NIGHT_SLUG,
            date_start=before.date_start - timedelta(days=1),
            venue="Bayview Hotel, Montego Bay",
            ruleset_preset="north-american",
            rules_overrides={"hands": KALUKI_HANDS},
            format=Event.Format.PLACEMENT,
            placement_points=[4, 3, 2, 1, 0],
            directors=[director],
            correction_minutes=0,  # the rounds it shows played are final at once
        )
        for name, club, membership in KALUKI_NIGHT_PLAYERS:
            services.entry_add(event=event, user=director, name=name, club=club, membership_id=membership)
        rules = event.ruleset()
        for number, running in ((1, None), (2, 2)):
            rnd = services.round_create(event=event, user=director)
            method = Round.Method.STANDINGS if number > 1 else Round.Method.RANDOM
            services.round_seat(round=rnd, user=director, seed=5000 + number, method=method)
            # The demo's rounds are published as seated (a director reviews a real draw first).
            services.round_publish(round=rnd, user=director)
            for game_set in self._sets(rnd):
                hands = running if game_set.table.number == running else None
                sheet = simulate_north_american_sheet(
                    500 + 10 * number + game_set.table.number, _names(game_set), rules=rules, hands=hands
                )
                services.sheet_import(game_set=game_set, user=director, data=sheet)
                if hands is None:
                    services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
        self._usual_correction_period(event, director)
        return event

    @staticmethod
    def _usual_correction_period(event: Event, director) -> None:
        """The played rounds are final at once (built with no correction period); the round being
        played, once closed, is provisional for the usual period (issue 21)."""
        services.event_update(
            event=event,
            user=director,
            correction_minutes=Event._meta.get_field("correction_minutes").default,
            reason="The demo's played rounds are final; a round closed from now on has the usual period.",
        )

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
