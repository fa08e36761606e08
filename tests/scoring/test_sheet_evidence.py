"""The signed sheet as evidence (issue 23, item 4): a phone at the table or the director's desk
photographs the signed sheet; the photo is kept downscaled, upright and without EXIF, seen by the
event's directors only, required before verifying a self-entered set when the event says so (every
game), and carried by the event's archive."""

from __future__ import annotations

import base64
import copy
import re
from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image
from self_entry_support import (
    fresh_limits,  # noqa: F401 (autouse: no wrong tries left over)
    phone_url,
    seat_code,
    table_token,
    turn_on,
)

from adjudication.archive import ArchiveError, event_export, event_import
from adjudication.models import AuditEntry
from scoring import photos, services
from scoring.models import Event, GameSet, Round, SelfEntryDeal, SheetPhoto
from scoring.selectors.evidence import sheet_evidence
from scoring.services import evidence
from scoring.services import self_entry as service
from tests.conftest import new_event
from tests.scoring.game_seam_support import GAME_TO_BOB, THREE, record_hands

pytestmark = pytest.mark.django_db
GPS = 0x8825


def jpeg(size=(300, 200), *, orientation: int | None = None, gps: bool = False) -> bytes:
    """A JPEG of `size` with EXIF: a camera, an orientation, a place."""
    image = Image.new("RGB", size, "white")
    image.paste((20, 20, 120), (10, 10, size[0] // 2, size[1] // 2))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    if orientation:
        exif[0x0112] = orientation
    if gps:
        place = exif.get_ifd(GPS)
        place[1], place[2] = "N", (18.0, 0.0, 5.0)
        place[3], place[4] = "W", (76.0, 47.0, 0.0)
    out = BytesIO()
    image.save(out, "JPEG", exif=exif.tobytes())
    return out.getvalue()


def upload(data: bytes, name: str = "IMG_0001.jpg", content_type: str = "image/jpeg"):
    return SimpleUploadedFile(name, data, content_type=content_type)


def photo_audits() -> int:
    return AuditEntry.objects.filter(action="kalooki.set.photo_added").count()


# --- the photo as kept ---------------------------------------------------------------------------


def test_the_stored_photo_is_upright_small_and_carries_no_exif():
    taken = jpeg((2200, 1100), orientation=6, gps=True)
    with Image.open(BytesIO(taken)) as original:
        assert original.getexif().get_ifd(GPS)[2] == (18.0, 0.0, 5.0)  # the test's photo has a place
    kept = photos.photo_prepared(taken, "IMG_0001.jpg")
    with Image.open(BytesIO(kept.data)) as image:
        assert image.format == "JPEG"
        assert not image.getexif() and "exif" not in image.info
        # Turned as the camera said (orientation 6: a quarter turn), its long side at most 2000.
        assert (image.width, image.height) == (kept.width, kept.height) == (1000, 2000)
    assert b"Exif" not in kept.data and b"PhoneMaker" not in kept.data
    assert len(kept.data) <= photos.MAX_STORED_BYTES
    assert not photos.has_metadata(kept.data) and photos.has_metadata(taken)
    # Brought back by an archive, a clean photo of ours is kept byte for byte; a photo with EXIF is not.
    assert photos.photo_kept(kept.data, "x").data == kept.data
    assert not photos.has_metadata(photos.photo_kept(taken, "x").data)


# --- the phone and the desk -----------------------------------------------------------------------


@pytest.fixture
def table(game_set, director):
    """The example table with self-entry on: its token, Bob's phone (seat 2)."""
    turn_on(game_set.table.round.event, director)
    token = table_token(game_set)
    bob = Client(REMOTE_ADDR="10.7.0.2")
    assert bob.get(phone_url(token)).status_code == 200
    return game_set, token, bob


def send(client, game_set, token, data: bytes, name: str = "IMG_0001.jpg", *, seat: int = 2, code=None):
    return client.post(
        phone_url(token, "self_entry_photo"),
        {
            "seat": seat,
            "seat_code": seat_code(game_set, seat) if code is None else code,
            "photo": upload(data, name),
        },
    )


def test_a_file_that_is_not_a_photo_or_too_large_is_refused_naming_it_and_nothing_is_kept(
    table, as_director, monkeypatch
):
    game_set, token, bob = table
    refused = send(bob, game_set, token, b"the scores: Ann 23, Bob 15", "scores.txt")
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "scores.txt: this is not a photo" in page and "JPEG, PNG or WebP" in page
    monkeypatch.setattr(photos, "MAX_UPLOAD_BYTES", 1000)
    big = jpeg((600, 400))
    assert len(big) > 1000
    refused = send(bob, game_set, token, big, "IMG_0002.jpg")
    assert refused.status_code == 400
    assert "IMG_0002.jpg: the file is 0.0 MB; a photo of the sheet may be at most 0.0 MB" in (
        refused.content.decode()
    )
    # The desk is refused the same way, the page shown again with the file named.
    desk = reverse("scoring:direct_photo_add", kwargs={"slug": "test-open", "number": 1, "table": 1})
    refused = as_director.post(desk, {"photo": upload(b"%PDF-1.7", "sheet.pdf", "application/pdf")})
    assert refused.status_code == 400
    assert "sheet.pdf: this is not a photo" in refused.content.decode()
    assert SheetPhoto.objects.count() == 0 and photo_audits() == 0


def test_a_phone_sends_a_photo_with_its_seat_code_and_only_the_events_directors_see_it(
    table, as_director, other_director
):
    game_set, token, bob = table
    assert send(bob, game_set, token, jpeg(gps=True), code="WRONG").status_code == 400
    assert SheetPhoto.objects.count() == 0
    sent = send(bob, game_set, token, jpeg(gps=True))
    assert sent.status_code == 302
    photo = SheetPhoto.objects.get()
    assert photo.by == "seat 2 (Bob)" and not photos.has_metadata(bytes(photo.data))
    audit = AuditEntry.objects.get(action="kalooki.set.photo_added")
    assert audit.after["sha256"] == photo.sha256 and audit.after["by"] == "seat 2 (Bob)"
    game_set.refresh_from_db()
    assert game_set.version == 1  # nothing of the results changed: a form open at the desk stays good
    address = reverse(
        "scoring:direct_photo", kwargs={"slug": "test-open", "number": 1, "table": 1, "photo_id": photo.pk}
    )
    # The director sees it beside the grid and the verify form, and the photo itself, never kept by a
    # cache.
    page = as_director.get(
        reverse("scoring:direct_table", kwargs={"slug": "test-open", "number": 1, "table": 1})
    )
    assert address in page.content.decode() and "photographed by seat 2 (Bob)" in page.content.decode()
    # And beside the table's rulings, where a dispute is settled.
    rulings = reverse("adjudication:table_rulings", kwargs={"slug": "test-open", "number": 1, "table": 1})
    assert address in as_director.get(rulings).content.decode()
    seen = as_director.get(address)
    assert seen.status_code == 200 and seen["Content-Type"] == "image/jpeg"
    assert seen.content == bytes(photo.data)
    assert "no-store" in seen["Cache-Control"] and "private" in seen["Cache-Control"]
    # Anyone else: the phone (its token is no log-in), a visitor, another event's director.
    client = Client()
    assert bob.get(address).status_code == 302 and client.get(address).status_code == 302
    client.force_login(other_director)
    assert client.get(address).status_code == 403
    # Another event's director, with a photo of their own: this event's photo is not theirs to open
    # through their own event's address either.
    elsewhere = new_event(other_director, name="Elsewhere", slug="elsewhere")
    theirs = reverse(
        "scoring:direct_photo", kwargs={"slug": elsewhere.slug, "number": 1, "table": 1, "photo_id": photo.pk}
    )
    assert client.get(theirs).status_code == 404


def test_the_table_page_reads_the_photos_in_fixed_queries(game_set, director, django_assert_num_queries):
    for _ in range(2):
        evidence.sheet_photo_add(game_set=game_set, user=director, upload=evidence.Upload.of(upload(jpeg())))
    game_set = GameSet.objects.select_related("table__round__event").get(pk=game_set.pk)
    with django_assert_num_queries(1):
        found = sheet_evidence(game_set)
    assert [row.by for row in found.photos] == ["director director"] * 2 and not found.needed
    assert all(row.size == len(photos.photo_prepared(jpeg(), "x").data) for row in found.photos)


# --- verifying ------------------------------------------------------------------------------------


def test_verifying_a_self_entered_set_with_no_photo_asks_for_one_when_the_event_requires_it(
    played, director, as_director
):
    game_set = played
    event = game_set.table.round.event
    event.refresh_from_db()
    # Off by default; the director asks for it on the self-entry desk (audited with the mode).
    assert not event.sheet_photo_required
    desk = reverse("scoring:self_entry_mode", kwargs={"slug": event.slug})
    posted = {"mode": "review", "version": event.version, "checkboxes_shown": "1", "photo_required": "on"}
    assert as_director.post(desk, posted).status_code == 302
    event.refresh_from_db()
    assert event.sheet_photo_required
    audit = AuditEntry.objects.filter(action="kalooki.event.self_entry").latest("pk")
    assert (audit.before["photo_required"], audit.after["photo_required"]) == (False, True)
    token = table_token(game_set)
    # A set the table entered nothing of is verified as ever; one it entered a deal of needs a photo.
    assert not sheet_evidence(game_set).needed
    SelfEntryDeal.objects.create(
        game_set=game_set,
        key=game_set.table.keys.get(),
        number=1,
        data={"deal": 1},
        idempotency_key="k",
        set_version=1,
        entered_seat=1,
        entered_device="phone-one-000000",
        status=SelfEntryDeal.Status.DISMISSED,
    )
    table_url = reverse("scoring:direct_table", kwargs={"slug": event.slug, "number": 1, "table": 1})
    assert "photograph the signed sheet" in as_director.get(table_url).content.decode()
    game_set.refresh_from_db()
    verify = reverse("scoring:direct_verify", kwargs={"slug": event.slug, "number": 1, "table": 1})
    refused = as_director.post(verify, {"version": game_set.version, "acknowledge": "on"})
    assert refused.status_code in (400, 409)
    assert "Round 1, table 1 entered its own deals" in refused.content.decode()
    game_set.refresh_from_db()
    assert not game_set.is_verified
    bob = Client(REMOTE_ADDR="10.7.0.3")
    assert send(bob, game_set, token, jpeg()).status_code == 302
    assert not sheet_evidence(game_set).needed
    services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
    game_set.refresh_from_db()
    assert game_set.is_verified
    # A verified set's phone page takes no more photos; the desk still may (a dispute comes later).
    assert send(bob, game_set, token, jpeg()).status_code == 409
    evidence.sheet_photo_add(game_set=game_set, user=director, upload=evidence.Upload.of(upload(jpeg())))
    assert SheetPhoto.objects.filter(game_set=game_set).count() == 2


def test_a_game_of_hands_entered_at_the_table_needs_its_photo_too(make_event, director, make_table):
    event = make_event(
        name="Club night", slug="club-night", ruleset_preset="british-swedish", format="placement"
    )
    turn_on(event, director)
    service.self_entry_mode_set(
        event=Event.objects.get(pk=event.pk), user=director, mode="record", photo_required=True
    )
    game_set = make_table(services.round_create(event=event, user=director), THREE)
    token = table_token(game_set)
    key = game_set.table.keys.get()
    entry, _ = service.self_entry_submit(
        key=key, seat=1, seat_code=seat_code(game_set, 1), device="phone-ann-0000001", data=GAME_TO_BOB[0],
        idempotency_key="hand-1",
    )  # fmt: skip
    service.self_entry_confirm(
        key=key, entry=entry, seat=2, seat_code=seat_code(game_set, 2), device="phone-bob-0000001"
    )
    record_hands(game_set, director, GAME_TO_BOB[1:])
    with pytest.raises(Exception, match="entered its own hands") as refused:
        services.set_verify(game_set=game_set, user=director)
    assert refused.value.code == "photo"
    cy = Client(REMOTE_ADDR="10.7.0.4")
    assert send(cy, game_set, token, jpeg(), seat=3).status_code == 302
    assert SheetPhoto.objects.get(game_set=game_set).by == "seat 3 (Cy)"
    services.set_verify(game_set=game_set, user=director)


# --- kept with the event --------------------------------------------------------------------------


def test_an_archive_round_trips_the_photos_and_refuses_a_damaged_one(played, director):
    game_set = played
    evidence.sheet_photo_add(game_set=game_set, user=director, upload=evidence.Upload.of(upload(jpeg())))
    archive = event_export(event=game_set.table.round.event)
    carried = archive["rounds"][0]["tables"][0]["evidence"]
    assert [item["by"] for item in carried] == ["director director"]
    event_import(data=archive, user=director, slug="copy")
    again = event_export(event=Event.objects.get(slug="copy"))
    assert again["rounds"][0]["tables"][0]["evidence"] == carried
    # A photo changed after the archive was written, or not a photo at all: refused, naming the place.
    place = re.escape("rounds[0].tables[0].evidence[0]")
    damaged = copy.deepcopy(archive)
    item = damaged["rounds"][0]["tables"][0]["evidence"][0]
    item["jpeg_base64"] = base64.b64encode(b"not a picture").decode()
    with pytest.raises(ArchiveError, match=rf"{place}\.sha256: is not the photo's own"):
        event_import(data=damaged, user=director, slug="damaged")
    del item["sha256"]
    with pytest.raises(ArchiveError, match=rf"{place}\.jpeg_base64: this is not a photo"):
        event_import(data=damaged, user=director, slug="damaged")
    # A photo written elsewhere with its EXIF comes in without it.
    item["jpeg_base64"] = base64.b64encode(jpeg(gps=True)).decode()
    event_import(data=damaged, user=director, slug="cleaned")
    kept = SheetPhoto.objects.get(game_set__table__round__event__slug="cleaned")
    assert not photos.has_metadata(bytes(kept.data))
    # Deleted with the event's rounds (and so with the event).
    Round.objects.filter(event__slug="copy").delete()
    assert not SheetPhoto.objects.filter(game_set__table__round__event__slug="copy").exists()
