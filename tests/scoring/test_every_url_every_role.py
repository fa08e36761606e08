"""Every URL of the `scoring` and `adjudication` namespaces, with every role, for every game: a GET
never answers a server error, and answers exactly what `scoring/permissions.py` says its decorator
answers.

The URLs come from `django.urls.get_resolver()`, walked through every include, so a new URL is walked
without anyone listing it; it fails here until `ACCESS` says who may open it, and fails if a keyword of
its path has no value in the world below (`KWARG_VALUES`), so no URL is skipped.

Roles: anonymous; another event's director; this event's director (who may also set events up: the
organiser permission); an organiser who directs nothing; the phone (no log-in, a table's token: the
phone URLs only, under /s/). Games: the Jamaican event's played table (the example sheet, in play), a
British game with hands, running (round 2), a verified British game (round 1, closed), and a North American
game running. URLs of a whole event are walked once a family; URLs of no event once ("site").

What each access answers a GET (permissions.py):
  director        `director_required`: anonymous -> the log-in page; anyone not directing the event,
                  another event's director and an organiser included -> 403; the director -> 200 (405
                  when the view takes POST only, 404 when the game has no such thing)
  organiser       `organiser_required` without a slug: anonymous -> log-in; not an organiser -> 403
  event_organiser `organiser_required` with a slug: must also direct the event, else 403
  season          `season_organiser_required`: anonymous -> log-in; not an organiser -> 403
  login           `login_required` (the desk): anonymous -> log-in; everyone else is sent on (302)
  public          anyone -> 200
  post            `require_POST` outside any other check: 405 for everyone
Every game's table answers its phone address (a British or North American table takes hands from phones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from tests.conftest import kept_for_the_module

pytestmark = pytest.mark.heavy

NAMESPACES = ("scoring", "adjudication")
ROLES = ("anonymous", "other_director", "director", "organiser", "phone")
GAMES = ("jamaican", "british", "british_verified", "north_american")
FAMILIES = ("jamaican", "british", "north_american")

# Who may open each URL (see the module's docstring), and what its GET answers those who may:
# "page" 200, "post" 405 (the view takes POST only), "sent_on" a redirect.
ACCESS: dict[str, tuple[str, str]] = {
    # scoring: public pages
    "home": ("public", "page"),
    "event": ("public", "page"),
    "standings": ("public", "page"),
    "round": ("public", "page"),
    "seating": ("public", "page"),
    "table": ("public", "page"),
    "player": ("public", "page"),
    "player_seat": ("public", "page"),
    "projector": ("public", "page"),
    # scoring/event_urls.py
    "desk": ("login", "sent_on"),
    "event_new": ("organiser", "page"),
    "director_search": ("organiser", "page"),
    "event_settings": ("event_organiser", "page"),
    "event_clone": ("event_organiser", "page"),
    # scoring/self_entry_urls.py: the director's desk
    "self_entry_desk": ("director", "page"),
    "self_entry_mode": ("director", "post"),
    "self_entry_regenerate": ("director", "post"),
    "self_entry_accept": ("director", "post"),
    "self_entry_dismiss": ("director", "post"),
    "self_entry_correct": ("director", "page"),
    # scoring/self_entry_urls.py: the phones (no log-in; require_POST before the token is read)
    "self_entry_short": ("public", "page"),
    "self_entry_phone": ("public", "page"),
    "self_entry_check": ("post", "post"),
    "self_entry_enter": ("post", "post"),
    "self_entry_confirm": ("post", "post"),
    "self_entry_reject": ("post", "post"),
    "self_entry_photo": ("post", "post"),
    "self_entry_set": ("post", "post"),
    "self_entry_withdraw": ("post", "post"),
    # scoring/entry_urls.py
    "direct": ("director", "page"),
    "direct_round_create": ("director", "post"),
    "direct_round_seat": ("director", "post"),
    "direct_entry_add": ("director", "post"),
    "direct_entry_withdraw": ("director", "post"),
    "direct_entry_reinstate": ("director", "post"),
    "direct_players_import": ("director", "page"),
    "direct_table": ("director", "page"),
    "direct_validate": ("director", "post"),
    "direct_deal": ("director", "page"),
    "direct_deal_delete": ("director", "post"),
    "direct_ruling": ("director", "post"),
    "direct_verify": ("director", "post"),
    "direct_game_verify": ("director", "post"),
    "direct_reopen": ("director", "post"),
    "direct_totals_readd": ("director", "post"),
    "direct_laydown": ("director", "post"),
    "direct_sheet_import": ("director", "page"),
    "direct_substitute": ("director", "page"),
    "direct_photo_add": ("director", "post"),
    "direct_photo": ("director", "page"),
    "direct_entry_mode": ("director", "post"),
    "direct_job_round_pack": ("director", "post"),
    "direct_job_standings": ("director", "post"),
    "direct_job_status": ("director", "page"),
    "direct_job_download": ("director", "page"),
    "direct_console": ("director", "page"),
    "direct_round_publish": ("director", "post"),
    "direct_what_can_go_wrong": ("director", "page"),
    # scoring/web/door/urls.py: the door (directors and door helpers; the walk has no door helper,
    # tests/scoring/web/door/test_door_check_in.py walks the helper's side)
    "door": ("director", "page"),
    "door_check_in": ("director", "page"),
    "door_check_out": ("director", "post"),
    "door_add": ("director", "post"),
    "door_list": ("director", "page"),
    "door_badges": ("director", "page"),
    "door_slip": ("director", "page"),
    "door_settings": ("director", "post"),
    "door_helper_add": ("director", "post"),
    "door_prizes": ("director", "page"),
    "door_release": ("director", "post"),
    "door_players": ("director", "page"),
    "door_player": ("director", "post"),
    "door_fees": ("director", "page"),
    "door_fee_schedule": ("director", "post"),
    "door_fee_record": ("director", "post"),
    "door_fee_void": ("director", "post"),
    "door_fee_export": ("director", "page"),
    "prizes": ("public", "page"),
    "pdf_prizes": ("public", "page"),
    # scoring/pdf_urls.py
    "pdf_table_blank": ("director", "page"),
    "pdf_table_sheet": ("director", "page"),
    "pdf_round_sheets": ("director", "page"),
    "pdf_round_fallback": ("director", "page"),
    "pdf_seating": ("public", "page"),
    "pdf_standings": ("public", "page"),
    # scoring/league_urls.py
    "ratings": ("public", "page"),
    "rating_rule": ("season", "page"),
    "rating_player": ("public", "page"),
    "rating_chart": ("public", "page"),
    "player_merge": ("post", "post"),
    "player_unmerge": ("post", "post"),
    "league_log": ("season", "page"),
    "seasons": ("public", "page"),
    "season_new": ("season", "page"),
    "season": ("public", "page"),
    "season_ratings": ("public", "page"),
    "season_pdf": ("public", "page"),
    "season_edit": ("season", "page"),
    "season_series": ("public", "page"),
    "season_series_lots": ("post", "post"),
    "season_series_final": ("post", "post"),
    "published_lists": ("public", "page"),
    "publish": ("post", "post"),
    "published_list": ("public", "page"),
    "published_pdf": ("public", "page"),
    # adjudication/urls.py
    "adjudication:rulings": ("director", "page"),
    "adjudication:ruling": ("public", "page"),
    "adjudication:ruling_appeal": ("director", "post"),
    "adjudication:ruling_decide": ("director", "post"),
    "adjudication:table_rulings": ("director", "page"),
    "adjudication:table_history": ("public", "page"),
    "adjudication:log": ("director", "page"),
}

# Every keyword a walked path may hold; `kwargs_for` takes each one's value from the world.
KWARG_VALUES = {"slug", "number", "table", "sequence", "entry_id", "position", "job_id", "ruling_id"}
KWARG_VALUES |= {"token", "player_id", "code", "line_id", "extension", "photo_id"}


@dataclass(frozen=True)
class Walked:
    name: str  # as reverse() takes it: "scoring:direct_verify"
    route: str  # the whole path pattern, for messages
    kwargs: tuple[str, ...]

    @property
    def short(self) -> str:
        namespace, _, name = self.name.partition(":")
        return name if namespace == "scoring" else f"{namespace}:{name}"

    @property
    def phone(self) -> bool:
        return self.route.startswith("s/")


def _walk(patterns, namespace: str | None, prefix: str, kwargs: tuple[str, ...]):
    for item in patterns:
        route = prefix + str(item.pattern)
        names = kwargs + tuple(item.pattern.converters)
        if isinstance(item, URLResolver):
            inner = item.namespace or namespace
            yield from _walk(item.url_patterns, inner, route, names)
        elif isinstance(item, URLPattern) and namespace in NAMESPACES and item.name:
            yield Walked(f"{namespace}:{item.name}", route, names)


EVERY_PATTERN = list(_walk(get_resolver().url_patterns, None, "", ()))
# By name, as reverse() reaches them (two patterns under one name would hide one: the first test says so).
WALKED = sorted({item.name: item for item in reversed(EVERY_PATTERN)}.values(), key=lambda item: item.name)


def games_for(item: Walked) -> tuple[str, ...]:
    """A table's URL for every game; an event's for each family; the site's once."""
    if "table" in item.kwargs or "token" in item.kwargs or "sequence" in item.kwargs:
        return GAMES
    if item.short.startswith(("season", "published")) or "slug" not in item.kwargs:
        return ("site",)
    return FAMILIES


def roles_for(item: Walked) -> tuple[str, ...]:
    """The phone holds a table's token only: it is walked over the phone's URLs."""
    return ROLES if item.phone else tuple(role for role in ROLES if role != "phone")


# (URL, game, role) that fail today because British Kalooki has no games seam yet: the phone page of a
# British table reads it with the Jamaican rules (500: 'BritishRuleSet' object has no attribute
# 'void_redeal'); tests/scoring/test_game_seam_defects.py pins the same defect down, with the phone's
# deal. Every other GET of the walk answers as it should today. When the seam lands these pass (strict
# xfail then fails): take them out of the set.


def cases():
    for item in WALKED:
        for game in games_for(item):
            for role in roles_for(item):
                marks = []
                yield pytest.param(item, game, role, id=f"{item.short}-{game}-{role}", marks=marks)


CASES = list(cases())


# --- the world ------------------------------------------------------------------------------------


def _build_world() -> dict[str, Any]:
    from datetime import date

    from django.contrib.auth import get_user_model
    from self_entry_support import deal_one_data, seat_code, table_token, turn_on

    from scoring import services
    from scoring.games import BRITISH
    from scoring.models import Deal, Entry, GameSet, Seat, Table
    from scoring.services.published import rating_list_publish
    from tests.conftest import FOUR, finished_round_pack, kept_sheet_photo, load_json
    from tests.scoring.game_seam_support import (
        GAME_TO_BOB,
        THREE,
        record_hands,
        renamed_hands,
        self_entry_on,
        verify_game,
    )

    users = get_user_model().objects
    director = users.create_user("walk-director", password="pw-walk-1")
    services.grant_organiser(director)
    other_director = users.create_user("walk-other", password="pw-walk-2")
    organiser = users.create_user("walk-organiser", password="pw-walk-3")
    services.grant_organiser(organiser)

    def event(**fields):
        # Final as each round closes: the verified British game rates its players at once.
        fields.setdefault("correction_minutes", 0)
        return services.event_create(user=director, date_start="2026-12-05", directors=[director], **fields)

    services.event_create(
        user=other_director, name="Elsewhere", slug="walk-elsewhere", date_start="2026-12-05",
        directors=[other_director],
    )  # fmt: skip

    def table(rnd, names, number):
        entries = {name: services.entry_add(event=rnd.event, user=director, name=name) for name in names}
        made = Table.objects.create(round=rnd, number=number, first_dealer=1)
        Seat.objects.bulk_create(
            Seat(table=made, round=rnd, position=position, entry=entries[name])
            for position, name in enumerate(names, start=1)
        )
        return GameSet.objects.create(table=made), entries

    # The Jamaican event: round 1 seated, its table played (the example sheet), a ruling, a deal a
    # phone entered waiting in the director's queue.
    jamaican = event(name="Walk Open", slug="walk-open")
    jamaican_set, jamaican_entries = table(services.round_create(event=jamaican, user=director), FOUR, 1)
    turn_on(jamaican, director, mode="review")
    jamaican_token = table_token(jamaican_set)
    queued, _ = services.self_entry.self_entry_submit(
        key=jamaican_set.table.keys.get(retired_at__isnull=True),
        seat=1,
        seat_code=seat_code(jamaican_set, 1),
        device="walk-device-0000001",
        data=deal_one_data(FOUR),
        idempotency_key="walk-1",
    )
    services.sheet_import(game_set=jamaican_set, user=director, data=load_json("example-sheet.json"))
    jamaican_ruling = services_ruling(jamaican_set, jamaican_entries["Bob"], director)
    jamaican_photo = kept_sheet_photo(jamaican_set, "director walk-director")

    # The British event: round 1's one game verified (the round closes: its players are rated), round
    # 2's game running with two hands.
    british = event(name="Walk Club", slug="walk-club", ruleset_preset="british-swedish", format="placement")
    finished, _ = table(services.round_create(event=british, user=director), ("Dee", "Eve", "Fay"), 1)
    record_hands(finished, director, renamed_hands(("Dee", "Eve", "Fay")))
    verify_game(finished, director)
    running, british_entries = table(services.round_create(event=british, user=director), THREE, 1)
    record_hands(running, director, GAME_TO_BOB[:2])
    self_entry_on(british, director)
    british_ruling = services_ruling(running, british_entries["Bob"], director, allow_refusal=True)

    # The North American event: round 1's game running, two hands scored.
    north_american = event(
        name="Walk Kaluki",
        slug="walk-kaluki",
        ruleset_preset="north-american",
        rules_overrides={"hands": 4},
        format="placement",
    )
    kaluki, kaluki_entries = table(
        services.round_create(event=north_american, user=director), ("Gus", "Hal", "Ida"), 1
    )
    rules = north_american.ruleset()
    record_hands(
        kaluki,
        director,
        simulate_north_american_sheet(5, ("Gus", "Hal", "Ida"), rules=rules, hands=2, dealers=False)["deals"],
    )

    season = services.season_create(user=director, name="Walk Season", events=[jamaican, british])
    services.ratings_recompute()  # the verified game rates its players: Dee's rating page and chart
    published = rating_list_publish(game=BRITISH, day=date.today(), user=director)
    ann = Entry.objects.get(event=jamaican, player__name="Ann")
    dee = Entry.objects.get(event=british, player__name="Dee")
    assert Deal.objects.filter(game_set=jamaican_set).count() == 9
    # Each account logs in once: the tests carry its session cookie (a log-in a test would cost a
    # session written and the last log-in updated, 600 times over).
    sessions = {}
    for role, user in (("director", director), ("other_director", other_director), ("organiser", organiser)):
        client = Client()
        client.force_login(user)
        sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {
        "sessions": sessions,
        "season": season.slug,
        "published": published.slug,
        "player": dee.player_id,
        "games": {
            "jamaican": {
                "event": jamaican,
                "set": jamaican_set,
                "entry": ann.pk,
                "token": jamaican_token,
                "queued": queued.pk,
                "ruling": jamaican_ruling,
                "job": finished_round_pack(jamaican).pk,
                "photo": jamaican_photo.pk,
            },
            "british": {
                "event": british,
                "set": running,
                "entry": british_entries["Ann"].pk,
                "token": table_token(running),
                "queued": None,
                "ruling": british_ruling,
                "job": finished_round_pack(british).pk,
            },
            "north_american": {
                "event": north_american,
                "set": kaluki,
                "entry": kaluki_entries["Gus"].pk,
                "token": table_token(kaluki),
                "queued": None,
                "ruling": None,
                "job": finished_round_pack(north_american).pk,
            },
            "british_verified": {
                "event": british,
                "set": finished,
                "entry": british_entries["Ann"].pk,
                "token": table_token(finished),
                "queued": None,
                "ruling": british_ruling,
                "job": None,
            },
        },
    }


def services_ruling(game_set, entry, user, *, allow_refusal: bool = False) -> int | None:
    """A ruling on deal 1 of the set (an other-points ruling), or None where the game refuses one."""
    from django.core.exceptions import ValidationError

    from adjudication import services as adjudication
    from scoring.models import Deal

    deal = Deal.objects.get(game_set=game_set, sequence=1)
    try:
        return adjudication.ruling_issue(
            deal=deal, entry=entry, user=user, kind="other", points=5, reason="Walk: a card shown"
        ).pk
    except (ValidationError, AttributeError, TypeError):
        if not allow_refusal:
            raise
        return None


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the module inside a transaction rolled back at its end; each test runs in its
    own savepoint (`db`), so a GET that writes leaves nothing for the next."""
    with kept_for_the_module(django_db_blocker):
        yield _build_world()


MISSING = 2**31 - 7  # an id no row has: the game has no such thing


def kwargs_for(item: Walked, game: str, world) -> tuple[dict[str, Any], bool]:
    """The path's keywords for `game`, and whether the game lacks the thing the URL names (404)."""
    values = world["games"]["jamaican" if game == "site" else game]
    event = values["event"]
    table = values["set"].table
    lacking = False

    def have(value):
        nonlocal lacking
        if value is None:
            lacking = True
            return MISSING
        return value

    filled: dict[str, Any] = {}
    for key in item.kwargs:
        if key == "slug":
            filled[key] = world["season"] if item.short.startswith("season") else event.slug
            filled[key] = world["published"] if item.short.startswith("published") else filled[key]
        elif key == "number":
            filled[key] = table.round.number
        elif key == "table":
            filled[key] = table.number
        elif key in ("sequence", "position"):
            filled[key] = 1
        elif key == "entry_id":
            # The self-entry URLs name a deal a phone entered; the others an entry of the event.
            filled[key] = have(values["queued"]) if item.short.startswith("self_entry") else values["entry"]
        elif key == "job_id":
            filled[key] = have(values["job"])
        elif key == "ruling_id":
            filled[key] = have(values["ruling"])
        elif key == "photo_id":
            filled[key] = have(values.get("photo"))
        elif key == "token":
            filled[key] = values["token"]
        elif key == "player_id":
            filled[key] = world["player"]
        elif key == "line_id":
            filled[key] = have(None)  # no fee line in the walk's world: POST-only, 405 before it is read
        elif key == "extension":
            filled[key] = "csv"
        elif key == "code":
            from scoring.door_codes import door_code_for

            filled[key] = door_code_for(values["entry"])
        else:
            pytest.fail(f"{item.name} ({item.route}): no value for <{key}>; add it to the world")
    return filled, lacking


def expected(item: Walked, role: str, game: str, *, lacking: bool) -> set[int] | str:
    """The statuses a GET may answer, or "login" for the redirect to the log-in page."""
    access, answer = ACCESS[item.short]
    anonymous = role in ("anonymous", "phone")
    if access == "post":
        return {405}
    if access == "public":
        return {404} if lacking else {200}
    if anonymous:
        return "login"
    allowed = {
        "director": role == "director",
        "organiser": role in ("director", "organiser"),
        "event_organiser": role == "director",
        "season": role in ("director", "organiser"),
        "login": True,
    }[access]
    if not allowed:
        return {403}
    if answer == "post":
        return {405}
    if answer == "sent_on":
        return {302}
    return {404} if lacking else {200}


# --- the tests ------------------------------------------------------------------------------------


def test_the_walk_finds_every_namespace_and_knows_every_url():
    names = {item.short for item in WALKED}
    twice = sorted(
        {item.name for item in EVERY_PATTERN if [p.name for p in EVERY_PATTERN].count(item.name) > 1}
    )
    assert not twice, f"two URL patterns share a name, so reverse() walks only one: {twice}"
    assert len(WALKED) >= 60, "the URL modules stopped loading"
    assert {"home", "direct_verify", "self_entry_phone", "adjudication:log"} <= names
    unknown = sorted(names - set(ACCESS))
    assert not unknown, f"say who may open these URLs in ACCESS: {unknown}"
    gone = sorted(set(ACCESS) - names)
    assert not gone, f"these URLs are gone: take them out of ACCESS: {gone}"
    unfilled = sorted({(item.name, key) for item in WALKED for key in item.kwargs if key not in KWARG_VALUES})
    assert not unfilled, f"no value in the walk's world for: {unfilled}"
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))


@pytest.fixture
def pdf_drawn_once(monkeypatch, role):
    """A PDF is drawn for real for the director (every PDF URL, every game); for the other roles the
    page is built as for the director and only weasyprint's layout is skipped — what differs between
    roles is who may have it, and drawing the same PDF five times would take most of the walk's time."""
    if role != "director":
        import weasyprint

        monkeypatch.setattr(weasyprint.HTML, "write_pdf", lambda self, *args, **kwargs: b"%PDF-1.7 walk\n")


@pytest.mark.parametrize(("item", "game", "role"), CASES)
def test_a_get_answers_what_its_role_may_see(world, db, pdf_drawn_once, item: Walked, game: str, role: str):
    assert item.short in ACCESS, f"{item.name} ({item.route}): say who may open it in ACCESS"
    kwargs, lacking = kwargs_for(item, game, world)
    address = reverse(item.name, kwargs=kwargs)
    client = Client(raise_request_exception=False, REMOTE_ADDR="10.20.30.40")
    if role in world["sessions"]:
        client.cookies[settings.SESSION_COOKIE_NAME] = world["sessions"][role]
    response = client.get(address)
    status = response.status_code
    assert status < 500, f"{address} as {role}: {status}"
    want = expected(item, role, game, lacking=lacking)
    if want == "login":
        assert status == 302, f"{address} as {role}: {status}, not the log-in page"
        location = urlsplit(response["Location"])
        assert location.path == resolve_url(settings.LOGIN_URL), response["Location"]
        return
    assert status in want, f"{address} as {role}: {status}, expected {sorted(want)}"
    if status == 302:
        assert urlsplit(response["Location"]).path != resolve_url(settings.LOGIN_URL)
